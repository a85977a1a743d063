/* Argument completion through the C ABI (BEHAVIOUR §13): mcpr_complete,
 * the complete callback of a binding table, its request view and the
 * value builder. One test per rule, bad input as much as good. */
#include <pthread.h>
#include <stdlib.h>

#include "harness.h"

#define TEMPLATE "file:///projects/{project}/files/{file}"

/* What a complete callback does, and what it saw. */
typedef struct {
    const char *values[160]; /* added in order (NULL-terminated) */
    size_t repeat;           /* when > 0: add "v<i>" this many times instead */
    bool set_total;
    uint64_t total;
    bool has_more;
    mcpr_cb_result result;   /* returned (MCPR_CB_OK by default: 0) */
    bool cooperate;          /* wait until mcpr_call_is_canceled first */
    bool threads;            /* add 4 x 50 values from four threads */
    atomic_int *gate;        /* when set: wait (ignoring cancellation) until *gate != 0 */
    const char *cause;
    /* seen */
    atomic_int calls;
    atomic_int releases;
    atomic_int dropped;      /* add_value answers MCPR_INVALID_CONTENT */
    atomic_int discover_calls_at_call;
    char argument[64];
    char value[64];
    size_t context_count;
    char context[4][2][64];
    bool definition_is_template;
    void *request_data;
    const host_policy *policy;
} completer;

static void copy_str(char *dst, size_t cap, mcpr_str s) {
    size_t n = s.len < cap - 1 ? s.len : cap - 1;
    memcpy(dst, s.ptr, n);
    dst[n] = 0;
}

typedef struct {
    mcpr_completion_builder *out;
    int base;
    atomic_int *dropped;
} adder;

static void *add_many(void *p) {
    adder *a = p;
    char buf[32];
    for (int i = 0; i < 50; i++) {
        snprintf(buf, sizeof buf, "t%d-%d", a->base, i);
        if (mcpr_completion_add_value(a->out, str_of(buf), NULL) != MCPR_OK) atomic_fetch_add(a->dropped, 1);
    }
    return NULL;
}

static mcpr_cb_result do_complete(void *ud, const mcpr_call *call, const mcpr_completion_request *req,
                                  mcpr_completion_builder *out) {
    completer *c = ud;
    atomic_fetch_add(&c->calls, 1);
    if (c->policy) atomic_store(&c->discover_calls_at_call, atomic_load(&c->policy->discover_calls));
    copy_str(c->argument, sizeof c->argument, mcpr_completion_request_argument(req));
    copy_str(c->value, sizeof c->value, mcpr_completion_request_value(req));
    c->context_count = mcpr_completion_request_context_count(req);
    for (size_t i = 0; i < c->context_count && i < 4; i++) {
        copy_str(c->context[i][0], 64, mcpr_completion_request_context_name(req, i));
        copy_str(c->context[i][1], 64, mcpr_completion_request_context_value(req, i));
    }
    /* Out of range: empty. */
    CHECK(mcpr_completion_request_context_name(req, 99).len == 0);
    CHECK(mcpr_completion_request_context_value(req, 99).len == 0);
    const mcpr_definition *d = mcpr_completion_request_definition(req);
    c->definition_is_template = mcpr_definition_is_template(d) && str_eq(mcpr_definition_uri(d), TEMPLATE);
    c->request_data = mcpr_call_request_data(call);
    if (c->cooperate) {
        while (!mcpr_call_is_canceled(call)) sleep_ms(2);
    }
    if (c->gate) {
        while (!atomic_load(c->gate)) sleep_ms(2);
    }
    for (size_t i = 0; i < 160 && c->values[i]; i++) {
        mcpr_status s = mcpr_completion_add_value(out, str_of(c->values[i]), NULL);
        if (s == MCPR_INVALID_CONTENT) atomic_fetch_add(&c->dropped, 1);
        else CHECK_STATUS(s, MCPR_OK);
    }
    char buf[32];
    for (size_t i = 0; i < c->repeat; i++) {
        snprintf(buf, sizeof buf, "v%zu", i);
        CHECK_STATUS(mcpr_completion_add_value(out, str_of(buf), NULL), MCPR_OK);
    }
    if (c->threads) {
        pthread_t th[4];
        adder a[4];
        for (int i = 0; i < 4; i++) {
            a[i] = (adder){out, i, &c->dropped};
            pthread_create(&th[i], NULL, add_many, &a[i]);
        }
        for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
    }
    if (c->set_total) CHECK_STATUS(mcpr_completion_set_total(out, c->total, NULL), MCPR_OK);
    if (c->has_more) CHECK_STATUS(mcpr_completion_set_has_more(out, true, NULL), MCPR_OK);
    if (c->cause) mcpr_call_set_cause(call, str_of(c->cause));
    return c->result;
}

