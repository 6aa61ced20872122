//! `toolbox demo`: a scripted session over a temporary folder, printing each
//! call and its envelope.

use std::sync::Arc;

use contract_runtime::prelude::*;
use serde_json::{json, Value};

use toolbox::{caller, registry};

pub fn run() -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("toolbox-demo-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("notes")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir.join("repo/src")).map_err(|e| e.to_string())?;
    let write = |p: &str, s: &str| std::fs::write(dir.join(p), s).map_err(|e| e.to_string());
    write(
        "notes/kv-cache.md",
        "# KV cache\nThe KV cache trades memory for speed.\n",
    )?;
    write(
        "notes/agents.md",
        "# Agents\nA tool is an authority boundary.\n",
    )?;
    write("repo/src/lib.rs", "pub fn answer() -> u32 {\n    41\n}\n")?;

    let result = session(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn session(dir: &std::path::Path) -> Result<(), String> {
    let caller = Arc::new(caller(dir, Some("src".into()), &[])?);
    let d = Dispatcher::new(registry());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .map_err(|e| e.to_string())?;
    let mut n = 0;
    let mut call = |title: &str, name: &str, args: Value| -> Result<Envelope, String> {
        n += 1;
        let call = ToolCall::new(format!("call_{n}"), name, args.to_string());
        out!("── {title}")?;
        out!("   {name} {}", call.arguments)?;
        let env = rt.block_on(d.dispatch(&caller, &call));
        let pretty = serde_json::to_string_pretty(&env).unwrap_or_default();
        for line in pretty.lines() {
            out!("   {line}")?;
        }
        out!()?;
        Ok(env)
    };

    call(
        "a search that matches",
        "search_notes",
        json!({"query": "kv cache"}),
    )?;
    call(
        "a search that matches nothing is ok with []",
        "search_notes",
        json!({"query": "quantum"}),
    )?;
    call(
        "an empty query never runs",
        "search_notes",
        json!({"query": ""}),
    )?;
    call(
        "a year the index does not serve is refused, not answered with []",
        "list_filings",
        json!({"company": "ACME", "year": 1998}),
    )?;
    call(
        "every violation at once",
        "list_filings",
        json!({"company": "acme!", "year": "2019", "extra": 1}),
    )?;
    let read = call(
        "read a file to learn its version",
        "read_file",
        json!({"path": "src/lib.rs"}),
    )?;
    let version = read.result["version"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    call(
        "a stale version is a conflict with a repair call",
        "replace_text",
        json!({"path": "src/lib.rs", "old_text": "41", "new_text": "42", "expected_version": format!("sha256:{}", "0".repeat(64))}),
    )?;
    call(
        "the edit with the right version",
        "replace_text",
        json!({"path": "src/lib.rs", "old_text": "41", "new_text": "42", "expected_version": version}),
    )?;
    call(
        "a path that leaves the root is denied",
        "read_file",
        json!({"path": "../../etc/passwd"}),
    )?;
    call(
        "tagging a batch where one note is missing is partial",
        "tag_notes",
        json!({"notes": ["agents.md", "missing.md"], "tag": "reviewed"}),
    )?;
    let asked = call(
        "a destructive tool waits for a person: the answer names an approval request",
        "delete_note",
        json!({"note": "agents.md"}),
    )?;
    // The person's side (here in process; `toolbox approvals grant ID` from
    // another one): grant the request, and the same call, sent again, runs once.
    let id = asked
        .approval
        .as_ref()
        .and_then(|a| a.id.clone())
        .ok_or("delete_note did not name an approval request")?;
    let granted = rt
        .block_on(d.approvals().grant(&id, "demo-person", Some("an old note")))
        .map_err(|e| e.to_string())?;
    out!("── a person grants {id}")?;
    out!(
        "   state: {}, by {}",
        granted.state.as_str(),
        granted.decided_by.as_deref().unwrap_or("-")
    )?;
    out!()?;
    call(
        "the same call again runs once, using the grant up",
        "delete_note",
        json!({"note": "agents.md"}),
    )?;
    call(
        "and once only: a third send is a new question for a person",
        "delete_note",
        json!({"note": "agents.md"}),
    )?;
    let key = "0b9f7a52-8c1e-4e5b-9a53-2f6d0c1e7a10";
    call(
        "an external write with an idempotency key",
        "post_comment",
        json!({"issue": 7, "body": "Looks good.", "request_key": key}),
    )?;
    call(
        "the same key again returns the first outcome and posts nothing",
        "post_comment",
        json!({"issue": 7, "body": "Looks good.", "request_key": key}),
    )?;
    call(
        "a name not in the registry",
        "run_shell",
        json!({"cmd": "rm -rf /"}),
    )?;
    Ok(())
}
