//! Constraints declared once: each one produces its schema keyword and its runtime check.
//!
//! `#[arg(...)]` becomes a `static` [`Constraints`] value in generated code; the
//! schema stage ([`Constraints::apply_string`] and friends) and the validate stage
//! ([`crate::args::ArgValue::check`]) both read that one value, so the published
//! schema and the enforced rule cannot drift apart.

use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Value};

use crate::args::validate::{Ptr, Violations};
use crate::schema::SERVED;

thread_local! {
    /// Set while [`authored`] builds a schema: a number's type bounds are
    /// left out, so its `minimum` and `maximum` are the author's own.
    static AUTHORED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// `schema()` with only the bounds the author declared: the audit compares
/// prose with what `#[arg(range(..))]` says, as the macro does, not with
/// the type's own bounds the published schema adds (`range(min = 30)` on a
/// `u16` publishes `maximum: 65535`, which no prose contradicts).
#[cfg(feature = "audit")]
pub(crate) fn authored<T>(schema: impl FnOnce() -> T) -> T {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            AUTHORED.set(false);
        }
    }
    AUTHORED.set(true);
    let _reset = Reset;
    schema()
}

/// A numeric bound as written in the attribute; kept in its own kind so the
/// schema shows `2001`, not `2001.0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// A signed integer bound.
    Int(i64),
    /// A floating-point bound.
    Float(f64),
}

impl Num {
    /// The bound as a JSON number.
    pub fn to_json(self) -> Value {
        match self {
            Num::Int(i) => Value::from(i),
            Num::Float(f) => Value::from(f),
        }
    }

    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

/// A number seen in the arguments, compared exactly where both sides are integers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seen {
    /// An integer value.
    Int(i128),
    /// A floating-point value.
    Float(f64),
}

impl Seen {
    fn to_json(self) -> Value {
        match self {
            Seen::Int(i) => i64::try_from(i)
                .map(Value::from)
                .or_else(|_| u64::try_from(i).map(Value::from))
                .unwrap_or(Value::Null),
            Seen::Float(f) => Value::from(f),
        }
    }

    /// `self` compared with a bound.
    fn cmp(self, bound: Num) -> Option<std::cmp::Ordering> {
        match (self, bound) {
            (Seen::Int(a), Num::Int(b)) => Some(a.cmp(&i128::from(b))),
            (Seen::Int(a), b) => (a as f64).partial_cmp(&b.as_f64()),
            (Seen::Float(a), b) => a.partial_cmp(&b.as_f64()),
        }
    }
}

/// A regular expression from `#[arg(pattern = "...")]`: checked at macro time,
/// compiled once on first use.
pub struct Pattern {
    source: &'static str,
    compiled: OnceLock<Result<Regex, String>>,
}

impl Pattern {
    /// A pattern from its source text.
    pub const fn new(source: &'static str) -> Pattern {
        Pattern {
            source,
            compiled: OnceLock::new(),
        }
    }

