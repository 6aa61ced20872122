//! Family: closed sets (ClosedSet). Each `pub(super) fn` taking a `Cx` is
//! the reader of the [`TABLE`](crate::TABLE) row of its name; the first,
//! `described_values`, asks the family's guards ([`ruled_out`]) for all.

use super::finding::*;
use super::reader::{Cx, NEXT};
use super::tokens::*;
use described::described_at;

mod described;

/// Words that cannot be a value in a closed set ("one of the tools", "either way").
pub(super) const NOT_VALUES: &[&str] = &[
    "the",
    "a",
    "an",
    "this",
    "that",
    "these",
    "those",
    "your",
    "my",
    "our",
    "their",
    "its",
    "his",
    "her",
    "them",
    "it",
    "they",
    "we",
    "you",
    "all",
    "any",
    "each",
    "every",
    "some",
    "several",
    "many",
    "more",
    "both",
    "other",
    "another",
    "way",
    "not",
    "no",
    "none",
    "following",
    "few",
    "two",
    "three",
    "us",
    "which",
    "what",
    "if",
    "is",
    "are",
    "be",
    "was",
    "to",
    "of",
    "in",
    "on",
    "at",
    "for",
    "with",
    "by",
    "from",
    "do",
    "does",
    "will",
    "can",
    "may",
    "must",
    "should",
    "use",
    "used",
    "when",
    "where",
    "how",
    "who",
    "there",
    "here",
    "then",
    "than",
    "so",
    "because",
    "only",
    "just",
    "also",
    "one",
    "same",
    "best",
    "most",
    "first",
    "last",
    "next",
    "side",
    "case",
    "cases",
    "option",
    "options",
    "kind",
    "type",
    "way",
    "him",
    "me",
    "less",
];

pub(super) struct List {
    pub(super) items: Vec<String>,
    pub(super) last: usize,
    pub(super) all_lit: bool,
    pub(super) has_or: bool,
}

/// A list of at least one value at `i`: code spans, quoted strings or single words,
/// separated by ",", "or", "and", "|" or "/". A word list must end the clause.
pub(super) fn parse_list(t: &[Tok], doc: &str, i: usize) -> Option<List> {
    let mut items = Vec::new();
    let mut j = i;
    let mut all_lit = true;
    let mut has_or = false;
    let mut last = i;
    // (a slash and a comma or "or" in one word list: the slash joins the
    // parts of one item, "the request path (elicitation/create, default)")
    let (mut slashed, mut joined) = (false, false);
    // "One of: * ActivationRequired * ActivationSent * Active", "Supported
    // Fonts include: - Default - Arial - ArialNarrow" (docusign's OpenAPI
    // spec), as "`file_search` - `web_search_preview` - ..." (openai-openapi):
    // a list that opens with a bullet marker goes on at the same marker,
    // written apart from the words around it (not "OCR-A")
    let bullet =
        (i > 0 && matches!(text(t, i - 1), "*" | "-" | "\u{2022}")).then(|| text(t, i - 1));
    let spaced = |k: usize| {
        k > 0 && k + 1 < t.len() && t[k - 1].end < t[k].start && t[k].end < t[k + 1].start
    };
    loop {
        let tok = t.get(j)?;
        // "Can be: `count`, `usage`, or `price`, as described in the
        // [UsageRecords documentation](...)" (twilio-oai): literals that a
        // bare word follows after a comma alone end there; the word opens
        // the next clause (not "etc", which leaves the list open)
        // (a list that "but" qualifies is not the set: "Valid types include
        // `pairwise` and `public`, but only `public` is currently
        // supported", okta management spec)
        if all_lit
            && !items.is_empty()
            && text(t, j - 1) == ","
            && tok.k == Tk::Word
            && tok.s != "etc"
            && kind(t, j + 1) == Some(Tk::Word)
            && !matches!(word(t, j + 1), "or" | "and")
        {
            if matches!(tok.s.as_str(), "but" | "except" | "though" | "although") {
                return None;
            }
            break;
        }
        match tok.k {
            Tk::Code | Tk::Quoted => items.push(inner(doc, tok).to_string()),
            // (a word joined to the next or the one before by a slash is a
            // value even when it reads as a pronoun or a preposition
            // elsewhere: "Region: us/eu", "on/off")
            // (and "none" or "all" beside a comma: "One of: none, cheapest,
            // fastest" (digitalocean/openapi), "Valid values: ALL, PENDING,
            // ..." and "HTTP, NONE, RELATIONAL" (awslabs/mcp); any word
            // between two commas of the list: "One of: ns, us, ms, s"
            // (awslabs/mcp), "`h`, `m`, `s`, `ms`, `us`, `ns`" as words)
            Tk::Word | Tk::Num
                if (!NOT_VALUES.contains(&tok.s.as_str())
                    || text(t, j + 1) == "/"
                    || (j > i && text(t, j - 1) == "/")
                    || (matches!(tok.s.as_str(), "none" | "all")
                        && (text(t, j + 1) == ","
                            || (j > i && text(t, j - 1) == ",")
                            // "(active, scheduled, ..., deleted, or all)"
                            // (sanity-io/sanity-mcp-server): the last of
                            // a comma list after its "or" (after bare
                            // words only: after literals, "or None" is the
                            // null of an optional value, awslabs/mcp)
                            || (!all_lit && j > i + 1 && word(t, j - 1) == "or" && text(t, j - 2) == ",")))
                    || (j > i && text(t, j - 1) == "," && text(t, j + 1) == ","))
                    && tok.s.chars().count() <= 24 =>
            {
                all_lit = false;
                items.push(doc[tok.start..tok.end].to_string());
            }
            _ => break,
        }
        last = j;
        j += 1;
        if text(t, j) == "(" && word(t, j + 1) == "default" && text(t, j + 2) == ")" {
            j += 3;
        } else if let Some(after) = gloss_end(t, j).filter(|_| {
            // (a bare word needs a lead that says values follow: "with
            // either inlineSettings (list of ...) or s3UriSettings (...)"
            // names members, awslabs/mcp)
            all_lit || i == 0 || matches!(text(t, i - 1), ":" | "are" | "is" | "of")
        }) {
            // "Allowed values are 'mobile' (to sign users out of the mobile
            // app) and 'web' (...)" (PagerDuty api-schema), "Allowed values:
            // LOCAL (mount local EBS ...) or SHARED (use shared scratch
            // storage)" (awslabs/mcp): a gloss in parentheses after each value
            j = after;
        }
        let mut sep = false;
        if text(t, j) == "," {
            j += 1;
            sep = true;
            joined = true;
        }
        if matches!(word(t, j), "or" | "and") {
            has_or |= word(t, j) == "or";
            j += 1;
            sep = true;
            joined = true;
        } else if bullet.is_some_and(|b| text(t, j) == b && spaced(j)) {
            j += 1;
            sep = true;
            joined = true;
        } else if matches!(text(t, j), "|" | "/") {
            has_or = true;
            slashed |= text(t, j) == "/";
            j += 1;
            sep = true;
        }
        if !sep {
            break;
        }
        // "Can be: `GET` or `POST` and defaults to `POST`" (twilio-oai), "Can
        // be \"five9\", \"zoom_phone\", or defaults to \"aws_connect\""
        // (intercom/Intercom-OpenAPI): the default closes a list of literals
        // and is one of its values
        if all_lit && word(t, j) == "defaults" && word(t, j + 1) == "to" && is_lit(t, j + 2) {
            let v = inner(doc, &t[j + 2]);
            if !items.iter().any(|x| x == v) {
                items.push(v.to_string());
            }
            last = j + 2;
            break;
        }
        // ", or" followed by something that is not a value ends the list
        if !matches!(kind(t, j), Some(Tk::Code | Tk::Quoted | Tk::Word | Tk::Num)) {
            break;
        }
        // "\"raw\", \"drafts\", \"published\", or a release ID"
        // (sanity-io/sanity-mcp-server), "`auto`, `none`, or any other model
        // name": the last alternative is a noun phrase, a form of value and
        // not a literal, so the list is one of several forms, not the set
        // (not "or any combination of them", openai-openapi: the values
        // combined are still the set; nor "or an empty string",
        // digitalocean/openapi: one more literal, written in words)
        let open_form = match word(t, j) {
            "a" | "an" => word(t, j + 1) != "empty",
            "any" => word(t, j + 1) == "other",
            "another" | "other" | "some" => true,
            _ => false,
        };
        if word(t, j - 1) == "or" && open_form {
            return None;
        }
    }
    if items.is_empty() {
        return None;
    }
    if !all_lit && slashed && joined {
        return None;
    }
    if !all_lit {
        let after = text(t, last + 1);
        let ends = last + 1 >= t.len()
            || t[last + 1].sent != t[last].sent
            || (matches!(after, "." | ";" | "," | ")" | ":" | "(" | "\u{2014}")
                || matches!(after, "-" | "is" | "are"));
        if !ends {
            return None;
        }
    }
    Some(List {
        items,
        last,
        all_lit,
        has_or,
    })
}

