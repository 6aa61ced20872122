//! Compile-time rules C1-C16: each broken contract fails with the error in its
//! `.stderr`, and each correct one compiles. Regenerate the `.stderr` files
//! with `TRYBUILD=overwrite cargo test --test ui` and read the diff.

#[test]
fn ui() {
    // trybuild builds the cases in a project of its own that does not copy
    // the workspace's `[profile.dev]`: without debug info its 26 linked
    // binaries take a tenth of the disk (each was ~110 MB with it).
    if std::env::var_os("CARGO_PROFILE_DEV_DEBUG").is_none() {
        std::env::set_var("CARGO_PROFILE_DEV_DEBUG", "false");
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}

/// `docs/rules.md` quotes compile errors under a `<!-- stderr: NAME -->` marker;
/// each quoted block must still appear in `tests/ui/fail/NAME.stderr`, and
/// each rule C1-C16 must quote at least one.
#[test]
fn docs_quote_the_compiler() {
    let root = env!("CARGO_MANIFEST_DIR");
    let doc =
        std::fs::read_to_string(format!("{root}/docs/rules.md")).expect("docs/rules.md exists");
    let mut quoted_by_rule: Vec<(String, usize)> = Vec::new();
    let mut rule = String::new();
    let mut lines = doc.lines();
    let mut problems = Vec::new();
    while let Some(line) = lines.next() {
        if let Some(heading) = line.strip_prefix("## ") {
            rule = heading.split(':').next().unwrap_or_default().to_string();
            quoted_by_rule.push((rule.clone(), 0));
            continue;
        }
        let Some(name) = line
            .strip_prefix("<!-- stderr: ")
            .and_then(|l| l.strip_suffix(" -->"))
        else {
            continue;
        };
        assert_eq!(
            lines.next(),
            Some("```text"),
            "the marker for {name} must be followed by a ```text block"
        );
        let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        let quoted = block.join("\n");
        let path = format!("{root}/tests/ui/fail/{name}.stderr");
        match std::fs::read_to_string(&path) {
            Ok(stderr) if stderr.contains(&quoted) => {}
            Ok(_) => problems.push(format!(
                "{rule}: docs/rules.md quotes text that is not in {name}.stderr:\n{quoted}"
            )),
            Err(e) => problems.push(format!("{rule}: {path}: {e}")),
        }
        if let Some(last) = quoted_by_rule.last_mut() {
            last.1 += 1;
        }
    }
    for id in 1..=16 {
        let id = format!("C{id}");
        if !quoted_by_rule.iter().any(|(r, n)| *r == id && *n > 0) {
            problems.push(format!(
                "{id}: docs/rules.md has no section quoting its compile error"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
