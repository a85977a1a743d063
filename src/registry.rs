//! The registry: an immutable set of bindings, a policy, the effective
//! limits, and the selection indexes; and the builder that makes one.
//!
//! Definitions live in [`crate::definition`], bindings in
//! [`crate::binding`] and the indexes in the private `index` module; the
//! paths under `registry::` stay valid through the re-exports below.

use std::sync::Arc;

use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

pub use crate::binding::{ResourceBinding, ResourceHandler};
pub use crate::definition::ResourceDefinition;

use crate::cache::{CacheHints, RegistryCacheHints};
use crate::cursor::Sealer;
use crate::error::{Failure, FailureKind};
use crate::identity::validate_uri_parts;
use crate::index::{ExactIndex, TemplateIndex};
use crate::limits::{Limit, Limits, ResourceLimits};
use crate::notification_types::NotificationTypes;
use crate::observe::{CallMethod, EventHash, Observer, OutcomeMetrics, Telemetry};
use crate::plan::ResourceMatch;
use crate::policy::ResourcePolicy;
use crate::prefetch::prefetch;
use crate::template::{decode_capture, RequestShape};

/// Unix time in milliseconds, used for cursor issue and expiry times.
pub type Clock = Arc<dyn Fn() -> u64 + Send + Sync>;

/// Smallest accepted cursor key, in bytes.
///
/// cbindgen:ignore
pub const MIN_CURSOR_KEY_BYTES: usize = 32;
/// Largest accepted cursor key, in bytes.
///
/// cbindgen:ignore
pub const MAX_CURSOR_KEY_BYTES: usize = 1024;

/// Collects bindings, a policy, limits, and optionally a cursor key and a
/// clock, then builds an immutable [`Resources`].
#[derive(Default)]
pub struct ResourcesBuilder {
    bindings: Vec<ResourceBinding>,
    /// The prefix common to the exact URIs (`[0]`) and to the templates
    /// (`[1]`) pushed so far (and how many of each), kept while each key
    /// is at hand.
    prefixes: [CommonPrefix; 2],
    policy: Option<Arc<dyn ResourcePolicy>>,
    limits: ResourceLimits,
    /// Wiped when dropped.
    cursor_key: Option<Zeroizing<Vec<u8>>>,
    clock: Option<Clock>,
    cache: RegistryCacheHints,
    notifications: NotificationTypes,
    observer: Option<Arc<dyn Observer>>,
    /// Wiped when dropped.
    event_key: Option<Zeroizing<Vec<u8>>>,
    /// The JSON-RPC error of a read that needs input on a revision without
    /// input-required results (`None`: the default).
    input_unsupported: Option<(i32, String)>,
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

    /// Declares the resource change notifications the host delivers for
    /// this registry (docs/BEHAVIOUR.md §15): `resource_updates` (the
    /// capability's `subscribe`: `resources/subscribe` and listen URIs are
    /// decided) and `resources_list_changed` (`listChanged`). Default:
    /// neither. Tool and prompt types are refused at build: they are not
    /// the library's.
    pub fn notifications(mut self, types: NotificationTypes) -> Self {
        self.notifications = types;
        self
    }

    /// Sets the declared notifications in place.
    pub fn set_notifications(&mut self, types: NotificationTypes) {
        self.notifications = types;
    }

