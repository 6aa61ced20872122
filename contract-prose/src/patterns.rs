//! Family: patterns (Pattern): "lowercase letters and digits only", "must
//! match `^[A-Z]{1,5}$`", "no spaces", "must start with a letter",
//! "kebab-case", "E.164", "ISO 3166 country code", "a 6-digit code", "hex
//! string", "semver". Each `pub(super) fn` taking a `Cx` is the reader of
//! the [`TABLE`](crate::TABLE) row of its name, run by the driver in the
//! table's order; the row says what it reads and what it must not.

use super::finding::*;
use super::formats::format_of_text;
use super::help::regex_literal;
use super::reader::{Cx, Out, NEXT};
use super::tokens::*;
use super::units::class_of;
use super::values::NUMBER_WORDS;

pub(super) const CLASS_WORDS: &[(&str, &str)] = &[
    ("letters", "A-Za-z"),
    ("letter", "A-Za-z"),
    ("digits", "0-9"),
    ("numbers", "0-9"),
    ("numerals", "0-9"),
    ("hyphens", "-"),
    ("hyphen", "-"),
    ("dashes", "-"),
    ("underscores", "_"),
    ("underscore", "_"),
    ("periods", "."),
    ("dots", "."),
    ("alphanumeric", "A-Za-z0-9"),
    ("alphanumerics", "A-Za-z0-9"),
    // "Must only include uppercase alphabetic characters, underscores, and commas"
    // (digitalocean's OpenAPI spec); "may contain letters, numbers, spaces,
    // hyphens, and underscores" (hashicorp's terraform MCP server)
    ("alphabetic", "A-Za-z"),
    ("commas", ","),
    ("spaces", " "),
];

/// Pushes a Pattern finding over tokens `t0..=t1`, with its regex when the
/// words give one, and settles the reader's token.
fn shape(out: &mut Out, re: Option<String>, t0: usize, t1: usize) -> Option<usize> {
    out.push(found(What::Pattern(re), t0, t1));
    NEXT
}

pub(super) fn decimal_places(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "Up to 2 decimal points", "five decimal places": the value's precision
    let read = w == "decimal"
        && matches!(
            word(t, i + 1),
            "places" | "place" | "points" | "point" | "digits"
        )
        && (kind(t, i.wrapping_sub(1)) == Some(Tk::Num) || !prev_word(t, i, 1).is_empty())
        && !in_example(t, i);
    read.then(|| shape(out, None, i, i + 1))?
}

pub(super) fn hex_characters(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    let read = matches!(w, "hex" | "hexadecimal")
        && (matches!(word(t, i + 1), "string" | "digits" | "characters")
            || matches!(word(t, i + 1), "chars" | "color" | "colour"));
    read.then(|| shape(out, Some(hex()), i, i + 1))?
}

/// Character classes: "lowercase letters, digits and hyphens only", "alphanumeric".
pub(super) fn character_classes(Cx { t, doc, w, out, .. }: Cx, i: usize) -> Option<usize> {
    let is_class = |k: usize| {
        let x = word(t, k);
        !x.is_empty()
            && (CLASS_WORDS.iter().any(|(c, _)| *c == x)
                || (class_of(x).is_some() && !matches!(x, "hex" | "hexadecimal")))
    };
    // start a run of class words at its first word only
    let mid_run = i > 0
        && (is_class(i - 1)
            || (matches!(text(t, i - 1), "," | "and" | "or") && i > 1 && is_class(i - 2)));
    if !is_class(i) || mid_run {
        return None;
    }
    let mut k = i;
    let mut classes: Vec<&str> = Vec::new();
    let mut case: Option<&str> = None;
    let mut count = 0;
    loop {
        let x = word(t, k);
        if let Some((_, c)) = CLASS_WORDS.iter().find(|(c, _)| *c == x) {
            let c = if c.contains("A-Za-z") && !c.contains('0') {
                case.take().unwrap_or(c)
            } else {
                c
            };
            classes.push(c);
            count += 1;
        } else if let Some(c) = class_of(x) {
            if matches!(x, "uppercase" | "lowercase" | "upper-case" | "lower-case") {
                case = Some(c);
            } else {
                classes.push(c);
                count += 1;
            }
        } else if !(matches!(x, "and" | "or" | "characters" | "ascii" | "only")
            || text(t, k) == ",")
        {
            break;
        }
        k += 1;
    }
    let last = k.saturating_sub(1);
    let sentence_only = (i.saturating_sub(4)..(k + 2).min(t.len()))
        .any(|m| word(t, m) == "only" && t[m].sent == t[i].sent)
        || (1..=4).any(|b| {
            matches!(
                prev_word(t, i, b),
                "consisting" | "composed" | "contain" | "contains"
            )
        });
    // "Available for only phone numbers": "numbers" after a noun names things, not digits
    let noun_before = matches!(w, "numbers" | "numerals" | "periods" | "dots")
        && !(matches!(prev_word(t, i, 1), "only" | "and" | "or" | "of")
            || matches!(prev_word(t, i, 1), "contain" | "contains" | "with" | ""));
    let strong =
        !noun_before && (w == "alphanumeric" || (count >= 2) || (count >= 1 && sentence_only));
    // "must be lowercase"
    let case_only = case.is_some()
        && count == 0
        && ((matches!(prev_word(t, i, 1), "be" | "in")
            && matches!(prev_word(t, i, 2), "must" | "should" | "be" | "is"))
            // "should be formatted as an uppercase hash"
            || (1..=3).any(|b| prev_word(t, i, b) == "formatted"));
    if !(strong || case_only) {
        return NEXT;
    }
    classes.extend(case);
    let mut set: String = classes.iter().filter(|c| **c != "-").copied().collect();
    if classes.contains(&"-") {
        set.push('-');
    }
    // "`pay_` and 12 lowercase letters or digits": a literal and a count
    // before the classes make the whole shape (the classes alone would
    // refuse the literal's "_")
    let n = i
        .checked_sub(1)
        .filter(|&n| t[n].num.is_some_and(|v| v >= 1.0 && v.fract() == 0.0));
    let by = |k: usize| word(t, k) == "by" && prev_word(t, k, 1) == "followed";
    let lit = n.and_then(|n| match n.checked_sub(1)? {
        j if by(j) => j.checked_sub(2),
        j if matches!(word(t, j), "and" | "then") => j.checked_sub(1),
        _ => None,
    });
    let lit = lit.filter(|&c| kind(t, c) == Some(Tk::Code) && !t[c].s.contains(' '));
    match (n, lit) {
        (Some(n), Some(c)) => {
            let (text, count) = (&doc[t[c].start + 1..t[c].end - 1], t[n].num.unwrap_or(1.0));
            let re = format!("^{}[{set}]{{{count}}}$", regex_literal(text));
            shape(out, Some(re), c, last.max(i))
        }
        _ => shape(out, Some(format!("^[{set}]+$")), i, last.max(i)),
    }
}