static void release_completer(void *ud) {
    completer *c = ud;
    atomic_fetch_add(&c->releases, 1);
}

static mcpr_cb_result never_read(void *ud, const mcpr_call *call, const mcpr_target *t,
                                 mcpr_payload_builder *out) {
    (void)ud, (void)call, (void)t, (void)out;
    return MCPR_CB_FAILED;
}

/* A registry with TEMPLATE completed by `c`, an exact resource and a
 * template without a completer. `page_bytes` 0 = default. */
static mcpr_resources *registry(host_policy *hp, completer *c, int64_t page_bytes) {
    mcpr_builder *b = host_builder(hp);
    c->policy = hp;
    mcpr_binding_callbacks t = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = c,
        .resolve = mcpr_resolve_single,
        .read = never_read,
        .release = release_completer,
        .complete = do_complete,
    };
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uriTemplate\":\"" TEMPLATE "\",\"name\":\"t\"}"), &t, NULL), MCPR_OK);
    mcpr_binding_callbacks plain = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .resolve = mcpr_resolve_single,
        .read = never_read,
    };
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"file:///readme\",\"name\":\"r\"}"), &plain, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uriTemplate\":\"plain://x/{id}\",\"name\":\"p\"}"), &plain, NULL),
                 MCPR_OK);
    if (page_bytes) CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_MAX_PAGE_BYTES, page_bytes, NULL), MCPR_OK);
    return host_build(b);
}

static mcpr_complete_params params(const char *template_uri, const char *argument, const char *value) {
    mcpr_complete_params p = {str_of(template_uri), {str_of(argument), str_of(value)}, NULL, 0};
    return p;
}

/* Completes; returns the status; *json a malloc'd copy of the result (or
 * NULL); *err_out the error when asked (else freed). */
static mcpr_status complete(const mcpr_resources *r, const mcpr_complete_params *p,
                            const mcpr_read_options *opt, char **json, mcpr_error **err_out) {
    mcpr_completion *out = NULL;
    mcpr_error *e = NULL;
    mcpr_status s = mcpr_complete(r, p, opt, &out, &e);
    if (json) *json = NULL;
    if (s == MCPR_OK) {
        CHECK(out != NULL && e == NULL);
        mcpr_str j = mcpr_completion_json(out);
        if (json) {
            *json = malloc(j.len + 1);
            memcpy(*json, j.ptr, j.len);
            (*json)[j.len] = 0;
        }
        mcpr_completion_free(out);
    } else {
        CHECK(out == NULL && e != NULL);
        CHECK(mcpr_error_status(e) == s);
    }
    if (err_out) *err_out = e;
    else mcpr_error_free(e);
    return s;
}

static void test_ref_uri_must_be_a_registered_template_byte_exact(void) {
    host_policy hp = {0};
    completer c = {.values = {"alpha"}};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_complete_params ok = params(TEMPLATE, "project", "a");
    char *json = NULL;
    CHECK_STATUS(complete(r, &ok, NULL, &json, NULL), MCPR_OK);
    CHECK(json && strstr(json, "\"values\":[\"alpha\"]"));
    free(json);
    const char *bad[] = {"file:///projects/{project}/files/{name}", "FILE:///projects/{project}/files/{file}",
                         "file:///projects/x/files/y", "file:///readme", "", "x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        mcpr_complete_params p = params(bad[i], "project", "a");
        mcpr_error *e = NULL;
        CHECK_STATUS(complete(r, &p, NULL, NULL, &e), MCPR_UNAVAILABLE);
        CHECK(mcpr_error_jsonrpc_code(e) == -32602);
        mcpr_error_free(e);
    }
    /* Not UTF-8: it cannot be a registered template. */
    mcpr_complete_params p = {{"file:///\xff/{x}", 12}, {S("x"), S("")}, NULL, 0};
    CHECK_STATUS(complete(r, &p, NULL, NULL, NULL), MCPR_UNAVAILABLE);
    CHECK(atomic_load(&c.calls) == 1);
    mcpr_resources_free(r);
    CHECK(atomic_load(&c.releases) == 1);
}

