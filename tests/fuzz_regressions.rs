//! Regression tests for defects the fuzz targets in `fuzz/` found (one test
//! per finding, named after the rule it broke).

use mcp_resources::ResourceDefinition;

/// Found by the `definition` target: `serde_json`'s default float parser is
/// not correctly rounded, so a registered number could be stored one unit
/// in the last place away from the host's value, and read back (by
/// `to_object`, or by any client parsing the listing) as yet another value.
/// Numbers are parsed correctly rounded (`float_roundtrip`), so the stored
/// JSON holds the shortest form of the host's value, and reads back as it.
#[test]
fn registered_numbers_keep_their_value_through_the_stored_json() {
    for literal in [
        "20000000000709551614",
        "2.000000000070955e19",
        "2.0000000000709554e19",
        "-0.00000000000006464148589422966",
        "0.1",
        "1e300",
        "123456789012345678901234567890",
        "9007199254740993",
    ] {
        let json = format!(r#"{{"uri":"x://a","name":"n","v":{literal}}}"#);
        let def = ResourceDefinition::from_json(&json).unwrap();
        let exact: f64 = literal.parse().unwrap();
        let stored = def.to_object()["v"].as_f64().unwrap();
        assert_eq!(stored.to_bits(), exact.to_bits(), "{literal} read back");
        let compact: serde_json::Value = serde_json::from_str(def.json()).unwrap();
        assert_eq!(compact["v"].as_f64().unwrap().to_bits(), exact.to_bits());
        let canonical: serde_json::Value = serde_json::from_str(&def.canonical_json()).unwrap();
        assert_eq!(canonical["v"].as_f64().unwrap().to_bits(), exact.to_bits());
        // The stored text is the shortest form of that value, which any
        // correctly rounding parser (here Rust's own) reads back exactly.
        let text = def.json();
        let start = text.find(r#""v":"#).unwrap() + 4;
        let end = start + text[start..].find('}').unwrap();
        let written: f64 = text[start..end].parse().unwrap();
        assert_eq!(
            written.to_bits(),
            exact.to_bits(),
            "{literal} written as {}",
            &text[start..end]
        );
    }
}