    /// The pattern as written (and published in the schema).
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// The compiled regex. JSON Schema patterns are unanchored, like
    /// `Regex::is_match`, and read as ECMA-262 reads them: `\d`, `\w` and
    /// `\b` in ASCII, as every JSON Schema validator reads them.
    pub fn regex(&self) -> Result<&Regex, &str> {
        self.compiled
            .get_or_init(|| Regex::new(&ecma(self.source)).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(String::as_str)
    }

    fn is_match(&self, s: &str) -> bool {
        // A pattern that does not compile was refused at registry build; match nothing.
        self.regex().map(|r| r.is_match(s)).unwrap_or(false)
    }
}

/// Whether `source` compiles as a regex, remembered per process: a registry
/// of thousands of tools (or one rebuilt many times) repeats its patterns,
/// and compiling one costs tens of microseconds.
pub(crate) fn pattern_compiles(source: &str) -> Result<(), String> {
    static COMPILED: std::sync::Mutex<Option<std::collections::HashSet<String>>> =
        std::sync::Mutex::new(None);
    let known = |set: &Option<std::collections::HashSet<String>>| {
        set.as_ref().is_some_and(|s| s.contains(source))
    };
    if known(&COMPILED.lock().unwrap_or_else(|e| e.into_inner())) {
        return Ok(());
    }
    Regex::new(&ecma(source)).map_err(|e| e.to_string())?;
    COMPILED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(Default::default)
        .insert(source.to_owned());
    Ok(())
}

/// ECMA-262's `\s` (WhiteSpace and LineTerminator), as the members of a
/// `regex` class.
macro_rules! ecma_space {
    () => {
        r"\t\n\x0B\x0C\r\x20\xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}"
    };
}

/// A pattern as the `regex` crate must read it to mean what it means in
/// the published schema. JSON Schema reads patterns as ECMA-262 does, where
/// `\d` is `[0-9]`, `\w` is `[0-9A-Za-z_]` and `\b` is a boundary of those;
/// the `regex` crate reads them as Unicode classes, so `^\d{3}$` would pass
/// Arabic-Indic digits that every JSON Schema validator refuses. Each is
/// rewritten to its ASCII form (inside a class too), and `\s` to ECMA-262's
/// own white space; everything else passes unchanged, and a pattern without
/// them is not copied.
pub(crate) fn ecma(source: &str) -> std::borrow::Cow<'_, str> {
    if !source.contains('\\') {
        return std::borrow::Cow::Borrowed(source);
    }
    let mut out = String::with_capacity(source.len() + 16);
    let mut in_class = false;
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(e) = chars.next() else {
                    out.push(c);
                    break;
                };
                let ascii = match (e, in_class) {
                    ('d', false) => "[0-9]",
                    ('D', false) => "[^0-9]",
                    ('w', false) => "[0-9A-Za-z_]",
                    ('W', false) => "[^0-9A-Za-z_]",
                    ('b', false) => "(?-u:\\b)",
                    ('B', false) => "(?-u:\\B)",
                    ('d', true) => "0-9",
                    ('D', true) => "[:^digit:]",
                    ('w', true) => "0-9A-Za-z_",
                    ('W', true) => "[:^word:]",
                    // ECMA-262's white space: U+FEFF is one, U+0085 is not
                    // (the `regex` crate's Unicode `\s` has it the other way).
                    ('s', false) => concat!("[", ecma_space!(), "]"),
                    ('S', false) => concat!("[^", ecma_space!(), "]"),
                    ('s', true) => ecma_space!(),
                    ('S', true) => concat!("[^", ecma_space!(), "]"),
                    _ => {
                        out.push(c);
                        out.push(e);
                        continue;
                    }
                };
                out.push_str(ascii);
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                // a `^` or `]` right after `[` belongs to the class
                if let Some(next) = chars.clone().next().filter(|&n| n == '^') {
                    out.push(next);
                    chars.next();
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pattern({:?})", self.source)
    }
}

/// String formats the runtime checks (the JSON Schema `format` keyword).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `YYYY-MM-DD` (RFC 3339 full-date).
    Date,
    /// RFC 3339 date-time with an offset.
    DateTime,
    /// RFC 3339 full-time.
    Time,
    /// An email address (one `@`, a dotted domain, no spaces).
    Email,
    /// A hyphenated UUID.
    Uuid,
    /// An absolute URI with a scheme.
    Uri,
    /// A dotted-quad IPv4 address.
    Ipv4,
    /// An IPv6 address.
    Ipv6,
    /// A DNS host name.
    Hostname,
}

impl Format {
    /// The `format` keyword value.
    pub fn name(self) -> &'static str {
        match self {
            Format::Date => "date",
            Format::DateTime => "date-time",
            Format::Time => "time",
            Format::Email => "email",
            Format::Uuid => "uuid",
            Format::Uri => "uri",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Hostname => "hostname",
        }
    }

    /// The name with the article it takes when read aloud: "an email",
    /// "an ipv4" (eye-pee), "a uuid" and "a uri" (you-).
    pub fn with_article(self) -> String {
        let an = matches!(self, Format::Email | Format::Ipv4 | Format::Ipv6);
        format!("{} {}", if an { "an" } else { "a" }, self.name())
    }

    /// Whether `s` has this format.
    pub fn matches(self, s: &str) -> bool {
        match self {
            Format::Date => crate::args::format::is_date(s),
            Format::DateTime => crate::args::format::is_date_time(s),
            Format::Time => crate::args::format::is_time(s),
            Format::Email => crate::args::format::is_email(s),
            Format::Uuid => crate::args::format::is_uuid(s),
            Format::Uri => crate::args::format::is_uri(s),
            Format::Ipv4 => s.parse::<std::net::Ipv4Addr>().is_ok(),
            Format::Ipv6 => s.parse::<std::net::Ipv6Addr>().is_ok(),
            Format::Hostname => crate::args::format::is_hostname(s),
        }
    }

    pub(crate) fn example(self) -> &'static str {
        match self {
            Format::Date => "2024-01-31",
            Format::DateTime => "2024-01-31T09:30:00Z",
            Format::Time => "09:30:00Z",
            Format::Email => "name@example.com",
            Format::Uuid => "123e4567-e89b-12d3-a456-426614174000",
            Format::Uri => "https://example.com/path",
            Format::Ipv4 => "192.0.2.1",
            Format::Ipv6 => "2001:db8::1",
            Format::Hostname => "example.com",
        }
    }
}

