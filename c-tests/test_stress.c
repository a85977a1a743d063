/* Stress tests a serious user would expect to pass (kept to about a second;
 * smaller under valgrind, MCPR_TEST_SLOW):
 *   - registry references released on several threads while reads and
 *     listings run, the last one while abandoned body readers still run on
 *     the executor: every release callback runs exactly once, after the last
 *     callback returned;
 *   - cancellation from another thread at random points of reads that use an
 *     executor and hung or cooperative readers;
 *   - many threads sharing one executor across two registries;
 *   - freeing the executor (then the registry) while abandoned readers still
 *     run: the binding's release runs exactly once, after they return;
 *   - callbacks calling the mcpr_call_* accessors, views and builders with
 *     NULL (defaults, never a crash), inline and on executor workers;
 *   - a resolve callback and a body reader that fill their plan / payload
 *     builder from several threads at once (the builders are views whose
 *     calls may come from any thread during the callback). */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"

static const char *BUNDLE = "{\"uri\":\"bundle://all\",\"name\":\"all\"}";
static const char *ITEMS = "{\"uriTemplate\":\"item://ok/{name}\",\"name\":\"items\"}";

/* Checks made on other threads (harness_failures is not atomic). */
static atomic_int thread_failures;
#define TCHECK(cond)                                                                 \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            atomic_fetch_add(&thread_failures, 1);                                   \
        }                                                                            \
    } while (0)

static unsigned rnd(unsigned *state) {
    *state = *state * 1103515245u + 12345u;
    return (*state >> 16) & 0x7fffu;
}

static bool wait_for(atomic_int *v, int want, unsigned max_ms) {
    unsigned long long end = now_ms() + max_ms;
    while (atomic_load(v) != want) {
        if (now_ms() > end) return false;
        sleep_ms(1);
    }
    return true;
}

static mcpr_resources *bundle_registry(host_policy *hp, host_binding *bundle, host_binding *items,
                                       int64_t item_timeout_ms) {
    mcpr_builder *b = host_builder(hp);
    CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_ITEM_TIMEOUT_MS, item_timeout_ms, NULL), MCPR_OK);
    CHECK_STATUS(host_add(b, BUNDLE, bundle), MCPR_OK);
    if (items) CHECK_STATUS(host_add(b, ITEMS, items), MCPR_OK);
    return host_build(b);
}

/* ------------------------------------------------ references released under load */

typedef struct {
    mcpr_resources *r; /* this thread's own reference, released by the thread */
    mcpr_executor *ex;
    int rounds;
    unsigned seed;
} ref_worker;

static void *ref_run(void *arg) {
    ref_worker *w = arg;
    for (int i = 0; i < w->rounds; i++) {
        unsigned k = rnd(&w->seed) % 3;
        mcpr_read_options opt = {
            .struct_size = sizeof(mcpr_read_options),
            .executor = (rnd(&w->seed) & 1) ? w->ex : NULL,
        };
        mcpr_bundle *b = NULL;
        mcpr_error *e = NULL;
        /* With hung readers from every thread queued on a two-worker pool,
         * a healthy item can wait past its (short) item deadline: timeout is
         * a valid outcome of the executor reads here, a crash or a wrong
         * release is not. */
        if (k == 0) {
            mcpr_status st = mcpr_read(w->r, S("item://ok/x"), &opt, &b, &e);
            TCHECK(st == MCPR_OK || (opt.executor && st == MCPR_TIMEOUT));
            TCHECK((st == MCPR_OK) == (b != NULL) && (st == MCPR_OK) == (e == NULL));
            if (st == MCPR_OK) TCHECK(str_contains(mcpr_bundle_json(b), "body of item://ok/x"));
        } else if (k == 1) {
            opt.executor = w->ex; /* the hung reader is abandoned at its item deadline */
            mcpr_status st = mcpr_read(w->r, S("bundle://all"), &opt, &b, &e);
            TCHECK(st == MCPR_OK || st == MCPR_TIMEOUT);
            TCHECK((st == MCPR_OK) == (b != NULL) && (st == MCPR_OK) == (e == NULL));
            if (st == MCPR_OK)
                TCHECK(mcpr_bundle_is_partial(b) && str_contains(mcpr_bundle_json(b), "\"code\":\"timeout\""));
        } else {
            mcpr_list_options lo = {.struct_size = sizeof(mcpr_list_options), .scope_key = S("scope")};
            mcpr_page *p = NULL;
            TCHECK(mcpr_list(w->r, &lo, &p, &e) == MCPR_OK && e == NULL);
            TCHECK(str_contains(mcpr_page_json(p), "bundle://all"));
            mcpr_page_free(p);
        }
        mcpr_bundle_free(b);
        mcpr_error_free(e);
    }
    mcpr_resources_free(w->r);
    return NULL;
}

