/* One call per request (mcpr_request and the response handle), protocol
 * revisions in the read and list options, JSON-RPC error objects
 * (mcpr_error_jsonrpc_json), and cache-hint declarations. */
#include <stdlib.h>

#include "harness.h"

static const char *DEFS[] = {
    "{\"uri\":\"doc://a\",\"name\":\"a\"}",
    "{\"uri\":\"doc://b\",\"name\":\"b\"}",
    "{\"uri\":\"doc://c\",\"name\":\"c\"}",
    "{\"uri\":\"doc://hidden\",\"name\":\"hidden\"}",
    "{\"uri\":\"doc://nodiscover\",\"name\":\"nodiscover\"}",
    "{\"uri\":\"doc://denied\",\"name\":\"denied\"}",
    "{\"uriTemplate\":\"tpl://t/{id}\",\"name\":\"t\"}",
};

static mcpr_resources *registry(host_policy *hp, host_binding *hb) {
    mcpr_builder *b = host_builder(hp);
    for (size_t i = 0; i < sizeof DEFS / sizeof DEFS[0]; i++) CHECK_STATUS(host_add(b, DEFS[i], hb), MCPR_OK);
    return host_build(b);
}

static char *dup_str(mcpr_str s) {
    char *out = malloc(s.len + 1);
    memcpy(out, s.ptr, s.len);
    out[s.len] = 0;
    return out;
}

/* Runs one request that must make a response; returns its JSON (malloc'd)
 * and whether it is an error. */
static char *request(const mcpr_resources *r, const char *method, const char *params,
                     const mcpr_request_options *opt, bool *is_error) {
    mcpr_response *resp = NULL;
    mcpr_error *e = NULL;
    mcpr_status s = mcpr_request(r, str_of(method), str_of(params), opt, &resp, &e);
    CHECK_STATUS(s, MCPR_OK);
    CHECK(e == NULL);
    if (s != MCPR_OK) {
        show_error("request", e);
        return NULL;
    }
    char *json = dup_str(mcpr_response_json(resp));
    *is_error = mcpr_response_is_error(resp);
    CHECK((mcpr_response_status(resp) == MCPR_OK) == !*is_error);
    mcpr_response_free(resp);
    return json;
}

static mcpr_request_options opts(const char *revision) {
    mcpr_request_options o = {
        .struct_size = sizeof(mcpr_request_options),
        .protocol_revision = str_of(revision),
        .scope_key = S("tenant"),
    };
    return o;
}

static void test_methods(void) {
    host_policy hp = {.hidden = {"doc://hidden"}};
    host_binding hb = {.items = {"item://ok/x"}};
    mcpr_resources *r = registry(&hp, &hb);
    bool is_error = true;

    /* resources/read: the same bytes as mcpr_read + mcpr_bundle_json */
    const char *revisions[] = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", ""};
    for (int i = 0; i < 6; i++) {
        mcpr_request_options o = opts(revisions[i]);
        char *json = request(r, "resources/read", "{\"uri\":\"doc://a\"}", &o, &is_error);
        CHECK(!is_error);
        mcpr_read_options ro = {
            .struct_size = sizeof(mcpr_read_options),
            .protocol_revision = str_of(revisions[i]),
        };
        char *direct = NULL;
        CHECK_STATUS(host_read(r, "doc://a", &ro, &direct, NULL, NULL), MCPR_OK);
        CHECK(json && direct && strcmp(json, direct) == 0);
        bool modern = i >= 4;
        CHECK(json && (strstr(json, ",\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\"}") != NULL) == modern);
        free(json);
        free(direct);
    }

    /* resources/list with a page size, following the cursor */
    mcpr_request_options o = opts("2026-07-28");
    o.page_size = 2;
    char *first = request(r, "resources/list", "", &o, &is_error);
    CHECK(!is_error && first && strstr(first, "\"nextCursor\":\""));
    if (first) {
        const char *c = strstr(first, "\"nextCursor\":\"") + 14;
        const char *end = strchr(c, '"');
        char params[512];
        snprintf(params, sizeof params, "{\"cursor\":\"%.*s\",\"_meta\":{\"progressToken\":1}}", (int)(end - c), c);
        char *second = request(r, "resources/list", params, &o, &is_error);
        CHECK(!is_error && second && strstr(second, "\"uri\":\"doc://c\"") && !strstr(second, "doc://a"));
        free(second);
        /* the other list method refuses it */
        char *cross = request(r, "resources/templates/list", params, &o, &is_error);
        CHECK(is_error && cross && strcmp(cross, "{\"code\":-32602,\"message\":\"Invalid cursor\"}") == 0);
        free(cross);
    }
    free(first);

    /* resources/templates/list with absent params */
    char *t = request(r, "resources/templates/list", "null", &o, &is_error);
    CHECK(!is_error && t && strstr(t, "\"uriTemplate\":\"tpl://t/{id}\""));
    free(t);
    mcpr_resources_free(r);
}

