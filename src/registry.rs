//! The registry: an immutable set of bindings (definition + resolve + read),
//! a policy, the effective limits, and the selection index.

use std::borrow::Cow;

use rustc_hash::FxHashMap;
use std::sync::Arc;

use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use crate::cache::{CacheHints, RegistryCacheHints};
use crate::completion::ResourceCompleter;
use crate::cursor::Sealer;
use crate::error::{CallbackError, Failure, FailureKind};
use crate::identity::{validate_uri_parts, validate_uri_str};
use crate::jsonscan::{self, Kind};
use crate::limits::{Limit, Limits, ResourceLimits, MAX_DEFINITION_BYTES, MAX_META_BYTES};
use crate::plan::{
    ResourceMatch, ResourcePayload, ResourceReadPlan, ResourceTarget, RESERVED_META_KEY,
};
use crate::policy::ResourcePolicy;
use crate::scope::CallContext;
use crate::template::{decode_capture, RequestShape, Segment, Shape, Template};

/// A registered description: the MCP `Resource` or `ResourceTemplate`
/// object, with exactly one of `uri` / `uriTemplate`.
///
/// Held compactly, because registries hold many: one text allocation holds
/// the compact JSON, and the identifier, name and canonical form are spans
/// of it wherever possible.
#[derive(Debug, Clone)]
pub struct ResourceDefinition {
    /// The compact JSON (keys in the order given), then the decoded text of
    /// an identifier or name that had escape sequences, then the canonical
    /// form when it had to be written out.
    text: Box<str>,
    /// Length of the compact JSON at the start of `text`.
    json_len: u32,
    key: Span,
    name: Span,
    canonical: Canonical,
    template: Option<Box<Template>>,
}

/// A byte range of a definition's `text`.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: u32,
    end: u32,
}

impl Span {
    fn of(self, text: &str) -> &str {
        &text[self.start as usize..self.end as usize]
    }
}

/// How a definition keeps its canonical form (keys sorted at every depth).
#[derive(Debug, Clone)]
enum Canonical {
    /// The compact JSON is already canonical.
    Same,
    /// Only the top level is out of order: `{`, then these ranges of the
    /// compact JSON (whole `"key":value` members, in key order) separated
    /// by commas, then `}`; exactly as long as the compact JSON.
    Reordered {
        members: [(u16, u16); REORDERED_MEMBERS],
        len: u8,
    },
    /// Written out in the definition's text.
    Written(Span),
}

/// Top-level members a [`Canonical::Reordered`] holds inline (an MCP
/// description has at most eight standard members).
const REORDERED_MEMBERS: usize = 8;

/// Appends `text` to `out`, returning its span.
fn append(out: &mut String, text: &str) -> Span {
    let start = out.len() as u32;
    out.push_str(text);
    Span {
        start,
        end: out.len() as u32,
    }
}

/// The span of a string member's decoded text: inside its serialised bytes
/// (quotes excluded) when the scanner lent it unchanged from the input (it
/// had no escape sequence, so its JSON bytes are its text), else a copy
/// appended to `out`. Callers pass string members only (anything else
/// gets an empty span).
fn text_span(out: &mut String, member: &jsonscan::Member<'_>) -> Span {
    match &member.value {
        Kind::Str(Cow::Borrowed(_)) => Span {
            start: member.value_bytes.start as u32 + 1,
            end: member.value_bytes.end as u32 - 1,
        },
        Kind::Str(Cow::Owned(decoded)) => append(out, decoded),
        _ => Span { start: 0, end: 0 },
    }
}