static void test_references_released_under_load(void) {
    unsigned s = slow();
    enum { THREADS = 4 };
    host_policy hp = {0};
    host_binding items = {0};
    host_binding bundle = {.items = {"item://ok/a", "item://hang/h", "item://fail/f"}, .hang_ms = 40 * s};
    mcpr_resources *r = bundle_registry(&hp, &bundle, &items, 8 * s);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    ref_worker w[THREADS];
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++) {
        /* uneven amounts of work: references go at different times */
        w[i] = (ref_worker){mcpr_resources_retain(r), ex, (s > 1 ? 3 : 10) * (i + 1), 17u * (unsigned)i + 1};
        pthread_create(&th[i], NULL, ref_run, &w[i]);
    }
    mcpr_resources_free(r); /* the creator's reference goes first */
    for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
    /* no new read is given the executor: free it while abandoned readers run */
    mcpr_executor_free(ex);
    /* every reference is gone; abandoned hung readers may still run */
    CHECK(wait_for(&bundle.releases, 1, 5000 * s));
    CHECK(atomic_load(&bundle.body_done) == atomic_load(&bundle.body_reads));
    CHECK(atomic_load(&bundle.early_release) == 0);
    CHECK(atomic_load(&items.releases) == 1 && atomic_load(&items.early_release) == 0);
    CHECK(atomic_load(&hp.releases) == 1);
    sleep_ms(5);
    CHECK(atomic_load(&bundle.releases) == 1 && atomic_load(&items.releases) == 1);
}

/* ------------------------------------------------ cancellation at random points */

typedef struct {
    mcpr_cancel *token;
    unsigned delay_us;
} canceller_arg;

static void *cancel_after(void *arg) {
    canceller_arg *c = arg;
    if (c->delay_us) {
        struct timespec ts = {0, (long)c->delay_us * 1000L};
        nanosleep(&ts, NULL);
    }
    mcpr_cancel_cancel(c->token);
    return NULL;
}

typedef struct {
    mcpr_resources *r;
    mcpr_executor *ex;
    int rounds;
    unsigned seed;
    int canceled;
} cancel_worker;

static void *cancel_run(void *arg) {
    cancel_worker *w = arg;
    for (int i = 0; i < w->rounds; i++) {
        mcpr_cancel *token = mcpr_cancel_new();
        canceller_arg c = {token, rnd(&w->seed) % 6000u}; /* 0 to 6 ms */
        pthread_t th;
        pthread_create(&th, NULL, cancel_after, &c);
        mcpr_read_options opt = {
            .struct_size = sizeof(mcpr_read_options),
            .cancel = token,
            .executor = w->ex,
        };
        mcpr_bundle *b = NULL;
        mcpr_error *e = NULL;
        mcpr_status st = mcpr_read(w->r, S("bundle://all"), &opt, &b, &e);
        /* the cooperative reader only stops when cancelled, long before
         * its item deadline: the read is always cancelled */
        TCHECK(st == MCPR_CANCELED);
        TCHECK(b == NULL && e != NULL && mcpr_error_status(e) == st);
        if (st == MCPR_CANCELED) w->canceled++;
        mcpr_bundle_free(b);
        mcpr_error_free(e);
        pthread_join(th, NULL);
        TCHECK(mcpr_cancel_is_canceled(token));
        mcpr_cancel_free(token);
    }
    return NULL;
}

