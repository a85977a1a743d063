/* A whole MCP server on stdio (one JSON-RPC message per line) in C, with no JSON parser: mcpr_message answers the
 * library's methods and hands other requests back; this loop answers initialize, server/discover, ping, and -32601.
 * Serves doc://item/000 ... 119 ("item N") and doc://files/{name} (completes from FILES). See scripts/c-stdio-e2e.sh. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mcp_resources.h>
#define CAPS "\"capabilities\":{\"resources\":{},\"completions\":{}}"
#define INFO "{\"name\":\"mcpr-c-stdio\",\"version\":\"0.1.0\"}"
static const char *INIT = "{\"protocolVersion\":\"2025-11-25\"," CAPS ",\"serverInfo\":" INFO "}";
static const char *DISCOVER = "{\"supportedVersions\":[\"2025-11-25\",\"2026-07-28\"]," CAPS ",\"_meta\":{"
    "\"io.modelcontextprotocol/serverInfo\":" INFO "},\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"public\"}";
static const char *FILES[] = {"a.txt", "alpha.md", "b.txt"};
static mcpr_str s(const char *c) { return (mcpr_str){c, strlen(c)}; }
static int is(mcpr_str a, const char *b) { return a.len == strlen(b) && memcmp(a.ptr, b, a.len) == 0; }
/* Item N's user_data is N + 1 and it reads "item N"; the template's is NULL: "file URI" (URIs <= 2048 B). */
static mcpr_cb_result body(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    char buf[4096];
    mcpr_str u = mcpr_target_uri(t);
    int n = ud ? snprintf(buf, sizeof buf, "item %d", (int)(size_t)ud - 1)
               : snprintf(buf, sizeof buf, "file %.*s", (int)u.len, u.ptr);
    return (void)call, mcpr_payload_set_text(out, s("text/plain"), (mcpr_str){buf, (size_t)n}, NULL) ? MCPR_CB_FAILED : MCPR_CB_OK;
}
static mcpr_cb_result complete(void *ud, const mcpr_call *c, const mcpr_completion_request *rq, mcpr_completion_builder *out) {
    mcpr_str v = mcpr_completion_request_value(rq);
    for (size_t i = 0; i < 3; i++)
        if (strncmp(FILES[i], v.ptr, v.len) == 0) mcpr_completion_add_value(out, s(FILES[i]), NULL);
    return (void)ud, (void)c, MCPR_CB_OK;
}
int main(void) {
    mcpr_builder *b = mcpr_builder_new(); mcpr_resources *r = NULL;
    mcpr_binding_callbacks cb = MCPR_BINDING_CALLBACKS_INIT;
    char def[128], *line = NULL;
    int bad = mcpr_builder_set_policy_allow_all(b, NULL) | mcpr_builder_set_limit(b, MCPR_LIMIT_DEFAULT_PAGE_SIZE, 50, NULL);
    cb.resolve = mcpr_resolve_single, cb.read = body;
    for (int i = 0; i < 120; i++) {
        cb.user_data = (void *)(size_t)(i + 1);
        snprintf(def, sizeof def, "{\"mimeType\":\"text/plain\",\"name\":\"item-%03d\",\"uri\":\"doc://item/%03d\"}", i, i);
        bad |= mcpr_builder_add(b, s(def), &cb, NULL);
    }
    cb.user_data = NULL, cb.complete = complete;
    bad |= mcpr_builder_add(b, s("{\"name\":\"files\",\"uriTemplate\":\"doc://files/{name}\"}"), &cb, NULL);
    if (bad ? (mcpr_builder_free(b), 1) : mcpr_builder_build(b, &r, NULL) != MCPR_OK) return 1;
    mcpr_request_options o = MCPR_REQUEST_OPTIONS_INIT;
    o.protocol_revision = s("2025-11-25"), o.scope_key = s("stdio"); /* 2026-07-28 requests name theirs */
    for (size_t cap = 0, n; (n = (size_t)getline(&line, &cap, stdin)) != (size_t)-1; fflush(stdout)) {
        mcpr_reply *rp = NULL;
        if (mcpr_message(r, (mcpr_str){line, n}, &o, &rp, NULL) != MCPR_OK) continue;
        mcpr_str out = mcpr_reply_json(rp), m = mcpr_reply_method(rp), id = mcpr_reply_id(rp);
        const char *res = is(m, "initialize") ? INIT : is(m, "server/discover") ? DISCOVER : is(m, "ping") ? "{}" : 0;
        if (out.len) printf("%.*s\n", (int)out.len, out.ptr);
        else if (!mcpr_reply_handled(rp) && mcpr_reply_kind(rp) == MCPR_MESSAGE_REQUEST)
            printf("{\"jsonrpc\":\"2.0\",\"id\":%.*s,\"%s\":%s}\n", (int)id.len, id.ptr, res ? "result" : "error",
                   res ? res : "{\"code\":-32601,\"message\":\"Method not found\"}");
        mcpr_reply_free(rp);
    }
    return mcpr_resources_free(r), free(line), 0;
}
