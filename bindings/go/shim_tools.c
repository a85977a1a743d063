/* shim_tools.c - see shim_tools.h. */
#include <stdlib.h>

#include "shim_tools.h"

mcpr_status mcprgo_embed(const mcpr_resources *r, mcpr_str joined, const size_t *lens, size_t count,
                         mcpr_str revision, uint32_t form, bool over_budget_links, uint64_t timeout_ms,
                         const mcpr_cancel *cancel, uint64_t request, const mcpr_executor *executor,
                         mcprgo_embed_result *out) {
    out->embedding = NULL;
    out->err = NULL;
    out->blocks.ptr = NULL;
    out->blocks.len = 0;
    out->tool_result = out->blocks;
    mcpr_str *uris = NULL;
    if (count > 0) {
        uris = malloc(count * sizeof *uris);
        if (uris == NULL) return MCPR_INTERNAL;
        size_t at = 0;
        for (size_t i = 0; i < count; i++) {
            uris[i].ptr = lens[i] ? joined.ptr + at : NULL;
            uris[i].len = lens[i];
            at += lens[i];
        }
    }
    mcpr_embed_options opt = {
        .struct_size = sizeof(mcpr_embed_options),
        .timeout_ms = timeout_ms,
        .cancel = cancel,
        .request_data = (void *)(uintptr_t)request,
        .executor = executor,
        .protocol_revision = revision,
        .form = form,
        .over_budget_links = over_budget_links,
    };
    mcpr_status st = mcpr_embed(r, uris, count, &opt, &out->embedding, &out->err);
    free(uris);
    if (st == MCPR_OK) {
        out->blocks = mcpr_embedding_blocks_json(out->embedding);
        out->tool_result = mcpr_embedding_tool_result_json(out->embedding);
    }
    return st;
}

mcpr_status mcprgo_resource_tools_call(const mcpr_resources *r, mcpr_str params, mcpr_str revision, mcpr_str scope_key,
                                       uint32_t page_size, uint64_t timeout_ms, const mcpr_cancel *cancel,
                                       uint64_t request, const mcpr_executor *executor, mcprgo_request_result *out) {
    mcpr_request_options opt = {
        .struct_size = sizeof(mcpr_request_options),
        .protocol_revision = revision,
        .scope_key = scope_key,
        .page_size = page_size,
        .timeout_ms = timeout_ms,
        .cancel = cancel,
        .request_data = (void *)(uintptr_t)request,
        .executor = executor,
    };
    out->response = NULL;
    out->err = NULL;
    out->json.ptr = NULL;
    out->json.len = 0;
    out->is_error = false;
    out->partial = false;
    out->status = MCPR_OK;
    out->cause = out->json;
    mcpr_status st = mcpr_resource_tools_call(r, params, &opt, &out->response, &out->err);
    if (st == MCPR_OK) {
        out->json = mcpr_response_json(out->response);
        out->is_error = mcpr_response_is_error(out->response);
        out->partial = mcpr_response_is_partial(out->response);
        out->status = mcpr_response_status(out->response);
        out->cause = mcpr_response_cause(out->response);
    }
    return st;
}
