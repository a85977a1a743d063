// The C++ wrapper's input-required reads (BEHAVIOUR §18), GoogleTest: a
// policy lambda asks with Call::add_input_request and Result::input_required,
// the retry's responses and own state through the Call, ReadOptions and
// RequestOptions carrying the retry members, mcpr::Error::input_requests on
// an older revision, a refused request thrown inside the callback. Also run
// under valgrind (memcheck_test_hpp_input) and ASan/UBSan
// (asan_test_hpp_input).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>

#include "mcp_resources.hpp"

namespace {

constexpr const char *kConsent =
    R"({"method":"elicitation/create","params":{"mode":"form","message":"Read it?",)"
    R"("requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}}})";
constexpr const char *kCaps = R"({"elicitation":{}})";
constexpr const char *kAccept = R"({"consent":{"action":"accept","content":{"confirm":true}}})";

bool contains(std::string_view haystack, std::string_view needle) {
    return haystack.find(needle) != std::string_view::npos;
}

struct Seen {
    std::atomic<int> accepted{0};
    std::atomic<int> own_state{0};
    std::atomic<int> refused{0};
    std::atomic<bool> misuse{false};
};

// doc://consent needs the user's consent first; doc://plain does not.
mcpr::Resources registry(std::shared_ptr<Seen> seen, bool custom_error = false) {
    mcpr::Policy p = mcpr::Policy::allow_all();
    p.read = [seen](const mcpr::Call &call, const mcpr::Target &t) {
        if (t.uri() != "doc://consent" || call.phase() != MCPR_PHASE_FIRST_CHECK) return mcpr::Result::ok;
        if (call.is_input_retry() && call.input_action("consent") == MCPR_INPUT_ACCEPT &&
            call.input_content("consent", "confirm") == "true") {
            seen->accepted++;
            if (call.input_state() == std::string_view("own\0state", 9)) seen->own_state++;
            return mcpr::Result::ok;
        }
        if (seen->misuse) {
            try {
                call.add_input_request("bad key!", kConsent);
            } catch (const mcpr::Error &e) {
                if (e.status() == MCPR_INVALID_CONTENT) seen->refused++;
                throw;  // the guard makes it the private cause of a failure
            }
        }
        call.add_input_request("consent", kConsent);
        call.set_input_state(std::string_view("own\0state", 9));
        return mcpr::Result::input_required;
    };
    mcpr::Binding b;
    b.read = [](const mcpr::Call &, const mcpr::Target &t, mcpr::PayloadBuilder &out) {
        out.set_text("text/plain", "body of " + std::string(t.uri()));
        return mcpr::Result::ok;
    };
    mcpr::Builder builder;
    builder.set_policy(std::move(p));
    builder.add(R"({"uri":"doc://consent","name":"c"})", b);
    builder.add(R"({"uri":"doc://plain","name":"p"})", b);
    if (custom_error) builder.set_input_unsupported_error(-32000, "Consent needed: upgrade your client");
    return builder.build();
}

std::string state_of(std::string_view json) {
    std::string_view key = R"("requestState":")";
    auto at = json.find(key);
    EXPECT_NE(at, std::string_view::npos) << json;
    if (at == std::string_view::npos) return std::string();
    at += key.size();
    return std::string(json.substr(at, json.find('"', at) - at));
}

TEST(HppInput, APolicyLambdaAsksAndTheRetryReadsWithTheResponses) {
    auto seen = std::make_shared<Seen>();
    mcpr::Resources r = registry(seen);
    mcpr::ReadOptions o;
    o.scope_key = "principal:alice";
    o.client_capabilities = kCaps;
    mcpr::Bundle asked = r.read("doc://consent", o);
    ASSERT_TRUE(asked.is_input_required());
    EXPECT_TRUE(contains(asked.json(), R"({"resultType":"input_required","inputRequests":{"consent":)"));
    EXPECT_FALSE(contains(asked.json(), "ttlMs"));
    std::string state = state_of(asked.json());

    o.request_state = state;
    o.input_responses = kAccept;
    mcpr::Bundle read = r.read("doc://consent", o);
    EXPECT_FALSE(read.is_input_required());
    EXPECT_TRUE(contains(read.json(), "body of doc://consent"));
    EXPECT_GE(seen->accepted.load(), 1);
    EXPECT_EQ(seen->own_state.load(), seen->accepted.load());

    // A tampered state is one refusal, for this URI and any other.
    std::string tampered = state;
    tampered[tampered.size() / 2] = tampered[tampered.size() / 2] == 'A' ? 'B' : 'A';
    for (const char *uri : {"doc://consent", "doc://plain", "doc://nowhere"}) {
        o.request_state = tampered;
        try {
            r.read(uri, o);
            ADD_FAILURE() << uri << " read with a tampered state";
        } catch (const mcpr::Error &e) {
            EXPECT_EQ(e.status(), MCPR_INVALID_REQUEST);
            EXPECT_EQ(e.jsonrpc_json(), R"({"code":-32602,"message":"Invalid request state"})");
            EXPECT_TRUE(e.input_requests().empty());
        }
    }
}

TEST(HppInput, TheOneCallRequestTakesTheRetryFromTheParams) {
    auto seen = std::make_shared<Seen>();
    mcpr::Resources r = registry(seen);
    mcpr::RequestOptions o;
    o.scope_key = "principal:alice";
    o.client_capabilities = kCaps;
    mcpr::Response asked = r.request("resources/read", R"({"uri":"doc://consent"})", o);
    ASSERT_TRUE(asked.is_input_required());
    EXPECT_FALSE(asked.is_error());
    std::string params = R"({"uri":"doc://consent","requestState":")" + state_of(asked.json()) +
                         R"(","inputResponses":)" + kAccept + "}";
    mcpr::Response read = r.request("resources/read", params, o);
    EXPECT_FALSE(read.is_input_required());
    EXPECT_TRUE(contains(read.json(), "body of doc://consent"));
    // Without the capability: -32021, never the request.
    o.client_capabilities = "{}";
    mcpr::Response missing = r.request("resources/read", R"({"uri":"doc://consent"})", o);
    EXPECT_TRUE(missing.is_error());
    EXPECT_EQ(missing.status(), MCPR_INPUT_REQUIRED);
    EXPECT_TRUE(contains(missing.json(), R"("code":-32021)"));
}

TEST(HppInput, AnOlderRevisionThrowsTheHostsErrorWithTheRequests) {
    auto seen = std::make_shared<Seen>();
    mcpr::Resources r = registry(seen, true);
    mcpr::ReadOptions o;
    o.scope_key = "principal:alice";
    o.protocol_revision = "2025-11-25";
    try {
        r.read("doc://consent", o);
        ADD_FAILURE() << "no error";
    } catch (const mcpr::Error &e) {
        EXPECT_EQ(e.status(), MCPR_INPUT_REQUIRED);
        EXPECT_EQ(e.jsonrpc_json(), R"({"code":-32000,"message":"Consent needed: upgrade your client"})");
        EXPECT_TRUE(contains(e.input_requests(), R"("consent":{"method":"elicitation/create")"));
    }
    EXPECT_THROW(mcpr::Builder().set_input_unsupported_error(-32021, "reserved"), mcpr::Error);
}

TEST(HppInput, ARefusedRequestThrowsInsideTheCallbackAndFailsTheRead) {
    auto seen = std::make_shared<Seen>();
    seen->misuse = true;
    mcpr::Resources r = registry(seen);
    mcpr::ReadOptions o;
    o.scope_key = "principal:alice";
    o.client_capabilities = kCaps;
    try {
        r.read("doc://consent", o);
        ADD_FAILURE() << "no error";
    } catch (const mcpr::Error &e) {
        EXPECT_EQ(e.status(), MCPR_POLICY);
    }
    EXPECT_GE(seen->refused.load(), 1);
}

}  // namespace
