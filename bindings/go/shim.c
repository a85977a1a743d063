/* shim.c - trampolines from the library's callback tables to the Go
 * exports, the native allow-all policy, and the functions that fill the
 * library's options structs (see shim.h). */
#include <string.h>

#include "shim.h"

#include "_cgo_export.h"

/* The request id of a callback's call, read here so that the Go side needs
 * no extra call back into C for it. */
#define REQ(call) ((uint64_t)(uintptr_t)mcpr_call_request_data(call))

static mcpr_cb_result tramp_resolve(void *ud, const mcpr_call *call, const mcpr_match *m, mcpr_plan_builder *plan) {
    return mcprgoResolve((uintptr_t)ud, REQ(call), (mcpr_call *)call, (mcpr_match *)m, plan);
}

static mcpr_cb_result tramp_read(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    return mcprgoRead((uintptr_t)ud, REQ(call), (mcpr_call *)call, (mcpr_target *)t, out);
}

static void tramp_release(void *ud) { mcprgoRelease((uintptr_t)ud); }

static mcpr_cb_result tramp_complete(void *ud, const mcpr_call *call, const mcpr_completion_request *q,
                                     mcpr_completion_builder *out) {
    return mcprgoComplete((uintptr_t)ud, REQ(call), (mcpr_call *)call, (mcpr_completion_request *)q, out);
}

static mcpr_cb_result tramp_discover(void *ud, const mcpr_call *call, const mcpr_definition *d) {
    return mcprgoDiscover((uintptr_t)ud, REQ(call), (mcpr_call *)call, (mcpr_definition *)d);
}

static mcpr_cb_result tramp_visibility(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_visibility *out) {
    return mcprgoVisibility((uintptr_t)ud, REQ(call), (mcpr_call *)call, (mcpr_target *)t, out);
}

static mcpr_cb_result tramp_policy_read(void *ud, const mcpr_call *call, const mcpr_target *t) {
    return mcprgoPolicyRead((uintptr_t)ud, REQ(call), (mcpr_call *)call, (mcpr_target *)t);
}

static mcpr_cb_result allow_discover(void *ud, const mcpr_call *call, const mcpr_definition *d) {
    (void)ud, (void)call, (void)d;
    return MCPR_CB_OK;
}

static mcpr_cb_result allow_visibility(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_visibility *out) {
    (void)ud, (void)call, (void)t;
    out->visible = true;
    out->disclose_issue_uri = true;
    return MCPR_CB_OK;
}

static mcpr_cb_result allow_read(void *ud, const mcpr_call *call, const mcpr_target *t) {
    (void)ud, (void)call, (void)t;
    return MCPR_CB_OK;
}

/* The one place the binding callback table is filled. */
static mcpr_binding_callbacks binding_table(uintptr_t handle, bool go_resolve, bool go_complete) {
    mcpr_binding_callbacks cb = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = (void *)handle,
        .resolve = go_resolve ? tramp_resolve : mcpr_resolve_single,
        .read = tramp_read,
        .release = tramp_release,
        .complete = go_complete ? tramp_complete : NULL,
    };
    return cb;
}

mcpr_status mcprgo_builder_add(mcpr_builder *b, mcpr_str def, uintptr_t handle, bool go_resolve, bool go_complete,
                               mcpr_error **err) {
    mcpr_binding_callbacks cb = binding_table(handle, go_resolve, go_complete);
    return mcpr_builder_add(b, def, &cb, err);
}

mcpr_status mcprgo_builder_set_policy(mcpr_builder *b, uintptr_t handle, unsigned go_callbacks, mcpr_error **err) {
    mcpr_policy_callbacks cb = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .user_data = (void *)handle,
        .discover = (go_callbacks & MCPRGO_DISCOVER) ? tramp_discover : allow_discover,
        .visibility = (go_callbacks & MCPRGO_VISIBILITY) ? tramp_visibility : allow_visibility,
        .read = (go_callbacks & MCPRGO_READ) ? tramp_policy_read : allow_read,
        .release = tramp_release,
    };
    return mcpr_builder_set_policy(b, &cb, err);
}

