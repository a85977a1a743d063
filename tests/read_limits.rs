//! docs/SPEC-TESTS.md section "Admission, deadlines and reporting space" (configuration
//! sentences), exercised through what a read depends on.

mod read_support;

use mcp_resources::*;
use read_support::*;

fn resolve(pairs: &[(Limit, i64)]) -> Result<Limits, Failure> {
    let mut l = ResourceLimits::new();
    for (k, v) in pairs {
        l.set(*k, *v);
    }
    l.resolve()
}

// "WithResourceLimits accepts positive overrides; zero selects defaults and
// negative values fail."
#[test]
fn positive_overrides_apply_zero_selects_defaults_negative_fails() {
    let l = resolve(&[(Limit::MaxItems, 5), (Limit::MaxIssues, 0)]).unwrap();
    assert_eq!(l.max_items, 5);
    assert_eq!(l.max_issues, 32);
    for limit in Limit::ALL {
        let e = resolve(&[(limit, -1)]).unwrap_err();
        assert_eq!(e.kind(), FailureKind::InvalidConfiguration, "{limit:?}");
        assert!(e.message().contains(limit.name()));
    }
}

// "Raising a limit never raises another."
#[test]
fn raising_a_limit_never_raises_another() {
    let base = Limits::default();
    let raised = resolve(&[
        (Limit::MaxPayloadBytes, 1 << 30),
        (Limit::MaxEncodedBytes, 1 << 31),
        (Limit::ReadTimeoutMs, 3_600_000),
    ])
    .unwrap();
    assert_eq!(raised.max_item_bytes, base.max_item_bytes);
    assert_eq!(raised.report_payload_bytes, base.report_payload_bytes);
    assert_eq!(raised.report_encoded_bytes, base.report_encoded_bytes);
    assert_eq!(raised.item_timeout, base.item_timeout);
    assert_eq!(raised.max_items, base.max_items);
}

// "Definitions, assembled metadata at each location, and private
// authorization JSON per target have fixed 64 KiB bounds."
#[test]
fn definitions_metadata_and_authorization_json_have_fixed_64_kib_bounds() {
    let big = "a".repeat(64 * 1024);
    let def = format!(r#"{{"uri":"x://a","name":"n","description":"{big}"}}"#);
    assert!(ResourceDefinition::from_json(&def).is_err());
    let meta = format!(r#"{{"k":"{big}"}}"#);
    assert!(ResourcePayload::text("text/plain", "x")
        .unwrap()
        .with_meta_json(&meta)
        .is_err());
    let auth = format!(r#""{}""#, "a".repeat(64 * 1024 - 1)); // 64 KiB + 1
    assert!(ResourceTarget::new("x://a", "", Some(&auth)).is_err());
    let auth_ok = format!(r#""{}""#, "a".repeat(64 * 1024 - 2));
    assert!(ResourceTarget::new("x://a", "", Some(&auth_ok)).is_ok());
}

// "URI limits must fit the 51-byte generated warning identity."
#[test]
fn uri_limit_must_fit_the_51_byte_warning_identity() {
    assert!(resolve(&[(Limit::MaxUriBytes, 50)]).is_err());
    assert!(resolve(&[(Limit::MaxUriBytes, 51)]).is_ok());
}

// "Reporting overrides must allow at least 256 payload bytes and 1 KiB
// encoded bytes; page budgets allow at least 256 bytes of envelope space."
#[test]
fn reporting_and_page_floors() {
    assert!(resolve(&[(Limit::ReportPayloadBytes, 255)]).is_err());
    assert!(resolve(&[(Limit::ReportPayloadBytes, 256)]).is_ok());
    assert!(resolve(&[(Limit::ReportEncodedBytes, 1023)]).is_err());
    assert!(resolve(&[(Limit::ReportEncodedBytes, 1024)]).is_ok());
    assert!(resolve(&[(Limit::MaxPageBytes, 256)]).is_err());
    assert!(resolve(&[(Limit::MaxPageBytes, 257)]).is_ok());
}

// "Aggregate response space must also fit the 8 KiB wire reserve and 256
// bytes of configuration overhead."
#[test]
fn aggregate_space_fits_wire_reserve_and_configuration_overhead() {
    let floor = 1024 + 8192 + 256;
    assert!(resolve(&[
        (Limit::ReportEncodedBytes, 1024),
        (Limit::MaxEncodedBytes, floor)
    ])
    .is_err());
    let l = resolve(&[
        (Limit::ReportEncodedBytes, 1024),
        (Limit::MaxEncodedBytes, floor + 1),
    ])
    .unwrap();
    assert_eq!(l.admission_encoded_budget(), 1);
    // With a one-byte item budget nothing fits, and the read says so.
    let fx = Fx::new(&["x://i/0"])
        .limit(Limit::ReportEncodedBytes, 1024)
        .limit(Limit::MaxEncodedBytes, floor + 1);
    assert_eq!(
        fx.read(&opts()).unwrap_err().kind(),
        FailureKind::BudgetExceeded
    );
}

// "Default page size cannot exceed its maximum."
#[test]
fn default_page_size_cannot_exceed_its_maximum() {
    assert!(resolve(&[(Limit::DefaultPageSize, 11), (Limit::MaxPageSize, 10)]).is_err());
    assert!(resolve(&[(Limit::DefaultPageSize, 10), (Limit::MaxPageSize, 10)]).is_ok());
}

// "Constructors copy supplied data": a payload built from borrowed text
// keeps its own copy, and the read result carries exactly those bytes.
#[test]
fn constructors_copy_supplied_data() {
    let mut text = String::from("original");
    let p = ResourcePayload::text("text/plain", &text).unwrap();
    text.clear();
    text.push_str("changed");
    assert_eq!(p.body(), &PayloadBody::Text("original".into()));
}
