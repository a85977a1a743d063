//! Authorization before any body read (docs/BEHAVIOUR.md §5, steps 1-4):
//! discovery, resolve and plan validation, the requested target, and the
//! visibility and read permission of every planned item. Also the guarded
//! callback helpers shared by the other stages.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use crate::binding::ResourceHandler;
use crate::definition::ResourceDefinition;
use crate::error::{BoxError, CallbackError, CauseText, Failure, FailureKind};
use crate::identity::is_reserved_scheme;
use crate::input::InputRequired;
use crate::limits::Limits;
use crate::observe::{self, CallbackKind, DecisionRule};
use crate::plan::{ResourceMatch, ResourceReadPlan, ResourceTarget};
use crate::policy::{ResourcePolicy, Visibility};
use crate::report::IssueCode;
use crate::scope::{CallContext, RequestScope};

use super::{ItemState, ItemStates, Outcome, Step};

/// A callback that did not succeed.
pub(crate) enum CallbackFailure {
    /// Typed denial / not found.
    Unavailable,
    /// Operational failure with a private cause.
    Failed(BoxError),
    /// The callback panicked.
    Panicked,
    /// The callback asked for input first (only [`guarded_input`] keeps
    /// it; [`guarded`] reads it as [`CallbackFailure::Unavailable`]).
    InputRequired(Box<InputRequired>),
}

impl CallbackFailure {
    pub(crate) fn into_cause(self, what: &str) -> BoxError {
        match self {
            CallbackFailure::Failed(e) => e,
            CallbackFailure::Unavailable => Box::new(CauseText(format!("{what} unavailable"))),
            CallbackFailure::Panicked => Box::new(CauseText(format!("{what} panicked"))),
            CallbackFailure::InputRequired(_) => {
                Box::new(CauseText(format!("{what} asked for input")))
            }
        }
    }
}

impl From<CallbackError> for CallbackFailure {
    fn from(e: CallbackError) -> Self {
        match e {
            CallbackError::Unavailable => CallbackFailure::Unavailable,
            CallbackError::Failed(e) => CallbackFailure::Failed(e),
            CallbackError::InputRequired(i) => CallbackFailure::InputRequired(i),
        }
    }
}

/// Runs a host callback, turning a panic into [`CallbackFailure::Panicked`].
/// A callback that asks for input where a read cannot ask
/// (docs/BEHAVIOUR.md §18: every callback but the first check's policy
/// `read` and body reads) has answered *unavailable*: a denial, never an
/// answer that tells a caller more than a denial does.
#[inline]
pub(crate) fn guarded<T>(
    f: impl FnOnce() -> Result<T, CallbackError>,
) -> Result<T, CallbackFailure> {
    match guarded_input(f) {
        Err(CallbackFailure::InputRequired(_)) => Err(CallbackFailure::Unavailable),
        other => other,
    }
}

/// [`guarded`] for the callbacks that may ask for input (the first check's
/// policy `read`, body reads): [`CallbackFailure::InputRequired`] is kept.
#[inline]
pub(crate) fn guarded_input<T>(
    f: impl FnOnce() -> Result<T, CallbackError>,
) -> Result<T, CallbackFailure> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(e.into()),
        Err(_) => Err(CallbackFailure::Panicked),
    }
}

/// After a callback: fails with `canceled` when the caller cancelled (or
/// the call has returned: a job its call gave up on calls no further
/// callback), and, when the callback did not succeed, with
/// `deadline_exceeded` when the whole-read deadline passed (so a callback
/// that gave up because of the deadline is not mistaken for a policy or
/// plan failure). The deadline of
/// successful callbacks is checked at phase boundaries with
/// [`check_scope`], which keeps clock reads off the hot path.
pub(crate) fn settle(scope: &RequestScope, failed: bool) -> Result<(), Failure> {
    if scope.is_over() {
        return Err(Failure::new(FailureKind::Canceled));
    }
    if failed && scope.is_expired() {
        return Err(Failure::new(FailureKind::DeadlineExceeded));
    }
    Ok(())
}

/// Fails with `canceled` when the caller cancelled, `deadline_exceeded`
/// when the whole-read deadline passed ([`RequestScope::check`]).
#[inline]
pub(super) fn check_scope(scope: &RequestScope) -> Result<(), Failure> {
    scope.check()
}

/// [`check_scope`] with the current time already read.
#[inline]
pub(super) fn check_scope_at(scope: &RequestScope, now: Instant) -> Result<(), Failure> {
    scope.check_at(now)
}

/// Records, for an observed call, that a callback's answer decided the
/// call's root and fails it with `kind` (docs/BEHAVIOUR.md §19); none in
/// a subscription decision.
#[inline]
fn root(call: &CallContext, rule: DecisionRule, kind: FailureKind) {
    if let Some(r) = call.recorder() {
        // A subscription decision gives no decision event.
        if let Some(phase) = call.phase().decision_phase() {
            r.root_decided(rule, Some(phase), kind);
        }
    }
}

