//! Proof that the published schema and the runtime agree.
//!
//! For every toolbox tool this test walks the canonical input schema and
//! generates argument objects: valid ones (at each bound and inside), values
//! just past each bound, pattern- and format-breaking strings, every wrong JSON
//! type, `null` and missing required fields, extra fields, pairs of violations,
//! and a seeded pseudo-random mutation pass. Each case is decoded by the runtime
//! (`decode_args` for the tool's argument type) and validated by the `jsonschema`
//! crate against the exported schema, with formats on. Accept/reject must match
//! for every case, and every runtime rejection must name keywords (at pointers)
//! that the schema validator reports too, with the limit the schema publishes.

use toolbox as tools;

#[path = "common/reminders.rs"]
mod reminders;

use std::collections::BTreeSet;

use contract_runtime::decode::{decode_args, DecodeError, Limits};
use contract_runtime::envelope::ErrorEntry;
use contract_runtime::ToolArgs;
use serde_json::{json, Map, Value};

// ------------------------------------------------------------------ runtime side

/// The runtime's verdict: `Ok` or every error it reports.
fn runtime(tool: &str, raw: &str) -> Result<(), Vec<ErrorEntry>> {
    fn run<T: ToolArgs>(raw: &str) -> Result<(), Vec<ErrorEntry>> {
        decode_args::<T>(raw, &Limits::default())
            .map(|_| ())
            .map_err(DecodeError::into_errors)
    }
    match tool {
        "search_notes" => run::<tools::SearchNotesArgs>(raw),
        "read_file" => run::<tools::ReadFileArgs>(raw),
        "replace_text" => run::<tools::ReplaceTextArgs>(raw),
        "list_filings" => run::<tools::ListFilingsArgs>(raw),
        "tag_notes" => run::<tools::TagNotesArgs>(raw),
        "delete_note" => run::<tools::DeleteNoteArgs>(raw),
        "post_comment" => run::<tools::PostCommentArgs>(raw),
        "git_log" => run::<tools::GitLogArgs>(raw),
        "rules" => run::<RulesArgs>(raw),
        "schedule_reminder" => run::<reminders::ScheduleReminderArgs>(raw),
        "dates" => run::<DatesArgs>(raw),
        "formats" => run::<FormatsArgs>(raw),
        other => panic!("the test does not know the tool `{other}`; add its argument type"),
    }
}

/// Every rule across arguments that JSON Schema can express, on arguments of
/// several types, for [`rules_agree`].
#[derive(contract_runtime::ToolArgs)]
#[args(rules(
    exactly_one_of(channel, thread),
    at_most_one_of(urgent, quiet, digest),
    requires(page => per_page, sort),
    requires(digest => per_page)
))]
pub struct RulesArgs {
    /// A channel.
    #[arg(length(min = 1, max = 8))]
    pub channel: Option<String>,
    /// A thread.
    #[arg(range(min = 1))]
    pub thread: Option<u32>,
    /// Urgent only.
    pub urgent: Option<bool>,
    /// Quiet only.
    pub quiet: Option<bool>,
    /// As a digest.
    pub digest: Option<bool>,
    /// The page.
    pub page: Option<u32>,
    /// Items per page.
    #[arg(range(min = 1, max = 50))]
    pub per_page: Option<u32>,
    /// The order.
    #[arg(pattern = "^(asc|desc)$")]
    pub sort: Option<String>,
}

/// Dates, date-times and times of day of every date crate, without bounds
/// (no validator reads `formatMinimum`): each crate's strict parsing against
/// the `jsonschema` crate's `date`/`date-time` formats and the time-of-day
/// pattern, for [`dates_agree`].
#[derive(contract_runtime::ToolArgs)]
pub struct DatesArgs {
    /// A chrono date.
    pub chrono_date: chrono::NaiveDate,
    /// A chrono date-time with an offset.
    pub chrono_at: chrono::DateTime<chrono::FixedOffset>,
    /// A chrono time of day.
    pub chrono_time: chrono::NaiveTime,
    /// A jiff date.
    pub jiff_date: jiff::civil::Date,
    /// A jiff instant.
    pub jiff_at: jiff::Timestamp,
    /// A jiff time of day.
    pub jiff_time: jiff::civil::Time,
    /// A time date.
    pub time_date: time::Date,
    /// A time date-time with an offset.
    pub time_at: time::OffsetDateTime,
    /// A time time of day.
    pub time_time: time::Time,
}

/// A string of every format the runtime checks, for [`formats_agree`]:
/// each check against the `jsonschema` crate's, with formats on.
#[derive(contract_runtime::ToolArgs)]
pub struct FormatsArgs {
    /// An address.
    #[arg(format = "email")]
    pub email: String,
    /// A link.
    #[arg(format = "uri")]
    pub uri: String,
    /// An id.
    #[arg(format = "uuid")]
    pub uuid: String,
    /// A day.
    #[arg(format = "date")]
    pub date: String,
    /// An instant.
    #[arg(format = "date-time")]
    pub date_time: String,
    /// A time with its offset.
    #[arg(format = "time")]
    pub time: String,
    /// An IPv4 address.
    #[arg(format = "ipv4")]
    pub ipv4: String,
    /// An IPv6 address.
    #[arg(format = "ipv6")]
    pub ipv6: String,
    /// A host.
    #[arg(format = "hostname")]
    pub hostname: String,
}

/// The rule keywords: the validator reports them at the object, the runtime
/// at each argument involved, with the arguments (or the dependency map) as
/// the limit.
const RULE_KEYWORDS: &[&str] = &["oneOf", "not", "then"];

// ------------------------------------------------------------------ xorshift

/// xorshift64*: a tiny seeded generator, so every run checks the same cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

// ------------------------------------------------------------------ a regex sampler

/// One atom of the simple regex subset the toolbox patterns use.
#[derive(Clone, Debug)]
enum Atom {
    Lit(char),
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
    Any,
}