static void test_random_cancellation(void) {
    unsigned s = slow();
    enum { THREADS = 3 };
    host_policy hp = {0};
    host_binding bundle = {.items = {"item://ok/a", "item://hang/h", "item://coop/c", "item://ok/b"},
                           .hang_ms = 15};
    mcpr_resources *r = bundle_registry(&hp, &bundle, NULL, 5000 * s);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    cancel_worker w[THREADS];
    pthread_t th[THREADS];
    int rounds = s > 1 ? 4 : 15;
    for (int i = 0; i < THREADS; i++) {
        w[i] = (cancel_worker){r, ex, rounds, 31u * (unsigned)i + 7, 0};
        pthread_create(&th[i], NULL, cancel_run, &w[i]);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        CHECK(w[i].canceled == rounds);
    }
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
    CHECK(wait_for(&bundle.releases, 1, 5000 * s));
    CHECK(atomic_load(&bundle.body_done) == atomic_load(&bundle.body_reads));
    CHECK(atomic_load(&bundle.early_release) == 0);
    CHECK(atomic_load(&hp.releases) == 1);
}

/* ------------------------------------------------ one executor, two registries */

typedef struct {
    mcpr_resources *r[2];
    mcpr_executor *ex;
    int rounds;
    int ok;
} shared_worker;

static void *shared_run(void *arg) {
    shared_worker *w = arg;
    for (int i = 0; i < w->rounds; i++) {
        mcpr_read_options opt = {.struct_size = sizeof(mcpr_read_options), .executor = w->ex};
        mcpr_bundle *b = NULL;
        if (mcpr_read(w->r[i % 2], S("bundle://all"), &opt, &b, NULL) == MCPR_OK) {
            mcpr_str j = mcpr_bundle_json(b);
            if (!mcpr_bundle_is_partial(b) && str_contains(j, "body of item://ok/a") &&
                str_contains(j, "body of item://ok/c") && str_contains(j, "\"blob\":\"AAEC/w==\""))
                w->ok++;
            mcpr_bundle_free(b);
        }
    }
    return NULL;
}

static void test_shared_executor(void) {
    unsigned s = slow();
    enum { THREADS = 8 };
    host_policy hp[2];
    memset(hp, 0, sizeof hp);
    host_binding hb[2] = {{.items = {"item://ok/a", "item://blob/b", "item://ok/c"}},
                          {.items = {"item://ok/a", "item://blob/b", "item://ok/c"}}};
    mcpr_resources *r[2];
    for (int k = 0; k < 2; k++) r[k] = bundle_registry(&hp[k], &hb[k], NULL, 10000);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(3, &ex, NULL), MCPR_OK);
    int rounds = s > 1 ? 6 : 40;
    shared_worker w[THREADS];
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (shared_worker){{r[0], r[1]}, ex, rounds, 0};
        pthread_create(&th[i], NULL, shared_run, &w[i]);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        CHECK(w[i].ok == rounds);
    }
    mcpr_executor_free(ex);
    for (int k = 0; k < 2; k++) {
        CHECK(atomic_load(&hb[k].body_reads) == THREADS * (rounds / 2) * 3);
        mcpr_resources_free(r[k]);
        CHECK(atomic_load(&hb[k].releases) == 1 && atomic_load(&hp[k].releases) == 1);
    }
}

/* ------------------------------------------------ executor freed under abandoned readers */

