/* Host result _meta members (mcpr_result_meta_*) merged into every result,
 * never replacing the library's reserved key and never into error objects;
 * the request's trace context (mcpr_call_traceparent / _tracestate /
 * _baggage) seen by every callback of mcpr_request, and the options' trace
 * (a shared call field) by every callback of mcpr_read, mcpr_list and
 * mcpr_complete, with params _meta taking its place in mcpr_request;
 * options of an older struct_size read without result_meta or trace. */
#include <stddef.h>
#include <stdlib.h>

#include "harness.h"

#define SERVER_INFO "{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"c-host\",\"version\":\"1\"}}"

static void test_handle(void) {
    mcpr_result_meta *m = NULL;
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_result_meta_new(S(" {\"a\" : [1, 2]} "), &m, &e), MCPR_OK);
    CHECK(m && str_eq(mcpr_result_meta_members(m), "\"a\":[1,2]"));
    mcpr_result_meta_free(m);
    const char *bad[] = {
        "[]",
        "{\"a\":1,\"a\":2}",
        "{\"go.phpboyscout.uk/mcp.resourceRead\":{}}",
        "{\"x\":[{\"go.phpboyscout.uk/mcp.resourceRead\":1}]}",
        "{\"a\":1e999}",
        "{",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        m = NULL;
        e = NULL;
        CHECK_STATUS(mcpr_result_meta_new(str_of(bad[i]), &m, &e), MCPR_INVALID_CONFIGURATION);
        CHECK(m == NULL && e != NULL);
        mcpr_error_free(e);
    }
    /* programming errors; NULL handles read as nothing */
    CHECK_STATUS(mcpr_result_meta_new(S("{}"), NULL, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_str null_len = {NULL, 3};
    CHECK_STATUS(mcpr_result_meta_new(null_len, &m, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(mcpr_result_meta_members(NULL).len == 0);
    mcpr_result_meta_free(NULL);
}

/* ---------------------------------------------------------------- merged */

static char *request(const mcpr_resources *r, const char *method, const char *params,
                     const mcpr_request_options *o, bool *is_error) {
    mcpr_response *resp = NULL;
    CHECK_STATUS(mcpr_request(r, str_of(method), str_of(params), o, &resp, NULL), MCPR_OK);
    if (!resp) return NULL;
    mcpr_str j = mcpr_response_json(resp);
    char *out = malloc(j.len + 1);
    memcpy(out, j.ptr, j.len);
    out[j.len] = 0;
    *is_error = mcpr_response_is_error(resp);
    mcpr_response_free(resp);
    return out;
}

static void test_merged_into_every_result(void) {
    host_policy hp = {.deny_discover = {"doc://hidden"}};
    host_binding hb = {.items = {"item://ok/a", "item://fail/b"}};
    host_binding single = {.items = {"item://ok/one"}};
    mcpr_builder *b = host_builder(&hp);
    CHECK_STATUS(host_add(b, "{\"uri\":\"doc://a\",\"name\":\"a\"}", &single), MCPR_OK);
    CHECK_STATUS(host_add(b, "{\"uri\":\"doc://partial\",\"name\":\"p\"}", &hb), MCPR_OK);
    CHECK_STATUS(host_add(b, "{\"uri\":\"doc://hidden\",\"name\":\"h\"}", &single), MCPR_OK);
    CHECK_STATUS(host_add(b, "{\"uriTemplate\":\"doc://t/{id}\",\"name\":\"t\"}", &single), MCPR_OK);
    mcpr_resources *r = host_build(b);
    mcpr_result_meta *m = NULL;
    CHECK_STATUS(mcpr_result_meta_new(S(SERVER_INFO), &m, NULL), MCPR_OK);

    mcpr_request_options o = MCPR_REQUEST_OPTIONS_INIT;
    o.scope_key = S("tenant");
    o.result_meta = m;
    const char *calls[][2] = {
        {"resources/read", "{\"uri\":\"doc://a\"}"},
        {"resources/read", "{\"uri\":\"doc://partial\"}"},
        {"resources/list", "{}"},
        {"resources/templates/list", "{}"},
        {"completion/complete",
         "{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"doc://t/{id}\"},\"argument\":{\"name\":\"id\",\"value\":\"\"}}"},
    };
    const char *revisions[] = {"2024-11-05", "2025-06-18", "2026-07-28"};
    for (int v = 0; v < 3; v++) {
        o.protocol_revision = str_of(revisions[v]);
        for (int i = 0; i < 5; i++) {
            bool is_error = true;
            char *json = request(r, calls[i][0], calls[i][1], &o, &is_error);
            CHECK(json && !is_error);
            CHECK(json && strstr(json, "\"io.modelcontextprotocol/serverInfo\":{\"name\":\"c-host\",\"version\":\"1\"}"));
            if (i < 2) /* reads: the library's report first, the host's members after it */
                CHECK(json && strstr(json, "\"_meta\":{\"go.phpboyscout.uk/mcp.resourceRead\":{\"version\":1,"));
            else
                CHECK(json && strstr(json, ",\"_meta\":{\"io.modelcontextprotocol/serverInfo\""));
            free(json);
        }
        /* errors carry none, and hidden answers exactly like missing */
        bool is_error = false;
        char *missing = request(r, "resources/read", "{\"uri\":\"doc://x\"}", &o, &is_error);
        CHECK(is_error && missing && !strstr(missing, "serverInfo"));
        char *hidden = request(r, "resources/read", "{\"uri\":\"doc://hidden\"}", &o, &is_error);
        CHECK(is_error && hidden && !strstr(hidden, "serverInfo"));
        if (missing && hidden) {
            char *p = strstr(missing, "doc://x"), *q = strstr(hidden, "doc://hidden");
            CHECK(p && q && (p - missing) == (q - hidden) && strncmp(missing, hidden, (size_t)(p - missing)) == 0);
        }
        free(missing);
        free(hidden);
    }

    /* the direct calls: mcpr_read, mcpr_list, mcpr_complete */
    mcpr_read_options ro = MCPR_READ_OPTIONS_INIT;
    ro.result_meta = m;
    char *json = NULL;
    CHECK_STATUS(host_read(r, "doc://a", &ro, &json, NULL, NULL), MCPR_OK);
    CHECK(json && strstr(json, "serverInfo"));
    free(json);
    mcpr_list_options lo = MCPR_LIST_OPTIONS_INIT;
    lo.scope_key = S("tenant");
    lo.result_meta = m;
    mcpr_page *page = NULL;
    CHECK_STATUS(mcpr_list(r, &lo, &page, NULL), MCPR_OK);
    CHECK(page && str_contains(mcpr_page_json(page), "\"_meta\":{\"io.modelcontextprotocol/serverInfo\""));
    mcpr_page_free(page);
    /* the handle may go once the calls have begun: they hold their own reference */
    mcpr_result_meta_free(m);

    /* options compiled before result_meta existed: read as NULL, nothing merged */
    mcpr_request_options old = o;
    old.struct_size = offsetof(mcpr_request_options, result_meta);
    old.result_meta = NULL;
    bool is_error = true;
    json = request(r, "resources/list", "{}", &old, &is_error);
    CHECK(json && !is_error && !strstr(json, "_meta"));
    free(json);
    mcpr_resources_free(r);
}

/* ---------------------------------------------------------------- trace context */

typedef struct {
    char traceparent[128];
    char baggage[64];
    atomic_int calls;
    atomic_int mismatches;
} tracer;

static void copy_str(char *out, size_t cap, mcpr_str s) {
    size_t n = s.len < cap - 1 ? s.len : cap - 1;
    if (n) memcpy(out, s.ptr, n);
    out[n] = 0;
}

static void note(tracer *t, const mcpr_call *call) {
    char tp[128], bg[64];
    copy_str(tp, sizeof tp, mcpr_call_traceparent(call));
    copy_str(bg, sizeof bg, mcpr_call_baggage(call));
    atomic_fetch_add(&t->calls, 1);
    if (strcmp(tp, t->traceparent) != 0 || strcmp(bg, t->baggage) != 0 || mcpr_call_tracestate(call).len != 0)
        atomic_fetch_add(&t->mismatches, 1);
}

static mcpr_cb_result t_discover(void *ud, const mcpr_call *call, const mcpr_definition *d) {
    (void)d;
    note(ud, call);
    return MCPR_CB_OK;
}

static mcpr_cb_result t_visibility(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_visibility *out) {
    (void)t;
    note(ud, call);
    out->visible = true;
    return MCPR_CB_OK;
}

static mcpr_cb_result t_permit(void *ud, const mcpr_call *call, const mcpr_target *t) {
    (void)t;
    note(ud, call);
    return MCPR_CB_OK;
}

static mcpr_cb_result t_read(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)t;
    note(ud, call);
    return mcpr_payload_set_text(out, S("text/plain"), S("x"), NULL) == MCPR_OK ? MCPR_CB_OK : MCPR_CB_FAILED;
}

static mcpr_cb_result t_complete(void *ud, const mcpr_call *call, const mcpr_completion_request *req,
                                 mcpr_completion_builder *out) {
    (void)req;
    (void)out;
    note(ud, call);
    return MCPR_CB_OK;
}

#define TRACEPARENT "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01"

static void test_trace_context(void) {
    tracer t = {.traceparent = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01", .baggage = "k=v"};
    mcpr_policy_callbacks policy = MCPR_POLICY_CALLBACKS_INIT;
    policy.user_data = &t;
    policy.discover = t_discover;
    policy.visibility = t_visibility;
    policy.read = t_permit;
    mcpr_binding_callbacks binding = MCPR_BINDING_CALLBACKS_INIT;
    binding.user_data = &t;
    binding.resolve = mcpr_resolve_single;
    binding.read = t_read;
    mcpr_builder *b = mcpr_builder_new();
    CHECK_STATUS(mcpr_builder_set_policy(b, &policy, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"doc://a\",\"name\":\"a\"}"), &binding, NULL), MCPR_OK);
    mcpr_resources *r = NULL;
    CHECK_STATUS(mcpr_builder_build(b, &r, NULL), MCPR_OK);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    for (int pass = 0; pass < 2; pass++) {
        mcpr_request_options o = MCPR_REQUEST_OPTIONS_INIT;
        o.scope_key = S("tenant");
        o.executor = pass ? ex : NULL;
        bool is_error = true;
        char *json = request(r, "resources/read",
                             "{\"uri\":\"doc://a\",\"_meta\":{\"traceparent\":"
                             "\"00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01\",\"baggage\":\"k=v\",\"tracestate\":7}}",
                             &o, &is_error);
        CHECK(json && !is_error);
        free(json);
        json = request(r, "resources/list", "{\"_meta\":{\"traceparent\":"
                                            "\"00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01\",\"baggage\":\"k=v\"}}",
                       &o, &is_error);
        CHECK(json && !is_error);
        free(json);
    }
    /* discover, visibility twice, permission twice, resolve, read (read) + discover (list), twice */
    CHECK(atomic_load(&t.calls) >= 14);
    CHECK(atomic_load(&t.mismatches) == 0);
    /* without trace members callbacks see empty strings */
    t.traceparent[0] = 0;
    t.baggage[0] = 0;
    mcpr_request_options o = MCPR_REQUEST_OPTIONS_INIT;
    bool is_error = true;
    char *json = request(r, "resources/read", "{\"uri\":\"doc://a\"}", &o, &is_error);
    CHECK(json && !is_error);
    free(json);
    CHECK(atomic_load(&t.mismatches) == 0);
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
}

/* The trace context is a shared call field: the direct calls take it from
 * their options, and mcpr_request uses it unless the params carry one. */
static mcpr_resources *traced_registry(tracer *t) {
    mcpr_policy_callbacks policy = MCPR_POLICY_CALLBACKS_INIT;
    policy.user_data = t;
    policy.discover = t_discover;
    policy.visibility = t_visibility;
    policy.read = t_permit;
    mcpr_binding_callbacks binding = MCPR_BINDING_CALLBACKS_INIT;
    binding.user_data = t;
    binding.resolve = mcpr_resolve_single;
    binding.read = t_read;
    mcpr_builder *b = mcpr_builder_new();
    CHECK_STATUS(mcpr_builder_set_policy(b, &policy, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"doc://a\",\"name\":\"a\"}"), &binding, NULL), MCPR_OK);
    binding.complete = t_complete; /* a template's table only */
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uriTemplate\":\"doc://t/{id}\",\"name\":\"t\"}"), &binding, NULL),
                 MCPR_OK);
    mcpr_resources *r = NULL;
    CHECK_STATUS(mcpr_builder_build(b, &r, NULL), MCPR_OK);
    return r;
}