/// The keywords `length(...)` publishes, and what it counts, per kind of value:
/// the schema stage and the check stage both read these.
struct LengthKeywords {
    min: &'static str,
    max: &'static str,
    unit: &'static str,
    units: &'static str,
}

const STRING_LENGTH: LengthKeywords = LengthKeywords {
    min: "minLength",
    max: "maxLength",
    unit: "character",
    units: "characters",
};
const LIST_LENGTH: LengthKeywords = LengthKeywords {
    min: "minItems",
    max: "maxItems",
    unit: "item",
    units: "items",
};
const MAP_LENGTH: LengthKeywords = LengthKeywords {
    min: "minProperties",
    max: "maxProperties",
    unit: "entry",
    units: "entries",
};

/// Which sides of a declared range limit what the tool serves rather than the
/// form of a value (`served(range(..))`, e.g. an index that holds records
/// back to 2001). A served bound is published and enforced like any bound,
/// and marked with [`SERVED`]; a value outside it is refused with a repair
/// that says to report the request as unserved, never to move it into range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Served {
    /// The lower bound (`minimum`, `exclusiveMinimum` or `formatMinimum`).
    pub min: bool,
    /// The upper bound (`maximum`, `exclusiveMaximum` or `formatMaximum`).
    pub max: bool,
}

impl Served {
    /// No bound is served: every bound is one of form.
    pub const NONE: Served = Served {
        min: false,
        max: false,
    };

    /// Whether the bound a schema keyword names is served.
    pub fn covers(self, keyword: &str) -> bool {
        match keyword {
            "minimum" | "exclusiveMinimum" | "formatMinimum" => self.min,
            "maximum" | "exclusiveMaximum" | "formatMaximum" => self.max,
            _ => false,
        }
    }

    /// Marks the served bounds `s` carries with [`SERVED`].
    pub fn publish(self, s: &mut Map<String, Value>) {
        const BOUNDS: [&str; 6] = [
            "minimum",
            "exclusiveMinimum",
            "formatMinimum",
            "maximum",
            "exclusiveMaximum",
            "formatMaximum",
        ];
        let named: Vec<Value> = BOUNDS
            .iter()
            .filter(|k| self.covers(k) && s.contains_key(**k))
            .map(|k| Value::from(*k))
            .collect();
        if !named.is_empty() {
            s.insert(SERVED.into(), Value::Array(named));
        }
    }
}

/// Everything `#[arg(...)]` can declare about one value.
#[derive(Debug)]
pub struct Constraints {
    /// `length(min = ..)`: `minLength` on strings, `minItems` on lists.
    pub min_length: Option<u64>,
    /// `length(max = ..)`: `maxLength` on strings, `maxItems` on lists.
    pub max_length: Option<u64>,
    /// `range(min = ..)`: `minimum`.
    pub minimum: Option<Num>,
    /// `range(max = ..)`: `maximum`.
    pub maximum: Option<Num>,
    /// `range(exclusive_min = ..)`: `exclusiveMinimum`.
    pub exclusive_minimum: Option<Num>,
    /// `range(exclusive_max = ..)`: `exclusiveMaximum`.
    pub exclusive_maximum: Option<Num>,
    /// `pattern = ".."`.
    pub pattern: Option<&'static Pattern>,
    /// `format = ".."`.
    pub format: Option<Format>,
    /// `unique`: `uniqueItems`.
    pub unique: bool,
    /// `each(...)`: constraints on every item of a list.
    pub items: Option<&'static Constraints>,
    /// `secret`: the value never appears in envelopes, logs or the journal.
    pub secret: bool,
    /// `root = ".."`: the named root a confined path resolves in.
    pub root: Option<&'static str>,
    /// `range(min = "2001-01-01")` on a date or time: `formatMinimum`.
    pub format_minimum: Option<&'static str>,
    /// `range(max = "..")` on a date or time: `formatMaximum`.
    pub format_maximum: Option<&'static str>,
    /// Which sides of the range are bounds of service (`served(range(..))`).
    pub served: Served,
}