static void test_executor_freed_under_abandoned_readers(void) {
    unsigned s = slow();
    host_policy hp = {0};
    host_binding hb = {.items = {"item://hang/a", "item://hang/b", "item://ok/c"}, .hang_ms = 150 * s};
    mcpr_resources *r = bundle_registry(&hp, &hb, NULL, 20 * s);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    mcpr_read_options opt = {.struct_size = sizeof(mcpr_read_options), .executor = ex};
    for (int i = 0; i < 2; i++) {
        bool partial = false;
        CHECK_STATUS(host_read(r, "bundle://all", &opt, NULL, &partial, NULL), MCPR_OK);
        CHECK(partial);
    }
    /* four hung readers are still running on the pool */
    CHECK(atomic_load(&hb.body_done) < atomic_load(&hb.body_reads));
    mcpr_executor_free(ex); /* the handle first, then the last registry reference */
    mcpr_resources_free(r);
    CHECK(atomic_load(&hb.releases) == 0);
    CHECK(atomic_load(&hp.releases) == 1);
    CHECK(wait_for(&hb.releases, 1, 5000 * s));
    CHECK(atomic_load(&hb.body_done) == 6 && atomic_load(&hb.body_reads) == 6);
    CHECK(atomic_load(&hb.early_release) == 0);
    sleep_ms(5);
    CHECK(atomic_load(&hb.releases) == 1);
}

/* ------------------------------------------------ NULL arguments inside callbacks */

static atomic_int null_calls;

static void null_accessors(const mcpr_call *call) {
    TCHECK(!mcpr_call_is_canceled(NULL));
    TCHECK(mcpr_call_remaining_ms(NULL) == 0);
    TCHECK(mcpr_call_request_data(NULL) == NULL);
    TCHECK(mcpr_call_max_bytes(NULL) == 0);
    mcpr_call_set_cause(NULL, S("ignored"));
    mcpr_call_set_cause(call, (mcpr_str){NULL, 5}); /* ignored: (NULL, n > 0) */
    mcpr_call_set_cause(call, (mcpr_str){"x", SIZE_MAX}); /* ignored: impossible length */
    TCHECK(mcpr_definition_uri(NULL).ptr != NULL && mcpr_definition_uri(NULL).len == 0);
    TCHECK(mcpr_match_definition(NULL) == NULL && mcpr_match_uri(NULL).len == 0);
    TCHECK(mcpr_target_uri(NULL).len == 0 && mcpr_target_representation(NULL).len == 0);
    TCHECK(mcpr_call_remaining_ms(call) > 0 && !mcpr_call_is_canceled(call));
    atomic_fetch_add(&null_calls, 1);
}

static mcpr_cb_result n_discover(void *ud, const mcpr_call *call, const mcpr_definition *def) {
    (void)ud;
    null_accessors(call);
    TCHECK(mcpr_definition_uri(def).len > 0);
    return MCPR_CB_OK;
}

static mcpr_cb_result n_visibility(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_visibility *out) {
    (void)ud;
    (void)t;
    null_accessors(call);
    out->visible = true;
    return MCPR_CB_OK;
}

static mcpr_cb_result n_permit(void *ud, const mcpr_call *call, const mcpr_target *t) {
    (void)ud;
    (void)t;
    null_accessors(call);
    return MCPR_CB_OK;
}

static mcpr_cb_result n_resolve(void *ud, const mcpr_call *call, const mcpr_match *m, mcpr_plan_builder *plan) {
    null_accessors(call);
    mcpr_error *e = NULL;
    TCHECK(mcpr_plan_set_requested(MISUSE_NULL, mcpr_match_uri(m), S(""), S(""), &e) == MCPR_INVALID_ARGUMENT);
    TCHECK(e != NULL && mcpr_error_status(e) == MCPR_INVALID_ARGUMENT);
    mcpr_error_free(e);
    TCHECK(mcpr_plan_add_item(MISUSE_NULL, mcpr_match_uri(m), S(""), S(""), NULL) == MCPR_INVALID_ARGUMENT);
    TCHECK(mcpr_resolve_single(ud, call, MISUSE_NULL, plan) == MCPR_CB_FAILED);
    TCHECK(mcpr_resolve_single(ud, call, m, MISUSE_NULL) == MCPR_CB_FAILED);
    return mcpr_resolve_single(ud, MISUSE_NULL, m, plan); /* call is ignored: even NULL (non-null in the header, as in mcpr_resolve_fn) */
}

