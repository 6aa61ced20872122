//! What arrives before rmcp reads it. rmcp reads each message with
//! serde_json before any handler runs, and serde_json's reading of a
//! `tools/call`'s `arguments` is not the dispatcher's: it keeps the last
//! of two equal keys (`{"path":"/etc/passwd","path":"ok.txt"}` would run
//! on `ok.txt`), rounds numbers, and refuses whole messages whose
//! arguments hold `1e400`, `"\ud800"`, `NaN` or 128 levels of nesting
//! (no answer at all on stdio, a 415 over HTTP); arguments that are not an
//! object are a JSON-RPC error, where MCP asks for a tool result
//! (`isError`) that the model sees and can repair.
//!
//! So every `tools/call` (alone or in a batch) is rewritten on its way in:
//! its `arguments`, exactly as sent, become one JSON string under a
//! reserved key ([`AS_SENT`]), and [`arguments_text`] hands that text to
//! the dispatcher, which parses it strictly, as it parses arguments from
//! any provider or `serve-jsonl`: the same text gets the same answer
//! (`invalid / malformed-arguments` naming a repeated key, say).
//!
//! The text is written in an encoding that needs no JSON escape
//! ([`encode`]: `"`, `\`, control characters and the escape `~` itself
//! become `~` and one character), so that serde_json reads the string in
//! place: rmcp buffers each message and copies it several times while it
//! finds the request's type, and a string with JSON escapes (every
//! argument's quotes) was allocated anew at each step. It is decoded in
//! the string's own buffer when the call is taken ([`take_arguments_text`]).
//!
//! Every call, not only those serde_json would misread: telling them
//! apart takes a strict parse of the arguments, which the dispatcher does
//! anyway; wrapped, rmcp reads one string where it built a tree, and the
//! dispatcher takes the text as it is where it serialized the tree again.
//! Finding the arguments is one pass of [`Scan`] over the message, which
//! follows strings and counts brackets with an integer (no recursion, so
//! no depth is too deep for it); it reads the message's own structure
//! (`method`, `params`, keys unescaped as serde_json unescapes them)
//! strictly, and leaves a message it cannot read as it is, for rmcp to
//! refuse as before.

use std::ops::Range;

use serde_json::{Map, Value};

/// The reserved key: not a name any tool argument can have (argument
/// names are Rust identifiers, which hold no space). It needs no escape
/// in JSON, so serde_json reads it in place: rmcp buffers each message
/// and copies it several times while it finds the request's type, and
/// an escaped key (it was `\u0000...`) was a string allocated and copied
/// at each of those steps (about 7 allocations per call).
const AS_SENT: &str = "arguments as sent";

/// [`AS_SENT`] as a JSON string, as serde_json writes it (checked by a
/// test): written into every `tools/call`, so not serialized per call.
const AS_SENT_JSON: &str = "\"arguments as sent\"";

/// The arguments as the dispatcher reads them: their text as the client
/// sent it (see the module docs), their JSON text when they were given
/// as a map in process, `{}` when absent.
pub(crate) fn arguments_text(arguments: Option<&Map<String, Value>>) -> String {
    match arguments {
        Some(args) => match (args.len(), args.get(AS_SENT)) {
            (1, Some(Value::String(text))) => decoded(text.clone()),
            // Serialized from the map in place: cloning it into a
            // `Value` first would copy every argument once more per call.
            _ => serde_json::to_string(args).unwrap_or_else(|_| "{}".to_owned()),
        },
        None => "{}".to_owned(),
    }
}

/// [`arguments_text`] of arguments the caller is done with: the text as
/// sent is moved out of them, not copied (one allocation fewer per call).
pub(crate) fn take_arguments_text(arguments: Option<&mut Map<String, Value>>) -> String {
    match arguments {
        Some(args) if args.len() == 1 => match args.get_mut(AS_SENT) {
            Some(Value::String(text)) => decoded(std::mem::take(text)),
            _ => arguments_text(Some(args)),
        },
        other => arguments_text(other.map(|args| &*args)),
    }
}

