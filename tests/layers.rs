//! The runtime's layers, as `docs/architecture.md` tables them, held against
//! the code: every module of `contract-runtime/src` is in the table, and each
//! of its `crate::...` paths (imports and uses in code, not comments or
//! tests) names a module of its own layer or one listed above it. The core
//! never names an edge; an edge may use the core and other edges.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Where a module sits: a core layer (its row, counted from the top of the
/// table), or an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Core(usize),
    Edge,
}

/// The layer table and the edge table of the page's "bottom-up" section.
fn table(doc: &str) -> BTreeMap<String, Place> {
    let start = doc
        .find("## The runtime, bottom-up")
        .expect("docs/architecture.md has its section \"The runtime, bottom-up\"");
    let rest = &doc[start..];
    let section = &rest[..rest[2..].find("\n## ").map_or(rest.len(), |i| i + 2)];
    let mut places = BTreeMap::new();
    let mut layer = 0;
    // 0: before any table; 1: the layer table; 2: the edge table.
    let mut which = 0;
    let mut in_table = false;
    for line in section.lines() {
        let line = line.trim();
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if !in_table {
            // The header row.
            in_table = true;
            which += 1;
            continue;
        }
        if cells.iter().all(|c| c.chars().all(|ch| ch == '-')) {
            continue;
        }
        let (names, place) = match which {
            1 => {
                layer += 1;
                (cells[1], Place::Core(layer))
            }
            2 => (cells[0], Place::Edge),
            _ => panic!("a third table in the layers section: {line}"),
        };
        for name in backticked(names) {
            let name = name.trim_end_matches('/');
            let old = places.insert(name.to_string(), place);
            assert!(old.is_none(), "`{name}` is in the layer tables twice");
        }
    }
    assert!(layer >= 5, "the layer table was not found or is too short");
    places
}

fn backticked(s: &str) -> impl Iterator<Item = &str> {
    s.split('`').skip(1).step_by(2)
}

/// Every `.rs` file under `dir`, with the top-level module it belongs to
/// (`args/constraint.rs` is `args`); `lib.rs` and test-only files are left
/// out.
fn modules(src: &Path) -> Vec<(String, PathBuf)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for p in files {
        let rel = p.strip_prefix(src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap();
        if first == "lib.rs" || p.file_name().unwrap() == "tests.rs" {
            continue;
        }
        out.push((first.trim_end_matches(".rs").to_string(), p));
    }
    out
}

