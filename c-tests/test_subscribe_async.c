/* Subscriptions (BEHAVIOUR §15) where a policy asks for input and through
 * the asynchronous calls: a policy callback that asks (MCPR_CB_INPUT_REQUIRED,
 * BEHAVIOUR §18) while a subscribe, a listen URI, an update, a list change
 * or a listing fingerprint is decided is not honored, in every byte as an
 * unregistered URI (rule 12); resources/subscribe, resources/unsubscribe
 * and subscriptions/listen through mcpr_request_start and
 * mcpr_message_start answer and decide as the blocking calls (rule 13,
 * BEHAVIOUR §20). */
#include <pthread.h>

#include "subscribe_host.h"

/* Rule 12: a policy that asks for input (BEHAVIOUR §18) while a
 * subscription or a notification is decided is not honored, byte for byte
 * as unregistered; nothing it asked for (its requests, its state) goes
 * anywhere. The discover of doc://a and doc://b asks, and so does the
 * read permission of a template match (file://docs/asks: its definition,
 * the template, is discoverable). */
static void test_a_policy_that_asks_is_not_honored(void) {
    tenants_policy p = {0};
    mcpr_resources *r = registry(&p);
    tenant t = {.name = "t1", .asking = {"doc://a", "doc://b", "file://docs/asks"}};
    const char *uris[] = {"doc://a", "doc://b", "file://docs/asks"};
    mcpr_request_options o = req(&t, "2025-11-25");
    for (size_t i = 0; i < 3; i++) {
        int asked = atomic_load(&input_asks);
        char params[128], want[160];
        snprintf(params, sizeof params, "{\"uri\":\"%s\"}", uris[i]);
        snprintf(want, sizeof want, "{\"code\":-32002,\"message\":\"Resource not found\",\"data\":{\"uri\":\"%s\"}}",
                 uris[i]);
        mcpr_response *sub = ask(r, "resources/subscribe", params, &o);
        CHECK(mcpr_response_is_error(sub) && mcpr_response_subscription(sub) == NULL);
        CHECK(str_eq(mcpr_response_json(sub), want));
        CHECK_STATUS(mcpr_response_status(sub), MCPR_UNAVAILABLE);
        CHECK(!str_contains(mcpr_response_cause(sub), "SECRET"));
        CHECK(atomic_load(&input_asks) == asked + 1);
        mcpr_response_free(sub);
    }
    /* a listen: left out of the acknowledgement, as unregistered URIs are */
    o = req(&t, "2026-07-28");
    int asked = atomic_load(&input_asks);
    mcpr_response *a = ask(r, "subscriptions/listen",
                           "{\"notifications\":{\"resourceSubscriptions\":"
                           "[\"doc://a\",\"doc://b\",\"file://docs/asks\",\"doc://c\"]}}",
                           &o);
    mcpr_response *b = ask(r, "subscriptions/listen",
                           "{\"notifications\":{\"resourceSubscriptions\":"
                           "[\"doc://n1\",\"doc://n2\",\"doc://n3\",\"doc://c\"]}}",
                           &o);
    CHECK(atomic_load(&input_asks) == asked + 3);
    CHECK(mcpr_response_is_notification(a) && !mcpr_response_is_error(a));
    CHECK(str_eq(mcpr_response_json(a),
                 "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":"
                 "{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":1},\"notifications\":"
                 "{\"resourceSubscriptions\":[\"doc://c\"]}}}"));
    mcpr_str ja = mcpr_response_json(a), jb = mcpr_response_json(b);
    CHECK(ja.len == jb.len && memcmp(ja.ptr, jb.ptr, ja.len) == 0);
    const mcpr_subscription *d = mcpr_response_subscription(a);
    CHECK(mcpr_subscription_uri_count(d) == 1 && str_eq(mcpr_subscription_uri(d, 0), "doc://c"));
    mcpr_response_free(a);
    mcpr_response_free(b);
    /* an update: skipped silently, as for a hidden subscriber (no failure) */
    tenant hidden = {.name = "h", .hidden = {"doc://a"}}, visible = {.name = "v"};
    mcpr_subscriber subs[] = {subscriber(&t, "2026-07-28", "1"), subscriber(&t, "2025-11-25", NULL),
                              subscriber(&hidden, "2026-07-28", "2"), subscriber(&visible, "2026-07-28", "3")};
    asked = atomic_load(&input_asks);
    mcpr_notifications *n = notify(r, "doc://a", subs, 4);
    CHECK(atomic_load(&input_asks) == asked + 2);
    for (size_t i = 0; i < 3; i++) {
        CHECK(mcpr_notifications_message(n, i).len == 0);
        CHECK_STATUS(mcpr_notifications_status(n, i), MCPR_OK);
        CHECK(mcpr_notifications_cause(n, i).len == 0);
    }
    CHECK(str_contains(mcpr_notifications_message(n, 3), "notifications/resources/updated"));
    mcpr_notifications_free(n);
    /* a list change: a caller whose discover asks about the changed
     * definition is not told */
    const char *before[] = {"{\"uri\":\"doc://b\",\"name\":\"b\"}"};
    const char *after[] = {"{\"uri\":\"doc://b\",\"name\":\"renamed\"}"};
    mcpr_resources *old = registry_of(&p, before, 1, 3), *new = registry_of(&p, after, 1, 3);
    mcpr_list_change *c = NULL;
    CHECK_STATUS(mcpr_list_change_new(old, new, &c, NULL), MCPR_OK);
    mcpr_subscriber listeners[] = {subscriber(&t, "2026-07-28", "1"), subscriber(&visible, "2026-07-28", "3")};
    n = NULL;
    asked = atomic_load(&input_asks);
    CHECK_STATUS(mcpr_notify_list_changed(c, listeners, 2, NULL, &n, NULL), MCPR_OK);
    CHECK(atomic_load(&input_asks) > asked);
    CHECK(mcpr_notifications_message(n, 0).len == 0);
    CHECK_STATUS(mcpr_notifications_status(n, 0), MCPR_OK);
    CHECK(str_contains(mcpr_notifications_message(n, 1), "list_changed"));
    mcpr_notifications_free(n);
    mcpr_list_change_free(c);
    mcpr_resources_free(old);
    mcpr_resources_free(new);
    /* a listing fingerprint: the definition is undiscoverable */
    tenant gone = {.name = "g", .undiscoverable = {"doc://a", "doc://b"}};
    uint8_t fa[32], fg[32], fv[32];
    mcpr_read_options ro = MCPR_READ_OPTIONS_INIT;
    ro.request_data = &t;
    asked = atomic_load(&input_asks);
    CHECK_STATUS(mcpr_listing_fingerprint(r, &ro, fa, NULL), MCPR_OK);
    CHECK(atomic_load(&input_asks) == asked + 2);
    ro.request_data = &gone;
    CHECK_STATUS(mcpr_listing_fingerprint(r, &ro, fg, NULL), MCPR_OK);
    ro.request_data = &visible;
    CHECK_STATUS(mcpr_listing_fingerprint(r, &ro, fv, NULL), MCPR_OK);
    CHECK(memcmp(fa, fg, 32) == 0 && memcmp(fa, fv, 32) != 0);
    CHECK(atomic_load(&body_reads) == 0);
    mcpr_resources_free(r);
}

