/* Input-required reads from C (BEHAVIOUR §18): a policy read callback and a
 * body read ask for input (mcpr_input_add_request, mcpr_input_set_state,
 * MCPR_CB_INPUT_REQUIRED); the InputRequiredResult with its sealed
 * requestState and no cache hints; the retry through mcpr_read_options and
 * through mcpr_request, whose callbacks read the client's responses and
 * their own state; tampered, expired and cross-scope states refused the
 * same way for every URI; older revisions and missing client capabilities
 * (MCPR_INPUT_REQUIRED, mcpr_error_input_requests, the host's chosen
 * error); hidden and unregistered never ask; every pointer checked. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"

static uint64_t clock_ms = 1800000000000ull;
static uint64_t test_clock(void *user_data) {
    (void)user_data;
    return clock_ms;
}

#define CONSENT_REQUEST                                                                          \
    "{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":\"Read it?\"," \
    "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"confirm\":{\"type\":\"boolean\"}}," \
    "\"required\":[\"confirm\"]}}}"
#define ROOTS_REQUEST "{\"method\":\"roots/list\"}"
#define CAPS "{\"elicitation\":{},\"sampling\":{},\"roots\":{}}"
#define ACCEPT "{\"consent\":{\"action\":\"accept\",\"content\":{\"confirm\":true}}}"
#define DECLINE "{\"consent\":{\"action\":\"decline\"}}"
#define ROOTS "{\"roots\":{\"roots\":[{\"uri\":\"file:///srv/projects/a\",\"name\":\"a\"}]}}"

/* What the callbacks saw and how they misbehave. */
typedef struct {
    atomic_int retries_seen;   /* callbacks that saw mcpr_input_is_retry */
    atomic_int accepted;       /* policy reads that saw ACCEPT with confirm true */
    atomic_int state_ok;       /* policy reads that got their own state back */
    atomic_int roots_seen;     /* body reads that saw the roots response */
    int misuse;                /* 1: bad key, 2: bad request, 3: oversized state, 4: a key twice */
} seen;

static bool is(const mcpr_target *t, const char *uri) { return str_eq(mcpr_target_uri(t), uri); }

static mcpr_cb_result discover(void *ud, const mcpr_call *call, const mcpr_definition *d) {
    (void)ud, (void)call, (void)d;
    return MCPR_CB_OK;
}

static mcpr_cb_result visibility(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_visibility *v) {
    (void)ud, (void)call;
    v->visible = !is(t, "doc://hidden");
    v->disclose_issue_uri = false;
    return MCPR_CB_OK;
}

/* doc://consent and doc://hidden need consent first (the hidden one is never
 * asked: its visibility fails first). */
