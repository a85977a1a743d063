//! The older protocol revisions, 2024-11-05 and 2025-03-26: served, with
//! their own shapes (BEHAVIOUR §11): no 2026 members, no member those
//! revisions do not define, not found `-32002` with `data.uri`.

mod protocol_support;

use std::sync::Arc;

use mcp_resources::*;
use protocol_support::*;

const R2024: ProtocolRevision = ProtocolRevision::V2024_11_05;
const R2025_03: ProtocolRevision = ProtocolRevision::V2025_03_26;
const R2025_06: ProtocolRevision = ProtocolRevision::V2025_06_18;
const R2025_11: ProtocolRevision = ProtocolRevision::V2025_11_25;
const R2026: ProtocolRevision = ProtocolRevision::V2026_07_28;
const OLDER: [ProtocolRevision; 2] = [R2024, R2025_03];

/// A description with every standard member and one of the host's own.
const FULL: &str = r#"{"uri":"doc://full","name":"full","title":"Full","description":"d","mimeType":"text/plain","size":12,"annotations":{"audience":["user"],"priority":0.5,"lastModified":"2025-01-12T15:00:58Z"},"icons":[{"src":"https://example.com/i.png","sizes":["48x48"],"theme":"dark"}],"_meta":{"com.example/k":1},"x-host":true}"#;
const FULL_TEMPLATE: &str = r#"{"uriTemplate":"doc://full/{id}","name":"tfull","title":"T","description":"d","mimeType":"text/plain","annotations":{"lastModified":"2025-01-12T15:00:58+01:00"},"icons":[{"src":"data:image/png;base64,iVBORw=="}],"_meta":{"k":[1]}}"#;

fn keys(v: &serde_json::Value) -> Vec<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

fn meta_host() -> Resources {
    let host = Host::new(&["doc://a", "doc://partial", "doc://t/{id}"]);
    host.handler
        .plan("doc://partial", &["doc://partial/1", "doc://partial/2"]);
    host.handler.body("doc://partial/2", Body::Fail);
    host.build()
}

/// Reads with a payload `_meta`.
struct WithMeta;

