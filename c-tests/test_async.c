/* Asynchronous calls (BEHAVIOUR §20): mcpr_read_start, mcpr_list_start,
 * mcpr_list_templates_start, mcpr_complete_start, mcpr_request_start and
 * mcpr_message_start.
 * Host mistakes fail the start and the done callback never runs; otherwise
 * done runs exactly once (every done counted, checked at teardown), on an
 * executor thread, never inside the start call, with what the blocking call
 * returns; by the deadline and at once on cancellation while a callback
 * hangs; the registry and the executor freed while calls are in flight;
 * eight threads starting calls at once; every release exactly once, after
 * the last done; and the event-loop pattern of docs/C-API.md (done writes
 * to a pipe, the loop reads it). Hung callbacks wait on a gate opened at
 * the end of each part, so memcheck and ASan see every thread finish.
 * mcpr_message_start answers every kind of message as mcpr_message. An
 * observed registry gets exactly one call event per asynchronous call. */
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"

/* ------------------------------------------------ the gate */

static pthread_mutex_t gate_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static bool gate_opened = false;
static atomic_int gate_entered, gate_left;

static void gate_wait(void) {
    atomic_fetch_add(&gate_entered, 1);
    pthread_mutex_lock(&gate_mu);
    while (!gate_opened) pthread_cond_wait(&gate_cv, &gate_mu);
    pthread_mutex_unlock(&gate_mu);
    atomic_fetch_add(&gate_left, 1);
}

static void gate_set(bool open) {
    pthread_mutex_lock(&gate_mu);
    gate_opened = open;
    pthread_cond_broadcast(&gate_cv);
    pthread_mutex_unlock(&gate_mu);
}

static bool eventually(atomic_int *v, int want, unsigned max_ms) {
    unsigned long long end = now_ms() + max_ms * slow();
    while (atomic_load(v) != want) {
        if (now_ms() > end) return false;
        sleep_ms(2);
    }
    return true;
}

/* ------------------------------------------------ the host */

/* hang://... body reads and slow://... discovers wait on the gate;
 * multi://m plans ok://1, hang://2, ok://3; the template t://{id} completes
 * "alpha" and "beta". Each add copies its table (they have a release), so
 * a registry has TABLES tables: the policy, five exact bindings, the
 * template. */
#define TABLES 7

static mcpr_cb_result p_discover(void *ud, const mcpr_call *call, const mcpr_definition *d) {
    (void)ud;
    (void)call;
    if (str_contains(mcpr_definition_uri(d), "slow://")) gate_wait();
    return MCPR_CB_OK;
}

static mcpr_cb_result p_visibility(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_visibility *out) {
    (void)ud;
    (void)call;
    (void)t;
    out->visible = true;
    out->disclose_issue_uri = true;
    return MCPR_CB_OK;
}

static mcpr_cb_result p_permit(void *ud, const mcpr_call *call, const mcpr_target *t) {
    (void)ud;
    (void)call;
    (void)t;
    return MCPR_CB_OK;
}

static mcpr_cb_result b_resolve(void *ud, const mcpr_call *call, const mcpr_match *m, mcpr_plan_builder *plan) {
    if (!str_eq(mcpr_match_uri(m), "multi://m")) return mcpr_resolve_single(ud, call, m, plan);
    if (mcpr_plan_set_requested(plan, S("multi://m"), S(""), S(""), NULL) != MCPR_OK) return MCPR_CB_FAILED;
    const char *items[] = {"ok://1", "hang://2", "ok://3"};
    for (int i = 0; i < 3; i++)
        if (mcpr_plan_add_item(plan, str_of(items[i]), S(""), S(""), NULL) != MCPR_OK) return MCPR_CB_FAILED;
    return MCPR_CB_OK;
}

static mcpr_cb_result b_read(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)ud;
    (void)call;
    if (str_contains(mcpr_target_uri(t), "hang://")) gate_wait();
    return mcpr_payload_set_text(out, S("text/plain"), mcpr_target_uri(t), NULL) == MCPR_OK ? MCPR_CB_OK
                                                                                           : MCPR_CB_FAILED;
}

static mcpr_cb_result b_complete(void *ud, const mcpr_call *call, const mcpr_completion_request *req,
                                 mcpr_completion_builder *out) {
    (void)ud;
    (void)call;
    (void)req;
    mcpr_completion_add_value(out, S("alpha"), NULL);
    mcpr_completion_add_value(out, S("beta"), NULL);
    return MCPR_CB_OK;
}

/* Counts the releases of one registry's tables (its user_data). */
static void h_release(void *ud) { atomic_fetch_add((atomic_int *)ud, 1); }

