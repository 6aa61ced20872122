//! `toolbox serve-jsonl`: OpenAI Responses output items in, one
//! `function_call_output` per `function_call` out, in order.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

use contract_runtime::prelude::*;
use serde_json::{json, Value};

use crate::tools::{self, TaskScope};

pub struct Options {
    pub root: PathBuf,
    pub task_scope: Option<String>,
    pub deny: Vec<String>,
}

impl Options {
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut root = None;
        let mut task_scope = None;
        let mut deny = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
            match a.as_str() {
                "--root" => root = Some(PathBuf::from(value()?)),
                "--task-scope" => task_scope = Some(value()?),
                "--deny-scope" => deny.push(value()?),
                other => return Err(format!("unknown option `{other}`")),
            }
        }
        Ok(Options { root: root.ok_or("serve-jsonl needs --root DIR")?, task_scope, deny })
    }
}

/// The caller of a session over `root`: every toolbox scope but the denied ones,
/// the three roots, and the task scope.
pub fn caller(root: &std::path::Path, task_scope: Option<String>, deny: &[String]) -> Result<Caller, String> {
    let base = Root::open(root, "base").map_err(|e| format!("cannot open --root {}: {e}", root.display()))?;
    let notes = base.subdir("notes", true).map_err(|e| format!("cannot open notes/: {e}"))?;
    let repo = base.subdir("repo", true).map_err(|e| format!("cannot open repo/: {e}"))?;
    let mut caller = Caller::new().root("notes", notes).root("repo", repo).root("base", base).state(TaskScope(task_scope)).state(tools::RepoDir(root.join("repo")));
    for scope in tools::all_scopes() {
        if !deny.iter().any(|d| d == scope) {
            caller = caller.grant(scope);
        }
    }
    Ok(caller)
}

pub fn run(opts: Options) -> Result<(), String> {
    let caller = Arc::new(caller(&opts.root, opts.task_scope, &opts.deny)?);
    let dispatcher = Dispatcher::new(tools::registry());
    let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().map_err(|e| e.to_string())?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for (i, line) in stdin.lock().lines().enumerate() {
        let n = i + 1;
        let line = line.map_err(|e| format!("reading stdin: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Value>(&line) {
            Err(e) => Some(json!({"type": "error", "line": n, "message": format!("not JSON: {e}")})),
            Ok(item) => answer(&rt, &dispatcher, &caller, &item, n),
        };
        if let Some(reply) = reply {
            writeln!(out, "{reply}").and_then(|()| out.flush()).map_err(|e| format!("writing stdout: {e}"))?;
        }
    }
    Ok(())
}

/// Only a protocol-level `function_call` item is a call; anything else, even a
/// message whose text looks like one, produces no line.
fn answer(rt: &tokio::runtime::Runtime, d: &Dispatcher, caller: &Arc<Caller>, item: &Value, n: usize) -> Option<Value> {
    if item.get("type").and_then(Value::as_str) != Some("function_call") {
        return None;
    }
    let (Some(call_id), Some(name)) = (item.get("call_id").and_then(Value::as_str), item.get("name").and_then(Value::as_str)) else {
        return Some(json!({"type": "error", "line": n, "message": "a function_call item needs string `call_id` and `name`"}));
    };
    // Arguments that are missing or not a string cannot be understood: the
    // dispatcher answers them as malformed rather than guessing.
    let arguments = item.get("arguments").and_then(Value::as_str).unwrap_or("").to_string();
    let call = ToolCall { id: call_id.to_string(), name: name.to_string(), arguments };
    let env = rt.block_on(d.dispatch(caller, &call));
    Some(json!({"type": "function_call_output", "call_id": call_id, "output": env.to_json_string()}))
}