pub(super) fn excluded_characters(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    // "may not contain spaces or slashes", "Names containing ... slashes
    // (`/`, `\`) ... are not allowed": characters the value may not hold
    let (from, end) = excluded_at(t, i)?;
    shape(out, None, from, end)
}

pub(super) fn standard_by_number(Cx { t, doc, out, .. }: Cx, i: usize) -> Option<usize> {
    // "ISO3166-1 alpha-2", "BCP 47", "RFC 5646": a standard named by its number
    let (what, end) = standard_at(t, i)?;
    // (not inside a link, ".../html/rfc6901")
    let linked = doc[..t[i].start].ends_with('/');
    // (nor a reference: "See character length requirements according
    // to RFC 2822", "See RFC 7231 section 6")
    let see = (0..i)
        .rev()
        .take_while(|&k| t[k].sent == t[i].sent)
        .any(|k| word(t, k) == "see");
    if linked || in_example(t, i) || see || word(t, end + 1) == "section" {
        return None;
    }
    out.push(found(what, i, end));
    NEXT
}

pub(super) fn code_standard(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "ISO language code", "IETF language tag": a code named by its standard
    // (not "ISO country codes (e.g., 'us') are not supported": refused forms;
    // the rest of the sentence is read only after the words matched)
    let refused = || {
        (i + 1..t.len())
            .take_while(|&k| t[k].sent == t[i].sent)
            .any(|k| {
                word(t, k) == "not"
                    && matches!(
                        word(t, k + 1),
                        "supported" | "accepted" | "allowed" | "valid"
                    )
            })
    };
    let read = matches!(w, "iso" | "ietf" | "bcp")
        && kind(t, i + 1) == Some(Tk::Word)
        && ((1..=2).any(|b| matches!(word(t, i + b), "code" | "codes"))
            || (w != "iso" && (1..=2).any(|b| matches!(word(t, i + b), "tag" | "tags"))))
        && !in_example(t, i)
        && !refused();
    read.then(|| shape(out, None, i, i + 1))?
}

pub(super) fn templates(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "Supported patterns: https://dev.azure.com/{org}/...": templates
    // (the templates accepted, not "Common patterns: \"user:*\",
    // \"cache:*\", etc.", redis's MCP server: examples of what is typical)
    let read = w == "patterns"
        && text(t, i + 1) == ":"
        && matches!(
            prev_word(t, i, 1),
            "supported" | "allowed" | "accepted" | "valid" | "permitted"
        )
        && !in_example(t, i);
    read.then(|| shape(out, None, i, i + 1))?
}

pub(super) fn does_not_allow(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "does not allow < or >": characters the value may not contain
    let read = w == "allow"
        && matches!(prev_word(t, i, 1), "not" | "never")
        && kind(t, i + 1) == Some(Tk::Punct)
        && !matches!(text(t, i + 1), "." | "," | ";" | ")" | "(");
    read.then(|| shape(out, None, i, i + 1))?
}

