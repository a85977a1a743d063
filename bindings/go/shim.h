/* shim.h - the C side of the Go binding (package mcpresources).
 *
 * The library's callback tables take C function pointers; cgo exports Go
 * functions with their own prototypes, so the trampolines in shim.c adapt
 * one to the other. Every options struct of the library is filled in
 * exactly one place: the mcprgo_* call functions below, which take scalar
 * arguments (when a struct gains a field, only the function and its single
 * Go caller change). user_data and request_data carry integers (a
 * runtime/cgo.Handle, a request id), never Go pointers. */
#ifndef MCPRGO_SHIM_H
#define MCPRGO_SHIM_H

#include <stdbool.h>
#include <stdint.h>

#include "mcp_resources.h"

/* The fields every option struct shares (the call frame: revision,
 * deadline, token, request data, executor, result _meta, trace context),
 * filled by the Go binding in one place (callEnv.fields) and copied into
 * each option struct by one macro. */
typedef struct {
    mcpr_str protocol_revision;
    uint64_t timeout_ms;
    const mcpr_cancel *cancel;
    uint64_t request; /* request_data: the call's request id */
    const mcpr_executor *executor;
    const mcpr_result_meta *result_meta;
    mcpr_trace_context trace;
} mcprgo_call;

/* The shared fields of any option struct `opt` from `call` (the one copy,
 * used by every mcprgo_* call function). */
#define MCPRGO_SET_CALL(opt, call)                                 \
    do {                                                           \
        (opt).protocol_revision = (call).protocol_revision;        \
        (opt).timeout_ms = (call).timeout_ms;                      \
        (opt).cancel = (call).cancel;                              \
        (opt).request_data = (void *)(uintptr_t)(call).request;    \
        (opt).executor = (call).executor;                          \
        (opt).result_meta = (call).result_meta;                    \
        (opt).trace = (call).trace;                                \
    } while (0)

/* What mcprgo_read returns besides the status (written on every call). */
typedef struct {
    mcpr_bundle *bundle;
    mcpr_str json;
    bool partial;
    bool input_required;
    mcpr_error *err;
} mcprgo_read_result;

/* The input-required members of a read's options (BEHAVIOUR §18). */
typedef struct {
    mcpr_str scope_key;
    mcpr_str client_capabilities;
    mcpr_str request_state;
    mcpr_str input_responses;
    mcpr_str params;
} mcprgo_input;

/* What mcprgo_list returns besides the status (written on every call). */
typedef struct {
    mcpr_page *page;
    mcpr_str json;
    mcpr_str next_cursor;
    mcpr_error *err;
} mcprgo_list_result;

/* Everything an error object carries, read in one call. */
typedef struct {
    mcpr_status status;
    int32_t code;
    mcpr_str message;
    mcpr_str cause;
    mcpr_str jsonrpc;
    mcpr_str input_requests;
} mcprgo_error_info;

/* What mcprgo_request returns besides the status (written on every call). */
typedef struct {
    mcpr_response *response;
    mcpr_str json;
    bool is_error;
    bool partial;
    bool input_required;
    mcpr_status status;
    mcpr_str cause;
    mcpr_error *err;
    bool is_notification;
    const mcpr_subscription *subscription; /* NULL unless a subscription request succeeded */
} mcprgo_request_result;

/* One subscriber's outcome of a notification call, read in one call. */
typedef struct {
    mcpr_str message; /* empty: send nothing */
    mcpr_status status;
    mcpr_str cause;
    bool has_listing;
    uint8_t listing[32];
} mcprgo_notification;

/* Adds a definition served by the Go binding behind `handle`; with
 * go_resolve false the native mcpr_resolve_single plans the read, with
 * go_complete false the binding has no completion callback. */
mcpr_status mcprgo_builder_add(mcpr_builder *b, mcpr_str def, uintptr_t handle, bool go_resolve, bool go_complete,
                               mcpr_error **err);
/* Which policy callbacks go to Go (the others are the native allow). */
#define MCPRGO_DISCOVER 1u
#define MCPRGO_VISIBILITY 2u
#define MCPRGO_READ 4u
/* No plan-level entry: every question is its own crossing (the binding's
 * own tests compare both forms). */
#define MCPRGO_PER_ITEM 8u
/* Sets the Go policy behind `handle`: the callbacks named in go_callbacks
 * call into Go, the others allow natively (visibility: visible, issues may
 * name the URI). With any callback in Go, the table's decide_plan answers a
 * read's steps in one crossing each (mcprgoDecidePlan). */
mcpr_status mcprgo_builder_set_policy(mcpr_builder *b, uintptr_t handle, unsigned go_callbacks, mcpr_error **err);
/* Sets the native allow-all policy (no Go callback at all). */
mcpr_status mcprgo_builder_set_allow_all(mcpr_builder *b, mcpr_error **err);

/* Adds a definition with its cache hints (see mcprgo_builder_add). */
mcpr_status mcprgo_builder_add_with_hints(mcpr_builder *b, mcpr_str def, uintptr_t handle, bool go_resolve,
                                          bool go_complete, uint64_t ttl_ms, bool caller_independent, mcpr_error **err);
/* mcpr_payload_set_cache_hints. */
mcpr_status mcprgo_payload_set_cache_hints(mcpr_payload_builder *o, uint64_t ttl_ms, bool caller_independent,
                                           mcpr_error **err);

/* mcpr_read with its options. */
mcpr_status mcprgo_read(const mcpr_resources *r, mcpr_str uri, mcprgo_call call, mcprgo_input input,
                        mcprgo_read_result *out);