static void test_errors_per_revision(void) {
    host_policy hp = {.hidden = {"doc://hidden"}, .denied = {"doc://denied"}, .deny_discover = {"doc://nodiscover"}};
    host_binding hb = {0};
    mcpr_resources *r = registry(&hp, &hb);
    bool is_error = false;
    const char *causes[] = {"doc://nothing", "tpl://t/x/y", "doc://nodiscover", "doc://hidden", "doc://denied"};
    const char *revisions[] = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"};
    for (int v = 0; v < 5; v++) {
        int code = v == 4 ? -32602 : -32002;
        for (int i = 0; i < 5; i++) {
            char want[256];
            snprintf(want, sizeof want,
                     "{\"code\":%d,\"message\":\"Resource not found\",\"data\":{\"uri\":\"%s\"}}", code,
                     causes[i]);
            /* through mcpr_request */
            mcpr_request_options o = opts(revisions[v]);
            char params[256];
            snprintf(params, sizeof params, "{\"uri\":\"%s\"}", causes[i]);
            char *json = request(r, "resources/read", params, &o, &is_error);
            CHECK(is_error && json && strcmp(json, want) == 0);
            free(json);
            /* through mcpr_read and the error object */
            mcpr_read_options ro = {
                .struct_size = sizeof(mcpr_read_options),
                .protocol_revision = str_of(revisions[v]),
            };
            mcpr_error *e = NULL;
            CHECK_STATUS(host_read(r, causes[i], &ro, NULL, NULL, &e), MCPR_UNAVAILABLE);
            CHECK(str_eq(mcpr_error_jsonrpc_json(e), want));
            CHECK(mcpr_error_jsonrpc_code(e) == code);
            mcpr_error_free(e);
        }
    }
    /* the private cause stays out of the object but reaches the host */
    host_binding fb = {.items = {"item://fail/x"}, .authorization = "{\"t\":\"SECRET-AUTH\"}"};
    mcpr_builder *b = host_builder(&hp);
    CHECK_STATUS(host_add(b, "{\"uri\":\"doc://f\",\"name\":\"f\"}", &fb), MCPR_OK);
    mcpr_resources *rf = host_build(b);
    mcpr_response *resp = NULL;
    mcpr_request_options o = opts("");
    CHECK_STATUS(mcpr_request(rf, S("resources/read"), S("{\"uri\":\"doc://f\"}"), &o, &resp, NULL), MCPR_OK);
    CHECK(mcpr_response_is_error(resp));
    CHECK(mcpr_response_status(resp) == MCPR_READ_FAILED);
    CHECK(str_eq(mcpr_response_json(resp), "{\"code\":-32603,\"message\":\"resource read failed\"}"));
    CHECK(str_contains(mcpr_response_cause(resp), "SECRET-CAUSE"));
    CHECK(!str_contains(mcpr_response_json(resp), "SECRET"));
    mcpr_response_free(resp);
    /* a bad cursor through mcpr_list */
    mcpr_list_options lo = {
        .struct_size = sizeof(mcpr_list_options),
        .scope_key = S("tenant"),
        .cursor = S("not-a-cursor"),
        .protocol_revision = S("2025-11-25"),
    };
    mcpr_page *page = NULL;
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_list(r, &lo, &page, &e), MCPR_INVALID_REQUEST);
    CHECK(str_eq(mcpr_error_jsonrpc_json(e), "{\"code\":-32602,\"message\":\"Invalid cursor\"}"));
    mcpr_error_free(e);
    mcpr_resources_free(rf);
    mcpr_resources_free(r);
}

