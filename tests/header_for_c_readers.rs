//! The generated C header speaks C to C readers: its documentation is
//! Doxygen (`\param`, `\return`, `\pre`), not rustdoc; every parameter has a
//! full name and a `\param`; every function says what it returns and how
//! it may be used across threads; and the file has no stray blank lines.
//!
//! The header is generated from the doc comments of `src/ffi/*.rs`
//! (scripts/gen-header.sh), so these checks hold those comments to it.

use std::path::Path;

fn header() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/mcp_resources.h");
    std::fs::read_to_string(path).expect("include/mcp_resources.h is readable")
}

/// One declaration of the header with the documentation comment just
/// before it (empty when there is none).
struct Declaration {
    line: usize,
    text: String,
    doc: String,
}

/// Function prototypes and function-pointer typedefs, each with its
/// preceding `/** ... */` comment.
fn declarations(h: &str) -> Vec<Declaration> {
    let lines: Vec<&str> = h.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let is_prototype = line.starts_with(|c: char| c.is_ascii_lowercase())
            && line.contains("mcpr_")
            && line.contains('(')
            && line.ends_with(");");
        if !is_prototype {
            continue;
        }
        let mut doc = Vec::new();
        if i > 0 && lines[i - 1].trim() == "*/" {
            let mut j = i - 1;
            while j > 0 && !lines[j].trim_start().starts_with("/**") {
                doc.push(lines[j]);
                j -= 1;
            }
            doc.push(lines[j]);
            doc.reverse();
        }
        out.push(Declaration {
            line: i + 1,
            text: line.to_string(),
            doc: doc.join("\n"),
        });
    }
    out
}

/// The parameter declarations of a prototype or function-pointer typedef
/// (`void` alone is no parameter).
fn parameters(text: &str) -> Vec<String> {
    let open = if text.starts_with("typedef") {
        // `typedef R (*name)(params);`: the second parenthesis.
        let first = text.find(")(").expect("function-pointer typedef");
        first + 1
    } else {
        text.find('(').expect("prototype")
    };
    let params = &text[open + 1..text.rfind(')').expect("prototype")];
    if params.trim() == "void" {
        return Vec::new();
    }
    params.split(',').map(|p| p.trim().to_string()).collect()
}

/// The parameter names of a prototype or function-pointer typedef.
fn parameter_names(text: &str) -> Vec<String> {
    parameters(text)
        .iter()
        .map(|p| p.rsplit([' ', '*']).next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn header_documentation_has_no_rust_idioms() {
    let h = header();
    for (needle, why) in [
        ("# Safety", "a rustdoc heading: use \\pre"),
        ("Option<", "a Rust type: say \"may be NULL\""),
        (
            "Box<",
            "a Rust type: say who owns it and which function frees it",
        ),
        ("&mut ", "a Rust reference: say \"pointer\""),
        ("unsafe", "Rust vocabulary: state the precondition"),
        ("[`", "a rustdoc link"),
        ("crate::", "a Rust path"),
        ("`Some", "a Rust value"),
    ] {
        let found: Vec<usize> = h
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains(needle))
            .map(|(i, _)| i + 1)
            .collect();
        assert!(
            found.is_empty(),
            "{needle:?} ({why}) on header lines {found:?}"
        );
    }
}

#[test]
fn header_has_no_consecutive_blank_lines() {
    let h = header();
    let lines: Vec<&str> = h.lines().collect();
    let doubled: Vec<usize> = lines
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0].trim().is_empty() && w[1].trim().is_empty())
        .map(|(i, _)| i + 2)
        .collect();
    assert!(doubled.is_empty(), "consecutive blank lines at {doubled:?}");
}

#[test]
fn header_parameters_have_full_names() {
    let h = header();
    let decls = declarations(&h);
    assert!(decls.len() > 90, "found only {} declarations", decls.len());
    for d in &decls {
        for name in parameter_names(&d.text) {
            assert!(
                name.len() > 2,
                "line {}: parameter {name:?} is not a full name: {}",
                d.line,
                d.text
            );
        }
    }
}

