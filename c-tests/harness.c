#include "harness.h"

#include <stdlib.h>
#include <time.h>

int harness_failures = 0;

mcpr_str str_of(const char *s) {
    mcpr_str out = {s, s ? strlen(s) : 0};
    return out;
}

bool str_eq(mcpr_str s, const char *lit) {
    size_t n = strlen(lit);
    return s.len == n && (n == 0 || memcmp(s.ptr, lit, n) == 0);
}

static const char *find(const char *hay, size_t len, const char *needle) {
    size_t n = strlen(needle);
    if (n == 0) return hay;
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(hay + i, needle, n) == 0) return hay + i;
    return NULL;
}

bool str_contains(mcpr_str s, const char *needle) { return find(s.ptr, s.len, needle) != NULL; }

size_t str_count(mcpr_str s, const char *needle) {
    size_t count = 0, n = strlen(needle);
    const char *p = s.ptr;
    size_t left = s.len;
    const char *hit;
    while ((hit = find(p, left, needle)) != NULL) {
        count++;
        left -= (size_t)(hit - p) + n;
        p = hit + n;
    }
    return count;
}

bool has_warning_uri(mcpr_str json) {
    const char *prefix = "\"uri\":\"mcp-warning://read/";
    const char *hit = find(json.ptr, json.len, prefix);
    if (!hit) return false;
    const char *hex = hit + strlen(prefix);
    if ((size_t)(hex - json.ptr) + 33 > json.len) return false;
    for (int i = 0; i < 32; i++) {
        char c = hex[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    }
    return hex[32] == '"';
}

int harness_finish(const char *name) {
    if (harness_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, harness_failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

unsigned slow(void) {
    const char *v = getenv("MCPR_TEST_SLOW");
    return (v && *v && *v != '0') ? 4 : 1;
}

void *misuse_null(void) { return NULL; }

void sleep_ms(unsigned ms) {
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

unsigned long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000ULL + (unsigned long long)ts.tv_nsec / 1000000ULL;
}

void show_error(const char *what, mcpr_error *e) {
    if (!e) return;
    mcpr_str m = mcpr_error_message(e), c = mcpr_error_cause(e);
    fprintf(stderr, "%s: status %d: %.*s (cause: %.*s)\n", what, (int)mcpr_error_status(e),
            (int)m.len, m.ptr, (int)c.len, c.ptr);
    mcpr_error_free(e);
}

/* ---------------------------------------------------------------- policy */

static int index_in(const char *const *list, mcpr_str s) {
    for (int i = 0; i < HOST_MAX && list[i]; i++)
        if (str_eq(s, list[i])) return i;
    return -1;
}

static mcpr_cb_result pol_discover(void *ud, const mcpr_call *call, const mcpr_definition *def) {
    host_policy *p = ud;
    (void)call;
    int n = atomic_fetch_add(&p->discover_calls, 1);
    if (p->expect_request_data && mcpr_call_request_data(call) == p->expect_request_data)
        atomic_fetch_add(&p->saw_request_data, 1);
    if (mcpr_call_max_bytes(call) != 0) harness_failures++; /* only body reads have one */
    if (p->fail_discover) {
        mcpr_call_set_cause(call, S("SECRET-DISCOVER-CAUSE"));
        return MCPR_CB_FAILED;
    }
    mcpr_str uri = mcpr_definition_uri(def);
    if (index_in(p->deny_discover, uri) >= 0) return MCPR_CB_UNAVAILABLE;
    if (n > 0 && index_in(p->discover_later, uri) >= 0) return MCPR_CB_UNAVAILABLE;
    return MCPR_CB_OK;
}

static mcpr_cb_result pol_visibility(void *ud, const mcpr_call *call, const mcpr_target *t,
                                     mcpr_visibility *out) {
    host_policy *p = ud;
    (void)call;
    atomic_fetch_add(&p->visibility_calls, 1);
    if (p->fail_visibility) return MCPR_CB_FAILED;
    mcpr_str uri = mcpr_target_uri(t);
    bool visible = index_in(p->hidden, uri) < 0;
    int i;
    if ((i = index_in(p->hide_later, uri)) >= 0) {
        if (atomic_fetch_add(&p->per_uri_checks[i], 1) > 0) visible = false;
    }
    if ((i = index_in(p->show_later, uri)) >= 0) {
        visible = atomic_fetch_add(&p->per_uri_checks[i], 1) > 0;
    }
    out->visible = visible;
    out->disclose_issue_uri = p->disclose;
    return MCPR_CB_OK;
}

static mcpr_cb_result pol_read(void *ud, const mcpr_call *call, const mcpr_target *t) {
    host_policy *p = ud;
    (void)call;
    atomic_fetch_add(&p->permission_calls, 1);
    mcpr_str uri = mcpr_target_uri(t);
    if (index_in(p->denied, uri) >= 0) return MCPR_CB_UNAVAILABLE;
    int i = index_in(p->revoke_later, uri);
    /* per_uri_checks is shared with hide/show lists: revoke uses slots 8.. */
    if (i >= 0 && atomic_fetch_add(&p->per_uri_checks[HOST_MAX / 2 + i % (HOST_MAX / 2)], 1) > 0)
        return MCPR_CB_UNAVAILABLE;
    return MCPR_CB_OK;
}

static void pol_release(void *ud) { atomic_fetch_add(&((host_policy *)ud)->releases, 1); }

bool host_plan_form = false;

/* One target's answers from the per-item callbacks; false where the per-item
 * form stops asking (see mcpr_decide_plan_fn). */
static bool pol_decide_target(host_policy *p, const mcpr_call *call, const mcpr_target *t,
                              mcpr_target_decision *d, bool is_requested) {
    d->visibility_result = pol_visibility(p, call, t, &d->visibility);
    if (d->visibility_result != MCPR_CB_OK) return false;
    if (!d->visibility.visible) return !is_requested;
    d->read_result = pol_read(p, call, t);
    if (is_requested) return d->read_result == MCPR_CB_OK;
    return d->read_result == MCPR_CB_OK || d->read_result == MCPR_CB_UNAVAILABLE;
}

/* The plan-level entry on top of the per-item callbacks, asked in their
 * order and stopping where the per-item form stops. */
static mcpr_cb_result pol_decide_plan(void *ud, const mcpr_call *call, const mcpr_plan_questions *q,
                                      mcpr_plan_decision *d) {
    host_policy *p = ud;
    if (!q || !d || (q->items_len && (!q->items || !d->items)) || q->items_len != d->items_len) {
        harness_failures++;
        return MCPR_CB_FAILED;
    }
    if (q->definition) {
        d->discover = pol_discover(p, call, q->definition);
        if (d->discover != MCPR_CB_OK) return MCPR_CB_OK;
    }
    if (q->requested && !pol_decide_target(p, call, q->requested, &d->requested, true)) return MCPR_CB_OK;
    for (size_t i = 0; i < q->items_len; i++)
        if (!pol_decide_target(p, call, q->items[i], &d->items[i], false)) break;
    return MCPR_CB_OK;
}

mcpr_policy_callbacks host_policy_table(host_policy *p) {
    mcpr_policy_callbacks t = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .user_data = p,
        .discover = pol_discover,
        .visibility = pol_visibility,
        .read = pol_read,
        .release = pol_release,
        .decide_plan = host_plan_form ? pol_decide_plan : NULL,
    };
    return t;
}

/* ---------------------------------------------------------------- bindings */

static mcpr_cb_result bind_resolve(void *ud, const mcpr_call *call, const mcpr_match *m,
                                   mcpr_plan_builder *plan) {
    host_binding *b = ud;
    atomic_fetch_add(&b->resolve_calls, 1);
    if (b->expect_request_data && mcpr_call_request_data(call) == b->expect_request_data)
        atomic_fetch_add(&b->saw_request_data, 1);
    mcpr_str auth = str_of(b->authorization);
    mcpr_str req = b->requested ? str_of(b->requested) : mcpr_match_uri(m);
    if (mcpr_plan_set_requested(plan, req, S(""), auth, NULL) != MCPR_OK) return MCPR_CB_FAILED;
    if (!b->items[0]) {
        if (mcpr_plan_add_item(plan, mcpr_match_uri(m), S(""), auth, NULL) != MCPR_OK)
            return MCPR_CB_FAILED;
        return MCPR_CB_OK;
    }
    for (int i = 0; i < HOST_MAX && b->items[i]; i++) {
        mcpr_error *e = NULL;
        if (mcpr_plan_add_item(plan, str_of(b->items[i]), S(""), auth, &e) != MCPR_OK) {
            mcpr_call_set_cause(call, mcpr_error_message(e));
            mcpr_error_free(e);
            return MCPR_CB_FAILED;
        }
    }
    return MCPR_CB_OK;
}

static bool has_prefix(mcpr_str s, const char *prefix) {
    size_t n = strlen(prefix);
    return s.len >= n && memcmp(s.ptr, prefix, n) == 0;
}

static mcpr_cb_result bind_read(void *ud, const mcpr_call *call, const mcpr_target *t,
                                mcpr_payload_builder *out) {
    host_binding *b = ud;
    atomic_fetch_add(&b->body_reads, 1);
    if (b->expect_request_data && mcpr_call_request_data(call) == b->expect_request_data)
        atomic_fetch_add(&b->saw_request_data, 1);
    uint64_t mb = mcpr_call_max_bytes(call);
    atomic_store(&b->max_bytes_seen, mb);
    atomic_store(&b->remaining_seen, mcpr_call_remaining_ms(call));
    mcpr_str uri = mcpr_target_uri(t);
    mcpr_cb_result rc = MCPR_CB_OK;
    char text[512];
    snprintf(text, sizeof text, "body of %.*s", (int)uri.len, uri.ptr);
    if (has_prefix(uri, "item://ok/")) {
        rc = mcpr_payload_set_text(out, S("text/plain"), str_of(text), NULL) == MCPR_OK
                 ? MCPR_CB_OK
                 : MCPR_CB_FAILED;
    } else if (has_prefix(uri, "item://blob/")) {
        static const uint8_t bytes[] = {0, 1, 2, 255};
        mcpr_payload_set_blob(out, S("application/octet-stream"), bytes, sizeof bytes, NULL);
        mcpr_payload_set_meta(out, S("{\"k\":\"v\"}"), NULL);
    } else if (has_prefix(uri, "item://fail/")) {
        mcpr_call_set_cause(call, S("SECRET-CAUSE"));
        rc = MCPR_CB_FAILED;
    } else if (has_prefix(uri, "item://weird/")) {
        rc = 77;
    } else if (has_prefix(uri, "item://unavail/")) {
        rc = MCPR_CB_UNAVAILABLE;
    } else if (has_prefix(uri, "item://empty/")) {
        rc = MCPR_CB_OK;
    } else if (has_prefix(uri, "item://badmime/")) {
        mcpr_payload_set_text(out, S("not a mime type"), S("x"), NULL);
        rc = MCPR_CB_OK;
    } else if (has_prefix(uri, "item://hang/")) {
        sleep_ms(b->hang_ms);
        mcpr_payload_set_text(out, S("text/plain"), str_of(text), NULL);
    } else if (has_prefix(uri, "item://coop/")) {
        while (!mcpr_call_is_canceled(call)) sleep_ms(2);
        rc = MCPR_CB_FAILED;
    } else if (has_prefix(uri, "item://big/")) {
        char *big = malloc(b->big_bytes);
        memset(big, 'x', b->big_bytes);
        mcpr_str s = {big, b->big_bytes};
        mcpr_payload_set_text(out, S("text/plain"), s, NULL);
        free(big);
    } else {
        rc = MCPR_CB_UNAVAILABLE;
    }
    atomic_fetch_add(&b->body_done, 1);
    return rc;
}

static void bind_release(void *ud) {
    host_binding *b = ud;
    if (atomic_load(&b->body_done) != atomic_load(&b->body_reads)) atomic_store(&b->early_release, 1);
    atomic_fetch_add(&b->releases, 1);
}

mcpr_binding_callbacks host_binding_table(host_binding *b) {
    mcpr_binding_callbacks t = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = b,
        .resolve = bind_resolve,
        .read = bind_read,
        .release = bind_release,
    };
    return t;
}

mcpr_builder *host_builder(host_policy *p) {
    mcpr_builder *b = mcpr_builder_new();
    mcpr_policy_callbacks t = host_policy_table(p);
    mcpr_error *e = NULL;
    if (mcpr_builder_set_policy(b, &t, &e) != MCPR_OK) show_error("set_policy", e);
    return b;
}

mcpr_status host_add(mcpr_builder *builder, const char *definition_json, host_binding *b) {
    mcpr_binding_callbacks t = host_binding_table(b);
    mcpr_error *e = NULL;
    mcpr_status s = mcpr_builder_add(builder, str_of(definition_json), &t, &e);
    if (s != MCPR_OK) mcpr_error_free(e);
    return s;
}

mcpr_resources *host_build(mcpr_builder *builder) {
    mcpr_resources *r = NULL;
    mcpr_error *e = NULL;
    if (mcpr_builder_build(builder, &r, &e) != MCPR_OK) {
        show_error("build", e);
        r = NULL;
    }
    return r; /* the build consumed the builder, built or not */
}

mcpr_status host_read(const mcpr_resources *r, const char *uri, const mcpr_read_options *opt,
                      char **json, bool *partial, mcpr_error **err_out) {
    mcpr_bundle *bundle = NULL;
    mcpr_error *e = NULL;
    mcpr_status s = mcpr_read(r, str_of(uri), opt, &bundle, &e);
    if (json) *json = NULL;
    if (s == MCPR_OK) {
        mcpr_str j = mcpr_bundle_json(bundle);
        if (json) {
            *json = malloc(j.len + 1);
            memcpy(*json, j.ptr, j.len);
            (*json)[j.len] = 0;
        }
        if (partial) *partial = mcpr_bundle_is_partial(bundle);
        mcpr_bundle_free(bundle);
        if (e) harness_failures++; /* err must not be written on success */
    } else {
        if (bundle) harness_failures++; /* out must not be written on failure */
    }
    if (err_out)
        *err_out = e;
    else
        mcpr_error_free(e);
    return s;
}
