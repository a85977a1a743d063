//! The method table of the one-call request function.

use super::*;

#[test]
fn methods_parse_exactly() {
    for m in [
        RequestMethod::ResourcesRead,
        RequestMethod::ResourcesList,
        RequestMethod::ResourcesTemplatesList,
        RequestMethod::CompletionComplete,
        RequestMethod::ToolsCall,
    ] {
        assert_eq!(RequestMethod::parse(m.as_str().as_bytes()), Some(m));
    }
    for bad in [
        &b"resources/Read"[..],
        b"resources/read ",
        b"completion/Complete",
        b"prompts/get",
        b"tools/Call",
        b"tools/list",
        b"",
    ] {
        assert_eq!(RequestMethod::parse(bad), None);
    }
}
