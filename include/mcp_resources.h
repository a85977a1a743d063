/**
 * \file mcp_resources.h
 * The C ABI of mcp-resources (C99, usable from C++).
 *
 * Overview: build a registry (mcpr_builder_new, mcpr_builder_add,
 * mcpr_builder_set_policy, mcpr_builder_build), then answer
 * resources/read with mcpr_read, resources/list and
 * resources/templates/list with mcpr_list / mcpr_list_templates, and
 * completion/complete for resource templates with mcpr_complete; or hand
 * any of these requests to mcpr_request, which also decides
 * resources/subscribe, resources/unsubscribe and subscriptions/listen;
 * mcpr_notify_updated and mcpr_notify_list_changed decide who may be told
 * of a change. The host supplies callbacks
 * (mcpr_binding_callbacks, mcpr_policy_callbacks; their function types are
 * the mcpr_*_fn typedefs). See docs/C-API.md for a walkthrough.
 *
 * Documentation: every function documents each parameter (\param), what
 * it returns (\return), its preconditions (\pre: a call that breaks one
 * is undefined behaviour) and whether it may be called from several
 * threads (\note).
 *
 * Ownership: every object a function returns through an out-parameter or
 * as a pointer is owned by the caller and has exactly one free function,
 * named in its documentation; every free function accepts NULL. mcpr_str
 * values returned by accessors are borrowed from the object they were read
 * from and valid until it is freed (for callback views: until the callback
 * returns). Arguments are copied: the library never keeps a caller's
 * pointer after a call returns, except user_data / request_data, which it
 * hands back to callbacks without dereferencing them.
 *
 * Strings: mcpr_str is (pointer, length), not NUL-terminated, UTF-8 where
 * text is expected. (NULL, 0) is the empty string; (NULL, n > 0) is
 * MCPR_INVALID_ARGUMENT. A string argument "follows the mcpr_str rules"
 * when its pointer is NULL with length 0, or points at length readable
 * bytes.
 *
 * Nullability: a pointer marked MCPR_NULLABLE may be NULL; every other
 * pointer must not be (clang sees `_Nullable` and an assume_nonnull
 * region, so Swift imports unmarked pointers as non-optional; other
 * compilers see no annotation). A parameter is nullable exactly when its
 * \param says NULL is allowed; every pointer field of a struct is
 * nullable (NULL is its default); an out-parameter's pointee starts NULL.
 * A NULL where the header says non-null is still checked (the rules
 * below), but clang warns about it at compile time.
 *
 * Errors: fallible calls return mcpr_status (MCPR_OK on success).
 * Out-parameters are written only on success. The mcpr_error **err
 * out-parameter is written only on failure, and may be NULL (then no error
 * object is made); the caller frees the error object with mcpr_error_free.
 * A NULL handle or out-parameter makes a fallible call return
 * MCPR_INVALID_ARGUMENT, and an accessor return an empty value (empty
 * string, NULL, false or 0).
 *
 * Threads: registries, executors, cancellation tokens, bundles, pages,
 * completions, responses and error objects may be used from any thread,
 * also concurrently. Host callbacks may be called concurrently from many
 * threads with the same user_data: making them (and user_data /
 * request_data) safe for that is the host's responsibility. Callbacks
 * should not throw: a C++ exception escaping a callback is stopped inside
 * the library (the process aborts; it never reaches the caller). longjmp
 * out of a callback is undefined behaviour. No library failure unwinds
 * into the caller: it is reported as MCPR_INTERNAL (or NULL, false, 0).
 *
 * Versions: MCPR_VERSION_MAJOR, MCPR_VERSION_MINOR and MCPR_VERSION_PATCH
 * give the version of this header, mcpr_version() that of the library
 * linked at run time. Before 1.0 a change of the minor version may change
 * the ABI: a program loading the library dynamically should check that
 * the major and minor numbers of mcpr_version() equal the header's.
 *
 * Reading order: the declarations come in chapters, each a Doxygen group
 * defined below (`cmake --build build --target doxygen` makes the HTML
 * pages): builder, registry, read, list, request, completion,
 * subscriptions, async, callbacks, views, errors. The constants and types
 * come first and the functions after them, each part in chapter order.
 */

/**
 * \defgroup builder Building a registry
 * A builder (mcpr_builder_new) collects definitions with their binding
 * callbacks (mcpr_builder_add), a policy (mcpr_builder_set_policy), limits
 * (MCPR_LIMIT_*), a cursor key, a clock and cache hints;
 * mcpr_builder_build turns it into a registry. Also here: mcpr_str, the
 * string every function takes and returns.
 */

/**
 * \defgroup registry The registry
 * An immutable, reference-counted registry (mcpr_resources): references
 * are taken and given back with mcpr_resources_retain and
 * mcpr_resources_free; every call holds its own while it runs.
 */

/**
 * \defgroup read Reading
 * mcpr_read answers resources/read with a bundle (mcpr_bundle_json);
 * mcpr_embed puts the same reads into a tool result (mcpr_embedding_*);
 * cancellation tokens (mcpr_cancel_*) and executors (mcpr_executor_*)
 * bound them and every other call.
 */

/**
 * \defgroup list Listing
 * mcpr_list and mcpr_list_templates answer resources/list and
 * resources/templates/list one page at a time, with sealed cursors.
 */

/**
 * \defgroup request One call per request
 * mcpr_request serves a request from its method name and raw params text,
 * with the response (result or error object) to send; the resource tools
 * (mcpr_resource_tools_*) serve tools/call for clients that only call
 * tools.
 */

/**
 * \defgroup completion Completion
 * mcpr_complete answers completion/complete for a resource template; a
 * template binding's complete callback proposes the values.
 */

/**
 * \defgroup subscriptions Subscriptions and change notifications
 * The library decides and writes the JSON; the host keeps its sessions,
 * listeners and delivery. mcpr_request decides resources/subscribe and
 * subscriptions/listen (mcpr_response_subscription: what to record);
 * mcpr_notify_updated rechecks every subscriber of a changed URI at send
 * time; mcpr_list_change_new and mcpr_notify_list_changed tell, after a
 * reload, only the subscribers who can discover a changed definition;
 * mcpr_listing_fingerprint and mcpr_notify_listing_changed do the same
 * after a permission change. Each result (mcpr_notifications) gives the
 * exact message to send to each subscriber, or nothing.
 */

/**
 * \defgroup async Asynchronous calls
 * mcpr_read_start, mcpr_list_start, mcpr_list_templates_start,
 * mcpr_request_start and mcpr_complete_start start a call on an executor
 * and return at once; its done callback (mcpr_*_done_fn) runs exactly once
 * with the outcome, on an executor thread, by the call's deadline.
 */

/**
 * \defgroup callbacks Callbacks
 * The tables a host registers (mcpr_binding_callbacks,
 * mcpr_policy_callbacks) and their function types, the call context every
 * callback receives (mcpr_call_*), and the builders resolve and body read
 * fill (mcpr_plan_*, mcpr_payload_*).
 */

/**
 * \defgroup views Views
 * What a callback is shown, borrowed until it returns: the definition, the
 * match, a target, a completion request.
 */

/**
 * \defgroup errors Errors and versions
 * Status codes (mcpr_status, mcpr_status_name), error objects
 * (mcpr_error_*) and the library's version.
 */

#ifndef MCP_RESOURCES_H
#define MCP_RESOURCES_H

/* Generated by cbindgen 0.29.4 (cbindgen --config cbindgen.toml, on the whole crate): do not edit; run scripts/gen-header.sh. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if !defined(__clang__)
/**
 * Marks a pointer that may be NULL (a parameter whose documentation says
 * so, a returned pointer that may be NULL, every pointer field of a
 * struct). Under clang it is `_Nullable`; elsewhere it expands to nothing.
 *
 * \ingroup builder
 */
#define MCPR_NULLABLE
/**
 * Marks a pointer that must not be NULL where clang cannot infer it (the
 * outer pointer of an out-parameter such as `mcpr_bundle **out`): every
 * other pointer of the header without `MCPR_NULLABLE` is non-null too,
 * through clang's assume_nonnull region. Under clang it is `_Nonnull`;
 * elsewhere it expands to nothing.
 *
 * \ingroup builder
 */
#define MCPR_NONNULL
#else
/** `MCPR_NULLABLE` under clang (see above). \ingroup builder */
#define MCPR_NULLABLE _Nullable
/** `MCPR_NONNULL` under clang (see above). \ingroup builder */
#define MCPR_NONNULL _Nonnull
#endif

/*
 * Under clang the declarations below form an assume_nonnull region (closed
 * at the end of the header), and the nullability qualifiers do not count
 * as an extension under -pedantic.
 */
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-extension"
#pragma clang assume_nonnull begin
#endif

#if !defined(__cplusplus)
/*
 * Initialisers of the structs that grow (see "struct_size" in each): a
 * struct with struct_size set and every other field at its default, as
 * C99 designated initialisers. From C++, call the matching *_init
 * function instead (or use mcp_resources.hpp), as from Swift, which does
 * not import these macros.
 */
/** mcpr_read_options with every default (C99). \ingroup read */
#define MCPR_READ_OPTIONS_INIT {.struct_size = sizeof(mcpr_read_options)}
/** mcpr_embed_options with every default (C99). \ingroup read */
#define MCPR_EMBED_OPTIONS_INIT {.struct_size = sizeof(mcpr_embed_options)}
/** mcpr_list_options with every default (C99). \ingroup list */
#define MCPR_LIST_OPTIONS_INIT {.struct_size = sizeof(mcpr_list_options)}
/** mcpr_request_options with every default (C99). \ingroup request */
#define MCPR_REQUEST_OPTIONS_INIT {.struct_size = sizeof(mcpr_request_options)}
/** mcpr_executor_options with every default (C99). \ingroup read */
#define MCPR_EXECUTOR_OPTIONS_INIT {.struct_size = sizeof(mcpr_executor_options)}
/** mcpr_binding_callbacks with every callback NULL (C99). \ingroup callbacks */
#define MCPR_BINDING_CALLBACKS_INIT {.struct_size = sizeof(mcpr_binding_callbacks)}
/** mcpr_policy_callbacks with every callback NULL (C99). \ingroup callbacks */
#define MCPR_POLICY_CALLBACKS_INIT {.struct_size = sizeof(mcpr_policy_callbacks)}
/** mcpr_observer_callbacks with every callback NULL (C99). \ingroup callbacks */
#define MCPR_OBSERVER_CALLBACKS_INIT {.struct_size = sizeof(mcpr_observer_callbacks)}
/** mcpr_cache_hints with every default (C99). \ingroup builder */
#define MCPR_CACHE_HINTS_INIT {.struct_size = sizeof(mcpr_cache_hints)}
/** mcpr_notify_options with every default (C99). \ingroup subscriptions */
#define MCPR_NOTIFY_OPTIONS_INIT {.struct_size = sizeof(mcpr_notify_options)}
/** mcpr_subscriber with every default (C99). \ingroup subscriptions */
#define MCPR_SUBSCRIBER_INIT {.struct_size = sizeof(mcpr_subscriber)}
#endif

/**
 * The largest TTL a declaration may carry: 2^53 - 1 milliseconds.
 *
 * \ingroup builder
 */
#define MCPR_MAX_TTL_MS 9007199254740991

/**
 * The latency buckets of `mcpr_call_metrics`: bucket 0 counts calls under
 * 1,024 ns, bucket `i` (1 to 26) calls of 2^(9+i) to 2^(10+i) ns, bucket
 * 27 calls of 2^36 ns (about 68.7 s) or more.
 *
 * \ingroup registry
 */
#define MCPR_METRICS_BUCKETS 28

/**
 * Most workers `mcpr_executor_new` accepts (a larger count is
 * `MCPR_INVALID_ARGUMENT`).
 *
 * \ingroup read
 */
#define MCPR_MAX_EXECUTOR_THREADS 1024

/**
 * Largest `mcpr_executor_options.max_hung` accepted (a larger bound is
 * `MCPR_INVALID_ARGUMENT`).
 *
 * \ingroup read
 */
#define MCPR_MAX_EXECUTOR_HUNG 16384

/**
 * A call event: one per call, when the call returns (`mcpr_event.kind`).
 *
 * \ingroup callbacks
 */
#define MCPR_EVENT_CALL 1

/**
 * A decision event (`mcpr_event.kind`), when the observer asks for them.
 *
 * \ingroup callbacks
 */
#define MCPR_EVENT_DECISION 2

/**
 * `mcpr_observer_callbacks.flags`: also send decision events.
 *
 * \ingroup callbacks
 */
#define MCPR_OBSERVE_DECISIONS 1

/**
 * `mcpr_observer_callbacks.flags`: count and time each kind of callback
 * (the `private_*_calls` and `private_*_ns` fields of call events; two
 * clock reads per callback).
 *
 * \ingroup callbacks
 */
#define MCPR_OBSERVE_CALLBACK_TIMINGS 2

/**
 * Decision rules (`mcpr_event.rule`): a listing showed a definition. (A
 * call that succeeded has no root decision: its call event says so.)
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_ALLOWED 1

/**
 * A planned item was read and is in the bundle.
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_ADMITTED 2

/**
 * Outside the caller's visible selection (always private, never with a
 * URI or a hash).
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_HIDDEN 3

/**
 * Read permission denied at the first check, or `resolve` answered
 * unavailable.
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_DENIED 4

/**
 * Still visible at the recheck, no longer permitted.
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_REVOKED 5

/**
 * Hidden at the first check, visible at the recheck (never read).
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_NEWLY_VISIBLE 6

/**
 * The item's body read failed (`issue` says how).
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_ITEM_FAILED 7

/**
 * The item did not fit a budget or was not attempted.
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_BUDGET_EXCEEDED 8

/**
 * The item's read passed its item deadline.
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_TIMEOUT 9

/**
 * The root: nothing registered matches the URI.
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_NOT_FOUND 10

/**
 * The root: an invalid request or a host mistake in the options.
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_INVALID 11

/**
 * The root: a callback failed, the plan was invalid, or the result could
 * not fit.
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_FAILED 12

/**
 * The root: the caller cancelled.
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_CANCELED 13

/**
 * The root: the whole-call deadline passed.
 *
 * \ingroup callbacks
 */
#define MCPR_DECISION_DEADLINE_EXCEEDED 14

/**
 * Decision subjects (`mcpr_event.subject`): the call's root (what the
 * client asked for).
 *
 * \ingroup callbacks
 */
#define MCPR_SUBJECT_ROOT 1

/**
 * A planned item of a read.
 *
 * \ingroup callbacks
 */
#define MCPR_SUBJECT_ITEM 2

/**
 * A definition a listing visited.
 *
 * \ingroup callbacks
 */
#define MCPR_SUBJECT_DEFINITION 3

/**
 * The length of an event hash (`mcpr_event_uri_hash`,
 * `mcpr_resources_event_hash`): 16 bytes.
 *
 * \ingroup callbacks
 */
#define MCPR_EVENT_HASH_BYTES 16

/**
 * The highest `mcpr_status` value this version of the library defines
 * (`MCPR_INPUT_REQUIRED`); values above it are unknown to it.
 *
 * \ingroup errors
 */
#define MCPR_STATUS_MAX 16

/**
 * Major version of the header (the crate version's first number). Before
 * 1.0, a change of `MCPR_VERSION_MINOR` may change the ABI.
 *
 * \ingroup errors
 */
#define MCPR_VERSION_MAJOR 0

/**
 * Minor version of the header (the crate version's second number).
 *
 * \ingroup errors
 */
#define MCPR_VERSION_MINOR 1

/**
 * Patch version of the header (the crate version's third number).
 *
 * \ingroup errors
 */
#define MCPR_VERSION_PATCH 0

/**
 * Status of every fallible call. The values are explicit and never reused;
 * `1` to `12` are also the failure kinds of the library's Rust interface.
 *
 * \ingroup errors
 */
typedef enum {
    /**
     * Success.
     */
    MCPR_OK = 0,
    /**
     * Malformed request: bad identifier, empty URI or scope key, ambiguous
     * selection, bad capture, bad or foreign cursor.
     */
    MCPR_INVALID_REQUEST = 1,
    /**
     * Not found or not permitted (deliberately indistinguishable).
     */
    MCPR_UNAVAILABLE = 2,
    /**
     * The resolve callback failed or produced an invalid plan, or a plan
     * builder refused a target.
     */
    MCPR_INVALID_PLAN = 3,
    /**
     * A policy callback failed operationally (not a denial).
     */
    MCPR_POLICY = 4,
    /**
     * No item survived; the first visible issue was `read_failed`.
     */
    MCPR_READ_FAILED = 5,
    /**
     * No item survived; the first visible issue was `timeout`.
     */
    MCPR_TIMEOUT = 6,
    /**
     * No item survived and the first visible issue was `invalid_content`,
     * or a payload builder refused its input.
     */
    MCPR_INVALID_CONTENT = 7,
    /**
     * No item survived; the first visible issue was `budget_exceeded`.
     */
    MCPR_BUDGET_EXCEEDED = 8,
    /**
     * The caller cancelled through its `mcpr_cancel` token.
     */
    MCPR_CANCELED = 9,
    /**
     * The whole-call deadline passed.
     */
    MCPR_DEADLINE_EXCEEDED = 10,
    /**
     * Even the minimal report or the assembled result does not fit.
     */
    MCPR_SIZE = 11,
    /**
     * A definition, limit, key, callback table or registration is invalid.
     */
    MCPR_INVALID_CONFIGURATION = 12,
    /**
     * A programming error: NULL handle or out-parameter, `(NULL, n > 0)`
     * string, impossible length, unknown enum value, impossible
     * `struct_size` or a set field unknown to this library, an empty list
     * scope key (from every entry point).
     */
    MCPR_INVALID_ARGUMENT = 13,
    /**
     * A bug in the library, stopped before it reached the caller.
     */
    MCPR_INTERNAL = 14,
    /**
     * `mcpr_request` was given a method this library does not serve: no
     * response was made; route the request elsewhere (or answer JSON-RPC
     * `-32601` Method not found).
     */
    MCPR_METHOD_NOT_HANDLED = 15,
    /**
     * The read needs input the client cannot be asked for
     * (docs/BEHAVIOUR.md §18): the request's protocol revision has no
     * input-required result (before 2026-07-28), or the client did not
     * declare a capability an input request needs. Send the error's
     * `mcpr_error_jsonrpc_json` (the host's chosen error, or `-32021`
     * with `data.requiredCapabilities`); `mcpr_error_input_requests` holds
     * the requests the read would have sent.
     */
    MCPR_INPUT_REQUIRED = 16,
} mcpr_status;

/*
 * Swift imports every pointer to an incomplete struct as the same type,
 * OpaquePointer. For Swift only (its compiler defines __swift__) the
 * handles below are complete, empty structs, so that each is its own type
 * there (UnsafePointer<mcpr_bundle>, UnsafeMutablePointer<mcpr_builder>,
 * ...). They stay opaque: no fields, never allocated or read by the caller.
 */
#if defined(__swift__)
struct mcpr_builder {};
struct mcpr_bundle {};
struct mcpr_call {};
struct mcpr_cancel {};
struct mcpr_completion {};
struct mcpr_completion_builder {};
struct mcpr_completion_request {};
struct mcpr_definition {};
struct mcpr_embedding {};
struct mcpr_error {};
struct mcpr_executor {};
struct mcpr_list_change {};
struct mcpr_match {};
struct mcpr_notifications {};
struct mcpr_page {};
struct mcpr_payload_builder {};
struct mcpr_plan_builder {};
struct mcpr_reply {};
struct mcpr_resources {};
struct mcpr_response {};
struct mcpr_result_meta {};
struct mcpr_subscription {};
struct mcpr_target {};
#endif

/**
 * A registry under construction. Create with `mcpr_builder_new`, fill with
 * `mcpr_builder_add` / `_set_*`, then `mcpr_builder_build`.
 *
 * Exactly one of `mcpr_builder_build` or `mcpr_builder_free` ends a
 * builder: `mcpr_builder_build` always consumes the handle, whatever it
 * returns (do not free or use it afterwards); `mcpr_builder_free` discards
 * a builder that is not built. A builder is internally locked, so
 * concurrent add and set calls on one builder are safe (if pointless).
 *
 * \ingroup builder
 */
typedef struct mcpr_builder mcpr_builder;

/**
 * A read result. Owned by the caller; free with `mcpr_bundle_free`.
 * Immutable: safe to read from any thread.
 *
 * \ingroup read
 */
typedef struct mcpr_bundle mcpr_bundle;

/**
 * The context of one callback invocation: cancellation, remaining time,
 * request data, item byte limit, and a slot for a private failure cause.
 * A borrowed view, valid only until the callback returns; the accessors
 * may be called from any thread during that time, also concurrently.
 *
 * \ingroup callbacks
 */
typedef struct mcpr_call mcpr_call;

/**
 * A cancellation token. `mcpr_cancel_cancel` is safe from any thread at
 * any time, including while reads using it run on other threads. Free
 * with `mcpr_cancel_free`.
 *
 * \ingroup read
 */
typedef struct mcpr_cancel mcpr_cancel;

/**
 * A completion result. Owned by the caller; free with
 * `mcpr_completion_free`. Immutable: safe to read from any thread.
 *
 * \ingroup completion
 */
typedef struct mcpr_completion mcpr_completion;

/**
 * The values a `complete` callback proposes (borrowed, valid until the
 * callback returns; the library copies every value). Internally locked:
 * the setters may be called from any thread while the callback runs, also
 * concurrently (values added concurrently keep no particular order).
 *
 * \ingroup completion
 */
typedef struct mcpr_completion_builder mcpr_completion_builder;

/**
 * What a `complete` callback is asked (borrowed view, valid until the
 * callback returns; its accessors may be called from any thread while
 * the callback runs).
 *
 * \ingroup views
 */
typedef struct mcpr_completion_request mcpr_completion_request;

/**
 * A registered definition (borrowed view, valid until the callback returns;
 * its accessors may be called from any thread while the callback runs).
 *
 * \ingroup views
 */
typedef struct mcpr_definition mcpr_definition;

/**
 * The content blocks `mcpr_embed` made, and what became of each URI.
 * Owned by the caller; free with `mcpr_embedding_free`. Immutable: safe to
 * read from any thread.
 *
 * \ingroup read
 */
typedef struct mcpr_embedding mcpr_embedding;

/**
 * An error object: status, safe message, private cause, and the JSON-RPC
 * error object for the protocol revision (and requested URI) of the call
 * that made it. Owned by the caller; free with `mcpr_error_free`. Safe to
 * read from any thread.
 *
 * \ingroup errors
 */
typedef struct mcpr_error mcpr_error;

/**
 * A worker pool running the callbacks of reads and listings, created by
 * the host and shareable by many registries, reads and listings at once
 * (any thread). A call given an executor returns by its deadline whatever
 * its callbacks do (see `mcpr_read`). Free with `mcpr_executor_free`.
 *
 * \ingroup read
 */
typedef struct mcpr_executor mcpr_executor;

/**
 * The definitions that differ between two registries (removed, added, or
 * listed differently), each with its registry's policy. Owned by the
 * caller; free with `mcpr_list_change_free`. Immutable: safe to use from
 * any thread. It keeps the policies' callback tables alive (their
 * `release` runs after it is freed), not the registries.
 *
 * \ingroup subscriptions
 */
typedef struct mcpr_list_change mcpr_list_change;

/**
 * The outcome of selection handed to `resolve` (borrowed view, valid until
 * the callback returns; its accessors may be called from any thread while
 * the callback runs).
 *
 * \ingroup views
 */
typedef struct mcpr_match mcpr_match;

/**
 * The outcome of a notification call for each subscriber given, in order.
 * Owned by the caller; free with `mcpr_notifications_free`. Immutable:
 * safe to read from any thread.
 *
 * \ingroup subscriptions
 */
typedef struct mcpr_notifications mcpr_notifications;

/**
 * A list page. Owned by the caller; free with `mcpr_page_free`.
 * Immutable: safe to read from any thread.
 *
 * \ingroup list
 */
typedef struct mcpr_page mcpr_page;

/**
 * The payload a body `read` callback fills (borrowed, valid until the
 * callback returns; the library copies everything it is given, except
 * what the `_borrowed` setters lend it until their release callback).
 * Internally locked: the setters may be called from any thread while the
 * callback runs, also concurrently.
 *
 * \ingroup callbacks
 */
typedef struct mcpr_payload_builder mcpr_payload_builder;

/**
 * The plan a `resolve` callback fills (borrowed, valid until the callback
 * returns; the library copies everything it is given). Internally locked:
 * the setters may be called from any thread while the callback runs, also
 * concurrently (items added concurrently keep no particular order).
 *
 * \ingroup callbacks
 */
typedef struct mcpr_plan_builder mcpr_plan_builder;

/**
 * What to do about one message: the response message to send (or none)
 * and, for a message the library did not handle, its method, id and
 * params. Owned by the caller; free with `mcpr_reply_free`. Immutable:
 * safe to read from any thread.
 *
 * \ingroup request
 */
typedef struct mcpr_reply mcpr_reply;

/**
 * An immutable registry, reference counted. Safe to share between threads
 * and to use from many threads at once. Each reference (from
 * `mcpr_builder_build` or `mcpr_resources_retain`) is released with one
 * `mcpr_resources_free`.
 *
 * Lifetime across threads: every call that takes a registry (`mcpr_read`,
 * `mcpr_list`, `mcpr_list_templates`, `mcpr_resources_content_hash`) takes its
 * own reference on entry and drops it just before returning. So once a
 * call has begun, any thread may release any reference, even the last one
 * the host holds: the registry and its callback tables stay alive until
 * that call returns, and the tables' `release` callbacks then run on the
 * thread that lets go last (the call that returns last, just before it
 * returns, or an executor worker whose abandoned body read returns after
 * that). So a `release` may run inside `mcpr_read` or `mcpr_list` on the
 * calling thread: do not make those calls while holding a lock that a
 * `release` callback takes. What the library cannot do is take its
 * reference before it is called: the pointer passed must still be a live
 * reference when the call is made, and a release that may happen at the
 * same time as the call starts is a use-after-free. A host that swaps
 * registries (a configuration reload) therefore retains the current
 * registry under the lock that guards its pointer, calls, and frees that
 * reference afterwards (docs/C-API.md shows the pattern).
 *
 * \ingroup registry
 */
typedef struct mcpr_resources mcpr_resources;

/**
 * The response to one request: the JSON-RPC `result` object or `error`
 * object. Owned by the caller; free with `mcpr_response_free`. Immutable:
 * safe to read from any thread.
 *
 * \ingroup request
 */
typedef struct mcpr_response mcpr_response;

/**
 * Result `_meta` members the host adds to every result of the calls given
 * it (for example `io.modelcontextprotocol/serverInfo`, which MCP asks
 * servers to put in every result), validated once by
 * `mcpr_result_meta_new` and then shared by any number of calls on any
 * threads. Immutable; free with `mcpr_result_meta_free`.
 *
 * \ingroup request
 */
typedef struct mcpr_result_meta mcpr_result_meta;

/**
 * A subscription decision, borrowed from the response it came with
 * (`mcpr_response_subscription`; valid until that response is freed):
 * the URIs to record or forget, byte for byte as the client sent them, the
 * notification types honored, the stream's subscription id and the
 * revision of later messages. Immutable: safe to read from any thread.
 *
 * \ingroup subscriptions
 */
typedef struct mcpr_subscription mcpr_subscription;

/**
 * A target (URI, representation, private authorization JSON) handed to
 * policy and body-read callbacks (borrowed view, valid until the callback
 * returns; its accessors may be called from any thread while the callback
 * runs).
 *
 * \ingroup views
 */
typedef struct mcpr_target mcpr_target;

/**
 * Borrowed bytes: a pointer and a length, not NUL-terminated.
 *
 * As an argument, `(NULL, 0)` is the empty string and `(NULL, n > 0)` is
 * `MCPR_INVALID_ARGUMENT`; the library copies what it keeps and never
 * holds the pointer after the call returns. As a return value, `ptr` is
 * never NULL (an empty string points at a static empty byte string) and
 * the bytes are owned by the object the function was called on (print
 * with `printf("%.*s", (int)s.len, s.ptr)`).
 *
 * \ingroup builder
 */
typedef struct {
    /**
     * The first byte (may be NULL only when `len` is 0).
     */
    const char *MCPR_NULLABLE ptr;
    /**
     * The number of bytes.
     */
    size_t len;
} mcpr_str;

/**
 * What a C callback returns: one of `MCPR_CB_OK`, `MCPR_CB_UNAVAILABLE`,
 * `MCPR_CB_FAILED`, `MCPR_CB_INVALID_CONTENT`. It is a plain integer so
 * that any value a callback returns is defined behaviour: every other
 * value counts as `MCPR_CB_FAILED`.
 *
 * \ingroup callbacks
 */
typedef uint32_t mcpr_cb_result;

/**
 * A binding's `resolve` callback (`mcpr_binding_callbacks.resolve`;
 * `mcpr_resolve_single` is a ready-made one).
 *
 * Turns the match of a `resources/read` request into a read plan by
 * calling `mcpr_plan_set_requested` (once) and `mcpr_plan_add_item` (per
 * item) on `plan`. Metadata only: it must not read bodies or perform
 * application effects.
 *
 * \param user_data The table's `user_data` (may be NULL).
 * \param call The call context (cancellation, deadline, request data).
 * \param match The matched definition, URI and template captures.
 * \param plan The plan to fill.
 * \return `MCPR_CB_OK` with a requested target set; `MCPR_CB_UNAVAILABLE`
 *   for a root denial (the read is `MCPR_UNAVAILABLE`); anything else, a
 *   refused plan setter or no requested target make the read fail with
 *   `MCPR_INVALID_PLAN`.
 * \note `call`, `match` and `plan` are borrowed: valid until the callback
 *   returns, usable from any thread until then.
 *
 * \ingroup callbacks
 */
typedef mcpr_cb_result (*mcpr_resolve_fn)(void *MCPR_NULLABLE user_data, const mcpr_call *call, const mcpr_match *match, mcpr_plan_builder *plan);

/**
 * A binding's body `read` callback (`mcpr_binding_callbacks.read`).
 *
 * Reads one item's body into `payload` (`mcpr_payload_set_text` or
 * `mcpr_payload_set_blob`, optionally `mcpr_payload_set_meta` and
 * `mcpr_payload_set_cache_hints`). Should poll `mcpr_call_is_canceled`
 * and respect `mcpr_call_max_bytes`.
 *
 * \param user_data The table's `user_data` (may be NULL).
 * \param call The call context (item deadline, cancellation, byte limit).
 * \param target The item to read (URI, representation, authorization).
 * \param payload The payload to fill.
 * \return `MCPR_CB_OK` with a body set; `MCPR_CB_UNAVAILABLE` for an
 *   `unavailable` issue; `MCPR_CB_INVALID_CONTENT` for an
 *   `invalid_content` issue; `MCPR_CB_FAILED` or any other value for a
 *   `read_failed` issue (`timeout` when its deadline passed). `MCPR_CB_OK`
 *   with no body, or after a refused setter, is an `invalid_content` issue.
 * \note `call`, `target` and `payload` are borrowed: valid until the
 *   callback returns, usable from any thread until then.
 *
 * \ingroup callbacks
 */
typedef mcpr_cb_result (*mcpr_body_read_fn)(void *MCPR_NULLABLE user_data, const mcpr_call *call, const mcpr_target *target, mcpr_payload_builder *payload);

/**
 * The finalizer of a callback table's `user_data`
 * (`mcpr_binding_callbacks.release`, `mcpr_policy_callbacks.release`).
 *
 * \param user_data The table's `user_data` (may be NULL).
 * \note Runs exactly once, on any thread, after the last call into its
 *   table has returned (see the table for when).
 *
 * \ingroup callbacks
 */
typedef void (*mcpr_release_fn)(void *MCPR_NULLABLE user_data);

