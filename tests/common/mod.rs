//! Shared fixtures for the foundation tests.
#![allow(dead_code)]

use std::sync::Arc;

use mcp_resources::*;

/// A policy that allows everything.
pub struct AllowAll;

impl ResourcePolicy for AllowAll {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        Ok(())
    }
    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(Visibility::VISIBLE)
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        Ok(())
    }
}

/// A handler that plans the matched URI as its single item and reads "x".
pub struct Single;

impl ResourceHandler for Single {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        let t = ResourceTarget::new(m.uri(), "", None).map_err(CallbackError::failed)?;
        Ok(ResourceReadPlan::single(t))
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        ResourcePayload::text("text/plain", "x").map_err(CallbackError::failed)
    }
}

/// Definition JSON for an exact URI.
pub fn exact(uri: &str, name: &str) -> String {
    serde_json::json!({"uri": uri, "name": name}).to_string()
}

/// Definition JSON for a template.
pub fn template(t: &str, name: &str) -> String {
    serde_json::json!({"uriTemplate": t, "name": name}).to_string()
}

/// A builder with the allow-all policy and the given definitions.
pub fn builder(defs: &[String]) -> Result<ResourcesBuilder, Failure> {
    let mut b = Resources::builder().policy(Arc::new(AllowAll));
    for d in defs {
        b = b.binding(ResourceBinding::new(d, Arc::new(Single))?);
    }
    Ok(b)
}

/// A registry with the allow-all policy and the given definitions.
pub fn registry(defs: &[String]) -> Result<Resources, Failure> {
    builder(defs)?.build()
}