/// The top-level members' ranges in key order, when each fits in 16 bits
/// and there are at most [`REORDERED_MEMBERS`].
fn reordered(members: &[jsonscan::Member<'_>]) -> Option<Canonical> {
    if members.len() > REORDERED_MEMBERS {
        return None;
    }
    let mut order = [0usize; REORDERED_MEMBERS];
    for (i, slot) in order.iter_mut().enumerate() {
        *slot = i;
    }
    let order = &mut order[..members.len()];
    order.sort_unstable_by(|&a, &b| members[a].key.cmp(&members[b].key));
    let mut ranges = [(0u16, 0u16); REORDERED_MEMBERS];
    for (slot, &i) in ranges.iter_mut().zip(order.iter()) {
        let bytes = &members[i].bytes;
        *slot = (
            u16::try_from(bytes.start).ok()?,
            u16::try_from(bytes.end).ok()?,
        );
    }
    Some(Canonical::Reordered {
        members: ranges,
        len: members.len() as u8,
    })
}

fn def_error(message: &'static str) -> Failure {
    Failure::config(message)
}

impl ResourceDefinition {
    /// Parses a definition from its JSON description (at most 64 KiB).
    ///
    /// Requires a JSON object with a string `name` and exactly one of a
    /// string `uri` (a valid identifier) or a string `uriTemplate` (a valid
    /// template); `_meta`, when present, is an object of at most 64 KiB; the
    /// reserved metadata key may appear nowhere; no object may repeat a key.
    /// The identifier length is checked against `max_uri_bytes` when the
    /// registry is built.
    pub fn from_json(json: &str) -> Result<Self, Failure> {
        if json.len() > MAX_DEFINITION_BYTES {
            return Err(def_error("definition exceeds 64 KiB"));
        }
        let mut text = String::with_capacity(json.len());
        let scanned = jsonscan::scan(json, &mut text, RESERVED_META_KEY)
            .map_err(|e| def_error("definition is not valid JSON").caused_by(e))?;
        let json_len = text.len();
        if scanned.root != Kind::Object {
            return Err(def_error("definition is not a JSON object"));
        }
        if scanned.duplicate_key {
            return Err(def_error("definition repeats an object key"));
        }
        // One pass finds the members that matter (keys are unique by now).
        let (mut name, mut uri, mut uri_template, mut meta) = (None, None, None, None);
        for m in &scanned.members {
            match m.key.as_ref() {
                "name" => name = Some(m),
                "uri" => uri = Some(m),
                "uriTemplate" => uri_template = Some(m),
                "_meta" => meta = Some(m),
                _ => {}
            }
        }
        let name = match name {
            Some(m) => match &m.value {
                Kind::Str(s) if !s.is_empty() => text_span(&mut text, m),
                _ => return Err(def_error("definition name must be a non-empty string")),
            },
            None => return Err(def_error("definition has no name")),
        };
        let (key, template) = match (uri, uri_template) {
            (Some(_), Some(_)) => return Err(def_error("definition has both uri and uriTemplate")),
            (None, None) => return Err(def_error("definition has neither uri nor uriTemplate")),
            (Some(m), None) => {
                let Kind::Str(uri) = &m.value else {
                    return Err(def_error("definition uri/uriTemplate must be a string"));
                };
                validate_uri_str(uri)
                    .map_err(|e| Failure::config(format!("definition uri is invalid: {e}")))?;
                (text_span(&mut text, m), None)
            }
            (None, Some(m)) => {
                let Kind::Str(t) = &m.value else {
                    return Err(def_error("definition uri/uriTemplate must be a string"));
                };
                let template = Box::new(Template::parse(t)?);
                (text_span(&mut text, m), Some(template))
            }
        };
        if let Some(meta) = meta {
            if meta.value != Kind::Object {
                return Err(def_error("definition _meta must be an object"));
            }
            if meta.value_bytes.len() > MAX_META_BYTES {
                return Err(def_error("definition _meta exceeds 64 KiB"));
            }
        }
        if scanned.has_key {
            return Err(def_error("definition uses the reserved metadata key"));
        }
        if json_len > MAX_DEFINITION_BYTES {
            return Err(def_error("definition exceeds 64 KiB"));
        }
        let canonical = if scanned.is_canonical() {
            Canonical::Same
        } else {
            let top_only = scanned.nested_sorted.then(|| reordered(&scanned.members));
            match top_only.flatten() {
                Some(reordered) => reordered,
                None => {
                    let written = scanned
                        .canonical(&text[..json_len])
                        .ok_or_else(|| def_error("definition is not valid JSON"))?;
                    Canonical::Written(append(&mut text, &written))
                }
            }
        };
        Ok(ResourceDefinition {
            text: text.into_boxed_str(),
            json_len: json_len as u32,
            key,
            name,
            canonical,
            template,
        })
    }

    /// Builds a definition from an already parsed JSON object.
    pub fn from_object(
        object: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Self, Failure> {
        let json = serde_json::to_string(object).expect("a JSON object serialises");
        Self::from_json(&json)
    }

    /// The description as compact JSON (keys in the order given).
    pub fn json(&self) -> &str {
        &self.text[..self.json_len as usize]
    }

    /// The description parsed into a JSON object (a fresh copy).
    pub fn to_object(&self) -> serde_json::Map<String, serde_json::Value> {
        serde_json::from_str(self.json()).expect("stored definitions are JSON objects")
    }

    /// The `uri` or the `uriTemplate`, exactly as registered.
    pub fn uri_or_template(&self) -> &str {
        self.key.of(&self.text)
    }

    /// Whether this is a template definition.
    pub fn is_template(&self) -> bool {
        self.template.is_some()
    }

    /// The parsed template, for template definitions.
    pub fn template(&self) -> Option<&Template> {
        self.template.as_deref()
    }

    /// The `name`.
    pub fn name(&self) -> &str {
        self.name.of(&self.text)
    }

    /// A canonical serialisation (object keys sorted at every depth, compact,
    /// escaped as `serde_json` does), used for the registry revision.
    pub fn canonical_json(&self) -> Cow<'_, str> {
        match self.canonical {
            Canonical::Same => Cow::Borrowed(self.json()),
            Canonical::Written(span) => Cow::Borrowed(span.of(&self.text)),
            Canonical::Reordered { .. } => {
                let mut out = Vec::with_capacity(self.json_len as usize);
                self.write_canonical(&mut out);
                Cow::Owned(String::from_utf8(out).expect("whole members of JSON text"))
            }
        }
    }

    /// Appends the canonical serialisation to `out`.
    fn write_canonical(&self, out: &mut Vec<u8>) {
        match &self.canonical {
            Canonical::Same => out.extend_from_slice(self.json().as_bytes()),
            Canonical::Written(span) => out.extend_from_slice(span.of(&self.text).as_bytes()),
            Canonical::Reordered { members, len } => {
                let json = self.json().as_bytes();
                out.push(b'{');
                for (i, &(start, end)) in members[..usize::from(*len)].iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(&json[usize::from(start)..usize::from(end)]);
                }
                out.push(b'}');
            }
        }
    }
}

