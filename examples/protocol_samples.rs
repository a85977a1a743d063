//! Writes what the library answers, through the one-call function, for each
//! result kind and error in each protocol revision, together with what a
//! client must find in it: the input of the client checks
//! (`scripts/client-checks.sh`), which validate every file with the
//! official Python and TypeScript SDKs and the revision's JSON Schema
//! (whose properties also say which members each revision defines: the
//! checks refuse any other). Every revision the library knows is written,
//! 2024-11-05 and 2025-03-26 included; the listed descriptions carry every
//! standard member (`title`, `icons`, `annotations.lastModified`, `_meta`),
//! so each revision's form of them is checked.
//!
//! Run with `cargo run --example protocol_samples -- OUT_DIR`; writes one
//! JSON file per sample and `manifest.json` describing them.

use mcp_resources::CallOptions;
use std::sync::Arc;

use mcp_resources::*;
use serde_json::{json, Value};

/// Plans per requested URI and reads canned bodies.
struct Guide;

impl ResourceHandler for Guide {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        let items: &[&str] = match m.uri() {
            "doc://guide" => &["doc://guide/intro", "doc://guide/logo", "doc://guide/blank"],
            "doc://partial" => &["doc://guide/intro", "doc://broken"],
            "doc://empty" => &[],
            _ => return ResourceReadPlan::single_for(m).map_err(CallbackError::failed),
        };
        let requested = ResourceTarget::new(m.uri(), "", None).map_err(CallbackError::failed)?;
        let items = items
            .iter()
            .map(|u| ResourceTarget::new(u, "", None))
            .collect::<Result<Vec<_>, _>>()
            .map_err(CallbackError::failed)?;
        ResourceReadPlan::new(requested, items).map_err(CallbackError::failed)
    }

    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        match t.uri() {
            "doc://guide/intro" => ResourcePayload::text("text/markdown", "# Guide\n\"quoted\" é")
                .and_then(|p| p.with_meta_json(r#"{"com.example/lang":"en"}"#)),
            "doc://guide/logo" => ResourcePayload::blob("image/png", &[0x89, b'P', b'N', b'G']),
            "doc://guide/blank" => ResourcePayload::text("text/plain", ""),
            "doc://broken" => return Err(CallbackError::failed("disk gone")),
            u => ResourcePayload::text("text/plain", &format!("body of {u}")),
        }
        .map_err(CallbackError::failed)
    }
}

/// Completes note ids: two of five (so `hasMore` is true), one value that
/// could not be a capture (dropped, and taken off the total).
struct NoteIds;

impl ResourceCompleter for NoteIds {
    fn complete(
        &self,
        _: &CallContext,
        _: &CompletionRequest,
        out: &mut CompletionSink,
    ) -> Result<(), CallbackError> {
        for id in ["alpha", "beta", "../secret"] {
            let _ = out.add(id);
        }
        out.set_total(6);
        Ok(())
    }
}

