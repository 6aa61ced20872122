//! The GBNF export, read back by a small GBNF reader written here (not the
//! exporter's code): strings sampled from each tool's grammar decode and pass
//! the real dispatcher, and each kind of form violation that the dispatcher
//! refuses is one the grammar cannot produce.

use toolbox as tools;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use contract_runtime::dialect::gbnf::{self, GbnfOptions, Served};
use contract_runtime::prelude::*;
use serde::Serialize;
use serde_json::{json, Value};

// ------------------------------------------------------------ a GBNF reader

#[derive(Clone, Debug)]
enum El {
    Lit(Vec<char>),
    Class {
        negated: bool,
        ranges: Vec<(u32, u32)>,
    },
    Ref(String),
    Group(Vec<Vec<El>>),
    Rep(Box<El>, u32, Option<u32>),
}

struct Gbnf {
    rules: HashMap<String, Vec<Vec<El>>>,
}

struct Reader<'a> {
    c: Vec<char>,
    i: usize,
    line: &'a str,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.c.get(self.i).copied()
    }
    fn skip_space(&mut self) {
        while self.peek().is_some_and(|c| c == ' ') {
            self.i += 1;
        }
    }
    fn fail(&self, what: &str) -> ! {
        panic!("GBNF: {what} at {} in `{}`", self.i, self.line)
    }
    fn escaped(&mut self) -> u32 {
        let e = self.peek().unwrap_or_else(|| self.fail("lone backslash"));
        self.i += 1;
        let hex = |r: &mut Self, n: usize| {
            let s: String = r.c[r.i..r.i + n].iter().collect();
            r.i += n;
            u32::from_str_radix(&s, 16).unwrap_or_else(|_| r.fail("bad hex escape"))
        };
        match e {
            'x' => hex(self, 2),
            'u' => hex(self, 4),
            'U' => hex(self, 8),
            'n' => 0x0A,
            'r' => 0x0D,
            't' => 0x09,
            '\\' | '"' | '[' | ']' | '-' | '^' => e as u32,
            _ => self.fail("unknown escape"),
        }
    }
    fn alternatives(&mut self) -> Vec<Vec<El>> {
        let mut alts = vec![self.sequence()];
        while self.peek() == Some('|') {
            self.i += 1;
            alts.push(self.sequence());
        }
        alts
    }
    fn sequence(&mut self) -> Vec<El> {
        let mut seq = Vec::new();
        loop {
            self.skip_space();
            let Some(c) = self.peek() else { return seq };
            let el = match c {
                '|' | ')' => return seq,
                '"' => {
                    self.i += 1;
                    let mut s = Vec::new();
                    loop {
                        match self.peek() {
                            Some('"') => break,
                            Some('\\') => {
                                self.i += 1;
                                s.push(char::from_u32(self.escaped()).expect("a char"));
                            }
                            Some(c) => {
                                self.i += 1;
                                s.push(c);
                            }
                            None => self.fail("unclosed literal"),
                        }
                    }
                    self.i += 1;
                    El::Lit(s)
                }
                '[' => {
                    self.i += 1;
                    let negated = self.peek() == Some('^');
                    if negated {
                        self.i += 1;
                    }
                    let mut ranges = Vec::new();
                    loop {
                        let c = self.peek().unwrap_or_else(|| self.fail("unclosed class"));
                        self.i += 1;
                        if c == ']' {
                            break;
                        }
                        let lo = if c == '\\' { self.escaped() } else { c as u32 };
                        let hi = if self.peek() == Some('-') && self.c.get(self.i + 1) != Some(&']')
                        {
                            self.i += 1;
                            let h = self.peek().unwrap_or_else(|| self.fail("open range"));
                            self.i += 1;
                            if h == '\\' {
                                self.escaped()
                            } else {
                                h as u32
                            }
                        } else {
                            lo
                        };
                        ranges.push((lo, hi));
                    }
                    El::Class { negated, ranges }
                }
                '(' => {
                    self.i += 1;
                    let alts = self.alternatives();
                    if self.peek() != Some(')') {
                        self.fail("unclosed group");
                    }
                    self.i += 1;
                    El::Group(alts)
                }
                c if c.is_ascii_alphanumeric() || c == '-' => {
                    let start = self.i;
                    while self
                        .peek()
                        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
                    {
                        self.i += 1;
                    }
                    El::Ref(self.c[start..self.i].iter().collect())
                }
                _ => self.fail("unexpected character"),
            };
            seq.push(self.postfix(el));
        }
    }
    fn postfix(&mut self, el: El) -> El {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                let end = self.c[self.i..].iter().position(|&c| c == '}').expect("}");
                let body: String = self.c[self.i + 1..self.i + end].iter().collect();
                self.i += end;
                match body.split_once(',') {
                    Some((a, "")) => (a.parse().expect("min"), None),
                    Some((a, b)) => (a.parse().expect("min"), Some(b.parse().expect("max"))),
                    None => {
                        let n = body.parse().expect("count");
                        (n, Some(n))
                    }
                }
            }
            _ => return el,
        };
        self.i += 1;
        El::Rep(Box::new(el), min, max)
    }
}