/// Whether the list whose last value read ends at token `last` goes on
/// after it, so that what was read is a part of the list, not the whole:
/// past a gloss in parentheses (closed at any length, across sentences,
/// with parentheses inside it) comes a separator and another value, a
/// literal, or a word or number that a gloss or a separator follows in
/// turn. A gloss that never closes leaves the list cut too. lark-mcp's
/// generated "Options:department_id(... a sentence ...),open_department_id(...)",
/// "Options:1(Transfer ...),2(Retain ...)": the reader stops at a gloss it
/// does not close within one sentence and 16 tokens, or at a value it does
/// not take for one, and the part it read is not the set.
pub(super) fn list_goes_on(t: &[Tok], last: usize) -> bool {
    let mut k = last + 1;
    if text(t, k) == "(" {
        match closing(t, k, "(", ")") {
            Some(c) => k = c + 1,
            None => return true,
        }
    }
    let Some(sep) = separator(t, k) else {
        return false;
    };
    let next = k + sep;
    match kind(t, next) {
        Some(Tk::Code | Tk::Quoted) => true,
        Some(Tk::Word | Tk::Num) => matches!(text(t, next + 1), "(" | "," | "|"),
        _ => false,
    }
}

/// The token after a parenthesis at `j` that glosses the value before it,
/// when a separator and another value follow it (so the list goes on); the
/// parenthesis closes within 16 tokens of its sentence.
fn gloss_end(t: &[Tok], j: usize) -> Option<usize> {
    if text(t, j) != "(" {
        return None;
    }
    let close = (j + 1..(j + 17).min(t.len()))
        .take_while(|&k| t[k].sent == t[j].sent)
        .find(|&k| matches!(text(t, k), ")" | "("))
        .filter(|&k| text(t, k) == ")")?;
    let sep = close + 1;
    matches!(
        kind(t, sep + separator(t, sep)?),
        Some(Tk::Code | Tk::Quoted | Tk::Word)
    )
    .then_some(close + 1)
}

/// How many tokens the separator between two values at `k` takes: ", or"
/// and ", and" two; ",", "|", "/", "or" and "and" one.
fn separator(t: &[Tok], k: usize) -> Option<usize> {
    match text(t, k) {
        "," if matches!(word(t, k + 1), "or" | "and") => Some(2),
        "," | "|" | "/" | "or" | "and" => Some(1),
        _ => None,
    }
}

