/* Concurrency: many threads reading (inline and on a shared executor) and
 * listing through one registry, each thread holding its own reference
 * (mcpr_resources_retain); the creator releases its reference while the
 * reads are in flight; release callbacks run exactly once, after the last
 * reference and the last call are gone. */
#include <pthread.h>
#include <stdlib.h>

#include "harness.h"

#define THREADS 6

typedef struct {
    mcpr_resources *r; /* this thread's own reference */
    mcpr_executor *ex;
    int reads;
    int index;
    atomic_int *go;
    int ok;
} worker;

static void *run(void *arg) {
    worker *w = arg;
    while (!atomic_load(w->go)) sleep_ms(1);
    for (int i = 0; i < w->reads; i++) {
        char uri[64];
        snprintf(uri, sizeof uri, "item://ok/t%d-%d", w->index, i);
        mcpr_read_options opt = {
            .struct_size = sizeof(mcpr_read_options),
            .request_data = w,
            .executor = (i % 2) ? w->ex : NULL,
        };
        mcpr_bundle *b = NULL;
        if (mcpr_read(w->r, str_of(uri), &opt, &b, NULL) == MCPR_OK) {
            char want[128];
            snprintf(want, sizeof want, "\"text\":\"body of %s\"", uri);
            if (str_contains(mcpr_bundle_json(b), want) && !mcpr_bundle_is_partial(b)) w->ok++;
            mcpr_bundle_free(b);
        }
        mcpr_read_options bopt = {
            .struct_size = sizeof(mcpr_read_options),
            .request_data = w,
            .executor = w->ex,
        };
        if (mcpr_read(w->r, S("bundle://all"), &bopt, &b, NULL) == MCPR_OK) {
            if (mcpr_bundle_is_partial(b) && str_contains(mcpr_bundle_json(b), "\"code\":\"read_failed\""))
                w->ok++;
            mcpr_bundle_free(b);
        }
        mcpr_list_options lo = {
            .struct_size = sizeof(mcpr_list_options),
            .scope_key = S("scope"),
            .page_size = 1,
        };
        mcpr_page *p = NULL;
        if (mcpr_list(w->r, &lo, &p, NULL) == MCPR_OK) {
            if (mcpr_page_next_cursor(p).len == 0 && str_contains(mcpr_page_json(p), "bundle://all")) w->ok++;
            mcpr_page_free(p);
        }
    }
    mcpr_resources_free(w->r);
    return NULL;
}

int main(void) {
    unsigned s = slow();
    int reads = s > 1 ? 8 : 40;
    host_policy hp = {0};
    host_binding items = {0};
    host_binding bundle = {.items = {"item://ok/x", "item://fail/y", "item://blob/z"}};
    mcpr_builder *b = host_builder(&hp);
    CHECK_STATUS(host_add(b, "{\"uriTemplate\":\"item://ok/{name}\",\"name\":\"items\"}", &items), MCPR_OK);
    CHECK_STATUS(host_add(b, "{\"uri\":\"bundle://all\",\"name\":\"all\"}", &bundle), MCPR_OK);
    mcpr_resources *r = host_build(b);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(3, &ex, NULL), MCPR_OK);

    atomic_int go = 0;
    worker w[THREADS];
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){mcpr_resources_retain(r), ex, reads, i, &go, 0};
        CHECK(w[i].r == r);
        pthread_create(&th[i], NULL, run, &w[i]);
    }
    atomic_store(&go, 1);
    /* the creator lets go while the workers read */
    mcpr_resources_free(r);
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        CHECK(w[i].ok == 3 * reads);
    }
    mcpr_executor_free(ex);
    CHECK(atomic_load(&items.body_reads) == THREADS * reads);
    CHECK(atomic_load(&bundle.body_reads) == THREADS * reads * 3);
    CHECK(atomic_load(&items.releases) == 1);
    CHECK(atomic_load(&bundle.releases) == 1);
    CHECK(atomic_load(&hp.releases) == 1);
    CHECK(atomic_load(&items.early_release) == 0 && atomic_load(&bundle.early_release) == 0);
    return harness_finish("test_threads");
}
