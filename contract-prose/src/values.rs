//! Numbers as prose writes them: digits, number words, dates and "January 2001".

use super::tokens::*;

#[rustfmt::skip]
pub(super) const NUMBER_WORDS: &[&str] = &[
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    "twenty",
];

#[rustfmt::skip]
pub(super) const MONTHS: &[&str] = &[
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec",
];

#[derive(Clone, Copy, Debug)]
pub(super) struct Val {
    pub(super) v: f64,
    /// Index of the value's last token.
    pub(super) end: usize,
    pub(super) year: bool,
    pub(super) date: bool,
    pub(super) word: bool,
    /// The calendar day as written, for a full date (`2001-01-31`): `v` is
    /// only its year, and a bound read from it is declared with the day.
    pub(super) day: Option<Day>,
}

impl Val {
    /// A plain number ending at token `end`: no year, no date, no number word.
    fn number(v: f64, end: usize) -> Val {
        Val {
            v,
            end,
            year: false,
            date: false,
            word: false,
            day: None,
        }
    }

    /// A date whose year is `v` ("2001-01-31", "January 2001"), with its day
    /// when one is written.
    fn date(v: f64, end: usize, day: Option<Day>) -> Val {
        Val {
            year: true,
            date: true,
            day,
            ..Val::number(v, end)
        }
    }
}

/// A calendar day written `YYYY-MM-DD`, kept as its ten bytes so that a
/// bound carrying it stays `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Day([u8; 10]);

impl Day {
    /// The day `s` starts with, if it starts with exactly `dddd-dd-dd` and
    /// no time follows (a date-time bound is declared with its time).
    pub(super) fn parse(s: &str) -> Option<Day> {
        if date_literal(s) != Some("date") {
            return None;
        }
        Some(Day(s.as_bytes().get(..10)?.try_into().ok()?))
    }

    /// `YYYY-MM-DD`; ordered as text, which is the calendar order.
    pub(super) fn as_str(&self) -> &str {
        // `parse` kept ten ASCII bytes: never the fallback
        std::str::from_utf8(&self.0).unwrap_or("")
    }
}

/// A date literal's format ("date" or "date-time"), if `s` starts with `dddd-dd-dd`.
pub(super) fn date_literal(s: &str) -> Option<&'static str> {
    let b = s.as_bytes();
    let d = |k: usize| b.get(k).is_some_and(|c| c.is_ascii_digit());
    let shape = (0..4).all(d)
        && b.get(4) == Some(&b'-')
        && d(5)
        && d(6)
        && b.get(7) == Some(&b'-')
        && d(8)
        && d(9);
    if !shape {
        return None;
    }
    match b.get(10) {
        None => Some("date"),
        Some(b't') | Some(b' ') if d(11) => Some("date-time"),
        Some(c) if !c.is_ascii_alphanumeric() => Some("date"),
        _ => None,
    }
}

pub(super) fn is_year(v: f64, digits: usize) -> bool {
    digits == 4 && v.fract() == 0.0 && (1800.0..=2199.0).contains(&v)
}

/// The day of a date run into its time: "31t10" in "2024-01-31T10:00:00Z", not "01to2022".
fn time_follows(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() >= 4 && b[..2].iter().all(u8::is_ascii_digit) && b[2] == b't' && b[3].is_ascii_digit()
}

/// A number at `i`: digits, a number word, a date (`2001-01-01`, in a code span or not), or "January 2001".
pub(super) fn value_at(t: &[Tok], i: usize) -> Option<Val> {
    let tok = t.get(i)?;
    if tok.s == "-"
        && kind(t, i + 1) == Some(Tk::Num)
        && (i == 0 || kind(t, i - 1) != Some(Tk::Num))
    {
        let v = value_at(t, i + 1)?;
        return Some(Val {
            word: v.word,
            ..Val::number(-v.v, v.end)
        });
    }
    // "(max ${MAX_TASKS_PER_OPERATION})" (Doist/todoist-ai), "up to
    // ${MAX_UPDATES_PER_CALL} per call" (mondaycom/mcp): a number written as
    // the placeholder of a TypeScript template, a constant's name whose value
    // the prose does not show (NaN: agreement and help say so)
    if tok.s == "$"
        && text(t, i + 1) == "{"
        && word(t, i + 2).contains('_')
        && text(t, i + 3) == "}"
    {
        return Some(Val::number(f64::NAN, i + 3));
    }
    match tok.k {
        Tk::Num => {
            let v = tok.num?;
            let date_chain = tok.digits == 4
                && text(t, i + 1) == "-"
                && kind(t, i + 2) == Some(Tk::Num)
                && t[i + 2].digits <= 2
                && text(t, i + 3) == "-"
                && (kind(t, i + 4) == Some(Tk::Num) || time_follows(word(t, i + 4)));
            if date_chain {
                // "2024-01-31T10:00" runs its time into the day: no day alone
                let written = format!("{}-{}-{}", tok.s, t[i + 2].s, t[i + 4].s);
                return Some(Val::date(v, i + 4, Day::parse(&written)));
            }
            Some(Val {
                year: is_year(v, tok.digits),
                ..Val::number(v, i)
            })
        }
        Tk::Word => {
            let first = tok.s.as_bytes().first().copied().unwrap_or(b' ');
            if !b"zotfsendjmaj".contains(&first) {
                return None;
            }
            if let Some(p) = NUMBER_WORDS.iter().position(|w| *w == tok.s) {
                return Some(Val {
                    word: true,
                    ..Val::number(p as f64, i)
                });
            }
            if MONTHS.contains(&tok.s.as_str()) && kind(t, i + 1) == Some(Tk::Num) {
                let y = &t[i + 1];
                let v = y.num?;
                if is_year(v, y.digits) {
                    return Some(Val::date(v, i + 1, None));
                }
            }
            None
        }
        Tk::Code => {
            if date_literal(&tok.s).is_some() {
                let v: f64 = tok.s[..4].parse().ok()?;
                return Some(Val::date(v, i, Day::parse(&tok.s)));
            }
            Some(Val::number(tok.s.parse().ok()?, i))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(doc: &str) -> Option<(f64, bool, bool)> {
        let t = tokenize(doc);
        value_at(&t, 0).map(|v| (v.v, v.year, v.date))
    }

    #[test]
    fn digits_words_dates_and_months() {
        assert_eq!(first("42"), Some((42.0, false, false)));
        assert_eq!(first("twelve"), Some((12.0, false, false)));
        assert_eq!(first("2001"), Some((2001.0, true, false)));
        assert_eq!(first("2001-01-31"), Some((2001.0, true, true)));
        assert_eq!(first("`2001-01-31`"), Some((2001.0, true, true)));
        assert_eq!(first("January 1990"), Some((1990.0, true, true)));
        assert_eq!(first("-90"), Some((-90.0, false, false)));
        assert_eq!(first("version"), None);
    }

    #[test]
    fn date_literal_shapes() {
        assert_eq!(date_literal("2024-01-31"), Some("date"));
        assert_eq!(date_literal("2024-01-31t10:00:00z"), Some("date-time"));
        assert_eq!(date_literal("2024-1-31"), None);
    }
}