/// The token that closes the bracket `open` at `at` (`close` being its
/// closing mark), past the brackets nested inside it; `None` when it never
/// closes.
fn closing(t: &[Tok], at: usize, open: &str, close: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (k, tok) in t.iter().enumerate().skip(at) {
        if tok.k == Tk::Punct && tok.s == open {
            depth += 1;
        } else if tok.k == Tk::Punct && tok.s == close {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

/// "either `owner` or `org` must be provided" names arguments, not values.
pub(super) fn names_arguments(t: &[Tok], last: usize) -> bool {
    // "Use either `date_created` or `date_modified`, not both."
    // (lob/lob-openapi), "Nucleus sampling; use either `temperature` or
    // `top_p`, not both." (openai-openapi): two things that could both be
    // given are arguments or fields, never two values of one argument
    let mut k = last + 1;
    if text(t, k) == "," {
        k += 1;
    }
    if word(t, k) == "but" {
        k += 1;
    }
    if word(t, k) == "not" && word(t, k + 1) == "both" {
        return true;
    }
    (last + 1..last + 5).any(|k| {
        (matches!(word(t, k), "required" | "provided" | "given")
            || matches!(word(t, k), "specified" | "supplied" | "set"))
    }) && (matches!(word(t, last + 1), "must" | "is" | "are" | "should")
        || matches!(word(t, last + 1), "has" | "have"))
}

/// The family's guards, asked by its first reader: a token inside what is
/// read already or inside an example, a list that names which member to
/// give, the keys of a JSON object, a legend's "=".
fn ruled_out(t: &[Tok], i: usize, mark: &mut usize) -> bool {
    if i < *mark || in_example(t, i) {
        return true;
    }
    // "Exactly one of [log_group_names, log_group_identifiers] should be
    // non-null" (awslabs/mcp), "exactly one value field: 'text_value' for
    // text fields, ..." and "exactly one reference variant: 'node_id', ..."
    // (github-mcp-server): the list names which member to give, not values
    if names_one_member(t, i) {
        *mark = (i..t.len())
            .take_while(|&k| t[k].sent == t[i].sent)
            .last()
            .map_or(i + 1, |k| k + 1);
        return true;
    }
    // 'using {"id": 123, "value": ...} or {"name": ...}' (github-mcp-server),
    // 'For CSV: {"fileFormat": {"csv": ...}}' (awslabs/mcp): keys of a JSON
    // object written in the prose, not values; skip to its closing brace
    if i > 0 && text(t, i - 1) == "{" {
        *mark = closing(t, i - 1, "{", "}").map_or(t.len(), |k| k + 1);
        return true;
    }
    // a legend "value = gloss" gives no values (no held-out batch has one)
    text(t, i) == "="
}

pub(super) fn described_values(c: Cx, i: usize) -> Option<usize> {
    let Cx { t, doc, out, .. } = c;
    if ruled_out(t, i, c.mark) {
        return NEXT;
    }
    // a bullet marker leads the value after it ("- canceled: ...")
    let at = i + usize::from(matches!(text(t, i), "-" | "*" | "\u{2022}"));
    let (items, last) = t.get(at).and_then(|_| described_at(t, doc, at))?;
    *c.mark = last + 1;
    // ("`true` allows SIP Endpoints to register ..., `false` does
    // not", twilio-oai: what a flag's two states mean)
    if !(names_members(t, last) || flag_states(&items) || characters(&items)) {
        out.push(found(What::Set(items), at, last));
    }
    NEXT
}

pub(super) fn fixed_value(c: Cx, i: usize) -> Option<usize> {
    let Cx { t, doc, out, .. } = c;
    // "The value will always be `comment`": a fixed value, stated of the
    // value itself, so even a sentence with "will" gives it
    if !fixed_value_at(t, i) {
        return None;
    }
    *c.mark = i + 1;
    let value = What::Set(vec![inner(doc, &t[i]).to_string()]);
    let always = Found {
        always: true,
        ..found(value, i, i)
    };
    out.push(always);
    NEXT
}

pub(super) fn restated_type_value(c: Cx, i: usize) -> Option<usize> {
    let Cx { t, doc, out, .. } = c;
    // "The type of this object (`container.file`)", "The type of the
    // tool, i.e. `function`" (openai-openapi), "The type of the tool.
    // ('WEBHOOK')" (twilio-oai), "The type of this event. The value is
    // `gift_card.updated`." (square's Connect API): a description that
    // names the kind of the value and ends on its one value
    let v = restated_type_at(t, doc, i)?;
    *c.mark = t.len();
    out.push(found(What::Set(vec![v]), i, i));
    NEXT
}

/// A lead at `i` that opens a list of values: where the list starts
/// (`j`), whether it holds literals only, whether the lead is strong
/// enough for a single value or no "or", whether a bullet opens it.
#[derive(Clone, Copy)]
struct Lead<'a> {
    w: &'a str,
    j: usize,
    lit_only: bool,
    strong: bool,
    bulleted: bool,
}

/// The lead at `i`; `None` when no list of values opens there (its
/// family's later readers skip `i`).
fn lead_at<'a>(t: &'a [Tok], i: usize, mark: &mut usize) -> Option<Lead<'a>> {
    let w = match kind(t, i) {
        Some(Tk::Punct) => text(t, i),
        _ => word(t, i),
    };
    // "the following properties: `id`, `type`, ..." (okta management
    // spec), "Dictionary with supported keys: \"Type\", \"Name\", ..."
    // (awslabs/mcp), "You may not override the following headers:
    // `x-sg-id`, ..." (sendgrid-oai), "the following worker fields: `sid`,
    // ..." (twilio-oai): a member noun before the colon, so the list
    // names members, not values
    if w == ":" && member_list_noun(prev_word(t, i, 1)) {
        let mut k = i + 1;
        // (a full stop inside a member's path does not end the list:
        // "Supported fields: metadata.name, ..., status.phase
        // (Pending/Running/...), status.podIP", kubernetes-mcp-server)
        let inside = |k: usize| k + 1 < t.len() && t[k + 1].start == t[k].end;
        while k < t.len()
            && t[k].sent == t[i].sent
            && (inside(k) || !matches!(text(t, k), "." | ";"))
        {
            k += 1;
        }
        *mark = k;
        return None;
    }
    // (a bracketed array, codes joined by "or": no values, no lead)
    if matches!(w, "[" | "or") {
        return None;
    }
    // (start of the list, literals only, a lead strong enough for a single value or no "or")
    let start = match w {
        "one" | "any" if text(t, i + 1) == "of" => {
            let before = (prev_word(t, i, 2), prev_word(t, i, 1));
            if matches!(before.1, "exactly" | "only" | "just" | "than")
                || matches!(before, ("at", "least") | ("at", "most"))
            {
                return None;
            }
            let mut j = i + 2;
            if seq(t, j, &["the", "following"]) {
                j += 2;
                if matches!(word(t, j), "values" | "options" | "choices" | "strings") {
                    j += 1;
                }
            }
            if text(t, j) == ":" {
                j += 1;
            }
            Some((j, false, text(t, j - 1) == ":"))
        }
        // "any combination of `a`, `b`, `c`"
        "combination" if text(t, i + 1) == "of" => Some((i + 2, true, true)),
        "either" => Some((i + 1, false, false)),
        "only" => Some((i + 1, true, false)),
        // "Can be: `none`, `any`, `local`, or `foreign`"
        "can" if word(t, i + 1) == "be" && text(t, i + 2) == ":" => Some((i + 3, true, true)),
        // "Can be HS256 or RS256." (codes, checked below)
        "can" if word(t, i + 1) == "be" => Some((i + 2, false, false)),
        "values" | "options" | "choices" | "modes" | "formats" | "levels" => {
            let mut j = i + 1;
            if matches!(word(t, j), "are" | "include" | "is") {
                j += 1;
            } else if matches!(word(t, j), "can" | "may")
                && matches!(word(t, j + 1), "be" | "include")
            {
                // "Values can include \"owner\", \"editor\", and \"viewer\""
                // (box-openapi), "Values can be 6 and 10" (MiniMax-MCP)
                j += 2;
            }
            // "The following values are supported: ..."
            if matches!(word(t, j), "supported" | "allowed" | "accepted" | "valid") {
                j += 1;
            }
            let colon = matches!(text(t, j), ":" | "\u{2014}");
            if colon {
                j += 1;
            }
            // a single value needs a colon or a literal after the lead
            let strong = colon || is_lit(t, j);
            if j == i + 1
                || !(matches!(text(t, j - 1), ":" | "\u{2014}" | "are" | "include")
                    || matches!(text(t, j - 1), "is" | "be"))
            {
                None
            } else {
                Some((j, false, strong))
            }
        }
        // "Allowed types include `string`, `float` and `enum`" (box-openapi),
        // "Current available items are: `item.logprobs`" (openai-openapi):
        // a word that says the values are accepted, the noun they are, and
        // "are", "include" or a colon before literals
        "allowed" | "supported" | "valid" | "possible" | "accepted" | "available" | "permitted" => {
            accepted_lead(t, i)
        }
        // "Agent effort: minimal, low, medium, high, xhigh, or auto."
        // (not after "Format:", which lists formats: "Format: RFC3339 or YYYY-MM-DD")
        ":" if !matches!(prev_word(t, i, 1), "format" | "formats") => Some((i + 1, false, false)),
        // "Type of connection (standard, private, or privateEndpoint)"
        // (not "(e.g., a, b, c)": examples)
        "(" if !matches!(
            word(t, i + 1),
            "e.g." | "eg" | "i.e." | "example" | "examples"
        ) =>
        {
            Some((i + 1, false, false))
        }
        _ if is_lit(t, i) => Some((i, true, false)),
        _ => None,
    };
    let (mut j, lit_only, strong) = start?;
    // (a bullet marker after the lead's colon opens the list: "One of: *
    // ActivationRequired * ...", docusign's OpenAPI spec)
    let bulleted = j > 0
        && text(t, j - 1) == ":"
        && matches!(text(t, j), "*" | "-" | "\u{2022}")
        && kind(t, j + 1).is_some_and(|k| k != Tk::Punct);
    if bulleted {
        j += 1;
    }
    Some(Lead {
        w,
        j,
        lit_only,
        strong,
        bulleted,
    })
}

