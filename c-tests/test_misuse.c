/* Misuse of the ABI never is undefined behaviour: NULL handles, (NULL, n > 0)
 * strings, absurd lengths, a builder used after build, unknown limit values,
 * negative limits, missing callbacks. Also: release callbacks run exactly
 * once, out-parameters are written only on success and error out-parameters
 * only on failure, every free accepts NULL. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"

#define SENTINEL_ERR ((mcpr_error *)(uintptr_t)0x1)

static const char *DEF_A = "{\"uri\":\"item://ok/a\",\"name\":\"a\"}";
static const char *DEF_T = "{\"uriTemplate\":\"item://ok/{name}\",\"name\":\"t\"}";

static void test_null_handles(void) {
    host_binding hb = {0};
    mcpr_binding_callbacks bt = host_binding_table(&hb);
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_builder_add(MISUSE_NULL, str_of(DEF_A), &bt, &e), MCPR_INVALID_ARGUMENT);
    CHECK(e != NULL && mcpr_error_status(e) == MCPR_INVALID_ARGUMENT);
    CHECK(mcpr_error_jsonrpc_code(e) == -32603);
    CHECK(mcpr_error_message(e).len > 0);
    mcpr_error_free(e);
    /* err may be NULL */
    CHECK_STATUS(mcpr_builder_add(MISUSE_NULL, str_of(DEF_A), &bt, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_set_policy(MISUSE_NULL, MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_set_limit(MISUSE_NULL, MCPR_LIMIT_MAX_ITEMS, 1, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_set_cursor_key(MISUSE_NULL, MISUSE_NULL, 0, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_build(MISUSE_NULL, MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_bundle *bundle = NULL;
    CHECK_STATUS(mcpr_read(MISUSE_NULL, S("item://ok/a"), NULL, &bundle, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(bundle == NULL);
    mcpr_page *page = NULL;
    mcpr_list_options lo = {.struct_size = sizeof(mcpr_list_options), .scope_key = S("scope")};
    CHECK_STATUS(mcpr_list(MISUSE_NULL, &lo, &page, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_list_templates(MISUSE_NULL, &lo, &page, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(page == NULL);
    CHECK_STATUS(mcpr_executor_new(1, MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(SIZE_MAX, &ex, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_executor_new(MCPR_MAX_EXECUTOR_THREADS + 1, &ex, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(ex == NULL);
    CHECK_STATUS(mcpr_plan_set_requested(MISUSE_NULL, S("a:b"), S(""), S(""), NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_plan_add_item(MISUSE_NULL, S("a:b"), S(""), S(""), NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_payload_set_text(MISUSE_NULL, S("text/plain"), S(""), NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_payload_set_blob(MISUSE_NULL, S("text/plain"), NULL, 0, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_payload_set_text_borrowed(MISUSE_NULL, S("text/plain"), S(""), NULL, NULL, NULL),
                 MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_payload_set_meta(MISUSE_NULL, S("{}"), NULL), MCPR_INVALID_ARGUMENT);
    CHECK(mcpr_resolve_single(NULL, MISUSE_NULL, MISUSE_NULL, MISUSE_NULL) == MCPR_CB_FAILED);

    /* accessors return their defaults for NULL */
    CHECK(mcpr_error_status(NULL) == MCPR_INVALID_ARGUMENT);
    CHECK(mcpr_error_message(NULL).len == 0 && mcpr_error_message(NULL).ptr != NULL);
    CHECK(mcpr_error_cause(NULL).len == 0);
    CHECK(mcpr_error_jsonrpc_code(NULL) == 0);
    CHECK(mcpr_bundle_json(NULL).len == 0);
    CHECK(!mcpr_bundle_is_partial(NULL));
    CHECK(mcpr_page_json(NULL).len == 0);
    CHECK(mcpr_page_next_cursor(NULL).len == 0);
    CHECK(!mcpr_cancel_is_canceled(NULL));
    mcpr_cancel_cancel(NULL);
    CHECK(!mcpr_call_is_canceled(NULL));
    CHECK(mcpr_call_remaining_ms(NULL) == 0);
    CHECK(mcpr_call_request_data(NULL) == NULL);
    CHECK(mcpr_call_max_bytes(NULL) == 0);
    mcpr_call_set_cause(NULL, S("x"));
    CHECK(mcpr_definition_json(NULL).len == 0);
    CHECK(mcpr_definition_uri(NULL).len == 0);
    CHECK(mcpr_definition_name(NULL).len == 0);
    CHECK(!mcpr_definition_is_template(NULL));
    CHECK(mcpr_match_definition(NULL) == NULL);
    CHECK(mcpr_match_uri(NULL).len == 0);
    CHECK(mcpr_match_capture_count(NULL) == 0);
    CHECK(mcpr_match_capture_name(NULL, 0).len == 0);
    CHECK(mcpr_match_capture_value(NULL, 3).len == 0);
    CHECK(mcpr_target_uri(NULL).len == 0);
    CHECK(mcpr_target_representation(NULL).len == 0);
    CHECK(mcpr_target_authorization(NULL).len == 0);
    CHECK(mcpr_resources_retain(NULL) == NULL);
    uint8_t rev[32] = {0};
    mcpr_resources_content_hash(NULL, rev);

    /* every free accepts NULL */
    mcpr_error_free(NULL);
    mcpr_builder_free(NULL);
    mcpr_resources_free(NULL);
    mcpr_executor_free(NULL);
    mcpr_cancel_free(NULL);
    mcpr_bundle_free(NULL);
    mcpr_page_free(NULL);
}

static void test_builder_misuse(void) {
    host_policy hp = {0};
    host_binding hb = {0};
    mcpr_builder *b = host_builder(&hp);
    mcpr_binding_callbacks bt = host_binding_table(&hb);
    mcpr_error *e = SENTINEL_ERR;

    /* (NULL, n > 0) and absurd lengths */
    mcpr_str null_len = {NULL, 5};
    CHECK_STATUS(mcpr_builder_add(b, null_len, &bt, &e), MCPR_INVALID_ARGUMENT);
    CHECK(e != SENTINEL_ERR && e != NULL);
    mcpr_error_free(e);
    mcpr_str huge = {DEF_A, SIZE_MAX};
    CHECK_STATUS(mcpr_builder_add(b, huge, &bt, NULL), MCPR_INVALID_ARGUMENT);
    /* (NULL, 0) is the empty string: an invalid definition */
    mcpr_str empty = {NULL, 0};
    CHECK_STATUS(mcpr_builder_add(b, empty, &bt, NULL), MCPR_INVALID_CONFIGURATION);
    /* non-UTF-8 and bad JSON */
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"a:\xff\",\"name\":\"x\"}"), &bt, NULL),
                 MCPR_INVALID_CONFIGURATION);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":"), &bt, NULL), MCPR_INVALID_CONFIGURATION);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"s://u@h/x\",\"name\":\"x\"}"), &bt, NULL),
                 MCPR_INVALID_CONFIGURATION);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uriTemplate\":\"x://a/b{c}\",\"name\":\"x\"}"), &bt, NULL),
                 MCPR_INVALID_CONFIGURATION);
    /* NULL table, missing required callbacks */
    CHECK_STATUS(mcpr_builder_add(b, str_of(DEF_A), MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_binding_callbacks no_read = bt;
    no_read.read = NULL;
    CHECK_STATUS(mcpr_builder_add(b, str_of(DEF_A), &no_read, NULL), MCPR_INVALID_CONFIGURATION);
    mcpr_policy_callbacks pt = host_policy_table(&hp);
    pt.visibility = NULL;
    CHECK_STATUS(mcpr_builder_set_policy(b, &pt, NULL), MCPR_INVALID_CONFIGURATION);
    CHECK_STATUS(mcpr_builder_set_policy(b, MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);

    /* limits: unknown enum values, negative values */
    e = SENTINEL_ERR;
    CHECK_STATUS(mcpr_builder_set_limit(b, 0, 10, &e), MCPR_INVALID_ARGUMENT);
    CHECK(e != SENTINEL_ERR);
    mcpr_error_free(e);
    CHECK_STATUS(mcpr_builder_set_limit(b, 15, 10, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_set_limit(b, 0xFFFFFFFFu, 10, NULL), MCPR_INVALID_ARGUMENT);
    e = NULL;
    CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_MAX_ITEMS, -1, &e), MCPR_INVALID_CONFIGURATION);
    CHECK(str_contains(mcpr_error_message(e), "max_items"));
    mcpr_error_free(e);
    CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_READ_TIMEOUT_MS, INT64_MIN, NULL),
                 MCPR_INVALID_CONFIGURATION);
    e = SENTINEL_ERR;
    CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_MAX_ITEMS, 0, &e), MCPR_OK);
    CHECK(e == SENTINEL_ERR); /* not written on success */

    /* cursor key and clock */
    static const uint8_t key[64] = {1};
    CHECK_STATUS(mcpr_builder_set_cursor_key(b, MISUSE_NULL, 32, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_set_cursor_key(b, key, 31, NULL), MCPR_INVALID_CONFIGURATION);
    CHECK_STATUS(mcpr_builder_set_cursor_key(b, key, 1025, NULL), MCPR_INVALID_CONFIGURATION);
    CHECK_STATUS(mcpr_builder_set_cursor_key(b, key, 32, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_clock(b, MISUSE_NULL, NULL, NULL), MCPR_INVALID_ARGUMENT);

    /* none of the refused adds counts: no release ran or will run for them */
    CHECK(atomic_load(&hb.releases) == 0);
    CHECK_STATUS(host_add(b, DEF_A, &hb), MCPR_OK);
    CHECK_STATUS(host_add(b, DEF_T, &hb), MCPR_OK);

    /* a successful build consumes the builder (no mcpr_builder_free after
     * it: valgrind and ASan report a double free or a leak otherwise); the
     * registry now holds the tables */
    mcpr_resources *r = (mcpr_resources *)(uintptr_t)0x1;
    e = SENTINEL_ERR;
    CHECK_STATUS(mcpr_builder_build(b, &r, &e), MCPR_OK);
    CHECK(e == SENTINEL_ERR);
    CHECK(r != NULL && r != (mcpr_resources *)(uintptr_t)0x1);
    CHECK(atomic_load(&hb.releases) == 0);
    CHECK(atomic_load(&hp.releases) == 0);

    /* a build refused for a NULL out consumes the builder too: its tables
     * are released before it returns */
    host_policy hp_out = {0};
    host_binding hb_out = {0};
    mcpr_builder *b_out = host_builder(&hp_out);
    CHECK_STATUS(host_add(b_out, DEF_A, &hb_out), MCPR_OK);
    e = SENTINEL_ERR;
    CHECK_STATUS(mcpr_builder_build(b_out, MISUSE_NULL, &e), MCPR_INVALID_ARGUMENT);
    CHECK(e != SENTINEL_ERR && e != NULL);
    mcpr_error_free(e);
    CHECK(atomic_load(&hb_out.releases) == 1);
    CHECK(atomic_load(&hp_out.releases) == 1);

    /* reads: (NULL, n > 0), absurd lengths, NULL out, (NULL, 0) = empty URI */
    mcpr_bundle *bundle = (mcpr_bundle *)(uintptr_t)0x3;
    CHECK_STATUS(mcpr_read(r, null_len, NULL, &bundle, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_str huge_uri = {"item://ok/a", SIZE_MAX / 2 + 1};
    CHECK_STATUS(mcpr_read(r, huge_uri, NULL, &bundle, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(bundle == (mcpr_bundle *)(uintptr_t)0x3);
    CHECK_STATUS(mcpr_read(r, S("item://ok/a"), NULL, MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
    e = NULL;
    CHECK_STATUS(mcpr_read(r, empty, NULL, &bundle, &e), MCPR_INVALID_REQUEST);
    CHECK(mcpr_error_jsonrpc_code(e) == -32602);
    mcpr_error_free(e);
    CHECK(bundle == (mcpr_bundle *)(uintptr_t)0x3);
    /* a read with NULL options works */
    bundle = NULL;
    CHECK_STATUS(mcpr_read(r, S("item://ok/a"), NULL, &bundle, NULL), MCPR_OK);
    CHECK(bundle != NULL && str_contains(mcpr_bundle_json(bundle), "body of item://ok/a"));
    mcpr_bundle_free(bundle);

    /* listing misuse */
    mcpr_page *page = NULL;
    CHECK_STATUS(mcpr_list(r, MISUSE_NULL, &page, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_list_options lo = {.struct_size = sizeof(mcpr_list_options)};
    CHECK_STATUS(mcpr_list(r, &lo, &page, NULL), MCPR_INVALID_ARGUMENT); /* empty scope key: a host mistake */
    CHECK_STATUS(mcpr_list_templates(r, &lo, &page, NULL), MCPR_INVALID_ARGUMENT);
    lo.scope_key = S("scope");
    lo.cursor = null_len;
    CHECK_STATUS(mcpr_list(r, &lo, &page, NULL), MCPR_INVALID_ARGUMENT);
    lo.cursor.len = 0; /* (NULL, 0): first page */
    CHECK_STATUS(mcpr_list(r, &lo, MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(page == NULL);
    CHECK_STATUS(mcpr_list(r, &lo, &page, NULL), MCPR_OK);
    CHECK(str_contains(mcpr_page_json(page), "\"uri\":\"item://ok/a\""));
    mcpr_page_free(page);

    /* refcount: release runs once, after the last reference goes */
    mcpr_resources *again = mcpr_resources_retain(r);
    CHECK(again == r);
    mcpr_resources_free(r);
    CHECK(atomic_load(&hb.releases) == 0 && atomic_load(&hp.releases) == 0);
    mcpr_resources_free(again);
    CHECK(atomic_load(&hb.releases) == 2); /* two successful adds */
    CHECK(atomic_load(&hp.releases) == 1);
}

static void test_release_paths(void) {
    /* a builder freed without building releases everything it holds */
    host_policy hp = {0}, hp2 = {0};
    host_binding hb = {0};
    mcpr_builder *b = host_builder(&hp);
    CHECK_STATUS(host_add(b, DEF_A, &hb), MCPR_OK);
    /* replacing the policy releases the first table at once */
    mcpr_policy_callbacks pt2 = host_policy_table(&hp2);
    CHECK_STATUS(mcpr_builder_set_policy(b, &pt2, NULL), MCPR_OK);
    CHECK(atomic_load(&hp.releases) == 1);
    mcpr_builder_free(b);
    CHECK(atomic_load(&hb.releases) == 1);
    CHECK(atomic_load(&hp2.releases) == 1);
    CHECK(atomic_load(&hp.releases) == 1);

    /* a failed build consumes the builder and releases everything once */
    host_policy hp3 = {0};
    host_binding hb3 = {0};
    b = host_builder(&hp3);
    CHECK_STATUS(host_add(b, DEF_A, &hb3), MCPR_OK);
    CHECK_STATUS(host_add(b, DEF_A, &hb3), MCPR_OK); /* duplicate uri: build fails */
    mcpr_resources *r = (mcpr_resources *)(uintptr_t)0x2;
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_builder_build(b, &r, &e), MCPR_INVALID_CONFIGURATION);
    CHECK(r == (mcpr_resources *)(uintptr_t)0x2); /* out not written on failure */
    CHECK(str_contains(mcpr_error_message(e), "duplicate"));
    mcpr_error_free(e);
    /* a failed build consumed the builder: every table released once, and
     * nothing is left to free */
    CHECK(atomic_load(&hb3.releases) == 2);
    CHECK(atomic_load(&hp3.releases) == 1);

    /* no policy: build fails */
    host_binding hb4 = {0};
    b = mcpr_builder_new();
    CHECK_STATUS(host_add(b, DEF_A, &hb4), MCPR_OK);
    CHECK_STATUS(mcpr_builder_build(b, &r, NULL), MCPR_INVALID_CONFIGURATION);
    CHECK(atomic_load(&hb4.releases) == 1);

    /* limits are checked against each other at build */
    host_policy hp5 = {0};
    b = host_builder(&hp5);
    CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_DEFAULT_PAGE_SIZE, 20, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_MAX_PAGE_SIZE, 10, NULL), MCPR_OK);
    e = NULL;
    CHECK_STATUS(mcpr_builder_build(b, &r, &e), MCPR_INVALID_CONFIGURATION);
    CHECK(str_contains(mcpr_error_message(e), "default_page_size"));
    mcpr_error_free(e);
    b = host_builder(&hp5);
    CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_MAX_URI_BYTES, 50, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_build(b, &r, NULL), MCPR_INVALID_CONFIGURATION);
    CHECK(atomic_load(&hp5.releases) == 2);
}

/* The release of a policy table replaced by mcpr_builder_set_policy may call
 * into that builder (it used to run while the builder was locked: a
 * deadlock). An alarm turns a hang into a failure. */
typedef struct {
    mcpr_builder *builder; /* called into by release when not NULL */
    int releases;
    mcpr_status status;    /* of the call made from release */
} reentrant_policy;

static mcpr_cb_result rp_discover(void *ud, const mcpr_call *c, const mcpr_definition *d) {
    (void)ud, (void)c, (void)d;
    return MCPR_CB_OK;
}
static mcpr_cb_result rp_visibility(void *ud, const mcpr_call *c, const mcpr_target *t, mcpr_visibility *out) {
    (void)ud, (void)c, (void)t;
    out->visible = true;
    return MCPR_CB_OK;
}
static mcpr_cb_result rp_read(void *ud, const mcpr_call *c, const mcpr_target *t) {
    (void)ud, (void)c, (void)t;
    return MCPR_CB_OK;
}
static void rp_release(void *ud) {
    reentrant_policy *p = ud;
    p->releases++;
    if (p->builder) p->status = mcpr_builder_set_limit(p->builder, MCPR_LIMIT_MAX_ITEMS, 7, NULL);
}

static void test_release_calls_into_its_builder(void) {
    alarm(20);
    mcpr_builder *b = mcpr_builder_new();
    reentrant_policy p1 = {b, 0, MCPR_INTERNAL}, p2 = {NULL, 0, MCPR_OK};
    mcpr_policy_callbacks t1 = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .user_data = &p1,
        .discover = rp_discover,
        .visibility = rp_visibility,
        .read = rp_read,
        .release = rp_release,
    };
    mcpr_policy_callbacks t2 = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .user_data = &p2,
        .discover = rp_discover,
        .visibility = rp_visibility,
        .read = rp_read,
        .release = rp_release,
    };
    CHECK_STATUS(mcpr_builder_set_policy(b, &t1, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_policy(b, &t2, NULL), MCPR_OK); /* releases t1 */
    CHECK(p1.releases == 1 && p2.releases == 0);
    CHECK_STATUS(p1.status, MCPR_OK);
    mcpr_resources *r = NULL;
    CHECK_STATUS(mcpr_builder_build(b, &r, NULL), MCPR_OK);
    CHECK(p2.releases == 0); /* the registry holds the table */
    mcpr_resources_free(r);
    CHECK(p1.releases == 1 && p2.releases == 1);
    /* a failed build releases the policy before it returns */
    b = mcpr_builder_new();
    reentrant_policy p3 = {NULL, 0, MCPR_OK};
    mcpr_policy_callbacks t3 = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .user_data = &p3,
        .discover = rp_discover,
        .visibility = rp_visibility,
        .read = rp_read,
        .release = rp_release,
    };
    CHECK_STATUS(mcpr_builder_set_policy(b, &t3, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_MAX_URI_BYTES, 50, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_build(b, &r, NULL), MCPR_INVALID_CONFIGURATION);
    CHECK(p3.releases == 1); /* released by the failed build, which consumed the builder */
    alarm(0);
}

static void test_misc(void) {
    /* the header's version macros name the library loaded at run time */
    char header_version[32];
    snprintf(header_version, sizeof header_version, "%d.%d.%d", MCPR_VERSION_MAJOR, MCPR_VERSION_MINOR,
             MCPR_VERSION_PATCH);
    CHECK(strcmp(mcpr_version(), header_version) == 0);

    /* revisions: identical registries agree, different ones differ */
    host_policy hp = {0};
    host_binding hb = {0};
    mcpr_resources *rs[3];
    for (int i = 0; i < 3; i++) {
        mcpr_builder *b = host_builder(&hp);
        host_add(b, DEF_A, &hb);
        if (i == 2) host_add(b, DEF_T, &hb);
        rs[i] = host_build(b);
        CHECK(rs[i] != NULL);
    }
    uint8_t r0[32], r1[32], r2[32];
    memset(r0, 0, 32);
    mcpr_resources_content_hash(rs[0], r0);
    mcpr_resources_content_hash(rs[1], r1);
    mcpr_resources_content_hash(rs[2], r2);
    mcpr_resources_content_hash(rs[0], NULL);
    CHECK(memcmp(r0, r1, 32) == 0);
    CHECK(memcmp(r0, r2, 32) != 0);
    static const uint8_t zero[32] = {0};
    CHECK(memcmp(r0, zero, 32) != 0);
    for (int i = 0; i < 3; i++) mcpr_resources_free(rs[i]);
    CHECK(atomic_load(&hb.releases) == 4);
    CHECK(atomic_load(&hp.releases) == 3);

    /* executors and tokens */
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(0, &ex, NULL), MCPR_OK);
    CHECK(ex != NULL);
    mcpr_executor_free(ex);
    mcpr_cancel *c = mcpr_cancel_new();
    CHECK(c != NULL && !mcpr_cancel_is_canceled(c));
    mcpr_cancel_cancel(c);
    mcpr_cancel_cancel(c);
    CHECK(mcpr_cancel_is_canceled(c));
    mcpr_cancel_free(c);
}

int main(void) {
    test_null_handles();
    test_builder_misuse();
    test_release_paths();
    test_release_calls_into_its_builder();
    test_misc();
    return harness_finish("test_misuse");
}
