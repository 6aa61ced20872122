//! Family: formats (Format).

use super::finding::*;
use super::reader::Cx;
use super::tokens::*;
use super::values::*;

/// The format named by a word, code span or quoted string: "yyyy-mm-dd", "2024-01-31".
pub(super) fn format_of_text(s: &str) -> Option<What> {
    let dated = s.as_bytes().first().is_some_and(u8::is_ascii_digit);
    let month_first = s.starts_with("mm/dd") || s.starts_with("mm-dd");
    if !(dated
        || month_first
        || s.starts_with("yyyy")
        || s.starts_with("dd")
        || s.starts_with("hh")
        || s.starts_with("mm"))
    {
        return None;
    }
    // "Example: \"2024-12-01~2024-12-31\"" after "tilde-separated dates"
    // (klaviyo/incidentio-mcp), "YYYY-MM-DD/YYYY-MM-DD" (awslabs/mcp, read
    // at the slash below): two dates glued by any separator are a period, a
    // shape no format names
    if period(s) {
        return Some(What::Pattern(layout_regex(s)));
    }
    if let Some(rest) = s.strip_prefix("yyyy-mm-dd") {
        let date_time = rest.starts_with("thh")
            || rest.starts_with(" hh")
            || rest.starts_with('t') && rest.len() <= 1;
        if !(rest.is_empty() || date_time || !rest.starts_with(|c: char| c.is_alphanumeric())) {
            return None;
        }
        return Some(What::Format(if date_time || rest.contains("hh") {
            "date-time"
        } else {
            "date"
        }));
    }
    // a template or an expression that mentions a date shape is not the value's format
    if s.contains(['{', '<', '>', '=']) || s.split_whitespace().count() > 2 {
        return None;
    }
    if let Some(f) = date_literal(s) {
        return Some(What::Format(f));
    }
    if s.starts_with("yyyy")
        || month_first
        || s.starts_with("dd/")
        || s.starts_with("dd-")
        || s.starts_with("dd.")
        || s == "hh:mm"
        || s == "hh:mm:ss"
    {
        return Some(if s.starts_with("hh") {
            What::Format("time")
        } else {
            What::Pattern(layout_regex(s))
        });
    }
    // "in 24-hour hhmm format" (googlemaps/openapi-specification), "Format:
    // YYYYMMDD" (nytimes/public_api_specs), "ddmmyyyy": any layout written in
    // the letters of a date or a time, read by its shape rather than from a
    // list of layouts
    if layout(s) {
        return Some(What::Pattern(layout_regex(s)));
    }
    None
}

/// The regex of a date or time layout, or of a period written as an example,
/// so that the help is a declaration: each run of digits or of the letters
/// y, d, h, s is that many digits, a run of m two digits or, three or four
/// long, the month's name ("mmm-dd"); separators stand for themselves.
/// `None` when anything else is in it.
fn layout_regex(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut re = String::from("^");
    // digits of adjacent runs ("hhmm") are one count: `[0-9]{4}`
    let mut digits = 0;
    let flush = |re: &mut String, digits: &mut usize| {
        if *digits > 0 {
            re.push_str(&format!("[0-9]{{{digits}}}"));
            *digits = 0;
        }
    };
    let mut k = 0;
    while k < b.len() {
        let c = b[k];
        let start = k;
        let digit = c.is_ascii_digit();
        while k < b.len() && (b[k] == c || digit && b[k].is_ascii_digit()) {
            k += 1;
        }
        let n = k - start;
        match c {
            b'0'..=b'9' | b'y' | b'm' | b'd' | b'h' | b's' if n >= 2 && !(c == b'm' && n >= 3) => {
                digits += n
            }
            _ => {
                flush(&mut re, &mut digits);
                match c {
                    b'm' if n >= 4 => re.push_str("[A-Za-z]+"),
                    b'm' if n == 3 => re.push_str("[A-Za-z]{3}"),
                    b'0'..=b'9' | b'y' | b'm' | b'd' | b'h' | b's' => re.push_str("[0-9]{1,2}"),
                    b'.' => re.push_str(&"\\.".repeat(n)),
                    b'-' | b'/' | b':' | b'~' | b' ' | b'_' | b',' => re.push_str(&s[start..k]),
                    _ => return None,
                }
            }
        }
    }
    flush(&mut re, &mut digits);
    re.push('$');
    Some(re)
}