static void test_undiscoverable_templates_answer_like_not_found(void) {
    host_policy hp = {.deny_discover = {TEMPLATE}};
    completer c = {.values = {"alpha"}};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_error *hidden = NULL, *unknown = NULL;
    mcpr_complete_params p = params(TEMPLATE, "project", "a");
    CHECK_STATUS(complete(r, &p, NULL, NULL, &hidden), MCPR_UNAVAILABLE);
    mcpr_complete_params u = params("file:///none/{x}", "x", "a");
    CHECK_STATUS(complete(r, &u, NULL, NULL, &unknown), MCPR_UNAVAILABLE);
    mcpr_str hm = mcpr_error_message(hidden), um = mcpr_error_message(unknown);
    CHECK(hm.len == um.len && memcmp(hm.ptr, um.ptr, hm.len) == 0);
    CHECK(mcpr_error_jsonrpc_code(hidden) == mcpr_error_jsonrpc_code(unknown));
    mcpr_error_free(hidden);
    mcpr_error_free(unknown);
    /* A wrong argument does not reveal the hidden template either. */
    mcpr_complete_params w = params(TEMPLATE, "nope", "a");
    CHECK_STATUS(complete(r, &w, NULL, NULL, NULL), MCPR_UNAVAILABLE);
    CHECK(atomic_load(&c.calls) == 0);
    mcpr_resources_free(r);
}

static void test_discovery_is_checked_before_the_callback(void) {
    host_policy hp = {0};
    completer c = {.values = {"alpha"}};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_complete_params p = params(TEMPLATE, "file", "");
    CHECK_STATUS(complete(r, &p, NULL, NULL, NULL), MCPR_OK);
    CHECK(atomic_load(&c.discover_calls_at_call) == 1);
    CHECK(c.definition_is_template);
    mcpr_resources_free(r);

    host_policy failing = {.fail_discover = true};
    completer c2 = {.values = {"alpha"}};
    r = registry(&failing, &c2, 0);
    CHECK_STATUS(complete(r, &p, NULL, NULL, NULL), MCPR_POLICY);
    CHECK(atomic_load(&c2.calls) == 0);
    mcpr_resources_free(r);
}

static void test_argument_name_must_be_a_template_variable(void) {
    host_policy hp = {0};
    completer c = {.values = {"alpha"}};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_complete_params p = params(TEMPLATE, "file", "al");
    CHECK_STATUS(complete(r, &p, NULL, NULL, NULL), MCPR_OK);
    CHECK(strcmp(c.argument, "file") == 0 && strcmp(c.value, "al") == 0);
    const char *bad[] = {"", "File", "files", "{file}", "uri"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        mcpr_complete_params q = params(TEMPLATE, bad[i], "");
        mcpr_error *e = NULL;
        CHECK_STATUS(complete(r, &q, NULL, NULL, &e), MCPR_INVALID_REQUEST);
        CHECK(mcpr_error_jsonrpc_code(e) == -32602);
        mcpr_error_free(e);
    }
    mcpr_complete_params q = {S(TEMPLATE), {{"fil\xff", 4}, S("")}, NULL, 0};
    CHECK_STATUS(complete(r, &q, NULL, NULL, NULL), MCPR_INVALID_REQUEST);
    q = (mcpr_complete_params){S(TEMPLATE), {S("file"), {"\xc3", 1}}, NULL, 0};
    CHECK_STATUS(complete(r, &q, NULL, NULL, NULL), MCPR_INVALID_REQUEST);
    CHECK(atomic_load(&c.calls) == 1);
    mcpr_resources_free(r);
}

/* Context values are held to the rules of completion values (BEHAVIOUR
 * §13.5): as the capture they become, never decoded. */
