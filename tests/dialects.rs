//! Dialect exports of the toolbox tools, compared with the snapshots in
//! `tests/snapshots/<dialect>.json`. `UPDATE_SNAPSHOTS=1 cargo test --test
//! dialects` rewrites them; review the diff before committing.

use toolbox as tools;

use std::path::{Path, PathBuf};

use contract_runtime::dialect::{self, Dialect, ExportOptions, LossAction};
use contract_runtime::{Registry, RegistryError};
use serde_json::Value;

fn snapshot_path(d: Dialect) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{}.json", d.id()))
}

fn export_text(d: Dialect) -> String {
    let export = dialect::export(tools::registry().canonical(), d, &ExportOptions::default())
        .unwrap_or_else(|e| panic!("{d}: {e}"));
    serde_json::to_string_pretty(&export.tools).expect("JSON") + "\n"
}

#[test]
fn exports_match_snapshots() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for &d in Dialect::ALL {
        let path = snapshot_path(d);
        let text = export_text(d);
        if update {
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            std::fs::write(&path, &text).expect("write snapshot");
            continue;
        }
        let stored = std::fs::read_to_string(&path).unwrap_or_default();
        if stored != text {
            stale.push(d.id());
        }
    }
    assert!(
        stale.is_empty(),
        "snapshots differ from the export for {stale:?}; run `UPDATE_SNAPSHOTS=1 cargo test --test dialects` and review the diff"
    );
}

#[test]
fn every_dialect_has_a_snapshot_file_and_no_other() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/snapshots")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    found.sort();
    let mut expected: Vec<String> = Dialect::ALL
        .iter()
        .map(|d| format!("{}.json", d.id()))
        .collect();
    expected.sort();
    assert_eq!(found, expected);
}

#[test]
fn every_export_lists_every_tool_in_order() {
    let names: Vec<&str> = tools::registry().names().collect();
    for &d in Dialect::ALL {
        let text = export_text(d);
        let tools: Vec<Value> = serde_json::from_str(&text).expect("JSON");
        let got: Vec<&str> = tools
            .iter()
            .map(|t| {
                t.get("name")
                    .or_else(|| t["function"].get("name"))
                    .and_then(Value::as_str)
                    .expect("a name")
            })
            .collect();
        assert_eq!(got, names, "{d}");
    }
}

/// OpenAI strict mode cannot carry string lengths or uniqueness: each moves
/// into the description, is reported, and nothing else is lost.
#[test]
fn openai_loss_report_names_the_moved_constraints() {
    for d in [Dialect::OpenAiResponses, Dialect::OpenAiChat] {
        let export = dialect::export(tools::registry().canonical(), d, &ExportOptions::default())
            .expect("export");
        let mut keywords: Vec<&str> = export.losses.iter().map(|l| l.keyword.as_str()).collect();
        keywords.sort_unstable();
        keywords.dedup();
        for kw in ["minLength", "maxLength", "uniqueItems"] {
            assert!(
                keywords.contains(&kw),
                "{d}: no loss for {kw}: {keywords:?}"
            );
        }
        let find = |tool: &str, pointer: &str| {
            export
                .losses
                .iter()
                .find(|l| l.tool == tool && l.pointer == pointer)
                .unwrap_or_else(|| panic!("{d}: no loss {tool} {pointer}: {:#?}", export.losses))
        };
        let q_min = find("search_notes", "/properties/query/minLength");
        assert_eq!(q_min.action, LossAction::MovedToDescription);
        assert!(q_min.note.contains("1 to 200 characters"), "{}", q_min.note);
        find("search_notes", "/properties/query/maxLength");
        let unique = find("tag_notes", "/properties/notes/uniqueItems");
        assert_eq!(unique.action, LossAction::MovedToDescription);
        find("post_comment", "/properties/body/maxLength");
        // Every moved constraint is in the exported description text.
        let exported = serde_json::to_string(&export.tools).expect("JSON");
        assert!(exported.contains("(1 to 200 characters)"), "{exported}");
        assert!(exported.contains("1 to 2000 characters"), "{exported}");
        assert!(exported.to_lowercase().contains("unique"), "{exported}");
        // The constraints OpenAI keeps (pattern, minimum/maximum, minItems/maxItems) are no loss.
        for loss in &export.losses {
            assert!(
                !["pattern", "minimum", "maximum", "minItems", "maxItems"]
                    .contains(&loss.keyword.as_str()),
                "{d}: unexpected loss {loss:?}"
            );
        }
    }
}