pub(super) fn hex_format(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "(colon-separated hex)", "a hex string", "a hexadecimal identifier of 24
    // characters": the value's alphabet
    // ("Header background color (hex format)", camel-ai/camel; "Must be
    // in hex format", twilio-oai; "Custom branding color in hex.",
    // box-openapi: the value written in hex, its clause ending there)
    // (not what another thing is: "the brand color is in hexadecimal
    // format", plaid-openapi, of a returned logo)
    let in_hex = prev_word(t, i, 1) == "in"
        && (i + 1 >= t.len() || t[i + 1].sent != t[i].sent || text(t, i + 1) == ".");
    let of_another = prev_word(t, i, 1) == "in"
        && prev_word(t, i, 2) == "is"
        && !matches!(prev_word(t, i, 3), "value" | "it" | "this");
    let read = matches!(w, "hex" | "hexadecimal")
        && (text(t, i + 1) == ")"
            || in_hex
            || (matches!(word(t, i + 1), "string" | "strings" | "identifier" | "id")
                || matches!(word(t, i + 1), "encoded" | "format")))
        && !of_another
        && !in_example(t, i);
    read.then(|| shape(out, Some(hex()), i, i + 1))?
}

pub(super) fn format_template(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "with format `proj/<projectKey>:env/<envKey>`": a template
    let read = w == "format"
        && matches!(prev_word(t, i, 1), "with" | "in" | "the")
        && is_lit(t, i + 1)
        && t[i + 1].s.contains(['<', '{']);
    read.then(|| shape(out, None, i, i + 1))?
}

pub(super) fn all_caps(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "Should be all caps." (neo4j-contrib/mcp-neo4j), "metric value for
    // this operation should be in all caps" (awslabs/mcp): no lowercase
    // letter, the rule "must be uppercase" states of letters only
    let be = if prev_word(t, i, 2) == "in" { 3 } else { 2 };
    let read = w == "caps"
        && prev_word(t, i, 1) == "all"
        && prev_word(t, i, be) == "be"
        && matches!(prev_word(t, i, be + 1), "must" | "should")
        && !in_example(t, i);
    read.then(|| shape(out, Some("^[^a-z]+$".into()), i - 1, i))?
}

/// A case style named: a word [`style_regex`] knows ("semantic" before
/// "version").
pub(super) fn case_style(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    let re = style_regex(w).filter(|_| w != "semantic" || text(t, i + 1) == "version")?;
    shape(out, Some(re), i, i)
}

pub(super) fn placeholder_shape(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    let read = (matches!(w, "form" | "format")
        && ((matches!(prev_word(t, i, 1), "the" | "of")
            && matches!(prev_word(t, i, 2), "in" | "of"))
            || prev_word(t, i, 1) == "in"
            || word(t, i + 1) == "is"
            || (w == "format" && text(t, i + 1) == ":")))
        || seq(t, i, &["formatted", "as"]);
    if !read {
        return None;
    }
    let j = i + if w == "formatted" { 2 } else { 1 };
    let j = j + usize::from(matches!(text(t, j), ":" | "is" | "of"));
    let known = t.get(j).is_some_and(|x| format_of_text(&x.s).is_some());
    // a literal, punctuation, a placeholder ("Cxxxxxxxxxx") or a sample number ("1234567890.123456")
    // (a literal of letters alone is a value: "Display format: 'number'
    // shows ..., 'emoji' shows ...")
    let shaped = (is_lit(t, j)
        && !t[j]
            .s
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'_'))
        || (j..j + 3).any(|k| matches!(text(t, k), "/" | ":" | "#" | "@"))
        // "in the form sys.dimensions.<name>.sys.<suffix>", "of {<label>=...}"
        || (j..j + 5).any(|k| matches!(text(t, k), "<" | "{"))
        || word(t, j).contains("xxx")
        // "emr-x.x.x": a placeholder version
        || (j..j + 3).any(|k| word(t, k) == "x" || word(t, k).ends_with("-x"))
        || (kind(t, j) == Some(Tk::Num) && t[j].s.contains('.'))
        // "web.1/worker.2": a word joined to a number
        || (text(t, j + 1) == "." && kind(t, j + 2) == Some(Tk::Num));
    (shaped && !known).then(|| shape(out, None, i, j))?
}

/// A literal a prefix is written as: quoted or in code ("'pay_'", "`/`"),
/// or a bare word ending in a joiner ("pay_", "fn-").
fn prefix_literal(t: &[Tok], k: usize) -> bool {
    is_lit(t, k) || (kind(t, k) == Some(Tk::Word) && t[k].s.ends_with(['_', '-']))
}

