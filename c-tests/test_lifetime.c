/* Registry lifetime across threads: every call that takes a registry
 * (mcpr_read, mcpr_list, mcpr_list_templates) holds its own reference from
 * entry to return, so the host may release any reference (even the last,
 * even the one the calls were given) once the calls have begun.
 *
 *   - the last reference is released on the main thread while a read, a
 *     list and a templates list are all blocked inside `discover`;
 *   - the last reference is released while a read's body reader is blocked
 *     on an executor worker;
 *   - a callback releases the last reference of the call it runs in;
 *   - the configuration-reload pattern: a reloader swaps the current
 *     registry under the host's lock while readers retain under that lock,
 *     call, and free.
 *
 * In every case the tables' `release` callbacks must not run at the free,
 * nor while any callback of those calls runs, and must run exactly once
 * after the calls returned, on a thread that made one of the calls. The
 * ordering comes from a mutex/condvar gate, never from sleeps. Built also
 * under ASan, and (scripts/rust-sanitizers.sh) against a library built with
 * -Zsanitizer=address and -Zsanitizer=thread. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"

/* Checks made on other threads (harness_failures is not atomic). */
static atomic_int thread_failures;
#define TCHECK(cond)                                                                 \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            atomic_fetch_add(&thread_failures, 1);                                   \
        }                                                                            \
    } while (0)

/* ------------------------------------------------------------------ the gate */

enum stage { AT_NONE, AT_DISCOVER, AT_BODY };

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    enum stage at;       /* where callbacks block while the gate is closed */
    int blocked;         /* callbacks waiting at the gate */
    bool open;
} gate;

static gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, AT_NONE, 0, true};

static void gate_close(enum stage at) {
    pthread_mutex_lock(&g.mu);
    g.at = at;
    g.blocked = 0;
    g.open = false;
    pthread_mutex_unlock(&g.mu);
}

/* Called by a callback at `at`: blocks while the gate is closed there. */
static void gate_pass(enum stage at) {
    pthread_mutex_lock(&g.mu);
    if (!g.open && g.at == at) {
        g.blocked++;
        pthread_cond_broadcast(&g.cv);
        while (!g.open) pthread_cond_wait(&g.cv, &g.mu);
    }
    pthread_mutex_unlock(&g.mu);
}

/* Waits until `n` callbacks are blocked at the gate (no timeout: a hang is
 * a failure ctest reports at its TIMEOUT). */
static void gate_wait_blocked(int n) {
    pthread_mutex_lock(&g.mu);
    while (g.blocked < n) pthread_cond_wait(&g.cv, &g.mu);
    pthread_mutex_unlock(&g.mu);
}

static void gate_open(void) {
    pthread_mutex_lock(&g.mu);
    g.open = true;
    pthread_cond_broadcast(&g.cv);
    pthread_mutex_unlock(&g.mu);
}

/* ------------------------------------------------------------------ the host */

/* One registry's tables share this state (policy and binding). */
typedef struct {
    atomic_int releases;        /* release callbacks run (policy + binding) */
    atomic_int running;         /* callbacks of this registry running now */
    atomic_int late_callbacks;  /* callbacks that ran after a release */
    atomic_int busy_release;    /* a release ran while a callback ran */
    atomic_int release_on_main; /* a release ran on the main thread */
    mcpr_resources *self;       /* freed by a callback in test 3 */
    atomic_int free_in_resolve; /* test 3: resolve frees `self` */
} host;

static pthread_t main_thread;

static void enter(host *h) {
    atomic_fetch_add(&h->running, 1);
    if (atomic_load(&h->releases) != 0) atomic_fetch_add(&h->late_callbacks, 1);
}

static void leave(host *h) { atomic_fetch_sub(&h->running, 1); }

static mcpr_cb_result discover(void *ud, const mcpr_call *call, const mcpr_definition *def) {
    host *h = ud;
    (void)call;
    (void)def;
    enter(h);
    gate_pass(AT_DISCOVER);
    leave(h);
    return MCPR_CB_OK;
}