/// The two binding callbacks. Both are required; both may be called
/// concurrently from many reads on any thread and should honour the call
/// context.
pub trait ResourceHandler: Send + Sync {
    /// Turns a match into a read plan. May inspect bounded identity metadata
    /// but must not read bodies or perform application effects. Return
    /// [`CallbackError::Unavailable`] for a root denial.
    fn resolve(
        &self,
        call: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError>;

    /// Reads one item's body. [`CallbackError::Unavailable`] makes an
    /// `unavailable` issue; any other error a `read_failed` issue, except
    /// a [`CallbackError::Failed`] whose cause is a [`Failure`] of kind
    /// `invalid_content` (what the payload constructors return for a
    /// malformed payload), which makes an `invalid_content` issue. A read
    /// that returns after its item deadline is a `timeout` issue.
    fn read(
        &self,
        call: &CallContext,
        target: &ResourceTarget,
    ) -> Result<ResourcePayload, CallbackError>;

    /// An optional pure, conservative sizer: an upper bound on the encoded
    /// bytes this payload adds to a full response (the item object plus its
    /// separating comma). `None` (the default) uses the exact size.
    fn encoded_size_hint(
        &self,
        _target: &ResourceTarget,
        _payload: &ResourcePayload,
    ) -> Option<u64> {
        None
    }
}

/// A definition with its handler.
#[derive(Clone)]
pub struct ResourceBinding {
    definition: Arc<ResourceDefinition>,
    handler: Arc<dyn ResourceHandler>,
    completer: Option<Arc<dyn ResourceCompleter>>,
    cache: Option<CacheHints>,
}

impl std::fmt::Debug for ResourceBinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceBinding")
            .field("definition", &self.definition.uri_or_template())
            .finish()
    }
}

impl ResourceBinding {
    /// A binding from a definition's JSON and a handler.
    pub fn new(definition_json: &str, handler: Arc<dyn ResourceHandler>) -> Result<Self, Failure> {
        Ok(Self::from_definition(
            ResourceDefinition::from_json(definition_json)?,
            handler,
        ))
    }

