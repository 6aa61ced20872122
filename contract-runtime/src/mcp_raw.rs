//! What arrives before rmcp reads it. rmcp reads a `tools/call` whose
//! `arguments` is not an object (a JSON string of the arguments, a list) as
//! no request at all and answers a JSON-RPC error; MCP asks for a tool
//! result (`isError`), which the model sees and can repair. So such a
//! request is rewritten on its way in: its arguments become an object with
//! one reserved key holding their JSON text, and [`arguments_text`] hands
//! that text to the dispatcher, which answers `invalid /
//! malformed-arguments` ("not an object") as for any provider.

use serde_json::{Map, Value};

/// The reserved key: not a name any tool argument can have (C9 names,
/// and argument names are Rust identifiers).
const NOT_AN_OBJECT: &str = "\u{0}arguments that are not an object";

/// The arguments as the dispatcher reads them: their JSON text, the text
/// that arrived when it was not an object, `{}` when absent.
pub(crate) fn arguments_text(arguments: Option<&Map<String, Value>>) -> String {
    match arguments {
        Some(args) => match (args.len(), args.get(NOT_AN_OBJECT)) {
            (1, Some(Value::String(text))) => text.clone(),
            // Serialized from the map in place: cloning it into a
            // `Value` first would copy every argument once more per call.
            _ => serde_json::to_string(args).unwrap_or_else(|_| "{}".to_owned()),
        },
        None => "{}".to_owned(),
    }
}

/// A message as it arrived, rewritten when it is a `tools/call` (alone
/// or in a batch) whose `arguments` is present but not an object;
/// `None` leaves it as it is. Cheap for every other message: a text
/// without `tools/call` is not parsed.
pub(crate) fn rewrite(text: &[u8]) -> Option<Vec<u8>> {
    if !text.windows(10).any(|w| w == b"tools/call") {
        return None;
    }
    let mut msg: Value = serde_json::from_slice(text).ok()?;
    let changed = match &mut msg {
        // every call of a batch, not only up to the first rewritten
        Value::Array(batch) => batch.iter_mut().map(wrap).filter(|&c| c).count() > 0,
        one => wrap(one),
    };
    changed.then(|| serde_json::to_vec(&msg).ok()).flatten()
}

fn wrap(msg: &mut Value) -> bool {
    if msg.get("method").and_then(Value::as_str) != Some("tools/call") {
        return false;
    }
    let Some(args) = msg.get_mut("params").and_then(|p| p.get_mut("arguments")) else {
        return false;
    };
    if args.is_object() || args.is_null() {
        return false;
    }
    let text = args.to_string();
    *args = Value::Object(Map::from_iter([(
        NOT_AN_OBJECT.to_owned(),
        Value::String(text),
    )]));
    true
}

/// Standard input, each line through [`rewrite`], and standard output.
pub(crate) fn stdio() -> (tokio::io::DuplexStream, tokio::io::Stdout) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let (mut tx, rx) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let mut lines = BufReader::new(tokio::io::stdin());
        let mut line = Vec::new();
        loop {
            line.clear();
            match lines.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let out = match rewrite(line.trim_ascii_end()) {
                Some(mut new) => {
                    new.push(b'\n');
                    new
                }
                None => std::mem::take(&mut line),
            };
            if tx.write_all(&out).await.is_err() {
                break;
            }
        }
        // dropping `tx` ends the server's input, as the end of stdin does
    });
    (rx, tokio::io::stdout())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_that_are_not_an_object_reach_the_dispatcher_as_sent() {
        for (args, text) in [
            (r#""{\"query\":\"x\"}""#, r#""{\"query\":\"x\"}""#),
            ("[1]", "[1]"),
            ("7", "7"),
        ] {
            let msg = format!(
                r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"f","arguments":{args}}}}}"#
            );
            let new = rewrite(msg.as_bytes()).expect("rewritten");
            let v: Value = serde_json::from_slice(&new).unwrap();
            let map = v["params"]["arguments"].as_object().unwrap();
            assert_eq!(arguments_text(Some(map)), text);
        }
        // objects, null, other methods and other text pass as they are
        for msg in [
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"f","arguments":{"a":1}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"f","arguments":null}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"arguments":"x"}}"#,
            "not json tools/call",
        ] {
            assert_eq!(rewrite(msg.as_bytes()), None, "{msg}");
        }
        let mut m = Map::new();
        m.insert("a".into(), Value::from(1));
        assert_eq!(arguments_text(Some(&m)), r#"{"a":1}"#);
        assert_eq!(arguments_text(None), "{}");
    }
}
