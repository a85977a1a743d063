/* A small test harness for the C tests of mcp_resources: checks, string
 * helpers over mcpr_str, and a scriptable test host (policy and bindings)
 * whose behaviour is encoded in the item URIs:
 *
 *   item://ok/NAME       text "body of item://ok/NAME"
 *   item://blob/NAME     blob bytes {0, 1, 2, 255}
 *   item://fail/NAME     MCPR_CB_FAILED with the cause "SECRET-CAUSE"
 *   item://weird/NAME    returns 77 (an unknown result: a failure)
 *   item://unavail/NAME  MCPR_CB_UNAVAILABLE
 *   item://empty/NAME    MCPR_CB_OK without setting a body (invalid_content)
 *   item://badmime/NAME  a refused mcpr_payload_set_text, then MCPR_CB_OK
 *   item://hang/NAME     sleeps host->hang_ms ignoring cancellation, then text
 *   item://coop/NAME     waits until mcpr_call_is_canceled, then FAILED
 *   item://big/NAME      host->big_bytes of 'x'
 */
#ifndef MCPR_HARNESS_H
#define MCPR_HARNESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mcp_resources.h"

extern int harness_failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            harness_failures++;                                                      \
        }                                                                            \
    } while (0)

#define CHECK_STATUS(got, want)                                                        \
    do {                                                                               \
        mcpr_status got_ = (got);                                                      \
        if (got_ != (want)) {                                                          \
            fprintf(stderr, "%s:%d: status %d, want %s (%d)\n", __FILE__, __LINE__,    \
                    (int)got_, #want, (int)(want));                                    \
            harness_failures++;                                                        \
        }                                                                              \
    } while (0)

/* A string literal as an mcpr_str. */
#define S(lit) ((mcpr_str){(lit), sizeof(lit) - 1})

mcpr_str str_of(const char *s);
bool str_eq(mcpr_str s, const char *lit);
bool str_contains(mcpr_str s, const char *needle);
size_t str_count(mcpr_str s, const char *needle);
/* Whether the JSON holds a warning identity: mcp-warning://read/ + 32 lowercase hex. */
bool has_warning_uri(mcpr_str json);
/* Returns the number of failures and prints a summary. */
int harness_finish(const char *name);
/* 1, or a larger factor when MCPR_TEST_SLOW is set (under valgrind). */
unsigned slow(void);
void sleep_ms(unsigned ms);
unsigned long long now_ms(void);

/* NULL, where the header says a pointer must not be NULL: the misuse checks
 * pass it to check that the library refuses it (MCPR_INVALID_ARGUMENT).
 * clang flags a literal NULL there (-Wnonnull, from the header's
 * nullability); this one it cannot see, so every other NULL the tests pass
 * stays checked against the header. */
void *misuse_null(void);
#define MISUSE_NULL (misuse_null())

/* Prints and frees an error (when not NULL). */
void show_error(const char *what, mcpr_error *e);

/* ---------------------------------------------------------------- test host */

#define HOST_MAX 16

typedef struct {
    /* configuration (set before building) */
    const char *hidden[HOST_MAX];        /* visibility: hidden */
    const char *denied[HOST_MAX];        /* policy read: unavailable */
    const char *hide_later[HOST_MAX];    /* hidden from the 2nd visibility check on */
    const char *revoke_later[HOST_MAX];  /* read denied from the 2nd permission check on */
    const char *show_later[HOST_MAX];    /* hidden at first, visible from the 2nd check on */
    const char *deny_discover[HOST_MAX]; /* definition uri/uriTemplate denied */
    const char *discover_later[HOST_MAX]; /* denied from the 2nd discover on */
    bool disclose;                       /* disclose_issue_uri */
    bool fail_visibility;                /* visibility returns FAILED */
    bool fail_discover;                  /* discover returns FAILED */
    void *expect_request_data;           /* counted in saw_request_data when seen */
    atomic_int saw_request_data;
    /* counters */
    atomic_int discover_calls;
    atomic_int visibility_calls;
    atomic_int permission_calls;
    atomic_int releases;
    atomic_int per_uri_checks[HOST_MAX]; /* visibility calls per hide_later/show_later/revoke index */
} host_policy;

typedef struct {
    const char *items[HOST_MAX]; /* plan items for a bundle (NULL-terminated) */
    const char *requested;       /* requested target (NULL = the matched URI) */
    const char *authorization;   /* authorization JSON given to every target */
    unsigned hang_ms;            /* item://hang sleep */
    size_t big_bytes;            /* item://big size */
    atomic_int resolve_calls;
    atomic_int body_reads;
    atomic_int body_done;        /* body reads that returned */
    atomic_int releases;
    atomic_int saw_request_data; /* body/resolve calls that saw the expected request data */
    void *expect_request_data;
    atomic_uint_fast64_t max_bytes_seen;
    atomic_uint_fast64_t remaining_seen; /* mcpr_call_remaining_ms of the last body read */
    atomic_int early_release;    /* release ran while a body read was still running */
} host_binding;

mcpr_policy_callbacks host_policy_table(host_policy *p);
/* When true, host_policy_table also sets decide_plan: the plan-level entry
 * answering from the same per-item callbacks (a suite run in both forms). */
extern bool host_plan_form;
/* Resolve plans `items` (or the matched URI alone when items[0] is NULL). */
mcpr_binding_callbacks host_binding_table(host_binding *b);

/* A builder with the host policy already set. Free with mcpr_builder_free. */
mcpr_builder *host_builder(host_policy *p);
/* Adds a definition bound to `b`; returns its status (prints errors). */
mcpr_status host_add(mcpr_builder *builder, const char *definition_json, host_binding *b);
/* Builds (which consumes the builder, built or not); NULL on failure (printed). */
mcpr_resources *host_build(mcpr_builder *builder);

/* Reads `uri`; returns the status; *json receives a malloc'd copy of the
 * result JSON (or NULL), *partial the flag; *err_out the error (may be NULL). */
mcpr_status host_read(const mcpr_resources *r, const char *uri, const mcpr_read_options *opt,
                      char **json, bool *partial, mcpr_error **err_out);

#endif