    /// A binding from a parsed definition and a handler.
    pub fn from_definition(
        definition: ResourceDefinition,
        handler: Arc<dyn ResourceHandler>,
    ) -> Self {
        ResourceBinding {
            definition: Arc::new(definition),
            handler,
            cache: None,
            completer: None,
        }
    }

    /// Gives a template binding a completion callback (`completion/complete`,
    /// see [`crate::completion`]). Default: none (completion requests for
    /// the template answer an empty completion). A completer on an exact
    /// URI definition is refused by build (`invalid_configuration`).
    pub fn with_completer(mut self, completer: Arc<dyn ResourceCompleter>) -> Self {
        self.completer = Some(completer);
        self
    }

    /// The completion callback, if any.
    pub fn completer(&self) -> Option<&Arc<dyn ResourceCompleter>> {
        self.completer.as_ref()
    }

    /// Declares the binding's cache hints: the TTL of its read results and
    /// whether its content is the same for every caller (checked at build:
    /// a TTL above 2^53 - 1 is `invalid_configuration`). Without them the
    /// binding has the registry's TTL and is not caller-independent.
    pub fn with_cache_hints(mut self, hints: CacheHints) -> Self {
        self.cache = Some(hints);
        self
    }

    /// The declared cache hints, if any.
    pub fn cache_hints(&self) -> Option<CacheHints> {
        self.cache
    }

    /// The definition.
    pub fn definition(&self) -> &Arc<ResourceDefinition> {
        &self.definition
    }

    /// The handler.
    pub fn handler(&self) -> &Arc<dyn ResourceHandler> {
        &self.handler
    }
}

/// Unix time in milliseconds, used for cursor issue and expiry times.
pub type Clock = Arc<dyn Fn() -> u64 + Send + Sync>;

/// Smallest accepted cursor key, in bytes.
pub const MIN_CURSOR_KEY_BYTES: usize = 32;
/// Largest accepted cursor key, in bytes.
pub const MAX_CURSOR_KEY_BYTES: usize = 1024;

/// Collects bindings, a policy, limits, and optionally a cursor key and a
/// clock, then builds an immutable [`Resources`].
#[derive(Default)]
pub struct ResourcesBuilder {
    bindings: Vec<ResourceBinding>,
    /// The prefix common to the exact URIs (`[0]`) and to the templates
    /// (`[1]`) pushed so far, kept while each key is at hand.
    prefixes: [CommonPrefix; 2],
    policy: Option<Arc<dyn ResourcePolicy>>,
    limits: ResourceLimits,
    /// Wiped when dropped.
    cursor_key: Option<Zeroizing<Vec<u8>>>,
    clock: Option<Clock>,
    cache: RegistryCacheHints,
}