/**
 * A template binding's `complete` callback
 * (`mcpr_binding_callbacks.complete`).
 *
 * Proposes values for `mcpr_completion_request_argument(request)`
 * starting from `mcpr_completion_request_value(request)`, most relevant
 * first, with `mcpr_completion_add_value` (and optionally
 * `mcpr_completion_set_total` / `mcpr_completion_set_has_more`). Metadata
 * only: it must not read bodies or perform application effects.
 *
 * \param user_data The table's `user_data` (may be NULL).
 * \param call The call context (deadline, cancellation, request data).
 * \param request What the client asks to complete.
 * \param completion_builder The values to fill.
 * \return `MCPR_CB_OK`; `MCPR_CB_UNAVAILABLE` answers like not found
 *   (`MCPR_UNAVAILABLE`); any other value fails the call with
 *   `MCPR_READ_FAILED`.
 * \note `call`, `request` and `completion_builder` are borrowed: valid
 *   until the callback returns, usable from any thread until then.
 *
 * \ingroup callbacks
 */
typedef mcpr_cb_result (*mcpr_complete_fn)(void *MCPR_NULLABLE user_data, const mcpr_call *call, const mcpr_completion_request *request, mcpr_completion_builder *completion_builder);

/**
 * A binding's optional `size_hint` callback
 * (`mcpr_binding_callbacks.size_hint`): a pure, conservative sizer of a
 * payload that `read` produced.
 *
 * Writes to `estimate` an upper bound on the bytes the item adds to the
 * encoded result: the item object, with its `uri`, `mimeType`, `_meta` and
 * escaped or base64 body, plus one separating comma. The estimate replaces
 * the exact measurement in the budgets; an estimate below the real size
 * fails the read's final size check (`MCPR_SIZE`). Runs after each
 * successful `read`, on the same thread; it must not block.
 *
 * \param user_data The table's `user_data` (may be NULL).
 * \param target The item that was read (URI, representation,
 *   authorization).
 * \param payload_bytes The body's size: text bytes, or raw blob bytes
 *   before base64.
 * \param is_blob True for a blob body, false for text.
 * \param estimate Where to write the upper bound.
 * \return `MCPR_CB_OK` with `*estimate` written; any other value means no
 *   estimate (the library measures the item exactly).
 * \note `target` and `estimate` are borrowed: valid until the callback
 *   returns.
 *
 * \ingroup callbacks
 */
typedef mcpr_cb_result (*mcpr_size_hint_fn)(void *MCPR_NULLABLE user_data, const mcpr_target *target, uint64_t payload_bytes, bool is_blob, uint64_t *estimate);

/**
 * The binding callback table given to `mcpr_builder_add` (copied by the
 * call; the struct itself need not outlive it).
 *
 * `resolve` and `read` are required; `release`, `complete` and `size_hint` are
 * optional. `resolve` and `read` may be called concurrently from many reads on
 * any thread, with the same `user_data`; they run on the calling thread of
 * `mcpr_read`, or on an executor worker when the read is given an executor.
 * There, a callback still running at its deadline (the item deadline for
 * `read`, the read deadline for `resolve`) or on cancellation is abandoned: it
 * keeps running on its worker, its result is discarded, and its views stay
 * valid until it returns. Callbacks should not throw: a C++ exception escaping
 * one is stopped inside the library (the process aborts), never reaching the
 * caller; `longjmp` out of a callback is undefined behaviour.
 *
 * `release(user_data)` runs exactly once, on any thread, if and only if
 * `mcpr_builder_add` succeeded, after the last call into this table has
 * returned, and after any abandoned callback of a read or listing on an
 * executor that involves this binding (a reader, or a policy callback)
 * has returned: when the builder is freed without building, when a build
 * fails, or when the last reference to the registry goes away.
 *
 * Growth: set `struct_size` to `sizeof(mcpr_binding_callbacks)`, or start
 * from `MCPR_BINDING_CALLBACKS_INIT` / `mcpr_binding_callbacks_init` (every
 * callback NULL). Later versions append fields; the library reads only the
 * fields lying wholly within `struct_size` (the others are NULL), refuses a
 * `struct_size` below `sizeof(size_t)` or above 4096, and refuses set bytes
 * beyond the fields it knows (`MCPR_INVALID_ARGUMENT`).
 *
 * \ingroup callbacks
 */
typedef struct {
    /**
     * `sizeof(mcpr_binding_callbacks)` as the caller compiled it (see above).
     */
    size_t struct_size;
    /**
     * Passed as the first argument of every callback.
     */
    void *MCPR_NULLABLE user_data;
    /**
     * Required: turns a match into a read plan (see `mcpr_resolve_fn`), or
     * `mcpr_resolve_single` for the matched URI alone.
     */
    mcpr_resolve_fn MCPR_NULLABLE resolve;
    /**
     * Required: reads one item's body (see `mcpr_body_read_fn`).
     */
    mcpr_body_read_fn MCPR_NULLABLE read;
    /**
     * Optional (NULL = none): the finalizer of `user_data` (see above).
     */
    mcpr_release_fn MCPR_NULLABLE release;
    /**
     * Optional completion callback of a template binding (see
     * `mcpr_complete_fn`; a non-NULL one on an exact-URI definition is
     * `MCPR_INVALID_CONFIGURATION`). NULL (the default of a positional
     * initialiser that stops before it): the template answers an empty
     * completion. Runs after the policy's `discover` allowed the template, on
     * the thread calling `mcpr_complete` or `mcpr_request` (or on an executor
     * worker when its options give one), under the call's deadline and
     * cancellation.
     */
    mcpr_complete_fn MCPR_NULLABLE complete;
    /**
     * Optional (NULL = the library measures each item exactly): a sizer of
     * the payloads `read` produces (see `mcpr_size_hint_fn`). Added with
     * `struct_size`: a table built against an older header leaves it NULL.
     */
    mcpr_size_hint_fn MCPR_NULLABLE size_hint;
} mcpr_binding_callbacks;

/**
 * The policy's `discover` callback (`mcpr_policy_callbacks.discover`):
 * may the caller discover this definition? Asked by reads, listings and
 * completions.
 *
 * \param user_data The table's `user_data` (may be NULL).
 * \param call The call context (`mcpr_call_phase` says which step).
 * \param definition The registered definition.
 * \return `MCPR_CB_OK` to allow; `MCPR_CB_UNAVAILABLE` to deny (the
 *   definition is treated as absent); any other value fails the whole call
 *   with `MCPR_POLICY`.
 * \note `call` and `definition` are borrowed: valid until the callback
 *   returns, usable from any thread until then.
 *
 * \ingroup callbacks
 */
typedef mcpr_cb_result (*mcpr_discover_fn)(void *MCPR_NULLABLE user_data, const mcpr_call *call, const mcpr_definition *definition);

/**
 * A visibility decision written by the `visibility` policy callback.
 *
 * The callback must write `visible` (true or false) before returning
 * `MCPR_CB_OK`; `disclose_issue_uri` is pre-filled with false. On entry
 * `visible` holds a sentinel byte that is neither true nor false (do not
 * read it): a callback that returns `MCPR_CB_OK` without writing `visible`
 * fails the call with `MCPR_POLICY` (private cause "visibility callback
 * returned OK without deciding"), instead of silently hiding the target
 * from reads while listings still show its definition.
 *
 * \ingroup callbacks
 */
typedef struct {
    /**
     * Whether the caller may know the target exists (hidden targets are
     * outside the selection and never reported).
     */
    bool visible;
    /**
     * Whether an issue about this target may name its URI (when it is at
     * most 256 bytes); only the final decision counts.
     */
    bool disclose_issue_uri;
} mcpr_visibility;

/**
 * The policy's `visibility` callback (`mcpr_policy_callbacks.visibility`):
 * is this target visible, and may issues name its URI?
 *
 * \param user_data The table's `user_data` (may be NULL).
 * \param call The call context (`mcpr_call_phase` says which step).
 * \param target The target asked about.
 * \param decision Where to write the decision: `visible` must be written
 *   (true or false) before returning `MCPR_CB_OK`, else the call fails with
 *   `MCPR_POLICY`; `disclose_issue_uri` is pre-filled false (see
 *   `mcpr_visibility`).
 * \return `MCPR_CB_OK` with `decision->visible` written; any other value
 *   fails the whole call with `MCPR_POLICY`.
 * \note `call`, `target` and `decision` are borrowed: valid until the
 *   callback returns, usable from any thread until then.
 *
 * \ingroup callbacks
 */
typedef mcpr_cb_result (*mcpr_visibility_fn)(void *MCPR_NULLABLE user_data, const mcpr_call *call, const mcpr_target *target, mcpr_visibility *decision);

/**
 * The policy's `read` callback (`mcpr_policy_callbacks.read`): may the
 * caller read this visible target?
 *
 * \param user_data The table's `user_data` (may be NULL).
 * \param call The call context (`mcpr_call_phase` says which step).
 * \param target The target asked about.
 * \return `MCPR_CB_OK` to allow; `MCPR_CB_UNAVAILABLE` to deny; any other
 *   value fails the whole call with `MCPR_POLICY`.
 * \note `call` and `target` are borrowed: valid until the callback
 *   returns, usable from any thread until then.
 *
 * \ingroup callbacks
 */
typedef mcpr_cb_result (*mcpr_policy_read_fn)(void *MCPR_NULLABLE user_data, const mcpr_call *call, const mcpr_target *target);

/**
 * What one `decide_plan` call is asked (`mcpr_policy_callbacks.decide_plan`),
 * in the order the per-item callbacks would be: `discover(definition)`
 * when `definition` is not NULL; then the requested target's visibility
 * and (when visible) read permission when `requested` is not NULL; then
 * every item's, in plan order. A single-item plan whose item is the
 * requested target lists it both as `requested` and as `items[0]`. Every
 * pointer is borrowed until the callback returns.
 *
 * \ingroup callbacks
 */
typedef struct {
    /**
     * The definition whose discovery is asked, or NULL (not asked).
     */
    const mcpr_definition *MCPR_NULLABLE definition;
    /**
     * The requested target, or NULL (not asked).
     */
    const mcpr_target *MCPR_NULLABLE requested;
    /**
     * `items_len` item views (NULL when `items_len` is 0); the array is
     * the library's, not to be written.
     */
    const mcpr_target *MCPR_NULLABLE *MCPR_NULLABLE items;
    /**
     * The number of items asked about (the length of `items`, and of
     * `mcpr_plan_decision.items`).
     */
    size_t items_len;
} mcpr_plan_questions;

/**
 * One target's answers in a plan decision (`mcpr_plan_decision`), written
 * by the `decide_plan` policy callback.
 *
 * `visibility_result` and `read_result` are what the `visibility` and
 * `read` callbacks would return for the target (`MCPR_CB_OK`,
 * `MCPR_CB_UNAVAILABLE`, `MCPR_CB_FAILED`, `MCPR_CB_INPUT_REQUIRED`), and
 * `visibility` what `visibility` would write. The library pre-fills both
 * results with `MCPR_CB_FAILED` (an answer left as it is fails the call
 * with `MCPR_POLICY`, when the library needs it) and `visibility.visible`
 * with the same sentinel as for `visibility` (a `visibility_result` of
 * `MCPR_CB_OK` without `visible` written is a policy failure).
 * `read_result` is used only when the target is visible.
 *
 * \ingroup callbacks
 */
typedef struct {
    /**
     * What `visibility` would return for this target.
     */
    mcpr_cb_result visibility_result;
    /**
     * What `visibility` would write (see `mcpr_visibility`).
     */
    mcpr_visibility visibility;
    /**
     * What the policy `read` would return for this (visible) target.
     */
    mcpr_cb_result read_result;
} mcpr_target_decision;

/**
 * Where a `decide_plan` callback writes its answers. The library owns it
 * and pre-fills every result with `MCPR_CB_FAILED` (see
 * `mcpr_target_decision`); the callback writes `discover` (when a
 * definition is asked), `requested` (when a requested target is asked)
 * and `items[0 .. items_len)`, and nothing else: the library reads the
 * answers back from its own storage, whatever `items` and `items_len`
 * hold when the callback returns.
 *
 * \ingroup callbacks
 */
typedef struct {
    /**
     * What `discover` would return for the definition asked.
     */
    mcpr_cb_result discover;
    /**
     * The requested target's answers.
     */
    mcpr_target_decision requested;
    /**
     * `items_len` decisions, one per item asked about, in plan order
     * (NULL when `items_len` is 0).
     */
    mcpr_target_decision *MCPR_NULLABLE items;
    /**
     * The length of `items` (the same as `mcpr_plan_questions.items_len`).
     */
    size_t items_len;
} mcpr_plan_decision;

/**
 * The policy's optional plan-level callback
 * (`mcpr_policy_callbacks.decide_plan`): every answer of one step of a
 * read in one call (docs/BEHAVIOUR.md §5), for hosts whose every callback
 * is costly (one crossing into another language each).
 *
 * When the table has one, the library asks it instead of the per-item
 * callbacks in a read's first check (one call for discovery and every
 * target when the binding plans with `mcpr_resolve_single`; otherwise one
 * for discovery before `resolve` and one for the targets after it), in
 * its recheck (one call), and in the root checks of an embedding or a
 * subscription; `mcpr_call_phase` says which. Listings, completion and a
 * list change still ask `discover` per definition. The answers mean what
 * the per-item callbacks' results mean and are read with the same rules
 * in the same order, stopping where the per-item form stops (a denied or
 * failed discovery, a hidden or denied requested target, a failure, an
 * item asking for input in the first check): answers after that are never
 * used. A cause set with `mcpr_call_set_cause` goes to the first failing
 * answer the library reads; input requests added before returning
 * `MCPR_CB_INPUT_REQUIRED` as an answer go to the first such answer it
 * reads (only the first check's read permission may ask, as for `read`).
 *
 * \param user_data The table's `user_data` (may be NULL).
 * \param call The call context (`mcpr_call_phase` says which step).
 * \param questions What is asked (see `mcpr_plan_questions`).
 * \param decision Where to write the answers (see `mcpr_plan_decision`).
 * \return `MCPR_CB_OK` with the answers written; any other value fails the
 *   whole call with `MCPR_POLICY` (its cause, if set, the private cause).
 * \note `call`, `questions` (and every view it points at) and `decision`
 *   are borrowed: valid until the callback returns, usable from any thread
 *   until then.
 *
 * \ingroup callbacks
 */
typedef mcpr_cb_result (*mcpr_decide_plan_fn)(void *MCPR_NULLABLE user_data, const mcpr_call *call, const mcpr_plan_questions *questions, mcpr_plan_decision *decision);

/**
 * The policy callback table given to `mcpr_builder_set_policy` (copied by
 * the call).
 *
 * All three callbacks are required; `release` is optional. They may be
 * called concurrently from many reads and listings on any thread, with the
 * same `user_data`; they run on the thread calling `mcpr_read`,
 * `mcpr_list` or `mcpr_list_templates`, or on an executor worker when the
 * call is given an executor. There, a callback still running at the call's
 * deadline or on cancellation is abandoned: it keeps running, its result
 * is discarded, its views stay valid until it returns, and `release` runs
 * after it returns. Callbacks should not throw (see
 * `mcpr_binding_callbacks`); `longjmp` out of one is undefined behaviour.
 * `MCPR_CB_UNAVAILABLE` from `discover` or `read` is a denial; any other
 * failure (and any failure of `visibility`) fails the whole call with
 * `MCPR_POLICY`.
 *
 * `release(user_data)` runs exactly once, on any thread, if and only if
 * `mcpr_builder_set_policy` succeeded, after the last call into this
 * table has returned: when it is replaced by another
 * `mcpr_builder_set_policy`, when the builder is freed without building,
 * when a build fails, or when the last reference to the registry goes away.
 *
 * Growth: set `struct_size` to `sizeof(mcpr_policy_callbacks)`, or start from
 * `MCPR_POLICY_CALLBACKS_INIT` / `mcpr_policy_callbacks_init` (every callback
 * NULL). Later versions append fields; the library reads only the fields lying
 * wholly within `struct_size` (the others are NULL), refuses a `struct_size`
 * below `sizeof(size_t)` or above 4096, and refuses set bytes beyond the
 * fields it knows (`MCPR_INVALID_ARGUMENT`).
 *
 * \ingroup callbacks
 */
typedef struct {
    /**
     * `sizeof(mcpr_policy_callbacks)` as the caller compiled it (see above).
     */
    size_t struct_size;
    /**
     * Passed as the first argument of every callback.
     */
    void *MCPR_NULLABLE user_data;
    /**
     * Required: may the caller discover this definition (see
     * `mcpr_discover_fn`)?
     */
    mcpr_discover_fn MCPR_NULLABLE discover;
    /**
     * Required: is this target visible, and may issues name its URI (see
     * `mcpr_visibility_fn`)?
     */
    mcpr_visibility_fn MCPR_NULLABLE visibility;
    /**
     * Required: may the caller read this visible target (see
     * `mcpr_policy_read_fn`)?
     */
    mcpr_policy_read_fn MCPR_NULLABLE read;
    /**
     * Optional finalizer of `user_data` (see above).
     */
    mcpr_release_fn MCPR_NULLABLE release;
    /**
     * Optional (NULL = the per-item callbacks answer every question): the
     * plan-level entry that answers a whole step of a read in one call (see
     * `mcpr_decide_plan_fn`). Added with `struct_size`: a table built
     * against an older header leaves it NULL.
     */
    mcpr_decide_plan_fn MCPR_NULLABLE decide_plan;
} mcpr_policy_callbacks;

/**
 * A configurable limit (one per row of docs/BEHAVIOUR.md §7; timeouts in
 * milliseconds). A plain integer so that an unknown value is reported as
 * `MCPR_INVALID_ARGUMENT` rather than being undefined behaviour.
 *
 * \ingroup builder
 */
typedef uint32_t mcpr_limit;

/**
 * Which step of which call a callback serves (`mcpr_call_phase`). A plain
 * integer: later versions may add values, so treat unknown ones like
 * `MCPR_PHASE_UNKNOWN`.
 *
 * \ingroup callbacks
 */
typedef uint32_t mcpr_phase;

/**
 * One event of an observed registry (see `mcpr_observer_callbacks`),
 * filled by the library and lent to `on_event` until it returns.
 *
 * Fields that do not apply to the event's kind are zero (empty strings).
 * What a log read by client-facing operators may show is the public part:
 * every field without the `private_` prefix, of events whose `is_private`
 * is false. URIs appear in `uri` only under the report's disclosure rule
 * (docs/BEHAVIOUR.md §19); hashes of the others come from
 * `mcpr_event_uri_hash`.
 *
 * Growth: `struct_size` is `sizeof(mcpr_event)` as this library knows it;
 * later versions append fields. A program built against a newer header
 * reads a field only when `struct_size` covers it.
 *
 * \ingroup callbacks
 */
typedef struct {
    /**
     * `sizeof(mcpr_event)` as the library filling it knows it.
     */
    size_t struct_size;
    /**
     * `MCPR_EVENT_CALL` or `MCPR_EVENT_DECISION`.
     */
    uint32_t kind;
    /**
     * The MCP method (`"resources/read"`, `"resources/list"`,
     * `"resources/templates/list"`, `"completion/complete"`,
     * `"tools/call"` for the resource tools), `"embed"` for
     * `mcpr_embed` (no MCP method of its own), or `"subscriptions"` for
     * every subscription decision (`resources/subscribe`,
     * `resources/unsubscribe`, `subscriptions/listen`, the `mcpr_notify_*`
     * calls of one registry, listing fingerprints).
     */
    mcpr_str method;
    /**
     * The protocol revision of the call (`"2026-07-28"`, ...).
     */
    mcpr_str protocol_revision;
    /**
     * A number identifying the call in the process; its decision events
     * carry the same.
     */
    uint64_t call_id;
    /**
     * The call's `request_data` (NULL when none), for the host's own
     * identity of the caller.
     */
    void *MCPR_NULLABLE request_data;
    /**
     * Call events: `MCPR_OK`, or the call's failure.
     */
    mcpr_status status;
    /**
     * Call events: the JSON-RPC error code the client is sent (0 on
     * success).
     */
    int32_t jsonrpc_code;
    /**
     * Call events: the failure's safe message, what the client is told
     * (empty on success).
     */
    mcpr_str status_message;
    /**
     * Call events: from the call's start to its return, in nanoseconds.
     */
    uint64_t duration_ns;
    /**
     * Call events with an executor: from the submission of the call's
     * first job to its start on a worker (see `has_queue_wait`).
     */
    uint64_t queue_wait_ns;
    /**
     * Whether `queue_wait_ns` was measured (an executor ran the call).
     */
    bool has_queue_wait;
    /**
     * Successful call events: the result's items (a read's content items,
     * its warning included; a page's descriptions; a completion's values).
     */
    uint64_t items;
    /**
     * Successful call events: the result JSON's length in bytes.
     */
    uint64_t bytes;
    /**
     * Successful read events: whether the bundle is partial.
     */
    bool partial;
    /**
     * Read events: detailed `unavailable` issues of the report.
     */
    uint32_t issues_unavailable;
    /**
     * Read events: detailed `read_failed` issues.
     */
    uint32_t issues_read_failed;
    /**
     * Read events: detailed `timeout` issues.
     */
    uint32_t issues_timeout;
    /**
     * Read events: detailed `invalid_content` issues.
     */
    uint32_t issues_invalid_content;
    /**
     * Read events: detailed `budget_exceeded` issues.
     */
    uint32_t issues_budget_exceeded;
    /**
     * Read events: the report's `issuesOmitted`.
     */
    uint64_t issues_omitted;
    /**
     * Successful read and list events: whether `cache_ttl_ms` and
     * `cache_public` hold the result's cache hints.
     */
    bool has_cache;
    /**
     * The result's `ttlMs`.
     */
    uint64_t cache_ttl_ms;
    /**
     * Whether the result's `cacheScope` is `"public"`.
     */
    bool cache_public;
    /**
     * The URI the event is about, in plain, only where the disclosure
     * rule allows (else empty; see `mcpr_event_uri_hash`).
     */
    mcpr_str uri;
    /**
     * Decision events: what was decided (`MCPR_DECISION_*`).
     */
    uint32_t rule;
    /**
     * Decision events: the rule's name (`"admitted"`, `"hidden"`, ...).
     */
    mcpr_str rule_name;
    /**
     * Decision events: what it is about (`MCPR_SUBJECT_*`).
     */
    uint32_t subject;
    /**
     * Decision events: when (`MCPR_PHASE_*`; `MCPR_PHASE_UNKNOWN` when no
     * callback decided).
     */
    mcpr_phase phase;
    /**
     * Decision events: the issue given to an item (`MCPR_UNAVAILABLE`,
     * `MCPR_READ_FAILED`, `MCPR_TIMEOUT`, `MCPR_INVALID_CONTENT`,
     * `MCPR_BUDGET_EXCEEDED`), or `MCPR_OK` for none.
     */
    mcpr_status issue;
    /**
     * Decision events: the whole event is private (it concerns what the
     * caller may not learn); a log client-facing operators read must
     * leave it out.
     */
    bool is_private;
    /**
     * Private. Item decisions: the item's index in the plan (it counts
     * hidden items); `UINT64_MAX` otherwise.
     */
    uint64_t private_item_index;
    /**
     * Private. Call events: whether the callback counts and times below
     * were measured (`MCPR_OBSERVE_CALLBACK_TIMINGS`).
     */
    bool private_timed;
    /**
     * Private: `discover` callbacks called.
     */
    uint64_t private_discover_calls;
    /**
     * Private: their total time, in nanoseconds.
     */
    uint64_t private_discover_ns;
    /**
     * Private: `visibility` callbacks called.
     */
    uint64_t private_visibility_calls;
    /**
     * Private: their total time, in nanoseconds.
     */
    uint64_t private_visibility_ns;
    /**
     * Private: policy `read` permission callbacks called.
     */
    uint64_t private_permission_calls;
    /**
     * Private: their total time, in nanoseconds.
     */
    uint64_t private_permission_ns;
    /**
     * Private: `resolve` callbacks called.
     */
    uint64_t private_resolve_calls;
    /**
     * Private: their total time, in nanoseconds.
     */
    uint64_t private_resolve_ns;
    /**
     * Private: body `read` callbacks called.
     */
    uint64_t private_body_read_calls;
    /**
     * Private: their total time, in nanoseconds.
     */
    uint64_t private_body_read_ns;
    /**
     * Private: `complete` callbacks called.
     */
    uint64_t private_complete_calls;
    /**
     * Private: their total time, in nanoseconds.
     */
    uint64_t private_complete_ns;
} mcpr_event;

/**
 * An observer's `on_event` callback (`mcpr_observer_callbacks.on_event`).
 *
 * \param user_data The table's `user_data` (may be NULL).
 * \param event The event, lent until the callback returns (with every
 *   string it points at and what `mcpr_event_*` return for it).
 * \note Runs on the calling thread or, with an executor, on a worker,
 *   concurrently from many calls: it must not block. An exception must not
 *   escape it (the C++ wrapper catches them); nothing it does changes a
 *   result.
 *
 * \ingroup callbacks
 */
typedef void (*mcpr_event_fn)(void *MCPR_NULLABLE user_data, const mcpr_event *event);

/**
 * The observer table given to `mcpr_builder_set_observer` (copied by the
 * call).
 *
 * `on_event` is required; `release` is optional. `on_event` receives one
 * `MCPR_EVENT_CALL` event per call of the registry (every `mcpr_read`,
 * `mcpr_list`, `mcpr_list_templates`, `mcpr_complete`, and every
 * `mcpr_request` the library serves, refused ones included), and with
 * `MCPR_OBSERVE_DECISIONS` the decision events of each call before its
 * call event. It runs on the calling thread, or on an executor worker for
 * the decisions made there, concurrently from many calls with the same
 * `user_data`; it must not block; nothing it does changes a result.
 *
 * `release(user_data)` runs exactly once, on any thread, if and only if
 * `mcpr_builder_set_observer` succeeded, after the last event was handed
 * over: when the table is replaced, when the builder is freed without
 * building, when a build fails, or when the last reference to the
 * registry goes away (and any job of it abandoned on an executor has
 * returned).
 *
 * Growth: set `struct_size` to `sizeof(mcpr_observer_callbacks)`, or start
 * from `MCPR_OBSERVER_CALLBACKS_INIT` / `mcpr_observer_callbacks_init`, as
 * for `mcpr_binding_callbacks`.
 *
 * \ingroup callbacks
 */
typedef struct {
    /**
     * `sizeof(mcpr_observer_callbacks)` as the caller compiled it.
     */
    size_t struct_size;
    /**
     * Passed as the first argument of every callback.
     */
    void *MCPR_NULLABLE user_data;
    /**
     * Required: receives each event (see `mcpr_event_fn`).
     */
    mcpr_event_fn MCPR_NULLABLE on_event;
    /**
     * Optional (NULL = none): the finalizer of `user_data` (see above).
     */
    mcpr_release_fn MCPR_NULLABLE release;
    /**
     * What else to send: `MCPR_OBSERVE_DECISIONS`,
     * `MCPR_OBSERVE_CALLBACK_TIMINGS`, or both (0 = call events only).
     * Other bits are `MCPR_INVALID_ARGUMENT`.
     */
    uint32_t flags;
} mcpr_observer_callbacks;

/**
 * A wall clock for `mcpr_builder_set_clock`.
 *
 * \param user_data The `user_data` given to `mcpr_builder_set_clock` (may
 * be NULL).
 * \return The current time in Unix milliseconds.
 * \note Called concurrently from any thread for as long as the registry lives.
 *
 * \ingroup builder
 */
typedef uint64_t (*mcpr_clock_fn)(void *MCPR_NULLABLE user_data);

/**
 * Cache hints a host declares for a binding (`mcpr_builder_add_with_hints`)
 * or for one item (`mcpr_payload_set_cache_hints`).
 *
 * Growth: set `struct_size` to `sizeof(mcpr_cache_hints)`, or start from
 * `MCPR_CACHE_HINTS_INIT` / `mcpr_cache_hints_init` (TTL 0, not
 * caller-independent). Later versions append fields; the library reads
 * only the fields lying wholly within `struct_size` (the others take these
 * defaults), refuses a `struct_size` below `sizeof(size_t)` or above 4096,
 * and refuses set bytes beyond the fields it knows
 * (`MCPR_INVALID_ARGUMENT`).
 *
 * \ingroup builder
 */
typedef struct {
    /**
     * `sizeof(mcpr_cache_hints)` as the caller compiled it (see above).
     */
    size_t struct_size;
    /**
     * How long a result made of this content may be considered fresh, in
     * milliseconds (0 = immediately stale; at most `MCPR_MAX_TTL_MS`, else
     * `MCPR_INVALID_CONFIGURATION`, or `MCPR_INVALID_CONTENT` for an item).
     */
    uint64_t ttl_ms;
    /**
     * Whether the content is the same whoever asks. A result is
     * `"public"` only when this and the registry's
     * `policy_caller_independent` are both true and the policy filtered
     * nothing.
     */
    bool caller_independent;
} mcpr_cache_hints;

/**
 * The calls of one method with one outcome since the registry was built,
 * filled by `mcpr_resources_get_metrics`: the fields lying entirely
 * within `struct_size`, which the caller sets (later versions append
 * fields).
 *
 * \ingroup registry
 */
typedef struct {
    /**
     * `sizeof(mcpr_call_metrics)` as the caller compiled it (set by the
     * caller; at least `sizeof(size_t)`, at most 4096).
     */
    size_t struct_size;
    /**
     * Calls counted (the sum of `buckets`).
     */
    uint64_t calls;
    /**
     * Of them, partial bundles (successful reads only).
     */
    uint64_t partial;
    /**
     * Their total duration, in nanoseconds.
     */
    uint64_t total_ns;
    /**
     * The latency histogram (see `MCPR_METRICS_BUCKETS` for the bounds).
     */
    uint64_t buckets[MCPR_METRICS_BUCKETS];
} mcpr_call_metrics;

/**
 * A request's trace context as the host read it (W3C Trace Context
 * `traceparent` and `tracestate`, W3C Baggage `baggage`), the `trace`
 * field of every option struct: handed to every callback of the call
 * through `mcpr_call_traceparent`, `mcpr_call_tracestate` and
 * `mcpr_call_baggage`, as given. Each member is UTF-8 text (else the call
 * is `MCPR_INVALID_ARGUMENT`); an empty one is absent, and one longer than
 * 8 KiB is left out. All zero (the default) = no trace context. For
 * `mcpr_request` it is the host's default: trace members in the request's
 * `params._meta` take its place.
 *
 * \ingroup read
 */
typedef struct {
    /**
     * `traceparent`, e.g. `00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01`.
     */
    mcpr_str traceparent;
    /**
     * `tracestate`.
     */
    mcpr_str tracestate;
    /**
     * `baggage`.
     */
    mcpr_str baggage;
} mcpr_trace_context;

/**
 * Per-call options of `mcpr_read`. NULL options mean all defaults. The
 * library copies what it needs before `mcpr_read` returns.
 *
 * Growth: set `struct_size` to `sizeof(mcpr_read_options)`, or start from
 * `MCPR_READ_OPTIONS_INIT` / `mcpr_read_options_init` (every field at its
 * default). Later versions append fields; the library reads only the fields
 * lying wholly within `struct_size` (the others take their defaults), refuses
 * a `struct_size` below `sizeof(size_t)` or above 4096, and refuses set bytes
 * beyond the fields it knows (`MCPR_INVALID_ARGUMENT`).
 *
 * \ingroup read
 */
