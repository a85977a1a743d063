/* Listing: resources and templates separately in URI/template then name
 * order, pagination with cursors, discovery per page, tampered, foreign,
 * cross-method, cross-scope, oversized and expired cursors, shared cursor
 * keys across replicas. */
#include <stdlib.h>

#include "harness.h"

static const char *DEFS[] = {
    "{\"uri\":\"doc://e\",\"name\":\"e\",\"title\":\"E\",\"mimeType\":\"text/plain\"}",
    "{\"uri\":\"doc://a\",\"name\":\"a\"}",
    "{\"uri\":\"doc://c\",\"name\":\"c\",\"description\":\"d\"}",
    "{\"uri\":\"doc://b\",\"name\":\"b\"}",
    "{\"uri\":\"doc://hidden\",\"name\":\"h\"}",
    "{\"uri\":\"doc://d\",\"name\":\"d\",\"_meta\":{\"x\":1}}",
    "{\"uriTemplate\":\"tpl:{b}\",\"name\":\"tb\"}",
    "{\"uriTemplate\":\"tpl://a/{x}\",\"name\":\"ta\"}",
    "{\"uriTemplate\":\"tpl://c/{y}/z\",\"name\":\"tc\"}",
};

typedef struct {
    atomic_ullong now;
} fake_clock;

static uint64_t clock_now(void *ud) { return atomic_load(&((fake_clock *)ud)->now); }

static const uint8_t KEY[32] = {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
                                7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7};

static mcpr_resources *registry(host_policy *hp, host_binding *hb, fake_clock *clock, bool key) {
    mcpr_builder *b = host_builder(hp);
    for (size_t i = 0; i < sizeof DEFS / sizeof DEFS[0]; i++) CHECK_STATUS(host_add(b, DEFS[i], hb), MCPR_OK);
    if (clock) CHECK_STATUS(mcpr_builder_set_clock(b, clock_now, clock, NULL), MCPR_OK);
    if (key) CHECK_STATUS(mcpr_builder_set_cursor_key(b, KEY, sizeof KEY, NULL), MCPR_OK);
    return host_build(b);
}

static mcpr_status list(const mcpr_resources *r, bool templates, const char *scope, mcpr_str cursor,
                        uint32_t page_size, char **json, char **next) {
    mcpr_list_options o = {
        .struct_size = sizeof(mcpr_list_options),
        .scope_key = str_of(scope),
        .cursor = cursor,
        .page_size = page_size,
    };
    mcpr_page *p = NULL;
    mcpr_status s = templates ? mcpr_list_templates(r, &o, &p, NULL) : mcpr_list(r, &o, &p, NULL);
    *json = NULL;
    *next = NULL;
    if (s == MCPR_OK) {
        mcpr_str j = mcpr_page_json(p), n = mcpr_page_next_cursor(p);
        *json = strndup(j.ptr, j.len);
        *next = n.len ? strndup(n.ptr, n.len) : NULL;
        mcpr_page_free(p);
    }
    return s;
}

