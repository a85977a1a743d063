/* Structs that grow (struct_size first): older callers' smaller structs
 * get defaults for the fields they do not have, impossible sizes and set
 * fields unknown to the library are refused, the *_INIT macros and *_init
 * functions give every default, and the binding table's size_hint (added
 * by this growth) replaces the exact measurement of an item. The cache
 * hints (mcpr_cache_hints) follow the same rules as the other structs. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"

/* ---------------------------------------------------------------- host */

typedef struct {
    atomic_int reads;
    atomic_int hints;
    const mcpr_cache_hints *item_hints; /* what body declares, when set */
    mcpr_status item_hints_status;      /* what mcpr_payload_set_cache_hints returned */
    uint64_t hint;          /* what size_hint writes */
    mcpr_cb_result hint_rc; /* what size_hint returns */
    uint64_t saw_bytes;
    bool saw_blob;
    bool saw_uri;
    int body_kind; /* 0 text, 1 blob, 2 borrowed text, 3 borrowed blob */
} host;

static mcpr_cb_result body(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)call;
    (void)t;
    host *h = ud;
    atomic_fetch_add(&h->reads, 1);
    static const uint8_t bytes[5] = {'h', 'e', 'l', 'l', 'o'};
    mcpr_status st;
    switch (h->body_kind) {
    case 1: st = mcpr_payload_set_blob(out, S("application/octet-stream"), bytes, 5, NULL); break;
    case 2: st = mcpr_payload_set_text_borrowed(out, S("text/plain"), S("hello"), NULL, NULL, NULL); break;
    case 3: st = mcpr_payload_set_blob_borrowed(out, S("application/octet-stream"), bytes, 5, NULL, NULL, NULL); break;
    default: st = mcpr_payload_set_text(out, S("text/plain"), S("hello"), NULL); break;
    }
    if (st != MCPR_OK) return MCPR_CB_FAILED;
    if (h->item_hints) h->item_hints_status = mcpr_payload_set_cache_hints(out, h->item_hints, NULL);
    return MCPR_CB_OK;
}

static mcpr_cb_result size_hint(void *ud, const mcpr_target *t, uint64_t payload_bytes, bool is_blob,
                                uint64_t *out_bytes) {
    host *h = ud;
    atomic_fetch_add(&h->hints, 1);
    h->saw_bytes = payload_bytes;
    h->saw_blob = is_blob;
    h->saw_uri = str_eq(mcpr_target_uri(t), "g://item");
    *out_bytes = h->hint;
    return h->hint_rc;
}

/* The binding table as a program built before size_hint existed declares
 * it: the same members up to `complete`, and its own sizeof. */
typedef struct {
    size_t struct_size;
    void *user_data;
    mcpr_cb_result (*resolve)(void *, const mcpr_call *, const mcpr_match *, mcpr_plan_builder *);
    mcpr_cb_result (*read)(void *, const mcpr_call *, const mcpr_target *, mcpr_payload_builder *);
    void (*release)(void *);
    mcpr_cb_result (*complete)(void *, const mcpr_call *, const mcpr_completion_request *, mcpr_completion_builder *);
} binding_v1;

/* mcpr_read_options as a program built before protocol_revision existed
 * would declare it. */
typedef struct {
    size_t struct_size;
    uint64_t timeout_ms;
    const mcpr_cancel *cancel;
    void *request_data;
    const mcpr_executor *executor;
} read_options_v0;

/* mcpr_cache_hints as a program built before caller_independent existed
 * would declare it. */
typedef struct {
    size_t struct_size;
    uint64_t ttl_ms;
} cache_hints_v0;

static mcpr_resources *registry_with(const void *table) {
    mcpr_builder *b = mcpr_builder_new();
    CHECK_STATUS(mcpr_builder_set_policy_allow_all(b, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"g://item\",\"name\":\"item\"}"), table, NULL), MCPR_OK);
    return host_build(b);
}

