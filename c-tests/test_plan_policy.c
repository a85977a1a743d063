/* The plan-level policy entry (mcpr_policy_callbacks.decide_plan): one call
 * per step of a read; what it is asked; its misuse (answers left out, a
 * visibility of OK without deciding, a failing or lying callback, a table
 * from an older header) is a policy failure or the per-item form, never a
 * crash or an answer that tells more than a denial. */
#include <stdlib.h>

#include "harness.h"

static const char *EXACT = "{\"uri\":\"item://ok/a\",\"name\":\"a\"}";

typedef enum {
    ALLOW,       /* every answer OK, visible */
    DENY_FIND,   /* discover UNAVAILABLE */
    NOTHING,     /* returns OK without writing anything */
    UNDECIDED,   /* visibility OK, visible not written */
    FAIL,        /* returns FAILED with a cause */
    UNAVAILABLE, /* returns UNAVAILABLE as the whole answer */
    LIE,         /* answers, then overwrites items/items_len */
} mode;

typedef struct {
    mode mode;
    atomic_int calls;
    atomic_int per_item_calls;
    atomic_int asked_definition, asked_requested;
    atomic_size_t items_asked;
    host_binding hb;
} plan_host;

static mcpr_cb_result per_item_discover(void *ud, const mcpr_call *c, const mcpr_definition *d) {
    (void)c, (void)d;
    plan_host *h = ud;
    atomic_fetch_add(&h->per_item_calls, 1);
    return MCPR_CB_OK;
}

static mcpr_cb_result per_item_visibility(void *ud, const mcpr_call *c, const mcpr_target *t, mcpr_visibility *v) {
    (void)c, (void)t;
    plan_host *h = ud;
    atomic_fetch_add(&h->per_item_calls, 1);
    v->visible = true;
    return MCPR_CB_OK;
}

static mcpr_cb_result per_item_read(void *ud, const mcpr_call *c, const mcpr_target *t) {
    (void)c, (void)t;
    plan_host *h = ud;
    atomic_fetch_add(&h->per_item_calls, 1);
    return MCPR_CB_OK;
}

static void allow(mcpr_target_decision *d) {
    d->visibility_result = MCPR_CB_OK;
    d->visibility.visible = true;
    d->visibility.disclose_issue_uri = false;
    d->read_result = MCPR_CB_OK;
}

static mcpr_cb_result decide(void *ud, const mcpr_call *call, const mcpr_plan_questions *q, mcpr_plan_decision *d) {
    plan_host *h = ud;
    atomic_fetch_add(&h->calls, 1);
    if (q->definition) atomic_fetch_add(&h->asked_definition, 1);
    if (q->requested) atomic_fetch_add(&h->asked_requested, 1);
    atomic_fetch_add(&h->items_asked, q->items_len);
    CHECK(q->items_len == d->items_len);
    CHECK(q->items_len == 0 || (q->items && d->items));
    if (q->requested) CHECK(str_eq(mcpr_target_uri(q->requested), "item://ok/a"));
    for (size_t i = 0; i < q->items_len; i++) CHECK(str_eq(mcpr_target_uri(q->items[i]), "item://ok/a"));
    if (q->definition) CHECK(str_eq(mcpr_definition_uri(q->definition), "item://ok/a"));
    switch (h->mode) {
    case NOTHING:
        return MCPR_CB_OK;
    case FAIL:
        mcpr_call_set_cause(call, S("SECRET-PLAN-CAUSE"));
        return MCPR_CB_FAILED;
    case UNAVAILABLE:
        mcpr_call_set_cause(call, S("SECRET-PLAN-CAUSE"));
        return MCPR_CB_UNAVAILABLE;
    default:
        break;
    }
    d->discover = h->mode == DENY_FIND ? MCPR_CB_UNAVAILABLE : MCPR_CB_OK;
    allow(&d->requested);
    for (size_t i = 0; i < q->items_len; i++) allow(&d->items[i]);
    if (h->mode == UNDECIDED) {
        d->requested.visibility_result = MCPR_CB_OK;
        /* visible left as the library pre-filled it: not a decision */
        memset(&d->requested.visibility, 0xA5, 1);
    }
    if (h->mode == LIE) {
        d->items = NULL;
        d->items_len = (size_t)-1;
    }
    return MCPR_CB_OK;
}

static mcpr_resources *registry(plan_host *h, size_t struct_size, mcpr_resolve_fn resolve) {
    mcpr_policy_callbacks t = MCPR_POLICY_CALLBACKS_INIT;
    t.struct_size = struct_size;
    t.user_data = h;
    t.discover = per_item_discover;
    t.visibility = per_item_visibility;
    t.read = per_item_read;
    if (struct_size >= offsetof(mcpr_policy_callbacks, decide_plan) + sizeof t.decide_plan) t.decide_plan = decide;
    mcpr_builder *b = mcpr_builder_new();
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_builder_set_policy(b, &t, &e), MCPR_OK);
    mcpr_error_free(e);
    mcpr_binding_callbacks bt = host_binding_table(&h->hb);
    bt.resolve = resolve;
    CHECK_STATUS(mcpr_builder_add(b, str_of(EXACT), &bt, NULL), MCPR_OK);
    return host_build(b);
}