/* ------------------------------------------- the asynchronous calls (§20) */

typedef struct {
    atomic_int runs;
    mcpr_status status;
    mcpr_response *response;
    mcpr_reply *reply;
    pthread_t thread;
} started;

static void on_response(void *data, mcpr_status status, mcpr_response *resp, mcpr_error *e) {
    started *s = data;
    CHECK((status == MCPR_OK) == (resp != NULL) && (resp == NULL) == (e != NULL));
    s->status = status;
    s->response = resp;
    s->thread = pthread_self();
    mcpr_error_free(e);
    atomic_fetch_add(&s->runs, 1);
}

static void on_reply(void *data, mcpr_status status, mcpr_reply *reply, mcpr_error *e) {
    started *s = data;
    CHECK((status == MCPR_OK) == (reply != NULL) && (reply == NULL) == (e != NULL));
    s->status = status;
    s->reply = reply;
    s->thread = pthread_self();
    mcpr_error_free(e);
    atomic_fetch_add(&s->runs, 1);
}

static bool finished(started *s) {
    unsigned long long end = now_ms() + 10000ull * slow();
    while (atomic_load(&s->runs) == 0) {
        if (now_ms() > end) return false;
        sleep_ms(1);
    }
    CHECK(atomic_load(&s->runs) == 1 && !pthread_equal(s->thread, pthread_self()));
    return true;
}