/// A message as it arrived, with the `arguments` of every `tools/call` in
/// it (alone or in a batch) wrapped as sent; `None` leaves it as it is:
/// no call with arguments (absent or `null` arguments are `{}`), or a
/// message that is not JSON. Cheap for every other message: a text in
/// which neither `tools/call` nor a backslash (an escaped `method`)
/// occurs is not scanned.
pub(crate) fn rewrite(text: &[u8]) -> Option<Vec<u8>> {
    // The searcher is built once: `memmem::find` builds one per call, and
    // that code ran on every request.
    static TOOLS_CALL: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"tools/call"));
    if TOOLS_CALL.find(text).is_none() && memchr::memchr(b'\\', text).is_none() {
        return None;
    }
    let spans = calls(text)?;
    let spans = spans.as_slice();
    if spans.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() + text.len() / 8 + 64);
    let mut at = 0;
    for span in spans {
        out.extend_from_slice(&text[at..span.start]);
        out.push(b'{');
        out.extend_from_slice(AS_SENT_JSON.as_bytes());
        out.push(b':');
        out.push(b'"');
        encode(as_text(&text[span.clone()]).as_bytes(), &mut out);
        out.extend_from_slice(b"\"}");
        at = span.end;
    }
    out.extend_from_slice(&text[at..]);
    Some(out)
}

/// The escape of [`encode`].
const ESCAPE: u8 = b'~';

/// The letter that follows [`ESCAPE`] for a byte JSON would escape (and
/// for the escape itself): `~` `~`, `"` `'`, `\` `/`, and a control
/// character (U+0000 to U+001F) the character 48 above it (`0` to `O`,
/// none of which JSON escapes). [`unescape`] is its inverse.
fn escaped(b: u8) -> Option<u8> {
    match b {
        ESCAPE => Some(ESCAPE),
        b'"' => Some(b'\''),
        b'\\' => Some(b'/'),
        0..=0x1f => Some(b + 0x30),
        _ => None,
    }
}

/// The byte a letter after [`ESCAPE`] stands for ([`escaped`] reversed).
fn unescape(letter: u8) -> Option<u8> {
    match letter {
        ESCAPE => Some(ESCAPE),
        b'\'' => Some(b'"'),
        b'/' => Some(b'\\'),
        0x30..=0x4f => Some(letter - 0x30),
        _ => None,
    }
}

/// Writes `text` so that it is a JSON string's content with no escape in
/// it: each byte [`escaped`] names becomes `~` and its letter, every other
/// byte is written as it is (UTF-8 stays UTF-8); [`decode`] reverses it.
fn encode(text: &[u8], out: &mut Vec<u8>) {
    let mut run = 0;
    for (i, &b) in text.iter().enumerate() {
        let Some(letter) = escaped(b) else { continue };
        out.extend_from_slice(&text[run..i]);
        out.extend_from_slice(&[ESCAPE, letter]);
        run = i + 1;
    }
    out.extend_from_slice(&text[run..]);
}

/// Reverses [`encode`] in place (the text only shrinks). A `~` that
/// starts no escape is kept as it is: only a client that wrote the
/// reserved key itself sends one, and it gets the text it wrote.
fn decode(text: &mut Vec<u8>) {
    let Some(first) = memchr::memchr(ESCAPE, text) else {
        return;
    };
    let (mut read, mut write) = (first, first);
    while read < text.len() {
        let pair = (text[read] == ESCAPE)
            .then(|| text.get(read + 1).copied().and_then(unescape))
            .flatten();
        text[write] = pair.unwrap_or(text[read]);
        read += if pair.is_some() { 2 } else { 1 };
        write += 1;
    }
    text.truncate(write);
}