static void test_context_arguments_are_other_variables_held_to_the_value_rules(void) {
    host_policy hp = {0};
    completer c = {.values = {"alpha"}};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_complete_argument ctx[] = {
        {S("other"), S("../etc")}, {S("file"), S("..")}, {S("project"), S("alpha beta")}};
    mcpr_complete_params p = {S(TEMPLATE), {S("file"), S("")}, ctx, 3};
    CHECK_STATUS(complete(r, &p, NULL, NULL, NULL), MCPR_OK);
    CHECK(c.context_count == 1);
    CHECK(strcmp(c.context[0][0], "project") == 0 && strcmp(c.context[0][1], "alpha beta") == 0);
    const char *bad[] = {"..", ".", "a/b", "a%2Fb", "%5C", "%00", "%2E%2E", "%FF", "%", "%zz", "%41", "a?b", "a#b",
                         "a\nb", "\x1b[31m", "txt.\xe2\x80\xae" "exe", "zero\xe2\x80\x8bwidth"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        mcpr_complete_argument b[] = {{S("project"), str_of(bad[i])}};
        mcpr_complete_params q = {S(TEMPLATE), {S("file"), S("")}, b, 1};
        CHECK_STATUS(complete(r, &q, NULL, NULL, NULL), MCPR_INVALID_REQUEST);
    }
    mcpr_complete_argument nul[] = {{S("project"), {"a\0b", 3}}};
    mcpr_complete_params q = {S(TEMPLATE), {S("file"), S("")}, nul, 1};
    CHECK_STATUS(complete(r, &q, NULL, NULL, NULL), MCPR_INVALID_REQUEST);
    mcpr_complete_argument twice[] = {{S("project"), S("a")}, {S("project"), S("b")}};
    q = (mcpr_complete_params){S(TEMPLATE), {S("file"), S("")}, twice, 2};
    CHECK_STATUS(complete(r, &q, NULL, NULL, NULL), MCPR_INVALID_REQUEST);
    /* A NULL context with a length is a programming error. */
    q = (mcpr_complete_params){S(TEMPLATE), {S("file"), S("")}, NULL, 2};
    CHECK_STATUS(complete(r, &q, NULL, NULL, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(atomic_load(&c.calls) == 1);
    mcpr_resources_free(r);
}

/* Values no completion sends (BEHAVIOUR §13.5): not a capture as they
 * stand, holding %, ? or #, or a control, format (bidi override,
 * zero-width) or separator character; a quote and markup are sent (RFC 6570
 * expansion encodes them). */
static void test_values_that_are_no_valid_completion_value_are_dropped(void) {
    host_policy hp = {0};
    completer c = {.values = {"ok-1", "", "/", "a/b", "\\", ".", "..", "%2F", "%5c", "%00", "%2e%2E", "%FF", "%",
                              "%zz", "%41", "a?b", "a#b", "a\nb", "\x7f", "gpj.\xe2\x80\xae" "exe", "\xe2\x80\x8b",
                              "ok-2", "\"q\"", "<script>"}};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_complete_params p = params(TEMPLATE, "file", "");
    char *json = NULL;
    CHECK_STATUS(complete(r, &p, NULL, &json, NULL), MCPR_OK);
    CHECK(json && strcmp(json, "{\"completion\":{\"values\":[\"ok-1\",\"ok-2\",\"\\\"q\\\"\",\"<script>\"],"
                               "\"hasMore\":false},\"resultType\":\"complete\"}") == 0);
    CHECK(atomic_load(&c.dropped) == 20);
    free(json);
    mcpr_resources_free(r);
}

/* Bytes that are not UTF-8, and a NUL, added from inside a callback. */
static mcpr_cb_result raw_values(void *ud, const mcpr_call *call, const mcpr_completion_request *req,
                                 mcpr_completion_builder *out) {
    (void)ud, (void)call, (void)req;
    CHECK_STATUS(mcpr_completion_add_value(out, (mcpr_str){"a\xff", 2}, NULL), MCPR_INVALID_CONTENT);
    CHECK_STATUS(mcpr_completion_add_value(out, (mcpr_str){"a\0b", 3}, NULL), MCPR_INVALID_CONTENT);
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_completion_add_value(out, (mcpr_str){NULL, 3}, &e), MCPR_INVALID_ARGUMENT);
    mcpr_error_free(e);
    CHECK_STATUS(mcpr_completion_add_value(NULL, S("x"), NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_completion_set_total(NULL, 1, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_completion_set_has_more(NULL, true, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_completion_add_value(out, S("fine"), NULL), MCPR_OK);
    CHECK_STATUS(mcpr_completion_set_total(out, 3, NULL), MCPR_OK);
    return MCPR_CB_OK;
}

static void test_invalid_utf8_values_are_dropped_and_counted(void) {
    host_policy hp = {0};
    mcpr_builder *b = host_builder(&hp);
    mcpr_binding_callbacks t = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .resolve = mcpr_resolve_single,
        .read = never_read,
        .complete = raw_values,
    };
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uriTemplate\":\"raw://x/{id}\",\"name\":\"t\"}"), &t, NULL), MCPR_OK);
    mcpr_resources *r = host_build(b);
    mcpr_complete_params p = params("raw://x/{id}", "id", "");
    char *json = NULL;
    CHECK_STATUS(complete(r, &p, NULL, &json, NULL), MCPR_OK);
    /* Total 3 minus the two dropped values: exactly what is sent. */
    CHECK(json && strcmp(json, "{\"completion\":{\"values\":[\"fine\"],\"total\":1,\"hasMore\":false},"
                               "\"resultType\":\"complete\"}") == 0);
    free(json);
    mcpr_resources_free(r);
}