pub(super) fn accepted_capital_list(c: Cx, i: usize) -> Option<usize> {
    let Cx { t, doc, w, out, .. } = c;
    // "Allowed categories: TRAVEL, MEALS, ENTERTAINMENT, OFFICE SUPPLIES,
    // OTHER." (vercel/ai), "Valid states: SUBMITTED, PENDING, ...,
    // CANCELLED" (awslabs/mcp): codes in capitals after a word that says
    // they are accepted, its noun and a colon, a code of two words too
    // (the lead is read only after an accepting word)
    if !accepting(w) {
        return None;
    }
    let l = lead_at(t, i, c.mark)?;
    if !(l.lit_only && l.strong && capital_code(t, doc, l.j)) {
        return None;
    }
    let (items, last) = capital_list(t, doc, l.j)?;
    *c.mark = last + 1;
    out.push(found(What::Set(items), i, last));
    NEXT
}

/// The list after the lead `l`, whether it holds literals only and whether
/// it is bare words after an accepting lead; `None` when it is no list of
/// values.
fn list_at(t: &[Tok], doc: &str, l: Lead) -> Option<(List, bool, bool)> {
    let (w, j, strong) = (l.w, l.j, l.strong);
    // "Valid types: Model, Source, Seed, ..., SavedQuery, Test."
    // (dbt-labs/dbt-mcp), "Allowed types: agent, llm, tool, retriever"
    // (digitalocean/openapi), "Valid operations: GetItem, Query, Scan"
    // (awslabs/mcp): bare words after an accepting word, its noun and a
    // colon, as the capital codes above; three of them, or two joined by
    // "or", ending their clause (not characters: "Allowed characters:
    // letters, digits and hyphens" is a Pattern)
    let word_list = l.lit_only
        && strong
        && accepting(w)
        && kind(t, j) == Some(Tk::Word)
        && !matches!(
            prev_word(t, j - 1, 1),
            "characters" | "chars" | "symbols" | "letters"
        );
    let lit_only = l.lit_only && !word_list;
    // "Options are:\n1. get - Get issue details.\n2. get_comments - ..."
    // (github-mcp-server): the numbers of a numbered list, not values
    if kind(t, j) == Some(Tk::Num)
        && text(t, j + 1) == "."
        && t.get(j + 1).is_some_and(|d| d.start == t[j].end)
    {
        return None;
    }
    let list = parse_list(t, doc, j)?;
    // (bullets that hold one value each give two or more; one is the
    // label of a described bullet, read by the bullet reader: "values
    // are: - Dropbox: `connector_dropbox` - Gmail: ...", openai-openapi;
    // "options: * null - ... * \"time\" - ...", PagerDuty api-schema)
    if l.bulleted && list.items.len() < 2 {
        return None;
    }
    Some((list, lit_only, word_list))
}

pub(super) fn values_one_by_one(c: Cx, i: usize) -> Option<usize> {
    let Cx { t, doc, out, .. } = c;
    // "Can be: `inbound` for inbound calls, `outbound-api` for calls
    // initiated via the REST API ..." (twilio-oai), "One of the supported
    // ops: `add`: Add a new claim ... `replace`: Modify ..." (okta
    // management spec): a lead before values described one by one, which
    // the list reader would stop after the first (its one literal)
    // (a literal leads only itself, and the values described from it on
    // are the first reader's, which found none at this token)
    if is_lit(t, i) {
        return None;
    }
    let l = lead_at(t, i, c.mark)?;
    if !is_lit(t, l.j) || in_example(t, l.j) {
        return None;
    }
    let (items, last) = described_at(t, doc, l.j).filter(|(items, _)| items.len() >= 2)?;
    let (list, ..) = list_at(t, doc, l)?;
    if list.items.len() != 1 || !list.all_lit {
        return None;
    }
    *c.mark = last + 1;
    // (the finding starts at the first value, as when the values are read
    // without the lead: the shared filters look back from there,
    // "Indicates if the assignment is direct (`USER`) or ..." stays a set)
    // (nor a flag's two states: "Can be: `true` to enable multi-tasking,
    // or `false` to disable it", twilio-oai)
    if !(names_members(t, last) || flag_states(&items) || characters(&items)) {
        out.push(found(What::Set(items), l.j, last));
    }
    NEXT
}