static void test_malformed_params(void) {
    host_policy hp = {0};
    host_binding hb = {.items = {"item://ok/x"}};
    mcpr_resources *r = registry(&hp, &hb);
    mcpr_request_options o = opts("");
    bool is_error = false;
    struct {
        const char *method, *params, *message;
    } cases[] = {
        {"resources/read", "", "params uri is required"},
        {"resources/read", "{\"uri\":1}", "params uri must be a string"},
        {"resources/read", "{\"uri\":\"doc://a\",\"uri\":\"doc://b\"}", "params repeat uri"},
        {"resources/read", "{\"uri\":", "params are not valid JSON"},
        {"resources/read", "[1]", "params must be an object"},
        {"resources/read", "{\"uri\":\"doc://a\",\"_meta\":[]}", "params _meta must be an object"},
        {"resources/list", "{\"cursor\":false}", "params cursor must be a string"},
        {"resources/list", "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":1}}",
         "params _meta protocolVersion must be a string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char want[256];
        snprintf(want, sizeof want, "{\"code\":-32602,\"message\":\"%s\"}", cases[i].message);
        char *json = request(r, cases[i].method, cases[i].params, &o, &is_error);
        CHECK(is_error && json && strcmp(json, want) == 0);
        if (json && strcmp(json, want) != 0) fprintf(stderr, "  got %s for %s\n", json, cases[i].params);
        free(json);
    }
    /* huge params */
    size_t n = 300 * 1024;
    char *huge = malloc(n + 64);
    strcpy(huge, "{\"uri\":\"doc://a\",\"pad\":\"");
    size_t at = strlen(huge);
    memset(huge + at, 'x', n);
    strcpy(huge + at + n, "\"}");
    char *json = request(r, "resources/read", huge, &o, &is_error);
    CHECK(is_error && json && strcmp(json, "{\"code\":-32602,\"message\":\"params exceed 256 KiB\"}") == 0);
    free(json);
    free(huge);
    /* extra members are ignored */
    json = request(r, "resources/read", "{\"uri\":\"doc://a\",\"cursor\":5,\"task\":[1],\"_meta\":{\"x\":{}}}", &o,
                   &is_error);
    CHECK(!is_error && json && strstr(json, "\"uri\":\"item://ok/x\""));
    free(json);
    /* requestState is a 2026-07-28 read's retry member (BEHAVIOUR §18),
     * held to its type there (test_input.c); before 2026-07-28 it is not
     * defined, so it is ignored whatever it holds */
    json = request(r, "resources/read", "{\"uri\":\"doc://a\",\"requestState\":[1]}", &o, &is_error);
    CHECK(is_error && json && strcmp(json, "{\"code\":-32602,\"message\":\"params requestState must be a string\"}") == 0);
    free(json);
    mcpr_request_options older = opts("2025-11-25");
    json = request(r, "resources/read", "{\"uri\":\"doc://a\",\"cursor\":5,\"requestState\":[1],\"_meta\":{\"x\":{}}}",
                   &older, &is_error);
    CHECK(!is_error && json && strstr(json, "\"uri\":\"item://ok/x\""));
    free(json);
    /* the per-request revision wins over the option */
    json = request(r, "resources/read",
                   "{\"uri\":\"doc://a\",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2025-06-18\"}}", &o,
                   &is_error);
    CHECK(!is_error && json && !strstr(json, "resultType"));
    free(json);
    json = request(r, "resources/read",
                   "{\"uri\":\"doc://a\",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"1999-01-01\"}}", &o,
                   &is_error);
    CHECK(is_error && json && strstr(json, "{\"code\":-32022,") == json && strstr(json, "\"requested\":\"1999-01-01\""));
    free(json);
    mcpr_resources_free(r);
}

