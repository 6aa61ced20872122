//! `toolbox serve-jsonl`: OpenAI Responses output items in, one
//! `function_call_output` per `function_call` out, in order. A line is one
//! item, or a whole turn (the `output` array of a response), whose calls are
//! dispatched together by effect (`Dispatcher::dispatch_turn`).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

use contract_runtime::envelope::ErrorEntry;
use contract_runtime::prelude::*;
use serde_json::{json, Value};

use crate::state::StateOptions;
use toolbox::{caller, registry};

pub struct Options {
    pub root: PathBuf,
    pub task_scope: Option<String>,
    pub deny: Vec<String>,
    pub journal: Option<PathBuf>,
    pub state: StateOptions,
}

impl Options {
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut root = None;
        let mut task_scope = None;
        let mut deny = Vec::new();
        let mut journal = None;
        let mut state = StateOptions::default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if state.take(a, &mut it)? {
                continue;
            }
            let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
            match a.as_str() {
                "--root" => root = Some(PathBuf::from(value()?)),
                "--task-scope" => task_scope = Some(value()?),
                "--deny-scope" => deny.push(value()?),
                "--journal" => journal = Some(PathBuf::from(value()?)),
                other => return Err(format!("unknown option `{other}`")),
            }
        }
        Ok(Options {
            root: root.ok_or("serve-jsonl needs --root DIR")?,
            task_scope,
            deny,
            journal,
            state,
        })
    }
}

pub fn run(opts: Options) -> Result<(), String> {
    let caller = Arc::new(
        opts.state
            .caller(caller(&opts.root, opts.task_scope, &opts.deny)?),
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let mut dispatcher = rt.block_on(
        opts.state
            .dispatcher(Dispatcher::new(registry()), &opts.root),
    )?;
    if let Some(path) = &opts.journal {
        let j = contract_runtime::observe::JsonlJournal::open(path)
            .map_err(|e| format!("cannot open --journal {}: {e}", path.display()))?;
        dispatcher = dispatcher.with_journal(Arc::new(j));
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    // Lines are read as bytes: a line that is not UTF-8 is one bad line,
    // answered like any line that is not JSON, not the end of the session.
    let mut input = stdin.lock();
    let mut line = Vec::new();
    for n in 1.. {
        let whole = match read_line(&mut input, &mut line) {
            Ok(Some(whole)) => whole,
            Ok(None) => break,
            Err(e) => return Err(format!("reading stdin: {e}")),
        };
        if !whole {
            let message = format!(
                "the line is longer than {} MiB and was not read",
                MAX_LINE >> 20
            );
            let reply = json!({"type": "error", "line": n, "message": message});
            out.write_all(format!("{reply}\n").as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| format!("writing stdout: {e}"))?;
            continue;
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.trim_ascii().is_empty() {
            continue;
        }
        // Strict, as for arguments: an item that repeats a key (two `type`s,
        // two `name`s) would be read one way here and another way by
        // whatever else reads the same line.
        let parsed = std::str::from_utf8(&line)
            .map_err(|e| format!("not UTF-8 text, so not JSON: {e}"))
            .and_then(|text| match text.strip_prefix('\u{feff}') {
                // (JSON allows no byte order mark; PowerShell writes one)
                Some(_) => Err("not JSON: the line starts with a byte order mark (U+FEFF): send UTF-8 without one".to_owned()),
                None => Ok(text),
            })
            .and_then(|text| {
                contract_runtime::decode::parse_strict(text, &outer_limits())
                    .map_err(|e| line_error(e.into_errors()))
            });
        let replies = match parsed {
            Err(message) => vec![json!({"type": "error", "line": n, "message": message})],
            // A whole turn (a Responses `output` array): its calls are
            // dispatched together, by effect, and answered in item order.
            Ok(Value::Array(items)) => answer_turn(&rt, &dispatcher, &caller, &items, n),
            Ok(item) => answer_turn(&rt, &dispatcher, &caller, std::slice::from_ref(&item), n),
        };
        if replies.is_empty() {
            continue;
        }
        // One serialization and one write per input line: formatting through
        // `writeln!` re-scans every fragment of the envelope for newlines.
        let mut text = String::new();
        for reply in replies {
            text.push_str(&reply.to_string());
            text.push('\n');
        }
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| format!("writing stdout: {e}"))?;
    }
    Ok(())
}

/// The longest line read (16 MiB; a call's arguments are at most 1 MiB):
/// a longer one is answered as too long, and its bytes past the limit are
/// read and dropped, never held, so one huge line cannot take the memory.
const MAX_LINE: usize = 16 << 20;

/// Reads the next line into `buf`, without its `\n`: `None` at the end of
/// the input, else whether it was read whole (at most [`MAX_LINE`] bytes).
fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    buf.clear();
    let (mut whole, mut any) = (true, false);
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any.then_some(whole));
        }
        any = true;
        let (take, ends) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (at, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        whole &= take <= room;
        buf.extend_from_slice(&chunk[..take.min(room)]);
        r.consume(take + usize::from(ends));
        if ends {
            return Ok(Some(whole));
        }
    }
}