static mcpr_status read_item(const mcpr_resources *r, const void *opt, char **json) {
    mcpr_bundle *bundle = NULL;
    mcpr_status st = mcpr_read(r, S("g://item"), opt, &bundle, NULL);
    if (json) {
        *json = NULL;
        if (st == MCPR_OK) {
            mcpr_str j = mcpr_bundle_json(bundle);
            *json = malloc(j.len + 1);
            memcpy(*json, j.ptr, j.len);
            (*json)[j.len] = 0;
        }
    }
    mcpr_bundle_free(bundle);
    return st;
}

/* ---------------------------------------------------------------- tests */

static void an_older_binding_table_gets_no_size_hint(void) {
    host h = {0};
    /* The bytes after the older table are set: were they read as size_hint,
     * the library would call a wild pointer. */
    struct {
        binding_v1 t;
        uintptr_t after;
    } older;
    memset(&older, 0, sizeof older);
    older.t.struct_size = sizeof older.t;
    older.t.user_data = &h;
    older.t.resolve = mcpr_resolve_single;
    older.t.read = body;
    older.after = 1;
    mcpr_resources *r = registry_with(&older);
    CHECK(r != NULL);
    CHECK_STATUS(read_item(r, NULL, NULL), MCPR_OK);
    CHECK(atomic_load(&h.reads) == 1 && atomic_load(&h.hints) == 0);
    mcpr_resources_free(r);
}

static void older_read_options_get_the_newest_revision(void) {
    host h = {0};
    mcpr_binding_callbacks t = MCPR_BINDING_CALLBACKS_INIT;
    t.user_data = &h;
    t.resolve = mcpr_resolve_single;
    t.read = body;
    mcpr_resources *r = registry_with(&t);
    /* The bytes after the older options hold an impossible revision: were
     * they read, the read would be MCPR_INVALID_ARGUMENT. */
    /* (In a union with the whole struct, so that the struct_size of the
     * whole one below stays within the object.) */
    union {
        struct {
            read_options_v0 o;
            mcpr_str after;
        } v;
        mcpr_read_options whole;
    } older;
    CHECK(sizeof older == sizeof(mcpr_read_options));
    memset(&older, 0, sizeof older);
    older.v.o.struct_size = sizeof older.v.o;
    older.v.after = S("1999-01-01");
    char *json = NULL;
    CHECK_STATUS(read_item(r, &older, &json), MCPR_OK);
    CHECK(json && strstr(json, "\"resultType\"")); /* the newest revision's shape */
    free(json);
    /* The same bytes as a whole mcpr_read_options are refused. */
    older.v.o.struct_size = sizeof(mcpr_read_options);
    CHECK_STATUS(read_item(r, &older, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_resources_free(r);
}

static void impossible_sizes_are_refused_everywhere(void) {
    host h = {0};
    mcpr_binding_callbacks t = MCPR_BINDING_CALLBACKS_INIT;
    t.user_data = &h;
    t.resolve = mcpr_resolve_single;
    t.read = body;
    mcpr_resources *r = registry_with(&t);
    const size_t bad[] = {0, sizeof(size_t) - 1, 4097, (size_t)-1};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mcpr_binding_callbacks bt = t;
        bt.struct_size = bad[i];
        mcpr_builder *b = mcpr_builder_new();
        mcpr_error *e = NULL;
        CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"g://x\",\"name\":\"x\"}"), &bt, &e), MCPR_INVALID_ARGUMENT);
        CHECK(e != NULL && str_contains(mcpr_error_message(e), "struct_size"));
        mcpr_error_free(e);
        mcpr_policy_callbacks pt = MCPR_POLICY_CALLBACKS_INIT;
        pt.struct_size = bad[i];
        CHECK_STATUS(mcpr_builder_set_policy(b, &pt, NULL), MCPR_INVALID_ARGUMENT);
        mcpr_builder_free(b);

        mcpr_read_options ro = MCPR_READ_OPTIONS_INIT;
        ro.struct_size = bad[i];
        CHECK_STATUS(read_item(r, &ro, NULL), MCPR_INVALID_ARGUMENT);
        mcpr_list_options lo = MCPR_LIST_OPTIONS_INIT;
        lo.scope_key = S("scope");
        lo.struct_size = bad[i];
        mcpr_page *page = NULL;
        CHECK_STATUS(mcpr_list(r, &lo, &page, NULL), MCPR_INVALID_ARGUMENT);
        CHECK(page == NULL);
        mcpr_request_options qo = MCPR_REQUEST_OPTIONS_INIT;
        qo.struct_size = bad[i];
        mcpr_response *resp = NULL;
        CHECK_STATUS(mcpr_request(r, S("resources/read"), S("{\"uri\":\"g://item\"}"), &qo, &resp, NULL),
                     MCPR_INVALID_ARGUMENT);
        CHECK(resp == NULL);
        mcpr_executor_options eo = MCPR_EXECUTOR_OPTIONS_INIT;
        eo.struct_size = bad[i];
        mcpr_executor *ex = NULL;
        CHECK_STATUS(mcpr_executor_new_with(&eo, &ex, NULL), MCPR_INVALID_ARGUMENT);
        CHECK(ex == NULL);
        mcpr_cache_hints ch = MCPR_CACHE_HINTS_INIT;
        ch.struct_size = bad[i];
        b = mcpr_builder_new();
        e = NULL;
        CHECK_STATUS(mcpr_builder_add_with_hints(b, S("{\"uri\":\"g://x\",\"name\":\"x\"}"), &t, &ch, &e),
                     MCPR_INVALID_ARGUMENT);
        CHECK(e != NULL && str_contains(mcpr_error_message(e), "struct_size"));
        mcpr_error_free(e);
        mcpr_builder_free(b);
    }
    CHECK(atomic_load(&h.reads) == 0);
    mcpr_resources_free(r);
}

