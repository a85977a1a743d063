/* bench_read: per-read cost through the C ABI of the small exact read (W1:
 * 1,000 static resources registered, one read, a single 1 KiB text item at
 * an exact URI, trivial policy and a reader lending its static text), inline and with an executor
 * (2 workers), in ns/read, best of 20 short rounds; the executor once more with
 * the other core busy (a spinning thread); and the one-call path (mcpr_request with
 * the params text, then mcpr_response_json) against mcpr_read plus
 * mcpr_bundle_json, with their ratio (the target is at most 1.10); and the
 * asynchronous entry point (mcpr_read_start, one call in flight, its done
 * callback handing the bundle to the loop, which yields until it arrives)
 * against the blocking executor read (the goal is at most 1.2x). Compare
 * with `cargo bench --bench read` (the Rust API figure). First of all, while
 * the process is fresh, W2's registration: 100,000 templates added one by
 * one through mcpr_builder_add, then built, next to its floor measured in
 * a fresh child process (formatting, copying and hash-inserting 100,000
 * definitions, as the peer harness's reference program does; the goal is
 * at most 3x the floor, 0.05 s on a quiet machine); and W3's listing:
 * 100,000 exact resources in pages of 500 through mcpr_list, the first
 * pass of fresh processes, against concatenating the pre-rendered objects
 * in a fresh process (the goal is at most 1.5x).
 * Not a ctest test: run scripts/bench.sh. Lines starting with "GOAL " state
 * a figure next to its goal (scripts/bench.sh collects them).
 *
 * Then the same inline read on registries with an empty observer: call
 * events only, and with decision events, against the same registry without
 * one (alternating rounds; the goal is at most 1.1x).
 *
 * Modes observer-calls and observer-decisions run only that variant's reads
 * (for instruction counts: valgrind --tool=callgrind).
 *
 * Allocations per read (inline with the body lent and copied, on an
 * executor) are counted by replacing malloc in this executable (glibc):
 * mode "allocations", and in "all".
 *
 * Mode inline-copy runs the inline read with the body copied
 * (mcpr_payload_set_text) instead of lent, for instruction counts.
 *
 * Usage: bench_read [iterations [inline|executor|busy|request|register|list|async|observe|allocations|inline-copy|observer-calls|observer-decisions]]
 *   (default 200000, all) */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mcp_resources.h"

static char BODY[1024];

static mcpr_cb_result ok_discover(void *ud, const mcpr_call *c, const mcpr_definition *d) {
    (void)ud, (void)c, (void)d;
    return MCPR_CB_OK;
}
static mcpr_cb_result ok_visibility(void *ud, const mcpr_call *c, const mcpr_target *t, mcpr_visibility *out) {
    (void)ud, (void)c, (void)t;
    out->visible = true;
    out->disclose_issue_uri = false;
    return MCPR_CB_OK;
}
static mcpr_cb_result ok_read(void *ud, const mcpr_call *c, const mcpr_target *t) {
    (void)ud, (void)c, (void)t;
    return MCPR_CB_OK;
}
/* The body is static: lent without a copy (mcpr_payload_set_text_borrowed,
 * no release), as a host serving text it keeps would; body_read_copied
 * copies it (mcpr_payload_set_text), for the "inline-copy" mode. */
static mcpr_cb_result body_read(void *ud, const mcpr_call *c, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)ud, (void)c, (void)t;
    mcpr_str mime = {"text/plain", 10};
    mcpr_str text = {BODY, sizeof BODY};
    return mcpr_payload_set_text_borrowed(out, mime, text, NULL, NULL, NULL) == MCPR_OK ? MCPR_CB_OK : MCPR_CB_FAILED;
}
static mcpr_cb_result body_read_copied(void *ud, const mcpr_call *c, const mcpr_target *t,
                                       mcpr_payload_builder *out) {
    (void)ud, (void)c, (void)t;
    mcpr_str mime = {"text/plain", 10};
    mcpr_str text = {BODY, sizeof BODY};
    return mcpr_payload_set_text(out, mime, text, NULL) == MCPR_OK ? MCPR_CB_OK : MCPR_CB_FAILED;
}

/* Allocations, counted by replacing malloc and its kin in this executable
 * (the library's calls resolve to these first) with counting forwards to
 * glibc's; elsewhere not counted. */
