//! Observability without leaks: secret values are scrubbed from every
//! envelope, and each call can be journaled as one JSON line with its
//! arguments redacted.

use std::io::Write;
use std::sync::Mutex;

use serde::Serialize;
use serde_json::Value;

use crate::envelope::Envelope;

/// Whether `c` changes how the text around it reads without being seen:
/// the bidirectional controls (Trojan Source: an approver reads one order
/// of the code, the file holds another), the C0 and C1 control characters
/// but tab and newline (a terminal acts on them: clears the screen, writes
/// the clipboard), and every other character Unicode says to show as
/// nothing (its `Default_Ignorable_Code_Point` set): zero-width characters,
/// the soft hyphen, variation selectors, and the tag characters, which
/// can spell a whole sentence no one sees (`U+E0041`... "ASCII smuggling").
/// Where a person reads a model's text (the approvals inbox, the
/// operator's commands) each is shown as its code point instead
/// ([`for_people`]).
///
/// ```
/// use contract_runtime::observe::is_invisible;
/// assert!(is_invisible('\u{202e}') && is_invisible('\u{9b}') && is_invisible('\u{200b}'));
/// assert!(is_invisible('\u{e0041}') && is_invisible('\u{ad}') && is_invisible('\u{fe0f}'));
/// assert!(!is_invisible('\n') && !is_invisible('é') && !is_invisible('\u{5d0}'));
/// ```
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        // Default_Ignorable_Code_Point, Unicode 16 (DerivedCoreProperties.txt)
        | '\u{ad}' | '\u{34f}' | '\u{61c}' | '\u{115f}'..='\u{1160}'
        | '\u{17b4}'..='\u{17b5}' | '\u{180b}'..='\u{180f}'
        | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}'
        | '\u{3164}' | '\u{fe00}'..='\u{fe0f}' | '\u{feff}' | '\u{ffa0}'
        | '\u{fff0}'..='\u{fff8}' | '\u{1bca0}'..='\u{1bca3}'
        | '\u{1d173}'..='\u{1d17a}' | '\u{e0000}'..='\u{e0fff}')
}

