//! One map of the house: the "Layout" section of docs/ARCHITECTURE.md names
//! every module file of `src/`, and every file or directory it names
//! exists. README.md and src/lib.rs point to it instead of keeping lists of
//! their own.
//!
//! A name counts when it is a code span (between backticks) in a table row
//! of the section and either starts with a top-level directory of the
//! repository (`src/`, `include/`, `c-tests/`, ...) or ends with `.rs`
//! (so a module is always named by its full path); other code spans
//! (`resources/list`, `mcpr_read`) are words, not files.

use std::collections::BTreeSet;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The text of the `## Layout` section (up to the next `## ` heading).
fn layout_section(doc: &str) -> Option<String> {
    let start = doc.find("\n## Layout\n")?;
    let body = &doc[start + 1..];
    let end = body[3..].find("\n## ").map_or(body.len(), |i| i + 3);
    Some(body[..end].to_string())
}

/// The code spans of the section's table rows.
fn table_spans(section: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in section.lines().filter(|l| l.trim_start().starts_with('|')) {
        let mut parts = line.split('`');
        parts.next();
        while let (Some(span), Some(_)) = (parts.next(), parts.next()) {
            out.push(span.to_string());
        }
    }
    out
}

/// The spans that name repository paths (see the module documentation).
fn named_paths(spans: &[String], top_dirs: &BTreeSet<String>) -> Vec<String> {
    spans
        .iter()
        .filter(|s| {
            let first = s.split('/').next().unwrap_or("");
            (s.contains('/') && top_dirs.contains(first)) || s.ends_with(".rs")
        })
        .cloned()
        .collect()
}

/// What is wrong with a layout section: source files it does not name, and
/// names that do not exist (`exists` tells).
fn problems(
    section: &str,
    sources: &[String],
    top_dirs: &BTreeSet<String>,
    exists: impl Fn(&str) -> bool,
) -> Vec<String> {
    let named = named_paths(&table_spans(section), top_dirs);
    let set: BTreeSet<&str> = named.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for s in sources {
        if !set.contains(s.as_str()) {
            out.push(format!("{s} is not in the layout table"));
        }
    }
    for n in &named {
        if !exists(n) {
            out.push(format!("{n} is named but does not exist"));
        }
    }
    out
}

/// Every `.rs` file under `src/`, as `src/...`.
fn source_files() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).expect("readable") {
            let p = e.expect("an entry").path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(root()).expect("under the root");
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("src"), &mut out);
    out.sort();
    out
}

fn top_dirs() -> BTreeSet<String> {
    std::fs::read_dir(root())
        .expect("readable")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.is_dir())
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|n| !matches!(n.as_str(), "target" | "build" | ".git"))
        .collect()
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn the_layout_table_names_every_module_and_only_files_that_exist() {
    let doc = read("docs/ARCHITECTURE.md");
    let section = layout_section(&doc).expect("docs/ARCHITECTURE.md has a ## Layout section");
    let sources = source_files();
    assert!(
        sources.len() > 50,
        "only {} source files found",
        sources.len()
    );
    let found = problems(&section, &sources, &top_dirs(), |p| root().join(p).exists());
    assert!(
        found.is_empty(),
        "docs/ARCHITECTURE.md, Layout:\n{}",
        found.join("\n")
    );
}

#[test]
fn readme_and_lib_rs_point_to_the_table_instead_of_keeping_their_own() {
    let readme = read("README.md");
    let section = layout_section(&readme).expect("README.md has a ## Layout section");
    assert!(section.contains("docs/ARCHITECTURE.md"), "{section}");
    assert!(
        table_spans(&section).is_empty(),
        "README.md keeps a layout table of its own"
    );
    let lib = read("src/lib.rs");
    let doc: String = lib
        .lines()
        .filter(|l| l.starts_with("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(doc.contains("docs/ARCHITECTURE.md"), "{doc}");
    // A module list would link modules: [`identity`], [`template`], ...
    assert!(
        !doc.contains("[`identity`]"),
        "src/lib.rs keeps a module list"
    );
}

// The check itself, on a made-up section.

fn dirs(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_missing_module_and_a_file_that_does_not_exist_are_found() {
    let section = "## Layout\n\n| file | job |\n|---|---|\n\
                   | `src/a.rs` | a, with `resources/list` and `mcpr_read` |\n\
                   | `src/gone.rs` | was removed |\n\
                   | `include/x.h` | a header |\n";
    let sources = vec!["src/a.rs".to_string(), "src/b/mod.rs".to_string()];
    let exists = |p: &str| matches!(p, "src/a.rs" | "src/b/mod.rs" | "include/x.h");
    let found = problems(section, &sources, &dirs(&["src", "include"]), exists);
    assert_eq!(
        found,
        [
            "src/b/mod.rs is not in the layout table",
            "src/gone.rs is named but does not exist",
        ]
    );
}

#[test]
fn a_module_named_without_its_path_does_not_count() {
    let section = "| `read/admit.rs` | admission |\ntext `src/a.rs` outside a table\n";
    let sources = vec!["src/read/admit.rs".to_string()];
    let found = problems(section, &sources, &dirs(&["src"]), |_| false);
    assert_eq!(
        found,
        [
            "src/read/admit.rs is not in the layout table",
            "read/admit.rs is named but does not exist",
        ]
    );
}

#[test]
fn the_section_ends_at_the_next_heading() {
    let doc = "# T\n\n## Layout\n\n| `src/a.rs` | a |\n\n## Decisions\n\n| `src/b.rs` | b |\n";
    let section = layout_section(doc).expect("a section");
    assert_eq!(table_spans(&section), ["src/a.rs"]);
}