static mcpr_cb_result permission(void *ud, const mcpr_call *call, const mcpr_target *t) {
    seen *s = ud;
    if (!is(t, "doc://consent") && !is(t, "doc://hidden")) return MCPR_CB_OK;
    if (mcpr_call_phase(call) != MCPR_PHASE_FIRST_CHECK) return MCPR_CB_OK;
    if (mcpr_input_is_retry(call)) {
        s->retries_seen++;
        mcpr_str own = mcpr_input_state(call);
        if (own.len == 9 && memcmp(own.ptr, "own\0state", 9) == 0) s->state_ok++;
        if (mcpr_input_response_action(call, S("consent")) == MCPR_INPUT_ACCEPT &&
            str_eq(mcpr_input_response_content(call, S("consent"), S("confirm")), "true")) {
            s->accepted++;
            return MCPR_CB_OK;
        }
        if (mcpr_input_response_action(call, S("consent")) == MCPR_INPUT_DECLINE) return MCPR_CB_UNAVAILABLE;
    }
    mcpr_error *e = NULL;
    switch (s->misuse) {
    case 1:
        CHECK_STATUS(mcpr_input_add_request(call, S("bad key!"), S(CONSENT_REQUEST), &e), MCPR_INVALID_CONTENT);
        break;
    case 2:
        CHECK_STATUS(mcpr_input_add_request(call, S("consent"), S("{\"method\":\"tools/call\"}"), &e),
                     MCPR_INVALID_CONTENT);
        break;
    case 3: {
        static uint8_t big[1025];
        CHECK_STATUS(mcpr_input_set_state(call, big, sizeof big, &e), MCPR_INVALID_CONTENT);
        break;
    }
    case 4: /* a key used twice */
        CHECK_STATUS(mcpr_input_add_request(call, S("consent"), S(CONSENT_REQUEST), NULL), MCPR_OK);
        CHECK_STATUS(mcpr_input_add_request(call, S("consent"), S(ROOTS_REQUEST), &e), MCPR_INVALID_CONTENT);
        break;
    default:
        CHECK_STATUS(mcpr_input_add_request(call, S("consent"), S(CONSENT_REQUEST), &e), MCPR_OK);
        CHECK_STATUS(mcpr_input_set_state(call, (const uint8_t *)"own\0state", 9, &e), MCPR_OK);
    }
    if (e) {
        CHECK(mcpr_error_message(e).len > 0);
        mcpr_error_free(e);
    }
    return MCPR_CB_INPUT_REQUIRED;
}

/* doc://roots asks for the client's roots from its body read. */
static mcpr_cb_result body(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *p) {
    seen *s = ud;
    if (is(t, "doc://roots")) {
        mcpr_str roots = mcpr_input_response(call, S("roots"));
        if (roots.len == 0) {
            CHECK_STATUS(mcpr_input_add_request(call, S("roots"), S(ROOTS_REQUEST), NULL), MCPR_OK);
            return MCPR_CB_INPUT_REQUIRED;
        }
        if (str_contains(roots, "file:///srv/projects/a")) s->roots_seen++;
        CHECK(mcpr_input_response_action(call, S("roots")) == MCPR_INPUT_NO_ACTION);
    }
    if (mcpr_input_is_retry(call)) s->retries_seen++;
    return mcpr_payload_set_text(p, S("text/plain"), S("the body"), NULL) == MCPR_OK ? MCPR_CB_OK : MCPR_CB_FAILED;
}