/// JSON text as a person's terminal should get it: each [`is_invisible`]
/// character written as its `\uXXXX` escape. The same JSON value (such a
/// character only occurs inside a string, where the escape means it), which
/// a terminal neither acts on nor hides.
///
/// ```
/// use contract_runtime::observe::for_people;
/// assert_eq!(for_people("{\"a\":\"x\u{202e}y\"}"), "{\"a\":\"x\\u202ey\"}");
/// assert_eq!(for_people("\"\u{e0041}\""), "\"\\udb40\\udc41\"");
/// ```
pub fn for_people(json: &str) -> std::borrow::Cow<'_, str> {
    if !json.chars().any(is_invisible) {
        return std::borrow::Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_invisible(c) {
            // JSON's escape is of UTF-16 units: a tag character is two.
            for unit in c.encode_utf16(&mut [0; 2]) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The most bytes of a call's arguments a journal entry keeps (64 KiB).
pub const JOURNAL_ARGUMENTS_MAX: usize = 64 * 1024;

/// What a journal entry keeps of arguments `size` bytes long: their
/// `redacted` form, or past [`JOURNAL_ARGUMENTS_MAX`] a note of their size.
/// A journal keeps every entry for its retention (calls, refused ones
/// included, and each approval request, decision and use): arguments of
/// any size would let a caller grow it by megabytes an entry.
pub(crate) fn journal_arguments(size: usize, redacted: impl FnOnce() -> Value) -> Value {
    if size > JOURNAL_ARGUMENTS_MAX {
        Value::from(format!(
            "[arguments of {size} bytes, not kept: over {JOURNAL_ARGUMENTS_MAX} bytes]"
        ))
    } else {
        redacted()
    }
}

/// What replaces a secret value wherever arguments are shown.
pub const REDACTED: &str = "[redacted]";

/// Values that must never reach a model, a log or the journal.
#[derive(Clone, Debug, Default)]
pub struct Secrets {
    /// Scrubbed wherever they occur, inside any text.
    values: Vec<String>,
    /// Shorter than [`Secrets::MIN_LEN`]: scrubbed only where a whole value
    /// (a JSON string or number, a batch item) is the secret.
    short: Vec<String>,
}

impl Secrets {
    /// Shorter values are not scrubbed inside text: replacing every `a`
    /// would destroy the text and protect nothing. A value that is exactly
    /// such a secret is still redacted.
    pub const MIN_LEN: usize = 4;

    /// Adds a secret value.
    pub fn add(&mut self, v: impl Into<String>) {
        let v = v.into();
        let list = if v.chars().count() >= Self::MIN_LEN {
            &mut self.values
        } else if v.is_empty() {
            return;
        } else {
            &mut self.short
        };
        if !list.contains(&v) {
            list.push(v);
        }
    }

    /// Adds every value of `other`.
    pub fn extend(&mut self, other: &Secrets) {
        for v in other.values.iter().chain(&other.short) {
            self.add(v.clone());
        }
    }

    /// Whether there is nothing to scrub.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.short.is_empty()
    }

    /// Whether `v`, whole, is a secret.
    fn is_whole(&self, v: &str) -> bool {
        self.values.iter().chain(&self.short).any(|s| s == v)
    }

    /// `s` with every secret replaced by `[redacted]`.
    pub fn scrub_str(&self, s: &str) -> Option<String> {
        let mut out: Option<String> = None;
        for v in &self.values {
            let cur = out.as_deref().unwrap_or(s);
            if cur.contains(v.as_str()) {
                out = Some(cur.replace(v.as_str(), REDACTED));
            }
        }
        out
    }

    /// Scrubs every string (keys too) inside a JSON value; a string that is
    /// a secret as a whole, and a number that is one of at least
    /// [`Secrets::MIN_LEN`] digits, becomes `"[redacted]"`.
    pub fn scrub_value(&self, v: &mut Value) {
        match v {
            Value::String(s) if self.is_whole(s) => *s = REDACTED.to_owned(),
            Value::String(s) => {
                if let Some(clean) = self.scrub_str(s) {
                    *s = clean;
                }
            }
            // Numbers only from MIN_LEN digits: a secret `7` would
            // otherwise take every 7 out of a result.
            Value::Number(n) if self.values.contains(&n.to_string()) => {
                *v = Value::String(REDACTED.to_owned());
            }
            Value::Array(a) => a.iter_mut().for_each(|x| self.scrub_value(x)),
            Value::Object(m) => {
                let dirty: Vec<String> = m
                    .keys()
                    .filter(|k| self.scrub_str(k).is_some())
                    .cloned()
                    .collect();
                for k in dirty {
                    if let Some(x) = m.remove(&k) {
                        m.insert(self.scrub_str(&k).unwrap_or(k), x);
                    }
                }
                m.values_mut().for_each(|x| self.scrub_value(x));
            }
            _ => {}
        }
    }

    /// Scrubs an envelope: result, messages, hints, batch items, repair
    /// calls, the approval's reason, and the text of the content beside it
    /// (text items, text resources, resource links' names and descriptions;
    /// bytes are the tool's to keep free of secrets).
    pub fn scrub_envelope(&self, env: &mut Envelope) {
        if self.is_empty() {
            return;
        }
        self.scrub_value(&mut env.result);
        for item in &mut env.content {
            self.scrub_content(item);
        }
        if let Some(a) = env.approval.as_mut() {
            if let Some(clean) = self.scrub_str(&a.reason) {
                a.reason = clean;
            }
        }
        for e in &mut env.errors {
            if let Some(item) = e.item.as_mut() {
                if self.is_whole(item) {
                    *item = REDACTED.to_owned();
                } else if let Some(clean) = self.scrub_str(item) {
                    *item = clean;
                }
            }
            for s in [Some(&mut e.message), e.repair.as_mut().map(|r| &mut r.hint)]
                .into_iter()
                .flatten()
            {
                if let Some(clean) = self.scrub_str(s) {
                    *s = clean;
                }
            }
            if let Some(c) = e.constraint.as_mut().and_then(|c| c.actual.as_mut()) {
                self.scrub_value(c);
            }
            if let Some(call) = e.repair.as_mut().and_then(|r| r.call.as_mut()) {
                self.scrub_value(&mut call.arguments);
            }
        }
    }

    fn scrub_content(&self, item: &mut crate::content::Content) {
        use crate::content::{Body, Content};
        let texts: Vec<&mut String> = match item {
            Content::Text { text } => vec![text],
            Content::Resource {
                uri,
                body: Body::Text(text),
                ..
            } => vec![uri, text],
            Content::Resource { uri, .. } => vec![uri],
            Content::ResourceLink {
                uri,
                name,
                description,
                ..
            } => [Some(uri), Some(name), description.as_mut()]
                .into_iter()
                .flatten()
                .collect(),
            Content::Image { .. } | Content::Audio { .. } => Vec::new(),
        };
        for t in texts {
            if let Some(clean) = self.scrub_str(t) {
                *t = clean;
            }
        }
    }

    /// Collects the string leaves that `redacted` replaced in `original`.
    pub fn collect_redacted(&mut self, original: &Value, redacted: &Value) {
        match (original, redacted) {
            (o, Value::String(r)) if r == REDACTED && o != redacted => self.collect_leaves(o),
            (Value::Array(a), Value::Array(b)) => a
                .iter()
                .zip(b)
                .for_each(|(x, y)| self.collect_redacted(x, y)),
            (Value::Object(a), Value::Object(b)) => {
                for (k, x) in a {
                    if let Some(y) = b.get(k) {
                        self.collect_redacted(x, y);
                    }
                }
            }
            _ => {}
        }
    }

    fn collect_leaves(&mut self, v: &Value) {
        match v {
            Value::String(s) => self.add(s.clone()),
            Value::Number(n) => self.add(n.to_string()),
            Value::Array(a) => a.iter().for_each(|x| self.collect_leaves(x)),
            Value::Object(m) => m.values().for_each(|x| self.collect_leaves(x)),
            _ => {}
        }
    }
}

/// One line of the call journal.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct JournalEntry {
    /// Milliseconds since the Unix epoch when the call ended.
    pub ts_ms: u128,
    /// The provider's call id.
    pub call_id: String,
    /// The tool requested.
    pub tool: String,
    /// The arguments, secrets redacted (`"[unparseable arguments]"` when not JSON).
    pub arguments: Value,
    /// The envelope status.
    pub status: String,
    /// The error codes.
    pub codes: Vec<String>,
    /// Whether replaying is safe.
    pub retry_safe: bool,
    /// How long the call took.
    pub duration_us: u64,
}