/// The arguments as sent, from the encoded text the rewrite wrapped them
/// in: [`decode`] turns ASCII pairs into ASCII bytes, so what was UTF-8
/// stays UTF-8 (checked, not assumed).
fn decoded(text: String) -> String {
    let mut text = text.into_bytes();
    decode(&mut text);
    String::from_utf8(text).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The arguments' text; bytes that are not UTF-8 become NUL, which JSON
/// allows neither in nor out of a string, so that the dispatcher refuses
/// them as malformed rather than reading a replacement character.
fn as_text(raw: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(raw) {
        Ok(text) => text.into(),
        Err(_) => {
            let mut text = String::with_capacity(raw.len());
            for chunk in raw.utf8_chunks() {
                text.push_str(chunk.valid());
                if !chunk.invalid().is_empty() {
                    text.push('\0');
                }
            }
            text.into()
        }
    }
}

/// The spans of the `arguments` to wrap: a lone message's (the common
/// case, with no list allocated for it) or a batch's, in order.
enum Spans {
    One(Option<Range<usize>>),
    Batch(Vec<Range<usize>>),
}

impl Spans {
    fn as_slice(&self) -> &[Range<usize>] {
        match self {
            Spans::One(one) => one.as_slice(),
            Spans::Batch(all) => all,
        }
    }
}

/// The spans of the `arguments` to wrap in a message, in order; `None`
/// when the message's structure cannot be read.
fn calls(text: &[u8]) -> Option<Spans> {
    let mut scan = Scan { b: text, i: 0 };
    scan.ws();
    let spans = if scan.peek() == Some(b'[') {
        let mut spans = Vec::new();
        scan.i += 1;
        scan.ws();
        if scan.peek() == Some(b']') {
            scan.i += 1;
        } else {
            loop {
                let one = scan.value()?;
                if text[one.start] == b'{' {
                    spans.extend(arguments(text, one)?);
                }
                scan.ws();
                match scan.next()? {
                    b',' => scan.ws(),
                    b']' => break,
                    _ => return None,
                }
            }
        }
        Spans::Batch(spans)
    } else {
        // A lone message is read member by member at once: spanning it
        // first would scan its bytes twice. It must end the text but for
        // white space (trailing text is not this module's to answer).
        let end = text.trim_ascii_end().len();
        return Some(Spans::One(arguments(text, scan.i..end)?));
    };
    scan.ws();
    // trailing text: not this module's to answer
    (scan.i == text.len()).then_some(spans)
}

/// The span of one message's `params.arguments` when it is a `tools/call`
/// whose arguments are present and not `null`. serde_json keeps the last
/// of repeated keys, and so does this.
fn arguments(text: &[u8], message: Range<usize>) -> Option<Option<Range<usize>>> {
    let (mut method, mut params) = (None, None);
    Scan::members(text, message, |key, value| {
        if key == b"method" {
            method = Some(value);
        } else if key == b"params" {
            params = Some(value);
        }
    })?;
    let (Some(method), Some(params)) = (method, params) else {
        return Some(None);
    };
    if unescaped(&text[method]).as_deref() != Some(b"tools/call") || text[params.start] != b'{' {
        return Some(None);
    }
    let mut args = None;
    Scan::members(text, params, |key, value| {
        if key == b"arguments" {
            args = Some(value);
        }
    })?;
    Some(args.filter(|span| &text[span.clone()] != b"null"))
}

/// A JSON string's value (`raw` with its quotes), as serde_json reads it,
/// as bytes: it is only compared with ASCII names, so the bytes of a
/// string without escapes are its value as they are (one that is not
/// UTF-8 matches no name, and rmcp refuses the message it is in).
fn unescaped(raw: &[u8]) -> Option<std::borrow::Cow<'_, [u8]>> {
    let inner = raw.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    if !inner.contains(&b'\\') {
        return Some(inner.into());
    }
    serde_json::from_slice::<String>(raw)
        .ok()
        .map(|s| s.into_bytes().into())
}