/// "one of draft, final", "only `asc` or `desc`", "either 'json' or
/// 'csv'", "allowed values: a, b, c", "`asc` or `desc`".
pub(super) fn value_list(c: Cx, i: usize) -> Option<usize> {
    let Cx { t, doc, out, .. } = c;
    let l = lead_at(t, i, c.mark)?;
    let (list, lit_only, word_list) = list_at(t, doc, l)?;
    let Lead { w, strong, .. } = l;
    // "The materialization type for the model config block (optional,
    // e.g., 'view', 'table')" (dbt-labs/dbt-mcp): a parenthesis whose
    // list runs past an example cue gives examples, as "(e.g., a, b, c)"
    if w == "(" && in_example(t, list.last) {
        *c.mark = list.last + 1;
        return NEXT;
    }
    let n = list.items.len();
    let after = text(t, list.last + 1);
    let weak_lead = matches!(w, ":" | "(");
    // "Currently `/v1/responses`, `/v1/embeddings`, and `/v1/videos` are
    // supported" (openai-openapi): literals the next words declare
    // accepted, the list form of "only `dtmf` is supported"
    let declared_accepted = is_lit(t, i)
        && list.all_lit
        && n >= 2
        && matches!(word(t, list.last + 1), "is" | "are")
        && matches!(
            word(t, list.last + 2),
            "supported" | "allowed" | "accepted" | "valid" | "available"
        );
    // "Type of secret to create (generic, docker-registry, tls)"
    // (Flux159/mcp-server-kubernetes), "The status of the item
    // (`completed`, `incomplete`, `in_progress`)" (openai-openapi): a
    // parenthesis that closes on its list, after the noun that names a
    // kind of value at the head of the sentence, needs no "or"
    let kind_list = w == "("
        && after == ")"
        && (kind_head(t, i) || (kind_before(t, i) && clause_ends(t, list.last + 2)))
        && {
            // (two words need a slash or "or" between them: "The new state of
            // the notification (read/done)", github-mcp-server, the form of
            // "'type' (file/directory)", modelcontextprotocol/servers)
            let min = if list.all_lit || list.has_or { 2 } else { 3 };
            n >= min && !list.items.iter().any(|v| v == "etc")
        };
    // "Optional line amount types (EXCLUSIVE, INCLUSIVE, NO_TAX), NO_TAX
    // by default" (XeroAPI/xero-mcp-server), "Compression format ('zip',
    // 'tar', 'tar.gz', 'tar.bz2', 'tar.xz')." (crewAIInc/crewAI-tools):
    // whatever the noun before it, a parenthesis that holds only values
    // by their shape (literals, or codes in capitals) and closes its
    // clause lists the values; the kind noun above is needed only for
    // bare words, which may as well be the parts of a thing ("The root
    // (protocol, subdomain, domain) of any links")
    let kind_list = kind_list || (w == "(" && after == ")" && shaped_values(t, doc, i, &list));
    // "Filter by financial status - 'paid', 'pending', 'refunded'
    // (optional)." (agno-agi/agno), as "The pay type - `GROSS`, `NET`, or
    // `UNKNOWN`" (plaid-openapi) and "The status of the batch processing
    // request - \"PENDING\", ... or \"COMPLETE\"" (HubSpot): three
    // literals after a dash that follows the noun naming a kind of value,
    // ending their clause, need no "or" either
    let kind_list = kind_list
        || (is_lit(t, i)
            && i > 0
            && text(t, i - 1) == "-"
            && kind_head(t, i - 1)
            && list.all_lit
            && n >= 3
            && (clause_ends(t, list.last + 1) || after == "("));
    let enough = match () {
        // a bare list needs three words after a colon, or to close a parenthesis
        // "Where to send the API key: header or query." — two words closing the
        // sentence after a short lead and a colon
        _ if weak_lead && !list.all_lit && n == 2 && w == ":" => {
            let ends = list.last + 1 >= t.len()
                || t[list.last + 1].sent != t[list.last].sent
                || after == ".";
            let lead = (0..i).rev().take_while(|&k| t[k].sent == t[i].sent).count();
            // "Region: us/eu." — a slash between two short words too
            let short = list
                .items
                .iter()
                .all(|v| v.len() <= 12 && v.bytes().all(|b| b.is_ascii_alphabetic()));
            let or =
                (i + 1..=list.last).any(|k| word(t, k) == "or" || (short && text(t, k) == "/"));
            or && ends && lead <= 6
        }
        _ if kind_list => true,
        _ if word_list => n >= 3 || (n >= 2 && list.has_or),
        _ if weak_lead && !list.all_lit => n >= 3 && list.has_or && (w == ":" || after == ")"),
        // a colon before three literals introduces their list, "or" or not
        _ if w == ":" => n >= 3,
        _ if strong || declared_accepted => n >= 1,
        _ => n >= 2,
    };
    if !enough || (lit_only && !list.all_lit) {
        return NEXT;
    }
    // after a bare "can be", words are values only when they read as codes
    // ("HS256 or RS256", "GET or POST"), not as prose ("empty or null")
    if w == "can"
        && !list.all_lit
        && !(list.has_or
            && list.items.iter().all(|v| {
                v.bytes().any(|b| b.is_ascii_digit())
                    || (v.len() >= 2 && v.bytes().all(|b| b.is_ascii_uppercase()))
            }))
    {
        return NEXT;
    }
    if (w == "either" || w == "(" || (is_lit(t, i) && !strong))
        && !list.has_or
        && !kind_list
        && !declared_accepted
    {
        return NEXT;
    }
    // "in `user:ID` or `team:ID` format" is a shape; phrases in quotes are not values
    if after == "format" || word(t, list.last + 1) == "format" {
        return NEXT;
    }
    if list.all_lit && !strong && list.items.iter().any(|v| v.trim().contains(' ')) {
        return NEXT;
    }
    // "cannot be combined with `value` or `delete`" names fields, not values
    // "only available if ... the `appProtocol` is `HTTP` or `HTTP2`" is a condition
    // "Will not be returned for ... military addresses (state is `AA`,
    // `AE`, or `AP`)" (lob/lob-openapi): a parenthesis that opens with
    // a noun and "is" names the case by another member's values, as a
    // clause with "when" does
    let case = is_lit(t, i)
        && i >= 3
        && matches!(word(t, i - 1), "is" | "are")
        && kind(t, i - 2) == Some(Tk::Word)
        && text(t, i - 3) == "("
        && !matches!(word(t, i - 2), "value" | "values" | "default");
    let conditional = is_lit(t, i) && !strong && (under_condition(t, i) || case);
    if conditional {
        if case {
            *c.mark = list.last + 1;
        }
        return NEXT;
    }
    if is_lit(t, i) && matches!(prev_word(t, i, 1), "with" | "of" | "by" | "format" | "form") {
        return NEXT;
    }
    // "Compression level for `jpeg` or `webp` output." (openai-openapi),
    // "Required for `move` or `copy` operations" (box-openapi), "The
    // phone number for a `call` or `sms` authenticator enrollment" (okta
    // management spec): after "for" and before their noun, literals name
    // the cases the argument serves, not its values ("Optimize route for
    // 'FastestRoute' or 'ShortestRoute' (default: ...)" stays a set)
    let noun_after =
        kind(t, list.last + 1) == Some(Tk::Word) && !NOT_VALUES.contains(&word(t, list.last + 1));
    if is_lit(t, i)
        && noun_after
        && (prev_word(t, i, 1) == "for"
            || (matches!(prev_word(t, i, 1), "a" | "an" | "the") && prev_word(t, i, 2) == "for"))
    {
        *c.mark = list.last + 1;
        return NEXT;
    }
    // "Must include a 'type' field set to 'object' or 'text'" (exa-mcp-server),
    // like "with a `stream_type` of `admin_logs` or ..." (box-openapi): the
    // values of a member named just before, not of the argument
    if is_lit(t, i) && member_set_to(t, i) {
        *c.mark = list.last + 1;
        return NEXT;
    }
    // "Provide either issue_number or pull_request_number" names arguments too
    let provide = (1..=2).any(|b| {
        (matches!(prev_word(t, i, b), "provide" | "specify" | "pass")
            || matches!(prev_word(t, i, b), "supply" | "give" | "specified")
            || matches!(prev_word(t, i, b), "provided"))
    });
    if names_arguments(t, list.last) || provide {
        *c.mark = list.last + 1;
        return NEXT;
    }
    // "(format: 'YYYY-MM-DD' or 'YYYY-MM-DDTHH:MM:SS')": formats, not values
    // (any of them: "in the following formats: `YYYY-MM-DD` (...),
    // `<=YYYY-MM-DD` (...), and `>=YYYY-MM-DD`", twilio-oai)
    if list.items.iter().any(|v| {
        // a shape with placeholders, not a date given as a value ("`2010-04-01`")
        v.bytes().any(|b| b.is_ascii_alphabetic())
            && super::formats::format_of_text(&v.to_lowercase()).is_some()
    }) {
        *c.mark = list.last + 1;
        return NEXT;
    }
    // "(MIC, BIC, or acronym)": codes next to a plain noun name kinds of
    // identifier, not the values
    if !list.all_lit {
        let caps = |v: &String| {
            v.bytes().filter(u8::is_ascii_uppercase).count() >= 2
                && !v.bytes().any(|b| b.is_ascii_lowercase())
        };
        let plain = |v: &String| v.bytes().all(|b| b.is_ascii_lowercase());
        if list.items.iter().any(caps) && list.items.iter().any(plain) {
            *c.mark = list.last + 1;
            return NEXT;
        }
    }
    // "must not contain `<`, `>` or `&`": characters, not values
    if characters(&list.items) {
        *c.mark = list.last + 1;
        return NEXT;
    }
    let bools = list
        .items
        .iter()
        .all(|s| matches!(s.to_lowercase().as_str(), "true" | "false" | "yes" | "no"));
    if bools {
        return NEXT;
    }
    *c.mark = list.last + 1;
    if names_members(t, list.last) {
        return NEXT;
    }
    out.push(found(What::Set(list.items), i, list.last));
    None
}