#if defined(__GLIBC__)
#define COUNTS_ALLOCATIONS 1
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
static atomic_ulong allocations;
static void counted(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }
void *malloc(size_t n) {
    counted();
    return __libc_malloc(n);
}
void *calloc(size_t n, size_t size) {
    counted();
    return __libc_calloc(n, size);
}
void *realloc(void *p, size_t n) {
    counted();
    return __libc_realloc(p, n);
}
void free(void *p) { __libc_free(p); }
void *memalign(size_t align, size_t n) {
    counted();
    return __libc_memalign(align, n);
}
void *aligned_alloc(size_t align, size_t n) {
    counted();
    return __libc_memalign(align, n);
}
int posix_memalign(void **out, size_t align, size_t n) {
    counted();
    void *p = __libc_memalign(align, n);
    if (!p) return 12; /* ENOMEM */
    *out = p;
    return 0;
}
static unsigned long allocations_now(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
#else
#define COUNTS_ALLOCATIONS 0
static unsigned long allocations_now(void) { return 0; }
#endif

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double run(const mcpr_resources *r, const mcpr_read_options *opt, long iterations) {
    mcpr_str uri = {"bench://small/item", 18};
    double t0 = now_ns();
    for (long i = 0; i < iterations; i++) {
        mcpr_bundle *b = NULL;
        if (mcpr_read(r, uri, opt, &b, NULL) != MCPR_OK) {
            fprintf(stderr, "read failed\n");
            exit(1);
        }
        mcpr_bundle_free(b);
    }
    return (now_ns() - t0) / (double)iterations;
}

static volatile size_t sink;

/* Best of ROUNDS short rounds of `iterations / ROUNDS` reads (after a
 * warm-up): the machines are shared and noisy, a round of a few
 * milliseconds can pass between two preemptions, and the best round is the
 * least disturbed. */
enum { ROUNDS = 20 };
static double best_of(const mcpr_resources *r, const mcpr_read_options *opt, long iterations) {
    double best = 1e18;
    run(r, opt, iterations / 10 + 1);
    for (int round = 0; round < ROUNDS; round++) {
        double ns = run(r, opt, iterations / ROUNDS + 1);
        if (ns < best) best = ns;
    }
    return best;
}

/* The asynchronous read, one in flight: done hands the bundle over, and the
 * loop (the event loop's thread, say) spins until it arrives and frees it. */
static _Atomic(mcpr_bundle *) handed;

static void bench_done(void *data, mcpr_status status, mcpr_bundle *bundle, mcpr_error *error) {
    (void)data;
    if (status != MCPR_OK) {
        fprintf(stderr, "async read failed\n");
        exit(1);
    }
    mcpr_error_free(error);
    atomic_store_explicit(&handed, bundle, memory_order_release);
}

static double run_async(const mcpr_resources *r, const mcpr_read_options *opt, long iterations) {
    mcpr_str uri = {"bench://small/item", 18};
    double t0 = now_ns();
    for (long i = 0; i < iterations; i++) {
        if (mcpr_read_start(r, uri, opt, bench_done, NULL, NULL) != MCPR_OK) {
            fprintf(stderr, "async start failed\n");
            exit(1);
        }
        /* Yields between looks, so that a worker sharing this CPU gets it
         * (a host's loop would sleep on a pipe or eventfd instead, which
         * costs its wake-up on top: the figure is the library's part). */
        mcpr_bundle *b;
        while ((b = atomic_exchange_explicit(&handed, NULL, memory_order_acquire)) == NULL) sched_yield();
        mcpr_bundle_free(b);
    }
    return (now_ns() - t0) / (double)iterations;
}

static volatile int busy_stop;
static void *busy_loop(void *arg) {
    (void)arg;
    volatile unsigned long n = 0;
    while (!busy_stop) n++;
    return NULL;
}

static const char *verdict(bool met) { return met ? "met" : "NOT met"; }

/* mcpr_read + mcpr_bundle_json, the JSON touched as a host sending it would. */
static double run_read_json(const mcpr_resources *r, long iterations) {
    mcpr_str uri = {"bench://small/item", 18};
    mcpr_read_options opt = {
        .struct_size = sizeof(mcpr_read_options),
        .protocol_revision = {"2026-07-28", 10},
    };
    double t0 = now_ns();
    for (long i = 0; i < iterations; i++) {
        mcpr_bundle *b = NULL;
        if (mcpr_read(r, uri, &opt, &b, NULL) != MCPR_OK) exit(1);
        mcpr_str j = mcpr_bundle_json(b);
        sink += j.len + (size_t)j.ptr[j.len - 1];
        mcpr_bundle_free(b);
    }
    return (now_ns() - t0) / (double)iterations;
}

/* The same read through mcpr_request with the raw params text: the plain
 * params, or as a 2026-07-28 client sends them (with _meta). */
static const char PLAIN_PARAMS[] = "{\"uri\":\"bench://small/item\"}";
static const char META_PARAMS[] =
    "{\"uri\":\"bench://small/item\",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
    "\"io.modelcontextprotocol/clientCapabilities\":{},"
    "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"bench\",\"version\":\"1.0\"}}}";

static double run_request_with(const mcpr_resources *r, long iterations, const char *params) {
    mcpr_str method = {"resources/read", 14};
    mcpr_str p = {params, strlen(params)};
    mcpr_request_options opt = {
        .struct_size = sizeof(mcpr_request_options),
        .protocol_revision = {"2026-07-28", 10},
    };
    double t0 = now_ns();
    for (long i = 0; i < iterations; i++) {
        mcpr_response *resp = NULL;
        if (mcpr_request(r, method, p, &opt, &resp, NULL) != MCPR_OK || mcpr_response_is_error(resp)) exit(1);
        mcpr_str j = mcpr_response_json(resp);
        sink += j.len + (size_t)j.ptr[j.len - 1];
        mcpr_response_free(resp);
    }
    return (now_ns() - t0) / (double)iterations;
}

static double run_request(const mcpr_resources *r, long iterations) {
    return run_request_with(r, iterations, PLAIN_PARAMS);
}

/* W2's registration as the peer harness makes it: `n` template definitions,
 * each formatted and added with mcpr_builder_add (one static callback
 * table), then mcpr_builder_build; seconds from mcpr_builder_new to the
 * registry (freeing it is not timed). */
static double register_templates(const mcpr_policy_callbacks *policy, const mcpr_binding_callbacks *binding,
                                 long n) {
    double t0 = now_ns();
    mcpr_builder *b = mcpr_builder_new();
    if (!b || mcpr_builder_set_policy(b, policy, NULL) != MCPR_OK) exit(1);
    for (long i = 0; i < n; i++) {
        char def[160];
        int len = snprintf(def, sizeof def,
                           "{\"uriTemplate\":\"app%ld://project/{id}/thumbnail\",\"name\":\"thumb%ld\","
                           "\"mimeType\":\"text/plain\"}",
                           i, i);
        mcpr_str d = {def, (size_t)len};
        if (mcpr_builder_add(b, d, binding, NULL) != MCPR_OK) {
            fprintf(stderr, "template registration failed\n");
            exit(1);
        }
    }
    mcpr_resources *r = NULL;
    if (mcpr_builder_build(b, &r, NULL) != MCPR_OK) {
        fprintf(stderr, "template registry build failed\n");
        exit(1);
    }
    double s = (now_ns() - t0) / 1e9;
    mcpr_resources_free(r);
    return s;
}

static uint64_t fnv1a(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median5(double *t) {
    qsort(t, 5, sizeof *t, cmp_double);
    return t[2];
}

/* The floor of W2's registration, as the peer harness's reference program
 * measures it (the issue's "3x the floor" is against this one): what the
 * most direct C code does to keep 100,000 definitions and find them by
 * identifier, with nothing else (no parsing, validation, sort or index):
 * format each exact-resource definition, copy it into its own heap string
 * and insert it by its URI into an open-addressing table; seconds, median
 * of 5 rounds. */
static double register_floor(long n) {
    double t[5];
    for (int round = 0; round < 5; round++) {
        double t0 = now_ns();
        size_t cap = 16;
        while (cap < (size_t)n * 2) cap *= 2;
        struct slot {
            char *def;
            size_t key_off, key_len;
        } *tab = calloc(cap, sizeof *tab);
        if (!tab) exit(1);
        for (long i = 0; i < n; i++) {
            char def[160];
            int len = snprintf(def, sizeof def, "{\"uri\":\"mem://doc/%ld\",\"name\":\"doc%ld\",\"mimeType\":\"text/plain\"}",
                               i, i);
            char *d = malloc((size_t)len + 1);
            if (!d) exit(1);
            memcpy(d, def, (size_t)len + 1);
            size_t ko = 8, kl = (size_t)(strchr(d + ko, '"') - (d + ko)); /* {"uri":" */
            size_t h = (size_t)fnv1a(d + ko, kl) & (cap - 1);
            while (tab[h].def) {
                if (tab[h].key_len == kl && !memcmp(tab[h].def + tab[h].key_off, d + ko, kl)) exit(1);
                h = (h + 1) & (cap - 1);
            }
            tab[h].def = d, tab[h].key_off = ko, tab[h].key_len = kl;
        }
        t[round] = (now_ns() - t0) / 1e9;
        for (size_t i = 0; i < cap; i++) free(tab[i].def);
        free(tab);
    }
    return median5(t);
}

/* W3 as the peer harness lists it: 100,000 exact resources listed in pages
 * of 500 through mcpr_list (the C policy's discover runs for each), every
 * page kept to the end of the pass; seconds for one pass. */
static double list_pass(const mcpr_resources *r, long n) {
    mcpr_page **kept = malloc(((size_t)n / 500 + 2) * sizeof *kept);
    if (!kept) exit(1);
    size_t pages = 0, listed = 0;
    mcpr_str cursor = {NULL, 0};
    double t0 = now_ns();
    for (;;) {
        mcpr_list_options lo = {.struct_size = sizeof(mcpr_list_options)};
        lo.scope_key = (mcpr_str){"bench", 5};
        lo.cursor = cursor;
        lo.page_size = 500;
        mcpr_page *p = NULL;
        if (mcpr_list(r, &lo, &p, NULL) != MCPR_OK) {
            fprintf(stderr, "list failed\n");
            exit(1);
        }
        mcpr_str js = mcpr_page_json(p);
        mcpr_str next = mcpr_page_next_cursor(p);
        kept[pages++] = p;
        listed += js.len;
        if (next.len == 0) break;
        cursor = next;
    }
    double s = (now_ns() - t0) / 1e9;
    sink += listed;
    for (size_t i = 0; i < pages; i++) mcpr_page_free(kept[i]);
    free(kept);
    return s;
}

/* Its floor, as the peer harness's reference program measures it: the
 * 100,000 objects pre-rendered (one heap string each, allocated in
 * order), then each round concatenates them into pages of 500, each page
 * its own allocation, kept to the end of the round; seconds, median of 5
 * rounds. */
static double list_floor(long n) {
    static const char head[] = "{\"resources\":[", tail[] = "]}";
    char **frag = malloc((size_t)n * sizeof *frag);
    size_t *flen = malloc((size_t)n * sizeof *flen);
    long npages = (n + 499) / 500;
    char **kept = malloc((size_t)npages * sizeof *kept);
    if (!frag || !flen || !kept) exit(1);
    for (long i = 0; i < n; i++) {
        char tmp[128];
        int len = snprintf(tmp, sizeof tmp, "{\"uri\":\"mem://doc/%ld\",\"name\":\"doc%ld\",\"mimeType\":\"text/plain\"}", i, i);
        frag[i] = malloc((size_t)len + 1);
        if (!frag[i]) exit(1);
        memcpy(frag[i], tmp, (size_t)len + 1);
        flen[i] = (size_t)len;
    }
    double t[5];
    for (int round = 0; round < 5; round++) {
        double t0 = now_ns();
        for (long p = 0; p < npages; p++) {
            long lo = p * 500, hi = lo + 500 < n ? lo + 500 : n;
            size_t need = sizeof head + sizeof tail + 64;
            for (long i = lo; i < hi; i++) need += flen[i] + 1;
            char *pb = malloc(need), *q = pb;
            if (!pb) exit(1);
            memcpy(q, head, sizeof head - 1), q += sizeof head - 1;
            for (long i = lo; i < hi; i++) {
                if (i > lo) *q++ = ',';
                memcpy(q, frag[i], flen[i]), q += flen[i];
            }
            memcpy(q, tail, sizeof tail - 1);
            kept[p] = pb;
        }
        t[round] = (now_ns() - t0) / 1e9;
        for (long p = 0; p < npages; p++) sink += (unsigned char)kept[p][3], free(kept[p]);
    }
    for (long i = 0; i < n; i++) free(frag[i]);
    free(frag), free(flen), free(kept);
    return median5(t);
}

/* W3's listing as the peer harness makes it: 100,000 `mem://doc/<i>`
 * resources registered, then listed once in pages of 500 (the first pass
 * of a fresh process); seconds. */
static double list_fresh(const mcpr_policy_callbacks *policy, const mcpr_binding_callbacks *binding, long n) {
    mcpr_builder *b = mcpr_builder_new();
    if (!b || mcpr_builder_set_policy(b, policy, NULL) != MCPR_OK) exit(1);
    for (long i = 0; i < n; i++) {
        char def[128];
        int len = snprintf(def, sizeof def, "{\"uri\":\"mem://doc/%ld\",\"name\":\"doc%ld\",\"mimeType\":\"text/plain\"}", i, i);
        mcpr_str d = {def, (size_t)len};
        if (mcpr_builder_add(b, d, binding, NULL) != MCPR_OK) exit(1);
    }
    mcpr_resources *r = NULL;
    if (mcpr_builder_build(b, &r, NULL) != MCPR_OK) exit(1);
    double s = list_pass(r, n);
    mcpr_resources_free(r);
    return s;
}

/* Runs `f` in a fresh child process (a copy of this one before it grew
 * its heap) and returns what it measured; in this process if fork fails. */
static double in_child(double (*f)(const mcpr_policy_callbacks *, const mcpr_binding_callbacks *, long),
                       const mcpr_policy_callbacks *policy, const mcpr_binding_callbacks *binding, long n) {
    int fds[2];
    if (pipe(fds) != 0) return f(policy, binding, n);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]), close(fds[1]);
        return f(policy, binding, n);
    }
    if (pid == 0) {
        close(fds[0]);
        double s = f(policy, binding, n);
        ssize_t w = write(fds[1], &s, sizeof s);
        _exit(w == (ssize_t)sizeof s ? 0 : 1);
    }
    close(fds[1]);
    double s = 0;
    ssize_t got = read(fds[0], &s, sizeof s);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return got == (ssize_t)sizeof s ? s : f(policy, binding, n);
}

