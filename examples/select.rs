//! Registers a few resources and templates and prints how sample URIs
//! select, including rejected ones.
//!
//! Run with `cargo run --example select`.

use std::sync::Arc;

use mcp_resources::*;

/// Plans the matched URI as its single item and reads a short text.
struct Hello;

impl ResourceHandler for Hello {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        ResourceReadPlan::single_for(m).map_err(CallbackError::failed)
    }
    fn read(&self, _: &CallContext, t: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        ResourcePayload::text("text/plain", &format!("hello from {}", t.uri()))
            .map_err(CallbackError::failed)
    }
}

fn main() -> Result<(), Failure> {
    let handler: Arc<dyn ResourceHandler> = Arc::new(Hello);
    let definitions = [
        r#"{"uri":"doc://handbook/intro","name":"intro","mimeType":"text/markdown"}"#,
        r#"{"uri":"urn:isbn:0451450523","name":"book"}"#,
        r#"{"uriTemplate":"asset://project/{id}/thumbnail","name":"thumbnail"}"#,
        r#"{"uri":"asset://project/latest/thumbnail","name":"latest-thumbnail"}"#,
        r#"{"uriTemplate":"asset://project/{id}/sizes/{size}","name":"sized"}"#,
        r#"{"uriTemplate":"asset://project/latest/sizes/{size}","name":"latest-sized"}"#,
        r#"{"uriTemplate":"db://tables/{table}/rows?format=json","name":"rows"}"#,
    ];
    let mut builder = Resources::builder().policy(Arc::new(AllowAll));
    for json in definitions {
        builder.push(ResourceBinding::new(json, handler.clone())?);
    }
    let resources = builder.build()?;
    println!("registered {} definitions", resources.bindings().len());

    let samples: [&[u8]; 16] = [
        b"doc://handbook/intro",
        b"urn:isbn:0451450523",
        b"asset://project/42/thumbnail",
        b"asset://project/%C3%A9t%C3%A9/thumbnail",
        b"asset://project/%252F/thumbnail",
        b"asset://project/latest/thumbnail",
        b"asset://project/42/sizes/large",
        b"asset://project/latest/sizes/large",
        b"db://tables/users/rows?format=json",
        b"db://tables/users/rows?format=csv",
        b"asset://project/%2F/thumbnail",
        b"asset://project/%2E%2E/thumbnail",
        b"s://user:secret@host/x",
        b"doc://handbook/a%zz",
        b"mcp-warning://read/0123456789abcdef0123456789abcdef",
        b"doc://handbook/\xff",
    ];
    for uri in samples {
        let shown = String::from_utf8_lossy(uri);
        match resources.select(uri) {
            Ok(s) => {
                let captures: Vec<String> = s
                    .matched
                    .captures()
                    .iter()
                    .map(|(n, v)| format!("{n}={v:?}"))
                    .collect();
                println!(
                    "{shown:<52} -> {} ({}) {}",
                    s.matched.definition().name(),
                    s.matched.definition().uri_or_template(),
                    captures.join(" ")
                );
            }
            Err(e) => println!(
                "{shown:<52} -> refused: {} ({}, JSON-RPC {})",
                e.message(),
                e.kind(),
                e.jsonrpc_code()
            ),
        }
    }
    Ok(())
}
