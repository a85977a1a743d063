// The C++ wrapper's plan-level policy entry (mcpr::Policy::decide_plan, the
// C mcpr_policy_callbacks.decide_plan), GoogleTest: a read answered through
// it is byte for byte the read the per-item members answer (allowed, hidden,
// denied, undiscoverable and unregistered URIs, partial bundles, the
// recheck), with no oracle; an answer left out and a throw are policy
// failures that never escape; one call per step (two per single-item read
// planned by mcpr_resolve_single). Also run under valgrind
// (memcheck_test_hpp_plan_policy) and ASan/UBSan (asan_test_hpp_plan_policy).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "mcp_resources.hpp"

namespace {

bool contains(std::string_view haystack, std::string_view needle) {
    return haystack.find(needle) != std::string_view::npos;
}

// What a rule looks at: "hidden" for doc://hidden and item://hidden; empty
// for a bundle's requested target (its items are the ones the rules name).
std::string_view kind(std::string_view uri) {
    for (std::string_view scheme : {"doc://", "item://"})
        if (uri.substr(0, scheme.size()) == scheme) return uri.substr(scheme.size());
    return {};
}

// The rules one policy follows, whichever form answers them.
mcpr::Result discover_rule(std::string_view uri) {
    return kind(uri) == "secret" ? mcpr::Result::unavailable : mcpr::Result::ok;
}
bool visible_rule(std::string_view uri) { return kind(uri) != "hidden"; }
mcpr::Result read_rule(mcpr_phase phase, std::string_view uri) {
    if (kind(uri) == "denied") return mcpr::Result::unavailable;
    if (kind(uri) == "revoked" && phase == MCPR_PHASE_RECHECK) return mcpr::Result::unavailable;
    if (kind(uri) == "broken") return mcpr::Result::failed;
    return mcpr::Result::ok;
}

struct Counts {
    std::atomic<int> per_item{0};
    std::atomic<int> plan{0};
    std::mutex m;
    std::vector<mcpr_phase> phases;        // of each decide_plan call
    std::vector<std::string> asked;        // "d" definition, "r" requested, "i" per item, per call
};

// The per-item members following the rules (and counting their calls).
mcpr::Policy per_item(const std::shared_ptr<Counts> &c) {
    mcpr::Policy p;
    p.discover = [c](const mcpr::Call &, const mcpr::Definition &d) {
        c->per_item++;
        return discover_rule(d.uri());
    };
    p.visibility = [c](const mcpr::Call &, const mcpr::Target &t, mcpr::Visibility &v) {
        c->per_item++;
        v.visible = visible_rule(t.uri());
        v.disclose_issue_uri = true;
        return mcpr::Result::ok;
    };
    p.read = [c](const mcpr::Call &call, const mcpr::Target &t) {
        c->per_item++;
        return read_rule(call.phase(), t.uri());
    };
    return p;
}

void answer_target(const mcpr::Call &call, const mcpr::Target &t, mcpr::TargetDecision d) {
    d.set_visible(visible_rule(t.uri()), true);
    d.set_read(read_rule(call.phase(), t.uri()));
}

// The same rules, also through decide_plan (every question answered; the
// library uses only the answers the per-item form would have asked for).
mcpr::Policy plan_form(const std::shared_ptr<Counts> &c) {
    mcpr::Policy p = per_item(c);
    p.decide_plan = [c](const mcpr::Call &call, const mcpr::PlanQuestions &q, mcpr::PlanDecision &d) {
        c->plan++;
        std::string asked;
        if (auto def = q.definition()) {
            asked += "d";
            d.set_discover(discover_rule(def->uri()));
        }
        if (auto t = q.requested()) {
            asked += "r";
            answer_target(call, *t, d.requested());
        }
        EXPECT_EQ(q.item_count(), d.item_count());
        for (std::size_t i = 0; i < q.item_count(); ++i) {
            asked += "i";
            answer_target(call, q.item(i), d.item(i));
        }
        std::lock_guard<std::mutex> g(c->m);
        c->phases.push_back(call.phase());
        c->asked.push_back(asked);
        return mcpr::Result::ok;
    };
    return p;
}

mcpr::Binding text_binding() {
    mcpr::Binding b;
    b.read = [](const mcpr::Call &, const mcpr::Target &t, mcpr::PayloadBuilder &out) {
        out.set_text("text/plain", "body of " + std::string(t.uri()));
        return mcpr::Result::ok;
    };
    return b;
}

// Exact resources (planned by mcpr_resolve_single) and a bundle template
// whose resolve plans the items its capture lists ("ok+hidden+denied").
mcpr::Resources registry(mcpr::Policy policy) {
    mcpr::Builder b;
    b.set_policy(std::move(policy));
    for (const char *u : {"doc://a", "doc://hidden", "doc://denied", "doc://secret", "doc://revoked",
                          "doc://broken"})
        b.add(std::string(R"({"uri":")") + u + R"(","name":"n"})", text_binding());
    mcpr::Binding bundle = text_binding();
    bundle.resolve = [](const mcpr::Call &, const mcpr::Match &m, mcpr::PlanBuilder &plan) {
        plan.set_requested(m.uri());
        std::string_view kinds = m.capture("items").value_or("");
        while (!kinds.empty()) {
            std::size_t plus = kinds.find('+');
            plan.add_item("item://" + std::string(kinds.substr(0, plus)));
            kinds = plus == std::string_view::npos ? std::string_view() : kinds.substr(plus + 1);
        }
        return mcpr::Result::ok;
    };
    b.add(R"({"uriTemplate":"bundle://b/{items}","name":"bundle"})", std::move(bundle));
    return b.build();
}

// A partial bundle's warning URI is fresh per read: masked.
std::string masked(std::string_view json) {
    std::string s(json);
    const std::string prefix = "mcp-warning://read/";
    for (std::size_t i = s.find(prefix); i != std::string::npos; i = s.find(prefix, i + 1))
        s.replace(i + prefix.size(), 32, "*");
    return s;
}

// Everything a read answers: the result, or the whole error.
std::string outcome(const mcpr::Resources &r, std::string_view uri, const mcpr::Executor *ex = nullptr) {
    try {
        mcpr::ReadOptions o;
        o.executor = ex;
        mcpr::Bundle b = r.read(uri, o);
        return "ok " + std::string(b.is_partial() ? "partial " : "") + masked(b.json());
    } catch (const mcpr::Error &e) {
        return "error " + std::to_string(e.status()) + " " + e.what() + " | " + std::string(e.jsonrpc_json()) +
               " | " + std::string(e.cause());
    }
}

// What the client sees of a failed read, the URI it asked for replaced
// (the not-found object names it): status, message and JSON-RPC error.
std::string client_view(const mcpr::Resources &r, std::string_view uri) {
    try {
        r.read(uri);
        return "ok";
    } catch (const mcpr::Error &e) {
        std::string json(e.jsonrpc_json());
        for (std::size_t i = json.find(uri); i != std::string::npos; i = json.find(uri, i + 1))
            json.replace(i, uri.size(), "<uri>");
        return std::to_string(e.status()) + " " + e.what() + " | " + json;
    }
}

const char *const uris[] = {
    "doc://a",      "doc://hidden",  "doc://denied", "doc://secret", "doc://missing", "doc://revoked",
    "doc://broken", "bundle://b/ok", "bundle://b/ok+hidden+denied+revoked",
    "bundle://b/hidden", "bundle://b/denied+revoked", "bundle://b/ok+broken", "bundle://b/",
};

TEST(HppPlanPolicy, AReadThroughDecidePlanIsByteIdenticalToThePerItemPolicy) {
    auto a = std::make_shared<Counts>(), b = std::make_shared<Counts>();
    mcpr::Resources items = registry(per_item(a));
    mcpr::Resources plans = registry(plan_form(b));
    mcpr::Executor ex;
    for (const mcpr::Executor *e : std::vector<const mcpr::Executor *>{nullptr, &ex})
        for (const char *u : uris) EXPECT_EQ(outcome(items, u, e), outcome(plans, u, e)) << u;
    EXPECT_GT(a->per_item.load(), 0);
    EXPECT_GT(b->plan.load(), 0);
    // No per-item member answered a read's check in the plan form.
    EXPECT_EQ(b->per_item.load(), 0);
    // Sanity: the cases are what they say.
    EXPECT_TRUE(contains(outcome(plans, "doc://a"), "body of doc://a"));
    EXPECT_TRUE(contains(outcome(plans, "bundle://b/ok+hidden+denied+revoked"), "ok partial"))
        << outcome(plans, "bundle://b/ok+hidden+denied+revoked");
    EXPECT_TRUE(contains(outcome(plans, "doc://broken"), "error " + std::to_string(MCPR_POLICY)));
}

TEST(HppPlanPolicy, HiddenUndiscoverableAndUnregisteredAnswerAlikeThroughDecidePlan) {
    mcpr::Resources r = registry(plan_form(std::make_shared<Counts>()));
    std::string missing = client_view(r, "doc://missing");
    EXPECT_TRUE(contains(missing, std::to_string(MCPR_UNAVAILABLE) + " ")) << missing;
    EXPECT_TRUE(contains(missing, "<uri>")) << missing;
    EXPECT_EQ(client_view(r, "doc://hidden"), missing);
    EXPECT_EQ(client_view(r, "doc://secret"), missing);
    // A denied read answers like not found too (BEHAVIOUR §5).
    EXPECT_EQ(client_view(r, "doc://denied"), missing);
}

TEST(HppPlanPolicy, TheRecheckIsAskedThroughDecidePlanAndARevocationThereWins) {
    auto c = std::make_shared<Counts>();
    mcpr::Resources r = registry(plan_form(c));
    EXPECT_EQ(client_view(r, "doc://revoked"), client_view(r, "doc://missing"));
    ASSERT_EQ(c->phases.size(), 2u);  // the first check, the recheck; none for an unregistered URI
    EXPECT_EQ(c->phases[0], MCPR_PHASE_FIRST_CHECK);
    EXPECT_EQ(c->phases[1], MCPR_PHASE_RECHECK);
    // A revoked item of a bundle is left out, like a denied one.
    std::string bundle = outcome(r, "bundle://b/ok+revoked");
    EXPECT_TRUE(contains(bundle, "ok partial")) << bundle;
    EXPECT_TRUE(contains(bundle, "body of item://ok"));
    EXPECT_FALSE(contains(bundle, "body of item://revoked"));
}

TEST(HppPlanPolicy, ASingleItemReadAsksDecidePlanTwiceAndNothingElse) {
    auto c = std::make_shared<Counts>();
    mcpr::Resources r = registry(plan_form(c));
    EXPECT_TRUE(contains(r.read("doc://a").json(), "body of doc://a"));
    EXPECT_EQ(c->plan.load(), 2);
    EXPECT_EQ(c->per_item.load(), 0);
    ASSERT_EQ(c->asked.size(), 2u);
    EXPECT_EQ(c->asked[0], "dri");  // discovery, the requested target, the item
    EXPECT_EQ(c->phases[0], MCPR_PHASE_FIRST_CHECK);
    EXPECT_EQ(c->phases[1], MCPR_PHASE_RECHECK);
    // A resolve of its own: discovery before it, the targets after, the recheck.
    auto c2 = std::make_shared<Counts>();
    mcpr::Resources r2 = registry(plan_form(c2));
    EXPECT_FALSE(r2.read("bundle://b/ok").is_partial());
    EXPECT_EQ(c2->plan.load(), 3);
    EXPECT_EQ(c2->per_item.load(), 0);
    // Listings still ask the per-item discover.
    r2.list({"tenant"});
    EXPECT_EQ(c2->plan.load(), 3);
    EXPECT_GT(c2->per_item.load(), 0);
}

TEST(HppPlanPolicy, WithoutDecidePlanTheReadIsAskedPerItem) {
    auto c = std::make_shared<Counts>();
    mcpr::Resources r = registry(per_item(c));
    r.read("doc://a");
    EXPECT_EQ(c->plan.load(), 0);
    // discover, then visibility and read of the requested target and of the
    // item; twice (the first check and the recheck)
    EXPECT_EQ(c->per_item.load(), 10);
}

TEST(HppPlanPolicy, AnAnswerLeftOutFailsTheReadAsAPolicyFailure) {
    using Fill = std::function<void(const mcpr::Call &, const mcpr::PlanQuestions &, mcpr::PlanDecision &)>;
    std::vector<std::pair<const char *, Fill>> cases = {
        {"nothing", [](const mcpr::Call &, const mcpr::PlanQuestions &, mcpr::PlanDecision &) {}},
        {"no discovery",
         [](const mcpr::Call &, const mcpr::PlanQuestions &q, mcpr::PlanDecision &d) {
             d.requested().set_visible(true);
             d.requested().set_read(mcpr::Result::ok);
             for (std::size_t i = 0; i < q.item_count(); ++i) {
                 d.item(i).set_visible(true);
                 d.item(i).set_read(mcpr::Result::ok);
             }
         }},
        {"no read permission",
         [](const mcpr::Call &, const mcpr::PlanQuestions &q, mcpr::PlanDecision &d) {
             d.set_discover(mcpr::Result::ok);
             d.requested().set_visible(true);
             for (std::size_t i = 0; i < q.item_count(); ++i) d.item(i).set_visible(true);
         }},
        {"visibility undecided",
         [](const mcpr::Call &, const mcpr::PlanQuestions &q, mcpr::PlanDecision &d) {
             d.set_discover(mcpr::Result::ok);
             d.requested().set_visibility(mcpr::Result::ok, mcpr::Visibility{});
             d.requested().set_read(mcpr::Result::ok);
             for (std::size_t i = 0; i < q.item_count(); ++i) {
                 d.item(i).set_visible(true);
                 d.item(i).set_read(mcpr::Result::ok);
             }
         }},
    };
    for (auto &[name, fill] : cases) {
        auto c = std::make_shared<Counts>();
        mcpr::Policy p = per_item(c);
        p.decide_plan = [fill = fill](const mcpr::Call &call, const mcpr::PlanQuestions &q, mcpr::PlanDecision &d) {
            fill(call, q, d);
            return mcpr::Result::ok;
        };
        mcpr::Resources r = registry(std::move(p));
        std::string o = outcome(r, "doc://a");
        EXPECT_TRUE(contains(o, "error " + std::to_string(MCPR_POLICY))) << name << ": " << o;
        EXPECT_EQ(c->per_item.load(), 0) << name;
    }
    // Result::unavailable or failed as the whole answer is a policy failure too.
    for (mcpr::Result whole : {mcpr::Result::unavailable, mcpr::Result::failed}) {
        mcpr::Policy p = plan_form(std::make_shared<Counts>());
        p.decide_plan = [whole](const mcpr::Call &call, const mcpr::PlanQuestions &, mcpr::PlanDecision &d) {
            d.set_discover(mcpr::Result::ok);
            call.set_cause("SECRET-PLAN-CAUSE");
            return whole;
        };
        mcpr::Resources r = registry(std::move(p));
        try {
            r.read("doc://a");
            ADD_FAILURE() << "the read succeeded";
        } catch (const mcpr::Error &e) {
            EXPECT_EQ(e.status(), MCPR_POLICY);
            // Any failing value keeps the cause set (the header's rule).
            EXPECT_TRUE(contains(e.cause(), "SECRET-PLAN-CAUSE")) << e.cause();
            EXPECT_FALSE(contains(e.what(), "SECRET"));
            EXPECT_FALSE(contains(e.jsonrpc_json(), "SECRET"));
        }
    }
}

TEST(HppPlanPolicy, AThrowingDecidePlanIsAPolicyFailureAndNeverEscapes) {
    mcpr::Policy p = plan_form(std::make_shared<Counts>());
    p.decide_plan = [](const mcpr::Call &, const mcpr::PlanQuestions &, mcpr::PlanDecision &d) -> mcpr::Result {
        d.set_discover(mcpr::Result::ok);
        throw std::runtime_error("SECRET-PLAN-THROW");
    };
    mcpr::Resources r = registry(std::move(p));
    try {
        r.read("doc://a");
        ADD_FAILURE() << "the read succeeded";
    } catch (const mcpr::Error &e) {
        EXPECT_EQ(e.status(), MCPR_POLICY);
        EXPECT_TRUE(contains(e.cause(), "SECRET-PLAN-THROW")) << e.cause();
        EXPECT_FALSE(contains(e.what(), "SECRET"));
        EXPECT_FALSE(contains(e.jsonrpc_json(), "SECRET"));
    }
    // A non-std exception, and an item index past the end (std::out_of_range).
    mcpr::Policy q = plan_form(std::make_shared<Counts>());
    q.decide_plan = [](const mcpr::Call &, const mcpr::PlanQuestions &, mcpr::PlanDecision &) -> mcpr::Result {
        throw 42;
    };
    mcpr::Resources r2 = registry(std::move(q));
    EXPECT_TRUE(contains(outcome(r2, "doc://a"), "non-std exception"));
    mcpr::Policy o = plan_form(std::make_shared<Counts>());
    o.decide_plan = [](const mcpr::Call &, const mcpr::PlanQuestions &q, mcpr::PlanDecision &d) {
        d.item(q.item_count()).set_visible(true);
        return mcpr::Result::ok;
    };
    mcpr::Resources r3 = registry(std::move(o));
    std::string out = outcome(r3, "doc://a");
    EXPECT_TRUE(contains(out, "error " + std::to_string(MCPR_POLICY))) << out;
    EXPECT_TRUE(contains(out, "no such item")) << out;
}

TEST(HppPlanPolicy, TheDecidePlanFunctorIsReleasedWithThePolicy) {
    std::weak_ptr<int> alive;
    {
        auto token = std::make_shared<int>(1);
        alive = token;
        mcpr::Policy p = plan_form(std::make_shared<Counts>());
        auto inner = p.decide_plan;
        p.decide_plan = [token, inner](const mcpr::Call &c, const mcpr::PlanQuestions &q, mcpr::PlanDecision &d) {
            return inner(c, q, d);
        };
        mcpr::Resources r = registry(std::move(p));
        token.reset();
        EXPECT_FALSE(alive.expired());
        r.read("doc://a");
    }
    EXPECT_TRUE(alive.expired());
}

}  // namespace
