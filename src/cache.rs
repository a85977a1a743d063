//! Cache hints (MCP 2026-07-28 `ttlMs` and `cacheScope`), derived from what
//! the host declared, never guessed.
//!
//! The host declares:
//! - per registry ([`RegistryCacheHints`]): a TTL (the default of every
//!   binding without its own hints, and the TTL of list pages) and whether
//!   the policy's decisions are the same for every caller;
//! - per binding ([`CacheHints`], `ResourceBinding::with_cache_hints`): a
//!   TTL and whether the content is the same for every caller;
//! - optionally per payload (`ResourcePayload::with_cache_hints`): the
//!   same, for one item; it can only lower what the binding declared.
//!
//! The library derives each result's hints ([`ResultCache`]):
//! - nothing declared: `ttlMs: 0`, `"private"`;
//! - `"public"` only when the policy AND the content were declared
//!   caller-independent, and nothing was filtered: a read in which any
//!   planned item was hidden, denied or failed is `"private"`;
//! - a partial bundle is `ttlMs: 0` (and `"private"`);
//! - a bundle's TTL is the smallest of its items' TTLs (each item's TTL is
//!   its binding's, lowered by its payload's when that declares one);
//! - every page of one pagination has the cacheScope of its first page
//!   (bound in the cursor, as MCP requires); a first page that found a
//!   hidden description is `"private"`. A `"public"` cursor presented to a
//!   registry that no longer declares its policy caller-independent gives
//!   `"private"`: never more than is declared now.
//!
//! The hints are computed for every revision ([`crate::ResourceBundle::cache`],
//! [`crate::Page::cache`]) and written into results only for revisions that
//! carry them (2026-07-28 on).

use crate::error::Failure;
use crate::jsonscan::decimal_len;

/// The largest TTL that can be declared: 2^53 - 1 milliseconds (the
/// largest integer every JSON client reads exactly).
///
/// cbindgen:ignore
pub const MAX_TTL_MS: u64 = (1 << 53) - 1;

/// What a host declares for a binding or a payload.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CacheHints {
    /// How long a result made of this content may be considered fresh, in
    /// milliseconds (at most [`MAX_TTL_MS`]).
    pub ttl_ms: u64,
    /// Whether the content is the same whoever asks.
    pub caller_independent: bool,
}

impl CacheHints {
    /// Declared hints (no check; [`validate`](Self::validate) checks).
    pub const fn new(ttl_ms: u64, caller_independent: bool) -> Self {
        CacheHints {
            ttl_ms,
            caller_independent,
        }
    }

    /// Refuses a TTL above [`MAX_TTL_MS`], with the reason (callers make it
    /// `invalid_configuration`, or `invalid_content` for payload hints).
    pub(crate) fn check_ttl(ttl_ms: u64) -> Result<(), &'static str> {
        if ttl_ms > MAX_TTL_MS {
            Err("cache TTL exceeds 2^53 - 1 milliseconds")
        } else {
            Ok(())
        }
    }

    /// Checks the declaration (TTL at most [`MAX_TTL_MS`]).
    pub fn validate(&self) -> Result<(), Failure> {
        Self::check_ttl(self.ttl_ms).map_err(Failure::config)
    }

    /// The combination of two declarations for one item: the smaller TTL,
    /// caller-independent only when both are.
    pub fn meet(self, other: CacheHints) -> CacheHints {
        CacheHints {
            ttl_ms: self.ttl_ms.min(other.ttl_ms),
            caller_independent: self.caller_independent && other.caller_independent,
        }
    }
}

/// What a host declares for a whole registry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct RegistryCacheHints {
    /// The TTL of list pages and of reads through bindings without their
    /// own hints, in milliseconds (at most [`MAX_TTL_MS`]).
    pub ttl_ms: u64,
    /// Whether the policy's decisions (discovery, visibility, read
    /// permission) are the same for every caller.
    pub policy_caller_independent: bool,
}

impl RegistryCacheHints {
    /// Declared registry hints.
    pub const fn new(ttl_ms: u64, policy_caller_independent: bool) -> Self {
        RegistryCacheHints {
            ttl_ms,
            policy_caller_independent,
        }
    }

    /// The hints of a binding that declared none: the registry TTL, content
    /// not declared caller-independent.
    pub fn binding_default(&self) -> CacheHints {
        CacheHints::new(self.ttl_ms, false)
    }
}

/// Who may cache a result.
///
/// cbindgen:ignore
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum CacheScope {
    /// Only within the same authorization context (the default).
    #[default]
    Private,
    /// Anyone, across authorization contexts.
    Public,
}

impl CacheScope {
    /// The wire value (`"private"` or `"public"`).
    pub fn as_str(self) -> &'static str {
        match self {
            CacheScope::Private => "private",
            CacheScope::Public => "public",
        }
    }
}

/// The cache hints of one result.
///
/// cbindgen:ignore
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ResultCache {
    /// `ttlMs`.
    pub ttl_ms: u64,
    /// `cacheScope`.
    pub scope: CacheScope,
}