/// Each exported tool writes the JSON of its value (an MCP tool writes its
/// `outputSchema` from parts, without building it), compact and indented,
/// and reads as that value key by key.
#[test]
fn exported_tools_write_their_values() {
    for &d in Dialect::ALL {
        let export = dialect::export(tools::registry().canonical(), d, &ExportOptions::default())
            .unwrap_or_else(|e| panic!("{d}: {e}"));
        for tool in &export.tools {
            let value = tool.to_value();
            let name = &value["name"];
            assert_eq!(
                serde_json::to_string(tool).expect("JSON"),
                value.to_string(),
                "{d}: {name}"
            );
            assert_eq!(
                serde_json::to_string_pretty(tool).expect("JSON"),
                serde_json::to_string_pretty(&value).expect("JSON"),
                "{d}: {name}"
            );
            assert_eq!(format!("{tool:#}"), format!("{value:#}"), "{d}: {name}");
            let keys: Vec<&str> = value
                .as_object()
                .expect("an object")
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(tool.keys().collect::<Vec<_>>(), keys, "{d}: {name}");
            for key in keys {
                assert_eq!(tool.get(key), value.get(key), "{d}: {name} {key}");
            }
            assert_eq!(*tool, value, "{d}: {name}");
            assert_eq!(tool.clone().into_value(), value, "{d}: {name}");
        }
    }
}

#[test]
fn canonical_export_loses_nothing() {
    let export = dialect::export(
        tools::registry().canonical(),
        Dialect::Canonical,
        &ExportOptions::default(),
    )
    .expect("export");
    // The one loss the canonical export has: rules across arguments that no
    // JSON Schema can say (`list_filings`' `le` and `max_span` on dates),
    // stated in the description.
    let losses: Vec<(&str, &str, LossAction)> = export
        .losses
        .iter()
        .map(|l| (l.tool.as_str(), l.keyword.as_str(), l.action.clone()))
        .collect();
    assert_eq!(
        losses,
        [
            ("list_filings", "le", LossAction::MovedToDescription),
            ("list_filings", "max_span", LossAction::MovedToDescription),
        ],
        "{:?}",
        export.losses
    );
    assert_eq!(export.tools, tools::registry().canonical());
}

#[test]
fn loss_is_error_makes_a_lossy_export_fail() {
    let strict = ExportOptions {
        loss_is_error: true,
        ..ExportOptions::default()
    };
    let canonical = tools::registry().canonical();
    for d in [
        Dialect::OpenAiResponses,
        Dialect::OpenAiChat,
        Dialect::Gemini,
    ] {
        let lossy = dialect::export(&canonical, d, &ExportOptions::default()).expect("export");
        assert!(
            !lossy.losses.is_empty(),
            "{d} is expected to lose something"
        );
        let err = dialect::export(&canonical, d, &strict).expect_err("loss is an error");
        assert_eq!(err.dialect, d);
        let first = &lossy.losses[0];
        assert_eq!(
            err.tool, first.tool,
            "{d}: the error names the first lossy tool"
        );
        assert_eq!(err.pointer, first.pointer);
        assert!(err.to_string().contains("loss is an error"), "{err}");
    }
    // A dialect that carries everything exports the same with or without the option.
    for d in [Dialect::Canonical, Dialect::Anthropic] {
        let plain = dialect::export(&canonical, d, &ExportOptions::default()).expect("export");
        if plain.losses.is_empty() {
            assert_eq!(
                dialect::export(&canonical, d, &strict).expect("no loss"),
                plain
            );
        }
    }
}

#[test]
fn registry_names_are_checked_per_dialect() {
    for &d in Dialect::ALL {
        tools::registry()
            .check_names(d)
            .unwrap_or_else(|e| panic!("{d}: {e}"));
        let built = Registry::builder()
            .tool(tools::search_notes::contract())
            .build_for(d)
            .expect("build_for");
        assert_eq!(built.names().collect::<Vec<_>>(), ["search_notes"]);
    }
    // The rules differ per dialect: what the registry refuses, and why.
    assert!(dialect::check_name("notes.search", Dialect::Mcp).is_ok());
    assert!(dialect::check_name("notes.search", Dialect::Gemini).is_ok());
    let err = dialect::check_name("notes.search", Dialect::OpenAiResponses)
        .expect_err("no dots for OpenAI");
    assert!(
        err.contains("'.'") && err.contains("^[a-zA-Z0-9_-]{1,64}$"),
        "{err}"
    );
    assert!(dialect::check_name("9lives", Dialect::OpenAiChat).is_ok());
    assert!(dialect::check_name("9lives", Dialect::Gemini).is_err());
    assert!(dialect::check_name(&"a".repeat(100), Dialect::Mcp).is_ok());
    assert!(dialect::check_name(&"a".repeat(100), Dialect::Anthropic).is_err());
    // A duplicate is refused whatever the dialect.
    let dup = Registry::builder()
        .tool(tools::search_notes::contract())
        .tool(tools::search_notes::contract())
        .build_for(Dialect::Mcp);
    assert_eq!(
        dup.unwrap_err(),
        RegistryError::DuplicateName("search_notes".into())
    );
}