mcpr_status mcprgo_builder_set_allow_all(mcpr_builder *b, mcpr_error **err) {
    mcpr_policy_callbacks cb = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .user_data = NULL,
        .discover = allow_discover,
        .visibility = allow_visibility,
        .read = allow_read,
        .release = NULL,
    };
    return mcpr_builder_set_policy(b, &cb, err);
}

mcpr_status mcprgo_builder_add_with_hints(mcpr_builder *b, mcpr_str def, uintptr_t handle, bool go_resolve,
                                          bool go_complete, uint64_t ttl_ms, bool caller_independent, mcpr_error **err) {
    mcpr_binding_callbacks cb = binding_table(handle, go_resolve, go_complete);
    mcpr_cache_hints hints = MCPR_CACHE_HINTS_INIT;
    hints.ttl_ms = ttl_ms;
    hints.caller_independent = caller_independent;
    return mcpr_builder_add_with_hints(b, def, &cb, &hints, err);
}

mcpr_status mcprgo_payload_set_cache_hints(mcpr_payload_builder *o, uint64_t ttl_ms, bool caller_independent,
                                           mcpr_error **err) {
    mcpr_cache_hints hints = MCPR_CACHE_HINTS_INIT;
    hints.ttl_ms = ttl_ms;
    hints.caller_independent = caller_independent;
    return mcpr_payload_set_cache_hints(o, &hints, err);
}

mcpr_status mcprgo_read(const mcpr_resources *r, mcpr_str uri, mcprgo_call call, mcprgo_input input,
                        mcprgo_read_result *out) {
    mcpr_read_options opt = {
        .struct_size = sizeof(mcpr_read_options),
        .scope_key = input.scope_key,
        .client_capabilities = input.client_capabilities,
        .request_state = input.request_state,
        .input_responses = input.input_responses,
        .params = input.params,
    };
    MCPRGO_SET_CALL(opt, call);
    out->bundle = NULL;
    out->err = NULL;
    out->json.ptr = NULL;
    out->json.len = 0;
    out->partial = false;
    out->input_required = false;
    mcpr_status st = mcpr_read(r, uri, &opt, &out->bundle, &out->err);
    if (st == MCPR_OK) {
        out->json = mcpr_bundle_json(out->bundle);
        out->partial = mcpr_bundle_is_partial(out->bundle);
        out->input_required = mcpr_bundle_is_input_required(out->bundle);
    }
    return st;
}

mcpr_status mcprgo_list(const mcpr_resources *r, bool templates, mcpr_str scope_key, mcpr_str cursor, uint32_t page_size,
                        mcprgo_call call, mcprgo_list_result *out) {
    mcpr_list_options opt = {
        .struct_size = sizeof(mcpr_list_options),
        .scope_key = scope_key,
        .cursor = cursor,
        .page_size = page_size,
    };
    MCPRGO_SET_CALL(opt, call);
    out->page = NULL;
    out->err = NULL;
    out->json.ptr = NULL;
    out->json.len = 0;
    out->next_cursor.ptr = NULL;
    out->next_cursor.len = 0;
    mcpr_status st = templates ? mcpr_list_templates(r, &opt, &out->page, &out->err)
                               : mcpr_list(r, &opt, &out->page, &out->err);
    if (st == MCPR_OK) {
        out->json = mcpr_page_json(out->page);
        out->next_cursor = mcpr_page_next_cursor(out->page);
    }
    return st;
}

/* The options of mcprgo_request and mcprgo_resource_tools_call. */
static mcpr_request_options request_options(mcpr_str scope_key, uint32_t page_size, bool resource_tools,
                                            mcpr_str client_capabilities, mcprgo_call call) {
    mcpr_request_options opt = {
        .struct_size = sizeof(mcpr_request_options),
        .scope_key = scope_key,
        .page_size = page_size,
        .resource_tools = resource_tools,
        .client_capabilities = client_capabilities,
    };
    MCPRGO_SET_CALL(opt, call);
    return opt;
}

/* Empties `out` before a request call. */
static void response_start(mcprgo_request_result *out) {
    out->response = NULL;
    out->err = NULL;
    out->json.ptr = NULL;
    out->json.len = 0;
    out->is_error = false;
    out->partial = false;
    out->input_required = false;
    out->status = MCPR_OK;
    out->cause.ptr = NULL;
    out->cause.len = 0;
}

