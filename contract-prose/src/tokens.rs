//! The tokenizer: a doc comment as lowercased words, numbers, code spans,
//! quoted strings and punctuation, each with its sentence number, and the
//! small helpers every family uses to look at them.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tk {
    Word,
    Num,
    Code,
    Quoted,
    Punct,
}

#[derive(Clone, Debug)]
pub(super) struct Tok {
    pub(super) k: Tk,
    /// Lowercased text (for code and quotes: the content without delimiters).
    pub(super) s: String,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) num: Option<f64>,
    /// Digits in the integer part of a number.
    pub(super) digits: usize,
    pub(super) sent: usize,
    /// An earlier word of the same sentence describes the output ("Returns ...").
    pub(super) output: bool,
    /// An earlier word of the same sentence introduces examples ("e.g.", "for example").
    pub(super) example: bool,
    /// The families that can start a finding at this token (see `finding::lead`).
    pub(super) lead: u8,
}

pub(super) fn closing_quote(c: char) -> Option<char> {
    match c {
        '"' => Some('"'),
        '\'' => Some('\''),
        '\u{201c}' => Some('\u{201d}'),
        '\u{2018}' => Some('\u{2019}'),
        _ => None,
    }
}

pub(super) const ABBREV: &[&str] = &[
    "e.g.", "i.e.", "etc", "vs", "max", "min", "approx", "no", "incl",
];

/// The character at `i`, or NUL past the end (the tokenizer's lookahead).
/// These helpers avoid `Option` adapters and the `char` methods' calls: an
/// unoptimized macro pays a call for each, on every character of every doc comment.
#[inline(always)]
fn ch(cs: &Chars, i: usize) -> char {
    if i >= cs.n {
        '\0'
    } else if cs.ascii {
        char::from(cs.bytes[i])
    } else {
        cs.cs[i].1
    }
}

// A pattern, not the `char` method: see `ch`.
#[allow(clippy::manual_is_ascii_check)]
#[inline(always)]
fn alpha(c: char) -> bool {
    matches!(c, 'a'..='z' | 'A'..='Z') || (c > '\x7f' && c.is_alphabetic())
}

#[inline(always)]
fn alnum(c: char) -> bool {
    matches!(c, 'a'..='z' | 'A'..='Z' | '0'..='9') || (c > '\x7f' && c.is_alphanumeric())
}

// A pattern, not the `char` method: see `ch`.
#[allow(clippy::manual_is_ascii_check)]
#[inline(always)]
fn digit(c: char) -> bool {
    matches!(c, '0'..='9')
}

// A pattern, not the `char` method: see `ch`.
#[allow(clippy::manual_is_ascii_check)]
#[inline(always)]
fn upper(c: char) -> bool {
    matches!(c, 'A'..='Z')
}

#[inline(always)]
fn space(c: char) -> bool {
    matches!(c, ' ' | '\n' | '\t' | '\r') || (c > '\x7f' && c.is_whitespace())
}

/// The byte offset of the character at `i`, or the text's length past the end.
#[inline(always)]
fn byte(cs: &Chars, i: usize) -> usize {
    if i >= cs.n {
        cs.bytes.len()
    } else if cs.ascii {
        i
    } else {
        cs.cs[i].0
    }
}

/// The characters of a doc comment: an ASCII text (the usual doc comment) is
/// read byte by byte; another text as characters with their byte offsets.
struct Chars<'a> {
    bytes: &'a [u8],
    cs: Vec<(usize, char)>,
    ascii: bool,
    n: usize,
}

