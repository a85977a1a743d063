/* Selection (exact before template, single template, ambiguity, rejected
 * identifiers, capture decoding), complete and partial bundles (report,
 * warning, issue codes, private data never in results), budgets, and the
 * call-context accessors inside callbacks. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* ---------------------------------------------------------------- captures */

typedef struct {
    atomic_int calls;
    char name[64];
    char value[256];
    char def_uri[256];
    bool is_template;
    int captures;
} capture_log;

static void copy_str(char *dst, size_t cap, mcpr_str s) {
    size_t n = s.len < cap - 1 ? s.len : cap - 1;
    memcpy(dst, s.ptr, n);
    dst[n] = 0;
}

static mcpr_cb_result cap_resolve(void *ud, const mcpr_call *call, const mcpr_match *m,
                                  mcpr_plan_builder *plan) {
    capture_log *log = ud;
    atomic_fetch_add(&log->calls, 1);
    const mcpr_definition *d = mcpr_match_definition(m);
    copy_str(log->def_uri, sizeof log->def_uri, mcpr_definition_uri(d));
    log->is_template = mcpr_definition_is_template(d);
    log->captures = (int)mcpr_match_capture_count(m);
    copy_str(log->name, sizeof log->name, mcpr_match_capture_name(m, 0));
    copy_str(log->value, sizeof log->value, mcpr_match_capture_value(m, 0));
    return mcpr_resolve_single(NULL, call, m, plan);
}

static mcpr_cb_result cap_read(void *ud, const mcpr_call *call, const mcpr_target *t,
                               mcpr_payload_builder *out) {
    (void)ud;
    (void)call;
    mcpr_str uri = mcpr_target_uri(t);
    CHECK(str_eq(mcpr_target_representation(t), "default"));
    CHECK(mcpr_target_authorization(t).len == 0);
    return mcpr_payload_set_text(out, S("text/markdown"), uri, NULL) == MCPR_OK ? MCPR_CB_OK
                                                                                 : MCPR_CB_FAILED;
}

