//! Resources in tool results, under the same policy (docs/BEHAVIOUR.md
//! §16).
//!
//! - [`Resources::embed`]: for a caller and a list of URIs, the content
//!   blocks of a `CallToolResult`: embedded `resource` blocks made by the
//!   read pipeline itself (the same items a read gives, a partial read's
//!   warning included), or `resource_link` blocks built from the registered
//!   descriptions of the URIs the caller may read. Hidden and missing URIs
//!   give the same nothing. [`call_tool_result`] makes a whole result.
//! - The resource tools, for clients that only call tools:
//!   [`resource_tool_definitions`] gives the `read_resource` and
//!   `list_resources` definitions for the host's `tools/list`, and
//!   [`Resources::call_resource_tool`] answers their `tools/call` (also
//!   through [`Resources::request`] when
//!   [`RequestOptions::resource_tools`](crate::RequestOptions::resource_tools)
//!   is set), through the same pipeline and the library's sealed cursors.
//!
//! Modules: `embed` (the embedding), `budget` (its share of one read's
//! budgets per URI), `link` (link blocks), `definitions` (the tool
//! definitions), `call` (the tools' handler; their `tools/call` params are
//! read by the one strict params reader of `crate::request`), `result`
//! (`CallToolResult` objects).

mod budget;
mod call;
mod definitions;
mod embed;
mod link;
mod result;

pub use call::{INVALID_CURSOR_TEXT, NOT_FOUND_TEXT};
pub use definitions::{
    resource_tool_definition, resource_tool_definitions, LIST_RESOURCES_TOOL, READ_RESOURCE_TOOL,
};
pub(crate) use embed::TOOL_READ_RULES;
pub use embed::{EmbedForm, EmbedOptions, EmbedOutcome, Embedding};
pub use result::{call_tool_result, text_block};

/// The JSON-RPC method of tool calls.
pub const TOOLS_CALL_METHOD: &str = "tools/call";
