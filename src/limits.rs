//! Configurable limits (`WithResourceLimits`) and the fixed bounds.
//!
//! [`ResourceLimits`] holds the host's overrides as signed integers exactly as
//! they arrive over the C ABI: `0` selects the default, a negative value is
//! an error, a positive value overrides. [`ResourceLimits::resolve`] checks
//! every rule and returns the effective [`Limits`]. Raising one limit never
//! raises another: every default is a constant.

use std::time::Duration;

use crate::error::Failure;
use crate::identity::WARNING_URI_BYTES;

/// Fixed bound on a definition's JSON text.
///
/// cbindgen:ignore
pub const MAX_DEFINITION_BYTES: usize = 64 * 1024;
/// Fixed bound on assembled `_meta` at each location.
///
/// cbindgen:ignore
pub const MAX_META_BYTES: usize = 64 * 1024;
/// Fixed bound on a target's private authorization JSON.
///
/// cbindgen:ignore
pub const MAX_AUTHORIZATION_BYTES: usize = 64 * 1024;
/// Fixed ceiling on a list cursor given as input.
///
/// cbindgen:ignore
pub const MAX_CURSOR_BYTES: usize = 4 * 1024;
/// Space reserved for final wire framing of a read result.
///
/// cbindgen:ignore
pub const WIRE_RESERVE_BYTES: u64 = 8 * 1024;
/// Configuration overhead reserved in aggregate response space.
///
/// cbindgen:ignore
pub const CONFIG_OVERHEAD_BYTES: u64 = 256;
/// Envelope space reserved in each list page.
///
/// cbindgen:ignore
pub const PAGE_ENVELOPE_BYTES: u64 = 256;
/// Longest URI a report may disclose.
///
/// cbindgen:ignore
pub const MAX_DISCLOSED_URI_BYTES: usize = 256;

/// One configurable limit. The discriminants equal the C ABI's `mcpr_limit`.
///
/// cbindgen:ignore
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Limit {
    /// Longest accepted identifier, in bytes.
    MaxUriBytes = 1,
    /// Most items in one plan (the requested target is not counted).
    MaxPlanTargets = 2,
    /// Most items admitted into one read result.
    MaxItems = 3,
    /// Largest payload of one item (text bytes or raw blob bytes).
    MaxItemBytes = 4,
    /// Aggregate payload bytes of one read.
    MaxPayloadBytes = 5,
    /// Aggregate encoded (JSON) bytes of one read result.
    MaxEncodedBytes = 6,
    /// Payload space reserved for the diagnostic warning text.
    ReportPayloadBytes = 7,
    /// Encoded space reserved for the warning item and the report.
    ReportEncodedBytes = 8,
    /// Most detailed issues in a report.
    MaxIssues = 9,
    /// Whole-read timeout, in milliseconds.
    ReadTimeoutMs = 10,
    /// Per-item timeout, in milliseconds.
    ItemTimeoutMs = 11,
    /// Page size when the caller asks for none.
    DefaultPageSize = 12,
    /// Largest page size a caller may ask for.
    MaxPageSize = 13,
    /// Encoded bytes of one list page.
    MaxPageBytes = 14,
}

/// cbindgen:ignore
impl Limit {
    /// Every limit, in C ABI order.
    pub const ALL: [Limit; 14] = [
        Limit::MaxUriBytes,
        Limit::MaxPlanTargets,
        Limit::MaxItems,
        Limit::MaxItemBytes,
        Limit::MaxPayloadBytes,
        Limit::MaxEncodedBytes,
        Limit::ReportPayloadBytes,
        Limit::ReportEncodedBytes,
        Limit::MaxIssues,
        Limit::ReadTimeoutMs,
        Limit::ItemTimeoutMs,
        Limit::DefaultPageSize,
        Limit::MaxPageSize,
        Limit::MaxPageBytes,
    ];