static void test_selection(void) {
    host_policy hp = {0};
    capture_log exact = {0}, t1 = {0}, t2 = {0}, thumb = {0}, urn = {0};
    mcpr_builder *b = host_builder(&hp);
    struct {
        const char *def;
        capture_log *log;
    } defs[] = {
        {"{\"uri\":\"x://a/b/c\",\"name\":\"exact\"}", &exact},
        {"{\"uriTemplate\":\"x://a/{p}/c\",\"name\":\"t1\"}", &t1},
        {"{\"uriTemplate\":\"x://a/b/{q}\",\"name\":\"t2\"}", &t2},
        {"{\"uriTemplate\":\"asset://project/{id}/thumbnail\",\"name\":\"thumb\"}", &thumb},
        {"{\"uriTemplate\":\"urn:{id}\",\"name\":\"urn\"}", &urn},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++) {
        mcpr_binding_callbacks cb = {
            .struct_size = sizeof(mcpr_binding_callbacks),
            .user_data = defs[i].log,
            .resolve = cap_resolve,
            .read = cap_read,
        };
        CHECK_STATUS(mcpr_builder_add(b, str_of(defs[i].def), &cb, NULL), MCPR_OK);
    }
    mcpr_resources *r = host_build(b);
    CHECK(r != NULL);
    char *json = NULL;

    /* exact wins over both templates that would match */
    CHECK_STATUS(host_read(r, "x://a/b/c", NULL, &json, NULL, NULL), MCPR_OK);
    CHECK(atomic_load(&exact.calls) == 1 && !exact.is_template && exact.captures == 0);
    CHECK(strcmp(exact.def_uri, "x://a/b/c") == 0);
    CHECK(json && strcmp(json,
                         "{\"contents\":[{\"uri\":\"x://a/b/c\",\"mimeType\":\"text/markdown\","
                         "\"text\":\"x://a/b/c\"}],\"_meta\":{\"go.phpboyscout.uk/mcp.resourceRead\":"
                         "{\"version\":1,\"partial\":false,\"issues\":[],\"issuesOmitted\":0}},"
                         "\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\"}") == 0);
    free(json);
    /* exactly one template matches */
    CHECK_STATUS(host_read(r, "x://a/b/d", NULL, NULL, NULL, NULL), MCPR_OK);
    CHECK(atomic_load(&t2.calls) == 1 && t2.is_template && strcmp(t2.name, "q") == 0 &&
          strcmp(t2.value, "d") == 0 && strcmp(t2.def_uri, "x://a/b/{q}") == 0);
    CHECK_STATUS(host_read(r, "x://a/z/c", NULL, NULL, NULL, NULL), MCPR_OK);
    CHECK(atomic_load(&t1.calls) == 1 && strcmp(t1.value, "z") == 0);
    /* captures decode once, as UTF-8 */
    CHECK_STATUS(host_read(r, "asset://project/%C3%A9/thumbnail", NULL, NULL, NULL, NULL), MCPR_OK);
    CHECK(strcmp(thumb.name, "id") == 0 && strcmp(thumb.value, "\xc3\xa9") == 0);
    CHECK_STATUS(host_read(r, "asset://project/%252F/thumbnail", NULL, NULL, NULL, NULL), MCPR_OK);
    CHECK(strcmp(thumb.value, "%2F") == 0);
    CHECK_STATUS(host_read(r, "urn:x", NULL, NULL, NULL, NULL), MCPR_OK);
    CHECK(strcmp(urn.value, "x") == 0);
    int thumb_calls = atomic_load(&thumb.calls);
    /* bad captures are request errors, not fall-throughs */
    const char *bad_captures[] = {"asset://project/%2F/thumbnail", "asset://project/%2e%2e/thumbnail",
                                  "asset://project/%00/thumbnail", "asset://project/%5C/thumbnail",
                                  "asset://project/%FF/thumbnail", "asset://project/../thumbnail"};
    for (size_t i = 0; i < sizeof bad_captures / sizeof bad_captures[0]; i++) {
        mcpr_error *e = NULL;
        CHECK_STATUS(host_read(r, bad_captures[i], NULL, NULL, NULL, &e), MCPR_INVALID_REQUEST);
        CHECK(mcpr_error_jsonrpc_code(e) == -32602);
        mcpr_error_free(e);
    }
    CHECK(atomic_load(&thumb.calls) == thumb_calls);
    /* an empty variable segment matches nothing */
    CHECK_STATUS(host_read(r, "asset://project//thumbnail", NULL, NULL, NULL, NULL), MCPR_UNAVAILABLE);

    /* rejected identifiers */
    const char *bad[] = {"s://u@h/x",  "mcp-warning://read/0123", "MCP-Warning:x", "relative/path",
                         "x://a b",    "x://a/%G1",               "x://a/\x01",    "x://a/{b}",
                         "x://a/\"q\"", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mcpr_error *e = NULL;
        mcpr_status s = host_read(r, bad[i], NULL, NULL, NULL, &e);
        if (s != MCPR_INVALID_REQUEST) fprintf(stderr, "identifier %zu: ", i);
        CHECK_STATUS(s, MCPR_INVALID_REQUEST);
        mcpr_error_free(e);
    }
    mcpr_str not_utf8 = S("x://a/\xc3\x28");
    mcpr_bundle *bundle = NULL;
    CHECK_STATUS(mcpr_read(r, not_utf8, NULL, &bundle, NULL), MCPR_INVALID_REQUEST);
    CHECK(bundle == NULL);
    /* not found and discovery-denied look the same */
    mcpr_error *nf = NULL;
    CHECK_STATUS(host_read(r, "x://nothing/here", NULL, NULL, NULL, &nf), MCPR_UNAVAILABLE);
    CHECK(mcpr_error_jsonrpc_code(nf) == -32602);
    mcpr_resources_free(r);

    /* ambiguity: two templates match, no exact registration */
    host_policy hp2 = {0};
    capture_log a = {0}, c = {0};
    b = host_builder(&hp2);
    mcpr_binding_callbacks cba = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = &a,
        .resolve = cap_resolve,
        .read = cap_read,
    };
    mcpr_binding_callbacks cbc = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = &c,
        .resolve = cap_resolve,
        .read = cap_read,
    };
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uriTemplate\":\"x://a/{p}/c\",\"name\":\"t1\"}"), &cba, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uriTemplate\":\"x://a/b/{q}\",\"name\":\"t2\"}"), &cbc, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"x://denied\",\"name\":\"d\"}"), &cba, NULL), MCPR_OK);
    hp2.deny_discover[0] = "x://denied";
    r = host_build(b);
    mcpr_error *e = NULL;
    CHECK_STATUS(host_read(r, "x://a/b/c", NULL, NULL, NULL, &e), MCPR_INVALID_REQUEST);
    CHECK(str_contains(mcpr_error_message(e), "ambiguous"));
    CHECK(!str_contains(mcpr_error_message(e), "t1") && !str_contains(mcpr_error_message(e), "{"));
    mcpr_error_free(e);
    CHECK(atomic_load(&a.calls) == 0 && atomic_load(&c.calls) == 0);
    CHECK_STATUS(host_read(r, "x://a/z/c", NULL, NULL, NULL, NULL), MCPR_OK);
    e = NULL;
    CHECK_STATUS(host_read(r, "x://denied", NULL, NULL, NULL, &e), MCPR_UNAVAILABLE);
    CHECK(mcpr_error_message(e).len == mcpr_error_message(nf).len &&
          memcmp(mcpr_error_message(e).ptr, mcpr_error_message(nf).ptr, mcpr_error_message(e).len) == 0);
    mcpr_error_free(e);
    mcpr_error_free(nf);
    mcpr_resources_free(r);
}

/* ---------------------------------------------------------------- bundles */

static mcpr_resources *bundle_registry(host_policy *hp, host_binding *hb, int64_t max_item_bytes) {
    mcpr_builder *b = host_builder(hp);
    if (max_item_bytes) mcpr_builder_set_limit(b, MCPR_LIMIT_MAX_ITEM_BYTES, max_item_bytes, NULL);
    CHECK_STATUS(host_add(b, "{\"uri\":\"bundle://all\",\"name\":\"all\",\"mimeType\":\"application/json\"}", hb), MCPR_OK);
    return host_build(b);
}

