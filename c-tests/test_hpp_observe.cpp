// The C++ wrapper's observers (include/mcp_resources/observe.hpp),
// GoogleTest: a lambda receives one call event per call and, when asked,
// the decisions; an exception out of it is contained; its function is
// destroyed exactly once; hidden URIs appear in no event; metrics and
// event hashes. Part of test_hpp (also under valgrind and ASan/UBSan).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "mcp_resources.hpp"

namespace {

struct Seen {
    std::string method, json, json_private, uri, rule;
    bool call = false, is_private = false;
    mcpr_status status = MCPR_OK;
    std::optional<mcpr::EventHash> hash;
};

struct Log {
    std::mutex lock;
    std::vector<Seen> events;
    void add(const mcpr::Event &e) {
        Seen s;
        s.method = std::string(e.method());
        s.json = std::string(e.to_json());
        s.json_private = std::string(e.to_json(true));
        s.uri = std::string(e.uri());
        s.rule = std::string(e.rule_name());
        s.call = e.is_call();
        s.is_private = e.is_private();
        s.status = e.status();
        s.hash = e.uri_hash();
        std::lock_guard<std::mutex> g(lock);
        events.push_back(std::move(s));
    }
};

struct Dies {
    explicit Dies(std::atomic<int> *c) : count(c) {}
    ~Dies() { count->fetch_add(1); }
    std::atomic<int> *count;
};

mcpr::Binding plan_of(std::vector<std::string> items) {
    mcpr::Binding b;
    b.resolve = [items](const mcpr::Call &, const mcpr::Match &m, mcpr::PlanBuilder &plan) {
        plan.set_requested(m.uri());
        for (const auto &i : items) plan.add_item(i);
        return mcpr::Result::ok;
    };
    b.read = [](const mcpr::Call &, const mcpr::Target &t, mcpr::PayloadBuilder &out) {
        out.set_text("text/plain", "body of " + std::string(t.uri()));
        return mcpr::Result::ok;
    };
    return b;
}

mcpr::Policy hiding(std::string hidden) {
    mcpr::Policy p = mcpr::Policy::allow_all();
    p.visibility = [hidden](const mcpr::Call &, const mcpr::Target &t, mcpr::Visibility &v) {
        v.visible = t.uri() != hidden;
        v.disclose_issue_uri = true;
        return mcpr::Result::ok;
    };
    return p;
}

TEST(HppObserve, ALambdaGetsOneCallEventPerCallAndTheDecisions) {
    auto log = std::make_shared<Log>();
    mcpr::Builder b;
    b.set_policy(hiding("x://CANARY-hidden"));
    b.add(R"({"uri":"bundle://b","name":"b"})", plan_of({"x://a", "x://CANARY-hidden"}));
    mcpr::set_observer(b, [log](const mcpr::Event &e) { log->add(e); }, {true, false});
    mcpr::Resources r = b.build();
    r.read("bundle://b");
    ASSERT_EQ(log->events.size(), 3u);
    EXPECT_EQ(log->events[0].rule, "admitted");
    EXPECT_EQ(log->events[0].uri, "x://a");
    EXPECT_EQ(log->events[1].rule, "hidden");
    EXPECT_TRUE(log->events[1].is_private);
    EXPECT_TRUE(log->events[1].json.empty());
    EXPECT_FALSE(log->events[1].hash.has_value());
    EXPECT_TRUE(log->events[2].call);
    EXPECT_EQ(log->events[2].method, "resources/read");
    EXPECT_EQ(log->events[2].hash, mcpr::event_hash(r, "bundle://b"));
    for (const auto &e : log->events) {
        EXPECT_EQ(e.json_private.find("CANARY"), std::string::npos) << e.json_private;
        EXPECT_EQ(e.uri.find("CANARY"), std::string::npos);
    }
    log->events.clear();
    EXPECT_THROW(r.read("x://none"), mcpr::Error);
    r.list({"tenant"});
    ASSERT_EQ(log->events.size(), 4u);  // not found: root, call; list: bundle, call
    EXPECT_EQ(log->events[0].rule, "not_found");
    EXPECT_TRUE(log->events[0].is_private);
    EXPECT_EQ(log->events[1].status, MCPR_UNAVAILABLE);
    EXPECT_EQ(log->events[3].method, "resources/list");
}

TEST(HppObserve, AThrowingObserverChangesNoResultAndIsDestroyedOnce) {
    std::atomic<int> dead{0};
    std::atomic<int> calls{0};
    {
        auto d = std::make_shared<Dies>(&dead);
        mcpr::Builder b;
        b.set_policy(mcpr::Policy::allow_all());
        b.add(R"({"uri":"bundle://b","name":"b"})", plan_of({"x://a"}));
        mcpr::set_observer(
            b,
            [d, &calls](const mcpr::Event &) {
                calls.fetch_add(1);
                throw std::runtime_error("observer bug");
            },
            {true, true});
        mcpr::Resources r = b.build();
        EXPECT_EQ(dead.load(), 0);
        mcpr::Bundle bundle = r.read("bundle://b");
        EXPECT_FALSE(bundle.is_partial());
        EXPECT_NE(std::string(bundle.json()).find("body of x://a"), std::string::npos);
        EXPECT_EQ(calls.load(), 2);  // the item's decision, the call
        mcpr::ExecutorOptions eo;
        eo.threads = 2;
        mcpr::Executor ex(eo);
        mcpr::ReadOptions o;
        o.executor = &ex;
        EXPECT_FALSE(r.read("bundle://b", o).is_partial());
    }
    EXPECT_EQ(dead.load(), 1);
}

TEST(HppObserve, AnEmptyFunctionIsRefusedAndDestroyedAtOnce) {
    mcpr::Builder b;
    mcpr::Error e(MCPR_OK, "", "", 0, "");
    try {
        mcpr::set_observer(b, mcpr::Observer());
    } catch (const mcpr::Error &x) {
        e = x;
    }
    EXPECT_EQ(e.status(), MCPR_INVALID_CONFIGURATION);
}

TEST(HppObserve, MetricsCountCallsWithoutAnObserver) {
    mcpr::Builder b;
    b.set_policy(mcpr::Policy::allow_all());
    b.add(R"({"uri":"bundle://b","name":"b"})", plan_of({"x://a"}));
    mcpr::Resources r = b.build();
    for (int i = 0; i < 3; i++) r.read("bundle://b");
    EXPECT_THROW(r.read("x://none"), mcpr::Error);
    mcpr::CallMetrics ok = mcpr::metrics(r, "resources/read");
    EXPECT_EQ(ok.calls, 3u);
    EXPECT_GT(ok.total.count(), 0);
    EXPECT_EQ(mcpr::metrics(r, "resources/read", MCPR_UNAVAILABLE).calls, 1u);
    EXPECT_THROW(mcpr::metrics(r, "tools/list"), mcpr::Error);
}

TEST(HppObserve, OneEventKeyGivesReplicasTheSameHashes) {
    auto make = [] {
        mcpr::Builder b;
        b.set_policy(mcpr::Policy::allow_all());
        mcpr::set_event_key(b, "a shared event key of 32 bytes..");
        return b.build();
    };
    EXPECT_EQ(mcpr::event_hash(make(), "doc://x"), mcpr::event_hash(make(), "doc://x"));
    mcpr::Builder b;
    EXPECT_THROW(mcpr::set_event_key(b, "short"), mcpr::Error);
}

}  // namespace