static double list_floor_of(const mcpr_policy_callbacks *policy, const mcpr_binding_callbacks *binding, long n) {
    (void)policy, (void)binding;
    return list_floor(n);
}

static double register_floor_of(const mcpr_policy_callbacks *policy, const mcpr_binding_callbacks *binding,
                                long n) {
    (void)policy, (void)binding;
    return register_floor(n);
}

/* W3: the first pass of 5 fresh processes (median) against the floor of
 * a fresh process, run in turn. */
static void bench_list(const mcpr_policy_callbacks *policy, const mcpr_binding_callbacks *binding) {
    enum { N = 100000 };
    double ours[5];
    double floor = in_child(list_floor_of, policy, binding, N);
    for (int k = 0; k < 5; k++) ours[k] = in_child(list_fresh, policy, binding, N);
    double o = median5(ours);
    printf("c_abi/list_100k_pages_500        %8.2f ms  (first pass of a fresh process, median of 5 processes)\n",
           o * 1e3);
    printf("c_abi/list_100k_pages_500/floor  %8.2f ms  (concatenating pre-rendered objects; median of 5 rounds in "
           "a fresh process)\n",
           floor * 1e3);
    printf("GOAL w3_list_100k_pages_500_c_over_floor %.2fx (%.2f ms against %.2f ms; goal <= 1.5x) %s\n", o / floor,
           o * 1e3, floor * 1e3, verdict(o <= 1.5 * floor));
}