pub(super) fn tokenize(doc: &str) -> Vec<Tok> {
    // Per-character work is what an unoptimized macro pays for: an ASCII text
    // is read byte by byte, and lowercased once, by the (optimized) standard
    // library, instead of word by word.
    let ascii = doc.is_ascii();
    let chars: Vec<(usize, char)> = if ascii {
        Vec::new()
    } else {
        doc.char_indices().collect()
    };
    let cs = Chars {
        bytes: doc.as_bytes(),
        n: if ascii { doc.len() } else { chars.len() },
        cs: chars,
        ascii,
    };
    let n = cs.n;
    let lowered = if ascii {
        doc.to_ascii_lowercase()
    } else {
        String::new()
    };
    let lower = |a: usize, b: usize| -> String {
        if ascii {
            lowered[a..b].to_string()
        } else {
            doc[a..b].to_lowercase()
        }
    };
    // about one token per five bytes of prose: no regrowth for most doc comments
    let mut out: Vec<Tok> = Vec::with_capacity(doc.len() / 5 + 8);
    let mut sent = 0;
    let mut i = 0;
    // the sentence an emphasized span opened at its start, until it closes
    let mut tag_open: Option<usize> = None;
    // an opening "__" was dropped: the word that closes it ends on "__"
    let mut underscores_open = false;
    // the bullet markers' tokens, for `label_bullets_open_sentences`
    let mut markers: Vec<usize> = Vec::new();
    let push = |out: &mut Vec<Tok>, k: Tk, s: String, a: usize, b: usize, sent: usize| {
        out.push(Tok {
            k,
            s,
            start: a,
            end: b,
            num: None,
            digits: 0,
            sent,
            output: false,
            example: false,
            lead: 0,
        });
    };
    // inside a list of lines each opening with a bullet marker, and whether
    // the list follows a lead's colon ("One of:\n- fast\n- slow")
    let (mut in_list, mut led) = (false, false);
    while i < n {
        let c = ch(&cs, i);
        if space(c) {
            let (mut nl, mut indent) = (0, 0);
            while i < n && space(ch(&cs, i)) {
                if ch(&cs, i) == '\n' {
                    (nl, indent) = (nl + 1, 0);
                } else {
                    indent += 1;
                }
                i += 1;
            }
            if nl >= 2 {
                sent += 1;
            }
            // "Run a query.\n- `limit`: at most 50\n- `mode`: one of ...": a
            // line opening with a bullet marker is an item of its own, so a
            // sentence of its own, though no period ends the line before;
            // the items of a list a lead's colon opens stay in its sentence
            // (the values the lead names: "One of:\n- fast\n- slow")
            if nl >= 1 && i < n {
                if line_bullet(&cs, i) {
                    if !in_list {
                        led = out.last().is_some_and(|t| t.s == ":");
                    }
                    in_list = true;
                    if !led && out.last().is_some_and(|t| t.sent == sent) {
                        sent += 1;
                    }
                } else if indent == 0 {
                    in_list = false;
                }
            }
            continue;
        }
        // A fenced code block is an example, never a statement: skip it.
        if c == '`' && ch(&cs, i + 1) == '`' && ch(&cs, i + 2) == '`' {
            let mut j = i + 3;
            while j < n && !(ch(&cs, j) == '`' && ch(&cs, j + 1) == '`' && ch(&cs, j + 2) == '`') {
                j += 1;
            }
            i = (j + 3).min(n);
            sent += 1;
            continue;
        }
        // "\`seed_ids\`": backticks escaped in a template literal (launchdarkly's
        // and firecrawl's MCP servers) are the code span the model reads
        if c == '\\' && ch(&cs, i + 1) == '`' {
            i += 1;
            continue;
        }
        if c == '`' {
            if let Some(j) = (i + 1..n).find(|&j| ch(&cs, j) == '`') {
                let close = if ch(&cs, j - 1) == '\\' { j - 1 } else { j };
                let s = lower(byte(&cs, i + 1), byte(&cs, close));
                push(&mut out, Tk::Code, s, byte(&cs, i), byte(&cs, j + 1), sent);
                i = j + 1;
                continue;
            }
        }
        if let Some(close) = closing_quote(c) {
            if i == 0 || !alnum(ch(&cs, i - 1)) {
                let lim = (i + 61).min(n);
                let mut found = None;
                for j in i + 1..lim {
                    let d = ch(&cs, j);
                    if d == '\n' {
                        break;
                    }
                    let closes = d == close || (close == '\'' && d == '\u{2019}');
                    if closes && j > i + 1 && !alnum(ch(&cs, j + 1)) {
                        found = Some(j);
                        break;
                    }
                }
                if let Some(j) = found {
                    let s = lower(byte(&cs, i + 1), byte(&cs, j));
                    let (a, b) = (byte(&cs, i), byte(&cs, j + 1));
                    push(&mut out, Tk::Quoted, s, a, b, sent);
                    i = j + 1;
                    continue;
                }
            }
            i += 1; // a stray quote or an apostrophe: drop it
            continue;
        }
        if digit(c) {
            let mut j = i;
            while digit(ch(&cs, j)) {
                j += 1;
            }
            while ch(&cs, j) == ','
                && (1..=3).all(|k| digit(ch(&cs, j + k)))
                && !digit(ch(&cs, j + 4))
            {
                j += 4;
            }
            let int_end = j;
            if ch(&cs, j) == '.' && digit(ch(&cs, j + 1)) {
                j += 1;
                while digit(ch(&cs, j)) {
                    j += 1;
                }
            }
            let a = byte(&cs, i);
            if alpha(ch(&cs, j)) || ch(&cs, j) == '_' {
                while alnum(ch(&cs, j)) || ch(&cs, j) == '_' {
                    j += 1;
                }
                let b = byte(&cs, j);
                push(&mut out, Tk::Word, lower(a, b), a, b, sent);
            } else {
                let text: String = doc[a..byte(&cs, j)].chars().filter(|c| *c != ',').collect();
                let digits = doc[a..byte(&cs, int_end)]
                    .chars()
                    .filter(|c| digit(*c))
                    .count();
                let num = text.parse::<f64>().ok();
                push(&mut out, Tk::Num, text, a, byte(&cs, j), sent);
                if let Some(tok) = out.last_mut() {
                    (tok.num, tok.digits) = (num, digits);
                }
            }
            i = j;
            continue;
        }
        // "**672**", "__Read-only__", "***x***": markdown emphasis says how a
        // value is shown, not what it is, so the reading sees through it. A
        // run of two or more stars or underscores that touches a word, a
        // number or a quotation on one side is dropped; a lone star stays (a
        // bullet, a wildcard), and so does a run between spaces.
        // "*at most* **50**": one star opening emphasis against a word, closed
        // by one star against a word later on its line, is dropped as two are
        // (a lone star, "*.txt", "a * b", "file*", stays)
        if c == '*' && ch(&cs, i + 1) != '*' && single_star_emphasis(&cs, i) {
            i += 1;
            continue;
        }
        if matches!(c, '*' | '_') && ch(&cs, i + 1) == c {
            let mut j = i;
            while ch(&cs, j) == c {
                j += 1;
            }
            let before = i > 0 && !space(ch(&cs, i - 1));
            let after = j < n && !space(ch(&cs, j));
            // "__Read-only__ The private IPv4 address." (linode's OpenAPI
            // spec): an emphasized tag that opens the description and is
            // followed by a capital or a code span marks the description,
            // it is not part of its text: its words are dropped, and the
            // description reads from the word after it
            if !before && after {
                underscores_open = c == '_';
                tag_open = out.is_empty().then_some(0);
            } else if before && tag_open.is_some() {
                let mut k = j;
                while k < n && space(ch(&cs, k)) {
                    k += 1;
                }
                if k > j && (upper(ch(&cs, k)) || ch(&cs, k) == '`') && out.len() <= 4 {
                    out.clear();
                }
                tag_open = None;
            }
            if before || after {
                i = j;
                continue;
            }
        }
        if alpha(c) || c == '_' {
            let mut j = i;
            loop {
                while alnum(ch(&cs, j)) || ch(&cs, j) == '_' {
                    j += 1;
                }
                let joiner = matches!(ch(&cs, j), '-' | '\'' | '\u{2019}');
                if joiner && alpha(ch(&cs, j + 1)) {
                    j += 1;
                    continue;
                }
                // "us-east-1", "eu-central-1" (upstash/mcp-server's regions,
                // digitalocean's "nyc-1"-like slugs): a hyphenated word that
                // ends on a number is one identifier, when the number ends it
                // (not "text-embedding-3-small", read on as before, nor
                // "ISO-3166-1", whose first part has no hyphen)
                if ch(&cs, j) == '-' && digit(ch(&cs, j + 1)) && (i..j).any(|k| ch(&cs, k) == '-') {
                    let mut k = j + 1;
                    while digit(ch(&cs, k)) {
                        k += 1;
                    }
                    let c = ch(&cs, k);
                    if !alnum(c) && c != '-' && c != '_' && !(c == '.' && digit(ch(&cs, k + 1))) {
                        j = k;
                    }
                }
                break;
            }
            // "content__", the closing half of "__content__": emphasis, not
            // part of the word (the opening half was dropped above)
            while underscores_open && j > i + 1 && ch(&cs, j - 1) == '_' && ch(&cs, j - 2) == '_' {
                underscores_open = false;
                j -= 2;
                while j > i + 1 && ch(&cs, j - 1) == '_' {
                    j -= 1;
                }
            }
            // "maxLength", "minItems": a JSON Schema keyword written in prose
            // ("* maxLength: 12", adyen-openapi) reads as the words "max
            // length", which every bound reader knows. Only the keywords
            // "maxLength", "minLength", "maxItems", "minItems": "minute",
            // "maximal" stay words, and so do names of other members,
            // "maxTtl", "minLat", "maxResults" (a member set to a value)
            if matches!(c, 'm' | 'M')
                && j >= i + 4
                && upper(ch(&cs, i + 3))
                && matches!((ch(&cs, i + 1), ch(&cs, i + 2)), ('a', 'x') | ('i', 'n'))
                && matches!(
                    lower(byte(&cs, i + 3), byte(&cs, j)).as_str(),
                    "length" | "items"
                )
            {
                let (a, m, b) = (byte(&cs, i), byte(&cs, i + 3), byte(&cs, j));
                push(&mut out, Tk::Word, lower(a, m), a, m, sent);
                push(&mut out, Tk::Word, lower(m, b), m, b, sent);
                i = j;
                continue;
            }
            let mut w = lower(byte(&cs, i), byte(&cs, j));
            // (an ASCII text has no curly apostrophe: the search, a call
            // into the standard library per word, was a tenth of the cost)
            if !ascii && w.contains('\u{2019}') {
                w = w.replace('\u{2019}', "'");
            }
            if (w == "e" || w == "i") && ch(&cs, j) == '.' && alpha(ch(&cs, j + 1)) {
                // "e.g." and "i.e.", also written without the last full stop
                let closed = ch(&cs, j + 2) == '.';
                if closed || !alnum(ch(&cs, j + 2)) {
                    w = format!("{}.{}.", w, ch(&cs, j + 1).to_ascii_lowercase());
                    j += if closed { 3 } else { 2 };
                }
            }
            push(&mut out, Tk::Word, w, byte(&cs, i), byte(&cs, j), sent);
            i = j;
            continue;
        }
        // punctuation
        let (p, len): (&str, usize) = match (c, ch(&cs, i + 1), ch(&cs, i + 2)) {
            ('.', '.', '=') => ("..=", 3),
            ('.', '.', _) => ("..", 2),
            ('<', '=', _) => ("<=", 2),
            ('>', '=', _) => (">=", 2),
            ('\u{2264}', _, _) => ("<=", 1),
            ('\u{2265}', _, _) => (">=", 1),
            ('\u{2013}', _, _) | ('\u{2212}', _, _) => ("-", 1),
            _ => ("", 1),
        };
        let s = if p.is_empty() {
            c.to_string()
        } else {
            p.to_string()
        };
        let a = byte(&cs, i);
        let b = byte(&cs, i + len);
        let ends =
            matches!(c, '.' | '!' | '?') && p.is_empty() && (i + 1 >= n || space(ch(&cs, i + 1)));
        // (asked only of a full stop that may end the sentence: a search of
        // the list at every punctuation mark cost 1.3% of the reader)
        let abbrev = || {
            out.last()
                .is_some_and(|t| t.k == Tk::Word && ABBREV.contains(&t.s.as_str()))
        };
        if matches!(c, '*' | '-' | '\u{2022}') {
            markers.push(out.len());
        }
        let ends = ends && !abbrev();
        push(&mut out, Tk::Punct, s, a, b, sent);
        if ends {
            sent += 1;
        }
        i += len;
    }
    if !markers.is_empty() {
        label_bullets_open_sentences(&mut out, &markers);
    }
    out
}