#[test]
fn header_functions_document_parameters_return_and_threads() {
    let h = header();
    let mut missing = Vec::new();
    for d in declarations(&h) {
        let name = d.text.split('(').next().unwrap_or("").to_string();
        if d.doc.is_empty() {
            missing.push(format!("line {}: {name}: no documentation", d.line));
            continue;
        }
        for p in parameter_names(&d.text) {
            if !d.doc.contains(&format!("\\param {p} "))
                && !d.doc.contains(&format!("\\param {p}\n"))
            {
                missing.push(format!("line {}: {name}: no \\param {p}", d.line));
            }
        }
        let returns_void = d.text.starts_with("void ") || d.text.starts_with("typedef void ");
        if !returns_void && !d.doc.contains("\\return") {
            missing.push(format!("line {}: {name}: no \\return", d.line));
        }
        let is_typedef = d.text.starts_with("typedef");
        if !is_typedef && !d.doc.to_lowercase().contains("thread") {
            missing.push(format!(
                "line {}: {name}: says nothing about threads",
                d.line
            ));
        }
        // A pointer, or a string (pointer and length), comes with a
        // precondition on what it points at.
        let takes_pointer = parameters(&d.text)
            .iter()
            .any(|p| p.contains('*') || p.starts_with("mcpr_str "));
        if !is_typedef && takes_pointer && !d.doc.contains("\\pre") {
            missing.push(format!(
                "line {}: {name}: takes a pointer but has no \\pre",
                d.line
            ));
        }
    }
    assert!(
        missing.is_empty(),
        "{} gaps:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn parameter_name_parsing_sees_one_letter_names() {
    // The checks above must fail on the header this test was written against.
    assert_eq!(
        parameter_names("mcpr_str mcpr_bundle_json(const mcpr_bundle *b);"),
        vec!["b"]
    );
    assert_eq!(
        parameter_names(
            "typedef mcpr_cb_result (*mcpr_discover_fn)(void *ud, const mcpr_call *call, const mcpr_definition *d);"
        ),
        vec!["ud", "call", "d"]
    );
    assert!(parameter_names("const char *mcpr_version(void);").is_empty());
}

/// The names a header line declares: macros, typedefs (also of function
/// pointers), struct and enum tags, and functions.
fn declared_names(line: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = Vec::new();
    if let Some(rest) = line.strip_prefix("#define ") {
        names.push(ident(rest));
    }
    for tag in ["enum ", "struct "] {
        for (i, _) in line.match_indices(tag) {
            let at_word_start = i == 0 || line.as_bytes()[i - 1] == b' ';
            if at_word_start && !line.starts_with(' ') {
                names.push(ident(&line[i + tag.len()..]));
            }
        }
    }
    if line.starts_with("typedef ") {
        if let Some(i) = line.find("(*") {
            names.push(ident(&line[i + 2..]));
        } else if let Some(body) = line.strip_suffix(';') {
            let last = body.rsplit([' ', '*']).next().unwrap_or("");
            names.push(ident(last));
        }
    } else if line.starts_with(|c: char| c.is_ascii_lowercase())
        && line.contains('(')
        && line.ends_with(");")
    {
        let before = &line[..line.find('(').unwrap()];
        names.push(ident(before.rsplit([' ', '*']).next().unwrap_or("")));
    }
    names.retain(|n| !n.is_empty());
    names
}

#[test]
fn header_declares_only_the_c_abi() {
    // cbindgen reads the whole crate: a public item of the Rust core that
    // is not marked `cbindgen:ignore` would appear here under its Rust name.
    let h = header();
    let mut stray = Vec::new();
    let mut seen = 0;
    for (i, line) in h.lines().enumerate() {
        for name in declared_names(line) {
            seen += 1;
            if !(name.starts_with("mcpr_")
                || name.starts_with("MCPR_")
                || name == "MCP_RESOURCES_H")
            {
                stray.push(format!("line {}: {name}", i + 1));
            }
        }
    }
    assert!(seen > 100, "only {seen} names found: the parsing is off");
    assert!(
        stray.is_empty(),
        "names outside the C ABI (mark the Rust item `cbindgen:ignore`): {stray:#?}"
    );
}

#[test]
fn declared_names_are_found_in_each_kind_of_line() {
    assert_eq!(
        declared_names("#define MAX_TTL_MS ((1 << 53) - 1)"),
        ["MAX_TTL_MS"]
    );
    assert_eq!(
        declared_names("typedef struct ResultCache ResultCache;"),
        ["ResultCache", "ResultCache"]
    );
    assert_eq!(declared_names("typedef uint32_t Limit;"), ["Limit"]);
    assert_eq!(declared_names("enum Limit {"), ["Limit"]);
    assert_eq!(declared_names("typedef struct mcpr_str {"), ["mcpr_str"]);
    assert_eq!(
        declared_names(
            "typedef mcpr_cb_result (*mcpr_discover_fn)(void *ud, const mcpr_call *call);"
        ),
        ["mcpr_discover_fn"]
    );
    assert_eq!(
        declared_names("const mcpr_str *mcpr_bundle_json(const mcpr_bundle *bundle);"),
        ["mcpr_bundle_json"]
    );
    assert!(declared_names("    const mcpr_executor *executor;").is_empty());
    assert!(declared_names(" * enum Limit in a comment").is_empty());
}

#[test]
fn the_registrys_content_hash_is_never_called_a_revision() {
    // One name per concept: "revision" is MCP's protocol revision only; the
    // registry's SHA-256 is its content hash (mcpr_resources_content_hash).
    let h = header().to_lowercase();
    let flat = h.split_whitespace().collect::<Vec<_>>().join(" ");
    for stale in [
        "resources_revision",
        "content revision",
        "registry revision",
        "registry's revision",
        "revision buffer",
    ] {
        assert!(!flat.contains(stale), "the header says {stale:?}");
    }
    assert!(flat.contains("mcpr_resources_content_hash_into("));
}

/// The chapters of the header, in reading order (the Doxygen groups that
/// cbindgen.toml defines; src/ffi/mod.rs orders the modules the same way).
const CHAPTERS: [&str; 10] = [
    "builder",
    "registry",
    "read",
    "list",
    "request",
    "completion",
    "async",
    "callbacks",
    "views",
    "errors",
];

/// Each top-level declaration of the header (function, typedef, struct or
/// enum, `MCPR_*` macro) with its line and the groups its documentation
/// names with `\ingroup`.
fn grouped_declarations(h: &str) -> Vec<(usize, String, Vec<String>)> {
    let lines: Vec<&str> = h.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let names = declared_names(line);
        let Some(name) = names.last().filter(|n| n.as_str() != "MCP_RESOURCES_H") else {
            continue;
        };
        if line.starts_with(' ') {
            continue;
        }
        // The documentation just before: a `/** ... */` block or one line.
        let mut doc = String::new();
        if i > 0 && lines[i - 1].trim_end().ends_with("*/") {
            let mut j = i - 1;
            while j > 0 && !lines[j].trim_start().starts_with("/**") {
                j -= 1;
            }
            doc = lines[j..i].join("\n");
        }
        let groups = doc
            .match_indices("\\ingroup ")
            .map(|(at, m)| {
                doc[at + m.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect()
            })
            .collect();
        out.push((i + 1, name.clone(), groups));
    }
    out
}

#[test]
fn every_declaration_belongs_to_one_chapter_and_functions_come_in_reading_order() {
    let h = header();
    let defined: Vec<String> = h
        .match_indices("\\defgroup ")
        .map(|(at, m)| {
            h[at + m.len()..]
                .chars()
                .take_while(|c| !c.is_whitespace())
                .collect()
        })
        .collect();
    assert_eq!(defined, CHAPTERS, "the groups cbindgen.toml defines");
    let decls = grouped_declarations(&h);
    assert!(decls.len() > 150, "only {} declarations found", decls.len());
    let mut wrong = Vec::new();
    let mut last = 0;
    for (line, name, groups) in &decls {
        let [group] = groups.as_slice() else {
            wrong.push(format!("line {line}: {name}: \\ingroup {groups:?}"));
            continue;
        };
        let Some(chapter) = CHAPTERS.iter().position(|c| c == group) else {
            wrong.push(format!("line {line}: {name}: unknown group {group}"));
            continue;
        };
        let is_function = !name.starts_with("MCPR_")
            && h.lines()
                .nth(line - 1)
                .is_some_and(|l| l.contains('(') && !l.starts_with("typedef"));
        if is_function {
            if chapter < last {
                wrong.push(format!(
                    "line {line}: {name} ({group}) after a function of chapter {}",
                    CHAPTERS[last]
                ));
            }
            last = chapter;
        }
    }
    assert!(
        wrong.is_empty(),
        "{} misplaced:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