static void empty_observer(void *ud, const mcpr_event *e) { (void)ud, (void)e; }

/* W1's registry: 1,000 static resources; with `observer` when not NULL. */
static mcpr_resources *build_w1(const mcpr_policy_callbacks *policy, const mcpr_binding_callbacks *binding,
                                const mcpr_observer_callbacks *observer) {
    mcpr_builder *b = mcpr_builder_new();
    const char *def = "{\"uri\":\"bench://small/item\",\"name\":\"item\"}";
    mcpr_str defs = {def, strlen(def)};
    mcpr_resources *r = NULL;
    if (mcpr_builder_set_policy(b, policy, NULL) != MCPR_OK || mcpr_builder_add(b, defs, binding, NULL) != MCPR_OK ||
        (observer && mcpr_builder_set_observer(b, observer, NULL) != MCPR_OK)) {
        fprintf(stderr, "setup failed\n");
        exit(1);
    }
    for (int i = 1; i < 1000; i++) {
        char other[96];
        int n = snprintf(other, sizeof other, "{\"uri\":\"bench://small/other-%d\",\"name\":\"other-%d\"}", i, i);
        mcpr_str o = {other, (size_t)n};
        if (mcpr_builder_add(b, o, binding, NULL) != MCPR_OK) {
            fprintf(stderr, "setup failed\n");
            exit(1);
        }
    }
    if (mcpr_builder_build(b, &r, NULL) != MCPR_OK) {
        fprintf(stderr, "setup failed\n");
        exit(1);
    }
    return r;
}

