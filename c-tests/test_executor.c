/* Executors: options and statistics (struct_size growth rules, bad
 * arguments); every callback kind blocking forever with an executor (the
 * read or listing still returns by its deadline, or promptly with
 * MCPR_CANCELED); a thousand never-returning body readers (threads and the
 * queue stay bounded, the hung binding fails fast with "executor saturated",
 * healthy bindings and listings are still served on the same executor, and
 * capacity returns when the readers return). Blocked callbacks wait on a
 * gate opened at the end of each part, so memcheck and ASan see every
 * thread finish and every release run. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"

/* ------------------------------------------------ the gate */

static pthread_mutex_t gate_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static bool gate_opened = false;
static atomic_int gate_entered, gate_left;

static void gate_wait(void) {
    atomic_fetch_add(&gate_entered, 1);
    pthread_mutex_lock(&gate_mu);
    while (!gate_opened) pthread_cond_wait(&gate_cv, &gate_mu);
    pthread_mutex_unlock(&gate_mu);
    atomic_fetch_add(&gate_left, 1);
}

static void gate_open(void) {
    pthread_mutex_lock(&gate_mu);
    gate_opened = true;
    pthread_cond_broadcast(&gate_cv);
    pthread_mutex_unlock(&gate_mu);
}

static void gate_close(void) {
    pthread_mutex_lock(&gate_mu);
    gate_opened = false;
    pthread_mutex_unlock(&gate_mu);
}

static bool wait_until_left(int n, unsigned max_ms) {
    unsigned long long end = now_ms() + max_ms;
    while (atomic_load(&gate_left) < n) {
        if (now_ms() > end) return false;
        sleep_ms(2);
    }
    return true;
}

/* ------------------------------------------------ a host that blocks where told */

enum block { B_NONE, B_DISCOVER, B_VISIBILITY, B_PERMISSION, B_RESOLVE, B_BODY };
static const char *block_name[] = {"none", "discover", "visibility", "permission", "resolve", "body"};

typedef struct {
    enum block block;
    atomic_int releases;
} host;

static mcpr_cb_result p_discover(void *ud, const mcpr_call *call, const mcpr_definition *d) {
    (void)call;
    (void)d;
    if (((host *)ud)->block == B_DISCOVER) gate_wait();
    return MCPR_CB_OK;
}

static mcpr_cb_result p_visibility(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_visibility *out) {
    (void)call;
    (void)t;
    if (((host *)ud)->block == B_VISIBILITY) gate_wait();
    out->visible = true;
    out->disclose_issue_uri = true;
    return MCPR_CB_OK;
}

static mcpr_cb_result p_permit(void *ud, const mcpr_call *call, const mcpr_target *t) {
    (void)call;
    (void)t;
    if (((host *)ud)->block == B_PERMISSION) gate_wait();
    return MCPR_CB_OK;
}

static mcpr_cb_result b_resolve(void *ud, const mcpr_call *call, const mcpr_match *m, mcpr_plan_builder *plan) {
    if (((host *)ud)->block == B_RESOLVE) gate_wait();
    return mcpr_resolve_single(ud, call, m, plan);
}

static mcpr_cb_result b_read(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)call;
    if (((host *)ud)->block == B_BODY) gate_wait();
    return mcpr_payload_set_text(out, S("text/plain"), mcpr_target_uri(t), NULL) == MCPR_OK ? MCPR_CB_OK
                                                                                           : MCPR_CB_FAILED;
}

static void h_release(void *ud) { atomic_fetch_add(&((host *)ud)->releases, 1); }

/* Policy `pol`; "hang://h/{n}" bound to `hang`, "ok://k/{n}" to `ok`. */
static mcpr_resources *registry(host *pol, host *hang, host *ok, int64_t item_timeout_ms) {
    mcpr_policy_callbacks p = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .user_data = pol,
        .discover = p_discover,
        .visibility = p_visibility,
        .read = p_permit,
        .release = h_release,
    };
    mcpr_binding_callbacks bh = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = hang,
        .resolve = b_resolve,
        .read = b_read,
        .release = h_release,
    };
    mcpr_binding_callbacks bo = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .user_data = ok,
        .resolve = b_resolve,
        .read = b_read,
        .release = h_release,
    };
    mcpr_builder *b = mcpr_builder_new();
    CHECK_STATUS(mcpr_builder_set_policy(b, &p, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_ITEM_TIMEOUT_MS, item_timeout_ms, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uriTemplate\":\"hang://h/{n}\",\"name\":\"hang\"}"), &bh, NULL), MCPR_OK);
    CHECK_STATUS(mcpr_builder_add(b, S("{\"uriTemplate\":\"ok://k/{n}\",\"name\":\"ok\"}"), &bo, NULL), MCPR_OK);
    return host_build(b);
}

