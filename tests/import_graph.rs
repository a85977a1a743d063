//! The import graph of `src/` has no cycle, and the core never imports the
//! C layer (docs/ARCHITECTURE.md, "Layout": dependencies point downwards).
//!
//! Each file of `src/` is a node. A file depends on another when its code
//! names a path into it: `use crate::a::b`, `super::x::Y`, `self::child`,
//! or a path through a child module it declares (`child::f()`), resolved
//! to the most specific file of the path. Two kinds of reference are not
//! dependencies: a file naming its own descendants (`lib.rs` and a
//! directory's `mod.rs` declare, re-export and drive their children; the
//! children may still use the parent's items, which counts), and anything
//! under `#[cfg(test)]` (unit tests may reach everywhere). Comments, doc
//! comments and string literals are not code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module path from the crate root: `[]` for `src/lib.rs`, `["ffi"]`
/// for `src/ffi/mod.rs`, `["ffi", "error"]` for `src/ffi/error.rs`.
type ModPath = Vec<String>;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Sep,
    Punct(char),
}

/// The code tokens of a Rust source: identifiers, `::` and punctuation;
/// comments, string, character and number literals are dropped.
fn tokens(src: &str) -> Vec<Tok> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == '"' {
            i = skip_string(&c, i);
        } else if ch == '\'' {
            i = skip_quote(&c, i);
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let next = c.get(i).copied();
            match (word.as_str(), next) {
                ("r" | "br" | "cr", Some('"' | '#')) if raw_string_at(&c, i) => {
                    i = skip_raw_string(&c, i);
                }
                ("r", Some('#')) => {
                    // A raw identifier: `r#match`.
                    i += 1;
                    let start = i;
                    while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                        i += 1;
                    }
                    out.push(Tok::Ident(c[start..i].iter().collect()));
                }
                ("b" | "c", Some('"')) => i = skip_string(&c, i),
                ("b", Some('\'')) => i = skip_quote(&c, i),
                _ => out.push(Tok::Ident(word)),
            }
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Tok::Sep);
            i += 2;
        } else {
            out.push(Tok::Punct(ch));
            i += 1;
        }
    }
    out
}

/// The index after the string literal starting at `c[i] == '"'`.
fn skip_string(c: &[char], mut i: usize) -> usize {
    i += 1;
    while i < c.len() && c[i] != '"' {
        i += if c[i] == '\\' { 2 } else { 1 };
    }
    i + 1
}

/// Whether `c[i..]` (after an `r`, `br` or `cr` prefix) opens a raw string.
fn raw_string_at(c: &[char], mut i: usize) -> bool {
    while c.get(i) == Some(&'#') {
        i += 1;
    }
    c.get(i) == Some(&'"')
}

/// The index after the raw string whose hashes start at `c[i]`.
fn skip_raw_string(c: &[char], mut i: usize) -> usize {
    let mut hashes = 0;
    while c[i] == '#' {
        hashes += 1;
        i += 1;
    }
    i += 1;
    while i < c.len() {
        if c[i] == '"' && (1..=hashes).all(|k| c.get(i + k) == Some(&'#')) {
            return i + 1 + hashes;
        }
        i += 1;
    }
    i
}

/// The index after a character literal at `c[i] == '\''`, or after the
/// quote of a lifetime (whose name is then read as an identifier).
fn skip_quote(c: &[char], i: usize) -> usize {
    if c.get(i + 1) == Some(&'\\') {
        // `'\''`, `'\n'`, `'\u{..}'`: the escaped character is never the end.
        let mut j = i + 3;
        while j < c.len() && c[j] != '\'' {
            j += 1;
        }
        return j + 1;
    }
    if c.get(i + 2) == Some(&'\'') {
        return i + 3;
    }
    i + 1
}

/// What one file declares and references.
#[derive(Default, Debug)]
struct FileRefs {
    /// Child modules declared with `mod x;` outside `#[cfg(test)]`.
    children: BTreeSet<String>,
    /// Child modules declared with `#[cfg(test)] mod x;`.
    test_children: BTreeSet<String>,
    /// Absolute paths the code names (before resolution to files).
    paths: Vec<ModPath>,
}

