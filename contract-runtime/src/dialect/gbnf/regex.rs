//! The regular expressions contracts allow (`pattern = "..."`), read into a
//! small tree the grammar can be written from.
//!
//! Only what is certain to match a subset of what the runtime's `regex`
//! crate matches is translated: `\d`, `\w` and `\s` become their ASCII
//! classes (the runtime reads them as Unicode classes, which contain the
//! ASCII ones), and a negated class or shorthand that mentions them is
//! complemented within ASCII. Word boundaries and Unicode property classes
//! have no translation and are refused with the pattern named.

/// A set of Unicode scalar values, as sorted, disjoint, inclusive ranges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CharSet(pub(crate) Vec<(u32, u32)>);

/// The largest Unicode scalar value.
pub(crate) const MAX_CHAR: u32 = 0x10_FFFF;
const SURROGATES: (u32, u32) = (0xD800, 0xDFFF);

impl CharSet {
    pub(crate) fn empty() -> Self {
        CharSet(Vec::new())
    }

    pub(crate) fn one(c: u32) -> Self {
        CharSet(vec![(c, c)])
    }

    pub(crate) fn range(a: u32, b: u32) -> Self {
        let mut s = CharSet(vec![(a.min(b), a.max(b))]);
        s.normalize();
        s
    }

    fn add(&mut self, other: &CharSet) {
        self.0.extend_from_slice(&other.0);
        self.normalize();
    }

