//! Bindings: a definition with the callbacks that resolve and read it.

use std::sync::Arc;

use crate::cache::CacheHints;
use crate::completer::ResourceCompleter;
use crate::definition::ResourceDefinition;
use crate::error::{CallbackError, Failure};
use crate::plan::{ResourceMatch, ResourcePayload, ResourceReadPlan, ResourceTarget};
use crate::scope::CallContext;

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

    /// Whether `resolve` is [`ResourceReadPlan::single_for`] of the match
    /// and nothing else (no host code: the C ABI's `mcpr_resolve_single`).
    /// The library then plans the read itself without calling `resolve`
    /// (the same plan, the same failures); a policy that decides plans
    /// ([`crate::ResourcePolicy::decides_plans`]) is then asked the first
    /// check's discovery and the plan's targets in one call. Default
    /// `false`.
    fn resolves_single(&self) -> bool {
        false
    }

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
///
/// 32 bytes: registries hold many, mostly without a completer or cache
/// hints, so those two live behind one optional box.
#[derive(Clone)]
pub struct ResourceBinding {
    pub(crate) definition: Arc<ResourceDefinition>,
    handler: Arc<dyn ResourceHandler>,
    extras: Option<Box<Extras>>,
}

/// What few bindings have: a completer and declared cache hints.
#[derive(Clone, Default)]
struct Extras {
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
            extras: None,
        }
    }

    fn extras_mut(&mut self) -> &mut Extras {
        self.extras.get_or_insert_with(Box::default)
    }

    /// Gives a template binding a completion callback (`completion/complete`,
    /// see [`crate::completion`]). Default: none (completion requests for
    /// the template answer an empty completion). A completer on an exact
    /// URI definition is refused by build (`invalid_configuration`).
    pub fn with_completer(mut self, completer: Arc<dyn ResourceCompleter>) -> Self {
        self.extras_mut().completer = Some(completer);
        self
    }

    /// The completion callback, if any.
    pub fn completer(&self) -> Option<&Arc<dyn ResourceCompleter>> {
        self.extras.as_ref()?.completer.as_ref()
    }

    /// Declares the binding's cache hints: the TTL of its read results and
    /// whether its content is the same for every caller (checked at build:
    /// a TTL above 2^53 - 1 is `invalid_configuration`). Without them the
    /// binding has the registry's TTL and is not caller-independent.
    pub fn with_cache_hints(mut self, hints: CacheHints) -> Self {
        self.extras_mut().cache = Some(hints);
        self
    }

    /// The declared cache hints, if any.
    #[inline]
    pub fn cache_hints(&self) -> Option<CacheHints> {
        self.extras.as_ref()?.cache
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

#[cfg(test)]
mod tests {
    use super::ResourceBinding;

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_binding_is_four_words() {
        assert_eq!(std::mem::size_of::<ResourceBinding>(), 32);
    }
}