    /// Sets the observer of the registry's calls (docs/BEHAVIOUR.md §19);
    /// its [`interests`](Observer::interests) are asked once, at build.
    pub fn observer(mut self, observer: Arc<dyn Observer>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// Sets the observer in place, returning the one it replaces.
    pub fn set_observer(&mut self, observer: Arc<dyn Observer>) -> Option<Arc<dyn Observer>> {
        self.observer.replace(observer)
    }

    /// Sets the key of the event hashes (32 to 1024 bytes; see
    /// [`Resources::event_hash`]). Without one the cursor key serves, and
    /// without either a random key is made per registry.
    pub fn event_key(mut self, key: &[u8]) -> Self {
        self.event_key = Some(Zeroizing::new(key.to_vec()));
        self
    }

    /// Sets the event hash key in place.
    pub fn set_event_key(&mut self, key: &[u8]) {
        self.event_key = Some(Zeroizing::new(key.to_vec()));
    }

    /// Chooses the JSON-RPC error of a read whose callback asks for input
    /// when the request's protocol revision has no input-required result
    /// (before 2026-07-28; docs/BEHAVIOUR.md §18). Default: `-32603`
    /// "Input required: this protocol revision cannot carry the request for
    /// input". Checked at build: the message must be 1 to 256 bytes without
    /// control characters, and the code may not lie in `-32099..=-32020`
    /// (reserved for the MCP specification).
    pub fn input_unsupported_error(mut self, code: i32, message: &str) -> Self {
        self.set_input_unsupported_error(code, message);
        self
    }

    /// Sets that error in place.
    pub fn set_input_unsupported_error(&mut self, code: i32, message: &str) {
        self.input_unsupported = Some((code, message.to_string()));
    }

    /// Validates everything against the final limits and builds the registry.
    pub fn build(self) -> Result<Resources, Failure> {
        let limits = self.limits.resolve()?;
        if let Some(k) = &self.event_key {
            if !(MIN_CURSOR_KEY_BYTES..=MAX_CURSOR_KEY_BYTES).contains(&k.len()) {
                return Err(Failure::config("event key must be 32 to 1024 bytes long"));
            }
        }
        let telemetry = Telemetry::new(
            self.observer,
            self.event_key
                .as_deref()
                .or(self.cursor_key.as_deref())
                .map(|k| k.as_slice()),
        );
        CacheHints::check_ttl(self.cache.ttl_ms).map_err(Failure::config)?;
        for b in &self.bindings {
            if let Some(h) = b.cache_hints() {
                h.validate()?;
            }
        }
        let policy = self
            .policy
            .ok_or_else(|| Failure::config("a resource policy is required"))?;
        if self.notifications.resources_only() != self.notifications {
            return Err(Failure::config(
                "only resource notifications can be declared on a registry",
            ));
        }
        let input_unsupported = input_unsupported(self.input_unsupported)?;
        let (cursor_sealer, state_sealer) = sealers(self.cursor_key)?;
        let clock = self.clock.unwrap_or_else(|| Arc::new(system_clock_ms));
        let indexes = index_bindings(&self.bindings, self.prefixes, &limits)?;
        let resource_order = sorted_order(&self.bindings, indexes.resource_keys);
        let template_order = sorted_order(&self.bindings, indexes.template_keys);
        let content_hash = content_hash(&self.bindings, &resource_order, &template_order);
        Ok(Resources {
            bindings: Arc::new(self.bindings),
            exact: indexes.exact,
            index: indexes.templates,
            resource_order: Arc::new(resource_order),
            template_order: Arc::new(template_order),
            policy,
            limits,
            content_hash,
            cursor_sealer,
            state_sealer,
            clock,
            cache: self.cache,
            notifications: self.notifications,
            telemetry,
            input_unsupported,
        })
    }
}

/// The error a host chose for input-required reads on older revisions,
/// checked, or the default.
fn input_unsupported(chosen: Option<(i32, String)>) -> Result<(i32, String), Failure> {
    let Some((code, message)) = chosen else {
        return Ok((
            crate::input::INPUT_UNSUPPORTED_CODE,
            crate::input::INPUT_UNSUPPORTED_MESSAGE.to_string(),
        ));
    };
    check_input_unsupported_error(code, &message)?;
    Ok((code, message))
}

/// The rules of [`ResourcesBuilder::input_unsupported_error`].
pub(crate) fn check_input_unsupported_error(code: i32, message: &str) -> Result<(), Failure> {
    if (-32099..=-32020).contains(&code) {
        return Err(Failure::config(
            "input_unsupported_error code lies in -32099..=-32020, reserved for the MCP specification",
        ));
    }
    if message.is_empty() || message.len() > 256 || message.chars().any(char::is_control) {
        return Err(Failure::config(
            "input_unsupported_error message must be 1 to 256 bytes without control characters",
        ));
    }
    Ok(())
}

/// The cursor sealer and the request-state sealer (docs/BEHAVIOUR.md §18),
/// keyed from the host's cursor key (32 to 1024 bytes) or a random one,
/// each under its own HKDF label.
fn sealers(key: Option<Zeroizing<Vec<u8>>>) -> Result<(Sealer, Sealer), Failure> {
    let state = |k: &[u8]| Sealer::derived(k, crate::input::STATE_KEY_INFO);
    Ok(match key {
        Some(k) if k.len() < MIN_CURSOR_KEY_BYTES => {
            return Err(Failure::config("cursor key must be at least 32 bytes"))
        }
        Some(k) if k.len() > MAX_CURSOR_KEY_BYTES => {
            return Err(Failure::config("cursor key must be at most 1024 bytes"))
        }
        Some(k) => (Sealer::new(&k), state(&k)),
        None => {
            let mut k = Zeroizing::new([0u8; 32]);
            rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut *k);
            (Sealer::new(&*k), state(&*k))
        }
    })
}