/* Reads the response of a request call that returned `st` into `out`. */
static mcpr_status response_finish(mcpr_status st, mcprgo_request_result *out) {
    if (st == MCPR_OK) {
        out->json = mcpr_response_json(out->response);
        out->is_error = mcpr_response_is_error(out->response);
        out->partial = mcpr_response_is_partial(out->response);
        out->input_required = mcpr_response_is_input_required(out->response);
        out->status = mcpr_response_status(out->response);
        out->cause = mcpr_response_cause(out->response);
    }
    return st;
}

mcpr_status mcprgo_message(const mcpr_resources *r, mcpr_str message, mcpr_str revision, mcpr_str scope_key,
                           uint32_t page_size, mcpr_str client_capabilities, uint64_t timeout_ms,
                           const mcpr_cancel *cancel, uint64_t request, const mcpr_executor *executor,
                           mcprgo_message_result *out) {
    mcpr_request_options opt = {
        .struct_size = sizeof(mcpr_request_options),
        .protocol_revision = revision,
        .scope_key = scope_key,
        .page_size = page_size,
        .client_capabilities = client_capabilities,
        .timeout_ms = timeout_ms,
        .cancel = cancel,
        .request_data = (void *)(uintptr_t)request,
        .executor = executor,
    };
    memset(out, 0, sizeof *out);
    mcpr_status st = mcpr_message(r, message, &opt, &out->reply, &out->err);
    if (st == MCPR_OK) {
        out->json = mcpr_reply_json(out->reply);
        out->handled = mcpr_reply_handled(out->reply);
        out->kind = mcpr_reply_kind(out->reply);
        out->method = mcpr_reply_method(out->reply);
        out->id = mcpr_reply_id(out->reply);
        out->params = mcpr_reply_params(out->reply);
        out->status = mcpr_reply_status(out->reply);
        out->is_error = mcpr_reply_is_error(out->reply);
        out->partial = mcpr_reply_is_partial(out->reply);
        out->cause = mcpr_reply_cause(out->reply);
    }
    return st;
}

mcpr_status mcprgo_request(const mcpr_resources *r, mcpr_str method, mcpr_str params, mcpr_str scope_key,
                           uint32_t page_size, bool resource_tools, mcpr_str client_capabilities, mcprgo_call call,
                           mcprgo_request_result *out) {
    mcpr_request_options opt = request_options(scope_key, page_size, resource_tools, client_capabilities, call);
    response_start(out);
    return response_finish(mcpr_request(r, method, params, &opt, &out->response, &out->err), out);
}

mcpr_status mcprgo_resource_tools_call(const mcpr_resources *r, mcpr_str params, mcpr_str scope_key,
                                       uint32_t page_size, mcprgo_call call, mcprgo_request_result *out) {
    mcpr_request_options opt = request_options(scope_key, page_size, false, (mcpr_str){NULL, 0}, call);
    response_start(out);
    return response_finish(mcpr_resource_tools_call(r, params, &opt, &out->response, &out->err), out);
}

mcpr_status mcprgo_executor_new(size_t threads, size_t max_hung, size_t max_queued, mcpr_executor **out,
                                mcpr_error **err) {
    mcpr_executor_options opt;
    mcpr_executor_options_init(&opt);
    opt.threads = threads;
    opt.max_hung = max_hung;
    opt.max_queued = max_queued;
    return mcpr_executor_new_with(&opt, out, err);
}

mcpr_status mcprgo_executor_stats(const mcpr_executor *e, mcpr_executor_stats *out, mcpr_error **err) {
    out->struct_size = sizeof(mcpr_executor_stats);
    return mcpr_executor_get_stats(e, out, err);
}

void mcprgo_error_info_of(const mcpr_error *e, mcprgo_error_info *out) {
    out->status = mcpr_error_status(e);
    out->code = mcpr_error_jsonrpc_code(e);
    out->message = mcpr_error_message(e);
    out->cause = mcpr_error_cause(e);
    out->jsonrpc = mcpr_error_jsonrpc_json(e);
    out->input_requests = mcpr_error_input_requests(e);
}