static mcpr_cb_result visibility(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_visibility *out) {
    host *h = ud;
    (void)call;
    (void)t;
    enter(h);
    out->visible = true;
    out->disclose_issue_uri = true;
    leave(h);
    return MCPR_CB_OK;
}

static mcpr_cb_result permit(void *ud, const mcpr_call *call, const mcpr_target *t) {
    host *h = ud;
    (void)call;
    (void)t;
    enter(h);
    leave(h);
    return MCPR_CB_OK;
}

static mcpr_cb_result resolve(void *ud, const mcpr_call *call, const mcpr_match *m, mcpr_plan_builder *plan) {
    host *h = ud;
    enter(h);
    if (atomic_exchange(&h->free_in_resolve, 0)) {
        /* the host drops the registry from inside a call on it */
        mcpr_resources_free(h->self);
        TCHECK(atomic_load(&h->releases) == 0);
    }
    mcpr_cb_result rc = mcpr_resolve_single(NULL, call, m, plan);
    leave(h);
    return rc;
}

static mcpr_cb_result body(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    host *h = ud;
    (void)call;
    enter(h);
    gate_pass(AT_BODY);
    mcpr_str uri = mcpr_target_uri(t);
    char text[256];
    snprintf(text, sizeof text, "body of %.*s", (int)uri.len, uri.ptr);
    mcpr_cb_result rc = mcpr_payload_set_text(out, S("text/plain"), str_of(text), NULL) == MCPR_OK
                            ? MCPR_CB_OK
                            : MCPR_CB_FAILED;
    leave(h);
    return rc;
}

static void release(void *ud) {
    host *h = ud;
    if (atomic_load(&h->running) != 0) atomic_fetch_add(&h->busy_release, 1);
    if (pthread_equal(pthread_self(), main_thread)) atomic_fetch_add(&h->release_on_main, 1);
    atomic_fetch_add(&h->releases, 1);
}

/* A registry with an exact resource and a template, both bound to `h`:
 * three tables (the policy and one binding table per add), three releases. */
#define TABLES 3

static mcpr_resources *build(host *h) {
    mcpr_policy_callbacks pol = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .user_data = h,
        .discover = discover,
        .visibility = visibility,
        .read = permit,
        .release = release,
    };
    mcpr_binding_callbacks bind = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = h,
        .resolve = resolve,
        .read = body,
        .release = release,
    };
    mcpr_builder *b = mcpr_builder_new();
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_builder_set_policy(b, &pol, &e), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uri\":\"doc://one\",\"name\":\"one\"}"), &bind, &e), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uriTemplate\":\"doc://t/{id}\",\"name\":\"t\"}"), &bind, &e), MCPR_OK);
    show_error("setup", e);
    return host_build(b);
}

/* Every table released exactly once, never early, never on the main thread. */
static void check_released(host *h) {
    CHECK(atomic_load(&h->releases) == TABLES);
    CHECK(atomic_load(&h->late_callbacks) == 0);
    CHECK(atomic_load(&h->busy_release) == 0);
    CHECK(atomic_load(&h->release_on_main) == 0);
}

/* ------------------------------------------------------------------ calls on threads */

enum op { OP_READ, OP_LIST, OP_TEMPLATES };

typedef struct {
    const mcpr_resources *r; /* borrowed: the main thread owns the reference */
    enum op op;
    const mcpr_executor *ex;
    host *h;
    mcpr_status status;
    char json[512];
} call;

