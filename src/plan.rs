//! Matches, targets, read plans and payloads: the values host callbacks
//! receive and construct. Every constructor validates and copies its input.
//! Payloads are `plan/payload.rs`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use crate::definition::ResourceDefinition;
use crate::error::{Failure, FailureKind};
use crate::identity::validate_uri_str;
use crate::jsonscan::{self, Refusal};
use crate::limits::MAX_AUTHORIZATION_BYTES;

/// Re-exported from [`crate::definition`], where definitions check it.
pub use crate::definition::RESERVED_META_KEY;

mod payload;
pub use payload::{
    is_media_type, parse_meta, uses_reserved_key, PayloadBody, ResourcePayload, SharedBytes,
    SharedText,
};

/// Representation label used when a target names none.
pub const DEFAULT_REPRESENTATION: &str = "default";

/// Longest representation label, in bytes.
///
/// cbindgen:ignore
pub const MAX_REPRESENTATION_BYTES: usize = 256;

/// The outcome of selection: which definition matched which URI, with the
/// decoded captures of a template in template order.
#[derive(Debug, Clone)]
pub struct ResourceMatch {
    definition: MatchedDefinition,
    /// Shared with the target [`ResourceTarget::of_match`] makes.
    uri: Arc<str>,
    captures: Vec<(String, String)>,
    /// Whether selection made it (its URI is then a valid identifier).
    selected: bool,
}

/// The matched definition: shared, or lent by the registry for one inline
/// read (which then touches no reference count that other threads' reads
/// of the same binding also write).
enum MatchedDefinition {
    Shared(Arc<ResourceDefinition>),
    /// A definition owned by an `Arc` that outlives this match: made only by
    /// [`ResourceMatch::lent`], whose caller guarantees it.
    Lent(std::ptr::NonNull<ResourceDefinition>),
}

// SAFETY: `Lent` is a shared reference to a `ResourceDefinition` (which is
// `Send + Sync`) kept alive by its `Arc` for the match's whole life (the
// `lent` contract); `Shared` is an `Arc` of it.
unsafe impl Send for MatchedDefinition {}
// SAFETY: as for `Send`: only shared access is ever given out.
unsafe impl Sync for MatchedDefinition {}

impl MatchedDefinition {
    fn get(&self) -> &ResourceDefinition {
        match self {
            MatchedDefinition::Shared(d) => d,
            // SAFETY: the `Arc` owning the definition outlives the match
            // (the `lent` contract), so the pointer is valid.
            MatchedDefinition::Lent(p) => unsafe { p.as_ref() },
        }
    }
}

impl Clone for MatchedDefinition {
    /// A clone is always shared: it may outlive the read that lent the
    /// original.
    fn clone(&self) -> Self {
        match self {
            MatchedDefinition::Shared(d) => MatchedDefinition::Shared(d.clone()),
            MatchedDefinition::Lent(p) => {
                let p = p.as_ptr().cast_const();
                // SAFETY: `p` came from `Arc::as_ptr` of an `Arc` that is
                // still alive (the `lent` contract): taking one more strong
                // reference and wrapping it in an `Arc` is sound.
                MatchedDefinition::Shared(unsafe {
                    Arc::increment_strong_count(p);
                    Arc::from_raw(p)
                })
            }
        }
    }
}

impl std::fmt::Debug for MatchedDefinition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

impl ResourceMatch {
    /// Builds a match (used by selection; public for tests and simulations).
    pub fn new(
        definition: Arc<ResourceDefinition>,
        uri: String,
        captures: Vec<(String, String)>,
    ) -> Self {
        ResourceMatch {
            definition: MatchedDefinition::Shared(definition),
            uri: Arc::from(uri),
            captures,
            selected: false,
        }
    }

    /// A selection's match (see [`ResourceMatch::selected`]) that borrows
    /// `definition` instead of sharing it.
    ///
    /// # Safety
    /// `definition` (the `Arc`, or another reference to its value) must
    /// stay alive as long as the match: the match must be dropped before
    /// the last `Arc` of the definition is. Clones of the match share the
    /// definition and carry no such condition.
    pub(crate) unsafe fn lent(
        definition: &Arc<ResourceDefinition>,
        uri: &str,
        captures: Vec<(String, String)>,
    ) -> Self {
        let p = std::ptr::NonNull::new(Arc::as_ptr(definition).cast_mut())
            .expect("an Arc points at its value");
        ResourceMatch {
            definition: MatchedDefinition::Lent(p),
            uri: Arc::from(uri),
            captures,
            selected: true,
        }
    }

