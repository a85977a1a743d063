/* Deadlines and cancellation: item timeouts with a reader that ignores
 * cancellation (abandoned on an executor, the read continuing with its
 * siblings), cooperative readers, caller deadlines, caller cancellation from
 * another thread, and release callbacks that wait for abandoned readers. */
#include <pthread.h>
#include <stdlib.h>

#include "harness.h"

static const char *BUNDLE = "{\"uri\":\"bundle://all\",\"name\":\"all\"}";

static mcpr_resources *registry(host_policy *hp, host_binding *hb, int64_t item_timeout_ms) {
    mcpr_builder *b = host_builder(hp);
    CHECK_STATUS(mcpr_builder_set_limit(b, MCPR_LIMIT_ITEM_TIMEOUT_MS, item_timeout_ms, NULL), MCPR_OK);
    CHECK_STATUS(host_add(b, BUNDLE, hb), MCPR_OK);
    return host_build(b);
}

static bool wait_for(atomic_int *v, int want, unsigned max_ms) {
    unsigned long long end = now_ms() + max_ms;
    while (atomic_load(v) != want) {
        if (now_ms() > end) return false;
        sleep_ms(2);
    }
    return true;
}

static void test_abandoned_reader(void) {
    unsigned s = slow();
    host_policy hp = {.disclose = true};
    host_binding hb = {.items = {"item://hang/a", "item://ok/b"}, .hang_ms = 800 * s};
    mcpr_resources *r = registry(&hp, &hb, 60 * s);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    mcpr_read_options opt = {.struct_size = sizeof(mcpr_read_options), .executor = ex};
    char *json = NULL;
    bool partial = false;
    unsigned long long t0 = now_ms();
    CHECK_STATUS(host_read(r, "bundle://all", &opt, &json, &partial, NULL), MCPR_OK);
    unsigned long long took = now_ms() - t0;
    CHECK(took < 600 * s); /* did not wait for the hung reader */
    CHECK(partial && json);
    if (json) {
        CHECK(strstr(json, "{\"code\":\"timeout\",\"message\":\"The resource item read timed out.\",\"retryable\":false,\"resourceUri\":\"item://hang/a\"}") != NULL);
        CHECK(strstr(json, "\"text\":\"body of item://ok/b\"") != NULL);
        CHECK(strstr(json, "body of item://hang/a") == NULL);
    }
    free(json);
    CHECK(atomic_load(&hb.remaining_seen) <= 60u * s);
    /* free registry and executor while the abandoned reader still runs:
     * the binding's release waits until it has returned */
    mcpr_resources_free(r);
    mcpr_executor_free(ex);
    CHECK(atomic_load(&hb.body_done) == 1); /* only ok/b returned so far */
    CHECK(atomic_load(&hb.releases) == 0);
    CHECK(atomic_load(&hp.releases) == 1);  /* the policy has no abandoned call */
    CHECK(wait_for(&hb.releases, 1, 5000 * s));
    CHECK(atomic_load(&hb.body_done) == 2);
    CHECK(atomic_load(&hb.early_release) == 0);
}

static void test_inline_readers(void) {
    unsigned s = slow();
    /* a cooperative reader notices its item deadline: timeout issue */
    host_policy hp = {0};
    host_binding hb = {.items = {"item://coop/a", "item://ok/b"}};
    mcpr_resources *r = registry(&hp, &hb, 50 * s);
    char *json = NULL;
    bool partial = false;
    CHECK_STATUS(host_read(r, "bundle://all", NULL, &json, &partial, NULL), MCPR_OK);
    CHECK(partial && json && strstr(json, "\"code\":\"timeout\"") && strstr(json, "body of item://ok/b"));
    free(json);
    mcpr_resources_free(r);

    /* inline, a reader ignoring cancellation is late: still a timeout issue */
    host_policy hp2 = {0};
    host_binding hb2 = {.items = {"item://hang/a", "item://ok/b"}, .hang_ms = 120 * s};
    r = registry(&hp2, &hb2, 40 * s);
    CHECK_STATUS(host_read(r, "bundle://all", NULL, &json, &partial, NULL), MCPR_OK);
    CHECK(partial && json && strstr(json, "\"code\":\"timeout\"") && !strstr(json, "body of item://hang/a"));
    free(json);
    mcpr_resources_free(r);

    /* the caller's deadline ends the whole read */
    host_policy hp3 = {0};
    host_binding hb3 = {.items = {"item://coop/a", "item://ok/b"}};
    r = registry(&hp3, &hb3, 10000);
    mcpr_read_options opt = {.struct_size = sizeof(mcpr_read_options), .timeout_ms = 60 * s};
    mcpr_error *e = NULL;
    unsigned long long t0 = now_ms();
    CHECK_STATUS(host_read(r, "bundle://all", &opt, NULL, NULL, &e), MCPR_DEADLINE_EXCEEDED);
    CHECK(now_ms() - t0 < 2000 * s);
    CHECK(mcpr_error_jsonrpc_code(e) == -32603);
    mcpr_error_free(e);
    CHECK(atomic_load(&hb3.remaining_seen) <= 60u * s);
    mcpr_resources_free(r);
}

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

