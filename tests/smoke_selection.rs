use std::sync::Arc;

use mcp_resources::*;

struct Allow;
impl ResourcePolicy for Allow {
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
struct H;
impl ResourceHandler for H {
    fn resolve(
        &self,
        _: &CallContext,
        m: &ResourceMatch,
    ) -> Result<ResourceReadPlan, CallbackError> {
        Ok(ResourceReadPlan::single(
            ResourceTarget::new(m.uri(), "", None).unwrap(),
        ))
    }
    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<ResourcePayload, CallbackError> {
        Ok(ResourcePayload::text("text/plain", "x").unwrap())
    }
}

fn reg(defs: &[&str]) -> Result<Resources, Failure> {
    let mut b = Resources::builder().policy(Arc::new(Allow));
    for d in defs {
        b = b.binding(ResourceBinding::new(d, Arc::new(H))?);
    }
    b.build()
}

#[test]
fn smoke() {
    let r = reg(&[
        r#"{"uri":"x://a/b/c","name":"exact"}"#,
        r#"{"uriTemplate":"x://a/{p}/c","name":"t1"}"#,
        r#"{"uriTemplate":"x://a/b/{q}","name":"t2"}"#,
        r#"{"uriTemplate":"asset://project/{id}/thumbnail","name":"thumb"}"#,
        r#"{"uriTemplate":"urn:{id}","name":"urn"}"#,
    ])
    .unwrap();
    assert_eq!(
        r.select(b"x://a/b/c").unwrap().matched.definition().name(),
        "exact"
    );
    assert_eq!(
        r.select(b"x://a/b/d").unwrap().matched.definition().name(),
        "t2"
    );
    assert_eq!(
        r.select(b"x://a/z/c").unwrap().matched.definition().name(),
        "t1"
    );
    let s = r.select(b"asset://project/%C3%A9/thumbnail").unwrap();
    assert_eq!(s.matched.capture("id"), Some("é"));
    let s = r.select(b"asset://project/%252F/thumbnail").unwrap();
    assert_eq!(s.matched.capture("id"), Some("%2F"));
    assert_eq!(
        r.select(b"asset://project/%2F/thumbnail")
            .unwrap_err()
            .kind(),
        FailureKind::InvalidRequest
    );
    assert_eq!(
        r.select(b"asset://project//thumbnail").unwrap_err().kind(),
        FailureKind::Unavailable
    );
    assert_eq!(r.select(b"urn:x").unwrap().matched.capture("id"), Some("x"));
    assert_eq!(
        r.select(b"s://u@h/x").unwrap_err().kind(),
        FailureKind::InvalidRequest
    );
    assert_eq!(
        r.select(b"MCP-Warning:x").unwrap_err().kind(),
        FailureKind::InvalidRequest
    );
    let r2 = reg(&[
        r#"{"uriTemplate":"x://a/{p}/c","name":"t1"}"#,
        r#"{"uriTemplate":"x://a/b/{q}","name":"t2"}"#,
    ])
    .unwrap();
    let e = r2.select(b"x://a/b/c").unwrap_err();
    assert_eq!(e.kind(), FailureKind::InvalidRequest);
    assert_eq!(e.message(), "ambiguous resource URI");
    for bad in [
        "x://a/x{id}",
        "x://a/{id}.png",
        "x://{h}/a",
        "x://a/{id*}",
        "x://a/{+x}",
        "x://a/b?{q}",
        "x://a/{a}/{a}",
        "x://a/{id:3}",
        "x://a/{a,b}",
    ] {
        let e = reg(&[&format!(r#"{{"uriTemplate":"{bad}","name":"t"}}"#)]).unwrap_err();
        assert_eq!(e.kind(), FailureKind::InvalidConfiguration, "{bad}");
        eprintln!("{bad}: {}", e.message());
    }
}
