/* The host of the subscription tests (test_subscribe.c,
 * test_subscribe_async.c): tenants (the request_data every callback
 * receives) and what each may not see, a policy deciding by them, a
 * registry of a few definitions and a template, request options, and
 * subscribers. Included by one test file each: everything is static. */
#ifndef MCPR_SUBSCRIBE_HOST_H
#define MCPR_SUBSCRIBE_HOST_H

#include <stdlib.h>

#include "harness.h"

/* ------------------------------------------------------------ the tenants */

#define RULES 8

/* A caller (the request_data every callback receives) and what it may not
 * see. */
typedef struct {
    const char *name;
    const char *undiscoverable[RULES]; /* definitions (uri / uriTemplate) */
    const char *hidden[RULES];         /* targets */
    const char *revoked[RULES];        /* targets: read permission denied */
    const char *failing[RULES];        /* definitions whose discover fails */
    const char *asking[RULES];         /* definitions (discover) and targets (read) that ask for input */
} tenant;

typedef struct {
    atomic_int calls;
    atomic_int releases;
    atomic_int subscription_phase; /* discover calls in MCPR_PHASE_SUBSCRIPTION */
} tenants_policy;

static inline bool listed(const char *const *list, mcpr_str s) {
    for (int i = 0; i < RULES && list[i]; i++)
        if (str_eq(s, list[i])) return true;
    return false;
}

static inline const tenant *who(const mcpr_call *call) { return mcpr_call_request_data(call); }

/* How often the policy asked for input. */
static atomic_int input_asks;

/* The policy asks the client for its roots (BEHAVIOUR §18), with state. */
static inline mcpr_cb_result asks(const mcpr_call *call) {
    atomic_fetch_add(&input_asks, 1);
    CHECK_STATUS(mcpr_input_add_request(call, S("roots"), S("{\"method\":\"roots/list\"}"), NULL), MCPR_OK);
    CHECK_STATUS(mcpr_input_set_state(call, (const uint8_t *)"SECRET-STATE", 12, NULL), MCPR_OK);
    return MCPR_CB_INPUT_REQUIRED;
}

static inline mcpr_cb_result t_discover(void *ud, const mcpr_call *call, const mcpr_definition *d) {
    tenants_policy *p = ud;
    atomic_fetch_add(&p->calls, 1);
    if (mcpr_call_phase(call) == MCPR_PHASE_SUBSCRIPTION) atomic_fetch_add(&p->subscription_phase, 1);
    const tenant *t = who(call);
    if (!t) return MCPR_CB_OK;
    if (listed(t->failing, mcpr_definition_uri(d))) {
        mcpr_call_set_cause(call, S("SECRET-CAUSE"));
        return MCPR_CB_FAILED;
    }
    if (listed(t->asking, mcpr_definition_uri(d))) return asks(call);
    return listed(t->undiscoverable, mcpr_definition_uri(d)) ? MCPR_CB_UNAVAILABLE : MCPR_CB_OK;
}

static inline mcpr_cb_result t_visibility(void *ud, const mcpr_call *call, const mcpr_target *tg,
                                   mcpr_visibility *out) {
    tenants_policy *p = ud;
    atomic_fetch_add(&p->calls, 1);
    const tenant *t = who(call);
    out->visible = !(t && listed(t->hidden, mcpr_target_uri(tg)));
    out->disclose_issue_uri = true;
    return MCPR_CB_OK;
}

static inline mcpr_cb_result t_read(void *ud, const mcpr_call *call, const mcpr_target *tg) {
    tenants_policy *p = ud;
    atomic_fetch_add(&p->calls, 1);
    const tenant *t = who(call);
    if (t && listed(t->asking, mcpr_target_uri(tg))) return asks(call);
    return t && listed(t->revoked, mcpr_target_uri(tg)) ? MCPR_CB_UNAVAILABLE : MCPR_CB_OK;
}

static inline void t_release(void *ud) {
    tenants_policy *p = ud;
    atomic_fetch_add(&p->releases, 1);
}

static atomic_int body_reads;

static inline mcpr_cb_result no_read(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)ud, (void)call, (void)t, (void)out;
    atomic_fetch_add(&body_reads, 1);
    return MCPR_CB_FAILED;
}

static const char *DEFS[] = {
    "{\"uri\":\"doc://a\",\"name\":\"a\"}",
    "{\"uri\":\"doc://b\",\"name\":\"b\"}",
    "{\"uri\":\"doc://c\",\"name\":\"c\"}",
    "{\"uriTemplate\":\"file://docs/{name}\",\"name\":\"files\"}",
};

/* A registry of `defs` with the tenants policy, declaring `notify`. */
static inline mcpr_resources *registry_of(tenants_policy *p, const char **defs, size_t n, uint32_t notify) {
    mcpr_builder *b = mcpr_builder_new();
    mcpr_policy_callbacks pc = {
        .struct_size = sizeof pc,
        .user_data = p,
        .discover = t_discover,
        .visibility = t_visibility,
        .read = t_read,
        .release = t_release,
    };
    CHECK_STATUS(mcpr_builder_set_policy(b, &pc, NULL), MCPR_OK);
    mcpr_binding_callbacks bc = {.struct_size = sizeof bc, .resolve = mcpr_resolve_single, .read = no_read};
    for (size_t i = 0; i < n; i++) CHECK_STATUS(mcpr_builder_add(b, str_of(defs[i]), &bc, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_notifications(b, notify, NULL), MCPR_OK);
    mcpr_resources *r = NULL;
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_builder_build(b, &r, &e), MCPR_OK);
    show_error("build", e);
    return r;
}

static inline mcpr_resources *registry(tenants_policy *p) {
    return registry_of(p, DEFS, sizeof DEFS / sizeof DEFS[0],
                       MCPR_NOTIFY_RESOURCE_UPDATES | MCPR_NOTIFY_RESOURCES_LIST_CHANGED);
}

static inline mcpr_request_options req(const tenant *t, const char *revision) {
    mcpr_request_options o;
    mcpr_request_options_init(&o);
    o.protocol_revision = str_of(revision);
    o.request_data = (void *)t;
    o.request_id = S("1");
    return o;
}

/* mcpr_request that must answer; the caller frees the response. */
static inline mcpr_response *ask(const mcpr_resources *r, const char *method, const char *params,
                          const mcpr_request_options *o) {
    mcpr_response *resp = NULL;
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_request(r, str_of(method), str_of(params), o, &resp, &e), MCPR_OK);
    show_error(method, e);
    return resp;
}

static inline mcpr_subscriber subscriber(const tenant *t, const char *revision, const char *id) {
    mcpr_subscriber s = MCPR_SUBSCRIBER_INIT;
    s.request_data = (void *)t;
    s.protocol_revision = str_of(revision);
    if (id) s.subscription_id = str_of(id);
    return s;
}

static inline mcpr_notifications *notify(const mcpr_resources *r, const char *uri, const mcpr_subscriber *s, size_t n) {
    mcpr_notifications *out = NULL;
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_notify_updated(r, str_of(uri), s, n, NULL, &out, &e), MCPR_OK);
    show_error("notify", e);
    return out;
}

#endif