impl Gbnf {
    fn read(text: &str) -> Gbnf {
        let mut rules = HashMap::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let (name, body) = line.split_once(" ::= ").expect("name ::= body");
            let mut r = Reader {
                c: body.chars().collect(),
                i: 0,
                line,
            };
            let alts = r.alternatives();
            assert!(r.peek().is_none(), "trailing text in `{line}`");
            assert!(
                rules.insert(name.to_owned(), alts).is_none(),
                "rule {name} twice"
            );
        }
        let g = Gbnf { rules };
        for alts in g.rules.values() {
            g.check_refs(&El::Group(alts.clone()));
        }
        assert!(g.rules.contains_key("root"));
        g
    }

    fn check_refs(&self, el: &El) {
        match el {
            El::Ref(n) => assert!(self.rules.contains_key(n), "undefined rule {n}"),
            El::Group(alts) => alts.iter().flatten().for_each(|e| self.check_refs(e)),
            El::Rep(e, _, _) => self.check_refs(e),
            _ => {}
        }
    }

    /// Whether the whole of `s` is a `root`.
    fn accepts(&self, s: &str) -> bool {
        let input: Vec<char> = s.chars().collect();
        let mut m = Matcher {
            g: self,
            input: &input,
            memo: HashMap::new(),
        };
        m.rule("root", 0).contains(&input.len())
    }

    fn sample(&self, rng: &mut Rng) -> String {
        let mut out = String::new();
        self.gen_rule("root", rng, &mut out);
        out
    }

    fn gen_rule(&self, name: &str, rng: &mut Rng, out: &mut String) {
        let alts = &self.rules[name];
        let seq = &alts[rng.below(alts.len())];
        seq.iter().for_each(|e| self.gen(e, rng, out));
    }

    fn gen(&self, el: &El, rng: &mut Rng, out: &mut String) {
        match el {
            El::Lit(s) => out.extend(s),
            El::Class { negated, ranges } => out.push(pick_char(*negated, ranges, rng)),
            El::Ref(n) => self.gen_rule(n, rng, out),
            El::Group(alts) => {
                let seq = &alts[rng.below(alts.len())];
                seq.iter().for_each(|e| self.gen(e, rng, out));
            }
            El::Rep(e, min, max) => {
                // Mostly short; now and then the longest allowed, to reach the bounds.
                let min = *min as usize;
                let top = max.map_or(min + 6, |m| m as usize);
                let n = if rng.below(6) == 0 && top <= 200 {
                    top
                } else {
                    min + rng.below(top.min(min + 8) - min + 1)
                };
                for _ in 0..n {
                    self.gen(e, rng, out);
                }
            }
        }
    }
}

fn in_ranges(c: u32, ranges: &[(u32, u32)]) -> bool {
    ranges.iter().any(|&(a, b)| a <= c && c <= b)
}

fn pick_char(negated: bool, ranges: &[(u32, u32)], rng: &mut Rng) -> char {
    if negated {
        let pool: Vec<char> = (0x20u8..0x7F)
            .map(char::from)
            .chain(['é', 'ß', '中', '😀', '\u{7f}', '\u{2028}'])
            .filter(|c| !in_ranges(*c as u32, ranges))
            .collect();
        return pool[rng.below(pool.len())];
    }
    loop {
        let (a, b) = ranges[rng.below(ranges.len())];
        // Wide ranges: stay near their start half of the time, so ASCII shows up.
        let span = if rng.below(2) == 0 {
            (b - a).min(200)
        } else {
            b - a
        };
        let c = a + rng.below(span as usize + 1) as u32;
        if let Some(c) = char::from_u32(c) {
            return c;
        }
    }
}

struct Matcher<'g> {
    g: &'g Gbnf,
    input: &'g [char],
    memo: HashMap<(String, usize), BTreeSet<usize>>,
}

