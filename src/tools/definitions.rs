//! The `Tool` definitions of the resource tools, for a host's `tools/list`.
//!
//! Both are read-only (`readOnlyHint`, not destructive, idempotent, a
//! closed world) and take a JSON object with no other members than the
//! ones they name (`additionalProperties: false`). Their output schemas
//! have an object at the root, as 2025-06-18 and 2025-11-25 require, and
//! use only keywords every revision's JSON Schema dialect knows. Each
//! revision gets only the `Tool` members it defines: 2025-06-18 on every
//! member; 2025-03-26 no `title` and no `outputSchema`; 2024-11-05 only
//! `name`, `description` and `inputSchema`.

use crate::protocol::ProtocolRevision;

/// The name of the tool that reads a resource.
pub const READ_RESOURCE_TOOL: &str = "read_resource";

/// The name of the tool that lists resources and resource templates.
pub const LIST_RESOURCES_TOOL: &str = "list_resources";

/// The parts of the `read_resource` definition, as literals (for
/// `concat!`): `name`, then `title`, `body` (what every revision defines
/// besides the name: description and input schema) and `output`
/// (`outputSchema`), each of these with its leading comma.
macro_rules! read_resource_part {
    (name) => {
        r#"{"name":"read_resource""#
    };
    (body) => {
        concat!(
            r#","description":"Reads the resource at a URI: one list_resources lists, or one made from a listed resource template by filling in its {variables}. Returns its contents as embedded resources (and as structured content); a partial read starts with a text/plain warning item whose text says what is missing.","#,
            r#""inputSchema":{"type":"object","properties":{"uri":{"type":"string","description":"The URI of the resource to read."}},"required":["uri"],"additionalProperties":false}"#
        )
    };
    (title) => {
        r#","title":"Read a resource""#
    };
    (output) => {
        r#","outputSchema":{"type":"object","properties":{"contents":{"type":"array","description":"The resource's contents, as resources/read returns them.","items":{"type":"object","properties":{"uri":{"type":"string"},"mimeType":{"type":"string"},"text":{"type":"string"},"blob":{"type":"string"},"_meta":{"type":"object"}},"required":["uri"]}}},"required":["contents"]}"#
    };
}

/// The parts of the `list_resources` definition (as
/// [`read_resource_part`]).
macro_rules! list_resources_part {
    (name) => {
        r#"{"name":"list_resources""#
    };
    (body) => {
        concat!(
            r#","description":"Lists the resources and resource templates you may read, one page at a time: resources first, then templates. When a page has a nextCursor, call again with it as cursor for the next page. Read a resource with read_resource.","#,
            r#""inputSchema":{"type":"object","properties":{"cursor":{"type":"string","description":"The nextCursor of the previous page; leave it out for the first page."}},"additionalProperties":false}"#
        )
    };
    (title) => {
        r#","title":"List resources""#
    };
    (output) => {
        r#","outputSchema":{"type":"object","properties":{"resources":{"type":"array","items":{"type":"object","properties":{"uri":{"type":"string"},"name":{"type":"string"}},"required":["uri","name"]}},"resourceTemplates":{"type":"array","items":{"type":"object","properties":{"uriTemplate":{"type":"string"},"name":{"type":"string"}},"required":["uriTemplate","name"]}},"nextCursor":{"type":"string"}},"required":["resources","resourceTemplates"]}"#
    };
}

/// The tools' annotations (2025-03-26 on), with the leading comma.
macro_rules! annotations {
    () => {
        r#","annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}"#
    };
}

/// A definition for each revision generation: 2025-06-18 on (every
/// member), 2025-03-26 (no `title`, no `outputSchema`), 2024-11-05 (name,
/// description and input schema only).
macro_rules! definition {
    ($part:ident, full) => {
        concat!(
            $part!(name),
            $part!(title),
            $part!(body),
            $part!(output),
            annotations!(),
            "}"
        )
    };
    ($part:ident, annotated) => {
        concat!($part!(name), $part!(body), annotations!(), "}")
    };
    ($part:ident, plain) => {
        concat!($part!(name), $part!(body), "}")
    };
}

/// Both definitions of one generation, as a JSON array.
macro_rules! both {
    ($gen:ident) => {
        concat!(
            "[",
            definition!(list_resources_part, $gen),
            ",",
            definition!(read_resource_part, $gen),
            "]"
        )
    };
}

/// The definitions (`[list_resources, read_resource]`, each alone, both)
/// of one revision generation.
struct Generation {
    read: &'static str,
    list: &'static str,
    both: &'static str,
}

const FULL: Generation = Generation {
    read: definition!(read_resource_part, full),
    list: definition!(list_resources_part, full),
    both: both!(full),
};
const ANNOTATED: Generation = Generation {
    read: definition!(read_resource_part, annotated),
    list: definition!(list_resources_part, annotated),
    both: both!(annotated),
};
const PLAIN: Generation = Generation {
    read: definition!(read_resource_part, plain),
    list: definition!(list_resources_part, plain),
    both: both!(plain),
};

/// The definitions `revision` defines the members of: `Tool` gained
/// `annotations` in 2025-03-26, `title` and `outputSchema` in 2025-06-18.
fn generation(revision: ProtocolRevision) -> &'static Generation {
    if revision.has_tool_output() {
        &FULL
    } else if revision.has_tool_annotations() {
        &ANNOTATED
    } else {
        &PLAIN
    }
}

/// Both definitions as a JSON array (`list_resources`, `read_resource`),
/// to merge into the host's `tools/list` result for `revision` (with only
/// the members `revision` defines).
pub fn resource_tool_definitions(revision: ProtocolRevision) -> &'static str {
    generation(revision).both
}

/// One definition, by tool name, as a JSON object for `revision`; `None`
/// for a name that is not a resource tool.
pub fn resource_tool_definition(name: &str, revision: ProtocolRevision) -> Option<&'static str> {
    let g = generation(revision);
    match name {
        READ_RESOURCE_TOOL => Some(g.read),
        LIST_RESOURCES_TOOL => Some(g.list),
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
                if r.has_tool_output() {
                    assert_eq!(t["outputSchema"]["type"], "object");
                }
                if r.has_tool_annotations() {
                    assert_eq!(t["annotations"]["readOnlyHint"], true);
                }
                let one = resource_tool_definition(t["name"].as_str().unwrap(), r).unwrap();
                assert_eq!(serde_json::from_str::<serde_json::Value>(one).unwrap(), *t);
            }
        }
        assert_eq!(
            resource_tool_definition("other", ProtocolRevision::LATEST),
            None
        );
    }

    #[test]
    fn each_revision_gets_only_the_tool_members_it_defines() {
        let members = |r| {
            let all: serde_json::Value =
                serde_json::from_str(resource_tool_definitions(r)).unwrap();
            let t = &all.as_array().unwrap()[0];
            let mut keys: Vec<String> = t.as_object().unwrap().keys().cloned().collect();
            keys.sort();
            keys
        };
        assert_eq!(
            members(ProtocolRevision::V2024_11_05),
            ["description", "inputSchema", "name"]
        );
        assert_eq!(
            members(ProtocolRevision::V2025_03_26),
            ["annotations", "description", "inputSchema", "name"]
        );
        for r in [
            ProtocolRevision::V2025_06_18,
            ProtocolRevision::V2025_11_25,
            ProtocolRevision::V2026_07_28,
        ] {
            assert_eq!(
                members(r),
                [
                    "annotations",
                    "description",
                    "inputSchema",
                    "name",
                    "outputSchema",
                    "title"
                ]
            );
        }
    }
}
