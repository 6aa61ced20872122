//! Exports of the toolbox's seven tools (written by hand as canonical JSON),
//! every loss kind, every forbidden keyword per dialect and the name rules.

use serde_json::{json, Value};

use super::rules::{self, Treatment};
use super::*;

const SCHEMA: &str = "https://json-schema.org/draft/2020-12/schema";
const NOTE_NAME: &str = "^[a-z0-9][a-z0-9_-]{0,63}\\.md$";

/// The contract part of a definition: effect, idempotency, authority, approval.
fn contract(effect: &str, idempotency: Value, authority: &str, approval: Value) -> Value {
    json!({"effect": effect, "idempotency": idempotency, "authority": [authority], "approval": approval})
}

fn tool(name: &str, description: &str, input: Value, output: Value, contract: Value) -> Value {
    let mut t = json!({"name": name, "description": description, "input_schema": input, "output_schema": output});
    if let (Some(t), Value::Object(c)) = (t.as_object_mut(), contract) {
        t.extend(c);
    }
    t
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"$schema": SCHEMA, "type": "object", "properties": properties, "required": required, "additionalProperties": false})
}

fn search_notes() -> Value {
    tool(
        "search_notes",
        "Search the approved public-note index. An empty list means that this search found no match.",
        object(
            json!({"query": {"type": "string", "description": "Text to search for; matched case-insensitively.", "minLength": 1, "maxLength": 200}}),
            &["query"],
        ),
        json!({
            "$schema": SCHEMA, "title": "Matches", "type": "object",
            "properties": {"matches": {"type": "array", "items": {"$ref": "#/$defs/Match"}}},
            "required": ["matches"],
            "$defs": {"Match": {"type": "object", "properties": {
                "note": {"type": "string"}, "line": {"type": "integer", "format": "uint", "minimum": 0},
                "text": {"type": "string"}}, "required": ["note", "line", "text"]}}
        }),
        contract("read_only", json!("natural"), "notes:read", json!("never")),
    )
}

/// The seven tools of the toolbox example, as the macro would write them.
fn toolbox() -> Vec<Value> {
    let version = json!({"type": "string", "description": "The version read: `sha256:` and 64 hex digits.", "pattern": "^sha256:[0-9a-f]{64}$"});
    vec![
        search_notes(),
        tool(
            "read_file",
            "Read one file of the repository.",
            object(
                json!({"path": {"type": "string", "description": "Path under repo/.", "minLength": 1}}),
                &["path"],
            ),
            json!({"$schema": SCHEMA, "title": "FileContent", "type": "object",
                "properties": {"path": {"type": "string"}, "content": {"type": "string"}, "version": {"type": "string"}},
                "required": ["path", "content", "version"]}),
            contract("read_only", json!("natural"), "repo:read", json!("never")),
        ),
        tool(
            "replace_text",
            "Replace one exact occurrence of a text in a file.",
            object(
                json!({
                    "path": {"type": "string", "description": "Path under repo/.", "minLength": 1},
                    "old_text": {"type": "string", "description": "Text to replace; must occur exactly once.", "minLength": 1},
                    "new_text": {"type": "string", "description": "Replacement text."},
                    "expected_version": version,
                }),
                &["path", "old_text", "new_text", "expected_version"],
            ),
            json!({"$schema": SCHEMA, "title": "Replaced", "type": "object",
                "properties": {"changed_file": {"type": "string"}, "version": {"type": "string"}},
                "required": ["changed_file", "version"]}),
            contract(
                "reversible",
                json!("none"),
                "repo:write",
                json!("when(outside_task_scope)"),
            ),
        ),
        tool(
            "list_filings",
            "List a company's filings for one year.",
            object(
                json!({
                    "company": {"type": "string", "description": "Ticker symbol.", "pattern": "^[A-Z]{1,5}$"},
                    "year": {"type": "integer", "description": "Filing year.", "minimum": 2001, "maximum": 2026},
                }),
                &["company", "year"],
            ),
            json!({"$schema": SCHEMA, "title": "Array_of_Filing", "type": "array", "items": {"type": "string"}}),
            contract(
                "read_only",
                json!("natural"),
                "filings:read",
                json!("never"),
            ),
        ),
        tool(
            "tag_notes",
            "Append a tag to each named note once.",
            object(
                json!({
                    "notes": {"type": "array", "description": "Note names.", "items": {"type": "string", "pattern": NOTE_NAME},
                        "minItems": 1, "maxItems": 50, "uniqueItems": true},
                    "tag": {"type": "string", "description": "Tag, without `#`.", "pattern": "^[a-z][a-z0-9-]{0,31}$"},
                }),
                &["notes", "tag"],
            ),
            Value::Null,
            contract(
                "reversible",
                json!("natural"),
                "notes:write",
                json!("never"),
            ),
        ),
        tool(
            "delete_note",
            "Delete one note.",
            object(
                json!({"note": {"type": "string", "description": "Note name.", "pattern": NOTE_NAME}}),
                &["note"],
            ),
            Value::Null,
            contract(
                "destructive",
                json!("natural"),
                "notes:write",
                json!("always"),
            ),
        ),
        tool(
            "post_comment",
            "Post a comment on an issue.",
            object(
                json!({
                    "issue": {"type": "integer", "description": "Issue number.", "minimum": 1, "maximum": 1000000},
                    "body": {"type": "string", "description": "Comment text.", "minLength": 1, "maxLength": 2000},
                    "request_key": {"type": "string", "description": "Key that makes a retry safe.", "format": "uuid"},
                }),
                &["issue", "body", "request_key"],
            ),
            Value::Null,
            contract(
                "external",
                json!("key(request_key)"),
                "comments:write",
                json!("never"),
            ),
        ),
    ]
}

/// A tool with optional fields, a nested object, enums and a default.
fn find_events() -> Value {
    tool(
        "find_events",
        "Find calendar events.",
        object(
            json!({
                "text": {"type": "string", "description": "Words to find.", "minLength": 1},
                "since": {"type": ["string", "null"], "description": "Earliest day.", "format": "date"},
                "kind": {"anyOf": [{"type": "string", "enum": ["meeting", "call"]}, {"type": "null"}], "description": "Kind of event."},
                "limit": {"type": ["integer", "null"], "description": "Most events to return.", "minimum": 1, "maximum": 100, "default": 20},
                "link": {"type": ["string", "null"], "description": "Calendar link.", "format": "uri"},
                "window": {"anyOf": [{"type": "object", "properties": {
                    "from": {"type": "string", "format": "time", "description": "Start."},
                    "to": {"type": "string", "format": "time", "description": "End."}},
                    "required": ["from", "to"], "additionalProperties": false}, {"type": "null"}],
                    "description": "Time of day."},
            }),
            &["text"],
        ),
        Value::Null,
        contract(
            "read_only",
            json!("natural"),
            "calendar:read",
            json!("never"),
        ),
    )
}