impl Atom {
    fn contains(&self, c: char) -> bool {
        match self {
            Atom::Lit(l) => *l == c,
            Atom::Class { negated, ranges } => {
                ranges.iter().any(|&(a, b)| a <= c && c <= b) != *negated
            }
            Atom::Any => c != '\n',
        }
    }
    fn sample(&self, rng: &mut Rng) -> char {
        match self {
            Atom::Lit(c) => *c,
            Atom::Class {
                negated: false,
                ranges,
            } => {
                let (a, b) = *rng.pick(ranges);
                let span = b as u32 - a as u32 + 1;
                char::from_u32(a as u32 + (rng.next() % u64::from(span)) as u32).unwrap_or(a)
            }
            Atom::Class { negated: true, .. } | Atom::Any => {
                let pool = ['a', 'Z', '0', '.', '/', ' ', 'é', '😀', '-', '_'];
                let c = *rng.pick(&pool);
                if self.contains(c) {
                    c
                } else {
                    'a'
                }
            }
        }
    }
    /// A character the atom does not match, if one exists among the usual suspects.
    fn outsider(&self, rng: &mut Rng) -> Option<char> {
        let pool = [
            'A', 'a', 'z', '0', '9', '-', '_', '.', ' ', 'é', '😀', '\0', '\n', 'g', 'Z', '/', '#',
        ];
        let outs: Vec<char> = pool
            .iter()
            .copied()
            .filter(|c| !self.contains(*c))
            .collect();
        (!outs.is_empty()).then(|| *rng.pick(&outs))
    }
}

#[derive(Clone, Debug)]
struct Piece {
    atom: Atom,
    min: usize,
    max: Option<usize>,
}

#[derive(Clone, Debug)]
struct Regex {
    start: bool,
    end: bool,
    pieces: Vec<Piece>,
}

/// Parses `^`, `$`, literals, `.`, `\x..`, `\d`, escaped punctuation, classes
/// with ranges, and the quantifiers `? * + {m} {m,} {m,n}`; `None` for anything else.
fn parse_regex(src: &str) -> Option<Regex> {
    let chars: Vec<char> = src.chars().collect();
    let mut i = 0;
    let mut re = Regex {
        start: false,
        end: false,
        pieces: Vec::new(),
    };
    if chars.first() == Some(&'^') {
        re.start = true;
        i = 1;
    }
    let escape = |chars: &[char], i: &mut usize| -> Option<Atom> {
        // chars[*i] is the backslash.
        let c = *chars.get(*i + 1)?;
        *i += 2;
        Some(match c {
            'x' => {
                let hex: String = chars.get(*i..*i + 2)?.iter().collect();
                *i += 2;
                Atom::Lit(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?)
            }
            'd' => Atom::Class {
                negated: false,
                ranges: vec![('0', '9')],
            },
            'n' => Atom::Lit('\n'),
            't' => Atom::Lit('\t'),
            c if c.is_ascii_alphanumeric() => return None,
            c => Atom::Lit(c),
        })
    };
    while i < chars.len() {
        let c = chars[i];
        let atom = match c {
            '$' if i + 1 == chars.len() => {
                re.end = true;
                break;
            }
            '[' => {
                i += 1;
                let negated = chars.get(i) == Some(&'^');
                if negated {
                    i += 1;
                }
                let mut ranges = Vec::new();
                let mut first = true;
                loop {
                    let c = *chars.get(i)?;
                    if c == ']' && !first {
                        i += 1;
                        break;
                    }
                    first = false;
                    let lo = if c == '\\' {
                        match escape(&chars, &mut i)? {
                            Atom::Lit(l) => l,
                            Atom::Class { ranges: r, .. } => {
                                ranges.extend(r);
                                continue;
                            }
                            Atom::Any => return None,
                        }
                    } else {
                        i += 1;
                        c
                    };
                    if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&n| n != ']') {
                        i += 1;
                        let hc = chars[i];
                        let hi = if hc == '\\' {
                            match escape(&chars, &mut i)? {
                                Atom::Lit(l) => l,
                                _ => return None,
                            }
                        } else {
                            i += 1;
                            hc
                        };
                        ranges.push((lo, hi));
                    } else {
                        ranges.push((lo, lo));
                    }
                }
                Atom::Class { negated, ranges }
            }
            '\\' => escape(&chars, &mut i)?,
            '.' => {
                i += 1;
                Atom::Any
            }
            '(' | ')' | '|' | '*' | '+' | '?' | '{' | '^' | '$' => return None,
            c => {
                i += 1;
                Atom::Lit(c)
            }
        };
        let (min, max) = match chars.get(i) {
            Some('?') => {
                i += 1;
                (0, Some(1))
            }
            Some('*') => {
                i += 1;
                (0, None)
            }
            Some('+') => {
                i += 1;
                (1, None)
            }
            Some('{') => {
                let close = chars[i..].iter().position(|&c| c == '}')? + i;
                let body: String = chars[i + 1..close].iter().collect();
                i = close + 1;
                match body.split_once(',') {
                    None => {
                        let n = body.parse().ok()?;
                        (n, Some(n))
                    }
                    Some((a, "")) => (a.parse().ok()?, None),
                    Some((a, b)) => (a.parse().ok()?, Some(b.parse().ok()?)),
                }
            }
            _ => (1, Some(1)),
        };
        re.pieces.push(Piece { atom, min, max });
    }
    Some(re)
}

impl Regex {
    fn render(&self, counts: &[usize], rng: &mut Rng) -> String {
        let mut s = String::new();
        for (p, &n) in self.pieces.iter().zip(counts) {
            for _ in 0..n {
                s.push(p.atom.sample(rng));
            }
        }
        s
    }

    /// Strings that should match: every piece at its minimum, at its maximum, and random counts.
    fn matching(&self, rng: &mut Rng, n: usize) -> Vec<String> {
        let mins: Vec<usize> = self.pieces.iter().map(|p| p.min).collect();
        let maxs: Vec<usize> = self
            .pieces
            .iter()
            .map(|p| p.max.unwrap_or(p.min + 3))
            .collect();
        let mut out = vec![self.render(&mins, rng), self.render(&maxs, rng)];
        for _ in 0..n {
            let counts: Vec<usize> = self
                .pieces
                .iter()
                .map(|p| {
                    let hi = p.max.unwrap_or(p.min + 4);
                    p.min + rng.below(hi - p.min + 1)
                })
                .collect();
            out.push(self.render(&counts, rng));
        }
        out
    }

    /// Strings just past the pattern: a piece one short or one long, a character
    /// outside a class, and text before or after an anchor.
    fn breaking(&self, rng: &mut Rng) -> Vec<String> {
        let mins: Vec<usize> = self.pieces.iter().map(|p| p.min.max(1)).collect();
        let mut out = Vec::new();
        for (i, p) in self.pieces.iter().enumerate() {
            if p.min > 0 {
                let mut c = mins.clone();
                c[i] = p.min - 1;
                out.push(self.render(&c, rng));
            }
            if let Some(max) = p.max {
                let mut c = mins.clone();
                c[i] = max + 1;
                out.push(self.render(&c, rng));
            }
            if let Some(bad) = p.atom.outsider(rng) {
                let mut s = String::new();
                for (j, q) in self.pieces.iter().enumerate() {
                    for k in 0..mins[j] {
                        s.push(if j == i && k == 0 {
                            bad
                        } else {
                            q.atom.sample(rng)
                        });
                    }
                }
                out.push(s);
            }
        }
        let ok = self.render(&mins, rng);
        for (pre, post) in [
            ("x", ""),
            (" ", ""),
            ("", "x"),
            ("", " "),
            ("", "\n"),
            ("\n", ""),
        ] {
            out.push(format!("{pre}{ok}{post}"));
        }
        out.push(String::new());
        out
    }
}