static void a_newer_callers_unknown_fields_must_be_zero(void) {
    host h = {0};
    mcpr_binding_callbacks t = MCPR_BINDING_CALLBACKS_INIT;
    t.user_data = &h;
    t.resolve = mcpr_resolve_single;
    t.read = body;
    mcpr_resources *r = registry_with(&t);
    struct {
        mcpr_read_options o;
        uint64_t newer;
    } ro;
    memset(&ro, 0, sizeof ro);
    ro.o.struct_size = sizeof ro;
    CHECK_STATUS(read_item(r, &ro, NULL), MCPR_OK);
    ro.newer = 1;
    CHECK_STATUS(read_item(r, &ro, NULL), MCPR_INVALID_ARGUMENT);

    struct {
        mcpr_list_options o;
        uint64_t newer;
    } lo;
    memset(&lo, 0, sizeof lo);
    lo.o.struct_size = sizeof lo;
    lo.o.scope_key = S("scope");
    mcpr_page *page = NULL;
    CHECK_STATUS(mcpr_list(r, &lo.o, &page, NULL), MCPR_OK);
    mcpr_page_free(page);
    page = NULL;
    lo.newer = 1;
    CHECK_STATUS(mcpr_list(r, &lo.o, &page, NULL), MCPR_INVALID_ARGUMENT);

    struct {
        mcpr_binding_callbacks t;
        uint64_t newer;
    } bt;
    memset(&bt, 0, sizeof bt);
    bt.t = t;
    bt.t.struct_size = sizeof bt;
    mcpr_builder *b = mcpr_builder_new();
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"g://a\",\"name\":\"a\"}"), &bt.t, NULL), MCPR_OK);
    bt.newer = 7;
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"g://b\",\"name\":\"b\"}"), &bt.t, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_builder_free(b);
    mcpr_resources_free(r);
}