/* The inline read with an empty observer (call events only, then with
 * decision events) against the same registry without one: alternating
 * rounds, best of each. */
static void bench_observers(const mcpr_policy_callbacks *policy, const mcpr_binding_callbacks *binding,
                            long iterations) {
    mcpr_observer_callbacks calls = MCPR_OBSERVER_CALLBACKS_INIT;
    calls.on_event = empty_observer;
    mcpr_observer_callbacks decisions = calls;
    decisions.flags = MCPR_OBSERVE_DECISIONS;
    mcpr_resources *regs[3] = {build_w1(policy, binding, NULL), build_w1(policy, binding, &calls),
                               build_w1(policy, binding, &decisions)};
    mcpr_read_options opt = {.struct_size = sizeof(mcpr_read_options)};
    double best[3] = {1e18, 1e18, 1e18};
    for (int k = 0; k < 3; k++) run(regs[k], &opt, iterations / 10 + 1);
    for (int round = 0; round < ROUNDS; round++) {
        for (int j = 0; j < 3; j++) {
            int k = (round + j) % 3;
            double ns = run(regs[k], &opt, iterations / ROUNDS + 1);
            if (ns < best[k]) best[k] = ns;
        }
    }
    printf("c_abi/small_exact_read/inline, no observer          %10.0f ns/read\n", best[0]);
    printf("c_abi/small_exact_read/inline, empty observer       %10.0f ns/read  (%.3fx)\n", best[1],
           best[1] / best[0]);
    printf("c_abi/small_exact_read/inline, empty observer with decisions %10.0f ns/read  (%.3fx)\n", best[2],
           best[2] / best[0]);
    printf("GOAL w1_empty_observer_over_none %.2fx (goal <= 1.1x) %s\n", best[1] / best[0],
           verdict(best[1] <= 1.1 * best[0]));
    printf("GOAL w1_decision_events_empty_observer_over_none %.2fx (goal <= 1.1x) %s\n", best[2] / best[0],
           verdict(best[2] <= 1.1 * best[0]));
    for (int k = 0; k < 3; k++) mcpr_resources_free(regs[k]);
}