// ------------------------------------------------------------------ candidate values

/// The keywords the runtime may name besides the ones a property schema carries.
const STRUCTURAL: &[&str] = &["type", "required", "additionalProperties"];

fn wrong_types() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(false),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(""),
        json!("x"),
        json!([]),
        json!(["x"]),
        json!({}),
        json!({"a": 1}),
    ]
}

fn format_samples(format: &str) -> Vec<String> {
    let v: &[&str] = match format {
        "uuid" => &[
            "123e4567-e89b-12d3-a456-426614174000",
            "123E4567-E89B-12D3-A456-426614174000",
            "00000000-0000-0000-0000-000000000000",
            "ffffffff-ffff-ffff-ffff-ffffffffffff",
            "123e4567e89b12d3a456426614174000",
            "123e4567-e89b-12d3-a456-42661417400",
            "123e4567-e89b-12d3-a456-4266141740000",
            "123e4567-e89b-12d3-a456-42661417400g",
            "{123e4567-e89b-12d3-a456-426614174000}",
            "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
            " 123e4567-e89b-12d3-a456-426614174000",
            "123e4567-e89b-12d3-a456-426614174000\n",
            "123e4567-e89b12d3-a456-426614174000-",
            "123e4567-e89b-12d3-a456_426614174000",
            "123e4567-e89b-12d3-a456-4266141740０0",
        ],
        "date" => &[
            "2024-01-31",
            "2024-02-29",
            "2023-02-29",
            "2024-13-01",
            "2024-1-01",
            "24-01-01",
            "2024-01-31T00:00:00Z",
            "0000-01-01",
            "9999-12-31",
            "1900-02-29",
            "2000-02-29",
        ],
        "date-time" => &[
            "2024-01-31T09:30:00Z",
            "2024-01-31T09:30:00.5+02:00",
            "2024-01-31 09:30:00",
            "2024-01-31T25:00:00Z",
            "2024-01-31t09:30:00z",
            "2024-01-31T09:30:00-00:00",
            "2024-01-31T09:30:00.123456789+05:45",
            "2024-01-31T09:30:00.1234567891Z",
            "2024-01-31T09:30:00+24:00",
            "2024-01-31T09:30Z",
            "2016-12-31T23:59:60Z",
            // Second 60 only at 23:59 UTC, once the offset is applied.
            "1998-12-31T22:59:60Z",
            "1998-12-31T23:58:60Z",
            "1998-12-31T23:59:60+01:00",
            "1998-12-31T15:59:60-08:00",
            "0000-01-01T00:00:00Z",
            // The last instant jiff holds is 9999-12-30T22:00:00Z
            // (docs/attributes.md); the other crates go to the end of 9999.
            "9999-12-30T21:59:59.999Z",
        ],
        "time" => &[
            "09:30:00Z",
            "09:30:00+02:00",
            "25:00:00Z",
            "09:30:00",
            "23:59:60Z",
            "23:58:60Z",
            "22:59:60Z",
            "23:59:60+01:00",
            "22:59:60-01:00",
        ],
        "email" => &[
            "name@example.com",
            "a b@example.com",
            "ab.example.com",
            "a@b",
            "\"joe bloggs\"@example.com",
            "\"joe\"\"bloggs\"@example.com",
            "te~st@example.com",
            "a@[127.0.0.1]",
        ],
        "uri" => &[
            "https://example.com/path",
            "no scheme",
            "mailto:a@b.c",
            "1http://x",
            "http://example.com/%zz",
            "http://example.com/%41",
            "http://ü.de/",
            "http://x/\\y",
            "http://x/a b",
            "urn:isbn:0451450523",
            "http://[::1]:80/p?q=1#f",
            "http://x/{a}",
            "http://x/a|b",
        ],
        "ipv4" => &["192.0.2.1", "256.0.0.1", "1.2.3"],
        "ipv6" => &["2001:db8::1", "2001:db8:::1", "::"],
        "hostname" => &["example.com", "-bad.com", "a..b"],
        _ => &[],
    };
    v.iter().map(|s| s.to_string()).collect()
}

fn num(s: &Map<String, Value>, k: &str) -> Option<f64> {
    s.get(k).and_then(Value::as_f64)
}

fn int(s: &Map<String, Value>, k: &str) -> Option<u64> {
    s.get(k).and_then(Value::as_u64)
}

/// Candidate strings for a string schema: around every length bound, pattern
/// samples and breakers, format samples and breakers, and a generic pool.
/// The pattern a time of day publishes.
const TIME_OF_DAY: &str = "^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?$";

fn string_candidates(s: &Map<String, Value>, rng: &mut Rng) -> Vec<Value> {
    let mut out: Vec<String> = Vec::new();
    let regex = s
        .get("pattern")
        .and_then(Value::as_str)
        .and_then(parse_regex);
    if let Some(re) = &regex {
        out.extend(re.matching(rng, 6));
        out.extend(re.breaking(rng));
    }
    let filler = |n: u64, c: char| -> String { std::iter::repeat_n(c, n as usize).collect() };
    let mut lengths: Vec<u64> = Vec::new();
    if let Some(min) = int(s, "minLength") {
        lengths.extend([min.saturating_sub(1), min, min + 1]);
    }
    if let Some(max) = int(s, "maxLength") {
        lengths.extend([max.saturating_sub(1), max, max + 1]);
    }
    for &n in &lengths {
        for c in ['a', 'é', '😀'] {
            out.push(filler(n, c));
        }
        // Length bounds on a patterned string: stretch a matching sample.
        if let Some(re) = &regex {
            let mut base = re.matching(rng, 0).remove(0);
            let cur = base.chars().count() as u64;
            if cur < n {
                base.extend(std::iter::repeat_n('a', (n - cur) as usize));
            }
            out.push(base.chars().take(n as usize).collect());
        }
    }
    if let Some(f) = s.get("format").and_then(Value::as_str) {
        out.extend(format_samples(f));
    }
    // A time of day's pattern (an alternation this sampler does not read).
    if s.get("pattern").and_then(Value::as_str) == Some(TIME_OF_DAY) {
        out.extend(
            [
                "09:30:00",
                "00:00:00",
                "23:59:59.999999999",
                "12:00:00.5",
                "09:30:00Z",
                "09:30:00+02:00",
                "24:00:00",
                "23:59:60",
                "09:30:00.1234567890",
                "9:30:00",
                "09:30",
                "09:30:00.",
                "09:60:00",
            ]
            .map(str::to_owned),
        );
    }
    for g in [
        "",
        " ",
        "a",
        "A",
        "kv",
        "hello world",
        "\0",
        "a\0b",
        "\n",
        "x\n",
        "../x",
        "/etc/passwd",
        "a/b.md",
        "é",
        "😀",
        "\u{feff}",
    ] {
        out.push(g.to_string());
    }
    let mut vals: Vec<Value> = out.into_iter().map(Value::from).collect();
    vals.extend(wrong_types().into_iter().filter(|v| !v.is_string()));
    vals
}

