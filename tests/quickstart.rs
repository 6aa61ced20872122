//! The quick start's dependency list is enough for the examples it leads to:
//! every crate that the Rust examples of `docs/quickstart.md` and
//! `docs/dialects.md`, and the rustdoc of the `dialect` and `provider`
//! modules, name by path (`serde_json::json`) is in it. The runtime's prelude
//! re-exports the macros, not these crates.

use std::collections::BTreeSet;
use std::path::Path;

/// The dependency names of the first ```toml block's `[dependencies]`.
fn quickstart_dependencies(text: &str) -> BTreeSet<String> {
    let block = text
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/quickstart.md has a ```toml block");
    block
        .lines()
        .skip_while(|l| l.trim() != "[dependencies]")
        .skip(1)
        .filter_map(|l| {
            l.split_once('=')
                .map(|(name, _)| name.trim().replace('-', "_"))
        })
        .filter(|name| !name.is_empty() && !name.starts_with('#'))
        .collect()
}

/// The text of the ```rust blocks of a Markdown file.
fn rust_blocks(text: &str) -> String {
    text.split("```rust")
        .skip(1)
        .filter_map(|rest| rest.split_once('\n').map(|(_, body)| body))
        .filter_map(|body| body.split("```").next())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text of the doc comments of a Rust file.
fn doc_comments(text: &str) -> String {
    text.lines()
        .map(str::trim_start)
        .filter_map(|l| l.strip_prefix("///").or_else(|| l.strip_prefix("//!")))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segments of the paths in `code` (`serde_json` of
/// `serde_json::json!`) that are among `crates`.
fn crates_named(code: &str, crates: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("::") {
        let before = &code[..at];
        let start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &before[start..];
        // A later segment (`dialect` of `contract_runtime::dialect::export`).
        if before[..start].ends_with(':') || name.is_empty() {
            continue;
        }
        if crates.contains(name) {
            out.insert(name.to_owned());
        }
    }
    out
}

#[test]
fn the_quick_starts_dependencies_cover_the_examples_it_leads_to() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read =
        |p: &str| std::fs::read_to_string(root.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
    // The crates a path can name: every package of the workspace's lock file.
    let crates: BTreeSet<String> = read("Cargo.lock")
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .map(|n| n.replace('-', "_"))
        .collect();
    assert!(crates.contains("serde_json"), "Cargo.lock was read");
    let listed = quickstart_dependencies(&read("docs/quickstart.md"));
    assert!(listed.contains("contract_runtime"), "{listed:?}");

    let mut sources = vec![
        (
            "docs/quickstart.md".to_owned(),
            rust_blocks(&read("docs/quickstart.md")),
        ),
        (
            "docs/dialects.md".to_owned(),
            rust_blocks(&read("docs/dialects.md")),
        ),
    ];
    for dir in [
        "contract-runtime/src/dialect",
        "contract-runtime/src/provider",
    ] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let shown = path
                    .strip_prefix(root)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                sources.push((shown, doc_comments(&text)));
            }
        }
    }
    let mut missing = Vec::new();
    for (source, code) in &sources {
        for name in crates_named(code, &crates) {
            if !listed.contains(&name) {
                missing.push(format!("{name} (named in {source})"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/quickstart.md's dependencies ({listed:?}) lack: {missing:?}"
    );
}
