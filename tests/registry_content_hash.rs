//! The registry content hash and canonical descriptions are content-defined and
//! stable: replicas with identical registrations agree, and the value does
//! not change when the implementation is optimised.

use std::sync::Arc;

use mcp_resources::*;

struct Handler;
impl ResourceHandler for Handler {
    fn resolve(
        &self,
        _: &CallContext,
        _: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        Err(CallbackError::Unavailable)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        Err(CallbackError::Unavailable)
    }
}

const DEFS: [&str; 5] = [
    r#"{"uri":"b://z","name":"n1","_meta":{"zeta":[1,{"b":2,"a":"\u00e9\n"}],"alpha":-1.5e300}}"#,
    r#"{"name":"n2","uri":"a://b/c","annotations":{"priority":0.25,"audience":["user","assistant"]},"x-size":18446744073709551615}"#,
    r#"{"uriTemplate":"t://x/{id}","name":"tt","title":"T \"q\" \\ \u0001","x-description":null}"#,
    r#"{"uriTemplate":"t://a/{id}/b","name":"ta","mimeType":"text/plain","_meta":{"b":true,"a":false,"c":{}}}"#,
    r#"{"uri":"a://a","name":"n3","x-size":-3,"extra":[[],{}]}"#,
];

fn registry(defs: &[&str]) -> Resources {
    let mut b = Resources::builder().policy(Arc::new(AllowAll));
    for d in defs {
        b.push(ResourceBinding::new(d, Arc::new(Handler)).unwrap());
    }
    b.build().unwrap()
}

fn hex(bytes: [u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn canonical_json_sorts_keys_at_every_depth_and_escapes_like_serde() {
    let canonical: Vec<String> = DEFS
        .iter()
        .map(|d| {
            ResourceDefinition::from_json(d)
                .unwrap()
                .canonical_json()
                .to_string()
        })
        .collect();
    assert_eq!(
        canonical,
        [
            r#"{"_meta":{"alpha":-1.5e+300,"zeta":[1,{"a":"é\n","b":2}]},"name":"n1","uri":"b://z"}"#,
            r#"{"annotations":{"audience":["user","assistant"],"priority":0.25},"name":"n2","uri":"a://b/c","x-size":18446744073709551615}"#,
            r#"{"name":"tt","title":"T \"q\" \\ \u0001","uriTemplate":"t://x/{id}","x-description":null}"#,
            r#"{"_meta":{"a":false,"b":true,"c":{}},"mimeType":"text/plain","name":"ta","uriTemplate":"t://a/{id}/b"}"#,
            r#"{"extra":[[],{}],"name":"n3","uri":"a://a","x-size":-3}"#,
        ]
    );
}

#[test]
fn content_hash_value_is_pinned() {
    // Computed by the original (foundation) implementation; a change here
    // would make replicas on different versions reject each other's cursors.
    // (The definitions' invalid standard members became members of the
    // host's own when build began to check them; the value was computed
    // again by the implementation before that change.)
    assert_eq!(
        hex(registry(&DEFS).content_hash()),
        "14390c68f016edd5aaf5c6de92ec42120d4eecd1a9fa9671db2ad35e59d82696"
    );
}

#[test]
fn content_hash_ignores_registration_and_key_order() {
    let mut reversed = DEFS;
    reversed.reverse();
    assert_eq!(
        registry(&DEFS).content_hash(),
        registry(&reversed).content_hash()
    );
    let reordered_keys = registry(&[r#"{"name":"n3","extra":[[],{}],"x-size":-3,"uri":"a://a"}"#]);
    assert_eq!(
        reordered_keys.content_hash(),
        registry(&[DEFS[4]]).content_hash()
    );
    assert_ne!(
        registry(&DEFS[..4]).content_hash(),
        registry(&DEFS).content_hash()
    );
}

#[test]
fn escaped_identifiers_and_names_read_back_decoded() {
    let escaped = ResourceDefinition::from_json(
        r#"{"uri":"a:\/\/b\u002Fc","name":"N\u00e9 \"q\"","mimeType":"text/plain"}"#,
    )
    .unwrap();
    assert_eq!(escaped.uri_or_template(), "a://b/c");
    assert_eq!(escaped.name(), "Né \"q\"");
    assert_eq!(
        escaped.json(),
        r#"{"uri":"a://b/c","name":"Né \"q\"","mimeType":"text/plain"}"#
    );
    let plain = ResourceDefinition::from_json(
        r#"{"mimeType":"text/plain","name":"Né \"q\"","uri":"a://b/c"}"#,
    )
    .unwrap();
    assert_eq!(escaped.canonical_json(), plain.canonical_json());
    assert_eq!(plain.canonical_json(), plain.json());
    let template =
        ResourceDefinition::from_json(r#"{"uriTemplate":"t:\/\/x\/{id}","name":"t"}"#).unwrap();
    assert_eq!(template.uri_or_template(), "t://x/{id}");
    assert_eq!(template.template().unwrap().as_str(), "t://x/{id}");
}

#[test]
fn canonical_json_of_many_members_and_nested_disorder() {
    // More top-level members than are reordered in place, and a nested
    // object out of order: both are written out sorted.
    let many = r#"{"uri":"a://x","name":"n","title":"t","description":"d","mimeType":"m","size":1,"annotations":{"priority":1,"audience":["user"]},"_meta":{"b":1,"a":2},"extra":null}"#;
    let d = ResourceDefinition::from_json(many).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(many).unwrap();
    value.sort_all_objects();
    assert_eq!(d.canonical_json(), serde_json::to_string(&value).unwrap());
    assert_eq!(d.json(), many);
    assert_eq!((d.uri_or_template(), d.name()), ("a://x", "n"));
    // Top level only out of order, with a nested object already sorted.
    let top = r#"{"uri":"a://y","name":"n","_meta":{"a":{"x":1,"y":[2]}}}"#;
    let d = ResourceDefinition::from_json(top).unwrap();
    assert_eq!(
        d.canonical_json(),
        r#"{"_meta":{"a":{"x":1,"y":[2]}},"name":"n","uri":"a://y"}"#
    );
}
