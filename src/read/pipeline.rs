//! The steps of the read pipeline, written once (docs/BEHAVIOUR.md §5, §7
//! and §8):
//!
//! 1. [`root`] and [`Pipeline::authorize`]: the root checks (discovery,
//!    `resolve` and plan validation, then the requested target's
//!    visibility and read permission), then the visibility and read
//!    permission of every item, before any body is read. A read's drivers
//!    run [`plan`] (the root checks before the requested target) and let
//!    [`Pipeline::authorize`] check the requested target, where the policy
//!    may ask for input (docs/BEHAVIOUR.md §18). [`root`] alone is
//!    what a `resource_link` in a tool result needs (`probe.rs`): a read of
//!    the URI would not fail at its root, and nothing is read;
//! 2. [`Pipeline::next_read`]: the next body read admission allows, in plan
//!    order (items after admission stopped are `budget_exceeded`; a body
//!    read the driver refuses, on a saturated executor, is `read_failed`);
//! 3. [`Pipeline::settle`]: that body read's outcome (`timeout` past its
//!    item deadline, else admitted or an issue);
//! 4. [`Pipeline::finish`]: the recheck and assembly.
//!
//! Two drivers run them, and add nothing but how callbacks are called: the
//! inline loop of [`Resources::read`](crate::Resources::read) calls every
//! callback on the calling thread; `pooled.rs` runs the same steps as jobs
//! on an executor and adds only the hand-over between jobs (a body read
//! that passes its item deadline is abandoned, [`Pipeline::abandon`], and
//! the pipeline continues on a new job). A property test and the
//! `read_pipeline` fuzz target hold the two drivers to byte-identical
//! results.
//!
//! The root checks are also the whole question of a subscription
//! (docs/BEHAVIOUR.md §15): `crate::subscription` asks [`root`] itself,
//! in its own call phase, and reads a denial as "not honored".

use std::time::Instant;

use crate::binding::ResourceHandler;
use crate::definition::ResourceDefinition;
use crate::error::{CauseText, Failure, FailureKind};
use crate::input::{self, InputRequired};
use crate::limits::Limits;
use crate::plan::{ResourceMatch, ResourcePayload, ResourceReadPlan, ResourceTarget};
use crate::policy::{PlanQuestions, ResourcePolicy};
use crate::report::IssueCode;
use crate::scope::{CallContext, CallPhase, RequestScope};

use super::admit::{self, Budget};
use super::assemble::{self, Shape};
use super::authorize::{self, check_scope_at, CallbackFailure, RootStop};
use super::replay::Replay;
use super::{decisions, recheck, ItemStates, Outcome, ResourceBundle, Step};

/// The private cause of a body read failed at once because the hung bound
/// was reached and a reader of its binding is hung (see `pooled.rs`).
pub(crate) const BODY_READ_SATURATED: &str =
    "executor saturated: max_hung workers are hung and a reader of this binding is one of them";

/// The state of a read between its steps: after planning and
/// authorization, through the body reads.
pub(super) struct Pipeline {
    states: ItemStates,
    budget: Budget,
    /// The next item to consider.
    next: usize,
    /// When the scope was last checked with no callback run since (after
    /// the last authorization callback): the first body read starts from
    /// it instead of reading the clock again.
    fresh: Option<Instant>,
    /// What the first check's policy asked for: the read reads nothing and
    /// answers "input required" (docs/BEHAVIOUR.md §18).
    asked: Option<Box<InputRequired>>,
}

/// A body read the pipeline asks for: the item's index in the plan and
/// the body read's deadline.
#[derive(Clone, Copy)]
pub(super) struct BodyRead {
    pub index: usize,
    pub deadline: Instant,
}