impl ResourcesBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a binding (builder style).
    pub fn binding(mut self, binding: ResourceBinding) -> Self {
        self.push(binding);
        self
    }

    /// Adds a binding in place.
    pub fn push(&mut self, binding: ResourceBinding) {
        let d = &binding.definition;
        let prefix = &mut self.prefixes[usize::from(d.is_template())];
        prefix.add(&self.bindings, d.uri_or_template(), self.bindings.len());
        self.bindings.push(binding);
    }

    /// Sets the policy (required).
    pub fn policy(mut self, policy: Arc<dyn ResourcePolicy>) -> Self {
        self.policy = Some(policy);
        self
    }

    /// Sets the policy in place.
    pub fn set_policy(&mut self, policy: Arc<dyn ResourcePolicy>) {
        self.policy = Some(policy);
    }

    /// Sets the limit overrides (`WithResourceLimits`).
    pub fn limits(mut self, limits: ResourceLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets one limit override in place (`0` = default, negative fails at build).
    pub fn set_limit(&mut self, limit: Limit, value: i64) {
        self.limits.set(limit, value);
    }

    /// Sets the cursor key (32 to 1024 bytes) shared by a fleet of
    /// replicas; without one, a random key is made per registry. Cursors
    /// are sealed under a key derived from it (HKDF-SHA256), never under
    /// the key itself.
    pub fn cursor_key(mut self, key: &[u8]) -> Self {
        self.cursor_key = Some(Zeroizing::new(key.to_vec()));
        self
    }

    /// Sets the cursor key in place.
    pub fn set_cursor_key(&mut self, key: &[u8]) {
        self.cursor_key = Some(Zeroizing::new(key.to_vec()));
    }

    /// Sets the wall clock used for cursor issue and expiry times.
    pub fn clock(mut self, clock: Clock) -> Self {
        self.clock = Some(clock);
        self
    }

    /// Sets the clock in place.
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = Some(clock);
    }

    /// Declares the registry's cache hints (see [`crate::cache`]): the TTL
    /// of list pages and of bindings without their own hints, and whether
    /// the policy decides the same for every caller. Default: TTL 0, not
    /// caller-independent (every result `"private"`).
    pub fn cache_hints(mut self, hints: RegistryCacheHints) -> Self {
        self.cache = hints;
        self
    }

    /// Sets the registry's cache hints in place.
    pub fn set_cache_hints(&mut self, hints: RegistryCacheHints) {
        self.cache = hints;
    }

    /// Validates everything against the final limits and builds the registry.
    pub fn build(self) -> Result<Resources, Failure> {
        let limits = self.limits.resolve()?;
        CacheHints::check_ttl(self.cache.ttl_ms).map_err(Failure::config)?;
        for b in &self.bindings {
            if let Some(h) = b.cache {
                h.validate()?;
            }
        }
        let policy = self
            .policy
            .ok_or_else(|| Failure::config("a resource policy is required"))?;
        let cursor_sealer = match self.cursor_key {
            Some(k) if k.len() < MIN_CURSOR_KEY_BYTES => {
                return Err(Failure::config("cursor key must be at least 32 bytes"))
            }
            Some(k) if k.len() > MAX_CURSOR_KEY_BYTES => {
                return Err(Failure::config("cursor key must be at most 1024 bytes"))
            }
            Some(k) => Sealer::new(&k),
            None => {
                let mut k = Zeroizing::new([0u8; 32]);
                rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut *k);
                Sealer::new(&*k)
            }
        };
        let clock = self.clock.unwrap_or_else(|| Arc::new(system_clock_ms));

        // One pass over the definitions indexes them and keys them for
        // sorting (definitions are scattered in memory; each is read once).
        let [exact_prefix, template_prefix] = self.prefixes;
        let mut exact = ExactIndex::with_capacity(exact_prefix.count);
        let mut resource_keys = Vec::with_capacity(exact_prefix.count);
        let mut template_keys = Vec::with_capacity(template_prefix.count);
        // Keyed by shape: templates equal up to variable names match the
        // same URIs, so every URI either matches would be ambiguous forever.
        let mut template_shapes: FxHashMap<Shape<'_>, usize> = FxHashMap::default();
        template_shapes.reserve(template_prefix.count);
        let mut index = TemplateIndex::default();
        for (i, b) in self.bindings.iter().enumerate() {
            let d = &b.definition;
            let key = d.uri_or_template();
            if key.len() > limits.max_uri_bytes {
                return Err(Failure::config(format!(
                    "definition {} exceeds max_uri_bytes",
                    if d.is_template() {
                        "uriTemplate"
                    } else {
                        "uri"
                    }
                )));
            }
            match d.template() {
                None => {
                    if b.completer.is_some() {
                        return Err(Failure::config(
                            "a completer needs a uriTemplate definition",
                        ));
                    }
                    if !exact.insert(&self.bindings, i) {
                        return Err(Failure::config("duplicate resource uri"));
                    }
                    resource_keys.push((sort_radix(key, exact_prefix.len), i as u32));
                }
                Some(t) => {
                    if let Some(other) = template_shapes.insert(t.shape(), i) {
                        let same_text = self.bindings[other].definition.uri_or_template() == key;
                        return Err(Failure::config(if same_text {
                            "duplicate resource uriTemplate"
                        } else {
                            "duplicate resource uriTemplate: two templates differ only in \
                             their variable names, so they match the same URIs"
                        }));
                    }
                    index.insert(t, i);
                    template_keys.push((sort_radix(key, template_prefix.len), i as u32));
                }
            }
        }
        drop(template_shapes);

        let resource_order = sorted_order(&self.bindings, resource_keys);
        let template_order = sorted_order(&self.bindings, template_keys);

        let revision = {
            // Hashed in large chunks: one `update` per definition field
            // costs more than the hashing itself.
            let mut h = Sha256::new();
            let mut chunk: Vec<u8> = Vec::with_capacity(REVISION_CHUNK + 1024);
            chunk.extend_from_slice(b"mcp-resources registry v1\n");
            for (tag, order) in [(b'R', &resource_order), (b'T', &template_order)] {
                for (k, &i) in order.iter().enumerate() {
                    // Sorted order visits definitions all over the heap:
                    // ask for each one's two cache lines ahead of time.
                    if let Some(&ahead) = order.get(k + 16) {
                        prefetch(Arc::as_ptr(&self.bindings[ahead].definition).cast());
                    }
                    if let Some(&ahead) = order.get(k + 8) {
                        prefetch(self.bindings[ahead].definition.text.as_ptr());
                    }
                    // The length goes before the text: written once known.
                    chunk.push(tag);
                    let at = chunk.len();
                    chunk.extend_from_slice(&[0; 8]);
                    self.bindings[i].definition.write_canonical(&mut chunk);
                    let len = (chunk.len() - at - 8) as u64;
                    chunk[at..at + 8].copy_from_slice(&len.to_be_bytes());
                    if chunk.len() >= REVISION_CHUNK {
                        h.update(&chunk);
                        chunk.clear();
                    }
                }
            }
            h.update(&chunk);
            h.finalize().into()
        };

        Ok(Resources {
            bindings: Arc::new(self.bindings),
            exact,
            index,
            resource_order: Arc::new(resource_order),
            template_order: Arc::new(template_order),
            policy,
            limits,
            revision,
            cursor_sealer,
            clock,
            cache: self.cache,
        })
    }
}