/// Two dates, written or as a layout, glued by one or two characters that
/// are neither letters, digits nor spaces ("2024-12-01~2024-12-31",
/// "yyyy-mm-dd..yyyy-mm-dd").
fn period(s: &str) -> bool {
    let date = |x: &str| {
        x.get(..10)
            .is_some_and(|d| d == "yyyy-mm-dd" || date_literal(d).is_some())
    };
    let Some(rest) = s.get(10..).filter(|_| date(s)) else {
        return false;
    };
    let sep = rest
        .bytes()
        .take_while(|b| !b.is_ascii_alphanumeric() && *b != b' ')
        .count();
    (1..=2).contains(&sep) && date(&rest[sep..])
}

/// A date or time layout: two or more runs of one of the letters y, m, d, h,
/// s, each two to four long ("hhmm", "ddmmyyyy", "yyyy.mm.dd", "mmm-dd"),
/// with only separators between them. No English word has that shape.
fn layout(s: &str) -> bool {
    let b = s.as_bytes();
    let (mut runs, mut k) = (0, 0);
    while k < b.len() {
        match b[k] {
            c @ (b'y' | b'm' | b'd' | b'h' | b's') => {
                let start = k;
                while k < b.len() && b[k] == c {
                    k += 1;
                }
                if !(2..=4).contains(&(k - start)) {
                    return false;
                }
                runs += 1;
            }
            b'-' | b'/' | b'.' | b':' | b' ' => k += 1,
            _ => return false,
        }
    }
    runs >= 2
}

/// Words before a format noun that make it something the sentence acts on or
/// relates to ("include the favicon URL", "status for the email address",
/// "Submit a URL to scan"), not what the argument is.
const NOT_THE_VALUE: &[&str] = &[
    "match",
    "matches",
    "to",
    "for",
    "of",
    "by",
    "from",
    "with",
    "in",
    "on",
    "at",
    "whether",
    "if",
    "when",
    "into",
    "about",
    "via",
    "than",
    "using",
    "use",
    "include",
    "includes",
    "including",
    "get",
    "gets",
    "submit",
    "fetch",
    "fetches",
    "retrieve",
    "retrieves",
    "find",
    "finds",
    "search",
    "searches",
    "create",
    "creates",
    "update",
    "updates",
    "delete",
    "deletes",
    "show",
    "shows",
    "add",
    "adds",
    "open",
    "opens",
    "send",
    "sends",
    "read",
    "reads",
    "scan",
    "scans",
    "run",
    "runs",
    "default",
    "defaults",
    "returns",
    "return",
    "lists",
    "list",
    "map",
    "crawl",
    "extract",
    "usually",
    "contains",
    "assigns",
    "enable",
    "enables",
    "allow",
    "allows",
    "typically",
    "often",
    "per",
    "across",
    "each",
    "enumerate",
    "all",
    // in a clause about something else: "A message explaining why the IP address
    // could not be added", "The IP pools that this IP address has been added to"
    // (sendgrid's OpenAPI spec), "Defines how far from the base URL the crawler can
    // explore" (tavily's MCP server)
    "why",
    "that",
    "which",
    "where",
    "how",
    "whose",
];