    /// The limit with this C ABI value.
    pub fn from_u32(v: u32) -> Option<Limit> {
        Limit::ALL.iter().copied().find(|l| *l as u32 == v)
    }

    /// The snake_case name used in error messages.
    pub fn name(self) -> &'static str {
        match self {
            Limit::MaxUriBytes => "max_uri_bytes",
            Limit::MaxPlanTargets => "max_plan_targets",
            Limit::MaxItems => "max_items",
            Limit::MaxItemBytes => "max_item_bytes",
            Limit::MaxPayloadBytes => "max_payload_bytes",
            Limit::MaxEncodedBytes => "max_encoded_bytes",
            Limit::ReportPayloadBytes => "report_payload_bytes",
            Limit::ReportEncodedBytes => "report_encoded_bytes",
            Limit::MaxIssues => "max_issues",
            Limit::ReadTimeoutMs => "read_timeout_ms",
            Limit::ItemTimeoutMs => "item_timeout_ms",
            Limit::DefaultPageSize => "default_page_size",
            Limit::MaxPageSize => "max_page_size",
            Limit::MaxPageBytes => "max_page_bytes",
        }
    }

    /// The default value.
    pub fn default_value(self) -> u64 {
        const MIB: u64 = 1024 * 1024;
        match self {
            Limit::MaxUriBytes => 2048,
            Limit::MaxPlanTargets => 1024,
            Limit::MaxItems => 64,
            Limit::MaxItemBytes => 8 * MIB,
            Limit::MaxPayloadBytes => 32 * MIB,
            Limit::MaxEncodedBytes => 48 * MIB,
            Limit::ReportPayloadBytes => 4 * 1024,
            Limit::ReportEncodedBytes => 16 * 1024,
            Limit::MaxIssues => 32,
            Limit::ReadTimeoutMs => 30_000,
            Limit::ItemTimeoutMs => 10_000,
            Limit::DefaultPageSize => 50,
            Limit::MaxPageSize => 500,
            Limit::MaxPageBytes => MIB,
        }
    }
}

/// The host's overrides: `0` = default, negative = error, positive = value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ResourceLimits {
    values: [i64; 14],
}

impl ResourceLimits {
    /// No overrides (every limit at its default).
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets one override (`0` = default). Negative values are accepted here
    /// and refused by [`resolve`](Self::resolve), which names the limit.
    pub fn set(&mut self, limit: Limit, value: i64) -> &mut Self {
        self.values[limit as usize - 1] = value;
        self
    }

    /// Builder-style [`set`](Self::set).
    pub fn with(mut self, limit: Limit, value: i64) -> Self {
        self.set(limit, value);
        self
    }

    /// The override recorded for `limit` (`0` = default).
    pub fn get(&self, limit: Limit) -> i64 {
        self.values[limit as usize - 1]
    }

    /// Checks every rule and returns the effective limits.
    pub fn resolve(&self) -> Result<Limits, Failure> {
        let mut v = [0u64; 14];
        for limit in Limit::ALL {
            let raw = self.get(limit);
            if raw < 0 {
                return Err(Failure::config(format!(
                    "limit {} must not be negative (0 selects the default)",
                    limit.name()
                )));
            }
            v[limit as usize - 1] = if raw == 0 {
                limit.default_value()
            } else {
                raw as u64
            };
        }
        let l = Limits {
            max_uri_bytes: v[0] as usize,
            max_plan_targets: v[1] as usize,
            max_items: v[2] as usize,
            max_item_bytes: v[3],
            max_payload_bytes: v[4],
            max_encoded_bytes: v[5],
            report_payload_bytes: v[6],
            report_encoded_bytes: v[7],
            max_issues: v[8] as usize,
            read_timeout: Duration::from_millis(v[9]),
            item_timeout: Duration::from_millis(v[10]),
            default_page_size: v[11] as usize,
            max_page_size: v[12] as usize,
            max_page_bytes: v[13],
        };
        l.check()?;
        Ok(l)
    }
}

