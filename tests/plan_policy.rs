//! The plan-level policy entry (`ResourcePolicy::decide_plan`,
//! docs/BEHAVIOUR.md §5): random policies give byte-identical reads
//! through the per-item methods and through one plan decision per step,
//! and a host's own plan decision is read with the per-item rules (an
//! answer left out, a panic, input asked where it may not be).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use mcp_resources::*;
use proptest::prelude::*;

/// One answer of the scripted policy.
#[derive(Clone, Copy, Debug)]
enum Answer {
    Allow,
    Deny,
    Fail,
    Panic,
    Input,
}

fn answer(a: Answer) -> Result<(), CallbackError> {
    match a {
        Answer::Allow => Ok(()),
        Answer::Deny => Err(CallbackError::Unavailable),
        Answer::Fail => Err(CallbackError::failed("scripted failure")),
        Answer::Panic => panic!("scripted panic"),
        Answer::Input => Err(CallbackError::input_required(InputRequired::new(
            InputRequests::new()
                .with("k", InputRequest::roots())
                .unwrap(),
        ))),
    }
}

/// What a target answers in one phase: its visibility (an answer other
/// than `Allow` is that visibility failure), whether it is visible and
/// disclosed, and its read permission.
#[derive(Clone, Copy, Debug)]
struct Rule {
    visibility: Answer,
    visible: bool,
    disclose: bool,
    read: Answer,
}

/// A policy scripted per phase (first check, recheck) and target.
#[derive(Clone, Debug)]
struct Script {
    discover: [Answer; 2],
    /// Per phase: the requested target's rule, then one per item.
    rules: [Vec<Rule>; 2],
    items: usize,
}

struct Scripted {
    script: Script,
    calls: AtomicUsize,
}

fn phase(call: &CallContext) -> usize {
    usize::from(call.phase() == CallPhase::Recheck)
}

impl Scripted {
    fn rule(&self, call: &CallContext, t: &ResourceTarget) -> Rule {
        let rules = &self.script.rules[phase(call)];
        match t.uri().strip_prefix("x://i/") {
            Some(i) => rules[1 + i.parse::<usize>().unwrap()],
            None => rules[0],
        }
    }
}

impl ResourcePolicy for Scripted {
    fn discover(&self, call: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        answer(self.script.discover[phase(call)])
    }
    fn visibility(
        &self,
        call: &CallContext,
        t: &ResourceTarget,
    ) -> Result<Visibility, CallbackError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let r = self.rule(call, t);
        answer(r.visibility)?;
        Ok(Visibility {
            visible: r.visible,
            disclose_issue_uri: r.disclose,
        })
    }
    fn read(&self, call: &CallContext, t: &ResourceTarget) -> Result<(), CallbackError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        answer(self.rule(call, t).read)
    }
}

/// The same policy through its plan-level entry only.
struct Planned(Scripted);

impl ResourcePolicy for Planned {
    fn discover(&self, call: &CallContext, d: &ResourceDefinition) -> Result<(), CallbackError> {
        assert_eq!(call.phase(), CallPhase::Listing, "discover asked per item");
        self.0.discover(call, d)
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        panic!("visibility asked per item")
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        panic!("read asked per item")
    }
    fn decides_plans(&self) -> bool {
        true
    }
    fn decide_plan(&self, call: &CallContext, q: &PlanQuestions<'_>) -> PlanDecision {
        decide_per_item(&self.0, call, q)
    }
}

/// Plans `bundle://b` as the requested target and `x://i/0..items`.
struct Handler {
    items: usize,
    single: bool,
}

impl ResourceHandler for Handler {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        if self.single {
            return ResourceReadPlan::single_for(m).map_err(CallbackError::failed);
        }
        let requested = ResourceTarget::new(m.uri(), "", None).map_err(CallbackError::failed)?;
        let items = (0..self.items)
            .map(|i| ResourceTarget::new(&format!("x://i/{i}"), "", None))
            .collect::<Result<Vec<_>, _>>()
            .map_err(CallbackError::failed)?;
        ResourceReadPlan::new(requested, items).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        Ok(ResourcePayload::text("text/plain", &format!("body of {}", t.uri())).unwrap())
    }
    fn resolves_single(&self) -> bool {
        self.single
    }
}