/// A cursor over a message's bytes.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// Past the string that starts here (its closing quote).
    fn string(&mut self) -> Option<()> {
        if self.next()? != b'"' {
            return None;
        }
        self.past_string()
    }

    /// Past the closing quote of the string whose opening quote is behind:
    /// from one quote or backslash to the next (`memchr2`), not byte by
    /// byte.
    fn past_string(&mut self) -> Option<()> {
        loop {
            self.i += memchr::memchr2(b'"', b'\\', self.b.get(self.i..)?)?;
            if self.b[self.i] == b'"' {
                self.i += 1;
                return Some(());
            }
            // the backslash and the byte it escapes
            self.i += 2;
        }
    }

    /// The span of the value that starts here, read loosely: strings are
    /// followed, brackets counted, anything else up to the next delimiter
    /// (so `NaN`, `1e400` or bytes that are not UTF-8 are spanned too).
    fn value(&mut self) -> Option<Range<usize>> {
        let start = self.i;
        match self.peek()? {
            b'"' => self.string()?,
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    let b = *self.b.get(self.i)?;
                    self.i += 1;
                    match b {
                        b'"' => self.past_string()?,
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {
                while !matches!(
                    self.peek(),
                    None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                ) {
                    self.i += 1;
                }
                if self.i == start {
                    return None;
                }
            }
        }
        Some(start..self.i)
    }

    /// Each member of the object spanning `object`, its key unescaped,
    /// in order; `None` when it is not read as an object.
    fn members(
        b: &[u8],
        object: Range<usize>,
        mut each: impl FnMut(&[u8], Range<usize>),
    ) -> Option<()> {
        let mut scan = Scan {
            b: &b[..object.end],
            i: object.start,
        };
        if scan.next()? != b'{' {
            return None;
        }
        scan.ws();
        if scan.peek() == Some(b'}') {
            scan.i += 1;
        } else {
            loop {
                let start = scan.i;
                scan.string()?;
                let key = unescaped(&b[start..scan.i])?;
                scan.ws();
                if scan.next()? != b':' {
                    return None;
                }
                scan.ws();
                each(&key, scan.value()?);
                scan.ws();
                match scan.next()? {
                    b',' => scan.ws(),
                    b'}' => break,
                    _ => return None,
                }
            }
        }
        (scan.i == object.end).then_some(())
    }
}

/// The JSON-RPC answer to text that is not JSON at all, which rmcp drops
/// without a word; JSON-RPC 2.0 asks for a parse error with a null id.
/// `None` for text that parses (what rmcp then makes of it is its own).
///
/// rmcp also drops, unanswered, JSON that serde_json's skipping reader
/// takes but its building reader does not: a lone surrogate (`"\ud800"`)
/// in a method, an id or a key, and nesting past 128 levels. (Inside a
/// call's arguments neither reaches rmcp: [`rewrite`] has made them one
/// string, which the dispatcher refuses as `malformed-arguments`.) Only
/// text that may hold either (a `\u` escape, or more than 128 brackets) is
/// read the second way, so an ordinary message is read once.
pub(crate) fn parse_error(text: &[u8]) -> Option<Vec<u8>> {
    let text = text.trim_ascii();
    if text.is_empty() {
        return None;
    }
    let skipped = serde_json::from_slice::<serde::de::IgnoredAny>(text).err();
    let e = skipped.or_else(|| {
        let brackets = text.iter().filter(|&&b| b == b'{' || b == b'[').count();
        let escapes = memchr::memmem::find(text, b"\\u").is_some();
        (escapes || brackets > 128)
            .then(|| serde_json::from_slice::<Value>(text).err())
            .flatten()
    })?;
    let answer = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32700, "message": format!("Parse error: {e}")},
    });
    Some(answer.to_string().into_bytes())
}

/// MCP over standard input and output, with the messages rewritten on the
/// way in ([`rewrite`]) and text that is not JSON answered with a parse
/// error. rmcp reads `read` and writes `write`; `done` ends once everything
/// rmcp wrote has reached standard output, so await it before exiting.
pub(crate) struct Stdio {
    pub(crate) read: tokio::io::DuplexStream,
    pub(crate) write: tokio::io::DuplexStream,
    pub(crate) done: tokio::task::JoinHandle<()>,
}