impl Matcher<'_> {
    fn rule(&mut self, name: &str, at: usize) -> BTreeSet<usize> {
        let key = (name.to_owned(), at);
        if let Some(done) = self.memo.get(&key) {
            return done.clone();
        }
        // Entered again at the same place: left recursion, which the export never writes.
        self.memo.insert(key.clone(), BTreeSet::new());
        let alts = self.g.rules[name].clone();
        let ends = self.alts(&alts, at);
        self.memo.insert(key, ends.clone());
        ends
    }

    fn alts(&mut self, alts: &[Vec<El>], at: usize) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        for seq in alts {
            let mut here = BTreeSet::from([at]);
            for el in seq {
                let mut next = BTreeSet::new();
                for p in here {
                    next.extend(self.el(el, p));
                }
                here = next;
                if here.is_empty() {
                    break;
                }
            }
            out.extend(here);
        }
        out
    }

    fn el(&mut self, el: &El, at: usize) -> BTreeSet<usize> {
        match el {
            El::Lit(s) => {
                let end = at + s.len();
                if self.input.get(at..end) == Some(s.as_slice()) {
                    BTreeSet::from([end])
                } else {
                    BTreeSet::new()
                }
            }
            El::Class { negated, ranges } => match self.input.get(at) {
                Some(&c) if in_ranges(c as u32, ranges) != *negated => BTreeSet::from([at + 1]),
                _ => BTreeSet::new(),
            },
            El::Ref(n) => self.rule(n, at),
            El::Group(alts) => self.alts(alts, at),
            El::Rep(e, min, max) => {
                let mut out = BTreeSet::new();
                let mut seen = BTreeSet::from([at]);
                let mut frontier = BTreeSet::from([at]);
                if *min == 0 {
                    out.insert(at);
                }
                let mut n = 0u32;
                while !frontier.is_empty() && max.is_none_or(|m| n < m) {
                    n += 1;
                    let mut next = BTreeSet::new();
                    for p in &frontier {
                        next.extend(self.el(e, *p));
                    }
                    if n >= *min {
                        out.extend(next.iter().copied());
                    }
                    // Past the minimum, a place reached before adds nothing new.
                    frontier = if n >= *min {
                        next.difference(&seen).copied().collect()
                    } else {
                        next.clone()
                    };
                    seen.extend(next);
                }
                out
            }
        }
    }
}

/// xorshift64*: reproducible samples without a dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

// ------------------------------------------------------------ a tool with every argument form

/// The kind of trip.
#[derive(ToolArgs)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// For work.
    Business,
    /// For rest.
    Leisure,
}

/// One stop on the way.
#[derive(ToolArgs)]
pub struct Stop {
    /// The city's IATA code.
    #[arg(pattern = "^[A-Z]{3}$")]
    pub city: String,
    /// Nights spent there.
    #[arg(range(min = 1, max = 30))]
    pub nights: u8,
    /// When the stay starts.
    #[arg(format = "date")]
    pub from: String,
}

/// A trip to plan.
#[derive(ToolArgs)]
pub struct Trip {
    /// The kind of trip.
    pub kind: Kind,
    /// The stops, in order.
    #[arg(length(min = 1, max = 4))]
    pub stops: Vec<Stop>,
    /// Budget share to spend, from 0 to 1.
    #[arg(range(min = 0.0, max = 1.0))]
    pub share: f64,
    /// Time zone offset in hours.
    #[arg(range(min = -12, max = 14))]
    pub offset: i32,
    /// Who to send the plan to.
    #[arg(format = "email")]
    pub notify: Option<String>,
    /// When to send the plan.
    #[arg(format = "date-time")]
    pub send_at: Option<String>,
    /// A note for the travel desk.
    #[arg(length(max = 40))]
    pub note: Option<String>,
    /// The reply address of the desk.
    #[arg(format = "ipv4")]
    pub desk: Option<String>,
    /// Whether a hotel is needed.
    pub hotel: bool,
}

/// What was planned.
#[derive(Serialize, JsonSchema)]
pub struct Planned {
    /// How many stops.
    pub stops: usize,
}

/// Why planning failed.
#[derive(Debug, ToolFailure)]
pub enum PlanError {
    /// The desk is closed.
    #[failure(code = "closed")]
    Closed,
}

/// Plan a trip with the travel desk; nothing is booked.
#[tool_contract(effect = read_only)]
pub fn plan_trip(args: Trip) -> Result<Planned, PlanError> {
    Ok(Planned {
        stops: args.stops.len(),
    })
}

// ------------------------------------------------------------ helpers

