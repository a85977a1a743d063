//! The limit identifiers of `mcpr_builder_set_limit` (`mcpr_limit`,
//! `MCPR_LIMIT_*`).
//!
//! Ground floor of the C layer: it uses nothing of `ffi`.

/// A configurable limit (one per row of docs/BEHAVIOUR.md §7; timeouts in
/// milliseconds). A plain integer so that an unknown value is reported as
/// `MCPR_INVALID_ARGUMENT` rather than being undefined behaviour.
///
/// \ingroup builder
pub type mcpr_limit = u32;

// The `u32` suffixes make cbindgen write `0u`, `1u`, ...: unsigned int, the
// type of uint32_t (the typedef), so that C++ (`decltype`) and Swift see one
// type for the constants and the values they are compared with, not int
// (c-tests/header_cxx.cpp asserts it). A cast would carry the typedef's
// name but warns under -Wold-style-cast in C++.
/// Longest accepted identifier, in bytes (default 2048, at least 51).
///
/// \ingroup builder
pub const MCPR_LIMIT_MAX_URI_BYTES: mcpr_limit = 1u32;

/// Most items in one plan, the requested target not counted (default 1024).
///
/// \ingroup builder
pub const MCPR_LIMIT_MAX_PLAN_TARGETS: mcpr_limit = 2u32;

/// Most items admitted into one read result (default 64).
///
/// \ingroup builder
pub const MCPR_LIMIT_MAX_ITEMS: mcpr_limit = 3u32;

/// Largest payload of one item: text bytes or raw blob bytes (default 8 MiB).
///
/// \ingroup builder
pub const MCPR_LIMIT_MAX_ITEM_BYTES: mcpr_limit = 4u32;

/// Aggregate payload bytes of one read (default 32 MiB).
///
/// \ingroup builder
pub const MCPR_LIMIT_MAX_PAYLOAD_BYTES: mcpr_limit = 5u32;

/// Aggregate encoded bytes of one read result (default 48 MiB).
///
/// \ingroup builder
pub const MCPR_LIMIT_MAX_ENCODED_BYTES: mcpr_limit = 6u32;

/// Payload space reserved for the warning text (default 4 KiB, at least 256).
///
/// \ingroup builder
pub const MCPR_LIMIT_REPORT_PAYLOAD_BYTES: mcpr_limit = 7u32;

/// Encoded space reserved for warning and report (default 16 KiB, at least 1 KiB).
///
/// \ingroup builder
pub const MCPR_LIMIT_REPORT_ENCODED_BYTES: mcpr_limit = 8u32;

/// Most detailed issues in a report (default 32).
///
/// \ingroup builder
pub const MCPR_LIMIT_MAX_ISSUES: mcpr_limit = 9u32;

/// Whole-read timeout in milliseconds (default 30000).
///
/// \ingroup builder
pub const MCPR_LIMIT_READ_TIMEOUT_MS: mcpr_limit = 10u32;

/// Per-item timeout in milliseconds (default 10000).
///
/// \ingroup builder
pub const MCPR_LIMIT_ITEM_TIMEOUT_MS: mcpr_limit = 11u32;

/// Page size when the caller asks for none (default 50).
///
/// \ingroup builder
pub const MCPR_LIMIT_DEFAULT_PAGE_SIZE: mcpr_limit = 12u32;

/// Largest page size a caller may ask for (default 500).
///
/// \ingroup builder
pub const MCPR_LIMIT_MAX_PAGE_SIZE: mcpr_limit = 13u32;

/// Encoded bytes of one list page (default 1 MiB).
///
/// \ingroup builder
pub const MCPR_LIMIT_MAX_PAGE_BYTES: mcpr_limit = 14u32;
