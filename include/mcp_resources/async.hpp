// mcp_resources/async.hpp: asynchronous calls (BEHAVIOUR §20): the outcome a
// done callback receives (Outcome), the handle of a call in flight
// (AsyncCall) and the trampolines over the C ABI's start entry points
// (mcpr_read_start, ...); the Resources members (read_async, ...) are in
// registry.hpp.
// Part of the C++ wrapper; include <mcp_resources.hpp>, which includes
// every part in order (each part also includes the parts it needs).
#ifndef MCP_RESOURCES_ASYNC_HPP
#define MCP_RESOURCES_ASYNC_HPP

#include <future>
#include <type_traits>

#include "handles.hpp"

namespace mcpr {

/// What an asynchronous call concluded with: the result the blocking call
/// would have returned, or the error it would have thrown. Move-only; it
/// owns the result handle and the C error object (freed by its
/// destructor, on whatever thread it runs). Building it copies nothing:
/// error() copies the error's strings only when asked.
template <class T> class Outcome {
public:
    /// Takes ownership of a done callback's arguments (the wrapper's
    /// trampolines do this; hosts rarely need it). MCPR_OK without a result
    /// becomes MCPR_INTERNAL.
    Outcome(mcpr_status status, T value, mcpr_error *error) noexcept
        : status_(status == MCPR_OK && !value.get() ? MCPR_INTERNAL : status), value_(std::move(value)), error_(error) {}

    /// Whether the call succeeded (value() holds the result).
    bool ok() const noexcept { return status_ == MCPR_OK; }
    explicit operator bool() const noexcept { return ok(); }
    /// MCPR_OK, or the status the blocking call would have thrown with.
    mcpr_status status() const noexcept { return status_; }

    /// The result; throws error() when the call failed.
    T &value() & {
        if (!ok()) throw error();
        return value_;
    }
    const T &value() const & {
        if (!ok()) throw error();
        return value_;
    }
    /// The result, moved out; throws error() when the call failed.
    T value() && {
        if (!ok()) throw error();
        return std::move(value_);
    }

    /// The error the blocking call would have thrown (copied out of the C
    /// error object, which stays owned here). Throws std::logic_error for
    /// a successful outcome.
    Error error() const {
        if (ok()) throw std::logic_error("mcpr::Outcome::error() on a successful outcome");
        return detail::error_of(status_, error_.get());
    }
    /// The C error object (borrowed; NULL on success).
    const mcpr_error *c_error() const noexcept { return error_.get(); }

private:
    mcpr_status status_;
    T value_;
    detail::Owned<mcpr_error, mcpr_error_free> error_;
};

class AsyncCall;
namespace detail {
template <class T, class R, class F, class Start>
AsyncCall start_async(F &&done, const mcpr_cancel *given, bool own_token, Start &&start);
}  // namespace detail

/// The handle of an asynchronous call in flight (returned by
/// Resources::read_async and the others). Move-only. cancel() cancels the
/// call's token: the call's done callback then runs at once with
/// MCPR_CANCELED, whatever its callbacks do. Destroying the handle does not
/// cancel the call (its done callback still runs exactly once); it only
/// lets go of the token, which the call holds its own reference to.
///
/// Without `options.cancel` the call gets a token of its own, owned by the
/// handle. With `options.cancel` the call uses that token: cancel() then
/// cancels it (and every call sharing it), and the handle borrows it, so
/// the mcpr::Cancel must outlive every use of the handle's cancel().
class AsyncCall {
public:
    /// An empty handle (cancel() does nothing).
    AsyncCall() noexcept = default;

    /// Cancels the call's token (idempotent; thread-safe).
    void cancel() const noexcept {
        if (token_) mcpr_cancel_cancel(token_);
    }
    /// Whether the call's token was cancelled.
    bool is_canceled() const noexcept { return token_ && mcpr_cancel_is_canceled(token_); }
    /// The call's token (borrowed; NULL for an empty handle).
    const mcpr_cancel *token() const noexcept { return token_; }

private:
    template <class T, class R, class F, class Start>
    friend AsyncCall detail::start_async(F &&done, const mcpr_cancel *given, bool own_token, Start &&start);

    AsyncCall(detail::Owned<mcpr_cancel, mcpr_cancel_free> own, const mcpr_cancel *token) noexcept
        : own_(std::move(own)), token_(token) {}

    detail::Owned<mcpr_cancel, mcpr_cancel_free> own_;
    const mcpr_cancel *token_ = nullptr;
};

namespace detail {

/// What one call in flight owns on the heap: the host's done callable.
/// Allocated by the start, deleted exactly once: by the done trampoline
/// after the callable returned, or by the start when it fails (then the
/// library never calls back).
template <class F> struct AsyncContext {
    F done;
};

/// The done callback of every start (R: the C result type, T: its RAII
/// wrapper). Runs on an executor thread; nothing escapes it: an exception
/// out of the host's callable is caught and dropped (there is no caller
/// to hand it to, and it must not reach the library).
template <class T, class R, class F>
void async_done(void *data, mcpr_status status, R *result, mcpr_error *error) noexcept {
    std::unique_ptr<AsyncContext<F>> ctx(static_cast<AsyncContext<F> *>(data));
    Outcome<T> outcome(status, T(result), error);
    try {
        ctx->done(std::move(outcome));
    } catch (...) {
        // Dropped: see "Asynchronous calls" in docs/C-API.md, section C++.
    }
}

/// A done callable fulfilling a std::promise (the std::future forms).
template <class T> struct PromiseDone {
    std::promise<T> promise;
    void operator()(Outcome<T> outcome) {
        try {
            if (outcome) {
                promise.set_value(std::move(outcome).value());
            } else {
                promise.set_exception(std::make_exception_ptr(outcome.error()));
            }
        } catch (...) {
            promise.set_exception(std::current_exception());  // std::bad_alloc copying the error
        }
    }
};

}  // namespace detail

namespace detail {

/// Starts one asynchronous call: `start(token, done_fn, done_data, err)`
/// calls the C start function with the call's token (`given`, else one of
/// the handle's own when `own_token`, else none). The context holding
/// `done` is freed here when the start fails (mcpr::Error thrown, the
/// callable never runs), else by the done trampoline. Used by
/// Resources::read_async and the others; not meant for hosts.
template <class T, class R, class F, class Start>
AsyncCall start_async(F &&done, const mcpr_cancel *given, bool own_token, Start &&start) {
    using Fn = std::decay_t<F>;
    static_assert(std::is_invocable_v<Fn &, Outcome<T>>, "the done callback takes an mcpr::Outcome<T>");
    Owned<mcpr_cancel, mcpr_cancel_free> own;
    const mcpr_cancel *token = given;
    if (!token && own_token) {
        own.reset(mcpr_cancel_new());
        if (!own) throw std::bad_alloc();
        token = own.get();
    }
    auto ctx = std::make_unique<AsyncContext<Fn>>(AsyncContext<Fn>{Fn(std::forward<F>(done))});
    void (*fn)(void *, mcpr_status, R *, mcpr_error *) = &async_done<T, R, Fn>;
    check([&](mcpr_error **e) { return start(token, fn, static_cast<void *>(ctx.get()), e); });
    // Started: the done trampoline owns the context now (it may even have
    // run and freed it already; release() does not touch it).
    static_cast<void>(ctx.release());
    return AsyncCall(std::move(own), token);
}

}  // namespace detail

}  // namespace mcpr

#endif  // MCP_RESOURCES_ASYNC_HPP