    /// Sorts and merges the ranges, and removes the surrogates (which are
    /// not characters a JSON string can carry on its own).
    fn normalize(&mut self) {
        let mut v: Vec<(u32, u32)> = Vec::with_capacity(self.0.len() + 1);
        for &(a, b) in &self.0 {
            if a <= SURROGATES.1 && b >= SURROGATES.0 {
                if a < SURROGATES.0 {
                    v.push((a, SURROGATES.0 - 1));
                }
                if b > SURROGATES.1 {
                    v.push((SURROGATES.1 + 1, b));
                }
            } else {
                v.push((a, b));
            }
        }
        v.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(v.len());
        for (a, b) in v {
            match merged.last_mut() {
                Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        self.0 = merged;
    }

    /// The characters of `within` not in this set.
    pub(crate) fn complement(&self, within: u32) -> CharSet {
        let mut out = Vec::new();
        let mut next = 0u32;
        for &(a, b) in &self.0 {
            if a > within {
                break;
            }
            if a > next {
                out.push((next, a - 1));
            }
            next = b.saturating_add(1);
        }
        if next <= within {
            out.push((next, within));
        }
        let mut s = CharSet(out);
        s.normalize();
        s
    }

    pub(crate) fn intersect(&self, other: &CharSet) -> CharSet {
        let mut out = Vec::new();
        for &(a, b) in &self.0 {
            for &(c, d) in &other.0 {
                let (lo, hi) = (a.max(c), b.min(d));
                if lo <= hi {
                    out.push((lo, hi));
                }
            }
        }
        let mut s = CharSet(out);
        s.normalize();
        s
    }

    pub(crate) fn contains(&self, c: u32) -> bool {
        self.0.iter().any(|&(a, b)| a <= c && c <= b)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every character but the surrogates.
    pub(crate) fn any() -> CharSet {
        CharSet::range(0, MAX_CHAR)
    }
}

/// A regular expression, anchors resolved.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Re {
    /// One character of the set.
    Set(CharSet),
    /// One after the other.
    Seq(Vec<Re>),
    /// One of.
    Alt(Vec<Re>),
    /// `min` to `max` (unbounded when `None`) repetitions.
    Rep(Box<Re>, u32, Option<u32>),
}

impl Re {
    /// The fewest and the most characters a match has (`None`: no limit).
    pub(crate) fn lengths(&self) -> (u64, Option<u64>) {
        match self {
            Re::Set(_) => (1, Some(1)),
            Re::Seq(items) => items.iter().fold((0, Some(0)), |(lo, hi), r| {
                let (a, b) = r.lengths();
                (lo + a, hi.zip(b).map(|(x, y)| x + y))
            }),
            Re::Alt(items) => {
                let mut lo = u64::MAX;
                let mut hi = Some(0);
                for r in items {
                    let (a, b) = r.lengths();
                    lo = lo.min(a);
                    hi = hi.zip(b).map(|(x, y)| x.max(y));
                }
                (if items.is_empty() { 0 } else { lo }, hi)
            }
            Re::Rep(r, min, max) => {
                let (a, b) = r.lengths();
                let hi = match (b, max) {
                    (Some(0), _) => Some(0),
                    (Some(b), Some(m)) => Some(b * u64::from(*m)),
                    _ => None,
                };
                (a * u64::from(*min), hi)
            }
        }
    }
}

/// Reads a contract pattern into a tree matching whole strings: a branch
/// without `^` may be preceded, and one without `$` followed, by any text.
pub(crate) fn parse(pattern: &str) -> Result<Re, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut p = Parser { chars, i: 0 };
    let branches = p.top()?;
    let mut alts = Vec::with_capacity(branches.len());
    for mut items in branches {
        let start = matches!(items.first(), Some(Item::Start));
        if start {
            items.remove(0);
        }
        let end = matches!(items.last(), Some(Item::End));
        if end {
            items.pop();
        }
        let mut seq = Vec::with_capacity(items.len() + 2);
        if !start {
            seq.push(Re::Rep(Box::new(Re::Set(CharSet::any())), 0, None));
        }
        for item in items {
            match item {
                Item::Re(r) => seq.push(r),
                Item::Start | Item::End => {
                    return Err(
                        "an anchor (`^` or `$`) inside the pattern, not at the start or end of a top-level branch"
                            .to_owned(),
                    )
                }
            }
        }
        if !end {
            seq.push(Re::Rep(Box::new(Re::Set(CharSet::any())), 0, None));
        }
        alts.push(simplify(Re::Seq(seq)));
    }
    Ok(if alts.len() == 1 {
        alts.remove(0)
    } else {
        Re::Alt(alts)
    })
}

fn simplify(r: Re) -> Re {
    match r {
        Re::Seq(mut v) if v.len() == 1 => simplify(v.remove(0)),
        Re::Seq(v) => Re::Seq(v.into_iter().map(simplify).collect()),
        Re::Alt(mut v) if v.len() == 1 => simplify(v.remove(0)),
        Re::Alt(v) => Re::Alt(v.into_iter().map(simplify).collect()),
        Re::Rep(r, a, b) => Re::Rep(Box::new(simplify(*r)), a, b),
        s => s,
    }
}

enum Item {
    Re(Re),
    Start,
    End,
}

struct Parser {
    chars: Vec<char>,
    i: usize,
}

const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
const SPACE: &[(u32, u32)] = &[(0x09, 0x0D), (0x20, 0x20)];

/// An escape's meaning: a set, and whether the runtime reads it more widely
/// than the grammar does (a Unicode-aware shorthand).
struct Escaped {
    set: CharSet,
    unicode_wide: bool,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    /// Top-level branches, anchors kept as items.
    fn top(&mut self) -> Result<Vec<Vec<Item>>, String> {
        let mut branches = vec![self.items(true)?];
        while self.peek() == Some('|') {
            self.i += 1;
            branches.push(self.items(true)?);
        }
        if let Some(c) = self.peek() {
            return Err(format!("unexpected `{c}` at character {}", self.i));
        }
        Ok(branches)
    }

