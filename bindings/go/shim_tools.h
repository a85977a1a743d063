/* shim_tools.h - the C side of the Go binding's embedding (tools.go):
 * mcpr_embed with its options filled in exactly one place, its call fields
 * by MCPRGO_SET_CALL, as shim.h does for the other calls (the resource
 * tools' tools/call is mcprgo_resource_tools_call, next to mcprgo_request
 * in shim.h). */
#ifndef MCPRGO_SHIM_TOOLS_H
#define MCPRGO_SHIM_TOOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shim.h"

/* What mcprgo_embed returns besides the status (written on every call). */
typedef struct {
    mcpr_embedding *embedding;
    mcpr_str blocks;
    mcpr_str tool_result;
    mcpr_error *err;
} mcprgo_embed_result;

/* mcpr_embed of `count` URIs, the i-th being the next lens[i] bytes of
 * `joined` (one Go buffer, so that no Go pointer is stored in memory cgo
 * passes), with its options. */
mcpr_status mcprgo_embed(const mcpr_resources *r, mcpr_str joined, const size_t *lens, size_t count, uint32_t form,
                         bool over_budget_links, mcprgo_call call, mcprgo_embed_result *out);

#endif
