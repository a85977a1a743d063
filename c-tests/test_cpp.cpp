// The C ABI from C++ (GoogleTest): the header is C++-safe, handles wrap in
// std::unique_ptr with their free functions, captureless lambdas serve as
// callbacks, and std::thread can cancel a read.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <sys/wait.h>

#include <csignal>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "mcp_resources.h"

namespace {

struct Free {
    void operator()(mcpr_builder *p) const { mcpr_builder_free(p); }
    void operator()(mcpr_resources *p) const { mcpr_resources_free(p); }
    void operator()(mcpr_bundle *p) const { mcpr_bundle_free(p); }
    void operator()(mcpr_page *p) const { mcpr_page_free(p); }
    void operator()(mcpr_error *p) const { mcpr_error_free(p); }
    void operator()(mcpr_cancel *p) const { mcpr_cancel_free(p); }
    void operator()(mcpr_executor *p) const { mcpr_executor_free(p); }
};
template <class T> using Owned = std::unique_ptr<T, Free>;

mcpr_str str(const std::string &s) { return mcpr_str{s.data(), s.size()}; }
std::string text(mcpr_str s) { return std::string(s.ptr, s.len); }

struct Host {
    std::atomic<int> releases{0};
    std::atomic<int> reads{0};
};

mcpr_policy_callbacks allow_all(Host *h) {
    mcpr_policy_callbacks p{};
    mcpr_policy_callbacks_init(&p);
    p.user_data = h;
    p.discover = [](void *, const mcpr_call *, const mcpr_definition *) -> mcpr_cb_result { return MCPR_CB_OK; };
    p.visibility = [](void *, const mcpr_call *, const mcpr_target *, mcpr_visibility *out) -> mcpr_cb_result {
        out->visible = true;
        out->disclose_issue_uri = true;
        return MCPR_CB_OK;
    };
    p.read = [](void *, const mcpr_call *, const mcpr_target *) -> mcpr_cb_result { return MCPR_CB_OK; };
    p.release = [](void *ud) { static_cast<Host *>(ud)->releases++; };
    return p;
}

mcpr_binding_callbacks notes(Host *h) {
    mcpr_binding_callbacks b{};
    mcpr_binding_callbacks_init(&b);
    b.user_data = h;
    b.resolve = mcpr_resolve_single;
    b.read = [](void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) -> mcpr_cb_result {
        static_cast<Host *>(ud)->reads++;
        std::string uri = text(mcpr_target_uri(t));
        if (uri.find("/slow") != std::string::npos) {
            while (!mcpr_call_is_canceled(call)) std::this_thread::sleep_for(std::chrono::milliseconds(2));
            return MCPR_CB_FAILED;
        }
        if (uri.find("/broken") != std::string::npos) return MCPR_CB_FAILED;
        if (uri.find("/throw") != std::string::npos) throw std::runtime_error("a host bug");
        std::string body = "note " + uri;
        return mcpr_payload_set_text(out, str("text/plain"), str(body), nullptr) == MCPR_OK ? MCPR_CB_OK
                                                                                          : MCPR_CB_FAILED;
    };
    b.release = [](void *ud) { static_cast<Host *>(ud)->releases++; };
    return b;
}

Owned<mcpr_resources> build(Host *h) {
    Owned<mcpr_builder> b(mcpr_builder_new());
    mcpr_policy_callbacks p = allow_all(h);
    mcpr_binding_callbacks n = notes(h);
    EXPECT_EQ(mcpr_builder_set_policy(b.get(), &p, nullptr), MCPR_OK);
    EXPECT_EQ(mcpr_builder_add(b.get(), str(R"({"uriTemplate":"note://n/{id}","name":"note"})"), &n, nullptr), MCPR_OK);
    mcpr_resources *r = nullptr;
    mcpr_error *e = nullptr;
    EXPECT_EQ(mcpr_builder_build(b.release(), &r, &e), MCPR_OK); // consumes the builder
    EXPECT_EQ(e, nullptr);
    return Owned<mcpr_resources>(r);
}

TEST(CApiFromCxx, ReadsAndLists) {
    Host h;
    {
        auto r = build(&h);
        mcpr_bundle *raw = nullptr;
        ASSERT_EQ(mcpr_read(r.get(), str("note://n/42"), nullptr, &raw, nullptr), MCPR_OK);
        Owned<mcpr_bundle> bundle(raw);
        EXPECT_FALSE(mcpr_bundle_is_partial(bundle.get()));
        EXPECT_EQ(text(mcpr_bundle_json(bundle.get())),
                  R"({"contents":[{"uri":"note://n/42","mimeType":"text/plain","text":"note note://n/42"}],)"
                  R"("_meta":{"go.phpboyscout.uk/mcp.resourceRead":{"version":1,"partial":false,"issues":[],"issuesOmitted":0}},)"
                  R"("resultType":"complete","ttlMs":0,"cacheScope":"private"})");

        mcpr_list_options lo{};

        mcpr_list_options_init(&lo);
        lo.scope_key = str("tenant-1");
        mcpr_page *page = nullptr;
        ASSERT_EQ(mcpr_list_templates(r.get(), &lo, &page, nullptr), MCPR_OK);
        Owned<mcpr_page> p(page);
        EXPECT_EQ(text(mcpr_page_json(p.get())), R"({"resourceTemplates":[{"uriTemplate":"note://n/{id}","name":"note"}],)"
                                                    R"("resultType":"complete","ttlMs":0,"cacheScope":"private"})");
        EXPECT_EQ(mcpr_page_next_cursor(p.get()).len, 0u);
        EXPECT_EQ(h.releases.load(), 0);
    }
    EXPECT_EQ(h.releases.load(), 2);
}

TEST(CApiFromCxx, ErrorsCarryStatusMessageCauseAndCode) {
    Host h;
    auto r = build(&h);
    mcpr_bundle *raw = nullptr;
    mcpr_error *e = nullptr;
    EXPECT_EQ(mcpr_read(r.get(), str("note://n/42/broken"), nullptr, &raw, &e), MCPR_UNAVAILABLE);
    EXPECT_EQ(raw, nullptr);
    e = nullptr;
    EXPECT_EQ(mcpr_read(r.get(), str("note://n/broken"), nullptr, &raw, &e), MCPR_READ_FAILED);
    Owned<mcpr_error> err(e);
    ASSERT_NE(err, nullptr);
    EXPECT_EQ(mcpr_error_status(err.get()), MCPR_READ_FAILED);
    EXPECT_EQ(mcpr_error_jsonrpc_code(err.get()), -32603);
    EXPECT_FALSE(text(mcpr_error_message(err.get())).empty());
    e = nullptr;
    EXPECT_EQ(mcpr_read(r.get(), str("note://n/a b"), nullptr, &raw, &e), MCPR_INVALID_REQUEST);
    Owned<mcpr_error> bad(e);
    EXPECT_EQ(mcpr_error_jsonrpc_code(bad.get()), -32602);
}

TEST(CApiFromCxx, CancelFromAnotherThread) {
    Host h;
    auto r = build(&h);
    mcpr_executor *ex_raw = nullptr;
    ASSERT_EQ(mcpr_executor_new(0, &ex_raw, nullptr), MCPR_OK);
    Owned<mcpr_executor> ex(ex_raw);
    Owned<mcpr_cancel> token(mcpr_cancel_new());
    mcpr_read_options opt{};
    mcpr_read_options_init(&opt);
    opt.cancel = token.get();
    opt.executor = ex.get();
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        mcpr_cancel_cancel(token.get());
    });
    mcpr_bundle *raw = nullptr;
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(mcpr_read(r.get(), str("note://n/slow"), &opt, &raw, nullptr), MCPR_CANCELED);
    canceller.join();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
    EXPECT_EQ(raw, nullptr);
}

// Callbacks are `extern "C-unwind"` on the Rust side, so an exception
// escaping one is defined behaviour (with plain "C" it would be undefined):
// Rust unwinds its own frames and stops the exception where it catches
// reader panics. Rust leaves it unspecified whether that aborts the process
// (what current versions do) or reports a failure like a reader panic
// (`read_failed`); either way the exception never reaches the caller and
// the read never succeeds.
TEST(CApiFromCxxDeathTest, AnExceptionOutOfACallbackNeverReachesTheCaller) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    auto read_throwing = [](bool with_executor) {
        Host h;
        auto r = build(&h);
        Owned<mcpr_executor> executor;
        mcpr_read_options o{};
        mcpr_read_options_init(&o);
        if (with_executor) {
            mcpr_executor *raw = nullptr;
            if (mcpr_executor_new(2, &raw, nullptr) != MCPR_OK) std::exit(3);
            executor.reset(raw);
            o.executor = executor.get();
        }
        mcpr_bundle *bundle = nullptr;
        mcpr_status status = MCPR_OK;
        try {
            status = mcpr_read(r.get(), str("note://n/throw"), &o, &bundle, nullptr);
        } catch (...) {
            std::exit(4);
        }
        std::exit(status == MCPR_READ_FAILED ? 6 : 5);
    };
    auto stopped = [](int status) {
        return (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT) ||
               (WIFEXITED(status) && WEXITSTATUS(status) == 6);
    };
    EXPECT_EXIT(read_throwing(false), stopped, "");
    EXPECT_EXIT(read_throwing(true), stopped, "");
}

TEST(CApiFromCxx, Version) { EXPECT_STREQ(mcpr_version(), "0.1.0"); }

}  // namespace