impl Constraints {
    /// No constraint at all.
    pub const NONE: Constraints = Constraints {
        min_length: None,
        max_length: None,
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        pattern: None,
        format: None,
        unique: false,
        items: None,
        secret: false,
        root: None,
        format_minimum: None,
        format_maximum: None,
        served: Served::NONE,
    };

    /// The constraints for list items (`each(...)`), or none.
    pub fn item_constraints(&self) -> &'static Constraints {
        self.items.unwrap_or(&Constraints::NONE)
    }

    /// Schema keywords for a string value.
    pub fn apply_string(&self, s: &mut Map<String, Value>) {
        put(s, STRING_LENGTH.min, self.min_length.map(Value::from));
        put(s, STRING_LENGTH.max, self.max_length.map(Value::from));
        put(s, "pattern", self.pattern.map(|p| Value::from(p.source())));
        put(s, "format", self.format.map(|f| Value::from(f.name())));
    }

    /// Schema keywords for a number; `type_min`/`type_max` are the Rust type's own
    /// bounds, published so a validator rejects what the type cannot hold.
    pub fn apply_number(
        &self,
        s: &mut Map<String, Value>,
        type_min: Option<Num>,
        type_max: Option<Num>,
    ) {
        let (type_min, type_max) = match AUTHORED.get() {
            true => (None, None),
            false => (type_min, type_max),
        };
        let (min, max) = self.published_range(type_min, type_max);
        // A type's own bound is one of form, even on a served side.
        let served = Served {
            min: self.served.min
                && (self.exclusive_minimum.is_some() || (min.is_some() && min == self.minimum)),
            max: self.served.max
                && (self.exclusive_maximum.is_some() || (max.is_some() && max == self.maximum)),
        };
        put(s, "minimum", min.map(Num::to_json));
        put(s, "maximum", max.map(Num::to_json));
        put(
            s,
            "exclusiveMinimum",
            self.exclusive_minimum.map(Num::to_json),
        );
        put(
            s,
            "exclusiveMaximum",
            self.exclusive_maximum.map(Num::to_json),
        );
        served.publish(s);
    }

    /// The `minimum` and `maximum` the schema publishes: the tighter of each
    /// declared bound and the type's own.
    pub fn published_range(
        &self,
        type_min: Option<Num>,
        type_max: Option<Num>,
    ) -> (Option<Num>, Option<Num>) {
        (
            tighter(self.minimum, type_min, true),
            tighter(self.maximum, type_max, false),
        )
    }

    /// Schema keywords for a list.
    pub fn apply_list(&self, s: &mut Map<String, Value>) {
        put(s, LIST_LENGTH.min, self.min_length.map(Value::from));
        put(s, LIST_LENGTH.max, self.max_length.map(Value::from));
        if self.unique {
            s.insert("uniqueItems".into(), Value::Bool(true));
        }
    }

    /// Checks a string against length, pattern and format.
    pub fn check_string(&self, v: &str, ptr: &Ptr<'_>, out: &mut Violations) {
        if self.min_length.is_some() || self.max_length.is_some() {
            // A character is 1 to 4 bytes, so the byte length often settles both
            // bounds without counting (as long texts with a small minimum do).
            let bytes = v.len() as u64;
            let settled = self.min_length.is_none_or(|m| bytes.div_ceil(4) >= m)
                && self.max_length.is_none_or(|m| bytes <= m);
            if !settled {
                let n = v.chars().count() as u64;
                self.check_len(n, &STRING_LENGTH, ptr, out);
            }
        }
        if let Some(p) = self.pattern {
            if !p.is_match(v) {
                out.push(
                    ptr,
                    "pattern",
                    Value::from(p.source()),
                    self.actual(Value::from(v)),
                    format!("does not match the pattern {}", p.source()),
                    format!(
                        "send a value that matches the regular expression {}",
                        p.source()
                    ),
                );
            }
        }
        if let Some(f) = self.format {
            if !f.matches(v) {
                out.push(
                    ptr,
                    "format",
                    Value::from(f.name()),
                    self.actual(Value::from(v)),
                    format!("is not a valid {}", f.name()),
                    format!("send {} such as {}", f.with_article(), f.example()),
                );
            }
        }
    }

    /// Checks a number against the declared range.
    pub fn check_number(&self, v: Seen, ptr: &Ptr<'_>, out: &mut Violations) {
        use std::cmp::Ordering::{Greater, Less};
        // (bound, keyword, whether an ordering of value vs bound breaks it, words)
        type Check = (
            Option<Num>,
            &'static str,
            fn(std::cmp::Ordering) -> bool,
            &'static str,
        );
        let checks: [Check; 4] = [
            (self.minimum, "minimum", |o| o == Less, "at least"),
            (self.maximum, "maximum", |o| o == Greater, "at most"),
            (
                self.exclusive_minimum,
                "exclusiveMinimum",
                |o| o != Greater,
                "greater than",
            ),
            (
                self.exclusive_maximum,
                "exclusiveMaximum",
                |o| o != Less,
                "less than",
            ),
        ];
        for (bound, keyword, breaks, words) in checks {
            let Some(bound) = bound else { continue };
            if !v.cmp(bound).is_none_or(breaks) {
                continue;
            }
            if self.served.covers(keyword) {
                out.push_served(
                    ptr,
                    keyword,
                    bound.to_json(),
                    self.actual(v.to_json()),
                    &self.served_words(),
                );
            } else {
                out.push(
                    ptr,
                    keyword,
                    bound.to_json(),
                    self.actual(v.to_json()),
                    format!("must be {words} {}", bound.to_json()),
                    self.range_hint(),
                );
            }
        }
    }

    /// Schema keywords for a map with string keys: `length` counts entries,
    /// `pattern` is the keys' (`propertyNames`).
    pub fn apply_map(&self, s: &mut Map<String, Value>) {
        put(s, MAP_LENGTH.min, self.min_length.map(Value::from));
        put(s, MAP_LENGTH.max, self.max_length.map(Value::from));
        if let Some(p) = self.pattern {
            s.insert(
                "propertyNames".into(),
                serde_json::json!({"pattern": p.source()}),
            );
        }
    }

    /// Checks a map's entry count and each key against the key pattern; a
    /// key's violation points at its entry.
    pub fn check_map<'k>(
        &self,
        n: usize,
        keys: impl Iterator<Item = &'k String>,
        ptr: &Ptr<'_>,
        out: &mut Violations,
    ) {
        self.check_len(n as u64, &MAP_LENGTH, ptr, out);
        if let Some(p) = self.pattern {
            for k in keys.filter(|k| !p.is_match(k)) {
                out.push(
                    &ptr.key(k),
                    "propertyNames",
                    serde_json::json!({"pattern": p.source()}),
                    Some(Value::from(k.as_str())),
                    format!(
                        "is not an accepted key: it does not match the pattern {}",
                        p.source()
                    ),
                    format!("use keys matching {}", p.source()),
                );
            }
        }
    }

    /// Checks a list's item count (uniqueness is checked by the list itself).
    pub fn check_items_len(&self, n: usize, ptr: &Ptr<'_>, out: &mut Violations) {
        self.check_len(n as u64, &LIST_LENGTH, ptr, out);
    }

    fn check_len(&self, n: u64, k: &LengthKeywords, ptr: &Ptr<'_>, out: &mut Violations) {
        let plural = |c: u64| if c == 1 { k.unit } else { k.units };
        if let Some(min) = self.min_length.filter(|&m| n < m) {
            out.push(
                ptr,
                k.min,
                Value::from(min),
                Some(Value::from(n)),
                format!("must have at least {min} {}, got {n}", plural(min)),
                self.length_hint(k.units),
            );
        }
        if let Some(max) = self.max_length.filter(|&m| n > m) {
            out.push(
                ptr,
                k.max,
                Value::from(max),
                Some(Value::from(n)),
                format!("must have at most {max} {}, got {n}", plural(max)),
                self.length_hint(k.units),
            );
        }
    }

    fn length_hint(&self, units: &str) -> String {
        match (self.min_length, self.max_length) {
            (Some(a), Some(b)) => format!("send {a} to {b} {units}"),
            (Some(a), None) => format!("send at least {a} {units}"),
            (None, Some(b)) => format!("send at most {b} {units}"),
            (None, None) => String::new(),
        }
    }

    fn range_hint(&self) -> String {
        let lo = self
            .minimum
            .map(|m| format!("at least {}", m.to_json()))
            .or(self
                .exclusive_minimum
                .map(|m| format!("greater than {}", m.to_json())));
        let hi = self
            .maximum
            .map(|m| format!("at most {}", m.to_json()))
            .or(self
                .exclusive_maximum
                .map(|m| format!("less than {}", m.to_json())));
        match (lo, hi) {
            (Some(a), Some(b)) => format!("send a number {a} and {b}"),
            (Some(a), None) | (None, Some(a)) => format!("send a number {a}"),
            (None, None) => String::new(),
        }
    }

    /// The served range in words when `keyword` with `limit` is the declared
    /// served bound (and not the type's own, which is one of form).
    pub(crate) fn served_bound(&self, keyword: &str, limit: &Value) -> Option<String> {
        let declared = match keyword {
            "minimum" => self.minimum,
            "maximum" => self.maximum,
            _ => None,
        };
        (self.served.covers(keyword) && declared.is_some_and(|d| d.to_json() == *limit))
            .then(|| self.served_words())
    }

    /// What the tool serves, in words: "2001 to 2026", "at most 100".
    fn served_words(&self) -> String {
        let lo = self.served.min.then(|| {
            (self.minimum.map(|m| ("at least", m)))
                .or(self.exclusive_minimum.map(|m| ("more than", m)))
        });
        let hi = self.served.max.then(|| {
            (self.maximum.map(|m| ("at most", m)))
                .or(self.exclusive_maximum.map(|m| ("less than", m)))
        });
        match (lo.flatten(), hi.flatten()) {
            (Some(("at least", a)), Some(("at most", b))) => {
                format!("{} to {}", a.to_json(), b.to_json())
            }
            (Some((w, a)), Some((v, b))) => {
                format!("{w} {} and {v} {}", a.to_json(), b.to_json())
            }
            (Some((w, a)), None) | (None, Some((w, a))) => format!("{w} {}", a.to_json()),
            (None, None) => String::new(),
        }
    }

    /// What the tool serves of a date or time, in words: "2001-01-01 to
    /// 2026-12-31", "from 2001-01-01 on".
    pub fn served_time_words(&self) -> String {
        let lo = self.format_minimum.filter(|_| self.served.min);
        let hi = self.format_maximum.filter(|_| self.served.max);
        match (lo, hi) {
            (Some(a), Some(b)) => format!("{a} to {b}"),
            (Some(a), None) => format!("from {a} on"),
            (None, Some(b)) => format!("up to {b}"),
            (None, None) => String::new(),
        }
    }

    /// The value seen, unless the argument is secret.
    pub fn actual(&self, v: Value) -> Option<Value> {
        (!self.secret).then_some(v)
    }
}