/// The effective limits of a registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest accepted identifier, in bytes (>= 51).
    pub max_uri_bytes: usize,
    /// Most items in one plan.
    pub max_plan_targets: usize,
    /// Most items admitted into one read result.
    pub max_items: usize,
    /// Largest payload of one item.
    pub max_item_bytes: u64,
    /// Aggregate payload bytes of one read.
    pub max_payload_bytes: u64,
    /// Aggregate encoded bytes of one read result.
    pub max_encoded_bytes: u64,
    /// Payload space reserved for the warning text.
    pub report_payload_bytes: u64,
    /// Encoded space reserved for the warning item and the report.
    pub report_encoded_bytes: u64,
    /// Most detailed issues in a report.
    pub max_issues: usize,
    /// Whole-read timeout.
    pub read_timeout: Duration,
    /// Per-item timeout (capped by the read deadline at run time).
    pub item_timeout: Duration,
    /// Default page size.
    pub default_page_size: usize,
    /// Largest page size.
    pub max_page_size: usize,
    /// Encoded bytes of one list page.
    pub max_page_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        ResourceLimits::new()
            .resolve()
            .expect("the default limits satisfy every rule")
    }
}

impl Limits {
    fn check(&self) -> Result<(), Failure> {
        fn rule(ok: bool, msg: &'static str) -> Result<(), Failure> {
            if ok {
                Ok(())
            } else {
                Err(Failure::config(msg))
            }
        }
        rule(
            self.max_uri_bytes >= WARNING_URI_BYTES,
            "limit max_uri_bytes must be at least 51 (the generated warning identity)",
        )?;
        rule(
            self.report_payload_bytes >= 256,
            "limit report_payload_bytes must be at least 256",
        )?;
        rule(
            self.report_encoded_bytes >= 1024,
            "limit report_encoded_bytes must be at least 1024",
        )?;
        rule(
            self.max_payload_bytes > self.report_payload_bytes,
            "limit max_payload_bytes must exceed report_payload_bytes",
        )?;
        rule(
            self.max_encoded_bytes
                > self.report_encoded_bytes + WIRE_RESERVE_BYTES + CONFIG_OVERHEAD_BYTES,
            "limit max_encoded_bytes must exceed report_encoded_bytes + 8192 (wire reserve) + 256 (configuration overhead)",
        )?;
        rule(
            self.default_page_size <= self.max_page_size,
            "limit default_page_size must not exceed max_page_size",
        )?;
        rule(
            self.max_page_bytes > PAGE_ENVELOPE_BYTES,
            "limit max_page_bytes must exceed the 256-byte page envelope",
        )?;
        Ok(())
    }

    /// Payload budget available to application items at the start of admission.
    pub fn admission_payload_budget(&self) -> u64 {
        self.max_payload_bytes - self.report_payload_bytes
    }

    /// Encoded budget available to application items at the start of admission.
    pub fn admission_encoded_budget(&self) -> u64 {
        self.max_encoded_bytes
            - self.report_encoded_bytes
            - WIRE_RESERVE_BYTES
            - CONFIG_OVERHEAD_BYTES
    }

    /// These limits with the three aggregate budgets of one read lowered to
    /// what is left of a larger result (an embedding's share, see
    /// `crate::tools`): at most `payload` payload bytes, `encoded` bytes of
    /// result and `items` items. `None` when what is left cannot hold a
    /// read under the rules between limits (the report's reserves, the wire
    /// reserve, one item). Never raises a limit.
    pub(crate) fn within(&self, payload: u64, encoded: u64, items: usize) -> Option<Limits> {
        let lowered = Limits {
            max_payload_bytes: self.max_payload_bytes.min(payload),
            max_encoded_bytes: self.max_encoded_bytes.min(encoded),
            max_items: self.max_items.min(items),
            ..*self
        };
        (lowered.max_items >= 1 && lowered.check().is_ok()).then_some(lowered)
    }
}