static mcpr_resources *registry_observed(int64_t item_timeout_ms, atomic_int *released,
                                         const mcpr_observer_callbacks *observer) {
    mcpr_policy_callbacks p = {
        .struct_size = sizeof p,
        .user_data = released,
        .discover = p_discover,
        .visibility = p_visibility,
        .read = p_permit,
        .release = h_release,
    };
    mcpr_binding_callbacks b = {
        .struct_size = sizeof b,
        .user_data = released,
        .resolve = b_resolve,
        .read = b_read,
        .release = h_release,
    };
    mcpr_binding_callbacks t = b;
    t.complete = b_complete;
    mcpr_builder *bu = mcpr_builder_new();
    if (observer) CHECK_STATUS(mcpr_builder_set_observer(bu, observer, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_policy(bu, &p, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_limit(bu, MCPR_LIMIT_ITEM_TIMEOUT_MS, item_timeout_ms, NULL), MCPR_OK);
    const char *exact[] = {"ok://a", "ok://b", "hang://h", "multi://m", "slow://s"};
    for (int i = 0; i < 5; i++) {
        char def[128];
        snprintf(def, sizeof def, "{\"uri\":\"%s\",\"name\":\"%s\"}", exact[i], exact[i]);
        CHECK_STATUS(mcpr_builder_add(bu, str_of(def), &b, NULL), MCPR_OK);
    }
    CHECK_STATUS(mcpr_builder_add(bu, S("{\"uriTemplate\":\"tpl://t/{id}\",\"name\":\"t\"}"), &t, NULL), MCPR_OK);
    return host_build(bu);
}

static mcpr_resources *registry_counted(int64_t item_timeout_ms, atomic_int *released) {
    return registry_observed(item_timeout_ms, released, NULL);
}

/* Releases of the registries made by `registry`, which the tests check at
 * teardown (every table released exactly once). */
static atomic_int releases;
static int registries;

static mcpr_resources *registry(int64_t item_timeout_ms) {
    registries++;
    return registry_counted(item_timeout_ms, &releases);
}

/* ------------------------------------------------ done slots */

/* What one done callback received; `runs` counts its calls (all of them
 * are added to `all_dones`, checked at teardown). */
typedef struct {
    atomic_int runs;
    mcpr_status status;
    char *json;      /* the result's (or error object's) JSON, malloc'd */
    bool partial;
    bool handled;    /* a message's reply: mcpr_reply_handled */
    pthread_t thread;
    int pipe_w;      /* written when >= 0 */
} slot;

static atomic_int all_dones, all_dropped;
static pthread_t starter;

static char *dup_str(mcpr_str s) {
    char *out = malloc(s.len + 1);
    if (!out) return NULL;
    if (s.len) memcpy(out, s.ptr, s.len);
    out[s.len] = 0;
    return out;
}

static void fill(slot *s, mcpr_status status, mcpr_str json, mcpr_error *error) {
    s->status = status;
    s->thread = pthread_self();
    s->json = error ? dup_str(mcpr_error_jsonrpc_json(error)) : dup_str(json);
    mcpr_error_free(error);
    atomic_fetch_add(&all_dones, 1);
    if (s->pipe_w >= 0) {
        char c = 1;
        CHECK(write(s->pipe_w, &c, 1) == 1);
    }
    atomic_fetch_add(&s->runs, 1);
}

static void read_done(void *data, mcpr_status status, mcpr_bundle *bundle, mcpr_error *error) {
    slot *s = data;
    CHECK((status == MCPR_OK) == (bundle != NULL) && (bundle == NULL) == (error != NULL));
    s->partial = bundle && mcpr_bundle_is_partial(bundle);
    fill(s, status, bundle ? mcpr_bundle_json(bundle) : S(""), error);
    mcpr_bundle_free(bundle);
}

static void list_done(void *data, mcpr_status status, mcpr_page *page, mcpr_error *error) {
    CHECK((status == MCPR_OK) == (page != NULL) && (page == NULL) == (error != NULL));
    fill(data, status, page ? mcpr_page_json(page) : S(""), error);
    mcpr_page_free(page);
}

static void complete_done(void *data, mcpr_status status, mcpr_completion *c, mcpr_error *error) {
    CHECK((status == MCPR_OK) == (c != NULL) && (c == NULL) == (error != NULL));
    fill(data, status, c ? mcpr_completion_json(c) : S(""), error);
    mcpr_completion_free(c);
}

static void request_done(void *data, mcpr_status status, mcpr_response *r, mcpr_error *error) {
    CHECK((status == MCPR_OK) == (r != NULL) && (r == NULL) == (error != NULL));
    fill(data, status, r ? mcpr_response_json(r) : S(""), error);
    mcpr_response_free(r);
}

static void message_done(void *data, mcpr_status status, mcpr_reply *reply, mcpr_error *error) {
    slot *s = data;
    CHECK((status == MCPR_OK) == (reply != NULL) && (reply == NULL) == (error != NULL));
    s->handled = reply && mcpr_reply_handled(reply);
    fill(s, status, reply ? mcpr_reply_json(reply) : S(""), error);
    mcpr_reply_free(reply);
}

static slot new_slot(void) {
    slot s;
    memset(&s, 0, sizeof s);
    s.pipe_w = -1;
    return s;
}

/* Waits for the slot's done; false after `max_ms`. */
static bool await(slot *s, unsigned max_ms) { return eventually(&s->runs, 1, max_ms); }

static void drop_slot(slot *s) {
    CHECK(atomic_load(&s->runs) == 1);
    CHECK(!pthread_equal(s->thread, starter));
    atomic_fetch_add(&all_dropped, 1);
    free(s->json);
    s->json = NULL;
}

static mcpr_read_options read_opts(mcpr_executor *ex, uint64_t timeout_ms, mcpr_cancel *cancel) {
    mcpr_read_options o = MCPR_READ_OPTIONS_INIT;
    o.executor = ex;
    o.timeout_ms = timeout_ms;
    o.cancel = cancel;
    return o;
}

static mcpr_status start_read(mcpr_resources *r, const char *uri, const mcpr_read_options *o, slot *s) {
    return mcpr_read_start(r, str_of(uri), o, read_done, s, NULL);
}

/* ------------------------------------------------ host mistakes */

static void test_host_mistakes_fail_the_start_and_done_never_runs(void) {
    mcpr_resources *r = registry(1000);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(1, &ex, NULL), MCPR_OK);
    slot s = new_slot();
    mcpr_error *e = NULL;
    mcpr_read_options with = read_opts(ex, 5000, NULL);
    mcpr_read_options without = MCPR_READ_OPTIONS_INIT;
    CHECK_STATUS(mcpr_read_start(MISUSE_NULL, S("ok://a"), &with, read_done, &s, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_read_start(r, S("ok://a"), &with, MISUSE_NULL, &s, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_read_start(r, S("ok://a"), MISUSE_NULL, read_done, &s, &e), MCPR_INVALID_ARGUMENT);
    CHECK(e && str_contains(mcpr_error_message(e), "executor"));
    mcpr_error_free(e);
    CHECK_STATUS(mcpr_read_start(r, S("ok://a"), &without, read_done, &s, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_read_start(r, (mcpr_str){NULL, 3}, &with, read_done, &s, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_read_options bad = with;
    bad.protocol_revision = S("1999-01-01");
    CHECK_STATUS(mcpr_read_start(r, S("ok://a"), &bad, read_done, &s, NULL), MCPR_INVALID_ARGUMENT);
    bad = with;
    bad.struct_size = 3;
    CHECK_STATUS(mcpr_read_start(r, S("ok://a"), &bad, read_done, &s, NULL), MCPR_INVALID_ARGUMENT);

    mcpr_list_options lo = MCPR_LIST_OPTIONS_INIT;
    lo.executor = ex;
    CHECK_STATUS(mcpr_list_start(r, &lo, list_done, &s, NULL), MCPR_INVALID_ARGUMENT); /* empty scope key */
    lo.scope_key = S("k");
    CHECK_STATUS(mcpr_list_start(r, MISUSE_NULL, list_done, &s, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_list_templates_start(r, &lo, MISUSE_NULL, &s, NULL), MCPR_INVALID_ARGUMENT);
    lo.executor = NULL;
    CHECK_STATUS(mcpr_list_templates_start(r, &lo, list_done, &s, NULL), MCPR_INVALID_ARGUMENT);

    mcpr_complete_params p = {S("tpl://t/{id}"), {S("id"), S("")}, NULL, 2};
    CHECK_STATUS(mcpr_complete_start(r, &p, &with, complete_done, &s, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_complete_start(r, MISUSE_NULL, &with, complete_done, &s, NULL), MCPR_INVALID_ARGUMENT);

    mcpr_request_options ro = MCPR_REQUEST_OPTIONS_INIT;
    ro.executor = ex;
    CHECK_STATUS(mcpr_request_start(r, S("tools/list"), S(""), &ro, request_done, &s, NULL),
                 MCPR_METHOD_NOT_HANDLED);
    CHECK_STATUS(mcpr_request_start(r, S("resources/list"), S(""), &ro, request_done, &s, NULL),
                 MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_request_start(r, S("resources/read"), S(""), MISUSE_NULL, request_done, &s, NULL),
                 MCPR_INVALID_ARGUMENT);
    sleep_ms(50);
    CHECK(atomic_load(&s.runs) == 0);
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
}

/* ------------------------------------------------ outcomes */

/* The blocking call's JSON (result or error object) for comparison. */
static char *blocking_read(mcpr_resources *r, const char *uri, const mcpr_read_options *o, mcpr_status *st) {
    mcpr_bundle *b = NULL;
    mcpr_error *e = NULL;
    *st = mcpr_read(r, str_of(uri), o, &b, &e);
    char *json = b ? dup_str(mcpr_bundle_json(b)) : dup_str(mcpr_error_jsonrpc_json(e));
    mcpr_bundle_free(b);
    mcpr_error_free(e);
    return json;
}

static void test_done_runs_once_off_the_start_with_the_blocking_outcome(void) {
    mcpr_resources *r = registry(1000);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    mcpr_read_options o = read_opts(ex, 10000, NULL);
    const char *uris[] = {"ok://a", "nothing://x", "ok://\xff"};
    for (int i = 0; i < 3; i++) {
        slot s = new_slot();
        CHECK_STATUS(start_read(r, uris[i], &o, &s), MCPR_OK);
        CHECK(await(&s, 10000));
        mcpr_status want;
        char *json = blocking_read(r, uris[i], &o, &want);
        CHECK_STATUS(s.status, want);
        CHECK(s.json && json && strcmp(s.json, json) == 0);
        CHECK(!pthread_equal(s.thread, starter));
        free(json);
        drop_slot(&s);
    }
    /* A call cancelled before it starts completes as cancelled. */
    mcpr_cancel *c = mcpr_cancel_new();
    mcpr_cancel_cancel(c);
    mcpr_read_options oc = read_opts(ex, 10000, c);
    slot s = new_slot();
    CHECK_STATUS(start_read(r, "ok://a", &oc, &s), MCPR_OK);
    mcpr_cancel_free(c);
    CHECK(await(&s, 10000));
    CHECK_STATUS(s.status, MCPR_CANCELED);
    drop_slot(&s);
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
}

static void test_list_complete_and_request_answer_as_the_blocking_calls(void) {
    mcpr_resources *r = registry(1000);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    mcpr_list_options lo = MCPR_LIST_OPTIONS_INIT;
    lo.executor = ex;
    lo.scope_key = S("caller");
    lo.page_size = 2;
    for (int templates = 0; templates < 2; templates++) {
        slot s = new_slot();
        CHECK_STATUS((templates ? mcpr_list_templates_start : mcpr_list_start)(r, &lo, list_done, &s, NULL),
                     MCPR_OK);
        CHECK(await(&s, 10000));
        CHECK_STATUS(s.status, MCPR_OK);
        mcpr_page *page = NULL;
        CHECK_STATUS((templates ? mcpr_list_templates : mcpr_list)(r, &lo, &page, NULL), MCPR_OK);
        /* Same page, apart from the cursor's random nonce. */
        CHECK(s.json && strlen(s.json) == mcpr_page_json(page).len);
        CHECK(s.json && strncmp(s.json, mcpr_page_json(page).ptr, 40) == 0);
        mcpr_page_free(page);
        drop_slot(&s);
    }
    mcpr_read_options o = read_opts(ex, 10000, NULL);
    mcpr_complete_params p = {S("tpl://t/{id}"), {S("id"), S("a")}, NULL, 0};
    slot s = new_slot();
    CHECK_STATUS(mcpr_complete_start(r, &p, &o, complete_done, &s, NULL), MCPR_OK);
    CHECK(await(&s, 10000));
    mcpr_completion *c = NULL;
    CHECK_STATUS(mcpr_complete(r, &p, &o, &c, NULL), MCPR_OK);
    CHECK(s.json && str_eq(mcpr_completion_json(c), s.json));
    mcpr_completion_free(c);
    drop_slot(&s);
    /* A template that is not UTF-8 is not found, as from mcpr_complete. */
    mcpr_complete_params bad = {{"tpl://\xff/{id}", 13}, {S("id"), S("")}, NULL, 0};
    s = new_slot();
    CHECK_STATUS(mcpr_complete_start(r, &bad, &o, complete_done, &s, NULL), MCPR_OK);
    CHECK(await(&s, 10000));
    CHECK_STATUS(s.status, MCPR_UNAVAILABLE);
    drop_slot(&s);

    mcpr_request_options ro = MCPR_REQUEST_OPTIONS_INIT;
    ro.executor = ex;
    ro.scope_key = S("caller");
    const char *requests[][2] = {
        {"resources/read", "{\"uri\":\"ok://b\"}"},
        {"resources/read", "{\"uri\":\"none://x\"}"},
        {"resources/read", "{\"uri\":1}"},
        {"resources/templates/list", ""},
        {"completion/complete",
         "{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"tpl://t/{id}\"},\"argument\":{\"name\":\"id\",\"value\":\"\"}}"},
    };
    for (int i = 0; i < 5; i++) {
        s = new_slot();
        CHECK_STATUS(mcpr_request_start(r, str_of(requests[i][0]), str_of(requests[i][1]), &ro, request_done, &s,
                                        NULL),
                     MCPR_OK);
        CHECK(await(&s, 10000));
        CHECK_STATUS(s.status, MCPR_OK);
        mcpr_response *resp = NULL;
        CHECK_STATUS(mcpr_request(r, str_of(requests[i][0]), str_of(requests[i][1]), &ro, &resp, NULL), MCPR_OK);
        CHECK(s.json && str_eq(mcpr_response_json(resp), s.json));
        mcpr_response_free(resp);
        drop_slot(&s);
    }
    /* A ref/prompt completion is not handled: known once its params are read. */
    s = new_slot();
    CHECK_STATUS(mcpr_request_start(r, S("completion/complete"),
                                    S("{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"p\"},"
                                      "\"argument\":{\"name\":\"a\",\"value\":\"\"}}"),
                                    &ro, request_done, &s, NULL),
                 MCPR_OK);
    CHECK(await(&s, 10000));
    CHECK_STATUS(s.status, MCPR_METHOD_NOT_HANDLED);
    drop_slot(&s);
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
}

/* mcpr_message_start gives the reply mcpr_message gives, for a request the
 * library serves and for every other message (answered through done as
 * well); a list method without a scope key fails the start. */
static void test_message_start_answers_as_mcpr_message(void) {
    mcpr_resources *r = registry(1000);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    mcpr_request_options ro = MCPR_REQUEST_OPTIONS_INIT;
    ro.executor = ex;
    ro.scope_key = S("caller");
    const char *messages[] = {
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"ok://b\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":\"a\\u0042\",\"method\":\"resources/read\",\"params\":{\"uri\":\"none://x\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/templates/list\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}",
        "not json",
        "[{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/read\"}]",
        "",
    };
    for (size_t i = 0; i < sizeof messages / sizeof *messages; i++) {
        slot s = new_slot();
        CHECK_STATUS(mcpr_message_start(r, str_of(messages[i]), &ro, message_done, &s, NULL), MCPR_OK);
        CHECK(await(&s, 10000));
        CHECK_STATUS(s.status, MCPR_OK);
        mcpr_reply *reply = NULL;
        CHECK_STATUS(mcpr_message(r, str_of(messages[i]), &ro, &reply, NULL), MCPR_OK);
        CHECK(s.json && str_eq(mcpr_reply_json(reply), s.json));
        CHECK(s.handled == mcpr_reply_handled(reply));
        mcpr_reply_free(reply);
        drop_slot(&s);
    }
    /* Host mistakes fail the start; done never runs (counted at teardown). */
    slot s = new_slot();
    mcpr_request_options no_scope = ro;
    no_scope.scope_key = S("");
    CHECK_STATUS(mcpr_message_start(r, S("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/list\"}"),
                                    &no_scope, message_done, &s, NULL),
                 MCPR_INVALID_ARGUMENT);
    mcpr_request_options inline_opts = MCPR_REQUEST_OPTIONS_INIT;
    CHECK_STATUS(mcpr_message_start(r, S("not json"), &inline_opts, message_done, &s, NULL),
                 MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_message_start(r, S("not json"), &ro, MISUSE_NULL, &s, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_message_start(MISUSE_NULL, S("not json"), &ro, message_done, &s, NULL), MCPR_INVALID_ARGUMENT);
    sleep_ms(20);
    CHECK(atomic_load(&s.runs) == 0);
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
}

/* ------------------------------------------------ hung callbacks */

static void test_cancellation_and_deadlines_while_a_callback_hangs(void) {
    mcpr_resources *r = registry(100);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    gate_set(false);
    atomic_store(&gate_entered, 0);

    /* Cancellation: the body read ignores it. */
    mcpr_cancel *c = mcpr_cancel_new();
    mcpr_read_options oc = read_opts(ex, 60000, c);
    slot s = new_slot();
    CHECK_STATUS(start_read(r, "slow://s", &oc, &s), MCPR_OK);
    CHECK(eventually(&gate_entered, 1, 10000));
    unsigned long long at = now_ms();
    mcpr_cancel_cancel(c);
    mcpr_cancel_free(c);
    CHECK(await(&s, 5000));
    CHECK(now_ms() - at < 3000 * slow());
    CHECK_STATUS(s.status, MCPR_CANCELED);
    drop_slot(&s);

    /* The read deadline, while discover hangs. */
    mcpr_read_options od = read_opts(ex, 200, NULL);
    s = new_slot();
    at = now_ms();
    CHECK_STATUS(start_read(r, "slow://s", &od, &s), MCPR_OK);
    CHECK(await(&s, 10000));
    CHECK(now_ms() - at >= 190);
    CHECK_STATUS(s.status, MCPR_DEADLINE_EXCEEDED);
    drop_slot(&s);

    /* A body read past its item deadline: a timeout item, the siblings read. */
    mcpr_read_options oi = read_opts(ex, 20000, NULL);
    s = new_slot();
    at = now_ms();
    CHECK_STATUS(start_read(r, "multi://m", &oi, &s), MCPR_OK);
    CHECK(await(&s, 10000));
    CHECK(now_ms() - at < 5000 * slow());
    CHECK_STATUS(s.status, MCPR_OK);
    CHECK(s.partial);
    CHECK(s.json && strstr(s.json, "ok://1") && strstr(s.json, "ok://3") && strstr(s.json, "\"timeout\""));
    drop_slot(&s);

    /* A listing whose discover hangs completes at its deadline too. */
    mcpr_list_options lo = MCPR_LIST_OPTIONS_INIT;
    lo.executor = ex;
    lo.scope_key = S("k");
    lo.page_size = 50;
    lo.timeout_ms = 200;
    s = new_slot();
    CHECK_STATUS(mcpr_list_start(r, &lo, list_done, &s, NULL), MCPR_OK);
    CHECK(await(&s, 10000));
    CHECK_STATUS(s.status, MCPR_DEADLINE_EXCEEDED);
    drop_slot(&s);

    gate_set(true);
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
}

/* ------------------------------------------------ lifetimes */

static atomic_int released_before_done, in_flight_releases;

static void counting_read_done(void *data, mcpr_status status, mcpr_bundle *bundle, mcpr_error *error) {
    if (atomic_load(&in_flight_releases) != 0) atomic_fetch_add(&released_before_done, 1);
    read_done(data, status, bundle, error);
}

static void test_registry_and_executor_freed_in_flight(void) {
    atomic_store(&in_flight_releases, 0);
    atomic_store(&released_before_done, 0);
    mcpr_resources *r = registry_counted(100, &in_flight_releases);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    gate_set(false);
    mcpr_read_options o = read_opts(ex, 20000, NULL);
    const char *uris[] = {"ok://a", "multi://m", "hang://h", "ok://b"};
    slot s[4];
    for (int i = 0; i < 4; i++) {
        s[i] = new_slot();
        CHECK_STATUS(mcpr_read_start(r, str_of(uris[i]), &o, counting_read_done, &s[i], NULL), MCPR_OK);
    }
    /* Every handle goes at once; the calls hold their own references. */
    mcpr_resources_free(r);
    mcpr_executor_free(ex);
    for (int i = 0; i < 4; i++) CHECK(await(&s[i], 10000));
    CHECK_STATUS(s[0].status, MCPR_OK);
    CHECK_STATUS(s[1].status, MCPR_OK);
    CHECK(s[1].partial);
    CHECK_STATUS(s[2].status, MCPR_TIMEOUT);
    CHECK_STATUS(s[3].status, MCPR_OK);
    CHECK(atomic_load(&released_before_done) == 0);
    /* The abandoned readers hold their tables until they return. */
    gate_set(true);
    CHECK(eventually(&in_flight_releases, TABLES, 10000));
    sleep_ms(50);
    CHECK(atomic_load(&in_flight_releases) == TABLES);
    for (int i = 0; i < 4; i++) drop_slot(&s[i]);
}

/* ------------------------------------------------ observed calls */

/* The observer of test_each_async_call_gives_one_call_event: counts call
 * events (and its release), keeps the last one's status. */
static atomic_int obs_calls, obs_status, obs_released;

static void obs_event(void *ud, const mcpr_event *e) {
    (void)ud;
    if (e->kind != MCPR_EVENT_CALL) return;
    atomic_store(&obs_status, (int)e->status);
    atomic_fetch_add(&obs_calls, 1);
}

static void obs_release(void *ud) {
    (void)ud;
    atomic_fetch_add(&obs_released, 1);
}

/* Exactly one call event since the last look, with status `want`. */
static void one_event(mcpr_status want) {
    CHECK(eventually(&obs_calls, 1, 10000));
    sleep_ms(20);
    CHECK(atomic_load(&obs_calls) == 1);
    CHECK_STATUS((mcpr_status)atomic_load(&obs_status), want);
    atomic_store(&obs_calls, 0);
}

/* BEHAVIOUR §19 for asynchronous calls: every call gives exactly one call
 * event (by the time done ran), whatever concludes it: its result, a host
 * mistake at the start, its deadline or a cancellation while a callback
 * hangs, and the registry freed while it is in flight (the observer then
 * released once, when the hung reader returns). */
static void test_each_async_call_gives_one_call_event(void) {
    atomic_store(&obs_calls, 0);
    atomic_store(&obs_released, 0);
    mcpr_observer_callbacks ob;
    mcpr_observer_callbacks_init(&ob);
    ob.on_event = obs_event;
    ob.release = obs_release;
    registries++;
    mcpr_resources *r = registry_observed(60000, &releases, &ob);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    /* Open while nothing is meant to hang (the listing visits slow://s). */
    gate_set(true);

    const char *uris[] = {"ok://a", "none://x", "not a uri"};
    const mcpr_status want[] = {MCPR_OK, MCPR_UNAVAILABLE, MCPR_INVALID_REQUEST};
    mcpr_read_options o = read_opts(ex, 20000, NULL);
    for (int i = 0; i < 3; i++) {
        slot s = new_slot();
        CHECK_STATUS(start_read(r, uris[i], &o, &s), MCPR_OK);
        CHECK(await(&s, 10000));
        CHECK_STATUS(s.status, want[i]);
        one_event(want[i]);
        drop_slot(&s);
    }
    mcpr_list_options lo = MCPR_LIST_OPTIONS_INIT;
    lo.executor = ex;
    lo.scope_key = S("caller");
    slot s = new_slot();
    CHECK_STATUS(mcpr_list_start(r, &lo, list_done, &s, NULL), MCPR_OK);
    CHECK(await(&s, 10000));
    one_event(MCPR_OK);
    drop_slot(&s);
    mcpr_complete_params p = {S("tpl://t/{id}"), {S("id"), S("a")}, NULL, 0};
    s = new_slot();
    CHECK_STATUS(mcpr_complete_start(r, &p, &o, complete_done, &s, NULL), MCPR_OK);
    CHECK(await(&s, 10000));
    one_event(MCPR_OK);
    drop_slot(&s);
    mcpr_request_options ro = MCPR_REQUEST_OPTIONS_INIT;
    ro.executor = ex;
    ro.scope_key = S("caller");
    s = new_slot();
    CHECK_STATUS(mcpr_request_start(r, S("resources/read"), S("{\"uri\":\"none://x\"}"), &ro, request_done, &s, NULL),
                 MCPR_OK);
    CHECK(await(&s, 10000));
    one_event(MCPR_UNAVAILABLE);
    drop_slot(&s);
    s = new_slot();
    CHECK_STATUS(mcpr_message_start(r, S("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":1}}"),
                                    &ro, message_done, &s, NULL),
                 MCPR_OK);
    CHECK(await(&s, 10000));
    one_event(MCPR_INVALID_REQUEST);
    drop_slot(&s);

    /* Host mistakes at the start: one event each, done never runs. */
    mcpr_read_options inline_options = MCPR_READ_OPTIONS_INIT;
    s = new_slot();
    CHECK_STATUS(start_read(r, "ok://a", &inline_options, &s), MCPR_INVALID_ARGUMENT);
    one_event(MCPR_INVALID_ARGUMENT);
    lo.scope_key = S("");
    CHECK_STATUS(mcpr_list_start(r, &lo, list_done, &s, NULL), MCPR_INVALID_ARGUMENT);
    one_event(MCPR_INVALID_ARGUMENT);
    CHECK(atomic_load(&s.runs) == 0);

    /* Past the deadline, and cancelled, while the body read hangs. */
    gate_set(false);
    atomic_store(&gate_entered, 0);
    mcpr_read_options od = read_opts(ex, 100, NULL);
    s = new_slot();
    CHECK_STATUS(start_read(r, "hang://h", &od, &s), MCPR_OK);
    CHECK(await(&s, 10000));
    CHECK_STATUS(s.status, MCPR_DEADLINE_EXCEEDED);
    one_event(MCPR_DEADLINE_EXCEEDED);
    drop_slot(&s);
    mcpr_cancel *c = mcpr_cancel_new();
    mcpr_read_options oc = read_opts(ex, 60000, c);
    s = new_slot();
    CHECK_STATUS(start_read(r, "hang://h", &oc, &s), MCPR_OK);
    CHECK(eventually(&gate_entered, 2, 10000));
    mcpr_cancel_cancel(c);
    mcpr_cancel_free(c);
    CHECK(await(&s, 10000));
    CHECK_STATUS(s.status, MCPR_CANCELED);
    one_event(MCPR_CANCELED);
    drop_slot(&s);

    /* The registry freed while a call is in flight. */
    s = new_slot();
    CHECK_STATUS(start_read(r, "hang://h", &od, &s), MCPR_OK);
    mcpr_resources_free(r);
    CHECK(await(&s, 10000));
    CHECK_STATUS(s.status, MCPR_DEADLINE_EXCEEDED);
    one_event(MCPR_DEADLINE_EXCEEDED);
    drop_slot(&s);
    CHECK(atomic_load(&obs_released) == 0);
    gate_set(true);
    CHECK(eventually(&obs_released, 1, 10000));
    sleep_ms(50);
    CHECK(atomic_load(&obs_released) == 1);
    CHECK(atomic_load(&obs_calls) == 0);
    mcpr_executor_free(ex);
}

/* ------------------------------------------------ eight threads */

#define STARTERS 8
#define PER_STARTER 100

typedef struct {
    mcpr_resources *r;
    mcpr_executor *ex;
    slot slots[PER_STARTER];
} starter_arg;

static void *starting(void *arg) {
    starter_arg *a = arg;
    mcpr_read_options o = read_opts(a->ex, 20000, NULL);
    for (int i = 0; i < PER_STARTER; i++) {
        a->slots[i] = new_slot();
        CHECK_STATUS(start_read(a->r, i % 2 ? "ok://a" : "ok://b", &o, &a->slots[i]), MCPR_OK);
    }
    return NULL;
}

static void test_eight_threads_start_calls_at_once(void) {
    mcpr_resources *r = registry(1000);
    mcpr_executor_options eo = MCPR_EXECUTOR_OPTIONS_INIT;
    eo.threads = 2;
    eo.max_queued = STARTERS * PER_STARTER;
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new_with(&eo, &ex, NULL), MCPR_OK);
    static starter_arg args[STARTERS];
    pthread_t th[STARTERS];
    for (int t = 0; t < STARTERS; t++) {
        args[t].r = r;
        args[t].ex = ex;
        CHECK(pthread_create(&th[t], NULL, starting, &args[t]) == 0);
    }
    for (int t = 0; t < STARTERS; t++) pthread_join(th[t], NULL);
    mcpr_resources_free(r);
    mcpr_executor_free(ex);
    for (int t = 0; t < STARTERS; t++)
        for (int i = 0; i < PER_STARTER; i++) {
            slot *s = &args[t].slots[i];
            CHECK(await(s, 20000));
            CHECK_STATUS(s->status, MCPR_OK);
            CHECK(s->json && strstr(s->json, i % 2 ? "ok://a" : "ok://b"));
            drop_slot(s);
        }
}

/* ------------------------------------------------ the event loop */

/* docs/C-API.md's pattern: done writes one byte to a pipe; the loop polls
 * the pipe and answers from the slot. */
static void test_an_event_loop_wakes_on_a_pipe(void) {
    mcpr_resources *r = registry(1000);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    int fds[2];
    CHECK(pipe(fds) == 0);
    mcpr_read_options o = read_opts(ex, 10000, NULL);
    slot s[3];
    for (int i = 0; i < 3; i++) {
        s[i] = new_slot();
        s[i].pipe_w = fds[1];
        CHECK_STATUS(start_read(r, "ok://a", &o, &s[i]), MCPR_OK);
    }
    int woken = 0;
    while (woken < 3) {
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        if (poll(&p, 1, (int)(10000 * slow())) != 1) break;
        char buf[8];
        ssize_t n = read(fds[0], buf, sizeof buf);
        if (n > 0) woken += (int)n;
    }
    CHECK(woken == 3);
    for (int i = 0; i < 3; i++) {
        CHECK(await(&s[i], 10000));
        CHECK_STATUS(s[i].status, MCPR_OK);
        drop_slot(&s[i]);
    }
    close(fds[0]);
    close(fds[1]);
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
}

int main(void) {
    starter = pthread_self();
    test_host_mistakes_fail_the_start_and_done_never_runs();
    test_done_runs_once_off_the_start_with_the_blocking_outcome();
    test_list_complete_and_request_answer_as_the_blocking_calls();
    test_message_start_answers_as_mcpr_message();
    test_cancellation_and_deadlines_while_a_callback_hangs();
    test_registry_and_executor_freed_in_flight();
    test_each_async_call_gives_one_call_event();
    test_eight_threads_start_calls_at_once();
    test_an_event_loop_wakes_on_a_pipe();
    /* Every started call completed exactly once (each slot was checked
     * when dropped; no done ran twice or for a failed start since). */
    sleep_ms(50);
    CHECK(atomic_load(&all_dones) == atomic_load(&all_dropped));
    /* Every table of every registry released exactly once. */
    CHECK(eventually(&releases, registries * TABLES, 10000));
    sleep_ms(50);
    CHECK(atomic_load(&releases) == registries * TABLES);
    fprintf(stderr, "test_async: %d done callbacks, %d calls\n", atomic_load(&all_dones),
            atomic_load(&all_dropped));
    return harness_finish("test_async");
}
