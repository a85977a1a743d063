//! The JSON the library writes for subscriptions: complete JSON-RPC
//! notification messages (`{"jsonrpc":"2.0","method":…,"params":…}`, to be
//! sent as they are), the graceful-closure result of a listen stream, and
//! the `resources` capability object.
//!
//! | message | before 2026-07-28 | 2026-07-28 |
//! |---|---|---|
//! | `notifications/resources/updated` | `params: {"uri"}` | `params: {"_meta": {subscriptionId}, "uri"}` |
//! | `notifications/resources/list_changed` | no params | `params: {"_meta": {subscriptionId}}` |
//! | `notifications/subscriptions/acknowledged` | (none) | `params: {"_meta": {subscriptionId}, "notifications": {…}}` |

use crate::protocol::ProtocolRevision;
use crate::sizing::write_json_str;

use super::{NotificationTypes, SubscriptionId};

/// The `_meta` key of the subscription id on every message of a
/// `subscriptions/listen` stream.
pub const SUBSCRIPTION_ID_META_KEY: &str = "io.modelcontextprotocol/subscriptionId";

const JSONRPC: &str = "{\"jsonrpc\":\"2.0\",\"method\":\"";

/// `"_meta":{"io.modelcontextprotocol/subscriptionId":<id>}`.
fn write_meta(out: &mut String, id: &SubscriptionId) {
    out.push_str("\"_meta\":{\"");
    out.push_str(SUBSCRIPTION_ID_META_KEY);
    out.push_str("\":");
    out.push_str(id.json());
    out.push('}');
}

/// The id a message for `revision` carries: streams exist from 2026-07-28.
fn stream_id(revision: ProtocolRevision, id: Option<&SubscriptionId>) -> Option<&SubscriptionId> {
    if revision >= ProtocolRevision::V2026_07_28 {
        id
    } else {
        None
    }
}

/// Appends `notifications/resources/updated` for `uri`.
pub(crate) fn write_updated(
    out: &mut String,
    revision: ProtocolRevision,
    id: Option<&SubscriptionId>,
    uri: &str,
) {
    out.push_str(JSONRPC);
    out.push_str("notifications/resources/updated\",\"params\":{");
    if let Some(id) = stream_id(revision, id) {
        write_meta(out, id);
        out.push(',');
    }
    out.push_str("\"uri\":");
    write_json_str(out, uri);
    out.push_str("}}");
}

/// Appends `notifications/resources/list_changed`.
pub(crate) fn write_list_changed(
    out: &mut String,
    revision: ProtocolRevision,
    id: Option<&SubscriptionId>,
) {
    out.push_str(JSONRPC);
    out.push_str("notifications/resources/list_changed\"");
    if let Some(id) = stream_id(revision, id) {
        out.push_str(",\"params\":{");
        write_meta(out, id);
        out.push('}');
    }
    out.push('}');
}

/// The `notifications/subscriptions/acknowledged` message of stream `id`:
/// the honored filter, members in the schema's order, a type present only
/// when honored (`resourceSubscriptions` whenever the client asked for it
/// and the registry delivers updates, then listing the honored URIs, maybe
/// none).
pub(crate) fn ack(
    id: &SubscriptionId,
    honored: NotificationTypes,
    uris: Option<&[String]>,
) -> String {
    let len: usize = uris.map_or(0, |u| u.iter().map(|s| s.len() + 3).sum());
    let mut out = String::with_capacity(200 + id.json().len() + len);
    out.push_str(JSONRPC);
    out.push_str("notifications/subscriptions/acknowledged\",\"params\":{");
    write_meta(&mut out, id);
    out.push_str(",\"notifications\":{");
    let mut first = true;
    let mut member = |out: &mut String, name: &str| {
        if !first {
            out.push(',');
        }
        first = false;
        out.push('"');
        out.push_str(name);
        out.push_str("\":");
    };
    for (on, name) in [
        (honored.tools_list_changed, "toolsListChanged"),
        (honored.prompts_list_changed, "promptsListChanged"),
        (honored.resources_list_changed, "resourcesListChanged"),
    ] {
        if on {
            member(&mut out, name);
            out.push_str("true");
        }
    }
    if let Some(uris) = uris {
        member(&mut out, "resourceSubscriptions");
        out.push('[');
        for (i, u) in uris.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_json_str(&mut out, u);
        }
        out.push(']');
    }
    out.push_str("}}}");
    out
}