/// The generated part of one dialect's section in `docs/dialects.md`: what
/// it keeps, moves, drops and forbids, then the full rules table.
fn rules_section(d: Dialect) -> String {
    use contract_runtime::dialect::{rules, Treatment};
    let list = |pick: &[Treatment]| -> String {
        let keywords: Vec<String> = rules(d)
            .iter()
            .filter(|r| pick.contains(&r.treatment))
            .map(|r| {
                if r.keyword == "*" {
                    "any other keyword".to_owned()
                } else {
                    format!("`{}`", r.keyword)
                }
            })
            .collect();
        if keywords.is_empty() {
            "nothing".to_owned()
        } else {
            keywords.join(", ")
        }
    };
    format!(
        "- **Kept (or rewritten with the same meaning):** {}.\n- **Moved into the description:** {}.\n- **Dropped or weakened (reported):** {}.\n- **Export fails on:** {}.\n\n{}",
        list(&[Treatment::Keep, Treatment::Rewrite]),
        list(&[Treatment::MoveToDescription]),
        list(&[Treatment::Drop, Treatment::Loosen]),
        list(&[Treatment::Forbid]),
        dialect::rules_markdown(d)
    )
}

/// `docs/dialects.md` holds the tables generated from `dialect::rules()`;
/// `UPDATE_SNAPSHOTS=1` rewrites them.
#[test]
fn docs_dialects_md_has_the_generated_tables() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/dialects.md");
    let text = std::fs::read_to_string(&path).expect("docs/dialects.md");
    let mut fresh = text.clone();
    for &d in Dialect::ALL {
        let begin = format!("<!-- BEGIN rules {} -->\n", d.id());
        let end = format!("<!-- END rules {} -->", d.id());
        let start = fresh
            .find(&begin)
            .unwrap_or_else(|| panic!("docs/dialects.md has no `{}`", begin.trim()))
            + begin.len();
        let stop = start
            + fresh[start..]
                .find(&end)
                .unwrap_or_else(|| panic!("docs/dialects.md has no `{end}`"));
        fresh.replace_range(start..stop, &rules_section(d));
    }
    let (begin, end) = ("<!-- BEGIN limits -->\n", "<!-- END limits -->");
    let start = fresh
        .find(begin)
        .expect("docs/dialects.md has no `<!-- BEGIN limits -->`")
        + begin.len();
    let stop = start
        + fresh[start..]
            .find(end)
            .expect("docs/dialects.md has no `<!-- END limits -->`");
    fresh.replace_range(start..stop, &dialect::limits_markdown());
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &fresh).expect("write docs/dialects.md");
        return;
    }
    assert!(
        fresh == text,
        "docs/dialects.md differs from dialect::rules(); run `UPDATE_SNAPSHOTS=1 cargo test --test dialects`"
    );
}

/// The canonical schema closes every object (`additionalProperties: false`),
/// the output schemas' included: walks every node that is an object schema
/// (it has `properties` or `type: object`) in both schemas of every tool.
#[test]
fn every_canonical_object_is_closed() {
    fn walk(v: &Value, at: &str, open: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                let is_object = m.get("properties").is_some_and(Value::is_object)
                    || m.get("type") == Some(&Value::from("object"));
                if is_object && !m.contains_key("additionalProperties") {
                    open.push(at.to_string());
                }
                for (k, child) in m {
                    // a `properties` map's keys are names, its values schemas
                    if k == "properties" || k == "$defs" {
                        if let Value::Object(props) = child {
                            for (name, s) in props {
                                walk(s, &format!("{at}/{k}/{name}"), open);
                            }
                        }
                    } else {
                        walk(child, &format!("{at}/{k}"), open);
                    }
                }
            }
            Value::Array(items) => {
                for (i, s) in items.iter().enumerate() {
                    walk(s, &format!("{at}/{i}"), open);
                }
            }
            _ => {}
        }
    }
    let mut open = Vec::new();
    for def in tools::registry().canonical() {
        let name = def["name"].as_str().unwrap_or_default().to_string();
        for key in ["input_schema", "output_schema"] {
            walk(&def[key], &format!("{name}/{key}"), &mut open);
        }
    }
    assert!(open.is_empty(), "objects left open: {open:#?}");
}