/// Candidate numbers: each bound, one either side, halfway values, integral
/// floats, the edges of the integer types, and wrong types.
fn number_candidates(s: &Map<String, Value>, integer: bool) -> Vec<Value> {
    let mut out: Vec<Value> = vec![
        json!(0),
        json!(-1),
        json!(1),
        json!(0.0),
        json!(-0.0),
        json!(1.5),
        json!(i64::MAX),
        json!(i64::MIN),
        json!(u64::MAX),
        json!(1e20),
        json!(-1e20),
        json!(1.0e300),
    ];
    for k in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
        let Some(b) = s.get(k) else { continue };
        if let Some(i) = b.as_i64() {
            for d in [-2i64, -1, 0, 1, 2] {
                out.push(json!(i.saturating_add(d)));
            }
            out.push(json!(i as f64));
            out.push(json!(i as f64 + 0.5));
            out.push(json!(i as f64 - 0.5));
            out.push(json!(i as f64 + 1e-9));
            out.push(json!(i.to_string()));
        }
        if let Some(f) = b.as_f64() {
            out.push(json!(f));
            out.push(json!(f * 10.0));
        }
    }
    if let (Some(lo), Some(hi)) = (num(s, "minimum"), num(s, "maximum")) {
        let mid = ((lo + hi) / 2.0).floor();
        out.push(if integer {
            json!(mid as i64)
        } else {
            json!(mid)
        });
    }
    out.extend(wrong_types().into_iter().filter(|v| !v.is_number()));
    out
}

/// Candidate arrays: item counts around each bound, duplicates, every item
/// candidate in place, wrong item types, and wrong types for the array.
fn array_candidates(
    s: &Map<String, Value>,
    rng: &mut Rng,
    oracle: &dyn Fn(&Value, &Value) -> bool,
) -> Vec<Value> {
    let items = s.get("items").cloned().unwrap_or(json!({}));
    let item_cands = candidates(&items, rng, oracle);
    // Distinct valid items, to build lists of any length.
    let mut good: Vec<Value> = Vec::new();
    for v in &item_cands {
        if oracle(&items, v) && !good.contains(v) {
            good.push(v.clone());
        }
    }
    let items_obj = items.as_object().cloned().unwrap_or_default();
    let mut tries = 0;
    let target = int(s, "maxItems").unwrap_or(8) as usize + 2;
    while good.len() < target && tries < 10_000 {
        tries += 1;
        if let Some(re) = items_obj
            .get("pattern")
            .and_then(Value::as_str)
            .and_then(parse_regex)
        {
            let v = Value::from(re.matching(rng, 1).pop().unwrap_or_default());
            if oracle(&items, &v) && !good.contains(&v) {
                good.push(v);
            }
        } else {
            break;
        }
    }
    let list = |n: usize| -> Value {
        Value::Array(
            good.iter()
                .cycle()
                .take(n.min(good.len()))
                .cloned()
                .collect(),
        )
    };
    let mut out = Vec::new();
    let mut counts: Vec<usize> = vec![0, 1, 2, 3];
    if let Some(min) = int(s, "minItems") {
        counts.extend([
            (min as usize).saturating_sub(1),
            min as usize,
            min as usize + 1,
        ]);
    }
    if let Some(max) = int(s, "maxItems") {
        counts.extend([
            (max as usize).saturating_sub(1),
            max as usize,
            max as usize + 1,
        ]);
    }
    for n in counts {
        out.push(list(n));
        // The same length with a repeat in it.
        if n >= 2 && !good.is_empty() {
            let mut l: Vec<Value> = good.iter().take(n - 1).cloned().collect();
            l.push(good[0].clone());
            out.push(Value::Array(l));
        }
    }
    if let Some(g) = good.first() {
        out.push(json!([g, g]));
        out.push(json!([g, g, g]));
        // One bad item among good ones, at the front and at the back.
        for bad in &item_cands {
            out.push(json!([bad]));
            if good.len() >= 2 {
                out.push(json!([bad, good[1]]));
                out.push(json!([good[1], bad, bad]));
            }
        }
    }
    out.push(json!([[]]));
    out.push(json!([null]));
    out.extend(wrong_types().into_iter().filter(|v| !v.is_array()));
    out
}

/// Objects for an object schema: one with every property at a valid value,
/// then each property at each of its candidates, left out, and an extra key.
fn object_candidates(
    s: &Map<String, Value>,
    rng: &mut Rng,
    oracle: &dyn Fn(&Value, &Value) -> bool,
) -> Vec<Value> {
    let props: Vec<(String, Value)> = s
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    let mut base = Map::new();
    let mut each = Vec::new();
    for (k, ps) in &props {
        let all = candidates(ps, rng, oracle);
        if let Some(g) = all.iter().find(|v| oracle(ps, v) && !v.is_null()) {
            base.insert(k.clone(), g.clone());
        }
        each.push((k.clone(), all));
    }
    let mut out = vec![Value::Object(base.clone())];
    for (k, all) in each {
        for v in all {
            let mut m = base.clone();
            m.insert(k.clone(), v);
            out.push(Value::Object(m));
        }
        let mut m = base.clone();
        m.remove(&k);
        out.push(Value::Object(m));
    }
    let mut m = base;
    m.insert("extra".into(), json!(1));
    out.push(Value::Object(m));
    out
}