/// Step 1, first half, the root checks (BEHAVIOUR §5 steps 1 to 3), with
/// a root denial as a value: `discover(definition)`, then `resolve(matched)`
/// and the plan's validation ([`plan`]), then the requested target's
/// visibility and read permission; no body is read. `call` enters `check`
/// for the policy callbacks and [`CallPhase::Resolve`] for `resolve`, and
/// is left in `check`. The one implementation of these checks: a
/// `resource_link` in a tool result is given exactly when it passes
/// (`probe.rs`, in [`CallPhase::FirstCheck`]); a subscription is honored
/// exactly when it passes (`crate::subscription`, in
/// [`CallPhase::Subscription`], docs/BEHAVIOUR.md §15). A denial is
/// [`RootStop::Denied`] (`?` makes it the read's `unavailable` failure, the
/// same public error as not found), a bad plan `invalid_plan`, a policy
/// error `policy`. Here a policy asking for input counts as a denial: only
/// a read can answer "input required", and its drivers run [`plan`] and
/// then [`Pipeline::authorize`], whose first step is this requested-target
/// check with the input answer kept (docs/BEHAVIOUR.md §18). A policy that
/// decides plans answers these checks in one call ([`plan_decided`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn root(
    policy: &dyn ResourcePolicy,
    handler: &dyn ResourceHandler,
    definition: &ResourceDefinition,
    matched: &ResourceMatch,
    scope: &RequestScope,
    limits: &Limits,
    call: &mut CallContext,
    check: CallPhase,
) -> Result<ResourceReadPlan, RootStop> {
    call.enter_phase(check);
    if policy.decides_plans() {
        let (plan, replay) = plan_decided(
            policy, handler, definition, matched, scope, limits, call, check, false,
        )?;
        authorize::requested_allowed(&*replay, scope, plan.requested(), call)?;
        return Ok(plan);
    }
    let plan = plan_in(
        policy, handler, definition, matched, scope, limits, call, check,
    )?;
    authorize::requested_allowed(policy, scope, plan.requested(), call)?;
    Ok(plan)
}

/// The part of [`root`] before the requested target's check, as a read
/// runs it: discovery, then `resolve` and plan validation; `call` is left
/// in the first check. A root denial is the read's `unavailable` failure.
/// With `DECIDED` (for a policy that decides plans, compiled apart from the
/// per-item path), also the first check's answers about the plan's
/// targets, in `replay`, for [`Pipeline::authorize`] (see [`plan_decided`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn plan<const DECIDED: bool>(
    policy: &dyn ResourcePolicy,
    handler: &dyn ResourceHandler,
    definition: &ResourceDefinition,
    matched: &ResourceMatch,
    scope: &RequestScope,
    limits: &Limits,
    call: &mut CallContext,
    replay: &mut Option<Box<Replay>>,
) -> Result<ResourceReadPlan, Failure> {
    let check = CallPhase::FirstCheck;
    if DECIDED {
        call.enter_phase(check);
        let (plan, r) = plan_decided(
            policy, handler, definition, matched, scope, limits, call, check, true,
        )?;
        *replay = Some(r);
        return Ok(plan);
    }
    Ok(plan_in(
        policy, handler, definition, matched, scope, limits, call, check,
    )?)
}

/// [`plan`] with the denial as a value, its policy callbacks in `check`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn plan_in(
    policy: &dyn ResourcePolicy,
    handler: &dyn ResourceHandler,
    definition: &ResourceDefinition,
    matched: &ResourceMatch,
    scope: &RequestScope,
    limits: &Limits,
    call: &mut CallContext,
    check: CallPhase,
) -> Result<ResourceReadPlan, RootStop> {
    call.enter_phase(check);
    authorize::discovered(policy, scope, definition, call)?;
    call.enter_phase(CallPhase::Resolve);
    let plan = authorize::resolved(handler, scope, matched, limits, call)?;
    authorize::check_scope(scope)?;
    call.enter_phase(check);
    Ok(plan)
}