    /// A sequence up to `|`, `)` or the end.
    fn items(&mut self, top: bool) -> Result<Vec<Item>, String> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            match c {
                '|' | ')' => break,
                '^' | '$' => {
                    if !top {
                        return Err(format!(
                            "an anchor `{c}` inside a group (character {})",
                            self.i
                        ));
                    }
                    self.i += 1;
                    items.push(if c == '^' { Item::Start } else { Item::End });
                }
                _ => {
                    let atom = self.atom()?;
                    let r = self.quantified(atom)?;
                    items.push(Item::Re(r));
                }
            }
        }
        Ok(items)
    }

    fn group_body(&mut self) -> Result<Re, String> {
        let mut alts = vec![seq_of(self.items(false)?)];
        while self.peek() == Some('|') {
            self.i += 1;
            alts.push(seq_of(self.items(false)?));
        }
        if self.peek() != Some(')') {
            return Err("unclosed `(`".to_owned());
        }
        self.i += 1;
        Ok(if alts.len() == 1 {
            alts.remove(0)
        } else {
            Re::Alt(alts)
        })
    }

    fn atom(&mut self) -> Result<Re, String> {
        let c = self.peek().ok_or("the pattern ends early")?;
        let at = self.i;
        self.i += 1;
        match c {
            '(' => {
                if self.peek() == Some('?') {
                    let rest: String = self.chars[self.i..].iter().take(2).collect();
                    if rest.starts_with("?:") {
                        self.i += 2;
                    } else if rest.starts_with("?P") || rest.starts_with("?<") {
                        let end = self.chars[self.i..]
                            .iter()
                            .position(|&c| c == '>')
                            .ok_or("unclosed group name")?;
                        self.i += end + 1;
                    } else {
                        return Err(format!("group syntax `(?` at character {at}"));
                    }
                }
                self.group_body()
            }
            '[' => self.class().map(Re::Set),
            '.' => Ok(Re::Set(
                CharSet::any().intersect(&CharSet::one(0x0A).complement(MAX_CHAR)),
            )),
            '\\' => {
                let e = self.escape(false)?;
                Ok(Re::Set(e.set))
            }
            '*' | '+' | '?' | '{' => Err(format!("`{c}` at character {at} repeats nothing")),
            c => Ok(Re::Set(CharSet::one(c as u32))),
        }
    }

    fn quantified(&mut self, atom: Re) -> Result<Re, String> {
        let mut r = atom;
        loop {
            let (min, max) = match self.peek() {
                Some('*') => {
                    self.i += 1;
                    (0, None)
                }
                Some('+') => {
                    self.i += 1;
                    (1, None)
                }
                Some('?') => {
                    self.i += 1;
                    (0, Some(1))
                }
                Some('{') => {
                    let end = self.chars[self.i..]
                        .iter()
                        .position(|&c| c == '}')
                        .ok_or("unclosed `{`")?;
                    let body: String = self.chars[self.i + 1..self.i + end].iter().collect();
                    let bad = || format!("invalid repetition `{{{body}}}`");
                    let (lo, hi) = match body.split_once(',') {
                        Some((a, b)) => {
                            let hi = if b.trim().is_empty() {
                                None
                            } else {
                                Some(b.trim().parse::<u32>().map_err(|_| bad())?)
                            };
                            (a.trim().parse::<u32>().map_err(|_| bad())?, hi)
                        }
                        None => {
                            let n = body.trim().parse::<u32>().map_err(|_| bad())?;
                            (n, Some(n))
                        }
                    };
                    self.i += end + 1;
                    (lo, hi)
                }
                _ => return Ok(r),
            };
            // A lazy quantifier matches the same strings.
            if self.peek() == Some('?') {
                self.i += 1;
            }
            r = Re::Rep(Box::new(r), min, max);
        }
    }

    /// A class after its `[`.
    fn class(&mut self) -> Result<CharSet, String> {
        let start = self.i - 1;
        let negated = self.peek() == Some('^');
        if negated {
            self.i += 1;
        }
        let mut set = CharSet::empty();
        let mut wide = false;
        let mut first = true;
        loop {
            let c = self
                .peek()
                .ok_or_else(|| format!("unclosed `[` at character {start}"))?;
            if c == ']' && !first {
                self.i += 1;
                break;
            }
            first = false;
            self.i += 1;
            let lo = if c == '\\' {
                let e = self.escape(true)?;
                wide |= e.unicode_wide;
                match single(&e.set) {
                    Some(one) => one,
                    None => {
                        set.add(&e.set);
                        continue;
                    }
                }
            } else {
                c as u32
            };
            // A range `a-z` (a `-` first or last is a literal).
            if self.peek() == Some('-') && self.chars.get(self.i + 1).is_some_and(|&n| n != ']') {
                self.i += 1;
                let h = self.peek().ok_or("unclosed class range")?;
                self.i += 1;
                let hi = if h == '\\' {
                    let e = self.escape(true)?;
                    single(&e.set).ok_or("a class range ends in a shorthand class")?
                } else {
                    h as u32
                };
                if hi < lo {
                    return Err(format!("class range out of order at character {}", self.i));
                }
                set.add(&CharSet::range(lo, hi));
            } else {
                set.add(&CharSet::one(lo));
            }
        }
        if negated {
            // The runtime reads \d, \w, \s as Unicode classes: their
            // complement is taken within ASCII only, to stay a subset.
            let within = if wide { 0x7F } else { MAX_CHAR };
            Ok(set.complement(within))
        } else {
            Ok(set)
        }
    }

    /// An escape after its `\`.
    fn escape(&mut self, in_class: bool) -> Result<Escaped, String> {
        let at = self.i - 1;
        let e = self.peek().ok_or("the pattern ends with a lone `\\`")?;
        self.i += 1;
        let fixed = |c: u32| {
            Ok(Escaped {
                set: CharSet::one(c),
                unicode_wide: false,
            })
        };
        let class = |ranges: &[(u32, u32)], negated: bool| {
            let set = CharSet(ranges.to_vec());
            Ok(Escaped {
                set: if negated { set.complement(0x7F) } else { set },
                unicode_wide: true,
            })
        };
        match e {
            'd' => class(DIGIT, false),
            'D' => class(DIGIT, true),
            'w' => class(WORD, false),
            'W' => class(WORD, true),
            's' => class(SPACE, false),
            'S' => class(SPACE, true),
            'n' => fixed(0x0A),
            'r' => fixed(0x0D),
            't' => fixed(0x09),
            'f' => fixed(0x0C),
            'v' => fixed(0x0B),
            '0' => fixed(0),
            'x' => {
                let (hex, len) = if self.peek() == Some('{') {
                    let end = self.chars[self.i..]
                        .iter()
                        .position(|&c| c == '}')
                        .ok_or("unclosed `\\x{`")?;
                    (
                        self.chars[self.i + 1..self.i + end].iter().collect::<String>(),
                        end + 1,
                    )
                } else {
                    (self.chars[self.i..].iter().take(2).collect::<String>(), 2)
                };
                let c = u32::from_str_radix(&hex, 16)
                    .map_err(|_| format!("invalid hex escape at character {at}"))?;
                self.i += len;
                fixed(c)
            }
            'b' | 'B' if !in_class => Err(format!(
                "the word boundary `\\{e}` has no equivalent in a grammar"
            )),
            'p' | 'P' => Err(format!(
                "the Unicode class `\\{e}{{...}}` has no translation here; write the characters as a class"
            )),
            c if c.is_ascii_punctuation() || c == ' ' => fixed(c as u32),
            c => Err(format!("unknown escape `\\{c}` at character {at}")),
        }
    }
}