/// Whether the star at `i` opens or closes one-star emphasis: it opens when
/// it follows a space (or the start) and touches a letter, and a star that
/// touches a letter or digit before it and no word after it closes it on
/// the same line; it closes when such an opening star is before it.
fn single_star_emphasis(cs: &Chars, i: usize) -> bool {
    let word = |c: char| c.is_alphanumeric();
    let lone =
        |j: usize| ch(cs, j) == '*' && ch(cs, j + 1) != '*' && (j == 0 || ch(cs, j - 1) != '*');
    let opens =
        |j: usize| lone(j) && (j == 0 || space(ch(cs, j - 1))) && ch(cs, j + 1).is_alphabetic();
    let closes = |j: usize| {
        lone(j) && j > 0 && word(ch(cs, j - 1)) && (j + 1 >= cs.n || !word(ch(cs, j + 1)))
    };
    // (a few dozen characters each way: emphasis spans a few words)
    let line = |j: usize| ch(cs, j) != '\n';
    if opens(i) {
        return (i + 2..(i + 60).min(cs.n))
            .take_while(|&j| line(j))
            .any(closes);
    }
    closes(i)
        && (i.saturating_sub(60)..i)
            .rev()
            .take_while(|&j| line(j))
            .any(opens)
}

/// A bullet marker opening a line at `i`: `-`, `*`, `+` or `•` and a space,
/// or a number of one to three digits, `.` or `)` and a space ("1. ").
fn line_bullet(cs: &Chars, i: usize) -> bool {
    let gap = |j: usize| matches!(ch(cs, j), ' ' | '\t');
    if matches!(ch(cs, i), '-' | '*' | '+' | '\u{2022}') {
        return gap(i + 1);
    }
    let digits = (i..i + 4)
        .take_while(|&j| ch(cs, j).is_ascii_digit())
        .count();
    (1..=3).contains(&digits) && matches!(ch(cs, i + digits), '.' | ')') && gap(i + digits + 1)
}

