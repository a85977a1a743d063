//! The repository explains itself: no committed file names a file outside it
//! (the specification and design notes the project was built from are not
//! shipped; docs/BEHAVIOUR.md and docs/ARCHITECTURE.md are cited instead),
//! and no file carries a path from a build machine.

use std::path::Path;
use std::process::Command;

/// Strings that would point outside the repository. Built by concatenation
/// so that this file does not match itself.
fn forbidden() -> Vec<String> {
    vec![
        format!("..{}shared", '/'),
        format!("{}.md", "DESIGN"),
        format!("{}.md", "SPEC"),
        format!("/{}/", "work"),
        format!("/{}/", "home"),
        format!("/{}/", "root"),
        format!("{}_jobs", "bash"),
    ]
}

fn committed_files(root: &Path) -> Option<Vec<String>> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(
        String::from_utf8_lossy(&out.stdout)
            .split('\0')
            .filter(|f| !f.is_empty())
            .map(str::to_owned)
            .collect(),
    )
}

#[test]
fn no_committed_file_names_a_file_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(files) = committed_files(root) else {
        // A source tree without git (a crate tarball): nothing to check.
        eprintln!("git ls-files unavailable: skipped");
        return;
    };
    assert!(
        files.len() > 50,
        "git ls-files listed too few files: {}",
        files.len()
    );
    let patterns = forbidden();
    let mut hits = Vec::new();
    for f in &files {
        let Ok(bytes) = std::fs::read(root.join(f)) else {
            continue; // deleted in the work tree
        };
        let text = String::from_utf8_lossy(&bytes);
        for (n, line) in text.lines().enumerate() {
            for p in &patterns {
                if line.contains(p.as_str()) {
                    hits.push(format!("{f}:{}: {p}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        hits.is_empty(),
        "files name places outside the repository:\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_check_finds_what_it_looks_for() {
    let line = format!("see ..{}shared/{}.md", '/', "SPEC");
    assert!(forbidden().iter().any(|p| line.contains(p.as_str())));
    let clean = "see docs/BEHAVIOUR.md and docs/SPEC-TESTS.md";
    assert!(!forbidden().iter().any(|p| clean.contains(p.as_str())));
}