/// Reads the declarations and path references of the file of module `me`.
fn scan(me: &[String], src: &str) -> FileRefs {
    let t = tokens(src);
    let mut refs = FileRefs::default();
    // Child module names usable as path starts, per inline module depth.
    let mut locals: BTreeSet<String> = BTreeSet::new();
    // First pass: the file's own child modules (paths may name them before
    // their declaration).
    let mut k = 0;
    while k < t.len() {
        if is_cfg_test(&t, k) {
            let (end, child) = test_item(&t, k);
            if let Some(child) = child {
                refs.test_children.insert(child);
            }
            k = end;
            continue;
        }
        if let (Some(Tok::Ident(m)), Some(Tok::Ident(name)), Some(Tok::Punct(';'))) =
            (t.get(k), t.get(k + 1), t.get(k + 2))
        {
            if m == "mod" {
                refs.children.insert(name.clone());
                locals.insert(name.clone());
            }
        }
        k += 1;
    }
    // Second pass: paths, with the inline module each token sits in.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut k = 0;
    while k < t.len() {
        if is_cfg_test(&t, k) {
            k = test_item(&t, k).0;
            continue;
        }
        match &t[k] {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            Tok::Ident(m) if m == "mod" => {
                if let (Some(Tok::Ident(name)), Some(Tok::Punct('{'))) =
                    (t.get(k + 1), t.get(k + 2))
                {
                    inline.push((name.clone(), depth));
                    depth += 1;
                    k += 3;
                    continue;
                }
            }
            Tok::Ident(w) => {
                let after_sep = k > 0 && matches!(t[k - 1], Tok::Sep | Tok::Punct('.'));
                let starts = matches!(w.as_str(), "crate" | "super" | "self")
                    || (inline.is_empty() && locals.contains(w));
                if starts && !after_sep && t.get(k + 1) == Some(&Tok::Sep) {
                    let mut here: ModPath = me.to_vec();
                    here.extend(inline.iter().map(|(n, _)| n.clone()));
                    let (end, found) = path_at(&t, k, &here);
                    refs.paths.extend(found);
                    k = end;
                    continue;
                }
            }
            _ => {}
        }
        k += 1;
    }
    refs
}

/// Whether `t[k..]` is the attribute `#[cfg(test)]`.
fn is_cfg_test(t: &[Tok], k: usize) -> bool {
    let want = [
        Tok::Punct('#'),
        Tok::Punct('['),
        Tok::Ident("cfg".into()),
        Tok::Punct('('),
        Tok::Ident("test".into()),
        Tok::Punct(')'),
        Tok::Punct(']'),
    ];
    t.len() >= k + want.len() && t[k..k + want.len()] == want
}

/// The end of the item carrying the `#[cfg(test)]` attribute at `t[k]`,
/// and the module name when the item is `mod x;`.
fn test_item(t: &[Tok], mut k: usize) -> (usize, Option<String>) {
    k += 7;
    // Further attributes of the same item.
    while t.get(k) == Some(&Tok::Punct('#')) {
        let mut d = 0;
        k += 1;
        while k < t.len() {
            match t[k] {
                Tok::Punct('[') => d += 1,
                Tok::Punct(']') => {
                    d -= 1;
                    if d == 0 {
                        k += 1;
                        break;
                    }
                }
                _ => {}
            }
            k += 1;
        }
    }
    let child = match (t.get(k), t.get(k + 1), t.get(k + 2)) {
        (Some(Tok::Ident(m)), Some(Tok::Ident(n)), Some(Tok::Punct(';'))) if m == "mod" => {
            Some(n.clone())
        }
        _ => None,
    };
    let mut d = 0i32;
    while k < t.len() {
        match t[k] {
            Tok::Punct('(' | '[' | '{') => d += 1,
            Tok::Punct(')' | ']') => d -= 1,
            Tok::Punct('}') => {
                d -= 1;
                if d == 0 {
                    return (k + 1, child);
                }
            }
            Tok::Punct(';') if d == 0 => return (k + 1, child),
            _ => {}
        }
        k += 1;
    }
    (k, child)
}

/// The absolute paths named by the path (or `use` tree) starting at
/// `t[k]`, in a file whose current module is `here`; and the index after
/// it.
fn path_at(t: &[Tok], k: usize, here: &[String]) -> (usize, Vec<ModPath>) {
    let mut out = Vec::new();
    let end = tree(t, k, &[], here, &mut out);
    (end, out)
}

/// Reads one `use`-tree-like path at `t[k]` relative to `prefix` (empty:
/// the path's first segment decides), collecting the absolute paths.
fn tree(
    t: &[Tok],
    mut k: usize,
    prefix: &[String],
    here: &[String],
    out: &mut Vec<ModPath>,
) -> usize {
    let mut abs: Option<ModPath> = if prefix.is_empty() {
        None
    } else {
        Some(prefix.to_vec())
    };
    loop {
        match t.get(k) {
            Some(Tok::Ident(seg)) => {
                abs = Some(step(abs, seg, here));
                k += 1;
            }
            Some(Tok::Punct('{')) => {
                let base = abs.clone().unwrap_or_default();
                k += 1;
                loop {
                    match t.get(k) {
                        Some(Tok::Punct('}')) | None => return k + 1,
                        Some(Tok::Punct(',')) => k += 1,
                        Some(Tok::Punct('*')) => {
                            out.push(base.clone());
                            k += 1;
                        }
                        _ => {
                            let before = k;
                            k = tree(t, k, &base, here, out);
                            if k == before {
                                k += 1;
                            }
                        }
                    }
                }
            }
            Some(Tok::Punct('*')) => {
                k += 1;
                break;
            }
            _ => break,
        }
        if t.get(k) == Some(&Tok::Sep) {
            k += 1;
        } else {
            break;
        }
    }
    if let Some(abs) = abs {
        out.push(abs);
    }
    k
}