/// A format noun (UUID, URL, email address, IP address) says what the
/// argument is when it heads the description ("The build UUID to get logs for",
/// "User email address") or follows a cue ("must be a UUID", "a valid email",
/// ", a URL", "(UUID)"); not as one of alternatives ("username or email address").
fn names_the_value(t: &[Tok], i: usize, end: usize) -> bool {
    if word(t, i.wrapping_sub(1)) == "or" || matches!(word(t, end + 1), "or" | "if") {
        return false;
    }
    // "URL pattern to match", "email template": the format noun qualifies
    // another noun, which is the value
    if (matches!(word(t, end + 1), "pattern" | "patterns" | "template")
        || matches!(word(t, end + 1), "templates" | "prefix" | "suffix")
        || matches!(word(t, end + 1), "regex" | "glob"))
        || heads_a_compound(word(t, end + 1))
    {
        return false;
    }
    // "identifier/URL", "(UUID format: ... or external ID format: ...)"
    if text(t, i.wrapping_sub(1)) == "/" || text(t, end + 1) == "/" {
        return false;
    }
    // "Add-on identifier: UUID, name (...), or attachment name" (heroku's MCP
    // server), "Item identifiers (name, URL, or ID)" (browser-use), "The
    // HTTP protocol, IP address, and port of your InfluxDB API" (grafana's
    // MCP server): one item of a list of forms or of parts (the last item
    // follows "or" or "and", above)
    let listed = text(t, end + 1) == ","
        && matches!(text(t, i.wrapping_sub(1)), ":" | "(" | ",")
        && (end + 2..t.len())
            .take_while(|&k| {
                t[k].sent == t[i].sent && !(text(t, k) == ")" && text(t, i - 1) == "(")
            })
            .any(|k| word(t, k) == "or" || (word(t, k) == "and" && text(t, i - 1) != ":"));
    // "either the unique identifier (GUID) or the display name" (Azure's MCP
    // server), "the identifier for the sweep (UUID) or a shortened form"
    // (plaid's OpenAPI spec): the form of one alternative
    let alternative =
        text(t, i.wrapping_sub(1)) == "(" && text(t, end + 1) == ")" && word(t, end + 2) == "or";
    if listed || alternative {
        return false;
    }
    let alternative_format = (end + 1..t.len())
        .take_while(|&k| t[k].sent == t[i].sent)
        .any(|k| word(t, k) == "or" && (k + 1..k + 5).any(|m| word(t, m) == "format"));
    if alternative_format {
        return false;
    }
    let p1 = prev_word(t, i, 1);
    let p2 = prev_word(t, i, 2);
    let article = matches!(p1, "a" | "an" | "valid");
    let cue = (article
        && ((matches!(p2, "be" | "is" | "as" | "contain" | "contains")
            || matches!(p2, "accepts" | "takes" | "valid" | "a" | "an"))
            || (i >= 2 && text(t, i - 2) == ",")))
        || matches!(p1, "valid" | "be" | "is" | "as")
        || (i > 0 && text(t, i - 1) == "(");
    // "Contains the URL of a suggested icon ...", "Contains the URL for the
    // icon ..." (googlemaps/openapi-specification): a description that
    // opens with "Contains" and the format noun says what the value holds,
    // as "Contains a URI for ..." (docusign's OpenAPI spec) does with "a"
    // above; not plural ("Contains absolute URLs to access ...", twilio-oai,
    // an object of links)
    let opens_contains = i == 2 && end == i && p1 == "the" && p2 == "contains";
    if cue || opens_contains {
        return true;
    }
    // "Required when listing test_suite_items. UUID of the suite." (opik's
    // MCP server): a later sentence that opens with the noun names the value
    let opens = sentence_start(t, i) == i
        && (matches!(word(t, end + 1), "of" | "for")
            || end + 1 == t.len()
            || text(t, end + 1) == ".");
    if opens {
        return true;
    }
    let first = t[i].sent == t[0].sent;
    first
        && !opens_with_an_action(t)
        && ((0..i).all(|k| !NOT_THE_VALUE.contains(&word(t, k))) || items_named(t, i, end))
}

