/* Usability additions of the C ABI: status names, MCPR_CB_INVALID_CONTENT,
 * the length-checked revision accessor, the call phase seen by callbacks
 * (inline and on an executor), the built-in allow-all policy, and the
 * visibility callback that returns OK without deciding. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"

/* ---------------------------------------------------------------- host */

#define MAX_LOG 256

/* What the policy and binding of these tests do, and what they saw. */
typedef struct {
    /* behaviour */
    mcpr_cb_result discover_rc;
    mcpr_cb_result visibility_rc;
    int visibility_mode; /* 0: write visible=true; 1: write nothing; 2: write visible=false */
    mcpr_cb_result resolve_rc;
    atomic_int releases;
    /* log of (callback, phase), in call order */
    pthread_mutex_t lock;
    int n;
    char who[MAX_LOG];
    mcpr_phase phase[MAX_LOG];
} host;

static void host_init(host *h) {
    memset(h, 0, sizeof *h);
    pthread_mutex_init(&h->lock, NULL);
}

static void host_destroy(host *h) { pthread_mutex_destroy(&h->lock); }

static void note(host *h, char who, const mcpr_call *call) {
    pthread_mutex_lock(&h->lock);
    if (h->n < MAX_LOG) {
        h->who[h->n] = who;
        h->phase[h->n] = mcpr_call_phase(call);
        h->n++;
    }
    pthread_mutex_unlock(&h->lock);
}

static mcpr_cb_result p_discover(void *ud, const mcpr_call *call, const mcpr_definition *d) {
    host *h = ud;
    (void)d;
    note(h, 'd', call);
    return h->discover_rc;
}

static mcpr_cb_result p_visibility(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_visibility *out) {
    host *h = ud;
    (void)t;
    note(h, 'v', call);
    if (h->visibility_mode == 0) out->visible = true;
    if (h->visibility_mode == 2) out->visible = false;
    return h->visibility_rc;
}

static mcpr_cb_result p_read(void *ud, const mcpr_call *call, const mcpr_target *t) {
    (void)t;
    note(ud, 'p', call);
    return MCPR_CB_OK;
}

static void p_release(void *ud) {
    host *h = ud;
    atomic_fetch_add(&h->releases, 1);
}

static mcpr_policy_callbacks policy_of(host *h) {
    mcpr_policy_callbacks t = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .user_data = h,
        .discover = p_discover,
        .visibility = p_visibility,
        .read = p_read,
        .release = p_release,
    };
    return t;
}

/* resolve: "u://multi" plans two items (u://ok/a, u://invalid/b); any other
 * URI is planned as itself. */
static mcpr_cb_result b_resolve(void *ud, const mcpr_call *call, const mcpr_match *m, mcpr_plan_builder *plan) {
    host *h = ud;
    note(h, 'r', call);
    if (h->resolve_rc != MCPR_CB_OK) return h->resolve_rc;
    mcpr_str uri = mcpr_match_uri(m);
    if (str_eq(uri, "u://multi")) {
        if (mcpr_plan_set_requested(plan, uri, S(""), S(""), NULL) != MCPR_OK) return MCPR_CB_FAILED;
        if (mcpr_plan_add_item(plan, S("u://ok/a"), S(""), S(""), NULL) != MCPR_OK) return MCPR_CB_FAILED;
        if (mcpr_plan_add_item(plan, S("u://invalid/b"), S(""), S(""), NULL) != MCPR_OK) return MCPR_CB_FAILED;
        return MCPR_CB_OK;
    }
    return mcpr_resolve_single(ud, call, m, plan);
}

/* body read: URIs containing "invalid" answer MCPR_CB_INVALID_CONTENT with
 * the private cause "BAD-BYTES"; others a text body. */
static mcpr_cb_result b_read(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    note(ud, 'b', call);
    mcpr_str uri = mcpr_target_uri(t);
    if (str_contains(uri, "invalid")) {
        mcpr_call_set_cause(call, S("BAD-BYTES"));
        return MCPR_CB_INVALID_CONTENT;
    }
    return mcpr_payload_set_text(out, S("text/plain"), S("hello"), NULL) == MCPR_OK ? MCPR_CB_OK : MCPR_CB_FAILED;
}