static bool same_decision(const mcpr_subscription *a, const mcpr_subscription *b) {
    if (!a || !b) return a == b;
    size_t n = mcpr_subscription_uri_count(a);
    if (n != mcpr_subscription_uri_count(b) || mcpr_subscription_request(a) != mcpr_subscription_request(b) ||
        mcpr_subscription_honored(a) != mcpr_subscription_honored(b) ||
        mcpr_subscription_requested(a) != mcpr_subscription_requested(b))
        return false;
    mcpr_str x[] = {mcpr_subscription_id(a), mcpr_subscription_protocol_revision(a)};
    mcpr_str y[] = {mcpr_subscription_id(b), mcpr_subscription_protocol_revision(b)};
    for (size_t i = 0; i < 2; i++)
        if (x[i].len != y[i].len || memcmp(x[i].ptr, y[i].ptr, x[i].len) != 0) return false;
    for (size_t i = 0; i < n; i++) {
        mcpr_str u = mcpr_subscription_uri(a, i), v = mcpr_subscription_uri(b, i);
        if (u.len != v.len || memcmp(u.ptr, v.ptr, u.len) != 0) return false;
    }
    return true;
}

/* Rule 13: the three methods through mcpr_request_start answer and decide
 * as mcpr_request does, with the done callback on an executor thread; a
 * method not handled on the revision comes through done; a listen message
 * started with mcpr_message_start takes the message's id. */