/// The format noun ending at `end` names the items of a description that
/// opens with a list ("Explicit list of prior episode UUIDs to use as
/// history", getzep's graphiti MCP server; "List of email addresses that are
/// allowed for external collaboration", box's OpenAPI spec; "An array of
/// associated partner attachment UUIDs", digitalocean's): a plural noun at
/// the end of the phrase after "list of", each item's format. Not after a
/// verb ("Removes a list of email addresses"), nor past another word of
/// relation ("List of tags for the URLs").
fn items_named(t: &[Tok], i: usize, end: usize) -> bool {
    let Some(of) = (0..4.min(i)).find(|&k| matches!(word(t, k), "list" | "array")) else {
        return false;
    };
    let of = of + 1;
    let noun = word(t, end);
    word(t, of) == "of"
        && noun.ends_with('s')
        && !noun.ends_with("ss")
        // (the items are these alone: not "presigned URLs and object keys")
        && !matches!(text(t, end + 1), "and" | "or" | "," | "/")
        && i - of <= 4
        && (0..of - 1).all(|k| {
            kind(t, k) == Some(Tk::Word)
                && !word(t, k).ends_with('s')
                && (matches!(word(t, k), "a" | "an" | "the") || !NOT_THE_VALUE.contains(&word(t, k)))
        })
        // (one noun phrase: no article nor plural noun before the format
        // noun, "An array of Subuser IDs the IP address was assigned to")
        && (of + 1..i).all(|k| {
            let w = word(t, k);
            kind(t, k) == Some(Tk::Word)
                && !w.ends_with('s')
                && !matches!(w, "a" | "an" | "the")
                && !NOT_THE_VALUE.contains(&w)
        })
}

/// A noun that the format noun before it qualifies: "URL elicitation"
/// (modelcontextprotocol's everything server), "URL scan" (cloudflare's MCP
/// servers), "Email Address Validation API", "IP Address Management Error
/// Response Schema", "The IP address segment that you'd like to use in a prefix
/// search" (sendgrid's OpenAPI spec). The value is the thing the compound
/// names, not an address: an abstract noun (-tion, -ment, -ance, -ence) or an
/// API, a schema, a scan.
fn heads_a_compound(next: &str) -> bool {
    (matches!(next, "api" | "apis" | "schema" | "schemas" | "scan") || matches!(next, "scans"))
        || (next.len() > 5
            && (next.ends_with("tion")
                || next.ends_with("ment")
                || next.ends_with("ance")
                || next.ends_with("ence")))
}

/// A description that opens with a verb and its object ("Trigger a URL
/// elicitation so the client ...", modelcontextprotocol's everything server;
/// "Test an IP address from all included or excluded ranges", "Submit a URL
/// to scan", cloudflare's MCP servers) tells what the tool does: a format noun
/// in it is what the tool acts on, not the argument's format. A value's own
/// description opens with its noun ("The build UUID", "User email address",
/// "URL to fetch") or says what it is ("Specifies an IP address", sendgrid's
/// OpenAPI spec): an imperative has no "-s". An imperative that asks the
/// caller for the value ("Provide the URL of the repository") still names it.
fn opens_with_an_action(t: &[Tok]) -> bool {
    let w = word(t, 0);
    // (a determiner, or a verb that asks for the value)
    let not_an_action = matches!(w, "a" | "an" | "the" | "this" | "your" | "its" | "their")
        || matches!(w, "provide" | "enter" | "specify" | "set" | "give")
        || matches!(w, "pass" | "supply" | "use");
    !w.is_empty() && !w.ends_with('s') && !not_an_action && matches!(word(t, 1), "a" | "an" | "the")
}

// Family: formats (Format) — "YYYY-MM-DD", "ISO 8601", "RFC 3339", "a UUID",
// "an email address", "a URL", "IPv4", "HH:MM", and date literals.
// Decision: a date literal such as "e.g. `2024-01-31`" states the date format, so it fires.
pub(super) fn date_layout(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    let tok = &t[i];
    if matches!(tok.k, Tk::Word | Tk::Code | Tk::Quoted) && prev_word(t, i, 1) != "or" {
        // (a layout glued to the token before it is the rest of a longer
        // shape: "YYYY-MM-DDThh:mmss±hh:mm", mapbox/mcp-server, splits
        // at the colon into "mmss")
        let glued = i > 0
            && t[i - 1].end == tok.start
            && !matches!(text(t, i - 1), "(" | "[" | "\"" | "'" | "`")
            && layout(&tok.s);
        if let Some(what) = format_of_text(&tok.s).filter(|_| !glued) {
            // "Format: YYYY-MM-DD/YYYY-MM-DD": two dates joined are a
            // period, a shape no format names (no claim)
            let joined = matches!(text(t, i + 1), "/" | "to")
                && kind(t, i + 2) == Some(Tk::Word)
                && matches!(format_of_text(&t[i + 2].s), Some(What::Format("date")));
            if joined && matches!(what, What::Format("date")) {
                return Some(i + 3);
            }
            out.push(found(what, i, i));
            return Some(i + 1);
        }
    }
    None
}