static mcpr_binding_callbacks binding_of(host *h) {
    mcpr_binding_callbacks t = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = h,
        .resolve = b_resolve,
        .read = b_read,
    };
    return t;
}

static const char *const defs[] = {
    "{\"uri\":\"u://one\",\"name\":\"one\"}",
    "{\"uri\":\"u://multi\",\"name\":\"multi\"}",
    "{\"uri\":\"u://invalid\",\"name\":\"invalid\"}",
};

/* A registry over `h`: its C policy, or the built-in allow-all one. */
static mcpr_resources *registry(host *h, bool allow_all) {
    mcpr_builder *b = mcpr_builder_new();
    mcpr_resources *r = NULL;
    mcpr_binding_callbacks bc = binding_of(h);
    if (allow_all) {
        CHECK_STATUS(mcpr_builder_set_policy_allow_all(b, NULL), MCPR_OK);
    } else {
        mcpr_policy_callbacks pc = policy_of(h);
        CHECK_STATUS(mcpr_builder_set_policy(b, &pc, NULL), MCPR_OK);
    }
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++) {
        CHECK_STATUS(mcpr_builder_add(b, str_of(defs[i]), &bc, NULL), MCPR_OK);
    }
    CHECK_STATUS(mcpr_builder_build(b, &r, NULL), MCPR_OK);
    return r;
}

/* A read whose bundle (if any) is discarded. */
static mcpr_status read_only(mcpr_resources *r, mcpr_str uri, mcpr_error **e) {
    mcpr_bundle *bundle = NULL;
    mcpr_status s = mcpr_read(r, uri, NULL, &bundle, e);
    mcpr_bundle_free(bundle);
    return s;
}

/* The first page of resources/list (its JSON copied into `json` when not NULL). */
static mcpr_status list_page(mcpr_resources *r, const mcpr_executor *ex, char *json, size_t cap) {
    mcpr_list_options lo = MCPR_LIST_OPTIONS_INIT;
    lo.scope_key = S("tests");
    lo.executor = ex;
    mcpr_page *page = NULL;
    mcpr_status s = mcpr_list(r, &lo, &page, NULL);
    if (json && cap) {
        json[0] = 0;
        if (page) {
            mcpr_str j = mcpr_page_json(page);
            size_t n = j.len < cap - 1 ? j.len : cap - 1;
            memcpy(json, j.ptr, n);
            json[n] = 0;
        }
    }
    mcpr_page_free(page);
    return s;
}

/* ---------------------------------------------------------------- status names */

static void status_name_names_every_status_and_unknown_values(void) {
    const char *seen[MCPR_STATUS_MAX + 1];
    for (int s = 0; s <= MCPR_STATUS_MAX; s++) {
        const char *name = mcpr_status_name(s);
        CHECK(name != NULL);
        if (!name) continue;
        CHECK(strncmp(name, "MCPR_", 5) == 0);
        CHECK(strcmp(name, "MCPR_UNKNOWN_STATUS") != 0);
        for (int j = 0; j < s; j++) CHECK(strcmp(seen[j], name) != 0);
        seen[s] = name;
    }
    CHECK(strcmp(mcpr_status_name(MCPR_OK), "MCPR_OK") == 0);
    CHECK(strcmp(mcpr_status_name(MCPR_INVALID_REQUEST), "MCPR_INVALID_REQUEST") == 0);
    CHECK(strcmp(mcpr_status_name(MCPR_POLICY), "MCPR_POLICY") == 0);
    CHECK(strcmp(mcpr_status_name(MCPR_INVALID_CONTENT), "MCPR_INVALID_CONTENT") == 0);
    CHECK(strcmp(mcpr_status_name(MCPR_INVALID_ARGUMENT), "MCPR_INVALID_ARGUMENT") == 0);
    CHECK(strcmp(mcpr_status_name(MCPR_METHOD_NOT_HANDLED), "MCPR_METHOD_NOT_HANDLED") == 0);
    CHECK(strcmp(mcpr_status_name(MCPR_INPUT_REQUIRED), "MCPR_INPUT_REQUIRED") == 0);
    CHECK(MCPR_INPUT_REQUIRED == MCPR_STATUS_MAX);
    CHECK(strcmp(mcpr_status_name(MCPR_STATUS_MAX + 1), "MCPR_UNKNOWN_STATUS") == 0);
    CHECK(strcmp(mcpr_status_name(1000), "MCPR_UNKNOWN_STATUS") == 0);
    CHECK(strcmp(mcpr_status_name(-1), "MCPR_UNKNOWN_STATUS") == 0);
    CHECK(strcmp(mcpr_status_name(INT32_MAX), "MCPR_UNKNOWN_STATUS") == 0);
}

