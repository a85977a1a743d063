// The C++ wrapper's subscriptions and change notifications (BEHAVIOUR §15),
// GoogleTest, linked into test_hpp (and its valgrind and ASan/UBSan runs)
// with test_hpp.cpp: subscribe and listen decisions (hidden answers like
// unregistered), through mcpr::Reply too, updates rechecked at send time,
// list changes per caller and the listing fingerprints.
#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp_resources.hpp"

namespace {

bool contains(std::string_view haystack, std::string_view needle) {
    return haystack.find(needle) != std::string_view::npos;
}

// A binding serving text "body of <uri>".
mcpr::Binding text_binding() {
    mcpr::Binding b;
    b.read = [](const mcpr::Call &, const mcpr::Target &t, mcpr::PayloadBuilder &out) {
        out.set_text("text/plain", "body of " + std::string(t.uri()));
        return mcpr::Result::ok;
    };
    return b;
}

template <class F> mcpr::Error error_of(F &&f) {
    try {
        f();
    } catch (const mcpr::Error &e) {
        return e;
    }
    ADD_FAILURE() << "no mcpr::Error thrown";
    return mcpr::Error(MCPR_OK, "", "", 0, "");
}

// ---------------------------------------------------------------- subscriptions

// A tenant (request data) and the URIs hidden from it.
struct Tenant {
    std::vector<std::string> hidden;
};

mcpr::Policy tenant_policy() {
    mcpr::Policy p = mcpr::Policy::allow_all();
    p.visibility = [](const mcpr::Call &call, const mcpr::Target &t, mcpr::Visibility &v) {
        const auto *who = static_cast<const Tenant *>(call.request_data());
        v.visible = true;
        if (who)
            for (const auto &h : who->hidden)
                if (t.uri() == h) v.visible = false;
        return mcpr::Result::ok;
    };
    return p;
}

mcpr::Resources subscribable(std::vector<std::string> uris) {
    mcpr::Builder b;
    b.set_policy(tenant_policy())
        .set_notifications(MCPR_NOTIFY_RESOURCE_UPDATES | MCPR_NOTIFY_RESOURCES_LIST_CHANGED);
    for (const auto &u : uris) b.add(R"({"uri":")" + u + R"(","name":"n"})", text_binding());
    return b.build();
}

TEST(Hpp, SubscribeListenAndUpdatesDecideAndHideAlike) {
    mcpr::Resources r = subscribable({"doc://a", "doc://b"});
    EXPECT_EQ(r.capability("2025-11-25"), R"({"subscribe":true,"listChanged":true})");
    Tenant alice{{"doc://b"}};
    mcpr::RequestOptions o;
    o.protocol_revision = "2025-11-25";
    o.request_data = &alice;
    mcpr::Response ok = r.request("resources/subscribe", R"({"uri":"doc://a"})", o);
    ASSERT_TRUE(ok.subscription().has_value());
    EXPECT_EQ(ok.json(), "{}");
    EXPECT_EQ(ok.subscription()->request(), MCPR_SUBSCRIPTION_SUBSCRIBE);
    EXPECT_EQ(ok.subscription()->uris(), std::vector<std::string_view>{"doc://a"});
    mcpr::Response hidden = r.request("resources/subscribe", R"({"uri":"doc://b"})", o);
    mcpr::Response none = r.request("resources/subscribe", R"({"uri":"doc://z"})", o);
    EXPECT_TRUE(hidden.is_error() && none.is_error());
    EXPECT_FALSE(hidden.subscription().has_value());
    EXPECT_EQ(std::string(hidden.json()).replace(hidden.json().find("doc://b"), 7, "URI"),
              std::string(none.json()).replace(none.json().find("doc://z"), 7, "URI"));

    o.protocol_revision = "2026-07-28";
    o.request_id = "42";
    mcpr::Response ack =
        r.request("subscriptions/listen", R"({"notifications":{"resourceSubscriptions":["doc://b","doc://a"]}})", o);
    EXPECT_TRUE(ack.is_notification());
    EXPECT_TRUE(contains(ack.json(), R"("resourceSubscriptions":["doc://a"])")) << ack.json();
    EXPECT_EQ(ack.subscription()->id(), "42");
    EXPECT_EQ(ack.subscription()->protocol_revision(), "2026-07-28");

    Tenant bob{};
    std::vector<mcpr::Subscriber> subs(2);
    subs[0].request_data = &alice;
    subs[0].protocol_revision = "2026-07-28";
    subs[0].subscription_id = "42";
    subs[1].request_data = &bob;
    subs[1].protocol_revision = "2025-11-25";
    alice.hidden.push_back("doc://a");  // hidden after subscribing
    mcpr::Notifications n = r.notify_updated("doc://a", subs);
    ASSERT_EQ(n.size(), 2u);
    EXPECT_TRUE(n.message(0).empty());
    EXPECT_EQ(n.status(0), MCPR_OK);
    EXPECT_EQ(n.message(1), R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"doc://a"}})");
    EXPECT_EQ(mcpr::listen_closed("42").json(),
              R"({"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":42}})");
    // a 2026-07-28 subscriber without its stream id is a host mistake
    subs[0].subscription_id = {};
    EXPECT_EQ(error_of([&] { r.notify_updated("doc://a", subs); }).status(), MCPR_INVALID_ARGUMENT);
}

TEST(Hpp, ASubscriptionMessageCarriesItsDecisionAndAListenItsOwnID) {
    mcpr::Resources r = subscribable({"doc://a", "doc://b"});
    Tenant alice{{"doc://b"}};
    mcpr::RequestOptions o;
    o.protocol_revision = "2026-07-28";
    o.request_data = &alice;
    mcpr::Reply ack = r.message(
        R"({"jsonrpc":"2.0","id":12,"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["doc://b","doc://a"]}}})",
        o);
    EXPECT_TRUE(ack.handled() && ack.is_notification());
    EXPECT_EQ(ack.json(),
              R"({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":12},"notifications":{"resourceSubscriptions":["doc://a"]}}})");
    ASSERT_TRUE(ack.subscription().has_value());
    EXPECT_EQ(ack.subscription()->id(), "12");
    EXPECT_EQ(ack.subscription()->uris(), std::vector<std::string_view>{"doc://a"});
    o.protocol_revision = "2025-11-25";
    mcpr::Reply sub =
        r.message(R"({"jsonrpc":"2.0","id":"s","method":"resources/subscribe","params":{"uri":"doc://a"}})", o);
    EXPECT_EQ(sub.json(), R"({"jsonrpc":"2.0","id":"s","result":{}})");
    EXPECT_FALSE(sub.is_notification());
    ASSERT_TRUE(sub.subscription().has_value());
    EXPECT_EQ(sub.subscription()->request(), MCPR_SUBSCRIPTION_SUBSCRIBE);
    mcpr::Reply hidden =
        r.message(R"({"jsonrpc":"2.0","id":"s","method":"resources/subscribe","params":{"uri":"doc://b"}})", o);
    EXPECT_TRUE(hidden.is_error());
    EXPECT_FALSE(hidden.subscription().has_value());
}

TEST(Hpp, ListChangesReachOnlyCallersWhoCanSeeAChangeAndKeepThePolicyAlive) {
    Tenant alice{{"doc://new"}}, bob{};
    std::vector<mcpr::Subscriber> subs(2);
    subs[0].request_data = &alice;
    subs[1].request_data = &bob;
    subs[0].protocol_revision = subs[1].protocol_revision = "2025-11-25";
    std::optional<mcpr::ListChange> change;
    {
        mcpr::Resources before = subscribable({"doc://a"});
        mcpr::Resources after = subscribable({"doc://a", "doc://new"});
        change.emplace(before, after);
    }
    EXPECT_EQ(change->size(), 1u);
    // alice cannot see the added definition's target, but listings ask
    // discover only: both discover it
    mcpr::Notifications n = change->notify(subs);
    EXPECT_FALSE(n.message(0).empty());
    EXPECT_FALSE(n.message(1).empty());

    mcpr::Resources r = subscribable({"doc://a"});
    mcpr::ReadOptions ro;
    ro.request_data = &bob;
    subs[1].listing = r.listing_fingerprint(ro);
    subs[0].listing = subs[1].listing;
    mcpr::Notifications same = r.notify_listing_changed(subs);
    EXPECT_TRUE(same.message(0).empty() && same.message(1).empty());
    EXPECT_EQ(same.listing(1), subs[1].listing);
}

TEST(Hpp, ANotificationCallsTraceReachesItsCallbacksAndNoMessage) {
    std::vector<std::string> seen;
    mcpr::Builder b;
    mcpr::Policy p = mcpr::Policy::allow_all();
    p.discover = [&seen](const mcpr::Call &call, const mcpr::Definition &) {
        seen.emplace_back(call.traceparent());
        return mcpr::Result::ok;
    };
    b.set_policy(p).set_notifications(MCPR_NOTIFY_RESOURCE_UPDATES);
    b.add(R"({"uri":"doc://a","name":"a"})", text_binding());
    mcpr::Resources r = b.build();
    std::vector<mcpr::Subscriber> subs(2);
    subs[0].protocol_revision = "2025-11-25";
    subs[1].protocol_revision = "2026-07-28";
    subs[1].subscription_id = "3";
    mcpr::NotifyOptions o;
    o.trace.traceparent = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
    mcpr::Notifications n = r.notify_updated("doc://a", subs, o);
    ASSERT_EQ(n.size(), 2u);
    for (std::size_t i = 0; i < 2; i++) {
        EXPECT_FALSE(n.message(i).empty());
        EXPECT_FALSE(contains(n.message(i), "0af7651916cd43dd")) << n.message(i);
    }
    ASSERT_GE(seen.size(), 2u);
    for (const auto &t : seen) EXPECT_EQ(t, o.trace.traceparent);
}

}  // namespace
