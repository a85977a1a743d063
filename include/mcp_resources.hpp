// mcp_resources.hpp: a header-only C++17 wrapper over the C API in
// mcp_resources.h. Link the same library (mcp_resources::mcp_resources or
// -lmcp_resources); nothing here is compiled into it.
//
// What it gives (docs/C-API.md, section "C++", has the details):
//
// - RAII handles, one owner each, move-only: Builder, Executor, Cancel and
//   the results Bundle, Page, Response, Completion. A moved-from handle is
//   empty (its accessors must not be called; destroying it is fine).
//   `Resources` is *copyable*: each copy is its own registry reference
//   (mcpr_resources_retain), so copies may be handed to other threads.
// - Results are not copied: `json()` and the other accessors return
//   std::string_view borrowed from the result object, valid while it lives.
//   Copy them into a std::string (one allocation and copy of the JSON) only
//   when you must keep the text after the result goes.
// - Every wrapper call that fails throws mcpr::Error (status, safe message,
//   private cause, JSON-RPC code and the complete JSON-RPC error object,
//   all copied out of the mcpr_error, which is freed before the throw).
//   One exception: CompletionBuilder::add_value returns false for a value
//   the library drops, as the C contract lets the other values stand.
// - Callbacks are std::function members of mcpr::Policy and mcpr::Binding.
//   The C trampolines catch every exception: an exception out of a callback
//   becomes MCPR_CB_FAILED with its what() as the call's private cause, so
//   none ever reaches the library. The heap object holding the functions is
//   deleted by the table's `release` callback, which the library runs
//   exactly once, after the last call into the table has returned.
// - Views inside callbacks (Call, Definition, Match, Target,
//   CompletionRequest) and the builders (PlanBuilder, PayloadBuilder,
//   CompletionBuilder) are thin wrappers over the borrowed C pointers: valid
//   only until the callback returns.
// - Asynchronous calls (read_async, list_async, list_templates_async,
//   complete_async, request_async, message_async) start on an executor and
//   return at once: a done callable receives an mcpr::Outcome<T> exactly
//   once on an executor thread (an exception escaping it is caught and
//   dropped), and the returned mcpr::AsyncCall cancels the call; the forms
//   without a callable return a std::future<T>.
//
// The wrapper is split by area into the headers of include/mcp_resources/
// (base: strings, errors, helpers; handles: Cancel, Executor and the
// results; async: Outcome, AsyncCall and the done trampolines; callbacks:
// callback views, builders and tables; registry: the options, Resources
// and Builder; observe: observers as lambdas, metrics and event hashes);
// this header includes them all.
#ifndef MCP_RESOURCES_HPP
#define MCP_RESOURCES_HPP

#include "mcp_resources/base.hpp"
#include "mcp_resources/handles.hpp"
#include "mcp_resources/async.hpp"
#include "mcp_resources/callbacks.hpp"
#include "mcp_resources/registry.hpp"
#include "mcp_resources/observe.hpp"

#endif  // MCP_RESOURCES_HPP