static void test_at_most_100_values_with_has_more_and_total_truthful(void) {
    host_policy hp = {0};
    completer c = {.repeat = 150};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_complete_params p = params(TEMPLATE, "file", "");
    mcpr_completion *out = NULL;
    CHECK_STATUS(mcpr_complete(r, &p, NULL, &out, NULL), MCPR_OK);
    CHECK(mcpr_completion_value_count(out) == 100);
    CHECK(mcpr_completion_has_more(out));
    mcpr_str j = mcpr_completion_json(out);
    CHECK(str_contains(j, "\"v99\"") && !str_contains(j, "\"v100\""));
    CHECK(!str_contains(j, "\"total\""));
    mcpr_completion_free(out);
    mcpr_resources_free(r);

    completer exact = {.repeat = 100};
    r = registry(&hp, &exact, 0);
    CHECK_STATUS(mcpr_complete(r, &p, NULL, &out, NULL), MCPR_OK);
    CHECK(mcpr_completion_value_count(out) == 100 && !mcpr_completion_has_more(out));
    mcpr_completion_free(out);
    mcpr_resources_free(r);

    completer totals = {.values = {"a", "b"}, .set_total = true, .total = 10};
    r = registry(&hp, &totals, 0);
    char *json = NULL;
    CHECK_STATUS(complete(r, &p, NULL, &json, NULL), MCPR_OK);
    CHECK(json && strstr(json, "\"total\":10,\"hasMore\":true"));
    free(json);
    mcpr_resources_free(r);

    completer more = {.values = {"a"}, .has_more = true};
    r = registry(&hp, &more, 0);
    CHECK_STATUS(complete(r, &p, NULL, &json, NULL), MCPR_OK);
    CHECK(json && strstr(json, "\"values\":[\"a\"],\"hasMore\":true"));
    free(json);
    mcpr_resources_free(r);

    completer huge = {.set_total = true, .total = UINT64_MAX};
    r = registry(&hp, &huge, 0);
    CHECK_STATUS(complete(r, &p, NULL, &json, NULL), MCPR_OK);
    CHECK(json && strstr(json, "\"total\":9007199254740991,\"hasMore\":true"));
    free(json);
    mcpr_resources_free(r);
}

static void test_values_are_bounded_by_max_page_bytes(void) {
    host_policy hp = {0};
    /* 256 bytes for values; "v0".."v9" cost 5 each, "v10".. 6 each. */
    completer c = {.repeat = 150};
    mcpr_resources *r = registry(&hp, &c, 512);
    mcpr_complete_params p = params(TEMPLATE, "file", "");
    mcpr_completion *out = NULL;
    CHECK_STATUS(mcpr_complete(r, &p, NULL, &out, NULL), MCPR_OK);
    /* 10 * 5 + 34 * 6 = 254 <= 256; a 45th value would need 260. */
    CHECK(mcpr_completion_value_count(out) == 44);
    CHECK(mcpr_completion_has_more(out));
    CHECK(mcpr_completion_json(out).len <= 512);
    mcpr_completion_free(out);
    mcpr_resources_free(r);
}

static void test_result_type_and_no_cache_fields(void) {
    host_policy hp = {0};
    completer c = {.values = {"a"}};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_complete_params p = params(TEMPLATE, "file", "");
    char *json = NULL;
    CHECK_STATUS(complete(r, &p, NULL, &json, NULL), MCPR_OK);
    CHECK(json && strstr(json, ",\"resultType\":\"complete\"}"));
    CHECK(json && !strstr(json, "ttlMs") && !strstr(json, "cacheScope") && !strstr(json, "_meta"));
    free(json);
    mcpr_resources_free(r);
}

static void test_template_without_callback_answers_empty_completion(void) {
    host_policy hp = {0};
    completer c = {.values = {"a"}};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_complete_params p = params("plain://x/{id}", "id", "q");
    char *json = NULL;
    CHECK_STATUS(complete(r, &p, NULL, &json, NULL), MCPR_OK);
    CHECK(json && strcmp(json, "{\"completion\":{\"values\":[],\"hasMore\":false},\"resultType\":\"complete\"}") == 0);
    free(json);
    mcpr_complete_params bad = params("plain://x/{id}", "nope", "q");
    CHECK_STATUS(complete(r, &bad, NULL, NULL, NULL), MCPR_INVALID_REQUEST);
    mcpr_resources_free(r);
}