static mcpr_cb_result n_read(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)ud;
    null_accessors(call);
    TCHECK(mcpr_call_max_bytes(call) > 0);
    TCHECK(mcpr_payload_set_text(MISUSE_NULL, S("text/plain"), S("x"), NULL) == MCPR_INVALID_ARGUMENT);
    TCHECK(mcpr_payload_set_blob(MISUSE_NULL, S("text/plain"), NULL, 0, NULL) == MCPR_INVALID_ARGUMENT);
    TCHECK(mcpr_payload_set_meta(MISUSE_NULL, S("{}"), NULL) == MCPR_INVALID_ARGUMENT);
    return mcpr_payload_set_text(out, S("text/plain"), mcpr_target_uri(t), NULL) == MCPR_OK ? MCPR_CB_OK
                                                                                           : MCPR_CB_FAILED;
}

static void test_null_arguments_in_callbacks(void) {
    mcpr_policy_callbacks pol = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .discover = n_discover,
        .visibility = n_visibility,
        .read = n_permit,
    };
    mcpr_binding_callbacks bind = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .resolve = n_resolve,
        .read = n_read,
    };
    mcpr_builder *b = mcpr_builder_new();
    CHECK_STATUS(mcpr_builder_set_policy(b, &pol, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"doc://a\",\"name\":\"a\"}"), &bind, NULL), MCPR_OK);
    mcpr_resources *r = host_build(b);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    for (int i = 0; i < 4; i++) {
        mcpr_read_options opt = {.struct_size = sizeof(mcpr_read_options), .executor = (i % 2) ? ex : NULL};
        char *json = NULL;
        bool partial = true;
        CHECK_STATUS(host_read(r, "doc://a", &opt, &json, &partial, NULL), MCPR_OK);
        CHECK(json && strstr(json, "\"text\":\"doc://a\"") && !partial);
        free(json);
    }
    mcpr_list_options lo = {.struct_size = sizeof(mcpr_list_options), .scope_key = S("scope")};
    mcpr_page *p = NULL;
    CHECK_STATUS(mcpr_list(r, &lo, &p, NULL), MCPR_OK);
    CHECK(str_contains(mcpr_page_json(p), "doc://a"));
    mcpr_page_free(p);
    CHECK(atomic_load(&null_calls) >= 4 * 5 + 1);
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
}

/* ------------------------------------------------ builders filled from several threads */

enum { FAN_THREADS = 4, FAN_ITEMS = 100 };

typedef struct {
    mcpr_plan_builder *plan;
    mcpr_payload_builder *payload;
    atomic_int *go;
    int index;
    int refused;
} fan_arg;

static void *fan_plan(void *arg) {
    fan_arg *a = arg;
    atomic_fetch_add(a->go, 1);
    while (atomic_load(a->go) < FAN_THREADS) sched_yield();
    for (int i = 0; i < FAN_ITEMS; i++) {
        char uri[64];
        snprintf(uri, sizeof uri, "fan://item/%d-%d", a->index, i);
        if (mcpr_plan_add_item(a->plan, str_of(uri), S(""), S(""), NULL) != MCPR_OK) a->refused++;
    }
    return NULL;
}

static void *fan_payload(void *arg) {
    fan_arg *a = arg;
    atomic_fetch_add(a->go, 1);
    while (atomic_load(a->go) < FAN_THREADS) sched_yield();
    for (int i = 0; i < FAN_ITEMS; i++) {
        char meta[64];
        snprintf(meta, sizeof meta, "{\"writer\":%d,\"round\":%d}", a->index, i);
        if (mcpr_payload_set_meta(a->payload, str_of(meta), NULL) != MCPR_OK) a->refused++;
    }
    return NULL;
}