/// Values for a tagged enum (`oneOf` of objects told apart by a tag):
/// every branch's objects, then the first branch's with the tag wrong,
/// misspelled, of the wrong type, left out, or naming another branch.
fn tagged_candidates(
    s: &Map<String, Value>,
    branches: &[Value],
    rng: &mut Rng,
    oracle: &dyn Fn(&Value, &Value) -> bool,
) -> Vec<Value> {
    let tag = s["discriminator"]["propertyName"]
        .as_str()
        .expect("a tagged enum names its tag")
        .to_owned();
    let mut out = Vec::new();
    let mut firsts = Vec::new();
    for b in branches {
        let objs = object_candidates(b.as_object().expect("an object branch"), rng, oracle);
        firsts.push(objs[0].clone());
        out.extend(objs);
    }
    let first = firsts[0].as_object().cloned().unwrap_or_default();
    let other = firsts
        .last()
        .and_then(|o| o.get(&tag))
        .cloned()
        .unwrap_or_default();
    for t in [
        json!("nope"),
        json!(first[&tag].as_str().unwrap_or("").to_uppercase()),
        json!(1),
        Value::Null,
        other,
    ] {
        let mut m = first.clone();
        m.insert(tag.clone(), t);
        out.push(Value::Object(m));
    }
    let mut m = first;
    m.remove(&tag);
    out.push(Value::Object(m));
    out.extend(wrong_types());
    let mut seen = BTreeSet::new();
    out.retain(|v| seen.insert(v.to_string()));
    out
}

/// Candidate values for any property schema.
fn candidates(s: &Value, rng: &mut Rng, oracle: &dyn Fn(&Value, &Value) -> bool) -> Vec<Value> {
    let Some(obj) = s.as_object() else {
        return wrong_types();
    };
    // A union (an optional tagged enum: the enum or null): every branch's.
    if let Some(Value::Array(branches)) = obj.get("anyOf") {
        let mut out: Vec<Value> = branches
            .iter()
            .flat_map(|b| candidates(b, rng, oracle))
            .collect();
        let mut seen = BTreeSet::new();
        out.retain(|v| seen.insert(v.to_string()));
        return out;
    }
    if let Some(Value::Array(branches)) = obj.get("oneOf") {
        return tagged_candidates(obj, branches, rng, oracle);
    }
    let ty = obj.get("type").and_then(Value::as_str).unwrap_or("");
    let mut out = match ty {
        "object" => object_candidates(obj, rng, oracle),
        "string" => string_candidates(obj, rng),
        "integer" => number_candidates(obj, true),
        "number" => number_candidates(obj, false),
        "array" => array_candidates(obj, rng, oracle),
        "boolean" => {
            let mut v = vec![json!(true), json!(false)];
            v.extend(wrong_types().into_iter().filter(|v| !v.is_boolean()));
            v
        }
        _ => wrong_types(),
    };
    if let Some(Value::Array(e)) = obj.get("enum") {
        out.extend(e.iter().cloned());
        out.push(json!("not-a-member"));
    }
    if let Some(c) = obj.get("const") {
        out.push(c.clone());
    }
    let mut seen = BTreeSet::new();
    out.retain(|v| seen.insert(v.to_string()));
    out
}

// ------------------------------------------------------------------ schema helpers

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|e| panic!("the schema compiles: {e}\n{schema:#}"))
}

/// Every keyword name used anywhere in the schema.
fn keywords_in(s: &Value, out: &mut BTreeSet<String>) {
    match s {
        Value::Object(m) => {
            for (k, v) in m {
                if k == "properties" {
                    if let Value::Object(props) = v {
                        props.values().for_each(|p| keywords_in(p, out));
                    }
                    out.insert(k.clone());
                    continue;
                }
                out.insert(k.clone());
                keywords_in(v, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| keywords_in(v, out)),
        _ => {}
    }
}

/// The sub-schema that describes the value at `pointer` of `instance`:
/// through a union, the branch the instance takes (a tagged enum's branch
/// by its tag).
fn schema_at<'a>(schema: &'a Value, pointer: &str, instance: Option<&Value>) -> Option<&'a Value> {
    let node = node_at(schema, pointer, instance)?;
    let inst = instance.and_then(|i| i.pointer(pointer));
    Some(branch_for(node, inst))
}

/// [`schema_at`], the last node as the schema has it (a union unresolved).
fn node_at<'a>(schema: &'a Value, pointer: &str, instance: Option<&Value>) -> Option<&'a Value> {
    let mut cur = schema;
    let mut inst = instance;
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        cur = branch_for(cur, inst);
        let array = match cur.get("type") {
            Some(Value::Array(ts)) => ts.contains(&json!("array")),
            t => t == Some(&json!("array")),
        };
        cur = if array {
            cur.get("items")?
        } else {
            cur.get("properties")?.get(&seg)?
        };
        inst = inst.and_then(|i| match i {
            Value::Array(a) => seg.parse::<usize>().ok().and_then(|n| a.get(n)),
            v => v.get(&seg),
        });
    }
    Some(cur)
}

/// The branch of a union that describes `instance` (the node itself when
/// it is no union).
fn branch_for<'a>(node: &'a Value, instance: Option<&Value>) -> &'a Value {
    if let Some(Value::Array(any)) = node.get("anyOf") {
        if let Some(b) = any.iter().find(|b| b.get("type") != Some(&json!("null"))) {
            return branch_for(b, instance);
        }
    }
    if let (Some(Value::Array(one)), Some(tag)) = (
        node.get("oneOf"),
        node.pointer("/discriminator/propertyName")
            .and_then(Value::as_str),
    ) {
        let sent = instance.and_then(|i| i.get(tag));
        if let Some(b) = one
            .iter()
            .find(|b| b.pointer(&format!("/properties/{tag}/const")) == sent)
        {
            return b;
        }
    }
    node
}

/// The pointer of the tagged enum (a `oneOf` node) at or above `pointer`, if any.
fn tagged_above(schema: &Value, pointer: &str, instance: Option<&Value>) -> Option<String> {
    let segs: Vec<&str> = pointer.split('/').skip(1).collect();
    (0..=segs.len()).find_map(|n| {
        let p: String = segs[..n].iter().map(|s| format!("/{s}")).collect();
        let node = node_at(schema, &p, instance)?;
        let node = match node.get("anyOf") {
            Some(Value::Array(any)) => any.iter().find(|b| b.get("oneOf").is_some())?,
            _ => node,
        };
        node.get("oneOf").is_some().then_some(p)
    })
}

fn parent(pointer: &str) -> &str {
    pointer.rsplit_once('/').map_or("", |(p, _)| p)
}

// ------------------------------------------------------------------ the test

