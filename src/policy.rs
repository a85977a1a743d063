//! The host's resource policy: discovery, visibility and read permission.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::definition::ResourceDefinition;
use crate::error::{CallbackError, CauseText};
use crate::plan::ResourceTarget;
use crate::scope::{CallContext, CallPhase};

/// The outcome of a visibility check for one target.
///
/// cbindgen:ignore
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Visibility {
    /// Whether the caller may know the target exists. Hidden targets are
    /// outside the selection and never reported.
    pub visible: bool,
    /// Whether an issue about this target may name its URI (when the URI is
    /// at most 256 bytes). Only the final visibility decision counts.
    pub disclose_issue_uri: bool,
}

/// cbindgen:ignore
impl Visibility {
    /// Visible, URI not disclosed in issues.
    pub const VISIBLE: Visibility = Visibility {
        visible: true,
        disclose_issue_uri: false,
    };
    /// Visible, URI disclosed in issues.
    pub const DISCLOSED: Visibility = Visibility {
        visible: true,
        disclose_issue_uri: true,
    };
    /// Hidden.
    pub const HIDDEN: Visibility = Visibility {
        visible: false,
        disclose_issue_uri: false,
    };
}

/// The host's policy. All three methods are required. They may be called
/// concurrently from many reads and listings on any thread, and should
/// honour the call context's cancellation and remaining time.
///
/// Return [`CallbackError::Unavailable`] to deny `discover` or `read`; any
/// other error from any method, and any error from `visibility`, fails the
/// whole call with kind `policy`.
pub trait ResourcePolicy: Send + Sync {
    /// May the caller discover this definition (reads and listings)?
    fn discover(
        &self,
        call: &CallContext,
        definition: &ResourceDefinition,
    ) -> Result<(), CallbackError>;

    /// Is this target visible to the caller, and may issues name its URI?
    fn visibility(
        &self,
        call: &CallContext,
        target: &ResourceTarget,
    ) -> Result<Visibility, CallbackError>;

    /// May the caller read this (visible) target?
    fn read(&self, call: &CallContext, target: &ResourceTarget) -> Result<(), CallbackError>;

    /// Whether `discover` returns `Ok(())` at once for every caller and
    /// definition, doing nothing else (true for [`AllowAll`]). A listing
    /// then reads the clock for its deadline every few candidates instead
    /// of between every two `discover` calls, since no host code runs in
    /// between. Default `false`: return `true` only for such a policy.
    fn discover_is_trivial(&self) -> bool {
        false
    }

    /// Whether the library should ask [`ResourcePolicy::decide_plan`]
    /// instead of the per-item methods in a read (its first check and its
    /// recheck) and in the root checks of an embedding or a subscription.
    /// Default `false`: the per-item methods are asked, one call per
    /// question. A policy whose every call is costly (one crossing into
    /// another language each) returns `true` and answers a whole plan in
    /// one call. The rules are the same either way (docs/BEHAVIOUR.md §5).
    fn decides_plans(&self) -> bool {
        false
    }

    /// The plan-level entry: every answer of one authorization step in one
    /// call, in the order the per-item methods would be asked: `discover`
    /// of `questions.definition` (when asked), then for the requested
    /// target (when asked) and every item in plan order its `visibility`
    /// and, when visible, its `read` permission. Asked only when
    /// [`ResourcePolicy::decides_plans`] is true; `call.phase()` says which
    /// step (the first check, the recheck, a subscription).
    ///
    /// The answers mean what the per-item methods' answers mean, and the
    /// library reads them exactly as it reads those, in that order, stopping
    /// where the per-item form stops (a denied or failed discovery, a
    /// hidden or denied requested target, a failure, an item asking for
    /// input in the first check): answers after that are never used, and an
    /// answer left out (`None`, or a missing item) that the library needs
    /// fails the call with kind `policy` (private cause "plan decision left
    /// out an answer"). A panic fails the call with kind `policy`.
    ///
    /// The default asks the per-item methods ([`decide_per_item`]).
    fn decide_plan(&self, call: &CallContext, questions: &PlanQuestions<'_>) -> PlanDecision {
        decide_per_item(self, call, questions)
    }
}

/// What one plan-level decision asks ([`ResourcePolicy::decide_plan`]).
///
/// cbindgen:ignore
#[derive(Debug, Clone, Copy)]
pub struct PlanQuestions<'a> {
    /// `Some`: first, may the caller discover this definition?
    pub definition: Option<&'a ResourceDefinition>,
    /// `Some`: the requested target's visibility, then (when visible) its
    /// read permission.
    pub requested: Option<&'a ResourceTarget>,
    /// Every planned item, in plan order (empty when the step asks about
    /// no item): each one's visibility, then (when visible) its read
    /// permission. A single-item plan whose item is the requested target
    /// lists it here too: the per-item form asks about it twice.
    pub items: &'a [ResourceTarget],
}