static void test_complete_bundle(void) {
    host_policy hp = {0};
    host_binding hb = {.items = {"item://ok/a", "item://blob/b"}, .authorization = "{\"tenant\":\"SECRET-AUTH\"}"};
    int marker = 0;
    hb.expect_request_data = &marker;
    mcpr_resources *r = bundle_registry(&hp, &hb, 0);
    /* the 2025-11-25 shape: no resultType, ttlMs or cacheScope */
    mcpr_read_options opt = {
        .struct_size = sizeof(mcpr_read_options),
        .request_data = &marker,
        .protocol_revision = S("2025-11-25"),
    };
    char *json = NULL;
    bool partial = true;
    CHECK_STATUS(host_read(r, "bundle://all", &opt, &json, &partial, NULL), MCPR_OK);
    CHECK(!partial);
    CHECK(json && strcmp(json,
                         "{\"contents\":["
                         "{\"uri\":\"item://ok/a\",\"mimeType\":\"text/plain\",\"text\":\"body of item://ok/a\"},"
                         "{\"uri\":\"item://blob/b\",\"mimeType\":\"application/octet-stream\",\"blob\":\"AAEC/w==\",\"_meta\":{\"k\":\"v\"}}],"
                         "\"_meta\":{\"go.phpboyscout.uk/mcp.resourceRead\":"
                         "{\"version\":1,\"partial\":false,\"issues\":[],\"issuesOmitted\":0}}}") == 0);
    if (json && strstr(json, "SECRET")) CHECK(!"authorization JSON leaked");
    free(json);
    CHECK(atomic_load(&hb.saw_request_data) == 3); /* resolve + two bodies */
    CHECK(atomic_load(&hb.max_bytes_seen) == 8u * 1024 * 1024);
    mcpr_resources_free(r);
    CHECK(atomic_load(&hb.releases) == 1 && atomic_load(&hp.releases) == 1);

    /* zero items: a complete, empty bundle */
    host_policy hp2 = {0};
    host_binding hb2 = {.items = {NULL}};
    mcpr_builder *b = host_builder(&hp2);
    mcpr_binding_callbacks cb = host_binding_table(&hb2);
    cb.resolve = NULL;
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"bundle://none\",\"name\":\"n\"}"), &cb, NULL), MCPR_INVALID_CONFIGURATION);
    hb2.requested = "bundle://none";
    hb2.items[0] = NULL;
    r = NULL;
    CHECK_STATUS(host_add(b, "{\"uri\":\"bundle://none\",\"name\":\"n\"}", &hb2), MCPR_OK);
    r = host_build(b);
    /* resolve plans the matched URI as the single item when items[0] is NULL:
     * bundle://none has no reader behaviour, so the item is unavailable and
     * no item survives: the whole read fails with the first issue's code. */
    mcpr_error *e = NULL;
    CHECK_STATUS(host_read(r, "bundle://none", NULL, NULL, NULL, &e), MCPR_UNAVAILABLE);
    mcpr_error_free(e);
    mcpr_resources_free(r);
}

static mcpr_cb_result empty_resolve(void *ud, const mcpr_call *call, const mcpr_match *m,
                                    mcpr_plan_builder *plan) {
    (void)ud;
    (void)call;
    return mcpr_plan_set_requested(plan, mcpr_match_uri(m), S("summary"), S(""), NULL) == MCPR_OK
               ? MCPR_CB_OK
               : MCPR_CB_FAILED;
}

static mcpr_cb_result never_read(void *ud, const mcpr_call *call, const mcpr_target *t,
                                 mcpr_payload_builder *out) {
    (void)ud;
    (void)call;
    (void)t;
    (void)out;
    CHECK(!"no body read for an empty plan");
    return MCPR_CB_FAILED;
}

static mcpr_cb_result bad_plan_resolve(void *ud, const mcpr_call *call, const mcpr_match *m,
                                       mcpr_plan_builder *plan) {
    int mode = *(int *)ud;
    (void)call;
    mcpr_plan_set_requested(plan, mcpr_match_uri(m), S(""), S(""), NULL);
    if (mode == 0) { /* duplicate item URIs with different representations */
        mcpr_plan_add_item(plan, S("item://ok/a"), S("a"), S(""), NULL);
        mcpr_plan_add_item(plan, S("item://ok/a"), S("b"), S(""), NULL);
    } else if (mode == 1) { /* a refused setter, then OK */
        CHECK_STATUS(mcpr_plan_add_item(plan, S("not a uri"), S(""), S(""), NULL), MCPR_INVALID_PLAN);
        mcpr_plan_add_item(plan, S("item://ok/a"), S(""), S(""), NULL);
    } else if (mode == 2) { /* authorization that is not JSON */
        CHECK_STATUS(mcpr_plan_add_item(plan, S("item://ok/a"), S(""), S("{nope"), NULL), MCPR_INVALID_PLAN);
    } else if (mode == 3) {
        return MCPR_CB_UNAVAILABLE; /* root denial */
    } else if (mode == 5) { /* (NULL, n > 0): a programming error, and the plan is invalid */
        mcpr_str null_len = {NULL, 4};
        CHECK_STATUS(mcpr_plan_add_item(plan, null_len, S(""), S(""), NULL), MCPR_INVALID_ARGUMENT);
        CHECK_STATUS(mcpr_plan_set_requested(MISUSE_NULL, S("a:b"), S(""), S(""), NULL), MCPR_INVALID_ARGUMENT);
        mcpr_plan_add_item(plan, S("item://ok/a"), S(""), S(""), NULL);
    } else {
        mcpr_call_set_cause(call, S("SECRET-RESOLVE"));
        return MCPR_CB_FAILED;
    }
    return MCPR_CB_OK;
}