fn put(s: &mut Map<String, Value>, k: &str, v: Option<Value>) {
    if let Some(v) = v {
        s.insert(k.to_owned(), v);
    }
}

/// The tighter of a declared bound and the type's own bound.
fn tighter(declared: Option<Num>, ty: Option<Num>, lower: bool) -> Option<Num> {
    match (declared, ty) {
        (Some(d), Some(t)) => {
            let d_tighter = if lower {
                d.as_f64() >= t.as_f64()
            } else {
                d.as_f64() <= t.as_f64()
            };
            Some(if d_tighter { d } else { t })
        }
        (d, t) => d.or(t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `\d`, `\w` and `\b` mean what ECMA-262 (and so every JSON Schema
    /// validator) means by them: ASCII, not Unicode.
    #[test]
    fn class_escapes_mean_what_ecma_means() {
        for (source, yes, no) in [
            (r"^\d{3}$", "123", "\u{661}\u{662}\u{663}"),
            (r"^\w+$", "a_Z9", "\u{e9}t\u{e9}"),
            (r"^[\d-]+$", "1-2", "\u{661}"),
            (r"^[^\d]+$", "abc", "a1"),
            (r"^\D+$", "\u{661}", "1"),
            (r"^[\W]+$", "\u{e9}", "a"),
            // `é` is no word character to ECMA-262: a boundary stands beside it
            (r"\bab\b", "\u{e9}ab\u{e9}", "xab y"),
            (r"^\.\\d$", ".\\d", ".1"),
            // ECMA-262's white space has U+FEFF and not U+0085
            (r"^a\sb$", "a\u{feff}b", "a\u{85}b"),
            (r"^[\s]+$", "\u{3000}\t", "\u{85}"),
            (r"^\S+$", "a\u{85}", "a\u{feff}"),
            (r"^[a\S]+$", "a\u{85}", "\u{feff}"),
        ] {
            let p = Pattern::new(Box::leak(source.to_string().into_boxed_str()));
            assert!(
                p.is_match(yes),
                "{source} must match {yes:?} ({})",
                ecma(source)
            );
            assert!(
                !p.is_match(no),
                "{source} must not match {no:?} ({})",
                ecma(source)
            );
        }
        assert!(matches!(ecma("^[a-z]+$"), std::borrow::Cow::Borrowed(_)));
    }

    /// A served side is marked `x-served` and refused as unserved; the other
    /// side stays a bound of form, and a secret's value is never repeated.
    #[test]
    fn served_bounds_are_marked_and_refused_as_unserved() {
        let c = Constraints {
            minimum: Some(Num::Int(1)),
            maximum: Some(Num::Int(100)),
            served: Served {
                min: false,
                max: true,
            },
            ..Constraints::NONE
        };
        let mut s = Map::new();
        c.apply_number(&mut s, Some(Num::Int(0)), Some(Num::Int(u32::MAX.into())));
        assert_eq!(s.get(SERVED), Some(&serde_json::json!(["maximum"])));
        let mut out = Violations::new();
        c.check_number(Seen::Int(300), &Ptr::ROOT, &mut out);
        c.check_number(Seen::Int(0), &Ptr::ROOT, &mut out);
        let v = out.into_vec();
        assert!(v[0].served && !v[1].served, "{v:?}");
        assert_eq!(
            v[0].message,
            "is outside what the tool serves (at most 100)"
        );
        assert_eq!(
            v[0].hint,
            "300 is not served (the tool serves at most 100): tell the user so; never send another value in its place"
        );
        assert_eq!(v[1].message, "must be at least 1");
        let e = v[0].clone().into_error();
        assert!(e.constraint.is_some_and(|c| c.served));

        // The type's own bound is one of form, even on a served side.
        let loose = Constraints {
            minimum: Some(Num::Int(-5)),
            served: Served {
                min: true,
                max: false,
            },
            ..Constraints::NONE
        };
        let mut s = Map::new();
        loose.apply_number(&mut s, Some(Num::Int(0)), Some(Num::Int(255)));
        assert!(!s.contains_key(SERVED), "{s:?}");

        let secret = Constraints { secret: true, ..c };
        let mut out = Violations::new();
        secret.check_number(Seen::Int(300), &Ptr::ROOT, &mut out);
        let v = out.into_vec();
        assert!(v[0].actual.is_none() && !v[0].hint.contains("300"), "{v:?}");
    }

    #[test]
    fn length_from_bytes_agrees_with_counting() {
        let c = Constraints {
            min_length: Some(2),
            max_length: Some(3),
            ..Constraints::NONE
        };
        for (s, ok) in [
            ("a", false),
            ("ab", true),
            ("abc", true),
            ("abcd", false),
            ("éé", true),
            ("😀😀😀", true),
            ("😀😀😀😀", false),
            ("😀", false),
            ("ééé", true),
        ] {
            let mut out = Violations::new();
            c.check_string(s, &Ptr::ROOT, &mut out);
            assert_eq!(out.is_empty(), ok, "{s}");
        }
    }
}