/// A tool with one argument whose schema is `s`.
fn with_arg(s: Value) -> Value {
    tool(
        "t",
        "A tool.",
        object(json!({"a": s}), &["a"]),
        Value::Null,
        contract("read_only", json!("natural"), "x:read", json!("never")),
    )
}

fn with_input(input: Value) -> Value {
    tool(
        "t",
        "A tool.",
        input,
        Value::Null,
        contract("read_only", json!("natural"), "x:read", json!("never")),
    )
}

/// An exported tool without the envelope schema OpenAI's Responses functions
/// carry as `output_schema`.
fn without_output_schema(tool: &ExportedTool) -> Value {
    let mut tool = tool.to_value();
    if let Some(o) = tool.as_object_mut() {
        o.remove("output_schema");
    }
    tool
}

fn run(tools: &[Value], d: Dialect) -> Export {
    match export(tools, d, &ExportOptions::default()) {
        Ok(e) => e,
        Err(e) => panic!("{e}"),
    }
}

fn fails(t: Value, d: Dialect) -> ExportError {
    match export(&[t], d, &ExportOptions::default()) {
        Ok(e) => panic!(
            "expected {d} to refuse, got {}",
            serde_json::to_string(&e.tools).unwrap()
        ),
        Err(e) => e,
    }
}

fn keys(v: &Value) -> Vec<Value> {
    v.as_object()
        .unwrap()
        .keys()
        .cloned()
        .map(Value::String)
        .collect()
}

// ---- ids ----

#[test]
fn ids_round_trip_and_parse_errors_list_them() {
    for d in Dialect::ALL {
        assert_eq!(Dialect::from_id(d.id()), Some(*d));
        assert_eq!(d.id().parse::<Dialect>(), Ok(*d));
    }
    assert_eq!(Dialect::ALL.len(), 8);
    let err = "openai".parse::<Dialect>().unwrap_err();
    assert_eq!(
        err,
        "unknown dialect `openai`: expected one of canonical, openai-responses, openai-chat, anthropic, anthropic-strict, gemini, gemini-json-schema, mcp"
    );
}

// ---- exact exports ----

#[test]
fn canonical_is_unchanged() {
    let tools = toolbox();
    let out = run(&tools, Dialect::Canonical);
    assert_eq!(out.tools, tools);
    assert!(out.losses.is_empty());
}

#[test]
fn openai_responses_search_notes() {
    let out = run(&[search_notes()], Dialect::OpenAiResponses);
    // The output schema is the envelope's, checked by its own tests; this
    // one is about the function itself.
    assert_eq!(
        out.tools[0]["output_schema"]["title"], "Envelope",
        "{}",
        out.tools[0]
    );
    assert_eq!(
        without_output_schema(&out.tools[0]),
        json!({
            "type": "function",
            "name": "search_notes",
            "description": "Search the approved public-note index. An empty list means that this search found no match.",
            "parameters": {
                "type": "object",
                "properties": {"query": {"type": "string",
                    "description": "Text to search for; matched case-insensitively. (1 to 200 characters)"}},
                "required": ["query"],
                "additionalProperties": false
            },
            "strict": true
        })
    );
    assert_eq!(
        out.losses,
        vec![
            Loss {
                tool: "search_notes".into(),
                pointer: "/properties/query/minLength".into(),
                keyword: "minLength".into(),
                action: LossAction::MovedToDescription,
                note: "moved to description: 1 to 200 characters".into(),
            },
            Loss {
                tool: "search_notes".into(),
                pointer: "/properties/query/maxLength".into(),
                keyword: "maxLength".into(),
                action: LossAction::MovedToDescription,
                note: "moved to description: 1 to 200 characters".into(),
            },
        ]
    );
}

#[test]
fn openai_chat_wraps_the_function() {
    let chat = run(&[search_notes()], Dialect::OpenAiChat);
    let responses = run(&[search_notes()], Dialect::OpenAiResponses);
    let f = &chat.tools[0]["function"];
    assert_eq!(chat.tools[0]["type"], "function");
    assert_eq!(chat.tools[0].keys().count(), 2);
    for k in ["name", "description", "parameters", "strict"] {
        assert_eq!(f[k], responses.tools[0][k]);
    }
}

#[test]
fn openai_post_comment_keeps_ranges_and_uuid() {
    let tools = toolbox();
    let out = run(&tools[6..], Dialect::OpenAiResponses);
    let p = &out.tools[0]["parameters"]["properties"];
    assert_eq!(
        p["issue"],
        json!({"type": "integer", "description": "Issue number.", "minimum": 1, "maximum": 1000000})
    );
    assert_eq!(
        p["body"],
        json!({"type": "string", "description": "Comment text. (1 to 2000 characters)"})
    );
    assert_eq!(
        p["request_key"],
        json!({"type": "string", "description": "Key that makes a retry safe.", "format": "uuid"})
    );
}

#[test]
fn openai_optional_fields_become_required_and_stay_nullable() {
    let out = run(&[find_events()], Dialect::OpenAiResponses);
    let params = &out.tools[0]["parameters"];
    assert_eq!(
        params["required"],
        Value::Array(keys(&params["properties"]))
    );
    let p = &params["properties"];
    assert_eq!(
        p["since"],
        json!({"type": ["string", "null"], "description": "Earliest day.", "format": "date"})
    );
    assert_eq!(
        p["link"],
        json!({"type": ["string", "null"], "description": "Calendar link. (format: uri)"})
    );
    assert_eq!(
        p["limit"],
        json!({"type": ["integer", "null"], "description": "Most events to return. (default: 20)", "minimum": 1, "maximum": 100})
    );
    assert_eq!(p["window"]["anyOf"][0]["required"], json!(["from", "to"]));
    // Nullable already: no Rewritten loss.
    assert!(out
        .losses
        .iter()
        .all(|l| l.action == LossAction::MovedToDescription));
}

#[test]
fn anthropic_plain_is_canonical_without_schema_uri() {
    let out = run(&[search_notes()], Dialect::Anthropic);
    let mut input = search_notes()["input_schema"].clone();
    input.as_object_mut().unwrap().remove("$schema");
    assert_eq!(
        out.tools[0],
        json!({"name": "search_notes", "description": search_notes()["description"], "input_schema": input})
    );
    assert!(out.losses.is_empty());
}

#[test]
fn anthropic_strict_list_filings() {
    let tools = toolbox();
    let out = run(&tools[3..4], Dialect::AnthropicStrict);
    assert_eq!(
        out.tools[0],
        json!({
            "name": "list_filings",
            "description": "List a company's filings for one year.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "company": {"type": "string", "description": "Ticker symbol. (pattern: ^[A-Z]{1,5}$)"},
                    "year": {"type": "integer", "description": "Filing year. (from 2001 to 2026)"}
                },
                "required": ["company", "year"],
                "additionalProperties": false
            },
            "strict": true
        })
    );
    let kws: Vec<&str> = out.losses.iter().map(|l| l.keyword.as_str()).collect();
    assert_eq!(kws, ["pattern", "minimum", "maximum"]);
}