static void test_plans(void) {
    host_policy hp = {0};
    mcpr_builder *b = host_builder(&hp);
    mcpr_binding_callbacks cb = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .resolve = empty_resolve,
        .read = never_read,
    };
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"bundle://empty\",\"name\":\"e\"}"), &cb, NULL), MCPR_OK);
    static int modes[6] = {0, 1, 2, 3, 4, 5};
    const char *defs[6] = {"{\"uri\":\"plan://0\",\"name\":\"p\"}", "{\"uri\":\"plan://1\",\"name\":\"p\"}",
                           "{\"uri\":\"plan://2\",\"name\":\"p\"}", "{\"uri\":\"plan://3\",\"name\":\"p\"}",
                           "{\"uri\":\"plan://4\",\"name\":\"p\"}", "{\"uri\":\"plan://5\",\"name\":\"p\"}"};
    for (int i = 0; i < 6; i++) {
        mcpr_binding_callbacks pc = {
            .struct_size = sizeof(mcpr_binding_callbacks),
            .user_data = &modes[i],
            .resolve = bad_plan_resolve,
            .read = never_read,
        };
        CHECK_STATUS(mcpr_builder_add(b, str_of(defs[i]), &pc, NULL), MCPR_OK);
    }
    mcpr_resources *r = host_build(b);
    char *json = NULL;
    CHECK_STATUS(host_read(r, "bundle://empty", NULL, &json, NULL, NULL), MCPR_OK);
    CHECK(json && strcmp(json, "{\"contents\":[],\"_meta\":{\"go.phpboyscout.uk/mcp.resourceRead\":"
                               "{\"version\":1,\"partial\":false,\"issues\":[],\"issuesOmitted\":0}},"
                               "\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\"}") == 0);
    free(json);
    const mcpr_status want[6] = {MCPR_INVALID_PLAN, MCPR_INVALID_PLAN, MCPR_INVALID_PLAN,
                                 MCPR_UNAVAILABLE, MCPR_INVALID_PLAN, MCPR_INVALID_PLAN};
    for (int i = 0; i < 6; i++) {
        char uri[16];
        snprintf(uri, sizeof uri, "plan://%d", i);
        mcpr_error *e = NULL;
        CHECK_STATUS(host_read(r, uri, NULL, NULL, NULL, &e), want[i]);
        if (i == 4) {
            CHECK(str_contains(mcpr_error_cause(e), "SECRET-RESOLVE"));
            CHECK(!str_contains(mcpr_error_message(e), "SECRET"));
        }
        mcpr_error_free(e);
    }
    mcpr_resources_free(r);
}

static void test_partial_bundle(void) {
    host_policy hp = {0};
    hp.disclose = true;
    host_binding hb = {.items = {"item://ok/a", "item://fail/b", "item://unavail/c", "item://empty/d",
                        "item://badmime/e", "item://weird/f", "item://big/g", "item://ok/h"},
                       .authorization = "{\"tenant\":\"SECRET-AUTH\"}", .big_bytes = 200};
    mcpr_resources *r = bundle_registry(&hp, &hb, 100);
    char *json = NULL;
    bool partial = false;
    CHECK_STATUS(host_read(r, "bundle://all", NULL, &json, &partial, NULL), MCPR_OK);
    CHECK(partial);
    CHECK(json != NULL);
    if (json) {
        mcpr_str j = str_of(json);
        /* the warning comes first and carries the same report */
        CHECK(strncmp(json, "{\"contents\":[{\"uri\":\"mcp-warning://read/", 40) == 0);
        CHECK(has_warning_uri(j));
        CHECK(str_contains(j, "\"mimeType\":\"text/plain\",\"text\":\"Incomplete bundle.\\n{\\\"version\\\":1,\\\"partial\\\":true,"));
        CHECK(str_contains(j, "\"_meta\":{\"go.phpboyscout.uk/mcp.resourceRead\":{\"diagnostic\":true,\"inlineOnly\":true}}"));
        /* admitted items keep plan order, after the warning */
        const char *a = strstr(json, "\"uri\":\"item://ok/a\"");
        const char *h = strstr(json, "\"uri\":\"item://ok/h\"");
        CHECK(a && h && a < h);
        CHECK(str_count(j, "\"text\":\"body of item://ok/") == 2);
        /* the report: codes in plan order, retryable only for read_failed,
         * resource URIs disclosed */
        const char *report = strstr(json, "\"_meta\":{\"go.phpboyscout.uk/mcp.resourceRead\":{\"version\":1,\"partial\":true,\"issues\":[");
        CHECK(report != NULL);
        if (report) {
            mcpr_str rs = str_of(report);
            CHECK(str_contains(rs, "{\"code\":\"read_failed\",\"message\":\"The resource item could not be read.\",\"retryable\":true,\"resourceUri\":\"item://fail/b\"}"));
            CHECK(str_contains(rs, "{\"code\":\"unavailable\",\"message\":\"The resource item is unavailable.\",\"retryable\":false,\"resourceUri\":\"item://unavail/c\"}"));
            CHECK(str_contains(rs, "{\"code\":\"invalid_content\",\"message\":\"The resource item content is invalid.\",\"retryable\":false,\"resourceUri\":\"item://empty/d\"}"));
            CHECK(str_contains(rs, "\"resourceUri\":\"item://badmime/e\"}"));
            CHECK(str_contains(rs, "{\"code\":\"read_failed\",\"message\":\"The resource item could not be read.\",\"retryable\":true,\"resourceUri\":\"item://weird/f\"}"));
            CHECK(str_contains(rs, "{\"code\":\"budget_exceeded\",\"message\":\"The resource item exceeds the read budget.\",\"retryable\":false,\"resourceUri\":\"item://big/g\"}"));
            CHECK(str_contains(rs, "\"issuesOmitted\":0}},\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\"}"));
            CHECK(str_count(rs, "\"code\":") == 6);
        }
        /* private causes and authorization JSON never appear */
        CHECK(!str_contains(j, "SECRET"));
    }
    free(json);
    mcpr_resources_free(r);

    /* without disclosure, issues carry no URI */
    host_policy hp2 = {0};
    host_binding hb2 = {.items = {"item://ok/a", "item://fail/b"}};
    r = bundle_registry(&hp2, &hb2, 0);
    CHECK_STATUS(host_read(r, "bundle://all", NULL, &json, &partial, NULL), MCPR_OK);
    CHECK(partial && json && !strstr(json, "resourceUri") && strstr(json, "\"code\":\"read_failed\""));
    free(json);
    mcpr_resources_free(r);

    /* no item survives: the whole read fails with the first visible issue's
     * code and keeps the private cause for the host */
    host_policy hp3 = {0};
    host_binding hb3 = {.items = {"item://fail/a", "item://unavail/b"}};
    r = bundle_registry(&hp3, &hb3, 0);
    mcpr_error *e = NULL;
    CHECK_STATUS(host_read(r, "bundle://all", NULL, NULL, NULL, &e), MCPR_READ_FAILED);
    CHECK(mcpr_error_jsonrpc_code(e) == -32603);
    CHECK(!str_contains(mcpr_error_message(e), "SECRET"));
    mcpr_error_free(e);
    mcpr_resources_free(r);
    host_policy hp4 = {0};
    host_binding hb4 = {.items = {"item://empty/a", "item://fail/b"}};
    r = bundle_registry(&hp4, &hb4, 0);
    CHECK_STATUS(host_read(r, "bundle://all", NULL, NULL, NULL, NULL), MCPR_INVALID_CONTENT);
    mcpr_resources_free(r);
}