impl ResourceHandler for WithMeta {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        ResourcePayload::text("text/plain", &format!("body of {}", t.uri()))
            .and_then(|p| p.with_meta_json(r#"{"com.example/lang":"en"}"#))
            .map_err(CallbackError::failed)
    }
}

fn registry(defs: &[&str], limits: &[(Limit, i64)]) -> Result<Resources, Failure> {
    let handler: Arc<dyn ResourceHandler> = Arc::new(WithMeta);
    let mut b = Resources::builder().policy(Arc::new(AllowAll));
    for d in defs {
        b.push(ResourceBinding::new(d, handler.clone())?);
    }
    for (l, v) in limits {
        b.set_limit(*l, *v);
    }
    b.build()
}

#[test]
fn older_revisions_are_parsed_and_listed_oldest_first() {
    assert_eq!(ProtocolRevision::parse(b"2024-11-05"), Ok(R2024));
    assert_eq!(ProtocolRevision::parse(b"2025-03-26"), Ok(R2025_03));
    assert_eq!(ProtocolRevision::ALL[..2], OLDER);
    assert!(R2024 < R2025_03 && R2025_03 < R2025_06);
}

#[test]
fn older_revisions_results_carry_no_2026_members() {
    let r = meta_host();
    for revision in OLDER {
        let o = read_opts(revision);
        for j in [
            r.read(b"doc://a", &o).unwrap().into_json(),
            r.read(b"doc://partial", &o).unwrap().into_json(),
            r.list(&list_opts(revision, None, 0)).unwrap().into_json(),
            r.list_templates(&list_opts(revision, None, 0))
                .unwrap()
                .into_json(),
        ] {
            for k in ["resultType", "ttlMs", "cacheScope"] {
                assert!(json(&j).get(k).is_none(), "{revision}: {k} in {j}");
            }
        }
    }
}

#[test]
fn contents_carry_no_meta_before_2025_06_18() {
    let r = registry(&[r#"{"uri":"doc://m","name":"m"}"#], &[]).unwrap();
    for revision in ProtocolRevision::ALL {
        let bundle = r.read(b"doc://m", &read_opts(revision)).unwrap();
        let v = json(bundle.json());
        let item = &v["contents"][0];
        assert_eq!(item["text"], "body of doc://m");
        if revision >= R2025_06 {
            assert_eq!(item["_meta"]["com.example/lang"], "en", "{revision}");
            assert!(bundle.items().next().unwrap().meta_json().is_some());
        } else {
            assert_eq!(keys(item), ["uri", "mimeType", "text"], "{revision}");
            assert!(bundle.items().next().unwrap().meta_json().is_none());
        }
        // The result's report is there on every revision (Result `_meta`).
        assert_eq!(v["_meta"][RESERVED_META_KEY]["version"], 1, "{revision}");
    }
}

#[test]
fn partial_warning_carries_no_meta_marks_before_2025_06_18() {
    let r = meta_host();
    for revision in ProtocolRevision::ALL {
        let bundle = r.read(b"doc://partial", &read_opts(revision)).unwrap();
        assert!(bundle.is_partial());
        let v = json(bundle.json());
        let warning = &v["contents"][0];
        assert!(warning["uri"]
            .as_str()
            .unwrap()
            .starts_with("mcp-warning://read/"));
        assert!(warning["text"]
            .as_str()
            .unwrap()
            .starts_with("Incomplete bundle.\n"));
        assert_eq!(v["_meta"][RESERVED_META_KEY]["partial"], true);
        let marked = warning.get("_meta").is_some();
        assert_eq!(marked, revision >= R2025_06, "{revision}: {warning}");
        assert!(bundle.items().next().unwrap().is_warning());
    }
}

#[test]
fn not_found_is_32002_with_data_uri_on_older_revisions() {
    let r = meta_host();
    for revision in OLDER {
        let o = RequestOptions {
            scope_key: b"s".to_vec(),
            call: CallOptions {
                protocol_revision: revision,
                ..CallOptions::default()
            },
            ..RequestOptions::default()
        };
        for (method, params, uri) in [
            (
                "resources/read",
                r#"{"uri":"doc://missing"}"#,
                "doc://missing",
            ),
            (
                "completion/complete",
                r#"{"ref":{"type":"ref/resource","uri":"doc://none/{id}"},"argument":{"name":"id","value":""}}"#,
                "doc://none/{id}",
            ),
        ] {
            let resp = r.request(method.as_bytes(), params.as_bytes(), &o).unwrap();
            assert!(resp.is_error());
            assert_eq!(
                resp.json(),
                format!(
                    r#"{{"code":-32002,"message":"Resource not found","data":{{"uri":"{uri}"}}}}"#
                ),
                "{revision} {method}"
            );
        }
        // Invalid params and cursors are -32602 as on every revision.
        let resp = r
            .request(b"resources/list", br#"{"cursor":"forged"}"#, &o)
            .unwrap();
        assert_eq!(resp.json(), r#"{"code":-32602,"message":"Invalid cursor"}"#);
    }
}

#[test]
fn completion_on_older_revisions_has_no_result_type() {
    let r = meta_host();
    for revision in ProtocolRevision::ALL {
        let o = RequestOptions {
            call: CallOptions {
                protocol_revision: revision,
                ..CallOptions::default()
            },
            ..RequestOptions::default()
        };
        let resp = r
            .request(
                b"completion/complete",
                br#"{"ref":{"type":"ref/resource","uri":"doc://t/{id}"},"argument":{"name":"id","value":""}}"#,
                &o,
            )
            .unwrap();
        assert!(!resp.is_error(), "{}", resp.json());
        let v = json(resp.json());
        assert_eq!(
            v.get("resultType").is_some(),
            revision == R2026,
            "{revision}"
        );
        assert_eq!(v["completion"]["values"], serde_json::json!([]));
    }
}

#[test]
fn a_per_request_meta_revision_may_name_an_older_revision() {
    let r = registry(&[r#"{"uri":"doc://m","name":"m"}"#], &[]).unwrap();
    let o = RequestOptions::default(); // the newest
    let resp = r
        .request(
            b"resources/read",
            br#"{"uri":"doc://m","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-03-26"}}"#,
            &o,
        )
        .unwrap();
    assert_eq!(resp.protocol_revision(), R2025_03);
    let v = json(resp.json());
    assert!(v.get("resultType").is_none());
    assert!(v["contents"][0].get("_meta").is_none());
}

#[test]
fn unsupported_revision_names_every_known_revision() {
    let r = meta_host();
    let resp = r
        .request(
            b"resources/read",
            br#"{"uri":"doc://a","_meta":{"io.modelcontextprotocol/protocolVersion":"2024-10-07"}}"#,
            &RequestOptions::default(),
        )
        .unwrap();
    assert_eq!(
        json(resp.json())["data"]["supported"],
        serde_json::json!([
            "2026-07-28",
            "2025-11-25",
            "2025-06-18",
            "2025-03-26",
            "2024-11-05"
        ])
    );
}

/// Admission counts an item as it is written on the read's revision: the
/// `_meta` an older revision leaves out is not charged.
#[test]
fn admission_charges_items_as_written_on_the_revision() {
    let plain = r#"{"uri":"doc://m","mimeType":"text/plain","text":"body of doc://m"}"#;
    let meta = r#","_meta":{"com.example/lang":"en"}"#;
    // Encoded budget = max_encoded - report_encoded - 8192 - 256: exactly
    // the item without its `_meta`, plus its separator.
    let report_encoded = 1024;
    let max_encoded = (plain.len() + 1) as i64 + report_encoded + 8192 + 256;
    let limits = [
        (Limit::ReportEncodedBytes, report_encoded),
        (Limit::MaxEncodedBytes, max_encoded),
    ];
    let r = registry(&[r#"{"uri":"doc://m","name":"m"}"#], &limits).unwrap();
    for revision in OLDER {
        let bundle = r.read(b"doc://m", &read_opts(revision)).unwrap();
        assert!(!bundle.is_partial(), "{revision}");
        assert!(bundle.json().contains(plain));
    }
    for revision in [R2025_06, R2025_11, R2026] {
        let e = r.read(b"doc://m", &read_opts(revision)).unwrap_err();
        assert_eq!(e.kind(), FailureKind::BudgetExceeded, "{revision}");
    }
    // One byte more fits the item with its `_meta` too.
    let limits = [
        (Limit::ReportEncodedBytes, report_encoded),
        (Limit::MaxEncodedBytes, max_encoded + meta.len() as i64),
    ];
    let r = registry(&[r#"{"uri":"doc://m","name":"m"}"#], &limits).unwrap();
    assert!(r.read(b"doc://m", &read_opts(R2026)).is_ok());
}

#[test]
fn descriptions_leave_out_members_the_revision_does_not_define() {
    let r = registry(&[FULL, FULL_TEMPLATE], &[]).unwrap();
    for revision in ProtocolRevision::ALL {
        let page = json(r.list(&list_opts(revision, None, 0)).unwrap().json());
        let d = &page["resources"][0];
        let templates = json(
            r.list_templates(&list_opts(revision, None, 0))
                .unwrap()
                .json(),
        );
        let t = &templates["resourceTemplates"][0];
        let (want, want_t, annotations): (&[&str], &[&str], &[&str]) = if revision >= R2025_11 {
            (
                &[
                    "uri",
                    "name",
                    "title",
                    "description",
                    "mimeType",
                    "size",
                    "annotations",
                    "icons",
                    "_meta",
                    "x-host",
                ],
                &[
                    "uriTemplate",
                    "name",
                    "title",
                    "description",
                    "mimeType",
                    "annotations",
                    "icons",
                    "_meta",
                ],
                &["audience", "priority", "lastModified"],
            )
        } else if revision == R2025_06 {
            (
                &[
                    "uri",
                    "name",
                    "title",
                    "description",
                    "mimeType",
                    "size",
                    "annotations",
                    "_meta",
                    "x-host",
                ],
                &[
                    "uriTemplate",
                    "name",
                    "title",
                    "description",
                    "mimeType",
                    "annotations",
                    "_meta",
                ],
                &["audience", "priority", "lastModified"],
            )
        } else {
            (
                &[
                    "uri",
                    "name",
                    "description",
                    "mimeType",
                    "size",
                    "annotations",
                    "x-host",
                ],
                &[
                    "uriTemplate",
                    "name",
                    "description",
                    "mimeType",
                    "annotations",
                ],
                &["audience", "priority"],
            )
        };
        assert_eq!(keys(d), want, "{revision}: {d}");
        assert_eq!(keys(t), want_t, "{revision}: {t}");
        assert_eq!(keys(&d["annotations"]), annotations, "{revision}");
        // What is kept is kept byte for byte, in the registered order.
        assert_eq!(d["annotations"]["priority"], 0.5);
        assert_eq!(d["size"], 12);
        if revision >= R2025_11 {
            assert!(r
                .list(&list_opts(revision, None, 0))
                .unwrap()
                .json()
                .contains(FULL));
        }
    }
    // An emptied annotations object stays an (empty) object.
    let r = registry(
        &[r#"{"uri":"doc://x","name":"x","annotations":{"lastModified":"2025-01-12T15:00:58Z"}}"#],
        &[],
    )
    .unwrap();
    let old = r.list(&list_opts(R2025_03, None, 0)).unwrap();
    assert_eq!(
        old.json(),
        r#"{"resources":[{"uri":"doc://x","name":"x","annotations":{}}]}"#
    );
}

#[test]
fn descriptions_without_later_members_are_the_same_on_every_revision() {
    let plain = r#"{"uri":"doc://p","name":"p","description":"d","mimeType":"text/plain","size":3,"annotations":{"audience":["assistant"],"priority":1},"x-host":[1]}"#;
    let r = registry(&[plain], &[]).unwrap();
    for revision in ProtocolRevision::ALL {
        assert_eq!(
            r.list(&list_opts(revision, None, 0)).unwrap().json(),
            format!(
                r#"{{"resources":[{plain}]{}}}"#,
                if revision == R2026 {
                    r#","resultType":"complete","ttlMs":0,"cacheScope":"private""#
                } else {
                    ""
                }
            ),
            "{revision}"
        );
    }
}

/// A page charges each description as it is listed on the page's revision.
#[test]
fn list_pages_charge_the_form_listed_on_the_revision() {
    let long_title = "t".repeat(400);
    let def = format!(r#"{{"uri":"doc://x","name":"x","title":"{long_title}"}}"#);
    let without = r#"{"uri":"doc://x","name":"x"}"#;
    // The page budget (max_page_bytes - 256) holds the form without its
    // title exactly, plus its separator.
    let max_page = (without.len() + 1 + 256) as i64;
    let r = registry(&[&def], &[(Limit::MaxPageBytes, max_page)]).unwrap();
    for revision in OLDER {
        let page = r.list(&list_opts(revision, None, 0)).unwrap();
        assert_eq!(page.json(), format!(r#"{{"resources":[{without}]}}"#));
    }
    for revision in [R2025_06, R2025_11, R2026] {
        let e = r.list(&list_opts(revision, None, 0)).unwrap_err();
        assert_eq!(e.kind(), FailureKind::Size, "{revision}");
    }
}

#[test]
fn the_registry_content_hash_does_not_depend_on_the_listed_forms() {
    let a = registry(&[FULL], &[]).unwrap();
    let b = registry(&[FULL], &[]).unwrap();
    assert_eq!(a.content_hash(), b.content_hash());
    let plain = registry(&[r#"{"uri":"doc://full","name":"full"}"#], &[]).unwrap();
    assert_ne!(a.content_hash(), plain.content_hash());
    let d = ResourceDefinition::from_json(FULL).unwrap();
    assert_eq!(d.json(), FULL);
    assert_eq!(d.json_for(R2026), FULL);
    assert_eq!(d.json_for(R2025_11), FULL);
    assert!(!d.json_for(R2025_06).contains("icons"));
    assert!(!d.json_for(R2024).contains("title"));
}

/// The older forms live after everything else a definition holds (decoded
/// identifiers and names, a written-out canonical form): each revision
/// still gets exactly its form.
#[test]
fn older_forms_follow_decoded_text_and_canonical_forms() {
    let def = r#"{"name":"n\u00e9","uri":"doc:\/\/x","title":"T","annotations":{"priority":1,"audience":["user"],"lastModified":"2025-01-12T15:00:58Z"},"icons":[{"src":"https://e.example/i.png","theme":"dark"}],"_meta":{"z":1,"a":{"y":2,"b":3}},"x":null,"y":1,"zz":2}"#;
    let d = ResourceDefinition::from_json(def).unwrap();
    let value: serde_json::Value = serde_json::from_str(def).unwrap();
    for revision in ProtocolRevision::ALL {
        let mut want = value.clone();
        let m = want.as_object_mut().unwrap();
        if revision < R2025_11 {
            m.shift_remove("icons");
        }
        if revision < R2025_06 {
            m.shift_remove("title");
            m.shift_remove("_meta");
            m["annotations"]
                .as_object_mut()
                .unwrap()
                .shift_remove("lastModified");
        }
        assert_eq!(
            d.json_for(revision),
            serde_json::to_string(&want).unwrap(),
            "{revision}"
        );
    }
    assert_eq!(d.name(), "né");
    assert_eq!(d.uri_or_template(), "doc://x");
    let mut sorted = value.clone();
    sorted.sort_all_objects();
    assert_eq!(d.canonical_json(), serde_json::to_string(&sorted).unwrap());
    // Only icons, and only older members: each kind of region.
    for (def, r2025_06, r2025_03) in [
        (
            r#"{"uri":"doc://i","name":"i","icons":[]}"#,
            r#"{"uri":"doc://i","name":"i"}"#,
            r#"{"uri":"doc://i","name":"i"}"#,
        ),
        (
            r#"{"uri":"doc://l","name":"l","title":"L"}"#,
            r#"{"uri":"doc://l","name":"l","title":"L"}"#,
            r#"{"uri":"doc://l","name":"l"}"#,
        ),
    ] {
        let d = ResourceDefinition::from_json(def).unwrap();
        assert_eq!(d.json_for(R2026), def);
        assert_eq!(d.json_for(R2025_06), r2025_06);
        assert_eq!(d.json_for(R2025_03), r2025_03);
        assert_eq!(d.json_for(R2024), r2025_03);
    }
}