struct Tally {
    cases: usize,
    accepted: usize,
    disagreements: Vec<String>,
    /// Cases where the schema validator reported a (pointer, keyword) the runtime did not.
    less_complete: usize,
    /// Those extra keywords, with how often each was missed (`keyword: example`).
    missed: std::collections::BTreeMap<String, (usize, String)>,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            cases: 0,
            accepted: 0,
            disagreements: Vec::new(),
            less_complete: 0,
            missed: Default::default(),
        }
    }

    /// Prints the count and the first disagreements, then fails on any,
    /// and unless at least `accepted` cases passed and `rejected` failed.
    fn assert_agrees(&self, name: &str, accepted: usize, rejected: usize) {
        println!(
            "{name}: {} cases ({} accepted), {} disagreements",
            self.cases,
            self.accepted,
            self.disagreements.len()
        );
        for d in self.disagreements.iter().take(50) {
            eprintln!("{d}");
        }
        assert!(
            self.disagreements.is_empty(),
            "{} disagreements",
            self.disagreements.len()
        );
        assert!(
            self.accepted >= accepted && self.cases - self.accepted >= rejected,
            "both sides covered: {} of {}",
            self.accepted,
            self.cases
        );
    }
}

fn check_case(
    tool: &str,
    schema: &Value,
    v: &jsonschema::Validator,
    keywords: &BTreeSet<String>,
    label: &str,
    raw: &str,
    t: &mut Tally,
) {
    t.cases += 1;
    let rt = runtime(tool, raw);
    let parsed: Option<Value> = serde_json::from_str(raw).ok();
    let js_errors: Option<Vec<(String, String)>> = parsed.as_ref().map(|p| {
        v.iter_errors(p)
            .map(|e| {
                (
                    e.instance_path().to_string(),
                    e.kind().keyword().to_string(),
                )
            })
            .collect()
    });
    let js_ok = js_errors.as_ref().is_some_and(Vec::is_empty);
    let mut problems = Vec::new();
    match (&rt, js_ok) {
        (Ok(()), true) => t.accepted += 1,
        (Ok(()), false) => problems.push(format!(
            "runtime accepts, schema rejects with {js_errors:?}"
        )),
        (Err(errs), true) => problems.push(format!(
            "runtime rejects with {:?}, schema accepts",
            summarize(errs)
        )),
        (Err(errs), false) => {
            let js = js_errors.clone().unwrap_or_default();
            let mut covered = BTreeSet::new();
            for e in errs {
                let Some(c) = &e.constraint else {
                    // malformed-arguments: only a non-object or unparsable text belongs here.
                    let top_type = js.iter().any(|(p, k)| p.is_empty() && k == "type");
                    if !(parsed.is_none() || top_type) {
                        problems.push(format!(
                            "runtime says malformed ({}), schema says {js:?}",
                            e.message
                        ));
                    }
                    continue;
                };
                let kw = c.keyword.as_str();
                if !(keywords.contains(kw) || STRUCTURAL.contains(&kw)) {
                    problems.push(format!(
                        "runtime names `{kw}`, which the schema does not carry"
                    ));
                }
                let field = e.field.clone().unwrap_or_default();
                let at = if kw == "required"
                    || kw == "additionalProperties"
                    || RULE_KEYWORDS.contains(&kw)
                {
                    parent(&field).to_string()
                } else {
                    field.clone()
                };
                // A rule fails at the object or at an argument it involves;
                // its `then` with the keyword inside (`required`, or `not`
                // on an argument sent as null).
                let involved: Vec<String> = match &c.limit {
                    Some(Value::Array(a)) => a
                        .iter()
                        .filter_map(Value::as_str)
                        .map(|n| format!("/{n}"))
                        .collect(),
                    Some(Value::Object(m)) => m
                        .iter()
                        .flat_map(|(k, v)| {
                            std::iter::once(format!("/{k}")).chain(
                                v.as_array()
                                    .into_iter()
                                    .flatten()
                                    .filter_map(Value::as_str)
                                    .map(|n| format!("/{n}")),
                            )
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                let rule_hit = |(p, k): &(String, String)| {
                    (p.is_empty() || involved.contains(p))
                        && (k == kw || (kw == "then" && (k == "required" || k == "not")))
                };
                // Inside a tagged enum the validator reports only the
                // `oneOf` that no branch matched; the runtime names the
                // keyword inside the variant the tag chose.
                let tagged = tagged_above(schema, &at, parsed.as_ref());
                if let Some(e) = &tagged {
                    // An optional enum is `anyOf` the enum or null.
                    let hits: Vec<(String, String)> = js
                        .iter()
                        .filter(|(p, k)| p == e && (k == "oneOf" || k == "anyOf"))
                        .cloned()
                        .collect();
                    if hits.is_empty() {
                        problems.push(format!(
                            "runtime names `{kw}` at `{field}` inside the tagged enum at `{e}`, schema validator reports {js:?}"
                        ));
                    }
                    covered.extend(hits);
                } else if RULE_KEYWORDS.contains(&kw) {
                    if !js.iter().any(rule_hit) {
                        problems.push(format!(
                            "runtime names `{kw}` at `{field}`, schema validator reports {js:?}"
                        ));
                    }
                    for hit in js.iter().filter(|pk| rule_hit(pk)) {
                        covered.insert(hit.clone());
                    }
                } else if !js.iter().any(|(p, k)| p == &at && k == kw) {
                    problems.push(format!(
                        "runtime names `{kw}` at `{field}`, schema validator reports {js:?}"
                    ));
                }
                covered.insert((at, kw.to_string()));
                // The limit must be the one the schema publishes.
                if RULE_KEYWORDS.contains(&kw) {
                    let name = field.rsplit('/').next().unwrap_or_default();
                    let names_it = match &c.limit {
                        Some(Value::Array(a)) => a.iter().any(|n| n == name),
                        Some(Value::Object(m)) => m.iter().any(|(k, v)| {
                            k == name || v.as_array().is_some_and(|a| a.iter().any(|n| n == name))
                        }),
                        _ => false,
                    };
                    if !names_it {
                        problems.push(format!("runtime names `{kw}` at `{field}` with limit {:?}, which does not name the argument", c.limit));
                    }
                } else if !STRUCTURAL.contains(&kw) && kw != "const" {
                    let published =
                        schema_at(schema, &field, parsed.as_ref()).and_then(|s| s.get(kw));
                    if published != c.limit.as_ref() {
                        problems.push(format!("runtime names `{kw}` at `{field}` with limit {:?}; the schema publishes {published:?}", c.limit));
                    }
                }
            }
            let extra: Vec<&(String, String)> =
                js.iter().filter(|pk| !covered.contains(*pk)).collect();
            if !extra.is_empty() && errs.iter().all(|e| e.constraint.is_some()) {
                t.less_complete += 1;
                for (p, k) in extra {
                    let e = t.missed.entry(k.clone()).or_insert((0, String::new()));
                    e.0 += 1;
                    if e.1.is_empty() {
                        e.1 = format!("{tool} {raw} (at `{p}`; runtime: {:?})", summarize(errs));
                    }
                }
            }
        }
    }
    for p in problems {
        t.disagreements
            .push(format!("{tool} [{label}] {raw}\n    {p}"));
    }
}

fn summarize(errs: &[ErrorEntry]) -> Vec<String> {
    errs.iter()
        .map(|e| match &e.constraint {
            Some(c) => format!(
                "{} {} {:?}",
                e.field.as_deref().unwrap_or(""),
                c.keyword,
                c.limit
            ),
            None => format!("{}: {}", e.code, e.message),
        })
        .collect()
}

/// Cases for one tool, as (label, raw argument text).
fn cases_for(schema: &Value, rng: &mut Rng) -> Vec<(String, String)> {
    let oracle_cache = std::cell::RefCell::new(Vec::<(String, jsonschema::Validator)>::new());
    let oracle = |s: &Value, v: &Value| -> bool {
        let key = s.to_string();
        let mut cache = oracle_cache.borrow_mut();
        if !cache.iter().any(|(k, _)| *k == key) {
            cache.push((key.clone(), validator(s)));
        }
        cache
            .iter()
            .find(|(k, _)| *k == key)
            .is_some_and(|(_, val)| val.is_valid(v))
    };
    let props: Vec<(String, Value)> = schema["properties"]
        .as_object()
        .expect("properties")
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let required: Vec<String> = schema["required"]
        .as_array()
        .expect("required")
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();

    // Per property: every candidate, split into the ones its schema accepts and the rest.
    let mut cands: Vec<(Vec<Value>, Vec<Value>)> = Vec::new();
    for (_, ps) in &props {
        let all = candidates(ps, rng, &oracle);
        let (good, bad): (Vec<Value>, Vec<Value>) = all.into_iter().partition(|v| oracle(ps, v));
        assert!(!good.is_empty(), "no valid candidate for {ps}");
        cands.push((good, bad));
    }
    let base: Map<String, Value> = props
        .iter()
        .zip(&cands)
        .map(|((k, _), (good, _))| (k.clone(), good[good.len() / 2].clone()))
        .collect();
    let text = |m: &Map<String, Value>| Value::Object(m.clone()).to_string();

    let mut out: Vec<(String, String)> = vec![("base".into(), text(&base))];
    // One property at a time: every candidate, valid or not.
    for (i, (k, _)) in props.iter().enumerate() {
        for v in cands[i].0.iter().chain(&cands[i].1) {
            let mut m = base.clone();
            m.insert(k.clone(), v.clone());
            out.push((format!("{k}=candidate"), text(&m)));
        }
        let mut m = base.clone();
        m.remove(k);
        out.push((format!("missing {k}"), text(&m)));
        let mut m = base.clone();
        m.insert(k.clone(), Value::Null);
        out.push((format!("null {k}"), text(&m)));
    }
    // Missing everything, extra fields, and key spellings.
    out.push(("empty object".into(), "{}".into()));
    for (extra, val) in [
        ("extra", json!(1)),
        ("", json!("")),
        ("QUERY", json!("x")),
        ("__proto__", json!({})),
        ("note ", json!("a.md")),
    ] {
        let mut m = base.clone();
        m.insert(extra.to_string(), val);
        out.push((format!("extra {extra:?}"), text(&m)));
    }
    for (k, _) in &props {
        let mut m = base.clone();
        let v = m.remove(k).unwrap_or_default();
        m.insert(k.to_uppercase(), v);
        out.push((format!("{k} misspelled"), text(&m)));
    }
    // Raw texts: escapes in keys, whitespace, non-objects, trailing data.
    let b = text(&base);
    if let Some((k, _)) = props.first() {
        let escaped: String = k.chars().map(|c| format!("\\u{:04x}", c as u32)).collect();
        out.push((
            "escaped key".into(),
            b.replacen(&format!("\"{k}\""), &format!("\"{escaped}\""), 1),
        ));
    }
    out.push(("whitespace".into(), format!(" \n\t{b} \r\n")));
    for raw in [
        "[]",
        "null",
        "1",
        "\"x\"",
        "true",
        "",
        "{",
        "{}{}",
        &format!("{b} x"),
        &format!("[{b}]"),
    ] {
        out.push(("not one object".into(), raw.to_string()));
    }
    // Two violations at once (and one violation beside a valid edge value).
    for i in 0..props.len() {
        for j in i + 1..props.len() {
            let (ki, kj) = (&props[i].0, &props[j].0);
            for a in &cands[i].1 {
                for bv in cands[j].1.iter().chain(cands[j].0.iter().take(3)) {
                    if rng.chance(35) {
                        let mut m = base.clone();
                        m.insert(ki.clone(), a.clone());
                        m.insert(kj.clone(), bv.clone());
                        out.push((format!("{ki}+{kj}"), text(&m)));
                    }
                }
            }
        }
        for a in &cands[i].1 {
            let mut m = base.clone();
            m.insert(props[i].0.clone(), a.clone());
            m.insert("extra".into(), json!(true));
            out.push((format!("{}+extra", props[i].0), text(&m)));
            for r in required.iter().filter(|r| **r != props[i].0) {
                let mut m = base.clone();
                m.insert(props[i].0.clone(), a.clone());
                m.remove(r);
                out.push((format!("{}+missing {r}", props[i].0), text(&m)));
            }
        }
    }
    // Seeded random mutations: start from the base and apply 1 to 4 changes.
    let pool: Vec<Value> = cands
        .iter()
        .flat_map(|(g, b)| g.iter().chain(b))
        .cloned()
        .collect();
    for _ in 0..1500 {
        let mut m = base.clone();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(props.len());
            let k = props[i].0.clone();
            match rng.below(8) {
                0 => {
                    m.remove(&k);
                }
                1 => {
                    m.insert(format!("x{}", rng.below(3)), rng.pick(&pool).clone());
                }
                2 => {
                    // Any property's candidate, in the wrong place.
                    m.insert(k, rng.pick(&pool).clone());
                }
                3 => {
                    // Edit a string: drop, double or replace one character.
                    if let Some(Value::String(s)) = m.get(&k) {
                        let mut cs: Vec<char> = s.chars().collect();
                        let at = rng.below(cs.len() + 1);
                        match rng.below(3) {
                            0 if at < cs.len() => {
                                cs.remove(at);
                            }
                            1 if at < cs.len() => cs.insert(at, cs[at]),
                            _ => cs.insert(
                                at,
                                *rng.pick(&['a', 'Z', '0', '-', '.', ' ', 'é', '😀', '\0']),
                            ),
                        }
                        m.insert(k, Value::from(cs.into_iter().collect::<String>()));
                    }
                }
                4 => {
                    // Nudge a number.
                    if let Some(n) = m.get(&k).and_then(Value::as_i64) {
                        let d = *rng.pick(&[-1000i64, -10, -1, 1, 10, 1000]);
                        m.insert(k, json!(n.saturating_add(d)));
                    }
                }
                5 => {
                    // Grow or shrink a list, or repeat an item.
                    if let Some(Value::Array(a)) = m.get_mut(&k) {
                        match rng.below(3) {
                            0 => {
                                a.pop();
                            }
                            1 if !a.is_empty() => {
                                let x = a[rng.below(a.len())].clone();
                                a.push(x);
                            }
                            _ => a.push(rng.pick(&pool).clone()),
                        }
                    }
                }
                _ => {
                    let (g, b) = &cands[i];
                    let v = if rng.chance(50) {
                        rng.pick(g)
                    } else {
                        rng.pick(b)
                    };
                    m.insert(k, v.clone());
                }
            }
        }
        out.push(("random".into(), text(&m)));
    }
    out
}

#[test]
fn schema_and_runtime_agree() {
    let registry = tools::registry();
    let mut t = Tally::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut per_tool = Vec::new();
    for def in registry.canonical() {
        let tool = def["name"].as_str().expect("name").to_string();
        let schema = def["input_schema"].clone();
        let v = validator(&schema);
        let mut keywords = BTreeSet::new();
        keywords_in(&schema, &mut keywords);
        let before = (t.cases, t.accepted);
        for (label, raw) in cases_for(&schema, &mut rng) {
            check_case(&tool, &schema, &v, &keywords, &label, &raw, &mut t);
        }
        per_tool.push(format!(
            "{tool}: {} cases ({} accepted)",
            t.cases - before.0,
            t.accepted - before.1
        ));
    }
    for line in &per_tool {
        println!("  {line}");
    }
    println!(
        "  {} accepted, {} rejected; {} rejections where the schema validator names more than the runtime \
         (the runtime stops below a value it could not decode):",
        t.accepted,
        t.cases - t.accepted,
        t.less_complete
    );
    for (k, (n, example)) in &t.missed {
        println!("    {k}: {n}, e.g. {example}");
    }
    println!(
        "agreement: {} cases, {} disagreements",
        t.cases,
        t.disagreements.len()
    );
    if !t.disagreements.is_empty() {
        for d in t.disagreements.iter().take(2000) {
            eprintln!("{d}");
        }
        panic!(
            "{} disagreements between the runtime and the schema",
            t.disagreements.len()
        );
    }
    assert!(t.cases >= 2000, "too few cases: {}", t.cases);
    assert!(
        t.accepted >= 100 && t.cases - t.accepted >= 1000,
        "the cases must cover both sides"
    );
}

/// The presence rules (`exactly_one_of`, `at_most_one_of`, `requires`):
/// every combination of the optional arguments sent or not, with valid and
/// invalid values, plus the generated cases, agree with the schema.
#[test]
fn rules_agree() {
    let schema = <RulesArgs as contract_runtime::ToolArgs>::input_schema();
    let v = validator(&schema);
    let mut keywords = BTreeSet::new();
    keywords_in(&schema, &mut keywords);
    let mut t = Tally::new();
    let mut rng = Rng(0x005E_ED0F_2A11);
    let good: [(&str, Value); 8] = [
        ("channel", json!("ops")),
        ("thread", json!(7)),
        ("urgent", json!(true)),
        ("quiet", json!(false)),
        ("digest", json!(true)),
        ("page", json!(2)),
        ("per_page", json!(10)),
        ("sort", json!("asc")),
    ];
    let bad: [Value; 8] = [
        json!(""),
        json!(0),
        json!(1),
        json!("x"),
        json!(null),
        json!(-1),
        json!(51),
        json!("up"),
    ];
    for mask in 0u32..(1 << good.len()) {
        let mut m = Map::new();
        for (i, (k, val)) in good.iter().enumerate() {
            if mask & (1 << i) != 0 {
                let broken = rng.chance(15);
                m.insert(
                    (*k).to_owned(),
                    if broken { bad[i].clone() } else { val.clone() },
                );
            }
        }
        let raw = Value::Object(m).to_string();
        check_case("rules", &schema, &v, &keywords, "presence", &raw, &mut t);
    }
    for (label, raw) in cases_for(&schema, &mut rng) {
        check_case("rules", &schema, &v, &keywords, &label, &raw, &mut t);
    }
    t.assert_agrees("rules", 20, 200);
}

/// Tagged enums (internally tagged, and adjacently tagged behind an
/// `Option`): every variant's fields at each candidate, wrong and missing
/// tags, extra keys, against the schema's `oneOf`.
#[test]
fn tagged_enums_agree() {
    let mut t = Tally::new();
    let mut rng = Rng(0x7A66_ED00_E17A);
    for def in reminders::registry().canonical() {
        let tool = def["name"].as_str().expect("name").to_string();
        let schema = def["input_schema"].clone();
        let v = validator(&schema);
        let mut keywords = BTreeSet::new();
        keywords_in(&schema, &mut keywords);
        for (label, raw) in cases_for(&schema, &mut rng) {
            check_case(&tool, &schema, &v, &keywords, &label, &raw, &mut t);
        }
    }
    t.assert_agrees("tagged enums", 50, 500);
}

/// Every string format's check against the `jsonschema` crate's: leap
/// seconds at the wrong minute or offset, quoted email local parts, URIs
/// with bad escapes or characters outside RFC 3986.
#[test]
fn formats_agree() {
    let schema = <FormatsArgs as contract_runtime::ToolArgs>::input_schema();
    let v = validator(&schema);
    let mut keywords = BTreeSet::new();
    keywords_in(&schema, &mut keywords);
    let mut t = Tally::new();
    let mut rng = Rng(0xF0_2A_A7_5E);
    for (label, raw) in cases_for(&schema, &mut rng) {
        check_case("formats", &schema, &v, &keywords, &label, &raw, &mut t);
    }
    t.assert_agrees("formats", 20, 500);
}

/// Every date crate's parsing against the schema it publishes: edge dates
/// (year 0 and 9999, leap days), lowercase `t`/`z`, offsets, fractions to
/// the nanosecond and past it, leap seconds, times of day with offsets.
#[test]
fn dates_agree() {
    let schema = <DatesArgs as contract_runtime::ToolArgs>::input_schema();
    let v = validator(&schema);
    let mut keywords = BTreeSet::new();
    keywords_in(&schema, &mut keywords);
    let mut t = Tally::new();
    let mut rng = Rng(0x0DA7_E5A6_4EE5);
    for (label, raw) in cases_for(&schema, &mut rng) {
        check_case("dates", &schema, &v, &keywords, &label, &raw, &mut t);
    }
    t.assert_agrees("dates", 20, 500);
}