typedef struct {
    /**
     * `sizeof(mcpr_read_options)` as the caller compiled it (see above).
     */
    size_t struct_size;
    /**
     * Caller deadline in milliseconds from the start of the call (0 = only
     * the registry's `read_timeout`).
     */
    uint64_t timeout_ms;
    /**
     * Optional cancellation token (the read keeps its own reference, so
     * the token may be freed once `mcpr_read` returns).
     */
    const mcpr_cancel *MCPR_NULLABLE cancel;
    /**
     * Handed to every callback of this read via `mcpr_call_request_data`,
     * possibly on executor threads; never dereferenced by the library.
     * With an executor, a body reader abandoned at its item deadline (or
     * on cancellation) keeps running after `mcpr_read` returns and still
     * sees this pointer: whatever such a reader reaches through it must
     * stay valid until the reader returns (for example, reference-count it
     * and let the reader drop its reference), or body readers must not use
     * it.
     */
    void *MCPR_NULLABLE request_data;
    /**
     * Optional worker pool running this read's callbacks. NULL = every
     * callback runs inline on the calling thread, and the read and item
     * deadlines only take effect between callbacks and through callbacks
     * that honour `mcpr_call_is_canceled`. With an executor, `mcpr_read`
     * returns by the read deadline whatever any callback does (see
     * `mcpr_read`).
     */
    const mcpr_executor *MCPR_NULLABLE executor;
    /**
     * The negotiated MCP protocol revision the result is shaped for:
     * `"2024-11-05"`, `"2025-03-26"`, `"2025-06-18"`, `"2025-11-25"` or
     * `"2026-07-28"`; empty (`{NULL, 0}`) = the newest this library knows
     * (`"2026-07-28"`). Any other value is `MCPR_INVALID_ARGUMENT`. On
     * 2026-07-28 the result carries `resultType`, `ttlMs` and
     * `cacheScope`; before, none of them. Before 2025-06-18 content items
     * carry no `_meta` (those revisions define none; the warning item of a
     * partial bundle is then known by its `mcp-warning:` URI and the
     * result's report).
     */
    mcpr_str protocol_revision;
    /**
     * Optional result `_meta` members of the host (from
     * `mcpr_result_meta_new`; NULL = none), merged into the `_meta` of
     * the result after the library's own members, which they never
     * replace, and charged to the result's budget. The call keeps its own
     * reference: the handle may be freed once the call has begun.
     */
    const mcpr_result_meta *MCPR_NULLABLE result_meta;
    /**
     * Optional trace context of the request, handed to every callback of
     * the call (`mcpr_call_traceparent`, ...); all zero = none (see
     * `mcpr_trace_context`).
     */
    mcpr_trace_context trace;
    /**
     * The caller's principal (for example a hash of its access token's
     * subject), for a read whose callback asks for input
     * (`MCPR_CB_INPUT_REQUIRED`, docs/BEHAVIOUR.md §18): its
     * `requestState` is bound to SHA-256 of these bytes, and the retry must
     * bring the same. Empty: such a read is `MCPR_INVALID_ARGUMENT`. Only
     * `mcpr_read` uses it (and the next four fields).
     */
    mcpr_str scope_key;
    /**
     * The client's `ClientCapabilities` as JSON (from its `initialize`, or
     * the request's `_meta["io.modelcontextprotocol/clientCapabilities"]`);
     * empty = nothing declared. An input request of a kind the client did
     * not declare is never sent: the read fails with `MCPR_INPUT_REQUIRED`
     * and a `-32021` error. Not a JSON object whose `elicitation`,
     * `sampling` and `roots` are objects: `MCPR_INVALID_ARGUMENT`.
     */
    mcpr_str client_capabilities;
    /**
     * The retry's `requestState`, exactly as the client sent it (UTF-8,
     * else `MCPR_INVALID_ARGUMENT`); empty = none. Verified before anything
     * else about the read: tampered,
     * expired, or issued for another scope key, URI, registry content or
     * params is `MCPR_INVALID_REQUEST` (`-32602`), never a fresh read.
     */
    mcpr_str request_state;
    /**
     * The retry's `inputResponses` object as JSON text; empty = none. Given
     * without `request_state` it is `MCPR_INVALID_REQUEST`.
     */
    mcpr_str input_responses;
    /**
     * The request's whole `params` object as JSON text, for binding the
     * `requestState` to the params other than `uri`, `_meta`,
     * `inputResponses` and `requestState`; empty = no other params. Not a
     * JSON object: `MCPR_INVALID_ARGUMENT` when the state is sealed or
     * opened.
     */
    mcpr_str params;
} mcpr_read_options;

/**
 * Which content blocks `mcpr_embed` makes (`mcpr_embed_options.form`). A
 * plain integer so that an unknown value is reported as
 * `MCPR_INVALID_ARGUMENT` rather than being undefined behaviour.
 *
 * \ingroup read
 */
typedef uint32_t mcpr_embed_form;

/**
 * Per-call options of `mcpr_embed`. NULL options mean all defaults. The
 * first fields are those of `mcpr_read_options`, with the same meaning
 * for the whole embedding. The library copies what it needs before
 * `mcpr_embed` returns.
 *
 * Growth: set `struct_size` to `sizeof(mcpr_embed_options)`, or start from
 * `MCPR_EMBED_OPTIONS_INIT` / `mcpr_embed_options_init` (every field at its
 * default). Later versions append fields; the library reads only the fields
 * lying wholly within `struct_size` (the others take their defaults),
 * refuses a `struct_size` below `sizeof(size_t)` or above 4096, and refuses
 * set bytes beyond the fields it knows (`MCPR_INVALID_ARGUMENT`).
 *
 * \ingroup read
 */
typedef struct {
    /**
     * `sizeof(mcpr_embed_options)` as the caller compiled it (see above).
     */
    size_t struct_size;
    /**
     * Caller deadline in milliseconds for the whole embedding (0 = only
     * the registry's `read_timeout`, which also bounds the whole
     * embedding).
     */
    uint64_t timeout_ms;
    /**
     * Optional cancellation token.
     */
    const mcpr_cancel *MCPR_NULLABLE cancel;
    /**
     * Handed to every callback via `mcpr_call_request_data` (same rules as
     * `mcpr_read_options.request_data`).
     */
    void *MCPR_NULLABLE request_data;
    /**
     * Optional worker pool running every callback (as for `mcpr_read`: the
     * embedding then returns by its deadline whatever a callback does).
     */
    const mcpr_executor *MCPR_NULLABLE executor;
    /**
     * The negotiated MCP protocol revision the blocks are written for
     * (`"2024-11-05"`, `"2025-03-26"`, `"2025-06-18"`, `"2025-11-25"`,
     * `"2026-07-28"`; empty = the newest; anything else is
     * `MCPR_INVALID_ARGUMENT`). Before 2025-06-18 there are no
     * `resource_link` blocks: `MCPR_EMBED_LINK` is `MCPR_INVALID_ARGUMENT`
     * and `over_budget_links` is ignored.
     */
    mcpr_str protocol_revision;
    /**
     * `MCPR_EMBED_RESOURCE` (0, the default) or `MCPR_EMBED_LINK`; any
     * other value is `MCPR_INVALID_ARGUMENT`.
     */
    mcpr_embed_form form;
    /**
     * With `MCPR_EMBED_RESOURCE`: an item that would be a `budget_exceeded`
     * issue becomes a `resource_link` block instead when the caller may
     * learn its URI (it is the requested target, or its final visibility
     * discloses it), and a URI the embedding has no budget left for
     * becomes a link when the read's root checks pass.
     */
    bool over_budget_links;
    /**
     * Optional result `_meta` members of the host (from
     * `mcpr_result_meta_new`; NULL = none): the `_meta` of the whole tool
     * result `mcpr_embedding_tool_result_json` gives (never of the blocks),
     * charged once to the embedding's budget. The call keeps its own
     * reference: the handle may be freed once the call has begun.
     */
    const mcpr_result_meta *MCPR_NULLABLE result_meta;
    /**
     * Optional trace context handed to every callback of the embedding
     * (see `mcpr_trace_context`); all zero = none.
     */
    mcpr_trace_context trace;
} mcpr_embed_options;

/**
 * Sizing and bounds of a new executor, for `mcpr_executor_new_with`.
 * Zero fields mean the defaults.
 *
 * Growth: set `struct_size` to `sizeof(mcpr_executor_options)`, or start
 * from `MCPR_EXECUTOR_OPTIONS_INIT` / `mcpr_executor_options_init`. Later
 * versions may append fields; the library reads only the fields that lie
 * within `struct_size`, and the others take their defaults, so a program
 * built against an older header keeps working; set bytes beyond the
 * fields this library knows are `MCPR_INVALID_ARGUMENT`.
 *
 * \ingroup read
 */
typedef struct {
    /**
     * `sizeof(mcpr_executor_options)` as the caller compiled it (at least
     * `sizeof(size_t)`, at most 4096; else `MCPR_INVALID_ARGUMENT`).
     */
    size_t struct_size;
    /**
     * Regular workers (0 = the available cores, at least 2; at most
     * `MCPR_MAX_EXECUTOR_THREADS`).
     */
    size_t threads;
    /**
     * Most workers hung in abandoned callbacks that are replaced by new
     * ones (0 = max(8 x threads, 64); at most `MCPR_MAX_EXECUTOR_HUNG`).
     * Once this many are hung, new body reads of a binding that already
     * has a hung reader fail at once as `read_failed` items (private cause
     * "executor saturated"); other bindings are still read. The executor
     * never has more than `threads + max_hung` threads.
     */
    size_t max_hung;
    /**
     * Most calls waiting for a worker at once (0 = max(64 x threads,
     * 1024)); further calls fail at once, as when saturated.
     */
    size_t max_queued;
} mcpr_executor_options;

/**
 * A snapshot of an executor's state and counters, filled by
 * `mcpr_executor_get_stats`. Counters count since the executor was created.
 *
 * Growth: set `struct_size` to `sizeof(mcpr_executor_stats)` before the
 * call. Later versions may append fields; the library writes only the
 * fields that lie entirely within `struct_size` and leaves `struct_size`
 * and any further bytes untouched.
 *
 * \ingroup read
 */
typedef struct {
    /**
     * `sizeof(mcpr_executor_stats)` as the caller compiled it (set by the
     * caller; at least `sizeof(size_t)`, at most 4096).
     */
    size_t struct_size;
    /**
     * Regular workers (the configured count).
     */
    uint64_t threads;
    /**
     * The hung-worker bound in effect.
     */
    uint64_t max_hung;
    /**
     * The queue bound in effect.
     */
    uint64_t max_queued;
    /**
     * Worker threads alive (regular, replacements and hung ones).
     */
    uint64_t workers;
    /**
     * Workers running a call's job whose caller still waits for it.
     */
    uint64_t busy;
    /**
     * Workers running an abandoned callback (hung until it returns). The
     * executor is saturated when `hung >= max_hung` (body reads of a
     * binding with a hung reader fail at once), and refuses every new
     * call when `hung == workers`.
     */
    uint64_t hung;
    /**
     * Jobs (one per read or listing, plus one per continuation after an
     * abandoned body read) waiting for a worker.
     */
    uint64_t queued;
    /**
     * Jobs started on a worker.
     */
    uint64_t started;
    /**
     * Running jobs abandoned by their caller (deadline or cancellation).
     */
    uint64_t abandoned;
    /**
     * Abandoned jobs whose callback has since returned.
     */
    uint64_t returned;
    /**
     * Jobs dropped before they started (their caller gave up, or their
     * deadline passed while they waited), with everything they held.
     */
    uint64_t dropped;
    /**
     * Saturation refusals: calls failed at once and body reads failed at
     * once because the executor was saturated or its queue full.
     */
    uint64_t refused;
    /**
     * Workers started to replace hung ones.
     */
    uint64_t replaced;
    /**
     * The most jobs that waited for a worker at once since the executor
     * was made (against `max_queued`: how deep bursts queue).
     */
    uint64_t queued_high_water;
    /**
     * The most workers busy at once with calls whose callers still waited
     * (against `threads`: whether healthy work needed every worker).
     */
    uint64_t busy_high_water;
    /**
     * The most workers hung at once (against `max_hung`: how close the
     * hung bound has come).
     */
    uint64_t hung_high_water;
    /**
     * Times the executor became saturated: `hung` reached `max_hung`, or
     * every worker was hung (once each time, until hung workers return
     * and it is saturated again).
     */
    uint64_t saturations;
    /**
     * The part of `refused` refused because `max_queued` calls were
     * waiting (the rest: the executor was saturated).
     */
    uint64_t refused_queue_full;
} mcpr_executor_stats;

/**
 * Per-call options of `mcpr_list` and `mcpr_list_templates` (required).
 *
 * Growth: set `struct_size` to `sizeof(mcpr_list_options)`, or start from
 * `MCPR_LIST_OPTIONS_INIT` / `mcpr_list_options_init` (every field at its
 * default). Later versions append fields; the library reads only the fields
 * lying wholly within `struct_size` (the others take their defaults), refuses
 * a `struct_size` below `sizeof(size_t)` or above 4096, and refuses set bytes
 * beyond the fields it knows (`MCPR_INVALID_ARGUMENT`).
 *
 * \ingroup list
 */
typedef struct {
    /**
     * `sizeof(mcpr_list_options)` as the caller compiled it (see above).
     */
    size_t struct_size;
    /**
     * Opaque caller scope (required, non-empty: an empty one is a host
     * mistake, `MCPR_INVALID_ARGUMENT`, as from `mcpr_request`); cursors
     * are bound to a hash of these bytes.
     */
    mcpr_str scope_key;
    /**
     * The previous page's next cursor; `ptr` NULL or `len` 0 = first page.
     */
    mcpr_str cursor;
    /**
     * Requested page size (0 = `default_page_size`; clamped to
     * `max_page_size`).
     */
    uint32_t page_size;
    /**
     * Caller deadline in milliseconds (0 = only the registry's
     * `read_timeout`).
     */
    uint64_t timeout_ms;
    /**
     * Optional cancellation token.
     */
    const mcpr_cancel *MCPR_NULLABLE cancel;
    /**
     * Handed to every policy callback of this call via
     * `mcpr_call_request_data` (on an executor worker when `executor` is
     * set; an abandoned `discover` may still see it after the call
     * returned, as with `mcpr_read_options.request_data`).
     */
    void *MCPR_NULLABLE request_data;
    /**
     * Optional worker pool running this call's `discover` callbacks. NULL
     * = inline on the calling thread (the deadline is checked between
     * callbacks). With an executor the call returns by its deadline
     * (`MCPR_DEADLINE_EXCEEDED`), or promptly on cancellation
     * (`MCPR_CANCELED`), whatever `discover` does; a saturated executor
     * fails it at once with `MCPR_POLICY` (cause "executor saturated").
     */
    const mcpr_executor *MCPR_NULLABLE executor;
    /**
     * The negotiated MCP protocol revision (as in `mcpr_read_options`;
     * empty = the newest). On 2026-07-28 the page carries `resultType`,
     * `ttlMs` and `cacheScope`, and their bytes count against the page's
     * byte budget. Descriptions are listed without the members the
     * revision does not define (`icons` before 2025-11-25; `title`,
     * `_meta` and `annotations.lastModified` before 2025-06-18).
     */
    mcpr_str protocol_revision;
    /**
     * Optional result `_meta` members of the host (from
     * `mcpr_result_meta_new`; NULL = none), the `_meta` of the page,
     * charged to its byte budget. The call keeps its own reference: the
     * handle may be freed once the call has begun.
     */
    const mcpr_result_meta *MCPR_NULLABLE result_meta;
    /**
     * Optional trace context of the request, handed to every `discover`
     * of the call (`mcpr_call_traceparent`, ...); all zero = none (see
     * `mcpr_trace_context`).
     */
    mcpr_trace_context trace;
} mcpr_list_options;

/**
 * Per-call options of `mcpr_request`. NULL options mean all defaults
 * (then the list methods, which need a scope key, are
 * `MCPR_INVALID_ARGUMENT`). The library copies what it needs before
 * `mcpr_request` returns.
 *
 * Growth: set `struct_size` to `sizeof(mcpr_request_options)`, or start from
 * `MCPR_REQUEST_OPTIONS_INIT` / `mcpr_request_options_init` (every field at
 * its default). Later versions append fields; the library reads only the
 * fields lying wholly within `struct_size` (the others take their defaults),
 * refuses a `struct_size` below `sizeof(size_t)` or above 4096, and refuses
 * set bytes beyond the fields it knows (`MCPR_INVALID_ARGUMENT`).
 *
 * \ingroup request
 */
typedef struct {
    /**
     * `sizeof(mcpr_request_options)` as the caller compiled it (see above).
     */
    size_t struct_size;
    /**
     * The protocol revision negotiated with the client (`"2024-11-05"`,
     * `"2025-03-26"`, `"2025-06-18"`, `"2025-11-25"`, `"2026-07-28"`;
     * empty = the newest; anything else is `MCPR_INVALID_ARGUMENT`). A
     * known revision in the request's
     * `params._meta["io.modelcontextprotocol/protocolVersion"]` takes
     * precedence.
     */
    mcpr_str protocol_revision;
    /**
     * Opaque caller scope of `resources/list` and
     * `resources/templates/list` (required and non-empty for them, else
     * `MCPR_INVALID_ARGUMENT`), and of a `resources/read` whose callback
     * asks for input (its `requestState` is bound to it, as
     * `mcpr_read_options.scope_key`). Cursors are bound to a hash of these
     * bytes: use the caller's authorization context (for example a hash of
     * its access token's subject).
     */
    mcpr_str scope_key;
    /**
     * Page size of the list methods (0 = `default_page_size`; clamped to
     * `max_page_size`).
     */
    uint32_t page_size;
    /**
     * Caller deadline in milliseconds (0 = only the registry's
     * `read_timeout`).
     */
    uint64_t timeout_ms;
    /**
     * Optional cancellation token.
     */
    const mcpr_cancel *MCPR_NULLABLE cancel;
    /**
     * Handed to every callback via `mcpr_call_request_data` (same rules as
     * `mcpr_read_options.request_data`).
     */
    void *MCPR_NULLABLE request_data;
    /**
     * Optional worker pool running every callback of the call (reads and
     * listings alike): the call then returns by its deadline whatever a
     * callback does (see `mcpr_read` and `mcpr_list`).
     */
    const mcpr_executor *MCPR_NULLABLE executor;
    /**
     * Serve `tools/call` for the resource tools `read_resource` and
     * `list_resources` (as `mcpr_resource_tools_call` does); any other tool
     * stays `MCPR_METHOD_NOT_HANDLED`. False (the default): `tools/call` is
     * not handled at all.
     */
    bool resource_tools;
    /**
     * Optional result `_meta` members of the host (from
     * `mcpr_result_meta_new`; NULL = none), merged into the `_meta` of
     * every result (error objects are not results) after the library's
     * own members, which they never replace, and charged to the result's
     * budget. The call keeps its own reference: the handle may be freed
     * once the call has begun.
     */
    const mcpr_result_meta *MCPR_NULLABLE result_meta;
    /**
     * Optional trace context, when the host read it itself (for example
     * from its transport), handed to every callback of the call; all zero
     * = none (see `mcpr_trace_context`). Trace members in the request's
     * `params._meta` take its place.
     */
    mcpr_trace_context trace;
    /**
     * The client's `ClientCapabilities` as JSON, as the host knows them
     * from `initialize`, for a `resources/read` whose callback asks for
     * input (docs/BEHAVIOUR.md §18); empty = nothing declared. A
     * `params._meta["io.modelcontextprotocol/clientCapabilities"]` in the
     * request wins. Not a JSON object whose `elicitation`, `sampling` and
     * `roots` are objects: `MCPR_INVALID_ARGUMENT`.
     */
    mcpr_str client_capabilities;
    /**
     * The JSON-RPC id of the request, as its JSON text (`1`, `"abc"`):
     * required by `subscriptions/listen`, whose stream it names
     * (`MCPR_INVALID_ARGUMENT` without it on 2026-07-28; text that is no
     * JSON string or number is `MCPR_INVALID_ARGUMENT` for a listen
     * before its params are read); unused by the other methods.
     */
    mcpr_str request_id;
    /**
     * The notification types the host delivers itself on a
     * `subscriptions/listen` stream (`MCPR_NOTIFY_TOOLS_LIST_CHANGED`,
     * `MCPR_NOTIFY_PROMPTS_LIST_CHANGED`; the resource types are the
     * registry's, `mcpr_builder_set_notifications`): the acknowledgement
     * honors them when the client asked for them. Another bit is
     * `MCPR_INVALID_ARGUMENT`.
     */
    uint32_t host_notifications;
} mcpr_request_options;

/**
 * What a message was (`mcpr_reply_kind`). A `uint32_t` with `#define`d
 * values: later versions may add kinds, so treat an unknown one like
 * `MCPR_MESSAGE_INVALID`.
 *
 * \ingroup request
 */
typedef uint32_t mcpr_message_kind;

/**
 * One named argument of a completion request: `argument` (the variable
 * being completed and its partial value) or one entry of
 * `context.arguments` (a variable already chosen).
 *
 * \ingroup completion
 */
typedef struct {
    /**
     * The variable name.
     */
    mcpr_str name;
    /**
     * The value (the partial value for the argument being completed).
     */
    mcpr_str value;
} mcpr_complete_argument;

/**
 * The client's input of `completion/complete` with a `ref/resource`
 * reference (copied by `mcpr_complete`).
 *
 * \ingroup completion
 */
typedef struct {
    /**
     * `ref.uri`: the template text, compared byte for byte with the
     * registered `uriTemplate`s.
     */
    mcpr_str template_uri;
    /**
     * `argument.name` and `argument.value`.
     */
    mcpr_complete_argument argument;
    /**
     * `context.arguments`: `context_len` entries (NULL when 0), in any
     * order; entries naming no other variable of the template are
     * ignored, and so are empty values.
     */
    const mcpr_complete_argument *MCPR_NULLABLE context;
    /**
     * The number of entries at `context`.
     */
    size_t context_len;
} mcpr_complete_params;

/**
 * Which request a subscription decision answers (`MCPR_SUBSCRIPTION_*`).
 *
 * \ingroup subscriptions
 */
typedef uint32_t mcpr_subscription_method;

/**
 * Per-call options of the `mcpr_notify_*` functions and
 * `mcpr_list_change_notify`: the call's deadline, cancellation, executor
 * and trace context (each subscriber brings its own request data and
 * revision; a notification is no result, so there is no result `_meta`).
 * NULL options mean all defaults. The library copies what it needs before
 * the call returns.
 *
 * Growth: set `struct_size` to `sizeof(mcpr_notify_options)`, or start
 * from `MCPR_NOTIFY_OPTIONS_INIT` / `mcpr_notify_options_init`; the rules
 * of every growing struct apply.
 *
 * \ingroup subscriptions
 */
typedef struct {
    /**
     * `sizeof(mcpr_notify_options)` as the caller compiled it.
     */
    size_t struct_size;
    /**
     * Deadline of the whole call in milliseconds (0 = only the registry's
     * `read_timeout`): every subscriber is decided by then, or the call
     * fails with `MCPR_DEADLINE_EXCEEDED` and nothing is sent.
     */
    uint64_t timeout_ms;
    /**
     * Optional cancellation token (`MCPR_CANCELED`, nothing sent).
     */
    const mcpr_cancel *MCPR_NULLABLE cancel;
    /**
     * Optional worker pool: every callback of the call runs there as one
     * job and the call returns by its deadline whatever a callback does
     * (an abandoned callback keeps running; what it was given stays valid
     * until it returns). A saturated executor fails the call at once with
     * `MCPR_POLICY`.
     */
    const mcpr_executor *MCPR_NULLABLE executor;
    /**
     * Optional trace context of the operation that sends the
     * notifications (the change, the reload), handed to every callback of
     * the call (`mcpr_call_traceparent`, ...); all zero = none (see
     * `mcpr_trace_context`). It is the call's, the same for every
     * subscriber, and appears in no message.
     */
    mcpr_trace_context trace;
} mcpr_notify_options;

/**
 * One subscriber of a change notification (`mcpr_notify_updated`,
 * `mcpr_notify_list_changed`, `mcpr_notify_listing_changed`), as the host
 * recorded it when the subscription was decided. The library copies what
 * it needs before the call returns.
 *
 * Growth: set `struct_size` to `sizeof(mcpr_subscriber)`, or start from
 * `MCPR_SUBSCRIBER_INIT` / `mcpr_subscriber_init`. The functions take an
 * array: every element states the same `struct_size`, which is the
 * array's stride, and the rules of every growing struct apply to each
 * (fields beyond `struct_size` take their defaults; set bytes beyond the
 * fields this library knows are `MCPR_INVALID_ARGUMENT`).
 *
 * \ingroup subscriptions
 */
typedef struct {
    /**
     * `sizeof(mcpr_subscriber)` as the caller compiled it (see above).
     */
    size_t struct_size;
    /**
     * The subscriber's identity: handed to every policy callback deciding
     * for it via `mcpr_call_request_data`, as `request_data` of a request
     * is (NULL = none).
     */
    void *MCPR_NULLABLE request_data;
    /**
     * The protocol revision of the subscriber's session or stream
     * (`mcpr_subscription_protocol_revision`; empty = the newest; an unknown one is
     * `MCPR_INVALID_ARGUMENT`).
     */
    mcpr_str protocol_revision;
    /**
     * The subscription id of its `subscriptions/listen` stream, as JSON
     * text (`mcpr_subscription_id`): required from 2026-07-28 on
     * (`MCPR_INVALID_ARGUMENT` without it), ignored before.
     */
    mcpr_str subscription_id;
    /**
     * `mcpr_notify_updated` only: the URI the subscriber subscribed to,
     * when it is not the URI that changed (it must still be honored too);
     * empty = the changed URI itself.
     */
    mcpr_str uri;
    /**
     * `mcpr_notify_listing_changed` only (required there): the 32-byte
     * listing fingerprint from before the permission change
     * (`mcpr_listing_fingerprint`); NULL elsewhere.
     */
    const uint8_t *MCPR_NULLABLE listing;
} mcpr_subscriber;

/**
 * Receives the outcome of `mcpr_read_start`, exactly once.
 *
 * \param done_data The `done_data` given to `mcpr_read_start` (may be NULL).
 * \param status `MCPR_OK` with a bundle (also for a partial one), or the
 *   read's failure (the status `mcpr_read` would have returned).
 * \param bundle On `MCPR_OK` the bundle, owned by the callee: free it with
 *   `mcpr_bundle_free`, on any thread, now or later; NULL otherwise.
 * \param error On failure the error object, owned by the callee: free it
 *   with `mcpr_error_free`; NULL on `MCPR_OK`.
 * \note Runs on an executor thread (a worker, or the executor's watch
 *   thread at the deadline, on cancellation or when the executor is
 *   saturated), never inside `mcpr_read_start`, possibly before it
 *   returns. Return promptly: the watch thread looks after every
 *   asynchronous call of its executor (signal an event loop, resume a
 *   continuation, and return). The registry and executor the call holds
 *   are let go after it returns.
 *
 * \ingroup async
 */
typedef void (*mcpr_read_done_fn)(void *MCPR_NULLABLE done_data, mcpr_status status, mcpr_bundle *MCPR_NULLABLE bundle, mcpr_error *MCPR_NULLABLE error);

/**
 * Receives the outcome of `mcpr_list_start` or `mcpr_list_templates_start`,
 * exactly once (as `mcpr_read_done_fn`).
 *
 * \param done_data The `done_data` given to the start function (may be NULL).
 * \param status `MCPR_OK` with a page, or the listing's failure.
 * \param page On `MCPR_OK` the page, owned by the callee (free it with
 *   `mcpr_page_free`); NULL otherwise.
 * \param error On failure the error object, owned by the callee (free it
 *   with `mcpr_error_free`); NULL on `MCPR_OK`.
 * \note Threads and timing as for `mcpr_read_done_fn`.
 *
 * \ingroup async
 */
typedef void (*mcpr_list_done_fn)(void *MCPR_NULLABLE done_data, mcpr_status status, mcpr_page *MCPR_NULLABLE page, mcpr_error *MCPR_NULLABLE error);

/**
 * Receives the outcome of `mcpr_complete_start`, exactly once (as
 * `mcpr_read_done_fn`).
 *
 * \param done_data The `done_data` given to `mcpr_complete_start` (may be NULL).
 * \param status `MCPR_OK` with a completion, or the completion's failure.
 * \param completion On `MCPR_OK` the completion, owned by the callee (free
 *   it with `mcpr_completion_free`); NULL otherwise.
 * \param error On failure the error object, owned by the callee (free it
 *   with `mcpr_error_free`); NULL on `MCPR_OK`.
 * \note Threads and timing as for `mcpr_read_done_fn`.
 *
 * \ingroup async
 */
typedef void (*mcpr_complete_done_fn)(void *MCPR_NULLABLE done_data, mcpr_status status, mcpr_completion *MCPR_NULLABLE completion, mcpr_error *MCPR_NULLABLE error);

/**
 * Receives the outcome of `mcpr_request_start`, exactly once (as
 * `mcpr_read_done_fn`).
 *
 * \param done_data The `done_data` given to `mcpr_request_start` (may be NULL).
 * \param status `MCPR_OK` with a response to send (a result or an error
 *   object, as from `mcpr_request`, including a deadline, a cancellation
 *   or a saturated executor), or `MCPR_METHOD_NOT_HANDLED` for a
 *   `completion/complete` with a `ref/prompt` reference (no response:
 *   answer it with your prompts).
 * \param response On `MCPR_OK` the response, owned by the callee (free it
 *   with `mcpr_response_free`); NULL otherwise.
 * \param error Otherwise the error object, owned by the callee (free it
 *   with `mcpr_error_free`); NULL on `MCPR_OK`.
 * \note Threads and timing as for `mcpr_read_done_fn`.
 *
 * \ingroup async
 */
typedef void (*mcpr_request_done_fn)(void *MCPR_NULLABLE done_data, mcpr_status status, mcpr_response *MCPR_NULLABLE response, mcpr_error *MCPR_NULLABLE error);

/**
 * Receives the outcome of `mcpr_message_start`, exactly once (as
 * `mcpr_read_done_fn`).
 *
 * \param done_data The `done_data` given to `mcpr_message_start` (may be NULL).
 * \param status `MCPR_OK` with the reply `mcpr_message` would have given
 *   (send its `mcpr_reply_json` when it is not empty; route the message
 *   yourself when `mcpr_reply_handled` is false).
 * \param reply On `MCPR_OK` the reply, owned by the callee (free it with
 *   `mcpr_reply_free`); NULL otherwise.
 * \param error Otherwise the error object, owned by the callee (free it
 *   with `mcpr_error_free`); NULL on `MCPR_OK`.
 * \note Threads and timing as for `mcpr_read_done_fn`.
 *
 * \ingroup async
 */
typedef void (*mcpr_message_done_fn)(void *MCPR_NULLABLE done_data, mcpr_status status, mcpr_reply *MCPR_NULLABLE reply, mcpr_error *MCPR_NULLABLE error);

/**
 * What the user did with an elicitation (`mcpr_input_response_action`).
 * A plain integer: later versions may add values.
 *
 * \ingroup callbacks
 */
typedef uint32_t mcpr_input_action;

/**
 * A set of MCP change-notification types, as bits (`MCPR_NOTIFY_*`).
 *
 * \ingroup subscriptions
 */
typedef uint32_t mcpr_notification_types;

/**
 * Embedded `resource` blocks: the items a read of each URI gives (the
 * default).
 *
 * \ingroup read
 */
#define MCPR_EMBED_RESOURCE 0u

/**
 * One `resource_link` block per URI the caller may read, built from its
 * registered description; no body is read.
 *
 * \ingroup read
 */
#define MCPR_EMBED_LINK 1u

/**
 * No message: JSON whitespace only (ignored), or a NULL reply.
 *
 * \ingroup request
 */
#define MCPR_MESSAGE_NONE 0u

/**
 * A request: a method and an id.
 *
 * \ingroup request
 */
#define MCPR_MESSAGE_REQUEST 1u

/**
 * A notification: a method and no id; never answered.
 *
 * \ingroup request
 */
#define MCPR_MESSAGE_NOTIFICATION 2u

/**
 * A response: an id and `result` or `error`, no method (the client
 * answering a request of the host's).
 *
 * \ingroup request
 */
#define MCPR_MESSAGE_RESPONSE 3u

/**
 * Not a JSON-RPC message: answered `-32700` (not JSON) or `-32600`.
 *
 * \ingroup request
 */
#define MCPR_MESSAGE_INVALID 4u

/**
 * `resources/subscribe`: record the URI for the session.
 *
 * \ingroup subscriptions
 */
#define MCPR_SUBSCRIPTION_SUBSCRIBE 1

/**
 * `resources/unsubscribe`: forget the URI for the session.
 *
 * \ingroup subscriptions
 */
#define MCPR_SUBSCRIPTION_UNSUBSCRIBE 2