/// Where call records go. A host enables one with [`crate::Dispatcher::with_journal`].
pub trait Journal: Send + Sync {
    /// Records one call.
    fn record(&self, entry: &JournalEntry);
}

/// A journal that appends one JSON line per call to a file.
pub struct JsonlJournal {
    file: Mutex<std::fs::File>,
}

impl JsonlJournal {
    /// Opens (or creates) `path` for appending.
    pub fn open(path: impl AsRef<std::path::Path>) -> std::io::Result<JsonlJournal> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(JsonlJournal {
            file: Mutex::new(file),
        })
    }
}

impl Journal for JsonlJournal {
    fn record(&self, entry: &JournalEntry) {
        let Ok(mut line) = serde_json::to_string(entry) else {
            return;
        };
        line.push('\n');
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        // A journal that cannot be written must not fail the call it records.
        if let Err(e) = f.write_all(line.as_bytes()) {
            tracing::warn!(error = %e, "call journal write failed");
        }
    }
}

/// A journal kept in memory (tests, or a host that ships records itself).
#[derive(Default)]
pub struct MemoryJournal {
    lines: Mutex<Vec<String>>,
}

impl MemoryJournal {
    /// The JSON lines recorded so far.
    pub fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Journal for MemoryJournal {
    fn record(&self, entry: &JournalEntry) {
        if let Ok(line) = serde_json::to_string(entry) {
            self.lines
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(line);
        }
    }
}
