/* Observers (docs/BEHAVIOUR.md §19, docs/C-API.md "Observability"): one
 * call event per call of every kind, decision events for each rule, a
 * hidden URI in no byte of any event, private members only where asked,
 * release exactly once, growth and misuse of the table, metrics and event
 * hashes through the C ABI. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* ---------------------------------------------------------------- the log */

#define LOG_MAX 256

typedef struct {
    uint32_t kind, rule, subject, phase;
    mcpr_status status, issue;
    bool is_private, partial, has_uri_hash, timed, has_queue_wait;
    uint64_t call_id, items, item_index, body_reads;
    void *request_data;
    char method[64];
    char uri[512];
    char *json_public;  /* malloc'd; NULL for a private decision */
    char *json_private; /* malloc'd */
    char *cause;        /* malloc'd */
    uint8_t uri_hash[MCPR_EVENT_HASH_BYTES];
    bool has_scope_hash;
    size_t struct_size;
} seen_event;

typedef struct {
    pthread_mutex_t lock;
    seen_event events[LOG_MAX];
    int count;
    atomic_int releases;
} event_log;

static char *dup_str(mcpr_str s) {
    if (s.len == 0) return NULL;
    char *out = malloc(s.len + 1);
    memcpy(out, s.ptr, s.len);
    out[s.len] = 0;
    return out;
}

static void copy_to(char *dst, size_t cap, mcpr_str s) {
    size_t n = s.len < cap - 1 ? s.len : cap - 1;
    if (n) memcpy(dst, s.ptr, n);
    dst[n] = 0;
}

static void on_event(void *ud, const mcpr_event *e) {
    event_log *log = ud;
    seen_event s = {0};
    s.struct_size = e->struct_size;
    s.kind = e->kind;
    s.rule = e->rule;
    s.subject = e->subject;
    s.phase = e->phase;
    s.status = e->status;
    s.issue = e->issue;
    s.is_private = e->is_private;
    s.partial = e->partial;
    s.call_id = e->call_id;
    s.items = e->items;
    s.item_index = e->private_item_index;
    s.request_data = e->request_data;
    s.timed = e->private_timed;
    s.body_reads = e->private_body_read_calls;
    s.has_queue_wait = e->has_queue_wait;
    copy_to(s.method, sizeof s.method, e->method);
    copy_to(s.uri, sizeof s.uri, e->uri);
    s.json_public = dup_str(mcpr_event_json(e, false));
    s.json_private = dup_str(mcpr_event_json(e, true));
    s.cause = dup_str(mcpr_event_private_cause(e));
    s.has_uri_hash = mcpr_event_uri_hash(e, s.uri_hash);
    uint8_t scope[MCPR_EVENT_HASH_BYTES];
    s.has_scope_hash = mcpr_event_scope_key_hash(e, scope);
    pthread_mutex_lock(&log->lock);
    if (log->count < LOG_MAX) log->events[log->count++] = s;
    pthread_mutex_unlock(&log->lock);
}

static void on_release(void *ud) {
    event_log *log = ud;
    atomic_fetch_add(&log->releases, 1);
}

static void log_clear(event_log *log) {
    pthread_mutex_lock(&log->lock);
    for (int i = 0; i < log->count; i++) {
        free(log->events[i].json_public);
        free(log->events[i].json_private);
        free(log->events[i].cause);
    }
    log->count = 0;
    pthread_mutex_unlock(&log->lock);
}

static event_log *log_new(void) {
    event_log *log = calloc(1, sizeof *log);
    pthread_mutex_init(&log->lock, NULL);
    return log;
}

static void log_free(event_log *log) {
    log_clear(log);
    pthread_mutex_destroy(&log->lock);
    free(log);
}

static int calls_in(event_log *log) {
    int n = 0;
    for (int i = 0; i < log->count; i++) n += log->events[i].kind == MCPR_EVENT_CALL;
    return n;
}