static void *run_call(void *arg) {
    call *c = arg;
    mcpr_error *e = NULL;
    if (c->op == OP_READ) {
        mcpr_read_options opt = {.struct_size = sizeof(mcpr_read_options), .executor = c->ex};
        mcpr_bundle *b = NULL;
        c->status = mcpr_read(c->r, S("doc://one"), &opt, &b, &e);
        if (b) snprintf(c->json, sizeof c->json, "%.*s", (int)mcpr_bundle_json(b).len, mcpr_bundle_json(b).ptr);
        mcpr_bundle_free(b);
    } else {
        mcpr_list_options lo = {.struct_size = sizeof(mcpr_list_options), .scope_key = S("scope")};
        mcpr_page *p = NULL;
        c->status = c->op == OP_LIST ? mcpr_list(c->r, &lo, &p, &e) : mcpr_list_templates(c->r, &lo, &p, &e);
        if (p) snprintf(c->json, sizeof c->json, "%.*s", (int)mcpr_page_json(p).len, mcpr_page_json(p).ptr);
        mcpr_page_free(p);
    }
    show_error("call", e);
    return NULL;
}

/* 1. The last reference goes while a read, a list and a templates list are
 *    blocked inside discover. */
static void test_last_reference_released_during_calls(void) {
    host h = {0};
    mcpr_resources *r = build(&h);
    if (!r) return;
    gate_close(AT_DISCOVER);
    call c[3] = {{r, OP_READ, NULL, &h, 0, ""}, {r, OP_LIST, NULL, &h, 0, ""}, {r, OP_TEMPLATES, NULL, &h, 0, ""}};
    pthread_t th[3];
    for (int i = 0; i < 3; i++) pthread_create(&th[i], NULL, run_call, &c[i]);
    gate_wait_blocked(3);   /* all three calls are inside discover */
    mcpr_resources_free(r); /* the only reference the host had */
    CHECK(atomic_load(&h.releases) == 0);
    gate_open();
    for (int i = 0; i < 3; i++) pthread_join(th[i], NULL);
    CHECK_STATUS(c[0].status, MCPR_OK);
    CHECK(strstr(c[0].json, "body of doc://one") != NULL);
    CHECK_STATUS(c[1].status, MCPR_OK);
    CHECK(strstr(c[1].json, "\"uri\":\"doc://one\"") != NULL);
    CHECK_STATUS(c[2].status, MCPR_OK);
    CHECK(strstr(c[2].json, "\"uriTemplate\":\"doc://t/{id}\"") != NULL);
    check_released(&h);
}

/* 2. The last reference goes while the read's body reader is blocked on an
 *    executor worker (the read itself waits for it). */
static void test_last_reference_released_during_executor_read(void) {
    host h = {0};
    mcpr_resources *r = build(&h);
    if (!r) return;
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    gate_close(AT_BODY);
    call c = {r, OP_READ, ex, &h, 0, ""};
    pthread_t th;
    pthread_create(&th, NULL, run_call, &c);
    gate_wait_blocked(1);
    mcpr_resources_free(r);
    CHECK(atomic_load(&h.releases) == 0);
    gate_open();
    pthread_join(th, NULL);
    CHECK_STATUS(c.status, MCPR_OK);
    CHECK(strstr(c.json, "body of doc://one") != NULL);
    mcpr_executor_free(ex);
    /* The read has returned, but a worker's own reference to the binding's
     * table may go a moment after it handed over the body (the contract is
     * "after the last call into the table returned"): wait for it. */
    unsigned long long end = now_ms() + 5000ULL * slow();
    while (atomic_load(&h.releases) < TABLES && now_ms() < end) sleep_ms(1);
    check_released(&h);
}

/* 3. A callback releases the last reference of the registry its call runs
 *    on (a reload triggered from inside a request). */
static void test_callback_releases_last_reference(void) {
    host h = {0};
    mcpr_resources *r = build(&h);
    if (!r) return;
    h.self = r;
    atomic_store(&h.free_in_resolve, 1);
    call c = {r, OP_READ, NULL, &h, 0, ""};
    pthread_t th;
    pthread_create(&th, NULL, run_call, &c);
    pthread_join(th, NULL);
    CHECK(atomic_load(&h.free_in_resolve) == 0); /* resolve did free it */
    CHECK_STATUS(c.status, MCPR_OK);
    CHECK(strstr(c.json, "body of doc://one") != NULL); /* the body read ran after the free */
    check_released(&h);
}

/* ------------------------------------------------------------------ 4. reload */