/* mcpr_list (templates false) or mcpr_list_templates with their options. */
mcpr_status mcprgo_list(const mcpr_resources *r, bool templates, mcpr_str scope_key, mcpr_str cursor, uint32_t page_size,
                        mcprgo_call call, mcprgo_list_result *out);
/* mcpr_executor_new_with with its options. */
mcpr_status mcprgo_executor_new(size_t threads, size_t max_hung, size_t max_queued, mcpr_executor **out,
                                mcpr_error **err);
/* mcpr_executor_get_stats into `out` (its struct_size set here). */
mcpr_status mcprgo_executor_stats(const mcpr_executor *e, mcpr_executor_stats *out, mcpr_error **err);
/* mcpr_request with its options (resource_tools: also tools/call of the
 * resource tools; client_capabilities: for reads that ask for input). */
mcpr_status mcprgo_request(const mcpr_resources *r, mcpr_str method, mcpr_str params, mcpr_str scope_key,
                           uint32_t page_size, bool resource_tools, mcpr_str client_capabilities,
                           mcpr_str request_id, uint32_t host_notifications, mcprgo_call call,
                           mcprgo_request_result *out);
/* mcpr_resource_tools_call with its options. */
mcpr_status mcprgo_resource_tools_call(const mcpr_resources *r, mcpr_str params, mcpr_str scope_key,
                                       uint32_t page_size, mcprgo_call call, mcprgo_request_result *out);

/* Which notification call mcprgo_notify makes. */
#define MCPRGO_NOTIFY_UPDATED 1
#define MCPRGO_NOTIFY_LIST_CHANGED 2
#define MCPRGO_NOTIFY_LISTING_CHANGED 3
/* mcpr_notify_updated (r, uri), mcpr_notify_list_changed (change) or
 * mcpr_notify_listing_changed (r) with their options (the call's deadline,
 * token and executor; its revision and request are not used). */
mcpr_status mcprgo_notify(int kind, const mcpr_resources *r, const mcpr_list_change *change, mcpr_str uri,
                          const mcpr_subscriber *subscribers, size_t count, mcprgo_call call,
                          mcpr_notifications **out, mcpr_error **err);
/* Reads every outcome of `n` into out[0..count) (count = mcpr_notifications_count). */
void mcprgo_notifications_read(const mcpr_notifications *n, mcprgo_notification *out, size_t count);
/* mcpr_listing_fingerprint with its read options. */
mcpr_status mcprgo_listing_fingerprint(const mcpr_resources *r, mcprgo_call call, uint8_t *out, mcpr_error **err);
/* Fills subscriber `s` (request ids travel as request_data). */
void mcprgo_subscriber_set(mcpr_subscriber *s, uint64_t request, mcpr_str revision, mcpr_str subscription_id,
                           mcpr_str uri, const uint8_t *listing);

/* What mcprgo_message returns besides the status (written on every call;
 * the strings are borrowed from `reply`, which the caller frees). */
typedef struct {
    mcpr_reply *reply;
    mcpr_str json;
    bool handled;
    mcpr_message_kind kind;
    mcpr_str method;
    mcpr_str id;
    mcpr_str params;
    mcpr_status status;
    bool is_error;
    bool partial;
    mcpr_str cause;
    bool is_notification;                   /* a listen's acknowledgement */
    const mcpr_subscription *subscription; /* borrowed from reply, or NULL */
    mcpr_error *err;
} mcprgo_message_result;

/* mcpr_message with the options of mcpr_request. */
mcpr_status mcprgo_message(const mcpr_resources *r, mcpr_str message, mcpr_str scope_key, uint32_t page_size,
                           bool resource_tools, mcpr_str client_capabilities, uint32_t host_notifications,
                           mcprgo_call call, mcprgo_message_result *out);

/* Asynchronous calls (mcpr_*_start, BEHAVIOUR §20): each starts the call
 * with `handle` (a runtime/cgo.Handle) as its done_data; the done
 * trampoline reads the outcome into the call's result struct (as the
 * blocking mcprgo_* function would have) and hands it to the Go export of
 * its kind (mcprgoReadDone, mcprgoListDone, mcprgoRequestDone,
 * mcprgoMessageDone), exactly once, on an executor thread. `done` never
 * runs when the start fails. */
mcpr_status mcprgo_read_start(const mcpr_resources *r, mcpr_str uri, mcprgo_call call, mcprgo_input input,
                              uintptr_t handle, mcpr_error **err);
mcpr_status mcprgo_list_start(const mcpr_resources *r, bool templates, mcpr_str scope_key, mcpr_str cursor,
                              uint32_t page_size, mcprgo_call call, uintptr_t handle, mcpr_error **err);
mcpr_status mcprgo_request_start(const mcpr_resources *r, mcpr_str method, mcpr_str params, mcpr_str scope_key,
                                 uint32_t page_size, bool resource_tools, mcpr_str client_capabilities,
                                 mcpr_str request_id, uint32_t host_notifications, mcprgo_call call, uintptr_t handle,
                                 mcpr_error **err);
/* The options of mcprgo_message (a listen message takes its own id). */
mcpr_status mcprgo_message_start(const mcpr_resources *r, mcpr_str message, mcpr_str scope_key, uint32_t page_size,
                                 bool resource_tools, mcpr_str client_capabilities, uint32_t host_notifications,
                                 mcprgo_call call, uintptr_t handle, mcpr_error **err);

/* Reads status, JSON-RPC code, message and cause of `e` into `out`. */
void mcprgo_error_info_of(const mcpr_error *e, mcprgo_error_info *out);

#endif