    /// The match selection makes for `uri`, which it has validated.
    pub(crate) fn selected(
        definition: Arc<ResourceDefinition>,
        uri: &str,
        captures: Vec<(String, String)>,
    ) -> Self {
        ResourceMatch {
            definition: MatchedDefinition::Shared(definition),
            uri: Arc::from(uri),
            captures,
            selected: true,
        }
    }

    /// The matched definition.
    pub fn definition(&self) -> &ResourceDefinition {
        self.definition.get()
    }

    /// The matched definition, shared (a new reference).
    pub fn definition_arc(&self) -> Arc<ResourceDefinition> {
        match self.definition.clone() {
            MatchedDefinition::Shared(d) => d,
            MatchedDefinition::Lent(_) => unreachable!("clones are shared"),
        }
    }

    /// The requested URI, exactly as received.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// `(name, decoded value)` pairs in template order (empty for exact URIs).
    pub fn captures(&self) -> &[(String, String)] {
        &self.captures
    }

    /// The decoded value of the named capture.
    pub fn capture(&self, name: &str) -> Option<&str> {
        self.captures
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// An immutable identity the gateway hands to policy and storage: URI,
/// representation label and optional private authorization JSON.
///
/// The authorization JSON is private: it is passed to the host's callbacks
/// and never serialised into any result, report or error.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ResourceTarget {
    /// Shared: a plan's requested target is often also its item (a clone
    /// then copies no bytes).
    uri: Arc<str>,
    /// Borrowed when it is the default label (no allocation per read).
    representation: Cow<'static, str>,
    authorization: Option<String>,
}

impl std::fmt::Debug for ResourceTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceTarget")
            .field("uri", &self.uri)
            .field("representation", &self.representation)
            .field("has_authorization", &self.authorization.is_some())
            .finish()
    }
}

fn plan_error(message: &'static str) -> Failure {
    Failure::with_message(FailureKind::InvalidPlan, message)
}

/// Checks a target's private authorization JSON: at most 64 KiB, and held
/// to the rules registered definitions are held to (valid JSON of any kind,
/// nesting at most 127 deep, no lone surrogate escape, no number out of
/// range such as `1e999`, no object repeating a key at any depth). The
/// reserved metadata key is not refused here: authorization data is
/// private and never becomes metadata. Errors are `invalid_plan`.
pub fn check_authorization_json(json: &str) -> Result<(), Failure> {
    if json.len() > MAX_AUTHORIZATION_BYTES {
        return Err(plan_error("target authorization JSON exceeds 64 KiB"));
    }
    match jsonscan::check(json, None) {
        Ok(_) => Ok(()),
        Err(Refusal::Invalid(e)) => Err(Failure::with_message(
            FailureKind::InvalidPlan,
            format!("target authorization is not valid JSON: {e}"),
        )
        .caused_by(e)),
        Err(Refusal::DuplicateKey) => Err(plan_error(
            "target authorization JSON repeats an object key",
        )),
        // Nothing is reserved in authorization data, so this never happens.
        Err(Refusal::ReservedKey) => {
            Err(plan_error("target authorization JSON uses a reserved key"))
        }
    }
}

impl ResourceTarget {
    /// The default target of a match (its URI, the default representation,
    /// no authorization), as `ResourceTarget::new(m.uri(), "", None)` makes
    /// it; the URI is shared with the match, and not validated again when
    /// selection made the match.
    pub(crate) fn of_match(m: &ResourceMatch) -> Result<Self, Failure> {
        if !m.selected {
            return Self::new(m.uri(), "", None);
        }
        Ok(ResourceTarget {
            uri: m.uri.clone(),
            representation: Cow::Borrowed(DEFAULT_REPRESENTATION),
            authorization: None,
        })
    }