fn registry() -> Registry {
    let mut b = Registry::builder();
    for t in [
        tools::search_notes::contract(),
        tools::read_file::contract(),
        tools::replace_text::contract(),
        tools::list_filings::contract(),
        tools::tag_notes::contract(),
        tools::delete_note::contract(),
        tools::post_comment::contract(),
        tools::git_log::contract(),
        plan_trip::contract(),
    ] {
        b = b.tool(t);
    }
    b.build().expect("a valid registry")
}

fn definition(registry: &Registry, name: &str) -> Value {
    registry
        .canonical()
        .into_iter()
        .find(|d| d["name"] == name)
        .expect("a tool of that name")
}

fn grammar_of(def: &Value, served: Served) -> Gbnf {
    let g = gbnf::arguments(def, &GbnfOptions { served }).expect("a grammar");
    Gbnf::read(&g.text)
}

/// The envelope the real dispatcher answers `arguments` with, for a caller
/// holding no scope: a call whose arguments pass ends `denied` (or `ok` for
/// a tool that needs none), one whose arguments fail ends `invalid`.
fn dispatch(d: &Dispatcher, name: &str, arguments: &str) -> Envelope {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    let call = ToolCall::new("c1", name, arguments);
    rt.block_on(d.dispatch(&Arc::new(Caller::new()), &call))
}

// ------------------------------------------------------------ tests

#[test]
fn sampled_arguments_decode_and_pass_the_dispatcher() {
    let registry = registry();
    let d = Dispatcher::new(self::registry());
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    // Every tool of the registry: the toolbox's and the one with every form.
    for def in registry.canonical() {
        let name = def["name"].as_str().expect("a name");
        // With the bounds of service included, so that samples land in what
        // the tool serves (the default grammar's looseness there is
        // `served_bounds_are_left_out_unless_asked_for`'s).
        let opts = GbnfOptions {
            served: Served::Include,
        };
        let exported = gbnf::arguments(&def, &opts).expect("a grammar");
        // What the grammar leaves to the runtime, each an omission:
        // repeated items, rules across arguments, and date bounds.
        let gaps: BTreeSet<String> = exported
            .omissions
            .iter()
            .map(|o| o.keyword.clone())
            .collect();
        let unique_gap = !gaps.is_empty();
        let g = Gbnf::read(&exported.text);
        let mut statuses = BTreeSet::new();
        for _ in 0..150 {
            let text = g.sample(&mut rng);
            assert!(
                g.accepts(&text),
                "{name}: the reader rejects its own sample {text}"
            );
            serde_json::from_str::<Value>(&text)
                .unwrap_or_else(|e| panic!("{name}: sample is not JSON ({e}): {text}"));
            let env = dispatch(&d, name, &text);
            if env.status == Status::Invalid && unique_gap {
                // Only the constraints the grammar leaves out.
                assert!(
                    env.errors.iter().all(|e| e
                        .constraint
                        .as_ref()
                        .is_some_and(|c| gaps.contains(&c.keyword) || c.served)),
                    "{name}: {text} -> {}",
                    env.to_json_string()
                );
                continue;
            }
            assert!(
                matches!(env.status, Status::Denied | Status::Ok),
                "{name}: sampled {text} -> {}",
                env.to_json_string()
            );
            statuses.insert(env.status.as_str());
        }
        assert!(!statuses.is_empty(), "{name}: no sample passed");
    }
}

