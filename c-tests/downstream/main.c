/* A downstream program: registers one resource, reads it, checks the result. */
#include <stdio.h>
#include <string.h>

#include <mcp_resources.h>

static mcpr_cb_result ok(void *ud, const mcpr_call *c, const mcpr_definition *d) {
    (void)ud, (void)c, (void)d;
    return MCPR_CB_OK;
}
static mcpr_cb_result visible(void *ud, const mcpr_call *c, const mcpr_target *t, mcpr_visibility *out) {
    (void)ud, (void)c, (void)t;
    out->visible = true;
    return MCPR_CB_OK;
}
static mcpr_cb_result permit(void *ud, const mcpr_call *c, const mcpr_target *t) {
    (void)ud, (void)c, (void)t;
    return MCPR_CB_OK;
}
static mcpr_cb_result body(void *ud, const mcpr_call *c, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)ud, (void)c, (void)t;
    mcpr_str mime = {"text/plain", 10}, text = {"downstream", 10};
    return mcpr_payload_set_text(out, mime, text, NULL) == MCPR_OK ? MCPR_CB_OK : MCPR_CB_FAILED;
}

int main(void) {
    mcpr_policy_callbacks policy = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .discover = ok,
        .visibility = visible,
        .read = permit,
    };
    mcpr_binding_callbacks binding = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .resolve = mcpr_resolve_single,
        .read = body,
    };
    const char *def = "{\"uri\":\"down://stream\",\"name\":\"d\"}";
    mcpr_str defs = {def, strlen(def)}, uri = {"down://stream", 13};
    mcpr_builder *b = mcpr_builder_new();
    mcpr_resources *r = NULL;
    if (mcpr_builder_set_policy(b, &policy, NULL) || mcpr_builder_add(b, defs, &binding, NULL) ||
        mcpr_builder_build(b, &r, NULL)) {
        fprintf(stderr, "build failed\n");
        return 1;
    }
    mcpr_bundle *bundle = NULL;
    if (mcpr_read(r, uri, NULL, &bundle, NULL) != MCPR_OK) {
        fprintf(stderr, "read failed\n");
        return 1;
    }
    mcpr_str json = mcpr_bundle_json(bundle);
    const char *want = "{\"contents\":[{\"uri\":\"down://stream\",\"mimeType\":\"text/plain\",\"text\":\"downstream\"}]";
    int ok_result = json.len > strlen(want) && memcmp(json.ptr, want, strlen(want)) == 0;
    printf("mcp_resources %s: %.*s\n", mcpr_version(), (int)json.len, json.ptr);
    mcpr_bundle_free(bundle);
    mcpr_resources_free(r);
    return ok_result ? 0 : 1;
}