/// "For example, 2000 means USD 20.00 * maxLength: 12", "* Example: Amsterdam
/// = AMS * Encoding: ASCII * minLength: 3 characters" (adyen-openapi, its
/// newlines collapsed): a bullet marker written apart that opens a "Label:"
/// item (one to three words and a colon) starts an item of its own, so a
/// sentence of its own: the example, the output or the condition of the
/// item before does not run into it. One pass, a few tokens looked at per
/// marker.
fn label_bullets_open_sentences(out: &mut [Tok], markers: &[usize]) {
    let n = out.len();
    let opens = |out: &[Tok], k: usize| -> bool {
        if !(matches!(out[k].k, Tk::Punct) && matches!(out[k].s.as_str(), "*" | "-" | "\u{2022}")) {
            return false;
        }
        // written apart, and not already the first token of its sentence,
        // nor the first bullet of a lead's list ("each containing the
        // following keys: - field_name: ...", agno-agi/agno: the lead names
        // what the bullets are, members)
        if k == 0 || k + 1 >= n || out[k - 1].sent != out[k].sent || out[k - 1].s == ":" {
            return false;
        }
        if !(out[k - 1].end < out[k].start && out[k].end < out[k + 1].start) {
            return false;
        }
        let words = (k + 1..n.min(k + 4))
            .take_while(|&m| out[m].k == Tk::Word)
            .count();
        words >= 1 && k + 1 + words < n && out[k + 1 + words].s == ":"
    };
    // (read on the sentences as the tokenizer numbered them, then renumbered;
    // only a marker is looked at, most doc comments have none)
    let marks: Vec<usize> = markers.iter().copied().filter(|&k| opens(out, k)).collect();
    let Some(&first) = marks.first() else {
        return;
    };
    let mut bump = 0;
    let mut next = 0;
    for (k, tok) in out.iter_mut().enumerate().skip(first) {
        if marks.get(next) == Some(&k) {
            bump += 1;
            next += 1;
        }
        tok.sent += bump;
    }
}