static mcpr_cb_result fan_resolve(void *ud, const mcpr_call *call, const mcpr_match *m, mcpr_plan_builder *plan) {
    (void)ud;
    (void)call;
    if (mcpr_plan_set_requested(plan, mcpr_match_uri(m), S(""), S(""), NULL) != MCPR_OK) return MCPR_CB_FAILED;
    atomic_int go = 0;
    fan_arg a[FAN_THREADS];
    pthread_t th[FAN_THREADS];
    for (int i = 0; i < FAN_THREADS; i++) {
        a[i] = (fan_arg){plan, NULL, &go, i, 0};
        pthread_create(&th[i], NULL, fan_plan, &a[i]);
    }
    int refused = 0;
    for (int i = 0; i < FAN_THREADS; i++) {
        pthread_join(th[i], NULL);
        refused += a[i].refused;
    }
    TCHECK(refused == 0);
    return MCPR_CB_OK;
}

static mcpr_cb_result fan_read(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)ud;
    (void)call;
    mcpr_str uri = mcpr_target_uri(t);
    if (uri.len < 2 || memcmp(uri.ptr + uri.len - 2, "-0", 2) != 0) {
        /* most items: one thread */
        if (mcpr_payload_set_meta(out, S("{\"writer\":0}"), NULL) != MCPR_OK) return MCPR_CB_FAILED;
        return mcpr_payload_set_text(out, S("text/plain"), uri, NULL) == MCPR_OK ? MCPR_CB_OK : MCPR_CB_FAILED;
    }
    atomic_int go = 0;
    fan_arg a[FAN_THREADS];
    pthread_t th[FAN_THREADS];
    for (int i = 0; i < FAN_THREADS; i++) {
        a[i] = (fan_arg){NULL, out, &go, i, 0};
        pthread_create(&th[i], NULL, fan_payload, &a[i]);
    }
    /* exactly one body, set while the other threads replace _meta */
    mcpr_status st = mcpr_payload_set_text(out, S("text/plain"), mcpr_target_uri(t), NULL);
    int refused = 0;
    for (int i = 0; i < FAN_THREADS; i++) {
        pthread_join(th[i], NULL);
        refused += a[i].refused;
    }
    TCHECK(refused == 0);
    return st == MCPR_OK ? MCPR_CB_OK : MCPR_CB_FAILED;
}

static void test_builders_filled_from_threads(void) {
    mcpr_policy_callbacks pol = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .discover = n_discover,
        .visibility = n_visibility,
        .read = n_permit,
    };
    mcpr_binding_callbacks bind = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .resolve = fan_resolve,
        .read = fan_read,
    };
    mcpr_builder *b = mcpr_builder_new();
    CHECK_STATUS(mcpr_builder_set_policy(b, &pol, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_MAX_ITEMS, FAN_THREADS * FAN_ITEMS, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"fan://all\",\"name\":\"all\"}"), &bind, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uriTemplate\":\"fan://item/{n}\",\"name\":\"item\"}"), &bind, NULL),
                 MCPR_OK);
    mcpr_resources *r = host_build(b);
    for (int round = 0; round < (slow() > 1 ? 1 : 3); round++) {
        mcpr_bundle *bundle = NULL;
        mcpr_error *e = NULL;
        mcpr_status st = mcpr_read(r, S("fan://all"), NULL, &bundle, &e);
        CHECK_STATUS(st, MCPR_OK);
        if (st != MCPR_OK) {
            show_error("fan read", e);
            break;
        }
        mcpr_str j = mcpr_bundle_json(bundle);
        CHECK(!mcpr_bundle_is_partial(bundle));
        CHECK(str_count(j, "\"text\":\"fan://item/") == FAN_THREADS * FAN_ITEMS);
        CHECK(str_count(j, "\"_meta\":{\"writer\":") == FAN_THREADS * FAN_ITEMS);
        mcpr_bundle_free(bundle);
    }
    mcpr_resources_free(r);
}

int main(void) {
    unsigned long long t0 = now_ms();
    test_references_released_under_load();
    test_random_cancellation();
    test_shared_executor();
    test_executor_freed_under_abandoned_readers();
    test_null_arguments_in_callbacks();
    test_builders_filled_from_threads();
    harness_failures += atomic_load(&thread_failures);
    printf("test_stress: %llu ms\n", now_ms() - t0);
    return harness_finish("test_stress");
}