#[test]
fn anthropic_strict_rewrites_type_lists_enums_and_keeps_min_items_one() {
    let out = run(&[find_events()], Dialect::AnthropicStrict);
    let p = &out.tools[0]["input_schema"]["properties"];
    assert_eq!(
        p["since"],
        json!({"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}], "description": "Earliest day."})
    );
    assert_eq!(
        p["limit"],
        json!({"anyOf": [{"type": "integer"}, {"type": "null"}],
            "description": "Most events to return. (from 1 to 100; default: 20)"})
    );
    assert_eq!(
        p["kind"],
        json!({"anyOf": [{"enum": ["meeting", "call"]}, {"type": "null"}], "description": "Kind of event."})
    );
    // The time window's object keeps properties and additionalProperties.
    assert_eq!(p["window"]["anyOf"][0]["additionalProperties"], false);
    let tools = toolbox();
    let tag = run(&tools[4..5], Dialect::AnthropicStrict);
    assert_eq!(
        tag.tools[0]["input_schema"]["properties"]["notes"],
        json!({"type": "array", "description": "Note names. (at most 50 items; items must be unique)", "minItems": 1,
            "items": {"type": "string", "description": "(pattern: ^[a-z0-9][a-z0-9_-]{0,63}\\.md$)"}})
    );
    let two = run(
        &[with_arg(
            json!({"type": "array", "items": {"type": "string"}, "minItems": 2}),
        )],
        Dialect::AnthropicStrict,
    );
    assert_eq!(
        two.tools[0]["input_schema"]["properties"]["a"],
        json!({"type": "array", "items": {"type": "string"}, "description": "(at least 2 items)"})
    );
}

#[test]
fn gemini_search_notes_and_list_filings() {
    let tools = toolbox();
    let out = run(&[tools[0].clone(), tools[3].clone()], Dialect::Gemini);
    assert_eq!(
        out.tools[0],
        json!({
            "name": "search_notes",
            "description": "Search the approved public-note index. An empty list means that this search found no match.",
            "parameters": {
                "type": "object",
                "properties": {"query": {"type": "string", "description": "Text to search for; matched case-insensitively.",
                    "minLength": 1, "maxLength": 200}},
                "required": ["query"],
                "propertyOrdering": ["query"],
                "description": "(no other properties)"
            }
        })
    );
    let params = &out.tools[1]["parameters"];
    assert_eq!(
        params["properties"]["year"],
        json!({"type": "integer", "description": "Filing year.", "minimum": 2001, "maximum": 2026})
    );
    assert_eq!(params["properties"]["company"]["pattern"], "^[A-Z]{1,5}$");
    assert_eq!(
        params["propertyOrdering"],
        Value::Array(keys(&params["properties"]))
    );
    assert_eq!(
        out.losses,
        vec![
            Loss {
                tool: "search_notes".into(),
                pointer: "/additionalProperties".into(),
                keyword: "additionalProperties".into(),
                action: LossAction::MovedToDescription,
                note: "moved to description: no other properties".into(),
            },
            Loss {
                tool: "list_filings".into(),
                pointer: "/additionalProperties".into(),
                keyword: "additionalProperties".into(),
                action: LossAction::MovedToDescription,
                note: "moved to description: no other properties".into(),
            },
        ]
    );
}

#[test]
fn gemini_nullable_const_and_formats() {
    let out = run(&[find_events()], Dialect::Gemini);
    let p = &out.tools[0]["parameters"]["properties"];
    assert_eq!(
        p["since"],
        json!({"type": "string", "nullable": true, "description": "Earliest day. (format: date)"})
    );
    assert_eq!(
        p["kind"],
        json!({"type": "string", "enum": ["meeting", "call"], "nullable": true, "description": "Kind of event."})
    );
    assert_eq!(
        p["limit"],
        json!({"type": "integer", "nullable": true, "description": "Most events to return.", "minimum": 1, "maximum": 100, "default": 20})
    );
    let window = &p["window"];
    assert_eq!(window["nullable"], true);
    assert_eq!(window["type"], "object");
    assert_eq!(window["description"], "Time of day. (no other properties)");
    assert!(window.get("additionalProperties").is_none());
    assert!(window.get("anyOf").is_none());
    let c = run(
        &[with_arg(
            json!({"const": "x", "examples": ["x"], "description": "d"}),
        )],
        Dialect::Gemini,
    );
    assert_eq!(
        c.tools[0]["parameters"]["properties"]["a"],
        json!({"type": "string", "enum": ["x"], "example": "x", "description": "d"})
    );
    let ex = run(
        &[with_arg(
            json!({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10}),
        )],
        Dialect::Gemini,
    );
    assert_eq!(
        ex.tools[0]["parameters"]["properties"]["a"],
        json!({"type": "integer", "description": "(greater than 0 and less than 10)"})
    );
}

#[test]
fn gemini_without_arguments_has_no_parameters() {
    let t = with_input(
        json!({"$schema": SCHEMA, "type": "object", "properties": {}, "additionalProperties": false}),
    );
    let out = run(std::slice::from_ref(&t), Dialect::Gemini);
    assert_eq!(out.tools[0], json!({"name": "t", "description": "A tool."}));
    let out = run(&[t], Dialect::Mcp);
    assert_eq!(
        out.tools[0]["inputSchema"],
        json!({"type": "object", "additionalProperties": false})
    );
    // A map at the root is not "no arguments".
    let map = with_input(json!({"type": "object", "additionalProperties": {"type": "string"}}));
    let out = run(std::slice::from_ref(&map), Dialect::Mcp);
    assert_eq!(out.tools[0]["inputSchema"], map["input_schema"]);
    assert_forbidden(Dialect::Gemini, map, "", "properties (empty)");
}

#[test]
fn gemini_json_schema_is_canonical_without_schema_uri() {
    let out = run(&[search_notes()], Dialect::GeminiJsonSchema);
    let mut input = search_notes()["input_schema"].clone();
    input.as_object_mut().unwrap().remove("$schema");
    assert_eq!(
        out.tools[0],
        json!({"name": "search_notes", "description": search_notes()["description"], "parametersJsonSchema": input})
    );
}

#[test]
fn mcp_search_notes() {
    let out = run(&[search_notes()], Dialect::Mcp);
    let t = search_notes();
    assert_eq!(
        out.tools[0],
        json!({
            "name": "search_notes",
            "description": t["description"],
            "inputSchema": t["input_schema"],
            "outputSchema": crate::envelope::envelope_schema(Some(&t["output_schema"])),
            "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}
        })
    );
    assert!(out.losses.is_empty());
}

/// An MCP tool holds its `outputSchema` in parts over the envelope's shared
/// schema: read, indexed, copied, compared and written, it is the whole
/// schema, whatever the output's `$defs` and `$ref`s.
#[test]
fn mcp_output_schema_reads_and_writes_whole() {
    let envelope = |output: &Value| crate::envelope::envelope_schema(Some(output));
    let with_output = |name: &str, output: Value| {
        let mut t = search_notes();
        t["name"] = json!(name);
        t["output_schema"] = output;
        t
    };
    let status = json!({"type": "string", "enum": ["mine"]});
    let outputs = [
        // The toolbox's: one `$defs` entry, added after the envelope's.
        search_notes()["output_schema"].clone(),
        // A `$defs` entry named as one of the envelope's takes its place.
        json!({"type": "object", "properties": {"s": {"$ref": "#/$defs/Status"}},
               "$defs": {"Status": status, "Extra": {"type": "integer"}}}),
        // A `$ref` out of the output's `$defs`: `result` is left open.
        json!({"$ref": "https://example.com/schema"}),
        // Not an object: `result` is left open.
        json!(true),
        Value::Null,
    ];
    let defs: Vec<Value> = outputs
        .iter()
        .enumerate()
        .map(|(i, o)| with_output(&format!("t{i}"), o.clone()))
        .collect();
    let out = run(&defs, Dialect::Mcp);
    for (tool, output) in out.tools.iter().zip(&outputs) {
        let whole = if output.is_null() {
            crate::envelope::envelope_schema(None)
        } else {
            envelope(output)
        };
        assert_eq!(tool["outputSchema"], whole, "{}", tool["name"]);
        assert_eq!(tool.get("outputSchema"), Some(&whole));
        assert_eq!(
            serde_json::to_string(tool).unwrap(),
            tool.to_value().to_string()
        );
        assert_eq!(tool.to_value()["outputSchema"], whole);
        assert_eq!(tool.clone().into_value()["outputSchema"], whole);
    }
    // The envelope's `Status` replaced in place, `Extra` appended.
    let merged = &out.tools[1]["outputSchema"]["$defs"];
    assert_eq!(merged["Status"], status);
    let names: Vec<&String> = merged.as_object().unwrap().keys().collect();
    assert_eq!(names.first().map(|s| s.as_str()), Some("Status"));
    assert_eq!(names.last().map(|s| s.as_str()), Some("Extra"));
    assert!(out.tools[2]["outputSchema"]["properties"]["result"]
        .get("anyOf")
        .is_none());
    // Keys it does not have read as null, as on a `Value`.
    assert_eq!(out.tools[0]["nothing"], Value::Null);
    assert_eq!(out.tools[0].get("nothing"), None);
    assert_eq!(
        out.tools[0].keys().collect::<Vec<_>>(),
        [
            "name",
            "description",
            "inputSchema",
            "outputSchema",
            "annotations"
        ]
    );
}

/// Definitions given (a `Vec`) export as borrowed ones do, the canonical
/// export keeping them, and are checked the same.
#[test]
fn definitions_given_export_as_borrowed_ones() {
    let defs = toolbox();
    for &d in Dialect::ALL {
        let given = export(defs.clone(), d, &ExportOptions::default()).unwrap();
        assert_eq!(given, run(&defs, d), "{d}");
    }
    let twice = vec![search_notes(), search_notes()];
    let err = export(twice, Dialect::Canonical, &ExportOptions::default()).unwrap_err();
    assert_eq!(err.reason, "the name `search_notes` is used twice");
    let mut bad = search_notes();
    bad["name"] = json!("no spaces allowed");
    assert!(export(vec![bad], Dialect::Canonical, &ExportOptions::default()).is_err());
}

/// Copies are equal, a different output is not, and a tool equals its own
/// value whichever way it is held.
#[test]
fn mcp_tools_clone_and_compare_as_json() {
    let mut other = search_notes();
    other["output_schema"]["title"] = json!("Other");
    let out = run(&[search_notes()], Dialect::Mcp);
    let changed = run(&[other], Dialect::Mcp);
    let tool = &out.tools[0];
    let copy = tool.clone();
    assert_eq!(copy, *tool);
    assert_ne!(changed.tools[0], *tool);
    assert_ne!(changed.tools[0], tool.to_value());
    // Read once (its `outputSchema` built), still equal to a fresh copy.
    assert_eq!(tool["outputSchema"]["title"], "Envelope");
    assert_eq!(run(&[search_notes()], Dialect::Mcp).tools[0], *tool);
    let held_as_value = ExportedTool::from(tool.to_value());
    assert_eq!(held_as_value, *tool);
    assert_eq!(*tool, held_as_value);
    assert_eq!(tool.to_value(), *tool);
    assert_ne!(ExportedTool::from(changed.tools[0].to_value()), *tool);
    assert_eq!(out.clone(), out);
}

#[test]
fn mcp_annotations_follow_effect_and_idempotency() {
    let out = run(&toolbox(), Dialect::Mcp);
    let ann = |i: usize| out.tools[i]["annotations"].clone();
    let hints = |r: bool, d: bool, i: bool, o: bool| json!({"readOnlyHint": r, "destructiveHint": d, "idempotentHint": i, "openWorldHint": o});
    assert_eq!(ann(2), hints(false, false, false, false)); // replace_text: reversible, none
    assert_eq!(ann(4), hints(false, false, true, false)); // tag_notes: reversible, natural
    assert_eq!(ann(5), hints(false, true, true, false)); // delete_note: destructive
    assert_eq!(ann(6), hints(false, false, true, true)); // post_comment: external, key
                                                         // Every outputSchema is the envelope's (structuredContent carries the
                                                         // envelope), so an output whose root is not an object loses nothing.
    for t in &out.tools {
        assert_eq!(t["outputSchema"]["title"], "Envelope");
        assert_eq!(t["outputSchema"]["type"], "object");
    }
    assert!(out.losses.is_empty());
}

// ---- every loss kind ----

#[test]
fn loss_kinds() {
    // MovedToDescription and Dropped: above. Rewritten: an optional,
    // non-nullable field for OpenAI, an overlapping oneOf for Anthropic strict.
    let t = with_input(json!({"type": "object", "properties": {
        "a": {"type": "string"}, "b": {"type": "string", "enum": ["x", "y"]}, "c": {"$ref": "#/$defs/C"}},
        "required": [], "additionalProperties": false,
        "$defs": {"C": {"type": "integer"}}}));
    let out = run(&[t], Dialect::OpenAiResponses);
    let p = &out.tools[0]["parameters"]["properties"];
    assert_eq!(p["a"], json!({"type": ["string", "null"]}));
    assert_eq!(
        p["b"],
        json!({"type": ["string", "null"], "enum": ["x", "y", null]})
    );
    assert_eq!(
        p["c"],
        json!({"anyOf": [{"$ref": "#/$defs/C"}, {"type": "null"}]})
    );
    assert_eq!(out.losses.len(), 3);
    assert!(out
        .losses
        .iter()
        .all(|l| l.action == LossAction::Rewritten && l.keyword == "required"));
    assert_eq!(out.losses[0].pointer, "/properties/a");

    let overlapping =
        with_arg(json!({"oneOf": [{"type": "string"}, {"type": "string", "minLength": 2}]}));
    let out = run(&[overlapping], Dialect::AnthropicStrict);
    assert_eq!(
        out.tools[0]["input_schema"]["properties"]["a"]["anyOf"][0],
        json!({"type": "string"})
    );
    assert_eq!(out.losses[0].keyword, "oneOf");
    assert_eq!(out.losses[0].action, LossAction::Rewritten);
    assert_eq!(out.losses[0].pointer, "/properties/a/oneOf");

    let s = serde_json::to_value(&out.losses[0]).unwrap();
    assert_eq!(s["action"], "rewritten");
    assert_eq!(
        serde_json::to_value(LossAction::MovedToDescription).unwrap(),
        "moved-to-description"
    );
}

#[test]
fn loss_is_error_fails_on_the_first_loss() {
    let opts = ExportOptions {
        loss_is_error: true,
        ..ExportOptions::default()
    };
    let err = export(&[search_notes()], Dialect::OpenAiChat, &opts).unwrap_err();
    assert_eq!(err.pointer, "/properties/query/minLength");
    assert_eq!(
        err.to_string(),
        "cannot export tool `search_notes` for openai-chat at /properties/query/minLength: minLength would be moved-to-description and loss is an error: moved to description: 1 to 200 characters"
    );
    // No loss, no error.
    let tools = toolbox();
    assert!(export(&tools[5..6], Dialect::OpenAiChat, &opts).is_ok());
    assert!(export(&tools, Dialect::Anthropic, &opts).is_ok());
}

// ---- rewrites without loss ----

#[test]
fn disjoint_one_of_becomes_any_of_without_loss() {
    let tagged = with_arg(json!({"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "a"}, "x": {"type": "integer"}}, "required": ["kind", "x"], "additionalProperties": false},
        {"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"], "additionalProperties": false}]}));
    for d in [
        Dialect::OpenAiResponses,
        Dialect::AnthropicStrict,
        Dialect::Gemini,
    ] {
        let out = run(std::slice::from_ref(&tagged), d);
        // The envelope's own schema (OpenAI's output_schema) has its oneOf.
        let s = without_output_schema(&out.tools[0]).to_string();
        assert!(s.contains("anyOf") && !s.contains("oneOf"), "{d}: {s}");
        // Rewriting oneOf loses nothing; what a dialect does with the
        // branches' closed objects is its own loss, not the rewrite's.
        assert!(
            out.losses
                .iter()
                .all(|l| !["oneOf", "anyOf"].contains(&l.keyword.as_str())),
            "{d}: {:?}",
            out.losses
        );
    }
    let typed = with_arg(json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}));
    assert!(run(&[typed], Dialect::OpenAiChat).losses.is_empty());
}