/// The text of a code span or quotation without its delimiters, as written
/// (the delimiters can be several bytes long: curly quotes).
pub(super) fn inner<'d>(doc: &'d str, tok: &Tok) -> &'d str {
    let mut cs = doc[tok.start..tok.end].chars();
    cs.next();
    cs.next_back();
    cs.as_str()
}

#[inline(always)]
pub(super) fn word(t: &[Tok], i: usize) -> &str {
    match t.get(i) {
        Some(x) if x.k == Tk::Word => &x.s,
        _ => "",
    }
}

/// Text of a word, number or punctuation token (never of code or quotes).
#[inline(always)]
pub(super) fn text(t: &[Tok], i: usize) -> &str {
    match t.get(i) {
        Some(x) if matches!(x.k, Tk::Word | Tk::Punct | Tk::Num) => &x.s,
        _ => "",
    }
}

#[inline(always)]
pub(super) fn kind(t: &[Tok], i: usize) -> Option<Tk> {
    t.get(i).map(|x| x.k)
}

#[inline(always)]
pub(super) fn seq(t: &[Tok], i: usize, words: &[&str]) -> bool {
    words.iter().enumerate().all(|(k, w)| text(t, i + k) == *w)
}

#[inline(always)]
pub(super) fn prev_word(t: &[Tok], i: usize, back: usize) -> &str {
    if i < back || t[i - back].sent != t[i].sent {
        ""
    } else {
        word(t, i - back)
    }
}