/// Examples of arguments: declared in the contract (`list_filings`) or
/// added to the tool, checked at registry build as calls would be, then
/// exported where the provider takes them (Anthropic's `input_examples`) and
/// into the description everywhere else, reported as a loss.
#[test]
fn examples_are_checked_at_build_and_exported_where_the_provider_takes_them() {
    use serde_json::json;
    let declared = json!([
        {"company": "ACME", "year": 2019},
        {"company": "ACME", "year": 2019, "from": "2019-10-01", "to": "2019-12-31"}
    ]);
    let toolbox = tools::registry().canonical();
    let filings = toolbox
        .iter()
        .find(|d| d["name"] == "list_filings")
        .unwrap();
    assert_eq!(filings["input_examples"], declared);
    // Added ones come after the declared ones.
    let good = Registry::builder()
        .tool(tools::search_notes::contract().example(json!({"query": "kv cache"})))
        .tool(tools::list_filings::contract().example(json!({"company": "INIT", "year": 2026})))
        .build()
        .expect("valid examples build");
    let canonical = good.canonical();
    assert_eq!(
        canonical[0]["input_examples"],
        json!([{"query": "kv cache"}])
    );
    assert_eq!(
        canonical[1]["input_examples"][2],
        json!({"company": "INIT", "year": 2026})
    );
    for d in [Dialect::Anthropic, Dialect::AnthropicStrict] {
        let out = dialect::export(&canonical, d, &ExportOptions::default()).unwrap();
        assert_eq!(
            out.tools[0]["input_examples"],
            json!([{"query": "kv cache"}]),
            "{d}"
        );
        assert_eq!(
            out.tools[1]["input_examples"], canonical[1]["input_examples"],
            "{d}"
        );
        assert_eq!(
            out.tools[0]["description"], canonical[0]["description"],
            "{d}"
        );
        assert!(
            out.losses.iter().all(|l| l.keyword != "input_examples"),
            "{d}"
        );
    }
    let description = |d: Dialect, tool: &Value| -> String {
        let at = if d == Dialect::OpenAiChat {
            &tool["function"]["description"]
        } else {
            &tool["description"]
        };
        at.as_str()
            .unwrap_or_else(|| panic!("{d}: no description"))
            .to_owned()
    };
    for d in [
        Dialect::OpenAiResponses,
        Dialect::OpenAiChat,
        Dialect::Gemini,
        Dialect::GeminiJsonSchema,
        Dialect::Mcp,
    ] {
        let out = dialect::export(&canonical, d, &ExportOptions::default()).unwrap();
        assert!(out.tools[0].get("input_examples").is_none(), "{d}");
        assert_eq!(
            description(d, &out.tools[0].to_value()),
            format!(
                "{}\n\nExamples of arguments:\n{{\"query\":\"kv cache\"}}",
                canonical[0]["description"].as_str().unwrap()
            ),
            "{d}"
        );
        assert!(
            description(d, &out.tools[1].to_value()).ends_with(
                "\n\nExamples of arguments:\n{\"company\":\"ACME\",\"year\":2019}\n{\"company\":\"ACME\",\"year\":2019,\"from\":\"2019-10-01\",\"to\":\"2019-12-31\"}\n{\"company\":\"INIT\",\"year\":2026}"
            ),
            "{d}: {}",
            description(d, &out.tools[1].to_value())
        );
        let moved: Vec<String> = out
            .losses
            .iter()
            .filter(|l| l.keyword == "input_examples")
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            moved,
            [
                format!("search_notes (root) input_examples: moved to description: 1 example(s) of arguments; {d} has no field for them (Anthropic's input_examples has)"),
                format!("list_filings (root) input_examples: moved to description: 3 example(s) of arguments; {d} has no field for them (Anthropic's input_examples has)"),
            ],
            "{d}"
        );
    }
    // Examples the runtime would refuse never reach a provider.
    let refused = |tool: contract_runtime::Tool| match Registry::builder().tool(tool).build() {
        Err(RegistryError::BadExample {
            tool,
            index,
            declared,
            example,
            reason,
        }) => (tool, index, declared, example, reason),
        other => panic!("expected BadExample, got {other:?}"),
    };
    let (tool, index, declared, example, reason) = refused(
        tools::search_notes::contract()
            .example(json!({"query": "ok"}))
            .example(json!({"query": ""})),
    );
    assert_eq!((tool.as_str(), index, declared), ("search_notes", 1, false));
    assert_eq!(example, r#"{"query":""}"#);
    assert!(
        reason.starts_with("`/query` must have at least 1 character"),
        "{reason}"
    );
    let (.., reason) =
        refused(tools::search_notes::contract().example(json!({"query": "x", "limit": 3})));
    assert!(reason.contains("limit"), "{reason}");
    let (.., reason) = refused(tools::search_notes::contract().example(json!("x")));
    assert_eq!(reason, "an example of arguments must be a JSON object");
    // A rule across arguments too: `from` after `to`. Counted after the two
    // the contract declares.
    let (tool, index, declared, _, reason) =
        refused(tools::list_filings::contract().example(json!(
        {"company": "ACME", "year": 2020, "from": "2020-05-01", "to": "2020-01-01"})));
    assert_eq!((tool.as_str(), index, declared), ("list_filings", 2, false));
    assert!(reason.contains("from"), "{reason}");
    let err = Registry::builder()
        .tool(tools::search_notes::contract().example(json!({"query": ""})))
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "tool `search_notes`: example 0 (added with `Tool::example`) would be refused, so it would teach a model a call that fails: `/query` must have at least 1 character, got 0\nthe example: {\"query\":\"\"}",
    );
}