pub(super) fn date_literal_shown(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    if let Some(v) = (t[i].k == Tk::Num).then(|| value_at(t, i)).flatten() {
        // a plain date shows the format when it is given as an example or a default
        // ("e.g. 2024-01-31"), not when it names a version ("Notion API 2025-09-03")
        let shown = v.date
            && ((1..=3).any(|b| {
                (matches!(prev_word(t, i, b), "e.g." | "eg" | "example" | "like")
                    || matches!(prev_word(t, i, b), "as" | "format" | "default")
                    || matches!(prev_word(t, i, b), "defaults"))
            }) || matches!(text(t, i.saturating_sub(1)), "(" | ":" | "="));
        if shown {
            let f = if kind(t, v.end) == Some(Tk::Word) {
                "date-time"
            } else {
                "date"
            };
            out.push(found(What::Format(f), i, v.end));
            return Some(v.end + 1);
        }
    }
    None
}

pub(super) fn format_standard(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // the standard's body and number, apart, hyphenated or in one word
    let named = |body: &str, number: &str| {
        (w == body && (text(t, i + 1) == number || seq(t, i + 1, &["-", number])))
            || w.strip_prefix(body) == Some(number)
    };
    let iso = named("iso", "8601");
    if iso || named("rfc", "3339") {
        let end = if w.len() > 3 {
            i
        } else if text(t, i + 1) == "-" {
            i + 2
        } else {
            i + 1
        };
        // "ISO 8601 date or range", "ISO 8601 format, relative dates, ...": one of several forms
        let alternatives = (end + 1..(end + 8).min(t.len()))
            .take_while(|&k| t[k].sent == t[end].sent)
            .any(|k| {
                word(t, k) == "relative"
                    || (word(t, k) == "or" && matches!(word(t, k + 1), "range" | "relative"))
            });
        if alternatives {
            return Some(end + 1);
        }
        let mut f = "date-time";
        for k in end + 1..(end + 4).min(t.len()) {
            match word(t, k) {
                "duration" | "durations" if iso => f = "duration",
                "date" if !matches!(word(t, k + 1), "time" | "and") && text(t, k + 1) != "-" => {
                    f = "date"
                }
                _ => continue,
            }
            break;
        }
        out.push(found(What::Format(f), i, end));
        return Some(end + 1);
    }
    None
}

pub(super) fn iso_time_word(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "Last update timestamp in ISO format": a time word makes "ISO" the date standard
    // (alone it may name a country or currency code standard)
    if w == "iso"
        && word(t, i + 1) == "format"
        && (1..=6).any(|b| {
            matches!(
                prev_word(t, i, b),
                "date" | "time" | "timestamp" | "datetime" | "date-time"
            )
        })
    {
        out.push(found(What::Format("date-time"), i, i + 1));
        return Some(i + 2);
    }
    None
}

pub(super) fn iso_date_word(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "ISO date time string", "an ISO date", "The ISO timestamp of the event":
    // ISO before a date word is the date standard (not "ISO dates are not
    // accepted", not "ISO date format in the response", a flag about the output)
    if w == "iso" && !in_example(t, i) {
        let dated = (1..=2).find(|&b| {
            (matches!(word(t, i + b), "date" | "dates" | "datetime")
                || matches!(word(t, i + b), "date-time" | "timestamp" | "timestamps"))
        });
        let sentence = || (0..t.len()).filter(|&k| t[k].sent == t[i].sent);
        let refused = sentence().any(|k| {
            word(t, k) == "not"
                && matches!(
                    word(t, k + 1),
                    "accepted" | "supported" | "allowed" | "valid"
                )
        });
        let output = sentence().any(|k| matches!(word(t, k), "response" | "output"));
        if let Some(b) = dated.filter(|_| !refused && !output) {
            let end = i + b;
            let f = if matches!(word(t, end), "date" | "dates")
                && !matches!(word(t, end + 1), "time" | "and")
                && text(t, end + 1) != "-"
            {
                "date"
            } else {
                "date-time"
            };
            out.push(found(What::Format(f), i, end));
            return Some(end + 1);
        }
    }
    None
}