/// Hints the CPU to start loading the cache line at `p`; nothing else
/// happens (a no-op on targets without a prefetch hint).
#[inline(always)]
fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint with no architectural effect: it reads
    // no memory the program can observe and never faults, whatever `p` is.
    // SSE is part of the x86_64 baseline.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Bytes gathered before each update of the revision hash.
const REVISION_CHUNK: usize = 64 * 1024;

/// The byte prefix shared by every key of one kind pushed to a builder.
#[derive(Default, Clone, Copy)]
struct CommonPrefix {
    /// How many keys were pushed.
    count: usize,
    /// The binding whose key starts with the prefix (the first pushed).
    holder: usize,
    /// The prefix length in bytes.
    len: usize,
}

impl CommonPrefix {
    /// Shortens the prefix to what `key` (of binding `index`) shares.
    fn add(&mut self, bindings: &[ResourceBinding], key: &str, index: usize) {
        if self.count == 0 {
            self.holder = index;
            self.len = key.len();
        } else {
            let held = &bindings[self.holder]
                .definition
                .uri_or_template()
                .as_bytes()[..self.len];
            if !key.as_bytes().starts_with(held) {
                self.len = held
                    .iter()
                    .zip(key.as_bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
            }
        }
        self.count += 1;
    }
}

/// The sixteen bytes of `key` after the `common` prefix shared by every key
/// of its kind, as a big-endian integer (zero-padded: identifiers hold no
/// NUL byte, so a shorter key still orders first).
fn sort_radix(key: &str, common: usize) -> u128 {
    let mut word = [0u8; 16];
    let tail = &key.as_bytes()[common..];
    let n = tail.len().min(16);
    word[..n].copy_from_slice(&tail[..n]);
    u128::from_be_bytes(word)
}

/// Binding indices sorted by key, then name, from `(radix, index)` pairs.
///
/// Every key is unique once duplicates are refused, so the order is total.
/// Registered identifiers often share a long prefix (`file:///project/…`):
/// the radix holds the sixteen bytes after the prefix common to all keys,
/// which settles most comparisons as plain integers; only runs with equal
/// radixes compare whole keys.
fn sorted_order(bindings: &[ResourceBinding], mut keyed: Vec<(u128, u32)>) -> Vec<usize> {
    keyed.sort_unstable();
    let definition = |i: u32| &bindings[i as usize].definition;
    let mut start = 0;
    while start < keyed.len() {
        let radix = keyed[start].0;
        let end = start + keyed[start..].iter().take_while(|k| k.0 == radix).count();
        if end - start > 1 {
            keyed[start..end].sort_unstable_by(|a, b| {
                let (a, b) = (definition(a.1), definition(b.1));
                a.uri_or_template()
                    .cmp(b.uri_or_template())
                    .then_with(|| a.name().cmp(b.name()))
            });
        }
        start = end;
    }
    keyed.into_iter().map(|(_, i)| i as usize).collect()
}

fn system_clock_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// An immutable registry. `Send + Sync`; share it behind an `Arc`.
/// It owns no thread, listener or background job.
pub struct Resources {
    /// Shared (like the orders) so that a listing running on an executor
    /// can own what it visits.
    bindings: Arc<Vec<ResourceBinding>>,
    exact: ExactIndex,
    index: TemplateIndex,
    resource_order: Arc<Vec<usize>>,
    template_order: Arc<Vec<usize>>,
    policy: Arc<dyn ResourcePolicy>,
    limits: Limits,
    revision: [u8; 32],
    cursor_sealer: Sealer,
    clock: Clock,
    cache: RegistryCacheHints,
}

impl std::fmt::Debug for Resources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resources")
            .field("bindings", &self.bindings.len())
            .field("limits", &self.limits)
            .finish()
    }
}