#define GENERATIONS 6
#define READERS 3

static pthread_mutex_t current_mu = PTHREAD_MUTEX_INITIALIZER;
static mcpr_resources *current; /* the host's reference to the live registry */
static atomic_int reloads_done;

/* The reader's side of the pattern: retain under the lock, call, free. */
static mcpr_resources *acquire(void) {
    pthread_mutex_lock(&current_mu);
    mcpr_resources *r = mcpr_resources_retain(current);
    pthread_mutex_unlock(&current_mu);
    return r;
}

/* Readers never run more than READS_PER_GENERATION reads ahead of the
 * reloader: a reader that is ahead waits for the next reload. The work is
 * bounded whatever the scheduler does (under valgrind a spinning reader could
 * otherwise starve the reloader for minutes), and reads still overlap every
 * reload. */
#define READS_PER_GENERATION 4
static pthread_mutex_t reload_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t reload_cv = PTHREAD_COND_INITIALIZER;

static void wait_for_reload_if_ahead(int reads) {
    pthread_mutex_lock(&reload_mu);
    while (atomic_load(&reloads_done) < GENERATIONS - 1 &&
           reads >= (atomic_load(&reloads_done) + 1) * READS_PER_GENERATION)
        pthread_cond_wait(&reload_cv, &reload_mu);
    pthread_mutex_unlock(&reload_mu);
}

static void *reader(void *arg) {
    int *reads = arg;
    while (atomic_load(&reloads_done) < GENERATIONS - 1 || *reads < READS_PER_GENERATION) {
        wait_for_reload_if_ahead(*reads);
        mcpr_resources *r = acquire();
        mcpr_bundle *b = NULL;
        mcpr_status s = mcpr_read(r, S("doc://one"), NULL, &b, NULL);
        TCHECK(s == MCPR_OK && str_contains(mcpr_bundle_json(b), "body of doc://one"));
        mcpr_bundle_free(b);
        mcpr_list_options lo = {.struct_size = sizeof(mcpr_list_options), .scope_key = S("scope")};
        mcpr_page *p = NULL;
        TCHECK(mcpr_list(r, &lo, &p, NULL) == MCPR_OK);
        mcpr_page_free(p);
        mcpr_resources_free(r);
        (*reads)++;
    }
    return NULL;
}

static void test_reload_pattern(void) {
    host hosts[GENERATIONS];
    memset(hosts, 0, sizeof hosts);
    current = build(&hosts[0]);
    if (!current) return;
    int reads[READERS] = {0};
    pthread_t th[READERS];
    for (int i = 0; i < READERS; i++) pthread_create(&th[i], NULL, reader, &reads[i]);
    for (int gen = 1; gen < GENERATIONS; gen++) {
        mcpr_resources *next = build(&hosts[gen]);
        if (!next) break;
        pthread_mutex_lock(&current_mu);
        mcpr_resources *old = current;
        current = next;
        pthread_mutex_unlock(&current_mu);
        mcpr_resources_free(old); /* readers still using it hold their own */
        pthread_mutex_lock(&reload_mu);
        atomic_fetch_add(&reloads_done, 1);
        pthread_cond_broadcast(&reload_cv);
        pthread_mutex_unlock(&reload_mu);
    }
    for (int i = 0; i < READERS; i++) pthread_join(th[i], NULL);
    mcpr_resources_free(current);
    for (int gen = 0; gen < GENERATIONS; gen++) {
        CHECK(atomic_load(&hosts[gen].releases) == TABLES);
        CHECK(atomic_load(&hosts[gen].late_callbacks) == 0);
        CHECK(atomic_load(&hosts[gen].busy_release) == 0);
    }
}

int main(void) {
    main_thread = pthread_self();
    test_last_reference_released_during_calls();
    test_last_reference_released_during_executor_read();
    test_callback_releases_last_reference();
    test_reload_pattern();
    harness_failures += atomic_load(&thread_failures);
    return harness_finish("test_lifetime");
}