/// The selection indexes of the bindings, and their sort keys.
struct Indexes {
    exact: ExactIndex,
    templates: TemplateIndex,
    resource_keys: Vec<(u64, u64, u32)>,
    template_keys: Vec<(u64, u64, u32)>,
}

/// One pass over the definitions indexes them and keys them for sorting
/// (definitions are scattered in memory; each is read once), refusing a
/// key over `max_uri_bytes`, a completer on an exact URI and duplicates.
fn index_bindings(
    bindings: &[ResourceBinding],
    [exact_prefix, template_prefix]: [CommonPrefix; 2],
    limits: &Limits,
) -> Result<Indexes, Failure> {
    let mut exact = ExactIndex::with_capacity(exact_prefix.count);
    // Indexed here rather than as each is pushed: the tables are made at
    // their final size once (growing them visited every record again, at
    // random), and each definition is at hand in this pass.
    let mut templates = TemplateIndex::with_capacity(template_prefix.count);
    let mut resource_keys = Vec::with_capacity(exact_prefix.count);
    let mut template_keys = Vec::with_capacity(template_prefix.count);
    for (i, b) in bindings.iter().enumerate() {
        // Definitions are scattered on the heap: fetch ahead, one level
        // per stage.
        if let Some(ahead) = bindings.get(i + 12) {
            prefetch(Arc::as_ptr(&ahead.definition).cast());
        }
        if let Some(ahead) = bindings.get(i + 6) {
            ahead.definition.prefetch_text();
        }
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
                if b.completer().is_some() {
                    return Err(Failure::config(
                        "a completer needs a uriTemplate definition",
                    ));
                }
                if !exact.insert(bindings, i) {
                    return Err(Failure::config("duplicate resource uri"));
                }
                let (high, low) = sort_radix(key, exact_prefix.len);
                resource_keys.push((high, low, i as u32));
            }
            Some(t) => {
                // Two templates of one shape (equal up to variable names)
                // match the same URIs, so every URI either matches would be
                // ambiguous forever: the index refuses the second, reported
                // in registration order.
                if let Err(other) = templates.insert(bindings, t, i) {
                    let same_text = bindings[other].definition.uri_or_template() == key;
                    return Err(Failure::config(if same_text {
                        "duplicate resource uriTemplate"
                    } else {
                        "duplicate resource uriTemplate: two templates differ only in \
                         their variable names, so they match the same URIs"
                    }));
                }
                let (high, low) = sort_radix(key, template_prefix.len);
                template_keys.push((high, low, i as u32));
            }
        }
    }
    Ok(Indexes {
        exact,
        templates,
        resource_keys,
        template_keys,
    })
}

