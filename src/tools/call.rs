//! The resource tools' `tools/call`: [`Resources::call_resource_tool`].
//!
//! What is a protocol error and what a tool execution error follows MCP's
//! tools page: params that do not satisfy the `CallToolRequest` schema
//! (not an object, `name` missing or not a string, `arguments` not an
//! object, a repeated member; read by the one strict params reader of
//! `crate::request`, whose `tools/call` spec keeps the arguments as given)
//! and an unknown per-request revision are
//! JSON-RPC errors (`-32602`, `-32022`); arguments the tool's input schema
//! refuses, resources that cannot be read and cursors that cannot be used
//! are tool execution errors (`isError: true` results) with fixed
//! messages. A cancelled call is the `canceled` error, never sent. Tool
//! names other than the two are not handled, so that the host routes them
//! to its own tools. Each tool runs its method in that method's call frame
//! (`read_resource` the embedding's, `list_resources` the listing's).

use std::borrow::Cow;

use crate::call::CallOptions;
use crate::error::{CauseText, Failure, FailureKind};
use crate::jsonrpc;
use crate::listing::{ListOptions, Page};
use crate::observe::CallMethod;
use crate::protocol::ProtocolRevision;
use crate::registry::Resources;
use crate::request::{
    from_params, params_error, request_revision, Arg, ParamsError, RequestError, RequestOptions,
    Response, ToolCallParams,
};
use crate::result_meta::ResultMeta;
use crate::sizing::write_json_str;

use super::definitions::{LIST_RESOURCES_TOOL, READ_RESOURCE_TOOL};
use super::embed::{EmbedForm, EmbedOptions, EmbedOutcome};
use super::result::{text_block, tool_error, tool_result_with_meta};

/// The execution error of every URI `read_resource` cannot read, whatever
/// the reason (hidden, undiscoverable, unregistered, invalid): one text.
pub const NOT_FOUND_TEXT: &str = "Resource not found";

/// The execution error of every cursor `list_resources` cannot use.
pub const INVALID_CURSOR_TEXT: &str = "Invalid cursor";

const READ_ARGUMENTS_TEXT: &str = "read_resource takes one argument: uri, a string";
const LIST_ARGUMENTS_TEXT: &str = "list_resources takes one optional argument: cursor, a string";

/// Which list a `list_resources` page belongs to: its cursors start with
/// `r` (resources) or `t` (templates), then the library's sealed cursor of
/// that list; `t` alone is the first page of templates (which follows the
/// last page of resources).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Resources,
    Templates,
}

impl Resources {
    /// Serves `tools/call` for the resource tools, `read_resource` and
    /// `list_resources` (see [`crate::tools`]): `params` is the raw
    /// params text. Returns the response to send (a `CallToolResult`, a
    /// tool execution error as a result with `isError: true`, or a JSON-RPC
    /// error object), [`RequestError::MethodNotHandled`] for another tool
    /// name (route it to the host's own tools), or
    /// [`RequestError::InvalidArgument`] for `list_resources` with an empty
    /// scope key.
    ///
    /// Every call of a resource tool gives one call event (method
    /// `tools/call`, docs/BEHAVIOUR.md §19), refusals before its frame
    /// included; another tool name gives none.
    pub fn call_resource_tool(
        &self,
        params: &[u8],
        options: &RequestOptions,
    ) -> Result<Response, RequestError> {
        let started = std::time::Instant::now();
        let out = self.serve_resource_tool(params, options);
        self.observe_unframed(CallMethod::ToolsCall, started, options, &out);
        out
    }