/* ---------------------------------------------------------------- payload builder rules */

/* A text long enough for the vector copy, with characters to escape and
 * non-ASCII ones in its first, middle and last blocks, and its JSON. */
#define LONG_TEXT "\"quoted\" caf\xc3\xa9 0123456789012345678901234567890123456789\\tab\there" \
                  "0123456789012345678901234567890123456789 line\nend \xe2\x82\xac\x01"
#define LONG_TEXT_JSON "\\\"quoted\\\" caf\xc3\xa9 0123456789012345678901234567890123456789\\\\tab\\there" \
                       "0123456789012345678901234567890123456789 line\\nend \xe2\x82\xac\\u0001"

static mcpr_cb_result payload_rules_read(void *ud, const mcpr_call *call, const mcpr_target *t,
                                         mcpr_payload_builder *out) {
    (void)ud;
    (void)call;
    mcpr_str uri = mcpr_target_uri(t);
    mcpr_str null_len = {NULL, 3};
    if (str_eq(uri, "rules://text-twice")) {
        CHECK_STATUS(mcpr_payload_set_text(out, S("text/plain"), S("one"), NULL), MCPR_OK);
        CHECK_STATUS(mcpr_payload_set_text(out, S("text/plain"), S("two"), NULL), MCPR_INVALID_CONTENT);
    } else if (str_eq(uri, "rules://null-text")) {
        CHECK_STATUS(mcpr_payload_set_text(out, S("text/plain"), null_len, NULL), MCPR_INVALID_ARGUMENT);
    } else if (str_eq(uri, "rules://bad-utf8")) {
        CHECK_STATUS(mcpr_payload_set_text(out, S("text/plain"), S("\xff"), NULL), MCPR_INVALID_CONTENT);
    } else if (str_eq(uri, "rules://bad-utf8-long")) {
        /* long enough for the vector copy; the bad byte in its last block */
        static const char bad[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xff";
        mcpr_str text = {bad, sizeof bad - 1};
        CHECK_STATUS(mcpr_payload_set_text(out, S("text/plain"), text, NULL), MCPR_INVALID_CONTENT);
    } else if (str_eq(uri, "rules://long-text")) {
        CHECK_STATUS(mcpr_payload_set_text(out, S("text/plain"), S(LONG_TEXT), NULL), MCPR_OK);
    } else if (str_eq(uri, "rules://reserved-meta")) {
        mcpr_payload_set_text(out, S("text/plain"), S("x"), NULL);
        mcpr_error *e = NULL;
        CHECK_STATUS(mcpr_payload_set_meta(out, S("{\"a\":{\"go.phpboyscout.uk/mcp.resourceRead\":1}}"), &e),
                     MCPR_INVALID_CONTENT);
        CHECK(mcpr_error_status(e) == MCPR_INVALID_CONTENT);
        mcpr_error_free(e);
    } else if (str_eq(uri, "rules://empty-text")) {
        mcpr_str empty = {NULL, 0};
        CHECK_STATUS(mcpr_payload_set_text(out, S("text/plain; charset=utf-8"), empty, NULL), MCPR_OK);
    } else if (str_eq(uri, "rules://empty-blob")) {
        CHECK_STATUS(mcpr_payload_set_blob(out, S("image/png"), NULL, 0, NULL), MCPR_OK);
    } else if (str_eq(uri, "rules://null-blob")) {
        CHECK_STATUS(mcpr_payload_set_blob(out, S("image/png"), NULL, 4, NULL), MCPR_INVALID_ARGUMENT);
    }
    return MCPR_CB_OK;
}

static mcpr_cb_result rules_resolve(void *ud, const mcpr_call *call, const mcpr_match *m,
                                    mcpr_plan_builder *plan) {
    (void)ud;
    (void)m;
    (void)call;
    const char *items[] = {"rules://text-twice", "rules://null-text", "rules://bad-utf8",
                           "rules://bad-utf8-long", "rules://reserved-meta", "rules://empty-text",
                           "rules://long-text", "rules://empty-blob", "rules://null-blob"};
    mcpr_plan_set_requested(plan, S("rules://all"), S(""), S(""), NULL);
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
        mcpr_plan_add_item(plan, str_of(items[i]), S(""), S(""), NULL);
    return MCPR_CB_OK;
}

static void test_payload_rules(void) {
    host_policy hp = {0};
    hp.disclose = true;
    mcpr_builder *b = host_builder(&hp);
    mcpr_binding_callbacks cb = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .resolve = rules_resolve,
        .read = payload_rules_read,
    };
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"rules://all\",\"name\":\"r\"}"), &cb, NULL), MCPR_OK);
    mcpr_resources *r = host_build(b);
    char *json = NULL;
    bool partial = false;
    CHECK_STATUS(host_read(r, "rules://all", NULL, &json, &partial, NULL), MCPR_OK);
    CHECK(partial && json);
    if (json) {
        mcpr_str j = str_of(json);
        CHECK(str_contains(j, "{\"uri\":\"rules://empty-text\",\"mimeType\":\"text/plain; charset=utf-8\",\"text\":\"\"}"));
        CHECK(str_contains(j, "{\"uri\":\"rules://empty-blob\",\"mimeType\":\"image/png\",\"blob\":\"\"}"));
        CHECK(str_contains(j, "{\"uri\":\"rules://long-text\",\"mimeType\":\"text/plain\",\"text\":\"" LONG_TEXT_JSON "\"}"));
        const char *invalid[] = {"rules://text-twice", "rules://null-text", "rules://bad-utf8",
                                 "rules://bad-utf8-long", "rules://reserved-meta", "rules://null-blob"};
        for (size_t i = 0; i < 6; i++) {
            char want[128];
            snprintf(want, sizeof want, "\"retryable\":false,\"resourceUri\":\"%s\"}", invalid[i]);
            CHECK(str_contains(j, want));
        }
        CHECK(str_count(j, "\"code\":\"invalid_content\"") == 6);
    }
    free(json);
    mcpr_resources_free(r);
}

