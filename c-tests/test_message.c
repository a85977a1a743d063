/* One call per message (mcpr_message and the reply handle): the whole
 * JSON-RPC message in, the whole response message out, the id byte for
 * byte; malformed and invalid messages; methods handed to the host;
 * notifications, responses, blank lines; cancellation; NULL and bad
 * arguments; and the hidden/unregistered equality (BEHAVIOUR §17). */
#include <stdlib.h>

#include "harness.h"

static const char *DEFS[] = {
    "{\"uri\":\"item://ok/a\",\"name\":\"a\"}",
    "{\"uri\":\"item://ok/hidden\",\"name\":\"hidden\"}",
    "{\"uri\":\"item://ok/b\",\"name\":\"b\"}",
};

static mcpr_resources *registry(host_policy *hp, host_binding *hb) {
    hp->deny_discover[0] = "item://ok/hidden";
    mcpr_builder *b = host_builder(hp);
    for (size_t i = 0; i < sizeof DEFS / sizeof DEFS[0]; i++) CHECK_STATUS(host_add(b, DEFS[i], hb), MCPR_OK);
    return host_build(b);
}

static mcpr_request_options options(void) {
    mcpr_request_options o = MCPR_REQUEST_OPTIONS_INIT;
    o.protocol_revision = S("2025-11-25");
    o.scope_key = S("tenant");
    o.page_size = 1;
    return o;
}

/* Serves one message that must make a reply; the caller frees it. */
static mcpr_reply *serve(const mcpr_resources *r, mcpr_str text, const mcpr_request_options *o) {
    mcpr_reply *reply = NULL;
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_message(r, text, o, &reply, &e), MCPR_OK);
    CHECK(reply != NULL && e == NULL);
    mcpr_error_free(e);
    return reply;
}

static void test_a_read_is_answered_with_its_id_byte_exact(void) {
    host_policy hp = {0};
    host_binding hb = {0};
    mcpr_resources *r = registry(&hp, &hb);
    mcpr_request_options o = options();
    const char *ids[] = {"1", "-7", "123456789012345678901234567890", "\"a\\u0062\"", "\"\"", "\"\xc3\xa9\""};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        char text[256], want[256];
        snprintf(text, sizeof text,
                 "{\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"resources/read\",\"params\":{\"uri\":\"item://ok/a\"}}\n",
                 ids[i]);
        snprintf(want, sizeof want, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"contents\":[{\"uri\":\"item://ok/a\"", ids[i]);
        mcpr_reply *reply = serve(r, str_of(text), &o);
        mcpr_str json = mcpr_reply_json(reply);
        CHECK(json.len > strlen(want) && memcmp(json.ptr, want, strlen(want)) == 0);
        CHECK(str_contains(json, "\"text\":\"body of item://ok/a\""));
        CHECK(json.ptr[json.len - 1] == '}');
        CHECK(mcpr_reply_handled(reply) && !mcpr_reply_is_error(reply) && !mcpr_reply_is_partial(reply));
        CHECK(mcpr_reply_kind(reply) == MCPR_MESSAGE_REQUEST);
        CHECK(str_eq(mcpr_reply_id(reply), ids[i]) && str_eq(mcpr_reply_method(reply), "resources/read"));
        CHECK(mcpr_reply_params(reply).len == 0);
        CHECK_STATUS(mcpr_reply_status(reply), MCPR_OK);
        CHECK(mcpr_reply_cause(reply).len == 0);
        mcpr_reply_free(reply);
    }
    mcpr_resources_free(r);
}