static void test_the_subscription_methods_start_asynchronously(void) {
    tenants_policy p = {0};
    mcpr_resources *r = registry(&p);
    mcpr_executor *ex = NULL;
    CHECK_STATUS(mcpr_executor_new(2, &ex, NULL), MCPR_OK);
    tenant t = {.name = "t1", .hidden = {"doc://b"}, .asking = {"doc://c"}};
    const char *calls[][3] = {
        {"2025-11-25", "resources/subscribe", "{\"uri\":\"doc://a\"}"},
        {"2025-11-25", "resources/subscribe", "{\"uri\":\"file://docs/x\"}"},
        {"2025-11-25", "resources/subscribe", "{\"uri\":\"doc://b\"}"},
        {"2025-11-25", "resources/subscribe", "{\"uri\":\"doc://c\"}"},
        {"2025-11-25", "resources/subscribe", "{\"uri\":7}"},
        {"2025-06-18", "resources/unsubscribe", "{\"uri\":\"doc://b\"}"},
        {"2026-07-28", "subscriptions/listen",
         "{\"notifications\":{\"resourcesListChanged\":true,\"resourceSubscriptions\":"
         "[\"doc://b\",\"doc://a\",\"doc://c\",\"file://docs/y\"]}}"},
        {"2026-07-28", "subscriptions/listen", "{\"notifications\":{\"resourceSubscriptions\":[\"doc://a\",\"doc://a\"]}}"},
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        mcpr_request_options o = req(&t, calls[i][0]);
        o.executor = ex;
        o.timeout_ms = 10000;
        started s = {0};
        CHECK_STATUS(mcpr_request_start(r, str_of(calls[i][1]), str_of(calls[i][2]), &o, on_response, &s, NULL),
                     MCPR_OK);
        if (!finished(&s)) {
            CHECK(!"done ran");
            continue;
        }
        CHECK_STATUS(s.status, MCPR_OK);
        mcpr_response *blocking = ask(r, calls[i][1], calls[i][2], &o);
        mcpr_str a = mcpr_response_json(s.response), b = mcpr_response_json(blocking);
        CHECK(a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0);
        CHECK(mcpr_response_is_error(s.response) == mcpr_response_is_error(blocking));
        CHECK(mcpr_response_is_notification(s.response) == mcpr_response_is_notification(blocking));
        CHECK(mcpr_response_status(s.response) == mcpr_response_status(blocking));
        CHECK(same_decision(mcpr_response_subscription(s.response), mcpr_response_subscription(blocking)));
        CHECK((mcpr_response_subscription(s.response) != NULL) == (i < 2 || i == 5 || i == 6));
        if (i == 6) CHECK(mcpr_subscription_uri_count(mcpr_response_subscription(s.response)) == 2);
        mcpr_response_free(s.response);
        mcpr_response_free(blocking);
    }
    /* not handled on the request's revision: through done */
    const char *elsewhere[][3] = {
        {"2026-07-28", "resources/subscribe", "{\"uri\":\"doc://a\"}"},
        {"2025-11-25", "subscriptions/listen", "{\"notifications\":{}}"},
    };
    for (size_t i = 0; i < 2; i++) {
        mcpr_request_options o = req(&t, elsewhere[i][0]);
        o.executor = ex;
        started s = {0};
        CHECK_STATUS(mcpr_request_start(r, str_of(elsewhere[i][1]), str_of(elsewhere[i][2]), &o, on_response, &s,
                                        NULL),
                     MCPR_OK);
        CHECK(finished(&s));
        CHECK_STATUS(s.status, MCPR_METHOD_NOT_HANDLED);
        CHECK(s.response == NULL);
    }
    /* a request id that is no JSON string or number fails the start */
    mcpr_request_options bad = req(&t, "2026-07-28");
    bad.executor = ex;
    bad.request_id = S("{}");
    started never = {0};
    CHECK_STATUS(mcpr_request_start(r, S("subscriptions/listen"), S("{\"notifications\":{}}"), &bad, on_response,
                                    &never, NULL),
                 MCPR_INVALID_ARGUMENT);
    /* a listen message: its own id names the stream */
    mcpr_request_options mo = req(&t, "2026-07-28");
    mo.executor = ex;
    mo.request_id = (mcpr_str){0};
    const char *listen = "{\"jsonrpc\":\"2.0\",\"id\":\"m-2\",\"method\":\"subscriptions/listen\",\"params\":"
                         "{\"notifications\":{\"resourceSubscriptions\":[\"doc://b\",\"doc://a\"]}}}";
    started s = {0};
    CHECK_STATUS(mcpr_message_start(r, str_of(listen), &mo, on_reply, &s, NULL), MCPR_OK);
    if (finished(&s) && s.reply) {
        mcpr_reply *blocking = NULL;
        CHECK_STATUS(mcpr_message(r, str_of(listen), &mo, &blocking, NULL), MCPR_OK);
        mcpr_str a = mcpr_reply_json(s.reply), b = mcpr_reply_json(blocking);
        CHECK(a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0);
        CHECK(str_contains(a, "\"io.modelcontextprotocol/subscriptionId\":\"m-2\""));
        CHECK(mcpr_reply_is_notification(s.reply) && str_eq(mcpr_reply_id(s.reply), "\"m-2\""));
        const mcpr_subscription *d = mcpr_reply_subscription(s.reply);
        CHECK(same_decision(d, mcpr_reply_subscription(blocking)));
        CHECK(d && str_eq(mcpr_subscription_id(d), "\"m-2\"") && mcpr_subscription_uri_count(d) == 1);
        mcpr_reply_free(blocking);
    } else {
        CHECK(!"a reply");
    }
    mcpr_reply_free(s.reply);
    mcpr_executor_free(ex);
    mcpr_resources_free(r);
    CHECK(atomic_load(&never.runs) == 0);
    CHECK(atomic_load(&body_reads) == 0);
    CHECK(atomic_load(&p.releases) == 1);
}

int main(void) {
    test_a_policy_that_asks_is_not_honored();
    test_the_subscription_methods_start_asynchronously();
    return harness_finish("test_subscribe_async");
}