/* ---------------------------------------------------------------- MCPR_CB_INVALID_CONTENT */

static void cb_invalid_content_from_a_reader_is_an_invalid_content_item(void) {
    host h;
    host_init(&h);
    mcpr_resources *r = registry(&h, false);

    /* the only item: the read fails with MCPR_INVALID_CONTENT, the cause is private */
    mcpr_error *e = NULL;
    mcpr_bundle *bundle = NULL;
    CHECK_STATUS(mcpr_read(r, S("u://invalid"), NULL, &bundle, &e), MCPR_INVALID_CONTENT);
    CHECK(bundle == NULL);
    CHECK(e && mcpr_error_status(e) == MCPR_INVALID_CONTENT);
    CHECK(e && str_contains(mcpr_error_cause(e), "BAD-BYTES"));
    CHECK(e && !str_contains(mcpr_error_message(e), "BAD-BYTES"));
    CHECK(e && !str_contains(mcpr_error_jsonrpc_json(e), "BAD-BYTES"));
    mcpr_error_free(e);

    /* one of two items: a partial result with an invalid_content issue */
    CHECK_STATUS(mcpr_read(r, S("u://multi"), NULL, &bundle, NULL), MCPR_OK);
    CHECK(bundle && mcpr_bundle_is_partial(bundle));
    mcpr_str json = bundle ? mcpr_bundle_json(bundle) : S("");
    CHECK(str_contains(json, "\"code\":\"invalid_content\""));
    CHECK(str_contains(json, "hello"));
    CHECK(!str_contains(json, "BAD-BYTES"));
    mcpr_bundle_free(bundle);
    mcpr_resources_free(r);
    host_destroy(&h);
}

static void cb_invalid_content_from_other_callbacks_is_their_failure(void) {
    /* discover: MCPR_POLICY */
    host h;
    host_init(&h);
    h.discover_rc = MCPR_CB_INVALID_CONTENT;
    mcpr_resources *r = registry(&h, false);
    CHECK_STATUS(read_only(r, S("u://one"), NULL), MCPR_POLICY);
    CHECK_STATUS(list_page(r, NULL, NULL, 0), MCPR_POLICY);
    mcpr_resources_free(r);
    host_destroy(&h);

    /* visibility: MCPR_POLICY */
    host_init(&h);
    h.visibility_rc = MCPR_CB_INVALID_CONTENT;
    r = registry(&h, false);
    CHECK_STATUS(read_only(r, S("u://one"), NULL), MCPR_POLICY);
    mcpr_resources_free(r);
    host_destroy(&h);

    /* resolve: MCPR_INVALID_PLAN */
    host_init(&h);
    h.resolve_rc = MCPR_CB_INVALID_CONTENT;
    r = registry(&h, false);
    CHECK_STATUS(read_only(r, S("u://one"), NULL), MCPR_INVALID_PLAN);
    mcpr_resources_free(r);
    host_destroy(&h);
}

/* ---------------------------------------------------------------- content hash */