static mcpr_cb_result my_resolve(void *ud, const mcpr_call *call, const mcpr_match *m, mcpr_plan_builder *plan) {
    return mcpr_resolve_single(ud, call, m, plan);
}

/* One call for the first check (discovery, the requested target, the item:
 * the plan is the match itself) and one for the recheck; no per-item call. */
static void test_two_calls_per_read(void) {
    plan_host h = {.mode = ALLOW};
    mcpr_resources *r = registry(&h, sizeof(mcpr_policy_callbacks), mcpr_resolve_single);
    char *json = NULL;
    CHECK_STATUS(host_read(r, "item://ok/a", NULL, &json, NULL, NULL), MCPR_OK);
    CHECK(json && strstr(json, "item://ok/a"));
    free(json);
    CHECK(atomic_load(&h.calls) == 2 && atomic_load(&h.per_item_calls) == 0);
    CHECK(atomic_load(&h.asked_definition) == 2 && atomic_load(&h.asked_requested) == 2);
    CHECK(atomic_load(&h.items_asked) == 2);
    mcpr_resources_free(r);
    /* A resolver of the host's own: discovery before it, the targets after. */
    plan_host h2 = {.mode = ALLOW};
    r = registry(&h2, sizeof(mcpr_policy_callbacks), my_resolve);
    CHECK_STATUS(host_read(r, "item://ok/a", NULL, NULL, NULL, NULL), MCPR_OK);
    CHECK(atomic_load(&h2.calls) == 3 && atomic_load(&h2.per_item_calls) == 0);
    mcpr_resources_free(r);
}

/* A table from a header without decide_plan: the per-item callbacks. */
static void test_an_older_table_asks_per_item(void) {
    plan_host h = {.mode = ALLOW};
    mcpr_resources *r = registry(&h, offsetof(mcpr_policy_callbacks, decide_plan), mcpr_resolve_single);
    CHECK_STATUS(host_read(r, "item://ok/a", NULL, NULL, NULL, NULL), MCPR_OK);
    CHECK(atomic_load(&h.calls) == 0 && atomic_load(&h.per_item_calls) > 0);
    mcpr_resources_free(r);
}

/* Misuse is a policy failure with the private cause kept private. */
static void test_misuse_is_a_policy_failure(void) {
    mode modes[] = {NOTHING, UNDECIDED, FAIL, UNAVAILABLE};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        plan_host h = {.mode = modes[i]};
        mcpr_resources *r = registry(&h, sizeof(mcpr_policy_callbacks), mcpr_resolve_single);
        mcpr_error *e = NULL;
        CHECK_STATUS(host_read(r, "item://ok/a", NULL, NULL, NULL, &e), MCPR_POLICY);
        if (e) CHECK(!str_contains(mcpr_error_message(e), "SECRET-PLAN-CAUSE"));
        /* The cause set is kept for any failing value. */
        if (modes[i] == FAIL || modes[i] == UNAVAILABLE) CHECK(e && str_contains(mcpr_error_cause(e), "SECRET-PLAN-CAUSE"));
        mcpr_error_free(e);
        CHECK(atomic_load(&h.per_item_calls) == 0);
        mcpr_resources_free(r);
    }
    /* Overwriting the decision's items pointer and length changes nothing:
     * the library reads its own storage. */
    plan_host h = {.mode = LIE};
    mcpr_resources *r = registry(&h, sizeof(mcpr_policy_callbacks), mcpr_resolve_single);
    CHECK_STATUS(host_read(r, "item://ok/a", NULL, NULL, NULL, NULL), MCPR_OK);
    mcpr_resources_free(r);
}

/* Undiscoverable through the plan-level entry answers exactly like
 * unregistered. */
static void test_undiscoverable_is_not_found(void) {
    plan_host h = {.mode = DENY_FIND};
    mcpr_resources *r = registry(&h, sizeof(mcpr_policy_callbacks), mcpr_resolve_single);
    mcpr_error *a = NULL, *b = NULL;
    CHECK_STATUS(host_read(r, "item://ok/a", NULL, NULL, NULL, &a), MCPR_UNAVAILABLE);
    CHECK_STATUS(host_read(r, "item://ok/none", NULL, NULL, NULL, &b), MCPR_UNAVAILABLE);
    if (a && b) {
        mcpr_str ma = mcpr_error_message(a), mb = mcpr_error_message(b);
        CHECK(ma.len == mb.len && memcmp(ma.ptr, mb.ptr, ma.len) == 0);
        CHECK(mcpr_error_jsonrpc_code(a) == mcpr_error_jsonrpc_code(b));
    }
    mcpr_error_free(a);
    mcpr_error_free(b);
    mcpr_resources_free(r);
}

int main(void) {
    test_two_calls_per_read();
    test_an_older_table_asks_per_item();
    test_misuse_is_a_policy_failure();
    test_undiscoverable_is_not_found();
    return harness_finish("test_plan_policy");
}