static void test_misuse(void) {
    host_policy hp = {0};
    host_binding hb = {.items = {"item://ok/x"}};
    mcpr_resources *r = registry(&hp, &hb);
    mcpr_response *resp = NULL;
    mcpr_error *e = NULL;
    mcpr_request_options o = opts("");

    /* methods this library does not serve: a distinct status, no response */
    const char *others[] = {"prompts/get", "tools/list", "resources/subscribe", ""};
    for (int i = 0; i < 4; i++) {
        e = NULL;
        CHECK_STATUS(mcpr_request(r, str_of(others[i]), S("{}"), &o, &resp, &e), MCPR_METHOD_NOT_HANDLED);
        CHECK(resp == NULL);
        CHECK(mcpr_error_status(e) == MCPR_METHOD_NOT_HANDLED);
        CHECK(mcpr_error_jsonrpc_code(e) == -32601);
        mcpr_error_free(e);
    }
    /* programming errors */
    CHECK_STATUS(mcpr_request(NULL, S("resources/read"), S("{}"), &o, &resp, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_request(r, S("resources/read"), S("{}"), &o, NULL, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_str bad = {NULL, 3};
    CHECK_STATUS(mcpr_request(r, S("resources/read"), bad, &o, &resp, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_request(r, bad, S("{}"), &o, &resp, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_request_options unknown = opts("2024-10-07");
    CHECK_STATUS(mcpr_request(r, S("resources/read"), S("{\"uri\":\"doc://a\"}"), &unknown, &resp, NULL),
                 MCPR_INVALID_ARGUMENT);
    /* the list methods need a scope key (an empty one is a host mistake,
     * the same status as from mcpr_list); NULL options are all defaults */
    CHECK_STATUS(mcpr_request(r, S("resources/list"), S("{}"), NULL, &resp, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(resp == NULL);
    CHECK_STATUS(mcpr_request(r, S("resources/templates/list"), S("{}"), NULL, &resp, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(resp == NULL);
    CHECK_STATUS(mcpr_request(r, S("resources/read"), S("{\"uri\":\"doc://a\"}"), NULL, &resp, NULL), MCPR_OK);
    CHECK(resp && !mcpr_response_is_error(resp) && !mcpr_response_is_partial(resp));
    mcpr_response_free(resp);
    /* an unknown revision in the read and list options */
    mcpr_read_options ro = {.struct_size = sizeof(mcpr_read_options), .protocol_revision = S("2026-07-28 ")};
    CHECK_STATUS(host_read(r, "doc://a", &ro, NULL, NULL, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_list_options lo = {
        .struct_size = sizeof(mcpr_list_options),
        .scope_key = S("tenant"),
        .protocol_revision = S("latest"),
    };
    mcpr_page *page = NULL;
    CHECK_STATUS(mcpr_list(r, &lo, &page, NULL), MCPR_INVALID_ARGUMENT);
    /* NULL handles */
    CHECK(mcpr_response_json(NULL).len == 0);
    CHECK(!mcpr_response_is_error(NULL));
    CHECK(mcpr_response_status(NULL) == MCPR_INVALID_ARGUMENT);
    CHECK(mcpr_response_cause(NULL).len == 0);
    mcpr_response_free(NULL);
    CHECK(mcpr_error_jsonrpc_json(NULL).len == 0);
    mcpr_resources_free(r);
}

/* ---------------------------------------------------------------- cache hints */

typedef struct {
    bool item_hints;
    uint64_t item_ttl;
    bool item_independent;
} hint_binding;

static mcpr_cb_result hint_read(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)call;
    hint_binding *hb = ud;
    if (mcpr_payload_set_text(out, S("text/plain"), mcpr_target_uri(t), NULL) != MCPR_OK) return MCPR_CB_FAILED;
    if (hb->item_hints) {
        mcpr_cache_hints h = {sizeof h, hb->item_ttl, hb->item_independent};
        if (mcpr_payload_set_cache_hints(out, &h, NULL) != MCPR_OK) return MCPR_CB_FAILED;
    }
    return MCPR_CB_OK;
}

static mcpr_resources *hinted(host_policy *hp, hint_binding *hb, uint64_t reg_ttl, bool policy_indep,
                              const mcpr_cache_hints *binding) {
    mcpr_builder *b = host_builder(hp);
    CHECK_STATUS(mcpr_builder_set_cache_hints(b, reg_ttl, policy_indep, NULL), MCPR_OK);
    mcpr_binding_callbacks cb = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = hb,
        .resolve = mcpr_resolve_single,
        .read = hint_read,
    };
    if (binding)
        CHECK_STATUS(mcpr_builder_add_with_hints(b, S("{\"uri\":\"doc://h\",\"name\":\"h\"}"), &cb, binding, NULL),
                     MCPR_OK);
    else
        CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"doc://h\",\"name\":\"h\"}"), &cb, NULL), MCPR_OK);
    return host_build(b);
}

static bool read_has(const mcpr_resources *r, const char *tail) {
    char *json = NULL;
    CHECK_STATUS(host_read(r, "doc://h", NULL, &json, NULL, NULL), MCPR_OK);
    bool ok = json && strstr(json, tail) != NULL;
    if (!ok) fprintf(stderr, "  want %s in %s\n", tail, json ? json : "(null)");
    free(json);
    return ok;
}

static void test_cache_hints(void) {
    host_policy hp = {0};
    hint_binding hb = {0};
    mcpr_cache_hints indep = {sizeof indep, 60000, true};
    mcpr_cache_hints dep = {sizeof dep, 60000, false};

    mcpr_resources *r = hinted(&hp, &hb, 0, false, NULL);
    CHECK(read_has(r, "\"ttlMs\":0,\"cacheScope\":\"private\"}"));
    mcpr_resources_free(r);
    r = hinted(&hp, &hb, 500, true, NULL); /* registry TTL, content not declared */
    CHECK(read_has(r, "\"ttlMs\":500,\"cacheScope\":\"private\"}"));
    mcpr_resources_free(r);
    r = hinted(&hp, &hb, 500, true, &indep);
    CHECK(read_has(r, "\"ttlMs\":60000,\"cacheScope\":\"public\"}"));
    mcpr_resources_free(r);
    r = hinted(&hp, &hb, 500, false, &indep);
    CHECK(read_has(r, "\"ttlMs\":60000,\"cacheScope\":\"private\"}"));
    mcpr_resources_free(r);
    r = hinted(&hp, &hb, 500, true, &dep);
    CHECK(read_has(r, "\"ttlMs\":60000,\"cacheScope\":\"private\"}"));
    mcpr_resources_free(r);
    /* an item lowers the TTL, never raises it */
    hb.item_hints = true;
    hb.item_ttl = 25;
    hb.item_independent = true;
    r = hinted(&hp, &hb, 500, true, &indep);
    CHECK(read_has(r, "\"ttlMs\":25,\"cacheScope\":\"public\"}"));
    mcpr_resources_free(r);
    hb.item_ttl = 9999999;
    hb.item_independent = false;
    r = hinted(&hp, &hb, 500, true, &indep);
    CHECK(read_has(r, "\"ttlMs\":60000,\"cacheScope\":\"private\"}"));
    mcpr_resources_free(r);
    /* a list page: the registry TTL, public when the policy is declared independent */
    r = hinted(&hp, &hb, 777, true, &indep);
    mcpr_list_options lo = {.struct_size = sizeof(mcpr_list_options), .scope_key = S("tenant")};
    mcpr_page *page = NULL;
    CHECK_STATUS(mcpr_list(r, &lo, &page, NULL), MCPR_OK);
    CHECK(str_contains(mcpr_page_json(page), "\"ttlMs\":777,\"cacheScope\":\"public\"}"));
    mcpr_page_free(page);
    mcpr_resources_free(r);

    /* refused declarations */
    mcpr_builder *b = host_builder(&hp);
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_builder_set_cache_hints(b, MCPR_MAX_TTL_MS + 1, true, &e), MCPR_INVALID_CONFIGURATION);
    mcpr_error_free(e);
    CHECK_STATUS(mcpr_builder_set_cache_hints(b, MCPR_MAX_TTL_MS, true, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_cache_hints(NULL, 1, true, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_binding_callbacks cb = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = &hb,
        .resolve = mcpr_resolve_single,
        .read = hint_read,
    };
    /* An impossible struct_size (test_growth.c: smaller and larger ones). */
    mcpr_cache_hints small = {sizeof(size_t) - 1, 1, true};
    mcpr_cache_hints big = {sizeof big, MCPR_MAX_TTL_MS + 1, true};
    CHECK_STATUS(mcpr_builder_add_with_hints(b, S("{\"uri\":\"doc://x\",\"name\":\"x\"}"), &cb, &small, NULL),
                 MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_add_with_hints(b, S("{\"uri\":\"doc://x\",\"name\":\"x\"}"), &cb, NULL, NULL),
                 MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_add_with_hints(b, S("{\"uri\":\"doc://x\",\"name\":\"x\"}"), &cb, &big, NULL),
                 MCPR_INVALID_CONFIGURATION);
    CHECK_STATUS(mcpr_payload_set_cache_hints(NULL, &indep, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_builder_free(b);
}

int main(void) {
    test_methods();
    test_errors_per_revision();
    test_malformed_params();
    test_misuse();
    test_cache_hints();
    return harness_finish("test_request");
}