/// Deferred loading in each provider's form: OpenAI namespaces of fewer than
/// ten functions and its tool search; Anthropic's `defer_loading` and regex
/// tool search; an error where the provider has no tool search. Deferred
/// tools do not count against the per-request limits.
#[test]
fn deferred_exports_take_each_providers_form() {
    use contract_runtime::dialect::{Defer, ANTHROPIC_SEARCH};
    let canonical = tools::registry().canonical();
    let n = canonical.len();
    let opts = ExportOptions {
        defer: Defer::AllBut(vec!["search_notes".to_owned()]),
        ..ExportOptions::default()
    };
    let out = dialect::export(&canonical, Dialect::OpenAiResponses, &opts).unwrap();
    let shapes: Vec<&str> = out
        .tools
        .iter()
        .map(|t| t["type"].as_str().unwrap())
        .collect();
    assert_eq!(shapes, ["function", "namespace", "tool_search"]);
    assert_eq!(out.tools[0]["name"], "search_notes");
    assert!(out.tools[0].get("defer_loading").is_none());
    let ns = &out.tools[1];
    assert_eq!(ns["name"], "deferred_1");
    let inner = ns["tools"].as_array().unwrap();
    assert_eq!(inner.len(), n - 1);
    assert!(inner
        .iter()
        .all(|f| f["defer_loading"] == true && f["type"] == "function"));
    assert!(
        ns["description"]
            .as_str()
            .unwrap()
            .contains("read_file, replace_text"),
        "{}",
        ns["description"]
    );
    // Twenty deferred functions: namespaces of 9, 9 and 2.
    let many: Vec<Value> = (0..20)
        .map(|i| {
            let mut d = canonical[0].clone();
            d["name"] = Value::from(format!("search_{i}"));
            d
        })
        .collect();
    let all = ExportOptions {
        defer: Defer::AllBut(vec![]),
        ..ExportOptions::default()
    };
    let out = dialect::export(&many, Dialect::OpenAiResponses, &all).unwrap();
    let sizes: Vec<usize> = out
        .tools
        .iter()
        .filter_map(|t| t["tools"].as_array().map(Vec::len))
        .collect();
    assert_eq!(sizes, [9, 9, 2]);
    // Anthropic: every tool but the core carries defer_loading; the search tool comes last.
    for d in [Dialect::Anthropic, Dialect::AnthropicStrict] {
        let out = dialect::export(&canonical, d, &opts).unwrap();
        assert_eq!(out.tools.len(), n + 1, "{d}");
        assert!(out.tools[0].get("defer_loading").is_none());
        assert!(
            out.tools[1..n].iter().all(|t| t["defer_loading"] == true),
            "{d}"
        );
        assert_eq!(out.tools[n]["name"], ANTHROPIC_SEARCH);
        assert_eq!(out.tools[n]["type"], "tool_search_tool_regex_20251119");
    }
    // 25 strict tools are over Anthropic's 20, unless 5 are loaded and 20 deferred.
    assert!(dialect::export(
        many.iter()
            .chain(&many[..5])
            .cloned()
            .enumerate()
            .map(|(i, mut d)| {
                d["name"] = Value::from(format!("t{i}"));
                d
            })
            .collect::<Vec<_>>(),
        Dialect::AnthropicStrict,
        &ExportOptions::default()
    )
    .is_err());
    let core: Vec<String> = (0..5).map(|i| format!("search_{i}")).collect();
    let some = ExportOptions {
        defer: Defer::AllBut(core),
        ..ExportOptions::default()
    };
    let mut more = many.clone();
    for i in 20..25 {
        let mut d = canonical[0].clone();
        d["name"] = Value::from(format!("search_{i}"));
        more.push(d);
    }
    assert!(dialect::export(&more, Dialect::AnthropicStrict, &some).is_ok());
    // No tool search: an error, not a silent full load.
    // The error names the first deferred tool (the core tool is loaded).
    for d in [Dialect::OpenAiChat, Dialect::Gemini, Dialect::Mcp] {
        let e = dialect::export(&canonical, d, &opts).unwrap_err();
        assert_eq!(e.tool, canonical[1]["name"], "{d}: {e}");
        assert!(e.reason.contains("has no tool search"), "{d}: {e}");
    }
    let e = dialect::export(&canonical, Dialect::OpenAiChat, &opts).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "cannot export tool `{}` for openai-chat at the root: openai-chat has no tool search, so `{}` cannot be deferred (nor can {} other tools): export for openai-responses, anthropic or anthropic-strict, or defer nothing",
            canonical[1]["name"].as_str().unwrap(),
            canonical[1]["name"].as_str().unwrap(),
            n - 2
        )
    );
    // One deferred tool: no count of others.
    let one = ExportOptions {
        defer: Defer::AllBut(
            canonical[1..]
                .iter()
                .map(|d| d["name"].as_str().unwrap().to_owned())
                .collect(),
        ),
        ..ExportOptions::default()
    };
    let e = dialect::export(&canonical, Dialect::OpenAiChat, &one).unwrap_err();
    assert_eq!(e.tool, canonical[0]["name"]);
    assert!(
        e.reason.ends_with(&format!("so `{}` cannot be deferred: export for openai-responses, anthropic or anthropic-strict, or defer nothing", canonical[0]["name"].as_str().unwrap())),
        "{e}"
    );
    // A tool with the name of Anthropic's search tool: named as the tool at fault.
    let mut clash = canonical.clone();
    clash[1]["name"] = Value::from(ANTHROPIC_SEARCH);
    let e = dialect::export(&clash, Dialect::Anthropic, &opts).unwrap_err();
    assert_eq!(e.tool, ANTHROPIC_SEARCH, "{e}");
    // Marked on the tool itself.
    let marked = Registry::builder()
        .tool(tools::search_notes::contract())
        .tool(tools::read_file::contract().deferred())
        .build()
        .unwrap()
        .canonical();
    assert_eq!(marked[1]["defer_loading"], true);
    assert!(marked[0].get("defer_loading").is_none());
    let by_mark = ExportOptions {
        defer: Defer::Marked,
        ..ExportOptions::default()
    };
    let out = dialect::export(&marked, Dialect::Anthropic, &by_mark).unwrap();
    assert_eq!(
        (
            out.tools[0].get("defer_loading"),
            &out.tools[1]["defer_loading"]
        ),
        (None, &Value::Bool(true))
    );
}