/// What a client sees of a read: the result's JSON, or the error's kind
/// and message; the warning item's URI (keyed per registry) made one.
fn seen(r: Result<ResourceBundle, Failure>) -> String {
    let s = match r {
        Ok(b) => format!("ok {} {}", b.json(), b.report_json()),
        Err(f) => format!("err {:?} {}", f.kind(), f.message()),
    };
    match s.find("mcp-warning://read/") {
        Some(i) => {
            let end = i + "mcp-warning://read/".len() + 32;
            format!("{}mcp-warning://read/*{}", &s[..i], &s[end..])
        }
        None => s,
    }
}

fn registry(policy: Arc<dyn ResourcePolicy>, items: usize, single: bool) -> Resources {
    Resources::builder()
        .policy(policy)
        .binding(
            ResourceBinding::new(
                r#"{"uri":"bundle://b","name":"b"}"#,
                Arc::new(Handler { items, single }),
            )
            .unwrap(),
        )
        .build()
        .unwrap()
}

fn read_both(script: &Script, single: bool, executor: Option<&Executor>) -> (String, String) {
    let items = script.items;
    let opts = || {
        let mut o = ReadOptions::default();
        if let Some(e) = executor {
            o.call.executor = Some(e.clone());
        }
        o
    };
    let per_item = registry(
        Arc::new(Scripted {
            script: script.clone(),
            calls: AtomicUsize::new(0),
        }),
        items,
        single,
    );
    let planned = registry(
        Arc::new(Planned(Scripted {
            script: script.clone(),
            calls: AtomicUsize::new(0),
        })),
        items,
        single,
    );
    (
        seen(per_item.read(b"bundle://b", &opts())),
        seen(planned.read(b"bundle://b", &opts())),
    )
}

fn an_answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        6 => Just(Answer::Allow),
        2 => Just(Answer::Deny),
        1 => Just(Answer::Fail),
        1 => Just(Answer::Panic),
        1 => Just(Answer::Input),
    ]
}

fn a_rule() -> impl Strategy<Value = Rule> {
    (
        prop_oneof![8 => Just(Answer::Allow), 1 => an_answer()],
        prop::bool::weighted(0.8),
        any::<bool>(),
        an_answer(),
    )
        .prop_map(|(visibility, visible, disclose, read)| Rule {
            visibility,
            visible,
            disclose,
            read,
        })
}