/// Items with no letter or digit are characters or operators ("must not
/// contain `<`, `>` or `&`"; "Values support '!' for exclusion and '*' for
/// prefix matching", buildkite/buildkite-mcp-server, described one by one):
/// what the value may hold, not values it takes.
fn characters(items: &[String]) -> bool {
    items.iter().all(|v| !v.chars().any(char::is_alphanumeric))
}

/// Words that say a value is accepted ("supported value", "valid option").
fn accepting(w: &str) -> bool {
    (matches!(w, "supported" | "valid" | "allowed" | "accepted")
        || matches!(w, "permitted" | "available"))
}

/// A noun that names a member of an object, not a kind of value ("the only
/// supported field is `name`" names the member to give).
fn member_noun(w: &str) -> bool {
    (matches!(w, "field" | "fields" | "parameter" | "parameters")
        || matches!(w, "property" | "properties" | "attribute" | "attributes")
        || matches!(w, "key" | "keys" | "header" | "headers" | "filter")
        || matches!(w, "filters"))
}

/// A noun naming members of an object (its properties, keys, fields,
/// headers), which a list after it names.
fn member_list_noun(w: &str) -> bool {
    (matches!(w, "properties" | "attributes" | "keys" | "headers")
        || matches!(w, "fields" | "parameters"))
}

/// The sentence of `i` has a condition before it ("if", "when", ...).
fn under_condition(t: &[Tok], i: usize) -> bool {
    (0..i)
        .rev()
        .take_while(|&k| t[k].sent == t[i].sent)
        .any(|k| matches!(word(t, k), "if" | "when" | "unless" | "whenever"))
}

/// The values are a flag's two states (`true`, `false`), which its type says,
/// not a set to declare.
fn flag_states(items: &[String]) -> bool {
    items
        .iter()
        .all(|v| matches!(v.to_lowercase().as_str(), "true" | "false"))
}

/// A word written in capitals as a code: "PENDING", "IN_PROGRESS", "V2".
fn capital_code(t: &[Tok], doc: &str, k: usize) -> bool {
    kind(t, k) == Some(Tk::Word) && {
        let raw = &doc[t[k].start..t[k].end];
        raw.bytes().filter(u8::is_ascii_uppercase).count() >= 2
            && raw
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    }
}

/// Two or more capital codes from `j`, each of one to three words, joined by
/// commas, "or" or "and", ending their clause ("TRAVEL, MEALS, OFFICE
/// SUPPLIES, OTHER."), as (values, last token).
fn capital_list(t: &[Tok], doc: &str, j: usize) -> Option<(Vec<String>, usize)> {
    let mut items = Vec::new();
    let mut k = j;
    let mut last;
    loop {
        let first = k;
        while capital_code(t, doc, k) && k < first + 3 && t[k].sent == t[j].sent {
            k += 1;
        }
        if k == first {
            return None;
        }
        last = k - 1;
        items.push(doc[t[first].start..t[last].end].to_string());
        if text(t, k) == "," {
            k += 1;
        }
        if matches!(word(t, k), "or" | "and") {
            k += 1;
        }
        if k == last + 1 {
            break;
        }
    }
    (items.len() >= 2 && clause_ends(t, last + 1)).then_some((items, last))
}

/// The start of a list after "Allowed types include", "Supported units are",
/// "Current available items are:" at `i`, as (start, literals only, strong):
/// one or two nouns, then "are", "include" or a colon. Literals only; a
/// single one needs the colon. The nouns the "values" lead reads itself
/// ("Possible values are ...") are left to it.
fn accepted_lead(t: &[Tok], i: usize) -> Option<(usize, bool, bool)> {
    let verb = |k: usize| matches!(word(t, k), "are" | "include" | "includes" | "is");
    let mut j = i + 1;
    while j < i + 3 && kind(t, j) == Some(Tk::Word) && !verb(j) {
        j += 1;
    }
    let noun = word(t, j - 1);
    // "Supported: native, hourly, hourly_3, hourly_6." (open-meteo's
    // OpenAPI files): the accepting word alone is the label of the list
    // that follows its colon
    if j == i + 1 && text(t, j) == ":" && (i == 0 || t[i - 1].sent != t[i].sent) {
        return Some((j + 1, true, true));
    }
    if j == i + 1
        || (matches!(noun, "values" | "options" | "choices" | "modes") || matches!(noun, "formats" | "levels"))
        // "Possible properties include 'name' and 'description'" (box-openapi)
        // names an object's members, not values
        || (matches!(noun, "properties" | "fields" | "parameters") || matches!(noun, "attributes" | "keys" | "members"))
    {
        return None;
    }
    let verb_at = verb(j);
    if verb_at {
        j += 1;
    }
    let colon = text(t, j) == ":";
    if colon {
        j += 1;
    }
    (verb_at || colon).then_some((j, true, colon))
}

