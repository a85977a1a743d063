// The C++ wrapper's asynchronous calls (BEHAVIOUR §20), GoogleTest:
// Resources::read_async, list_async, list_templates_async, complete_async,
// request_async and message_async, in their callback form (an AsyncCall
// handle) and their std::future form. Each done runs exactly once, off the
// starting thread, with the blocking call's outcome; cancelling through the
// handle concludes a call at once while its reader ignores it; a start
// refused for a host mistake throws and frees the callback without running
// it; the registry and the executor destroyed while calls are in flight;
// eight threads starting calls at once; an exception out of done is dropped
// and its callable still freed. Every `release` runs exactly once, after
// the last done. Hung readers wait on a gate opened at the end of each
// test, so valgrind and ASan see every thread finish. Also run under
// valgrind (memcheck_test_hpp_async) and ASan/UBSan (asan_test_hpp_async).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "mcp_resources.hpp"

namespace {

using namespace std::chrono_literals;

std::chrono::milliseconds generous(std::chrono::milliseconds d) {
    return std::getenv("MCPR_TEST_SLOW") ? d * 10 : d;
}

bool contains(std::string_view haystack, std::string_view needle) {
    return haystack.find(needle) != std::string_view::npos;
}

// Hung readers wait here until the test opens it (its destructor opens it
// too, so no reader outlives a failed test's assertions for long).
class Gate {
public:
    ~Gate() { open(); }
    void wait() {
        entered_++;
        std::unique_lock<std::mutex> l(mu_);
        cv_.wait(l, [&] { return open_; });
    }
    void open() {
        std::lock_guard<std::mutex> l(mu_);
        open_ = true;
        cv_.notify_all();
    }
    int entered() const { return entered_; }

private:
    std::mutex mu_;
    std::condition_variable cv_;
    bool open_ = false;
    std::atomic<int> entered_{0};
};

// Counts the tables the library released: each table's functions hold a
// Tracker, whose last copy dies with the table's heap object.
struct Releases {
    std::atomic<int> count{0};
};
struct Tracker {
    std::shared_ptr<Releases> r;
    explicit Tracker(std::shared_ptr<Releases> r_) : r(std::move(r_)) {}
};

// ok://a and ok://b read their URI; hang://h waits on the gate, ignoring
// cancellation; the template tpl://t/{id} completes "alpha" and "beta".
// Tables: the policy, the three exact bindings, the template (5).
constexpr int kTables = 5;

mcpr::Resources registry(std::shared_ptr<Gate> gate, std::shared_ptr<Releases> releases) {
    auto policy_tracker = std::make_shared<Tracker>(releases);
    mcpr::Policy p = mcpr::Policy::allow_all();
    // The policy's heap object holds one more Tracker reference through
    // this capture; allow_all's own members stay as they are.
    p.discover = [policy_tracker](const mcpr::Call &, const mcpr::Definition &) { return mcpr::Result::ok; };
    mcpr::Builder b;
    b.set_policy(std::move(p));
    // A hung reader is never abandoned at an item deadline here: only the
    // call's own deadline or cancellation concludes a call.
    b.set_limit(MCPR_LIMIT_ITEM_TIMEOUT_MS, 120000);
    b.set_limit(MCPR_LIMIT_READ_TIMEOUT_MS, 120000);
    auto binding = [&](bool complete) {
        auto t = std::make_shared<Tracker>(releases);
        mcpr::Binding bd;
        bd.read = [t, gate](const mcpr::Call &, const mcpr::Target &target, mcpr::PayloadBuilder &out) {
            if (contains(target.uri(), "hang://")) gate->wait();
            out.set_text("text/plain", "body of " + std::string(target.uri()));
            return mcpr::Result::ok;
        };
        if (complete)
            bd.complete = [](const mcpr::Call &, const mcpr::CompletionRequest &, mcpr::CompletionBuilder &out) {
                out.add_value("alpha");
                out.add_value("beta");
                return mcpr::Result::ok;
            };
        return bd;
    };
    b.add(R"({"uri":"ok://a","name":"a"})", binding(false));
    b.add(R"({"uri":"ok://b","name":"b"})", binding(false));
    b.add(R"({"uri":"hang://h","name":"h"})", binding(false));
    b.add(R"({"uriTemplate":"tpl://t/{id}","name":"t"})", binding(true));
    return b.build();
}

// Watches releases: a Tracker's destructor cannot count (shared_ptr), so
// the count is the drop of releases.use_count() (one per table holder).
int released_tables(const std::shared_ptr<Releases> &r, long baseline) {
    return static_cast<int>(baseline - r.use_count());
}

template <class P> bool eventually(P &&pred, std::chrono::milliseconds max) {
    auto end = std::chrono::steady_clock::now() + generous(max);
    while (!pred()) {
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(2ms);
    }
    return true;
}

// What one done received; `runs` counts its calls.
struct Slot {
    std::atomic<int> runs{0};
    mcpr_status status = MCPR_OK;
    std::string json;     // the result's JSON, or the error's JSON-RPC object
    std::string message;  // the error's safe message
    std::thread::id thread;
};

bool await(const std::shared_ptr<Slot> &s, std::chrono::milliseconds max = 10000ms) {
    return eventually([&] { return s->runs.load() >= 1; }, max);
}

// A done callable filling `s` from any result type with json().
template <class T> auto into(std::shared_ptr<Slot> s) {
    return [s](mcpr::Outcome<T> o) {
        s->status = o.status();
        s->thread = std::this_thread::get_id();
        if (o) {
            s->json = std::string(o.value().json());
        } else {
            mcpr::Error e = o.error();
            s->json = e.jsonrpc_json();
            s->message = e.what();
        }
        s->runs++;
    };
}

std::string error_json(const mcpr::Error &e) { return e.jsonrpc_json(); }

TEST(HppAsync, EveryCallCompletesOnceOffTheStartingThreadWithTheBlockingOutcome) {
    auto gate = std::make_shared<Gate>();
    auto releases = std::make_shared<Releases>();
    mcpr::Resources r = registry(gate, releases);
    mcpr::Executor ex(mcpr::ExecutorOptions{2, 0, 0});
    mcpr::ReadOptions ro;
    ro.timeout = 10000ms;
    const auto me = std::this_thread::get_id();

    // A read, and a read of a URI nothing serves (an error, the same object).
    for (const char *uri : {"ok://a", "none://x"}) {
        auto s = std::make_shared<Slot>();
        mcpr::AsyncCall call = r.read_async(uri, ro, ex, into<mcpr::Bundle>(s));
        ASSERT_TRUE(await(s)) << uri;
        EXPECT_NE(s->thread, me);
        try {
            mcpr::Bundle b = r.read(uri, ro);
            EXPECT_EQ(s->status, MCPR_OK);
            EXPECT_EQ(s->json, b.json());
        } catch (const mcpr::Error &e) {
            EXPECT_EQ(s->status, e.status());
            EXPECT_EQ(s->json, error_json(e));
            EXPECT_EQ(s->message, e.what());
        }
        std::this_thread::sleep_for(20ms);
        EXPECT_EQ(s->runs.load(), 1);
    }

    // Listings (same page, apart from the cursor's random nonce).
    mcpr::ListOptions lo("caller");
    lo.page_size = 2;
    for (bool templates : {false, true}) {
        auto s = std::make_shared<Slot>();
        mcpr::AsyncCall call = templates ? r.list_templates_async(lo, ex, into<mcpr::Page>(s))
                                         : r.list_async(lo, ex, into<mcpr::Page>(s));
        ASSERT_TRUE(await(s));
        mcpr::Page p = templates ? r.list_templates(lo) : r.list(lo);
        EXPECT_EQ(s->status, MCPR_OK);
        EXPECT_EQ(s->json.size(), p.json().size());
        EXPECT_EQ(s->json.substr(0, 40), p.json().substr(0, 40));
        EXPECT_NE(s->thread, me);
    }

    // A completion.
    {
        auto s = std::make_shared<Slot>();
        mcpr::AsyncCall call = r.complete_async("tpl://t/{id}", "id", "a", {}, ro, ex, into<mcpr::Completion>(s));
        ASSERT_TRUE(await(s));
        EXPECT_EQ(s->json, r.complete("tpl://t/{id}", "id", "a", {}, ro).json());
        EXPECT_TRUE(contains(s->json, "alpha"));
    }

    // Requests: a read, a client mistake (an error Response, not an error).
    mcpr::RequestOptions qo;
    qo.scope_key = "caller";
    for (const char *params : {R"({"uri":"ok://b"})", R"({"uri":1})"}) {
        auto s = std::make_shared<Slot>();
        mcpr::AsyncCall call = r.request_async("resources/read", params, qo, ex, into<mcpr::Response>(s));
        ASSERT_TRUE(await(s));
        EXPECT_EQ(s->status, MCPR_OK);
        EXPECT_EQ(s->json, r.request("resources/read", params, qo).json());
    }

    // A message: a request, and what is not JSON, as mcpr_message answers.
    for (const char *msg : {R"({"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"ok://a"}})", "garbage"}) {
        auto s = std::make_shared<Slot>();
        mcpr::AsyncCall call = r.message_async(msg, qo, ex, into<mcpr::Reply>(s));
        ASSERT_TRUE(await(s));
        EXPECT_EQ(s->status, MCPR_OK);
        EXPECT_EQ(s->json, r.message(msg, qo).json());
    }

    // The std::future forms.
    std::future<mcpr::Bundle> fb = r.read_async("ok://b", ro, ex);
    ASSERT_EQ(fb.wait_for(generous(10000ms)), std::future_status::ready);
    EXPECT_EQ(fb.get().json(), r.read("ok://b", ro).json());
    std::future<mcpr::Bundle> fe = r.read_async("none://x", ro, ex);
    try {
        fe.get();
        ADD_FAILURE() << "a read of nothing succeeded";
    } catch (const mcpr::Error &e) {
        EXPECT_EQ(e.status(), MCPR_UNAVAILABLE);
        EXPECT_TRUE(contains(e.jsonrpc_json(), "code"));
    }
    EXPECT_TRUE(contains(r.list_async(lo, ex).get().json(), "ok://a"));
    EXPECT_TRUE(contains(r.list_templates_async(lo, ex).get().json(), "tpl://t/{id}"));
    EXPECT_TRUE(contains(r.complete_async("tpl://t/{id}", "id", "b", {}, ro, ex).get().json(), "beta"));
    EXPECT_FALSE(r.request_async("resources/read", R"({"uri":"ok://a"})", qo, ex).get().is_error());
    EXPECT_TRUE(r.message_async(R"({"jsonrpc":"2.0","method":"notifications/x"})", qo, ex).get().json().empty());
    gate->open();
}

TEST(HppAsync, OutcomeOwnsItsResultAndGivesTheErrorTheBlockingCallThrows) {
    auto gate = std::make_shared<Gate>();
    mcpr::Resources r = registry(gate, std::make_shared<Releases>());
    mcpr::Executor ex(mcpr::ExecutorOptions{2, 0, 0});
    std::promise<mcpr::Outcome<mcpr::Bundle>> got;
    auto f = got.get_future();
    mcpr::AsyncCall call =
        r.read_async("none://x", mcpr::ReadOptions(), ex, [&got](mcpr::Outcome<mcpr::Bundle> o) { got.set_value(std::move(o)); });
    ASSERT_EQ(f.wait_for(generous(10000ms)), std::future_status::ready);
    mcpr::Outcome<mcpr::Bundle> o = f.get();
    EXPECT_FALSE(o.ok());
    EXPECT_FALSE(static_cast<bool>(o));
    EXPECT_EQ(o.status(), MCPR_UNAVAILABLE);
    ASSERT_NE(o.c_error(), nullptr);
    EXPECT_EQ(mcpr_error_status(o.c_error()), MCPR_UNAVAILABLE);
    try {
        o.value();
        ADD_FAILURE() << "value() of a failed outcome returned";
    } catch (const mcpr::Error &e) {
        EXPECT_EQ(e.status(), MCPR_UNAVAILABLE);
        EXPECT_EQ(e.jsonrpc_json(), o.error().jsonrpc_json());
    }
    // A success: value() moves the bundle out; error() is a logic error.
    std::promise<mcpr::Outcome<mcpr::Bundle>> ok;
    auto fo = ok.get_future();
    call = r.read_async("ok://a", mcpr::ReadOptions(), ex, [&ok](mcpr::Outcome<mcpr::Bundle> out) { ok.set_value(std::move(out)); });
    ASSERT_EQ(fo.wait_for(generous(10000ms)), std::future_status::ready);
    mcpr::Outcome<mcpr::Bundle> good = fo.get();
    EXPECT_TRUE(good.ok());
    EXPECT_EQ(good.c_error(), nullptr);
    EXPECT_THROW(good.error(), std::logic_error);
    mcpr::Bundle b = std::move(good).value();
    EXPECT_TRUE(contains(b.json(), "body of ok://a"));
}

TEST(HppAsync, CancellingThroughTheHandleConcludesAtOnceWhileTheReaderIgnoresIt) {
    auto gate = std::make_shared<Gate>();
    auto releases = std::make_shared<Releases>();
    mcpr::Resources r = registry(gate, releases);
    mcpr::Executor ex(mcpr::ExecutorOptions{2, 0, 0});
    mcpr::ReadOptions ro;
    ro.timeout = 60000ms;  // far away: only the cancellation can conclude it
    auto s = std::make_shared<Slot>();
    mcpr::AsyncCall call = r.read_async("hang://h", ro, ex, into<mcpr::Bundle>(s));
    ASSERT_TRUE(eventually([&] { return gate->entered() == 1; }, 10000ms));
    EXPECT_EQ(s->runs.load(), 0);
    EXPECT_FALSE(call.is_canceled());
    auto t0 = std::chrono::steady_clock::now();
    call.cancel();
    EXPECT_TRUE(call.is_canceled());
    ASSERT_TRUE(await(s, 2000ms));
    EXPECT_LT(std::chrono::steady_clock::now() - t0, generous(2000ms));
    EXPECT_EQ(s->status, MCPR_CANCELED);
    EXPECT_EQ(gate->entered(), 1);  // the reader is still hung, ignoring it

    // The options' token: the handle cancels it (the std::future form too).
    mcpr::Cancel token;
    mcpr::ReadOptions with = ro;
    with.cancel = &token;
    auto s2 = std::make_shared<Slot>();
    mcpr::AsyncCall shared = r.read_async("hang://h", with, ex, into<mcpr::Bundle>(s2));
    EXPECT_EQ(shared.token(), token.get());
    std::future<mcpr::Bundle> f = r.read_async("hang://h", with, ex);
    ASSERT_TRUE(eventually([&] { return gate->entered() == 3; }, 10000ms));
    shared.cancel();
    EXPECT_TRUE(token.is_canceled());
    ASSERT_TRUE(await(s2, 2000ms));
    EXPECT_EQ(s2->status, MCPR_CANCELED);
    ASSERT_EQ(f.wait_for(generous(2000ms)), std::future_status::ready);
    try {
        f.get();
        ADD_FAILURE() << "a cancelled read succeeded";
    } catch (const mcpr::Error &e) {
        EXPECT_EQ(e.status(), MCPR_CANCELED);
    }
    gate->open();
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(s->runs.load(), 1);
    EXPECT_EQ(s2->runs.load(), 1);
}

TEST(HppAsync, AStartRefusedThrowsAndFreesTheCallbackOnceWithoutRunningIt) {
    auto gate = std::make_shared<Gate>();
    mcpr::Resources r = registry(gate, std::make_shared<Releases>());
    mcpr::Executor ex(mcpr::ExecutorOptions{1, 0, 0});
    auto captured = std::make_shared<int>(0);
    std::atomic<int> runs{0};
    auto done_of = [&](auto tag) {
        using T = decltype(tag);
        return [captured, &runs](mcpr::Outcome<T>) { runs++; };
    };
    auto refused = [&](auto &&start, mcpr_status want) {
        try {
            start();
            ADD_FAILURE() << "the start was not refused";
        } catch (const mcpr::Error &e) {
            EXPECT_EQ(e.status(), want);
            EXPECT_FALSE(e.jsonrpc_json().empty());
        }
        // The callable (and its capture) was freed once, at the refusal.
        EXPECT_EQ(captured.use_count(), 1);
    };
    mcpr::ReadOptions bad;
    bad.protocol_revision = "1999-01-01";
    refused([&] { (void)r.read_async("ok://a", bad, ex, done_of(mcpr::Bundle(nullptr))); }, MCPR_INVALID_ARGUMENT);
    refused([&] { (void)r.read_async("ok://a", bad, ex); }, MCPR_INVALID_ARGUMENT);  // the future form throws at once
    refused([&] { (void)r.list_async(mcpr::ListOptions(), ex, done_of(mcpr::Page(nullptr))); }, MCPR_INVALID_ARGUMENT);
    refused([&] { (void)r.list_templates_async(mcpr::ListOptions(), ex); }, MCPR_INVALID_ARGUMENT);
    refused([&] { (void)r.complete_async("tpl://t/{id}", "id", "", {}, bad, ex, done_of(mcpr::Completion(nullptr))); },
            MCPR_INVALID_ARGUMENT);
    mcpr::RequestOptions qo;
    qo.scope_key = "caller";
    refused([&] { (void)r.request_async("tools/list", "", qo, ex, done_of(mcpr::Response(nullptr))); },
            MCPR_METHOD_NOT_HANDLED);
    refused([&] { (void)r.request_async("resources/list", "", mcpr::RequestOptions(), ex); }, MCPR_INVALID_ARGUMENT);
    refused([&] {
        (void)r.message_async(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})", mcpr::RequestOptions(), ex,
                              done_of(mcpr::Reply(nullptr)));
    }, MCPR_INVALID_ARGUMENT);
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(runs.load(), 0);
    // A moved-from registry: the library refuses the NULL reference.
    mcpr::Resources moved = std::move(r);
    refused([&] { (void)r.read_async("ok://a", mcpr::ReadOptions(), ex, done_of(mcpr::Bundle(nullptr))); },
            MCPR_INVALID_ARGUMENT);
    EXPECT_EQ(runs.load(), 0);
}

TEST(HppAsync, TheRegistryAndExecutorMayGoWhileCallsAreInFlight) {
    auto gate = std::make_shared<Gate>();
    auto releases = std::make_shared<Releases>();
    long baseline = 0;
    std::vector<std::shared_ptr<Slot>> slots;
    std::vector<mcpr::AsyncCall> calls;
    {
        auto r = std::make_unique<mcpr::Resources>(registry(gate, releases));
        baseline = releases.use_count();
        auto ex = std::make_unique<mcpr::Executor>(mcpr::ExecutorOptions{2, 0, 0});
        mcpr::ReadOptions ro;
        ro.timeout = 60000ms;
        for (int i = 0; i < 4; i++) {
            slots.push_back(std::make_shared<Slot>());
            // Two hang (running), two wait in the executor's queue.
            calls.push_back(r->read_async(i < 2 ? "hang://h" : "ok://a", ro, *ex, into<mcpr::Bundle>(slots.back())));
        }
        ASSERT_TRUE(eventually([&] { return gate->entered() == 2; }, 10000ms));
        r.reset();  // the wrapper objects go with calls in flight
        ex.reset();
    }
    EXPECT_EQ(released_tables(releases, baseline), 0);
    for (auto &s : slots) EXPECT_EQ(s->runs.load(), 0);
    gate->open();
    for (auto &s : slots) {
        ASSERT_TRUE(await(s));
        EXPECT_EQ(s->status, MCPR_OK);
    }
    EXPECT_TRUE(contains(slots[0]->json, "body of hang://h"));
    EXPECT_TRUE(contains(slots[3]->json, "body of ok://a"));
    // Every table released exactly once, after the last done.
    ASSERT_TRUE(eventually([&] { return releases.use_count() == 1; }, 10000ms));
    EXPECT_EQ(released_tables(releases, baseline), kTables);
    for (auto &s : slots) EXPECT_EQ(s->runs.load(), 1);
    calls.clear();  // the handles outlive everything: cancel() on them is still safe
}

TEST(HppAsync, EightThreadsStartCallsAtOnceAndEachCompletesExactlyOnce) {
    auto gate = std::make_shared<Gate>();
    auto releases = std::make_shared<Releases>();
    mcpr::Resources r = registry(gate, releases);
    mcpr::Executor ex(mcpr::ExecutorOptions{2, 0, 0});
    constexpr int kThreads = 8, kCalls = 25;
    std::vector<std::atomic<int>> runs(kThreads * kCalls);
    std::atomic<int> total{0}, failed{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            mcpr::Resources mine = r;  // each thread its own reference
            while (!go) std::this_thread::yield();
            mcpr::ReadOptions ro;
            ro.timeout = 30000ms;
            for (int i = 0; i < kCalls; i++) {
                int k = t * kCalls + i;
                // Any result type: every one of them has json().
                auto done = [&runs, &total, &failed, k](auto o) {
                    if (!o || !contains(o.value().json(), "body of ok://")) failed++;
                    runs[static_cast<std::size_t>(k)]++;
                    total++;
                };
                if (i % 2)
                    (void)mine.read_async(i % 4 == 1 ? "ok://a" : "ok://b", ro, ex, done);
                else
                    (void)mine.request_async("resources/read", R"({"uri":"ok://a"})", mcpr::RequestOptions(), ex, done);
            }
        });
    }
    go = true;
    for (auto &th : threads) th.join();
    ASSERT_TRUE(eventually([&] { return total.load() == kThreads * kCalls; }, 30000ms)) << total.load();
    std::this_thread::sleep_for(20ms);
    for (auto &n : runs) EXPECT_EQ(n.load(), 1);
    EXPECT_EQ(failed.load(), 0);
    EXPECT_EQ(total.load(), kThreads * kCalls);
}

TEST(HppAsync, AnExceptionOutOfDoneIsDroppedAndTheCallableStillFreed) {
    auto gate = std::make_shared<Gate>();
    mcpr::Resources r = registry(gate, std::make_shared<Releases>());
    mcpr::Executor ex(mcpr::ExecutorOptions{2, 0, 0});
    auto captured = std::make_shared<int>(0);
    std::atomic<int> runs{0};
    for (int i = 0; i < 4; i++) {
        (void)r.read_async("ok://a", mcpr::ReadOptions(), ex, [captured, &runs](mcpr::Outcome<mcpr::Bundle>) {
            runs++;
            throw std::runtime_error("thrown out of done");
        });
    }
    ASSERT_TRUE(eventually([&] { return runs.load() == 4 && captured.use_count() == 1; }, 10000ms));
    // The library and the executor go on serving.
    EXPECT_TRUE(contains(r.read_async("ok://b", mcpr::ReadOptions(), ex).get().json(), "body of ok://b"));
}

}  // namespace