    /// Validates and copies a target.
    ///
    /// - `uri` must be a valid identifier (length against `max_uri_bytes` is
    ///   checked when the plan is validated for a read);
    /// - `representation` is a label of at most 256 bytes without control
    ///   characters; empty means `"default"`;
    /// - `authorization_json`, when given, must pass
    ///   [`check_authorization_json`] (a JSON document of at most 64 KiB
    ///   held to the rules definitions are held to). Its exact bytes are kept.
    pub fn new(
        uri: &str,
        representation: &str,
        authorization_json: Option<&str>,
    ) -> Result<Self, Failure> {
        validate_uri_str(uri).map_err(|e| {
            Failure::with_message(FailureKind::InvalidPlan, "target URI is invalid").caused_by(e)
        })?;
        let representation = if representation.is_empty() {
            DEFAULT_REPRESENTATION
        } else {
            representation
        };
        if representation.len() > MAX_REPRESENTATION_BYTES {
            return Err(plan_error("target representation is too long"));
        }
        if representation.chars().any(char::is_control) {
            return Err(plan_error("target representation has control characters"));
        }
        let authorization = match authorization_json {
            None => None,
            Some(json) => {
                if json.len() > MAX_AUTHORIZATION_BYTES {
                    return Err(plan_error("target authorization JSON exceeds 64 KiB"));
                }
                check_authorization_json(json)?;
                Some(json.to_string())
            }
        };
        Ok(ResourceTarget {
            uri: Arc::from(uri),
            representation: if representation == DEFAULT_REPRESENTATION {
                Cow::Borrowed(DEFAULT_REPRESENTATION)
            } else {
                Cow::Owned(representation.to_string())
            },
            authorization,
        })
    }

    /// The target URI (the wire URI of its item).
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The representation label (never empty).
    pub fn representation(&self) -> &str {
        &self.representation
    }

    /// The private authorization JSON, exactly as given.
    pub fn authorization(&self) -> Option<&str> {
        self.authorization.as_deref()
    }
}

/// A constructed read plan: the canonical requested bundle and its ordered
/// item targets.
#[derive(Clone)]
pub struct ResourceReadPlan {
    requested: ResourceTarget,
    /// Empty when `single`.
    items: Vec<ResourceTarget>,
    /// The requested target is also the only item (kept once: the common
    /// plan allocates no item list).
    single: bool,
}

impl std::fmt::Debug for ResourceReadPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceReadPlan")
            .field("requested", &self.requested)
            .field("items", &self.items())
            .finish()
    }
}

impl ResourceReadPlan {
    /// Validates a plan: item URIs are unique (even across representation
    /// labels); a URI that appears as both requested target and item must
    /// carry the same representation. Zero items is a valid, empty bundle.
    /// The `max_plan_targets` limit is checked when a read validates the plan.
    pub fn new(requested: ResourceTarget, items: Vec<ResourceTarget>) -> Result<Self, Failure> {
        let mut seen: HashMap<&str, &str> = HashMap::with_capacity(items.len());
        for item in &items {
            if seen.insert(item.uri(), item.representation()).is_some() {
                return Err(plan_error("duplicate item URI in read plan"));
            }
        }
        if let Some(rep) = seen.get(requested.uri()) {
            if *rep != requested.representation() {
                return Err(plan_error(
                    "requested URI appears with a different representation",
                ));
            }
        }
        Ok(ResourceReadPlan {
            requested,
            items,
            single: false,
        })
    }

    /// A plan whose requested target is also its single item.
    pub fn single(target: ResourceTarget) -> Self {
        ResourceReadPlan {
            requested: target,
            items: Vec::new(),
            single: true,
        }
    }

    /// The plan of a match whose requested URI is both the requested target
    /// and the single item (representation `"default"`, no authorization
    /// JSON): the Rust counterpart of the C ABI's `mcpr_resolve_single`.
    pub fn single_for(m: &ResourceMatch) -> Result<Self, Failure> {
        Ok(Self::single(ResourceTarget::of_match(m)?))
    }

    /// The canonical requested target.
    pub fn requested(&self) -> &ResourceTarget {
        &self.requested
    }

    /// The ordered item targets.
    pub fn items(&self) -> &[ResourceTarget] {
        if self.single {
            std::slice::from_ref(&self.requested)
        } else {
            &self.items
        }
    }

    /// Splits the plan into its parts.
    pub fn into_parts(self) -> (ResourceTarget, Vec<ResourceTarget>) {
        if self.single {
            let item = self.requested.clone();
            (self.requested, vec![item])
        } else {
            (self.requested, self.items)
        }
    }
}