/// The binding chosen for a URI, with its match.
#[derive(Debug, Clone)]
pub struct Selection<'r> {
    /// The chosen binding.
    pub binding: &'r ResourceBinding,
    /// The match handed to `resolve`.
    pub matched: ResourceMatch,
}

impl Resources {
    /// A new builder (`NewResources`).
    pub fn builder() -> ResourcesBuilder {
        ResourcesBuilder::new()
    }

    /// The effective limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The registry's declared cache hints.
    pub fn cache_hints(&self) -> &RegistryCacheHints {
        &self.cache
    }

    /// The policy.
    pub fn policy(&self) -> &Arc<dyn ResourcePolicy> {
        &self.policy
    }

    /// Every binding, in registration order.
    pub fn bindings(&self) -> &[ResourceBinding] {
        &self.bindings
    }

    /// Exact-URI bindings sorted by URI then name (binding indices).
    pub fn resource_order(&self) -> &[usize] {
        &self.resource_order
    }

    /// Template bindings sorted by template then name (binding indices).
    pub fn template_order(&self) -> &[usize] {
        &self.template_order
    }

    /// The bindings and one of the two orders, owned (for a listing job).
    pub(crate) fn shared_order(
        &self,
        templates: bool,
    ) -> (Arc<Vec<ResourceBinding>>, Arc<Vec<usize>>) {
        let order = if templates {
            &self.template_order
        } else {
            &self.resource_order
        };
        (self.bindings.clone(), order.clone())
    }

    /// The content revision: SHA-256 of the canonical registered
    /// descriptions; identical registries agree.
    pub fn revision(&self) -> [u8; 32] {
        self.revision
    }

    /// Seals and opens this registry's list cursors.
    pub(crate) fn cursor_sealer(&self) -> &Sealer {
        &self.cursor_sealer
    }

    /// The current wall-clock time in Unix milliseconds (the configured clock).
    pub fn now_unix_ms(&self) -> u64 {
        (self.clock)()
    }

    /// Validates a requested identifier and selects its binding: an exact
    /// registration wins; otherwise exactly one template must match.
    ///
    /// Errors: invalid identifier, ambiguous match and bad captures are
    /// `invalid_request`; no match is `unavailable` (the same public error as
    /// a discovery denial).
    pub fn select(&self, uri: &[u8]) -> Result<Selection<'_>, Failure> {
        let (uri, parts) = validate_uri_parts(uri, self.limits.max_uri_bytes)
            .map_err(|e| e.into_request_failure())?;
        if let Some(i) = self.exact.get(&self.bindings, uri) {
            let binding = &self.bindings[i];
            return Ok(Selection {
                binding,
                matched: ResourceMatch::selected(binding.definition.clone(), uri, Vec::new()),
            });
        }
        let shape = RequestShape::from_parts(uri, parts);
        let mut found = [usize::MAX; 2];
        let n = self.index.find(&shape, &mut found);
        match n {
            0 => Err(Failure::new(FailureKind::Unavailable)
                .caused_by(crate::error::CauseText("no registration matches".into()))),
            1 => {
                let binding = &self.bindings[found[0]];
                let template = binding.definition.template().expect("indexed templates");
                let raw = template.captures_in_path(shape.path);
                let mut captures = Vec::with_capacity(raw.len());
                for (name, raw) in template.names().iter().zip(raw) {
                    let value = decode_capture(raw).map_err(|e| Failure::request(e.message()))?;
                    captures.push((name.clone(), value));
                }
                Ok(Selection {
                    binding,
                    matched: ResourceMatch::selected(binding.definition.clone(), uri, captures),
                })
            }
            _ => Err(Failure::request("ambiguous resource URI")),
        }
    }
}

