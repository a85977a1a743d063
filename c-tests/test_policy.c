/* Policy: denial before any body read (discovery, requested target, items),
 * operational policy failures, and the recheck after the reads (now-hidden
 * items removed silently, revoked items removed with an issue, newly visible
 * items reported and never read late, root denial at the recheck). */
#include <stdlib.h>

#include "harness.h"

static const char *BUNDLE = "{\"uri\":\"bundle://all\",\"name\":\"all\"}";

static mcpr_resources *registry(host_policy *hp, host_binding *hb) {
    mcpr_builder *b = host_builder(hp);
    CHECK_STATUS(host_add(b, BUNDLE, hb), MCPR_OK);
    return host_build(b);
}

static void test_before_reads(void) {
    /* discovery denied: unavailable, nothing resolved or read */
    {
        host_policy hp = {.deny_discover = {"bundle://all"}};
        host_binding hb = {.items = {"item://ok/a"}};
        mcpr_resources *r = registry(&hp, &hb);
        mcpr_error *e = NULL;
        CHECK_STATUS(host_read(r, "bundle://all", NULL, NULL, NULL, &e), MCPR_UNAVAILABLE);
        CHECK(str_contains(mcpr_error_cause(e), "") && mcpr_error_jsonrpc_code(e) == -32602);
        mcpr_error_free(e);
        CHECK(atomic_load(&hb.resolve_calls) == 0 && atomic_load(&hb.body_reads) == 0);
        mcpr_resources_free(r);
    }
    /* requested target hidden, or its read denied: root denial, no body */
    {
        host_policy hp = {.hidden = {"bundle://all"}};
        host_binding hb = {.items = {"item://ok/a"}};
        mcpr_resources *r = registry(&hp, &hb);
        CHECK_STATUS(host_read(r, "bundle://all", NULL, NULL, NULL, NULL), MCPR_UNAVAILABLE);
        CHECK(atomic_load(&hb.resolve_calls) == 1 && atomic_load(&hb.body_reads) == 0);
        mcpr_resources_free(r);
    }
    {
        host_policy hp = {.denied = {"bundle://all"}};
        host_binding hb = {.items = {"item://ok/a"}};
        mcpr_resources *r = registry(&hp, &hb);
        CHECK_STATUS(host_read(r, "bundle://all", NULL, NULL, NULL, NULL), MCPR_UNAVAILABLE);
        CHECK(atomic_load(&hb.body_reads) == 0);
        mcpr_resources_free(r);
    }
    /* a hidden item is outside the selection (no issue, never read); a
     * visible denied item is an unavailable issue and never read */
    {
        host_policy hp = {.hidden = {"item://ok/hidden"}, .denied = {"item://ok/denied"}, .disclose = true};
        host_binding hb = {.items = {"item://ok/a", "item://ok/hidden", "item://ok/denied"}};
        mcpr_resources *r = registry(&hp, &hb);
        char *json = NULL;
        bool partial = false;
        CHECK_STATUS(host_read(r, "bundle://all", NULL, &json, &partial, NULL), MCPR_OK);
        CHECK(partial && json);
        if (json) {
            mcpr_str j = str_of(json);
            CHECK(!str_contains(j, "item://ok/hidden"));
            CHECK(str_contains(j, "{\"code\":\"unavailable\",\"message\":\"The resource item is unavailable.\",\"retryable\":false,\"resourceUri\":\"item://ok/denied\"}"));
            CHECK(str_count(j, "\"code\":") == 1); /* one issue in _meta (escaped inside the warning text) */
            CHECK(str_count(j, "\\\"code\\\":") == 1);
        }
        free(json);
        CHECK(atomic_load(&hb.body_reads) == 1);
        mcpr_resources_free(r);
    }
    /* every item hidden: a legitimately empty visible selection succeeds */
    {
        host_policy hp = {.hidden = {"item://ok/a"}};
        host_binding hb = {.items = {"item://ok/a"}};
        mcpr_resources *r = registry(&hp, &hb);
        char *json = NULL;
        bool partial = true;
        CHECK_STATUS(host_read(r, "bundle://all", NULL, &json, &partial, NULL), MCPR_OK);
        CHECK(!partial && json && strncmp(json, "{\"contents\":[],", 15) == 0);
        free(json);
        mcpr_resources_free(r);
    }
    /* operational failures: visibility or discover FAILED -> MCPR_POLICY */
    {
        host_policy hp = {.fail_visibility = true};
        host_binding hb = {.items = {"item://ok/a"}};
        mcpr_resources *r = registry(&hp, &hb);
        mcpr_error *e = NULL;
        CHECK_STATUS(host_read(r, "bundle://all", NULL, NULL, NULL, &e), MCPR_POLICY);
        CHECK(mcpr_error_jsonrpc_code(e) == -32603);
        mcpr_error_free(e);
        CHECK(atomic_load(&hb.body_reads) == 0);
        mcpr_resources_free(r);
    }
    {
        host_policy hp = {.fail_discover = true};
        host_binding hb = {.items = {"item://ok/a"}};
        mcpr_resources *r = registry(&hp, &hb);
        mcpr_error *e = NULL;
        CHECK_STATUS(host_read(r, "bundle://all", NULL, NULL, NULL, &e), MCPR_POLICY);
        CHECK(str_contains(mcpr_error_cause(e), "SECRET-DISCOVER-CAUSE"));
        CHECK(!str_contains(mcpr_error_message(e), "SECRET"));
        mcpr_error_free(e);
        CHECK(atomic_load(&hb.resolve_calls) == 0);
        mcpr_resources_free(r);
    }
}

