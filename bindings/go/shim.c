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

/* The plan-level entry: one crossing into Go answers a whole step of a
 * read (the phase read here, so that Go needs no call back into C for it). */
static mcpr_cb_result tramp_decide_plan(void *ud, const mcpr_call *call, const mcpr_plan_questions *q,
                                        mcpr_plan_decision *d) {
    return mcprgoDecidePlan((uintptr_t)ud, REQ(call), (mcpr_call *)call, mcpr_call_phase(call),
                            (mcpr_plan_questions *)q, d);
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
        /* Any policy callback in Go: reads ask the plan-level entry, one
         * crossing per step instead of one per question. */
        .decide_plan = (go_callbacks & (MCPRGO_DISCOVER | MCPRGO_VISIBILITY | MCPRGO_READ)) &&
                               !(go_callbacks & MCPRGO_PER_ITEM)
                           ? tramp_decide_plan
                           : NULL,
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

/* The options of mcprgo_request, mcprgo_resource_tools_call and
 * mcprgo_message. */
static mcpr_request_options request_options(mcpr_str scope_key, uint32_t page_size, bool resource_tools,
                                            mcpr_str client_capabilities, mcpr_str request_id,
                                            uint32_t host_notifications, mcprgo_call call) {
    mcpr_request_options opt = {
        .struct_size = sizeof(mcpr_request_options),
        .scope_key = scope_key,
        .page_size = page_size,
        .resource_tools = resource_tools,
        .client_capabilities = client_capabilities,
        .request_id = request_id,
        .host_notifications = host_notifications,
    };
    MCPRGO_SET_CALL(opt, call);
    return opt;
}

/* Empties `out` before a request call. */
static void response_start(mcprgo_request_result *out) {
    out->is_notification = false;
    out->subscription = NULL;
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
        out->is_notification = mcpr_response_is_notification(out->response);
        out->subscription = mcpr_response_subscription(out->response);
    }
    return st;
}

/* Reads a reply into `out` (mcprgo_message and the asynchronous message). */
static void reply_fill(mcpr_reply *reply, mcprgo_message_result *out) {
    out->json = mcpr_reply_json(reply);
    out->handled = mcpr_reply_handled(reply);
    out->kind = mcpr_reply_kind(reply);
    out->method = mcpr_reply_method(reply);
    out->id = mcpr_reply_id(reply);
    out->params = mcpr_reply_params(reply);
    out->status = mcpr_reply_status(reply);
    out->is_error = mcpr_reply_is_error(reply);
    out->partial = mcpr_reply_is_partial(reply);
    out->cause = mcpr_reply_cause(reply);
    out->is_notification = mcpr_reply_is_notification(reply);
    out->subscription = mcpr_reply_subscription(reply);
}

mcpr_status mcprgo_notify(int kind, const mcpr_resources *r, const mcpr_list_change *change, mcpr_str uri,
                          const mcpr_subscriber *subscribers, size_t count, mcprgo_call call,
                          mcpr_notifications **out, mcpr_error **err) {
    /* Request data and revision are each subscriber's, and a notification
     * has no result _meta: the options have only the call's deadline,
     * token, executor and trace context. */
    mcpr_notify_options opt = {
        .struct_size = sizeof(mcpr_notify_options),
        .timeout_ms = call.timeout_ms,
        .cancel = call.cancel,
        .executor = call.executor,
        .trace = call.trace,
    };
    *out = NULL;
    *err = NULL;
    switch (kind) {
    case MCPRGO_NOTIFY_UPDATED:
        return mcpr_notify_updated(r, uri, subscribers, count, &opt, out, err);
    case MCPRGO_NOTIFY_LIST_CHANGED:
        return mcpr_notify_list_changed(change, subscribers, count, &opt, out, err);
    default:
        return mcpr_notify_listing_changed(r, subscribers, count, &opt, out, err);
    }
}

void mcprgo_notifications_read(const mcpr_notifications *n, mcprgo_notification *out, size_t count) {
    for (size_t i = 0; i < count; i++) {
        out[i].message = mcpr_notifications_message(n, i);
        out[i].status = mcpr_notifications_status(n, i);
        out[i].cause = mcpr_notifications_cause(n, i);
        out[i].has_listing = mcpr_notifications_listing(n, i, out[i].listing);
    }
}

mcpr_status mcprgo_listing_fingerprint(const mcpr_resources *r, mcprgo_call call, uint8_t *out, mcpr_error **err) {
    mcpr_read_options opt = {.struct_size = sizeof(mcpr_read_options)};
    MCPRGO_SET_CALL(opt, call);
    *err = NULL;
    return mcpr_listing_fingerprint(r, &opt, out, err);
}

void mcprgo_subscriber_set(mcpr_subscriber *s, uint64_t request, mcpr_str revision, mcpr_str subscription_id,
                           mcpr_str uri, const uint8_t *listing) {
    mcpr_subscriber_init(s);
    s->request_data = (void *)(uintptr_t)request;
    s->protocol_revision = revision;
    s->subscription_id = subscription_id;
    s->uri = uri;
    s->listing = listing;
}

mcpr_status mcprgo_message(const mcpr_resources *r, mcpr_str message, mcpr_str scope_key, uint32_t page_size,
                           bool resource_tools, mcpr_str client_capabilities, uint32_t host_notifications,
                           mcprgo_call call, mcprgo_message_result *out) {
    /* A listen message takes the message's own id: no request_id. */
    mcpr_request_options opt = request_options(scope_key, page_size, resource_tools, client_capabilities,
                                               (mcpr_str){NULL, 0}, host_notifications, call);
    memset(out, 0, sizeof *out);
    mcpr_status st = mcpr_message(r, message, &opt, &out->reply, &out->err);
    if (st == MCPR_OK) reply_fill(out->reply, out);
    return st;
}