/// The code of a file without comments and `#[cfg(test)]` items.
fn code(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            i += find(rest, b"*/").map_or(rest.len(), |j| j + 2);
        } else if rest.starts_with(b"#[cfg(test)]") {
            // Skip the attribute and the item it gates: to the end of its
            // braces, or of its `;` (a `mod tests;` declaration).
            match (find(rest, b"{"), find(rest, b";")) {
                (Some(o), s) if s.is_none_or(|s| o < s) => {
                    let mut depth = 0;
                    let mut j = i + o;
                    while j < b.len() {
                        match b[j] {
                            b'{' => depth += 1,
                            b'}' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    i = j + 1;
                }
                (_, Some(s)) => i += s + 1,
                _ => i = b.len(),
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The top-level modules a file's code names through `crate::` (and
/// `$crate::`), `crate::{a, b}` groups and root re-exports (`crate::Caller`
/// is `context`'s, as `lib.rs` says).
fn named(code: &str, reexports: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let names: Vec<String> = if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            group[..end]
                .split(',')
                .map(|item| ident(item.trim()))
                .filter(|s| !s.is_empty())
                .collect()
        } else {
            vec![ident(rest)]
        };
        for n in names {
            if let Some(m) = reexports.get(&n) {
                out.push(m.clone());
            } else {
                out.push(n);
            }
        }
    }
    out
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// Names `lib.rs` re-exports at the root, and the module each comes from.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for stmt in code(lib).split(';') {
        let Some(body) = stmt.trim().strip_prefix("pub use ") else {
            continue;
        };
        // The prelude's `pub use crate::{...}` names root items again.
        let body = body.strip_prefix("crate::").unwrap_or(body);
        if body.starts_with('{') {
            continue;
        }
        let module = ident(body);
        let items = match body.find('{') {
            Some(o) => &body[o + 1..body.rfind('}').unwrap_or(body.len())],
            None => body.rsplit("::").next().unwrap_or(""),
        };
        for item in items.split(',') {
            let name = item.trim().rsplit("::").next().unwrap_or("").trim();
            let name = name.rsplit(" as ").next().unwrap_or(name).trim();
            if !name.is_empty() && name != module {
                out.entry(name.to_string())
                    .or_insert_with(|| module.clone());
            }
        }
    }
    out
}

/// Every use of a module outside what its layer may use, and every module
/// the table does not place.
fn violations(
    places: &BTreeMap<String, Place>,
    files: &[(String, String, String)],
    reexports: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (module, file, text) in files {
        let Some(&mine) = places.get(module) else {
            out.push(format!(
                "{file}: module `{module}` is in no row of the layer tables"
            ));
            continue;
        };
        for target in named(&code(text), reexports) {
            if &target == module {
                continue;
            }
            let Some(&theirs) = places.get(&target) else {
                // The crate's root items that are not modules (the prelude,
                // re-exported crates) sit above every layer.
                if !["prelude", "schemars", "self"].contains(&target.as_str())
                    && target.chars().next().is_some_and(|c| c.is_lowercase())
                {
                    out.push(format!(
                        "{file}: `crate::{target}` is in no row of the layer tables"
                    ));
                }
                continue;
            };
            match (mine, theirs) {
                (Place::Core(_), Place::Edge) => out.push(format!(
                    "{file}: the core module `{module}` uses the edge `{target}`"
                )),
                (Place::Core(a), Place::Core(b)) if b > a => out.push(format!(
                    "{file}: `{module}` (layer {a}) uses `{target}`, of a layer below it ({b})"
                )),
                _ => {}
            }
        }
    }
    out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_module_imports_only_its_own_layer_and_those_above() {
    let doc = fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let places = table(&doc);
    let src = root().join("contract-runtime/src");
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    let files: Vec<(String, String, String)> = modules(&src)
        .into_iter()
        .map(|(m, p)| {
            let text = fs::read_to_string(&p).unwrap();
            let rel = p.strip_prefix(&src).unwrap().display().to_string();
            (m, rel, text)
        })
        .collect();
    // Every row names modules that exist.
    for name in places.keys() {
        assert!(
            files.iter().any(|(m, _, _)| m == name),
            "docs/architecture.md places `{name}`, which is not a module of contract-runtime/src"
        );
    }
    let found = violations(&places, &files, &reexports(&lib));
    assert!(
        found.is_empty(),
        "imports against docs/architecture.md's layers:\n{}",
        found.join("\n")
    );
}

/// The checker itself finds each kind of breach, so the test above cannot
/// pass by reading nothing.
#[test]
fn the_check_finds_an_upward_import_an_edge_and_an_unplaced_module() {
    let doc = "## The runtime, bottom-up\n\n| layer | modules | what |\n|---|---|---|\n\
        | a | `codes`, `store/` | x |\n| b | `args/` | x |\n| c | `call` | x |\n\
        | d | `contract` | x |\n| e | `dispatch` | x |\n\n| edge | what |\n|---|---|\n\
        | `dialect/` | x |\n\n## Next\n";
    let places = table(doc);
    assert_eq!(places["store"], Place::Core(1));
    assert_eq!(places["dialect"], Place::Edge);
    let reexports = reexports("pub use dispatch::Dispatcher;\npub use args::{ArgValue, ToolArgs};");
    let file = |m: &str, text: &str| (m.to_string(), format!("{m}.rs"), text.to_string());
    let ok = [
        file(
            "dispatch",
            "use crate::{codes, args::X};\nuse crate::ArgValue;",
        ),
        file("dialect", "use crate::dispatch::Dispatcher;"),
        file(
            "codes",
            "// use crate::dispatch::X;\n#[cfg(test)]\nmod tests { use crate::dispatch::X; }",
        ),
    ];
    assert_eq!(violations(&places, &ok, &reexports), Vec::<String>::new());
    let bad = [
        file("codes", "fn f() { crate::Dispatcher::new(); }"),
        file("args", "use crate::{dialect::walk, codes};"),
        file("turn", "use crate::codes;"),
        file("call", "use crate::nowhere::X;"),
    ];
    let found = violations(&places, &bad, &reexports);
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(
        found[0].contains("`codes` (layer 1) uses `dispatch`"),
        "{}",
        found[0]
    );
    assert!(
        found[1].contains("the core module `args` uses the edge `dialect`"),
        "{}",
        found[1]
    );
    assert!(
        found[2].contains("module `turn` is in no row"),
        "{}",
        found[2]
    );
    assert!(
        found[3].contains("`crate::nowhere` is in no row"),
        "{}",
        found[3]
    );
}