/// The result that ends a `subscriptions/listen` stream gracefully (the
/// JSON-RPC `result` of the listen request, sent when the server tears the
/// stream down): `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":<id>}}`.
pub fn listen_closed_result(id: &SubscriptionId) -> String {
    let mut out = String::with_capacity(96 + id.json().len());
    out.push_str("{\"resultType\":\"complete\",");
    write_meta(&mut out, id);
    out.push('}');
    out
}

/// The `resources` capability object for what a registry declared: `{}`,
/// `{"subscribe":true}`, `{"listChanged":true}` or both (the same shape on
/// every revision this library knows).
fn capability(declared: NotificationTypes) -> &'static str {
    match (declared.resource_updates, declared.resources_list_changed) {
        (false, false) => "{}",
        (true, false) => "{\"subscribe\":true}",
        (false, true) => "{\"listChanged\":true}",
        (true, true) => "{\"subscribe\":true,\"listChanged\":true}",
    }
}

impl crate::registry::Resources {
    /// The `resources` capability object a host declares for `revision`
    /// (in `initialize` or `server/discover` results): `subscribe` and
    /// `listChanged` as declared with
    /// [`ResourcesBuilder::notifications`](crate::ResourcesBuilder::notifications),
    /// only those that are true: `{}`, `{"subscribe":true}`,
    /// `{"listChanged":true}` or `{"subscribe":true,"listChanged":true}`
    /// (the same on every revision this library knows).
    pub fn resources_capability(&self, revision: ProtocolRevision) -> &'static str {
        let _same_on_every_revision = revision;
        capability(self.notification_support())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> SubscriptionId {
        SubscriptionId::parse(s.as_bytes()).unwrap()
    }

    #[test]
    fn updated_carries_the_stream_id_from_2026_07_28_only() {
        let mut out = String::new();
        write_updated(
            &mut out,
            ProtocolRevision::V2025_11_25,
            Some(&id("1")),
            "doc://a\"",
        );
        assert_eq!(
            out,
            r#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"doc://a\""}}"#
        );
        out.clear();
        write_updated(
            &mut out,
            ProtocolRevision::V2026_07_28,
            Some(&id("\"s\"")),
            "doc://a",
        );
        assert_eq!(
            out,
            r#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"s"},"uri":"doc://a"}}"#
        );
    }

    #[test]
    fn list_changed_has_params_only_on_a_stream() {
        let mut out = String::new();
        write_list_changed(&mut out, ProtocolRevision::V2025_06_18, None);
        assert_eq!(
            out,
            r#"{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}"#
        );
        out.clear();
        write_list_changed(&mut out, ProtocolRevision::V2026_07_28, Some(&id("7")));
        assert_eq!(
            out,
            r#"{"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7}}}"#
        );
    }

    #[test]
    fn ack_lists_only_what_is_honored_in_schema_order() {
        let all = NotificationTypes::from_bits(15).unwrap();
        let uris = vec!["doc://a".to_string(), "doc://b".to_string()];
        assert_eq!(
            ack(&id("1"), all, Some(&uris)),
            r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":1},"notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true,"resourceSubscriptions":["doc://a","doc://b"]}}}"#
        );
        assert_eq!(
            ack(&id("1"), NotificationTypes::NONE, None),
            r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":1},"notifications":{}}}"#
        );
        assert_eq!(
            ack(&id("1"), NotificationTypes::NONE, Some(&[])),
            r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":1},"notifications":{"resourceSubscriptions":[]}}}"#
        );
    }

    #[test]
    fn closed_result_and_capability() {
        assert_eq!(
            listen_closed_result(&id("\"l\"")),
            r#"{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"l"}}"#
        );
        assert_eq!(capability(NotificationTypes::NONE), "{}");
        assert_eq!(
            capability(NotificationTypes::RESOURCES),
            r#"{"subscribe":true,"listChanged":true}"#
        );
    }
}