#[test]
fn refs_single_all_of_and_recursion() {
    let t = with_input(json!({"type": "object", "properties": {
        "a": {"$ref": "#/$defs/A", "description": "An A."},
        "b": {"$ref": "#/$defs/A"},
        "c": {"allOf": [{"$ref": "#/$defs/A"}], "description": "A C."}},
        "required": ["a", "b", "c"], "additionalProperties": false,
        "$defs": {"A": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}}));
    let out = run(std::slice::from_ref(&t), Dialect::OpenAiResponses);
    let params = &out.tools[0]["parameters"];
    let inlined = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": false, "description": "An A."});
    assert_eq!(params["properties"]["a"], inlined);
    assert_eq!(params["properties"]["b"], json!({"$ref": "#/$defs/A"}));
    assert_eq!(params["properties"]["c"]["description"], "A C.");
    assert_eq!(params["$defs"]["A"]["additionalProperties"], false);
    let g = run(std::slice::from_ref(&t), Dialect::Gemini);
    assert!(!g.tools[0].to_string().contains("$ref"));
    assert!(!g.tools[0].to_string().contains("$defs"));

    let recursive = with_input(
        json!({"type": "object", "properties": {"tree": {"$ref": "#/$defs/Node"}}, "required": ["tree"],
        "additionalProperties": false,
        "$defs": {"Node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            "required": ["kids"], "additionalProperties": false}}}),
    );
    assert!(
        run(std::slice::from_ref(&recursive), Dialect::OpenAiResponses)
            .losses
            .is_empty()
    );
    for d in [Dialect::AnthropicStrict, Dialect::Gemini] {
        let e = fails(recursive.clone(), d);
        assert!(e.reason.starts_with("$ref (recursive) is forbidden"), "{e}");
    }
}

// ---- forbidden keywords per dialect ----

fn assert_forbidden(d: Dialect, t: Value, pointer: &str, keyword: &str) {
    let e = fails(t, d);
    assert_eq!(e.pointer, pointer, "{e}");
    assert!(
        e.reason.starts_with(&format!("{keyword} is forbidden")),
        "{d}: {e}"
    );
}

#[test]
fn openai_forbidden() {
    let d = Dialect::OpenAiResponses;
    let overlapping = json!({"oneOf": [{"type": "string"}, {"type": "string", "pattern": "^a"}]});
    assert_forbidden(
        d,
        with_arg(overlapping),
        "/properties/a",
        "oneOf (overlapping)",
    );
    let several = json!({"allOf": [{"type": "string"}, {"pattern": "^a"}]});
    assert_forbidden(d, with_arg(several), "/properties/a", "allOf (several)");
    assert_forbidden(
        d,
        with_arg(json!({"type": "string", "not": {"const": "x"}})),
        "/properties/a",
        "not",
    );
    for k in ["if", "then", "else"] {
        assert_forbidden(
            d,
            with_arg(json!({"type": "string", k: {"const": "x"}})),
            "/properties/a",
            k,
        );
    }
    let open = json!({"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": true});
    assert_forbidden(
        d,
        with_arg(open),
        "/properties/a",
        "additionalProperties: true",
    );
    let map = json!({"type": "object", "additionalProperties": {"type": "string"}});
    assert_forbidden(d, with_arg(map), "/properties/a", "additionalProperties");
    let any = json!({"anyOf": [{"type": "object"}], "type": "object"});
    assert_forbidden(d, with_input(any), "", "anyOf (root)");
    assert_forbidden(
        d,
        with_input(json!({"type": "string"})),
        "",
        "type (root not object)",
    );
    assert_forbidden(
        d,
        with_arg(json!({"type": "array", "prefixItems": [{"type": "string"}]})),
        "/properties/a",
        "prefixItems",
    );
    assert_forbidden(
        d,
        with_arg(json!({"type": "array", "items": [{"type": "string"}]})),
        "/properties/a",
        "items (tuple)",
    );
    assert_forbidden(
        d,
        with_arg(json!({"description": "anything"})),
        "/properties/a",
        "type (missing)",
    );
    assert_forbidden(
        d,
        with_arg(json!(true)),
        "/properties/a",
        "true/false (boolean schema)",
    );
    assert_eq!(
        fails(with_arg(json!({"type": "string", "not": {}})), Dialect::OpenAiChat).to_string(),
        "cannot export tool `t` for openai-chat at /properties/a: not is forbidden: not is forbidden in strict mode"
    );
}

#[test]
fn anthropic_forbidden() {
    for d in [Dialect::Anthropic, Dialect::AnthropicStrict] {
        for k in ["anyOf", "oneOf", "allOf"] {
            let t = with_input(
                json!({"type": "object", k: [{"type": "object"}], "additionalProperties": false}),
            );
            assert_forbidden(d, t, "", &format!("{k} (root)"));
        }
        assert_forbidden(
            d,
            with_input(json!({"type": "array"})),
            "",
            "type (root not object)",
        );
    }
    let d = Dialect::AnthropicStrict;
    for p in ["(a)\\1", "^(?=a)", "(?<!x)y", "\\bword\\b"] {
        assert_forbidden(
            d,
            with_arg(json!({"type": "string", "pattern": p})),
            "/properties/a",
            "pattern (backreference, lookaround, \\b)",
        );
    }
    assert!(
        run(
            &[with_arg(
                json!({"type": "string", "pattern": "^[\\b]\\d+$"})
            )],
            d
        )
        .tools
        .len()
            == 1
    );
    let open = json!({"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": true});
    assert_forbidden(
        d,
        with_arg(open),
        "/properties/a",
        "additionalProperties: true",
    );
    assert_forbidden(
        d,
        with_arg(json!({"minLength": 1})),
        "/properties/a",
        "type (missing)",
    );
}

// ---- limits on the whole set ----

/// `n` copies of `t`, named `t0`, `t1`, ...
fn copies(t: &Value, n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let mut c = t.clone();
            c["name"] = json!(format!("t{i}"));
            c
        })
        .collect()
}

fn over(tools: &[Value], d: Dialect) -> ExportError {
    match export(tools, d, &ExportOptions::default()) {
        Ok(_) => panic!("expected {d} to refuse the set"),
        Err(e) => e,
    }
}

#[test]
fn anthropic_strict_counts_strict_tools_across_the_request() {
    let d = Dialect::AnthropicStrict;
    let t = with_arg(json!({"type": "string"}));
    assert_eq!(run(&copies(&t, 20), d).tools.len(), 20);
    let e = over(&copies(&t, 22), d);
    let limit = e.limit.as_ref().expect("a limit error");
    assert_eq!((limit.limit.max, limit.value), (20, 22));
    assert_eq!(e.tool, "t20", "the 21st tool is the first over");
    assert_eq!(
        e.to_string(),
        format!(
            "cannot export for anthropic-strict: strict tools in one request are 22, over the provider's limit of 20 ({}); the first tool over it is `t20`",
            limit.limit.over
        )
    );
}

#[test]
fn anthropic_strict_counts_optional_and_union_parameters_across_tools() {
    let d = Dialect::AnthropicStrict;
    // Five optional parameters a tool: four tools are 20, five are 25 (> 24).
    let mut props = serde_json::Map::new();
    for i in 0..5 {
        props.insert(format!("p{i}"), json!({"type": "string"}));
    }
    let t =
        with_input(json!({"type": "object", "properties": props, "additionalProperties": false}));
    run(&copies(&t, 4), d);
    let e = over(&copies(&t, 5), d);
    assert_eq!(
        e.limit.as_ref().map(|l| (l.limit.max, l.value)),
        Some((24, 25))
    );
    assert!(e.reason.starts_with("optional parameters"), "{e}");
    assert_eq!(e.tool, "t4");
    // Three union-typed parameters a tool, all required: 18 over 6 tools.
    let mut props = serde_json::Map::new();
    for i in 0..3 {
        props.insert(format!("p{i}"), json!({"type": ["string", "integer"]}));
    }
    let t = with_input(json!({"type": "object", "properties": props,
        "required": ["p0", "p1", "p2"], "additionalProperties": false}));
    run(&copies(&t, 5), d);
    let e = over(&copies(&t, 6), d);
    assert!(e.reason.starts_with("parameters with union types"), "{e}");
    assert_eq!(
        (e.tool.as_str(), e.limit.map(|l| l.value)),
        ("t5", Some(18))
    );
}

#[test]
fn openai_limits_sum_over_the_set() {
    for d in [Dialect::OpenAiResponses, Dialect::OpenAiChat] {
        // 100 enum values a tool: ten tools are 1000, eleven are 1100.
        let values: Vec<String> = (0..100).map(|i| format!("v{i}")).collect();
        let t = with_arg(json!({"type": "string", "enum": values}));
        run(&copies(&t, 10), d);
        let e = over(&copies(&t, 11), d);
        assert!(
            e.reason
                .starts_with("enum values, all tools together are 1100, at most 1000"),
            "{e}"
        );
        assert_eq!(e.tool, "t10");
        // Nesting is per schema: eleven levels fail in the first tool.
        let mut deep = json!({"type": "string"});
        for _ in 0..10 {
            deep = json!({"type": "object", "properties": {"x": deep}, "required": ["x"], "additionalProperties": false});
        }
        let e = over(&[with_arg(deep)], d);
        assert_eq!(
            e.limit.as_ref().map(|l| (l.limit.max, l.value)),
            Some((10, 11))
        );
        assert_eq!(e.tool, "t");
        // One string enum of more than 250 values: at most 15,000 characters.
        let long: Vec<String> = (0..300).map(|i| format!("{i:0>60}")).collect();
        let e = over(&[with_arg(json!({"type": "string", "enum": long}))], d);
        assert!(e.reason.starts_with("characters of one string enum"), "{e}");
        assert_eq!(e.limit.map(|l| l.value), Some(18_000));
    }
    // Other dialects have no such limit.
    let values: Vec<String> = (0..100).map(|i| format!("v{i}")).collect();
    let t = with_arg(json!({"type": "string", "enum": values}));
    run(&copies(&t, 11), Dialect::Anthropic);
}

#[test]
fn the_number_of_tools_in_one_request_is_bounded() {
    let t = with_arg(json!({"type": "string"}));
    for (d, max) in [
        (Dialect::OpenAiResponses, 128),
        (Dialect::OpenAiChat, 128),
        (Dialect::Gemini, 512),
        (Dialect::GeminiJsonSchema, 512),
    ] {
        assert_eq!(run(&copies(&t, max), d).tools.len(), max, "{d}");
        let e = over(&copies(&t, max + 2), d);
        assert_eq!(
            e.limit.as_ref().map(|l| (l.limit.max, l.value)),
            Some((max, max + 2)),
            "{d}"
        );
        assert_eq!(
            e.tool,
            format!("t{max}"),
            "{d}: the first over is the one past {max}"
        );
        assert!(
            e.to_string().contains(&format!(
                "in one request are {}, over the provider's limit of {max}",
                max + 2
            )),
            "{e}"
        );
    }
    // MCP and Anthropic's non-strict tools name no such number.
    run(&copies(&t, 600), Dialect::Mcp);
    run(&copies(&t, 600), Dialect::Anthropic);
}

/// A limit on one schema names the first tool over it with that tool's own
/// value, not the largest of the set, which may be another tool's.
#[test]
fn a_schema_limit_names_the_first_tool_with_its_own_value() {
    let nest = |levels: usize| {
        let mut deep = json!({"type": "string"});
        for _ in 0..levels {
            deep = json!({"type": "object", "properties": {"x": deep}, "required": ["x"], "additionalProperties": false});
        }
        deep
    };
    let mut first = with_arg(nest(11));
    first["name"] = json!("a_deep");
    let mut deeper = with_arg(nest(12));
    deeper["name"] = json!("b_deeper");
    let e = over(&[first, deeper], Dialect::OpenAiChat);
    assert_eq!(e.tool, "a_deep");
    assert_eq!(e.limit.map(|l| l.value), Some(12), "a_deep's own 12 levels");
}

#[test]
fn gemini_forbidden() {
    let d = Dialect::Gemini;
    assert_forbidden(
        d,
        with_arg(json!({"type": "integer", "enum": [1, 2]})),
        "/properties/a",
        "enum (not strings)",
    );
    assert_forbidden(
        d,
        with_arg(json!({"const": 3})),
        "/properties/a",
        "const (not a string)",
    );
    let empty = json!({"type": "object", "additionalProperties": {"type": "string"}});
    assert_forbidden(d, with_arg(empty), "/properties/a", "properties (empty)");
    let overlapping = json!({"oneOf": [{"type": "string"}, {"type": "string", "pattern": "^a"}]});
    assert_forbidden(
        d,
        with_arg(overlapping),
        "/properties/a",
        "oneOf (overlapping)",
    );
    assert_forbidden(
        d,
        with_arg(json!({"allOf": [{"type": "string"}, {"pattern": "^a"}]})),
        "/properties/a",
        "allOf (several)",
    );
    assert_forbidden(
        d,
        with_arg(json!({"type": "string", "not": {"const": "x"}})),
        "/properties/a",
        "not",
    );
    assert_forbidden(
        d,
        with_arg(json!({"type": "string", "if": {"const": "x"}})),
        "/properties/a",
        "if",
    );
    let any = json!({"type": "object", "anyOf": [{"type": "object"}], "properties": {"a": {"type": "string"}}});
    assert_forbidden(d, with_input(any), "", "anyOf (root)");
    assert_forbidden(
        Dialect::GeminiJsonSchema,
        with_input(json!({"type": "string"})),
        "",
        "type (root not object)",
    );
}

#[test]
fn mcp_forbidden_and_canonical_permissive() {
    assert_forbidden(
        Dialect::Mcp,
        with_input(json!({"type": "string"})),
        "",
        "type (root not object)",
    );
    assert!(export(
        &[with_input(json!({"type": "string"}))],
        Dialect::Canonical,
        &ExportOptions::default()
    )
    .is_ok());
}

#[test]
fn definitions_must_be_whole_and_names_unique() {
    let e = export(
        &[json!({"name": "x"})],
        Dialect::Mcp,
        &ExportOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.reason, "the definition has no string `description`");
    let e = export(
        &[search_notes(), search_notes()],
        Dialect::OpenAiChat,
        &ExportOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.reason, "the name `search_notes` is used twice");
    let mut bad = search_notes();
    bad["name"] = json!("notes.search");
    let e = export(
        std::slice::from_ref(&bad),
        Dialect::Anthropic,
        &ExportOptions::default(),
    )
    .unwrap_err();
    assert!(
        e.reason.contains("character '.' at 5 is not allowed"),
        "{e}"
    );
    assert!(export(&[bad], Dialect::Mcp, &ExportOptions::default()).is_ok());
}

// ---- names ----

#[test]
fn names_per_dialect() {
    let long65 = "a".repeat(65);
    let long128 = "a".repeat(128);
    let cases: &[(&str, [bool; 8])] = &[
        // canonical, responses, chat, anthropic, anthropic-strict, gemini, gemini-json-schema, mcp
        ("search_notes", [true; 8]),
        ("search-notes", [true; 8]),
        (
            "9lives",
            [false, true, true, true, true, false, false, true],
        ),
        ("_private", [true; 8]),
        (
            "notes.search",
            [false, false, false, false, false, true, true, true],
        ),
        (
            "ns:search",
            [false, false, false, false, false, true, true, false],
        ),
        ("", [false; 8]),
        ("has space", [false; 8]),
        ("é", [false; 8]),
        (
            &long65,
            [false, false, false, false, false, false, false, true],
        ),
        (
            &long128,
            [false, false, false, false, false, false, false, true],
        ),
    ];
    for (name, expected) in cases {
        for (d, ok) in Dialect::ALL.iter().zip(expected) {
            assert_eq!(check_name(name, *d).is_ok(), *ok, "{name:?} for {d}");
        }
    }
    assert!(check_name(&"a".repeat(129), Dialect::Mcp).is_err());
    assert_eq!(
        check_name("a b", Dialect::OpenAiResponses).unwrap_err(),
        "the name `a b` is not accepted by openai-responses: character ' ' at 1 is not allowed; a name must match ^[a-zA-Z0-9_-]{1,64}$"
    );
}

// ---- the rules table ----

#[test]
fn every_dialect_has_a_rule_for_any_other_keyword_and_no_duplicates() {
    for d in Dialect::ALL {
        let table = rules(*d);
        assert_eq!(table.last().map(|r| r.keyword), Some("*"), "{d}");
        for (i, r) in table.iter().enumerate() {
            assert!(!r.why.is_empty());
            assert!(
                table[i + 1..].iter().all(|o| o.keyword != r.keyword),
                "{d}: {} twice",
                r.keyword
            );
        }
    }
    // The keywords the brief names for OpenAI.
    let t = |k: &str| rules::lookup(Dialect::OpenAiChat, &[k]).treatment;
    for k in [
        "minLength",
        "maxLength",
        "uniqueItems",
        "default",
        "format",
        "propertyNames",
        "patternProperties",
        "minProperties",
        "maxProperties",
        "contains",
    ] {
        assert_eq!(t(k), Treatment::MoveToDescription, "{k}");
    }
    for k in [
        "not",
        "if",
        "then",
        "else",
        "additionalProperties: true",
        "anyOf (root)",
        "oneOf (overlapping)",
        "allOf (several)",
    ] {
        assert_eq!(t(k), Treatment::Forbid, "{k}");
    }
    assert_eq!(t("format: uri"), Treatment::MoveToDescription);
    assert_eq!(
        rules::lookup(Dialect::AnthropicStrict, &["format: uri"]).treatment,
        Treatment::Keep
    );
}

// ---- every toolbox export, and the Python oracle's fixtures ----

#[test]
fn toolbox_exports_to_every_dialect() {
    let mut tools = toolbox();
    tools.push(find_events());
    let dir = std::env::temp_dir().join("contract-dialect-oracle");
    std::fs::create_dir_all(&dir).unwrap();
    for d in Dialect::ALL {
        let mut out = run(&tools, *d);
        assert_eq!(out.tools.len(), tools.len());
        // The odd shapes, where the dialect can carry them.
        for extra in odd_shapes() {
            if let Ok(e) = export(&[extra], *d, &ExportOptions::default()) {
                out.tools.extend(e.tools);
            }
        }
        let text = serde_json::to_string_pretty(&out.tools).unwrap();
        std::fs::write(dir.join(format!("{}.json", d.id())), text).unwrap();
    }
    println!("dialect exports written to {}", dir.display());
    if let Ok(python) = std::env::var("DIALECT_ORACLE_PYTHON") {
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/oracle/check_dialects.py"
        );
        let script = std::env::var("DIALECT_ORACLE_SCRIPT").unwrap_or_else(|_| script.to_owned());
        let status = std::process::Command::new(python)
            .arg(script)
            .arg(&dir)
            .status()
            .unwrap();
        assert!(
            status.success(),
            "the oracle rejected the exports in {}",
            dir.display()
        );
    }
}