static const seen_event *last_call(event_log *log) {
    for (int i = log->count - 1; i >= 0; i--)
        if (log->events[i].kind == MCPR_EVENT_CALL) return &log->events[i];
    return NULL;
}

static mcpr_observer_callbacks table_of(event_log *log, uint32_t flags) {
    mcpr_observer_callbacks t;
    mcpr_observer_callbacks_init(&t);
    t.user_data = log;
    t.on_event = on_event;
    t.release = on_release;
    t.flags = flags;
    return t;
}

static mcpr_resources *observed(host_policy *hp, host_binding *hb, event_log *log, uint32_t flags) {
    mcpr_builder *b = host_builder(hp);
    mcpr_observer_callbacks t = table_of(log, flags);
    CHECK_STATUS(mcpr_builder_set_observer(b, &t, NULL), MCPR_OK);
    CHECK_STATUS(host_add(b, "{\"uri\":\"bundle://b\",\"name\":\"b\"}", hb), MCPR_OK);
    CHECK_STATUS(host_add(b, "{\"uriTemplate\":\"tmpl://t/{id}\",\"name\":\"t\"}", hb), MCPR_OK);
    return host_build(b);
}

/* ---------------------------------------------------------------- tests */

static void test_every_call_kind_emits_exactly_one_call_event(void) {
    host_policy hp = {0};
    host_binding hb = {.items = {"item://ok/a", "item://fail/b"}};
    event_log *log = log_new();
    mcpr_resources *r = observed(&hp, &hb, log, 0);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    for (int round = 0; round < 2; round++) {
        mcpr_read_options ro = MCPR_READ_OPTIONS_INIT;
        ro.executor = round ? ex : NULL;
        ro.request_data = &hp;
        char *json = NULL;
        bool partial = false;
        log_clear(log);
        CHECK_STATUS(host_read(r, "bundle://b", &ro, &json, &partial, NULL), MCPR_OK);
        free(json);
        CHECK(calls_in(log) == 1 && log->count == 1);
        const seen_event *e = last_call(log);
        CHECK(e && e->status == MCPR_OK && e->partial && strcmp(e->method, "resources/read") == 0);
        CHECK(e && e->request_data == &hp && e->struct_size == sizeof(mcpr_event));
        CHECK(e && e->has_queue_wait == (round == 1));
        CHECK(e && e->json_public && strstr(e->json_public, "\"outcome\":\"ok\""));
        CHECK(e && !strstr(e->json_public, "SECRET-CAUSE"));

        log_clear(log);
        CHECK_STATUS(host_read(r, "nothing://x", &ro, NULL, NULL, NULL), MCPR_UNAVAILABLE);
        CHECK(calls_in(log) == 1 && last_call(log)->status == MCPR_UNAVAILABLE);

        mcpr_list_options lo = MCPR_LIST_OPTIONS_INIT;
        lo.scope_key = S("tenant");
        lo.executor = ro.executor;
        mcpr_page *page = NULL;
        log_clear(log);
        CHECK_STATUS(mcpr_list(r, &lo, &page, NULL), MCPR_OK);
        mcpr_page_free(page);
        CHECK(calls_in(log) == 1 && strcmp(last_call(log)->method, "resources/list") == 0);
        CHECK(last_call(log)->has_scope_hash);
        log_clear(log);
        CHECK_STATUS(mcpr_list_templates(r, &lo, &page, NULL), MCPR_OK);
        mcpr_page_free(page);
        CHECK(calls_in(log) == 1 && strcmp(last_call(log)->method, "resources/templates/list") == 0);
        lo.scope_key = S("");
        log_clear(log);
        CHECK_STATUS(mcpr_list(r, &lo, &page, NULL), MCPR_INVALID_ARGUMENT);
        CHECK(calls_in(log) == 1 && last_call(log)->status == MCPR_INVALID_ARGUMENT);

        mcpr_complete_params p = {S("tmpl://t/{id}"), {S("id"), S("")}, NULL, 0};
        mcpr_completion *c = NULL;
        log_clear(log);
        CHECK_STATUS(mcpr_complete(r, &p, &ro, &c, NULL), MCPR_OK);
        mcpr_completion_free(c);
        CHECK(calls_in(log) == 1 && strcmp(last_call(log)->method, "completion/complete") == 0);
        CHECK(strcmp(last_call(log)->uri, "tmpl://t/{id}") == 0);
    }
    /* Requests: served ones (refused params included), one event each. */
    mcpr_request_options qo = MCPR_REQUEST_OPTIONS_INIT;
    qo.scope_key = S("tenant");
    const char *params[] = {"{\"uri\":\"bundle://b\"}", "{\"uri\":1}", "[]"};
    const mcpr_status want[] = {MCPR_OK, MCPR_INVALID_REQUEST, MCPR_INVALID_REQUEST};
    for (int i = 0; i < 3; i++) {
        mcpr_response *resp = NULL;
        log_clear(log);
        CHECK_STATUS(mcpr_request(r, S("resources/read"), str_of(params[i]), &qo, &resp, NULL), MCPR_OK);
        mcpr_response_free(resp);
        CHECK(calls_in(log) == 1 && last_call(log)->status == want[i]);
    }
    mcpr_response *resp = NULL;
    log_clear(log);
    CHECK_STATUS(mcpr_request(r, S("tools/list"), S(""), &qo, &resp, NULL), MCPR_METHOD_NOT_HANDLED);
    CHECK(log->count == 0);
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
    CHECK(atomic_load(&log->releases) == 1);
    log_free(log);
}