/// A contract whose second example types well (so it compiles) but breaks
/// a constraint and a rule across arguments: the registry refuses it,
/// naming the tool, the example and every reason.
mod declared_but_refused {
    use contract_runtime::prelude::*;

    /// Search the notes between two years.
    #[tool_contract(
        effect = read_only,
        rules(le(from, to)),
        examples({query: "kv cache"}, {query: "", from: 2020, to: 2019})
    )]
    pub fn search_years(
        /// The phrase to look for.
        #[arg(length(min = 1, max = 200))]
        query: String,
        /// The first year.
        from: Option<u16>,
        /// The last year.
        to: Option<u16>,
    ) -> Result<Vec<String>, std::convert::Infallible> {
        let _ = (from, to);
        Ok(vec![query])
    }
}

#[test]
fn a_declared_example_the_runtime_would_refuse_fails_the_registry() {
    let err = Registry::builder()
        .tool(declared_but_refused::search_years::contract())
        .build()
        .unwrap_err();
    let RegistryError::BadExample {
        ref tool,
        index,
        declared,
        ref example,
        ..
    } = err
    else {
        panic!("expected BadExample, got {err:?}");
    };
    assert_eq!((tool.as_str(), index, declared), ("search_years", 1, true));
    assert_eq!(example, r#"{"query":"","from":2020,"to":2019}"#);
    assert_eq!(
        err.to_string(),
        "tool `search_years`: example 1 (declared in `examples(...)`) would be refused, so it would teach a model a call that fails: `/query` must have at least 1 character, got 0; `/from` must be less than or equal to `to` (2019); `/to` must be greater than or equal to `from` (2020)\nthe example: {\"query\":\"\",\"from\":2020,\"to\":2019}"
    );
}

/// A served bound on an optional number: the same words as on a required one.
mod optional_served {
    use contract_runtime::prelude::*;

    /// Search the products.
    #[tool_contract(effect = read_only)]
    pub fn search_products(
        /// The phrase to look for.
        query: String,
        /// How many products to return.
        #[arg(range(min = 1), served(range(max = 50)))]
        limit: Option<u32>,
        /// How many pages to skip.
        #[arg(range(min = 1), served(range(max = 50)))]
        pages: u32,
    ) -> Result<Vec<String>, std::convert::Infallible> {
        let _ = (limit, pages);
        Ok(vec![query])
    }
}

/// attributes.md "Form and service": a dialect that moves a numeric bound
/// into the description says a served one as such, on an `Option<u32>` too
/// (anthropic-strict splits its type list into `anyOf` branches).
#[test]
fn a_served_bound_on_an_optional_number_is_said_as_one_of_service() {
    let registry = Registry::builder()
        .tool(optional_served::search_products::contract())
        .build()
        .expect("registry");
    // Of the strict dialects only anthropic-strict moves numeric bounds.
    let d = Dialect::AnthropicStrict;
    let out = dialect::export(registry.canonical(), d, &ExportOptions::default())
        .unwrap_or_else(|e| panic!("{d}: {e}"));
    let tool = serde_json::to_value(&out.tools[0]).expect("JSON");
    let props = &tool["input_schema"]["properties"];
    for (name, what) in [
        ("limit", "How many products to return"),
        ("pages", "How many pages to skip"),
    ] {
        assert_eq!(
            props[name]["description"],
            format!("{what}. (at least 1; the tool serves at most 50)"),
            "{d}: {name}"
        );
        let notes: Vec<&str> = out
            .losses
            .iter()
            .filter(|l| l.pointer.starts_with(&format!("/properties/{name}/")))
            .map(|l| l.note.as_str())
            .collect();
        assert_eq!(
            notes,
            [
                "moved to description: at least 1",
                "moved to description: the tool serves at most 50"
            ],
            "{d}: {name}"
        );
    }
}

/// Fields whose type is an argument struct, each with its own doc comment.
mod nested_docs {
    use contract_runtime::prelude::*;

    /// Where an order is shipped.
    #[derive(Debug, ToolArgs)]
    pub struct Address {
        /// The street and number.
        pub street: String,
    }

    /// A span of days.
    #[derive(Debug, ToolArgs)]
    #[args(rules(le(first, last)))]
    pub struct Window {
        /// The first day.
        pub first: u32,
        /// The last day.
        pub last: u32,
    }

    /// How an order reaches the customer.
    #[derive(Debug, ToolArgs)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    pub enum Delivery {
        /// Shipped by courier to an address.
        Courier {
            /// Where to ship.
            address: Address,
        },
        /// Picked up at a store.
        Pickup {
            /// The store's code.
            store: String,
        },
    }

    /// Ship an order.
    #[tool_contract(effect = read_only)]
    pub fn ship(
        /// How the order reaches the customer.
        delivery: Delivery,
        /// Where to send the bill.
        billing: Option<Address>,
        /// The stops on the way.
        stops: Vec<Address>,
        /// When to deliver.
        window: Window,
    ) -> Result<String, std::convert::Infallible> {
        let _ = (delivery, billing, stops, window);
        Ok(String::new())
    }
}