/// Standard input, each line through [`rewrite`]; standard output, shared
/// line by line (under one lock) between rmcp's answers and the parse
/// errors, so that one never lands in the middle of the other.
pub(crate) fn stdio() -> Stdio {
    use std::sync::Arc;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let (mut tx, read) = tokio::io::duplex(64 * 1024);
    let (write, answers) = tokio::io::duplex(64 * 1024);
    let stdout = Arc::new(tokio::sync::Mutex::new(tokio::io::stdout()));
    let errors_out = stdout.clone();
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
            if let Some(mut answer) = parse_error(&out) {
                answer.push(b'\n');
                let mut o = errors_out.lock().await;
                let _ = o.write_all(&answer).await;
                let _ = o.flush().await;
                continue;
            }
            if tx.write_all(&out).await.is_err() {
                break;
            }
        }
        // dropping `tx` ends the server's input, as the end of stdin does
    });
    let done = tokio::spawn(async move {
        let mut answers = BufReader::new(answers);
        let mut line = Vec::new();
        loop {
            line.clear();
            match answers.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let mut o = stdout.lock().await;
            if o.write_all(&line).await.and(o.flush().await).is_err() {
                break;
            }
        }
    });
    Stdio { read, write, done }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::decode::{parse_strict, DecodeError, Limits};

    /// The key written into messages is the reserved key, as serde_json
    /// writes and reads it.
    #[test]
    fn the_written_key_is_the_reserved_key() {
        assert_eq!(serde_json::to_string(AS_SENT).unwrap(), AS_SENT_JSON);
        assert_eq!(
            serde_json::from_str::<String>(AS_SENT_JSON).unwrap(),
            AS_SENT
        );
    }

    /// Every byte and every pair of them comes back as it went in, and
    /// what is written needs no JSON escape: serde_json reads it in place
    /// (as a borrowed `&str`, which it can only do for a string without
    /// escapes).
    #[test]
    fn the_encoding_needs_no_escape_and_is_undone_exactly() {
        let special = [
            b'~', b'"', b'\\', b'\'', b'/', b'0', b'O', b'a', 0, 0x1c, 0x1f, 0x7f,
        ];
        let mut texts: Vec<Vec<u8>> = (0..=0x7f_u8).map(|b| vec![b]).collect();
        for a in special {
            for b in special {
                texts.push(vec![a, b]);
                texts.push(vec![b'x', a, b, b'y']);
            }
        }
        texts.push("{\"q\":\"é~\\\"\\u0000\",\"n\":[1]}".as_bytes().to_vec());
        for text in texts {
            let mut out = Vec::new();
            encode(&text, &mut out);
            let quoted = format!("\"{}\"", std::str::from_utf8(&out).unwrap());
            let read: &str = serde_json::from_str(&quoted).expect("a string without escapes");
            assert_eq!(read.as_bytes(), out);
            let mut back = out.clone();
            decode(&mut back);
            assert_eq!(back, text, "{quoted}");
        }
        // a `~` that starts no escape (only a client writing the reserved
        // key itself sends one) is kept
        for (sent, read) in [("~", "~"), ("a~", "a~"), ("~x~'", "~x\""), ("~~~", "~~")] {
            let mut t = sent.as_bytes().to_vec();
            decode(&mut t);
            assert_eq!(t, read.as_bytes(), "{sent}");
        }
    }

    /// The wrapped arguments of a rewritten call hold no backslash, so
    /// rmcp's reading copies no string of them.
    #[test]
    fn wrapped_arguments_hold_no_backslash() {
        let args = r#"{"q":"a\"b\\c","t":"\n\u0001"}"#;
        let new = rewrite(call(args).as_bytes()).expect("rewritten");
        let v: Value = serde_json::from_slice(&new).unwrap();
        let wrapped = v["params"]["arguments"][AS_SENT].as_str().unwrap();
        assert!(
            !wrapped.contains('\\') && !wrapped.contains('"'),
            "{wrapped}"
        );
        assert_eq!(handed(call(args).as_bytes()), [args]);
    }

    fn call(args: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"f","arguments":{args}}}}}"#
        )
    }

    /// What the dispatcher is handed for a message rmcp reads after
    /// [`rewrite`]: every call's arguments text, in order.
    fn handed(msg: &[u8]) -> Vec<String> {
        let new = rewrite(msg).expect("rewritten");
        let v: Value = serde_json::from_slice(&new).expect("rmcp can read it");
        let one = |m: &Value| arguments_text(m["params"]["arguments"].as_object());
        match &v {
            Value::Array(batch) => batch.iter().map(one).collect(),
            m => vec![one(m)],
        }
    }

    /// The dispatcher's own reading of the text: malformed, and why.
    fn malformed(text: &str) -> String {
        match parse_strict(text, &Limits::default()) {
            Err(DecodeError::Malformed(e)) => e.message,
            other => panic!("{text} was read: {other:?}"),
        }
    }

    #[test]
    fn arguments_that_are_not_an_object_reach_the_dispatcher_as_sent() {
        for args in [r#""{\"query\":\"x\"}""#, "[1]", "7", "[ 1 , 2 ]"] {
            // the dispatcher refuses it as "not an object"
            assert_eq!(handed(call(args).as_bytes()), [args]);
        }
        let mut m = Map::new();
        m.insert("a".into(), Value::from(1));
        assert_eq!(arguments_text(Some(&m)), r#"{"a":1}"#);
        assert_eq!(arguments_text(None), "{}");
    }

    #[test]
    fn repeated_keys_reach_the_dispatcher_as_sent() {
        for (args, key) in [
            (r#"{"path":"/etc/passwd","path":"ok.txt"}"#, "path"),
            (r#"{"path":"/etc/passwd","p\u0061th":"ok.txt"}"#, "path"),
            (r#"{"note":"b.md","note":"a.md"}"#, "note"),
            (r#"{"a":{"b":[{"c":1,"c":2}]}}"#, "c"),
        ] {
            // serde_json alone keeps the last one
            let last: Value = serde_json::from_str(&call(args)).unwrap();
            assert!(last["params"]["arguments"].is_object());
            assert_eq!(handed(call(args).as_bytes()), [args]);
            let why = malformed(args);
            assert!(why.contains(&format!("`{key}`")), "{why}");
        }
    }

    #[test]
    fn what_serde_json_refuses_reaches_the_dispatcher_as_sent() {
        let deep = format!("{{\"a\":{}1{}}}", "[".repeat(200), "]".repeat(200));
        for args in [
            r#"{"n":1e400}"#,
            r#"{"s":"\ud800"}"#,
            r#"{"n":NaN}"#,
            r#"{"n":-Infinity}"#,
            r#"{"n":01}"#,
            &deep,
        ] {
            assert!(
                serde_json::from_str::<Value>(&call(args)).is_err(),
                "{args}"
            );
            assert_eq!(handed(call(args).as_bytes()), [args]);
            malformed(args);
        }
        // bytes that are not UTF-8: NUL in their place, never a
        // replacement character the dispatcher would read as text
        let mut msg = call(r#"{"s":"aXb"}"#).into_bytes();
        let x = msg.iter().position(|&c| c == b'X').unwrap();
        msg[x] = 0xff;
        assert_eq!(handed(&msg), ["{\"s\":\"a\0b\"}"]);
        malformed("{\"s\":\"a\0b\"}");
    }

    #[test]
    fn strings_are_followed_through_braces_quotes_and_backslashes() {
        for args in [
            r#"{"q":"}]{[","r":"\"}","s":"\\","t":"\\\"}"}"#,
            r#"{ "q" : "a\"b\\" , "n" : [ 1.0 , 2e3 , {"x":"]"} ] }"#,
            r#"{"big":18446744073709551616,"f":0.10000000000000000000001}"#,
        ] {
            assert_eq!(handed(call(args).as_bytes()), [args]);
            parse_strict(args, &Limits::default()).expect("well formed");
        }
        // the members around the arguments, in any order and escaped,
        // are rmcp's as they were
        let msg = r#"{"params":{"arguments":{"q":"x"},"name":"f","_meta":{"k":"}"}},"id":"a\"}","jsonrpc":"2.0","m\u0065thod":"tools\/call"}"#;
        assert_eq!(handed(msg.as_bytes()), [r#"{"q":"x"}"#]);
        let (a, b): (Value, Value) = (
            serde_json::from_str(msg).unwrap(),
            serde_json::from_slice(&rewrite(msg.as_bytes()).unwrap()).unwrap(),
        );
        for p in [
            "/id",
            "/jsonrpc",
            "/method",
            "/params/name",
            "/params/_meta",
        ] {
            assert_eq!(a.pointer(p), b.pointer(p), "{p}");
        }
    }

    #[test]
    fn every_call_of_a_batch_and_nothing_else() {
        let batch = format!(
            r#"[{},{{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{{"arguments":{{"a":1,"a":2}}}}}}, {} ,{{"jsonrpc":"2.0","method":"notifications/initialized"}}]"#,
            call(r#"{"path":"a","path":"b"}"#),
            call(r#"{"n":1e400}"#),
        );
        let new = rewrite(batch.as_bytes()).expect("rewritten");
        let v: Value = serde_json::from_slice(&new).unwrap();
        assert_eq!(
            arguments_text(v[0]["params"]["arguments"].as_object()),
            r#"{"path":"a","path":"b"}"#
        );
        assert_eq!(v[1]["params"]["arguments"], serde_json::json!({"a": 2}));
        assert_eq!(
            arguments_text(v[2]["params"]["arguments"].as_object()),
            r#"{"n":1e400}"#
        );
        assert_eq!(v[3]["method"], "notifications/initialized");
    }

    /// Keys are compared as bytes: one that is not UTF-8 names nothing the
    /// rewrite looks for, and the message is still refused by serde_json,
    /// as rmcp reads it.
    #[test]
    fn a_key_that_is_not_utf8_is_still_refused_after_the_rewrite() {
        // a member `"k<0xff>": 1` before the message's closing brace
        let mut sent = call(r#"{"a":1}"#).into_bytes();
        let end = sent.len() - 1;
        sent.splice(end..end, b",\"k\xff\":1".iter().copied());
        assert!(serde_json::from_slice::<Value>(&sent).is_err());
        let new = rewrite(&sent).expect("its call is still wrapped");
        assert!(serde_json::from_slice::<Value>(&new).is_err());
    }

    #[test]
    fn white_space_around_a_lone_message_is_not_text_after_it() {
        let sent = format!(" \r\n{} \n\t", call(r#"{"a":1,"a":2}"#));
        assert_eq!(handed(sent.as_bytes()), [r#"{"a":1,"a":2}"#]);
    }

    #[test]
    fn other_messages_pass_as_they_are() {
        for msg in [
            // no arguments to wrap
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"f","arguments":null}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"f"}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"arguments":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"tools/call"}}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{"text":"a\"b"}}"#,
            "[]",
            // not JSON, or text after the message: rmcp's to refuse
            "not json tools/call",
            &format!("{} x", call(r#"{"a":1,"a":2}"#)),
            &format!("{}{}", call("{}"), call("{}")),
            r#"{"method":"tools/call","params":{"arguments":{"a":1}}"#,
            r#"{"method":"tools/call","params":{"arguments":{"a":[}}}"#,
            r#"{"method":"tools/call","params":{"arguments":{"a":1}},}"#,
            r#"{"method":"tools/call","params":{"arguments":{"a":"\"}}}"#,
        ] {
            assert_eq!(rewrite(msg.as_bytes()), None, "{msg}");
        }
    }
}