/// The absolute path after one more segment.
fn step(abs: Option<ModPath>, seg: &str, here: &[String]) -> ModPath {
    match (abs, seg) {
        (None, "crate") => Vec::new(),
        (None, "self") => here.to_vec(),
        (None, "super") => parent(here),
        (None, child) => {
            let mut p = here.to_vec();
            p.push(child.to_string());
            p
        }
        (Some(p), "super") => parent(&p),
        (Some(p), "self") => p,
        (Some(mut p), other) => {
            p.push(other.to_string());
            p
        }
    }
}

fn parent(p: &[String]) -> ModPath {
    p[..p.len().saturating_sub(1)].to_vec()
}

/// The module path of a file of `src/` (`"ffi/error.rs"` -> `["ffi",
/// "error"]`).
fn module_of(rel: &str) -> ModPath {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The dependency graph of a set of files (`path under src/`, source):
/// every node, and the edges between them.
fn graph(files: &[(String, String)]) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let scanned: Vec<(ModPath, FileRefs)> = files
        .iter()
        .map(|(rel, src)| {
            let m = module_of(rel);
            let refs = scan(&m, src);
            (m, refs)
        })
        .collect();
    let mut test_only = BTreeSet::new();
    for (m, refs) in &scanned {
        for c in &refs.test_children {
            let mut p = m.clone();
            p.push(c.clone());
            test_only.insert(p);
        }
    }
    let nodes: BTreeSet<ModPath> = scanned
        .iter()
        .map(|(m, _)| m.clone())
        .filter(|m| !test_only.iter().any(|t| m.starts_with(t)))
        .collect();
    let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for (m, refs) in &scanned {
        if !nodes.contains(m) {
            continue;
        }
        let out = edges.entry(m.clone()).or_default();
        for p in &refs.paths {
            let Some(target) = (0..=p.len())
                .rev()
                .map(|n| p[..n].to_vec())
                .find(|prefix| nodes.contains(prefix))
            else {
                continue;
            };
            // A file naming itself or its own descendants is no dependency.
            if !target.starts_with(m) {
                out.insert(target);
            }
        }
    }
    edges
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "lib".to_string()
    } else {
        m.join("/")
    }
}

