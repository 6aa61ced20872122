//! The repository stands alone: no tracked file refers to a document that
//! lives outside it. What users and maintainers need is in `docs/`.
//!
//! The needles are assembled from pieces so that this file, which is tracked
//! too, does not match itself.

use std::path::Path;
use std::process::Command;

/// Names of documents that are not in the repository. Any mention is a reference out.
const OUTSIDE_DOCS: &[&str] = &["design", "wire", "toolbox", "attacks", "style"];

/// Every tracked file, relative to the repository root.
fn tracked_files(root: &Path) -> Vec<String> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .expect("git ls-files runs");
    assert!(out.status.success(), "git ls-files failed");
    let files: Vec<String> = String::from_utf8(out.stdout)
        .expect("tracked paths are UTF-8")
        .split('\0')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    // A test that scanned nothing would pass for the wrong reason.
    assert!(
        files.iter().any(|f| f == "README.md") && files.iter().any(|f| f == "docs/envelope.md"),
        "git ls-files did not list the repository: {files:?}"
    );
    files
}

/// Whether `path` holds other projects' text verbatim, not this
/// repository's words: the tool lists of the false-alarm and contradiction
/// sets, as the servers served them (a server's "shared" and "/dorm-style
/// rooms" side by side is its description, not a link), and the prose
/// corpora's labelled descriptions, each beside the path of the file it
/// was taken from (one server keeps its tools in a folder named
/// "shared"). Their READMEs and scripts are still read.
fn quoted_data(path: &str) -> bool {
    let data = path.ends_with(".json") || path.ends_with(".jsonl");
    let sets = ["tests/false_alarms", "tests/contradictions/"];
    let corpus = path.starts_with("contract-prose/tests/prose_corpus") && path.ends_with(".txt");
    corpus || (data && sets.iter().any(|dir| path.starts_with(dir)))
}

/// The references to outside documents in `text`, a file at `path`.
fn outside_references(path: &str, text: &str) -> Vec<String> {
    if quoted_data(path) {
        return Vec::new();
    }
    let mut needles: Vec<String> = vec![["..", "/", "shared"].concat(), ["shared", "/"].concat()];
    needles.extend(OUTSIDE_DOCS.iter().map(|d| format!("{d}.md")));
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for needle in &needles {
            if line.contains(needle.as_str()) {
                found.push(format!("{path}:{}: `{needle}`: {}", n + 1, line.trim()));
            }
        }
        // The repository has its own `docs/dialects.md`: a mention is fine when it
        // says `docs/...`, or when it is a sibling reference from inside `docs/`.
        let dialects = ["dialects", ".md"].concat();
        let mut rest = line;
        while let Some(at) = rest.find(dialects.as_str()) {
            let own = rest[..at].ends_with("docs/") || path.starts_with("docs/");
            if !own {
                found.push(format!("{path}:{}: `{dialects}`: {}", n + 1, line.trim()));
            }
            rest = &rest[at + dialects.len()..];
        }
    }
    found
}

#[test]
fn no_tracked_file_refers_to_a_document_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for path in tracked_files(root) {
        let Ok(bytes) = std::fs::read(root.join(&path)) else {
            // Listed but absent in the work tree (deleted, not yet committed).
            continue;
        };
        found.extend(outside_references(&path, &String::from_utf8_lossy(&bytes)));
    }
    assert!(
        found.is_empty(),
        "these lines refer to documents outside the repository; say it here, \
         or link a page in docs/:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_catches_each_kind_of_reference() {
    let bad = [
        ("src/a.rs", ["see ", "..", "/sha", "red/x"].concat()),
        ("README.md", ["the tools of `", "shared", "/t`"].concat()),
        ("tests/a.rs", ["per ", "wire", ".md"].concat()),
        ("docs/x.md", ["see ", "design", ".md"].concat()),
        ("examples/a.rs", ["the ", "toolbox", ".md table"].concat()),
        ("tests/a.rs", ["row of ", "attacks", ".md"].concat()),
        (".ci/run", ["the checks ", "style", ".md asks for"].concat()),
        (
            "tests/false_alarms3/README.md",
            ["built as ", "..", "/", "shared", "/x says"].concat(),
        ),
        (
            "contract-prose/tests/corpus_scripts/README.md",
            ["as ", "..", "/", "shared", "/x says"].concat(),
        ),
        (
            "src/names.rs",
            ["(`", "dialects", ".md`, \"Names\")"].concat(),
        ),
    ];
    for (path, line) in &bad {
        assert!(
            !outside_references(path, line).is_empty(),
            "{path}: {line:?} should be caught"
        );
    }
    let fine = [
        (
            "tests/dialects.rs",
            ["read ", "docs/", "dialects", ".md"].concat(),
        ),
        (
            "docs/rule-c12.md",
            ["names from `", "dialects", ".md`"].concat(),
        ),
        (
            "README.md",
            "[dialects](docs/dialects.md) and an Arc shared by threads".to_string(),
        ),
        (
            "tests/false_alarms3/sets.json",
            ["'shared_room' (", "shared", "/dorm-style rooms)"].concat(),
        ),
        (
            "contract-prose/tests/prose_corpus_heldout19.txt",
            [
                "NONE\tstr\tx/y 2b2d1ca packages/",
                "shared",
                "/src/tools.ts:389\tA path",
            ]
            .concat(),
        ),
    ];
    for (path, line) in &fine {
        assert!(
            outside_references(path, line).is_empty(),
            "{path}: {line:?} is the repository's own page"
        );
    }
}