/// The list ending at `last` is followed (past one parenthesis) by a noun
/// that makes its items members, not values: "Currently only `text` (for
/// supported block types) and `checked` (for `to_do` blocks) fields can be
/// updated" (notion-mcp-server), "Passing `sort`, `direction`, `offset`, and
/// `limit` parameters" (box-openapi).
fn names_members(t: &[Tok], last: usize) -> bool {
    let mut k = last + 1;
    if text(t, k) == "(" {
        while k < t.len() && k <= last + 16 && text(t, k) != ")" {
            k += 1;
        }
        k += 1;
    }
    (matches!(word(t, k), "field" | "fields" | "parameter") || matches!(word(t, k), "parameters" | "property" | "properties") || matches!(word(t, k), "headers"))
        // "The `sid` or `unique_name` of the Service resource to fetch"
        // (twilio-oai), "`id` or `label` of the role" (okta management
        // spec): literals that are members of the thing named after "of the"
        || (k == last + 1
            && is_lit(t, last)
            && word(t, k) == "of"
            && matches!(word(t, k + 1), "the" | "a" | "an"))
}

/// "`name` [field] set to" just before `i`: the values that follow are a
/// member's.
fn member_set_to(t: &[Tok], i: usize) -> bool {
    if !(prev_word(t, i, 1) == "to" && prev_word(t, i, 2) == "set") || i < 3 {
        return false;
    }
    let mut k = i - 3;
    if matches!(word(t, k), "field" | "property" | "parameter" | "key") && k > 0 {
        k -= 1;
    }
    t[k].sent == t[i].sent && is_lit(t, k)
}

/// "exactly one" within the five words before `i`, which opens a list of
/// alternative members ("exactly one of [...]", "exactly one value field:").
fn names_one_member(t: &[Tok], i: usize) -> bool {
    (1..=5).any(|b| prev_word(t, i, b) == "exactly" && prev_word(t, i, b - 1) == "one")
}

/// The parenthesis at `i` follows, within the first words of its sentence,
/// a noun that names a kind of value ("Type of secret to create (", "The
/// status of the item ("), so a list inside it lists the values.
fn kind_head(t: &[Tok], i: usize) -> bool {
    let from = (0..i).rev().take_while(|&k| t[k].sent == t[i].sent).count();
    from <= 8 && (i - from..i).any(|k| kind_noun(word(t, k)))
}

/// The parenthesis at `i` follows a kind noun or its plural right before
/// it, anywhere in its sentence ("Accepts aliases (...) OR direct
/// categories (live, triage, learning, ...).", klaviyo/incidentio-mcp); the
/// caller asks that it close its clause, since a parenthesis that goes on
/// ("supported file types (`jpeg`, ...) and 500 KB for ...", twilio-oai;
/// "Text-bearing block types (`paragraph`, ...) include a `fragment`
/// property", box-openapi) names the cases a sentence speaks of.
fn kind_before(t: &[Tok], i: usize) -> bool {
    i > 0 && t[i - 1].sent == t[i].sent && kind_noun(singular(word(t, i - 1)))
}

/// The list in the parenthesis at `i` holds values by the shape of its
/// items, whatever noun stands before it: two or more literals, or codes
/// in capitals (three, or two read as words), the parenthesis closing its clause ("Optional
/// line amount types (EXCLUSIVE, INCLUSIVE, NO_TAX),"). The parenthesis
/// closes the head of its sentence, the noun phrase that names the value
/// (eight words at most, no verb, no condition): deeper in a sentence it
/// lists the values of something the sentence goes on to name ("corresponding
/// with the `status` field (`completed`, ...)", "an effective date range
/// (`effective_since`, `effective_until`)", "Must be true for destructive
/// actions (\"remove\", \"leave\")", openai-openapi, PagerDuty api-schema,
/// awslabs/mcp). The noun before it names one value: a plural names several
/// things, and the parenthesis lists them or their parts ("The wait duration
/// statistics (`avg`, `min`, `max`, `total`)", awslabs/mcp; "one of the
/// built-in lucene analyzers (`lucene.standard`, ...)",
/// mongodb-js/mongodb-mcp-server), unless it is the plural of a kind noun
/// ("line amount types").
fn shaped_values(t: &[Tok], doc: &str, i: usize, list: &List) -> bool {
    let n = list.items.len();
    let from = (0..i).rev().take_while(|&k| t[k].sent == t[i].sent).count();
    if i == 0 || from == 0 || from > 8 || kind(t, i - 1) != Some(Tk::Word) {
        return false;
    }
    let head = (i - from..i).all(|k| {
        !(matches!(word(t, k), "must" | "should" | "can" | "may" | "will")
            || matches!(word(t, k), "is" | "are" | "be" | "if" | "when" | "for")
            || matches!(word(t, k), "unless" | "only" | "either" | "one"))
    });
    let noun = word(t, i - 1);
    let plural = noun.len() > 3
        && noun.ends_with('s')
        && !(noun.ends_with("ss") || noun.ends_with("us") || noun.ends_with("is"));
    let one_value = !plural || kind_noun(singular(noun));
    // (two codes read as words, five letters or more or joined by "_": "Warm
    // tier setting (ENABLED, DISABLED)", "Cache behavior (CACHE_ALWAYS or
    // CACHE_ON_FAILURE)", awslabs/mcp; two short ones are as often the
    // forms of an identifier or its parts: "(ID or ARN)", "(LAT, LON)")
    let word_codes = list.items.iter().all(|v| v.len() >= 5 || v.contains('_'));
    let shaped = if list.all_lit {
        n >= 2
    } else {
        (n >= 3 || (n == 2 && word_codes))
            && (i + 1..=list.last)
                .all(|k| capital_code(t, doc, k) || matches!(text(t, k), "," | "or" | "and"))
    };
    head && one_value && shaped && clause_ends(t, list.last + 2)
}