fn single(s: &CharSet) -> Option<u32> {
    match s.0.as_slice() {
        [(a, b)] if a == b => Some(*a),
        _ => None,
    }
}

fn seq_of(items: Vec<Item>) -> Re {
    Re::Seq(
        items
            .into_iter()
            .filter_map(|i| match i {
                Item::Re(r) => Some(r),
                _ => None,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchored_repetition() {
        let r = parse("^[A-Z]{1,5}$").unwrap();
        assert_eq!(
            r,
            Re::Rep(Box::new(Re::Set(CharSet::range(65, 90))), 1, Some(5))
        );
        assert_eq!(r.lengths(), (1, Some(5)));
    }

    #[test]
    fn unanchored_sides_take_any_text() {
        let r = parse("ab").unwrap();
        assert_eq!(r.lengths(), (2, None));
    }

    #[test]
    fn negated_class_and_shorthand() {
        let Re::Rep(inner, 0, None) = parse("^[^\\x00]*$").unwrap() else {
            panic!("a repetition")
        };
        let Re::Set(s) = *inner else { panic!("a set") };
        assert!(!s.contains(0) && s.contains(1) && s.contains(0x10FFFF) && !s.contains(0xD800));
        let Re::Set(s) = parse("^[^\\d]$").unwrap() else {
            panic!("a set")
        };
        assert!(s.contains('a' as u32) && !s.contains('5' as u32) && !s.contains(0x663));
    }

    #[test]
    fn refusals_name_the_construct() {
        assert!(parse("\\bword").unwrap_err().contains("word boundary"));
        assert!(parse("\\p{L}+").unwrap_err().contains("Unicode class"));
        assert!(parse("a^b").unwrap_err().contains("anchor"));
    }
}
