/* shim_observe.h - the C side of the Go binding's observers (see
 * observe.go): the observer table's trampolines, and the library calls
 * with a struct argument, filled here. */
#ifndef MCPRGO_SHIM_OBSERVE_H
#define MCPRGO_SHIM_OBSERVE_H

#include <stdbool.h>
#include <stdint.h>

#include "mcp_resources.h"

/* Sets the Go observer behind `handle` with `flags` (MCPR_OBSERVE_*). */
mcpr_status mcprgo_builder_set_observer(mcpr_builder *b, uintptr_t handle, uint32_t flags, mcpr_error **err);
/* mcpr_resources_get_metrics into `out` (its struct_size set here). */
mcpr_status mcprgo_resources_metrics(const mcpr_resources *r, mcpr_str method, uint32_t outcome,
                                     mcpr_call_metrics *out, mcpr_error **err);

#endif
