/* shim_tools.h - the C side of the Go binding's tool-result calls
 * (tools.go): mcpr_embed and mcpr_resource_tools_call with their options
 * filled in exactly one place each, as shim.h does for the other calls. */
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
mcpr_status mcprgo_embed(const mcpr_resources *r, mcpr_str joined, const size_t *lens, size_t count,
                         mcpr_str revision, uint32_t form, bool over_budget_links, uint64_t timeout_ms,
                         const mcpr_cancel *cancel, uint64_t request, const mcpr_executor *executor,
                         mcprgo_embed_result *out);
/* mcpr_resource_tools_call with its options. */
mcpr_status mcprgo_resource_tools_call(const mcpr_resources *r, mcpr_str params, mcpr_str revision, mcpr_str scope_key,
                                       uint32_t page_size, uint64_t timeout_ms, const mcpr_cancel *cancel,
                                       uint64_t request, const mcpr_executor *executor, mcprgo_request_result *out);

#endif