/// Each kind of form violation, per tool: the dispatcher refuses it as
/// `invalid` (so the case is a real violation) and the grammar cannot
/// produce it.
#[test]
fn the_grammar_rejects_every_kind_of_form_violation() {
    let long = "x".repeat(201);
    let fifty_one: Vec<String> = (0..51).map(|i| format!("n{i}.md")).collect();
    let fifty_one = serde_json::to_string(&fifty_one).expect("json");
    let stop = r#"{"city":"LIS","nights":2,"from":"2026-03-01"}"#;
    let trip = |kind: &str, stops: &str, rest: &str| {
        format!(r#"{{"kind":{kind},"stops":{stops},"share":0.5,"offset":-3{rest},"hotel":true}}"#)
    };
    let cases: Vec<(&str, &str, String)> = vec![
        ("search_notes", "missing required key", "{}".into()),
        (
            "search_notes",
            "undeclared key",
            r#"{"query":"kv","limit":3}"#.into(),
        ),
        ("search_notes", "wrong type", r#"{"query":5}"#.into()),
        ("search_notes", "string too short", r#"{"query":""}"#.into()),
        (
            "search_notes",
            "string too long",
            format!(r#"{{"query":"{long}"}}"#),
        ),
        (
            "search_notes",
            "malformed JSON",
            r#"{"query":"kv",}"#.into(),
        ),
        (
            "search_notes",
            "duplicate key",
            r#"{"query":"a","query":"b"}"#.into(),
        ),
        ("read_file", "empty path", r#"{"path":""}"#.into()),
        (
            "read_file",
            "pattern (NUL)",
            r#"{"path":"a\u0000b"}"#.into(),
        ),
        (
            "replace_text",
            "pattern",
            r#"{"path":"a","old_text":"x","new_text":"y","expected_version":"sha1:00"}"#.into(),
        ),
        (
            "list_filings",
            "pattern (lower case)",
            r#"{"company":"acme","year":2019}"#.into(),
        ),
        (
            "list_filings",
            "pattern (too long)",
            r#"{"company":"ABCDEF","year":2019}"#.into(),
        ),
        (
            "list_filings",
            "integer as string",
            r#"{"company":"ACME","year":"2019"}"#.into(),
        ),
        (
            "list_filings",
            "fraction for integer",
            r#"{"company":"ACME","year":2019.5}"#.into(),
        ),
        (
            "list_filings",
            "null for required",
            r#"{"company":"ACME","year":null}"#.into(),
        ),
        (
            "tag_notes",
            "list too short",
            r#"{"notes":[],"tag":"x"}"#.into(),
        ),
        (
            "tag_notes",
            "list too long",
            format!(r#"{{"notes":{fifty_one},"tag":"x"}}"#),
        ),
        (
            "tag_notes",
            "item pattern",
            r#"{"notes":["Bad Name.md"],"tag":"x"}"#.into(),
        ),
        (
            "tag_notes",
            "pattern",
            r#"{"notes":["a.md"],"tag":"9x"}"#.into(),
        ),
        (
            "delete_note",
            "pattern",
            r#"{"note":"../etc/passwd"}"#.into(),
        ),
        (
            "post_comment",
            "integer below minimum",
            r#"{"issue":0,"body":"hi","request_key":"123e4567-e89b-12d3-a456-426614174000"}"#
                .into(),
        ),
        (
            "post_comment",
            "integer above maximum",
            r#"{"issue":1000001,"body":"hi","request_key":"123e4567-e89b-12d3-a456-426614174000"}"#
                .into(),
        ),
        (
            "post_comment",
            "format uuid",
            r#"{"issue":1,"body":"hi","request_key":"not-a-uuid"}"#.into(),
        ),
        (
            "post_comment",
            "string too short",
            r#"{"issue":1,"body":"","request_key":"123e4567-e89b-12d3-a456-426614174000"}"#.into(),
        ),
        (
            "git_log",
            "integer below minimum",
            r#"{"rev":"HEAD","max_count":0}"#.into(),
        ),
        (
            "plan_trip",
            "enum",
            trip(r#""cruise""#, &format!("[{stop}]"), ""),
        ),
        (
            "plan_trip",
            "nested missing key",
            trip(r#""leisure""#, r#"[{"city":"LIS","nights":2}]"#, ""),
        ),
        (
            "plan_trip",
            "nested undeclared key",
            trip(
                r#""leisure""#,
                r#"[{"city":"LIS","nights":2,"from":"2026-03-01","x":1}]"#,
                "",
            ),
        ),
        (
            "plan_trip",
            "nested pattern",
            trip(
                r#""leisure""#,
                r#"[{"city":"Lisbon","nights":2,"from":"2026-03-01"}]"#,
                "",
            ),
        ),
        (
            "plan_trip",
            "nested range",
            trip(
                r#""leisure""#,
                r#"[{"city":"LIS","nights":31,"from":"2026-03-01"}]"#,
                "",
            ),
        ),
        (
            "plan_trip",
            "format date (no such day)",
            trip(
                r#""leisure""#,
                r#"[{"city":"LIS","nights":2,"from":"2025-02-29"}]"#,
                "",
            ),
        ),
        (
            "plan_trip",
            "list of structs too long",
            trip(
                r#""leisure""#,
                &format!("[{stop},{stop},{stop},{stop},{stop}]"),
                "",
            ),
        ),
        (
            "plan_trip",
            "number above maximum",
            format!(
                r#"{{"kind":"business","stops":[{stop}],"share":1.5,"offset":0,"hotel":false}}"#
            ),
        ),
        (
            "plan_trip",
            "negative integer below minimum",
            format!(
                r#"{{"kind":"business","stops":[{stop}],"share":0,"offset":-13,"hotel":false}}"#
            ),
        ),
        (
            "plan_trip",
            "format email",
            trip(
                r#""leisure""#,
                &format!("[{stop}]"),
                r#","notify":"nobody""#,
            ),
        ),
        (
            "plan_trip",
            "format date-time",
            trip(
                r#""leisure""#,
                &format!("[{stop}]"),
                r#","send_at":"2026-03-01 10:00""#,
            ),
        ),
        (
            "plan_trip",
            "format ipv4",
            trip(
                r#""leisure""#,
                &format!("[{stop}]"),
                r#","note":"x","desk":"256.1.1.1""#,
            ),
        ),
        (
            "plan_trip",
            "optional string too long",
            trip(
                r#""leisure""#,
                &format!("[{stop}]"),
                &format!(r#","note":"{}""#, "y".repeat(41)),
            ),
        ),
        (
            "plan_trip",
            "boolean as string",
            format!(r#"{{"kind":"business","stops":[{stop}],"share":0,"offset":0,"hotel":"yes"}}"#),
        ),
    ];
    let registry = registry();
    let d = Dispatcher::new(self::registry());
    let mut grammars: HashMap<&str, Gbnf> = HashMap::new();
    for (name, kind, text) in &cases {
        let env = dispatch(&d, name, text);
        assert_eq!(
            env.status,
            Status::Invalid,
            "{name} {kind}: the dispatcher must refuse {text}: {}",
            env.to_json_string()
        );
        let g = grammars
            .entry(name)
            .or_insert_with(|| grammar_of(&definition(&registry, name), Served::Omit));
        assert!(
            !g.accepts(text),
            "{name} {kind}: the grammar accepts {text}"
        );
    }
    // And the valid neighbours of those cases are accepted, so the rejections
    // above are about the violation and not the shape of the test strings.
    let valid: &[(&str, String)] = &[
        ("search_notes", r#"{"query":"kv"}"#.into()),
        ("search_notes", "{ \"query\" : \"k\\\"v\\u00e9\" }".into()),
        ("list_filings", r#"{"company":"ACME","year":2026}"#.into()),
        (
            "tag_notes",
            r#"{"notes":["a.md","b_c-1.md"],"tag":"x-1"}"#.into(),
        ),
        (
            "post_comment",
            r#"{"issue":1000000,"body":"hi","request_key":"123E4567-e89b-12d3-a456-426614174000"}"#
                .into(),
        ),
        ("plan_trip", trip(r#""leisure""#, &format!("[{stop}]"), "")),
        (
            "plan_trip",
            trip(
                r#""business""#,
                &format!("[{stop},{stop}]"),
                r#","notify":"a.b@example.com","send_at":"2024-02-29T23:59:59.5+14:00","desk":"10.0.0.255""#,
            ),
        ),
        (
            "plan_trip",
            trip(
                r#""business""#,
                &format!("[{stop}]"),
                r#","notify":null,"note":"fine""#,
            ),
        ),
        (
            "plan_trip",
            format!(
                r#"{{"kind":"business","stops":[{stop}],"share":1.0,"offset":14,"hotel":false}}"#
            ),
        ),
        (
            "plan_trip",
            format!(
                r#"{{"kind":"business","stops":[{stop}],"share":0,"offset":-12,"hotel":false}}"#
            ),
        ),
    ];
    for (name, text) in valid {
        let env = dispatch(&d, name, text);
        assert_ne!(
            env.status,
            Status::Invalid,
            "{name}: {text}: {}",
            env.to_json_string()
        );
        let g = grammars
            .entry(name)
            .or_insert_with(|| grammar_of(&definition(&registry, name), Served::Omit));
        assert!(
            g.accepts(text),
            "{name}: the grammar rejects the valid {text}"
        );
    }
}

/// A bound the contract declares with `served(range(..))` carries `x-served`
/// and is left out by default, so that a request outside what the tool
/// serves can be written (and the runtime refuses it as unserved); the
/// control keeps it, and then an unserved year cannot be written at all.
#[test]
fn served_bounds_are_left_out_unless_asked_for() {
    let registry = registry();
    let d = Dispatcher::new(self::registry());
    let def = definition(&registry, "list_filings");
    assert_eq!(
        def["input_schema"]["properties"]["year"]["x-served"],
        json!(["minimum", "maximum"])
    );
    let exported = gbnf::arguments(&def, &GbnfOptions::default()).expect("a grammar");
    let kept: Vec<(&str, &str)> = exported
        .omissions
        .iter()
        .map(|o| (o.pointer.as_str(), o.keyword.as_str()))
        .collect();
    assert_eq!(
        kept,
        [
            ("/properties/year/minimum", "minimum"),
            ("/properties/year/maximum", "maximum"),
            // The date bounds and the tool's date rules, which no grammar
            // says (always left out).
            ("/properties/from/formatMinimum", "formatMinimum"),
            ("/properties/to/formatMinimum", "formatMinimum"),
            ("", "le"),
            ("", "max_span"),
        ]
    );
    let open = Gbnf::read(&exported.text);
    let control = grammar_of(&def, Served::Include);
    let unserved = r#"{"company":"MSFT","year":1998}"#;
    let served = r#"{"company":"MSFT","year":2019}"#;
    assert!(open.accepts(unserved) && open.accepts(served));
    assert!(!control.accepts(unserved) && control.accepts(served));
    // The form still holds: the ticker pattern, and an integer.
    assert!(!open.accepts(r#"{"company":"msft","year":1998}"#));
    assert!(!open.accepts(r#"{"company":"MSFT","year":"1998"}"#));
    // The runtime still enforces the bound the grammar left out, as unserved.
    let env = dispatch(&d, "list_filings", unserved);
    assert_eq!(env.status, Status::Invalid);
    assert!(env.errors[0].constraint.as_ref().is_some_and(|c| c.served));

    // One side of service, one of form: only the served side is left out.
    let def = definition(&registry, "git_log");
    let open = grammar_of(&def, Served::Omit);
    let control = grammar_of(&def, Served::Include);
    let (zero, many) = (
        r#"{"rev":"HEAD","max_count":0}"#,
        r#"{"rev":"HEAD","max_count":300}"#,
    );
    assert!(!open.accepts(zero) && !control.accepts(zero));
    assert!(open.accepts(many) && !control.accepts(many));
    let env = dispatch(&d, "git_log", many);
    assert!(env.errors[0].constraint.as_ref().is_some_and(|c| c.served));
}

#[test]
fn the_call_grammar_names_the_tool_and_its_arguments() {
    let registry = registry();
    let defs = registry.canonical();
    let g = Gbnf::read(
        &gbnf::calls(&defs, &GbnfOptions::default())
            .expect("a grammar")
            .text,
    );
    assert!(g.accepts(r#"{"name":"list_filings","arguments":{"company":"ACME","year":2019}}"#));
    assert!(!g.accepts(r#"{"name":"list_filings","arguments":{"query":"kv"}}"#));
    assert!(!g.accepts(r#"{"name":"rm_rf","arguments":{}}"#));
    let mut rng = Rng(7);
    for _ in 0..50 {
        let text = g.sample(&mut rng);
        let v: Value = serde_json::from_str(&text).expect("JSON");
        assert!(defs.iter().any(|d| d["name"] == v["name"]), "{text}");
    }
}

#[test]
fn untranslatable_schemas_fail_naming_the_cause() {
    let def = |schema: Value| {
        json!({"name": "t", "description": "d", "input_schema": {
        "type": "object", "properties": {"x": schema}, "required": ["x"], "additionalProperties": false}})
    };
    let err = |schema: Value| {
        gbnf::arguments(&def(schema), &GbnfOptions::default())
            .expect_err("no grammar")
            .to_string()
    };
    assert_eq!(
        err(json!({"type": "string", "pattern": "\\bword\\b"})),
        "no grammar for tool `t` at /properties/x: the pattern \\bword\\b has no grammar: the word boundary `\\b` has no equivalent in a grammar"
    );
    assert!(
        err(json!({"type": "string", "format": "iri"})).contains("the format `iri` has no grammar")
    );
    assert!(err(json!({"type": "number", "minimum": 0.5})).contains("0.5 is not a whole number"));
    assert!(err(json!({"type": "object", "additionalProperties": true}))
        .contains("open to other properties"));
    assert!(err(json!({"type": "integer", "multipleOf": 5}))
        .contains("multipleOf has no grammar translation"));
    assert!(
        err(json!({"type": "string", "pattern": "^(ab)+$", "maxLength": 3}))
            .contains("the pattern ^(ab)+$ together with minLength/maxLength")
    );
    assert!(
        err(json!({"type": "integer", "minimum": 3, "x-served": ["maximum"]}))
            .contains("x-served names \"maximum\"")
    );
}

#[path = "common/reminders.rs"]
mod reminders;

/// Tagged enums: one alternative per variant, told apart by the tag's
/// constant (internally and adjacently tagged, and behind an `Option`).
#[test]
fn tagged_enums_are_one_alternative_per_variant() {
    let def = reminders::registry().canonical().remove(0);
    let exported = gbnf::arguments(&def, &GbnfOptions::default()).expect("a grammar");
    let g = Gbnf::read(&exported.text);
    for ok in [
        r##"{"text":"hi","channel":{"kind":"email","to":"a@b"}}"##,
        r##"{"text":"hi","channel":{"kind":"chat_room","room":"#ops","delay_minutes":5},"repeat":{"every":"days","with":{"count":3}}}"##,
        r##"{"text":"hi","channel":{"kind":"silent"},"repeat":{"every":"never"}}"##,
        r##"{"text":"hi","channel":{"kind":"silent"},"repeat":null}"##,
        r##"{"text":"hi","channel":{"kind":"silent"},"at":"09:30:00.25"}"##,
    ] {
        assert!(g.accepts(ok), "{ok}\n{}", exported.text);
    }
    for bad in [
        // No such variant, a field of another variant, a unit variant's
        // content, a missing content, a bound inside a variant.
        r##"{"text":"hi","channel":{"kind":"pager"}}"##,
        r##"{"text":"hi","channel":{"kind":"silent","to":"a@b"}}"##,
        r##"{"text":"hi","channel":{"kind":"silent"},"repeat":{"every":"never","with":{}}}"##,
        r##"{"text":"hi","channel":{"kind":"silent"},"repeat":{"every":"days"}}"##,
        r##"{"text":"hi","channel":{"kind":"chat_room","room":"ops"}}"##,
        // A time of day has no offset and no hour 24.
        r##"{"text":"hi","channel":{"kind":"silent"},"at":"09:30:00Z"}"##,
        r##"{"text":"hi","channel":{"kind":"silent"},"at":"24:00:00"}"##,
    ] {
        assert!(!g.accepts(bad), "{bad}");
    }
    // `uniqueItems` on the weekdays is the one thing left to the runtime.
    let left: Vec<&str> = exported
        .omissions
        .iter()
        .map(|o| o.keyword.as_str())
        .collect();
    assert_eq!(left, ["uniqueItems"]);
}

/// The toolbox's bounds of service reach every dialect: as keywords (with
/// `x-served` where the dialect takes extension keywords, stripped by the
/// strict ones) or in the description, and the served dates in words.
#[test]
fn served_bounds_reach_every_dialect() {
    use contract_runtime::dialect::{export, Dialect, ExportOptions};
    let defs = registry().canonical();
    for &d in Dialect::ALL {
        let out = export(&defs, d, &ExportOptions::default()).expect("an export");
        let text = |name: &str| {
            out.tools
                .iter()
                .find(|t| t.to_string().contains(&format!("\"{name}\"")))
                // OpenAI's output_schema is the envelope's, whose own
                // description names `x-served`; the marks asked about are
                // the arguments'.
                .map(|t| {
                    let mut t = t.to_value();
                    if let Some(o) = t.as_object_mut() {
                        o.remove("output_schema");
                    }
                    t.to_string()
                })
                .unwrap_or_else(|| panic!("{d}: no {name}"))
        };
        let (filings, log) = (text("list_filings"), text("git_log"));
        let strict = matches!(
            d,
            Dialect::OpenAiResponses
                | Dialect::OpenAiChat
                | Dialect::AnthropicStrict
                | Dialect::Gemini
        );
        for t in [&filings, &log] {
            assert_eq!(t.contains("x-served"), !strict, "{d}: {t}");
        }
        assert!(
            filings.contains("2001") && filings.contains("2026"),
            "{d}: {filings}"
        );
        // A served date bound: a keyword marked `x-served`, or words that say
        // it is one of service.
        assert!(
            filings.contains("The tool serves nothing earlier than 2001-01-01")
                || filings.contains(r#""formatMinimum":"2001-01-01","x-served":["formatMinimum"]"#),
            "{d}: {filings}"
        );
        assert!(!filings.contains("Must be no earlier"), "{d}: {filings}");
        assert!(log.contains("100"), "{d}: {log}");
        // A numeric served bound moved into words says it is one of service,
        // apart from a bound of form on the same value.
        if !filings.contains(r#""minimum":2001"#) {
            assert!(
                filings.contains("(the tool serves from 2001 to 2026)"),
                "{d}: {filings}"
            );
            assert!(
                log.contains("(at least 1; the tool serves at most 100)"),
                "{d}: {log}"
            );
        }
    }
}