pub(super) fn prefix(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "Must start with 'pay_'", "IDs begin with 'ws-'", "(starts with 'S')":
    // the value's first characters (not the advice "Start with 'workspace'"
    // opening a sentence, nor "groups whose name starts with 'West'", which
    // picks things by a member)
    let starts = matches!(w, "start" | "starts" | "begin" | "begins" | "prefixed")
        && word(t, i + 1) == "with"
        && prefix_literal(t, i + 2)
        && (!prev_word(t, i, 1).is_empty() || text(t, i.wrapping_sub(1)) == "(")
        && !(1..=5).any(|b| matches!(prev_word(t, i, b), "whose" | "where"));
    if starts {
        return shape(out, None, i, i + 2);
    }
    // "Prefix with '!' to exclude": how to write another value, not this one's
    if w != "prefix" || word(t, i + 1) == "with" {
        return None;
    }
    // "The access key's identifier with prefix 'dof_v1_'"
    if (1..=2).any(|b| prev_word(t, i, b) == "with") && prefix_literal(t, i + 1) {
        return shape(out, None, i, i + 1);
    }
    // "ID should have a pay_ prefix", "(without s3:// prefix)": the literal
    // (its punctuation included) and what has it, before the noun
    let mut k = i.checked_sub(1)?;
    while k > 0 && kind(t, k) == Some(Tk::Punct) && t[k].sent == t[i].sent {
        k -= 1;
    }
    let lit = prefix_literal(t, k) || (k + 1 < i && kind(t, k) == Some(Tk::Word));
    let mut v = k.checked_sub(1)?;
    if matches!(word(t, v), "a" | "an" | "the") {
        v = v.checked_sub(1)?;
    }
    let read = lit
        && t[v].sent == t[i].sent
        && matches!(word(t, v), "have" | "has" | "with" | "without" | "having");
    read.then(|| shape(out, None, v, i))?
}

pub(super) fn layout_format(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "Name for the new package in namespace/name format": words joined by a
    // slash or a colon, then "format" (a date layout's letters are
    // `date-layout`'s: "in MM/DD/YYYY format")
    if w != "format" {
        return None;
    }
    let from = (i.saturating_sub(6)..i)
        .rev()
        .take_while(|&k| t[k].sent == t[i].sent)
        .find(|&k| matches!(text(t, k), "in" | "("))?;
    let joined = (from + 2..i).any(|k| {
        matches!(text(t, k), "/" | ":")
            && kind(t, k - 1) == Some(Tk::Word)
            && kind(t, k + 1) == Some(Tk::Word)
    });
    // (nor standards joined: "in RFC3339/ISO8601 format")
    let date = (from + 1..i).any(|k| {
        let w = word(t, k);
        !w.is_empty() && w.bytes().all(|b| b"ymdhs".contains(&b))
            || w.starts_with("rfc")
            || w.starts_with("iso")
    });
    (joined && !date).then(|| shape(out, None, from + 1, i))?
}

pub(super) fn encoded(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "Attachment content, base64-encoded": the value's alphabet (not what
    // the tool returns, "return it as a base64-encoded content block", nor
    // "Photo URL or base64 data", one of two forms, nor another thing's: "a
    // data URL for a base64 encoded image")
    let last = match w {
        "base64-encoded" => i,
        "base64" if word(t, i + 1) == "encoded" => i + 1,
        _ => return None,
    };
    // (nor what the tool does to the value: "Content; will be base64
    // encoded automatically" is plain text the tool encodes)
    let done_by_the_tool = (prev_word(t, i, 1) == "be" && prev_word(t, i, 2) == "will")
        || prev_word(t, i, 1) == "gets"
        || word(t, last + 1) == "automatically";
    let read = !done_by_the_tool
        && !t[i].output
        && !in_example(t, i)
        && !(1..=2).any(|b| matches!(prev_word(t, i, b), "for" | "of"));
    read.then(|| shape(out, None, i, last))?
}

pub(super) fn cidr(Cx { w, out, .. }: Cx, i: usize) -> Option<usize> {
    let re = || Some("^[0-9A-Fa-f:.]+/[0-9]{1,3}$".into());
    (w == "cidr").then(|| shape(out, re(), i, i))?
}

pub(super) fn e164(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    let re = || Some("^\\+[1-9][0-9]{1,14}$".into());
    seq(t, i, &["e", ".", "164"]).then(|| shape(out, re(), i, i + 2))?
}

pub(super) fn letter_code(Cx { t, doc, w, out, .. }: Cx, i: usize) -> Option<usize> {
    let re = if w == "iso" {
        let n = if text(t, i + 1) == "-" { i + 2 } else { i + 1 };
        match text(t, n) {
            "3166" => Some("^[A-Z]{2}$"),
            "4217" => Some("^[A-Z]{3}$"),
            // ISO 639-1 codes have two letters, 639-2 and 639-3 three
            "639" if text(t, n + 1) == "-" && matches!(text(t, n + 2), "2" | "3") => {
                Some("^[a-z]{3}$")
            }
            "639" => Some("^[a-z]{2}$"),
            _ => None,
        }
        .or_else(|| {
            // another ISO standard ("ISIN as defined by ISO 6166") names a
            // code's shape without the detector knowing it
            let v = text(t, n);
            (v.len() >= 3 && v != "8601" && v.bytes().all(|b| b.is_ascii_digit())).then_some("")
        })
    } else if matches!(w, "two-letter" | "alpha-2")
        || (word(t, i + 2) == "letter" && text(t, i + 1) == "-" && text(t, i) == "2")
    {
        Some(letter_code_of(t, doc, i, 2))
    } else if w == "three-letter" {
        Some(letter_code_of(t, doc, i, 3))
    } else if matches!(w, "two" | "three") && word(t, i + 1) == "letter" && names_a_code(t, i + 2) {
        // "The three letter International Air Transport Association
        // (IATA) Location Identifier" (langchain-ai/langchain-community),
        // "The three letter country code representing where ..."
        // (twilio-oai): the hyphen of "three-letter" left out
        Some(letter_code_of(t, doc, i, if w == "two" { 2 } else { 3 }))
    } else {
        None
    }?;
    let re = (!re.is_empty()).then(|| re.to_string());
    let end = if text(t, i + 1) == "-" { i + 2 } else { i + 1 };
    // "two-letter language code": the phrase names the language, which
    // the agreement with a declared pattern reads (see `agree`)
    let end = language_word(t, i).map_or(end, |k| end.max(k));
    shape(out, re, i, end)
}