/**
 * `subscriptions/listen`: record the stream (id, URIs, types) until the
 * client cancels it.
 *
 * \ingroup subscriptions
 */
#define MCPR_SUBSCRIPTION_LISTEN 3

/**
 * `notifications/resources/updated` for subscribed URIs (the `resources`
 * capability's `subscribe`; a listen filter's `resourceSubscriptions`).
 *
 * \ingroup subscriptions
 */
#define MCPR_NOTIFY_RESOURCE_UPDATES 1

/**
 * `notifications/resources/list_changed` (the capability's
 * `listChanged`; a listen filter's `resourcesListChanged`).
 *
 * \ingroup subscriptions
 */
#define MCPR_NOTIFY_RESOURCES_LIST_CHANGED 2

/**
 * `notifications/tools/list_changed` (the host's own: see
 * `mcpr_request_options.host_notifications`).
 *
 * \ingroup subscriptions
 */
#define MCPR_NOTIFY_TOOLS_LIST_CHANGED 4

/**
 * `notifications/prompts/list_changed` (the host's own).
 *
 * \ingroup subscriptions
 */
#define MCPR_NOTIFY_PROMPTS_LIST_CHANGED 8

/**
 * NULL call context (or a phase this header does not name).
 *
 * \ingroup callbacks
 */
#define MCPR_PHASE_UNKNOWN 0u

/**
 * A read's first authorization (policy `discover`, `visibility`, `read`
 * before any body is read).
 *
 * \ingroup callbacks
 */
#define MCPR_PHASE_FIRST_CHECK 1u

/**
 * A read's final authorization after the body reads (the same policy
 * callbacks asked again; docs/BEHAVIOUR.md §5 step 6).
 *
 * \ingroup callbacks
 */
#define MCPR_PHASE_RECHECK 2u

/**
 * A binding's `resolve`.
 *
 * \ingroup callbacks
 */
#define MCPR_PHASE_RESOLVE 3u

/**
 * A binding's body `read`.
 *
 * \ingroup callbacks
 */
#define MCPR_PHASE_BODY_READ 4u

/**
 * Policy `discover` during `mcpr_list` / `mcpr_list_templates`.
 *
 * \ingroup callbacks
 */
#define MCPR_PHASE_LISTING 5u

/**
 * Policy `discover` and a template's `complete` during `mcpr_complete`.
 *
 * \ingroup callbacks
 */
#define MCPR_PHASE_COMPLETION 6u

/**
 * Policy `discover`, `visibility` and `read` deciding a subscription or a
 * change notification (`resources/subscribe`, `subscriptions/listen`,
 * `mcpr_notify_updated`, `mcpr_notify_list_changed`,
 * `mcpr_notify_listing_changed`, `mcpr_listing_fingerprint`); `resolve`
 * runs in `MCPR_PHASE_RESOLVE` there too.
 *
 * \ingroup callbacks
 */
#define MCPR_PHASE_SUBSCRIPTION 7u

/**
 * No elicitation response under that key (none was asked, the client sent
 * none, it answers another kind of request, or the call is NULL).
 *
 * \ingroup callbacks
 */
#define MCPR_INPUT_NO_ACTION 0u

/**
 * The user submitted the form or confirmed the action.
 *
 * \ingroup callbacks
 */
#define MCPR_INPUT_ACCEPT 1u

/**
 * The user explicitly declined.
 *
 * \ingroup callbacks
 */
#define MCPR_INPUT_DECLINE 2u

/**
 * The user dismissed the request without a choice.
 *
 * \ingroup callbacks
 */
#define MCPR_INPUT_CANCEL 3u

/**
 * The callback succeeded.
 *
 * \ingroup callbacks
 */
#define MCPR_CB_OK 0u

/**
 * A typed denial / not found (`discover` and policy `read`: denial;
 * `resolve`: root denial; body `read`: an `unavailable` issue).
 *
 * \ingroup callbacks
 */
#define MCPR_CB_UNAVAILABLE 1u

/**
 * An operational failure; its private cause is the text given to
 * `mcpr_call_set_cause`, or a fixed text when none was set.
 *
 * \ingroup callbacks
 */
#define MCPR_CB_FAILED 2u

/**
 * The content the callback produced is invalid. From a body `read`: the
 * item becomes an `invalid_content` issue (the private cause is the text
 * given to `mcpr_call_set_cause`, or a fixed text). From every other
 * callback it is a failure like `MCPR_CB_FAILED` (`discover`,
 * `visibility`, policy `read`: `MCPR_POLICY`; `resolve`:
 * `MCPR_INVALID_PLAN`; `complete`: `MCPR_READ_FAILED`).
 *
 * \ingroup callbacks
 */
#define MCPR_CB_INVALID_CONTENT 3u

/**
 * The read needs input from the client first (docs/BEHAVIOUR.md §18).
 * Only from the policy `read` callback while the read is in
 * `MCPR_PHASE_FIRST_CHECK`, and from a body `read`: add the input
 * requests with `mcpr_input_add_request` (and optionally state with
 * `mcpr_input_set_state`) before returning it; a refused one makes
 * the callback a failure. From every other callback (and phase) it counts
 * as `MCPR_CB_UNAVAILABLE`.
 *
 * \ingroup callbacks
 */
#define MCPR_CB_INPUT_REQUIRED 4u

/**
 * Longest accepted identifier, in bytes (default 2048, at least 51).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_MAX_URI_BYTES 1u

/**
 * Most items in one plan, the requested target not counted (default 1024).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_MAX_PLAN_TARGETS 2u

/**
 * Most items admitted into one read result (default 64).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_MAX_ITEMS 3u

/**
 * Largest payload of one item: text bytes or raw blob bytes (default 8 MiB).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_MAX_ITEM_BYTES 4u

/**
 * Aggregate payload bytes of one read (default 32 MiB).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_MAX_PAYLOAD_BYTES 5u

/**
 * Aggregate encoded bytes of one read result (default 48 MiB).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_MAX_ENCODED_BYTES 6u

/**
 * Payload space reserved for the warning text (default 4 KiB, at least 256).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_REPORT_PAYLOAD_BYTES 7u

/**
 * Encoded space reserved for warning and report (default 16 KiB, at least 1 KiB).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_REPORT_ENCODED_BYTES 8u

/**
 * Most detailed issues in a report (default 32).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_MAX_ISSUES 9u

/**
 * Whole-read timeout in milliseconds (default 30000).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_READ_TIMEOUT_MS 10u

/**
 * Per-item timeout in milliseconds (default 10000).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_ITEM_TIMEOUT_MS 11u

/**
 * Page size when the caller asks for none (default 50).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_DEFAULT_PAGE_SIZE 12u

/**
 * Largest page size a caller may ask for (default 500).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_MAX_PAGE_SIZE 13u

/**
 * Encoded bytes of one list page (default 1 MiB).
 *
 * \ingroup builder
 */
#define MCPR_LIMIT_MAX_PAGE_BYTES 14u

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

/**
 * Creates an empty builder.
 *
 * \return The builder, owned by the caller until `mcpr_builder_build`
 *   consumes it (whatever that returns); discard a builder never built with
 *   `mcpr_builder_free`. NULL only if the library failed internally.
 * \note Thread-safe: any thread may create builders.
 *
 * \ingroup builder
 */
mcpr_builder *MCPR_NULLABLE mcpr_builder_new(void);

/**
 * Adds a binding: a definition and its callback table (copied). The definition
 * is validated now; duplicates and `max_uri_bytes` are checked by
 * `mcpr_builder_build`.
 *
 * \param builder The builder.
 * \param definition_json The MCP `Resource` / `ResourceTemplate` description
 *   object as JSON (at most 64 KiB, with exactly one of `uri` or
 *   `uriTemplate`). Its standard members are checked (docs/BEHAVIOUR.md
 *   §1): `title`, `description`, `mimeType` strings; `size` a
 *   non-negative integer, never on a template; `annotations.audience`
 *   only `"user"` / `"assistant"`, `annotations.priority` from 0 to 1,
 *   `annotations.lastModified` an RFC 3339 date-time; every `icons[].src`
 *   an absolute URI. The error message names the member refused.
 * \param callbacks The binding's callback table (`resolve` and `read`
 *   required; `complete` only for a template); copied during the call.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for an invalid definition, a
 *   missing `resolve` or `read`, or a `complete` on an exact-URI definition;
 *   `MCPR_INVALID_ARGUMENT` for a NULL `builder`, a NULL `callbacks`, a
 *   `(NULL, n > 0)` string, or a table with a bad `struct_size` or set
 *   fields beyond it that this library does not know.
 * \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
 *   nor freed; `definition_json` follows the `mcpr_str` rules; `callbacks` is
 *   NULL or points at a table of `struct_size` readable bytes; `err` is NULL
 *   or points at writable storage for one `mcpr_error *`.
 * \post On success the table's `release` will run exactly once (see
 *   `mcpr_binding_callbacks`); on failure it never runs for this call.
 * \note Thread-safe: a builder is internally locked, so concurrent calls on
 *   one builder are safe (if pointless).
 *
 * \ingroup builder
 */
mcpr_status mcpr_builder_add(mcpr_builder *builder, mcpr_str definition_json, const mcpr_binding_callbacks *callbacks, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Sets the policy callback table (copied; a policy is required before build).
 * Setting it again replaces the previous table, whose `release` then runs on
 * this thread before this returns (after the builder is unlocked: it may call
 * into this builder).
 *
 * \param builder The builder.
 * \param callbacks The policy's callback table (`discover`, `visibility` and
 *   `read` required); copied during the call.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` when a required callback is
 *   NULL; `MCPR_INVALID_ARGUMENT` for a NULL `builder`, a NULL `callbacks`,
 *   or a table with a bad `struct_size` or set fields beyond it that this
 *   library does not know.
 * \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
 *   nor freed; `callbacks` is NULL or points at a table of `struct_size`
 *   readable bytes; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \post On success the table's `release` will run exactly once (see
 *   `mcpr_policy_callbacks`); on failure it never runs for this call.
 * \note Thread-safe: a builder is internally locked, so concurrent calls on
 *   one builder are safe (if pointless).
 *
 * \ingroup builder
 */
mcpr_status mcpr_builder_set_policy(mcpr_builder *builder, const mcpr_policy_callbacks *callbacks, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Overrides one limit. The rules between limits are checked by
 * `mcpr_builder_build`. Raising one limit never raises another.
 *
 * \param builder The builder.
 * \param which The limit (`MCPR_LIMIT_*`).
 * \param value The new value (timeouts in milliseconds); 0 selects the
 *   default.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for a negative `value`
 *   (nothing changes); `MCPR_INVALID_ARGUMENT` for a NULL `builder` or an
 *   unknown `which`.
 * \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
 *   nor freed; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe: a builder is internally locked, so concurrent calls on
 *   one builder are safe (if pointless).
 *
 * \ingroup builder
 */
mcpr_status mcpr_builder_set_limit(mcpr_builder *builder, mcpr_limit which, int64_t value, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Sets the cursor key (copied), shared by replicas so that they accept each
 * other's cursors. Without one, each registry makes a random key. Cursors are
 * encrypted and authenticated under a key derived from it, so a client can
 * neither read nor alter them.
 *
 * \param builder The builder.
 * \param key The key bytes; may be NULL when `key_len` is 0 (refused as too
 *   short all the same).
 * \param key_len The number of bytes at `key`: 32 to 1024.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for a key shorter than 32
 *   or longer than 1024 bytes; `MCPR_INVALID_ARGUMENT` for a NULL `builder` or
 *   a NULL `key` with a non-zero `key_len`.
 * \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
 *   nor freed; `key` is NULL (with `key_len` 0) or points at `key_len`
 *   readable bytes; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe: a builder is internally locked, so concurrent calls on
 *   one builder are safe (if pointless).
 *
 * \ingroup builder
 */
mcpr_status mcpr_builder_set_cursor_key(mcpr_builder *builder, const uint8_t *MCPR_NULLABLE key, size_t key_len, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Sets the observer table (copied): the registry hands it one event per
 * call and, with `MCPR_OBSERVE_DECISIONS`, its decisions (see
 * `mcpr_observer_callbacks`, docs/C-API.md "Observability"). Setting it
 * again replaces the previous table, whose `release` then runs on this
 * thread before this returns (after the builder is unlocked).
 *
 * \param builder The builder.
 * \param callbacks The observer table (`on_event` required); copied.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` when `on_event` is NULL;
 *   `MCPR_INVALID_ARGUMENT` for a NULL `builder` or `callbacks`, unknown
 *   `flags` bits, or a table with a bad `struct_size` or set fields beyond
 *   it that this library does not know.
 * \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
 *   nor freed; `callbacks` is NULL or points at a table of `struct_size`
 *   readable bytes; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \post On success the table's `release` will run exactly once; on failure
 *   it never runs for this call.
 * \note Thread-safe: a builder is internally locked.
 *
 * \ingroup builder
 */