fn a_script() -> impl Strategy<Value = Script> {
    (0usize..5).prop_flat_map(|items| {
        (
            [
                prop_oneof![6 => Just(Answer::Allow), 1 => an_answer()],
                prop_oneof![6 => Just(Answer::Allow), 1 => an_answer()],
            ],
            [
                prop::collection::vec(a_rule(), items + 1),
                prop::collection::vec(a_rule(), items + 1),
            ],
        )
            .prop_map(move |(discover, rules)| Script {
                discover,
                rules,
                items,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_policies_read_byte_identical_through_both_forms(script in a_script()) {
        let (a, b) = read_both(&script, false, None);
        prop_assert_eq!(a, b);
    }

    #[test]
    fn random_policies_read_byte_identical_through_both_forms_when_the_plan_is_the_match(
        script in a_script()
    ) {
        // A single-item plan: the item is the requested target.
        let mut script = script;
        script.items = 0;
        for r in &mut script.rules {
            r.truncate(1);
            let first = r[0];
            r.push(first);
        }
        let (a, b) = read_both(&script, true, None);
        prop_assert_eq!(a, b);
    }
}

#[test]
fn random_policies_read_byte_identical_through_both_forms_on_an_executor() {
    let ex = Executor::new(2).unwrap();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(64));
    runner
        .run(&a_script(), |script| {
            let (a, b) = read_both(&script, false, Some(&ex));
            prop_assert_eq!(a, b);
            Ok(())
        })
        .unwrap();
}

/// A host's own plan decision, counted.
struct Host<F> {
    decide: F,
    calls: AtomicUsize,
}

impl<F: Fn(&CallContext, &PlanQuestions<'_>) -> PlanDecision + Send + Sync> ResourcePolicy
    for Host<F>
{
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        panic!("per item")
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        panic!("per item")
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        panic!("per item")
    }
    fn decides_plans(&self) -> bool {
        true
    }
    fn decide_plan(&self, call: &CallContext, q: &PlanQuestions<'_>) -> PlanDecision {
        self.calls.fetch_add(1, Ordering::SeqCst);
        (self.decide)(call, q)
    }
}

fn allowed(n: usize) -> Vec<TargetDecision> {
    (0..n)
        .map(|_| TargetDecision {
            visibility: Ok(Visibility::VISIBLE),
            read: Some(Ok(())),
        })
        .collect()
}

fn all_allowed(_: &CallContext, q: &PlanQuestions<'_>) -> PlanDecision {
    PlanDecision {
        discover: q.definition.map(|_| Ok(())),
        requested: q.requested.map(|_| allowed(1).pop().unwrap()),
        items: allowed(q.items.len()),
    }
}

#[test]
fn a_read_whose_plan_is_the_match_asks_the_plan_decision_twice_and_nothing_else() {
    let host = Arc::new(Host {
        decide: all_allowed,
        calls: AtomicUsize::new(0),
    });
    let r = registry(host.clone(), 0, true);
    r.read(b"bundle://b", &ReadOptions::default()).unwrap();
    // The first check (discovery, the requested target, the item) and the
    // recheck: one call each.
    assert_eq!(host.calls.load(Ordering::SeqCst), 2);
}

#[test]
fn a_read_with_a_resolver_asks_discovery_before_resolve_then_the_targets() {
    let host = Arc::new(Host {
        decide: all_allowed,
        calls: AtomicUsize::new(0),
    });
    let r = registry(host.clone(), 3, false);
    let b = r.read(b"bundle://b", &ReadOptions::default()).unwrap();
    assert_eq!(b.item_count(), 3);
    assert_eq!(host.calls.load(Ordering::SeqCst), 3);
}

#[test]
fn an_answer_left_out_fails_the_read_as_a_policy_failure() {
    for left_out in 0..3 {
        let host = Arc::new(Host {
            decide: move |call: &CallContext, q: &PlanQuestions<'_>| {
                let mut d = all_allowed(call, q);
                match left_out {
                    0 => d.discover = None,
                    1 => d.requested = None,
                    _ => {
                        d.items.pop();
                    }
                }
                d
            },
            calls: AtomicUsize::new(0),
        });
        let e = registry(host, 2, false)
            .read(b"bundle://b", &ReadOptions::default())
            .unwrap_err();
        assert_eq!(e.kind(), FailureKind::Policy, "left out {left_out}");
    }
}

#[test]
fn a_panicking_plan_decision_is_a_policy_failure() {
    let host = Arc::new(Host {
        decide: |_: &CallContext, _: &PlanQuestions<'_>| -> PlanDecision { panic!("host bug") },
        calls: AtomicUsize::new(0),
    });
    let e = registry(host, 1, true)
        .read(b"bundle://b", &ReadOptions::default())
        .unwrap_err();
    assert_eq!(e.kind(), FailureKind::Policy);
}

#[test]
fn input_asked_in_the_recheck_is_a_revocation_and_undiscoverable_is_not_found() {
    // Input in the recheck: the item's permission is read as denied.
    let host = Arc::new(Host {
        decide: |call: &CallContext, q: &PlanQuestions<'_>| {
            let mut d = all_allowed(call, q);
            if call.phase() == CallPhase::Recheck {
                d.items[1].read = Some(Err(CallbackError::input_required(InputRequired::new(
                    InputRequests::new(),
                ))));
            }
            d
        },
        calls: AtomicUsize::new(0),
    });
    let b = registry(host, 2, false)
        .read(b"bundle://b", &ReadOptions::default())
        .unwrap();
    assert!(b.is_partial());
    assert!(b.json().contains("body of x://i/0"));
    assert!(!b.json().contains("x://i/1"));
    // Undiscoverable answers like unregistered, in every byte.
    let host = Arc::new(Host {
        decide: |call: &CallContext, q: &PlanQuestions<'_>| {
            let mut d = all_allowed(call, q);
            d.discover = Some(Err(CallbackError::Unavailable));
            d
        },
        calls: AtomicUsize::new(0),
    });
    let r = registry(host, 0, true);
    let hidden = seen(r.read(b"bundle://b", &ReadOptions::default()));
    let unregistered = seen(r.read(b"bundle://none", &ReadOptions::default()));
    assert_eq!(hidden, unregistered);
}