/// attributes.md: "The doc comment ... becomes the property's description",
/// for a field whose type is an argument struct too: the field's doc wins
/// over the struct's (as over an enum's), the struct's stays where no field
/// names it (a list's items), and the struct's rules across arguments still
/// follow.
#[test]
fn a_fields_doc_wins_over_its_structs_doc() {
    let registry = Registry::builder()
        .tool(nested_docs::ship::contract())
        .build()
        .expect("registry");
    let out = dialect::export(
        registry.canonical(),
        Dialect::Canonical,
        &ExportOptions::default(),
    )
    .expect("export");
    let tool = serde_json::to_value(&out.tools[0]).expect("JSON");
    let at = |p: &str| {
        tool.pointer(&format!("/input_schema/properties{p}/description"))
            .unwrap_or_else(|| panic!("{p}: {tool}"))
            .clone()
    };
    assert_eq!(
        [
            at("/delivery"),
            at("/delivery/oneOf/0/properties/address"),
            at("/billing"),
            at("/stops"),
            at("/stops/items"),
            at("/window"),
        ],
        [
            "How the order reaches the customer.",
            "Where to ship.",
            "Where to send the bill.",
            "The stops on the way.",
            "Where an order is shipped.",
            "When to deliver.\n\nRules across arguments: `first` must be less than or equal to `last`.",
        ]
    );
}