static void content_hash_into_checks_the_buffer_length(void) {
    host h;
    host_init(&h);
    mcpr_resources *r = registry(&h, false);
    uint8_t want[32];
    mcpr_resources_content_hash(r, want);

    uint8_t buf[40];
    memset(buf, 0xEE, sizeof buf);
    CHECK_STATUS(mcpr_resources_content_hash_into(r, buf, 32, NULL), MCPR_OK);
    CHECK(memcmp(buf, want, 32) == 0);

    /* a larger buffer: exactly 32 bytes written */
    memset(buf, 0xEE, sizeof buf);
    CHECK_STATUS(mcpr_resources_content_hash_into(r, buf, sizeof buf, NULL), MCPR_OK);
    CHECK(memcmp(buf, want, 32) == 0);
    for (size_t i = 32; i < sizeof buf; i++) CHECK(buf[i] == 0xEE);

    /* too short: nothing written, an error object */
    memset(buf, 0xEE, sizeof buf);
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_resources_content_hash_into(r, buf, 31, &e), MCPR_INVALID_ARGUMENT);
    CHECK(e && mcpr_error_status(e) == MCPR_INVALID_ARGUMENT);
    mcpr_error_free(e);
    for (size_t i = 0; i < sizeof buf; i++) CHECK(buf[i] == 0xEE);
    CHECK_STATUS(mcpr_resources_content_hash_into(r, buf, 0, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_resources_content_hash_into(r, NULL, 32, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_resources_content_hash_into(NULL, buf, 32, NULL), MCPR_INVALID_ARGUMENT);
    for (size_t i = 0; i < sizeof buf; i++) CHECK(buf[i] == 0xEE);

    mcpr_resources_free(r);
    host_destroy(&h);
}

/* ---------------------------------------------------------------- call phase */

/* Policy callbacks of one read: first check before the body reads, recheck
 * after; resolve and body reads have their own phase. */
static void check_read_phases(host *h) {
    int first_body = -1, last_body = -1, first = 0, recheck = 0;
    for (int i = 0; i < h->n; i++) {
        if (h->who[i] == 'b') {
            if (first_body < 0) first_body = i;
            last_body = i;
        }
    }
    CHECK(first_body > 0);
    for (int i = 0; i < h->n; i++) {
        switch (h->who[i]) {
        case 'r':
            CHECK(h->phase[i] == MCPR_PHASE_RESOLVE);
            CHECK(i < first_body);
            break;
        case 'b':
            CHECK(h->phase[i] == MCPR_PHASE_BODY_READ);
            break;
        default: /* policy */
            if (i < first_body) {
                CHECK(h->phase[i] == MCPR_PHASE_FIRST_CHECK);
                first++;
            } else {
                CHECK(i > last_body);
                CHECK(h->phase[i] == MCPR_PHASE_RECHECK);
                recheck++;
            }
        }
    }
    /* discover, then visibility and read permission of the requested
     * target and of each item: the same questions both times */
    CHECK(first >= 3);
    CHECK(first == recheck);
    CHECK(h->who[0] == 'd' && h->phase[0] == MCPR_PHASE_FIRST_CHECK);
}

static void policy_callbacks_see_first_check_then_recheck(void) {
    CHECK(mcpr_call_phase(NULL) == MCPR_PHASE_UNKNOWN);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    for (int on_executor = 0; on_executor < 2; on_executor++) {
        host h;
        host_init(&h);
        mcpr_resources *r = registry(&h, false);
        mcpr_read_options o = MCPR_READ_OPTIONS_INIT;
        if (on_executor) o.executor = ex;
        mcpr_bundle *bundle = NULL;
        h.n = 0;
        CHECK_STATUS(mcpr_read(r, S("u://one"), &o, &bundle, NULL), MCPR_OK);
        mcpr_bundle_free(bundle);
        check_read_phases(&h);

        h.n = 0;
        CHECK_STATUS(mcpr_read(r, S("u://multi"), &o, &bundle, NULL), MCPR_OK);
        mcpr_bundle_free(bundle);
        check_read_phases(&h);

        /* a listing asks discover in the listing phase */
        h.n = 0;
        CHECK_STATUS(list_page(r, on_executor ? ex : NULL, NULL, 0), MCPR_OK);
        CHECK(h.n == 3);
        for (int i = 0; i < h.n; i++) CHECK(h.who[i] == 'd' && h.phase[i] == MCPR_PHASE_LISTING);

        mcpr_resources_free(r);
        host_destroy(&h);
    }
    mcpr_executor_free(ex);
}

/* ---------------------------------------------------------------- allow-all */

static void allow_all_policy_reads_and_lists_without_callbacks(void) {
    host h;
    host_init(&h);
    mcpr_resources *r = registry(&h, true);
    mcpr_bundle *bundle = NULL;
    CHECK_STATUS(mcpr_read(r, S("u://one"), NULL, &bundle, NULL), MCPR_OK);
    CHECK(bundle && str_contains(mcpr_bundle_json(bundle), "\"text\":\"hello\""));
    mcpr_bundle_free(bundle);
    /* every item visible: the invalid one is reported (without its URI) */
    CHECK_STATUS(mcpr_read(r, S("u://multi"), NULL, &bundle, NULL), MCPR_OK);
    CHECK(bundle && mcpr_bundle_is_partial(bundle));
    CHECK(bundle && str_contains(mcpr_bundle_json(bundle), "\"code\":\"invalid_content\""));
    mcpr_bundle_free(bundle);
    char json[4096];
    CHECK_STATUS(list_page(r, NULL, json, sizeof json), MCPR_OK);
    CHECK(strstr(json, "u://one") && strstr(json, "u://multi") && strstr(json, "u://invalid"));
    /* no policy callback ran; the binding's did */
    for (int i = 0; i < h.n; i++) CHECK(h.who[i] == 'r' || h.who[i] == 'b');
    CHECK(h.n > 0);
    mcpr_resources_free(r);
    host_destroy(&h);
}

static void allow_all_policy_replaces_a_c_policy_and_refuses_misuse(void) {
    host h;
    host_init(&h);
    mcpr_builder *b = mcpr_builder_new();
    mcpr_policy_callbacks pc = policy_of(&h);
    CHECK_STATUS(mcpr_builder_set_policy(b, &pc, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_policy_allow_all(b, NULL), MCPR_OK);
    /* the replaced table is released before the call returns */
    CHECK(atomic_load(&h.releases) == 1);
    mcpr_binding_callbacks bc = binding_of(&h);
    CHECK_STATUS(mcpr_builder_add(b, str_of(defs[0]), &bc, NULL), MCPR_OK);
    mcpr_resources *r = NULL;
    CHECK_STATUS(mcpr_builder_build(b, &r, NULL), MCPR_OK);
    CHECK_STATUS(read_only(r, S("u://one"), NULL), MCPR_OK);
    for (int i = 0; i < h.n; i++) CHECK(h.who[i] == 'r' || h.who[i] == 'b');
    /* NULL is refused (the build consumed `b`: nothing more to free) */
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_builder_set_policy_allow_all(NULL, &e), MCPR_INVALID_ARGUMENT);
    CHECK(e != NULL);
    mcpr_error_free(e);
    mcpr_resources_free(r);
    CHECK(atomic_load(&h.releases) == 1);
    host_destroy(&h);
}

/* ---------------------------------------------------------------- visibility trap */

static void visibility_ok_without_deciding_is_a_policy_failure(void) {
    host h;
    host_init(&h);
    h.visibility_mode = 1; /* returns MCPR_CB_OK, writes nothing */
    mcpr_resources *r = registry(&h, false);
    mcpr_error *e = NULL;
    CHECK_STATUS(read_only(r, S("u://one"), &e), MCPR_POLICY);
    CHECK(e && str_contains(mcpr_error_cause(e), "visibility callback returned OK without deciding"));
    CHECK(e && !str_contains(mcpr_error_message(e), "deciding"));
    mcpr_error_free(e);
    /* listings ask only discover: unaffected */
    CHECK_STATUS(list_page(r, NULL, NULL, 0), MCPR_OK);
    mcpr_resources_free(r);
    host_destroy(&h);
}

static void visibility_false_written_explicitly_still_hides(void) {
    host h;
    host_init(&h);
    h.visibility_mode = 2; /* writes visible = false */
    mcpr_resources *r = registry(&h, false);
    /* a hidden requested target is a root denial, like not found */
    CHECK_STATUS(read_only(r, S("u://one"), NULL), MCPR_UNAVAILABLE);
    mcpr_resources_free(r);
    host_destroy(&h);

    host_init(&h);
    h.visibility_mode = 0; /* writes visible = true */
    r = registry(&h, false);
    CHECK_STATUS(read_only(r, S("u://one"), NULL), MCPR_OK);
    mcpr_resources_free(r);
    host_destroy(&h);
}

int main(void) {
    status_name_names_every_status_and_unknown_values();
    cb_invalid_content_from_a_reader_is_an_invalid_content_item();
    cb_invalid_content_from_other_callbacks_is_their_failure();
    content_hash_into_checks_the_buffer_length();
    policy_callbacks_see_first_check_then_recheck();
    allow_all_policy_reads_and_lists_without_callbacks();
    allow_all_policy_replaces_a_c_policy_and_refuses_misuse();
    visibility_ok_without_deciding_is_a_policy_failure();
    visibility_false_written_explicitly_still_hides();
    return harness_finish("test_usability");
}