static void init_functions_and_macros_give_every_default(void) {
    mcpr_read_options ro;
    memset(&ro, 0xff, sizeof ro);
    mcpr_read_options_init(&ro);
    CHECK(ro.struct_size == sizeof ro && ro.timeout_ms == 0 && ro.cancel == NULL && ro.request_data == NULL &&
          ro.executor == NULL && ro.protocol_revision.ptr == NULL && ro.protocol_revision.len == 0);
    mcpr_list_options lo;
    memset(&lo, 0xff, sizeof lo);
    mcpr_list_options_init(&lo);
    CHECK(lo.struct_size == sizeof lo && lo.scope_key.len == 0 && lo.cursor.len == 0 && lo.page_size == 0 &&
          lo.timeout_ms == 0 && lo.cancel == NULL && lo.executor == NULL && lo.protocol_revision.len == 0);
    mcpr_request_options qo;
    memset(&qo, 0xff, sizeof qo);
    mcpr_request_options_init(&qo);
    CHECK(qo.struct_size == sizeof qo && qo.scope_key.len == 0 && qo.page_size == 0 && qo.executor == NULL);
    mcpr_binding_callbacks bt;
    memset(&bt, 0xff, sizeof bt);
    mcpr_binding_callbacks_init(&bt);
    CHECK(bt.struct_size == sizeof bt && bt.user_data == NULL && bt.resolve == NULL && bt.read == NULL &&
          bt.release == NULL && bt.complete == NULL && bt.size_hint == NULL);
    mcpr_policy_callbacks pt;
    memset(&pt, 0xff, sizeof pt);
    mcpr_policy_callbacks_init(&pt);
    CHECK(pt.struct_size == sizeof pt && pt.user_data == NULL && pt.discover == NULL && pt.visibility == NULL &&
          pt.read == NULL && pt.release == NULL);
    mcpr_read_options_init(NULL);
    mcpr_list_options_init(NULL);
    mcpr_request_options_init(NULL);
    mcpr_binding_callbacks_init(NULL);
    mcpr_policy_callbacks_init(NULL);

    mcpr_read_options m1 = MCPR_READ_OPTIONS_INIT;
    mcpr_list_options m2 = MCPR_LIST_OPTIONS_INIT;
    mcpr_request_options m3 = MCPR_REQUEST_OPTIONS_INIT;
    mcpr_executor_options m4 = MCPR_EXECUTOR_OPTIONS_INIT;
    mcpr_binding_callbacks m5 = MCPR_BINDING_CALLBACKS_INIT;
    mcpr_policy_callbacks m6 = MCPR_POLICY_CALLBACKS_INIT;
    mcpr_cache_hints m7 = MCPR_CACHE_HINTS_INIT;
    CHECK(m1.struct_size == sizeof m1 && m2.struct_size == sizeof m2 && m3.struct_size == sizeof m3 &&
          m4.struct_size == sizeof m4 && m5.struct_size == sizeof m5 && m6.struct_size == sizeof m6 &&
          m7.struct_size == sizeof m7);
    CHECK(m1.executor == NULL && m5.size_hint == NULL && m6.discover == NULL && m4.threads == 0 && m7.ttl_ms == 0 &&
          !m7.caller_independent);
    mcpr_cache_hints ch;
    memset(&ch, 0xff, sizeof ch);
    mcpr_cache_hints_init(&ch);
    CHECK(ch.struct_size == sizeof ch && ch.ttl_ms == 0 && !ch.caller_independent);
    mcpr_cache_hints_init(NULL);
}

/* The cache hints of a binding and of an item, read from smaller (older)
 * and larger (newer) structs. */