/* Allocations per read (malloc, calloc, realloc and the aligned forms, on
 * every thread) over `n` reads after a warm-up. */
static double allocations_per_read(const mcpr_resources *r, const mcpr_read_options *opt, long n) {
    run(r, opt, 100);
    unsigned long before = allocations_now();
    run(r, opt, n);
    return (double)(allocations_now() - before) / (double)n;
}

int main(int argc, char **argv) {
    long iterations = argc > 1 ? atol(argv[1]) : 200000;
    const char *mode = argc > 2 ? argv[2] : "all";
    bool all = strcmp(mode, "all") == 0;
    memset(BODY, 'a', sizeof BODY);
    mcpr_policy_callbacks policy = {
        .struct_size = sizeof(mcpr_policy_callbacks),
        .discover = ok_discover,
        .visibility = ok_visibility,
        .read = ok_read,
    };
    mcpr_binding_callbacks binding = {
        .struct_size = sizeof(mcpr_binding_callbacks),
        .resolve = mcpr_resolve_single,
        .read = body_read,
    };
    /* W3's processes are forked first: this process does no work of its
     * own there, so it is still fresh for W2's registration below. */
    if (all || strcmp(mode, "list") == 0) bench_list(&policy, &binding);
    if (all || strcmp(mode, "register") == 0) {
        /* First, while the process is fresh (its heap not yet grown), as in
         * the peer harness; then warm, the best of three more. */
        double floor = in_child(register_floor_of, &policy, &binding, 100000);
        double first = register_templates(&policy, &binding, 100000);
        double warm = 1e18;
        for (int round = 0; round < 3; round++) {
            double s = register_templates(&policy, &binding, 100000);
            if (s < warm) warm = s;
        }
        printf("c_abi/register_100k_templates/first %8.4f s  (fresh process, as the peer harness's W2)\n", first);
        printf("c_abi/register_100k_templates/warm  %8.4f s  (best of 3 more; %.2fx the floor)\n", warm,
               warm / floor);
        printf("c_abi/register_100k_templates/floor %8.4f s  (100,000 definitions formatted, copied, hash-inserted; "
               "median of 5 in a fresh child process)\n",
               floor);
        printf("GOAL w2_register_100k_templates_c %.3f s, %.2fx the floor %.4f s (goal <= 3x the floor, <= 0.05 s on a "
               "quiet machine; first in a fresh process) %s\n",
               first, first / floor, floor, verdict(first <= 3 * floor));
    }
    /* W1 registers 1,000 static resources and reads one. */
    mcpr_resources *r = build_w1(&policy, &binding, NULL);
    mcpr_executor *ex = NULL;
    if (mcpr_executor_new(2, &ex, NULL) != MCPR_OK) return 1;

    mcpr_read_options inline_opt = {.struct_size = sizeof(mcpr_read_options)};
    mcpr_read_options exec_opt = {.struct_size = sizeof(mcpr_read_options), .executor = ex};
    double inline_ns = 0, exec_ns = 0;
    if (all || strcmp(mode, "inline") == 0 || strcmp(mode, "executor") == 0 || strcmp(mode, "busy") == 0) {
        inline_ns = best_of(r, &inline_opt, iterations);
        printf("c_abi/small_exact_read/inline    %10.0f ns/read  (best of %d rounds of %ld reads)\n", inline_ns,
               ROUNDS, iterations / ROUNDS + 1);
        printf("GOAL w1_inline_c %.2f us (goal <= 0.4 us) %s\n", inline_ns / 1000, verdict(inline_ns <= 400));
    }
    if (all || strcmp(mode, "allocations") == 0) {
        if (COUNTS_ALLOCATIONS) {
            mcpr_binding_callbacks copying = binding;
            copying.read = body_read_copied;
            mcpr_resources *rc = build_w1(&policy, &copying, NULL);
            double a_inline = allocations_per_read(r, &inline_opt, 10000);
            double a_copy = allocations_per_read(rc, &inline_opt, 10000);
            double a_exec = allocations_per_read(r, &exec_opt, 10000);
            mcpr_resources_free(rc);
            printf("c_abi/small_exact_read/inline allocations            %6.2f per read (body lent)\n", a_inline);
            printf("c_abi/small_exact_read/inline, copied body, allocations %6.2f per read\n", a_copy);
            printf("c_abi/small_exact_read/executor allocations          %6.2f per read (every thread)\n", a_exec);
            printf("GOAL w1_allocations_per_read %.2f (goal <= 3) %s\n", a_inline, verdict(a_inline < 3.005));
        } else {
            printf("GOAL w1_allocations_per_read - (goal <= 3; allocations are counted with glibc only) -\n");
        }
    }
    if (all || strcmp(mode, "executor") == 0) {
        exec_ns = best_of(r, &exec_opt, iterations);
        printf("c_abi/small_exact_read/executor  %10.0f ns/read  (best of %d rounds; 2 workers)\n", exec_ns, ROUNDS);
        printf("GOAL w1_executor_c %.2f us (goal <= 4 us, quiet machine) %s\n", exec_ns / 1000,
               verdict(exec_ns <= 4000));
        printf("GOAL w1_executor_over_inline %.2fx (goal <= 2x) %s\n", exec_ns / inline_ns,
               verdict(exec_ns <= 2 * inline_ns));
    }
    if (all || strcmp(mode, "async") == 0) {
        /* Alternating rounds, best of each. */
        double best_wait = 1e18, best_async = 1e18;
        run(r, &exec_opt, iterations / 10 + 1);
        run_async(r, &exec_opt, iterations / 10 + 1);
        for (int round = 0; round < ROUNDS; round++) {
            double w = run(r, &exec_opt, iterations / ROUNDS + 1);
            double a = run_async(r, &exec_opt, iterations / ROUNDS + 1);
            if (w < best_wait) best_wait = w;
            if (a < best_async) best_async = a;
        }
        printf("c_abi/small_exact_read/executor, blocking  %10.0f ns/read  (best of %d rounds; 2 workers)\n",
               best_wait, ROUNDS);
        printf("c_abi/small_exact_read/executor, async     %10.0f ns/read  (mcpr_read_start, one in flight)\n",
               best_async);
        printf("GOAL w1_async_over_blocking_executor %.2fx (goal <= 1.2x) %s\n", best_async / best_wait,
               verdict(best_async <= 1.2 * best_wait));
    }
    if (all || strcmp(mode, "busy") == 0) {
        /* The same with the other core busy: a thread spinning meanwhile. */
        pthread_t spinner;
        busy_stop = 0;
        if (pthread_create(&spinner, NULL, busy_loop, NULL) != 0) return 1;
        double busy_inline = best_of(r, &inline_opt, iterations);
        double busy_exec = best_of(r, &exec_opt, iterations);
        busy_stop = 1;
        pthread_join(spinner, NULL);
        printf("c_abi/small_exact_read/inline, other core busy    %10.0f ns/read\n", busy_inline);
        printf("c_abi/small_exact_read/executor, other core busy  %10.0f ns/read  (%.2fx inline)\n", busy_exec,
               busy_exec / busy_inline);
        printf("GOAL w1_executor_busy_c %.2f us, %.2fx inline (other core busy; reported, goals are for a quiet "
               "machine) -\n",
               busy_exec / 1000, busy_exec / busy_inline);
    }
    if (all || strcmp(mode, "request") == 0) {
        /* Alternating rounds, best of each: the machines are shared and noisy. */
        double best_read = 1e18, best_request = 1e18, best_meta = 1e18;
        run_read_json(r, iterations / 10 + 1);
        run_request(r, iterations / 10 + 1);
        for (int round = 0; round < 5; round++) {
            /* the order alternates too: the first loop of a round can differ */
            double a, b2, m;
            if (round % 2) {
                a = run_read_json(r, iterations / 5 + 1);
                b2 = run_request(r, iterations / 5 + 1);
                m = run_request_with(r, iterations / 5 + 1, META_PARAMS);
            } else {
                m = run_request_with(r, iterations / 5 + 1, META_PARAMS);
                b2 = run_request(r, iterations / 5 + 1);
                a = run_read_json(r, iterations / 5 + 1);
            }
            if (a < best_read) best_read = a;
            if (b2 < best_request) best_request = b2;
            if (m < best_meta) best_meta = m;
        }
        printf("c_abi/small_exact_read/read+json %10.0f ns/read  (best of 5 rounds)\n", best_read);
        printf("c_abi/small_exact_read/request   %10.0f ns/read  (best of 5 rounds)\n", best_request);
        printf("c_abi/small_exact_read/request_over_read_ratio %.3f  (target <= 1.10)\n", best_request / best_read);
        printf("c_abi/small_exact_read/request_2026_meta %10.0f ns/read  (ratio %.3f; params with _meta)\n", best_meta,
               best_meta / best_read);
    }
    if (all || strcmp(mode, "observe") == 0) bench_observers(&policy, &binding, iterations);
    if (strcmp(mode, "inline-copy") == 0) {
        /* The inline read with the body copied (mcpr_payload_set_text), for
         * instruction counts against the lent body of "inline". */
        mcpr_binding_callbacks copying = binding;
        copying.read = body_read_copied;
        mcpr_resources *rc = build_w1(&policy, &copying, NULL);
        printf("inline-copy %10.0f ns/read\n", best_of(rc, &inline_opt, iterations));
        mcpr_resources_free(rc);
    }
    if (strcmp(mode, "observer-calls") == 0 || strcmp(mode, "observer-decisions") == 0) {
        mcpr_observer_callbacks obs = MCPR_OBSERVER_CALLBACKS_INIT;
        obs.on_event = empty_observer;
        obs.flags = strcmp(mode, "observer-decisions") == 0 ? MCPR_OBSERVE_DECISIONS : 0;
        mcpr_resources *o = build_w1(&policy, &binding, &obs);
        printf("%s %10.0f ns/read\n", mode, run(o, &inline_opt, iterations));
        mcpr_resources_free(o);
    }
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
    return 0;
}