/* mcpr_payload_set_blob_borrowed: the lent bytes are read without a copy,
 * and their release callback runs exactly once on every path: after a read
 * that used them, and before the setter returns when it is refused (a
 * second body, a bad MIME type, NULL data with a length, a NULL builder). */
enum { LEND_OK, LEND_TWICE, LEND_BAD_MIME, LEND_NULL_DATA, LEND_NULL_BUILDER, LEND_COUNT };
static int lend_released[LEND_COUNT];
static const uint8_t LENT[] = {0, 1, 2, 0xff};

static void lend_release(void *data) { ((int *)data)[0]++; }

static mcpr_cb_result lend_read(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)ud;
    (void)call;
    mcpr_str uri = mcpr_target_uri(t);
    if (str_eq(uri, "lend://ok")) {
        CHECK_STATUS(mcpr_payload_set_blob_borrowed(out, S("application/octet-stream"), LENT, sizeof LENT,
                                                    lend_release, &lend_released[LEND_OK], NULL),
                     MCPR_OK);
        CHECK(lend_released[LEND_OK] == 0); /* still lent: the result is not written yet */
    } else if (str_eq(uri, "lend://twice")) {
        CHECK_STATUS(mcpr_payload_set_text(out, S("text/plain"), S("one"), NULL), MCPR_OK);
        CHECK_STATUS(mcpr_payload_set_blob_borrowed(out, S("application/octet-stream"), LENT, sizeof LENT,
                                                    lend_release, &lend_released[LEND_TWICE], NULL),
                     MCPR_INVALID_CONTENT);
        CHECK(lend_released[LEND_TWICE] == 1);
    } else if (str_eq(uri, "lend://bad-mime")) {
        CHECK_STATUS(mcpr_payload_set_blob_borrowed(out, S("not a type"), LENT, sizeof LENT, lend_release,
                                                    &lend_released[LEND_BAD_MIME], NULL),
                     MCPR_INVALID_CONTENT);
        CHECK(lend_released[LEND_BAD_MIME] == 1);
    } else if (str_eq(uri, "lend://null-data")) {
        CHECK_STATUS(mcpr_payload_set_blob_borrowed(out, S("application/octet-stream"), NULL, 4, lend_release,
                                                    &lend_released[LEND_NULL_DATA], NULL),
                     MCPR_INVALID_ARGUMENT);
        CHECK(lend_released[LEND_NULL_DATA] == 1);
    }
    return MCPR_CB_OK;
}

