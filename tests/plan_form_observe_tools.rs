//! `observe_tools.rs` again, every policy asked through its plan-level
//! entry only (`policy_form::PlanOnly`): the same rules, the same tests.
#[path = "observe_tools.rs"]
mod suite;