fn policy_failure(e: CallbackFailure, what: &str) -> Failure {
    Failure::new(FailureKind::Policy).caused_by(e.into_cause(what))
}

fn denied(what: &str) -> Failure {
    Failure::new(FailureKind::Unavailable).caused_by(CauseText(format!("{what} denied")))
}

/// Why a root check stopped: a root denial (`Denied`, naming the check:
/// the private cause of the read's failure, made only when a read asks for
/// it), or a failure of the call. The subscription decisions
/// (`crate::subscription`) read a denial as "not honored" without making
/// the failure. One level of `Result`, so that the read's plan moves
/// through the root checks as it moves through a plain `?`.
#[derive(Debug)]
pub(crate) enum RootStop {
    /// A root denial: the same public answer as not found.
    Denied(&'static str),
    /// Any other failure (policy, plan, cancellation, deadline).
    Failed(Failure),
}

impl From<Failure> for RootStop {
    #[inline]
    fn from(f: Failure) -> RootStop {
        RootStop::Failed(f)
    }
}

/// The root denial as the read reports it: `unavailable`, the same public
/// error as not found, with "<check> denied" as its cause.
impl From<RootStop> for Failure {
    #[inline]
    fn from(s: RootStop) -> Failure {
        match s {
            RootStop::Denied(what) => denied(what),
            RootStop::Failed(f) => f,
        }
    }
}

/// `discover(definition)`: a denial is a root denial (`unavailable`, the
/// same public error as not-found); other errors are `policy`. `call` is
/// the phase's call context (`scope.call_in(phase)`), made once per phase
/// and shared by its callbacks: they would all get equal contexts anyway.
pub(crate) fn discover(
    policy: &dyn ResourcePolicy,
    scope: &RequestScope,
    definition: &ResourceDefinition,
    call: &CallContext,
) -> Result<(), Failure> {
    Ok(discovered(policy, scope, definition, call)?)
}

/// [`discover`] with the denial as a value: [`RootStop::Denied`] when
/// `discover` answered *unavailable*.
#[inline]
pub(super) fn discovered(
    policy: &dyn ResourcePolicy,
    scope: &RequestScope,
    definition: &ResourceDefinition,
    call: &CallContext,
) -> Result<(), RootStop> {
    let r = observe::timed(call.recorder(), CallbackKind::Discover, || {
        guarded(|| policy.discover(call, definition))
    });
    settle(scope, r.is_err())?;
    discovery(r, call)
}

/// [`discovered`] for a loop over many definitions that checks the
/// deadline itself between calls (a list change): a denial reads no clock;
/// a failure still does, so that a callback that gave up at the deadline is
/// not taken for a policy failure.
pub(crate) fn discovered_among(
    policy: &dyn ResourcePolicy,
    scope: &RequestScope,
    definition: &ResourceDefinition,
    call: &CallContext,
) -> Result<(), RootStop> {
    let r = observe::timed(call.recorder(), CallbackKind::Discover, || {
        guarded(|| policy.discover(call, definition))
    });
    settle(
        scope,
        matches!(
            r,
            Err(CallbackFailure::Failed(_) | CallbackFailure::Panicked)
        ),
    )?;
    discovery(r, call)
}

/// What a `discover` answer means: allowed, denied (a root denial), or a
/// policy failure.
#[inline]
fn discovery(r: Result<(), CallbackFailure>, call: &CallContext) -> Result<(), RootStop> {
    match r {
        Ok(()) => Ok(()),
        Err(CallbackFailure::Unavailable) => {
            root(call, DecisionRule::Hidden, FailureKind::Unavailable);
            Err(RootStop::Denied("discovery"))
        }
        Err(e) => {
            root(call, DecisionRule::Failed, FailureKind::Policy);
            Err(RootStop::Failed(policy_failure(e, "discover")))
        }
    }
}

/// `visibility(target)`: every error (a typed denial included) is `policy`.
pub(super) fn visibility(
    policy: &dyn ResourcePolicy,
    scope: &RequestScope,
    target: &ResourceTarget,
    call: &CallContext,
) -> Result<Visibility, Failure> {
    let r = observe::timed(call.recorder(), CallbackKind::Visibility, || {
        guarded(|| policy.visibility(call, target))
    });
    settle(scope, r.is_err())?;
    r.map_err(|e| {
        root(call, DecisionRule::Failed, FailureKind::Policy);
        policy_failure(e, "visibility")
    })
}

/// Policy `read(target)`: `Ok(false)` for a denial; other errors are `policy`.
pub(super) fn permitted(
    policy: &dyn ResourcePolicy,
    scope: &RequestScope,
    target: &ResourceTarget,
    call: &CallContext,
) -> Result<bool, Failure> {
    let r = observe::timed(call.recorder(), CallbackKind::Permission, || {
        guarded(|| policy.read(call, target))
    });
    settle(scope, r.is_err())?;
    match r {
        Ok(()) => Ok(true),
        Err(CallbackFailure::Unavailable) => Ok(false),
        Err(e) => {
            root(call, DecisionRule::Failed, FailureKind::Policy);
            Err(policy_failure(e, "read permission"))
        }
    }
}

/// The first check's policy `read` of a visible target.
pub(super) enum Permission {
    Granted,
    Denied,
    /// The policy asked for input first (docs/BEHAVIOUR.md §18).
    Input(Box<InputRequired>),
}

/// Policy `read(target)` at the first check, where the policy may ask for
/// input; other errors are `policy`.
fn permission(
    policy: &dyn ResourcePolicy,
    scope: &RequestScope,
    target: &ResourceTarget,
    call: &CallContext,
) -> Result<Permission, Failure> {
    let r = observe::timed(call.recorder(), CallbackKind::Permission, || {
        guarded_input(|| policy.read(call, target))
    });
    settle(scope, r.is_err())?;
    match r {
        Ok(()) => Ok(Permission::Granted),
        Err(CallbackFailure::Unavailable) => Ok(Permission::Denied),
        Err(CallbackFailure::InputRequired(i)) => Ok(Permission::Input(i)),
        Err(e) => {
            root(call, DecisionRule::Failed, FailureKind::Policy);
            Err(policy_failure(e, "read permission"))
        }
    }
}

/// The plan of a handler whose `resolve` is the match itself
/// ([`ResourceHandler::resolves_single`]), made without calling it, when it
/// is valid; `None` otherwise (then [`resolved`] calls `resolve`, which
/// fails as it must). Counted as a `resolve` callback for the observer.
#[inline]
pub(super) fn planned_single(
    handler: &dyn ResourceHandler,
    matched: &ResourceMatch,
    limits: &Limits,
    call: &CallContext,
) -> Option<ResourceReadPlan> {
    if !handler.resolves_single() {
        return None;
    }
    let plan = ResourceReadPlan::single_for(matched).ok()?;
    validate_plan(&plan, limits).ok()?;
    observe::timed(call.recorder(), CallbackKind::Resolve, || ());
    Some(plan)
}

/// `resolve(match)` and plan validation: `Unavailable` is a root denial
/// (the denial as a value); any other error, a panic, or an invalid plan is
/// `invalid_plan`.
#[inline]
pub(super) fn resolved(
    handler: &dyn ResourceHandler,
    scope: &RequestScope,
    matched: &ResourceMatch,
    limits: &Limits,
    call: &CallContext,
) -> Result<ResourceReadPlan, RootStop> {
    let r = observe::timed(call.recorder(), CallbackKind::Resolve, || {
        guarded(|| handler.resolve(call, matched))
    });
    settle(scope, r.is_err())?;
    let plan = match r {
        Ok(plan) => plan,
        Err(CallbackFailure::Unavailable) => {
            root(call, DecisionRule::Denied, FailureKind::Unavailable);
            return Err(RootStop::Denied("resolve"));
        }
        Err(e) => {
            root(call, DecisionRule::Failed, FailureKind::InvalidPlan);
            return Err(RootStop::Failed(
                Failure::new(FailureKind::InvalidPlan).caused_by(e.into_cause("resolve")),
            ));
        }
    };
    validate_plan(&plan, limits).inspect_err(|_| {
        root(call, DecisionRule::Failed, FailureKind::InvalidPlan);
    })?;
    Ok(plan)
}

/// Checks `max_plan_targets` and, on every target URI, `max_uri_bytes` and
/// the reserved warning scheme.
pub(super) fn validate_plan(plan: &ResourceReadPlan, limits: &Limits) -> Result<(), Failure> {
    if plan.items().len() > limits.max_plan_targets {
        return Err(Failure::with_message(
            FailureKind::InvalidPlan,
            "read plan has too many targets",
        ));
    }
    let requested = plan.requested();
    // A single-item plan lends its requested target as its item: checked once.
    let items = plan.items();
    let items = match items {
        [only] if std::ptr::eq(only, requested) => &[],
        _ => items,
    };
    for t in std::iter::once(requested).chain(items) {
        if t.uri().len() > limits.max_uri_bytes {
            return Err(Failure::with_message(
                FailureKind::InvalidPlan,
                "read plan target URI too long",
            ));
        }
        if is_reserved_scheme(t.uri()) {
            return Err(Failure::with_message(
                FailureKind::InvalidPlan,
                "read plan target uses the reserved scheme",
            ));
        }
    }
    Ok(())
}

/// The first check of the requested target: visible (else a root
/// denial), then readable (else a root denial) or asking for input, which
/// is returned. Only after discovery and visibility passed can a read
/// answer "input required": hidden, undiscoverable and unregistered stay
/// one not found.
pub(super) fn requested_first(
    policy: &dyn ResourcePolicy,
    scope: &RequestScope,
    target: &ResourceTarget,
    call: &CallContext,
) -> Result<Option<Box<InputRequired>>, Failure> {
    if !visibility(policy, scope, target, call)?.visible {
        root(call, DecisionRule::Hidden, FailureKind::Unavailable);
        return Err(denied("requested target visibility"));
    }
    match permission(policy, scope, target, call)? {
        Permission::Granted => Ok(None),
        Permission::Denied => {
            root(call, DecisionRule::Denied, FailureKind::Unavailable);
            Err(denied("requested target read permission"))
        }
        Permission::Input(i) => Ok(Some(i)),
    }
}

/// The requested target must be visible and readable (else a root denial).
pub(super) fn requested(
    policy: &dyn ResourcePolicy,
    scope: &RequestScope,
    target: &ResourceTarget,
    call: &CallContext,
) -> Result<Visibility, Failure> {
    Ok(requested_allowed(policy, scope, target, call)?)
}

/// [`requested`] with the denial as a value.
#[inline]
pub(super) fn requested_allowed(
    policy: &dyn ResourcePolicy,
    scope: &RequestScope,
    target: &ResourceTarget,
    call: &CallContext,
) -> Result<Visibility, RootStop> {
    let vis = visibility(policy, scope, target, call)?;
    if !vis.visible {
        root(call, DecisionRule::Hidden, FailureKind::Unavailable);
        return Err(RootStop::Denied("requested target visibility"));
    }
    if !permitted(policy, scope, target, call)? {
        let rule = if call.phase() == crate::scope::CallPhase::Recheck {
            DecisionRule::Revoked
        } else {
            DecisionRule::Denied
        };
        root(call, rule, FailureKind::Unavailable);
        return Err(RootStop::Denied("requested target read permission"));
    }
    Ok(vis)
}

/// Visibility and read permission of the whole plan, before any body is
/// read: hidden items leave the selection silently; visible items denied
/// read access become `unavailable` issues. Also returns when the scope
/// was last checked (after the last callback), for the first body read.
/// The state of a single item is kept inline (no list allocated). When a
/// visible item's permission asks for input, the check stops there: the
/// request is returned, and the items not checked are left out (the read
/// answers "input required" and reads nothing).
pub(super) fn items(
    policy: &dyn ResourcePolicy,
    scope: &RequestScope,
    targets: &[ResourceTarget],
    call: &CallContext,
) -> Result<(ItemStates, Instant, Option<Box<InputRequired>>), Failure> {
    let mut asked = None;
    let states = if let [t] = targets {
        let (state, a) = first_check(policy, scope, t, call)?;
        asked = a;
        ItemStates::One([state])
    } else {
        let mut states = Vec::with_capacity(targets.len());
        for (i, t) in targets.iter().enumerate() {
            if i % 8 == 7 {
                check_scope(scope)?;
            }
            let (state, a) = first_check(policy, scope, t, call)?;
            states.push(state);
            if a.is_some() {
                asked = a;
                states.resize_with(targets.len(), unchecked);
                break;
            }
        }
        ItemStates::Many(states)
    };
    let now = Instant::now();
    check_scope_at(scope, now)?;
    Ok((states, now, asked))
}

/// The state of an item the first check did not reach (a read that asks
/// for input first): outside the selection.
pub(super) fn unchecked() -> ItemState {
    ItemState {
        first_visible: false,
        final_visibility: Visibility::default(),
        outcome: Outcome::Hidden,
        step: Step::FirstCheck,
    }
}

/// The first check of one item: its visibility, then, when visible, its
/// read permission (which may ask for input).
fn first_check(
    policy: &dyn ResourcePolicy,
    scope: &RequestScope,
    t: &ResourceTarget,
    call: &CallContext,
) -> Result<(ItemState, Option<Box<InputRequired>>), Failure> {
    let vis = visibility(policy, scope, t, call)?;
    let mut asked = None;
    let outcome = if !vis.visible {
        Outcome::Hidden
    } else {
        match permission(policy, scope, t, call)? {
            Permission::Granted => Outcome::Pending,
            Permission::Denied => Outcome::Issue(
                IssueCode::Unavailable,
                Some(Box::new(CauseText("item read permission denied".into()))),
            ),
            Permission::Input(i) => {
                asked = Some(i);
                Outcome::Hidden
            }
        }
    };
    let state = ItemState {
        first_visible: vis.visible,
        final_visibility: vis,
        outcome,
        step: Step::FirstCheck,
    };
    Ok((state, asked))
}