/// Every cycle's nodes, as `a -> b -> ... -> a` (one per strongly connected
/// group of more than one node, or a node depending on itself).
fn cycles(g: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<String> {
    // Depth-first search; a back edge closes a cycle.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        n: &ModPath,
        g: &BTreeMap<ModPath, BTreeSet<ModPath>>,
        marks: &mut BTreeMap<ModPath, Mark>,
        stack: &mut Vec<ModPath>,
        found: &mut Vec<String>,
    ) {
        marks.insert(n.clone(), Mark::Open);
        stack.push(n.clone());
        for next in g.get(n).into_iter().flatten() {
            match marks.get(next).copied().unwrap_or(Mark::New) {
                Mark::New => visit(next, g, marks, stack, found),
                Mark::Open => {
                    let at = stack.iter().position(|s| s == next).unwrap_or(0);
                    let mut ring: Vec<String> = stack[at..].iter().map(|s| name(s)).collect();
                    ring.push(name(next));
                    found.push(ring.join(" -> "));
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(n.clone(), Mark::Done);
    }
    let mut marks = BTreeMap::new();
    let mut found = Vec::new();
    for n in g.keys() {
        if marks.get(n).copied().unwrap_or(Mark::New) == Mark::New {
            visit(n, g, &mut marks, &mut Vec::new(), &mut found);
        }
    }
    found
}

/// Edges from the core (outside `ffi/`, the crate root excepted) into
/// `ffi/`.
fn core_into_ffi(g: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<String> {
    let is_ffi = |m: &ModPath| m.first().is_some_and(|s| s == "ffi");
    g.iter()
        .filter(|(from, _)| !from.is_empty() && !is_ffi(from))
        .flat_map(|(from, to)| {
            to.iter()
                .filter(|t| is_ffi(t))
                .map(move |t| format!("{} -> {}", name(from), name(t)))
        })
        .collect()
}

/// Every `.rs` file under `src/`, as (path under `src/`, source).
fn source_tree() -> Vec<(String, String)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("src/ is readable")
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, root, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let rel = p.strip_prefix(root).expect("under src/");
                let rel = rel.to_string_lossy().replace('\\', "/");
                out.push((rel, std::fs::read_to_string(&p).expect("a readable source")));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out
}

#[test]
fn the_import_graph_of_src_has_no_cycle() {
    let g = graph(&source_tree());
    assert!(g.len() > 40, "only {} modules found", g.len());
    let found = cycles(&g);
    assert!(
        found.is_empty(),
        "import cycles in src/:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_core_never_imports_the_c_layer() {
    let g = graph(&source_tree());
    let found = core_into_ffi(&g);
    assert!(
        found.is_empty(),
        "the core imports src/ffi:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_c_layer_is_seen_depending_on_the_core() {
    // The reader sees the edges that do exist (else an empty graph would
    // pass the two tests above).
    let g = graph(&source_tree());
    let ffi_read = vec!["ffi".to_string(), "read".to_string()];
    let deps = g.get(&ffi_read).expect("src/ffi/read.rs is a node");
    assert!(deps.contains(&vec!["read".to_string()]), "{deps:?}");
    assert!(
        deps.contains(&vec!["ffi".to_string(), "growth".to_string()]),
        "{deps:?}"
    );
}

// The reader itself, on small made-up trees.

fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(p, s)| (p.to_string(), s.to_string()))
        .collect()
}

fn edges_of(g: &BTreeMap<ModPath, BTreeSet<ModPath>>, m: &str) -> Vec<String> {
    g.get(&module_of(&format!("{m}.rs")))
        .map(|s| s.iter().map(|m| name(m)).collect())
        .unwrap_or_default()
}

#[test]
fn a_cycle_between_two_files_is_found() {
    let g = graph(&files(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "use crate::b::Thing;\n"),
        ("b.rs", "pub fn f() -> crate::a::Other { todo!() }\n"),
    ]));
    assert_eq!(cycles(&g), ["a -> b -> a"]);
}

#[test]
fn a_cycle_through_super_and_use_groups_is_found() {
    let g = graph(&files(&[
        ("lib.rs", "pub mod ffi;\n"),
        ("ffi/mod.rs", "mod x;\nmod y;\nmod z;\npub use x::A;\n"),
        ("ffi/x.rs", "use super::{y::B, z};\n"),
        ("ffi/y.rs", "use super::z::{self, C};\n"),
        ("ffi/z.rs", "fn f() { super::x::g() }\n"),
    ]));
    assert_eq!(edges_of(&g, "ffi/x"), ["ffi/y", "ffi/z"]);
    assert_eq!(edges_of(&g, "ffi"), Vec::<String>::new());
    assert_eq!(cycles(&g).len(), 1, "{:?}", cycles(&g));
}

#[test]
fn parents_driving_children_and_children_using_parents_are_no_cycle() {
    let g = graph(&files(&[
        ("lib.rs", "mod read;\npub use read::Bundle;\n"),
        (
            "read/mod.rs",
            "mod admit;\npub struct State;\nfn run() { admit::go() }\n",
        ),
        (
            "read/admit.rs",
            "use super::State;\nuse crate::read::State as S;\n",
        ),
    ]));
    assert_eq!(edges_of(&g, "read/admit"), ["read"]);
    assert!(cycles(&g).is_empty());
}

#[test]
fn tests_comments_and_strings_are_not_imports() {
    let g = graph(&files(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            "use crate::b::X;\n\
             pub(crate) fn f() {}\n",
        ),
        (
            "b.rs",
            "/// See [`crate::a::f`].\n\
             // crate::a::f\n\
             /* crate::a /* nested */ crate::a */\n\
             const S: &str = \"crate::a::f\";\n\
             const R: &str = r#\"crate::a::\"f\"#;\n\
             const C: char = '\"';\n\
             fn g<'a>(x: &'a str) -> &'a str { x }\n\
             #[cfg(test)]\n\
             mod tests { use crate::a::f; }\n\
             #[cfg(test)]\n\
             use crate::a::f;\n",
        ),
    ]));
    assert_eq!(edges_of(&g, "a"), ["b"]);
    assert_eq!(edges_of(&g, "b"), Vec::<String>::new());
    assert!(cycles(&g).is_empty());
}

#[test]
fn super_inside_an_inline_module_is_its_file() {
    let g = graph(&files(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            "mod inner { use super::Local; use super::super::b::X; }\n",
        ),
        ("b.rs", ""),
    ]));
    assert_eq!(edges_of(&g, "a"), ["b"]);
}

#[test]
fn the_core_reaching_into_ffi_is_found() {
    let g = graph(&files(&[
        ("lib.rs", "pub mod ffi;\nmod read;\n"),
        ("ffi/mod.rs", "mod error;\n"),
        ("ffi/error.rs", "use crate::read::X;\n"),
        ("read.rs", "use crate::ffi::error::Y;\n"),
    ]));
    assert_eq!(core_into_ffi(&g), ["read -> ffi/error"]);
}