pub(super) fn iso_code_format(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "Currency code in ISO format": the code's standard shape
    if w == "iso"
        && word(t, i + 1) == "format"
        && (1..=3).any(|b| matches!(prev_word(t, i, b), "code" | "codes"))
    {
        out.push(found(What::Pattern(None), i, i + 1));
        return Some(i + 2);
    }
    None
}

pub(super) fn uuid(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    if matches!(word(t, i), "uuid" | "uuids" | "guid" | "uuidv4") && named(t, i, i) {
        out.push(found(What::Format("uuid"), i, i));
    }
    None
}

pub(super) fn email(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    if !matches!(word(t, i), "email" | "e-mail") || in_example(t, i) {
        return None;
    }
    let address = matches!(word(t, i + 1), "address" | "addresses");
    let end = if address && names_the_value(t, i, i + 1) {
        i + 1
    } else if prev_word(t, i, 1) == "valid" {
        i
    } else {
        return None;
    };
    out.push(found(What::Format("email"), i, end));
    None
}

pub(super) fn url(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    #[rustfmt::skip]
    const NOT_THE_VALUE: &[&str] = &[
        "encoded", "encoding", "path", "parameter", "parameters", "query", "param", "params",
        "scheme", "fragment", "template",
    ];
    if matches!(word(t, i), "url" | "uri" | "urls" | "uris")
        && !NOT_THE_VALUE.contains(&word(t, i + 1))
        && named(t, i, i)
    {
        out.push(found(What::Format("uri"), i, i));
    }
    None
}

pub(super) fn ip_address(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    let address = matches!(word(t, i + 1), "address" | "addresses");
    let f = match word(t, i) {
        "ipv4" if named(t, i, i) => Some(("ipv4", i)),
        "ipv6" if named(t, i, i) => Some(("ipv6", i)),
        "ip" if address && named(t, i, i + 1) => Some(("ipv4", i + 1)),
        _ => None,
    };
    if let Some((f, end)) = f {
        out.push(found(What::Format(f), i, end));
    }
    None
}

pub(super) fn time_layout(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    if word(t, i) == "hh" && text(t, i + 1) == ":" && word(t, i + 2) == "mm" && !in_example(t, i) {
        out.push(found(What::Format("time"), i, i + 2));
    }
    None
}

/// The format noun at `i..=end` names the value, outside an example.
fn named(t: &[Tok], i: usize, end: usize) -> bool {
    !in_example(t, i) && names_the_value(t, i, end)
}

#[cfg(test)]
mod tests {
    use super::super::driver::assert_finds;
    use super::*;

    /// Asserts each case (see [`assert_finds`]) of this family.
    fn finds(cases: &[&str]) {
        assert_finds(FORMATS, cases)
    }

    /// One of a list of forms or parts: heroku's MCP server ("Add-on
    /// identifier: UUID, name, or attachment name"), browser-use ("Item
    /// identifiers (name, URL, or ID)"), grafana's MCP server ("The HTTP
    /// protocol, IP address, and port"); the form of one of two alternatives:
    /// Azure's MCP server ("either the unique identifier (GUID) or the
    /// display name"), plaid's OpenAPI spec ("(UUID) or a shortened form").
    #[test]
    fn a_form_among_alternatives_or_parts_is_not_the_format() {
        finds(&[
            "Add-on identifier: UUID, name (postgresql-curved-12345), or attachment name (DATABASE)",
            "Item identifiers (name, URL, or ID) already collected.",
            "The HTTP protocol, IP address, and port of your API.",
            "The workspace. This can be either the unique identifier (GUID) or the display name.",
            "Accepts either a subscription ID (GUID) or display name.",
            "The sweep's identifier (UUID) or a shortened form of it.",
            // the form of the value itself stays
            "The workspace identifier (GUID). | GUID | format uuid",
            "The workspace identifier (GUID), required. | GUID | format uuid",
            "The page URL, and the crawler follows it. | URL | format uri",
        ]);
    }

