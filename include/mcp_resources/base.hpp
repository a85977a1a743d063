// mcp_resources/base.hpp: strings, mcpr::Error and the helpers every part uses.
// Part of the C++ wrapper; include <mcp_resources.hpp>, which includes
// every part in order (each part also includes the parts it needs).
#ifndef MCP_RESOURCES_BASE_HPP
#define MCP_RESOURCES_BASE_HPP

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../mcp_resources.h"

namespace mcpr {

// ------------------------------------------------------------------ strings

/// A std::string_view as an mcpr_str (borrowed; no copy).
inline mcpr_str to_c(std::string_view s) noexcept { return mcpr_str{s.data(), s.size()}; }

/// An mcpr_str as a std::string_view (borrowed from whatever owns it).
inline std::string_view to_view(mcpr_str s) noexcept {
    return s.ptr == nullptr ? std::string_view() : std::string_view(s.ptr, s.len);
}

// ------------------------------------------------------------------ errors

/// The enumerator's name of a status ("MCPR_OK", ...; "MCPR_UNKNOWN_STATUS"
/// for a value this library does not define). Static text.
inline std::string_view status_name(mcpr_status s) noexcept {
    return mcpr_status_name(static_cast<std::int32_t>(s));
}

/// A failed library call. what() is the safe message (may be sent to a
/// client); cause() is private (log it, never send it).
class Error : public std::runtime_error {
public:
    /// Builds an error from its parts (the wrapper copies them out of an
    /// mcpr_error; hosts rarely need this). A code of 0 becomes -32603 and
    /// an empty `jsonrpc_json` the fixed object of the code (-32601 "Method
    /// not found", else -32603 "internal error"), so that no host-side error
    /// reaches a client as code 0 or with its own text.
    Error(mcpr_status status, std::string message, std::string cause, std::int32_t jsonrpc_code,
          std::string jsonrpc_json, std::string input_requests = std::string())
        : std::runtime_error(message),
          status_(status),
          cause_(std::move(cause)),
          code_(jsonrpc_code == 0 ? -32603 : jsonrpc_code),
          json_(jsonrpc_json.empty() ? fixed_object(code_) : std::move(jsonrpc_json)),
          input_requests_(std::move(input_requests)) {}

    /// The status the call returned (never MCPR_OK).
    mcpr_status status() const noexcept { return status_; }
    /// The safe message (same text as what()).
    std::string_view message() const noexcept { return what(); }
    /// The private cause: may hold identifiers and callback causes.
    const std::string &cause() const noexcept { return cause_; }
    /// The JSON-RPC error code to answer with.
    std::int32_t jsonrpc_code() const noexcept { return code_; }
    /// The complete JSON-RPC `error` object to send (mcpr_error_jsonrpc_json);
    /// never empty: for the few errors the wrapper raises itself (a negative
    /// timeout, a binding without `read`) and when the library could not
    /// make an error object, the fixed object of jsonrpc_code().
    const std::string &jsonrpc_json() const noexcept { return json_; }
    /// For MCPR_INPUT_REQUIRED (a read asked for input the client cannot be
    /// asked for: an older revision, or a capability it did not declare):
    /// the InputRequests JSON the read would have sent
    /// (mcpr_error_input_requests); empty otherwise.
    const std::string &input_requests() const noexcept { return input_requests_; }

private:
    static std::string fixed_object(std::int32_t code) {
        return code == -32601 ? std::string(R"({"code":-32601,"message":"Method not found"})")
                              : std::string(R"({"code":-32603,"message":"internal error"})");
    }

    mcpr_status status_;
    std::string cause_;
    std::int32_t code_;
    std::string json_;
    std::string input_requests_;
};

namespace detail {

/// JSON-RPC error codes used when no error object is available.
constexpr std::int32_t jsonrpc_method_not_found = -32601;
constexpr std::int32_t jsonrpc_internal_error = -32603;

struct ErrorFree {
    void operator()(mcpr_error *e) const noexcept { mcpr_error_free(e); }
};

/// Turns a failed status and its (possibly NULL) error object into an
/// mcpr::Error; the mcpr_error is freed on every path (also when copying
/// its strings throws std::bad_alloc).
[[noreturn]] inline void throw_error(mcpr_status status, mcpr_error *raw) {
    std::unique_ptr<mcpr_error, ErrorFree> e(raw);
    if (!e) {
        std::int32_t code = status == MCPR_METHOD_NOT_HANDLED ? jsonrpc_method_not_found : jsonrpc_internal_error;
        throw Error(status, std::string(status_name(status)), std::string(), code, std::string());
    }
    throw Error(mcpr_error_status(e.get()), std::string(to_view(mcpr_error_message(e.get()))),
                std::string(to_view(mcpr_error_cause(e.get()))), mcpr_error_jsonrpc_code(e.get()),
                std::string(to_view(mcpr_error_jsonrpc_json(e.get()))),
                std::string(to_view(mcpr_error_input_requests(e.get()))));
}

/// Calls `f(&err)` and throws mcpr::Error when it does not return MCPR_OK.
template <class F> inline void check(F &&f) {
    mcpr_error *err = nullptr;
    mcpr_status s = std::forward<F>(f)(&err);
    if (s != MCPR_OK) throw_error(s, err);
    mcpr_error_free(err);  // never set on success; harmless if it were
}

inline std::uint64_t to_ms(std::chrono::milliseconds d) {
    if (d.count() < 0) throw Error(MCPR_INVALID_ARGUMENT, "negative timeout", std::string(), detail::jsonrpc_internal_error, std::string());
    return static_cast<std::uint64_t>(d.count());
}

template <class T, void (*Free)(T *)> struct Deleter {
    void operator()(T *p) const noexcept { Free(p); }
};
template <class T, void (*Free)(T *)> using Owned = std::unique_ptr<T, Deleter<T, Free>>;

}  // namespace detail

}  // namespace mcpr

#endif  // MCP_RESOURCES_BASE_HPP