static void test_trace_context_of_the_options(void) {
    tracer t = {.traceparent = TRACEPARENT, .baggage = "k=v"};
    mcpr_resources *r = traced_registry(&t);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    const mcpr_trace_context host_trace = {.traceparent = S(TRACEPARENT), .baggage = S("k=v")};
    mcpr_complete_params cp = {.template_uri = S("doc://t/{id}"), .argument = {.name = S("id"), .value = S("")}};
    for (int pass = 0; pass < 2; pass++) {
        mcpr_read_options ro = MCPR_READ_OPTIONS_INIT;
        ro.executor = pass ? ex : NULL;
        ro.trace = host_trace;
        char *json = NULL;
        CHECK_STATUS(host_read(r, "doc://a", &ro, &json, NULL, NULL), MCPR_OK);
        free(json);
        mcpr_completion *c = NULL;
        CHECK_STATUS(mcpr_complete(r, &cp, &ro, &c, NULL), MCPR_OK);
        mcpr_completion_free(c);
        mcpr_list_options lo = MCPR_LIST_OPTIONS_INIT;
        lo.scope_key = S("tenant");
        lo.executor = ro.executor;
        lo.trace = host_trace;
        mcpr_page *page = NULL;
        CHECK_STATUS(mcpr_list(r, &lo, &page, NULL), MCPR_OK);
        mcpr_page_free(page);
        /* mcpr_request: the host's trace when the params carry none */
        mcpr_request_options o = MCPR_REQUEST_OPTIONS_INIT;
        o.scope_key = S("tenant");
        o.executor = ro.executor;
        o.trace = host_trace;
        bool is_error = true;
        json = request(r, "resources/read", "{\"uri\":\"doc://a\",\"_meta\":{\"traceparent\":1}}", &o, &is_error);
        CHECK(json && !is_error);
        free(json);
    }
    /* read, resolve, visibility, permission, body read, recheck; completion; list; request */
    CHECK(atomic_load(&t.calls) >= 2 * 9);
    CHECK(atomic_load(&t.mismatches) == 0);

    /* the params' trace context takes the place of the options' as a whole */
    strcpy(t.traceparent, "");
    strcpy(t.baggage, "p=1");
    mcpr_request_options o = MCPR_REQUEST_OPTIONS_INIT;
    o.trace = host_trace;
    bool is_error = true;
    char *json = request(r, "completion/complete",
                         "{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"doc://t/{id}\"},"
                         "\"argument\":{\"name\":\"id\",\"value\":\"\"},\"_meta\":{\"baggage\":\"p=1\"}}",
                         &o, &is_error);
    CHECK(json && !is_error);
    free(json);
    CHECK(atomic_load(&t.mismatches) == 0);

    /* options compiled before trace existed: the bytes after them are not read */
    strcpy(t.baggage, "");
    struct {
        mcpr_read_options o;
        char after[64];
    } older;
    memset(&older, 0, sizeof older);
    older.o.struct_size = offsetof(mcpr_read_options, trace);
    older.o.trace = host_trace; /* beyond struct_size: never read */
    json = NULL;
    CHECK_STATUS(host_read(r, "doc://a", &older.o, &json, NULL, NULL), MCPR_OK);
    free(json);
    CHECK(atomic_load(&t.mismatches) == 0);

    /* host mistakes: a member that is not UTF-8, or (NULL, n > 0) */
    mcpr_read_options bad = MCPR_READ_OPTIONS_INIT;
    bad.trace.tracestate = (mcpr_str){"\xff", 1};
    mcpr_error *e = NULL;
    int calls = atomic_load(&t.calls);
    CHECK_STATUS(host_read(r, "doc://a", &bad, &json, NULL, &e), MCPR_INVALID_ARGUMENT);
    CHECK(e && str_contains(mcpr_error_message(e), "trace tracestate is not valid UTF-8"));
    mcpr_error_free(e);
    bad.trace.tracestate = (mcpr_str){NULL, 3};
    CHECK_STATUS(host_read(r, "doc://a", &bad, &json, NULL, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_list_options lo = MCPR_LIST_OPTIONS_INIT;
    lo.scope_key = S("tenant");
    lo.trace.baggage = (mcpr_str){"\xc3", 1};
    mcpr_page *page = NULL;
    CHECK_STATUS(mcpr_list(r, &lo, &page, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(page == NULL);
    o.trace.traceparent = (mcpr_str){"\xff", 1};
    mcpr_response *resp = NULL;
    CHECK_STATUS(mcpr_request(r, S("resources/read"), S("{\"uri\":\"doc://a\"}"), &o, &resp, NULL),
                 MCPR_INVALID_ARGUMENT);
    CHECK(resp == NULL);
    CHECK(atomic_load(&t.calls) == calls); /* refused before any callback */
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
}

static void test_null_call_contexts(void) {
    /* NULL call contexts answer empty */
    CHECK(mcpr_call_traceparent(NULL).len == 0 && mcpr_call_tracestate(NULL).len == 0 &&
          mcpr_call_baggage(NULL).len == 0);
}

int main(void) {
    test_handle();
    test_merged_into_every_result();
    test_trace_context();
    test_trace_context_of_the_options();
    test_null_call_contexts();
    return harness_finish("test_result_meta");
}