/// How large and deep a whole line may be: the arguments inside it have
/// their own limits, which the dispatcher names in its envelope.
fn outer_limits() -> contract_runtime::decode::Limits {
    contract_runtime::decode::Limits::default()
        .with_max_bytes(usize::MAX)
        .with_max_depth(127)
}

/// The strict parser's refusal, said of the line rather than of arguments.
fn line_error(errors: Vec<ErrorEntry>) -> String {
    let message = errors
        .into_iter()
        .next()
        .map(|e| e.message)
        .unwrap_or_default();
    for (of_arguments, of_the_line) in [
        ("arguments are not valid JSON: ", "not JSON: "),
        ("arguments repeat ", "the line repeats "),
        ("arguments nest ", "the line nests "),
    ] {
        if let Some(rest) = message.strip_prefix(of_arguments) {
            return format!("{of_the_line}{rest}");
        }
    }
    message
}

/// The lines that answer the items of one input line, in item order.
fn answer_turn(
    rt: &tokio::runtime::Runtime,
    d: &Dispatcher,
    caller: &Arc<Caller>,
    items: &[Value],
    n: usize,
) -> Vec<Value> {
    let mut calls = Vec::new();
    // Per item: the index of its call, or the error line it gets instead.
    let slots: Vec<Option<Result<usize, Value>>> = items
        .iter()
        .map(|item| {
            call_of(item, n).map(|c| {
                c.map(|call| {
                    calls.push(call);
                    calls.len() - 1
                })
            })
        })
        .collect();
    let envelopes = if calls.is_empty() {
        Vec::new()
    } else {
        rt.block_on(d.dispatch_turn(caller, &calls))
    };
    slots
        .into_iter()
        .flatten()
        .map(|slot| match slot {
            Ok(i) => json!({
                "type": "function_call_output",
                "call_id": calls[i].id,
                "output": envelopes[i].to_json_string(),
            }),
            Err(line) => line,
        })
        .collect()
}

/// Only a protocol-level `function_call` item is a call; anything else, even a
/// message whose text looks like one, produces no line (`None`). A
/// `function_call` without a string `call_id` and `name`, or one whose
/// `status` is not `completed`, is an error line.
fn call_of(item: &Value, n: usize) -> Option<Result<ToolCall, Value>> {
    if item.get("type").and_then(Value::as_str) != Some("function_call") {
        return None;
    }
    let (Some(call_id), Some(name)) = (
        item.get("call_id").and_then(Value::as_str),
        item.get("name").and_then(Value::as_str),
    ) else {
        return Some(Err(
            json!({"type": "error", "line": n, "message": "a function_call item needs string `call_id` and `name`"}),
        ));
    };
    // An item the model had not finished (`in_progress`, `incomplete`) may
    // carry arguments cut short: never executed. No `status` is complete.
    match item.get("status").and_then(Value::as_str) {
        None | Some("completed") => {}
        Some(status) => {
            return Some(Err(json!({"type": "error", "line": n, "call_id": call_id,
                "message": format!("the function_call {call_id:?} has status `{status}`: only a completed call is executed")})));
        }
    }
    // Arguments that are missing cannot be understood: the dispatcher
    // answers them as malformed rather than guessing. Arguments that are
    // not the string the Responses API sends (an object, a number) are
    // never read as a call either, and the envelope says what was wrong.
    let arguments = match item.get("arguments") {
        Some(Value::String(text)) => text.clone(),
        None | Some(Value::Null) => String::new(),
        Some(other) => {
            let sent = if other.is_object() {
                "an object"
            } else {
                "another JSON value"
            };
            let e = ErrorEntry::new(
                contract_runtime::codes::MALFORMED_ARGUMENTS,
                "a function_call's `arguments` must be a string holding the arguments' JSON text, as the Responses API sends it",
            )
            .with_hint(format!("send `arguments` as one string of JSON text, not as {sent}"));
            let env = Envelope::failure(call_id, name, Status::Invalid, true, vec![e]);
            return Some(Err(json!({
                "type": "function_call_output",
                "call_id": call_id,
                "output": env.to_json_string(),
            })));
        }
    };
    Some(Ok(ToolCall::new(
        call_id.to_string(),
        name.to_string(),
        arguments,
    )))
}
