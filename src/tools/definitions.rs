//! The `Tool` definitions of the resource tools, for a host's `tools/list`.
//!
//! Both are read-only (`readOnlyHint`, not destructive, idempotent, a
//! closed world) and take a JSON object with no other members than the
//! ones they name (`additionalProperties: false`). Their output schemas
//! have an object at the root, as 2025-06-18 and 2025-11-25 require, and
//! use only keywords every revision's JSON Schema dialect knows, so the
//! same definitions are valid on every supported revision.

use crate::protocol::ProtocolRevision;

/// The name of the tool that reads a resource.
pub const READ_RESOURCE_TOOL: &str = "read_resource";

/// The name of the tool that lists resources and resource templates.
pub const LIST_RESOURCES_TOOL: &str = "list_resources";

/// The `read_resource` definition, as a literal (for `concat!`).
macro_rules! read_resource_json {
    () => {
        concat!(
            r#"{"name":"read_resource","title":"Read a resource","#,
            r#""description":"Reads the resource at a URI: one list_resources lists, or one made from a listed resource template by filling in its {variables}. Returns its contents as embedded resources (and as structured content); a partial read starts with a text/plain warning item whose text says what is missing.","#,
            r#""inputSchema":{"type":"object","properties":{"uri":{"type":"string","description":"The URI of the resource to read."}},"required":["uri"],"additionalProperties":false},"#,
            r#""outputSchema":{"type":"object","properties":{"contents":{"type":"array","description":"The resource's contents, as resources/read returns them.","items":{"type":"object","properties":{"uri":{"type":"string"},"mimeType":{"type":"string"},"text":{"type":"string"},"blob":{"type":"string"},"_meta":{"type":"object"}},"required":["uri"]}}},"required":["contents"]},"#,
            r#""annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}"#
        )
    };
}

/// The `list_resources` definition, as a literal (for `concat!`).
macro_rules! list_resources_json {
    () => {
        concat!(
            r#"{"name":"list_resources","title":"List resources","#,
            r#""description":"Lists the resources and resource templates you may read, one page at a time: resources first, then templates. When a page has a nextCursor, call again with it as cursor for the next page. Read a resource with read_resource.","#,
            r#""inputSchema":{"type":"object","properties":{"cursor":{"type":"string","description":"The nextCursor of the previous page; leave it out for the first page."}},"additionalProperties":false},"#,
            r#""outputSchema":{"type":"object","properties":{"resources":{"type":"array","items":{"type":"object","properties":{"uri":{"type":"string"},"name":{"type":"string"}},"required":["uri","name"]}},"resourceTemplates":{"type":"array","items":{"type":"object","properties":{"uriTemplate":{"type":"string"},"name":{"type":"string"}},"required":["uriTemplate","name"]}},"nextCursor":{"type":"string"}},"required":["resources","resourceTemplates"]},"#,
            r#""annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}"#
        )
    };
}

const READ_RESOURCE: &str = read_resource_json!();
const LIST_RESOURCES: &str = list_resources_json!();
const BOTH: &str = concat!("[", list_resources_json!(), ",", read_resource_json!(), "]");

/// Both definitions as a JSON array (`list_resources`, `read_resource`),
/// to merge into the host's `tools/list` result for `revision`.
pub fn resource_tool_definitions(revision: ProtocolRevision) -> &'static str {
    // The same on every supported revision (see the module documentation).
    let _ = revision;
    BOTH
}

/// One definition, by tool name, as a JSON object for `revision`; `None`
/// for a name that is not a resource tool.
pub fn resource_tool_definition(name: &str, revision: ProtocolRevision) -> Option<&'static str> {
    // The same definition is valid on every supported revision (see the
    // module documentation); the revision is taken so that a later one may
    // differ.
    let _ = revision;
    match name {
        READ_RESOURCE_TOOL => Some(READ_RESOURCE),
        LIST_RESOURCES_TOOL => Some(LIST_RESOURCES),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_are_json_objects_named_as_their_constants() {
        for r in ProtocolRevision::ALL {
            let all: serde_json::Value =
                serde_json::from_str(resource_tool_definitions(r)).unwrap();
            let names: Vec<_> = all
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["name"].as_str().unwrap())
                .collect();
            assert_eq!(names, [LIST_RESOURCES_TOOL, READ_RESOURCE_TOOL]);
            for t in all.as_array().unwrap() {
                assert_eq!(t["inputSchema"]["type"], "object");
                assert_eq!(t["outputSchema"]["type"], "object");
                assert_eq!(t["annotations"]["readOnlyHint"], true);
            }
        }
        assert_eq!(
            resource_tool_definition("other", ProtocolRevision::LATEST),
            None
        );
    }
}
