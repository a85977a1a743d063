//! SPEC "Admission, deadlines and reporting space": WithResourceLimits.

use std::time::Duration;

use mcp_resources::limits::*;
use mcp_resources::FailureKind;

fn refused(l: ResourceLimits) -> String {
    let e = l.resolve().unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidConfiguration);
    e.message().to_string()
}

#[test]
fn defaults_match_the_design() {
    let l = ResourceLimits::new().resolve().unwrap();
    assert_eq!(l.max_uri_bytes, 2048);
    assert_eq!(l.max_plan_targets, 1024);
    assert_eq!(l.max_items, 64);
    assert_eq!(l.max_item_bytes, 8 << 20);
    assert_eq!(l.max_payload_bytes, 32 << 20);
    assert_eq!(l.max_encoded_bytes, 48 << 20);
    assert_eq!(l.report_payload_bytes, 4096);
    assert_eq!(l.report_encoded_bytes, 16384);
    assert_eq!(l.max_issues, 32);
    assert_eq!(l.read_timeout, Duration::from_secs(30));
    assert_eq!(l.item_timeout, Duration::from_secs(10));
    assert_eq!(l.default_page_size, 50);
    assert_eq!(l.max_page_size, 500);
    assert_eq!(l.max_page_bytes, 1 << 20);
    assert_eq!(l, Limits::default());
}

#[test]
fn zero_selects_the_default() {
    for limit in Limit::ALL {
        let l = ResourceLimits::new().with(limit, 0);
        assert_eq!(l.resolve().unwrap(), Limits::default(), "{}", limit.name());
    }
}

#[test]
fn negative_values_fail_naming_the_limit() {
    for limit in Limit::ALL {
        let msg = refused(ResourceLimits::new().with(limit, -1));
        assert!(msg.contains(limit.name()), "{msg}");
        refused(ResourceLimits::new().with(limit, i64::MIN));
    }
}

#[test]
fn positive_overrides_are_taken() {
    let l = ResourceLimits::new()
        .with(Limit::MaxItems, 3)
        .with(Limit::ReadTimeoutMs, 1500)
        .with(Limit::ItemTimeoutMs, 20)
        .resolve()
        .unwrap();
    assert_eq!(l.max_items, 3);
    assert_eq!(l.read_timeout, Duration::from_millis(1500));
    assert_eq!(l.item_timeout, Duration::from_millis(20));
}

#[test]
fn raising_a_limit_never_raises_another() {
    for limit in Limit::ALL {
        let raised = ResourceLimits::new().with(limit, limit.default_value() as i64 * 2);
        let Ok(l) = raised.resolve() else {
            // Raising may break a cross-limit rule; it must then fail rather than adjust.
            continue;
        };
        let d = Limits::default();
        let mut changed = 0;
        for other in Limit::ALL {
            let v = |x: &Limits| match other {
                Limit::MaxUriBytes => x.max_uri_bytes as u64,
                Limit::MaxPlanTargets => x.max_plan_targets as u64,
                Limit::MaxItems => x.max_items as u64,
                Limit::MaxItemBytes => x.max_item_bytes,
                Limit::MaxPayloadBytes => x.max_payload_bytes,
                Limit::MaxEncodedBytes => x.max_encoded_bytes,
                Limit::ReportPayloadBytes => x.report_payload_bytes,
                Limit::ReportEncodedBytes => x.report_encoded_bytes,
                Limit::MaxIssues => x.max_issues as u64,
                Limit::ReadTimeoutMs => x.read_timeout.as_millis() as u64,
                Limit::ItemTimeoutMs => x.item_timeout.as_millis() as u64,
                Limit::DefaultPageSize => x.default_page_size as u64,
                Limit::MaxPageSize => x.max_page_size as u64,
                Limit::MaxPageBytes => x.max_page_bytes,
            };
            if v(&l) != v(&d) {
                changed += 1;
                assert_eq!(other, limit);
            }
        }
        assert_eq!(changed, 1);
    }
    // Raising the default page size past the maximum fails instead of raising the maximum.
    assert!(
        refused(ResourceLimits::new().with(Limit::DefaultPageSize, 501)).contains("max_page_size")
    );
}