static mcpr_resources *registry(seen *s, int32_t code, const char *message) {
    mcpr_builder *b = mcpr_builder_new();
    mcpr_policy_callbacks pc = MCPR_POLICY_CALLBACKS_INIT;
    pc.user_data = s;
    pc.discover = discover;
    pc.visibility = visibility;
    pc.read = permission;
    CHECK_STATUS(mcpr_builder_set_policy(b, &pc, NULL), MCPR_OK);
    mcpr_binding_callbacks bc = MCPR_BINDING_CALLBACKS_INIT;
    bc.user_data = s;
    bc.resolve = mcpr_resolve_single;
    bc.read = body;
    const char *defs[] = {"{\"uri\":\"doc://consent\",\"name\":\"c\"}", "{\"uri\":\"doc://roots\",\"name\":\"r\"}",
                          "{\"uri\":\"doc://hidden\",\"name\":\"h\"}", "{\"uri\":\"doc://plain\",\"name\":\"p\"}"};
    mcpr_cache_hints hints = MCPR_CACHE_HINTS_INIT;
    hints.ttl_ms = 60000;
    hints.caller_independent = true;
    for (size_t i = 0; i < sizeof defs / sizeof *defs; i++)
        CHECK_STATUS(mcpr_builder_add_with_hints(b, str_of(defs[i]), &bc, &hints, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_cursor_key(b, (const uint8_t *)"input-test-key-0123456789abcdefghij", 35, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_clock(b, test_clock, NULL, NULL), MCPR_OK);
    if (message) CHECK_STATUS(mcpr_builder_set_input_unsupported_error(b, code, str_of(message), NULL), MCPR_OK);
    mcpr_resources *r = NULL;
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_builder_build(b, &r, &e), MCPR_OK);
    show_error("build", e);
    return r;
}

static mcpr_read_options options(const char *scope) {
    mcpr_read_options o = MCPR_READ_OPTIONS_INIT;
    o.protocol_revision = S("2026-07-28");
    o.scope_key = str_of(scope);
    o.client_capabilities = S(CAPS);
    return o;
}

/* Reads; returns the status, *json a malloc'd copy of the result or error
 * JSON, *asks whether the bundle is input-required. */
static mcpr_status read_json(const mcpr_resources *r, const char *uri, const mcpr_read_options *o, char **json,
                             bool *asks) {
    mcpr_bundle *bundle = NULL;
    mcpr_error *e = NULL;
    mcpr_status s = mcpr_read(r, str_of(uri), o, &bundle, &e);
    mcpr_str text = s == MCPR_OK ? mcpr_bundle_json(bundle) : mcpr_error_jsonrpc_json(e);
    *json = malloc(text.len + 1);
    memcpy(*json, text.ptr, text.len);
    (*json)[text.len] = 0;
    *asks = s == MCPR_OK && mcpr_bundle_is_input_required(bundle);
    mcpr_bundle_free(bundle);
    mcpr_error_free(e);
    return s;
}

/* The requestState of an input-required JSON result (malloc'd). */
static char *state_of(const char *json) {
    const char *at = strstr(json, "\"requestState\":\"");
    CHECK(at != NULL);
    if (!at) return calloc(1, 1);
    at += strlen("\"requestState\":\"");
    size_t n = strcspn(at, "\"");
    char *out = malloc(n + 1);
    memcpy(out, at, n);
    out[n] = 0;
    return out;
}

static void test_a_policy_asks_and_the_retry_reads_with_the_responses(void) {
    seen s = {0};
    mcpr_resources *r = registry(&s, 0, NULL);
    mcpr_read_options o = options("principal:alice");
    char *json;
    bool asks;
    CHECK_STATUS(read_json(r, "doc://consent", &o, &json, &asks), MCPR_OK);
    CHECK(asks);
    CHECK(strncmp(json, "{\"resultType\":\"input_required\",\"inputRequests\":{\"consent\":{\"method\":"
                        "\"elicitation/create\"",
                  66) == 0);
    CHECK(strstr(json, "\"requestState\":\"") != NULL);
    CHECK(strstr(json, "ttlMs") == NULL && strstr(json, "cacheScope") == NULL && strstr(json, "contents") == NULL);
    CHECK(strstr(json, "own") == NULL); /* the own state is sealed, not readable */
    char *state = state_of(json);
    free(json);

    o.request_state = str_of(state);
    o.input_responses = S(ACCEPT);
    CHECK_STATUS(read_json(r, "doc://consent", &o, &json, &asks), MCPR_OK);
    CHECK(!asks);
    CHECK(strstr(json, "\"text\":\"the body\"") != NULL);
    CHECK(strstr(json, "\"ttlMs\":0") != NULL && strstr(json, "\"cacheScope\":\"private\"") != NULL);
    /* The policy's first check runs for the requested target, then for it as
     * the plan's item; the body read sees the retry too. */
    CHECK(s.accepted == 2 && s.state_ok == 2 && s.retries_seen == 3);
    free(json);

    /* Declined: the policy denies, which is not found like any denial. */
    o.input_responses = S(DECLINE);
    CHECK_STATUS(read_json(r, "doc://consent", &o, &json, &asks), MCPR_UNAVAILABLE);
    CHECK(str_eq(str_of(json), "{\"code\":-32602,\"message\":\"Resource not found\",\"data\":{\"uri\":\"doc://consent\"}}"));
    free(json);

    /* No responses: asked again (the policy decides), with a fresh state. */
    o.input_responses = (mcpr_str){NULL, 0};
    CHECK_STATUS(read_json(r, "doc://consent", &o, &json, &asks), MCPR_OK);
    CHECK(asks);
    free(json);
    free(state);
    mcpr_resources_free(r);
}

static void test_a_body_read_asks_for_roots(void) {
    seen s = {0};
    mcpr_resources *r = registry(&s, 0, NULL);
    mcpr_read_options o = options("principal:alice");
    char *json;
    bool asks;
    CHECK_STATUS(read_json(r, "doc://roots", &o, &json, &asks), MCPR_OK);
    CHECK(asks && strstr(json, "\"roots\":{\"method\":\"roots/list\"}") != NULL);
    char *state = state_of(json);
    free(json);
    o.request_state = str_of(state);
    o.input_responses = S(ROOTS);
    CHECK_STATUS(read_json(r, "doc://roots", &o, &json, &asks), MCPR_OK);
    CHECK(!asks && strstr(json, "the body") != NULL && s.roots_seen == 1);
    free(json);
    free(state);
    mcpr_resources_free(r);
}

/* Tampered, expired, other scope, other URI, other params: one refusal,
 * whatever the URI names; hidden and unregistered never ask. */
static void test_bad_states_are_one_refusal_and_hidden_never_asks(void) {
    seen s = {0};
    mcpr_resources *r = registry(&s, 0, NULL);
    mcpr_read_options o = options("principal:alice");
    char *json;
    bool asks;
    CHECK_STATUS(read_json(r, "doc://consent", &o, &json, &asks), MCPR_OK);
    char *state = state_of(json);
    free(json);
    const char *refusal = "{\"code\":-32602,\"message\":\"Invalid request state\"}";

    char *tampered = strdup(state);
    tampered[strlen(tampered) / 2] = tampered[strlen(tampered) / 2] == 'A' ? 'B' : 'A';
    const char *uris[] = {"doc://consent", "doc://plain", "doc://hidden", "doc://nowhere", "not a uri"};
    for (size_t i = 0; i < sizeof uris / sizeof *uris; i++) {
        o.request_state = str_of(tampered);
        o.input_responses = S(ACCEPT);
        CHECK_STATUS(read_json(r, uris[i], &o, &json, &asks), MCPR_INVALID_REQUEST);
        CHECK(str_eq(str_of(json), refusal));
        free(json);
        if (i == 0) continue;
        /* The genuine state of another URI is the same refusal. */
        o.request_state = str_of(state);
        CHECK_STATUS(read_json(r, uris[i], &o, &json, &asks), MCPR_INVALID_REQUEST);
        CHECK(str_eq(str_of(json), refusal));
        free(json);
    }
    /* Another scope, other params. */
    mcpr_read_options bob = options("principal:bob");
    bob.request_state = str_of(state);
    bob.input_responses = S(ACCEPT);
    CHECK_STATUS(read_json(r, "doc://consent", &bob, &json, &asks), MCPR_INVALID_REQUEST);
    CHECK(str_eq(str_of(json), refusal));
    free(json);
    mcpr_read_options other = options("principal:alice");
    other.request_state = str_of(state);
    other.input_responses = S(ACCEPT);
    other.params = S("{\"uri\":\"doc://consent\",\"extra\":1}");
    CHECK_STATUS(read_json(r, "doc://consent", &other, &json, &asks), MCPR_INVALID_REQUEST);
    free(json);
    /* Responses without a state. */
    mcpr_read_options bare = options("principal:alice");
    bare.input_responses = S(ACCEPT);
    CHECK_STATUS(read_json(r, "doc://consent", &bare, &json, &asks), MCPR_INVALID_REQUEST);
    free(json);
    /* Expired: ten minutes after it was issued. Only a state that opened
     * (this caller, URI and params) can say so; for any other URI the same
     * state is still the one refusal. */
    clock_ms += 10 * 60 * 1000 + 1;
    o.request_state = str_of(state);
    CHECK_STATUS(read_json(r, "doc://consent", &o, &json, &asks), MCPR_INVALID_REQUEST);
    CHECK(str_eq(str_of(json), "{\"code\":-32602,\"message\":\"Request state expired\"}"));
    free(json);
    CHECK_STATUS(read_json(r, "doc://hidden", &o, &json, &asks), MCPR_INVALID_REQUEST);
    CHECK(str_eq(str_of(json), refusal));
    free(json);
    clock_ms -= 10 * 60 * 1000 + 1;

    /* Hidden and unregistered: the same not found, never a request. */
    mcpr_read_options fresh = options("principal:alice");
    char *hidden, *nowhere;
    CHECK_STATUS(read_json(r, "doc://hidden", &fresh, &hidden, &asks), MCPR_UNAVAILABLE);
    CHECK(!asks);
    CHECK_STATUS(read_json(r, "doc://nowhere", &fresh, &nowhere, &asks), MCPR_UNAVAILABLE);
    char *h = strstr(hidden, "doc://hidden"), *n = strstr(nowhere, "doc://nowhere");
    CHECK(h && n && (size_t)(h - hidden) == (size_t)(n - nowhere) && strcmp(h + 12, n + 13) == 0);
    CHECK(strstr(hidden, "input") == NULL && strstr(hidden, "requestState") == NULL);
    free(hidden);
    free(nowhere);
    free(tampered);
    free(state);
    mcpr_resources_free(r);
}

static void test_older_revisions_and_missing_capabilities_fail_with_the_requests(void) {
    seen s = {0};
    mcpr_resources *r = registry(&s, 0, NULL);
    mcpr_read_options o = options("principal:alice");
    o.protocol_revision = S("2025-11-25");
    mcpr_bundle *bundle = NULL;
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_read(r, S("doc://consent"), &o, &bundle, &e), MCPR_INPUT_REQUIRED);
    CHECK(bundle == NULL);
    CHECK_STATUS(mcpr_error_status(e), MCPR_INPUT_REQUIRED);
    CHECK(str_eq(mcpr_error_jsonrpc_json(e),
                 "{\"code\":-32603,\"message\":\"Input required: this protocol revision cannot carry the request "
                 "for input\"}"));
    CHECK(str_contains(mcpr_error_input_requests(e), "\"consent\":{\"method\":\"elicitation/create\""));
    CHECK(strcmp(mcpr_status_name(MCPR_INPUT_REQUIRED), "MCPR_INPUT_REQUIRED") == 0);
    mcpr_error_free(e);
    e = NULL;

    /* No elicitation declared: -32021 with what it lacks. */
    mcpr_read_options bare = options("principal:alice");
    bare.client_capabilities = S("{\"roots\":{}}");
    CHECK_STATUS(mcpr_read(r, S("doc://consent"), &bare, &bundle, &e), MCPR_INPUT_REQUIRED);
    CHECK(str_eq(mcpr_error_jsonrpc_json(e), "{\"code\":-32021,\"message\":\"Missing required client capability\","
                                             "\"data\":{\"requiredCapabilities\":{\"elicitation\":{\"form\":{}}}}}"));
    CHECK(mcpr_error_input_requests(e).len > 0);
    mcpr_error_free(e);
    e = NULL;
    /* Every other error carries no requests. */
    CHECK_STATUS(mcpr_read(r, S("doc://nowhere"), &bare, &bundle, &e), MCPR_UNAVAILABLE);
    CHECK(mcpr_error_input_requests(e).len == 0);
    mcpr_error_free(e);
    e = NULL;
    mcpr_resources_free(r);

    /* The host's own error for older revisions. */
    r = registry(&s, -32000, "Consent needed: upgrade your client");
    CHECK_STATUS(mcpr_read(r, S("doc://consent"), &o, &bundle, &e), MCPR_INPUT_REQUIRED);
    CHECK(str_eq(mcpr_error_jsonrpc_json(e), "{\"code\":-32000,\"message\":\"Consent needed: upgrade your client\"}"));
    mcpr_error_free(e);
    mcpr_resources_free(r);
}