/// [`plan_in`] for a policy that decides plans
/// ([`ResourcePolicy::decides_plans`]), `call` already in `check`: it is asked in as few calls as
/// the order of §5 allows, and its answers are read by the same steps
/// ([`Replay`]). When the plan is the match itself
/// ([`ResourceHandler::resolves_single`], no host code), one call answers
/// discovery and the requested target (and, with `items`, every item);
/// otherwise one call answers discovery before `resolve`, and one the
/// targets after it. The returned [`Replay`] holds the answers the caller
/// asks next (the requested target, then the items). Out of line: the
/// per-item path stays as it was.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn plan_decided(
    policy: &dyn ResourcePolicy,
    handler: &dyn ResourceHandler,
    definition: &ResourceDefinition,
    matched: &ResourceMatch,
    scope: &RequestScope,
    limits: &Limits,
    call: &mut CallContext,
    check: CallPhase,
    items: bool,
) -> Result<(ResourceReadPlan, Box<Replay>), RootStop> {
    if let Some(plan) = authorize::planned_single(handler, matched, limits, call) {
        let replay = Replay::decide(
            policy,
            call,
            &PlanQuestions {
                definition: Some(definition),
                requested: Some(plan.requested()),
                items: if items { plan.items() } else { &[] },
            },
        );
        authorize::discovered(&replay, scope, definition, call)?;
        authorize::check_scope(scope)?;
        return Ok((plan, Box::new(replay)));
    }
    let discovery = Replay::decide(
        policy,
        call,
        &PlanQuestions {
            definition: Some(definition),
            requested: None,
            items: &[],
        },
    );
    authorize::discovered(&discovery, scope, definition, call)?;
    call.enter_phase(CallPhase::Resolve);
    let plan = authorize::resolved(handler, scope, matched, limits, call)?;
    authorize::check_scope(scope)?;
    call.enter_phase(check);
    let replay = Replay::decide(
        policy,
        call,
        &PlanQuestions {
            definition: None,
            requested: Some(plan.requested()),
            items: if items { plan.items() } else { &[] },
        },
    );
    Ok((plan, Box::new(replay)))
}

/// The recheck's answers of a policy that decides plans, in one call.
#[cold]
#[inline(never)]
fn recheck_decided(
    policy: &dyn ResourcePolicy,
    definition: &ResourceDefinition,
    plan: &ResourceReadPlan,
    call: &CallContext,
) -> Replay {
    Replay::decide(
        policy,
        call,
        &PlanQuestions {
            definition: Some(definition),
            requested: Some(plan.requested()),
            items: plan.items(),
        },
    )
}

impl Pipeline {
    /// Step 1, second half: the requested target's check of [`root`]
    /// (where the policy may ask for input: the read then reads nothing),
    /// then the visibility and read permission of every item of `plan`
    /// (right after [`plan`], with `call` in the phase it left), before any
    /// body is read. `shape` sets the admission budget (what the host's
    /// result `_meta` takes from it, whether items carry their `_meta`).
    #[inline(always)]
    pub(super) fn authorize(
        policy: &dyn ResourcePolicy,
        plan: &ResourceReadPlan,
        scope: &RequestScope,
        limits: &Limits,
        shape: &Shape,
        call: &CallContext,
    ) -> Result<Pipeline, Failure> {
        // Still in the first check, where `plan` left it.
        let budget = Budget::new(limits, shape);
        if let Some(asked) = authorize::requested_first(policy, scope, plan.requested(), call)? {
            let states = (0..plan.items().len())
                .map(|_| authorize::unchecked())
                .collect();
            return Ok(Pipeline {
                states: ItemStates::Many(states),
                budget,
                next: 0,
                fresh: None,
                asked: Some(asked),
            });
        }
        let (states, checked_at, asked) = authorize::items(policy, scope, plan.items(), call)?;
        Ok(Pipeline {
            states,
            budget,
            next: 0,
            fresh: Some(checked_at),
            asked,
        })
    }

    /// Step 2: the next body read, in plan order, or `None` when no pending
    /// item is left. Items admission stopped before become
    /// `budget_exceeded`; when `refused()` says so (a saturated executor),
    /// the item becomes `read_failed` without a read. The scope is checked
    /// before every body read.
    #[inline]
    pub(super) fn next_read(
        &mut self,
        scope: &RequestScope,
        targets: &[ResourceTarget],
        limits: &Limits,
        refused: impl Fn() -> bool,
    ) -> Result<Option<BodyRead>, Failure> {
        if self.asked.is_some() {
            return Ok(None);
        }
        while self.next < targets.len() {
            let index = self.next;
            self.next += 1;
            let state = &mut self.states[index];
            if !matches!(state.outcome, Outcome::Pending) {
                continue;
            }
            if self.budget.stops_before_read(limits) {
                state.outcome = admit::not_attempted();
                state.step = Step::BodyRead;
                continue;
            }
            let now = match self.fresh.take() {
                Some(t) => t,
                None => Instant::now(),
            };
            check_scope_at(scope, now)?;
            if refused() {
                state.outcome =
                    admit::issue(IssueCode::ReadFailed, admit::cause(BODY_READ_SATURATED));
                state.step = Step::BodyRead;
                continue;
            }
            return Ok(Some(BodyRead {
                index,
                deadline: admit::item_deadline(scope, now, limits),
            }));
        }
        Ok(None)
    }