    /// [`call_resource_tool`](Self::call_resource_tool) but its refusals'
    /// call events.
    fn serve_resource_tool(
        &self,
        params: &[u8],
        options: &RequestOptions,
    ) -> Result<Response, RequestError> {
        let negotiated = options.call.protocol_revision;
        let parsed = match ToolCallParams::parse(params) {
            Ok(p) => p,
            Err(e) => {
                return match ToolCallParams::name_of_refused(params, e) {
                    Some(name) if !is_resource_tool(&name) => Err(RequestError::MethodNotHandled),
                    _ => Ok(params_error(e, negotiated)),
                }
            }
        };
        let Some(name) = parsed.name.as_deref() else {
            return Ok(params_error(
                ParamsError("params name is required"),
                negotiated,
            ));
        };
        let list = match name {
            READ_RESOURCE_TOOL => false,
            LIST_RESOURCES_TOOL => true,
            _ => return Err(RequestError::MethodNotHandled),
        };
        if list && options.scope_key.is_empty() {
            return Err(RequestError::InvalidArgument(
                "list scope key must not be empty",
            ));
        }
        let revision = match request_revision(parsed.protocol_version.as_deref(), negotiated) {
            Ok(r) => r,
            Err(response) => return Ok(response),
        };
        // The tool's method runs in the request's call options with what
        // the params set (the revision, the trace context).
        let call = options.call_for(from_params(revision, parsed.trace_context()));
        Ok(if list {
            self.list_resources_tool(&parsed, options, call)
        } else {
            self.read_resource_tool(&parsed, call)
        })
    }

    /// `read_resource`: the read of one URI as embedded resources, and its
    /// items again as `structuredContent.contents`.
    fn read_resource_tool(&self, params: &ToolCallParams<'_>, call: CallOptions) -> Response {
        let revision = call.protocol_revision;
        let meta = call.result_meta.clone();
        let meta = meta.as_ref();
        let uri = match (params.argument("uri"), params.arguments.len()) {
            (Some(Arg::Str(uri)), 1) => uri,
            _ => return arguments_error(revision, READ_ARGUMENTS_TEXT, meta),
        };
        let embed = EmbedOptions {
            call,
            form: EmbedForm::Resource,
            over_budget_links: false,
        };
        let mut embedding = match self.embed_for_tool(uri.as_bytes(), &embed) {
            Ok(e) => e,
            Err(f) => return failed(f, revision, meta),
        };
        match embedding.take_outcome() {
            Some(EmbedOutcome::Read { partial, .. }) => {
                let mut structured = String::from("{\"contents\":");
                structured.push_str(embedding.contents_json().unwrap_or("[]"));
                structured.push('}');
                let json = tool_result_with_meta(
                    revision,
                    embedding.blocks_json(),
                    Some(&structured),
                    false,
                    meta,
                );
                Response::tool_result(json, revision, partial, None)
            }
            Some(EmbedOutcome::Failed(f)) => failed(f, revision, meta),
            // One URI, the resource form: always read or failed.
            Some(EmbedOutcome::Linked) | None => {
                failed(Failure::new(FailureKind::ReadFailed), revision, meta)
            }
        }
    }

    /// `list_resources`: one page of resources, then of templates.
    fn list_resources_tool(
        &self,
        params: &ToolCallParams<'_>,
        options: &RequestOptions,
        call: CallOptions,
    ) -> Response {
        let revision = call.protocol_revision;
        let meta = call.result_meta.clone();
        let meta = meta.as_ref();
        let cursor = match (params.argument("cursor"), params.arguments.len()) {
            (None, 0) => None,
            (Some(Arg::Str(c)), 1) => Some(c.as_ref()),
            _ => return arguments_error(revision, LIST_ARGUMENTS_TEXT, meta),
        };
        let (phase, cursor) = match cursor {
            None | Some("") => (Phase::Resources, None),
            Some(c) => match (c.as_bytes()[0], &c[1..]) {
                (b'r', rest) if !rest.is_empty() => (Phase::Resources, Some(rest)),
                (b't', "") => (Phase::Templates, None),
                (b't', rest) => (Phase::Templates, Some(rest)),
                _ => {
                    let f = Failure::request("Invalid cursor").caused_by(CauseText(
                        "the cursor has neither prefix list_resources gives (r, t)".into(),
                    ));
                    return unframed(tool_error(revision, INVALID_CURSOR_TEXT, meta), revision, f);
                }
            },
        };
        let list = ListOptions {
            scope_key: options.scope_key.clone(),
            cursor: cursor.map(|c| c.as_bytes().to_vec()),
            page_size: options.page_size,
            call,
        };
        let page = self.list_for_tool(phase == Phase::Templates, &list);
        match page {
            Ok(page) => Response::tool_result(
                self.page_result(&page, phase, revision, meta),
                revision,
                false,
                None,
            ),
            Err(f) if f.kind() == FailureKind::InvalidRequest => Response::tool_result(
                tool_error(revision, INVALID_CURSOR_TEXT, meta),
                revision,
                false,
                Some(f),
            ),
            Err(f) => failed(f, revision, meta),
        }
    }