/// Hand-written schemas beyond what the macro emits, for the oracle.
fn odd_shapes() -> Vec<Value> {
    let named = |name: &str, input: Value| {
        let mut t = with_input(input);
        t["name"] = json!(name);
        t
    };
    let defs = json!({"A": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"]},
        "Node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            "required": ["kids"], "additionalProperties": false}});
    vec![
        named(
            "odd_tagged",
            json!({"type": "object", "additionalProperties": false, "required": ["shape"], "properties": {
            "shape": {"oneOf": [
                {"type": "object", "properties": {"kind": {"type": "string", "const": "circle"}, "r": {"type": "number", "exclusiveMinimum": 0}},
                    "required": ["kind", "r"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"type": "string", "const": "square"}, "side": {"type": "number"}},
                    "required": ["kind", "side"], "additionalProperties": false}]}}}),
        ),
        named(
            "odd_refs",
            json!({"type": "object", "additionalProperties": false, "required": ["a", "b", "c"], "properties": {
            "a": {"$ref": "#/$defs/A", "description": "An A."},
            "b": {"$ref": "#/$defs/A"},
            "c": {"allOf": [{"$ref": "#/$defs/A"}], "description": "A C."},
            "d": {"type": "string", "description": "Optional, not nullable."}}, "$defs": defs.clone()}),
        ),
        named(
            "odd_recursive",
            json!({"type": "object", "additionalProperties": false, "required": ["tree"],
            "properties": {"tree": {"$ref": "#/$defs/Node"}}, "$defs": defs}),
        ),
        named(
            "odd_unions",
            json!({"type": "object", "additionalProperties": false, "required": ["v", "tags", "mode"], "properties": {
            "v": {"type": ["string", "integer", "null"], "minLength": 2, "maximum": 9, "description": "A value."},
            "tags": {"type": "array", "items": {"type": "string", "format": "email"}, "minItems": 2, "uniqueItems": true,
                "contains": {"const": "a@b.c"}},
            "mode": {"type": ["string", "null"], "enum": ["fast", "slow", null], "default": "fast"},
            "extra": {"type": "object", "properties": {"k": {"type": "string"}}, "patternProperties": {"^x-": {"type": "string"}},
                "minProperties": 1, "additionalProperties": false},
            "when": {"type": "string", "format": "date-time", "examples": ["2024-01-01T00:00:00Z"]}}}),
        ),
    ]
}

/// The mark of bounds of service is the canonical schema's business (the
/// grammar export reads it); strict dialects strip it and keep the bounds.
#[test]
fn served_marks_are_stripped_and_the_bounds_kept() {
    let t = with_arg(
        json!({"type": "integer", "minimum": 2001, "maximum": 2026, "x-served": ["minimum", "maximum"]}),
    );
    for d in [
        Dialect::OpenAiResponses,
        Dialect::AnthropicStrict,
        Dialect::Gemini,
    ] {
        let out = run(std::slice::from_ref(&t), d);
        // The envelope's schema (OpenAI's output_schema) names `x-served` in
        // a description; the marks stripped are the arguments'.
        let text = without_output_schema(&out.tools[0]).to_string();
        assert!(!text.contains("x-served"), "{d}: {text}");
        assert!(
            text.contains("2001") && text.contains("2026"),
            "{d}: {text}"
        );
    }
    let canonical = run(std::slice::from_ref(&t), Dialect::Canonical);
    assert!(canonical.tools[0].to_string().contains("x-served"));
}

/// A date bound (`formatMinimum`/`formatMaximum`): the canonical schema
/// carries the keywords; every other dialect states them in the node's
/// description and reports each as a loss, in an optional property too.
#[test]
fn date_bounds_are_kept_in_canonical_and_moved_with_a_loss_elsewhere() {
    let def = tool(
        "list_filings",
        "List filings.",
        object(
            json!({"from": {"description": "First filing date", "type": ["string", "null"], "format": "date",
                            "formatMinimum": "2001-01-01", "formatMaximum": "2026-12-31"}}),
            &[],
        ),
        Value::Null,
        contract(
            "read_only",
            json!("natural"),
            "filings:read",
            json!("never"),
        ),
    );
    for &d in Dialect::ALL {
        let out = export(std::slice::from_ref(&def), d, &ExportOptions::default())
            .unwrap_or_else(|e| panic!("{d}: {e}"));
        let text = out.tools[0].to_string();
        let bounds: Vec<(&str, &str, &LossAction)> = out
            .losses
            .iter()
            .filter(|l| l.keyword.starts_with("formatM"))
            .map(|l| (l.pointer.as_str(), l.note.as_str(), &l.action))
            .collect();
        if d == Dialect::Canonical {
            assert!(text.contains(r#""formatMinimum":"2001-01-01""#), "{text}");
            assert!(bounds.is_empty(), "{bounds:?}");
            continue;
        }
        assert!(!text.contains("formatMinimum"), "{d}: {text}");
        assert!(
            text.contains(
                "First filing date. Must be no earlier than 2001-01-01 and no later than 2026-12-31."
            ),
            "{d}: {text}"
        );
        assert_eq!(
            bounds,
            vec![
                (
                    "/properties/from/formatMinimum",
                    "moved to description: no earlier than 2001-01-01; still enforced at run time",
                    &LossAction::MovedToDescription
                ),
                (
                    "/properties/from/formatMaximum",
                    "moved to description: no later than 2026-12-31; still enforced at run time",
                    &LossAction::MovedToDescription
                ),
            ],
            "{d}"
        );
    }
}