fn registry() -> Result<Resources, Failure> {
    let handler: Arc<dyn ResourceHandler> = Arc::new(Guide);
    let public = CacheHints::new(60_000, true);
    let mut b = Resources::builder()
        .policy(Arc::new(AllowAll))
        .cache_hints(RegistryCacheHints::new(300_000, true));
    for (def, hints) in [
        (
            r#"{"uri":"doc://guide","name":"guide","title":"Guide","mimeType":"text/markdown","size":42,"annotations":{"audience":["user","assistant"],"priority":0.8,"lastModified":"2025-01-12T15:00:58Z"},"icons":[{"src":"https://example.com/guide.png","mimeType":"image/png","sizes":["48x48"],"theme":"light"}],"_meta":{"com.example/owner":"docs"}}"#,
            Some(public),
        ),
        (r#"{"uri":"doc://partial","name":"partial"}"#, Some(public)),
        (
            r#"{"uri":"doc://empty","name":"empty","description":"nothing planned"}"#,
            None,
        ),
        (
            r#"{"uriTemplate":"doc://notes/{id}","name":"note","mimeType":"text/plain"}"#,
            None,
        ),
        (
            r#"{"uriTemplate":"doc://tags/{tag}/items","name":"tagged","title":"Tagged","annotations":{"lastModified":"2025-01-12T15:00:58+01:00"},"icons":[{"src":"data:image/png;base64,iVBORw=="}],"_meta":{"com.example/kind":"tag"}}"#,
            None,
        ),
    ] {
        let mut binding = ResourceBinding::new(def, handler.clone())?;
        if let Some(h) = hints {
            binding = binding.with_cache_hints(h);
        }
        if def.contains("doc://notes/{id}") {
            binding = binding.with_completer(Arc::new(NoteIds));
        }
        b.push(binding);
    }
    b.build()
}

/// Params as a client of `revision` sends them: 2026-07-28 names the
/// revision per request, older revisions negotiated it at initialisation.
fn params(revision: ProtocolRevision, mut p: Value) -> String {
    if revision.has_result_fields() {
        p["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": revision.as_str(),
            "io.modelcontextprotocol/clientCapabilities": {},
        });
    }
    p.to_string()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .ok_or("usage: protocol_samples OUT_DIR")?;
    std::fs::create_dir_all(&out)?;
    let r = registry()?;
    // Every result carries the server's identity (the host's result _meta).
    let server_info = ResultMeta::from_json(
        r#"{"io.modelcontextprotocol/serverInfo":{"name":"protocol-samples","version":"1.0.0"}}"#,
    )?;
    let mut manifest = Vec::new();
    for revision in ProtocolRevision::ALL {
        // The host's negotiated revision; 2026 clients also name it per request.
        let options = RequestOptions {
            scope_key: b"tenant-1".to_vec(),
            page_size: 1,
            call: CallOptions {
                protocol_revision: if revision.has_result_fields() {
                    ProtocolRevision::V2025_06_18
                } else {
                    revision
                },
                result_meta: Some(server_info.clone()),
                ..CallOptions::default()
            },
            ..RequestOptions::default()
        };
        let modern = revision.has_result_fields();
        let hints = |ttl: u64, scope: &str| {
            if modern {
                json!({"ttlMs": ttl, "cacheScope": scope})
            } else {
                Value::Null
            }
        };
        // Content `_meta` exists from 2025-06-18 on.
        let item_meta = if revision.has_item_meta() {
            json!({"com.example/lang": "en"})
        } else {
            Value::Null
        };
        let first_page = r.request(
            b"resources/list",
            params(revision, json!({})).as_bytes(),
            &options,
        )?;
        let cursor = json_of(first_page.json())["nextCursor"]
            .as_str()
            .ok_or("the first page has a next cursor")?
            .to_string();
        let mut last_options = options.clone();
        last_options.page_size = 10;
        let samples: Vec<(&str, &str, Response, Value)> = vec![
            (
                "read_complete",
                "resources/read",
                r.request(
                    b"resources/read",
                    params(revision, json!({"uri": "doc://guide"})).as_bytes(),
                    &options,
                )?,
                json!({"contents": [
                    {"uri": "doc://guide/intro", "mimeType": "text/markdown", "text": "# Guide\n\"quoted\" é", "meta": item_meta},
                    {"uri": "doc://guide/logo", "mimeType": "image/png", "blob": "iVBORw=="},
                    {"uri": "doc://guide/blank", "mimeType": "text/plain", "text": ""}],
                    "cache": hints(60_000, "public")}),
            ),
            (
                "read_partial",
                "resources/read",
                r.request(
                    b"resources/read",
                    params(revision, json!({"uri": "doc://partial"})).as_bytes(),
                    &options,
                )?,
                json!({"partial": true, "items": 2, "cache": hints(0, "private")}),
            ),
            (
                "read_empty",
                "resources/read",
                r.request(
                    b"resources/read",
                    params(revision, json!({"uri": "doc://empty"})).as_bytes(),
                    &options,
                )?,
                json!({"contents": [], "cache": hints(300_000, "private")}),
            ),
            (
                "list_first_page",
                "resources/list",
                first_page,
                json!({"uris": ["doc://empty"], "nextCursor": true, "cache": hints(300_000, "public")}),
            ),
            (
                "list_last_page",
                "resources/list",
                r.request(
                    b"resources/list",
                    params(revision, json!({"cursor": cursor})).as_bytes(),
                    &last_options,
                )?,
                json!({"uris": ["doc://guide", "doc://partial"], "nextCursor": false, "cache": hints(300_000, "public")}),
            ),
            (
                "templates_page",
                "resources/templates/list",
                r.request(
                    b"resources/templates/list",
                    params(revision, json!({})).as_bytes(),
                    &last_options,
                )?,
                json!({"templates": ["doc://notes/{id}", "doc://tags/{tag}/items"], "nextCursor": false, "cache": hints(300_000, "public")}),
            ),
            (
                "error_not_found",
                "resources/read",
                r.request(
                    b"resources/read",
                    params(revision, json!({"uri": "doc://missing"})).as_bytes(),
                    &options,
                )?,
                json!({"code": revision.not_found_code(), "uri": "doc://missing"}),
            ),
            (
                "error_invalid_cursor",
                "resources/list",
                r.request(
                    b"resources/list",
                    params(revision, json!({"cursor": "bogus"})).as_bytes(),
                    &options,
                )?,
                json!({"code": -32602, "message": "Invalid cursor"}),
            ),
            (
                "complete_values",
                "completion/complete",
                r.request(
                    b"completion/complete",
                    params(
                        revision,
                        json!({"ref": {"type": "ref/resource", "uri": "doc://notes/{id}"},
                               "argument": {"name": "id", "value": "a"}}),
                    )
                    .as_bytes(),
                    &options,
                )?,
                json!({"values": ["alpha", "beta"], "total": 5, "hasMore": true}),
            ),
            (
                "error_complete_not_found",
                "completion/complete",
                r.request(
                    b"completion/complete",
                    params(
                        revision,
                        json!({"ref": {"type": "ref/resource", "uri": "doc://missing/{id}"},
                               "argument": {"name": "id", "value": ""}}),
                    )
                    .as_bytes(),
                    &options,
                )?,
                json!({"code": revision.not_found_code(), "uri": "doc://missing/{id}"}),
            ),
            (
                "error_complete_invalid_argument",
                "completion/complete",
                r.request(
                    b"completion/complete",
                    params(
                        revision,
                        json!({"ref": {"type": "ref/resource", "uri": "doc://notes/{id}"},
                               "argument": {"name": "nope", "value": ""}}),
                    )
                    .as_bytes(),
                    &options,
                )?,
                json!({"code": -32602}),
            ),
            (
                "error_invalid_params",
                "resources/read",
                r.request(
                    b"resources/read",
                    params(revision, json!({"uri": 7})).as_bytes(),
                    &options,
                )?,
                json!({"code": -32602}),
            ),
        ];
        let mut samples: Vec<Sample> = samples
            .into_iter()
            .map(|(kind, method, response, expect)| {
                (
                    kind,
                    method,
                    response.json().to_string(),
                    response.is_error(),
                    expect,
                )
            })
            .collect();
        samples.extend(tool_samples(&r, revision, &options)?);
        for (kind, method, json, error, expect) in samples {
            let file = format!("{}_{kind}.json", revision.as_str());
            std::fs::write(format!("{out}/{file}"), json)?;
            manifest.push(json!({
                "file": file,
                "revision": revision.as_str(),
                "method": method,
                "kind": kind,
                "error": error,
                "expect": expect,
            }));
        }
    }
    std::fs::write(
        format!("{out}/manifest.json"),
        Value::Array(manifest.clone()).to_string(),
    )?;
    println!("wrote {} samples to {out}", manifest.len());
    Ok(())
}