    /// The `CallToolResult` of one page: the structured content, and the
    /// same JSON as a text block (MCP: a tool returning structured content
    /// should also return it serialised).
    fn page_result(
        &self,
        page: &Page,
        phase: Phase,
        revision: ProtocolRevision,
        meta: Option<&ResultMeta>,
    ) -> String {
        let next: Option<Cow<'_, str>> = match (phase, page.next_cursor()) {
            (Phase::Resources, Some(c)) => Some(Cow::Owned(format!("r{c}"))),
            (Phase::Templates, Some(c)) => Some(Cow::Owned(format!("t{c}"))),
            (Phase::Resources, None) if !self.template_order().is_empty() => {
                Some(Cow::Borrowed("t"))
            }
            _ => None,
        };
        let array = page.array_json();
        let mut structured = String::with_capacity(array.len() + 128);
        structured.push_str("{\"resources\":");
        structured.push_str(if phase == Phase::Resources {
            array
        } else {
            "[]"
        });
        structured.push_str(",\"resourceTemplates\":");
        structured.push_str(if phase == Phase::Templates {
            array
        } else {
            "[]"
        });
        if let Some(c) = next {
            structured.push_str(",\"nextCursor\":");
            write_json_str(&mut structured, &c);
        }
        structured.push('}');
        let mut content = String::with_capacity(structured.len() * 5 / 4 + 40);
        content.push('[');
        content.push_str(&text_block(&structured));
        content.push(']');
        tool_result_with_meta(revision, &content, Some(&structured), false, meta)
    }
}

/// Whether `name` is one of the resource tools.
fn is_resource_tool(name: &str) -> bool {
    name == READ_RESOURCE_TOOL || name == LIST_RESOURCES_TOOL
}

/// A tool execution error for arguments the input schema refuses.
fn arguments_error(
    revision: ProtocolRevision,
    text: &'static str,
    meta: Option<&ResultMeta>,
) -> Response {
    let f = Failure::request(text).caused_by(CauseText(
        "the arguments do not satisfy the tool's input schema".into(),
    ));
    unframed(tool_error(revision, text, meta), revision, f)
}

/// A tool execution error refused before the tool's call frame (its call
/// event is the request function's to emit).
fn unframed(json: String, revision: ProtocolRevision, f: Failure) -> Response {
    Response {
        unframed: true,
        ..Response::tool_result(json, revision, false, Some(f))
    }
}

/// The response for a failed read or listing: `canceled` is the error
/// object (never sent: the client cancelled); every other failure is a
/// tool execution error, and every failure that a read answers as not
/// found or as an invalid request is the same one ([`NOT_FOUND_TEXT`]).
fn failed(f: Failure, revision: ProtocolRevision, meta: Option<&ResultMeta>) -> Response {
    let text = match f.kind() {
        FailureKind::Canceled => {
            let json = jsonrpc::error_object(&f, revision, None);
            return Response::error(f, json, revision);
        }
        FailureKind::Unavailable | FailureKind::InvalidRequest => NOT_FOUND_TEXT,
        kind => kind.default_message(),
    };
    Response::tool_result(tool_error(revision, text, meta), revision, false, Some(f))
}