static void test_callback_failures(void) {
    host_policy hp = {0};
    completer failed = {.values = {"a"}, .result = MCPR_CB_FAILED, .cause = "SECRET-CAUSE"};
    mcpr_resources *r = registry(&hp, &failed, 0);
    mcpr_complete_params p = params(TEMPLATE, "file", "");
    mcpr_error *e = NULL;
    CHECK_STATUS(complete(r, &p, NULL, NULL, &e), MCPR_READ_FAILED);
    CHECK(str_contains(mcpr_error_cause(e), "SECRET-CAUSE"));
    CHECK(!str_contains(mcpr_error_message(e), "SECRET"));
    CHECK(mcpr_error_jsonrpc_code(e) == -32603);
    mcpr_error_free(e);
    mcpr_resources_free(r);

    completer weird = {.result = 77};
    r = registry(&hp, &weird, 0);
    CHECK_STATUS(complete(r, &p, NULL, NULL, NULL), MCPR_READ_FAILED);
    mcpr_resources_free(r);

    completer unavailable = {.result = MCPR_CB_UNAVAILABLE};
    r = registry(&hp, &unavailable, 0);
    CHECK_STATUS(complete(r, &p, NULL, NULL, NULL), MCPR_UNAVAILABLE);
    mcpr_resources_free(r);
}

static void test_callback_runs_under_the_request_scope(void) {
    host_policy hp = {0};
    int marker = 7;
    completer c = {.values = {"a"}};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_complete_params p = params(TEMPLATE, "file", "");
    mcpr_read_options o = MCPR_READ_OPTIONS_INIT;
    o.request_data = &marker;
    CHECK_STATUS(complete(r, &p, &o, NULL, NULL), MCPR_OK);
    CHECK(c.request_data == &marker);
    mcpr_resources_free(r);

    /* A cooperative callback past the caller's deadline. */
    completer coop = {.values = {"late"}, .cooperate = true};
    r = registry(&hp, &coop, 0);
    o.timeout_ms = 50;
    unsigned long long start = now_ms();
    CHECK_STATUS(complete(r, &p, &o, NULL, NULL), MCPR_DEADLINE_EXCEEDED);
    CHECK(now_ms() - start < 10000ULL * slow());
    /* Cancelled: nothing runs, canceled. */
    mcpr_cancel *token = mcpr_cancel_new();
    mcpr_cancel_cancel(token);
    o.timeout_ms = 0;
    o.cancel = token;
    int before = atomic_load(&coop.calls);
    CHECK_STATUS(complete(r, &p, &o, NULL, NULL), MCPR_CANCELED);
    CHECK(atomic_load(&coop.calls) == before);
    mcpr_cancel_free(token);
    mcpr_resources_free(r);
}

static void test_executor_returns_by_the_deadline_whatever_the_callback_does(void) {
    host_policy hp = {0};
    atomic_int gate = 0;
    completer c = {.values = {"late"}, .gate = &gate};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    mcpr_complete_params p = params(TEMPLATE, "file", "");
    mcpr_read_options o = MCPR_READ_OPTIONS_INIT;
    o.timeout_ms = 100;
    o.executor = ex;
    unsigned long long start = now_ms();
    CHECK_STATUS(complete(r, &p, &o, NULL, NULL), MCPR_DEADLINE_EXCEEDED);
    CHECK(now_ms() - start < 10000ULL * slow());
    /* The abandoned callback keeps the table alive: no release yet. */
    mcpr_resources_free(r);
    CHECK(atomic_load(&c.releases) == 0);
    atomic_store(&gate, 1);
    for (int i = 0; i < 500 && atomic_load(&c.releases) == 0; i++) sleep_ms(10);
    CHECK(atomic_load(&c.releases) == 1);
    mcpr_executor_free(ex);
}