static const seen_event *item_event(event_log *log, uint64_t index) {
    for (int i = 0; i < log->count; i++)
        if (log->events[i].kind == MCPR_EVENT_DECISION && log->events[i].subject == MCPR_SUBJECT_ITEM &&
            log->events[i].item_index == index)
            return &log->events[i];
    return NULL;
}

static void test_decision_events_for_each_rule(void) {
    host_policy hp = {.hidden = {"item://ok/CANARY-hidden"},
                      .denied = {"item://ok/denied"},
                      .revoke_later = {"item://ok/revoked"},
                      .show_later = {"item://ok/newly"},
                      /* slot 0 is show_later's (the harness shares the counters) */
                      .hide_later = {"item://ok/unused", "item://ok/CANARY-later"},
                      .disclose = true};
    host_binding hb = {.items = {"item://ok/a", "item://ok/CANARY-hidden", "item://ok/denied", "item://ok/revoked",
                                 "item://ok/newly", "item://ok/CANARY-later", "item://fail/f", "item://badmime/m",
                                 "item://big/x"},
                       .big_bytes = 2000};
    event_log *log = log_new();
    mcpr_builder *b = host_builder(&hp);
    mcpr_observer_callbacks t = table_of(log, MCPR_OBSERVE_DECISIONS | MCPR_OBSERVE_CALLBACK_TIMINGS);
    CHECK_STATUS(mcpr_builder_set_observer(b, &t, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_MAX_ITEM_BYTES, 1000, NULL), MCPR_OK);
    CHECK_STATUS(host_add(b, "{\"uri\":\"bundle://b\",\"name\":\"b\"}", &hb), MCPR_OK);
    mcpr_resources *r = host_build(b);
    CHECK_STATUS(host_read(r, "bundle://b", NULL, NULL, NULL, NULL), MCPR_OK);
    struct {
        uint32_t rule, phase;
        mcpr_status issue;
        bool is_private;
    } want[] = {
        {MCPR_DECISION_ADMITTED, MCPR_PHASE_BODY_READ, MCPR_OK, false},
        {MCPR_DECISION_HIDDEN, MCPR_PHASE_FIRST_CHECK, MCPR_OK, true},
        {MCPR_DECISION_DENIED, MCPR_PHASE_FIRST_CHECK, MCPR_UNAVAILABLE, false},
        {MCPR_DECISION_REVOKED, MCPR_PHASE_RECHECK, MCPR_UNAVAILABLE, false},
        {MCPR_DECISION_NEWLY_VISIBLE, MCPR_PHASE_RECHECK, MCPR_UNAVAILABLE, false},
        {MCPR_DECISION_HIDDEN, MCPR_PHASE_RECHECK, MCPR_OK, true},
        {MCPR_DECISION_ITEM_FAILED, MCPR_PHASE_BODY_READ, MCPR_READ_FAILED, false},
        {MCPR_DECISION_ITEM_FAILED, MCPR_PHASE_BODY_READ, MCPR_INVALID_CONTENT, false},
        {MCPR_DECISION_BUDGET_EXCEEDED, MCPR_PHASE_BODY_READ, MCPR_BUDGET_EXCEEDED, false},
    };
    for (uint64_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const seen_event *e = item_event(log, i);
        CHECK(e != NULL);
        if (!e) continue;
        CHECK(e->rule == want[i].rule && e->phase == want[i].phase && e->issue == want[i].issue);
        CHECK(e->is_private == want[i].is_private);
        if (e->is_private) {
            CHECK(e->uri[0] == 0 && !e->has_uri_hash && e->json_public == NULL);
        } else {
            CHECK(e->uri[0] != 0 && e->has_uri_hash && e->json_public != NULL);
        }
    }
    /* The items, then the call event (a success has no root decision), one
     * call id. */
    CHECK(log->count == 10);
    CHECK(log->events[9].kind == MCPR_EVENT_CALL && log->events[9].timed);
    /* a, revoked, CANARY-later, fail, badmime, big */
    CHECK(log->events[9].body_reads == 6);
    for (int i = 0; i < log->count; i++) {
        const seen_event *e = &log->events[i];
        CHECK(e->call_id == log->events[0].call_id);
        /* The canary of the hidden items: in no byte of any event. */
        CHECK(!strstr(e->json_private, "CANARY") && !(e->json_public && strstr(e->json_public, "CANARY")));
        CHECK(!strstr(e->uri, "CANARY") && !(e->cause && strstr(e->cause, "CANARY")));
        CHECK(!(e->json_public && strstr(e->json_public, "SECRET-CAUSE")));
    }
    /* The failed read's private cause, reachable in private only. */
    const seen_event *f = item_event(log, 6);
    CHECK(f && f->cause && strstr(f->cause, "SECRET-CAUSE") && strstr(f->json_private, "SECRET-CAUSE"));
    /* The event hash of the call's URI is the registry's. */
    uint8_t h[MCPR_EVENT_HASH_BYTES];
    CHECK_STATUS(mcpr_resources_event_hash(r, S("bundle://b"), h, NULL), MCPR_OK);
    CHECK(log->events[9].has_uri_hash && memcmp(h, log->events[9].uri_hash, sizeof h) == 0);
    mcpr_resources_free(r);
    CHECK(atomic_load(&log->releases) == 1);
    log_free(log);
}