static mcpr_cb_result lend_resolve(void *ud, const mcpr_call *call, const mcpr_match *m, mcpr_plan_builder *plan) {
    (void)ud;
    (void)m;
    (void)call;
    const char *items[] = {"lend://ok", "lend://twice", "lend://bad-mime", "lend://null-data"};
    mcpr_plan_set_requested(plan, S("lend://all"), S(""), S(""), NULL);
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
        mcpr_plan_add_item(plan, str_of(items[i]), S(""), S(""), NULL);
    return MCPR_CB_OK;
}

static void test_borrowed_blob_is_released_once(void) {
    memset(lend_released, 0, sizeof lend_released);
    CHECK_STATUS(mcpr_payload_set_blob_borrowed(MISUSE_NULL, S("application/octet-stream"), LENT, sizeof LENT, lend_release,
                                                &lend_released[LEND_NULL_BUILDER], NULL),
                 MCPR_INVALID_ARGUMENT);
    CHECK(lend_released[LEND_NULL_BUILDER] == 1);
    host_policy hp = {0};
    hp.disclose = true;
    mcpr_builder *b = host_builder(&hp);
    mcpr_binding_callbacks cb = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .resolve = lend_resolve,
        .read = lend_read,
    };
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"lend://all\",\"name\":\"l\"}"), &cb, NULL), MCPR_OK);
    mcpr_resources *r = host_build(b);
    char *json = NULL;
    bool partial = false;
    CHECK_STATUS(host_read(r, "lend://all", NULL, &json, &partial, NULL), MCPR_OK);
    CHECK(partial && json);
    if (json) {
        mcpr_str j = str_of(json);
        CHECK(str_contains(j, "{\"uri\":\"lend://ok\",\"mimeType\":\"application/octet-stream\",\"blob\":\"AAEC/w==\"}"));
        CHECK(str_count(j, "\"code\":\"invalid_content\"") == 3);
    }
    for (int i = 0; i < LEND_COUNT; i++) CHECK(lend_released[i] == 1);
    free(json);
    mcpr_resources_free(r);
}

/* mcpr_payload_set_text_borrowed: the lent text is escaped straight into the
 * result (no copy), and its release callback runs exactly once on every path:
 * after a read that used it, and before the setter returns when it is refused
 * (a second body either way round, a bad MIME type, invalid UTF-8, NULL text
 * with a length, a NULL builder). A NULL release lends text that outlives
 * every read (static storage). */
enum {
    LENT_TEXT_OK,
    LENT_TEXT_AFTER_TEXT,
    LENT_TEXT_TWICE,
    LENT_TEXT_BAD_MIME,
    LENT_TEXT_BAD_UTF8,
    LENT_TEXT_NULL_TEXT,
    LENT_TEXT_NULL_BUILDER,
    LENT_TEXT_COUNT
};
static int lent_text_released[LENT_TEXT_COUNT];
static int lent_text_ok_released_in_callback;
/* Needs escaping (a quote, a backslash, a newline, a control byte) and is
 * longer than one 64-byte step of the scan. */
static const char LENT_TEXT[] = "lent \"text\" with \\ and\nlines\x01 and more than sixty-four bytes of it, e\xc3\xa9";
#define LENT_TEXT_JSON "lent \\\"text\\\" with \\\\ and\\nlines\\u0001 and more than sixty-four bytes of it, e\xc3\xa9"

static mcpr_cb_result lent_text_read(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)ud;
    (void)call;
    mcpr_str uri = mcpr_target_uri(t);
    mcpr_str text = {LENT_TEXT, sizeof LENT_TEXT - 1};
    if (str_eq(uri, "lent-text://ok")) {
        CHECK_STATUS(mcpr_payload_set_text_borrowed(out, S("text/plain"), text, lend_release,
                                                    &lent_text_released[LENT_TEXT_OK], NULL),
                     MCPR_OK);
        /* still lent: the result is not written yet */
        lent_text_ok_released_in_callback = lent_text_released[LENT_TEXT_OK];
    } else if (str_eq(uri, "lent-text://static")) {
        CHECK_STATUS(mcpr_payload_set_text_borrowed(out, S("text/markdown"), S("# static"), NULL, NULL, NULL), MCPR_OK);
    } else if (str_eq(uri, "lent-text://empty")) {
        mcpr_str none = {NULL, 0};
        CHECK_STATUS(mcpr_payload_set_text_borrowed(out, S("text/plain"), none, NULL, NULL, NULL), MCPR_OK);
    } else if (str_eq(uri, "lent-text://after-text")) {
        CHECK_STATUS(mcpr_payload_set_text(out, S("text/plain"), S("one"), NULL), MCPR_OK);
        CHECK_STATUS(mcpr_payload_set_text_borrowed(out, S("text/plain"), text, lend_release,
                                                    &lent_text_released[LENT_TEXT_AFTER_TEXT], NULL),
                     MCPR_INVALID_CONTENT);
        CHECK(lent_text_released[LENT_TEXT_AFTER_TEXT] == 1);
    } else if (str_eq(uri, "lent-text://twice")) {
        mcpr_error *e = NULL;
        CHECK_STATUS(mcpr_payload_set_text_borrowed(out, S("text/plain"), S("one"), NULL, NULL, NULL), MCPR_OK);
        CHECK_STATUS(mcpr_payload_set_text_borrowed(out, S("text/plain"), text, lend_release,
                                                    &lent_text_released[LENT_TEXT_TWICE], &e),
                     MCPR_INVALID_CONTENT);
        CHECK(e && mcpr_error_status(e) == MCPR_INVALID_CONTENT);
        mcpr_error_free(e);
        CHECK(lent_text_released[LENT_TEXT_TWICE] == 1);
        /* and a copying setter after a borrowed one is refused too */
        CHECK_STATUS(mcpr_payload_set_text(out, S("text/plain"), S("two"), NULL), MCPR_INVALID_CONTENT);
    } else if (str_eq(uri, "lent-text://bad-mime")) {
        CHECK_STATUS(mcpr_payload_set_text_borrowed(out, S("not a type"), text, lend_release,
                                                    &lent_text_released[LENT_TEXT_BAD_MIME], NULL),
                     MCPR_INVALID_CONTENT);
        CHECK(lent_text_released[LENT_TEXT_BAD_MIME] == 1);
    } else if (str_eq(uri, "lent-text://bad-utf8")) {
        /* long enough for the vectorised scan, with one bad byte at the end */
        static const char bad[] = "0123456789012345678901234567890123456789\xff";
        mcpr_str b = {bad, sizeof bad - 1};
        CHECK_STATUS(mcpr_payload_set_text_borrowed(out, S("text/plain"), b, lend_release,
                                                    &lent_text_released[LENT_TEXT_BAD_UTF8], NULL),
                     MCPR_INVALID_CONTENT);
        CHECK(lent_text_released[LENT_TEXT_BAD_UTF8] == 1);
    } else if (str_eq(uri, "lent-text://null-text")) {
        mcpr_str null_text = {NULL, 4};
        CHECK_STATUS(mcpr_payload_set_text_borrowed(out, S("text/plain"), null_text, lend_release,
                                                    &lent_text_released[LENT_TEXT_NULL_TEXT], NULL),
                     MCPR_INVALID_ARGUMENT);
        CHECK(lent_text_released[LENT_TEXT_NULL_TEXT] == 1);
    }
    return MCPR_CB_OK;
}