static void test_pages(void) {
    host_policy hp = {.deny_discover = {"doc://hidden"}};
    host_binding hb = {0};
    fake_clock clock = {1700000000000ULL};
    mcpr_resources *r = registry(&hp, &hb, &clock, false);
    char *json, *next;

    /* one page with everything, in URI order, hidden skipped */
    CHECK_STATUS(list(r, false, "alice", str_of(NULL), 0, &json, &next), MCPR_OK);
    CHECK(next == NULL);
    CHECK(json && strcmp(json, "{\"resources\":["
                               "{\"uri\":\"doc://a\",\"name\":\"a\"},"
                               "{\"uri\":\"doc://b\",\"name\":\"b\"},"
                               "{\"uri\":\"doc://c\",\"name\":\"c\",\"description\":\"d\"},"
                               "{\"uri\":\"doc://d\",\"name\":\"d\",\"_meta\":{\"x\":1}},"
                               "{\"uri\":\"doc://e\",\"name\":\"e\",\"title\":\"E\",\"mimeType\":\"text/plain\"}],"
                               "\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\"}") == 0);
    free(json);

    /* pages of two, chained by cursors */
    const char *want[] = {"doc://a", "doc://b", "doc://c", "doc://d", "doc://e"};
    size_t seen = 0;
    char *cursor = NULL;
    int pages = 0;
    do {
        CHECK_STATUS(list(r, false, "alice", str_of(cursor), 2, &json, &next), MCPR_OK);
        pages++;
        if (!json) break;
        for (size_t i = 0; i < 5; i++) {
            char needle[64];
            snprintf(needle, sizeof needle, "\"uri\":\"%s\"", want[i]);
            if (strstr(json, needle)) {
                CHECK(i == seen); /* in order, no repeats */
                seen++;
            }
        }
        CHECK((next != NULL) == (strstr(json, "\"nextCursor\":\"") != NULL));
        if (next) {
            char needle[512];
            snprintf(needle, sizeof needle, "\"nextCursor\":\"%s\"", next);
            CHECK(strstr(json, needle) != NULL);
        }
        free(json);
        free(cursor);
        cursor = next;
    } while (cursor && pages < 10);
    CHECK(seen == 5 && pages == 3);

    /* templates are listed separately, in template order */
    CHECK_STATUS(list(r, true, "alice", str_of(NULL), 0, &json, &next), MCPR_OK);
    CHECK(json && strcmp(json, "{\"resourceTemplates\":["
                               "{\"uriTemplate\":\"tpl://a/{x}\",\"name\":\"ta\"},"
                               "{\"uriTemplate\":\"tpl://c/{y}/z\",\"name\":\"tc\"},"
                               "{\"uriTemplate\":\"tpl:{b}\",\"name\":\"tb\"}],"
                               "\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\"}") == 0);
    free(json);

    /* a fresh first-page cursor for the following checks */
    char *c1;
    CHECK_STATUS(list(r, false, "alice", str_of(NULL), 2, &json, &c1), MCPR_OK);
    free(json);
    CHECK(c1 != NULL);
    if (!c1) return;
    CHECK_STATUS(list(r, false, "alice", str_of(c1), 2, &json, &next), MCPR_OK);
    CHECK(json && strstr(json, "doc://c"));
    free(json);
    free(next);

    /* tampered: flip one character */
    char *bad = strdup(c1);
    size_t mid = strlen(bad) / 2;
    bad[mid] = bad[mid] == 'A' ? 'B' : 'A';
    CHECK_STATUS(list(r, false, "alice", str_of(bad), 2, &json, &next), MCPR_INVALID_REQUEST);
    free(bad);
    /* truncated, garbage, oversized */
    char *trunc = strndup(c1, strlen(c1) - 3);
    CHECK_STATUS(list(r, false, "alice", str_of(trunc), 2, &json, &next), MCPR_INVALID_REQUEST);
    free(trunc);
    CHECK_STATUS(list(r, false, "alice", S("not a cursor"), 2, &json, &next), MCPR_INVALID_REQUEST);
    char *huge = malloc(5000);
    memset(huge, 'A', 5000);
    mcpr_str huge_s = {huge, 5000};
    CHECK_STATUS(list(r, false, "alice", huge_s, 2, &json, &next), MCPR_INVALID_REQUEST);
    free(huge);
    /* cross-scope and cross-method */
    CHECK_STATUS(list(r, false, "bob", str_of(c1), 2, &json, &next), MCPR_INVALID_REQUEST);
    CHECK_STATUS(list(r, true, "alice", str_of(c1), 2, &json, &next), MCPR_INVALID_REQUEST);
    /* an empty scope key is a host mistake (never the client's): the
     * programming-error status, from both list functions, whatever the
     * cursor */
    CHECK_STATUS(list(r, false, "", str_of(NULL), 2, &json, &next), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(list(r, true, "", str_of(NULL), 2, &json, &next), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(list(r, false, "", str_of(c1), 2, &json, &next), MCPR_INVALID_ARGUMENT);

    /* cross-registry: another registry (random key) refuses it */
    host_policy hp2 = {0};
    host_binding hb2 = {0};
    mcpr_resources *other = registry(&hp2, &hb2, NULL, false);
    CHECK_STATUS(list(other, false, "alice", str_of(c1), 2, &json, &next), MCPR_INVALID_REQUEST);
    mcpr_resources_free(other);

    /* expiry after ten minutes (the registry's clock) */
    atomic_fetch_add(&clock.now, 9ULL * 60 * 1000);
    CHECK_STATUS(list(r, false, "alice", str_of(c1), 2, &json, &next), MCPR_OK);
    free(json);
    free(next);
    atomic_fetch_add(&clock.now, 2ULL * 60 * 1000);
    mcpr_error *e = NULL;
    mcpr_list_options o = {
        .struct_size = sizeof(mcpr_list_options),
        .scope_key = S("alice"),
        .cursor = str_of(c1),
        .page_size = 2,
    };
    mcpr_page *p = NULL;
    CHECK_STATUS(mcpr_list(r, &o, &p, &e), MCPR_INVALID_REQUEST);
    CHECK(p == NULL && mcpr_error_jsonrpc_code(e) == -32602);
    mcpr_error_free(e);
    free(c1);

    /* discovery is rechecked on every page, with the caller's request data */
    int before = atomic_load(&hp.discover_calls);
    int marker = 0;
    hp.expect_request_data = &marker;
    mcpr_list_options rd = {
        .struct_size = sizeof(mcpr_list_options),
        .scope_key = S("alice"),
        .request_data = &marker,
    };
    p = NULL;
    CHECK_STATUS(mcpr_list(r, &rd, &p, NULL), MCPR_OK);
    mcpr_page_free(p);
    CHECK(atomic_load(&hp.discover_calls) - before == 6);
    CHECK(atomic_load(&hp.saw_request_data) == 6);
    mcpr_resources_free(r);
}

static void test_replicas(void) {
    /* two replicas with the same definitions and cursor key accept each
     * other's cursors */
    host_policy hp1 = {0}, hp2 = {0};
    host_binding hb1 = {0}, hb2 = {0};
    mcpr_resources *a = registry(&hp1, &hb1, NULL, true);
    mcpr_resources *b = registry(&hp2, &hb2, NULL, true);
    char *json, *next;
    CHECK_STATUS(list(a, false, "alice", str_of(NULL), 3, &json, &next), MCPR_OK);
    free(json);
    CHECK(next != NULL);
    char *json2, *next2;
    CHECK_STATUS(list(b, false, "alice", str_of(next), 3, &json2, &next2), MCPR_OK);
    CHECK(json2 && strstr(json2, "doc://e") && !strstr(json2, "doc://a"));
    free(json2);
    free(next2);
    free(next);
    mcpr_resources_free(a);
    mcpr_resources_free(b);
    CHECK(atomic_load(&hb1.releases) == 9 && atomic_load(&hp1.releases) == 1);
}

static void test_policy_failure(void) {
    host_policy hp = {.fail_discover = true};
    host_binding hb = {0};
    mcpr_resources *r = registry(&hp, &hb, NULL, false);
    char *json, *next;
    CHECK_STATUS(list(r, false, "alice", str_of(NULL), 0, &json, &next), MCPR_POLICY);
    mcpr_resources_free(r);
}

int main(void) {
    test_pages();
    test_replicas();
    test_policy_failure();
    return harness_finish("test_list");
}