static void test_cancellation(void) {
    unsigned s = slow();
    /* already cancelled: nothing runs */
    {
        host_policy hp = {0};
        host_binding hb = {.items = {"item://ok/a"}};
        mcpr_resources *r = registry(&hp, &hb, 0);
        mcpr_cancel *token = mcpr_cancel_new();
        mcpr_cancel_cancel(token);
        mcpr_read_options opt = {.struct_size = sizeof(mcpr_read_options), .cancel = token};
        CHECK_STATUS(host_read(r, "bundle://all", &opt, NULL, NULL, NULL), MCPR_CANCELED);
        CHECK(atomic_load(&hb.body_reads) == 0);
        mcpr_cancel_free(token);
        mcpr_resources_free(r);
    }
    /* inline cooperative reader, cancelled from another thread */
    {
        host_policy hp = {0};
        host_binding hb = {.items = {"item://ok/a", "item://coop/b", "item://ok/c"}};
        mcpr_resources *r = registry(&hp, &hb, 10000);
        mcpr_cancel *token = mcpr_cancel_new();
        canceller c = {token, 80 * s};
        pthread_t th;
        pthread_create(&th, NULL, cancel_later, &c);
        mcpr_read_options opt = {.struct_size = sizeof(mcpr_read_options), .cancel = token};
        mcpr_error *e = NULL;
        unsigned long long t0 = now_ms();
        CHECK_STATUS(host_read(r, "bundle://all", &opt, NULL, NULL, &e), MCPR_CANCELED);
        CHECK(now_ms() - t0 < 3000 * s);
        CHECK(mcpr_error_status(e) == MCPR_CANCELED);
        mcpr_error_free(e);
        pthread_join(th, NULL);
        CHECK(mcpr_cancel_is_canceled(token));
        CHECK(atomic_load(&hb.body_reads) == 2); /* ok/c never read */
        mcpr_cancel_free(token);
        mcpr_resources_free(r);
    }
    /* on an executor, a reader ignoring cancellation: the read returns at
     * once; the token may be freed right after */
    {
        host_policy hp = {0};
        host_binding hb = {.items = {"item://hang/a"}, .hang_ms = 600 * s};
        mcpr_resources *r = registry(&hp, &hb, 10000);
        mcpr_executor *ex = NULL;
        CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
        mcpr_cancel *token = mcpr_cancel_new();
        canceller c = {token, 60 * s};
        pthread_t th;
        pthread_create(&th, NULL, cancel_later, &c);
        mcpr_read_options opt = {.struct_size = sizeof(mcpr_read_options), .cancel = token, .executor = ex};
        unsigned long long t0 = now_ms();
        CHECK_STATUS(host_read(r, "bundle://all", &opt, NULL, NULL, NULL), MCPR_CANCELED);
        CHECK(now_ms() - t0 < 450 * s);
        pthread_join(th, NULL);
        mcpr_cancel_free(token);
        mcpr_executor_free(ex);
        mcpr_resources_free(r);
        CHECK(wait_for(&hb.releases, 1, 5000 * s));
        CHECK(atomic_load(&hb.early_release) == 0);
    }
}

int main(void) {
    test_abandoned_reader();
    test_inline_readers();
    test_cancellation();
    return harness_finish("test_deadlines");
}