pub(super) fn digit_count_word(Cx { w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "a four-digit number" (adyen-openapi), "A six-digit verification
    // code" (okta), "The three-digit exchange code" (twilio-oai),
    // "Two-digit instance number" (awslabs/mcp): the count of "a 6-digit
    // code" written as a number word, one word with its hyphen
    let n = w
        .strip_suffix("-digit")
        .and_then(|n| NUMBER_WORDS.iter().position(|x| *x == n))
        .filter(|&n| n >= 2)?;
    shape(out, Some(format!("^[0-9]{{{n}}}$")), i, i)
}

pub(super) fn counted_class(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    // "a 6-digit code", "a 40-character hex string"
    if kind(t, i) != Some(Tk::Num) || text(t, i + 1) != "-" {
        return None;
    }
    let n = text(t, i);
    let re = match word(t, i + 2) {
        "digit" => format!("^[0-9]{{{n}}}$"),
        "letter" => format!("^[A-Za-z]{{{n}}}$"),
        "character" | "char" => format!("^[{}]{{{n}}}$", class_of(word(t, i + 3))?),
        _ => return None,
    };
    shape(out, Some(re), i, i + 2)
}

/// The code of `n` letters named at `i`: ISO 639 language codes are lower
/// case ("two-letter language code": `en`, `de`), country codes (ISO 3166-1
/// alpha-2, alpha-3), currencies and airports upper case ("two-letter
/// country code": `US`), unless the sentence shows one in the other case.
fn letter_code_of(t: &[Tok], doc: &str, i: usize, n: usize) -> &'static str {
    // the case its example is written in ("Two-letter country code, e.g.
    // 'us'"), else a language code's lowercase and any other's capitals
    let shown = (i + 1..t.len())
        .take_while(|&k| t[k].sent == t[i].sent)
        .filter(|&k| is_lit(t, k))
        .map(|k| inner(doc, &t[k]))
        .find(|v| v.len() == n && v.bytes().all(|b| b.is_ascii_alphabetic()));
    let lower = match shown {
        Some(v) => v.bytes().all(|b| b.is_ascii_lowercase()),
        None => language_word(t, i).is_some(),
    };
    match (lower, n) {
        (true, 2) => "^[a-z]{2}$",
        (true, _) => "^[a-z]{3}$",
        (false, 2) => "^[A-Z]{2}$",
        (false, _) => "^[A-Z]{3}$",
    }
}

/// The word "language" among the few words after `i` in its sentence, before
/// the code's noun and before any "country": "two-letter language code",
/// "2-letter ISO language code", "two letter code of the language".
pub(super) fn language_word(t: &[Tok], i: usize) -> Option<usize> {
    (i + 1..(i + 7).min(t.len()))
        .take_while(|&k| t[k].sent == t[i].sent)
        .take_while(|&k| !matches!(word(t, k), "country" | "countries" | "region" | "currency"))
        .find(|&k| matches!(word(t, k), "language" | "languages" | "lang"))
}

/// A code's noun within the few words from `k` of its sentence ("country
/// code", "(IATA) Location Identifier"), the thing a counted letter names.
fn names_a_code(t: &[Tok], k: usize) -> bool {
    (k..(k + 9).min(t.len()))
        .take_while(|&m| t[m].sent == t[k.min(t.len() - 1)].sent)
        .any(|m| matches!(word(t, m), "code" | "codes" | "identifier" | "identifiers"))
}

/// Words that name characters a value may hold ("slashes", "special characters").
const CHARACTER_NOUNS: &[&str] = &[
    "asterisks",
    "backslash",
    "backslashes",
    "brackets",
    "character",
    "characters",
    "chars",
    "colons",
    "commas",
    "emoji",
    "emojis",
    "newline",
    "newlines",
    "punctuation",
    "quotes",
    "semicolons",
    "slash",
    "slashes",
    "space",
    "spaces",
    "symbols",
    "tabs",
    "whitespace",
];

/// A mention of characters at `k`: a character noun not counted by a number
/// ("200 characters" is a length), a short literal of punctuation (`/`), or a
/// bare punctuation mark other than the sentence's own (`<`, `&`).
fn names_characters(t: &[Tok], k: usize) -> bool {
    match kind(t, k) {
        Some(Tk::Word) => {
            CHARACTER_NOUNS.contains(&word(t, k))
                && !(1..=2).any(|b| kind(t, k.wrapping_sub(b)) == Some(Tk::Num))
        }
        Some(Tk::Code | Tk::Quoted) => {
            let s = &t[k].s;
            (1..=3).contains(&s.chars().count()) && !s.chars().any(char::is_alphanumeric)
        }
        Some(Tk::Punct) => matches!(text(t, k), "<" | ">" | "&" | "/" | "\\" | "|" | "#" | "%"),
        _ => false,
    }
}