/// The content hash: SHA-256 over the canonical descriptions in sorted
/// order (resources, then templates), each tagged and length-prefixed.
fn content_hash(
    bindings: &[ResourceBinding],
    resource_order: &[usize],
    template_order: &[usize],
) -> [u8; 32] {
    // Hashed in large chunks: one `update` per definition field costs more
    // than the hashing itself.
    let mut h = Sha256::new();
    let mut chunk: Vec<u8> = Vec::with_capacity(HASH_CHUNK + 1024);
    chunk.extend_from_slice(b"mcp-resources registry v1\n");
    for (tag, order) in [(b'R', resource_order), (b'T', template_order)] {
        for (k, &i) in order.iter().enumerate() {
            // Sorted order visits definitions all over the heap: ask for
            // each one's two cache lines ahead of time.
            if let Some(&ahead) = order.get(k + 16) {
                prefetch(Arc::as_ptr(&bindings[ahead].definition).cast());
            }
            if let Some(&ahead) = order.get(k + 8) {
                prefetch(bindings[ahead].definition.text.as_ptr());
            }
            // The length goes before the text: written once known.
            chunk.push(tag);
            let at = chunk.len();
            chunk.extend_from_slice(&[0; 8]);
            bindings[i].definition.write_canonical(&mut chunk);
            let len = (chunk.len() - at - 8) as u64;
            chunk[at..at + 8].copy_from_slice(&len.to_be_bytes());
            if chunk.len() >= HASH_CHUNK {
                h.update(&chunk);
                chunk.clear();
            }
        }
    }
    h.update(&chunk);
    h.finalize().into()
}

/// Bytes gathered before each update of the content hash.
const HASH_CHUNK: usize = 64 * 1024;

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
/// of its kind, as two big-endian integers, high half first (zero-padded:
/// identifiers hold no NUL byte, so a shorter key still orders first).
/// Two halves rather than one `u128`: a sort key of two `u64` and an index
/// is 24 bytes, where a `u128` (aligned to 16) makes it 32.
fn sort_radix(key: &str, common: usize) -> (u64, u64) {
    let mut word = [0u8; 16];
    let tail = &key.as_bytes()[common..];
    let n = tail.len().min(16);
    word[..n].copy_from_slice(&tail[..n]);
    let word = u128::from_be_bytes(word);
    ((word >> 64) as u64, word as u64)
}

