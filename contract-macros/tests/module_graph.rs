//! The macro reads attr -> model -> check -> expand: each top-level module of
//! `src/` uses only the layers before its own, so no two of them need each
//! other (a file-level cycle check misses a pair that runs between two
//! folders, or a folder and a sibling file). This reads every `crate::` path
//! in the code of `src/` (comments and doc comments skipped) and checks it
//! against the layer table below, which `docs/architecture.md` describes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, first to last. A module may use the modules of earlier layers
/// only. A module missing from the table may use none of the crate (it is a
/// leaf until it is placed here).
const LAYERS: &[&[&str]] = &[
    // leaves: the error accumulator, doc text, types, regexes and the
    // vocabulary of the attributes (the prose reader is the crate
    // `contract-prose`)
    &["ctxt", "doc", "ty", "pattern", "vocab"],
    // the attribute grammar
    &["attr"],
    // the model of an item
    &["model"],
    // the rules
    &["check"],
    // the expansion
    &["expand"],
];

/// Every top-level module of `src` and the top-level modules its code names.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = vec![src.to_path_buf()];
    while let Some(p) = files.pop() {
        if p.is_dir() {
            for e in std::fs::read_dir(&p).expect("src is readable") {
                files.push(e.expect("a directory entry").path());
            }
            continue;
        }
        if p.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = p.strip_prefix(src).expect("under src");
        let first = rel.components().next().expect("a file under src");
        let top = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        if top == "lib" {
            continue; // the crate root declares every module
        }
        let text = std::fs::read_to_string(&p).expect("a source file");
        let used = edges.entry(top.clone()).or_default();
        for name in crate_paths(&code_only(&text)) {
            if name != top {
                used.insert(name);
            }
        }
    }
    edges
}

/// The text without comments (line, doc and block comments) and without
/// string literals, whose words are not paths.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i..].starts_with(b"'\"'") || b[i..].starts_with(b"'\\\"'") {
            // the character `"`, which opens no string
            i += if b[i + 1] == b'\\' { 4 } else { 3 };
            out.push_str("' '");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'r' && b[i..].starts_with(b"r#\"") {
            // a raw string with one `#` (the crate's own: `r#"..."#`)
            let end = text[i + 3..].find("\"#").map_or(b.len(), |e| i + 3 + e + 2);
            i = end;
            out.push_str("\"\"");
        } else {
            let c = text[i..].chars().next().expect("in bounds");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The top-level module of each `crate::name` path, and of each name in
/// `use crate::{a, b::c}`.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '$')) {
            continue; // `$crate::`, `other_crate::`, `a::crate::`
        }
        let rest = code[at + "crate::".len()..].trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
                if depth == 1 && c == ',' {
                    out.insert(word(item.trim()));
                    item.clear();
                } else if depth == 1 {
                    item.push(c);
                }
            }
            out.insert(word(item.trim()));
        } else {
            out.insert(word(rest));
        }
    }
    out.remove("");
    out
}

/// The pairs of modules that use each other, and the uses the layers forbid.
fn faults(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let layer = |m: &str| LAYERS.iter().position(|l| l.contains(&m));
    let mut out = Vec::new();
    for (from, tos) in edges {
        for to in tos {
            if from < to && edges.get(to).is_some_and(|t| t.contains(from)) {
                out.push(format!("`{from}` and `{to}` use each other"));
            }
            match (layer(from), layer(to)) {
                (Some(a), Some(b)) if b >= a => out.push(format!(
                    "`{from}` (layer {a}) uses `{to}` (layer {b}): a module uses earlier layers only"
                )),
                (None, _) => out.push(format!(
                    "`{from}` is in no layer but uses `{to}`: place it in LAYERS"
                )),
                _ => {}
            }
        }
    }
    out
}

#[test]
fn top_level_modules_follow_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = graph(&src);
    // the reading is not empty: the expansion uses the model and the rules
    assert!(
        edges["expand"].contains("model") && edges["expand"].contains("check"),
        "the module reader found no uses: {edges:?}"
    );
    let faults = faults(&edges);
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn a_mutual_pair_and_a_use_against_the_layers_are_found() {
    let edges: BTreeMap<String, BTreeSet<String>> = [
        ("attr", &["model", "vocab"][..]),
        ("model", &["attr"][..]),
        ("vocab", &[][..]),
    ]
    .into_iter()
    .map(|(m, to)| (m.to_owned(), to.iter().map(|t| t.to_string()).collect()))
    .collect();
    assert_eq!(
        faults(&edges),
        [
            "`attr` and `model` use each other",
            "`attr` (layer 1) uses `model` (layer 2): a module uses earlier layers only",
        ]
    );
}

#[test]
fn paths_are_read_from_code_not_comments_or_strings() {
    let code = code_only(
        "use crate::attr::{a, b};\nuse crate::{ctxt::Ctxt, vocab};\n// crate::check\n/// [`crate::expand`]\nlet s = \"crate::model\"; $crate::x; let q = '\"'; other_crate::check;",
    );
    let names: Vec<String> = crate_paths(&code).into_iter().collect();
    assert_eq!(names, ["attr", "ctxt", "vocab"]);
}