/// The fixed parts of the 2026-07-28 result fields.
const FIELDS_FIXED: &str = r#","resultType":"complete","ttlMs":,"cacheScope":"""#;

/// The most bytes [`ResultCache::write_fields`] writes (a 16-digit TTL and
/// `"private"`).
pub const MAX_FIELDS_BYTES: usize = FIELDS_FIXED.len() + 16 + 7;

/// cbindgen:ignore
impl ResultCache {
    /// Nothing declared: `ttlMs: 0`, `"private"`.
    pub const UNDECLARED: ResultCache = ResultCache {
        ttl_ms: 0,
        scope: CacheScope::Private,
    };

    /// Bytes of [`write_fields`](Self::write_fields).
    pub fn fields_len(&self) -> usize {
        FIELDS_FIXED.len() + decimal_len(self.ttl_ms) + self.scope.as_str().len()
    }

    /// Appends `,"resultType":"complete","ttlMs":N,"cacheScope":"…"` (the
    /// members 2026-07-28 adds, written before a result's closing brace).
    pub fn write_fields(&self, out: &mut String) {
        out.push_str(",\"resultType\":\"complete\",\"ttlMs\":");
        push_decimal(out, self.ttl_ms);
        out.push_str(",\"cacheScope\":\"");
        out.push_str(self.scope.as_str());
        out.push('"');
    }

    /// The hints of a read result.
    ///
    /// `binding` is the selected binding's effective hints, `items` the
    /// effective hints of every admitted item, `filtered` whether any
    /// planned item was hidden or had an issue, `partial` whether the bundle
    /// is partial.
    pub(crate) fn for_read(
        registry: &RegistryCacheHints,
        binding: CacheHints,
        items: impl Iterator<Item = CacheHints>,
        filtered: bool,
        partial: bool,
    ) -> ResultCache {
        let all = items.fold(binding, CacheHints::meet);
        if partial {
            return ResultCache::UNDECLARED;
        }
        let public = registry.policy_caller_independent && all.caller_independent && !filtered;
        ResultCache {
            ttl_ms: all.ttl_ms,
            scope: if public {
                CacheScope::Public
            } else {
                CacheScope::Private
            },
        }
    }
}

fn push_decimal(out: &mut String, n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut n = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Digits are ASCII.
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or("0"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_length_is_exact_and_bounded() {
        for ttl in [0, 9, 10, 12345, MAX_TTL_MS] {
            for scope in [CacheScope::Private, CacheScope::Public] {
                let c = ResultCache { ttl_ms: ttl, scope };
                let mut out = String::new();
                c.write_fields(&mut out);
                assert_eq!(out.len(), c.fields_len());
                assert!(out.len() <= MAX_FIELDS_BYTES);
                let v: serde_json::Value =
                    serde_json::from_str(&format!("{{\"a\":1{out}}}")).unwrap();
                assert_eq!(v["resultType"], "complete");
                assert_eq!(v["ttlMs"], ttl);
                assert_eq!(v["cacheScope"], scope.as_str());
            }
        }
    }

    #[test]
    fn ttl_above_the_json_safe_integer_is_refused() {
        assert!(CacheHints::new(MAX_TTL_MS, true).validate().is_ok());
        assert!(CacheHints::new(MAX_TTL_MS + 1, true).validate().is_err());
    }

    #[test]
    fn public_needs_both_declarations_and_no_filtering() {
        let yes = RegistryCacheHints::new(5, true);
        let no = RegistryCacheHints::new(5, false);
        let b = CacheHints::new(100, true);
        let r = |reg: &RegistryCacheHints, b: CacheHints, filtered| {
            ResultCache::for_read(reg, b, std::iter::empty(), filtered, false)
        };
        assert_eq!(r(&yes, b, false).scope, CacheScope::Public);
        assert_eq!(r(&no, b, false).scope, CacheScope::Private);
        assert_eq!(
            r(&yes, CacheHints::new(100, false), false).scope,
            CacheScope::Private
        );
        assert_eq!(r(&yes, b, true).scope, CacheScope::Private);
        assert_eq!(r(&yes, b, true).ttl_ms, 100);
    }

    #[test]
    fn bundle_ttl_is_the_smallest_and_partial_is_zero_private() {
        let reg = RegistryCacheHints::new(0, true);
        let items = [CacheHints::new(50, true), CacheHints::new(7, true)];
        let c = ResultCache::for_read(
            &reg,
            CacheHints::new(100, true),
            items.into_iter(),
            false,
            false,
        );
        assert_eq!(
            c,
            ResultCache {
                ttl_ms: 7,
                scope: CacheScope::Public
            }
        );
        let c = ResultCache::for_read(
            &reg,
            CacheHints::new(100, true),
            items.into_iter(),
            true,
            true,
        );
        assert_eq!(c, ResultCache::UNDECLARED);
    }
}