static void test_not_found_root_decisions_are_private(void) {
    host_policy hp = {.deny_discover = {"bundle://b"}};
    host_binding hb = {.items = {"item://ok/a"}};
    event_log *log = log_new();
    mcpr_resources *r = observed(&hp, &hb, log, MCPR_OBSERVE_DECISIONS);
    CHECK_STATUS(host_read(r, "bundle://b", NULL, NULL, NULL, NULL), MCPR_UNAVAILABLE);
    CHECK(log->count == 2);
    CHECK(log->events[0].rule == MCPR_DECISION_HIDDEN && log->events[0].is_private);
    CHECK(log->events[0].json_public == NULL);
    char *undiscoverable = log->events[1].json_public ? strdup(log->events[1].json_public) : NULL;
    log_clear(log);
    CHECK_STATUS(host_read(r, "nothing://b", NULL, NULL, NULL, NULL), MCPR_UNAVAILABLE);
    CHECK(log->count == 2 && log->events[0].rule == MCPR_DECISION_NOT_FOUND && log->events[0].is_private);
    CHECK(undiscoverable != NULL);
    free(undiscoverable);
    mcpr_resources_free(r);
    log_free(log);
}

static void test_release_runs_once_and_only_for_accepted_tables(void) {
    event_log *log = log_new();
    /* A builder freed without building. */
    mcpr_builder *b = mcpr_builder_new();
    mcpr_observer_callbacks t = table_of(log, 0);
    CHECK_STATUS(mcpr_builder_set_observer(b, &t, NULL), MCPR_OK);
    mcpr_builder_free(b);
    CHECK(atomic_load(&log->releases) == 1);
    /* Replaced: the old table at once, the new one with the registry. */
    host_policy hp = {0};
    host_binding hb = {.items = {"item://ok/a"}};
    b = host_builder(&hp);
    CHECK_STATUS(mcpr_builder_set_observer(b, &t, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_observer(b, &t, NULL), MCPR_OK);
    CHECK(atomic_load(&log->releases) == 2);
    CHECK_STATUS(host_add(b, "{\"uri\":\"bundle://b\",\"name\":\"b\"}", &hb), MCPR_OK);
    mcpr_resources *r = host_build(b);
    CHECK(atomic_load(&log->releases) == 2);
    mcpr_resources *r2 = mcpr_resources_retain(r);
    mcpr_resources_free(r);
    CHECK(atomic_load(&log->releases) == 2);
    mcpr_resources_free(r2);
    CHECK(atomic_load(&log->releases) == 3);
    /* A failed build releases it too. */
    b = mcpr_builder_new();
    CHECK_STATUS(mcpr_builder_set_observer(b, &t, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_build(b, &r, NULL), MCPR_INVALID_CONFIGURATION);
    CHECK(atomic_load(&log->releases) == 4);
    /* Refused tables are never released. */
    b = mcpr_builder_new();
    mcpr_observer_callbacks none = table_of(log, 0);
    none.on_event = NULL;
    CHECK_STATUS(mcpr_builder_set_observer(b, &none, NULL), MCPR_INVALID_CONFIGURATION);
    mcpr_observer_callbacks bad_flags = table_of(log, 4);
    CHECK_STATUS(mcpr_builder_set_observer(b, &bad_flags, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_builder_free(b);
    CHECK(atomic_load(&log->releases) == 4);
    log_free(log);
}

static void test_growth_and_misuse(void) {
    event_log *log = log_new();
    mcpr_builder *b = mcpr_builder_new();
    /* An older table, without flags: call events only. */
    mcpr_observer_callbacks t = table_of(log, MCPR_OBSERVE_DECISIONS);
    t.struct_size = offsetof(mcpr_observer_callbacks, flags);
    CHECK_STATUS(mcpr_builder_set_observer(b, &t, NULL), MCPR_OK);
    t.struct_size = 0;
    CHECK_STATUS(mcpr_builder_set_observer(b, &t, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_set_observer(b, MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_set_observer(MISUSE_NULL, &t, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_set_event_key(b, (const uint8_t *)"short", 5, NULL), MCPR_INVALID_CONFIGURATION);
    CHECK_STATUS(mcpr_builder_set_event_key(b, MISUSE_NULL, 3, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_set_event_key(b, (const uint8_t *)"0123456789abcdef0123456789abcdef", 32, NULL),
                 MCPR_OK);
    mcpr_builder_free(b);
    mcpr_observer_callbacks_init(MISUSE_NULL);
    /* Event accessors with NULL. */
    uint8_t h[MCPR_EVENT_HASH_BYTES];
    CHECK(!mcpr_event_uri_hash(MISUSE_NULL, h));
    CHECK(!mcpr_event_scope_key_hash(MISUSE_NULL, h));
    CHECK(mcpr_event_private_cause(MISUSE_NULL).len == 0);
    CHECK(mcpr_event_json(MISUSE_NULL, true).len == 0);
    /* Metrics and hashes with bad arguments. */
    host_policy hp = {0};
    host_binding hb = {.items = {"item://ok/a"}};
    mcpr_resources *r = observed(&hp, &hb, log, 0);
    mcpr_call_metrics m = {.struct_size = sizeof m};
    CHECK_STATUS(mcpr_resources_get_metrics(MISUSE_NULL, S("resources/read"), 0, &m, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_resources_get_metrics(r, S("tools/list"), 0, &m, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_resources_get_metrics(r, S("resources/read"), MCPR_INTERNAL, &m, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_resources_get_metrics(r, S("resources/read"), 0, MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
    m.struct_size = 0;
    CHECK_STATUS(mcpr_resources_get_metrics(r, S("resources/read"), 0, &m, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_resources_event_hash(r, S("x"), MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_resources_event_hash(MISUSE_NULL, S("x"), h, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_str bad = {NULL, 3};
    CHECK_STATUS(mcpr_resources_event_hash(r, bad, h, NULL), MCPR_INVALID_ARGUMENT);
    /* The older table: no decision events despite the flag past its size. */
    mcpr_resources_free(r);
    b = host_builder(&hp);
    t = table_of(log, MCPR_OBSERVE_DECISIONS);
    t.struct_size = offsetof(mcpr_observer_callbacks, flags);
    CHECK_STATUS(mcpr_builder_set_observer(b, &t, NULL), MCPR_OK);
    CHECK_STATUS(host_add(b, "{\"uri\":\"bundle://b\",\"name\":\"b\"}", &hb), MCPR_OK);
    r = host_build(b);
    log_clear(log);
    CHECK_STATUS(host_read(r, "bundle://b", NULL, NULL, NULL, NULL), MCPR_OK);
    CHECK(log->count == 1 && log->events[0].kind == MCPR_EVENT_CALL);
    mcpr_resources_free(r);
    log_free(log);
}

static void test_metrics_without_an_observer(void) {
    host_policy hp = {0};
    host_binding hb = {.items = {"item://ok/a"}};
    mcpr_builder *b = host_builder(&hp);
    CHECK_STATUS(host_add(b, "{\"uri\":\"bundle://b\",\"name\":\"b\"}", &hb), MCPR_OK);
    mcpr_resources *r = host_build(b);
    for (int i = 0; i < 5; i++) CHECK_STATUS(host_read(r, "bundle://b", NULL, NULL, NULL, NULL), MCPR_OK);
    CHECK_STATUS(host_read(r, "nothing://b", NULL, NULL, NULL, NULL), MCPR_UNAVAILABLE);
    mcpr_call_metrics m = {.struct_size = sizeof m};
    CHECK_STATUS(mcpr_resources_get_metrics(r, S("resources/read"), MCPR_OK, &m, NULL), MCPR_OK);
    uint64_t sum = 0;
    for (int i = 0; i < MCPR_METRICS_BUCKETS; i++) sum += m.buckets[i];
    CHECK(m.calls == 5 && sum == 5 && m.partial == 0 && m.total_ns > 0);
    CHECK_STATUS(mcpr_resources_get_metrics(r, S("resources/read"), MCPR_UNAVAILABLE, &m, NULL), MCPR_OK);
    CHECK(m.calls == 1);
    /* An older, shorter struct: only its fields are written. */
    struct {
        size_t struct_size;
        uint64_t calls;
        uint64_t guard;
    } old = {offsetof(mcpr_call_metrics, partial), 0, 77};
    CHECK_STATUS(mcpr_resources_get_metrics(r, S("resources/read"), MCPR_OK, (mcpr_call_metrics *)&old, NULL),
                 MCPR_OK);
    CHECK(old.calls == 5 && old.guard == 77);
    mcpr_resources_free(r);
}

/* The resource tools (through mcpr_request and mcpr_message), an embedding
 * and a message each give one call event, under their method names; a
 * message carrying no served request gives none. */
static void test_tools_embeddings_and_messages_emit_one_call_event(void) {
    host_policy hp = {0};
    host_binding hb = {.items = {"item://ok/a"}};
    event_log *log = log_new();
    mcpr_resources *r = observed(&hp, &hb, log, 0);
    mcpr_request_options o = MCPR_REQUEST_OPTIONS_INIT;
    o.scope_key = S("tenant");
    o.resource_tools = true;
    const char *tools[] = {
        "{\"name\":\"read_resource\",\"arguments\":{\"uri\":\"bundle://b\"}}",
        "{\"name\":\"read_resource\",\"arguments\":{\"uri\":\"nothing://x\"}}",
        "{\"name\":\"read_resource\",\"arguments\":{\"uri\":7}}",
        "{\"name\":\"list_resources\"}",
    };
    const mcpr_status want[] = {MCPR_OK, MCPR_UNAVAILABLE, MCPR_INVALID_REQUEST, MCPR_OK};
    for (int i = 0; i < 4; i++) {
        log_clear(log);
        mcpr_response *resp = NULL;
        CHECK_STATUS(mcpr_request(r, S("tools/call"), str_of(tools[i]), &o, &resp, NULL), MCPR_OK);
        mcpr_response_free(resp);
        CHECK(calls_in(log) == 1);
        const seen_event *e = last_call(log);
        CHECK(e && strcmp(e->method, "tools/call") == 0 && e->status == want[i]);
    }
    log_clear(log);
    mcpr_response *resp = NULL;
    CHECK_STATUS(mcpr_request(r, S("tools/call"), S("{\"name\":\"weather\"}"), &o, &resp, NULL),
                 MCPR_METHOD_NOT_HANDLED);
    mcpr_response_free(resp);
    CHECK(calls_in(log) == 0);

    mcpr_str uris[] = {S("bundle://b"), S("nothing://x")};
    mcpr_embed_options eo = MCPR_EMBED_OPTIONS_INIT;
    mcpr_embedding *em = NULL;
    CHECK_STATUS(mcpr_embed(r, uris, 2, &eo, &em, NULL), MCPR_OK);
    mcpr_embedding_free(em);
    CHECK(calls_in(log) == 1);
    const seen_event *e = last_call(log);
    CHECK(e && strcmp(e->method, "embed") == 0 && e->status == MCPR_OK && e->partial && e->items == 1);
    CHECK(e && e->uri[0] == 0 && !e->has_uri_hash);

    log_clear(log);
    const char *messages[] = {
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"bundle://b\"}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"resources/read\",\"params\":{\"uri\":\"bundle://b\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
        "{not json",
    };
    for (int i = 0; i < 4; i++) {
        mcpr_reply *reply = NULL;
        CHECK_STATUS(mcpr_message(r, str_of(messages[i]), &o, &reply, NULL), MCPR_OK);
        mcpr_reply_free(reply);
        CHECK(calls_in(log) == 1);
    }
    e = last_call(log);
    CHECK(e && strcmp(e->method, "resources/read") == 0 && e->status == MCPR_OK);

    mcpr_call_metrics m = {.struct_size = sizeof m};
    CHECK_STATUS(mcpr_resources_get_metrics(r, S("tools/call"), MCPR_OK, &m, NULL), MCPR_OK);
    CHECK(m.calls == 2);
    CHECK_STATUS(mcpr_resources_get_metrics(r, S("embed"), MCPR_OK, &m, NULL), MCPR_OK);
    CHECK(m.calls == 1);
    mcpr_resources_free(r);
    CHECK(atomic_load(&log->releases) == 1);
    log_free(log);
}

int main(void) {
    test_every_call_kind_emits_exactly_one_call_event();
    test_decision_events_for_each_rule();
    test_not_found_root_decisions_are_private();
    test_release_runs_once_and_only_for_accepted_tables();
    test_growth_and_misuse();
    test_metrics_without_an_observer();
    test_tools_embeddings_and_messages_emit_one_call_event();
    return harness_finish("test_observe");
}
