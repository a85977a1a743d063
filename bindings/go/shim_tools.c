/* shim_tools.c - see shim_tools.h. */
#include <stdlib.h>

#include "shim_tools.h"

mcpr_status mcprgo_embed(const mcpr_resources *r, mcpr_str joined, const size_t *lens, size_t count, uint32_t form,
                         bool over_budget_links, mcprgo_call call, mcprgo_embed_result *out) {
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
        .form = form,
        .over_budget_links = over_budget_links,
    };
    MCPRGO_SET_CALL(opt, call);
    mcpr_status st = mcpr_embed(r, uris, count, &opt, &out->embedding, &out->err);
    free(uris);
    if (st == MCPR_OK) {
        out->blocks = mcpr_embedding_blocks_json(out->embedding);
        out->tool_result = mcpr_embedding_tool_result_json(out->embedding);
    }
    return st;
}