/* The same bytes as mcpr_request's object, inside the envelope. */
static void test_errors_are_the_one_call_requests_objects(void) {
    host_policy hp = {0};
    host_binding hb = {0};
    mcpr_resources *r = registry(&hp, &hb);
    mcpr_request_options o = options();
    mcpr_reply *reply = serve(r, S("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":5}}"), &o);
    CHECK(str_eq(mcpr_reply_json(reply), "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32602,\"message\":"
                                         "\"params uri must be a string\"}}"));
    CHECK(mcpr_reply_is_error(reply) && mcpr_reply_handled(reply));
    CHECK_STATUS(mcpr_reply_status(reply), MCPR_INVALID_REQUEST);
    mcpr_reply_free(reply);
    /* Invalid UTF-8 inside params: the params parser's answer, with the id. */
    reply = serve(r, S("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":\"\xff\"}}"), &o);
    CHECK(str_eq(mcpr_reply_json(reply), "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":"
                                         "\"params are not valid JSON\"}}"));
    mcpr_reply_free(reply);
    /* Hidden and unregistered: the same bytes but for the URI sent. */
    reply = serve(r, S("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\",\"params\":{\"uri\":\"item://ok/hidden\"}}"), &o);
    CHECK(str_eq(mcpr_reply_json(reply), "{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-32002,\"message\":"
                                         "\"Resource not found\",\"data\":{\"uri\":\"item://ok/hidden\"}}}"));
    CHECK(!str_contains(mcpr_reply_cause(reply), "xyz") && mcpr_reply_cause(reply).len > 0);
    CHECK_STATUS(mcpr_reply_status(reply), MCPR_UNAVAILABLE);
    mcpr_reply_free(reply);
    reply = serve(r, S("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\",\"params\":{\"uri\":\"item://ok/absent\"}}"), &o);
    CHECK(str_eq(mcpr_reply_json(reply), "{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-32002,\"message\":"
                                         "\"Resource not found\",\"data\":{\"uri\":\"item://ok/absent\"}}}"));
    mcpr_reply_free(reply);
    /* A list, paginated: page size 1. */
    reply = serve(r, S("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/list\"}"), &o);
    CHECK(str_contains(mcpr_reply_json(reply), "\"nextCursor\":\""));
    CHECK(str_contains(mcpr_reply_json(reply), "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"resources\":[{\"uri\":\"item://ok/a\""));
    mcpr_reply_free(reply);
    mcpr_resources_free(r);
}

static void test_malformed_and_invalid_messages(void) {
    host_policy hp = {0};
    host_binding hb = {0};
    mcpr_resources *r = registry(&hp, &hb);
    mcpr_request_options o = options();
    const char *parse_error = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}";
    const char *invalid_null = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}";
    struct {
        mcpr_str text;
        const char *want;
    } cases[] = {
        {S("garbage"), parse_error},
        {{"\0", 1}, parse_error},
        {S("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\""), parse_error},
        {S("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]"), invalid_null},
        {S("42"), invalid_null},
        {S("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}"), invalid_null},
        {S("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}"), invalid_null},
        {S("{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}"), invalid_null},
        {S("{\"id\":7,\"method\":\"ping\"}"),
         "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}"},
        {S("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":5}"),
         "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        mcpr_reply *reply = serve(r, cases[i].text, &o);
        CHECK(str_eq(mcpr_reply_json(reply), cases[i].want));
        CHECK(mcpr_reply_kind(reply) == MCPR_MESSAGE_INVALID && mcpr_reply_handled(reply));
        CHECK(mcpr_reply_is_error(reply));
        CHECK_STATUS(mcpr_reply_status(reply), MCPR_INVALID_REQUEST);
        mcpr_reply_free(reply);
    }
    /* 10,001 levels of nesting: a parse error, without recursion. */
    size_t n = 10001;
    char *deep = malloc(2 * n);
    memset(deep, '[', n);
    memset(deep + n, ']', n);
    mcpr_reply *reply = serve(r, (mcpr_str){deep, 2 * n}, &o);
    CHECK(str_eq(mcpr_reply_json(reply), parse_error));
    mcpr_reply_free(reply);
    free(deep);
    CHECK(atomic_load(&hb.body_reads) == 0);
    mcpr_resources_free(r);
}

static void test_unhandled_messages_go_to_the_host(void) {
    host_policy hp = {0};
    host_binding hb = {0};
    mcpr_resources *r = registry(&hp, &hb);
    mcpr_request_options o = options();
    mcpr_reply *reply = serve(r, S("{\"jsonrpc\":\"2.0\",\"id\":\"i-1\",\"method\":\"initialize\",\"params\":"
                                   "{\"protocolVersion\":\"2025-11-25\"}}\r\n"),
                              &o);
    CHECK(!mcpr_reply_handled(reply) && mcpr_reply_kind(reply) == MCPR_MESSAGE_REQUEST);
    CHECK(mcpr_reply_json(reply).len == 0);
    CHECK(str_eq(mcpr_reply_method(reply), "initialize") && str_eq(mcpr_reply_id(reply), "\"i-1\""));
    CHECK(str_eq(mcpr_reply_params(reply), "{\"protocolVersion\":\"2025-11-25\"}"));
    CHECK_STATUS(mcpr_reply_status(reply), MCPR_OK);
    mcpr_reply_free(reply);
    /* A notification the host routes, one the library ignores, a response. */
    reply = serve(r, S("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":3}}"), &o);
    CHECK(!mcpr_reply_handled(reply) && mcpr_reply_kind(reply) == MCPR_MESSAGE_NOTIFICATION);
    CHECK(mcpr_reply_json(reply).len == 0 && mcpr_reply_id(reply).len == 0);
    CHECK(str_eq(mcpr_reply_params(reply), "{\"requestId\":3}"));
    mcpr_reply_free(reply);
    reply = serve(r, S("{\"jsonrpc\":\"2.0\",\"method\":\"resources/read\",\"params\":{\"uri\":\"item://ok/a\"}}"), &o);
    CHECK(mcpr_reply_handled(reply) && mcpr_reply_kind(reply) == MCPR_MESSAGE_NOTIFICATION);
    CHECK(mcpr_reply_json(reply).len == 0);
    mcpr_reply_free(reply);
    CHECK(atomic_load(&hb.body_reads) == 0);
    reply = serve(r, S("{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}"), &o);
    CHECK(!mcpr_reply_handled(reply) && mcpr_reply_kind(reply) == MCPR_MESSAGE_RESPONSE);
    CHECK(str_eq(mcpr_reply_id(reply), "9") && mcpr_reply_method(reply).len == 0);
    mcpr_reply_free(reply);
    reply = serve(r, S(" \n"), &o);
    CHECK(mcpr_reply_handled(reply) && mcpr_reply_kind(reply) == MCPR_MESSAGE_NONE && mcpr_reply_json(reply).len == 0);
    mcpr_reply_free(reply);
    mcpr_resources_free(r);
}