/// The singular of a plural noun, as far as the kind nouns need
/// ("categories", "statuses", "types").
fn singular(w: &str) -> &str {
    if let Some(stem) = w.strip_suffix("ies") {
        // ("categories" -> "category": the stem and a "y" are not a slice of
        // the word, so the kind nouns that end in "y" are matched here)
        return if stem == "categor" { "category" } else { w };
    }
    w.strip_suffix("uses")
        .map(|_| &w[..w.len() - 2])
        .or_else(|| w.strip_suffix('s'))
        .unwrap_or(w)
}

/// A noun that names a kind of value, whose values a list or a single word
/// near it gives ("Type of secret to create (generic, ...)", "user agent
/// category (currently only AI is supported)").
fn kind_noun(w: &str) -> bool {
    (matches!(w, "type" | "status" | "state" | "kind" | "mode") || matches!(w, "category"))
}

/// The clause ends at `k`: the end of the text or of its sentence, or a
/// closing punctuation mark.
fn clause_ends(t: &[Tok], k: usize) -> bool {
    k >= t.len() || t[k].sent != t[k - 1].sent || matches!(text(t, k), "." | "," | ")" | ";")
}

/// A single fixed value, the only one the argument takes: "The value will
/// always be `comment`", "Always `file`.", "Currently the value can be `file`
/// only", "This value needs to be set to `enterprise`". Not a boolean, a null
/// or a number ("This value is always `true`" is a fact about the service),
/// and not under a condition ("when `type` is `file`, always `x`").
fn fixed_value_at(t: &[Tok], i: usize) -> bool {
    let Some(v) = t.get(i).filter(|x| matches!(x.k, Tk::Code | Tk::Quoted)) else {
        return false;
    };
    if a_fact(&v.s) || v.s.chars().count() > 40 {
        return false;
    }
    let (p1, p2) = (prev_word(t, i, 1), prev_word(t, i, 2));
    let no_literal_before = || {
        !(0..i)
            .rev()
            .take_while(|&k| t[k].sent == t[i].sent)
            .any(|k| matches!(t[k].k, Tk::Code | Tk::Quoted))
    };
    // "this property is always set to `drag`" (openai-openapi), "Always has
    // the value `banner`." (intercom/Intercom-OpenAPI): the same fixed value
    // by other verbs, unless a member named before is what is set ("the
    // `data.action.credential` is always set to `UNVERIFIED`", okta)
    let always_set = ((p1 == "to" && p2 == "set" && prev_word(t, i, 3) == "always")
        || (p1 == "value"
            && p2 == "the"
            && matches!(prev_word(t, i, 3), "has" | "takes")
            && prev_word(t, i, 4) == "always"))
        && no_literal_before();
    let always = p1 == "always" || (p1 == "be" && p2 == "always") || always_set;
    let set_to = p1 == "to"
        && p2 == "set"
        && prev_word(t, i, 3) == "be"
        && matches!(prev_word(t, i, 4), "to" | "must");
    let only = p1 == "be" && word(t, i + 1) == "only" && clause_ends(t, i + 2);
    // "The event type, must be `error`." (openai-openapi), "Can only be
    // `app_item`." (box-openapi): a modal "be" before the value and nothing
    // after it, a value with a letter ("must be `1..=99`" is a range). The
    // modal has no subject of its own, or "value" ("The model must be
    // \"MiniMax-Hailuo-02\"" names another argument's value), and no code
    // span is before it in the sentence ("`scope` must be `global`")
    let modal_at = if p2 == "must" {
        Some(i - 2)
    } else if p2 == "only" && matches!(prev_word(t, i, 3), "can" | "may") {
        Some(i - 3)
    } else {
        None
    };
    let modal = p1 == "be"
        && modal_at.is_some_and(|m| {
            m == 0 || t[m - 1].sent != t[m].sent || matches!(text(t, m - 1), "," | ";" | "value")
        })
        && v.s.bytes().any(|b| b.is_ascii_alphabetic())
        && no_literal_before();
    if !((always || set_to || modal) && clause_ends(t, i + 1) || only) {
        return false;
    }
    // (nor a value another argument takes: "The `trash_content` parameter
    // needs to be set to `trashed_only`")
    !(0..i)
        .rev()
        .take_while(|&k| t[k].sent == t[i].sent)
        .any(|k| {
            (matches!(word(t, k), "if" | "when" | "unless" | "whenever")
                || matches!(word(t, k), "parameter" | "argument" | "field"))
        })
}

/// The one value of a description that opens with "The type of" and ends on
/// its only literal at `i`, restated after a parenthesis, "i.e.", a colon or
/// "the value is": "The type of this object (`container.file`).", "The type
/// of the tool, i.e. `function`.", "The type of tool being defined:
/// `function`" (openai-openapi), "The type of the tool. ('WEBHOOK')"
/// (twilio-oai), "The type of this event. For this event, the value is
/// `gift_card.updated`." (square's Connect API). Not an example ("The type of
/// transfer, e.g. 'ACH'"), a default ("Default value: `web`"), advice ("For
/// regex, use `EXPRESSION`"), a boolean, a null or a number.
fn restated_type_at(t: &[Tok], doc: &str, i: usize) -> Option<String> {
    let head = if word(t, 0) == "the" { 1 } else { 0 };
    // (or a description that is only "Value is `data_attribute`."
    // (intercom/Intercom-OpenAPI): the value restated with no kind before
    // it, the last sentence of square's "The type of this event. ... the
    // value is `gift_card.updated`." standing alone)
    let only_value = i == head + 2 && seq(t, head, &["value", "is"]);
    if !(is_lit(t, i) && (seq(t, head, &["type", "of"]) || only_value)) || in_example(t, i) {
        return None;
    }
    if !(i + 1..t.len()).all(|k| matches!(text(t, k), ")" | ".")) {
        return None;
    }
    let restated = match text(t, i.wrapping_sub(1)) {
        "(" | ":" => true,
        "," => prev_word(t, i, 1) == "i.e.",
        _ => {
            prev_word(t, i, 1) == "i.e."
                || (prev_word(t, i, 1) == "is" && prev_word(t, i, 2) == "value")
        }
    };
    let default = (sentence_start(t, i)..i).any(|k| matches!(word(t, k), "default" | "defaults"));
    if !restated || default || (0..i).any(|k| is_lit(t, k)) {
        return None;
    }
    let v = inner(doc, &t[i]).trim_matches('"');
    (!a_fact(v)).then(|| v.to_string())
}

/// A literal that states a fact about the service rather than the one value
/// the argument takes: empty, more than one word, a boolean, a null or a
/// number.
fn a_fact(v: &str) -> bool {
    v.is_empty()
        || v.contains(' ')
        || matches!(v, "true" | "false" | "null" | "none" | "nil")
        || v.bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-')
}

#[cfg(test)]
mod tests;
