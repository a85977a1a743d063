//! `input_oracle.rs` again, every policy asked through its plan-level
//! entry only (`policy_form::PlanOnly`): the same rules, the same tests.
#[path = "input_oracle.rs"]
mod suite;