static void test_a_cancelled_request_gets_no_response(void) {
    host_policy hp = {0};
    host_binding hb = {0};
    mcpr_resources *r = registry(&hp, &hb);
    mcpr_request_options o = options();
    mcpr_cancel *c = mcpr_cancel_new();
    mcpr_cancel_cancel(c);
    o.cancel = c;
    mcpr_reply *reply = serve(r, S("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"item://ok/a\"}}"), &o);
    CHECK(mcpr_reply_handled(reply) && mcpr_reply_json(reply).len == 0 && !mcpr_reply_is_error(reply));
    CHECK_STATUS(mcpr_reply_status(reply), MCPR_CANCELED);
    mcpr_reply_free(reply);
    mcpr_cancel_free(c);
    mcpr_resources_free(r);
}

static void test_misuse(void) {
    host_policy hp = {0};
    host_binding hb = {0};
    mcpr_resources *r = registry(&hp, &hb);
    mcpr_request_options o = options();
    mcpr_reply *reply = NULL;
    mcpr_error *e = NULL;
    mcpr_str msg = S("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/list\"}");
    CHECK_STATUS(mcpr_message(NULL, msg, &o, &reply, &e), MCPR_INVALID_ARGUMENT);
    CHECK(reply == NULL && e != NULL);
    mcpr_error_free(e);
    CHECK_STATUS(mcpr_message(r, msg, &o, NULL, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_message(r, (mcpr_str){NULL, 3}, &o, &reply, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(reply == NULL);
    /* A list without a scope key is the host's bug, not the client's. */
    CHECK_STATUS(mcpr_message(r, msg, NULL, &reply, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_request_options bad = o;
    bad.struct_size = 1;
    CHECK_STATUS(mcpr_message(r, msg, &bad, &reply, NULL), MCPR_INVALID_ARGUMENT);
    bad = o;
    bad.protocol_revision = S("1999-01-01");
    CHECK_STATUS(mcpr_message(r, msg, &bad, &reply, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(reply == NULL);
    /* (NULL, 0) is the empty message: a blank one. */
    CHECK_STATUS(mcpr_message(r, (mcpr_str){NULL, 0}, &o, &reply, NULL), MCPR_OK);
    CHECK(mcpr_reply_kind(reply) == MCPR_MESSAGE_NONE);
    mcpr_reply_free(reply);
    /* NULL replies. */
    CHECK(mcpr_reply_json(NULL).len == 0 && mcpr_reply_json(NULL).ptr != NULL);
    CHECK(!mcpr_reply_handled(NULL) && mcpr_reply_kind(NULL) == MCPR_MESSAGE_NONE);
    CHECK(mcpr_reply_method(NULL).len == 0 && mcpr_reply_id(NULL).len == 0 && mcpr_reply_params(NULL).len == 0);
    CHECK_STATUS(mcpr_reply_status(NULL), MCPR_INVALID_ARGUMENT);
    CHECK(!mcpr_reply_is_error(NULL) && !mcpr_reply_is_partial(NULL) && mcpr_reply_cause(NULL).len == 0);
    mcpr_reply_free(NULL);
    mcpr_resources_free(r);
}

int main(void) {
    test_a_read_is_answered_with_its_id_byte_exact();
    test_errors_are_the_one_call_requests_objects();
    test_malformed_and_invalid_messages();
    test_unhandled_messages_go_to_the_host();
    test_a_cancelled_request_gets_no_response();
    test_misuse();
    return harness_finish("test_message");
}
