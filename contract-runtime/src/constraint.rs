//! Constraints declared once: each one produces its schema keyword and its runtime check.
//!
//! `#[arg(...)]` becomes a `static` [`Constraints`] value in generated code; the
//! schema stage ([`Constraints::apply_string`] and friends) and the validate stage
//! ([`crate::args::ArgValue::check`]) both read that one value, so the published
//! schema and the enforced rule cannot drift apart.

use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Value};

use crate::validate::{Ptr, Violations};

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

    fn as_f64(self) -> f64 {
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
    compiled: OnceLock<Result<Compiled, String>>,
}

struct Compiled {
    regex: Regex,
    /// The same language as `regex`, matched without the regex engine, when the
    /// pattern is simple enough (most argument patterns are).
    simple: Option<Simple>,
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

    fn compiled(&self) -> Result<&Compiled, &str> {
        self.compiled
            .get_or_init(|| {
                let regex = Regex::new(self.source).map_err(|e| e.to_string())?;
                Ok(Compiled { regex, simple: Simple::parse(self.source) })
            })
            .as_ref()
            .map_err(String::as_str)
    }

    /// The compiled regex. JSON Schema patterns are unanchored, like `Regex::is_match`.
    pub fn regex(&self) -> Result<&Regex, &str> {
        self.compiled().map(|c| &c.regex)
    }

    fn is_match(&self, s: &str) -> bool {
        // A pattern that does not compile was refused at registry build; match nothing.
        match self.compiled() {
            Ok(Compiled { simple: Some(simple), .. }) => simple.is_match(s.as_bytes()),
            Ok(c) => c.regex.is_match(s),
            Err(_) => false,
        }
    }
}

/// An anchored pattern `^...$` made only of ASCII literals and ASCII classes,
/// each with a repeat count, where a greedy left-to-right scan is the only way
/// to match: every piece of variable length is the last one or is followed by
/// a required piece whose characters it cannot take. It is matched byte by
/// byte, several times faster than the regex engine on short arguments (a
/// `sha256:` version string, a ticker symbol, a file name). Anything else
/// (flags, groups, alternation, `\d` and other Unicode-aware classes, negated
/// classes, set operations) is left to the regex engine.
#[derive(Debug, PartialEq)]
struct Simple {
    pieces: Vec<Piece>,
}

#[derive(Debug, PartialEq)]
struct Piece {
    /// Bit `b` is set when ASCII byte `b` matches.
    set: u128,
    min: u32,
    max: u32,
}

impl Simple {
    fn parse(src: &str) -> Option<Simple> {
        let body = src.strip_prefix('^')?.strip_suffix('$')?;
        let b = body.as_bytes();
        if !b.is_ascii() {
            return None;
        }
        let mut pieces = Vec::new();
        let mut i = 0;
        while i < b.len() {
            let set = match b[i] {
                b'[' => {
                    let (set, next) = class(b, i + 1)?;
                    i = next;
                    set
                }
                b'\\' => {
                    let c = *b.get(i + 1)?;
                    i += 2;
                    bit(escaped(c)?)
                }
                c if c.is_ascii_alphanumeric() || b" !\"#%&',-/:;<=>@_`~".contains(&c) => {
                    i += 1;
                    bit(c)
                }
                _ => return None,
            };
            let (min, max) = match b.get(i) {
                Some(b'?') => (0, 1),
                Some(b'*') => (0, u32::MAX),
                Some(b'+') => (1, u32::MAX),
                Some(b'{') => {
                    let close = i + b[i..].iter().position(|&c| c == b'}')?;
                    let inner = std::str::from_utf8(&b[i + 1..close]).ok()?;
                    let num = |t: &str| -> Option<u32> {
                        (!t.is_empty() && t.bytes().all(|c| c.is_ascii_digit())).then(|| t.parse().ok()).flatten()
                    };
                    let r = match inner.split_once(',') {
                        None => (num(inner)?, num(inner)?),
                        Some((lo, "")) => (num(lo)?, u32::MAX),
                        Some((lo, hi)) => (num(lo)?, num(hi)?),
                    };
                    i = close;
                    r
                }
                _ => {
                    i -= 1;
                    (1, 1)
                }
            };
            i += 1;
            // A lazy or possessive suffix (`{2}?`, `*+`) is the regex engine's business.
            if min > max || matches!(b.get(i), Some(b'?' | b'+' | b'*' | b'{')) {
                return None;
            }
            pieces.push(Piece { set, min, max });
        }
        // Greedy is exact only when no piece could give characters back to the next.
        for w in pieces.windows(2) {
            if w[0].min != w[0].max && (w[1].min == 0 || w[0].set & w[1].set != 0) {
                return None;
            }
        }
        Some(Simple { pieces })
    }