mcpr_status mcprgo_request(const mcpr_resources *r, mcpr_str method, mcpr_str params, mcpr_str scope_key,
                           uint32_t page_size, bool resource_tools, mcpr_str client_capabilities,
                           mcpr_str request_id, uint32_t host_notifications, mcprgo_call call,
                           mcprgo_request_result *out) {
    mcpr_request_options opt = request_options(scope_key, page_size, resource_tools, client_capabilities,
                                               request_id, host_notifications, call);
    response_start(out);
    return response_finish(mcpr_request(r, method, params, &opt, &out->response, &out->err), out);
}

mcpr_status mcprgo_resource_tools_call(const mcpr_resources *r, mcpr_str params, mcpr_str scope_key,
                                       uint32_t page_size, mcprgo_call call, mcprgo_request_result *out) {
    mcpr_request_options opt =
        request_options(scope_key, page_size, false, (mcpr_str){NULL, 0}, (mcpr_str){NULL, 0}, 0, call);
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

/* ------------------------------------------------ asynchronous calls */

static void read_done(void *data, mcpr_status st, mcpr_bundle *bundle, mcpr_error *err) {
    mcprgo_read_result out;
    memset(&out, 0, sizeof out);
    out.bundle = bundle;
    out.err = err;
    if (bundle) {
        out.json = mcpr_bundle_json(bundle);
        out.partial = mcpr_bundle_is_partial(bundle);
        out.input_required = mcpr_bundle_is_input_required(bundle);
    }
    mcprgoReadDone((uintptr_t)data, st, &out);
}

static void list_done(void *data, mcpr_status st, mcpr_page *page, mcpr_error *err) {
    mcprgo_list_result out;
    memset(&out, 0, sizeof out);
    out.page = page;
    out.err = err;
    if (page) {
        out.json = mcpr_page_json(page);
        out.next_cursor = mcpr_page_next_cursor(page);
    }
    mcprgoListDone((uintptr_t)data, st, &out);
}

static void request_done(void *data, mcpr_status st, mcpr_response *response, mcpr_error *err) {
    mcprgo_request_result out;
    response_start(&out);
    out.response = response;
    out.err = err;
    if (response) response_finish(MCPR_OK, &out);
    mcprgoRequestDone((uintptr_t)data, st, &out);
}

static void message_done(void *data, mcpr_status st, mcpr_reply *reply, mcpr_error *err) {
    mcprgo_message_result out;
    memset(&out, 0, sizeof out);
    out.reply = reply;
    out.err = err;
    if (reply) reply_fill(reply, &out);
    mcprgoMessageDone((uintptr_t)data, st, &out);
}

mcpr_status mcprgo_read_start(const mcpr_resources *r, mcpr_str uri, mcprgo_call call, mcprgo_input input,
                              uintptr_t handle, mcpr_error **err) {
    mcpr_read_options opt = {
        .struct_size = sizeof(mcpr_read_options),
        .scope_key = input.scope_key,
        .client_capabilities = input.client_capabilities,
        .request_state = input.request_state,
        .input_responses = input.input_responses,
        .params = input.params,
    };
    MCPRGO_SET_CALL(opt, call);
    return mcpr_read_start(r, uri, &opt, read_done, (void *)handle, err);
}

mcpr_status mcprgo_list_start(const mcpr_resources *r, bool templates, mcpr_str scope_key, mcpr_str cursor,
                              uint32_t page_size, mcprgo_call call, uintptr_t handle, mcpr_error **err) {
    mcpr_list_options opt = {
        .struct_size = sizeof(mcpr_list_options),
        .scope_key = scope_key,
        .cursor = cursor,
        .page_size = page_size,
    };
    MCPRGO_SET_CALL(opt, call);
    return templates ? mcpr_list_templates_start(r, &opt, list_done, (void *)handle, err)
                     : mcpr_list_start(r, &opt, list_done, (void *)handle, err);
}

mcpr_status mcprgo_request_start(const mcpr_resources *r, mcpr_str method, mcpr_str params, mcpr_str scope_key,
                                 uint32_t page_size, bool resource_tools, mcpr_str client_capabilities,
                                 mcpr_str request_id, uint32_t host_notifications, mcprgo_call call, uintptr_t handle,
                                 mcpr_error **err) {
    mcpr_request_options opt = request_options(scope_key, page_size, resource_tools, client_capabilities,
                                               request_id, host_notifications, call);
    return mcpr_request_start(r, method, params, &opt, request_done, (void *)handle, err);
}

mcpr_status mcprgo_message_start(const mcpr_resources *r, mcpr_str message, mcpr_str scope_key, uint32_t page_size,
                                 bool resource_tools, mcpr_str client_capabilities, uint32_t host_notifications,
                                 mcprgo_call call, uintptr_t handle, mcpr_error **err) {
    /* A listen message takes the message's own id: no request_id. */
    mcpr_request_options opt = request_options(scope_key, page_size, resource_tools, client_capabilities,
                                               (mcpr_str){NULL, 0}, host_notifications, call);
    return mcpr_message_start(r, message, &opt, message_done, (void *)handle, err);
}

void mcprgo_error_info_of(const mcpr_error *e, mcprgo_error_info *out) {
    out->status = mcpr_error_status(e);
    out->code = mcpr_error_jsonrpc_code(e);
    out->message = mcpr_error_message(e);
    out->cause = mcpr_error_cause(e);
    out->jsonrpc = mcpr_error_jsonrpc_json(e);
    out->input_requests = mcpr_error_input_requests(e);
}