static void test_revisions_and_error_objects(void) {
    host_policy hp = {.deny_discover = {"plain://x/{id}"}};
    completer c = {.values = {"a"}};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_complete_params p = params(TEMPLATE, "file", "");
    mcpr_read_options o = MCPR_READ_OPTIONS_INIT;
    o.protocol_revision = S("2025-11-25");
    char *json = NULL;
    CHECK_STATUS(complete(r, &p, &o, &json, NULL), MCPR_OK);
    CHECK(json && strcmp(json, "{\"completion\":{\"values\":[\"a\"],\"hasMore\":false}}") == 0);
    free(json);
    o.protocol_revision = S("2026-07-28");
    CHECK_STATUS(complete(r, &p, &o, &json, NULL), MCPR_OK);
    CHECK(json && strstr(json, ",\"resultType\":\"complete\"}"));
    free(json);
    /* the older revisions: no resultType either */
    const char *older[] = {"2024-11-05", "2025-03-26"};
    for (int i = 0; i < 2; i++) {
        o.protocol_revision = str_of(older[i]);
        CHECK_STATUS(complete(r, &p, &o, &json, NULL), MCPR_OK);
        CHECK(json && strcmp(json, "{\"completion\":{\"values\":[\"a\"],\"hasMore\":false}}") == 0);
        free(json);
    }
    o.protocol_revision = S("2024-10-07");
    CHECK_STATUS(complete(r, &p, &o, NULL, NULL), MCPR_INVALID_ARGUMENT);

    /* Not found: one object for unknown and undiscoverable templates, with
     * the URI asked for; -32002 before 2026-07-28. */
    const char *templates[] = {"plain://x/{id}", "x://nothing/{id}"};
    const char *want_new[] = {
        "{\"code\":-32602,\"message\":\"Resource not found\",\"data\":{\"uri\":\"plain://x/{id}\"}}",
        "{\"code\":-32602,\"message\":\"Resource not found\",\"data\":{\"uri\":\"x://nothing/{id}\"}}"};
    for (int i = 0; i < 2; i++) {
        mcpr_complete_params q = params(templates[i], "id", "");
        mcpr_error *e = NULL;
        o.protocol_revision = S("");
        CHECK_STATUS(complete(r, &q, &o, NULL, &e), MCPR_UNAVAILABLE);
        CHECK(str_eq(mcpr_error_jsonrpc_json(e), want_new[i]));
        CHECK(mcpr_error_jsonrpc_code(e) == -32602);
        mcpr_error_free(e);
        o.protocol_revision = S("2025-06-18");
        CHECK_STATUS(complete(r, &q, &o, NULL, &e), MCPR_UNAVAILABLE);
        CHECK(mcpr_error_jsonrpc_code(e) == -32002);
        CHECK(str_contains(mcpr_error_jsonrpc_json(e), "\"code\":-32002"));
        mcpr_error_free(e);
    }
    mcpr_resources_free(r);
}

static void test_one_call_request_serves_completion(void) {
    host_policy hp = {0};
    completer c = {.values = {"alpha", "..", "beta"}};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_request_options o = MCPR_REQUEST_OPTIONS_INIT; /* no scope key needed */
    mcpr_response *resp = NULL;
    CHECK_STATUS(mcpr_request(r, S("completion/complete"),
                              S("{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"" TEMPLATE "\"},"
                                "\"argument\":{\"name\":\"file\",\"value\":\"a\"},"
                                "\"context\":{\"arguments\":{\"project\":\"p1\"}}}"),
                              &o, &resp, NULL),
                 MCPR_OK);
    CHECK(!mcpr_response_is_error(resp));
    CHECK(str_eq(mcpr_response_json(resp), "{\"completion\":{\"values\":[\"alpha\",\"beta\"],"
                                           "\"hasMore\":false},\"resultType\":\"complete\"}"));
    CHECK(c.context_count == 1 && strcmp(c.context[0][1], "p1") == 0);
    mcpr_response_free(resp);
    /* A wrong argument is an error response, not a status. */
    CHECK_STATUS(mcpr_request(r, S("completion/complete"),
                              S("{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"" TEMPLATE "\"},"
                                "\"argument\":{\"name\":\"nope\",\"value\":\"\"}}"),
                              &o, &resp, NULL),
                 MCPR_OK);
    CHECK(mcpr_response_is_error(resp));
    CHECK(mcpr_response_status(resp) == MCPR_INVALID_REQUEST);
    CHECK(str_contains(mcpr_response_json(resp), "\"code\":-32602"));
    mcpr_response_free(resp);
    /* Malformed params: an error response with a fixed message. */
    CHECK_STATUS(mcpr_request(r, S("completion/complete"), S("{\"ref\":7}"), &o, &resp, NULL), MCPR_OK);
    CHECK(mcpr_response_is_error(resp) && mcpr_response_status(resp) == MCPR_INVALID_REQUEST);
    mcpr_response_free(resp);
    /* ref/prompt is the host's: not handled, no response. */
    resp = NULL;
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_request(r, S("completion/complete"),
                              S("{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"p\"},"
                                "\"argument\":{\"name\":\"a\",\"value\":\"\"}}"),
                              &o, &resp, &e),
                 MCPR_METHOD_NOT_HANDLED);
    CHECK(resp == NULL);
    mcpr_error_free(e);
    mcpr_resources_free(r);
}