    /// A date layout beside a relative date or a Unix time in milliseconds
    /// is one of several accepted forms: Doist/todoist-ai ("Format:
    /// YYYY-MM-DD or 'today'"), langchain-ai/langchain-community ("Either a
    /// date with the format YYYY-MM-DD or a millisecond timestamp").
    #[test]
    fn a_date_beside_a_keyword_or_a_timestamp_is_one_form() {
        use crate::tests::assert_kinds;
        assert_kinds(&[
            "The start date to get the tasks for. Format: YYYY-MM-DD or 'today'.",
            "The start of the aggregate time window. Either a date with the format YYYY-MM-DD or a millisecond timestamp.",
            // the layout alone, examples in another sentence, a duration in ms stay
            "The start date. Format: YYYY-MM-DD. | Format",
            "A date in format 'YYYY-MM-DD'. Example: 'Yesterday' or 'Today'. | Format",
            "The start date (YYYY-MM-DD), or milliseconds to wait. | Format",
        ]);
    }

    /// The items' format after a list head: getzep's graphiti MCP server
    /// ("Explicit list of prior episode UUIDs to use as ... history"), box's
    /// OpenAPI spec ("List of email addresses that are allowed ..."),
    /// digitalocean's ("An array of associated partner attachment UUIDs.").
    #[test]
    fn a_list_of_format_nouns_names_each_items_format() {
        finds(&[
            "Explicit list of prior episode UUIDs to use as conversational history. | UUIDs | format uuid",
            "List of email addresses that are allowed for external collaboration. | email addresses | format email",
            "An array of associated partner attachment UUIDs. | UUIDs | format uuid",
            // after a verb, past a word of relation, a singular noun, too far
            "Removes a list of email addresses from the bounce list.",
            "Retrieve a list of IP addresses for the given SIM.",
            "List of tags for the URLs.",
            "An array of Subuser IDs the IP address was assigned to.",
            "A list of generated presigned URLs and object keys.",
            "List of ip addresses and CIDRs.",
            "List of documents with a URL.",
            "List of the many different kinds of old URLs.",
        ]);
    }

    #[test]
    fn a_format_noun_in_a_compound_is_not_the_format() {
        finds(&[
            "The Email Address Validation API.",
            "IP Address Management Error Response Schema",
            "The IP address segment to use in a prefix search.",
            "The results of a URL scan.",
            // the format noun heading the description, before a verb or a preposition
            "The IP address to get. | IP address | format ipv4",
            "Recipient email address. | email address | format email",
            "URL of the document. | URL | format uri",
        ]);
    }

    #[test]
    fn a_format_noun_in_a_clause_is_not_the_value() {
        finds(&[
            "A message explaining why the IP address could not be added.",
            "The IP pools that this IP address has been added to.",
            "The IP address that was added. | IP address | format ipv4",
        ]);
    }

    #[test]
    fn a_noun_the_tool_acts_on_is_not_the_format() {
        finds(&[
            "Trigger a URL elicitation so the client can direct the user.",
            "Test an IP address from all included or excluded ranges.",
            "Specifies an IP address. | IP address | format ipv4",
            "Provide the URL of the repository. | URL | format uri",
            // a value's own description opens with its noun, or states it after a cue
            "The build UUID to get logs for. | UUID | format uuid",
            "URL to fetch | URL | format uri",
            "Target of the hook, must be a URL. | URL | format uri",
        ]);
    }

    #[test]
    fn two_dates_joined_are_a_period() {
        // two dates joined are a period, no format of one date
        finds(&[
            "Time period. Format: YYYY-MM-DD/YYYY-MM-DD",
            "From YYYY-MM-DD to YYYY-MM-DD.",
            // one date, or a date and a time, stay formats
            "Start, YYYY-MM-DD. | YYYY-MM-DD | format date",
            "YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ | YYYY-MM-DD | format date",
        ]);
    }