/// Characters the value may not contain, read from the sentence's shape: a
/// negated verb of holding ("may not contain", "cannot include", "without")
/// followed by characters, or a negated permission ("are not allowed", "is
/// prohibited") whose subject names characters. Returns the first and last
/// tokens of the statement.
fn excluded_at(t: &[Tok], i: usize) -> Option<(usize, usize)> {
    let w = word(t, i);
    let sent = t[i].sent;
    let holds = |k: usize| matches!(word(t, k), "contain" | "include" | "have" | "use");
    let after = |from: usize| {
        (from..(from + 10).min(t.len()))
            .take_while(|&k| t[k].sent == sent)
            .find(|&k| names_characters(t, k))
    };
    match w {
        "not" | "cannot" | "can't" if holds(i + 1) => after(i + 2).map(|k| (i, k)),
        // ("without colons" may describe how the value is written; a literal
        // character is a rule: "without '#' prefix")
        "without" => after(i + 1)
            .filter(|&k| k <= i + 3 && is_lit(t, k))
            .map(|k| (i, k)),
        "not" | "prohibited" | "disallowed" | "forbidden" => {
            let permission =
                w != "not" || matches!(word(t, i + 1), "allowed" | "permitted" | "accepted");
            let subject = (0..i)
                .take_while(|&k| t[k].sent <= sent)
                .filter(|&k| t[k].sent == sent)
                .find(|&k| names_characters(t, k));
            let end = if w == "not" { i + 1 } else { i };
            subject.filter(|_| permission).map(|k| (k, end))
        }
        _ => None,
    }
}

/// A standard named by its number, as a shape or a format: "ISO3166-1 alpha-2"
/// (a country code), "ISO 639-3", "BCP 47", "RFC 5646" (language tags), "RFC
/// 5322" (an email address), and any other ISO, RFC or BCP number (a shape the
/// detector does not know). "ISO 8601" and "RFC 3339" are formats, read by
/// `formats`; so is "ISO 3166" with a separate number, read below.
fn standard_at(t: &[Tok], i: usize) -> Option<(What, usize)> {
    let w = word(t, i);
    // "iso3166-1", "rfc3230", "bcp-47": the body and its number in one word
    let joined = ["iso", "rfc", "bcp"]
        .iter()
        .find(|p| w.len() > 3 && w.starts_with(*p));
    let (body, number, end) = if let Some(prefix) = joined {
        let digits = w[3..].trim_start_matches('-');
        let n: String = digits.chars().take_while(char::is_ascii_digit).collect();
        (*prefix, n, i)
    } else if matches!(w, "rfc" | "bcp") {
        let k = if text(t, i + 1) == "-" { i + 2 } else { i + 1 };
        if kind(t, k) != Some(Tk::Num) {
            return None;
        }
        (w, text(t, k).to_string(), k)
    } else {
        return None;
    };
    if number.len() < 2 || (body == "iso" && matches!(number.as_str(), "8601")) {
        return None;
    }
    if body == "rfc" && number == "3339" {
        return None;
    }
    // dates by another standard ("in RFC 2822 format" for a date) are not
    // reported (docs/rule-c12.md, "Left out")
    let dated = (0..t.len()).filter(|&k| t[k].sent == t[i].sent).any(|k| {
        matches!(
            word(t, k),
            "date" | "time" | "timestamp" | "datetime" | "dates"
        )
    });
    if body == "rfc" && dated {
        return None;
    }
    let what = match (body, number.as_str()) {
        ("iso", "3166") => What::Pattern(Some(
            if (1..=3).any(|b| word(t, end + b) == "alpha-3") {
                "^[A-Z]{3}$"
            } else {
                "^[A-Z]{2}$"
            }
            .into(),
        )),
        ("iso", "4217") => What::Pattern(Some("^[A-Z]{3}$".into())),
        ("rfc", "5322") | ("rfc", "822") => What::Format("email"),
        ("rfc", "1123") | ("rfc", "952") | ("rfc", "1034") => What::Format("hostname"),
        ("rfc", "3986") => What::Format("uri"),
        ("rfc", "4122") | ("rfc", "9562") => What::Format("uuid"),
        _ => What::Pattern(None),
    };
    Some((what, end))
}

/// A value written in hex, in the class "hex" names everywhere ("6 hex
/// digits" counts the same class): one regex for "hex string" and "(hex
/// format)" alike.
fn hex() -> String {
    format!("^[{}]+$", class_of("hex").unwrap_or("0-9a-f"))
}