static void test_host_mistakes_and_callback_misuse(void) {
    seen s = {0};
    mcpr_resources *r = registry(&s, 0, NULL);
    mcpr_bundle *bundle = NULL;
    mcpr_error *e = NULL;
    /* An asking read needs a scope key. */
    mcpr_read_options o = options("");
    CHECK_STATUS(mcpr_read(r, S("doc://consent"), &o, &bundle, &e), MCPR_INVALID_ARGUMENT);
    mcpr_error_free(e);
    e = NULL;
    /* Malformed capabilities and strings. */
    o = options("principal:alice");
    o.client_capabilities = S("{\"elicitation\":true}");
    CHECK_STATUS(mcpr_read(r, S("doc://plain"), &o, &bundle, &e), MCPR_INVALID_ARGUMENT);
    mcpr_error_free(e);
    e = NULL;
    o = options("principal:alice");
    o.request_state = (mcpr_str){NULL, 3};
    CHECK_STATUS(mcpr_read(r, S("doc://plain"), &o, &bundle, &e), MCPR_INVALID_ARGUMENT);
    mcpr_error_free(e);
    e = NULL;
    /* Options compiled before the input fields: none of them is read (no
     * scope key, so a read that asks is the host's mistake). */
    mcpr_read_options old = options("principal:alice");
    old.struct_size = offsetof(mcpr_read_options, scope_key);
    CHECK_STATUS(mcpr_read(r, S("doc://consent"), &old, &bundle, &e), MCPR_INVALID_ARGUMENT);
    mcpr_error_free(e);
    e = NULL;
    old.struct_size = offsetof(mcpr_read_options, client_capabilities);
    CHECK_STATUS(mcpr_read(r, S("doc://consent"), &old, &bundle, &e), MCPR_INPUT_REQUIRED); /* nothing declared */
    CHECK(str_contains(mcpr_error_jsonrpc_json(e), "-32021"));
    mcpr_error_free(e);
    e = NULL;
    /* A refused addition spoils the callback: the read fails (a policy failure), never asks. */
    for (int misuse = 1; misuse <= 4; misuse++) {
        s.misuse = misuse;
        o = options("principal:alice");
        CHECK_STATUS(mcpr_read(r, S("doc://consent"), &o, &bundle, &e), MCPR_POLICY);
        CHECK(bundle == NULL);
        CHECK(str_contains(mcpr_error_cause(e), "refused"));
        mcpr_error_free(e);
        e = NULL;
    }
    s.misuse = 0;
    /* NULL everywhere. */
    CHECK_STATUS(mcpr_input_add_request(NULL, S("k"), S(ROOTS_REQUEST), &e), MCPR_INVALID_ARGUMENT);
    mcpr_error_free(e);
    e = NULL;
    CHECK_STATUS(mcpr_input_set_state(NULL, NULL, 0, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(!mcpr_input_is_retry(NULL));
    CHECK(mcpr_input_response(NULL, S("k")).len == 0);
    CHECK(mcpr_input_response_action(NULL, S("k")) == MCPR_INPUT_NO_ACTION);
    CHECK(mcpr_input_response_content(NULL, S("k"), S("f")).len == 0);
    CHECK(mcpr_input_state(NULL).len == 0);
    CHECK(!mcpr_bundle_is_input_required(NULL) && !mcpr_response_is_input_required(NULL));
    CHECK(mcpr_error_input_requests(NULL).len == 0);
    /* The host's error is checked at once. */
    mcpr_builder *b = mcpr_builder_new();
    CHECK_STATUS(mcpr_builder_set_input_unsupported_error(b, -32021, S("x"), NULL), MCPR_INVALID_CONFIGURATION);
    CHECK_STATUS(mcpr_builder_set_input_unsupported_error(b, -32000, S(""), NULL), MCPR_INVALID_CONFIGURATION);
    CHECK_STATUS(mcpr_builder_set_input_unsupported_error(b, -32000, S("a\nb"), NULL), MCPR_INVALID_CONFIGURATION);
    CHECK_STATUS(mcpr_builder_set_input_unsupported_error(b, -32000, (mcpr_str){NULL, 2}, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_set_input_unsupported_error(NULL, -32000, S("x"), NULL), MCPR_INVALID_ARGUMENT);
    mcpr_builder_free(b);
    mcpr_resources_free(r);
}

/* The one-call request reads the retry members from the params. */
static mcpr_response *request(const mcpr_resources *r, const char *params, const mcpr_request_options *o) {
    mcpr_response *resp = NULL;
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_request(r, S("resources/read"), str_of(params), o, &resp, &e), MCPR_OK);
    show_error("request", e);
    return resp;
}

static void test_the_one_call_request_asks_and_takes_the_retry(void) {
    seen s = {0};
    mcpr_resources *r = registry(&s, 0, NULL);
    mcpr_request_options o = MCPR_REQUEST_OPTIONS_INIT;
    o.scope_key = S("principal:alice");
    o.client_capabilities = S(CAPS);
    mcpr_response *resp = request(r, "{\"uri\":\"doc://consent\"}", &o);
    CHECK(mcpr_response_is_input_required(resp) && !mcpr_response_is_error(resp));
    char *state = state_of(mcpr_response_json(resp).ptr);
    mcpr_response_free(resp);
    char params[4096];
    snprintf(params, sizeof params,
             "{\"uri\":\"doc://consent\",\"requestState\":\"%s\",\"inputResponses\":" ACCEPT "}", state);
    resp = request(r, params, &o);
    CHECK(!mcpr_response_is_input_required(resp) && !mcpr_response_is_error(resp));
    CHECK(str_contains(mcpr_response_json(resp), "the body"));
    mcpr_response_free(resp);
    /* The params' _meta capabilities win over the options'. */
    resp = request(r,
                   "{\"uri\":\"doc://consent\",\"_meta\":{\"io.modelcontextprotocol/clientCapabilities\":{}}}", &o);
    CHECK(mcpr_response_is_error(resp) && str_contains(mcpr_response_json(resp), "-32021"));
    CHECK_STATUS(mcpr_response_status(resp), MCPR_INPUT_REQUIRED);
    mcpr_response_free(resp);
    /* Bad capabilities in the options are the host's mistake. */
    o.client_capabilities = S("[]");
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_request(r, S("resources/read"), S("{\"uri\":\"doc://plain\"}"), &o, &resp, &e),
                 MCPR_INVALID_ARGUMENT);
    mcpr_error_free(e);
    /* Options compiled before client_capabilities: nothing declared. */
    mcpr_request_options old = MCPR_REQUEST_OPTIONS_INIT;
    old.struct_size = offsetof(mcpr_request_options, client_capabilities);
    old.scope_key = S("principal:alice");
    resp = request(r, "{\"uri\":\"doc://consent\"}", &old);
    CHECK(mcpr_response_is_error(resp) && str_contains(mcpr_response_json(resp), "-32021"));
    mcpr_response_free(resp);
    free(state);
    mcpr_resources_free(r);
}

int main(void) {
    test_a_policy_asks_and_the_retry_reads_with_the_responses();
    test_a_body_read_asks_for_roots();
    test_bad_states_are_one_refusal_and_hidden_never_asks();
    test_older_revisions_and_missing_capabilities_fail_with_the_requests();
    test_host_mistakes_and_callback_misuse();
    test_the_one_call_request_asks_and_takes_the_retry();
    return harness_finish("test_input");
}
