//! docs/BEHAVIOUR.md §10 (errors): Failure kinds, safe messages, private causes,
//! JSON-RPC codes.

use std::error::Error;

use mcp_resources::error::CauseText;
use mcp_resources::{Failure, FailureKind};

#[test]
fn kinds_have_stable_values_and_names() {
    // 1 to 13, then 16: 14 and 15 are C-only statuses (MCPR_INTERNAL,
    // MCPR_METHOD_NOT_HANDLED), and every kind's value is its C status.
    let values: Vec<u32> = FailureKind::all().iter().map(|k| *k as u32).collect();
    assert_eq!(values, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16]);
    assert_eq!(FailureKind::InputRequired.as_str(), "input_required");
    assert_eq!(FailureKind::BudgetExceeded.as_str(), "budget_exceeded");
    assert_eq!(
        FailureKind::InvalidConfiguration.to_string(),
        "invalid_configuration"
    );
}

#[test]
fn jsonrpc_codes_follow_the_design() {
    for k in FailureKind::all() {
        let want = match k {
            FailureKind::InvalidRequest | FailureKind::Unavailable => -32602,
            _ => -32603,
        };
        assert_eq!(Failure::new(k).jsonrpc_code(), want, "{k}");
    }
}

#[test]
fn private_causes_stay_out_of_the_safe_message_and_display() {
    let f = Failure::new(FailureKind::Policy).caused_by(CauseText("db password=hunter2".into()));
    assert_eq!(f.message(), "resource policy failed");
    assert!(!f.to_string().contains("hunter2"));
    assert!(!format!("{f:?}").contains("hunter2"));
    assert_eq!(f.cause_text(), "db password=hunter2");
    assert!(f.source().unwrap().to_string().contains("hunter2"));
    assert!(Failure::new(FailureKind::Policy).source().is_none());
    assert_eq!(Failure::new(FailureKind::Policy).cause_text(), "");
}

#[test]
fn every_kind_has_a_fixed_message() {
    let mut seen = std::collections::HashSet::new();
    for k in FailureKind::all() {
        assert!(!k.default_message().is_empty());
        assert!(seen.insert(k.default_message()), "messages are distinct");
    }
}
