//! `call_phase.rs` again, every policy asked through its plan-level
//! entry only (`policy_form::PlanOnly`): the same rules, the same tests.
#[path = "call_phase.rs"]
mod suite;