    /// Step 3: the outcome of the body read `read` of `target`, which
    /// returned `result`: the scope is checked; past its item deadline the
    /// item is `timeout`, else admission decides.
    #[inline]
    pub(super) fn settle(
        &mut self,
        read: BodyRead,
        result: Result<ResourcePayload, CallbackFailure>,
        handler: &dyn ResourceHandler,
        target: &ResourceTarget,
        scope: &RequestScope,
        limits: &Limits,
    ) -> Result<(), Failure> {
        let now = Instant::now();
        check_scope_at(scope, now)?;
        let state = &mut self.states[read.index];
        state.step = Step::BodyRead;
        state.outcome = if now >= read.deadline {
            admit::timed_out()
        } else {
            admit::settle(handler, target, result, limits, &mut self.budget)
        };
        Ok(())
    }

    /// A body read abandoned while it ran (its item deadline passed): the
    /// item is `timeout`; the pipeline continues with the next item.
    pub(super) fn abandon(&mut self, read: BodyRead) {
        let state = &mut self.states[read.index];
        state.step = Step::BodyRead;
        state.outcome = admit::timed_out();
    }

    /// Step 4: the recheck (discovery, the requested target, every item)
    /// and assembly. `call` is put in the recheck phase. A read whose first
    /// check asked for input read nothing: it asks, without a recheck. A
    /// read whose body reads asked rechecks as every read does, and asks
    /// when an asking item is still visible and permitted (their requests
    /// merged in plan order); otherwise the asking items are hidden or
    /// revoked like any item, and the read is assembled.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn finish<const DECIDED: bool>(
        mut self,
        policy: &dyn ResourcePolicy,
        definition: &ResourceDefinition,
        plan: &ResourceReadPlan,
        scope: &RequestScope,
        limits: &Limits,
        shape: &Shape,
        call: &mut CallContext,
    ) -> Result<ResourceBundle, Failure> {
        if let Some(asked) = self.asked.take() {
            return Ok(ResourceBundle::asking(*asked, shape.protocol_revision));
        }
        call.enter_phase(CallPhase::Recheck);
        // A policy that decides plans answers the whole recheck in one call.
        let replay = DECIDED.then(|| recheck_decided(policy, definition, plan, call));
        let policy = replay.as_ref().map_or(policy, |r| r as &dyn ResourcePolicy);
        let requested = recheck::recheck(
            policy,
            scope,
            definition,
            plan.requested(),
            plan.items(),
            &mut self.states,
            call,
        )?;
        if let Some(asked) = asked_by_body_reads(&mut self.states)? {
            return Ok(ResourceBundle::asking(asked, shape.protocol_revision));
        }
        if let Some(r) = call.recorder().filter(|r| r.decisions()) {
            decisions::items(r, scope, plan.items(), &self.states);
        }
        let mut bundle =
            assemble::assemble(plan.requested(), plan.items(), self.states, limits, shape)?;
        bundle.disclosed = requested.disclose_issue_uri;
        Ok(bundle)
    }
}

/// The input the body reads asked for that survived the recheck, merged
/// in plan order (two asking items with one key, or both with a state of
/// their own, fail the read: `read_failed`).
fn asked_by_body_reads(states: &mut ItemStates) -> Result<Option<InputRequired>, Failure> {
    let mut merged: Option<InputRequired> = None;
    for s in states.iter_mut() {
        if let Outcome::Input(_) = s.outcome {
            let Outcome::Input(asked) = std::mem::replace(&mut s.outcome, Outcome::Hidden) else {
                continue;
            };
            merged = Some(match merged {
                None => *asked,
                Some(m) => input::merge(m, *asked).map_err(|why| {
                    Failure::new(FailureKind::ReadFailed).caused_by(CauseText(why.into_owned()))
                })?,
            });
        }
    }
    Ok(merged)
}