/// The first token of the sentence of token `i`.
pub(super) fn sentence_start(t: &[Tok], i: usize) -> usize {
    let mut k = i;
    while k > 0 && t[k - 1].sent == t[i].sent {
        k -= 1;
    }
    k
}

#[inline(always)]
pub(super) fn is_lit(t: &[Tok], i: usize) -> bool {
    matches!(kind(t, i), Some(Tk::Code) | Some(Tk::Quoted))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(doc: &str) -> Vec<(Tk, String, usize)> {
        tokenize(doc)
            .into_iter()
            .map(|t| (t.k, t.s, t.sent))
            .collect()
    }

    /// The text of each token of `doc`.
    fn words(doc: &str) -> Vec<String> {
        shown(doc).into_iter().map(|t| t.1).collect()
    }

    #[test]
    fn markdown_emphasis_is_seen_through() {
        // adyen-openapi: "Maximum value: **672** (28 days)", "* **01** — No
        // suspicious activity"; linode (batch 9): "__Read-only__ The ..."
        assert_eq!(words("Maximum value: **672** (28 days)")[3], "672");
        assert_eq!(words("* **01** - No")[..3], ["*", "01", "-"]);
        assert_eq!(words("__Read-only__ the")[..2], ["read-only", "the"]);
        assert_eq!(words("***x***"), ["x"]);
        // not emphasis: a lone star (a bullet, a wildcard), a run between
        // spaces, a snake_case name, a double underscore inside a name
        assert_eq!(words("* a"), ["*", "a"]);
        assert_eq!(words("a ** b"), ["a", "*", "*", "b"]);
        assert_eq!(words("max_length and a__b"), ["max_length", "and", "a__b"]);
    }

    #[test]
    fn a_hyphenated_identifier_ending_on_a_number_is_one_word() {
        // upstash/mcp-server: "us-east-1, eu-central-1"
        assert_eq!(
            words("us-east-1, eu-central-1."),
            ["us-east-1", ",", "eu-central-1", "."]
        );
        // not a word that has no hyphen before its number, a number that
        // runs on, a version
        assert_eq!(words("alpha-2")[0], "alpha");
        assert_eq!(words("text-embedding-3-small")[0], "text-embedding");
        assert_eq!(words("us-east-2.5")[0], "us-east");
    }

    #[test]
    fn a_bullet_opening_a_label_opens_a_sentence() {
        // adyen-openapi: "For example, 2000 means USD 20.00 * maxLength: 12",
        // "* Example: Amsterdam = AMS * Encoding: ASCII * minLength: 3"
        let sents = |doc: &str| -> Vec<usize> { shown(doc).into_iter().map(|t| t.2).collect() };
        let t = shown("For example, 2000 means USD 20.00 * maxLength: 12");
        let star = t.iter().position(|x| x.1 == "*").unwrap();
        assert_eq!(t[star - 1].2, 0);
        assert!(t[star..].iter().all(|x| x.2 == 1));
        assert_eq!(
            sents("* Example: AMS * Encoding: ASCII * Max length: 3"),
            [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2]
        );
        // not a bullet that opens no label, one written against a word, the
        // first bullet after a lead's colon (agno-agi/agno: "the following
        // keys: - field_name: ..."), a product "a * b"
        assert!(sents("Values: * a * b").iter().all(|&s| s == 0));
        assert!(sents("keys: - field_name: the name")
            .iter()
            .all(|&s| s == 0));
        assert!(sents("2 * 3 is 6").iter().all(|&s| s == 0));
        assert!(sents("x*Note: y").iter().all(|&s| s == 0));
    }

    /// The third lint audit's D1: a line opening with a bullet marker opens
    /// a sentence, though no period ends the line before; the items of a
    /// list a lead's colon opens stay in the lead's sentence.
    #[test]
    fn a_line_opening_with_a_bullet_opens_a_sentence() {
        let sents = |doc: &str| -> Vec<usize> { shown(doc).into_iter().map(|t| t.2).collect() };
        assert_eq!(sents("a\n- b c\n* d\n+ e"), [0, 1, 1, 1, 2, 2, 3, 3]);
        assert_eq!(sents("a.\n- b\n- c"), [0, 0, 1, 1, 2, 2]);
        // (a number's full stop ends its sentence as before: "1." alone)
        assert_eq!(sents("a\n1. b\n2) c"), [0, 1, 1, 2, 3, 3, 3]);
        // a lead's colon keeps its list; a continuation line stays in its item
        assert!(sents("One of:\n- fast\n- slow").iter().all(|&s| s == 0));
        assert_eq!(sents("a\n- b\n  c\n- d"), [0, 1, 1, 1, 2, 2]);
        // not a marker: a minus sign, a dash inside a line, emphasis
        assert!(sents("a\n-5 b").iter().all(|&s| s == 0));
        assert!(sents("a - b\nc").iter().all(|&s| s == 0));
        assert!(sents("a\n**b** c").iter().all(|&s| s == 0));
        // one star of emphasis is seen through as two are; a lone star stays
        assert_eq!(
            words("*at most* **50** results"),
            ["at", "most", "50", "results"]
        );
        assert_eq!(shown("*.txt or file*").len(), 6);
    }

    #[test]
    fn an_emphasized_tag_opening_the_description_is_dropped() {
        // linode (batch 9): "__Read-only__ The private IPv4 address.";
        // openai-openapi: "**SIP Only:** Returned when ..."
        assert_eq!(words("__Read-only__ The private IPv4 address.")[0], "the");
        assert_eq!(words("**SIP Only:** Returned when")[0], "returned");
        // not a tag inside the text, one followed by lowercase text, nor a
        // long one (a condition: "**gpt-5 and o-series models only**")
        assert_eq!(words("The **bold** Word")[1], "bold");
        assert_eq!(words("**Note** that it")[0], "note");
        assert_eq!(
            words("**gpt-5 and o-series models only** Configuration")[0],
            "gpt"
        );
    }

    #[test]
    fn a_json_schema_keyword_reads_as_its_words() {
        // adyen-openapi: "* minLength: 3 characters * maxLength: 6 characters"
        assert_eq!(words("maxLength: 12"), ["max", "length", ":", "12"]);
        assert_eq!(words("minItems"), ["min", "items"]);
        // not a keyword: a word that only starts with the letters, lowercase
        // or running on, nor a code span
        assert_eq!(
            words("minute maximal maxlength"),
            ["minute", "maximal", "maxlength"]
        );
        assert_eq!(words("MINIMUM mInLength"), ["minimum", "minlength"]);
        assert_eq!(
            words("maxTtl: 3600, minLat"),
            ["maxttl", ":", "3600", ",", "minlat"]
        );
        assert_eq!(words("`maxLength`"), ["maxlength"]);
    }

    #[test]
    fn kinds_text_and_sentences() {
        let t = shown("Use `asc`, e.g. 1,000 items. Then 'x'");
        let kinds: Vec<Tk> = t.iter().map(|x| x.0).collect();
        assert_eq!(
            kinds,
            [
                Tk::Word,
                Tk::Code,
                Tk::Punct,
                Tk::Word,
                Tk::Num,
                Tk::Word,
                Tk::Punct,
                Tk::Word,
                Tk::Quoted
            ]
        );
        assert_eq!(t[3].1, "e.g.");
        assert_eq!(t[4].1, "1000");
        // "e.g." does not end the sentence; the full stop after "items" does
        assert_eq!(t[5].2, 0);
        assert_eq!(t[7].2, 1);
    }

    #[test]
    fn fenced_code_is_skipped_and_ranges_become_punctuation() {
        let t = shown("Before\n```\nat most 5\n```\n1..=9, 1\u{2013}9");
        let text: Vec<&str> = t.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(text, ["before", "1", "..=", "9", ",", "1", "-", "9"]);
    }

    #[test]
    fn escaped_backticks_delimit_code() {
        // launchdarkly/mcp-server and firecrawl/firecrawl-mcp-server write
        // "\\`spec\\`" in template literals; a lone backslash stays punctuation
        let t = shown("from one to ten \\`seed_ids\\`; a \\ b");
        assert_eq!(t[4], (Tk::Code, "seed_ids".to_string(), 0));
        assert_eq!(t[7].1, "\\");
    }

    #[test]
    fn sentence_starts() {
        let t = tokenize("One two. Three four.");
        assert_eq!(sentence_start(&t, 1), 0);
        assert_eq!(sentence_start(&t, 4), 3);
        assert_eq!(sentence_start(&t, 3), 3);
    }

    #[test]
    fn apostrophes_join_words_and_stray_quotes_drop() {
        let t = shown("can't exceed 5\" of the user's");
        let text: Vec<&str> = t.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(text, ["can't", "exceed", "5", "of", "the", "user's"]);
    }
}