static mcpr_cb_result lent_text_resolve(void *ud, const mcpr_call *call, const mcpr_match *m, mcpr_plan_builder *plan) {
    (void)ud;
    (void)m;
    (void)call;
    const char *items[] = {"lent-text://ok",    "lent-text://static",   "lent-text://empty",
                           "lent-text://after-text", "lent-text://twice", "lent-text://bad-mime",
                           "lent-text://bad-utf8", "lent-text://null-text"};
    mcpr_plan_set_requested(plan, S("lent-text://all"), S(""), S(""), NULL);
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
        mcpr_plan_add_item(plan, str_of(items[i]), S(""), S(""), NULL);
    return MCPR_CB_OK;
}

static void test_borrowed_text_is_released_once(void) {
    memset(lent_text_released, 0, sizeof lent_text_released);
    lent_text_ok_released_in_callback = -1;
    mcpr_str text = {LENT_TEXT, sizeof LENT_TEXT - 1};
    CHECK_STATUS(mcpr_payload_set_text_borrowed(MISUSE_NULL, S("text/plain"), text, lend_release,
                                                &lent_text_released[LENT_TEXT_NULL_BUILDER], NULL),
                 MCPR_INVALID_ARGUMENT);
    CHECK(lent_text_released[LENT_TEXT_NULL_BUILDER] == 1);
    host_policy hp = {0};
    hp.disclose = true;
    mcpr_builder *b = host_builder(&hp);
    mcpr_binding_callbacks cb = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .resolve = lent_text_resolve,
        .read = lent_text_read,
    };
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"lent-text://all\",\"name\":\"l\"}"), &cb, NULL), MCPR_OK);
    mcpr_resources *r = host_build(b);
    char *json = NULL;
    bool partial = false;
    CHECK_STATUS(host_read(r, "lent-text://all", NULL, &json, &partial, NULL), MCPR_OK);
    CHECK(partial && json);
    if (json) {
        mcpr_str j = str_of(json);
        CHECK(str_contains(j, "{\"uri\":\"lent-text://ok\",\"mimeType\":\"text/plain\",\"text\":\"" LENT_TEXT_JSON "\"}"));
        CHECK(str_contains(j, "{\"uri\":\"lent-text://static\",\"mimeType\":\"text/markdown\",\"text\":\"# static\"}"));
        CHECK(str_contains(j, "{\"uri\":\"lent-text://empty\",\"mimeType\":\"text/plain\",\"text\":\"\"}"));
        const char *invalid[] = {"lent-text://after-text", "lent-text://twice", "lent-text://bad-mime",
                                 "lent-text://bad-utf8", "lent-text://null-text"};
        for (size_t i = 0; i < 5; i++) {
            char want[128];
            snprintf(want, sizeof want, "\"retryable\":false,\"resourceUri\":\"%s\"}", invalid[i]);
            CHECK(str_contains(j, want));
        }
        CHECK(str_count(j, "\"code\":\"invalid_content\"") == 5);
    }
    CHECK(lent_text_ok_released_in_callback == 0);
    for (int i = 0; i < LENT_TEXT_COUNT; i++) CHECK(lent_text_released[i] == 1);
    free(json);
    mcpr_resources_free(r);
}

int main(void) {
    test_selection();
    test_complete_bundle();
    test_plans();
    test_partial_bundle();
    test_payload_rules();
    test_borrowed_blob_is_released_once();
    test_borrowed_text_is_released_once();
    return harness_finish("test_read");
}