static mcpr_executor_stats stats_of(const mcpr_executor *ex) {
    mcpr_executor_stats st;
    memset(&st, 0, sizeof st);
    st.struct_size = sizeof st;
    CHECK_STATUS(mcpr_executor_get_stats(ex, &st, NULL), MCPR_OK);
    return st;
}

static bool cause_has(mcpr_error *e, const char *needle) { return e && str_contains(mcpr_error_cause(e), needle); }

static unsigned os_threads(void) {
#ifdef __linux__
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned n = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "Threads:", 8) == 0) n = (unsigned)strtoul(line + 8, NULL, 10);
    fclose(f);
    return n;
#else
    return 0;
#endif
}

/* ------------------------------------------------ options and statistics */

static void test_options_and_stats(void) {
    mcpr_executor_options o;
    memset(&o, 0xff, sizeof o);
    mcpr_executor_options_init(&o);
    CHECK(o.struct_size == sizeof o && o.threads == 0 && o.max_hung == 0 && o.max_queued == 0);
    mcpr_executor_options_init(NULL); /* ignored */

    mcpr_executor *ex = NULL;
    mcpr_error *e = NULL;
    /* impossible sizes and bounds */
    o.struct_size = 0;
    CHECK_STATUS(mcpr_executor_new_with(&o, &ex, &e), MCPR_INVALID_ARGUMENT);
    CHECK(ex == NULL && e != NULL);
    mcpr_error_free(e);
    e = NULL;
    o.struct_size = 1u << 20;
    CHECK_STATUS(mcpr_executor_new_with(&o, &ex, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_executor_options_init(&o);
    o.threads = MCPR_MAX_EXECUTOR_THREADS + 1;
    CHECK_STATUS(mcpr_executor_new_with(&o, &ex, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_executor_options_init(&o);
    o.max_hung = MCPR_MAX_EXECUTOR_HUNG + 1;
    CHECK_STATUS(mcpr_executor_new_with(&o, &ex, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_executor_new_with(&o, NULL, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(ex == NULL);

    /* an older caller's smaller struct: fields beyond it take defaults */
    mcpr_executor_options_init(&o);
    o.threads = 3;
    o.max_hung = 5; /* beyond struct_size: ignored */
    o.struct_size = offsetof(mcpr_executor_options, max_hung);
    CHECK_STATUS(mcpr_executor_new_with(&o, &ex, NULL), MCPR_OK);
    mcpr_executor_stats st = stats_of(ex);
    CHECK(st.threads == 3 && st.max_hung == 64 && st.max_queued == 1024 && st.workers == 3);
    CHECK(st.hung == 0 && st.queued == 0 && st.busy == 0 && st.refused == 0);
    CHECK(st.queued_high_water == 0 && st.busy_high_water == 0 && st.hung_high_water == 0);
    CHECK(st.saturations == 0 && st.refused_queue_full == 0);

    /* a smaller stats struct: only the fields within it are written */
    unsigned char raw[sizeof(mcpr_executor_stats) + 16];
    memset(raw, 0xab, sizeof raw);
    mcpr_executor_stats *part = (mcpr_executor_stats *)(void *)raw;
    part->struct_size = offsetof(mcpr_executor_stats, workers) + 4; /* a cut field is not written */
    CHECK_STATUS(mcpr_executor_get_stats(ex, part, NULL), MCPR_OK);
    CHECK(part->struct_size == offsetof(mcpr_executor_stats, workers) + 4);
    CHECK(part->threads == 3 && part->max_hung == 64 && part->max_queued == 1024);
    for (size_t i = offsetof(mcpr_executor_stats, workers); i < sizeof raw; i++) CHECK(raw[i] == 0xab);
    /* a program built before the high-water marks (its struct ends at
     * replaced): nothing written past it */
    memset(raw, 0xab, sizeof raw);
    part->struct_size = offsetof(mcpr_executor_stats, queued_high_water);
    CHECK_STATUS(mcpr_executor_get_stats(ex, part, NULL), MCPR_OK);
    CHECK(part->workers == 3 && part->replaced == 0);
    for (size_t i = offsetof(mcpr_executor_stats, queued_high_water); i < sizeof raw; i++) CHECK(raw[i] == 0xab);
    /* a newer caller's larger struct: the bytes beyond ours are untouched */
    memset(raw, 0xab, sizeof raw);
    part->struct_size = sizeof raw;
    CHECK_STATUS(mcpr_executor_get_stats(ex, part, NULL), MCPR_OK);
    CHECK(part->workers == 3);
    for (size_t i = sizeof(mcpr_executor_stats); i < sizeof raw; i++) CHECK(raw[i] == 0xab);
    /* bad arguments */
    part->struct_size = 0;
    CHECK_STATUS(mcpr_executor_get_stats(ex, part, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_executor_get_stats(ex, NULL, NULL), MCPR_INVALID_ARGUMENT);
    st.struct_size = sizeof st;
    CHECK_STATUS(mcpr_executor_get_stats(NULL, &st, &e), MCPR_INVALID_ARGUMENT);
    CHECK(e != NULL);
    mcpr_error_free(e);
    mcpr_executor_free(ex);

    /* NULL options: the defaults; mcpr_executor_new keeps working */
    ex = NULL;
    CHECK_STATUS(mcpr_executor_new_with(NULL, &ex, NULL), MCPR_OK);
    st = stats_of(ex);
    CHECK(st.threads >= 2 && st.workers == st.threads);
    mcpr_executor_free(ex);
    ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    st = stats_of(ex);
    CHECK(st.threads == 2 && st.max_hung == 64);
    mcpr_executor_free(ex);
}

/* ------------------------------------------------ every callback kind blocking */

typedef struct {
    const mcpr_cancel *token;
    unsigned after_ms;
} canceller;

static void *cancel_later(void *arg) {
    canceller *c = arg;
    sleep_ms(c->after_ms);
    mcpr_cancel_cancel(c->token);
    return NULL;
}

static void test_every_callback_runs_under_its_deadline(void) {
    unsigned s = slow();
    const unsigned deadline = 200 * s, slack = 2000 * s;
    gate_close();
    int blocked = 0;
    for (int k = B_DISCOVER; k <= B_BODY; k++) {
        host pol = {0}, hang = {0}, ok = {0};
        if (k <= B_PERMISSION)
            pol.block = (enum block)k;
        else
            ok.block = (enum block)k;
        mcpr_resources *r = registry(&pol, &hang, &ok, 100 * s);
        mcpr_executor *ex = NULL;
        CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
        /* the deadline */
        mcpr_read_options opt = {
            .struct_size = sizeof(mcpr_read_options),
            .timeout_ms = deadline,
            .executor = ex,
        };
        mcpr_error *e = NULL;
        unsigned long long t0 = now_ms();
        mcpr_status st = host_read(r, "ok://k/1", &opt, NULL, NULL, &e);
        unsigned long long took = now_ms() - t0;
        /* a body read is abandoned at its item deadline: its (only) item
         * is a timeout; every other callback holds the whole read */
        mcpr_status want = k == B_BODY ? MCPR_TIMEOUT : MCPR_DEADLINE_EXCEEDED;
        if (st != want || took >= deadline + slack)
            fprintf(stderr, "%s: status %d after %llu ms\n", block_name[k], (int)st, took);
        CHECK(st == want && took < deadline + slack);
        mcpr_error_free(e);
        blocked++;
        /* cancellation: prompt */
        mcpr_cancel *token = mcpr_cancel_new();
        canceller c = {token, 50};
        pthread_t th;
        pthread_create(&th, NULL, cancel_later, &c);
        mcpr_read_options copt = {
            .struct_size = sizeof(mcpr_read_options),
            .timeout_ms = 30000,
            .cancel = token,
            .executor = ex,
        };
        t0 = now_ms();
        st = host_read(r, "ok://k/2", &copt, NULL, NULL, NULL);
        took = now_ms() - t0;
        if (k == B_BODY) {
            /* the item deadline (100 ms) may come first */
            CHECK(st == MCPR_CANCELED || st == MCPR_TIMEOUT);
        } else {
            CHECK_STATUS(st, MCPR_CANCELED);
        }
        CHECK(took < slack);
        pthread_join(th, NULL);
        mcpr_cancel_free(token);
        blocked++;
        mcpr_executor_stats stats = stats_of(ex);
        CHECK(stats.hung == 2 && stats.abandoned == 2);
        /* a listing with a blocking discover */
        if (k == B_DISCOVER) {
            mcpr_list_options lo = {
                .struct_size = sizeof(mcpr_list_options),
                .scope_key = S("scope"),
                .timeout_ms = deadline,
                .executor = ex,
            };
            mcpr_page *p = NULL;
            t0 = now_ms();
            CHECK_STATUS(mcpr_list_templates(r, &lo, &p, NULL), MCPR_DEADLINE_EXCEEDED);
            CHECK(p == NULL && now_ms() - t0 < deadline + slack);
            blocked++;
            token = mcpr_cancel_new();
            canceller c2 = {token, 50};
            pthread_create(&th, NULL, cancel_later, &c2);
            lo.timeout_ms = 30000;
            lo.cancel = token;
            t0 = now_ms();
            CHECK_STATUS(mcpr_list_templates(r, &lo, &p, NULL), MCPR_CANCELED);
            CHECK(now_ms() - t0 < slack);
            pthread_join(th, NULL);
            mcpr_cancel_free(token);
            blocked++;
        }
        /* free everything while the callbacks are still blocked: the
         * releases wait for them */
        mcpr_executor_free(ex);
        mcpr_resources_free(r);
        CHECK(atomic_load(&ok.releases) == 0); /* held by the blocked calls */
        gate_open();
        CHECK(wait_until_left(blocked, 5000 * s));
        unsigned long long end = now_ms() + 5000 * s;
        while ((atomic_load(&pol.releases) != 1 || atomic_load(&ok.releases) != 1 ||
                atomic_load(&hang.releases) != 1) &&
               now_ms() < end)
            sleep_ms(2);
        CHECK(atomic_load(&pol.releases) == 1 && atomic_load(&ok.releases) == 1 &&
              atomic_load(&hang.releases) == 1);
        gate_close();
    }
}

/* ------------------------------------------------ a thousand never-returning readers */

enum { HUNG_READS = 1000, CALLERS = 4, THREADS = 2, MAX_HUNG = 16 };

typedef struct {
    mcpr_resources *r;
    mcpr_executor *ex;
    atomic_int *next;
    int timeouts, saturated, other, healthy_ok;
    unsigned peak_threads;
} hung_caller;

static void *hung_run(void *arg) {
    hung_caller *c = arg;
    unsigned s = slow();
    for (;;) {
        int n = atomic_fetch_add(c->next, 1);
        if (n >= HUNG_READS) break;
        char uri[64];
        snprintf(uri, sizeof uri, "hang://h/%d", n);
        mcpr_read_options opt = {
            .struct_size = sizeof(mcpr_read_options),
            .timeout_ms = 10000 * s,
            .executor = c->ex,
        };
        mcpr_bundle *b = NULL;
        mcpr_error *e = NULL;
        unsigned long long t0 = now_ms();
        mcpr_status st = mcpr_read(c->r, str_of(uri), &opt, &b, &e);
        if (now_ms() - t0 > 3000 * s) c->other++; /* never waits long */
        if (st == MCPR_TIMEOUT)
            c->timeouts++;
        else if (st == MCPR_READ_FAILED && cause_has(e, "executor saturated"))
            c->saturated++;
        else
            c->other++;
        mcpr_bundle_free(b);
        mcpr_error_free(e);
        if (n % 50 == 0) { /* healthy reads in between */
            snprintf(uri, sizeof uri, "ok://k/%d", n);
            b = NULL;
            if (mcpr_read(c->r, str_of(uri), &opt, &b, NULL) == MCPR_OK &&
                str_contains(mcpr_bundle_json(b), uri))
                c->healthy_ok++;
            mcpr_bundle_free(b);
        }
        unsigned t = os_threads();
        if (t > c->peak_threads) c->peak_threads = t;
    }
    return NULL;
}

static void test_thousand_never_returning_readers(void) {
    unsigned s = slow();
    gate_close();
    atomic_store(&gate_entered, 0);
    atomic_store(&gate_left, 0);
    unsigned before = os_threads();
    host pol = {0}, hang = {.block = B_BODY}, ok = {0};
    mcpr_resources *r = registry(&pol, &hang, &ok, 50 * s);
    mcpr_executor_options o;
    mcpr_executor_options_init(&o);
    o.threads = THREADS;
    o.max_hung = MAX_HUNG;
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new_with(&o, &ex, NULL), MCPR_OK);
    atomic_int next = 0;
    hung_caller c[CALLERS];
    pthread_t th[CALLERS];
    for (int i = 0; i < CALLERS; i++) {
        c[i] = (hung_caller){r, ex, &next, 0, 0, 0, 0, 0};
        pthread_create(&th[i], NULL, hung_run, &c[i]);
    }
    int timeouts = 0, saturated = 0, other = 0, healthy_ok = 0;
    unsigned peak = 0;
    for (int i = 0; i < CALLERS; i++) {
        pthread_join(th[i], NULL);
        timeouts += c[i].timeouts;
        saturated += c[i].saturated;
        other += c[i].other;
        healthy_ok += c[i].healthy_ok;
        if (c[i].peak_threads > peak) peak = c[i].peak_threads;
    }
    CHECK(other == 0);
    CHECK(timeouts + saturated == HUNG_READS);
    CHECK(healthy_ok == HUNG_READS / 50);
    mcpr_executor_stats st = stats_of(ex);
    printf("test_executor: %d hung readers, %d reads failed fast, workers %llu, hung %llu, refused %llu\n",
           timeouts, saturated, (unsigned long long)st.workers, (unsigned long long)st.hung,
           (unsigned long long)st.refused);
    CHECK(st.hung >= MAX_HUNG && st.hung <= MAX_HUNG + THREADS);
    CHECK((int)st.hung == timeouts && atomic_load(&gate_entered) == timeouts);
    CHECK(st.workers <= THREADS + MAX_HUNG);
    CHECK(st.queued == 0);
    CHECK(st.refused >= (uint64_t)saturated);
    /* saturation was visible: the hung bound reached and remembered, the
     * queue's and the busy workers' high-water marks within their bounds */
    CHECK(st.hung_high_water >= MAX_HUNG && st.hung_high_water <= MAX_HUNG + THREADS);
    CHECK(st.hung_high_water >= st.hung);
    CHECK(st.saturations >= 1 && st.saturations <= st.abandoned);
    CHECK(st.busy_high_water >= 1 && st.busy_high_water <= THREADS + MAX_HUNG);
    CHECK(st.queued_high_water <= st.max_queued);
    CHECK(st.refused_queue_full <= st.refused);
#ifdef __linux__
    CHECK(peak <= before + THREADS + MAX_HUNG + CALLERS + 1);
#endif
    (void)before;
    (void)peak;

    /* healthy bindings and listings are still served */
    for (int i = 0; i < 20; i++) {
        mcpr_read_options opt = {.struct_size = sizeof(mcpr_read_options), .executor = ex};
        bool partial = true;
        CHECK_STATUS(host_read(r, "ok://k/after", &opt, NULL, &partial, NULL), MCPR_OK);
        CHECK(!partial);
    }
    mcpr_list_options lo = {
        .struct_size = sizeof(mcpr_list_options),
        .scope_key = S("scope"),
        .executor = ex,
    };
    mcpr_page *p = NULL;
    CHECK_STATUS(mcpr_list_templates(r, &lo, &p, NULL), MCPR_OK);
    CHECK(str_contains(mcpr_page_json(p), "hang://h/{n}") && str_contains(mcpr_page_json(p), "ok://k/{n}"));
    mcpr_page_free(p);

    /* capacity returns when the readers return */
    gate_open();
    CHECK(wait_until_left(timeouts, 10000 * s));
    unsigned long long end = now_ms() + 10000 * s;
    do {
        st = stats_of(ex);
        if (st.hung == 0 && st.workers == THREADS) break;
        sleep_ms(2);
    } while (now_ms() < end);
    CHECK(st.hung == 0 && st.workers == THREADS && st.returned == st.abandoned);
    CHECK(st.hung_high_water >= MAX_HUNG); /* the mark stays after capacity returned */
    mcpr_read_options opt = {.struct_size = sizeof(mcpr_read_options), .executor = ex};
    CHECK_STATUS(host_read(r, "hang://h/after", &opt, NULL, NULL, NULL), MCPR_OK);
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
    CHECK(atomic_load(&hang.releases) == 1 && atomic_load(&ok.releases) == 1 && atomic_load(&pol.releases) == 1);
}

int main(void) {
    test_options_and_stats();
    test_every_callback_runs_under_its_deadline();
    test_thousand_never_returning_readers();
    return harness_finish("test_executor");
}
