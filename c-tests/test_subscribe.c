/* Subscriptions and change notifications through the C ABI (BEHAVIOUR
 * §15): resources/subscribe, resources/unsubscribe and subscriptions/listen
 * through mcpr_request with their decisions (mcpr_subscription_*), updates
 * rechecked at send time (mcpr_notify_updated), list changes after a
 * reload (mcpr_list_change_*) and after a permission change
 * (mcpr_listing_fingerprint, mcpr_notify_listing_changed), the listen
 * closing result, the capability object and the declaration, and the
 * three methods through mcpr_message (test_subscribe_async.c: a policy
 * that asks for input, and the asynchronous calls). Bad input and misuse as
 * much as good input. */
#include "subscribe_host.h"

/* ---------------------------------------------------------------- tests */

static void test_declaration_and_capability(void) {
    tenants_policy p = {0};
    mcpr_builder *b = mcpr_builder_new();
    CHECK_STATUS(mcpr_builder_set_notifications(b, 16, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_set_notifications(b, MCPR_NOTIFY_TOOLS_LIST_CHANGED, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_builder_set_notifications(MISUSE_NULL, 1, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_builder_free(b);
    const char *want[] = {"{}", "{\"subscribe\":true}", "{\"listChanged\":true}",
                          "{\"subscribe\":true,\"listChanged\":true}"};
    for (uint32_t bits = 0; bits < 4; bits++) {
        mcpr_resources *r = registry_of(&p, DEFS, 1, bits);
        mcpr_str cap = {0};
        CHECK_STATUS(mcpr_resources_capability(r, S("2025-11-25"), &cap, NULL), MCPR_OK);
        CHECK(str_eq(cap, want[bits]));
        CHECK_STATUS(mcpr_resources_capability(r, S(""), &cap, NULL), MCPR_OK);
        CHECK(str_eq(cap, want[bits]));
        CHECK_STATUS(mcpr_resources_capability(r, S("2024-11-05"), &cap, NULL), MCPR_OK);
        CHECK(str_eq(cap, want[bits])); /* the oldest served revision has both */
        CHECK_STATUS(mcpr_resources_capability(r, S("2024-10-07"), &cap, NULL), MCPR_INVALID_ARGUMENT);
        CHECK_STATUS(mcpr_resources_capability(r, S("2026-07-28"), MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
        CHECK_STATUS(mcpr_resources_capability(MISUSE_NULL, S(""), &cap, NULL), MCPR_INVALID_ARGUMENT);
        mcpr_resources_free(r);
    }
    CHECK(atomic_load(&p.releases) == 4);
}

static void test_subscribe_hides_everything_alike(void) {
    tenants_policy p = {0};
    mcpr_resources *r = registry(&p);
    tenant t = {.name = "t1",
                .undiscoverable = {"doc://a"},
                .hidden = {"doc://b", "file://docs/priv"},
                .revoked = {"doc://c"}};
    const char *uris[] = {"doc://a", "doc://b", "doc://c", "file://docs/priv", "doc://none"};
    for (size_t i = 0; i < 5; i++) {
        char params[128], want[160];
        snprintf(params, sizeof params, "{\"uri\":\"%s\"}", uris[i]);
        /* every answer is these bytes, the URI sent being the only difference */
        snprintf(want, sizeof want, "{\"code\":-32002,\"message\":\"Resource not found\",\"data\":{\"uri\":\"%s\"}}",
                 uris[i]);
        mcpr_request_options o = req(&t, "2025-11-25");
        mcpr_response *sub = ask(r, "resources/subscribe", params, &o);
        mcpr_response *read = ask(r, "resources/read", params, &o);
        CHECK(mcpr_response_is_error(sub) && !mcpr_response_is_notification(sub));
        CHECK(mcpr_response_subscription(sub) == NULL);
        mcpr_str a = mcpr_response_json(sub), b = mcpr_response_json(read);
        CHECK(a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0);
        CHECK(str_eq(a, want));
        CHECK(!str_contains(mcpr_response_cause(sub), "SECRET"));
        CHECK_STATUS(mcpr_response_status(sub), MCPR_UNAVAILABLE);
        mcpr_response_free(sub);
        mcpr_response_free(read);
    }
    /* honored: an exact URI and a template match */
    const char *ok[] = {"{\"uri\":\"doc://a\"}", "{\"uri\":\"file://docs/x\"}"};
    tenant other = {.name = "t2"};
    for (int i = 0; i < 2; i++) {
        mcpr_request_options o = req(&other, "2025-11-25");
        mcpr_response *sub = ask(r, "resources/subscribe", ok[i], &o);
        CHECK(!mcpr_response_is_error(sub) && str_eq(mcpr_response_json(sub), "{}"));
        const mcpr_subscription *d = mcpr_response_subscription(sub);
        CHECK(d != NULL);
        CHECK(mcpr_subscription_request(d) == MCPR_SUBSCRIPTION_SUBSCRIBE);
        CHECK(mcpr_subscription_uri_count(d) == 1);
        CHECK(str_eq(mcpr_subscription_uri(d, 0), i == 0 ? "doc://a" : "file://docs/x"));
        CHECK(mcpr_subscription_uri(d, 1).len == 0);
        CHECK(mcpr_subscription_honored(d) == MCPR_NOTIFY_RESOURCE_UPDATES);
        CHECK(mcpr_subscription_id(d).len == 0);
        CHECK(str_eq(mcpr_subscription_protocol_revision(d), "2025-11-25"));
        mcpr_response_free(sub);
    }
    /* unsubscribe always succeeds, asking nobody */
    int calls = atomic_load(&p.calls);
    mcpr_request_options o = req(&t, "2025-11-25");
    mcpr_response *un = ask(r, "resources/unsubscribe", "{\"uri\":\"doc://b\"}", &o);
    CHECK(str_eq(mcpr_response_json(un), "{}"));
    CHECK(mcpr_subscription_request(mcpr_response_subscription(un)) == MCPR_SUBSCRIPTION_UNSUBSCRIBE);
    mcpr_response_free(un);
    CHECK(atomic_load(&p.calls) == calls);
    CHECK(atomic_load(&body_reads) == 0);
    /* not on 2026-07-28: no method of the library's */
    o = req(&t, "2026-07-28");
    mcpr_response *none = NULL;
    CHECK_STATUS(mcpr_request(r, S("resources/subscribe"), S("{\"uri\":\"doc://a\"}"), &o, &none, NULL),
                 MCPR_METHOD_NOT_HANDLED);
    CHECK(none == NULL);
    mcpr_resources_free(r);
}

static void test_listen(void) {
    tenants_policy p = {0};
    mcpr_resources *r = registry(&p);
    tenant t = {.name = "t1", .hidden = {"doc://b"}};
    mcpr_request_options o = req(&t, "2026-07-28");
    o.request_id = S("\"listen-1\"");
    o.host_notifications = MCPR_NOTIFY_TOOLS_LIST_CHANGED;
    const char *params = "{\"notifications\":{\"toolsListChanged\":true,\"promptsListChanged\":true,"
                         "\"resourcesListChanged\":true,\"resourceSubscriptions\":"
                         "[\"doc://b\",\"file://docs/z\",\"doc://none\",\"doc://a\"]}}";
    mcpr_response *resp = ask(r, "subscriptions/listen", params, &o);
    CHECK(!mcpr_response_is_error(resp) && mcpr_response_is_notification(resp));
    CHECK(str_eq(mcpr_response_json(resp),
                 "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":"
                 "{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"listen-1\"},\"notifications\":"
                 "{\"toolsListChanged\":true,\"resourcesListChanged\":true,\"resourceSubscriptions\":"
                 "[\"file://docs/z\",\"doc://a\"]}}}"));
    const mcpr_subscription *d = mcpr_response_subscription(resp);
    CHECK(mcpr_subscription_request(d) == MCPR_SUBSCRIPTION_LISTEN);
    CHECK(str_eq(mcpr_subscription_id(d), "\"listen-1\""));
    CHECK(mcpr_subscription_uri_count(d) == 2);
    CHECK(str_eq(mcpr_subscription_uri(d, 1), "doc://a"));
    CHECK(mcpr_subscription_honored(d) == (MCPR_NOTIFY_RESOURCE_UPDATES | MCPR_NOTIFY_RESOURCES_LIST_CHANGED |
                                           MCPR_NOTIFY_TOOLS_LIST_CHANGED));
    CHECK(mcpr_subscription_requested(d) == 15);
    CHECK(str_eq(mcpr_subscription_protocol_revision(d), "2026-07-28"));
    mcpr_response_free(resp);

    /* host mistakes */
    mcpr_response *none = NULL;
    mcpr_request_options bad = o;
    bad.request_id = (mcpr_str){0};
    CHECK_STATUS(mcpr_request(r, S("subscriptions/listen"), str_of(params), &bad, &none, NULL),
                 MCPR_INVALID_ARGUMENT);
    bad.request_id = S("{}");
    CHECK_STATUS(mcpr_request(r, S("subscriptions/listen"), str_of(params), &bad, &none, NULL),
                 MCPR_INVALID_ARGUMENT);
    bad = o;
    bad.host_notifications = MCPR_NOTIFY_RESOURCE_UPDATES;
    CHECK_STATUS(mcpr_request(r, S("subscriptions/listen"), str_of(params), &bad, &none, NULL),
                 MCPR_INVALID_ARGUMENT);
    bad.host_notifications = 32;
    CHECK_STATUS(mcpr_request(r, S("subscriptions/listen"), str_of(params), &bad, &none, NULL),
                 MCPR_INVALID_ARGUMENT);
    CHECK(none == NULL);
    /* before 2026-07-28 listen is no method */
    bad = req(&t, "2025-11-25");
    CHECK_STATUS(mcpr_request(r, S("subscriptions/listen"), S("{\"notifications\":{}}"), &bad, &none, NULL),
                 MCPR_METHOD_NOT_HANDLED);

    /* bad input: a clear error and nothing else */
    static char many[200000];
    size_t at = 0;
    at += (size_t)snprintf(many, sizeof many, "{\"notifications\":{\"resourceSubscriptions\":[");
    for (int i = 0; i < 10000 && at < sizeof many; i++)
        at += (size_t)snprintf(&many[at], sizeof many - at, "%s\"doc://n%d\"", i ? "," : "", i);
    if (at < sizeof many) snprintf(&many[at], sizeof many - at, "]}}");
    const char *cases[][2] = {
        {"{\"notifications\":{\"resourceSubscriptions\":[\"doc://a\",\"doc://a\"]}}",
         "notifications resourceSubscriptions repeats a URI"},
        {many, "notifications resourceSubscriptions lists more than 1000 URIs"},
        {"{\"notifications\":{\"resourceSubscriptions\":[\"doc://\xff\"]}}", "params are not valid JSON"},
        {"{\"notifications\":{\"resourceSubscriptions\":\"doc://a\"}}",
         "notifications resourceSubscriptions must be an array of strings"},
        {"{\"notifications\":{\"toolsListChanged\":1}}", "notifications filter flags must be booleans"},
        {"{\"notifications\":[]}", "params notifications must be an object"},
        {"{}", "listen params need notifications"},
    };
    int calls = atomic_load(&p.calls);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        resp = ask(r, "subscriptions/listen", cases[i][0], &o);
        CHECK(mcpr_response_is_error(resp) && !mcpr_response_is_notification(resp));
        CHECK(mcpr_response_subscription(resp) == NULL);
        CHECK_STATUS(mcpr_response_status(resp), MCPR_INVALID_REQUEST);
        CHECK(str_contains(mcpr_response_json(resp), "-32602"));
        CHECK(str_contains(mcpr_response_json(resp), cases[i][1]));
        mcpr_response_free(resp);
    }
    CHECK(atomic_load(&p.calls) == calls);
    /* an invalid URI is the read's request error */
    resp = ask(r, "subscriptions/listen", "{\"notifications\":{\"resourceSubscriptions\":[\"doc://a\",\"no uri\"]}}", &o);
    mcpr_response *read = ask(r, "resources/read", "{\"uri\":\"no uri\"}", &o);
    CHECK(mcpr_response_is_error(resp));
    mcpr_str a = mcpr_response_json(resp), b = mcpr_response_json(read);
    CHECK(a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0);
    mcpr_response_free(resp);
    mcpr_response_free(read);
    CHECK(atomic_load(&p.calls) == calls);
    /* the closing result */
    mcpr_response *closed = NULL;
    CHECK_STATUS(mcpr_notify_listen_closed(S("\"listen-1\""), &closed, NULL), MCPR_OK);
    CHECK(str_eq(mcpr_response_json(closed),
                 "{\"resultType\":\"complete\",\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"listen-1\"}}"));
    CHECK(!mcpr_response_is_error(closed) && !mcpr_response_is_notification(closed));
    mcpr_response_free(closed);
    CHECK_STATUS(mcpr_notify_listen_closed(S("null"), &closed, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_notify_listen_closed(S("1"), MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_resources_free(r);
}


static void test_updates(void) {
    tenants_policy p = {0};
    mcpr_resources *r = registry(&p);
    tenant visible = {.name = "v"}, hidden = {.name = "h", .hidden = {"doc://a"}},
           revoked = {.name = "r", .revoked = {"doc://a"}}, gone = {.name = "g", .undiscoverable = {"doc://a"}},
           failing = {.name = "f", .failing = {"doc://a"}};
    mcpr_subscriber subs[] = {
        subscriber(&visible, "2025-11-25", NULL), subscriber(&visible, "2026-07-28", "7"),
        subscriber(&hidden, "2026-07-28", "1"),   subscriber(&revoked, "2025-11-25", NULL),
        subscriber(&gone, "2025-06-18", NULL),    subscriber(&failing, "2026-07-28", "\"s\""),
    };
    mcpr_notifications *n = notify(r, "doc://a", subs, 6);
    CHECK(mcpr_notifications_count(n) == 6);
    CHECK(str_eq(mcpr_notifications_message(n, 0),
                 "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"doc://a\"}}"));
    CHECK(str_eq(mcpr_notifications_message(n, 1),
                 "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"_meta\":"
                 "{\"io.modelcontextprotocol/subscriptionId\":7},\"uri\":\"doc://a\"}}"));
    for (size_t i = 2; i < 6; i++) CHECK(mcpr_notifications_message(n, i).len == 0);
    for (size_t i = 0; i < 5; i++) CHECK_STATUS(mcpr_notifications_status(n, i), MCPR_OK);
    CHECK_STATUS(mcpr_notifications_status(n, 5), MCPR_POLICY);
    CHECK(str_contains(mcpr_notifications_cause(n, 5), "SECRET-CAUSE"));
    CHECK(mcpr_notifications_cause(n, 0).len == 0);
    CHECK_STATUS(mcpr_notifications_status(n, 6), MCPR_INVALID_ARGUMENT);
    CHECK(mcpr_notifications_message(n, 99).len == 0);
    uint8_t fp[32];
    CHECK(!mcpr_notifications_listing(n, 0, fp));
    mcpr_notifications_free(n);
    CHECK(atomic_load(&p.subscription_phase) == 6);
    /* an unregistered URI: nobody is told, nobody asked */
    int calls = atomic_load(&p.calls);
    n = notify(r, "doc://none", subs, 6);
    for (size_t i = 0; i < 6; i++) CHECK(mcpr_notifications_message(n, i).len == 0);
    mcpr_notifications_free(n);
    CHECK(atomic_load(&p.calls) == calls);
    /* the subscribed URI must be honored too */
    mcpr_subscriber other[] = {subscriber(&hidden, "2025-11-25", NULL), subscriber(&visible, "2025-11-25", NULL)};
    other[0].uri = S("doc://a");
    other[1].uri = S("doc://a");
    n = notify(r, "file://docs/x", other, 2);
    CHECK(mcpr_notifications_message(n, 0).len == 0);
    CHECK(str_contains(mcpr_notifications_message(n, 1), "file://docs/x"));
    mcpr_notifications_free(n);
    CHECK(atomic_load(&body_reads) == 0);

    /* misuse and bad arguments */
    mcpr_notifications *none = NULL;
    mcpr_subscriber no_id = subscriber(&visible, "2026-07-28", NULL);
    CHECK_STATUS(mcpr_notify_updated(r, S("doc://a"), &no_id, 1, NULL, &none, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_subscriber bad_id = subscriber(&visible, "2026-07-28", "{}");
    CHECK_STATUS(mcpr_notify_updated(r, S("doc://a"), &bad_id, 1, NULL, &none, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_subscriber bad_rev = subscriber(&visible, "2024-10-07", NULL);
    CHECK_STATUS(mcpr_notify_updated(r, S("doc://a"), &bad_rev, 1, NULL, &none, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_notify_updated(r, S("doc://a"), NULL, 1, NULL, &none, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_notify_updated(r, S("doc://a"), subs, 1, NULL, MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_notify_updated(MISUSE_NULL, S("doc://a"), subs, 1, NULL, &none, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_notify_updated(r, (mcpr_str){NULL, 3}, subs, 1, NULL, &none, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_subscriber mixed[2] = {subs[0], subs[0]};
    mixed[1].struct_size = sizeof(size_t) * 2;
    CHECK_STATUS(mcpr_notify_updated(r, S("doc://a"), mixed, 2, NULL, &none, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_subscriber zero = subs[0];
    zero.struct_size = 0;
    CHECK_STATUS(mcpr_notify_updated(r, S("doc://a"), &zero, 1, NULL, &none, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_notify_options bad_opt = MCPR_NOTIFY_OPTIONS_INIT;
    bad_opt.struct_size = 1;
    CHECK_STATUS(mcpr_notify_updated(r, S("doc://a"), subs, 1, &bad_opt, &none, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_notify_updated(r, S("not a uri"), subs, 1, NULL, &none, &e), MCPR_INVALID_REQUEST);
    mcpr_error_free(e);
    CHECK(none == NULL);
    /* an empty list is an empty answer, with or without an array */
    CHECK_STATUS(mcpr_notify_updated(r, S("doc://a"), NULL, 0, NULL, &none, NULL), MCPR_OK);
    CHECK(mcpr_notifications_count(none) == 0);
    mcpr_notifications_free(none);
    /* a cancelled call sends nothing */
    mcpr_cancel *c = mcpr_cancel_new();
    mcpr_cancel_cancel(c);
    mcpr_notify_options co = MCPR_NOTIFY_OPTIONS_INIT;
    co.cancel = c;
    none = NULL;
    CHECK_STATUS(mcpr_notify_updated(r, S("doc://a"), subs, 1, &co, &none, NULL), MCPR_CANCELED);
    CHECK(none == NULL);
    mcpr_cancel_free(c);
    /* an executor decides as inline does */
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    mcpr_notify_options eo = MCPR_NOTIFY_OPTIONS_INIT;
    eo.executor = ex;
    CHECK_STATUS(mcpr_notify_updated(r, S("doc://a"), subs, 6, &eo, &none, NULL), MCPR_OK);
    CHECK(str_contains(mcpr_notifications_message(none, 1), "subscriptionId\":7"));
    CHECK(mcpr_notifications_message(none, 2).len == 0);
    mcpr_notifications_free(none);
    mcpr_executor_free(ex);
    /* every free accepts NULL */
    mcpr_notifications_free(NULL);
    mcpr_list_change_free(NULL);
    CHECK(mcpr_notifications_count(NULL) == 0);
    CHECK(mcpr_subscription_uri_count(NULL) == 0 && mcpr_subscription_request(NULL) == 0);
    CHECK(mcpr_response_subscription(NULL) == NULL && !mcpr_response_is_notification(NULL));
    mcpr_resources_free(r);
}

/* A subscriber struct from a program built before `listing` existed: its
 * struct_size stops at `uri`; and one from a newer program with a set
 * field this library does not know. */
static void test_subscriber_growth(void) {
    tenants_policy p = {0};
    mcpr_resources *r = registry(&p);
    tenant t = {.name = "t"};
    typedef struct {
        mcpr_subscriber s;
        uint64_t newer;
    } newer_subscriber;
    newer_subscriber arr[2];
    memset(arr, 0, sizeof arr);
    for (int i = 0; i < 2; i++) {
        arr[i].s = subscriber(&t, "2025-11-25", NULL);
        arr[i].s.struct_size = sizeof(newer_subscriber);
        arr[i].s.listing = (const uint8_t *)"ignored by an older call ........";
    }
    mcpr_notifications *n = NULL;
    CHECK_STATUS(mcpr_notify_updated(r, S("doc://a"), &arr[0].s, 2, NULL, &n, NULL), MCPR_OK);
    CHECK(mcpr_notifications_count(n) == 2 && mcpr_notifications_message(n, 1).len > 0);
    mcpr_notifications_free(n);
    arr[1].newer = 1;
    n = NULL;
    CHECK_STATUS(mcpr_notify_updated(r, S("doc://a"), &arr[0].s, 2, NULL, &n, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(n == NULL);
    mcpr_resources_free(r);
}

static const char *OLD_DEFS[] = {
    "{\"uri\":\"a://doc/1\",\"name\":\"1\"}",
    "{\"uri\":\"a://doc/2\",\"name\":\"2\"}",
    "{\"uri\":\"b://doc/1\",\"name\":\"b1\"}",
    "{\"uriTemplate\":\"a://tpl/{x}\",\"name\":\"t\"}",
};
static const char *NEW_DEFS[] = {
    "{\"uri\":\"a://doc/1\",\"name\":\"1\",\"description\":\"changed\"}",
    "{\"uri\":\"b://doc/1\",\"name\":\"b1\"}",
    "{\"uriTemplate\":\"a://tpl/{x}\",\"name\":\"t\"}",
};

static void test_list_change(void) {
    tenants_policy p = {0};
    mcpr_resources *old = registry_of(&p, OLD_DEFS, 4, 3);
    mcpr_resources *new = registry_of(&p, NEW_DEFS, 3, 3);
    mcpr_list_change *c = NULL;
    CHECK_STATUS(mcpr_list_change_new(old, new, &c, NULL), MCPR_OK);
    CHECK(mcpr_list_change_count(c) == 2); /* a://doc/1 changed, a://doc/2 removed */
    /* the change keeps the policies alive, not the registries */
    mcpr_resources_free(old);
    mcpr_resources_free(new);
    CHECK(atomic_load(&p.releases) == 0);
    tenant a = {.name = "a"}, b = {.name = "b", .undiscoverable = {"a://doc/1", "a://doc/2"}};
    mcpr_subscriber subs[] = {subscriber(&a, "2026-07-28", "3"), subscriber(&b, "2026-07-28", "4"),
                              subscriber(&a, "2025-11-25", NULL)};
    mcpr_notifications *n = NULL;
    CHECK_STATUS(mcpr_notify_list_changed(c, subs, 3, NULL, &n, NULL), MCPR_OK);
    CHECK(str_eq(mcpr_notifications_message(n, 0),
                 "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\",\"params\":{\"_meta\":"
                 "{\"io.modelcontextprotocol/subscriptionId\":3}}}"));
    CHECK(mcpr_notifications_message(n, 1).len == 0);
    CHECK(str_eq(mcpr_notifications_message(n, 2), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\"}"));
    mcpr_notifications_free(n);
    CHECK_STATUS(mcpr_notify_list_changed(MISUSE_NULL, subs, 1, NULL, &n, NULL), MCPR_INVALID_ARGUMENT);
    CHECK_STATUS(mcpr_notify_list_changed(c, subs, 1, NULL, MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
    mcpr_list_change_free(c);
    CHECK(atomic_load(&p.releases) == 2); /* once per table, after the last user */
    CHECK_STATUS(mcpr_list_change_new(MISUSE_NULL, MISUSE_NULL, &c, NULL), MCPR_INVALID_ARGUMENT);
}

static void test_permission_change(void) {
    tenants_policy p = {0};
    mcpr_resources *r = registry(&p);
    tenant t1 = {.name = "t1"}, t2 = {.name = "t2"};
    uint8_t before1[32], before2[32];
    mcpr_read_options o = MCPR_READ_OPTIONS_INIT;
    o.request_data = &t1;
    CHECK_STATUS(mcpr_listing_fingerprint(r, &o, before1, NULL), MCPR_OK);
    o.request_data = &t2;
    CHECK_STATUS(mcpr_listing_fingerprint(r, &o, before2, NULL), MCPR_OK);
    CHECK(memcmp(before1, before2, 32) == 0);
    t1.undiscoverable[0] = "doc://b"; /* t1 loses a definition */
    t2.hidden[0] = "doc://a";         /* visibility: no listing change */
    mcpr_subscriber subs[] = {subscriber(&t1, "2025-11-25", NULL), subscriber(&t2, "2025-11-25", NULL)};
    subs[0].listing = before1;
    subs[1].listing = before2;
    mcpr_notifications *n = NULL;
    CHECK_STATUS(mcpr_notify_listing_changed(r, subs, 2, NULL, &n, NULL), MCPR_OK);
    CHECK(str_contains(mcpr_notifications_message(n, 0), "list_changed"));
    CHECK(mcpr_notifications_message(n, 1).len == 0);
    uint8_t now[32];
    CHECK(mcpr_notifications_listing(n, 0, now) && memcmp(now, before1, 32) != 0);
    CHECK(mcpr_notifications_listing(n, 1, now) && memcmp(now, before2, 32) == 0);
    CHECK(!mcpr_notifications_listing(n, 1, MISUSE_NULL) && !mcpr_notifications_listing(n, 2, now));
    mcpr_notifications_free(n);
    subs[1].listing = NULL;
    n = NULL;
    CHECK_STATUS(mcpr_notify_listing_changed(r, subs, 2, NULL, &n, NULL), MCPR_INVALID_ARGUMENT);
    CHECK(n == NULL);
    CHECK_STATUS(mcpr_listing_fingerprint(r, &o, MISUSE_NULL, NULL), MCPR_INVALID_ARGUMENT);
    t2.failing[0] = "doc://c";
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_listing_fingerprint(r, &o, now, &e), MCPR_POLICY);
    CHECK(!str_contains(mcpr_error_message(e), "SECRET"));
    mcpr_error_free(e);
    mcpr_resources_free(r);
}

/* The subscription methods through mcpr_message: a listen takes the
 * message's own id as its stream id, its reply is the acknowledgement to
 * send as it is, and the decision comes with the reply. */
static void test_message(void) {
    tenants_policy p = {0};
    mcpr_resources *r = registry(&p);
    tenant t = {.name = "t1", .hidden = {"doc://b"}};
    mcpr_request_options o = req(&t, "2026-07-28");
    o.request_id = (mcpr_str){0}; /* a message has its own */
    const char *listen = "{\"jsonrpc\":\"2.0\",\"id\":\"m-1\",\"method\":\"subscriptions/listen\",\"params\":"
                         "{\"notifications\":{\"resourceSubscriptions\":[\"doc://b\",\"doc://a\"]}}}";
    mcpr_reply *reply = NULL;
    mcpr_error *e = NULL;
    CHECK_STATUS(mcpr_message(r, str_of(listen), &o, &reply, &e), MCPR_OK);
    show_error("message", e);
    CHECK(mcpr_reply_handled(reply) && mcpr_reply_is_notification(reply) && !mcpr_reply_is_error(reply));
    CHECK(str_eq(mcpr_reply_json(reply),
                 "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":"
                 "{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"m-1\"},\"notifications\":"
                 "{\"resourceSubscriptions\":[\"doc://a\"]}}}"));
    CHECK(str_eq(mcpr_reply_id(reply), "\"m-1\""));
    const mcpr_subscription *d = mcpr_reply_subscription(reply);
    CHECK(d && mcpr_subscription_request(d) == MCPR_SUBSCRIPTION_LISTEN);
    CHECK(str_eq(mcpr_subscription_id(d), "\"m-1\""));
    CHECK(mcpr_subscription_uri_count(d) == 1 && str_eq(mcpr_subscription_uri(d, 0), "doc://a"));
    mcpr_reply_free(reply);

    /* a subscribe: the one-call request's answer with the message's id */
    mcpr_request_options old = req(&t, "2025-11-25");
    reply = NULL;
    CHECK_STATUS(mcpr_message(r, S("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"resources/subscribe\","
                                   "\"params\":{\"uri\":\"doc://a\"}}"),
                              &old, &reply, NULL),
                 MCPR_OK);
    CHECK(str_eq(mcpr_reply_json(reply), "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}"));
    CHECK(!mcpr_reply_is_notification(reply));
    d = mcpr_reply_subscription(reply);
    CHECK(d && mcpr_subscription_request(d) == MCPR_SUBSCRIPTION_SUBSCRIBE);
    mcpr_reply_free(reply);
    /* hidden: the error response, no decision */
    reply = NULL;
    CHECK_STATUS(mcpr_message(r, S("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"resources/subscribe\","
                                   "\"params\":{\"uri\":\"doc://b\"}}"),
                              &old, &reply, NULL),
                 MCPR_OK);
    CHECK(mcpr_reply_is_error(reply) && !mcpr_reply_subscription(reply) && !mcpr_reply_is_notification(reply));
    CHECK(str_contains(mcpr_reply_json(reply), "-32002"));
    mcpr_reply_free(reply);
    /* other replies and NULL */
    reply = NULL;
    CHECK_STATUS(mcpr_message(r, S("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\","
                                   "\"params\":{\"uri\":\"doc://none\"}}"),
                              &old, &reply, NULL),
                 MCPR_OK);
    CHECK(!mcpr_reply_subscription(reply) && !mcpr_reply_is_notification(reply));
    mcpr_reply_free(reply);
    CHECK(!mcpr_reply_subscription(NULL) && !mcpr_reply_is_notification(NULL));
    CHECK(atomic_load(&body_reads) == 0);
    mcpr_resources_free(r);
    CHECK(atomic_load(&p.releases) == 1);
}

int main(void) {
    test_declaration_and_capability();
    test_subscribe_hides_everything_alike();
    test_listen();
    test_updates();
    test_subscriber_growth();
    test_list_change();
    test_permission_change();
    test_message();
    return harness_finish("test_subscribe");
}