    fn is_match(&self, s: &[u8]) -> bool {
        let mut i = 0;
        for p in &self.pieces {
            let mut n = 0u32;
            while n < p.max && i < s.len() && s[i] < 128 && p.set >> s[i] & 1 == 1 {
                i += 1;
                n += 1;
            }
            if n < p.min {
                return false;
            }
        }
        i == s.len()
    }
}

fn bit(c: u8) -> u128 {
    1u128 << c
}

/// An escaped ASCII punctuation character stands for itself; escaped letters
/// and digits are classes or assertions, left to the regex engine.
fn escaped(c: u8) -> Option<u8> {
    (c.is_ascii_punctuation() || c == b' ').then_some(c)
}

/// A bracket class of ASCII literals and ranges, from just after `[`; the set
/// and the index after `]`. Negation, nesting, POSIX classes and set operations
/// (`&&`, `--`, `~~`) return `None`.
fn class(b: &[u8], mut i: usize) -> Option<(u128, usize)> {
    let mut set = 0u128;
    let mut first = true;
    loop {
        let c = *b.get(i)?;
        match c {
            b']' if !first => return Some((set, i + 1)),
            b'^' | b'[' | b']' | b'&' | b'~' => return None,
            _ => {}
        }
        first = false;
        let lo = if c == b'\\' {
            i += 2;
            escaped(*b.get(i - 1)?)?
        } else {
            i += 1;
            c
        };
        if b.get(i) == Some(&b'-') && b.get(i + 1).is_some_and(|&n| n != b']') {
            let hc = b[i + 1];
            let hi = if hc == b'\\' {
                i += 3;
                escaped(*b.get(i - 1)?)?
            } else if matches!(hc, b'-' | b'[' | b'&' | b'~') {
                return None;
            } else {
                i += 2;
                hc
            };
            if lo > hi {
                return None;
            }
            for x in lo..=hi {
                set |= bit(x);
            }
        } else {
            if c == b'-' && b.get(i) == Some(&b'-') {
                return None;
            }
            set |= bit(lo);
        }
    }
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

    /// Whether `s` has this format.
    pub fn matches(self, s: &str) -> bool {
        match self {
            Format::Date => crate::format::is_date(s),
            Format::DateTime => crate::format::is_date_time(s),
            Format::Time => crate::format::is_time(s),
            Format::Email => crate::format::is_email(s),
            Format::Uuid => crate::format::is_uuid(s),
            Format::Uri => crate::format::is_uri(s),
            Format::Ipv4 => s.parse::<std::net::Ipv4Addr>().is_ok(),
            Format::Ipv6 => s.parse::<std::net::Ipv6Addr>().is_ok(),
            Format::Hostname => crate::format::is_hostname(s),
        }
    }

    fn example(self) -> &'static str {
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
    };

    /// The constraints for list items (`each(...)`), or none.
    pub fn item_constraints(&self) -> &'static Constraints {
        self.items.unwrap_or(&Constraints::NONE)
    }

    /// Schema keywords for a string value.
    pub fn apply_string(&self, s: &mut Map<String, Value>) {
        put(s, "minLength", self.min_length.map(Value::from));
        put(s, "maxLength", self.max_length.map(Value::from));
        put(s, "pattern", self.pattern.map(|p| Value::from(p.source())));
        put(s, "format", self.format.map(|f| Value::from(f.name())));
    }

    /// Schema keywords for a number; `type_min`/`type_max` are the Rust type's own
    /// bounds, published so a validator rejects what the type cannot hold.
    pub fn apply_number(&self, s: &mut Map<String, Value>, type_min: Option<Num>, type_max: Option<Num>) {
        let (min, max) = self.published_range(type_min, type_max);
        put(s, "minimum", min.map(Num::to_json));
        put(s, "maximum", max.map(Num::to_json));
        put(s, "exclusiveMinimum", self.exclusive_minimum.map(Num::to_json));
        put(s, "exclusiveMaximum", self.exclusive_maximum.map(Num::to_json));
    }

    /// The `minimum` and `maximum` the schema publishes: the tighter of each
    /// declared bound and the type's own.
    pub fn published_range(&self, type_min: Option<Num>, type_max: Option<Num>) -> (Option<Num>, Option<Num>) {
        (tighter(self.minimum, type_min, true), tighter(self.maximum, type_max, false))
    }

    /// Schema keywords for a list.
    pub fn apply_list(&self, s: &mut Map<String, Value>) {
        put(s, "minItems", self.min_length.map(Value::from));
        put(s, "maxItems", self.max_length.map(Value::from));
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
            let settled = self.min_length.is_none_or(|m| bytes.div_ceil(4) >= m) && self.max_length.is_none_or(|m| bytes <= m);
            if !settled {
                let n = v.chars().count() as u64;
                self.check_len(n, "Length", "character", ptr, out);
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
                    format!("send a value that matches the regular expression {}", p.source()),
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
                    format!("send a {} such as {}", f.name(), f.example()),
                );
            }
        }
    }

    /// Checks a number against the declared range.
    pub fn check_number(&self, v: Seen, ptr: &Ptr<'_>, out: &mut Violations) {
        use std::cmp::Ordering::{Greater, Less};
        // (bound, keyword, whether an ordering of value vs bound breaks it, words)
        type Check = (Option<Num>, &'static str, fn(std::cmp::Ordering) -> bool, &'static str);
        let checks: [Check; 4] = [
            (self.minimum, "minimum", |o| o == Less, "at least"),
            (self.maximum, "maximum", |o| o == Greater, "at most"),
            (self.exclusive_minimum, "exclusiveMinimum", |o| o != Greater, "greater than"),
            (self.exclusive_maximum, "exclusiveMaximum", |o| o != Less, "less than"),
        ];
        for (bound, keyword, breaks, words) in checks {
            let Some(bound) = bound else { continue };
            if v.cmp(bound).is_none_or(breaks) {
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

    /// Checks a list's item count (uniqueness is checked by the list itself).
    pub fn check_items_len(&self, n: usize, ptr: &Ptr<'_>, out: &mut Violations) {
        self.check_len(n as u64, "Items", "item", ptr, out);
    }

    fn check_len(&self, n: u64, suffix: &str, unit: &str, ptr: &Ptr<'_>, out: &mut Violations) {
        let plural = |k: u64| if k == 1 { unit.to_string() } else { format!("{unit}s") };
        if let Some(min) = self.min_length.filter(|&m| n < m) {
            out.push(
                ptr,
                if suffix == "Length" { "minLength" } else { "minItems" },
                Value::from(min),
                Some(Value::from(n)),
                format!("must have at least {min} {}, got {n}", plural(min)),
                self.length_hint(unit),
            );
        }
        if let Some(max) = self.max_length.filter(|&m| n > m) {
            out.push(
                ptr,
                if suffix == "Length" { "maxLength" } else { "maxItems" },
                Value::from(max),
                Some(Value::from(n)),
                format!("must have at most {max} {}, got {n}", plural(max)),
                self.length_hint(unit),
            );
        }
    }

    fn length_hint(&self, unit: &str) -> String {
        match (self.min_length, self.max_length) {
            (Some(a), Some(b)) => format!("send {a} to {b} {unit}s"),
            (Some(a), None) => format!("send at least {a} {unit}s"),
            (None, Some(b)) => format!("send at most {b} {unit}s"),
            (None, None) => String::new(),
        }
    }

    fn range_hint(&self) -> String {
        let lo = self
            .minimum
            .map(|m| format!("at least {}", m.to_json()))
            .or(self.exclusive_minimum.map(|m| format!("greater than {}", m.to_json())));
        let hi = self
            .maximum
            .map(|m| format!("at most {}", m.to_json()))
            .or(self.exclusive_maximum.map(|m| format!("less than {}", m.to_json())));
        match (lo, hi) {
            (Some(a), Some(b)) => format!("send a number {a} and {b}"),
            (Some(a), None) | (None, Some(a)) => format!("send a number {a}"),
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
            let d_tighter = if lower { d.as_f64() >= t.as_f64() } else { d.as_f64() <= t.as_f64() };
            Some(if d_tighter { d } else { t })
        }
        (d, t) => d.or(t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every string over a small alphabet up to `len`, plus some longer ones.
    fn inputs() -> Vec<String> {
        let alphabet = ["", "a", "Z", "0", "9", "-", "_", ".", ":", " ", "é", "\n", "\0", "m", "d", "sha256:", "f"];
        let mut out: Vec<String> = vec![String::new()];
        let mut layer = out.clone();
        for _ in 0..3 {
            layer = layer.iter().flat_map(|p| alphabet.iter().map(move |a| format!("{p}{a}"))).collect();
            out.extend(layer.iter().cloned());
        }
        for n in [1, 5, 6, 31, 32, 33, 63, 64, 65] {
            out.push("a".repeat(n));
            out.push(format!("a{}.md", "b".repeat(n)));
            out.push(format!("sha256:{}", "0a".repeat(n / 2 + 1)[..n].to_string()));
            out.push("Q".repeat(n));
        }
        out.push(format!("sha256:{}", "0".repeat(64)));
        out.push(format!("sha256:{}\n", "0".repeat(64)));
        out
    }

    #[test]
    fn simple_patterns_match_exactly_what_the_regex_matches() {
        let simple = [
            "^sha256:[0-9a-f]{64}$",
            "^[A-Z]{1,5}$",
            r"^[a-z0-9][a-z0-9_-]{0,63}\.md$",
            "^[a-z][a-z0-9-]{0,31}$",
            "^a?b+:c*$",
            "^[-a]{2,}:$",
            "^$",
            "^[a-]x{0}$",
            "^d{3}-[0-9]{4}$",
        ];
        let inputs = inputs();
        for src in simple {
            let s = Simple::parse(src).unwrap_or_else(|| panic!("{src} is simple"));
            let re = Regex::new(src).unwrap();
            for i in &inputs {
                assert_eq!(s.is_match(i.as_bytes()), re.is_match(i), "{src} on {i:?}");
            }
        }
    }

    #[test]
    fn other_patterns_go_to_the_regex_engine() {
        for src in [
            "[a-z]+",           // unanchored
            "^[a-z]+",          // no end anchor
            "^\\d{3}$",         // Unicode digits
            "^[^\\x00]*$",      // negated
            "^[a-z]*a$",        // greedy would have to give back
            "^a*a?$",           // next piece optional
            "^(ab)+$",          // group
            "^a|b$",            // alternation
            "^.+$",             // any
            "^[[:alpha:]]$",    // POSIX class
            "^[a-z&&[^x]]$",    // set operation
            "^[a--b]$",         // set difference
            "^(?i)abc$",        // flags
            "^a{2}?$",          // lazy
            "^é$",              // non-ASCII
            "^\\x41$",          // escape with a letter
        ] {
            assert_eq!(Simple::parse(src), None, "{src}");
        }
    }

    #[test]
    fn length_from_bytes_agrees_with_counting() {
        let c = Constraints { min_length: Some(2), max_length: Some(3), ..Constraints::NONE };
        for (s, ok) in [("a", false), ("ab", true), ("abc", true), ("abcd", false), ("éé", true), ("😀😀😀", true), ("😀😀😀😀", false), ("😀", false), ("ééé", true)] {
            let mut out = Violations::new();
            c.check_string(s, &Ptr::ROOT, &mut out);
            assert_eq!(out.is_empty(), ok, "{s}");
        }
    }
}