    /// Round 11: a description opening "Contains the URL ..." says what the
    /// value holds, as "Contains a URI ..." did (googlemaps/openapi-specification;
    /// docusign's OpenAPI spec); a plural is an object of links (twilio-oai),
    /// "contains" inside a sentence relates the noun to something else.
    #[test]
    fn opening_with_contains_the_format_noun() {
        finds(&[
            "Contains the URL of a suggested icon which may be displayed to the user. | URL | format uri",
            "Contains the URL for the icon associated with this vehicle type. | URL | format uri",
            "Contains absolute URLs to access the participants.",
            "A field that contains the URL of the page.",
            "Contains the customized well-known URI content and links.",
        ]);
    }

    /// Round 11: two dates glued by any separator are a period, not only by
    /// "/" or "to" (klaviyo/incidentio-mcp's "tilde-separated dates ...
    /// Example: \"2024-12-01~2024-12-31\""; awslabs/mcp's and brave's shapes
    /// above).
    #[test]
    fn two_dates_glued_by_any_separator() {
        finds(&[
            "Example: \"2024-12-01~2024-12-31\" | \"2024-12-01~2024-12-31\" | pattern ^[0-9]{4}-[0-9]{2}-[0-9]{2}~[0-9]{4}-[0-9]{2}-[0-9]{2}$",
            "Range as `YYYY-MM-DD..YYYY-MM-DD`. | `YYYY-MM-DD..YYYY-MM-DD` | pattern ^[0-9]{4}-[0-9]{2}-[0-9]{2}\\.\\.[0-9]{4}-[0-9]{2}-[0-9]{2}$",
            // one date, a date and a time, dates apart
            "e.g. `2024-01-31` | `2024-01-31` | format date",
            "Since `2024-01-31 10:00`. | `2024-01-31 10:00` | format date-time",
            "e.g. `2024-01-31~x` | `2024-01-31~x` | format date",
        ]);
    }

    /// Round 11: a date or time layout read by its letters, not from a list
    /// of layouts: "in 24-hour hhmm format" (googlemaps/openapi-specification),
    /// "Format: YYYYMMDD" (nytimes/public_api_specs, read before by its
    /// "yyyy").
    #[test]
    fn a_layout_read_by_its_letters() {
        finds(&[
            "May contain a time of day in 24-hour hhmm format. | hhmm | pattern ^[0-9]{4}$",
            "Format: YYYYMMDD Restricts responses. | YYYYMMDD | pattern ^[0-9]{8}$",
            "Date (ddmmyyyy). | ddmmyyyy | pattern ^[0-9]{8}$",
            // the ISO time stays a format; a unit, one run, a word, the rest of a
            // longer shape (mapbox/mcp-server) are no layout
            "Time as HH:MM. | HH:MM | format time",
            "The size in mm.",
            "Add a summary.",
            "Hello mmhmm.",
            "A time like hh:mmss here.",
        ]);
    }

    #[test]
    fn named_formats() {
        finds(&[
            "Due date, YYYY-MM-DD. | YYYY-MM-DD | format date",
            "An ISO 8601 timestamp. | ISO 8601 | format date-time",
            "An ISO 8601 date. | ISO 8601 | format date",
            "ISO 8601 duration | ISO 8601 | format duration",
            "RFC 3339 | RFC 3339 | format date-time",
            "The user's UUID. | UUID | format uuid",
            "An email address. | email address | format email",
            "An IP address. | IP address | format ipv4",
        ]);
    }

    #[test]
    fn date_literals_state_the_format() {
        finds(&[
            "e.g. `2024-01-31` | `2024-01-31` | format date",
            "e.g. 2024-01-31 | 2024-01-31 | format date",
        ]);
    }

    #[test]
    fn url_words_about_parts_are_not_formats() {
        finds(&[
            "A URL-encoded query.",
            "The URL path to fetch.",
            "An email subject line.",
            "The year 2024.",
        ]);
    }
}
