//! The registry revision and canonical descriptions are content-defined and
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
    r#"{"name":"n2","uri":"a://b/c","annotations":{"priority":0.25,"audience":["user","assistant"]},"size":18446744073709551615}"#,
    r#"{"uriTemplate":"t://x/{id}","name":"tt","title":"T \"q\" \\ \u0001","description":null}"#,
    r#"{"uriTemplate":"t://a/{id}/b","name":"ta","mimeType":"text/plain","_meta":{"b":true,"a":false,"c":{}}}"#,
    r#"{"uri":"a://a","name":"n3","size":-3,"extra":[[],{}]}"#,
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
            r#"{"annotations":{"audience":["user","assistant"],"priority":0.25},"name":"n2","size":18446744073709551615,"uri":"a://b/c"}"#,
            r#"{"description":null,"name":"tt","title":"T \"q\" \\ \u0001","uriTemplate":"t://x/{id}"}"#,
            r#"{"_meta":{"a":false,"b":true,"c":{}},"mimeType":"text/plain","name":"ta","uriTemplate":"t://a/{id}/b"}"#,
            r#"{"extra":[[],{}],"name":"n3","size":-3,"uri":"a://a"}"#,
        ]
    );
}

#[test]
fn revision_value_is_pinned() {
    // Computed by the original (foundation) implementation; a change here
    // would make replicas on different versions reject each other's cursors.
    assert_eq!(
        hex(registry(&DEFS).revision()),
        "978beec4da9ab9c9fb95fe63e75863476011ce0918ae9b315efe6215007b4fe2"
    );
}

#[test]
fn revision_ignores_registration_and_key_order() {
    let mut reversed = DEFS;
    reversed.reverse();
    assert_eq!(registry(&DEFS).revision(), registry(&reversed).revision());
    let reordered_keys = registry(&[r#"{"name":"n3","extra":[[],{}],"size":-3,"uri":"a://a"}"#]);
    assert_eq!(reordered_keys.revision(), registry(&[DEFS[4]]).revision());
    assert_ne!(registry(&DEFS[..4]).revision(), registry(&DEFS).revision());
}