#[test]
fn uri_limit_must_fit_the_51_byte_warning_identity() {
    assert!(refused(ResourceLimits::new().with(Limit::MaxUriBytes, 50)).contains("max_uri_bytes"));
    ResourceLimits::new()
        .with(Limit::MaxUriBytes, 51)
        .resolve()
        .unwrap();
}

#[test]
fn reporting_overrides_allow_at_least_256_payload_and_1_kib_encoded_bytes() {
    assert!(
        refused(ResourceLimits::new().with(Limit::ReportPayloadBytes, 255))
            .contains("report_payload_bytes")
    );
    ResourceLimits::new()
        .with(Limit::ReportPayloadBytes, 256)
        .resolve()
        .unwrap();
    assert!(
        refused(ResourceLimits::new().with(Limit::ReportEncodedBytes, 1023))
            .contains("report_encoded_bytes")
    );
    ResourceLimits::new()
        .with(Limit::ReportEncodedBytes, 1024)
        .resolve()
        .unwrap();
}

#[test]
fn aggregate_payload_must_exceed_the_report_reserve() {
    let l = ResourceLimits::new().with(Limit::ReportPayloadBytes, 1000);
    assert!(refused(l.with(Limit::MaxPayloadBytes, 1000)).contains("max_payload_bytes"));
    l.with(Limit::MaxPayloadBytes, 1001).resolve().unwrap();
}

#[test]
fn aggregate_response_space_fits_the_wire_reserve_and_configuration_overhead() {
    let l = ResourceLimits::new().with(Limit::ReportEncodedBytes, 1024);
    let floor = 1024 + 8192 + 256;
    assert!(refused(l.with(Limit::MaxEncodedBytes, floor)).contains("max_encoded_bytes"));
    let ok = l.with(Limit::MaxEncodedBytes, floor + 1).resolve().unwrap();
    assert_eq!(ok.admission_encoded_budget(), 1);
}

#[test]
fn page_budgets_allow_256_bytes_of_envelope() {
    assert!(
        refused(ResourceLimits::new().with(Limit::MaxPageBytes, 256)).contains("max_page_bytes")
    );
    ResourceLimits::new()
        .with(Limit::MaxPageBytes, 257)
        .resolve()
        .unwrap();
}

#[test]
fn default_page_size_cannot_exceed_its_maximum() {
    let l = ResourceLimits::new().with(Limit::MaxPageSize, 10);
    assert!(refused(l.with(Limit::DefaultPageSize, 11)).contains("default_page_size"));
    l.with(Limit::DefaultPageSize, 10).resolve().unwrap();
    // Lowering only the maximum below the default page size also fails.
    refused(ResourceLimits::new().with(Limit::MaxPageSize, 49));
}

#[test]
fn admission_budgets_reserve_report_and_wire_space() {
    let l = Limits::default();
    assert_eq!(l.admission_payload_budget(), (32 << 20) - 4096);
    assert_eq!(
        l.admission_encoded_budget(),
        (48 << 20) - 16384 - 8192 - 256
    );
}

#[test]
fn limit_enum_values_are_stable() {
    for (i, limit) in Limit::ALL.iter().enumerate() {
        assert_eq!(*limit as u32, i as u32 + 1);
        assert_eq!(Limit::from_u32(i as u32 + 1), Some(*limit));
    }
    assert_eq!(Limit::from_u32(0), None);
    assert_eq!(Limit::from_u32(15), None);
}

#[test]
fn fixed_bounds_are_as_designed() {
    assert_eq!(MAX_DEFINITION_BYTES, 65536);
    assert_eq!(MAX_META_BYTES, 65536);
    assert_eq!(MAX_AUTHORIZATION_BYTES, 65536);
    assert_eq!(MAX_CURSOR_BYTES, 4096);
    assert_eq!(WIRE_RESERVE_BYTES, 8192);
    assert_eq!(CONFIG_OVERHEAD_BYTES, 256);
}
