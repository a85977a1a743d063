// The header compiles on its own as C++11 (extern "C" via cpp_compat), with
// -pedantic -Wall -Wextra -Werror and a few stricter warnings
// (-Wold-style-cast among them, so no constant may expand to a C cast).
#include "mcp_resources.h"

#include <cstddef>
#include <type_traits>

// Every constant family has the type of the typedef it is used with, so that
// C++ (and Swift, which imports them the same way) compares them with the
// values the API hands out without conversions or sign warnings.
#define MCPR_SAME_TYPE(expr, expected) \
    static_assert(std::is_same<decltype(expr), expected>::value, #expr " is not " #expected)

MCPR_SAME_TYPE(MCPR_CB_OK, mcpr_cb_result);
MCPR_SAME_TYPE(MCPR_CB_UNAVAILABLE, mcpr_cb_result);
MCPR_SAME_TYPE(MCPR_CB_FAILED, mcpr_cb_result);
MCPR_SAME_TYPE(MCPR_CB_INVALID_CONTENT, mcpr_cb_result);

MCPR_SAME_TYPE(MCPR_OK, mcpr_status);
MCPR_SAME_TYPE(MCPR_INVALID_REQUEST, mcpr_status);
MCPR_SAME_TYPE(MCPR_UNAVAILABLE, mcpr_status);
MCPR_SAME_TYPE(MCPR_INVALID_PLAN, mcpr_status);
MCPR_SAME_TYPE(MCPR_POLICY, mcpr_status);
MCPR_SAME_TYPE(MCPR_READ_FAILED, mcpr_status);
MCPR_SAME_TYPE(MCPR_TIMEOUT, mcpr_status);
MCPR_SAME_TYPE(MCPR_INVALID_CONTENT, mcpr_status);
MCPR_SAME_TYPE(MCPR_BUDGET_EXCEEDED, mcpr_status);
MCPR_SAME_TYPE(MCPR_CANCELED, mcpr_status);
MCPR_SAME_TYPE(MCPR_DEADLINE_EXCEEDED, mcpr_status);
MCPR_SAME_TYPE(MCPR_SIZE, mcpr_status);
MCPR_SAME_TYPE(MCPR_INVALID_CONFIGURATION, mcpr_status);
MCPR_SAME_TYPE(MCPR_INVALID_ARGUMENT, mcpr_status);
MCPR_SAME_TYPE(MCPR_INTERNAL, mcpr_status);
MCPR_SAME_TYPE(MCPR_METHOD_NOT_HANDLED, mcpr_status);

MCPR_SAME_TYPE(MCPR_LIMIT_MAX_URI_BYTES, mcpr_limit);
MCPR_SAME_TYPE(MCPR_LIMIT_MAX_PLAN_TARGETS, mcpr_limit);
MCPR_SAME_TYPE(MCPR_LIMIT_MAX_ITEMS, mcpr_limit);
MCPR_SAME_TYPE(MCPR_LIMIT_MAX_ITEM_BYTES, mcpr_limit);
MCPR_SAME_TYPE(MCPR_LIMIT_MAX_PAYLOAD_BYTES, mcpr_limit);
MCPR_SAME_TYPE(MCPR_LIMIT_MAX_ENCODED_BYTES, mcpr_limit);
MCPR_SAME_TYPE(MCPR_LIMIT_REPORT_PAYLOAD_BYTES, mcpr_limit);
MCPR_SAME_TYPE(MCPR_LIMIT_REPORT_ENCODED_BYTES, mcpr_limit);
MCPR_SAME_TYPE(MCPR_LIMIT_MAX_ISSUES, mcpr_limit);
MCPR_SAME_TYPE(MCPR_LIMIT_READ_TIMEOUT_MS, mcpr_limit);
MCPR_SAME_TYPE(MCPR_LIMIT_ITEM_TIMEOUT_MS, mcpr_limit);
MCPR_SAME_TYPE(MCPR_LIMIT_DEFAULT_PAGE_SIZE, mcpr_limit);
MCPR_SAME_TYPE(MCPR_LIMIT_MAX_PAGE_SIZE, mcpr_limit);
MCPR_SAME_TYPE(MCPR_LIMIT_MAX_PAGE_BYTES, mcpr_limit);

MCPR_SAME_TYPE(MCPR_PHASE_UNKNOWN, mcpr_phase);
MCPR_SAME_TYPE(MCPR_PHASE_FIRST_CHECK, mcpr_phase);
MCPR_SAME_TYPE(MCPR_PHASE_RECHECK, mcpr_phase);
MCPR_SAME_TYPE(MCPR_PHASE_RESOLVE, mcpr_phase);
MCPR_SAME_TYPE(MCPR_PHASE_BODY_READ, mcpr_phase);
MCPR_SAME_TYPE(MCPR_PHASE_LISTING, mcpr_phase);
MCPR_SAME_TYPE(MCPR_PHASE_COMPLETION, mcpr_phase);

// The callback tables' members have the named callback types, and the
// ready-made resolver is one.
MCPR_SAME_TYPE(mcpr_binding_callbacks::resolve, mcpr_resolve_fn);
MCPR_SAME_TYPE(mcpr_binding_callbacks::read, mcpr_body_read_fn);
MCPR_SAME_TYPE(mcpr_binding_callbacks::release, mcpr_release_fn);
MCPR_SAME_TYPE(mcpr_binding_callbacks::complete, mcpr_complete_fn);
MCPR_SAME_TYPE(mcpr_binding_callbacks::size_hint, mcpr_size_hint_fn);
MCPR_SAME_TYPE(mcpr_policy_callbacks::discover, mcpr_discover_fn);
MCPR_SAME_TYPE(mcpr_policy_callbacks::visibility, mcpr_visibility_fn);
MCPR_SAME_TYPE(mcpr_policy_callbacks::read, mcpr_policy_read_fn);
MCPR_SAME_TYPE(mcpr_policy_callbacks::release, mcpr_release_fn);
MCPR_SAME_TYPE(&mcpr_resolve_single, mcpr_resolve_fn);

// The structs that grow start with a size_t struct_size.
MCPR_SAME_TYPE(mcpr_read_options::struct_size, size_t);
MCPR_SAME_TYPE(mcpr_list_options::struct_size, size_t);
MCPR_SAME_TYPE(mcpr_request_options::struct_size, size_t);
MCPR_SAME_TYPE(mcpr_executor_options::struct_size, size_t);
MCPR_SAME_TYPE(mcpr_binding_callbacks::struct_size, size_t);
MCPR_SAME_TYPE(mcpr_policy_callbacks::struct_size, size_t);
static_assert(offsetof(mcpr_read_options, struct_size) == 0, "struct_size first");
static_assert(offsetof(mcpr_list_options, struct_size) == 0, "struct_size first");
static_assert(offsetof(mcpr_request_options, struct_size) == 0, "struct_size first");
static_assert(offsetof(mcpr_executor_options, struct_size) == 0, "struct_size first");
static_assert(offsetof(mcpr_binding_callbacks, struct_size) == 0, "struct_size first");
static_assert(offsetof(mcpr_policy_callbacks, struct_size) == 0, "struct_size first");

int mcpr_header_check_cxx();
int mcpr_header_check_cxx() {
    // Used as case labels of a switch on the typedef, without warnings.
    mcpr_cb_result r = MCPR_CB_OK;
    switch (r) {
    case MCPR_CB_OK:
        return static_cast<int>(MCPR_OK) + static_cast<int>(sizeof(mcpr_str));
    default:
        return 1;
    }
}