static void cache_hints_grow_like_the_other_structs(void) {
    host h = {0};
    mcpr_binding_callbacks t = MCPR_BINDING_CALLBACKS_INIT;
    t.user_data = &h;
    t.resolve = mcpr_resolve_single;
    t.read = body;

    /* An older caller's struct without caller_independent: accepted, and the
     * byte after it (set) is not read as caller_independent, so the read is
     * "private" although registry and policy would allow "public". */
    struct {
        cache_hints_v0 h;
        bool after;
    } older;
    memset(&older, 0, sizeof older);
    older.h.struct_size = sizeof older.h;
    older.h.ttl_ms = 1234;
    older.after = true;
    mcpr_builder *b = mcpr_builder_new();
    CHECK_STATUS(mcpr_builder_set_policy_allow_all(b, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_cache_hints(b, 0, true, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add_with_hints(b, S("{\"uri\":\"g://item\",\"name\":\"item\"}"), &t,
                                             (const mcpr_cache_hints *)&older, NULL),
                 MCPR_OK);
    mcpr_resources *r = host_build(b);
    CHECK(r != NULL);
    char *json = NULL;
    CHECK_STATUS(read_item(r, NULL, &json), MCPR_OK);
    CHECK(json && strstr(json, "\"ttlMs\":1234,\"cacheScope\":\"private\"}"));
    free(json);

    /* The same for an item's hints (they lower the binding's 1234 ms). */
    struct {
        cache_hints_v0 h;
        bool after;
    } item;
    memset(&item, 0, sizeof item);
    item.h.struct_size = sizeof item.h;
    item.h.ttl_ms = 99;
    item.after = true;
    h.item_hints = (const mcpr_cache_hints *)&item;
    CHECK_STATUS(read_item(r, NULL, &json), MCPR_OK);
    CHECK(h.item_hints_status == MCPR_OK);
    CHECK(json && strstr(json, "\"ttlMs\":99,\"cacheScope\":\"private\"}"));
    free(json);

    /* A newer caller's struct: its unknown fields must be zero. */
    struct {
        mcpr_cache_hints h;
        uint64_t newer;
    } newer;
    memset(&newer, 0, sizeof newer);
    newer.h.struct_size = sizeof newer;
    newer.h.ttl_ms = 5;
    h.item_hints = &newer.h;
    CHECK_STATUS(read_item(r, NULL, &json), MCPR_OK);
    CHECK(h.item_hints_status == MCPR_OK);
    CHECK(json && strstr(json, "\"ttlMs\":5,"));
    free(json);
    newer.newer = 1;
    h.item_hints_status = MCPR_OK;
    /* A refused setter makes the item invalid_content: no item survives. */
    CHECK_STATUS(read_item(r, NULL, NULL), MCPR_INVALID_CONTENT);
    CHECK(h.item_hints_status == MCPR_INVALID_ARGUMENT);
    h.item_hints = NULL;
    mcpr_resources_free(r);

    b = mcpr_builder_new();
    newer.newer = 0;
    CHECK_STATUS(mcpr_builder_add_with_hints(b, S("{\"uri\":\"g://a\",\"name\":\"a\"}"), &t, &newer.h, NULL),
                 MCPR_OK);
    newer.newer = 7;
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_builder_add_with_hints(b, S("{\"uri\":\"g://b\",\"name\":\"b\"}"), &t, &newer.h, &e),
                 MCPR_INVALID_ARGUMENT);
    CHECK(e != NULL && str_contains(mcpr_error_message(e), "struct_size"));
    mcpr_error_free(e);
    mcpr_builder_free(b);
}

static void size_hint_replaces_the_exact_measurement(void) {
    host h = {0};
    mcpr_binding_callbacks t = MCPR_BINDING_CALLBACKS_INIT;
    t.user_data = &h;
    t.resolve = mcpr_resolve_single;
    t.read = body;
    t.size_hint = size_hint;
    mcpr_resources *r = registry_with(&t);

    /* A generous estimate within the budget: read as usual. */
    h.hint = 4096;
    h.hint_rc = MCPR_CB_OK;
    CHECK_STATUS(read_item(r, NULL, NULL), MCPR_OK);
    CHECK(atomic_load(&h.hints) == 1 && h.saw_bytes == 5 && !h.saw_blob && h.saw_uri);

    /* An estimate above the encoded budget refuses the item although its
     * exact size fits: the estimate replaced the measurement. */
    h.hint = (uint64_t)1 << 40;
    mcpr_error *e = NULL;
    mcpr_bundle *bundle = NULL;
    CHECK_STATUS(mcpr_read(r, S("g://item"), NULL, &bundle, &e), MCPR_BUDGET_EXCEEDED);
    CHECK(bundle == NULL && e != NULL);
    mcpr_error_free(e);
    CHECK(atomic_load(&h.hints) == 2);

    /* No estimate (any other result): the exact size counts. */
    h.hint_rc = MCPR_CB_FAILED;
    CHECK_STATUS(read_item(r, NULL, NULL), MCPR_OK);
    CHECK(atomic_load(&h.hints) == 3);

    /* is_blob says what the body is, copied or borrowed alike. */
    h.hint_rc = MCPR_CB_OK;
    h.hint = 4096;
    for (int kind = 0; kind < 4; kind++) {
        h.body_kind = kind;
        h.saw_blob = !(kind == 1 || kind == 3);
        CHECK_STATUS(read_item(r, NULL, NULL), MCPR_OK);
        CHECK(h.saw_bytes == 5 && h.saw_blob == (kind == 1 || kind == 3));
    }
    mcpr_resources_free(r);
}

/* The structs of the subscriptions chapter: defaults, and request options
 * from a program built before request_id existed (a listen then has no id:
 * MCPR_INVALID_ARGUMENT, while a read is served as before). */
static void subscription_structs_grow_like_the_others(void) {
    mcpr_notify_options no;
    memset(&no, 0xff, sizeof no);
    mcpr_notify_options_init(&no);
    CHECK(no.struct_size == sizeof no && no.timeout_ms == 0 && no.cancel == NULL && no.executor == NULL &&
          no.trace.traceparent.len == 0 && no.trace.tracestate.len == 0 && no.trace.baggage.len == 0 &&
          no.trace.traceparent.ptr == NULL);
    mcpr_subscriber su;
    memset(&su, 0xff, sizeof su);
    mcpr_subscriber_init(&su);
    CHECK(su.struct_size == sizeof su && su.request_data == NULL && su.protocol_revision.len == 0 &&
          su.subscription_id.len == 0 && su.uri.len == 0 && su.listing == NULL);
    mcpr_notify_options_init(NULL);
    mcpr_subscriber_init(NULL);
    mcpr_notify_options m1 = MCPR_NOTIFY_OPTIONS_INIT;
    mcpr_subscriber m2 = MCPR_SUBSCRIBER_INIT;
    CHECK(m1.struct_size == sizeof m1 && m2.struct_size == sizeof m2 && m2.listing == NULL);
    mcpr_request_options qo;
    memset(&qo, 0xff, sizeof qo);
    mcpr_request_options_init(&qo);
    CHECK(qo.request_id.len == 0 && qo.host_notifications == 0);

    host h = {0};
    mcpr_binding_callbacks t = MCPR_BINDING_CALLBACKS_INIT;
    t.user_data = &h;
    t.resolve = mcpr_resolve_single;
    t.read = body;
    mcpr_resources *r = registry_with(&t);
    mcpr_request_options old = MCPR_REQUEST_OPTIONS_INIT;
    old.request_id = S("1"); /* beyond the older struct_size: not read */
    old.struct_size = offsetof(mcpr_request_options, request_id);
    mcpr_response *resp = NULL;
    CHECK_STATUS(mcpr_request(r, S("subscriptions/listen"), S("{\"notifications\":{}}"), &old, &resp, NULL),
                 MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_request(r, S("resources/read"), S("{\"uri\":\"g://item\"}"), &old, &resp, NULL), MCPR_OK);
    mcpr_response_free(resp);
    old.struct_size = sizeof old;
    resp = NULL;
    CHECK_STATUS(mcpr_request(r, S("subscriptions/listen"), S("{\"notifications\":{}}"), &old, &resp, NULL), MCPR_OK);
    CHECK(mcpr_response_is_notification(resp));
    mcpr_response_free(resp);
    mcpr_resources_free(r);
}

int main(void) {
    subscription_structs_grow_like_the_others();
    an_older_binding_table_gets_no_size_hint();
    older_read_options_get_the_newest_revision();
    impossible_sizes_are_refused_everywhere();
    a_newer_callers_unknown_fields_must_be_zero();
    init_functions_and_macros_give_every_default();
    size_hint_replaces_the_exact_measurement();
    cache_hints_grow_like_the_other_structs();
    return harness_finish("test_growth");
}
