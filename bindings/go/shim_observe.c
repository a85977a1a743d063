/* shim_observe.c - trampolines of the Go binding's observer table (see
 * shim_observe.h). */
#include "shim_observe.h"

#include "_cgo_export.h"

static void tramp_event(void *ud, const mcpr_event *e) { mcprgoObserve((uintptr_t)ud, (mcpr_event *)e); }

static void tramp_observer_release(void *ud) { mcprgoRelease((uintptr_t)ud); }

mcpr_status mcprgo_builder_set_observer(mcpr_builder *b, uintptr_t handle, uint32_t flags, mcpr_error **err) {
    mcpr_observer_callbacks cb;
    mcpr_observer_callbacks_init(&cb);
    cb.user_data = (void *)handle;
    cb.on_event = tramp_event;
    cb.release = tramp_observer_release;
    cb.flags = flags;
    return mcpr_builder_set_observer(b, &cb, err);
}

mcpr_status mcprgo_resources_metrics(const mcpr_resources *r, mcpr_str method, uint32_t outcome,
                                     mcpr_call_metrics *out, mcpr_error **err) {
    out->struct_size = sizeof *out;
    return mcpr_resources_get_metrics(r, method, outcome, out, err);
}
