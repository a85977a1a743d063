//! `read_audit.rs` again, every policy asked through its plan-level
//! entry only (`policy_form::PlanOnly`): the same rules, the same tests.
#[path = "read_audit.rs"]
mod suite;