/// Exact URIs to binding indices. The keys are the definitions' own URIs
/// (no copy is made): the table stores indices and hashes the URI of the
/// binding an index names.
struct ExactIndex {
    table: hashbrown::HashTable<u32>,
}

fn hash_uri(uri: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(uri)
}

impl ExactIndex {
    fn with_capacity(n: usize) -> Self {
        ExactIndex {
            table: hashbrown::HashTable::with_capacity(n),
        }
    }

    fn uri(bindings: &[ResourceBinding], i: u32) -> &str {
        bindings[i as usize].definition().uri_or_template()
    }

    /// Adds binding `i`; `false` when its URI is already present.
    fn insert(&mut self, bindings: &[ResourceBinding], i: usize) -> bool {
        let i = u32::try_from(i).expect("fewer than 2^32 bindings");
        let uri = Self::uri(bindings, i);
        let hash = hash_uri(uri);
        match self.table.entry(
            hash,
            |&j| Self::uri(bindings, j) == uri,
            |&j| hash_uri(Self::uri(bindings, j)),
        ) {
            hashbrown::hash_table::Entry::Occupied(_) => false,
            hashbrown::hash_table::Entry::Vacant(v) => {
                v.insert(i);
                true
            }
        }
    }

    fn get(&self, bindings: &[ResourceBinding], uri: &str) -> Option<usize> {
        self.table
            .find(hash_uri(uri), |&j| Self::uri(bindings, j) == uri)
            .map(|&j| j as usize)
    }
}

/// Templates indexed by prefix (scheme + authority), literal suffix and a
/// segment trie, so that selection cost does not grow with the number of
/// templates.
#[derive(Default)]
struct TemplateIndex {
    by_prefix: FxHashMap<String, FxHashMap<String, FxHashMap<usize, Node>>>,
}

#[derive(Default)]
struct Node {
    literal: FxHashMap<String, Node>,
    variable: Option<Box<Node>>,
    terminal: Vec<usize>,
}

impl TemplateIndex {
    fn insert(&mut self, t: &Template, binding: usize) {
        let mut node = self
            .by_prefix
            .entry(t.prefix().to_string())
            .or_default()
            .entry(t.suffix().to_string())
            .or_default()
            .entry(t.segments().len())
            .or_default();
        for seg in t.segments() {
            node = match seg {
                Segment::Literal(l) => node.literal.entry(l.clone()).or_default(),
                Segment::Variable(_) => node.variable.get_or_insert_with(Default::default),
            };
        }
        node.terminal.push(binding);
    }

    /// Writes up to two matching bindings into `out`; returns how many
    /// matched (capped at 2).
    fn find(&self, shape: &RequestShape<'_>, out: &mut [usize; 2]) -> usize {
        let Some(root) = self
            .by_prefix
            .get(shape.prefix)
            .and_then(|m| m.get(shape.suffix))
            .and_then(|m| m.get(&shape.segment_count()))
        else {
            return 0;
        };
        let mut n = 0;
        Self::walk(root, Some(shape.path), out, &mut n);
        n
    }

    /// `rest` is the unconsumed path (`None` once every segment is consumed).
    fn walk(node: &Node, rest: Option<&str>, out: &mut [usize; 2], n: &mut usize) {
        if *n >= 2 {
            return;
        }
        let Some(rest) = rest else {
            for &b in &node.terminal {
                if *n < 2 {
                    out[*n] = b;
                    *n += 1;
                }
            }
            return;
        };
        let (first, tail) = match rest.find('/') {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        if let Some(next) = node.literal.get(first) {
            Self::walk(next, tail, out, n);
        }
        if !first.is_empty() {
            if let Some(next) = &node.variable {
                Self::walk(next, tail, out, n);
            }
        }
    }
}
