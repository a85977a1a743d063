/* bench_read: per-read cost through the C ABI of the small exact read (a
 * single 1 KiB text item at an exact URI, trivial policy and reader), inline
 * and with an executor, in ns/read. Compare with `cargo bench --bench read`
 * (the Rust API figure). Not a ctest test: run scripts/bench.sh.
 *
 * Usage: bench_read [iterations [inline|executor]]   (default 200000, both) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
static mcpr_cb_result body_read(void *ud, const mcpr_call *c, const mcpr_target *t, mcpr_payload_builder *out) {
    (void)ud, (void)c, (void)t;
    mcpr_str mime = {"text/plain", 10};
    mcpr_str text = {BODY, sizeof BODY};
    return mcpr_payload_set_text(out, mime, text, NULL) == MCPR_OK ? MCPR_CB_OK : MCPR_CB_FAILED;
}

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

int main(int argc, char **argv) {
    long iterations = argc > 1 ? atol(argv[1]) : 200000;
    memset(BODY, 'a', sizeof BODY);
    mcpr_policy_callbacks policy = {NULL, ok_discover, ok_visibility, ok_read, NULL};
    mcpr_binding_callbacks binding = {NULL, mcpr_resolve_single, body_read, NULL, NULL};
    mcpr_builder *b = mcpr_builder_new();
    const char *def = "{\"uri\":\"bench://small/item\",\"name\":\"item\"}";
    mcpr_str defs = {def, strlen(def)};
    mcpr_resources *r = NULL;
    if (mcpr_builder_set_policy(b, &policy, NULL) != MCPR_OK || mcpr_builder_add(b, defs, &binding, NULL) != MCPR_OK ||
        mcpr_builder_build(b, &r, NULL) != MCPR_OK) {
        fprintf(stderr, "setup failed\n");
        return 1;
    }
    mcpr_builder_free(b);
    mcpr_executor *ex = NULL;
    if (mcpr_executor_new(0, &ex, NULL) != MCPR_OK) return 1;

    const char *mode = argc > 2 ? argv[2] : "both";
    mcpr_read_options inline_opt = {0, NULL, NULL, NULL};
    mcpr_read_options exec_opt = {0, NULL, NULL, ex};
    if (strcmp(mode, "executor") != 0) {
        run(r, &inline_opt, iterations / 10 + 1); /* warm up */
        double inline_ns = run(r, &inline_opt, iterations);
        printf("c_abi/small_exact_read/inline    %10.0f ns/read  (%ld reads)\n", inline_ns, iterations);
    }
    if (strcmp(mode, "inline") != 0) {
        run(r, &exec_opt, iterations / 10 + 1);
        double exec_ns = run(r, &exec_opt, iterations);
        printf("c_abi/small_exact_read/executor  %10.0f ns/read  (%ld reads)\n", exec_ns, iterations);
    }
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
    return 0;
}
