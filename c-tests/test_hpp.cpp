// The C++ wrapper (include/mcp_resources.hpp), GoogleTest: RAII handles,
// exceptions carrying the whole error, lambdas as policy and binding
// callbacks behind an exception barrier, release exactly once, options as
// C++ structs. Also run under valgrind (memcheck_test_hpp) and ASan/UBSan
// (asan_test_hpp), which fail on any leak or double free.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "mcp_resources.hpp"

namespace {

using namespace std::chrono_literals;

// Counts its own destructions: captured (by shared_ptr) in a callback, it
// dies exactly when the last copy of the functor does.
struct Sentinel {
    explicit Sentinel(std::atomic<int> *c) : count(c) {}
    ~Sentinel() { count->fetch_add(1); }
    Sentinel(const Sentinel &) = delete;
    Sentinel &operator=(const Sentinel &) = delete;
    std::atomic<int> *count;
};

// Scales time bounds under valgrind (MCPR_TEST_SLOW).
std::chrono::milliseconds generous(std::chrono::milliseconds d) {
    return std::getenv("MCPR_TEST_SLOW") ? d * 10 : d;
}

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

mcpr::Resources docs_registry(mcpr::Policy policy = mcpr::Policy::allow_all()) {
    mcpr::Builder b;
    b.set_policy(std::move(policy));
    for (const char *u : {"doc://e", "doc://a", "doc://c", "doc://b", "doc://d", "doc://hidden"})
        b.add(std::string(R"({"uri":")") + u + R"(","name":"n"})", text_binding());
    b.add(R"({"uriTemplate":"note://n/{id}","name":"note"})", text_binding());
    return b.build();
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

// ---------------------------------------------------------------- RAII and release

TEST(Hpp, RaiiFreesEverythingAndReleaseRunsExactlyOnceAfterTheLastReference) {
    std::atomic<int> binding_dead{0}, policy_dead{0};
    {
        mcpr::Resources r(nullptr);
        {
            auto bs = std::make_shared<Sentinel>(&binding_dead);
            auto ps = std::make_shared<Sentinel>(&policy_dead);
            mcpr::Policy p = mcpr::Policy::allow_all();
            p.discover = [ps](const mcpr::Call &, const mcpr::Definition &) { return mcpr::Result::ok; };
            mcpr::Binding bind = text_binding();
            bind.resolve = [bs](const mcpr::Call &, const mcpr::Match &m, mcpr::PlanBuilder &plan) {
                plan.set_requested(m.uri());
                plan.add_item(m.uri());
                return mcpr::Result::ok;
            };
            mcpr::Builder b;
            b.set_policy(std::move(p)).add(R"({"uriTemplate":"note://n/{id}","name":"note"})", std::move(bind));
            r = b.build();
        }
        // The library holds the only copies now.
        EXPECT_EQ(binding_dead.load(), 0);
        EXPECT_EQ(policy_dead.load(), 0);
        mcpr::Resources copy = r;  // a second reference
        {
            mcpr::Bundle bundle = copy.read("note://n/1");
            EXPECT_TRUE(contains(bundle.json(), "body of note://n/1"));
            mcpr::Page page = r.list_templates({"tenant"});
            EXPECT_TRUE(contains(page.json(), "note://n/{id}"));
        }
        r = mcpr::Resources(nullptr);  // drops one reference
        EXPECT_EQ(binding_dead.load(), 0);
        EXPECT_EQ(copy.read("note://n/2").is_partial(), false);
    }
    EXPECT_EQ(binding_dead.load(), 1);
    EXPECT_EQ(policy_dead.load(), 1);
}

TEST(Hpp, ReleaseRunsExactlyOnceWhenTheBuilderIsDroppedUnbuiltOrTheBuildFails) {
    std::atomic<int> dead{0};
    {
        mcpr::Builder b;
        auto s = std::make_shared<Sentinel>(&dead);
        mcpr::Binding bind;
        bind.read = [s](const mcpr::Call &, const mcpr::Target &, mcpr::PayloadBuilder &) { return mcpr::Result::ok; };
        b.add(R"({"uri":"doc://a","name":"a"})", std::move(bind));
        s.reset();
        EXPECT_EQ(dead.load(), 0);
    }
    EXPECT_EQ(dead.load(), 1);

    // build without a policy fails, and consumes the binding
    std::atomic<int> dead2{0};
    mcpr::Builder b;
    {
        auto s = std::make_shared<Sentinel>(&dead2);
        mcpr::Binding bind;
        bind.read = [s](const mcpr::Call &, const mcpr::Target &, mcpr::PayloadBuilder &) { return mcpr::Result::ok; };
        b.add(R"({"uri":"doc://a","name":"a"})", std::move(bind));
    }
    mcpr::Error e = error_of([&] { b.build(); });
    EXPECT_NE(e.status(), MCPR_OK);
    EXPECT_EQ(dead2.load(), 1);
    // build() consumed the C builder: further use throws
    EXPECT_EQ(error_of([&] { b.build(); }).status(), MCPR_INVALID_ARGUMENT);
}

TEST(Hpp, ARefusedRegistrationDestroysTheFunctorsAtOnceAndThrows) {
    std::atomic<int> dead{0};
    mcpr::Builder b;
    {
        auto s = std::make_shared<Sentinel>(&dead);
        mcpr::Binding bind;
        bind.read = [s](const mcpr::Call &, const mcpr::Target &, mcpr::PayloadBuilder &) { return mcpr::Result::ok; };
        mcpr::Error e = error_of([&] { b.add("not json", std::move(bind)); });
        EXPECT_EQ(e.status(), MCPR_INVALID_CONFIGURATION);
        EXPECT_FALSE(std::string(e.what()).empty());
    }
    EXPECT_EQ(dead.load(), 1);
    // a binding without a read callback is refused before the library sees it
    EXPECT_EQ(error_of([&] { b.add(R"({"uri":"doc://a","name":"a"})", mcpr::Binding()); }).status(),
              MCPR_INVALID_CONFIGURATION);
}

TEST(Hpp, MovesTransferOwnershipAndCopiesOfResourcesAreReferences) {
    mcpr::Builder b1;
    b1.set_policy(mcpr::Policy::allow_all()).add(R"({"uri":"doc://a","name":"a"})", text_binding());
    mcpr::Builder b2 = std::move(b1);
    EXPECT_EQ(b1.get(), nullptr);
    mcpr::Resources r = b2.build();
    mcpr::Resources moved = std::move(r);
    EXPECT_FALSE(static_cast<bool>(r));
    ASSERT_TRUE(static_cast<bool>(moved));
    mcpr::Resources copy(moved);
    EXPECT_EQ(copy.get(), moved.get());  // the same registry, another reference
    EXPECT_EQ(copy.content_hash(), moved.content_hash());
    mcpr::Resources assigned = docs_registry();
    assigned = copy;  // frees the registry it held
    copy = std::move(moved);
    EXPECT_TRUE(contains(assigned.read("doc://a").json(), "body of doc://a"));

    mcpr::Bundle bundle = copy.read("doc://a");
    mcpr::Bundle bundle2 = std::move(bundle);
    EXPECT_EQ(bundle.get(), nullptr);
    EXPECT_TRUE(contains(bundle2.json(), "body of doc://a"));
    bundle2 = copy.read("doc://a");  // frees the previous bundle

    mcpr::Cancel c1;
    mcpr::Cancel c2 = std::move(c1);
    EXPECT_EQ(c1.get(), nullptr);
    EXPECT_FALSE(c2.is_canceled());
    c2.cancel();
    EXPECT_TRUE(c2.is_canceled());

    mcpr::Executor e1(mcpr::ExecutorOptions{2, 0, 0});
    mcpr::Executor e2 = std::move(e1);
    EXPECT_EQ(e1.get(), nullptr);
    EXPECT_EQ(e2.stats().threads, 2u);
}

// ---------------------------------------------------------------- errors

TEST(Hpp, ErrorsThrowWithStatusMessageCauseCodeAndTheNotFoundObject) {
    mcpr::Resources r = docs_registry();
    mcpr::Error nf = error_of([&] { r.read("doc://nothing"); });
    EXPECT_EQ(nf.status(), MCPR_UNAVAILABLE);
    EXPECT_EQ(nf.jsonrpc_code(), -32602);
    EXPECT_EQ(nf.jsonrpc_json(), R"({"code":-32602,"message":"Resource not found","data":{"uri":"doc://nothing"}})");
    EXPECT_EQ(nf.message(), "resource unavailable");
    EXPECT_STREQ(nf.what(), "resource unavailable");

    mcpr::ReadOptions old;
    old.protocol_revision = "2025-06-18";
    mcpr::Error nf_old = error_of([&] { r.read("doc://nothing", old); });
    EXPECT_EQ(nf_old.jsonrpc_code(), -32002);
    EXPECT_TRUE(contains(nf_old.jsonrpc_json(), R"("code":-32002)"));

    mcpr::Error bad = error_of([&] { r.read("note://n/a b"); });
    EXPECT_EQ(bad.status(), MCPR_INVALID_REQUEST);
    EXPECT_EQ(bad.jsonrpc_code(), -32602);

    mcpr::ReadOptions unknown;
    unknown.protocol_revision = "1999-01-01";
    EXPECT_EQ(error_of([&] { r.read("doc://a", unknown); }).status(), MCPR_INVALID_ARGUMENT);

    mcpr::ReadOptions negative;
    negative.timeout = -1ms;
    EXPECT_EQ(error_of([&] { r.read("doc://a", negative); }).status(), MCPR_INVALID_ARGUMENT);

    // No scope key: a host mistake, the same status from every entry point.
    EXPECT_EQ(error_of([&] { r.list({}); }).status(), MCPR_INVALID_ARGUMENT);
    EXPECT_EQ(error_of([&] { r.list_templates({}); }).status(), MCPR_INVALID_ARGUMENT);
    EXPECT_EQ(error_of([&] { r.request("resources/list", "{}"); }).status(), MCPR_INVALID_ARGUMENT);
    mcpr::ListOptions bad_cursor{"tenant"};
    bad_cursor.cursor = "garbage";
    mcpr::Error ce = error_of([&] { r.list(bad_cursor); });
    EXPECT_EQ(ce.status(), MCPR_INVALID_REQUEST);
    EXPECT_TRUE(contains(ce.jsonrpc_json(), "Invalid cursor"));

    EXPECT_EQ(error_of([&] { mcpr::Builder().set_limit(9999, 1); }).status(), MCPR_INVALID_ARGUMENT);
}

TEST(Hpp, NoHostSideErrorReachesAClientAsCodeZeroOrWithItsOwnText) {
    mcpr::Resources r = docs_registry();
    const std::string internal = R"({"code":-32603,"message":"internal error"})";
    // Raised by the wrapper itself (no mcpr_error behind them).
    mcpr::ReadOptions negative;
    negative.timeout = -1ms;
    mcpr::Error wrapper = error_of([&] { r.read("doc://a", negative); });
    EXPECT_EQ(wrapper.jsonrpc_code(), -32603);
    EXPECT_EQ(wrapper.jsonrpc_json(), internal);
    mcpr::Error no_read = error_of([&] { mcpr::Builder().add(R"({"uri":"doc://x","name":"x"})", mcpr::Binding{}); });
    EXPECT_EQ(no_read.jsonrpc_json(), internal);
    // Host mistakes the library reports: its fixed object, never the message.
    mcpr::Error no_scope = error_of([&] { r.list({}); });
    EXPECT_EQ(no_scope.jsonrpc_code(), -32603);
    EXPECT_EQ(no_scope.jsonrpc_json(), internal);
    // Built from parts: code 0 and an empty object are never kept.
    mcpr::Error zero(MCPR_INTERNAL, "disk on fire at /srv/x", "cause", 0, "");
    EXPECT_EQ(zero.jsonrpc_code(), -32603);
    EXPECT_EQ(zero.jsonrpc_json(), internal);
    mcpr::Error unhandled(MCPR_METHOD_NOT_HANDLED, "MCPR_METHOD_NOT_HANDLED", "", -32601, "");
    EXPECT_EQ(unhandled.jsonrpc_json(), R"({"code":-32601,"message":"Method not found"})");
}

TEST(Hpp, AThrowingResolveFailsTheReadWithItsWhatAsThePrivateCause) {
    mcpr::Builder b;
    mcpr::Binding bind = text_binding();
    bind.resolve = [](const mcpr::Call &, const mcpr::Match &, mcpr::PlanBuilder &) -> mcpr::Result {
        throw std::runtime_error("SECRET-RESOLVE");
    };
    b.set_policy(mcpr::Policy::allow_all()).add(R"({"uri":"doc://a","name":"a"})", std::move(bind));
    mcpr::Resources r = b.build();
    mcpr::Error e = error_of([&] { r.read("doc://a"); });
    EXPECT_EQ(e.status(), MCPR_INVALID_PLAN);
    EXPECT_TRUE(contains(e.cause(), "SECRET-RESOLVE")) << e.cause();
    EXPECT_FALSE(contains(e.what(), "SECRET"));
    EXPECT_FALSE(contains(e.jsonrpc_json(), "SECRET"));
    EXPECT_EQ(e.jsonrpc_code(), -32603);
}

// ---------------------------------------------------------------- policy

TEST(Hpp, ALambdaPolicyHidesAnItemFromListAndRead) {
    mcpr::Policy p = mcpr::Policy::allow_all();
    p.discover = [](const mcpr::Call &, const mcpr::Definition &d) {
        return d.uri() == "doc://hidden" ? mcpr::Result::unavailable : mcpr::Result::ok;
    };
    p.visibility = [](const mcpr::Call &, const mcpr::Target &t, mcpr::Visibility &v) {
        v.visible = t.uri() != "doc://hidden";
        return mcpr::Result::ok;
    };
    mcpr::Resources r = docs_registry(std::move(p));
    mcpr::Page page = r.list({"tenant"});
    EXPECT_TRUE(contains(page.json(), "doc://a"));
    EXPECT_FALSE(contains(page.json(), "hidden"));
    mcpr::Error hidden = error_of([&] { r.read("doc://hidden"); });
    mcpr::Error missing = error_of([&] { r.read("doc://missing"); });
    EXPECT_EQ(hidden.status(), MCPR_UNAVAILABLE);
    EXPECT_EQ(hidden.jsonrpc_code(), missing.jsonrpc_code());
    EXPECT_EQ(hidden.what(), std::string(missing.what()));
    EXPECT_TRUE(contains(r.read("doc://a").json(), "body of doc://a"));
}

TEST(Hpp, AVisibilityLambdaThatDecidesNothingNeverShowsTheTarget) {
    mcpr::Policy p = mcpr::Policy::allow_all();
    p.visibility = [](const mcpr::Call &, const mcpr::Target &, mcpr::Visibility &) { return mcpr::Result::ok; };
    mcpr::Resources r = docs_registry(std::move(p));
    mcpr::Error e = error_of([&] { r.read("doc://a"); });
    EXPECT_EQ(e.status(), MCPR_POLICY);
    EXPECT_TRUE(contains(e.cause(), "without deciding")) << e.cause();
}

TEST(Hpp, AnEmptyPolicyFailsClosed) {
    mcpr::Resources r = docs_registry(mcpr::Policy());
    EXPECT_EQ(error_of([&] { r.read("doc://a"); }).status(), MCPR_UNAVAILABLE);
    EXPECT_FALSE(contains(r.list({"tenant"}).json(), "doc://"));
}

TEST(Hpp, AThrowingPolicyCallbackFailsTheCallWithPolicyAndNeverEscapes) {
    mcpr::Policy p = mcpr::Policy::allow_all();
    p.visibility = [](const mcpr::Call &, const mcpr::Target &, mcpr::Visibility &) -> mcpr::Result {
        throw std::runtime_error("SECRET-VISIBILITY");
    };
    mcpr::Resources r = docs_registry(std::move(p));
    mcpr::Error e = error_of([&] { r.read("doc://a"); });
    EXPECT_EQ(e.status(), MCPR_POLICY);
    EXPECT_TRUE(contains(e.cause(), "SECRET-VISIBILITY")) << e.cause();
    EXPECT_FALSE(contains(e.what(), "SECRET"));

    mcpr::Policy q = mcpr::Policy::allow_all();
    q.discover = [](const mcpr::Call &, const mcpr::Definition &) -> mcpr::Result { throw 42; };
    mcpr::Resources r2 = docs_registry(std::move(q));
    mcpr::Error le = error_of([&] { r2.list({"tenant"}); });
    EXPECT_EQ(le.status(), MCPR_POLICY);
    EXPECT_TRUE(contains(le.cause(), "non-std exception")) << le.cause();
}

// ---------------------------------------------------------------- readers

mcpr::Resources bundle_registry(const mcpr::Policy &policy) {
    mcpr::Binding bind;
    bind.resolve = [](const mcpr::Call &, const mcpr::Match &m, mcpr::PlanBuilder &plan) {
        plan.set_requested(m.uri());
        if (m.capture("kind") == std::optional<std::string_view>("all")) {
            plan.add_item("item://ok");
            plan.add_item("item://throw");
        } else {
            plan.add_item("item://throw");
        }
        return mcpr::Result::ok;
    };
    bind.read = [](const mcpr::Call &, const mcpr::Target &t, mcpr::PayloadBuilder &out) {
        if (t.uri() == "item://throw") throw std::runtime_error("SECRET-READER");
        out.set_text("text/plain", "fine");
        return mcpr::Result::ok;
    };
    mcpr::Builder b;
    b.set_policy(policy).add(R"({"uriTemplate":"bundle://b/{kind}","name":"b"})", std::move(bind));
    return b.build();
}

TEST(Hpp, AThrowingReaderBecomesAReadFailedItemOrAFailingReadAndNeverEscapes) {
    mcpr::Resources r = bundle_registry(mcpr::Policy::allow_all());
    mcpr::Executor ex;
    for (const mcpr::Executor *e : std::vector<const mcpr::Executor *>{nullptr, &ex}) {
        mcpr::ReadOptions o;
        o.executor = e;
        mcpr::Bundle partial = r.read("bundle://b/all", o);
        EXPECT_TRUE(partial.is_partial());
        EXPECT_TRUE(contains(partial.json(), R"("code":"read_failed")"));
        EXPECT_TRUE(contains(partial.json(), "fine"));
        EXPECT_FALSE(contains(partial.json(), "SECRET"));

        mcpr::Error failed = error_of([&] { r.read("bundle://b/one", o); });
        EXPECT_EQ(failed.status(), MCPR_READ_FAILED);
        EXPECT_EQ(failed.jsonrpc_code(), -32603);
        EXPECT_FALSE(contains(failed.what(), "SECRET"));
        EXPECT_TRUE(contains(failed.cause(), "SECRET-READER")) << failed.cause();
    }
}

TEST(Hpp, PayloadBuilderSetsBlobMetaAndCacheHints) {
    mcpr::Binding bind;
    bind.read = [](const mcpr::Call &call, const mcpr::Target &t, mcpr::PayloadBuilder &out) {
        EXPECT_GT(call.max_bytes(), 0u);
        EXPECT_GT(call.remaining().count(), 0);
        EXPECT_FALSE(call.is_canceled());
        EXPECT_EQ(t.representation(), "default");
        const unsigned char bytes[] = {0, 1, 2, 255};
        out.set_blob("application/octet-stream", bytes, sizeof bytes);
        out.set_meta(R"({"k":"v"})");
        out.set_cache_hints({5000ms, true});
        return mcpr::Result::ok;
    };
    mcpr::Builder b;
    b.set_policy(mcpr::Policy::allow_all())
        .set_cache_hints(60000ms, true)
        .add(R"({"uri":"doc://bin","name":"bin"})", std::move(bind), mcpr::CacheHints{10000ms, true});
    mcpr::Resources r = b.build();
    mcpr::Bundle bundle = r.read("doc://bin");
    EXPECT_TRUE(contains(bundle.json(), R"("blob":"AAEC/w==","_meta":{"k":"v"})")) << bundle.json();
    EXPECT_TRUE(contains(bundle.json(), R"("ttlMs":5000,"cacheScope":"public")")) << bundle.json();
}

static std::shared_ptr<std::string> lent_owner;

TEST(Hpp, PayloadBuilderLendsTextWithoutACopyAndDropsItsOwnerOnce) {
    lent_owner = std::make_shared<std::string>("lent \"text\"\n");
    mcpr::Binding bind;
    bind.read = [](const mcpr::Call &, const mcpr::Target &t, mcpr::PayloadBuilder &out) {
        const std::shared_ptr<std::string> &owner = lent_owner;
        if (t.uri() == "doc://static") {
            out.set_text_static("text/plain", "static text");
        } else if (t.uri() == "doc://lent") {
            out.set_text_borrowed("text/plain", *owner, owner);
        } else {
            out.set_text("text/plain", "one");
            // A second body is refused: the held reference is dropped at once.
            EXPECT_THROW(out.set_text_borrowed("text/plain", *owner, owner), mcpr::Error);
        }
        return mcpr::Result::ok;
    };
    auto resolve = [](const mcpr::Call &, const mcpr::Match &, mcpr::PlanBuilder &plan) {
        plan.set_requested("doc://all");
        plan.add_item("doc://static");
        plan.add_item("doc://lent");
        plan.add_item("doc://twice");
        return mcpr::Result::ok;
    };
    bind.resolve = resolve;
    mcpr::Builder b;
    b.set_policy(mcpr::Policy::allow_all()).add(R"({"uri":"doc://all","name":"all"})", std::move(bind));
    mcpr::Resources r = b.build();
    {
        mcpr::Bundle bundle = r.read("doc://all");
        EXPECT_TRUE(contains(bundle.json(), R"({"uri":"doc://static","mimeType":"text/plain","text":"static text"})"))
            << bundle.json();
        EXPECT_TRUE(contains(bundle.json(), R"({"uri":"doc://lent","mimeType":"text/plain","text":"lent \"text\"\n"})"))
            << bundle.json();
        EXPECT_TRUE(contains(bundle.json(), R"("code":"invalid_content")")) << bundle.json();
    }
    // Every reference lent to the library is gone once the bundle is.
    EXPECT_EQ(lent_owner.use_count(), 1);
    lent_owner.reset();
}

TEST(Hpp, ASizeHintReplacesTheExactMeasurement) {
    auto hint = std::make_shared<std::optional<std::uint64_t>>(std::uint64_t{1} << 40);
    auto seen = std::make_shared<std::atomic<int>>(0);
    mcpr::Binding bind = text_binding();
    bind.size_hint = [hint, seen](const mcpr::Target &t, std::uint64_t payload_bytes, bool is_blob) {
        EXPECT_EQ(t.uri(), "doc://sized");
        EXPECT_EQ(payload_bytes, std::string("body of doc://sized").size());
        EXPECT_FALSE(is_blob);
        ++*seen;
        return *hint;
    };
    mcpr::Builder b;
    b.set_policy(mcpr::Policy::allow_all()).add(R"({"uri":"doc://sized","name":"s"})", std::move(bind));
    mcpr::Resources r = b.build();
    // an estimate above the encoded budget refuses an item whose exact size fits
    EXPECT_EQ(error_of([&] { r.read("doc://sized"); }).status(), MCPR_BUDGET_EXCEEDED);
    // no estimate: the exact size counts
    *hint = std::nullopt;
    EXPECT_TRUE(contains(r.read("doc://sized").json(), "body of doc://sized"));
    EXPECT_EQ(seen->load(), 2);
}

TEST(Hpp, AReaderReturningInvalidContentMakesAnInvalidContentItemAndSeesItsPhase) {
    mcpr::Binding bind;
    bind.resolve = [](const mcpr::Call &call, const mcpr::Match &m, mcpr::PlanBuilder &plan) {
        EXPECT_EQ(call.phase(), static_cast<mcpr_phase>(MCPR_PHASE_RESOLVE));
        plan.set_requested(m.uri());
        plan.add_item("item://good");
        plan.add_item("item://bad");
        return mcpr::Result::ok;
    };
    bind.read = [](const mcpr::Call &call, const mcpr::Target &t, mcpr::PayloadBuilder &out) {
        EXPECT_EQ(call.phase(), static_cast<mcpr_phase>(MCPR_PHASE_BODY_READ));
        if (t.uri() == "item://bad") return mcpr::Result::invalid_content;
        out.set_text("text/plain", "good");
        return mcpr::Result::ok;
    };
    mcpr::Builder b;
    b.set_policy(mcpr::Policy::allow_all()).add(R"({"uri":"doc://pair","name":"p"})", std::move(bind));
    mcpr::Bundle bundle = b.build().read("doc://pair");
    EXPECT_TRUE(bundle.is_partial());
    EXPECT_TRUE(contains(bundle.json(), R"("code":"invalid_content")")) << bundle.json();
}

TEST(Hpp, StatusNamesAreTheEnumeratorNames) {
    EXPECT_EQ(mcpr::status_name(MCPR_OK), "MCPR_OK");
    EXPECT_EQ(mcpr::status_name(MCPR_METHOD_NOT_HANDLED), "MCPR_METHOD_NOT_HANDLED");
}

TEST(Hpp, ARefusedPayloadSetterThrowsInsideTheReaderAndFailsTheItem) {
    mcpr::Binding bind;
    bind.read = [](const mcpr::Call &, const mcpr::Target &, mcpr::PayloadBuilder &out) {
        out.set_meta("[1]");  // not an object: refused, throws
        return mcpr::Result::ok;
    };
    mcpr::Builder b;
    b.set_policy(mcpr::Policy::allow_all()).add(R"({"uri":"doc://x","name":"x"})", std::move(bind));
    mcpr::Resources r = b.build();
    EXPECT_NE(error_of([&] { r.read("doc://x"); }).status(), MCPR_OK);
}

// ---------------------------------------------------------------- listing

TEST(Hpp, ListPaginationFollowsNextCursorsToTheEnd) {
    mcpr::Policy p = mcpr::Policy::allow_all();
    p.discover = [](const mcpr::Call &, const mcpr::Definition &d) {
        return d.uri() == "doc://hidden" ? mcpr::Result::unavailable : mcpr::Result::ok;
    };
    mcpr::Resources r = docs_registry(std::move(p));
    std::string cursor;
    std::string all;
    int pages = 0;
    do {
        mcpr::ListOptions o{"tenant"};
        o.cursor = cursor;
        o.page_size = 2;
        mcpr::Page page = r.list(o);
        all += page.json();
        cursor = std::string(page.next_cursor());
        ++pages;
        ASSERT_LT(pages, 10);
    } while (!cursor.empty());
    EXPECT_EQ(pages, 3);
    std::size_t last = 0;
    for (const char *u : {"doc://a", "doc://b", "doc://c", "doc://d", "doc://e"}) {
        std::size_t at = all.find(u);
        ASSERT_NE(at, std::string::npos) << u;
        EXPECT_GE(at, last);
        last = at;
    }
    EXPECT_FALSE(contains(all, "hidden"));
    mcpr::Page templates = r.list_templates({"tenant"});
    EXPECT_TRUE(contains(templates.json(), R"("uriTemplate":"note://n/{id}")"));
    EXPECT_TRUE(templates.next_cursor().empty());
}

// set_clock takes a pointer to a noexcept function: the C clock has no way
// to report a failure and no release, so a throwing clock could only abort
// the process; the compiler refuses one instead.
template <class Clock>
auto takes_clock(int) -> decltype(std::declval<mcpr::Builder &>().set_clock(std::declval<Clock>(), nullptr),
                                  std::true_type{});
template <class Clock> std::false_type takes_clock(...);
using ThrowingClock = std::uint64_t (*)(void *);
using NoexceptClock = std::uint64_t (*)(void *) noexcept;
static_assert(decltype(takes_clock<NoexceptClock>(0))::value, "a noexcept clock is accepted");
static_assert(!decltype(takes_clock<ThrowingClock>(0))::value, "a clock that may throw does not compile");

TEST(Hpp, ACursorExpiresByTheRegistrysClockAndAKeyMakesReplicasAgree) {
    static std::atomic<std::uint64_t> now{1700000000000ULL};
    auto clock = [](void *) noexcept -> std::uint64_t { return now.load(); };
    auto make = [&] {
        mcpr::Builder b;
        b.set_policy(mcpr::Policy::allow_all()).set_clock(clock, nullptr).set_cursor_key(std::string(32, '\x07'));
        for (const char *u : {"doc://a", "doc://b", "doc://c"})
            b.add(std::string(R"({"uri":")") + u + R"(","name":"n"})", text_binding());
        return b.build();
    };
    mcpr::Resources r = make(), replica = make();
    mcpr::ListOptions o{"tenant"};
    o.page_size = 1;
    std::string cursor(r.list(o).next_cursor());
    ASSERT_FALSE(cursor.empty());
    o.cursor = cursor;
    EXPECT_TRUE(contains(replica.list(o).json(), "doc://b"));
    now += 11ULL * 60 * 1000;  // past the ten-minute lifetime
    mcpr::Error e = error_of([&] { r.list(o); });
    EXPECT_EQ(e.status(), MCPR_INVALID_REQUEST);
    EXPECT_EQ(e.jsonrpc_code(), -32602);
    EXPECT_EQ(error_of([&] { mcpr::Builder().set_cursor_key("short"); }).status(), MCPR_INVALID_CONFIGURATION);
}

// ---------------------------------------------------------------- one call

TEST(Hpp, TheOneCallRequestServesReadAndListAndThrowsForOtherMethods) {
    mcpr::Resources r = docs_registry();
    mcpr::RequestOptions o;
    o.scope_key = "tenant";
    mcpr::Response read = r.request("resources/read", R"({"uri":"doc://a"})", o);
    EXPECT_FALSE(read.is_error());
    EXPECT_EQ(read.status(), MCPR_OK);
    EXPECT_TRUE(contains(read.json(), "body of doc://a"));

    mcpr::Response list = r.request("resources/list", "", o);
    EXPECT_FALSE(list.is_error());
    EXPECT_TRUE(contains(list.json(), R"("resources":[)"));

    mcpr::Response nf = r.request("resources/read", R"({"uri":"doc://nothing"})", o);
    EXPECT_TRUE(nf.is_error());
    EXPECT_EQ(nf.status(), MCPR_UNAVAILABLE);
    EXPECT_EQ(nf.json(), R"({"code":-32602,"message":"Resource not found","data":{"uri":"doc://nothing"}})");

    mcpr::Response malformed = r.request("resources/read", "not json", o);
    EXPECT_TRUE(malformed.is_error());
    EXPECT_TRUE(contains(malformed.json(), "-32602"));

    mcpr::Error other = error_of([&] { r.request("tools/list", "{}", o); });
    EXPECT_EQ(other.status(), MCPR_METHOD_NOT_HANDLED);
    EXPECT_EQ(other.jsonrpc_code(), -32601);
}

// ---------------------------------------------------------------- result _meta and trace context

TEST(Hpp, ResultMetaIsMergedIntoEveryResultAndCallsSeeTheTraceContext) {
    mcpr::ResultMeta meta(R"({"io.modelcontextprotocol/serverInfo":{"name":"cpp","version":"1"}})");
    EXPECT_EQ(meta.members(), R"("io.modelcontextprotocol/serverInfo":{"name":"cpp","version":"1"})");
    EXPECT_EQ(error_of([] { mcpr::ResultMeta bad(R"({"go.phpboyscout.uk/mcp.resourceRead":1})"); }).status(),
              MCPR_INVALID_CONFIGURATION);
    EXPECT_EQ(error_of([] { mcpr::ResultMeta bad("[]"); }).status(), MCPR_INVALID_CONFIGURATION);

    auto seen = std::make_shared<std::vector<std::string>>();
    auto mu = std::make_shared<std::mutex>();
    mcpr::Policy p = mcpr::Policy::allow_all();
    p.discover = [seen, mu](const mcpr::Call &c, const mcpr::Definition &) {
        std::lock_guard<std::mutex> g(*mu);
        seen->push_back(std::string(c.traceparent()) + "|" + std::string(c.tracestate()) + "|" +
                        std::string(c.baggage()));
        return mcpr::Result::ok;
    };
    mcpr::Resources r = docs_registry(std::move(p));
    mcpr::RequestOptions o;
    o.scope_key = "tenant";
    o.result_meta = &meta;
    mcpr::Response read = r.request(
        "resources/read", R"({"uri":"doc://a","_meta":{"traceparent":"00-ab-cd-01","baggage":"k=v"}})", o);
    EXPECT_FALSE(read.is_error());
    EXPECT_TRUE(contains(read.json(), R"("_meta":{"go.phpboyscout.uk/mcp.resourceRead":{"version":1,)"));
    EXPECT_TRUE(contains(read.json(), R"("io.modelcontextprotocol/serverInfo":{"name":"cpp","version":"1"})"));
    mcpr::Response list = r.request("resources/list", "{}", o);
    EXPECT_TRUE(contains(list.json(), R"(,"_meta":{"io.modelcontextprotocol/serverInfo")"));
    mcpr::Response nf = r.request("resources/read", R"({"uri":"doc://nothing"})", o);
    EXPECT_FALSE(contains(nf.json(), "serverInfo"));

    mcpr::ReadOptions ro;
    ro.result_meta = &meta;
    EXPECT_TRUE(contains(r.read("doc://a", ro).json(), "serverInfo"));
    mcpr::ListOptions lo;
    lo.scope_key = "tenant";
    lo.result_meta = &meta;
    EXPECT_TRUE(contains(r.list(lo).json(), "serverInfo"));

    std::lock_guard<std::mutex> g(*mu);
    ASSERT_FALSE(seen->empty());
    EXPECT_EQ(seen->front(), "00-ab-cd-01||k=v");
    EXPECT_EQ(seen->back(), "||");  // the direct list: no trace members
}

TEST(Hpp, TheOptionsTraceContextReachesTheCallbacksOfEveryCall) {
    auto seen = std::make_shared<std::vector<std::string>>();
    auto mu = std::make_shared<std::mutex>();
    mcpr::Policy p = mcpr::Policy::allow_all();
    p.discover = [seen, mu](const mcpr::Call &c, const mcpr::Definition &) {
        std::lock_guard<std::mutex> g(*mu);
        seen->push_back(std::string(c.traceparent()) + "|" + std::string(c.tracestate()) + "|" +
                        std::string(c.baggage()));
        return mcpr::Result::ok;
    };
    mcpr::Resources r = docs_registry(std::move(p));
    // Every discover of one call saw `want`.
    auto all_saw = [seen, mu](const std::string &want) {
        std::lock_guard<std::mutex> g(*mu);
        bool ok = !seen->empty();
        for (const std::string &s : *seen) ok = ok && s == want;
        seen->clear();
        return ok;
    };
    const mcpr::TraceContext host{"00-ab-cd-01", "v=1", ""};
    mcpr::ReadOptions ro;
    ro.trace = host;
    r.read("doc://a", ro);
    EXPECT_TRUE(all_saw("00-ab-cd-01|v=1|"));
    mcpr::ListOptions lo{"tenant"};
    lo.trace = host;
    r.list(lo);
    EXPECT_TRUE(all_saw("00-ab-cd-01|v=1|"));
    mcpr::RequestOptions o;
    o.scope_key = "tenant";
    o.trace = host;
    r.request("resources/list", "{}", o);  // the host's
    EXPECT_TRUE(all_saw("00-ab-cd-01|v=1|"));
    r.request("resources/list", R"({"_meta":{"baggage":"from-params"}})", o);  // the params'
    EXPECT_TRUE(all_saw("||from-params"));
    r.read("doc://a");
    EXPECT_TRUE(all_saw("||"));
    ro.trace.baggage = std::string_view("\xff", 1);
    EXPECT_EQ(error_of([&] { r.read("doc://a", ro); }).status(), MCPR_INVALID_ARGUMENT);
}

TEST(Hpp, TheOneCallMessageAnswersWholeMessagesAndHandsTheRestToTheHost) {
    mcpr::Resources r = docs_registry();
    mcpr::RequestOptions o;
    o.scope_key = "tenant";
    mcpr::Reply read = r.message(R"({"jsonrpc":"2.0","id":"r\u0031","method":"resources/read","params":{"uri":"doc://a"}})", o);
    EXPECT_TRUE(read.handled());
    EXPECT_EQ(read.kind(), mcpr::MessageKind::request);
    EXPECT_TRUE(contains(read.json(), R"({"jsonrpc":"2.0","id":"r\u0031","result":{"contents":)"));
    EXPECT_TRUE(contains(read.json(), "body of doc://a"));
    EXPECT_EQ(read.id(), R"("r\u0031")");
    EXPECT_EQ(read.method(), "resources/read");
    EXPECT_EQ(read.status(), MCPR_OK);
    EXPECT_FALSE(read.is_error() || read.is_partial());

    mcpr::Reply nf = r.message(R"({"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"doc://nothing"}})", o);
    EXPECT_EQ(nf.json(),
              R"({"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Resource not found","data":{"uri":"doc://nothing"}}})");
    EXPECT_TRUE(nf.is_error());
    EXPECT_EQ(nf.status(), MCPR_UNAVAILABLE);
    EXPECT_FALSE(nf.cause().empty());

    mcpr::Reply garbage = r.message("garbage", o);
    EXPECT_EQ(garbage.json(), R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})");
    EXPECT_EQ(garbage.kind(), mcpr::MessageKind::invalid);

    mcpr::Reply tools = r.message(R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"x"}})", o);
    EXPECT_FALSE(tools.handled());
    EXPECT_TRUE(tools.json().empty());
    EXPECT_EQ(tools.method(), "tools/list");
    EXPECT_EQ(tools.id(), "3");
    EXPECT_EQ(tools.params(), R"({"cursor":"x"})");

    mcpr::Reply note = r.message(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", o);
    EXPECT_EQ(note.kind(), mcpr::MessageKind::notification);
    EXPECT_FALSE(note.handled());
    EXPECT_TRUE(note.json().empty() && note.id().empty());

    mcpr::Reply blank = r.message(" \n", o);
    EXPECT_EQ(blank.kind(), mcpr::MessageKind::none);
    EXPECT_TRUE(blank.handled() && blank.json().empty());

    // A list without a scope key is the host's bug: it throws.
    mcpr::Error bug = error_of([&] { r.message(R"({"jsonrpc":"2.0","id":4,"method":"resources/list"})"); });
    EXPECT_EQ(bug.status(), MCPR_INVALID_ARGUMENT);
    // A moved-from reply is empty.
    mcpr::Reply moved = std::move(tools);
    EXPECT_EQ(moved.method(), "tools/list");
    EXPECT_TRUE(tools.method().empty());
}

// ---------------------------------------------------------------- executor, cancellation

TEST(Hpp, WithAnExecutorAReadReturnsByItsDeadlineWhileAReaderHangsThenReleaseRunsOnce) {
    struct Gate {
        std::atomic<bool> open{false};
        std::atomic<bool> entered{false};
    };
    auto gate = std::make_shared<Gate>();
    std::atomic<int> dead{0};
    auto sentinel = std::make_shared<Sentinel>(&dead);
    mcpr::Binding bind;
    bind.read = [gate, sentinel](const mcpr::Call &, const mcpr::Target &, mcpr::PayloadBuilder &out) {
        gate->entered = true;
        while (!gate->open) std::this_thread::sleep_for(2ms);  // ignores cancellation
        out.set_text("text/plain", "late");
        return mcpr::Result::ok;
    };
    sentinel.reset();
    {
        mcpr::Builder b;
        b.set_policy(mcpr::Policy::allow_all()).add(R"({"uri":"doc://hang","name":"h"})", std::move(bind));
        mcpr::Resources r = b.build();
        mcpr::Executor ex(mcpr::ExecutorOptions{2, 0, 0});
        mcpr::ReadOptions o;
        o.executor = &ex;
        o.timeout = 200ms;
        auto t0 = std::chrono::steady_clock::now();
        mcpr::Error e = error_of([&] { r.read("doc://hang", o); });
        EXPECT_LT(std::chrono::steady_clock::now() - t0, generous(5000ms));
        EXPECT_TRUE(e.status() == MCPR_TIMEOUT || e.status() == MCPR_DEADLINE_EXCEEDED) << e.status();
        EXPECT_TRUE(gate->entered.load());
        // The abandoned reader shows in the statistics: hung now, and in
        // the high-water marks.
        mcpr_executor_stats st = ex.stats();
        EXPECT_EQ(st.hung, 1u);
        EXPECT_EQ(st.hung_high_water, 1u);
        EXPECT_GE(st.busy_high_water, 1u);
        EXPECT_EQ(st.saturations, 0u);
        EXPECT_EQ(st.refused_queue_full, 0u);
    }
    // registry and executor handles are gone; the abandoned reader still runs
    EXPECT_EQ(dead.load(), 0);
    gate->open = true;
    auto until = std::chrono::steady_clock::now() + generous(10000ms);
    while (dead.load() == 0 && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(5ms);
    EXPECT_EQ(dead.load(), 1);
}

TEST(Hpp, ACancelTokenStopsAReadFromAnotherThread) {
    mcpr::Binding bind;
    bind.read = [](const mcpr::Call &call, const mcpr::Target &, mcpr::PayloadBuilder &) {
        while (!call.is_canceled()) std::this_thread::sleep_for(2ms);
        return mcpr::Result::failed;
    };
    mcpr::Builder b;
    b.set_policy(mcpr::Policy::allow_all()).add(R"({"uri":"doc://slow","name":"s"})", std::move(bind));
    mcpr::Resources r = b.build();
    mcpr::Cancel token;
    mcpr::ReadOptions o;
    o.cancel = &token;
    std::thread canceller([&] {
        std::this_thread::sleep_for(50ms);
        token.cancel();
    });
    auto t0 = std::chrono::steady_clock::now();
    mcpr::Error e = error_of([&] { r.read("doc://slow", o); });
    canceller.join();
    EXPECT_EQ(e.status(), MCPR_CANCELED);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, generous(5000ms));
}

// ---------------------------------------------------------------- request data, captures, completion

TEST(Hpp, CallbacksSeeRequestDataAndMatchCaptures) {
    struct Ctx {
        std::string tenant;
    } ctx{"t-7"};
    mcpr::Binding bind;
    bind.resolve = [](const mcpr::Call &call, const mcpr::Match &m, mcpr::PlanBuilder &plan) {
        EXPECT_EQ(m.capture_count(), 1u);
        EXPECT_EQ(m.capture_name(0), "id");
        EXPECT_EQ(m.definition().name(), "note");
        EXPECT_TRUE(m.definition().is_template());
        EXPECT_FALSE(m.capture("nope").has_value());
        std::string auth = R"({"tenant":")" + static_cast<Ctx *>(call.request_data())->tenant + "\"}";
        plan.set_requested(m.uri(), "", auth);
        plan.add_item(m.uri(), "", auth);
        return mcpr::Result::ok;
    };
    bind.read = [](const mcpr::Call &, const mcpr::Target &t, mcpr::PayloadBuilder &out) {
        out.set_text("text/plain", std::string(t.authorization()));
        return mcpr::Result::ok;
    };
    mcpr::Builder b;
    b.set_policy(mcpr::Policy::allow_all()).add(R"({"uriTemplate":"note://n/{id}","name":"note"})", std::move(bind));
    mcpr::Resources r = b.build();
    mcpr::ReadOptions o;
    o.request_data = &ctx;
    mcpr::Bundle bundle = r.read("note://n/9", o);
    EXPECT_TRUE(contains(bundle.json(), R"(\"tenant\":\"t-7\")")) << bundle.json();
}

TEST(Hpp, ACompletionLambdaAnswersCompleteAndAThrowingOneFailsIt) {
    mcpr::Binding bind = text_binding();
    bind.complete = [](const mcpr::Call &, const mcpr::CompletionRequest &q, mcpr::CompletionBuilder &out) {
        if (q.value() == "boom") throw std::runtime_error("SECRET-COMPLETE");
        EXPECT_EQ(q.argument(), "id");
        EXPECT_EQ(q.definition().uri(), "note://n/{id}");
        out.add_value(std::string(q.value()) + "1");
        out.add_value(std::string(q.value()) + "2");
        out.set_total(10);
        return mcpr::Result::ok;
    };
    mcpr::Builder b;
    b.set_policy(mcpr::Policy::allow_all()).add(R"({"uriTemplate":"note://n/{id}","name":"note"})", std::move(bind));
    mcpr::Resources r = b.build();
    EXPECT_TRUE(r.completes());
    mcpr::Completion c = r.complete("note://n/{id}", "id", "4");
    EXPECT_EQ(c.value_count(), 2u);
    EXPECT_TRUE(c.has_more());
    EXPECT_TRUE(contains(c.json(), R"(["41","42"])")) << c.json();
    mcpr::Error e = error_of([&] { r.complete("note://n/{id}", "id", "boom"); });
    EXPECT_NE(e.status(), MCPR_OK);
    EXPECT_FALSE(contains(e.what(), "SECRET"));
    EXPECT_FALSE(docs_registry().completes());
}

TEST(Hpp, ADroppedCompletionValueIsReportedWithoutLosingTheOthers) {
    // The C contract: a dropped value does not spoil the others. A file name
    // with a slash among valid ones must not fail the whole completion.
    mcpr::Binding bind = text_binding();
    static std::vector<bool> kept;
    kept.clear();
    bind.complete = [](const mcpr::Call &, const mcpr::CompletionRequest &, mcpr::CompletionBuilder &out) {
        kept.push_back(out.add_value("good-1"));
        kept.push_back(out.add_value("bad/slash"));
        kept.push_back(out.add_value(""));
        kept.push_back(out.add_value("good-2"));
        return mcpr::Result::ok;
    };
    mcpr::Builder b;
    b.set_policy(mcpr::Policy::allow_all()).add(R"({"uriTemplate":"note://n/{id}","name":"note"})", std::move(bind));
    mcpr::Resources r = b.build();
    mcpr::Completion c = r.complete("note://n/{id}", "id", "");
    EXPECT_EQ(c.value_count(), 2u);
    EXPECT_TRUE(contains(c.json(), R"(["good-1","good-2"])")) << c.json();
    EXPECT_EQ(kept, (std::vector<bool>{true, false, false, true}));
}

TEST(Hpp, VersionIsTheLibrarys) { EXPECT_STREQ(mcpr_version(), "0.1.0"); }

// ---------------------------------------------------------------- tool results

TEST(Hpp, EmbedGivesTheReadsItemsAndNothingForHiddenTargets) {
    mcpr::Policy p = mcpr::Policy::allow_all();
    p.visibility = [](const mcpr::Call &, const mcpr::Target &t, mcpr::Visibility &v) {
        v.visible = t.uri() != "doc://hidden";
        return mcpr::Result::ok;
    };
    mcpr::Resources r = docs_registry(std::move(p));
    mcpr::Embedding e = r.embed({"doc://a", "doc://hidden", "doc://missing", "note://n/7"});
    EXPECT_EQ(e.block_count(), 2u);
    EXPECT_EQ(e.uri_count(), 4u);
    EXPECT_EQ(e.block(0), R"({"type":"resource","resource":{"uri":"doc://a","mimeType":"text/plain","text":"body of doc://a"}})");
    EXPECT_EQ(e.uri_status(1), MCPR_UNAVAILABLE);
    EXPECT_EQ(e.uri_status(2), MCPR_UNAVAILABLE);
    EXPECT_EQ(e.uri_block_count(1), 0u);
    EXPECT_TRUE(contains(e.tool_result_json(), R"("resultType":"complete")"));
    mcpr::Embedding hidden = r.embed({"doc://hidden"});
    mcpr::Embedding missing = r.embed({"doc://missing"});
    EXPECT_EQ(hidden.blocks_json(), missing.blocks_json());
    EXPECT_EQ(hidden.blocks_json(), "[]");

    mcpr::EmbedOptions links;
    links.form = MCPR_EMBED_LINK;
    links.protocol_revision = "2025-06-18";
    mcpr::Embedding l = r.embed({"doc://a"}, links);
    EXPECT_EQ(l.blocks_json(), R"([{"type":"resource_link","uri":"doc://a","name":"n"}])");
    EXPECT_EQ(l.uri_link_count(0), 1u);
    EXPECT_EQ(l.tool_result_json(), R"({"content":[{"type":"resource_link","uri":"doc://a","name":"n"}]})");

    mcpr::EmbedOptions bad;
    bad.form = 9;
    EXPECT_EQ(error_of([&] { r.embed({"doc://a"}, bad); }).status(), MCPR_INVALID_ARGUMENT);
    EXPECT_EQ(r.embed({}).blocks_json(), "[]");
}

TEST(Hpp, TheResourceToolsServeToolOnlyClients) {
    mcpr::Resources r = docs_registry();
    std::string_view defs = mcpr::resource_tool_definitions("2025-11-25");
    EXPECT_TRUE(contains(defs, R"("name":"read_resource")"));
    EXPECT_EQ(error_of([&] { mcpr::resource_tool_definitions("1.0"); }).status(), MCPR_INVALID_ARGUMENT);

    mcpr::RequestOptions o;
    o.scope_key = "tenant";
    mcpr::Response read = r.call_resource_tool(R"({"name":"read_resource","arguments":{"uri":"doc://a"}})", o);
    EXPECT_FALSE(read.is_error());
    EXPECT_TRUE(contains(read.json(), R"("structuredContent":{"contents":[{"uri":"doc://a")"));
    mcpr::Response missing = r.call_resource_tool(R"({"name":"read_resource","arguments":{"uri":"doc://zz"}})", o);
    EXPECT_TRUE(contains(missing.json(), R"("isError":true)"));
    EXPECT_FALSE(missing.cause().empty());
    mcpr::Response list = r.call_resource_tool(R"({"name":"list_resources"})", o);
    EXPECT_TRUE(contains(list.json(), R"("resourceTemplates":[])"));
    EXPECT_EQ(error_of([&] { r.call_resource_tool(R"({"name":"other"})", o); }).status(), MCPR_METHOD_NOT_HANDLED);

    // Through the one-call request only when asked.
    const char *call = R"({"name":"read_resource","arguments":{"uri":"doc://a"}})";
    EXPECT_EQ(error_of([&] { r.request("tools/call", call, o); }).status(), MCPR_METHOD_NOT_HANDLED);
    o.resource_tools = true;
    EXPECT_EQ(r.request("tools/call", call, o).json(), read.json());
}

}  // namespace