/// The regex of a named case style, so that the help is a declaration
/// ("Should be in SCREAMING_SNAKE_CASE" asks for `^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`);
/// `None` for a word with no one shape.
fn style_regex(w: &str) -> Option<String> {
    let re = match w {
        // ("Should be in SCREAMING_SNAKE_CASE.", neo4j-contrib/mcp-neo4j:
        // snake_case in capitals, a name of the same style as camelCase)
        "screaming_snake_case" | "upper_snake_case" => "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$",
        "snake_case" | "snake-case" => "^[a-z][a-z0-9]*(_[a-z0-9]+)*$",
        "kebab-case" => "^[a-z][a-z0-9]*(-[a-z0-9]+)*$",
        "camelcase" | "camel-case" => "^[a-z][a-zA-Z0-9]*$",
        "pascalcase" => "^[A-Z][a-zA-Z0-9]*$",
        "slugified" => "^[a-z0-9]+(-[a-z0-9]+)*$",
        // "semver", "semantic version": SemVer 2.0's shape
        "semver" | "semantic" => "^[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?([+][0-9A-Za-z.-]+)?$",
        _ => return None,
    };
    Some(re.to_string())
}

#[cfg(test)]
mod tests {
    use super::super::driver::{assert_finds, found_in};
    use super::super::finding::pair;
    use super::*;

    fn patterns(doc: &str) -> Vec<(String, String)> {
        found_in(doc, PATTERNS)
    }

    /// Asserts each case (see [`assert_finds`]) of this family.
    fn finds(cases: &[&str]) {
        assert_finds(PATTERNS, cases)
    }

    /// Round 12: the count of "a 6-digit code" as a number word: "a
    /// four-digit number" (adyen-openapi), "A six-digit verification code"
    /// (okta), "The three-digit exchange code" (twilio-oai), "Two-digit
    /// instance number" (awslabs/mcp); not "one-digit" nor another word.
    #[test]
    fn a_count_of_digits_in_words() {
        finds(&[
            "The code (MCC) is a four-digit number. | four-digit | pattern ^[0-9]{4}$",
            "A six-digit verification code. | six-digit | pattern ^[0-9]{6}$",
            "A one-digit flag.",
            "A multi-digit value.",
        ]);
    }

    /// The value written in hex: camel-ai/camel ("Header background color
    /// (hex format)."), twilio-oai ("Must be in hex format"), box-openapi
    /// ("Custom branding color in hex.").
    #[test]
    fn written_in_hex() {
        finds(&[
            "Header background color (hex format). | hex format | pattern ^[0-9a-f]+$",
            "The color theme of the sender. Must be in hex format and have contrast. | hex format | pattern ^[0-9a-f]+$",
            "Custom branding color in hex. | hex. | pattern ^[0-9a-f]+$",
            // what another thing is, "hex" running on, an example
            "When `true`, return the logo; the brand color is in hexadecimal format.",
            "The color in hex or RGB.",
            "A color, e.g. hex format.",
        ]);
    }

    /// An ISO date between "in" and "format" is a Format, not a layout:
    /// Asana/openapi ("in `YYYY-MM-DD` format"), plaid-openapi ("in
    /// \"YYYY-MM-DD\" format", "in the 'YYYY-MM-DD' format"); a layout that is
    /// not ISO's stays a Pattern.
    #[test]
    fn an_iso_date_in_format_is_no_pattern() {
        use super::super::{claims, ClaimKind};
        use crate::tests::assert_kinds;
        let kinds = |d: &str| claims(d).into_iter().map(|c| c.kind).collect::<Vec<_>>();
        assert_kinds(&[
            "The localized start date of the time period in `YYYY-MM-DD` format. | Format",
            "Pay date on the paystub in the 'YYYY-MM-DD' format. | Format",
        ]);
        assert!(kinds("DOB in `MM/DD/YYYY` format").contains(&ClaimKind::Pattern));
    }

    /// A code counted in letters, the hyphen left out: langchain-ai/langchain-community
    /// ("The three letter International Air Transport Association (IATA)
    /// Location Identifier"), twilio-oai ("The three letter country code").
    #[test]
    fn a_code_counted_in_letters() {
        finds(&[
            "The three letter International Air Transport Association (IATA) Location Identifier for the origin airport. | three letter | pattern ^[A-Z]{3}$",
            "The three letter country code representing where the session took place. | three letter | pattern ^[A-Z]{3}$",
            // letters counted without a code
            "The three letter word to guess.",
            "Use a two letter word as the prefix.",
        ]);
    }

    /// Letter case named as a rule: "Should be all caps." (neo4j-contrib/mcp-neo4j),
    /// "should be in all caps" (awslabs/mcp); "Should be in
    /// SCREAMING_SNAKE_CASE." (neo4j-contrib/mcp-neo4j), a snake_case style.
    #[test]
    fn letter_case_rules() {
        finds(&[
            "The Neo4j type of the property. Should be all caps. | all caps | pattern ^[^a-z]+$",
            "Notes: metric value for this operation should be in all caps | all caps | pattern ^[^a-z]+$",
            "The type of the relationship. Should be in SCREAMING_SNAKE_CASE. | SCREAMING_SNAKE_CASE | pattern ^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$",
            // a heading written in capitals, an example, no modal
            "The title, shown in all caps in the sidebar.",
            "For example, names must be all caps in some schemas.",
            "Keys written all caps are constants.",
        ]);
    }