static void test_builder_is_locked_for_concurrent_setters(void) {
    host_policy hp = {0};
    completer c = {.threads = true};
    mcpr_resources *r = registry(&hp, &c, 0);
    mcpr_complete_params p = params(TEMPLATE, "file", "");
    mcpr_completion *out = NULL;
    CHECK_STATUS(mcpr_complete(r, &p, NULL, &out, NULL), MCPR_OK);
    CHECK(mcpr_completion_value_count(out) == 100);
    CHECK(mcpr_completion_has_more(out));
    CHECK(atomic_load(&c.dropped) == 0);
    mcpr_completion_free(out);
    mcpr_resources_free(r);
}

static void test_complete_on_an_exact_uri_is_refused_and_release_runs_once(void) {
    host_policy hp = {0};
    completer c = {0};
    mcpr_builder *b = host_builder(&hp);
    mcpr_binding_callbacks t = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = &c,
        .resolve = mcpr_resolve_single,
        .read = never_read,
        .release = release_completer,
        .complete = do_complete,
    };
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"file:///readme\",\"name\":\"r\"}"), &t, &e),
                 MCPR_INVALID_CONFIGURATION);
    mcpr_error_free(e);
    CHECK(atomic_load(&c.releases) == 0); /* failed add: never released */
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uriTemplate\":\"x://y/{z}\",\"name\":\"t\"}"), &t, NULL), MCPR_OK);
    mcpr_builder_free(b); /* unbuilt: released once */
    CHECK(atomic_load(&c.releases) == 1);
}

static void test_resources_completes_and_misuse(void) {
    host_policy hp = {0};
    completer c = {0};
    mcpr_resources *r = registry(&hp, &c, 0);
    CHECK(mcpr_resources_completes(r));
    CHECK(!mcpr_resources_completes(NULL));
    mcpr_builder *b = host_builder(&hp);
    mcpr_binding_callbacks plain = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .resolve = mcpr_resolve_single,
        .read = never_read,
    };
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uriTemplate\":\"plain://x/{id}\",\"name\":\"p\"}"), &plain, NULL),
                 MCPR_OK);
    mcpr_resources *none = host_build(b);
    CHECK(!mcpr_resources_completes(none));
    mcpr_resources_free(none);

    mcpr_complete_params p = params(TEMPLATE, "file", "");
    mcpr_completion *out = NULL;
    CHECK_STATUS(mcpr_complete(NULL, &p, NULL, &out, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_complete(r, NULL, NULL, &out, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_complete(r, &p, NULL, NULL, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_complete_params bad = {{NULL, 3}, {S("file"), S("")}, NULL, 0};
    CHECK_STATUS(mcpr_complete(r, &bad, NULL, &out, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(out == NULL);
    CHECK(mcpr_completion_json(NULL).len == 0);
    CHECK(mcpr_completion_value_count(NULL) == 0);
    CHECK(!mcpr_completion_has_more(NULL));
    mcpr_completion_free(NULL);
    CHECK(mcpr_completion_request_definition(NULL) == NULL);
    CHECK(mcpr_completion_request_argument(NULL).len == 0);
    CHECK(mcpr_completion_request_value(NULL).len == 0);
    CHECK(mcpr_completion_request_context_count(NULL) == 0);
    CHECK(mcpr_completion_request_context_name(NULL, 0).len == 0);
    CHECK(mcpr_completion_request_context_value(NULL, 0).len == 0);
    CHECK(atomic_load(&c.calls) == 0);
    mcpr_resources_free(r);
    CHECK(atomic_load(&c.releases) == 1);
}

int main(void) {
    test_ref_uri_must_be_a_registered_template_byte_exact();
    test_undiscoverable_templates_answer_like_not_found();
    test_discovery_is_checked_before_the_callback();
    test_argument_name_must_be_a_template_variable();
    test_context_arguments_are_other_variables_held_to_the_value_rules();
    test_values_that_are_no_valid_completion_value_are_dropped();
    test_invalid_utf8_values_are_dropped_and_counted();
    test_at_most_100_values_with_has_more_and_total_truthful();
    test_values_are_bounded_by_max_page_bytes();
    test_result_type_and_no_cache_fields();
    test_template_without_callback_answers_empty_completion();
    test_callback_failures();
    test_callback_runs_under_the_request_scope();
    test_executor_returns_by_the_deadline_whatever_the_callback_does();
    test_revisions_and_error_objects();
    test_one_call_request_serves_completion();
    test_builder_is_locked_for_concurrent_setters();
    test_complete_on_an_exact_uri_is_refused_and_release_runs_once();
    test_resources_completes_and_misuse();
    return harness_finish("test_complete");
}
