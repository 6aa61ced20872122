//! The baseline of `benches/serve_jsonl.sh`: exactly the I/O loop of
//! `toolbox serve-jsonl` (line-buffered stdin, `serde_json::from_str::<Value>`
//! per line, one compact line written and flushed per input line), with no
//! dispatch: each item is printed back as it was parsed.

use std::io::{BufRead, Write};

use serde_json::Value;

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.expect("reading stdin");
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Value>(&line) {
            Ok(v) => v,
            Err(e) => Value::String(format!("not JSON: {e}")),
        };
        let mut line = reply.to_string();
        line.push('\n');
        out.write_all(line.as_bytes())
            .and_then(|()| out.flush())
            .expect("writing stdout");
    }
}