mcpr_status mcpr_builder_set_observer(mcpr_builder *builder, const mcpr_observer_callbacks *callbacks, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Sets the event hash key (copied): events name the URIs they may not show,
 * and scope keys, by HMAC-SHA256 under a key derived from it, so replicas
 * sharing it give the same hashes (`mcpr_resources_event_hash` computes
 * one). Without it the cursor key serves; without either, a random key is
 * made per registry.
 *
 * \param builder The builder.
 * \param key The key bytes; may be NULL when `key_len` is 0 (refused as too
 *   short).
 * \param key_len The number of bytes at `key`: 32 to 1024.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for a key shorter than 32
 *   or longer than 1024 bytes; `MCPR_INVALID_ARGUMENT` for a NULL `builder` or
 *   a NULL `key` with a non-zero `key_len`.
 * \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
 *   nor freed; `key` is NULL (with `key_len` 0) or points at `key_len`
 *   readable bytes; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe: a builder is internally locked.
 *
 * \ingroup builder
 */
mcpr_status mcpr_builder_set_event_key(mcpr_builder *builder, const uint8_t *MCPR_NULLABLE key, size_t key_len, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Sets the wall clock (Unix milliseconds) used for cursor issue and expiry
 * times only (deadlines use the monotonic clock); for tests and simulations.
 *
 * \param builder The builder.
 * \param now_unix_ms The clock; called as `now_unix_ms(user_data)`,
 *   concurrently from any thread, for as long as the registry lives.
 * \param user_data Passed to every call of `now_unix_ms`; never released by
 *   the library; may be NULL.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `builder` or a NULL
 *   `now_unix_ms`.
 * \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
 *   nor freed; `now_unix_ms` may be called with `user_data` from any thread
 *   until the registry (or the unbuilt builder) is gone; `err` is NULL or
 *   points at writable storage for one `mcpr_error *`.
 * \note Thread-safe: a builder is internally locked, so concurrent calls on
 *   one builder are safe (if pointless).
 *
 * \ingroup builder
 */
mcpr_status mcpr_builder_set_clock(mcpr_builder *builder, mcpr_clock_fn now_unix_ms, void *MCPR_NULLABLE user_data, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Validates everything against the final limits and builds the registry.
 *
 * Always consumes the builder: when `builder` is not NULL, this call frees
 * the handle whatever it returns (success, a failed build, a NULL `out`), so
 * never call `mcpr_builder_free` or anything else on `builder` afterwards. On
 * failure every `release` of its tables runs before this returns.
 *
 * \param builder The builder; freed by this call.
 * \param out Receives a registry reference on success; the caller owns it:
 *   release it with `mcpr_resources_free`.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for a configuration that
 *   does not validate (no policy, duplicate or too-long URIs, inconsistent
 *   limits); `MCPR_INVALID_ARGUMENT` for a NULL `builder` or a NULL `out` (a
 *   non-NULL `builder` is consumed all the same).
 * \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
 *   nor freed, and not in use by another thread (this call frees it); `out`
 *   is NULL or points at writable storage for one `mcpr_resources *`; `err`
 *   is NULL or points at writable storage for one `mcpr_error *`.
 * \post `builder` is freed, whatever the status: it must not be used again.
 * \note Thread-safe: any thread may build a builder once no other thread
 *   uses it.
 *
 * \ingroup builder
 */
mcpr_status mcpr_builder_build(mcpr_builder *builder, mcpr_resources *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Discards a builder that was never built: every `release` of its tables
 * runs now, on this thread. Never call it after `mcpr_builder_build`, which
 * already consumed the builder, whatever it returned.
 *
 * \param builder The builder to discard, or NULL (then nothing happens).
 * \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
 *   nor freed, and not in use by another thread.
 * \note Any thread may free it, once no other thread uses it.
 *
 * \ingroup builder
 */
void mcpr_builder_free(mcpr_builder *MCPR_NULLABLE builder);

/**
 * Makes the registry's policy the built-in allow-all policy: every definition
 * discoverable, every target visible (issues may name its URI), every visible
 * target readable, with no callback cost per read. For servers whose every
 * resource is public to every caller. Like `mcpr_builder_set_policy`, it
 * replaces a previously set policy, whose `release` then runs on this thread
 * before this returns; a later `mcpr_builder_set_policy` replaces it in turn.
 *
 * \param builder The builder.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `builder`.
 * \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
 *   nor freed; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe: a builder is internally locked, so concurrent calls on
 *   one builder are safe (if pointless).
 *
 * \ingroup builder
 */
mcpr_status mcpr_builder_set_policy_allow_all(mcpr_builder *builder, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Declares the registry's cache hints. Without this call: TTL 0, not
 * caller-independent (every result `"ttlMs":0`, `"cacheScope":"private"`).
 *
 * \param builder The builder.
 * \param ttl_ms The TTL of list pages and of reads through bindings added
 *   without their own hints, in milliseconds (at most `MCPR_MAX_TTL_MS`).
 * \param policy_caller_independent Whether the policy callbacks decide the
 *   same for every caller.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for a TTL above
 *   `MCPR_MAX_TTL_MS` (nothing changes); `MCPR_INVALID_ARGUMENT` for a NULL
 *   `builder`.
 * \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
 *   nor freed; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe: a builder is internally locked, so concurrent calls on
 *   one builder are safe (if pointless).
 *
 * \ingroup builder
 */
mcpr_status mcpr_builder_set_cache_hints(mcpr_builder *builder, uint64_t ttl_ms, bool policy_caller_independent, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Declares the resource change notifications the host delivers for this
 * registry: `MCPR_NOTIFY_RESOURCE_UPDATES` (the `resources` capability's
 * `subscribe`: `resources/subscribe` and the URIs of a
 * `subscriptions/listen` are then decided by `mcpr_request`) and
 * `MCPR_NOTIFY_RESOURCES_LIST_CHANGED` (`listChanged`). Without this call:
 * neither (`resources/subscribe` is then `MCPR_METHOD_NOT_HANDLED`, and a
 * listen acknowledges no resource type).
 *
 * \param builder The builder.
 * \param notifications `MCPR_NOTIFY_RESOURCE_UPDATES` and/or
 *   `MCPR_NOTIFY_RESOURCES_LIST_CHANGED` (0 = neither).
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `builder`, an
 *   unknown bit, or a tool or prompt type (the host's, never a
 *   registry's); nothing changes then.
 * \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
 *   nor freed; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe: a builder is internally locked, so concurrent calls on
 *   one builder are safe (if pointless).
 *
 * \ingroup builder
 */
mcpr_status mcpr_builder_set_notifications(mcpr_builder *builder, uint32_t notifications, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Chooses the JSON-RPC error of a read whose callback asks for input
 * (`MCPR_CB_INPUT_REQUIRED`) when the request's protocol revision has no
 * input-required result (before 2026-07-28; docs/BEHAVIOUR.md §18): the
 * read then fails with `MCPR_INPUT_REQUIRED` and this error object.
 * Without this call: `-32603` "Input required: this protocol revision
 * cannot carry the request for input".
 *
 * \param builder The builder.
 * \param code The JSON-RPC code; not in `-32099` to `-32020` (reserved for
 *   the MCP specification).
 * \param message The message (copied): 1 to 256 bytes of UTF-8 without
 *   control characters.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for a reserved code or a
 *   bad message (nothing changes); `MCPR_INVALID_ARGUMENT` for a NULL
 *   `builder` or a `(NULL, n > 0)` message.
 * \pre `builder` is NULL or a builder from `mcpr_builder_new`, neither built
 *   nor freed; `message` follows the `mcpr_str` rules; `err` is NULL or
 *   points at writable storage for one `mcpr_error *`.
 * \note Thread-safe: a builder is internally locked, so concurrent calls on
 *   one builder are safe (if pointless).
 *
 * \ingroup builder
 */
mcpr_status mcpr_builder_set_input_unsupported_error(mcpr_builder *builder, int32_t code, mcpr_str message, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * `mcpr_builder_add` with the binding's cache hints. Its reads get
 * `hints->ttl_ms` instead of the registry's TTL, and may be `"public"` when
 * `hints->caller_independent` and the registry's `policy_caller_independent`
 * are both true.
 *
 * \param builder The builder.
 * \param definition_json As for `mcpr_builder_add`.
 * \param callbacks As for `mcpr_builder_add`.
 * \param hints The binding's hints (`struct_size` set, see
 *   `mcpr_cache_hints`); read during the call only.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return As for `mcpr_builder_add`, plus `MCPR_INVALID_ARGUMENT` for a NULL
 *   `hints` or hints with a bad `struct_size` or set fields beyond it that
 *   this library does not know, and `MCPR_INVALID_CONFIGURATION` for a TTL
 *   above `MCPR_MAX_TTL_MS`.
 * \pre As for `mcpr_builder_add`; `hints` is NULL or points at hints of
 *   `struct_size` readable bytes.
 * \post On success the table's `release` will run exactly once; on failure it
 *   never runs for this call.
 * \note Thread-safe: a builder is internally locked, so concurrent calls on
 *   one builder are safe (if pointless).
 *
 * \ingroup builder
 */
mcpr_status mcpr_builder_add_with_hints(mcpr_builder *builder, mcpr_str definition_json, const mcpr_binding_callbacks *callbacks, const mcpr_cache_hints *hints, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Fills cache hints with the defaults: TTL 0, not caller-independent, and
 * `struct_size` set to `sizeof(mcpr_cache_hints)`, as
 * `MCPR_CACHE_HINTS_INIT` does.
 *
 * \param hints The hints to fill, or NULL (then nothing happens).
 * \pre `hints` is NULL or points at a writable `mcpr_cache_hints`.
 * \note Thread-safe: touches only `*hints`.
 *
 * \ingroup builder
 */
void mcpr_cache_hints_init(mcpr_cache_hints *MCPR_NULLABLE hints);

/**
 * Takes another reference to the registry.
 *
 * \param resources A registry reference, or NULL.
 * \return `resources` itself, now counting one more reference that the
 *   caller owns (release it with `mcpr_resources_free`); NULL when
 *   `resources` is NULL.
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made: one that no other thread may be releasing at that moment (retain
 *   it under the lock that publishes it; docs/C-API.md shows the pattern).
 * \note Thread-safe: any thread, also concurrently with calls using the
 *   registry.
 *
 * \ingroup registry
 */
mcpr_resources *MCPR_NULLABLE mcpr_resources_retain(const mcpr_resources *MCPR_NULLABLE resources);

/**
 * Releases one registry reference.
 *
 * The registry (and every callback table's `release`) goes when the last
 * reference is released and every call using it has returned, including
 * abandoned callbacks still running on executor workers. Releasing while
 * calls run on other threads (even the last reference, even the one those
 * calls were given) is safe once those calls have begun: each holds its own
 * reference until it returns, and the last one to return runs the `release`
 * callbacks.
 *
 * \param resources The reference to release, or NULL (then nothing
 *   happens).
 * \pre `resources` is NULL or a registry reference owned by the caller,
 *   released only once, and not passed to a call (`mcpr_read`, `mcpr_list`,
 *   ...) that may still be starting on another thread.
 * \note Any thread, including from inside a callback.
 *
 * \ingroup registry
 */
void mcpr_resources_free(mcpr_resources *MCPR_NULLABLE resources);

/**
 * Writes the registry's 32-byte content hash: SHA-256 of the canonical
 * registered descriptions, so identical registries on several replicas
 * agree (cursors are bound to it). Prefer
 * `mcpr_resources_content_hash_into`, which checks the buffer's size.
 *
 * \param resources A registry reference, or NULL (then nothing is written).
 * \param out A buffer of at least 32 bytes, or NULL (then nothing is
 *   written).
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made: one that no other thread may be releasing at that moment (retain
 *   it under the lock that publishes it; docs/C-API.md shows the pattern).
 * \pre `out` is NULL or points at 32 writable bytes.
 * \note Thread-safe: any thread; the call holds its own registry reference
 *   until it returns.
 *
 * \ingroup registry
 */
void mcpr_resources_content_hash(const mcpr_resources *MCPR_NULLABLE resources, uint8_t *MCPR_NULLABLE out);

/**
 * Writes the registry's 32-byte content hash (as
 * `mcpr_resources_content_hash`) into a buffer whose size the caller
 * states.
 * Writes exactly 32 bytes; the rest of a larger buffer is left untouched.
 *
 * \param resources A registry reference.
 * \param out The buffer.
 * \param out_len The buffer's size in bytes (at least 32).
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` (nothing written) when
 *   `resources` or `out` is NULL or `out_len` is less than 32.
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made: one that no other thread may be releasing at that moment (retain
 *   it under the lock that publishes it; docs/C-API.md shows the pattern).
 * \pre `out` is NULL or points at `out_len` writable bytes; `err` is NULL or
 *   points at writable storage for one `mcpr_error *`.
 * \note Thread-safe: any thread; the call holds its own registry reference
 *   until it returns.
 *
 * \ingroup registry
 */
mcpr_status mcpr_resources_content_hash_into(const mcpr_resources *resources, uint8_t *out, size_t out_len, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Whether some binding of the registry has a `complete` callback: declare
 * the MCP `completions` capability only then.
 *
 * \param resources A registry reference, or NULL.
 * \return True when some binding completes; false otherwise and when
 *   `resources` is NULL.
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made: one that no other thread may be releasing at that moment (retain
 *   it under the lock that publishes it; docs/C-API.md shows the pattern).
 * \note Thread-safe: any thread; the call holds its own registry reference
 *   until it returns.
 *
 * \ingroup registry
 */
bool mcpr_resources_completes(const mcpr_resources *MCPR_NULLABLE resources);

/**
 * The `resources` capability object a host declares in `initialize` and
 * `server/discover` results: `subscribe` and `listChanged` as declared
 * with `mcpr_builder_set_notifications`, only those that are true: `{}`,
 * `{"subscribe":true}`, `{"listChanged":true}` or
 * `{"subscribe":true,"listChanged":true}` (the same on every revision this
 * library knows).
 *
 * \param resources A registry reference.
 * \param protocol_revision The revision negotiated with the client
 *   (empty = the newest).
 * \param out Receives the JSON on `MCPR_OK`: a static string (never freed).
 * \param err Receives an error object on failure; may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `resources` or
 *   `out`, or an unknown revision.
 * \pre `resources` is NULL or a live registry reference (see `mcpr_read`);
 *   `protocol_revision` follows the `mcpr_str` rules; `out` is NULL or
 *   points at writable storage for one `mcpr_str`; `err` is NULL or points
 *   at writable storage for one `mcpr_error *`.
 * \note Thread-safe.
 *
 * \ingroup registry
 */
mcpr_status mcpr_resources_capability(const mcpr_resources *resources, mcpr_str protocol_revision, mcpr_str *out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Fills the call metrics of one method and outcome: counted for every call
 * (every `mcpr_read`, `mcpr_list`, `mcpr_list_templates`, `mcpr_complete`
 * and every request `mcpr_request` serves), with or without an observer.
 * Counters are read one by one: a snapshot taken while calls run may be
 * slightly inconsistent.
 *
 * \param resources A registry reference.
 * \param method The MCP method name (`"resources/read"`,
 *   `"resources/list"`, `"resources/templates/list"`,
 *   `"completion/complete"`, `"tools/call"`, `"embed"`, or
 *   `"subscriptions"` for every subscription decision).
 * \param outcome `MCPR_OK` (0) for successes, or the `mcpr_status` of a
 *   failure (1 to 13).
 * \param metrics The snapshot to fill (`struct_size` set by the caller).
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` (nothing written) for a NULL
 *   `resources` or `metrics`, an unknown method, an outcome no call ends
 *   with, or an impossible `struct_size`.
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made; `method` follows the `mcpr_str` rules; `metrics` is NULL or points
 *   at `metrics->struct_size` writable bytes; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe: any thread, also while calls run.
 *
 * \ingroup registry
 */
mcpr_status mcpr_resources_get_metrics(const mcpr_resources *resources, mcpr_str method, uint32_t outcome, mcpr_call_metrics *metrics, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Writes the keyed hash events give `bytes` (a URI, a scope key): how a
 * host finds the events about a URI it knows (HMAC-SHA256 under the
 * registry's event key, first 16 bytes; see `mcpr_builder_set_event_key`).
 *
 * \param resources A registry reference.
 * \param bytes The URI or scope key.
 * \param out Receives `MCPR_EVENT_HASH_BYTES` (16) bytes.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` (nothing written) for a NULL
 *   `resources` or `out`, or a `(NULL, n > 0)` string.
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made; `bytes` follows the `mcpr_str` rules; `out` is NULL or points at 16
 *   writable bytes; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe: any thread.
 *
 * \ingroup registry
 */
mcpr_status mcpr_resources_event_hash(const mcpr_resources *resources, mcpr_str bytes, uint8_t *out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Fills options with the defaults: every field at its default and
 * `struct_size` set to `sizeof(mcpr_read_options)`, as
 * `MCPR_READ_OPTIONS_INIT` does.
 *
 * \param options The options to fill, or NULL (then nothing happens).
 * \pre `options` is NULL or points at a writable `mcpr_read_options`.
 * \note Thread-safe: touches only `*options`.
 *
 * \ingroup read
 */
void mcpr_read_options_init(mcpr_read_options *MCPR_NULLABLE options);

/**
 * Answers `resources/read` for a URI: validation, selection, the policy
 * sequence, body reads under budgets and deadlines, the recheck and
 * assembly. A usable partial bundle is a success, with
 * `mcpr_bundle_is_partial` true. On failure no bundle is made: send the
 * error's `mcpr_error_jsonrpc_json` to the client and log its
 * `mcpr_error_cause`.
 *
 * Without an executor every callback runs on this thread, and deadlines
 * only take effect between callbacks and through callbacks that honour
 * `mcpr_call_is_canceled`. With an executor (`options->executor`) every
 * callback of the read runs on its workers and this call returns by the
 * read deadline whatever any callback does: a policy (`discover`,
 * `visibility`, `read`) or `resolve` callback still running at the read
 * deadline makes the read `MCPR_DEADLINE_EXCEEDED`, or `MCPR_CANCELED` at
 * once on cancellation; a body `read` still running at its item deadline
 * makes that item a `timeout` issue while the read continues with the other
 * items. Such a callback is abandoned: it keeps running on its worker, its
 * late result is discarded, the views it was given stay valid and the
 * binding's table stays alive until it returns (`release` runs after the
 * last call returns), and it still sees `request_data`. A saturated
 * executor (see `mcpr_executor_get_stats`) fails the read at once with
 * `MCPR_READ_FAILED`, or fails the body reads it can no longer risk as
 * `read_failed` items; the private cause says "executor saturated".
 *
 * \param resources A registry reference.
 * \param uri The raw bytes of the request's `params.uri`.
 * \param options The read options (deadline, cancellation, request data,
 *   executor, protocol revision, result `_meta`, trace context), or NULL
 *   for all defaults; read during the call only.
 * \param out Receives the bundle on success; the caller owns it: free it
 *   with `mcpr_bundle_free`.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK` (also for a partial bundle); `MCPR_INVALID_ARGUMENT` for
 *   a NULL `resources` or `out`, a `(NULL, n > 0)` string, an unknown
 *   protocol revision, a trace member that is not UTF-8, or options with a
 *   bad `struct_size` or set fields beyond it that this library does not
 *   know; otherwise the failure of the read (`MCPR_INVALID_REQUEST`,
 *   `MCPR_UNAVAILABLE`, `MCPR_INVALID_PLAN`, `MCPR_POLICY`,
 *   `MCPR_READ_FAILED`, `MCPR_TIMEOUT`, `MCPR_INVALID_CONTENT`,
 *   `MCPR_BUDGET_EXCEEDED`, `MCPR_CANCELED`, `MCPR_DEADLINE_EXCEEDED`,
 *   `MCPR_SIZE`).
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made: one that no other thread may be releasing at that moment (retain
 *   it under the lock that publishes it; docs/C-API.md shows the pattern).
 * \pre `uri` follows the `mcpr_str` rules; `options` is NULL or points at
 *   options of `struct_size` readable bytes whose `cancel`, `executor` and
 *   `result_meta` are NULL or not yet freed and whose strings
 *   (`protocol_revision`, the members of `trace`) follow the `mcpr_str`
 *   rules; `out` is NULL or points at writable storage for one
 *   `mcpr_bundle *`; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \post The call holds its own registry reference from entry to return:
 *   once it has begun, other threads (or its own callbacks) may release any
 *   reference, even the last; the `release` callbacks then run no earlier
 *   than the end of this call (on this thread, just before it returns, when
 *   it is the last user), or when an abandoned callback returns.
 * \note Thread-safe: many threads may read one registry at once.
 *
 * \ingroup read
 */
mcpr_status mcpr_read(const mcpr_resources *resources, mcpr_str uri, const mcpr_read_options *MCPR_NULLABLE options, mcpr_bundle *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * The MCP `resources/read` result JSON: send it as the JSON-RPC `result`.
 *
 * \param bundle The bundle, or NULL.
 * \return Compact JSON, borrowed from `bundle` (valid until
 *   `mcpr_bundle_free(bundle)`); empty when `bundle` is NULL.
 * \pre `bundle` is NULL or a bundle from `mcpr_read`, not yet freed.
 * \note Thread-safe: a bundle is immutable; any thread may read it, also
 *   concurrently.
 *
 * \ingroup read
 */
mcpr_str mcpr_bundle_json(const mcpr_bundle *MCPR_NULLABLE bundle);

/**
 * Whether the bundle is partial: its first item is then the diagnostic
 * warning.
 *
 * \param bundle The bundle, or NULL.
 * \return True for a partial bundle; false otherwise and when `bundle` is
 *   NULL.
 * \pre `bundle` is NULL or a bundle from `mcpr_read`, not yet freed.
 * \note Thread-safe (see `mcpr_bundle_json`).
 *
 * \ingroup read
 */
bool mcpr_bundle_is_partial(const mcpr_bundle *MCPR_NULLABLE bundle);

/**
 * Whether the bundle is an MCP 2026-07-28 `InputRequiredResult`: a
 * callback of the read asked for input first (docs/BEHAVIOUR.md §18).
 * Its JSON (`mcpr_bundle_json`) is still the `result` to send: it holds
 * `resultType: "input_required"`, the input requests and the sealed
 * `requestState`, which the client's retry brings back (the retry's
 * `mcpr_read_options.request_state` and `input_responses`).
 *
 * \param bundle The bundle, or NULL.
 * \return True for an input-required result; false otherwise and when
 *   `bundle` is NULL.
 * \pre `bundle` is NULL or a bundle from `mcpr_read`, not yet freed.
 * \note Thread-safe (see `mcpr_bundle_json`).
 *
 * \ingroup read
 */
bool mcpr_bundle_is_input_required(const mcpr_bundle *MCPR_NULLABLE bundle);

/**
 * Frees a bundle.
 *
 * \param bundle The bundle to free, or NULL (then nothing happens).
 * \pre `bundle` is NULL or a bundle from `mcpr_read`, freed only once; no
 *   thread uses it (or a string borrowed from it) afterwards.
 * \note Any thread may free it, once no other thread uses it.
 *
 * \ingroup read
 */
void mcpr_bundle_free(mcpr_bundle *MCPR_NULLABLE bundle);

/**
 * A new, uncancelled cancellation token.
 *
 * \return The token, owned by the caller: free it with `mcpr_cancel_free`.
 *   NULL only if the library failed internally.
 * \note Thread-safe: any thread may create tokens.
 *
 * \ingroup read
 */
mcpr_cancel *MCPR_NULLABLE mcpr_cancel_new(void);

/**
 * Cancels the token (idempotent). Reads, listings, completions and requests
 * given it stop with `MCPR_CANCELED`, and their callbacks see
 * `mcpr_call_is_canceled` return true.
 *
 * \param cancel The token, or NULL (then nothing happens).
 * \pre `cancel` is NULL or a token from `mcpr_cancel_new`, not yet freed.
 * \note Thread-safe: any thread may cancel at any time, also while calls
 *   using the token run on other threads.
 *
 * \ingroup read
 */
void mcpr_cancel_cancel(const mcpr_cancel *MCPR_NULLABLE cancel);

/**
 * Whether the token was cancelled.
 *
 * \param cancel The token, or NULL.
 * \return True once `mcpr_cancel_cancel` was called on it; false otherwise
 *   and when `cancel` is NULL.
 * \pre `cancel` is NULL or a token from `mcpr_cancel_new`, not yet freed.
 * \note Thread-safe: any thread, at any time.
 *
 * \ingroup read
 */
bool mcpr_cancel_is_canceled(const mcpr_cancel *MCPR_NULLABLE cancel);

/**
 * Frees the caller's token handle. Calls in flight that were given it keep
 * their own reference, so it may be freed as soon as the calls that use it
 * have begun.
 *
 * \param cancel The token to free, or NULL (then nothing happens).
 * \pre `cancel` is NULL or a token from `mcpr_cancel_new`, freed only once;
 *   no thread uses this handle afterwards (including to start a call with
 *   it).
 * \note Any thread may free it, once no other thread uses the handle.
 *
 * \ingroup read
 */
void mcpr_cancel_free(mcpr_cancel *MCPR_NULLABLE cancel);

/**
 * Fills options with the defaults: every field at its default and
 * `struct_size` set to `sizeof(mcpr_embed_options)`, as
 * `MCPR_EMBED_OPTIONS_INIT` does.
 *
 * \param options The options to fill, or NULL (then nothing happens).
 * \pre `options` is NULL or points at a writable `mcpr_embed_options`.
 * \note Thread-safe: touches only `*options`.
 *
 * \ingroup read
 */
void mcpr_embed_options_init(mcpr_embed_options *MCPR_NULLABLE options);

/**
 * Embeds resources in a tool result: for each URI, in order, the
 * `resource` content blocks a read of it gives (the same items, the
 * warning item of a partial read first), or one `resource_link` block
 * built from its registered description (`MCPR_EMBED_LINK`, after the
 * read's root checks: discovery, resolve, the requested target's
 * visibility and read permission). Every URI runs through the read
 * pipeline for the caller; the URIs share the budgets of one read
 * (payload, items, encoded bytes) and one deadline.
 *
 * A URI whose read fails gives no block, whatever the failure: hidden,
 * undiscoverable, unregistered and invalid URIs look the same in every
 * byte of the blocks. Why each URI gave what it gave is for the host:
 * `mcpr_embedding_uri_status` and `mcpr_embedding_uri_cause`. Place the
 * blocks (`mcpr_embedding_blocks_json`, `mcpr_embedding_block`) in your
 * own `CallToolResult`, or send `mcpr_embedding_tool_result_json`.
 *
 * \param resources A registry reference.
 * \param uris The URIs, as an array of `uri_count` strings (NULL when
 *   `uri_count` is 0).
 * \param uri_count How many URIs (at most `max_plan_targets`, else
 *   `MCPR_INVALID_REQUEST`).
 * \param options The embed options (deadline, cancellation, request data,
 *   executor, protocol revision, form, over-budget links, result `_meta`,
 *   trace context), or NULL for all defaults; read during the call only.
 * \param out Receives the embedding on success; the caller owns it: free
 *   it with `mcpr_embedding_free`.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK` (also when some URIs gave nothing);
 *   `MCPR_INVALID_ARGUMENT` for a NULL `resources` or `out`, a NULL `uris`
 *   with a non-zero count, a string breaking the `mcpr_str` rules, an
 *   unknown protocol revision or form, `MCPR_EMBED_LINK` before
 *   2025-06-18, a trace member that is not UTF-8, or options with a bad `struct_size`
 *   or set fields beyond it that this library does not know;
 *   `MCPR_INVALID_REQUEST` for more URIs than `max_plan_targets`;
 *   `MCPR_CANCELED`, `MCPR_DEADLINE_EXCEEDED`; `MCPR_READ_FAILED` when the
 *   executor is saturated at the start (the embedding is one call, as a
 *   read is); `MCPR_SIZE` when the blocks exceed `max_encoded_bytes` minus
 *   the wire reserve.
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made: one that no other thread may be releasing at that moment.
 * \pre `uris` is NULL or points at `uri_count` readable `mcpr_str`, each
 *   following the `mcpr_str` rules; `options` is NULL or points at options
 *   of `struct_size` readable bytes whose `cancel`, `executor` and
 *   `result_meta` are NULL or not yet freed and whose `protocol_revision`
 *   and `trace` members follow the `mcpr_str` rules; `out` is NULL or points at writable storage for one
 *   `mcpr_embedding *`; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \post The call holds its own registry reference from entry to return, as
 *   `mcpr_read` does.
 * \note Thread-safe: many threads may embed from one registry at once.
 *
 * \ingroup read
 */
mcpr_status mcpr_embed(const mcpr_resources *resources, const mcpr_str *MCPR_NULLABLE uris, size_t uri_count, const mcpr_embed_options *MCPR_NULLABLE options, mcpr_embedding *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * The content blocks as one JSON array (`[{"type":"resource",…},…]`), in
 * URI order: the `content` of a `CallToolResult`, or blocks to place among
 * your own.
 *
 * \param embedding The embedding, or NULL.
 * \return Compact JSON, borrowed from `embedding` (valid until
 *   `mcpr_embedding_free(embedding)`); empty when `embedding` is NULL.
 * \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
 *   freed.
 * \note Thread-safe: an embedding is immutable; any thread may read it,
 *   also concurrently.
 *
 * \ingroup read
 */
mcpr_str mcpr_embedding_blocks_json(const mcpr_embedding *MCPR_NULLABLE embedding);

/**
 * How many content blocks the embedding holds.
 *
 * \param embedding The embedding, or NULL.
 * \return The number of blocks; 0 when `embedding` is NULL.
 * \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
 *   freed.
 * \note Thread-safe (see `mcpr_embedding_blocks_json`).
 *
 * \ingroup read
 */
size_t mcpr_embedding_block_count(const mcpr_embedding *MCPR_NULLABLE embedding);

/**
 * One content block's JSON object.
 *
 * \param embedding The embedding, or NULL.
 * \param index The block's index, below `mcpr_embedding_block_count`.
 * \return Compact JSON, borrowed from `embedding` (valid until
 *   `mcpr_embedding_free(embedding)`); empty when `embedding` is NULL or
 *   `index` is out of range.
 * \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
 *   freed.
 * \note Thread-safe (see `mcpr_embedding_blocks_json`).
 *
 * \ingroup read
 */
mcpr_str mcpr_embedding_block(const mcpr_embedding *MCPR_NULLABLE embedding, size_t index);

/**
 * A whole MCP `CallToolResult` whose `content` is the embedding's blocks
 * (with `"resultType":"complete"` on 2026-07-28): send it as the
 * JSON-RPC `result` of the `tools/call`.
 *
 * \param embedding The embedding, or NULL.
 * \return Compact JSON, borrowed from `embedding` (valid until
 *   `mcpr_embedding_free(embedding)`; made on the first call); empty when
 *   `embedding` is NULL.
 * \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
 *   freed.
 * \note Thread-safe (see `mcpr_embedding_blocks_json`): concurrent first
 *   calls make it once.
 *
 * \ingroup read
 */
mcpr_str mcpr_embedding_tool_result_json(const mcpr_embedding *MCPR_NULLABLE embedding);

/**
 * How many URIs the embedding was given (the `uri_count` of `mcpr_embed`).
 *
 * \param embedding The embedding, or NULL.
 * \return The number of URIs; 0 when `embedding` is NULL.
 * \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
 *   freed.
 * \note Thread-safe (see `mcpr_embedding_blocks_json`).
 *
 * \ingroup read
 */
size_t mcpr_embedding_uri_count(const mcpr_embedding *MCPR_NULLABLE embedding);

/**
 * Why one URI gave what it gave, for the host: `MCPR_OK` when it gave
 * blocks, else the failure of its read or root checks (`MCPR_UNAVAILABLE`
 * for not found and root denials, `MCPR_INVALID_REQUEST` for an invalid
 * URI, `MCPR_BUDGET_EXCEEDED` when the embedding had no budget left for
 * it, `MCPR_POLICY`, ...). The client sees only the blocks: never tell it
 * which of these it was.
 *
 * \param embedding The embedding, or NULL.
 * \param index The URI's index, below `mcpr_embedding_uri_count`.
 * \return The status; `MCPR_INVALID_ARGUMENT` when `embedding` is NULL or
 *   `index` is out of range.
 * \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
 *   freed.
 * \note Thread-safe (see `mcpr_embedding_blocks_json`).
 *
 * \ingroup read
 */
mcpr_status mcpr_embedding_uri_status(const mcpr_embedding *MCPR_NULLABLE embedding, size_t index);

/**
 * How many of the embedding's blocks one URI gave (its items, the warning
 * of a partial read included, and its links).
 *
 * \param embedding The embedding, or NULL.
 * \param index The URI's index, below `mcpr_embedding_uri_count`.
 * \return The number of blocks; 0 for a URI that gave nothing, when
 *   `embedding` is NULL and when `index` is out of range.
 * \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
 *   freed.
 * \note Thread-safe (see `mcpr_embedding_blocks_json`).
 *
 * \ingroup read
 */
size_t mcpr_embedding_uri_block_count(const mcpr_embedding *MCPR_NULLABLE embedding, size_t index);

/**
 * How many of one URI's blocks are `resource_link` blocks: 1 for a URI
 * given as a link, the over-budget items given as links for a URI that
 * was read.
 *
 * \param embedding The embedding, or NULL.
 * \param index The URI's index, below `mcpr_embedding_uri_count`.
 * \return The number of links; 0 when `embedding` is NULL and when
 *   `index` is out of range.
 * \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
 *   freed.
 * \note Thread-safe (see `mcpr_embedding_blocks_json`).
 *
 * \ingroup read
 */
size_t mcpr_embedding_uri_link_count(const mcpr_embedding *MCPR_NULLABLE embedding, size_t index);

/**
 * Whether one URI's read was partial (its first block is then the
 * diagnostic warning).
 *
 * \param embedding The embedding, or NULL.
 * \param index The URI's index, below `mcpr_embedding_uri_count`.
 * \return True for a partial read; false otherwise, when `embedding` is
 *   NULL and when `index` is out of range.
 * \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
 *   freed.
 * \note Thread-safe (see `mcpr_embedding_blocks_json`).
 *
 * \ingroup read
 */
bool mcpr_embedding_uri_is_partial(const mcpr_embedding *MCPR_NULLABLE embedding, size_t index);

/**
 * The private cause behind a URI that gave nothing, for the host's logs
 * only: never send it.
 *
 * \param embedding The embedding, or NULL.
 * \param index The URI's index, below `mcpr_embedding_uri_count`.
 * \return The cause, borrowed from `embedding` (valid until
 *   `mcpr_embedding_free(embedding)`); empty for a URI that gave blocks,
 *   when there is none, when `embedding` is NULL and when `index` is out
 *   of range.
 * \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
 *   freed.
 * \note Thread-safe (see `mcpr_embedding_blocks_json`).
 *
 * \ingroup read
 */
mcpr_str mcpr_embedding_uri_cause(const mcpr_embedding *MCPR_NULLABLE embedding, size_t index);

/**
 * Frees an embedding.
 *
 * \param embedding The embedding to free, or NULL (then nothing happens).
 * \pre `embedding` is NULL or an embedding from `mcpr_embed`, freed only
 *   once; no thread uses it (or a string borrowed from it) afterwards.
 * \note Any thread may free it, once no other thread uses it.
 *
 * \ingroup read
 */
void mcpr_embedding_free(mcpr_embedding *MCPR_NULLABLE embedding);

/**
 * Fills executor options with the defaults: every bound 0 and `struct_size`
 * set to `sizeof(mcpr_executor_options)`, as `MCPR_EXECUTOR_OPTIONS_INIT`
 * does.
 *
 * \param options The options to fill, or NULL (then nothing happens).
 * \pre `options` is NULL or points at a writable `mcpr_executor_options`.
 * \note Thread-safe: touches only `*options`.
 *
 * \ingroup read
 */
void mcpr_executor_options_init(mcpr_executor_options *MCPR_NULLABLE options);

/**
 * Creates an executor sized and bounded by options (read during the call
 * only).
 *
 * \param options The options (`struct_size` set, see
 *   `mcpr_executor_options`), or NULL for all defaults (as
 *   `mcpr_executor_new(0, ...)`).
 * \param out Receives the executor on success; the caller owns it: free it
 *   with `mcpr_executor_free`.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `out` or an
 *   impossible `struct_size`, thread count or bound;
 *   `MCPR_INVALID_CONFIGURATION` when the workers cannot be started.
 * \pre `options` is NULL or points at `options->struct_size` readable bytes;
 *   `out` is NULL or points at writable storage for one `mcpr_executor *`;
 *   `err` is NULL or points at writable storage for one `mcpr_error *`.
 * \note Thread-safe. The executor may be shared by any number of threads,
 *   registries and calls at once.
 *
 * \ingroup read
 */
mcpr_status mcpr_executor_new_with(const mcpr_executor_options *MCPR_NULLABLE options, mcpr_executor *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Fills a snapshot of the executor's state and counters: the fields lying
 * entirely within `stats->struct_size`, which the caller sets. Fields are
 * read one by one, so a snapshot taken while calls run may be slightly
 * inconsistent.
 *
 * \param executor The executor.
 * \param stats The snapshot to fill (`struct_size` set by the caller).
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` (nothing written) for a NULL
 *   `executor` or `stats`, or an impossible `struct_size`.
 * \pre `executor` is NULL or an executor not yet freed; `stats` is NULL or
 *   points at `stats->struct_size` writable bytes; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe: any thread, at any time while the handle is alive.
 *
 * \ingroup read
 */
mcpr_status mcpr_executor_get_stats(const mcpr_executor *executor, mcpr_executor_stats *stats, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Creates an executor with a number of workers and the default bounds of
 * `mcpr_executor_options`.
 *
 * \param threads Regular workers: 0 = the available cores (at least 2); at
 *   most `MCPR_MAX_EXECUTOR_THREADS`.
 * \param out Receives the executor on success; the caller owns it: free it
 *   with `mcpr_executor_free`.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `out` or too many
 *   threads; `MCPR_INVALID_CONFIGURATION` when the workers cannot be
 *   started.
 * \pre `out` is NULL or points at writable storage for one
 *   `mcpr_executor *`; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe. The executor may be shared by any number of threads,
 *   registries and calls at once.
 *
 * \ingroup read
 */
mcpr_status mcpr_executor_new(size_t threads, mcpr_executor *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Frees the caller's executor handle. Does not wait for running callbacks:
 * calls in flight keep the pool alive until they return, and abandoned
 * callbacks finish on their own.
 *
 * \param executor The executor to free, or NULL (then nothing happens).
 * \pre `executor` is NULL or an executor from `mcpr_executor_new` /
 *   `mcpr_executor_new_with`, freed only once; no call given it starts after
 *   this, and no thread uses the handle afterwards.
 * \note Any thread may free it, once no other thread uses the handle.
 *
 * \ingroup read
 */
void mcpr_executor_free(mcpr_executor *MCPR_NULLABLE executor);

/**
 * Fills options with the defaults: every field at its default and
 * `struct_size` set to `sizeof(mcpr_list_options)`, as
 * `MCPR_LIST_OPTIONS_INIT` does.
 *
 * \param options The options to fill, or NULL (then nothing happens).
 * \pre `options` is NULL or points at a writable `mcpr_list_options`.
 * \note Thread-safe: touches only `*options`.
 *
 * \ingroup list
 */
void mcpr_list_options_init(mcpr_list_options *MCPR_NULLABLE options);

/**
 * Answers one page of `resources/list`: the registered exact URIs in URI
 * then name order, each page asking the policy's `discover` again.
 *
 * Invalid, expired, cross-method, cross-registry, cross-scope or oversized
 * cursors fail with `MCPR_INVALID_REQUEST` (never restarting at page one).
 * `discover` runs on this thread, or on the executor's workers when
 * `options->executor` is set: the call then returns by its deadline whatever
 * `discover` does.
 *
 * \param resources A registry reference.
 * \param options The list options (required: scope key, cursor, page size,
 *   deadline, cancellation, executor, protocol revision, result `_meta`,
 *   trace context).
 * \param out Receives the page on success; the caller owns it: free it with
 *   `mcpr_page_free`.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `resources`,
 *   `options` or `out`, a `(NULL, n > 0)` string, an unknown protocol
 *   revision, a trace member that is not UTF-8, an empty scope key, or options with a bad `struct_size` or
 *   set fields beyond it that this library does not know;
 *   `MCPR_INVALID_REQUEST` for a bad cursor; `MCPR_POLICY` when `discover`
 *   fails (or the
 *   executor is saturated); `MCPR_CANCELED`; `MCPR_DEADLINE_EXCEEDED`;
 *   `MCPR_SIZE`.
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made: one that no other thread may be releasing at that moment (retain
 *   it under the lock that publishes it; docs/C-API.md shows the pattern).
 * \pre `options` is NULL or points at options of `struct_size` readable
 *   bytes whose strings follow the `mcpr_str` rules and whose `cancel`,
 *   `executor` and `result_meta` are NULL or not yet freed; `out` is NULL
 *   or points at
 *   writable storage for one `mcpr_page *`; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe: many threads may list one registry at once. The call
 *   holds its own registry reference from entry to return, as `mcpr_read`
 *   does.
 *
 * \ingroup list
 */
mcpr_status mcpr_list(const mcpr_resources *resources, const mcpr_list_options *options, mcpr_page *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Answers one page of `resources/templates/list`: the registered templates
 * in template then name order. Same rules as `mcpr_list`; cursors of one
 * method are refused by the other.
 *
 * \param resources A registry reference.
 * \param options The list options (required).
 * \param out Receives the page on success; the caller owns it: free it with
 *   `mcpr_page_free`.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return As for `mcpr_list`.
 * \pre As for `mcpr_list`.
 * \note Thread-safe, as `mcpr_list`.
 *
 * \ingroup list
 */
mcpr_status mcpr_list_templates(const mcpr_resources *resources, const mcpr_list_options *options, mcpr_page *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * The MCP list result JSON (`{"resources":[...],"nextCursor":...}` or
 * `{"resourceTemplates":[...]}`): send it as the JSON-RPC `result`.
 *
 * \param page The page, or NULL.
 * \return Compact JSON, borrowed from `page` (valid until
 *   `mcpr_page_free(page)`); empty when `page` is NULL.
 * \pre `page` is NULL or a page from `mcpr_list` / `mcpr_list_templates`,
 *   not yet freed.
 * \note Thread-safe: a page is immutable; any thread may read it, also
 *   concurrently.
 *
 * \ingroup list
 */
mcpr_str mcpr_page_json(const mcpr_page *MCPR_NULLABLE page);

/**
 * The cursor of the next page (also in the JSON as `nextCursor`), to pass
 * as `mcpr_list_options.cursor` for the next page.
 *
 * \param page The page, or NULL.
 * \return The cursor, borrowed from `page` (valid until
 *   `mcpr_page_free(page)`); length 0 on the last page and when `page` is
 *   NULL.
 * \pre `page` is NULL or a page from `mcpr_list` / `mcpr_list_templates`,
 *   not yet freed.
 * \note Thread-safe (see `mcpr_page_json`).
 *
 * \ingroup list
 */
mcpr_str mcpr_page_next_cursor(const mcpr_page *MCPR_NULLABLE page);

/**
 * Frees a page.
 *
 * \param page The page to free, or NULL (then nothing happens).
 * \pre `page` is NULL or a page from `mcpr_list` / `mcpr_list_templates`,
 *   freed only once; no thread uses it (or a string borrowed from it)
 *   afterwards.
 * \note Any thread may free it, once no other thread uses it.
 *
 * \ingroup list
 */
void mcpr_page_free(mcpr_page *MCPR_NULLABLE page);

/**
 * Fills options with the defaults: every field at its default and
 * `struct_size` set to `sizeof(mcpr_request_options)`, as
 * `MCPR_REQUEST_OPTIONS_INIT` does.
 *
 * \param options The options to fill, or NULL (then nothing happens).
 * \pre `options` is NULL or points at a writable `mcpr_request_options`.
 * \note Thread-safe: touches only `*options`.
 *
 * \ingroup request
 */
void mcpr_request_options_init(mcpr_request_options *MCPR_NULLABLE options);

/**
 * Serves one MCP request by method name: `resources/read`,
 * `resources/list`, `resources/templates/list`, `completion/complete`
 * for a `ref/resource` reference (as `mcpr_complete` does; a `ref/prompt`
 * reference is `MCPR_METHOD_NOT_HANDLED`: answer it with your prompts),
 * `resources/subscribe`, `resources/unsubscribe` (before 2026-07-28,
 * when the registry declares `MCPR_NOTIFY_RESOURCE_UPDATES`) and
 * `subscriptions/listen` (2026-07-28 on; its `request_id` option is
 * required), each with the decision to record
 * (`mcpr_response_subscription`; a listen's response is the
 * acknowledgement message, `mcpr_response_is_notification`), and, when
 * `options->resource_tools` is set, `tools/call` for the resource tools
 * (as `mcpr_resource_tools_call` does; any other tool is
 * `MCPR_METHOD_NOT_HANDLED`: call your own).
 *
 * On `MCPR_OK` the response is to be sent: its `mcpr_response_json` goes
 * under `"result"` when `mcpr_response_is_error` is false and under
 * `"error"` when it is true, with the request's id. Client mistakes
 * (malformed params: invalid JSON, a non-object, `uri` or `cursor` of the
 * wrong type, a repeated member, more than 256 KiB; unknown URIs; bad
 * cursors; an unknown per-request protocol revision) and failures of the
 * call are error responses, not statuses. Params members other than `uri`,
 * `cursor` and `_meta` (and `_meta` keys other than the protocol version
 * and the trace context) are ignored, as the MCP schemas allow. The trace
 * context of `params._meta` (`traceparent`, `tracestate`, `baggage`:
 * strings as sent, at most 8 KiB each; another value is left out, a
 * repeat is malformed params) reaches every callback of the call through
 * `mcpr_call_traceparent`, `mcpr_call_tracestate` and `mcpr_call_baggage`,
 * in place of `options->trace`. A request the client cancelled
 * gets no response at all in MCP: after cancelling through the token, drop
 * the response instead of sending it.
 *
 * \param resources A registry reference.
 * \param method The JSON-RPC method name.
 * \param params_json The raw text of the request's `params`; `{NULL, 0}`
 *   when the request had none.
 * \param options The request options (protocol revision, scope key of the
 *   list methods, page size, deadline, cancellation, request data,
 *   executor, result `_meta`, trace context), or NULL for all defaults (then the list methods, which need a
 *   scope key, are `MCPR_INVALID_ARGUMENT`); read during the call only.
 * \param out Receives the response on `MCPR_OK`; the caller owns it: free it
 *   with `mcpr_response_free`.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK` with a response (result or error) to send;
 *   `MCPR_METHOD_NOT_HANDLED` for any other method, for `ref/prompt`
 *   completions and for `tools/call` of other tools (or of any tool
 *   without `resource_tools`) (no response: route the request elsewhere,
 *   or answer `-32601`); `MCPR_INVALID_ARGUMENT` for programming errors (NULL
 *   `resources` or `out`, bad strings, an unknown `protocol_revision`
 *   option, a trace member that is not UTF-8, an empty scope key for a list method, options with a bad
 *   `struct_size` or set fields beyond it that this library does not know);
 *   `MCPR_INTERNAL` for a library failure (answer `-32603`).
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made: one that no other thread may be releasing at that moment (retain
 *   it under the lock that publishes it; docs/C-API.md shows the pattern).
 * \pre `method` and `params_json` follow the `mcpr_str` rules; `options` is
 *   NULL or points at options of `struct_size` readable bytes whose strings
 *   follow the `mcpr_str` rules and whose `cancel`, `executor` and
 *   `result_meta` are NULL or not yet freed; `out` is NULL or points at writable storage for one
 *   `mcpr_response *`; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe: many threads may serve one registry at once. The call
 *   holds its own registry reference from entry to return, as `mcpr_read`
 *   does, and with `options->executor` it returns by its deadline whatever
 *   a callback does, as `mcpr_read` and `mcpr_list` do.
 *
 * \ingroup request
 */
mcpr_status mcpr_request(const mcpr_resources *resources, mcpr_str method, mcpr_str params_json, const mcpr_request_options *MCPR_NULLABLE options, mcpr_response *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * The JSON-RPC `result` object (when `mcpr_response_is_error` is false) or
 * `error` object (when true), as compact JSON.
 *
 * \param response The response, or NULL.
 * \return The JSON, borrowed from `response` (valid until
 *   `mcpr_response_free(response)`); empty when `response` is NULL.
 * \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
 * \note Thread-safe: a response is immutable; any thread may read it, also
 *   concurrently.
 *
 * \ingroup request
 */
mcpr_str mcpr_response_json(const mcpr_response *MCPR_NULLABLE response);

/**
 * Whether the response is a JSON-RPC `error` object.
 *
 * \param response The response, or NULL.
 * \return True for an error object; false for a result and when `response`
 *   is NULL.
 * \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
 * \note Thread-safe (see `mcpr_response_json`).
 *
 * \ingroup request
 */
bool mcpr_response_is_error(const mcpr_response *MCPR_NULLABLE response);

/**
 * The status behind an error response.
 *
 * \param response The response, or NULL.
 * \return `MCPR_INVALID_REQUEST` for malformed params and bad cursors,
 *   `MCPR_UNAVAILABLE` for not found, and so on; `MCPR_OK` for a result;
 *   `MCPR_INVALID_ARGUMENT` when `response` is NULL.
 * \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
 * \note Thread-safe (see `mcpr_response_json`).
 *
 * \ingroup request
 */
mcpr_status mcpr_response_status(const mcpr_response *MCPR_NULLABLE response);

/**
 * The private cause behind an error response, for the host's logs only:
 * never send it.
 *
 * \param response The response, or NULL.
 * \return The cause, borrowed from `response` (valid until
 *   `mcpr_response_free(response)`); empty for results, when there is none
 *   and when `response` is NULL.
 * \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
 * \note Thread-safe (see `mcpr_response_json`).
 *
 * \ingroup request
 */
mcpr_str mcpr_response_cause(const mcpr_response *MCPR_NULLABLE response);

/**
 * Whether the response is a partial `resources/read` bundle (a result whose
 * first item is the diagnostic warning).
 *
 * \param response The response, or NULL.
 * \return True for a partial bundle; false otherwise and when `response` is
 *   NULL.
 * \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
 * \note Thread-safe (see `mcpr_response_json`).
 *
 * \ingroup request
 */
bool mcpr_response_is_partial(const mcpr_response *MCPR_NULLABLE response);

/**
 * Whether the response's JSON is a complete JSON-RPC notification message
 * to send as it is, not a `result` object: the
 * `notifications/subscriptions/acknowledged` message of a
 * `subscriptions/listen` request. The listen request itself is answered
 * only when the stream ends (`mcpr_notify_listen_closed`), or with an
 * error object when it fails.
 *
 * \param response The response, or NULL.
 * \return True for a notification message; false otherwise and when
 *   `response` is NULL.
 * \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
 * \note Thread-safe (see `mcpr_response_json`).
 *
 * \ingroup request
 */
bool mcpr_response_is_notification(const mcpr_response *MCPR_NULLABLE response);

/**
 * What the host must record after a successful `resources/subscribe`,
 * `resources/unsubscribe` or `subscriptions/listen`: the URIs, types,
 * subscription id and revision (`mcpr_subscription_*`).
 *
 * \param response The response, or NULL.
 * \return The decision, borrowed from `response` (valid until
 *   `mcpr_response_free(response)`); NULL for every other response (error
 *   objects included) and when `response` is NULL.
 * \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
 * \note Thread-safe (see `mcpr_response_json`).
 *
 * \ingroup request
 */
const mcpr_subscription *MCPR_NULLABLE mcpr_response_subscription(const mcpr_response *MCPR_NULLABLE response);

/**
 * Whether the response is an MCP 2026-07-28 `InputRequiredResult`: a
 * callback of the `resources/read` asked for input first
 * (docs/BEHAVIOUR.md §18). Send its JSON as the `result`; the client
 * retries with `inputResponses` and the `requestState` it holds.
 *
 * \param response The response, or NULL.
 * \return True for an input-required result; false otherwise and when
 *   `response` is NULL.
 * \pre `response` is NULL or a response from `mcpr_request`, not yet freed.
 * \note Thread-safe (see `mcpr_response_json`).
 *
 * \ingroup request
 */
bool mcpr_response_is_input_required(const mcpr_response *MCPR_NULLABLE response);

/**
 * Frees a response.
 *
 * \param response The response to free, or NULL (then nothing happens).
 * \pre `response` is NULL or a response from `mcpr_request`, freed only
 *   once; no thread uses it (or a string borrowed from it) afterwards.
 * \note Any thread may free it, once no other thread uses it.
 *
 * \ingroup request
 */
void mcpr_response_free(mcpr_response *MCPR_NULLABLE response);

/**
 * Validates result `_meta` members once: a JSON object held to the rules
 * definitions are held to (no repeated key at any depth, no lone
 * surrogate, no non-finite number, nesting at most 127 deep), at most
 * 63 KiB compact (the result `_meta` holds 64 KiB, the library's own members
 * need the rest), without the library's reserved key
 * `go.phpboyscout.uk/mcp.resourceRead` anywhere (the only key the library
 * writes into a result `_meta`). Calls given it in their options merge
 * its members into the `_meta` of every result they make, after the
 * library's own members, which are never replaced.
 *
 * \param json The object, e.g. `{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}`.
 * \param out Receives the new handle (caller owns it; free with
 *   `mcpr_result_meta_free`); written only on success.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONFIGURATION` for JSON that breaks the
 *   rules above (the message says which); `MCPR_INVALID_ARGUMENT` for a
 *   NULL `out` or a `(NULL, n > 0)` string.
 * \pre `json` follows the `mcpr_str` rules; `out` is NULL or valid for one
 *   pointer write; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \post On success `*out` is a new handle the caller owns.
 * \note Thread-safe: any thread may create handles.
 *
 * \ingroup request
 */
mcpr_status mcpr_result_meta_new(mcpr_str json, mcpr_result_meta *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * The compact JSON of the members (without the enclosing braces; empty for
 * `{}`), as they are merged into results.
 *
 * \param meta The handle, or NULL.
 * \return The members, borrowed from `meta` (valid until it is freed; not
 *   NUL-terminated); empty when `meta` is NULL.
 * \pre `meta` is NULL or a handle from `mcpr_result_meta_new`, not yet
 *   freed.
 * \note Thread-safe: the handle is immutable; any thread may read it.
 *
 * \ingroup request
 */
mcpr_str mcpr_result_meta_members(const mcpr_result_meta *MCPR_NULLABLE meta);

/**
 * Frees a result `_meta` handle. Calls in flight that were given it keep
 * their own reference, so it may be freed as soon as they have begun.
 *
 * \param meta The handle to free, or NULL (then nothing happens).
 * \pre `meta` is NULL or a handle from `mcpr_result_meta_new`, freed only
 *   once; no thread uses this handle afterwards (including to start a call
 *   with it).
 * \note Any thread may free it, once no other thread uses the handle.
 *
 * \ingroup request
 */
void mcpr_result_meta_free(mcpr_result_meta *MCPR_NULLABLE meta);

/**
 * The `Tool` definitions of the resource tools, `list_resources` and
 * `read_resource`, as one JSON array: merge its two objects into your own
 * `tools/list` result. Both are read-only and take a JSON object with only
 * the members they name (`read_resource`: `uri`; `list_resources`: an
 * optional `cursor`); both have an output schema.
 *
 * \param protocol_revision The negotiated revision (`"2025-06-18"`,
 *   `"2025-11-25"`, `"2026-07-28"`; empty = the newest).
 * \param out Receives the JSON on `MCPR_OK`, borrowed from the library
 *   (static: valid for as long as the library is loaded).
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `out`, a string
 *   breaking the `mcpr_str` rules or an unknown revision.
 * \pre `protocol_revision` follows the `mcpr_str` rules; `out` is NULL or
 *   points at writable storage for one `mcpr_str`; `err` is NULL or points
 *   at writable storage for one `mcpr_error *`.
 * \note Thread-safe.
 *
 * \ingroup request
 */
mcpr_status mcpr_resource_tools_definitions(mcpr_str protocol_revision, mcpr_str *out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Serves `tools/call` for the resource tools from the raw params text:
 * `read_resource` reads a URI through the read pipeline for the caller
 * and returns its items as embedded resources (and as
 * `structuredContent.contents`); `list_resources` returns one page of the
 * resources, then of the templates, the caller may discover, paginated
 * with the library's sealed cursors (bound to `options->scope_key`).
 *
 * On `MCPR_OK` the response is to be sent, as for `mcpr_request`. A
 * `CallToolResult` with `isError: true` is a result (send it under
 * `"result"`): arguments the tool's input schema refuses, a resource it
 * cannot read (one text for hidden, undiscoverable, unregistered and
 * invalid URIs alike: `Resource not found`), a cursor it cannot use
 * (`Invalid cursor`), a failed read (the failure's fixed message); its
 * private cause is `mcpr_response_cause`. Params that are not a valid
 * `CallToolRequest` (not an object, `name` missing or not a string,
 * `arguments` not an object, a repeated member) and an unknown
 * per-request revision are error objects. A request the client cancelled
 * gets no response: drop it.
 *
 * \param resources A registry reference.
 * \param params_json The raw text of the request's `params`.
 * \param options The request options (protocol revision, the scope key
 *   that `list_resources` needs, page size, deadline, cancellation,
 *   request data, executor; `resource_tools` is not needed here), or NULL
 *   for all defaults (then `list_resources`, which needs a scope key, is
 *   `MCPR_INVALID_ARGUMENT`); read during the call only.
 * \param out Receives the response on `MCPR_OK`; the caller owns it: free
 *   it with `mcpr_response_free`.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK` with a response to send; `MCPR_METHOD_NOT_HANDLED` for
 *   a tool that is not one of the two (call your own tool);
 *   `MCPR_INVALID_ARGUMENT` for programming errors (NULL `resources` or
 *   `out`, bad strings, an unknown `protocol_revision` option, an empty
 *   scope key for `list_resources`, options with a bad `struct_size` or set
 *   fields beyond it that this library does not know); `MCPR_INTERNAL` for
 *   a library failure.
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made: one that no other thread may be releasing at that moment.
 * \pre `params_json` follows the `mcpr_str` rules; `options` is NULL or
 *   points at options of `struct_size` readable bytes whose strings follow
 *   the `mcpr_str` rules and whose `cancel` and `executor` are NULL or not
 *   yet freed; `out` is NULL or points at writable storage for one
 *   `mcpr_response *`; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe: many threads may serve one registry at once; the call
 *   holds its own registry reference from entry to return.
 *
 * \ingroup request
 */
mcpr_status mcpr_resource_tools_call(const mcpr_resources *resources, mcpr_str params_json, const mcpr_request_options *MCPR_NULLABLE options, mcpr_response *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Serves one whole JSON-RPC message, for hosts that parse no JSON: the
 * message text in (one line of a stdio transport, one HTTP body), the
 * whole response message out, with the request's id byte for byte.
 *
 * The method and the raw text of `params` go to `mcpr_request`, so a
 * message is answered exactly as `mcpr_request` answers its method and
 * params, and serves whatever `mcpr_request` serves. Around it
 * (docs/BEHAVIOUR.md §17): a message that is not JSON is answered
 * `-32700` "Parse error" with id null; JSON that is no JSON-RPC message
 * (a batch: refused whole; another non-object; a repeated JSON-RPC member;
 * an id that is neither a string nor an integer; `jsonrpc` other than
 * `"2.0"`; a method that is no string; neither a method nor a response;
 * over 16 MiB) is answered `-32600` "Invalid Request", with the id when it
 * is valid; a notification is never answered (one of a method the library
 * serves is ignored); a request the call cancelled gets no response; a
 * message of whitespace only is ignored. A request of a method the library
 * does not serve, any other notification and a client's response are not
 * handled (`mcpr_reply_handled` false): answer them yourself, with
 * `mcpr_reply_method`, `mcpr_reply_id` and `mcpr_reply_params`. The
 * subscription methods (docs/BEHAVIOUR.md §15): their decision is
 * `mcpr_reply_subscription`; `subscriptions/listen` is served with the
 * message's own id as its request id (`options->request_id` is not used),
 * and its reply is the acknowledgement to send as the stream's first
 * message (`mcpr_reply_is_notification`), not a response.
 *
 * \param resources A registry reference.
 * \param message The whole message text (UTF-8 JSON; a trailing newline
 *   is fine).
 * \param options The options of `mcpr_request` (protocol revision, scope
 *   key of the list methods, page size, deadline, cancellation, request
 *   data, executor), or NULL for all defaults; read during the call only.
 * \param out Receives the reply on `MCPR_OK`; the caller owns it: free it
 *   with `mcpr_reply_free`.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK` with a reply (send `mcpr_reply_json` when it is not
 *   empty); `MCPR_INVALID_ARGUMENT` for programming errors (NULL
 *   `resources` or `out`, a bad string, bad options, a list method without
 *   a scope key: nothing is to be sent as if the client were at fault);
 *   `MCPR_INTERNAL` for a library failure (answer `-32603`).
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made (as for `mcpr_request`).
 * \pre `message` follows the `mcpr_str` rules; `options` is NULL or points
 *   at options of `struct_size` readable bytes whose strings follow the
 *   `mcpr_str` rules and whose `cancel` and `executor` are NULL or not yet
 *   freed; `out` is NULL or points at writable storage for one
 *   `mcpr_reply *`; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe: many threads may serve one registry at once (one
 *   message each); the call holds its own registry reference from entry to
 *   return, and with `options->executor` it returns by its deadline
 *   whatever a callback does, as `mcpr_request` does.
 *
 * \ingroup request
 */
mcpr_status mcpr_message(const mcpr_resources *resources, mcpr_str message, const mcpr_request_options *MCPR_NULLABLE options, mcpr_reply *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * The whole JSON-RPC response message to send, as one line of compact
 * JSON without a newline (`{"jsonrpc":"2.0","id":…,"result":…}` or
 * `…"error":…}`), or empty when nothing is to be sent: a notification, a
 * response, a blank message, a cancelled request, and every message not
 * handled (`mcpr_reply_handled` false: answer it yourself).
 *
 * \param reply The reply, or NULL.
 * \return The message, borrowed from `reply` (valid until
 *   `mcpr_reply_free(reply)`); empty when `reply` is NULL.
 * \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
 * \note Thread-safe: a reply is immutable; any thread may read it, also
 *   concurrently.
 *
 * \ingroup request
 */
mcpr_str mcpr_reply_json(const mcpr_reply *MCPR_NULLABLE reply);

/**
 * Whether the library dealt with the message: it answered it in
 * `mcpr_reply_json`, or there is nothing to answer (a notification of a
 * method it serves, a cancelled request, a blank or invalid message).
 *
 * \param reply The reply, or NULL.
 * \return False when the host must deal with the message: a request or
 *   notification of a method the library does not serve (answer a request
 *   with its `mcpr_reply_id`, `-32601` when you serve it neither), or a
 *   response from the client; false also when `reply` is NULL.
 * \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
 * \note Thread-safe (see `mcpr_reply_json`).
 *
 * \ingroup request
 */
bool mcpr_reply_handled(const mcpr_reply *MCPR_NULLABLE reply);

/**
 * What the message was.
 *
 * \param reply The reply, or NULL.
 * \return `MCPR_MESSAGE_REQUEST`, `MCPR_MESSAGE_NOTIFICATION`,
 *   `MCPR_MESSAGE_RESPONSE`, `MCPR_MESSAGE_INVALID`, or `MCPR_MESSAGE_NONE`
 *   for a blank message and when `reply` is NULL.
 * \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
 * \note Thread-safe (see `mcpr_reply_json`).
 *
 * \ingroup request
 */
mcpr_message_kind mcpr_reply_kind(const mcpr_reply *MCPR_NULLABLE reply);

/**
 * The method of a request or notification, decoded from its JSON string
 * (`"tools/list"`): compare it byte for byte to route the message.
 *
 * \param reply The reply, or NULL.
 * \return The method, borrowed from `reply` (valid until
 *   `mcpr_reply_free(reply)`); empty for other messages and when `reply`
 *   is NULL.
 * \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
 * \note Thread-safe (see `mcpr_reply_json`).
 *
 * \ingroup request
 */
mcpr_str mcpr_reply_method(const mcpr_reply *MCPR_NULLABLE reply);

/**
 * The raw JSON text of the message's id, exactly as the client sent it (a
 * string with its quotes and escapes, or an integer): write it as is into
 * your own response (`{"jsonrpc":"2.0","id":<this>,…}`).
 *
 * \param reply The reply, or NULL.
 * \return The id text, borrowed from `reply` (valid until
 *   `mcpr_reply_free(reply)`); empty for a notification, a message without
 *   a valid id, and when `reply` is NULL.
 * \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
 * \note Thread-safe (see `mcpr_reply_json`).
 *
 * \ingroup request
 */
mcpr_str mcpr_reply_id(const mcpr_reply *MCPR_NULLABLE reply);

/**
 * The raw text of the `params` of a message the library did not handle,
 * exactly as sent (not necessarily UTF-8: the library did not read it).
 *
 * \param reply The reply, or NULL.
 * \return The params text, borrowed from `reply` (valid until
 *   `mcpr_reply_free(reply)`); empty when the message had none, for
 *   handled messages, and when `reply` is NULL.
 * \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
 * \note Thread-safe (see `mcpr_reply_json`).
 *
 * \ingroup request
 */
mcpr_str mcpr_reply_params(const mcpr_reply *MCPR_NULLABLE reply);

/**
 * The status behind the reply: the failure of an error response (as
 * `mcpr_response_status`), `MCPR_CANCELED` for a cancelled request (which
 * gets no response), `MCPR_INVALID_REQUEST` for an invalid message.
 *
 * \param reply The reply, or NULL.
 * \return The status; `MCPR_OK` for a result and for messages without a
 *   failure; `MCPR_INVALID_ARGUMENT` when `reply` is NULL.
 * \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
 * \note Thread-safe (see `mcpr_reply_json`).
 *
 * \ingroup request
 */
mcpr_status mcpr_reply_status(const mcpr_reply *MCPR_NULLABLE reply);

/**
 * Whether `mcpr_reply_json` is an error response.
 *
 * \param reply The reply, or NULL.
 * \return True for an error response; false otherwise (a result, nothing
 *   to send) and when `reply` is NULL.
 * \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
 * \note Thread-safe (see `mcpr_reply_json`).
 *
 * \ingroup request
 */
bool mcpr_reply_is_error(const mcpr_reply *MCPR_NULLABLE reply);

/**
 * The private cause behind the reply's failure, for the host's logs only:
 * never send it.
 *
 * \param reply The reply, or NULL.
 * \return The cause, borrowed from `reply` (valid until
 *   `mcpr_reply_free(reply)`); empty without a failure and when `reply` is
 *   NULL.
 * \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
 * \note Thread-safe (see `mcpr_reply_json`).
 *
 * \ingroup request
 */
mcpr_str mcpr_reply_cause(const mcpr_reply *MCPR_NULLABLE reply);

/**
 * Whether the response is a partial `resources/read` bundle.
 *
 * \param reply The reply, or NULL.
 * \return True for a partial bundle; false otherwise and when `reply` is
 *   NULL.
 * \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
 * \note Thread-safe (see `mcpr_reply_json`).
 *
 * \ingroup request
 */
bool mcpr_reply_is_partial(const mcpr_reply *MCPR_NULLABLE reply);

/**
 * Whether the reply's JSON is the acknowledgement of a
 * `subscriptions/listen` stream: the
 * `notifications/subscriptions/acknowledged` message, sent as it is as the
 * stream's first message, not a response. The listen request itself is
 * answered only when the stream ends (`mcpr_notify_listen_closed` with the
 * stream's `mcpr_subscription_id`, sent with `mcpr_reply_id`). The listen
 * was served with the message's own id as its request id.
 *
 * \param reply The reply, or NULL.
 * \return True for an acknowledgement; false otherwise and when `reply`
 *   is NULL.
 * \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
 * \note Thread-safe (see `mcpr_reply_json`).
 *
 * \ingroup request
 */
bool mcpr_reply_is_notification(const mcpr_reply *MCPR_NULLABLE reply);

/**
 * What the host must record after a successful `resources/subscribe`,
 * `resources/unsubscribe` or `subscriptions/listen` message, as
 * `mcpr_response_subscription` gives it (`mcpr_subscription_*`).
 *
 * \param reply The reply, or NULL.
 * \return The decision, borrowed from `reply` (valid until
 *   `mcpr_reply_free(reply)`); NULL for every other reply (error responses
 *   included) and when `reply` is NULL.
 * \pre `reply` is NULL or a reply from `mcpr_message`, not yet freed.
 * \note Thread-safe (see `mcpr_reply_json`).
 *
 * \ingroup request
 */
const mcpr_subscription *MCPR_NULLABLE mcpr_reply_subscription(const mcpr_reply *MCPR_NULLABLE reply);

/**
 * Frees a reply.
 *
 * \param reply The reply to free, or NULL (then nothing happens).
 * \pre `reply` is NULL or a reply from `mcpr_message`, freed only once; no
 *   thread uses it (or a string borrowed from it) afterwards.
 * \note Any thread may free it, once no other thread uses it.
 *
 * \ingroup request
 */
void mcpr_reply_free(mcpr_reply *MCPR_NULLABLE reply);

/**
 * Answers `completion/complete` for a `ref/resource` reference (a
 * `ref/prompt` is not this library's: the host answers it).
 *
 * In order: `params->template_uri` must be a registered `uriTemplate`, byte
 * for byte (else `MCPR_UNAVAILABLE`, the same error as any not-found); the
 * policy's `discover` must allow that definition (a denial is the same
 * `MCPR_UNAVAILABLE`; a failure `MCPR_POLICY`); the argument must name one
 * of its variables, its value be at most `max_uri_bytes`, and each context
 * entry naming another variable be empty or a valid completion value (the
 * rules of `mcpr_completion_add_value`; else `MCPR_INVALID_REQUEST`); then
 * the binding's `complete` callback runs (a binding without one answers an
 * empty completion). Its values that are no valid completion value are
 * dropped; at most 100 are sent, within
 * `max_page_bytes` minus 256, with `hasMore` and `total` set truthfully.
 *
 * The result (send `mcpr_completion_json` as the JSON-RPC `result`) carries
 * `"resultType":"complete"` on MCP 2026-07-28 (the options'
 * `protocol_revision`; empty = the newest), nothing of the kind before, and
 * never cache fields. On failure `mcpr_error_jsonrpc_json` is the error
 * object for that revision (not found: `-32602` on 2026-07-28, `-32002`
 * before, with `data.uri` the template URI asked for).
 *
 * Without an executor the callbacks (`discover`, then `complete`) run on
 * this thread; with one they run there as one job and this call returns by
 * its deadline whatever they do (a callback still running is abandoned; the
 * tables stay alive until it returns); a saturated executor fails the call
 * at once with `MCPR_READ_FAILED` (cause "executor saturated").
 *
 * \param resources A registry reference.
 * \param params The client's completion input (template, argument,
 *   context); read during the call only.
 * \param options Read options, or NULL for all defaults: `timeout_ms`,
 *   `cancel`, `request_data`, `executor`, `protocol_revision`,
 *   `result_meta` (merged into the result's `_meta`, charged to the
 *   values' page budget) and `trace` apply as for `mcpr_read`.
 * \param out Receives the completion on success; the caller owns it: free
 *   it with `mcpr_completion_free`.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_UNAVAILABLE` (not found, denied, or a template URI
 *   that is not UTF-8); `MCPR_INVALID_REQUEST` (bad argument or context,
 *   including invalid UTF-8); `MCPR_POLICY`; `MCPR_READ_FAILED` (the
 *   callback failed, or a saturated executor); `MCPR_CANCELED`;
 *   `MCPR_DEADLINE_EXCEEDED`; `MCPR_INVALID_ARGUMENT` for a NULL
 *   `resources`, `params` or `out`, a bad string, a NULL `context` with a
 *   non-zero `context_len`, an unknown protocol revision, a trace member
 *   that is not UTF-8, or options with a
 *   bad `struct_size` or set fields beyond it that this library does not
 *   know.
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made: one that no other thread may be releasing at that moment (retain
 *   it under the lock that publishes it; docs/C-API.md shows the pattern).
 * \pre `params` is NULL or points at params whose strings follow the
 *   `mcpr_str` rules and whose `context` points at `context_len` entries (or
 *   is NULL with 0); `options` is NULL or points at options of `struct_size`
 *   readable bytes whose `cancel`, `executor` and `result_meta` are NULL
 *   or not yet freed and whose strings follow the `mcpr_str` rules; `out` is NULL or points at writable storage for one `mcpr_completion *`;
 *   `err` is NULL or points at writable storage for one `mcpr_error *`.
 * \note Thread-safe: many threads may complete on one registry at once. The
 *   call holds its own registry reference from entry to return, as
 *   `mcpr_read` does.
 *
 * \ingroup completion
 */
mcpr_status mcpr_complete(const mcpr_resources *resources, const mcpr_complete_params *params, const mcpr_read_options *MCPR_NULLABLE options, mcpr_completion *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Proposes one value (copied), in relevance order.
 *
 * A valid value is sent, or only counted when it comes after the first 100
 * values or past the byte budget (`max_page_bytes` minus 256; each value
 * costs its JSON string length plus one), which makes `hasMore` true. A
 * value is what the client substitutes into `{var}`, RFC 6570-encoding it
 * (add `a b`, not `a%20b`); one that is no valid completion value is
 * dropped: not UTF-8, empty, containing `/`, a backslash or NUL, equal to
 * `.` or `..`, holding `%`, `?` or `#` (substituted without encoding it
 * would reach another resource), holding a control, format (bidi override,
 * zero-width) or line or paragraph separator character, or too long to fit,
 * encoded (three bytes per byte outside `A-Za-z0-9-._~`), with the
 * template's literal text in `max_uri_bytes` (BEHAVIOUR §13 rule 5). A
 * dropped value does not spoil the others: the callback may go on and
 * return `MCPR_CB_OK`.
 *
 * \param completion_builder The builder of the `complete` callback.
 * \param value The value (UTF-8, not NUL-terminated).
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK` for a valid value; `MCPR_INVALID_CONTENT` for a dropped
 *   one; `MCPR_INVALID_ARGUMENT` for a NULL builder or a `(NULL, n > 0)`
 *   string.
 * \pre `value` follows the `mcpr_str` rules.
 * \pre `completion_builder` is NULL or the builder the library passed to a
 *   `complete` callback that has not returned yet; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe: any thread may call the setters, also concurrently,
 *   while the callback runs.
 *
 * \ingroup completion
 */
mcpr_status mcpr_completion_add_value(mcpr_completion_builder *completion_builder, mcpr_str value, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Sets the number of completion options available, which may exceed the
 * values added (a later call replaces it). Values added but dropped are
 * subtracted from it; it is never reported below the valid values added,
 * at most 2^53 - 1 is written, and it is left out when it is no larger than
 * the values sent while more exist.
 *
 * \param completion_builder The builder of the `complete` callback.
 * \param total The number of options available.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL builder.
 * \pre `completion_builder` is NULL or the builder the library passed to a
 *   `complete` callback that has not returned yet; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe: any thread may call the setters, also concurrently,
 *   while the callback runs.
 *
 * \ingroup completion
 */
mcpr_status mcpr_completion_set_total(mcpr_completion_builder *completion_builder, uint64_t total, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Says whether more options exist than the values added, for when no exact
 * total is known. `hasMore` is also true whenever values were cut off or
 * the total exceeds the values sent.
 *
 * \param completion_builder The builder of the `complete` callback.
 * \param has_more Whether more options exist.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL builder.
 * \pre `completion_builder` is NULL or the builder the library passed to a
 *   `complete` callback that has not returned yet; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe: any thread may call the setters, also concurrently,
 *   while the callback runs.
 *
 * \ingroup completion
 */
mcpr_status mcpr_completion_set_has_more(mcpr_completion_builder *completion_builder, bool has_more, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * The MCP `CompleteResult` as compact JSON
 * (`{"completion":{"values":[…],"total":N,"hasMore":b},"resultType":"complete"}`;
 * `total` only when known, `resultType` only on 2026-07-28): send it as the
 * JSON-RPC `result`.
 *
 * \param completion The completion, or NULL.
 * \return The JSON, borrowed from `completion` (valid until
 *   `mcpr_completion_free(completion)`); empty when `completion` is NULL.
 * \pre `completion` is NULL or a completion from `mcpr_complete`, not yet
 *   freed.
 * \note Thread-safe: a completion is immutable; any thread may read it, also
 *   concurrently.
 *
 * \ingroup completion
 */
mcpr_str mcpr_completion_json(const mcpr_completion *MCPR_NULLABLE completion);

/**
 * The number of values sent.
 *
 * \param completion The completion, or NULL.
 * \return The count; 0 when `completion` is NULL.
 * \pre `completion` is NULL or a completion from `mcpr_complete`, not yet
 *   freed.
 * \note Thread-safe (see `mcpr_completion_json`).
 *
 * \ingroup completion
 */
size_t mcpr_completion_value_count(const mcpr_completion *MCPR_NULLABLE completion);

/**
 * Whether the result says `hasMore`.
 *
 * \param completion The completion, or NULL.
 * \return The flag; false when `completion` is NULL.
 * \pre `completion` is NULL or a completion from `mcpr_complete`, not yet
 *   freed.
 * \note Thread-safe (see `mcpr_completion_json`).
 *
 * \ingroup completion
 */
bool mcpr_completion_has_more(const mcpr_completion *MCPR_NULLABLE completion);

/**
 * Frees a completion.
 *
 * \param completion The completion to free, or NULL (then nothing happens).
 * \pre `completion` is NULL or a completion from `mcpr_complete`, freed only
 *   once; no thread uses it (or a string borrowed from it) afterwards.
 * \note Any thread may free it, once no other thread uses it.
 *
 * \ingroup completion
 */
void mcpr_completion_free(mcpr_completion *MCPR_NULLABLE completion);

/**
 * Which request the decision answers.
 *
 * \param subscription The decision, or NULL.
 * \return `MCPR_SUBSCRIPTION_SUBSCRIBE`, `MCPR_SUBSCRIPTION_UNSUBSCRIBE`
 *   or `MCPR_SUBSCRIPTION_LISTEN`; 0 when `subscription` is NULL.
 * \pre `subscription` is NULL or a decision from
 *   `mcpr_response_subscription` whose response is not yet freed.
 * \note Thread-safe: a decision is immutable.
 *
 * \ingroup subscriptions
 */
mcpr_subscription_method mcpr_subscription_request(const mcpr_subscription *MCPR_NULLABLE subscription);

/**
 * How many URIs the decision names: 1 for subscribe and unsubscribe, the
 * honored subset of a listen (maybe 0).
 *
 * \param subscription The decision, or NULL.
 * \return The count; 0 when `subscription` is NULL.
 * \pre `subscription` is NULL or a decision from
 *   `mcpr_response_subscription` whose response is not yet freed.
 * \note Thread-safe: a decision is immutable.
 *
 * \ingroup subscriptions
 */
size_t mcpr_subscription_uri_count(const mcpr_subscription *MCPR_NULLABLE subscription);

/**
 * URI `index` of the decision, in request order: to record (subscribe,
 * listen) or to forget (unsubscribe).
 *
 * \param subscription The decision, or NULL.
 * \param index Below `mcpr_subscription_uri_count`.
 * \return The URI, borrowed from the response (valid until it is freed);
 *   empty when `index` is out of range or `subscription` is NULL.
 * \pre `subscription` is NULL or a decision from
 *   `mcpr_response_subscription` whose response is not yet freed.
 * \note Thread-safe: a decision is immutable.
 *
 * \ingroup subscriptions
 */
mcpr_str mcpr_subscription_uri(const mcpr_subscription *MCPR_NULLABLE subscription, size_t index);

/**
 * The notification types honored: a listen's acknowledged filter,
 * `MCPR_NOTIFY_RESOURCE_UPDATES` for a subscribe, none for an unsubscribe.
 *
 * \param subscription The decision, or NULL.
 * \return `MCPR_NOTIFY_*` bits; 0 when `subscription` is NULL.
 * \pre `subscription` is NULL or a decision from
 *   `mcpr_response_subscription` whose response is not yet freed.
 * \note Thread-safe: a decision is immutable.
 *
 * \ingroup subscriptions
 */
uint32_t mcpr_subscription_honored(const mcpr_subscription *MCPR_NULLABLE subscription);

/**
 * The notification types the client asked for (a listen's whole filter,
 * tools and prompts included, for a host answering those itself).
 *
 * \param subscription The decision, or NULL.
 * \return `MCPR_NOTIFY_*` bits; 0 when `subscription` is NULL.
 * \pre `subscription` is NULL or a decision from
 *   `mcpr_response_subscription` whose response is not yet freed.
 * \note Thread-safe: a decision is immutable.
 *
 * \ingroup subscriptions
 */
uint32_t mcpr_subscription_requested(const mcpr_subscription *MCPR_NULLABLE subscription);

/**
 * A listen stream's subscription id, as the JSON text its messages carry
 * (`1`, `"listen-1"`): store it with the stream and pass it as
 * `mcpr_subscriber.subscription_id`.
 *
 * \param subscription The decision, or NULL.
 * \return The id, borrowed from the response (valid until it is freed);
 *   empty for subscribe and unsubscribe and when `subscription` is NULL.
 * \pre `subscription` is NULL or a decision from
 *   `mcpr_response_subscription` whose response is not yet freed.
 * \note Thread-safe: a decision is immutable.
 *
 * \ingroup subscriptions
 */
mcpr_str mcpr_subscription_id(const mcpr_subscription *MCPR_NULLABLE subscription);

/**
 * The protocol revision of the request (the per-request one when its
 * params named one): store it as the subscriber's
 * `mcpr_subscriber.protocol_revision`.
 *
 * \param subscription The decision, or NULL.
 * \return `"2025-06-18"`, `"2025-11-25"` or `"2026-07-28"` (static);
 *   empty when `subscription` is NULL.
 * \pre `subscription` is NULL or a decision from
 *   `mcpr_response_subscription` whose response is not yet freed.
 * \note Thread-safe: a decision is immutable.
 *
 * \ingroup subscriptions
 */
mcpr_str mcpr_subscription_protocol_revision(const mcpr_subscription *MCPR_NULLABLE subscription);

/**
 * Fills notify options with the defaults, as `MCPR_NOTIFY_OPTIONS_INIT`
 * does.
 *
 * \param options The options to fill, or NULL (then nothing happens).
 * \pre `options` is NULL or points at a writable `mcpr_notify_options`.
 * \note Thread-safe: touches only `*options`.
 *
 * \ingroup subscriptions
 */
void mcpr_notify_options_init(mcpr_notify_options *MCPR_NULLABLE options);

/**
 * Decides one resource update for many subscribers: `uri` changed, and
 * each subscriber gets the exact `notifications/resources/updated`
 * message for its revision, or nothing (`mcpr_notifications_message`).
 *
 * Each subscriber is rechecked now, under its own `request_data`, with
 * the question subscribing asked (docs/BEHAVIOUR.md §15): the read's root
 * checks (selection, `discover`, `resolve`, the requested target's
 * `visibility` and policy `read`) pass for `uri`, and for the URI it
 * subscribed to when that is another one. A subscriber who can no longer
 * see it, or whose read permission was revoked, gets nothing, silently; a
 * decision that failed gets nothing and its status says why
 * (`mcpr_notifications_status`). Nothing is read. The callbacks run in
 * `MCPR_PHASE_SUBSCRIPTION` (`resolve` in `MCPR_PHASE_RESOLVE`).
 *
 * \param resources A registry reference.
 * \param uri The URI that changed (the URI the messages name).
 * \param subscribers The subscribers (an array of `count`; NULL when
 *   `count` is 0); read during the call only.
 * \param count How many subscribers.
 * \param options The options (deadline, cancellation, executor), or NULL
 *   for all defaults.
 * \param out Receives the result on `MCPR_OK`; the caller owns it: free it
 *   with `mcpr_notifications_free`.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK` with one outcome per subscriber, in order;
 *   `MCPR_INVALID_REQUEST` when `uri` is not a valid identifier (or is
 *   ambiguous); `MCPR_INVALID_ARGUMENT` for a NULL `resources` or `out`,
 *   bad strings, a subscriber with an unknown revision, a bad
 *   `subscription_id`, none from 2026-07-28 on, or a bad `struct_size`;
 *   `MCPR_CANCELED`, `MCPR_DEADLINE_EXCEEDED`; `MCPR_POLICY` for a
 *   saturated executor. On a failure nothing is to be sent.
 * \pre `resources` is NULL or a live registry reference (see `mcpr_read`).
 * \pre `uri` follows the `mcpr_str` rules; `subscribers` is NULL with
 *   `count` 0 or points at `count` subscribers of the `struct_size` the
 *   first states, whose strings follow the `mcpr_str` rules and whose
 *   `listing` is NULL or points at 32 readable bytes; `options` is NULL or
 *   points at options of `struct_size` readable bytes whose `cancel` and
 *   `executor` are NULL or not yet freed; `out` is NULL or points at
 *   writable storage for one `mcpr_notifications *`; `err` is NULL or
 *   points at writable storage for one `mcpr_error *`.
 * \note Thread-safe: many threads may call it on one registry at once.
 *
 * \ingroup subscriptions
 */
mcpr_status mcpr_notify_updated(const mcpr_resources *resources, mcpr_str uri, const mcpr_subscriber *MCPR_NULLABLE subscribers, size_t count, const mcpr_notify_options *MCPR_NULLABLE options, mcpr_notifications *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Decides one list change (`mcpr_list_change_new`) for many subscribers:
 * each gets the exact `notifications/resources/list_changed` message for
 * its revision when it can discover at least one definition that differs
 * (a removed or changed one under the old registry's policy, an added or
 * changed one under the new registry's, with its own `request_data`), and
 * nothing otherwise. Only the differing definitions are asked about: the
 * cost grows with the change, not with the catalogue. A subscriber whose
 * `discover` failed for some and allowed none gets nothing, with its
 * failure status. The callbacks run in `MCPR_PHASE_SUBSCRIPTION`.
 *
 * \param change The list change.
 * \param subscribers The subscribers (an array of `count`; NULL when
 *   `count` is 0); read during the call only.
 * \param count How many subscribers.
 * \param options The options, or NULL for all defaults (`read_timeout` is
 *   the new registry's).
 * \param out Receives the result on `MCPR_OK`; free it with
 *   `mcpr_notifications_free`.
 * \param err Receives an error object on failure; may be NULL.
 * \return `MCPR_OK` with one outcome per subscriber; `MCPR_INVALID_ARGUMENT`
 *   for a NULL `change` or `out` or a bad subscriber (as for
 *   `mcpr_notify_updated`); `MCPR_CANCELED`, `MCPR_DEADLINE_EXCEEDED`,
 *   `MCPR_POLICY` (a saturated executor).
 * \pre `change` is NULL or a list change from `mcpr_list_change_new`, not
 *   yet freed; `subscribers`, `options`, `out` and `err` as for
 *   `mcpr_notify_updated`.
 * \note Thread-safe: many threads may use one list change at once.
 *
 * \ingroup subscriptions
 */
mcpr_status mcpr_notify_list_changed(const mcpr_list_change *change, const mcpr_subscriber *MCPR_NULLABLE subscribers, size_t count, const mcpr_notify_options *MCPR_NULLABLE options, mcpr_notifications *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Decides a list change after a permission change, for many subscribers:
 * each subscriber's listing fingerprint is taken again (a full recheck:
 * `discover` for every definition, as `mcpr_listing_fingerprint`) and
 * compared with its `listing`, taken before the change; a subscriber
 * whose fingerprint differs gets the exact
 * `notifications/resources/list_changed` message for its revision, the
 * others nothing. `mcpr_notifications_listing` gives each new fingerprint,
 * for the next change.
 *
 * \param resources A registry reference.
 * \param subscribers The subscribers, each with its `listing` (an array
 *   of `count`; NULL when `count` is 0); read during the call only.
 * \param count How many subscribers.
 * \param options The options, or NULL for all defaults.
 * \param out Receives the result on `MCPR_OK`; free it with
 *   `mcpr_notifications_free`.
 * \param err Receives an error object on failure; may be NULL.
 * \return As for `mcpr_notify_updated`; a subscriber without `listing` is
 *   `MCPR_INVALID_ARGUMENT`.
 * \pre As for `mcpr_notify_updated` (without `uri`).
 * \note Thread-safe: many threads may call it on one registry at once.
 *
 * \ingroup subscriptions
 */
mcpr_status mcpr_notify_listing_changed(const mcpr_resources *resources, const mcpr_subscriber *MCPR_NULLABLE subscribers, size_t count, const mcpr_notify_options *MCPR_NULLABLE options, mcpr_notifications *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * The result that ends a `subscriptions/listen` stream gracefully: send
 * its `mcpr_response_json` as the JSON-RPC `result` of the listen request
 * (with the request's id) when the server tears the stream down, before
 * closing it: `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":<id>}}`.
 *
 * \param subscription_id The stream's subscription id as JSON text
 *   (`mcpr_subscription_id`).
 * \param out Receives the response on `MCPR_OK`; free it with
 *   `mcpr_response_free`.
 * \param err Receives an error object on failure; may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `out` or an id that
 *   is not the JSON of a request id (at most 256 bytes).
 * \pre `subscription_id` follows the `mcpr_str` rules; `out` is NULL or
 *   points at writable storage for one `mcpr_response *`; `err` is NULL or
 *   points at writable storage for one `mcpr_error *`.
 * \note Thread-safe: touches nothing shared.
 *
 * \ingroup subscriptions
 */
mcpr_status mcpr_notify_listen_closed(mcpr_str subscription_id, mcpr_response *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * How many subscribers the result covers (the `count` given).
 *
 * \param notifications The result, or NULL.
 * \return The count; 0 when `notifications` is NULL.
 * \pre `notifications` is NULL or a result from an `mcpr_notify_*`
 *   function, not yet freed.
 * \note Thread-safe: a result is immutable; any thread may read it, also
 *   concurrently.
 *
 * \ingroup subscriptions
 */
size_t mcpr_notifications_count(const mcpr_notifications *MCPR_NULLABLE notifications);

/**
 * The message to send to subscriber `index`: a complete JSON-RPC
 * notification (`{"jsonrpc":"2.0","method":...}`), to be written to the
 * subscriber's session or stream as it is; empty when the subscriber is to
 * get nothing.
 *
 * \param notifications The result, or NULL.
 * \param index The subscriber's position in the array given.
 * \return The message, borrowed from `notifications` (valid until
 *   `mcpr_notifications_free(notifications)`); empty when nothing is to be
 *   sent, when `index` is out of range and when `notifications` is NULL.
 * \pre `notifications` is NULL or a result from an `mcpr_notify_*`
 *   function, not yet freed.
 * \note Thread-safe (see `mcpr_notifications_count`).
 *
 * \ingroup subscriptions
 */
mcpr_str mcpr_notifications_message(const mcpr_notifications *MCPR_NULLABLE notifications, size_t index);

/**
 * Whether deciding for subscriber `index` succeeded: `MCPR_OK` whether a
 * message is to be sent or not (a subscriber who may not be told is never
 * distinguished further), else the failure of its decision (`MCPR_POLICY`
 * for a failing policy callback, `MCPR_INVALID_PLAN` for a failing
 * `resolve`, ...), for which nothing is sent either.
 *
 * \param notifications The result, or NULL.
 * \param index The subscriber's position in the array given.
 * \return The status; `MCPR_INVALID_ARGUMENT` when `notifications` is NULL
 *   or `index` out of range.
 * \pre `notifications` is NULL or a result from an `mcpr_notify_*`
 *   function, not yet freed.
 * \note Thread-safe (see `mcpr_notifications_count`).
 *
 * \ingroup subscriptions
 */
mcpr_status mcpr_notifications_status(const mcpr_notifications *MCPR_NULLABLE notifications, size_t index);

/**
 * The private cause of subscriber `index`'s failed decision, for the
 * host's logs only: never send it.
 *
 * \param notifications The result, or NULL.
 * \param index The subscriber's position in the array given.
 * \return The cause, borrowed from `notifications` (valid until
 *   `mcpr_notifications_free(notifications)`); empty for a decision that
 *   succeeded, out of range and for NULL.
 * \pre `notifications` is NULL or a result from an `mcpr_notify_*`
 *   function, not yet freed.
 * \note Thread-safe (see `mcpr_notifications_count`).
 *
 * \ingroup subscriptions
 */
mcpr_str mcpr_notifications_cause(const mcpr_notifications *MCPR_NULLABLE notifications, size_t index);

/**
 * `mcpr_notify_listing_changed` only: subscriber `index`'s listing
 * fingerprint now, to keep for the next permission change.
 *
 * \param notifications The result, or NULL.
 * \param index The subscriber's position in the array given.
 * \param out Receives the 32-byte fingerprint when there is one.
 * \return True with `out` written; false (nothing written) for the results
 *   of the other calls, a failed decision, `index` out of range, a NULL
 *   `notifications` or `out`.
 * \pre `notifications` is NULL or a result from an `mcpr_notify_*`
 *   function, not yet freed; `out` is NULL or points at 32 writable bytes.
 * \note Thread-safe (see `mcpr_notifications_count`).
 *
 * \ingroup subscriptions
 */
bool mcpr_notifications_listing(const mcpr_notifications *MCPR_NULLABLE notifications, size_t index, uint8_t *out);

/**
 * Frees a notification result.
 *
 * \param notifications The result to free, or NULL (then nothing happens).
 * \pre `notifications` is NULL or a result from an `mcpr_notify_*`
 *   function, freed only once; no thread uses it (or a string borrowed
 *   from it) afterwards.
 * \note Any thread may free it, once no other thread uses it.
 *
 * \ingroup subscriptions
 */
void mcpr_notifications_free(mcpr_notifications *MCPR_NULLABLE notifications);

/**
 * Compares two registries once, for a configuration reload: resources and
 * templates are matched by `uri` / `uriTemplate`, byte for byte, in their
 * sorted orders (one pass over each; two registries of the same content
 * differ in nothing, at once). No callback runs.
 *
 * \param old_resources The registry being replaced.
 * \param new_resources The registry replacing it.
 * \param out Receives the change on `MCPR_OK`; the caller owns it: free it
 *   with `mcpr_list_change_free`.
 * \param err Receives an error object on failure; may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL registry or `out`.
 * \pre `old_resources` and `new_resources` are NULL or live registry
 *   references (see `mcpr_read`); `out` is NULL or points at writable
 *   storage for one `mcpr_list_change *`; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe.
 *
 * \ingroup subscriptions
 */
mcpr_status mcpr_list_change_new(const mcpr_resources *old_resources, const mcpr_resources *new_resources, mcpr_list_change *MCPR_NULLABLE *MCPR_NONNULL out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * How many definitions differ (a changed one counted once); 0 means no
 * subscriber will ever be told.
 *
 * \param change The list change, or NULL.
 * \return The count; 0 when `change` is NULL.
 * \pre `change` is NULL or a list change from `mcpr_list_change_new`, not
 *   yet freed.
 * \note Thread-safe.
 *
 * \ingroup subscriptions
 */
size_t mcpr_list_change_count(const mcpr_list_change *MCPR_NULLABLE change);

/**
 * Frees a list change.
 *
 * \param change The list change to free, or NULL (then nothing happens).
 * \pre `change` is NULL or a list change from `mcpr_list_change_new`,
 *   freed only once, that no thread uses afterwards.
 * \note Any thread may free it, once no other thread uses it.
 *
 * \ingroup subscriptions
 */
void mcpr_list_change_free(mcpr_list_change *MCPR_NULLABLE change);

/**
 * The caller's listing fingerprint: a 32-byte digest of which resources
 * and templates of the registry it can discover (`discover` asked for
 * every definition, under `options->request_data`, in
 * `MCPR_PHASE_SUBSCRIPTION`). Take one for each caller whose permissions
 * are about to change, and pass it as `mcpr_subscriber.listing` to
 * `mcpr_notify_listing_changed` afterwards. Fingerprints of one caller are
 * equal exactly when the same definitions were discoverable; those of
 * different registries always differ. Private to the host: never send it.
 *
 * \param resources A registry reference.
 * \param options The caller's options (request data, deadline,
 *   cancellation, executor; the protocol revision is not used), or NULL
 *   for all defaults.
 * \param out Receives the 32 bytes on `MCPR_OK`.
 * \param err Receives an error object on failure; may be NULL.
 * \return `MCPR_OK`; `MCPR_POLICY` when a `discover` fails (or a saturated
 *   executor); `MCPR_CANCELED`, `MCPR_DEADLINE_EXCEEDED`;
 *   `MCPR_INVALID_ARGUMENT` for a NULL `resources` or `out` or bad options.
 * \pre `resources` is NULL or a live registry reference (see `mcpr_read`);
 *   `options` is NULL or points at options as for `mcpr_read`; `out` is
 *   NULL or points at 32 writable bytes; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe.
 *
 * \ingroup subscriptions
 */
mcpr_status mcpr_listing_fingerprint(const mcpr_resources *resources, const mcpr_read_options *MCPR_NULLABLE options, uint8_t *out, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Fills a subscriber with the defaults: every field at its default and
 * `struct_size` set to `sizeof(mcpr_subscriber)`, as
 * `MCPR_SUBSCRIBER_INIT` does.
 *
 * \param subscriber The subscriber to fill, or NULL (then nothing happens).
 * \pre `subscriber` is NULL or points at a writable `mcpr_subscriber`.
 * \note Thread-safe: touches only `*subscriber`.
 *
 * \ingroup subscriptions
 */
void mcpr_subscriber_init(mcpr_subscriber *MCPR_NULLABLE subscriber);

/**
 * Starts `resources/read` of a URI as an asynchronous call: the call
 * returns at once, and `done` runs exactly once with the outcome
 * `mcpr_read` would have returned, on an executor thread, never inside
 * this call.
 *
 * An executor is required (`options->executor`): the read runs there as
 * `mcpr_read` runs with one, and every guarantee of that call holds
 * without a waiting thread (the executor's watch thread looks after the
 * deadline and cancellation): `done` runs by the read deadline, and at
 * once on cancellation through `options->cancel`, whatever any callback
 * does; a body read past its item deadline becomes a `timeout` item and
 * the read goes on with the other items. The deadline counts from this
 * call. Every failure of the read (not found, a cancelled token, a
 * saturated executor, ...) is the outcome `done` receives; this call fails
 * only for host mistakes, and then `done` never runs. docs/C-API.md shows
 * how an event loop receives the outcome (a pipe or eventfd written in
 * `done`).
 *
 * \param resources A registry reference.
 * \param uri The raw bytes of the request's `params.uri` (copied).
 * \param options The read options (copied; `executor` required).
 * \param done The completion callback (required).
 * \param done_data Handed to `done`, never dereferenced; may be NULL.
 * \param err Receives an error object when the call fails (caller owns
 *   it; free with `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK` when the read started (`done` will run);
 *   `MCPR_INVALID_ARGUMENT` for a NULL `resources` or `done`, no executor,
 *   a `(NULL, n > 0)` string, an unknown protocol revision, or options
 *   with a bad `struct_size` or unknown set fields; `MCPR_READ_FAILED`
 *   when the executor's watch thread could not start. `done` never runs
 *   on failure.
 * \pre `resources` is NULL or a live registry reference when the call is
 *   made (as for `mcpr_read`); `uri` follows the `mcpr_str` rules;
 *   `options` is NULL or points at options of `struct_size` readable bytes
 *   whose `cancel` and `executor` are NULL or not yet freed and whose
 *   `protocol_revision` follows the `mcpr_str` rules; `err` is NULL or
 *   points at writable storage for one `mcpr_error *`.
 * \post The call holds its own registry and executor references until
 *   `done` has returned: the host may free the registry, the executor and
 *   the token as soon as this call returns, with calls in flight; the
 *   `release` callbacks then run after `done` returned (or when an
 *   abandoned callback returns).
 * \note Thread-safe: any thread may start calls, also concurrently.
 *
 * \ingroup async
 */
mcpr_status mcpr_read_start(const mcpr_resources *resources, mcpr_str uri, const mcpr_read_options *options, mcpr_read_done_fn done, void *MCPR_NULLABLE done_data, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Starts one page of `resources/list` as an asynchronous call: returns at
 * once, and `done` runs exactly once with the outcome `mcpr_list` would
 * have returned (same rules as `mcpr_read_start`: an executor is
 * required, `done` runs on an executor thread by the deadline and at once
 * on cancellation, and only host mistakes fail this call).
 *
 * \param resources A registry reference.
 * \param options The list options (required, copied; `executor` required,
 *   non-empty `scope_key`).
 * \param done The completion callback (required).
 * \param done_data Handed to `done`, never dereferenced; may be NULL.
 * \param err Receives an error object when the call fails (caller owns
 *   it; free with `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK` when the listing started; `MCPR_INVALID_ARGUMENT` for
 *   a NULL `resources`, `options` or `done`, no executor, an empty scope
 *   key, a bad string, an unknown protocol revision or bad options;
 *   `MCPR_POLICY` when the executor's watch thread could not start. `done`
 *   never runs on failure.
 * \pre As for `mcpr_list`, without `out`.
 * \post As for `mcpr_read_start`.
 * \note Thread-safe, as `mcpr_read_start`.
 *
 * \ingroup async
 */
mcpr_status mcpr_list_start(const mcpr_resources *resources, const mcpr_list_options *options, mcpr_list_done_fn done, void *MCPR_NULLABLE done_data, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Starts one page of `resources/templates/list` as an asynchronous call
 * (as `mcpr_list_start`; `done` receives what `mcpr_list_templates` would
 * have returned).
 *
 * \param resources A registry reference.
 * \param options The list options (required, copied).
 * \param done The completion callback (required).
 * \param done_data Handed to `done`, never dereferenced; may be NULL.
 * \param err Receives an error object when the call fails; may be NULL.
 * \return As for `mcpr_list_start`.
 * \pre As for `mcpr_list_start`.
 * \post As for `mcpr_read_start`.
 * \note Thread-safe, as `mcpr_read_start`.
 *
 * \ingroup async
 */
mcpr_status mcpr_list_templates_start(const mcpr_resources *resources, const mcpr_list_options *options, mcpr_list_done_fn done, void *MCPR_NULLABLE done_data, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Starts `completion/complete` (`ref/resource`) as an asynchronous call:
 * returns at once, and `done` runs exactly once with the outcome
 * `mcpr_complete` would have returned (same rules as `mcpr_read_start`).
 *
 * \param resources A registry reference.
 * \param params The client's completion input (copied).
 * \param options Read options (copied; `executor` required).
 * \param done The completion callback (required).
 * \param done_data Handed to `done`, never dereferenced; may be NULL.
 * \param err Receives an error object when the call fails (caller owns
 *   it; free with `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK` when the completion started; `MCPR_INVALID_ARGUMENT`
 *   for a NULL `resources`, `params` or `done`, no executor, a bad string,
 *   a NULL `context` with a non-zero `context_len`, an unknown protocol
 *   revision or bad options; `MCPR_INVALID_REQUEST` for an argument or
 *   context that is not UTF-8 (as from `mcpr_complete`); `MCPR_READ_FAILED`
 *   when the executor's watch thread could not start. `done` never runs on
 *   failure.
 * \pre As for `mcpr_complete`, without `out`.
 * \post As for `mcpr_read_start`.
 * \note Thread-safe, as `mcpr_read_start`.
 *
 * \ingroup async
 */
mcpr_status mcpr_complete_start(const mcpr_resources *resources, const mcpr_complete_params *params, const mcpr_read_options *options, mcpr_complete_done_fn done, void *MCPR_NULLABLE done_data, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Starts one MCP request by method name as an asynchronous call: returns
 * at once, and `done` runs exactly once with the response `mcpr_request`
 * would have returned (same rules as `mcpr_read_start`). A method this
 * library does not serve is known from its name and fails this call with
 * `MCPR_METHOD_NOT_HANDLED`; a `completion/complete` with a `ref/prompt`
 * reference (known once its params are read) reaches `done` as
 * `MCPR_METHOD_NOT_HANDLED`. A deadline, a cancellation or a saturated
 * executor is an error response, as from `mcpr_request`.
 *
 * \param resources A registry reference.
 * \param method The JSON-RPC method name (copied).
 * \param params_json The raw text of the request's `params` (copied);
 *   `{NULL, 0}` when the request had none.
 * \param options The request options (copied; `executor` required).
 * \param done The completion callback (required).
 * \param done_data Handed to `done`, never dereferenced; may be NULL.
 * \param err Receives an error object when the call fails (caller owns
 *   it; free with `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK` when the request started; `MCPR_METHOD_NOT_HANDLED`
 *   for a method name this library does not serve; `MCPR_INVALID_ARGUMENT`
 *   for a NULL `resources` or `done`, no executor, bad strings, an unknown
 *   `protocol_revision` option, an empty scope key for a list method, or
 *   bad options; the method's saturation status (`MCPR_READ_FAILED`,
 *   `MCPR_POLICY`) when the executor's watch thread could not start.
 *   `done` never runs on failure.
 * \pre As for `mcpr_request`, without `out`.
 * \post As for `mcpr_read_start`.
 * \note Thread-safe, as `mcpr_read_start`.
 *
 * \ingroup async
 */
mcpr_status mcpr_request_start(const mcpr_resources *resources, mcpr_str method, mcpr_str params_json, const mcpr_request_options *options, mcpr_request_done_fn done, void *MCPR_NULLABLE done_data, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Starts one whole JSON-RPC message as an asynchronous call: returns at
 * once, and `done` runs exactly once with the reply `mcpr_message` would
 * have given (same rules as `mcpr_read_start`). The envelope is read
 * during this call (it runs no callback); a request the library serves
 * then runs as `mcpr_request_start` runs it, and every other message
 * (invalid, a notification, a client's response, a method the library
 * does not serve: `mcpr_reply_handled` false) is answered through `done`
 * as well, on an executor thread, whatever the deadline or cancellation
 * (as `mcpr_message` answers it). A request the call cancelled gets a
 * reply with nothing to send.
 *
 * \param resources A registry reference.
 * \param message The whole message text (copied as far as needed).
 * \param options The options of `mcpr_request` (copied; `executor`
 *   required).
 * \param done The completion callback (required).
 * \param done_data Handed to `done`, never dereferenced; may be NULL.
 * \param err Receives an error object when the call fails (caller owns
 *   it; free with `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK` when the message started; `MCPR_INVALID_ARGUMENT` for
 *   a NULL `resources` or `done`, no executor, a bad string, bad options,
 *   or a list method without a scope key (as `mcpr_message`); the
 *   method's saturation status when the executor's watch thread could not
 *   start. `done` never runs on failure.
 * \pre As for `mcpr_message`, without `out`.
 * \post As for `mcpr_read_start`.
 * \note Thread-safe, as `mcpr_read_start`.
 *
 * \ingroup async
 */
mcpr_status mcpr_message_start(const mcpr_resources *resources, mcpr_str message, const mcpr_request_options *options, mcpr_message_done_fn done, void *MCPR_NULLABLE done_data, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Fills a binding callback table with the defaults: `user_data` and every
 * callback NULL, and `struct_size` set to `sizeof(mcpr_binding_callbacks)`,
 * as `MCPR_BINDING_CALLBACKS_INIT` does.
 *
 * \param callbacks The table to fill, or NULL (then nothing happens).
 * \pre `callbacks` is NULL or points at a writable `mcpr_binding_callbacks`.
 * \note Thread-safe: touches only `*callbacks`.
 *
 * \ingroup callbacks
 */
void mcpr_binding_callbacks_init(mcpr_binding_callbacks *MCPR_NULLABLE callbacks);

/**
 * Fills a policy callback table with the defaults: `user_data` and every
 * callback NULL, and `struct_size` set to `sizeof(mcpr_policy_callbacks)`,
 * as `MCPR_POLICY_CALLBACKS_INIT` does.
 *
 * \param callbacks The table to fill, or NULL (then nothing happens).
 * \pre `callbacks` is NULL or points at a writable `mcpr_policy_callbacks`.
 * \note Thread-safe: touches only `*callbacks`.
 *
 * \ingroup callbacks
 */
void mcpr_policy_callbacks_init(mcpr_policy_callbacks *MCPR_NULLABLE callbacks);

/**
 * Whether the callback should stop: the caller cancelled, this callback's
 * deadline (the item deadline for body reads, the whole-call deadline
 * otherwise) passed, or the call it serves has already returned (a body
 * read abandoned on an executor). Long callbacks should poll it.
 *
 * \param call The callback's call context, or NULL.
 * \return True when the callback should stop; false otherwise and when
 *   `call` is NULL.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup callbacks
 */
bool mcpr_call_is_canceled(const mcpr_call *MCPR_NULLABLE call);

/**
 * Milliseconds left before this callback's deadline, rounded down.
 *
 * \param call The callback's call context, or NULL.
 * \return The time left; 0 once the deadline passed and when `call` is NULL.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup callbacks
 */
uint64_t mcpr_call_remaining_ms(const mcpr_call *MCPR_NULLABLE call);

/**
 * The `request_data` of the options of the call this callback serves. The
 * library never dereferences it.
 *
 * \param call The callback's call context, or NULL.
 * \return The pointer given in the options; NULL when none was given and
 *   when `call` is NULL.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup callbacks
 */
void *MCPR_NULLABLE mcpr_call_request_data(const mcpr_call *MCPR_NULLABLE call);

/**
 * The request's `traceparent` (W3C Trace Context), as the client sent it in
 * the request's `params._meta` (through `mcpr_request`) or as the host
 * gave it in the options' `trace`: the library hands it over without
 * interpreting it (a string of at most 8 KiB; any other value is left
 * out). Read it to join the client's trace.
 *
 * \param call The callback's call context, or NULL.
 * \return The value, borrowed from the call context (valid until the
 *   callback returns; not NUL-terminated); empty (length 0) when the
 *   call has none and when `call` is NULL.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup callbacks
 */
mcpr_str mcpr_call_traceparent(const mcpr_call *MCPR_NULLABLE call);

/**
 * The request's `tracestate` (W3C Trace Context), as sent (see
 * `mcpr_call_traceparent`).
 *
 * \param call The callback's call context, or NULL.
 * \return The value, borrowed from the call context (valid until the
 *   callback returns); empty (length 0) when absent and when `call` is
 *   NULL.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup callbacks
 */
mcpr_str mcpr_call_tracestate(const mcpr_call *MCPR_NULLABLE call);

/**
 * The request's `baggage` (W3C Baggage), as sent (see
 * `mcpr_call_traceparent`).
 *
 * \param call The callback's call context, or NULL.
 * \return The value, borrowed from the call context (valid until the
 *   callback returns); empty (length 0) when absent and when `call` is
 *   NULL.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup callbacks
 */
mcpr_str mcpr_call_baggage(const mcpr_call *MCPR_NULLABLE call);

/**
 * For body reads: the item byte limit (`max_item_bytes`, in payload bytes).
 * A hint: the library enforces it whatever the callback does.
 *
 * \param call The callback's call context, or NULL.
 * \return The limit for a body read; 0 for other callbacks and when `call`
 *   is NULL.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup callbacks
 */
uint64_t mcpr_call_max_bytes(const mcpr_call *MCPR_NULLABLE call);

/**
 * Which step of which call this callback serves: `MCPR_PHASE_FIRST_CHECK`
 * or `MCPR_PHASE_RECHECK` for the policy callbacks of a read (each read asks
 * the policy once before and once after its body reads),
 * `MCPR_PHASE_RESOLVE`, `MCPR_PHASE_BODY_READ`, `MCPR_PHASE_LISTING`,
 * `MCPR_PHASE_COMPLETION`, `MCPR_PHASE_SUBSCRIPTION`. The same whether the
 * call runs inline or on an executor.
 *
 * \param call The callback's call context, or NULL.
 * \return The phase; `MCPR_PHASE_UNKNOWN` when `call` is NULL.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup callbacks
 */
mcpr_phase mcpr_call_phase(const mcpr_call *MCPR_NULLABLE call);

/**
 * Sets the private cause reported when this callback returns
 * `MCPR_CB_FAILED` or `MCPR_CB_INVALID_CONTENT` (copied; invalid UTF-8 is
 * replaced, and the text is cut at 4 KiB; a later call replaces it). The
 * cause reaches the host only, through `mcpr_error_cause` of a whole-call
 * failure; item issues never expose it.
 *
 * \param call The callback's call context, or NULL (then nothing happens).
 * \param message The cause text; a `(NULL, n > 0)` string is ignored.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet; `message` follows the `mcpr_str` rules.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup callbacks
 */
void mcpr_call_set_cause(const mcpr_call *MCPR_NULLABLE call, mcpr_str message);

/**
 * Adds one input request to the call's answer: the callback then returns
 * `MCPR_CB_INPUT_REQUIRED` (see there for the callbacks that may). The
 * request is checked against the MCP 2026-07-28 schema now; whether the
 * client declared what it needs is checked when the read answers.
 *
 * \param call The callback's call context.
 * \param key The request's key in the `InputRequiredResult`: 1 to 64 bytes
 *   of `A-Z a-z 0-9 _ . -`, unique within the read; the retry's response
 *   is read under it.
 * \param request_json The request object as JSON:
 *   `{"method":"elicitation/create","params":{…}}`,
 *   `{"method":"sampling/createMessage","params":{…}}` or
 *   `{"method":"roots/list"}`, at most 64 KiB (copied).
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for a bad key, a used key, a
 *   17th request, or a request that is not valid JSON or not of the
 *   schema's shape (the message names the member; the callback's input is
 *   then spoiled: `MCPR_CB_INPUT_REQUIRED` fails it); `MCPR_INVALID_ARGUMENT`
 *   for a NULL `call` or a `(NULL, n > 0)` string.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet; `key` and `request_json` follow the
 *   `mcpr_str` rules; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe: any thread may call it while the callback runs.
 *
 * \ingroup callbacks
 */
mcpr_status mcpr_input_add_request(const mcpr_call *call, mcpr_str key, mcpr_str request_json, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Sets opaque bytes of the callback's own, sealed into the read's
 * `requestState` and handed back on the retry (`mcpr_input_state`); a
 * later call replaces them.
 *
 * \param call The callback's call context.
 * \param state The bytes (copied), or NULL with `state_len` 0 for none.
 * \param state_len The number of bytes at `state`: at most 1024.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for more than 1024 bytes (the
 *   callback's input is then spoiled); `MCPR_INVALID_ARGUMENT` for a NULL
 *   `call` or a NULL `state` with a non-zero `state_len`.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet; `state` is NULL (with `state_len` 0) or
 *   points at `state_len` readable bytes; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe: any thread may call it while the callback runs.
 *
 * \ingroup callbacks
 */
mcpr_status mcpr_input_set_state(const mcpr_call *call, const uint8_t *MCPR_NULLABLE state, size_t state_len, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Whether the read this callback serves is the verified retry of an
 * input-required read (its `requestState` opened): only then do the
 * `mcpr_input_response*` accessors find anything.
 *
 * \param call The callback's call context, or NULL.
 * \return True on a verified retry; false otherwise and when `call` is NULL.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet.
 * \note Thread-safe: any thread may call it while the callback runs.
 *
 * \ingroup callbacks
 */
bool mcpr_input_is_retry(const mcpr_call *MCPR_NULLABLE call);

/**
 * The client's response under `key` on a verified retry, when the
 * previous round asked for that key and the client answered: an
 * `ElicitResult`, `CreateMessageResult` or `ListRootsResult` as compact
 * JSON, checked against the kind of request asked.
 *
 * \param call The callback's call context, or NULL.
 * \param key The key of the request.
 * \return The JSON, borrowed from the call context (valid until the
 *   callback returns); empty when there is none, and when `call` is NULL or
 *   `key` is a `(NULL, n > 0)` string.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet; `key` follows the `mcpr_str` rules.
 * \note Thread-safe: any thread may call it while the callback runs.
 *
 * \ingroup callbacks
 */
mcpr_str mcpr_input_response(const mcpr_call *MCPR_NULLABLE call, mcpr_str key);

/**
 * The user's action in the elicitation response under `key`.
 *
 * \param call The callback's call context, or NULL.
 * \param key The key of the elicitation request.
 * \return `MCPR_INPUT_ACCEPT`, `MCPR_INPUT_DECLINE` or `MCPR_INPUT_CANCEL`;
 *   `MCPR_INPUT_NO_ACTION` when there is no elicitation response under
 *   `key`, and when `call` is NULL or `key` is a `(NULL, n > 0)` string.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet; `key` follows the `mcpr_str` rules.
 * \note Thread-safe: any thread may call it while the callback runs.
 *
 * \ingroup callbacks
 */
mcpr_input_action mcpr_input_response_action(const mcpr_call *MCPR_NULLABLE call, mcpr_str key);

/**
 * One field of the form the user submitted in the elicitation response
 * under `key`: its value as compact JSON (a string with its quotes, a
 * number, `true`/`false`, or a list of strings).
 *
 * \param call The callback's call context, or NULL.
 * \param key The key of the elicitation request.
 * \param field The name of the form field (a property of its
 *   `requestedSchema`).
 * \return The JSON, borrowed from the call context (valid until the
 *   callback returns); empty when the field was not sent, and when `call`
 *   is NULL or a string is `(NULL, n > 0)`.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet; `key` and `field` follow the `mcpr_str`
 *   rules.
 * \note Thread-safe: any thread may call it while the callback runs.
 *
 * \ingroup callbacks
 */
mcpr_str mcpr_input_response_content(const mcpr_call *MCPR_NULLABLE call, mcpr_str key, mcpr_str field);

/**
 * The bytes the asking callback sealed with `mcpr_input_set_state`, on a
 * verified retry.
 *
 * \param call The callback's call context, or NULL.
 * \return The bytes, borrowed from the call context (valid until the
 *   callback returns); empty when none were set, when the read is no
 *   retry, and when `call` is NULL.
 * \pre `call` is NULL or the call context the library passed to a callback
 *   that has not returned yet.
 * \note Thread-safe: any thread may call it while the callback runs.
 *
 * \ingroup callbacks
 */
mcpr_str mcpr_input_state(const mcpr_call *MCPR_NULLABLE call);

/**
 * Sets the plan's canonical requested target (copied; a later call replaces
 * it). A refused target makes the whole plan invalid: the read fails with
 * `MCPR_INVALID_PLAN` even if `resolve` then returns `MCPR_CB_OK`.
 *
 * \param plan The plan builder of the `resolve` callback.
 * \param uri The target's URI.
 * \param representation The representation label; empty means
 *   `"default"`.
 * \param authorization_json Private JSON handed to policy and body-read
 *   callbacks, never to the client; length 0 = none. At most 64 KiB, held
 *   to the rules definitions are held to (nesting at most 127 deep, no
 *   object repeating a key at any depth, no lone surrogate escape, no
 *   number out of range such as `1e999`).
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_PLAN` for a refused target;
 *   `MCPR_INVALID_ARGUMENT` for a NULL `plan` or a bad string.
 * \pre `plan` is NULL or the plan builder the library passed to a `resolve`
 *   callback that has not returned yet; the strings follow the `mcpr_str`
 *   rules; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe: any thread may call the plan setters, also
 *   concurrently, while the callback runs (items added concurrently keep no
 *   particular order).
 *
 * \ingroup callbacks
 */
mcpr_status mcpr_plan_set_requested(mcpr_plan_builder *plan, mcpr_str uri, mcpr_str representation, mcpr_str authorization_json, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Appends an item target to the plan (copied), in read order. Item URIs must
 * be unique (even across representations); a URI equal to the requested
 * target's must carry the same representation (checked when `resolve`
 * returns). Refusals as for `mcpr_plan_set_requested`.
 *
 * \param plan The plan builder of the `resolve` callback.
 * \param uri The target's URI.
 * \param representation The representation label; empty means
 *   `"default"`.
 * \param authorization_json Private JSON handed to policy and body-read
 *   callbacks, never to the client; length 0 = none. At most 64 KiB, held
 *   to the rules definitions are held to (nesting at most 127 deep, no
 *   object repeating a key at any depth, no lone surrogate escape, no
 *   number out of range such as `1e999`).
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_PLAN` for a refused target;
 *   `MCPR_INVALID_ARGUMENT` for a NULL `plan` or a bad string.
 * \pre `plan` is NULL or the plan builder the library passed to a `resolve`
 *   callback that has not returned yet; the strings follow the `mcpr_str`
 *   rules; `err` is NULL or points at writable storage for one
 *   `mcpr_error *`.
 * \note Thread-safe: any thread may call the plan setters, also
 *   concurrently, while the callback runs (items added concurrently keep no
 *   particular order).
 *
 * \ingroup callbacks
 */
mcpr_status mcpr_plan_add_item(mcpr_plan_builder *plan, mcpr_str uri, mcpr_str representation, mcpr_str authorization_json, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * A ready-made `resolve` callback (an `mcpr_resolve_fn`): plans the matched
 * URI (representation `"default"`, no authorization JSON) as both the
 * requested target and the single item.
 *
 * \param user_data Ignored (may be NULL).
 * \param call Ignored.
 * \param match The match view of the `resolve` callback.
 * \param plan The plan builder of the `resolve` callback.
 * \return `MCPR_CB_OK`; `MCPR_CB_FAILED` when `match` or `plan` is NULL or
 *   the URI is refused.
 * \pre `match` and `plan` are NULL or the views the library passed to a
 *   `resolve` callback that has not returned yet.
 * \note Thread-safe: may be called concurrently, like any `resolve`.
 *
 * \ingroup callbacks
 */
mcpr_cb_result mcpr_resolve_single(void *MCPR_NULLABLE user_data, const mcpr_call *call, const mcpr_match *match, mcpr_plan_builder *plan);

/**
 * Sets a text body (copied). Exactly one body per payload: a second body
 * setter is refused. A refused setter makes the item an `invalid_content`
 * issue even if the callback then returns `MCPR_CB_OK`.
 *
 * \param payload The payload builder of the body `read` callback.
 * \param mime_type An RFC 9110 media type.
 * \param text The text: valid UTF-8, may be empty.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for a bad media type, invalid
 *   UTF-8 or a second body; `MCPR_INVALID_ARGUMENT` for a NULL `payload` or a
 *   `(NULL, n > 0)` string.
 * \pre `mime_type` and `text` follow the `mcpr_str` rules.
 * \pre `payload` is NULL or the payload builder the library passed to a body
 *   `read` callback that has not returned yet; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe: any thread may call the payload setters, also
 *   concurrently, while the callback runs.
 *
 * \ingroup callbacks
 */
mcpr_status mcpr_payload_set_text(mcpr_payload_builder *payload, mcpr_str mime_type, mcpr_str text, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Sets a binary body (the bytes are copied; may be empty; sent base64). Same
 * rules as `mcpr_payload_set_text`.
 *
 * \param payload The payload builder of the body `read` callback.
 * \param mime_type An RFC 9110 media type.
 * \param data The bytes; may be NULL when `data_len` is 0.
 * \param data_len The number of bytes at `data`.
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for a bad media type or a second
 *   body; `MCPR_INVALID_ARGUMENT` for a NULL `payload`, a `(NULL, n > 0)`
 *   string or NULL `data` with a non-zero `data_len`.
 * \pre `mime_type` follows the `mcpr_str` rules; `data` is NULL (with
 *   `data_len` 0) or points at `data_len` readable bytes.
 * \pre `payload` is NULL or the payload builder the library passed to a body
 *   `read` callback that has not returned yet; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe: any thread may call the payload setters, also
 *   concurrently, while the callback runs.
 *
 * \ingroup callbacks
 */
mcpr_status mcpr_payload_set_blob(mcpr_payload_builder *payload, mcpr_str mime_type, const uint8_t *MCPR_NULLABLE data, size_t data_len, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Sets a text body without copying it: the library checks the text (UTF-8)
 * when it is set and escapes it straight from `text` into the result JSON,
 * so a text body costs no copy and no allocation of its own.
 *
 * Ownership: the bytes stay the host's. The library calls
 * `release(release_data)` exactly once, on any thread, whatever this
 * function returns: when the read has written its result or no longer
 * needs the payload (before `mcpr_read` returns, except for a body read
 * abandoned on an executor: then once its late payload is discarded), or,
 * when the setter is refused, before it returns. Until then the bytes must
 * stay valid and unchanged. With a NULL `release` the bytes must outlive
 * every read of the registry (static storage, or a buffer the host frees
 * only after the registry's last reference is gone). Otherwise the same
 * rules as `mcpr_payload_set_text`.
 *
 * \param payload The payload builder of the body `read` callback.
 * \param mime_type An RFC 9110 media type (copied).
 * \param text The text: valid UTF-8, may be empty; lent, not copied.
 * \param release Called once with `release_data` when the library no
 *   longer reads `text`; may be NULL for text that outlives every read
 *   (static storage). It must not call the library with this payload
 *   builder.
 * \param release_data Passed to `release` (may be NULL).
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for a bad media type, invalid
 *   UTF-8 or a second body; `MCPR_INVALID_ARGUMENT` for a NULL `payload` or
 *   a `(NULL, n > 0)` string. `release` runs in every case.
 * \pre `mime_type` follows the `mcpr_str` rules; `text` follows them and
 *   its bytes stay valid and unchanged until `release` runs (or, with a
 *   NULL `release`, for longer than any read of the registry); `release` is
 *   NULL or safe to call once with `release_data` from any thread.
 * \pre `payload` is NULL or the payload builder the library passed to a body
 *   `read` callback that has not returned yet; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe: any thread may call the payload setters, also
 *   concurrently, while the callback runs.
 *
 * \ingroup callbacks
 */
mcpr_status mcpr_payload_set_text_borrowed(mcpr_payload_builder *payload, mcpr_str mime_type, mcpr_str text, mcpr_release_fn MCPR_NULLABLE release, void *MCPR_NULLABLE release_data, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Sets a binary body without copying it (may be empty; sent base64): the
 * library encodes the bytes at `data` straight into the result JSON, so a
 * large blob costs no second copy of its bytes.
 *
 * The library calls `release(release_data)` exactly once, on any thread,
 * whatever this function returns: when the read has written its result or
 * no longer needs the payload (before `mcpr_read` returns, except for a body
 * read abandoned on an executor: then once its late payload is discarded),
 * or, when the setter is refused, before it returns. Otherwise the same
 * rules as `mcpr_payload_set_blob`.
 *
 * \param payload The payload builder of the body `read` callback.
 * \param mime_type An RFC 9110 media type.
 * \param data The bytes; may be NULL when `data_len` is 0.
 * \param data_len The number of bytes at `data`.
 * \param release Called once with `release_data` when the library no
 *   longer reads `data`; may be NULL for bytes that outlive every read
 *   (static storage). It must not call the library with this payload
 *   builder.
 * \param release_data Passed to `release` (may be NULL).
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for a bad media type or a second
 *   body; `MCPR_INVALID_ARGUMENT` for a NULL `payload`, a `(NULL, n > 0)`
 *   string or NULL `data` with a non-zero `data_len`. `release` runs in
 *   every case.
 * \pre `mime_type` follows the `mcpr_str` rules; `data` is NULL (with
 *   `data_len` 0) or points at `data_len` readable bytes that stay valid and
 *   unchanged until `release` runs; `release` is NULL or safe to call once
 *   with `release_data` from any thread.
 * \pre `payload` is NULL or the payload builder the library passed to a body
 *   `read` callback that has not returned yet; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe: any thread may call the payload setters, also
 *   concurrently, while the callback runs.
 *
 * \ingroup callbacks
 */
mcpr_status mcpr_payload_set_blob_borrowed(mcpr_payload_builder *payload, mcpr_str mime_type, const uint8_t *MCPR_NULLABLE data, size_t data_len, mcpr_release_fn MCPR_NULLABLE release, void *MCPR_NULLABLE release_data, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Sets the item's `_meta` (copied; a later call replaces it). A refused setter
 * makes the item an `invalid_content` issue even if the callback then returns
 * `MCPR_CB_OK`.
 *
 * \param payload The payload builder of the body `read` callback.
 * \param meta_json A JSON object of at most 64 KiB that does not use the
 *   reserved key `go.phpboyscout.uk/mcp.resourceRead` at any depth, held to
 *   the rules definitions are held to (nesting at most 127 deep, no object
 *   repeating a key at any depth, no lone surrogate escape, no number out of
 *   range such as `1e999`).
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_CONTENT` for JSON breaking those rules;
 *   `MCPR_INVALID_ARGUMENT` for a NULL `payload` or a `(NULL, n > 0)` string.
 * \pre `meta_json` follows the `mcpr_str` rules.
 * \pre `payload` is NULL or the payload builder the library passed to a body
 *   `read` callback that has not returned yet; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe: any thread may call the payload setters, also
 *   concurrently, while the callback runs.
 *
 * \ingroup callbacks
 */
mcpr_status mcpr_payload_set_meta(mcpr_payload_builder *payload, mcpr_str meta_json, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Declares this item's cache hints (copied; a later call replaces them). They
 * can only lower what its binding declared: the item's TTL is the smaller of
 * the two, and it is caller-independent only when both say so; a bundle's TTL
 * is the smallest of its items'. A refused setter makes the item an
 * `invalid_content` issue even if the callback then returns `MCPR_CB_OK`.
 *
 * \param payload The payload builder of the body `read` callback.
 * \param hints The hints (`struct_size` set, see `mcpr_cache_hints`).
 * \param err Receives an error object on failure (caller owns it; free with
 *   `mcpr_error_free`); may be NULL.
 * \return `MCPR_OK`; `MCPR_INVALID_ARGUMENT` for a NULL `payload` or `hints`,
 *   or hints with a bad `struct_size` or set fields beyond it that this
 *   library does not know; `MCPR_INVALID_CONTENT` for a TTL above
 *   `MCPR_MAX_TTL_MS`.
 * \pre `hints` is NULL or points at hints of `struct_size` readable bytes.
 * \pre `payload` is NULL or the payload builder the library passed to a body
 *   `read` callback that has not returned yet; `err` is NULL or points at
 *   writable storage for one `mcpr_error *`.
 * \note Thread-safe: any thread may call the payload setters, also
 *   concurrently, while the callback runs.
 *
 * \ingroup callbacks
 */
mcpr_status mcpr_payload_set_cache_hints(mcpr_payload_builder *payload, const mcpr_cache_hints *hints, mcpr_error *MCPR_NULLABLE *MCPR_NULLABLE err);

/**
 * Fills an observer table with the defaults: `user_data` and every
 * callback NULL, no flags, and `struct_size` set to
 * `sizeof(mcpr_observer_callbacks)`, as `MCPR_OBSERVER_CALLBACKS_INIT`
 * does.
 *
 * \param callbacks The table to fill, or NULL (then nothing happens).
 * \pre `callbacks` is NULL or points at a writable
 *   `mcpr_observer_callbacks`.
 * \note Thread-safe: touches only `*callbacks`.
 *
 * \ingroup callbacks
 */
void mcpr_observer_callbacks_init(mcpr_observer_callbacks *MCPR_NULLABLE callbacks);

/**
 * Writes the keyed hash of the URI the event is about (the registry's
 * event hash: HMAC-SHA256 under its event key, first 16 bytes), also when
 * `uri` is empty because the URI may not be named; never for anything
 * hidden.
 *
 * \param event The event.
 * \param out Receives `MCPR_EVENT_HASH_BYTES` (16) bytes when this returns
 *   true.
 * \return Whether the event is about a URI it may hash (false for a NULL
 *   `event` or `out`, a listing's call event, and hidden decisions).
 * \pre `event` is NULL or the event lent to an `on_event` callback that
 *   has not returned; `out` is NULL or points at 16 writable bytes.
 * \note Thread-safe, during the callback.
 *
 * \ingroup callbacks
 */
bool mcpr_event_uri_hash(const mcpr_event *event, uint8_t *out);

/**
 * Writes the keyed hash of a listing's scope key (never the key itself).
 *
 * \param event The event.
 * \param out Receives `MCPR_EVENT_HASH_BYTES` (16) bytes when this returns
 *   true.
 * \return Whether the event is a listing's call event with a scope key.
 * \pre `event` is NULL or the event lent to an `on_event` callback that
 *   has not returned; `out` is NULL or points at 16 writable bytes.
 * \note Thread-safe, during the callback.
 *
 * \ingroup callbacks
 */
bool mcpr_event_scope_key_hash(const mcpr_event *event, uint8_t *out);

/**
 * The private cause of the event: a failed call's cause, or an item
 * decision's (host text and identifiers: for the host's own logs only).
 *
 * \param event The event.
 * \return The cause, UTF-8, valid until the callback returns; empty when
 *   there is none or `event` is NULL.
 * \pre `event` is NULL or the event lent to an `on_event` callback that
 *   has not returned.
 * \note Thread-safe, during the callback.
 *
 * \ingroup callbacks
 */
mcpr_str mcpr_event_private_cause(const mcpr_event *event);

/**
 * The event as one line of JSON (no newline): the public members, and the
 * private ones under `"private"` when `with_private` is true
 * (docs/BEHAVIOUR.md §19 lists them).
 *
 * \param event The event.
 * \param with_private Whether to include the private members.
 * \return The JSON, valid until the callback returns; empty for a private
 *   decision event without `with_private` (it has no public form) and for
 *   a NULL `event`.
 * \pre `event` is NULL or the event lent to an `on_event` callback that
 *   has not returned.
 * \note Thread-safe, during the callback.
 *
 * \ingroup callbacks
 */
mcpr_str mcpr_event_json(const mcpr_event *event, bool with_private);

/**
 * The definition's description object as compact JSON (the MCP `Resource`
 * or `ResourceTemplate`).
 *
 * \param definition The definition view, or NULL.
 * \return The JSON, borrowed from `definition` (valid until the callback
 *   returns); empty when `definition` is NULL.
 * \pre `definition` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
mcpr_str mcpr_definition_json(const mcpr_definition *MCPR_NULLABLE definition);

/**
 * The definition's `uri` or `uriTemplate`, exactly as registered.
 *
 * \param definition The definition view, or NULL.
 * \return The URI or template, borrowed from `definition` (valid until the
 *   callback returns); empty when `definition` is NULL.
 * \pre `definition` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
mcpr_str mcpr_definition_uri(const mcpr_definition *MCPR_NULLABLE definition);

/**
 * The definition's `name`.
 *
 * \param definition The definition view, or NULL.
 * \return The name, borrowed from `definition` (valid until the callback
 *   returns); empty when `definition` is NULL.
 * \pre `definition` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
mcpr_str mcpr_definition_name(const mcpr_definition *MCPR_NULLABLE definition);

/**
 * Whether the definition is a template (`uriTemplate`) rather than an exact
 * URI.
 *
 * \param definition The definition view, or NULL.
 * \return True for a template; false for an exact URI and when `definition`
 *   is NULL.
 * \pre `definition` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
bool mcpr_definition_is_template(const mcpr_definition *MCPR_NULLABLE definition);

/**
 * The definition the requested URI matched.
 *
 * \param match The match view, or NULL.
 * \return The definition view, borrowed from `match` (valid until the
 *   callback returns); NULL when `match` is NULL.
 * \pre `match` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
const mcpr_definition *MCPR_NULLABLE mcpr_match_definition(const mcpr_match *MCPR_NULLABLE match);

/**
 * The requested URI, exactly as received.
 *
 * \param match The match view, or NULL.
 * \return The URI, borrowed from `match` (valid until the callback returns);
 *   empty when `match` is NULL.
 * \pre `match` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
mcpr_str mcpr_match_uri(const mcpr_match *MCPR_NULLABLE match);

/**
 * The number of template captures.
 *
 * \param match The match view, or NULL.
 * \return The count; 0 for an exact-URI match and when `match` is NULL.
 * \pre `match` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
size_t mcpr_match_capture_count(const mcpr_match *MCPR_NULLABLE match);

/**
 * The name of a template capture, in template order.
 *
 * \param match The match view, or NULL.
 * \param index The capture's position, from 0 to
 *   `mcpr_match_capture_count(match) - 1`.
 * \return The variable name, borrowed from `match` (valid until the callback
 *   returns); empty when `index` is out of range or `match` is NULL.
 * \pre `match` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
mcpr_str mcpr_match_capture_name(const mcpr_match *MCPR_NULLABLE match, size_t index);

/**
 * The decoded value of a template capture, percent-decoded exactly once. It
 * is valid UTF-8, never contains `/`, a backslash or NUL, and is never `.`
 * or `..`; it is not a filesystem path.
 *
 * \param match The match view, or NULL.
 * \param index The capture's position, from 0 to
 *   `mcpr_match_capture_count(match) - 1`.
 * \return The value, borrowed from `match` (valid until the callback
 *   returns); empty when `index` is out of range or `match` is NULL.
 * \pre `match` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
mcpr_str mcpr_match_capture_value(const mcpr_match *MCPR_NULLABLE match, size_t index);

/**
 * The target's URI.
 *
 * \param target The target view, or NULL.
 * \return The URI, borrowed from `target` (valid until the callback
 *   returns); empty when `target` is NULL.
 * \pre `target` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
mcpr_str mcpr_target_uri(const mcpr_target *MCPR_NULLABLE target);

/**
 * The target's representation label: never empty (`"default"` when the plan
 * gave none).
 *
 * \param target The target view, or NULL.
 * \return The label, borrowed from `target` (valid until the callback
 *   returns); empty only when `target` is NULL.
 * \pre `target` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
mcpr_str mcpr_target_representation(const mcpr_target *MCPR_NULLABLE target);

/**
 * The target's private authorization JSON, exactly as the plan gave it.
 * Never appears in any result.
 *
 * \param target The target view, or NULL.
 * \return The JSON, borrowed from `target` (valid until the callback
 *   returns); length 0 when there is none and when `target` is NULL.
 * \pre `target` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
mcpr_str mcpr_target_authorization(const mcpr_target *MCPR_NULLABLE target);

/**
 * The template's definition.
 *
 * \param request The request view of a `complete` callback, or NULL.
 * \return The definition view, borrowed from `request` (valid until the
 *   callback returns); NULL when `request` is NULL.
 * \pre `request` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
const mcpr_definition *MCPR_NULLABLE mcpr_completion_request_definition(const mcpr_completion_request *MCPR_NULLABLE request);

/**
 * The name of the variable being completed (always one of the template's
 * variables).
 *
 * \param request The request view of a `complete` callback, or NULL.
 * \return The name, borrowed from `request` (valid until the callback
 *   returns); empty when `request` is NULL.
 * \pre `request` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
mcpr_str mcpr_completion_request_argument(const mcpr_completion_request *MCPR_NULLABLE request);

/**
 * The partial value typed so far: client text (UTF-8, at most
 * `max_uri_bytes`, possibly empty) to match candidates against, never a
 * path.
 *
 * \param request The request view of a `complete` callback, or NULL.
 * \return The value, borrowed from `request` (valid until the callback
 *   returns); empty when `request` is NULL.
 * \pre `request` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
mcpr_str mcpr_completion_request_value(const mcpr_completion_request *MCPR_NULLABLE request);

/**
 * The number of other variables already chosen: only variables of this
 * template other than the argument, with non-empty values that are valid
 * captures, in template order.
 *
 * \param request The request view of a `complete` callback, or NULL.
 * \return The count; 0 when `request` is NULL.
 * \pre `request` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
size_t mcpr_completion_request_context_count(const mcpr_completion_request *MCPR_NULLABLE request);

/**
 * The name of a chosen variable.
 *
 * \param request The request view of a `complete` callback, or NULL.
 * \param index The entry's position, from 0 to
 *   `mcpr_completion_request_context_count(request) - 1`.
 * \return The name, borrowed from `request` (valid until the callback
 *   returns); empty when `index` is out of range or `request` is NULL.
 * \pre `request` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
mcpr_str mcpr_completion_request_context_name(const mcpr_completion_request *MCPR_NULLABLE request, size_t index);

/**
 * The value of a chosen variable, exactly as the client sent it. It is
 * valid UTF-8, and neither it nor its percent-decoding contains `/`, a
 * backslash or NUL or equals `.` or `..`.
 *
 * \param request The request view of a `complete` callback, or NULL.
 * \param index The entry's position, from 0 to
 *   `mcpr_completion_request_context_count(request) - 1`.
 * \return The value, borrowed from `request` (valid until the callback
 *   returns); empty when `index` is out of range or `request` is NULL.
 * \pre `request` is NULL or a view the library passed to a callback (or got
 *   from it) that has not returned yet.
 * \note Thread-safe: any thread may call it, also concurrently, while the
 *   callback runs.
 *
 * \ingroup views
 */
mcpr_str mcpr_completion_request_context_value(const mcpr_completion_request *MCPR_NULLABLE request, size_t index);

/**
 * The status of an error object.
 *
 * \param error The error object, or NULL.
 * \return Its status; `MCPR_INVALID_ARGUMENT` when `error` is NULL.
 * \pre `error` is NULL or an error object from this library, not yet freed.
 * \note Thread-safe: an error object is immutable; any thread may read it,
 *   also concurrently.
 *
 * \ingroup errors
 */
mcpr_status mcpr_error_status(const mcpr_error *MCPR_NULLABLE error);

/**
 * The safe message: a fixed text that may be shown to an MCP client (for
 * configuration errors it names the offending limit, field or position).
 *
 * \param error The error object, or NULL.
 * \return The message, borrowed from `error` (valid until
 *   `mcpr_error_free(error)`); empty when `error` is NULL.
 * \pre `error` is NULL or an error object from this library, not yet freed.
 * \note Thread-safe (see `mcpr_error_status`).
 *
 * \ingroup errors
 */
mcpr_str mcpr_error_message(const mcpr_error *MCPR_NULLABLE error);

/**
 * The private cause, for the host's logs only: it may contain identifiers,
 * callback causes and internal detail; never send it to a client.
 *
 * \param error The error object, or NULL.
 * \return The cause, borrowed from `error` (valid until
 *   `mcpr_error_free(error)`); empty when there is none or `error` is NULL.
 * \pre `error` is NULL or an error object from this library, not yet freed.
 * \note Thread-safe (see `mcpr_error_status`).
 *
 * \ingroup errors
 */
mcpr_str mcpr_error_cause(const mcpr_error *MCPR_NULLABLE error);

/**
 * The JSON-RPC error code: the `code` of `mcpr_error_jsonrpc_json`.
 *
 * For errors of `mcpr_read`, `mcpr_list`, `mcpr_list_templates` and
 * `mcpr_complete` it follows the options' protocol revision
 * (`MCPR_UNAVAILABLE` is resource not found: `-32602` on 2026-07-28,
 * `-32002` before); otherwise `-32602` for `MCPR_INVALID_REQUEST` and
 * `MCPR_UNAVAILABLE`, `-32601` for `MCPR_METHOD_NOT_HANDLED`, `-32603` for
 * the rest.
 *
 * \param error The error object, or NULL.
 * \return The code; 0 when `error` is NULL.
 * \pre `error` is NULL or an error object from this library, not yet freed.
 * \note Thread-safe (see `mcpr_error_status`).
 *
 * \ingroup errors
 */
int32_t mcpr_error_jsonrpc_code(const mcpr_error *MCPR_NULLABLE error);

/**
 * The complete JSON-RPC `error` object (`{"code":…,"message":…}`, plus
 * `"data":{"uri":…}` for resource-not-found), ready to send as the `error`
 * member of the response.
 *
 * The error remembers the call that made it: errors of `mcpr_read`,
 * `mcpr_list`, `mcpr_list_templates` and `mcpr_complete` are shaped for the
 * protocol revision of their options, and not-found carries the URI the
 * call was asked for; every not-found cause (no registration, no template
 * match, discovery denied, requested target hidden or unavailable) gives
 * the same bytes. Other errors (builder, misuse) get a generic object for
 * the newest revision. Never contains the private cause, authorization data
 * or any URI other than the requested one.
 *
 * A request the client cancelled (`notifications/cancelled`) gets no
 * response at all in MCP: on `MCPR_CANCELED` after such a cancellation, send
 * nothing.
 *
 * \param error The error object, or NULL.
 * \return Compact JSON, borrowed from `error` (valid until
 *   `mcpr_error_free(error)`); empty when `error` is NULL.
 * \pre `error` is NULL or an error object from this library, not yet freed.
 * \note Thread-safe (see `mcpr_error_status`).
 *
 * \ingroup errors
 */
mcpr_str mcpr_error_jsonrpc_json(const mcpr_error *MCPR_NULLABLE error);

/**
 * The input requests an `MCPR_INPUT_REQUIRED` error carries: the
 * `InputRequests` object the read would have sent (docs/BEHAVIOUR.md
 * §18), for a host that asks the client its own way (on an older
 * protocol revision, server-initiated `elicitation/create` requests) and
 * then retries the read with the responses.
 *
 * \param error The error object, or NULL.
 * \return Compact JSON (`{"key":{"method":…,"params":…},…}`), borrowed from
 *   `error` (valid until `mcpr_error_free(error)`); empty for every other
 *   error and when `error` is NULL.
 * \pre `error` is NULL or an error object from this library, not yet freed.
 * \note Thread-safe (see `mcpr_error_status`).
 *
 * \ingroup errors
 */
mcpr_str mcpr_error_input_requests(const mcpr_error *MCPR_NULLABLE error);

/**
 * Frees an error object.
 *
 * \param error The error object to free, or NULL (then nothing happens).
 * \pre `error` is NULL or an error object from this library, freed only
 *   once; no thread uses it (or a string borrowed from it) afterwards.
 * \post Every `mcpr_str` borrowed from `error` is invalid.
 * \note Any thread may free it, once no other thread uses it.
 *
 * \ingroup errors
 */
void mcpr_error_free(mcpr_error *MCPR_NULLABLE error);

/**
 * The name of a status, for logs: its enumerator's name (`"MCPR_OK"`,
 * `"MCPR_INVALID_REQUEST"`, ..., `"MCPR_INPUT_REQUIRED"`).
 *
 * \param status An `mcpr_status` value, as the enumeration's own unsigned
 *   32-bit integer (a plain integer, so that any value, even one this
 *   version does not define, is defined behaviour; Swift passes
 *   `status.rawValue`).
 * \return A static NUL-terminated string, never NULL and never to be freed;
 *   `"MCPR_UNKNOWN_STATUS"` for a value above `MCPR_STATUS_MAX` (a negative
 *   `int` converts to one).
 * \note Thread-safe: any thread.
 *
 * \ingroup errors
 */
const char *mcpr_status_name(uint32_t status);

/**
 * The library's version (the crate version, `"MAJOR.MINOR.PATCH"`), for
 * comparing the library a program runs with against the header it was
 * compiled with (`MCPR_VERSION_MAJOR`, `MCPR_VERSION_MINOR`,
 * `MCPR_VERSION_PATCH`).
 *
 * \return A static NUL-terminated string, never NULL and never to be freed.
 * \note Thread-safe: any thread.
 *
 * \ingroup errors
 */
const char *mcpr_version(void);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#if defined(__clang__)
#pragma clang assume_nonnull end
#pragma clang diagnostic pop
#endif

#endif  /* MCP_RESOURCES_H */