/// A name in `Defer::AllBut` that is no tool (a typo in the core set) is an
/// export error naming it and the tools, in every dialect, as the other name
/// mistakes are; it would otherwise defer every tool.
#[test]
fn a_core_name_that_is_no_tool_is_an_error() {
    use contract_runtime::dialect::Defer;
    let canonical = tools::registry().canonical();
    let names: Vec<String> = canonical
        .iter()
        .map(|d| format!("`{}`", d["name"].as_str().unwrap()))
        .collect();
    let opts = ExportOptions {
        defer: Defer::AllBut(vec!["search_notes".to_owned(), "no_such_tool".to_owned()]),
        ..ExportOptions::default()
    };
    for &d in Dialect::ALL {
        let e = dialect::export(&canonical, d, &opts).unwrap_err();
        assert_eq!(e.tool, "no_such_tool", "{d}: {e}");
        assert_eq!(
            e.to_string(),
            format!(
                "cannot export tool `no_such_tool` for {d} at the root: `Defer::AllBut` keeps `no_such_tool` loaded, but no tool is named `no_such_tool` (the tools are {}): name only tools of the export",
                names.join(", ")
            )
        );
    }
    // A long list is cut after twenty names.
    let many: Vec<Value> = (0..25)
        .map(|i| {
            let mut d = canonical[0].clone();
            d["name"] = Value::from(format!("search_{i}"));
            d
        })
        .collect();
    let typo = ExportOptions {
        defer: Defer::AllBut(vec!["search_O".to_owned()]),
        ..ExportOptions::default()
    };
    let e = dialect::export(&many, Dialect::OpenAiResponses, &typo).unwrap_err();
    assert_eq!(e.tool, "search_O", "{e}");
    assert!(
        e.reason
            .contains("(the tools are `search_0`, `search_1`, `search_2`, `search_3`, `search_4`, `search_5`, `search_6`, `search_7`, `search_8`, `search_9`, `search_10`, `search_11`, `search_12`, `search_13`, `search_14`, `search_15`, `search_16`, `search_17`, `search_18`, `search_19` and 5 more)"),
        "{e}"
    );
}

/// `ExportOptions::drop_output_schema`, for a host that sends compact
/// feedback: no tool carries an output schema, and the rest of each tool is
/// the default export's.
#[test]
fn drop_output_schema_leaves_out_every_output_schema() {
    let canonical = tools::registry().canonical();
    let dropped = ExportOptions {
        drop_output_schema: true,
        ..ExportOptions::default()
    };
    for &d in Dialect::ALL {
        let with = dialect::export(&canonical, d, &ExportOptions::default()).unwrap();
        let without = dialect::export(&canonical, d, &dropped).unwrap();
        assert_eq!(with.losses, without.losses, "{d}");
        assert_eq!(with.tools.len(), without.tools.len(), "{d}");
        for (a, b) in with.tools.iter().zip(&without.tools) {
            let mut a = a.to_value();
            let key = match d {
                Dialect::OpenAiResponses => Some("output_schema"),
                Dialect::Mcp => Some("outputSchema"),
                _ => None,
            };
            if let Some(key) = key {
                assert!(a.get(key).is_some(), "{d}: {a}");
                a.as_object_mut().unwrap().shift_remove(key);
            }
            // The same keys in the same order, without the output schema.
            assert_eq!(
                serde_json::to_string(&a).unwrap(),
                serde_json::to_string(b).unwrap(),
                "{d}"
            );
        }
    }
}