/// The answers about one target in a [`PlanDecision`].
///
/// cbindgen:ignore
#[derive(Debug)]
pub struct TargetDecision {
    /// What [`ResourcePolicy::visibility`] would answer.
    pub visibility: Result<Visibility, CallbackError>,
    /// What [`ResourcePolicy::read`] would answer; used only when visible
    /// (`None`: not decided).
    pub read: Option<Result<(), CallbackError>>,
}

/// The answers of one plan-level decision ([`ResourcePolicy::decide_plan`]).
///
/// cbindgen:ignore
#[derive(Debug, Default)]
pub struct PlanDecision {
    /// What [`ResourcePolicy::discover`] would answer (`None`: not decided).
    pub discover: Option<Result<(), CallbackError>>,
    /// The requested target's answers (`None`: not decided).
    pub requested: Option<TargetDecision>,
    /// The items' answers in plan order (shorter than the items asked
    /// about: the rest not decided).
    pub items: Vec<TargetDecision>,
}

/// One per-item method, its panic a failure named as the library names a
/// panicking callback's cause ("visibility panicked").
fn asked<T>(what: &str, f: impl FnOnce() -> Result<T, CallbackError>) -> Result<T, CallbackError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Err(CallbackError::Failed(Box::new(CauseText(format!(
            "{what} panicked"
        )))))
    })
}

/// One target's answers from the per-item methods: its visibility, then
/// (when visible) its read permission.
fn ask_target<P: ResourcePolicy + ?Sized>(
    policy: &P,
    call: &CallContext,
    t: &ResourceTarget,
) -> TargetDecision {
    let visibility = asked("visibility", || policy.visibility(call, t));
    let read = match &visibility {
        Ok(v) if v.visible => Some(asked("read permission", || policy.read(call, t))),
        _ => None,
    };
    TargetDecision { visibility, read }
}

/// The plan decision of the per-item methods: asks them in the library's
/// order and stops where the library stops reading answers, so that a
/// policy asked through this makes exactly the calls the per-item form
/// makes (the default of [`ResourcePolicy::decide_plan`]).
pub fn decide_per_item<P: ResourcePolicy + ?Sized>(
    policy: &P,
    call: &CallContext,
    questions: &PlanQuestions<'_>,
) -> PlanDecision {
    let mut out = PlanDecision::default();
    if let Some(d) = questions.definition {
        let r = asked("discover", || policy.discover(call, d));
        let stop = r.is_err();
        out.discover = Some(r);
        if stop {
            return out;
        }
    }
    if let Some(t) = questions.requested {
        let d = ask_target(policy, call, t);
        let stop = !matches!((&d.visibility, &d.read), (Ok(_), Some(Ok(()))));
        out.requested = Some(d);
        if stop {
            return out;
        }
    }
    let first_check = call.phase() == CallPhase::FirstCheck;
    for t in questions.items {
        let d = ask_target(policy, call, t);
        let stop = d.visibility.is_err()
            || match &d.read {
                Some(Err(CallbackError::Failed(_))) => true,
                Some(Err(CallbackError::InputRequired(_))) => first_check,
                _ => false,
            };
        out.items.push(d);
        if stop {
            break;
        }
    }
    out
}

/// A policy for resources every caller may see: every definition is
/// discoverable, every target visible and readable, and issues do not name
/// URIs. For public catalogues, examples and tests; a host with per-caller
/// access rules implements [`ResourcePolicy`] itself.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AllowAll;

impl ResourcePolicy for AllowAll {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        Ok(())
    }

    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(Visibility::VISIBLE)
    }

    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        Ok(())
    }

    fn discover_is_trivial(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn allow_all_allows_everything_and_discloses_nothing() {
        let call = CallContext::detached(Duration::from_secs(1));
        let def = ResourceDefinition::from_json(r#"{"uri":"x://a","name":"a"}"#).unwrap();
        let target = ResourceTarget::new("x://a", "", None).unwrap();
        assert!(AllowAll.discover(&call, &def).is_ok());
        let v = AllowAll.visibility(&call, &target).unwrap();
        assert!(v.visible && !v.disclose_issue_uri);
        assert!(AllowAll.read(&call, &target).is_ok());
    }

    #[test]
    fn only_allow_all_declares_a_trivial_discover() {
        struct Host;
        impl ResourcePolicy for Host {
            fn discover(
                &self,
                _: &CallContext,
                _: &ResourceDefinition,
            ) -> Result<(), CallbackError> {
                Err(CallbackError::Unavailable)
            }
            fn visibility(
                &self,
                _: &CallContext,
                _: &ResourceTarget,
            ) -> Result<Visibility, CallbackError> {
                Ok(Visibility::HIDDEN)
            }
            fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
                Ok(())
            }
        }
        assert!(AllowAll.discover_is_trivial());
        assert!(!Host.discover_is_trivial());
    }
}