static void test_after_reads(void) {
    /* an item hidden at the recheck is removed without a warning */
    {
        host_policy hp = {.hide_later = {"item://ok/b"}};
        host_binding hb = {.items = {"item://ok/a", "item://ok/b"}};
        mcpr_resources *r = registry(&hp, &hb);
        char *json = NULL;
        bool partial = true;
        CHECK_STATUS(host_read(r, "bundle://all", NULL, &json, &partial, NULL), MCPR_OK);
        CHECK(!partial && json && !strstr(json, "item://ok/b") && strstr(json, "item://ok/a"));
        free(json);
        CHECK(atomic_load(&hb.body_reads) == 2);
        mcpr_resources_free(r);
    }
    /* a still-visible revoked item is removed with an unavailable issue */
    {
        host_policy hp = {.revoke_later = {"item://ok/b"}, .disclose = true};
        host_binding hb = {.items = {"item://ok/a", "item://ok/b"}};
        mcpr_resources *r = registry(&hp, &hb);
        char *json = NULL;
        bool partial = false;
        CHECK_STATUS(host_read(r, "bundle://all", NULL, &json, &partial, NULL), MCPR_OK);
        CHECK(partial && json);
        if (json) {
            CHECK(!strstr(json, "body of item://ok/b"));
            CHECK(strstr(json, "\"code\":\"unavailable\",\"message\":\"The resource item is unavailable.\",\"retryable\":false,\"resourceUri\":\"item://ok/b\"}") != NULL);
        }
        free(json);
        CHECK(atomic_load(&hb.body_reads) == 2);
        mcpr_resources_free(r);
    }
    /* a newly visible item is reported unavailable and never read late */
    {
        host_policy hp = {.show_later = {"item://ok/b"}};
        host_binding hb = {.items = {"item://ok/a", "item://ok/b"}};
        mcpr_resources *r = registry(&hp, &hb);
        char *json = NULL;
        bool partial = false;
        CHECK_STATUS(host_read(r, "bundle://all", NULL, &json, &partial, NULL), MCPR_OK);
        CHECK(partial && json && !strstr(json, "body of item://ok/b") && strstr(json, "\"code\":\"unavailable\""));
        free(json);
        CHECK(atomic_load(&hb.body_reads) == 1);
        mcpr_resources_free(r);
    }
    /* every item revoked: no application item survives, the read fails */
    {
        host_policy hp = {.revoke_later = {"item://ok/a"}};
        host_binding hb = {.items = {"item://ok/a"}};
        mcpr_resources *r = registry(&hp, &hb);
        CHECK_STATUS(host_read(r, "bundle://all", NULL, NULL, NULL, NULL), MCPR_UNAVAILABLE);
        mcpr_resources_free(r);
    }
    /* discovery revoked during the read: root denial at the recheck */
    {
        host_policy hp = {.discover_later = {"bundle://all"}};
        host_binding hb = {.items = {"item://ok/a"}};
        mcpr_resources *r = registry(&hp, &hb);
        CHECK_STATUS(host_read(r, "bundle://all", NULL, NULL, NULL, NULL), MCPR_UNAVAILABLE);
        CHECK(atomic_load(&hb.body_reads) == 1);
        CHECK(atomic_load(&hp.discover_calls) == 2);
        mcpr_resources_free(r);
    }
    /* a fresh read recomputes under current policy: no state is kept */
    {
        host_policy hp = {0};
        host_binding hb = {.items = {"item://ok/a", "item://fail/b"}};
        mcpr_resources *r = registry(&hp, &hb);
        char *j1 = NULL, *j2 = NULL;
        CHECK_STATUS(host_read(r, "bundle://all", NULL, &j1, NULL, NULL), MCPR_OK);
        CHECK_STATUS(host_read(r, "bundle://all", NULL, &j2, NULL, NULL), MCPR_OK);
        /* fresh warning identities per read */
        CHECK(j1 && j2 && strncmp(j1, j2, 80) != 0);
        free(j1);
        free(j2);
        mcpr_resources_free(r);
    }
}

int main(void) {
    /* Both forms of the policy: the per-item callbacks, then the plan-level
     * entry (decide_plan) answering from them; the same rules. */
    for (int form = 0; form < 2; form++) {
        host_plan_form = form == 1;
        test_before_reads();
        test_after_reads();
    }
    return harness_finish("test_policy");
}