    /// Templates after "Supported patterns:" (microsoft/azure-devops-mcp);
    /// "Common patterns: ..., etc." gives examples of what is typical
    /// (redis's MCP server).
    #[test]
    fn supported_patterns_not_common_ones() {
        finds(&[
            "The wiki URL. Supported patterns: https://dev.azure.com/{org}/{project} | patterns: | pattern ?",
            "Pattern to match keys against. Common patterns: \"user:*\", \"cache:*\", etc.",
        ]);
    }

    #[test]
    fn character_classes() {
        finds(&[
            "Lowercase letters and digits only. | Lowercase letters and digits only | pattern ^[a-z0-9]+$",
            "An alphanumeric id. | alphanumeric | pattern ^[A-Za-z0-9]+$",
            "A 6-digit code. | 6-digit | pattern ^[0-9]{6}$",
        ]);
        // (the tail run found too collapses into the longer claim when resolved)
        assert_eq!(
            patterns("Must only include uppercase alphabetic characters, underscores, and commas.")
                [0],
            pair(
                "uppercase alphabetic characters, underscores, and commas",
                "pattern ^[A-Z_,]+$"
            )
        );
        finds(&[
            "May contain letters, numbers, spaces, hyphens, and underscores. | letters, numbers, spaces, hyphens, and underscores | pattern ^[A-Za-z0-9 _-]+$",
            "Alphabetic characters only. | Alphabetic characters only | pattern ^[A-Za-z]+$",
            // one class named in passing is not a pattern
            "Spaces are trimmed from the name.",
            "Sorted in alphabetic order.",
            "A hex string. | hex string | pattern ^[0-9a-f]+$",
        ]);
    }

    #[test]
    fn shapes_and_standards() {
        finds(&[
            "A kebab-case slug. | kebab-case | pattern ^[a-z][a-z0-9]*(-[a-z0-9]+)*$",
            "In E.164 form. | E.164 | pattern ^\\+[1-9][0-9]{1,14}$",
            "An ISO 3166 code. | ISO 3166 | pattern ^[A-Z]{2}$",
            "In the form `owner/repo`. | form `owner/repo` | pattern ?",
        ]);
    }

    /// `prefix`'s shapes (razorpay's, hashicorp's, quilt's and Azure's MCP
    /// servers, digitalocean's OpenAPI spec) and what it must not read.
    #[test]
    fn a_prefix_the_value_must_have_or_must_not() {
        finds(&[
            "Must start with 'pay_' | start with 'pay_' | pattern ?",
            "Workspace IDs begin with 'ws-'. | begin with 'ws-' | pattern ?",
            "ID of the user group (starts with 'S'). | starts with 'S' | pattern ?",
            "ID should have a pay_ prefix. | have a pay_ prefix | pattern ?",
            "S3 bucket name (without s3:// prefix) | without s3:// prefix | pattern ?",
            "The command (without the 'az' prefix). | without the 'az' prefix | pattern ?",
            "The identifier with prefix 'dof_v1_'. | prefix 'dof_v1_' | pattern ?",
            "Start with 'list-workspaces' to see the workspaces.",
            "Prefix with '!' to exclude a branch.",
            "Only paths that start with this prefix are listed.",
            "Groups whose name starts with 'West' are returned.",
            "The npm version, without the prefix `v`.",
            "Form ID ('i' prefix in old API)",
        ]);
    }

    #[test]
    fn a_layout_of_joined_words_before_format() {
        finds(&[
            "Name for the new package in namespace/name format | namespace/name format | pattern ?",
            // a date layout is `date-layout`'s, joined standards are no layout
            "DOB in MM/DD/YYYY format",
            "End time in RFC3339/ISO8601 format.",
            "The comment in Markdown format",
        ]);
    }

    #[test]
    fn base64_encoded_of_the_value() {
        finds(&[
            "Attachment content, base64-encoded | base64-encoded | pattern ?",
            // what the tool returns; another thing's encoding; one of two forms
            "Read a file and return it as a base64-encoded block.",
            "A data URL for a base64 encoded image.",
            "Photo URL or base64 data",
            "File content; will be base64 encoded automatically",
            "The text, base64-encoded automatically before upload",
            "The file's content; it is base64 encoded | base64 encoded | pattern ?",
        ]);
    }

    #[test]
    fn a_letter_code_is_in_the_case_its_example_shows() {
        finds(&[
            "Two-letter country code (e.g. 'us'). | Two-letter country | pattern ^[a-z]{2}$",
            "Two-letter country code (e.g. 'US'). | Two-letter country | pattern ^[A-Z]{2}$",
            "Three-letter language code, such as 'ENG'. | Three-letter language | pattern ^[A-Z]{3}$",
            // no example: a language's lowercase, another code's capitals
            "Two-letter country code. | Two-letter country | pattern ^[A-Z]{2}$",
            "Two-letter language code. | Two-letter language | pattern ^[a-z]{2}$",
        ]);
    }

    #[test]
    fn words_that_only_look_like_classes() {
        finds(&[
            "Count the letters in the word.",
            "Matches are ranked by score.",
        ]);
    }
}