/// Binding indices sorted by key, then name, from `(radix high, radix
/// low, index)` triples.
///
/// Every key is unique once duplicates are refused, so the order is total.
/// Registered identifiers often share a long prefix (`file:///project/…`):
/// the radix holds the sixteen bytes after the prefix common to all keys,
/// which settles most comparisons as plain integers; only runs with equal
/// radixes compare whole keys.
fn sorted_order(bindings: &[ResourceBinding], mut keyed: Vec<(u64, u64, u32)>) -> Vec<usize> {
    keyed.sort_unstable();
    let definition = |i: u32| &bindings[i as usize].definition;
    let mut start = 0;
    while start < keyed.len() {
        let radix = (keyed[start].0, keyed[start].1);
        let end = start
            + keyed[start..]
                .iter()
                .take_while(|k| (k.0, k.1) == radix)
                .count();
        if end - start > 1 {
            keyed[start..end].sort_unstable_by(|a, b| {
                let (a, b) = (definition(a.2), definition(b.2));
                a.uri_or_template()
                    .cmp(b.uri_or_template())
                    .then_with(|| a.name().cmp(b.name()))
            });
        }
        start = end;
    }
    keyed.into_iter().map(|(_, _, i)| i as usize).collect()
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
    content_hash: [u8; 32],
    cursor_sealer: Sealer,
    /// Seals the `requestState` of input-required reads.
    state_sealer: Sealer,
    clock: Clock,
    cache: RegistryCacheHints,
    notifications: NotificationTypes,
    /// The observer, the event hash key and the call metrics.
    telemetry: Telemetry,
    /// The JSON-RPC error of input-required reads on older revisions.
    input_unsupported: (i32, String),
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

    /// The resource change notifications the host declared it delivers
    /// ([`ResourcesBuilder::notifications`]).
    pub fn notification_support(&self) -> NotificationTypes {
        self.notifications
    }

    /// The call metrics of `method` with `outcome` (`None` = success,
    /// else the failure kind) since the registry was built
    /// (docs/BEHAVIOUR.md §19).
    pub fn metrics(&self, method: CallMethod, outcome: Option<FailureKind>) -> OutcomeMetrics {
        self.telemetry
            .metrics(method, outcome.map_or(0, |k| k as u32))
    }

    /// The keyed hash events give `bytes` (a URI, a scope key) under this
    /// registry's event hash key: how a host finds the events about a URI
    /// it knows (docs/BEHAVIOUR.md §19).
    pub fn event_hash(&self, bytes: &[u8]) -> EventHash {
        self.telemetry.hash(bytes)
    }

    /// The registry's observability (the call frame's hook).
    pub(crate) fn telemetry(&self) -> &Telemetry {
        &self.telemetry
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

    /// The content hash: SHA-256 of the canonical registered
    /// descriptions; identical registries agree.
    pub fn content_hash(&self) -> [u8; 32] {
        self.content_hash
    }

    /// Seals and opens this registry's list cursors.
    pub(crate) fn cursor_sealer(&self) -> &Sealer {
        &self.cursor_sealer
    }

    /// The content hash, borrowed.
    pub(crate) fn content_hash_ref(&self) -> &[u8; 32] {
        &self.content_hash
    }

    /// Seals and opens this registry's request states.
    pub(crate) fn state_sealer(&self) -> &Sealer {
        &self.state_sealer
    }

    /// The JSON-RPC code and message of a read that needs input on a
    /// revision without input-required results.
    pub(crate) fn input_unsupported_error(&self) -> (i32, &str) {
        (self.input_unsupported.0, &self.input_unsupported.1)
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
        self.select_matched(uri, |d, uri, captures| {
            ResourceMatch::selected(d.clone(), uri, captures)
        })
    }

    /// [`select`](Self::select) for an inline read: the match borrows the
    /// definition (no reference count is written, so reads of one binding
    /// on many threads share no cache line they write). The match must not
    /// outlive this registry; [`Resources::read`] drops it before returning.
    pub(crate) fn select_lent(&self, uri: &[u8]) -> Result<Selection<'_>, Failure> {
        self.select_matched(uri, |d, uri, captures| {
            // SAFETY: the definition's `Arc` is held by this registry's
            // bindings, which live as long as `&self`; the caller drops the
            // match before the borrow of `self` ends (see above).
            unsafe { ResourceMatch::lent(d, uri, captures) }
        })
    }

    fn select_matched(
        &self,
        uri: &[u8],
        make: impl Fn(&Arc<ResourceDefinition>, &str, Vec<(String, String)>) -> ResourceMatch,
    ) -> Result<Selection<'_>, Failure> {
        let (uri, parts) = validate_uri_parts(uri, self.limits.max_uri_bytes)
            .map_err(|e| e.into_request_failure())?;
        if let Some(i) = self.exact.get(&self.bindings, uri) {
            let binding = &self.bindings[i];
            return Ok(Selection {
                binding,
                matched: make(&binding.definition, uri, Vec::new()),
            });
        }
        let shape = RequestShape::from_parts(uri, parts);
        let mut found = [usize::MAX; 2];
        let n = self.index.find(&self.bindings, &shape, &mut found);
        match n {
            0 => Err(Failure::new(FailureKind::Unavailable)
                .caused_by(crate::error::CauseText("no registration matches".into()))),
            1 => {
                let binding = &self.bindings[found[0]];
                let template = binding.definition.template().expect("indexed templates");
                let raw = template.captures_in_path(shape.path);
                let mut captures = Vec::with_capacity(raw.len());
                for (name, raw) in template.name_iter().zip(raw) {
                    let value = decode_capture(raw).map_err(|e| Failure::request(e.message()))?;
                    captures.push((name.to_string(), value));
                }
                Ok(Selection {
                    binding,
                    matched: make(&binding.definition, uri, captures),
                })
            }
            _ => Err(Failure::request("ambiguous resource URI")),
        }
    }
}