/// One sample: its kind, its method, the JSON sent, whether it is an
/// error object, and what a client must find in it.
type Sample = (&'static str, &'static str, String, bool, Value);

/// A result a host writes with the library's helpers.
fn host_result(json: String) -> (String, bool) {
    (json, false)
}

/// What the one-call function answered.
fn answered(response: Response) -> (String, bool) {
    (response.json().to_string(), response.is_error())
}

/// Resources in tool results: a host tool's embedded resources and links
/// (`Resources::embed`), the resource tools through the one-call request,
/// and the definitions a host merges into `tools/list`.
fn tool_samples(
    r: &Resources,
    revision: ProtocolRevision,
    options: &RequestOptions,
) -> Result<Vec<Sample>, Box<dyn std::error::Error>> {
    use mcp_resources::tools::{resource_tool_definitions, EmbedForm, EmbedOptions};
    let tools = RequestOptions {
        resource_tools: true,
        page_size: 1,
        ..options.clone()
    };
    let embed = EmbedOptions {
        call: CallOptions {
            protocol_revision: revision,
            result_meta: options.call.result_meta.clone(),
            ..CallOptions::default()
        },
        ..EmbedOptions::default()
    };
    let embedded = r.embed(&["doc://guide", "doc://missing", "doc://partial"], &embed)?;
    // resource_link blocks exist from 2025-06-18 on.
    let linked = if revision.has_tool_output() {
        Some(r.embed(
            &["doc://guide", "doc://notes/7", "doc://missing"],
            &EmbedOptions {
                form: EmbedForm::Link,
                ..embed.clone()
            },
        )?)
    } else {
        None
    };
    // Structured content exists from 2025-06-18 on; before it the text
    // block alone holds a page.
    let structured = |tool: &str| {
        if revision.has_tool_output() {
            json!(tool)
        } else {
            Value::Null
        }
    };
    let call = |p: Value| {
        r.request(b"tools/call", params(revision, p).as_bytes(), &tools)
            .map(answered)
    };
    let templates_page = call(json!({"name": "list_resources", "arguments": {"cursor": "t"}}))?;
    let mut list_tools = json!({"tools": json_of(resource_tool_definitions(revision))});
    // The host's own result carries its result _meta too.
    list_tools["_meta"] = json!({"io.modelcontextprotocol/serverInfo": {"name": "protocol-samples", "version": "1.0.0"}});
    if revision.has_result_fields() {
        list_tools["resultType"] = json!("complete");
        list_tools["ttlMs"] = json!(0);
        list_tools["cacheScope"] = json!("public");
    }
    let mut samples = vec![
        (
            "tool_embedded_resources",
            "tools/call",
            host_result(embedded.call_tool_result()),
            json!({"content": [
                ["resource", "doc://guide/intro"], ["resource", "doc://guide/logo"], ["resource", "doc://guide/blank"],
                ["resource", "mcp-warning://read/"], ["resource", "doc://guide/intro"]],
                "isError": false}),
        ),
        (
            "tool_read_resource",
            "tools/call",
            call(json!({"name": "read_resource", "arguments": {"uri": "doc://guide"}}))?,
            json!({"content": [
                ["resource", "doc://guide/intro"], ["resource", "doc://guide/logo"], ["resource", "doc://guide/blank"]],
                "structured": structured("read_resource"), "isError": false}),
        ),
        (
            "tool_read_resource_not_found",
            "tools/call",
            call(json!({"name": "read_resource", "arguments": {"uri": "doc://missing"}}))?,
            json!({"content": [["text", "Resource not found"]], "isError": true}),
        ),
        (
            "tool_list_resources",
            "tools/call",
            call(json!({"name": "list_resources", "arguments": {}}))?,
            json!({"content": [["text", null]], "structured": structured("list_resources"),
                   "resources": ["doc://empty"], "templates": [], "nextCursor": true, "isError": false}),
        ),
        (
            "tool_list_resource_templates",
            "tools/call",
            templates_page,
            json!({"content": [["text", null]], "structured": structured("list_resources"),
                   "resources": [], "templates": ["doc://notes/{id}"], "nextCursor": true, "isError": false}),
        ),
        (
            "tool_list_invalid_cursor",
            "tools/call",
            call(json!({"name": "list_resources", "arguments": {"cursor": "bogus"}}))?,
            json!({"content": [["text", "Invalid cursor"]], "isError": true}),
        ),
        (
            "tools_list",
            "tools/list",
            host_result(list_tools.to_string()),
            json!({"tools": ["list_resources", "read_resource"]}),
        ),
        (
            "error_tool_invalid_params",
            "tools/call",
            call(json!({"name": "read_resource", "arguments": []}))?,
            json!({"code": -32602, "message": "params arguments must be an object"}),
        ),
    ];
    if let Some(linked) = linked {
        samples.push((
            "tool_resource_links",
            "tools/call",
            host_result(linked.call_tool_result()),
            json!({"content": [["resource_link", "doc://guide"], ["resource_link", "doc://notes/7"]],
                   "names": ["guide", "note"], "isError": false}),
        ));
    }
    Ok(samples
        .into_iter()
        .map(|(kind, method, (json, error), expect)| (kind, method, json, error, expect))
        .collect())
}

fn json_of(s: &str) -> Value {
    serde_json::from_str(s).unwrap_or(Value::Null)
}
