//! Family: bounds (Length, Range, Items).

use super::finding::*;
use super::reader::Cx;
use super::tokens::*;
use super::units::*;
use super::values::*;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    Max,
    Min,
    MaxEx,
    MinEx,
    Exact,
}

/// Phrases that state a bound, longest first; `true` marks a comparative that
/// needs a cue ("must be greater than 0") so that "takes less than 5 seconds" stays prose.
pub(super) const OPS: &[(&[&str], Op, bool)] = &[
    (&["less", "than", "or", "equal", "to"], Op::Max, false),
    (&["greater", "than", "or", "equal", "to"], Op::Min, false),
    (&["up", "to", "and", "including"], Op::Max, false),
    (&["must", "not", "exceed"], Op::Max, false),
    (&["may", "not", "exceed"], Op::Max, false),
    (&["should", "not", "exceed"], Op::Max, false),
    (&["not", "to", "exceed"], Op::Max, false),
    (&["no", "more", "than"], Op::Max, false),
    (&["not", "more", "than"], Op::Max, false),
    (&["no", "greater", "than"], Op::Max, false),
    (&["not", "greater", "than"], Op::Max, false),
    (&["no", "larger", "than"], Op::Max, false),
    (&["no", "longer", "than"], Op::Max, false),
    (&["not", "longer", "than"], Op::Max, false),
    (&["no", "less", "than"], Op::Min, false),
    (&["not", "less", "than"], Op::Min, false),
    (&["no", "fewer", "than"], Op::Min, false),
    (&["not", "fewer", "than"], Op::Min, false),
    (&["no", "shorter", "than"], Op::Min, false),
    (&["no", "smaller", "than"], Op::Min, false),
    (&["cannot", "exceed"], Op::Max, false),
    (&["can't", "exceed"], Op::Max, false),
    (&["not", "exceed"], Op::Max, false),
    (&["never", "exceed"], Op::Max, false),
    (&["at", "most"], Op::Max, false),
    (&["at", "least"], Op::Min, false),
    (&["up", "to"], Op::Max, false),
    (&["maximum", "of"], Op::Max, false),
    (&["max", "of"], Op::Max, false),
    (&["minimum", "of"], Op::Min, false),
    (&["min", "of"], Op::Min, false),
    (&["limited", "to"], Op::Max, false),
    (&["limit", "of"], Op::Max, false),
    (&["capped", "at"], Op::Max, false),
    (&["cap", "of"], Op::Max, false),
    (&["less", "than"], Op::MaxEx, true),
    (&["fewer", "than"], Op::MaxEx, true),
    (&["shorter", "than"], Op::MaxEx, true),
    (&["smaller", "than"], Op::MaxEx, true),
    (&["lower", "than"], Op::MaxEx, true),
    (&["greater", "than"], Op::MinEx, true),
    (&["more", "than"], Op::MinEx, true),
    (&["larger", "than"], Op::MinEx, true),
    (&["longer", "than"], Op::MinEx, true),
    (&["higher", "than"], Op::MinEx, true),
    (&["exactly"], Op::Exact, false),
    (&["fixed"], Op::Exact, false),
    (&["maximum"], Op::Max, false),
    (&["max"], Op::Max, false),
    (&["minimum"], Op::Min, false),
    (&["min"], Op::Min, false),
    (&["<="], Op::Max, false),
    (&[">="], Op::Min, false),
    (&["<"], Op::MaxEx, false),
    (&[">"], Op::MinEx, false),
];

/// A bound operator at `i`: the operator, the index of the value, and a unit hint
/// from words like "length" in "maximum length of 200".
pub(super) fn bound_op(t: &[Tok], i: usize) -> Option<(Op, usize, Unit, bool)> {
    let first = text(t, i);
    // the first words of OPS, so most tokens leave here (a number at once)
    if kind(t, i) == Some(Tk::Num)
        || !(matches!(first, "less" | "greater" | "up" | "must" | "may")
            || matches!(first, "should" | "not" | "no" | "never" | "cannot")
            || matches!(first, "can't" | "at" | "maximum" | "max" | "minimum")
            || matches!(first, "min" | "limited" | "limit" | "capped" | "cap")
            || matches!(first, "fewer" | "shorter" | "smaller" | "lower" | "more")
            || matches!(first, "larger" | "longer" | "higher" | "exactly")
            || matches!(first, "fixed" | "<=" | ">=" | "<" | ">" | "above")
            || matches!(first, "over" | "below" | "under"))
    {
        return None;
    }
    // "Must not be above 100", "Cannot be under 5": a preposition is a bound
    // only when negated ("over 100 integrations" and "under the key" are not)
    if matches!(first, "above" | "over" | "below" | "under") {
        let op = if matches!(first, "above" | "over") {
            Op::Max
        } else {
            Op::Min
        };
        return negated(t, i).then_some((op, i + 1, Unit::None, false));
    }
    // "<br> 401 - When the user is not authenticated" (okta's OpenAPI spec): the
    // end of an HTML tag ("<br>", "<br/>", as digitalocean's, together's and
    // nytimes' descriptions write them), not "greater than"
    if first == ">" && closes_a_tag(t, i) {
        return None;
    }
    let (phrase, mut op, cue) = OPS
        .iter()
        .filter(|(p, _, _)| p[0] == first)
        .find(|(p, _, _)| seq(t, i, p))?;
    let weak = *cue && !has_cue(t, i);
    let mut j = i + phrase.len();
    if matches!(op, Op::MaxEx | Op::MinEx) && seq(t, j, &["or", "equal", "to"]) {
        op = if op == Op::MaxEx { Op::Max } else { Op::Min };
        j += 3;
    }
    // "Must not be more than 100" is "at most 100", "May not be less than 5"
    // "at least 5": a negated comparative states the opposite bound, inclusive
    // ("not greater than or equal to 5" is "less than 5")
    if phrase.last() == Some(&"than") && !matches!(first, "no" | "not") && negated(t, i) {
        op = match op {
            Op::MinEx => Op::Max,
            Op::MaxEx => Op::Min,
            Op::Min => Op::MaxEx,
            Op::Max => Op::MinEx,
            Op::Exact => Op::Exact,
        };
    }
    let mut hint = Unit::None;
    let fixed = first == "fixed";
    if phrase.len() == 1 && matches!(phrase[0], "max" | "maximum" | "min" | "minimum" | "fixed") {
        if text(t, j) == "." {
            j += 1;
        }
        // "maximum length is 200", "max items: 10"
        let mut k = j;
        while k < j + 4
            && kind(t, k) == Some(Tk::Word)
            && value_at(t, k).is_none()
            && !matches!(word(t, k), "is" | "of")
        {
            k += 1;
        }
        if k > j {
            if !matches!(text(t, k), ":" | "=" | "is" | "of") {
                return None;
            }
            for w in j..k {
                let w = word(t, w);
                if matches!(w, "length" | "len" | "characters" | "chars" | "bytes") {
                    hint = Unit::Chars;
                } else if matches!(w, "items" | "entries" | "elements") {
                    hint = Unit::Items;
                }
            }
            j = k + 1;
        } else if fixed {
            return None;
        } else if matches!(text(t, j), ":" | "=" | "is") {
            j += 1;
        }
        // "Fixed length: 3 characters" (adyen-openapi's bullets): "fixed" is a
        // bound only as the label of a length, never "a fixed fee of 5"
        if fixed && hint != Unit::Chars {
            return None;
        }
    }
    Some((op, j, hint, weak))
}

/// The bound word at `i` is negated within its clause: "must not be more
/// than", "cannot be greater than", "should never be more than", "can't be
/// larger than", "must not contain more than", "is not allowed to be more
/// than", "no higher than". Only the verbs of being and holding (and the
/// modal's words) may stand between the negation and the bound: "do not send
/// more than 10" is read too, but "not set, more than 5" is not.
pub(super) fn negated(t: &[Tok], i: usize) -> bool {
    negation(t, i).is_some()
}

/// The index of the negation [`negated`] finds before `i`.
fn negation(t: &[Tok], i: usize) -> Option<usize> {
    const NEGATIONS: &[&str] = &[
        "not",
        "never",
        "cannot",
        "can't",
        "mustn't",
        "shouldn't",
        "mayn't",
        "isn't",
        "aren't",
        "won't",
        "doesn't",
        "don't",
    ];
    const BETWEEN: &[&str] = &[
        "be",
        "ever",
        "go",
        "get",
        "contain",
        "contains",
        "include",
        "includes",
        "have",
        "has",
        "hold",
        "holds",
        "allowed",
        "permitted",
        "to",
        "set",
        "send",
        "pass",
        "specify",
        "provide",
        "use",
        "request",
        "select",
        "add",
    ];
    if prev_word(t, i, 1) == "no" {
        return Some(i - 1);
    }
    for b in 1..=4 {
        let w = prev_word(t, i, b);
        if NEGATIONS.contains(&w) {
            return Some(i - b);
        }
        if !BETWEEN.contains(&w) {
            return None;
        }
    }
    None
}

/// Where the phrase of the bound at `i` starts: at its negation when the
/// negation turned it ("not be more than 100", "cannot be over 100"), so
/// that the message quotes what the prose says.
fn phrase_start(t: &[Tok], i: usize) -> usize {
    let turned = matches!(word(t, i), "above" | "over" | "below" | "under")
        || (text(t, i + 1) == "than"
            && (matches!(word(t, i), "less" | "fewer" | "shorter" | "smaller")
                || matches!(word(t, i), "lower" | "greater" | "more" | "larger")
                || matches!(word(t, i), "longer" | "higher")));
    if turned {
        negation(t, i).unwrap_or(i)
    } else {
        i
    }
}

/// The `>` at `i` ends an HTML tag: "<br>", "<br/>", "</b>".
fn closes_a_tag(t: &[Tok], i: usize) -> bool {
    // the tag's name, before a "/" of "<br/>"
    let Some(name) = i.checked_sub(1 + usize::from(text(t, i.wrapping_sub(1)) == "/")) else {
        return false;
    };
    let opened = |k: usize| text(t, k) == "<";
    kind(t, name) == Some(Tk::Word)
        && name >= 1
        && (opened(name - 1) || (text(t, name - 1) == "/" && name >= 2 && opened(name - 2)))
}

pub(super) fn apply(op: Op, v: f64) -> (Option<Bound>, Option<Bound>) {
    match op {
        Op::Max => (None, incl(v)),
        Op::MaxEx => (None, excl(v)),
        Op::Min => (incl(v), None),
        Op::MinEx => (excl(v), None),
        Op::Exact => (incl(v), incl(v)),
    }
}

/// "Specify exactly one edit operation" (notion's OpenAPI spec), "must match
/// exactly one reference variant: ..." (github's MCP server): one variant picked among an
/// object's members or the arguments, not a count of items; "exactly one
/// character" is still a length, and "exactly one item" a list size.
fn picks_one(op: Op, v: f64, unit: Unit) -> bool {
    op == Op::Exact && v == 1.0 && !unit.counts_parts()
}

/// "Can be more than one if n is greater than 1" (digitalocean's OpenAPI
/// spec), "There can be more than one page of results" (cloudflare's MCP
/// servers), "A task can be assigned to more than one user", "the user can
/// select more than one value" (box's OpenAPI spec): "can ... more than"
/// grants what is allowed, it limits nothing ("must be more than 0" does; "can
/// be at most 5" does; "can not be more than 5" does).
fn permits_more(t: &[Tok], i: usize, op: Op) -> bool {
    op == Op::MinEx
        && (1..=4)
            .map(|b| prev_word(t, i, b))
            .take_while(|w| !matches!(*w, "not" | "never" | "only" | ""))
            .any(|w| matches!(w, "can" | "may" | "could" | "might"))
}

/// "Number of days with at least one transaction" (plaid's OpenAPI spec),
/// "pools with at least one IP", "for users with up to five associated
/// domains" (sendgrid's OpenAPI spec), "for projects with fewer than 2
/// existing clusters" (mongodb's MCP server): a bound after "<things> with"
/// says which things are meant, not what the argument may hold. A length
/// stays ("tags with at most 32 characters" bounds each item), and so does a
/// count of items ("A list of tags with at least one entry").
fn qualifies_things(t: &[Tok], i: usize, unit: Unit) -> bool {
    let plural = |w: &str| {
        w.len() >= 3
            && w.ends_with('s')
            && !w.ends_with("ss")
            && !FUNCTION_WORDS.contains(&w)
            && !(matches!(w, "was" | "does" | "values" | "items" | "entries")
                || matches!(w, "elements"))
    };
    let relative = match prev_word(t, i, 1) {
        "with" | "having" => plural(prev_word(t, i, 2)),
        _ => {
            // the same relative clause: "users who have at least one notification
            // method configured", "users who are on at least one escalation
            // policy" (PagerDuty's OpenAPI spec), "One entry per underlying model
            // that received at least one prompt" (openai's): of plural things, or
            // of a thing in the past (what happened, not what may be sent; "A list
            // that has at least one tag" still bounds)
            (2..=3).any(|b| {
                let verb = prev_word(t, i, b - 1);
                matches!(prev_word(t, i, b), "that" | "who" | "which")
                    && (plural(prev_word(t, i, b + 1))
                        || verb.ends_with("ed")
                        || matches!(verb, "had" | "was" | "were"))
                    && !(1..b).any(|k| {
                        (matches!(prev_word(t, i, k), "must" | "should" | "can" | "may")
                            || matches!(prev_word(t, i, k), "need" | "needs" | "be"))
                    })
            })
        }
    };
    relative && !unit.counts_parts()
}

/// "extra_snippets allow you to get up to 5 additional, alternative excerpts"
/// (brave's MCP server), "This endpoint allows you to retrieve up to 100
/// contacts" (sendgrid's OpenAPI spec): how much the service gives, like
/// "Returns up to 10", not what may be sent ("allows you to add up to 5
/// labels" is).
fn what_you_receive(t: &[Tok], i: usize) -> bool {
    (matches!(prev_word(t, i, 1), "get" | "retrieve" | "fetch")
        || matches!(prev_word(t, i, 1), "receive" | "see" | "view" | "obtain"))
        && prev_word(t, i, 2) == "to"
        && matches!(prev_word(t, i, 3), "you" | "users" | "clients")
        && (matches!(prev_word(t, i, 4), "allow" | "allows" | "let" | "lets")
            || matches!(prev_word(t, i, 4), "enable" | "enables"))
}

/// "It may take up to 60 seconds for your IP address to be added" (sendgrid's
/// OpenAPI spec), "Each call can take more than 30 seconds" (the real
/// corpus): how long the service takes, not a value to send.
fn how_long_it_takes(t: &[Tok], i: usize, unit: Unit) -> bool {
    unit == Unit::Time && matches!(prev_word(t, i, 1), "take" | "takes" | "taking")
}

/// "We only store up to 7 days of email activity" (sendgrid's OpenAPI spec),
/// "Result files themselves are retained for up to 30 days" (digitalocean's),
/// "Anomalies are available for up to 90 days" (awslabs' MCP servers): how long
/// the service keeps its data, not a value to send ("Number of days to retain
/// logs, up to 90 days" is one).
fn how_long_it_is_kept(t: &[Tok], i: usize, unit: Unit) -> bool {
    let kept = |w: &str| matches!(w, "stored" | "retained" | "kept");
    unit == Unit::Time
        && match prev_word(t, i, 1) {
            "store" | "stores" | "retain" | "retains" | "keep" | "keeps" => true,
            "for" => kept(prev_word(t, i, 2)) || prev_word(t, i, 2) == "available",
            w => kept(w),
        }
}

/// "rate limited to 100 requests per minute", "limited to 1 request every 12
/// hours" (sendgrid's OpenAPI spec), "Rate limit: 20 requests per minute"
/// (tavily's MCP server): a rate of calls to the service, not a count of the
/// argument's items ("Up to 100 requests per batch" is one).
fn a_rate(t: &[Tok], end: usize) -> bool {
    let time = |k: usize| TIME_UNITS.contains(&word(t, k)) && word(t, k) != "times";
    matches!(word(t, end), "request" | "requests" | "call" | "calls")
        && match word(t, end + 1) {
            "per" | "a" => time(end + 2),
            "every" => time(end + 2) || kind(t, end + 2) == Some(Tk::Num) && time(end + 3),
            _ => false,
        }
}

/// "Okta enforces a rate limit of five activation attempts within five minutes",
/// "a rate limit of one OTP challenge per device every 30 seconds" (okta's
/// OpenAPI spec), "CDN endpoints have a rate limit of 5 requests per 10 seconds"
/// (digitalocean's): what the service allows over time, whatever it counts.
fn a_rate_limit(t: &[Tok], i: usize) -> bool {
    word(t, i) == "limit" && prev_word(t, i, 1) == "rate"
}

/// "Width in cm; the sum of length, width and height may not exceed 300" (a
/// new user's parcel), "the combined size of all files": a bound of several
/// values together, a rule across them (`Unit::Sum`), not a bound of this one ("sum of
/// this plus `address_line1` may not exceed 50 characters", lob's OpenAPI
/// spec, is labelled a length: characters stay a claim).
fn of_a_sum(t: &[Tok], i: usize) -> bool {
    (0..i)
        .rev()
        .take_while(|&k| t[k].sent == t[i].sent)
        .any(|k| word(t, k) == "sum" && word(t, k + 1) == "of" || word(t, k) == "combined")
}

/// "At most 25 invocations are returned" (PagerDuty's OpenAPI spec), "A
/// maximum of 10 IPs will be returned per IP Pool by default" (sendgrid's):
/// what the service returns, the passive of "Returns up to 10"; "Up to 10
/// tags are allowed" and "the number of results to be returned (at most 100)"
/// are limits.
fn passively_returned(t: &[Tok], end: usize) -> bool {
    let returned = |k: usize| word(t, k) == "returned";
    match word(t, end + 1) {
        "are" | "is" | "get" => returned(end + 2),
        "will" => word(t, end + 2) == "be" && returned(end + 3),
        _ => false,
    }
}

/// "Retries up to 3 times on network errors" (the first corpus), "You may
/// retry a transfer up to 2 times, within 180 days" (plaid's OpenAPI spec):
/// how often the tool or the caller repeats an action, not a value to send
/// ("Number of retries, up to 5 times" and "times to retry (at most 5 times)"
/// are bounds on the argument).
fn retries_an_action(t: &[Tok], i: usize, end: usize) -> bool {
    word(t, end) == "times"
        && (1..=4).any(|b| {
            matches!(prev_word(t, i, b), "retry" | "retries" | "retried")
                && !matches!(prev_word(t, i, b + 1), "of" | "to")
        })
}

/// "temporarily disable one or more Services", "Create one or more overrides"
/// (PagerDuty's OpenAPI spec), "removes one or more custom profile properties"
/// (okta's), "allows you to add one or more email addresses" (sendgrid's),
/// "Applies one or more Box Skills metadata cards" (box's), "the model must
/// call one or more tools" (openai's): "one or more" after the verb of an
/// operation says what it acts on, like "to one or more workspaces"; a call
/// with none does nothing. Asked for, it is a list size ("Specify one or more
/// tags", "One or more label names to remove").
fn acted_on(verb: &str) -> bool {
    (matches!(verb, "add" | "adds" | "remove" | "removes" | "delete")
        || matches!(verb, "deletes" | "update" | "updates" | "create")
        || matches!(verb, "creates" | "call" | "calls" | "calling" | "execute")
        || matches!(verb, "executes" | "apply" | "applies" | "associate")
        || matches!(verb, "associates" | "disable" | "disables" | "enable")
        || matches!(verb, "enables" | "reassign" | "attach" | "detach"))
}

/// "A payment formula can have one or more line items" (docusign's OpenAPI
/// spec), "each subuser can have one or more of their own IP addresses"
/// (sendgrid's), "passwords can include one or more symbols" (okta's): "can
/// have one or more" grants what a thing may hold, like "can be more than
/// one"; it asks for nothing ("must have one or more tags" does).
fn may_have(t: &[Tok], i: usize) -> bool {
    let b = 2 + usize::from(prev_word(t, i, 2) == "also");
    matches!(prev_word(t, i, 1), "have" | "contain" | "include" | "hold")
        && matches!(prev_word(t, i, b), "can" | "may" | "could")
}

/// "A 34 character string": an exact length written as a size before the noun.
fn sized(t: &[Tok], i: usize) -> Option<Found> {
    if kind(t, i) != Some(Tk::Num) {
        return None;
    }
    let val = value_at(t, i).filter(|v| !v.date && !v.year && !v.word)?;
    let hyphen = usize::from(text(t, val.end + 1) == "-");
    let unit = val.end + 1 + hyphen;
    // the noun it sizes follows within a few words: "the 10-character onboarding run
    // token", "The 2-character ISO 3166-1 code" (paypal's agent toolkit; brave's MCP
    // server has "2 character country codes"), a standard's name between
    let noun = (unit + 1..unit + 7).find(|&k| {
        (matches!(word(t, k), "string" | "code" | "id" | "identifier")
            || matches!(word(t, k), "key" | "token" | "value" | "hash" | "sid"))
    })?;
    // or opening its sentence: "4 Character Tab ID of the tab to close", "4-char id"
    // (browser-use's MCP server), "10-character Key ID obtained from the Apple
    // developer account" (okta's OpenAPI spec)
    let exact = (matches!(prev_word(t, i, 1), "a" | "an" | "the" | "unique")
        || sentence_start(t, i) == i)
        && matches!(word(t, unit), "character" | "char" | "byte")
        && (unit + 1..noun).all(|k| {
            kind(t, k) == Some(Tk::Word)
                || kind(t, k) == Some(Tk::Num) && matches!(word(t, unit + 1), "iso" | "rfc")
                || text(t, k) == "-" && kind(t, k - 1) == Some(Tk::Num)
        });
    exact.then(|| found(bound(incl(val.v), incl(val.v), Unit::Chars), i, noun))
}

/// "The default value (as well as the maximum) is 20", "The default value (and
/// maximum) is 10" (apify's MCP server), "The default (and maximum allowed value)
/// is 1000" (PagerDuty's OpenAPI spec): a maximum named in parentheses beside the
/// default shares its value, and it is a rule, whatever the default sentence says.
fn beside_the_default(t: &[Tok], i: usize) -> Option<Found> {
    let op = match word(t, i) {
        "maximum" | "max" => Op::Max,
        "minimum" | "min" => Op::Min,
        _ => return None,
    };
    let mut k = i - usize::from(prev_word(t, i, 1) == "the");
    if prev_word(t, k, 1) == "and" {
        k -= 1;
    } else if k >= 3 && seq(t, k - 3, &["as", "well", "as"]) {
        k -= 3;
    } else {
        return None;
    }
    let open = k.checked_sub(1).filter(|&o| text(t, o) == "(")?;
    let default = match prev_word(t, open, 1) {
        "default" => true,
        "value" => prev_word(t, open, 2) == "default",
        _ => false,
    };
    let close = (i + 1..i + 4)
        .take_while(|&k| kind(t, k) != Some(Tk::Num))
        .find(|&k| text(t, k) == ")")?;
    if !default || !matches!(text(t, close + 1), "is" | "=" | ":") {
        return None;
    }
    let val = value_at(t, close + 2).filter(|v| !v.date && !v.year)?;
    let (min, max) = apply(op, val.v);
    Some(found(bound(min, max, Unit::None), open, val.end))
}

/// What a comparative at `i` reads: `Unread` when none opens there, `Ruled`
/// when one does but states no bound of the value (its family's later
/// readers skip `i`).
enum Compared {
    Unread,
    Ruled,
    /// "Minimum is 1950-01-01": a range of dates.
    Date(Found),
    /// The bound, and the length a label of a class of characters counts.
    Bound(Found, Option<Found>),
}

pub(super) fn sized_noun(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    let f = sized(t, i).filter(|_| !in_example(t, i))?;
    out.push(f);
    Some(i + 1)
}

pub(super) fn maximum_beside_default(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    let f = beside_the_default(t, i).filter(|_| !in_example(t, i))?;
    out.push(f);
    Some(i + 1)
}

pub(super) fn date_bound(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    if matches!(kind(t, i), Some(Tk::Num | Tk::Code)) {
        let (f, next) = worded_date_bound(t, i)?;
        out.push(f);
        return Some(next);
    }
    // (a label, and its ":", "is" or "=" within a few words)
    let labelled = || (i + 1..(i + 6).min(t.len())).any(|k| matches!(text(t, k), ":" | "is" | "="));
    if !matches!(w, "max" | "maximum" | "min" | "minimum") || !labelled() {
        return None;
    }
    match compared_at(t, i) {
        Compared::Date(f) => out.push(f),
        Compared::Ruled => {}
        _ => return None,
    }
    Some(i + 1)
}

/// Words before a day (`true`) or after it that make it the first or the
/// last one: "no earlier than 2015-01-01", "invoices exist from 2015-01-01"
/// (a business rule in a tool's description, as a new user wrote it),
/// "2026-03-11 or later".
#[rustfmt::skip]
const AROUND_A_DAY: &[(&str, bool, Op)] = &[
    ("no earlier than", true, Op::Min), ("not earlier than", true, Op::Min),
    ("not before", true, Op::Min), ("on or after", true, Op::Min), ("starting from", true, Op::Min),
    ("starting", true, Op::Min), ("since", true, Op::Min), ("from", true, Op::Min),
    ("no later than", true, Op::Max), ("not later than", true, Op::Max),
    ("not after", true, Op::Max), ("on or before", true, Op::Max),
    ("or later", false, Op::Min), ("or after", false, Op::Min), ("and later", false, Op::Min),
    ("onwards", false, Op::Min), ("onward", false, Op::Min),
    ("or earlier", false, Op::Max), ("or before", false, Op::Max),
];

/// A full date at `i` that words around it bound (see [`AROUND_A_DAY`]),
/// and the token after the phrase. Not read: a day that opens a span
/// ("from 2015-01-01 to 2020-12-31" is `span`'s), the origin of a unit of
/// time ("milliseconds since 1970-01-01"), a day in an example or under a
/// condition, bare "after" or "before" (what a filter selects, not what
/// the argument accepts).
fn worded_date_bound(t: &[Tok], i: usize) -> Option<(Found, usize)> {
    let val = value_at(t, i).filter(|v| v.date && v.day.is_some())?;
    if in_example(t, i) || in_condition(t, i) {
        return None;
    }
    // (the phrase's first token and its words' count, if it stands there)
    let at = |first: usize, p: &str| {
        p.split(' ')
            .enumerate()
            .all(|(k, w)| text(t, first + k) == w)
    };
    let n = |p: &str| p.split(' ').count();
    let before = AROUND_A_DAY.iter().find(|(p, before, _)| {
        *before && i >= n(p) && t[i - n(p)].sent == t[i].sent && at(i - n(p), p)
    });
    let after = AROUND_A_DAY
        .iter()
        .find(|(p, before, _)| !before && at(val.end + 1, p));
    let next = text(t, val.end + 1);
    let opens_a_span = [
        "to", "through", "until", "till", "and", "-", "\u{2013}", "..",
    ]
    .contains(&next);
    let (from, op) = match (before, after) {
        (Some((p, _, op)), None) if !opens_a_span => (i - n(p), *op),
        (None, Some((_, _, op))) => (i, *op),
        (Some((p, _, a)), Some((_, _, b))) if a == b => (i - n(p), *a),
        _ => return None,
    };
    // (a count of a unit of time since a day counts from it)
    let unit = |w: &str| measure_of(w, "").is_some_and(|(_, kind, _)| kind == 0);
    let origin = matches!(word(t, from), "since" | "from")
        && (text(t, i) == "1970" || unit(prev_word(t, from, 1)));
    if in_condition(t, from) || origin {
        return None;
    }
    let end = after.map_or(val.end, |(p, _, _)| val.end + n(p));
    let (min, max) = dated(apply(op, val.v), &val);
    Some((found(bound(min, max, Unit::Year), from, end), end + 1))
}

pub(super) fn length_label_of_class(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // (a length's label opens with one of these words and names the
    // length within four more: `bound_op`)
    let length = |k: usize| {
        matches!(
            word(t, k),
            "length" | "len" | "characters" | "chars" | "bytes"
        )
    };
    if !matches!(w, "max" | "maximum" | "min" | "minimum" | "fixed") || !(i + 1..i + 6).any(length)
    {
        return None;
    }
    if let Compared::Bound(_, Some(f)) = compared_at(t, i) {
        out.push(f);
    }
    None
}

pub(super) fn comparative(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    match compared_at(t, i) {
        Compared::Bound(f, _) => out.push(f),
        Compared::Unread => return None,
        _ => return Some(i + 1),
    }
    None
}

// "at most 200 characters", "max 50", "at least one tag", "<= 100"
fn compared_at(t: &[Tok], i: usize) -> Compared {
    if in_example(t, i) {
        return Compared::Unread;
    }
    let Some((op, j, hint, weak)) = bound_op(t, i) else {
        return Compared::Unread;
    };
    let Some(val) = value_at(t, j) else {
        return Compared::Ruled;
    };
    if in_condition(t, i) {
        return Compared::Ruled;
    }
    // "Minimum is 1950-01-01.", "Maximum: 2050-12-31" (open-meteo's
    // OpenAPI files): a date after a label that names the bound is the
    // bound, a range of dates (their year, with the day kept); any other
    // date belongs to other detectors
    let labelled = matches!(word(t, i), "max" | "maximum" | "min" | "minimum")
        && matches!(text(t, j.wrapping_sub(1)), ":" | "is" | "=");
    if val.date && labelled && !matches!(op, Op::Exact) {
        let (min, max) = dated(apply(op, val.v), &val);
        let f = found(bound(min, max, Unit::Year), i, val.end);
        return Compared::Date(f);
    }
    if val.date || text(t, val.end + 1) == "-" && kind(t, val.end + 2) == Some(Tk::Num) {
        return Compared::Ruled; // dates and "1-5" ranges belong to other detectors
    }
    let Some((mut unit, end)) = unit_at(t, val.end + 1, val.v) else {
        return Compared::Ruled;
    };
    if unit == Unit::None {
        unit = hint;
    }
    // "takes less than 5 seconds" is prose; "fewer than 80 characters" is a bound
    if weak && !unit.counts_parts() {
        return Compared::Ruled;
    }
    if picks_one(op, val.v, unit)
        || permits_more(t, i, op)
        || qualifies_things(t, i, unit)
        || what_you_receive(t, i)
        || how_long_it_takes(t, i, unit)
        || how_long_it_is_kept(t, i, unit)
        || a_rate_limit(t, i)
    {
        return Compared::Ruled;
    }
    if of_a_sum(t, i) && !unit.counts_parts() {
        unit = Unit::Sum;
    }
    if val.year && unit == Unit::None && matches!(op, Op::Min | Op::MinEx | Op::Max | Op::MaxEx) {
        unit = Unit::Year;
    }
    if a_rate(t, end.max(val.end))
        || passively_returned(t, end.max(val.end))
        || retries_an_action(t, i, end.max(val.end))
    {
        return Compared::Ruled;
    }
    let (min, max) = apply(op, val.v);
    // "Fixed length: 4 digits", "Max length: 4 digits": the label says
    // a length is counted, the unit which characters; both are claims
    let (from, to) = (phrase_start(t, i), end.max(val.end));
    let label = (hint == Unit::Chars && matches!(unit, Unit::Class(_)))
        .then(|| found(bound(min, max, Unit::Chars), from, to));
    Compared::Bound(found(bound(min, max, unit), from, to), label)
}

// postfix: "200 characters max", "10 or fewer tags", "1 or more"
pub(super) fn postfix_bound(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    if in_example(t, i) {
        return None;
    }
    let val = value_at(t, i)?;
    // (a comparative opens only at a token that may open this family's shapes)
    let after_op = i > 0 && t[i - 1].lead & BOUNDS != 0 && bound_op(t, i - 1).is_some();
    if val.date || after_op || in_condition(t, i) {
        return None;
    }
    let (unit, end) = unit_at(t, val.end + 1, val.v)?;
    let k = end.max(val.end) + 1;
    let op = if matches!(word(t, k), "max" | "maximum") || seq(t, k, &["at", "most"]) {
        Some((Op::Max, k + usize::from(word(t, k) == "at")))
    } else if seq(t, k, &["at", "least"]) {
        Some((Op::Min, k + 1))
    } else if word(t, k) == "or"
        && matches!(
            word(t, k + 1),
            "less" | "fewer" | "shorter" | "smaller" | "below"
        )
    {
        Some((Op::Max, k + 1))
    } else if word(t, k) == "or"
        && matches!(
            word(t, k + 1),
            "more" | "greater" | "larger" | "longer" | "above"
        )
    {
        Some((Op::Min, k + 1))
    } else {
        None
    };
    let (op, last) = op?;
    // "0 or more replies" bounds nothing; "in one or more schemas" describes the operation
    let preposition = (matches!(prev_word(t, i, 1), "in" | "to" | "from" | "across")
        || matches!(prev_word(t, i, 1), "into" | "for" | "on" | "of" | "with")
        || matches!(prev_word(t, i, 1), "by"))
        && !(prev_word(t, i, 1) == "of"
            && matches!(prev_word(t, i, 2), "list" | "array" | "set" | "collection"));
    if (op == Op::Min && val.v == 0.0)
        || preposition
        || (op == Op::Min && val.v == 1.0 && acted_on(prev_word(t, i, 1)))
        || (op == Op::Min && may_have(t, i))
    {
        return None;
    }
    // "1 or more tags": the unit follows the operator
    let (unit, last) = if unit == Unit::None && word(t, last) != "max" && word(t, last) != "maximum"
    {
        match unit_at(t, last + 1, val.v) {
            Some((u, e)) if u != Unit::None => (u, e),
            _ => (unit, last),
        }
    } else {
        (unit, last)
    };
    let (min, max) = apply(op, val.v);
    out.push(found(bound(min, max, unit), i, last));
    None
}

#[cfg(test)]
mod tests {
    use super::super::driver::{assert_finds, found_in};
    use super::super::finding::pair;
    use super::*;

    fn bounds(doc: &str) -> Vec<(String, String)> {
        found_in(doc, BOUNDS)
    }

    /// Asserts each case (see [`assert_finds`]) of this family.
    fn finds(cases: &[&str]) {
        assert_finds(BOUNDS, cases)
    }

    /// A maximum written as a TypeScript template's placeholder:
    /// Doist/todoist-ai ("(max ${MAX_TASKS_PER_OPERATION})"), mondaycom/mcp
    /// ("up to ${MAX_UPDATES_PER_CALL} per call"); its number is not known.
    #[test]
    fn a_placeholder_maximum() {
        finds(&[
            "The array of tasks to add (max ${MAX_TASKS_PER_OPERATION}). | max ${MAX_TASKS_PER_OPERATION} | max NaN None",
            "The item updates to apply, up to ${MAX_UPDATES_PER_CALL} per call. | up to ${MAX_UPDATES_PER_CALL} | max NaN None",
            // a default, a placeholder that is no constant, a sentinel value
            "Truncate the README. Default value is ${ACTOR_README_MAX_LENGTH}.",
            "The items (max ${limit}).",
            "New description. Use \"${REMOVE_SENTINEL}\" to clear.",
        ]);
    }

    /// Round 12: bounds written as "Label: value" lines, as OpenAPI specs
    /// write them in bullets: adyen-openapi's "* Fixed length: 3 characters",
    /// "* Fixed length: 4 digits", "* maxLength: 12" (the keyword read as its
    /// words by the tokenizer), "Maximum value: **672**" (emphasis seen
    /// through); open-meteo's "Minimum is 1950-01-01." (a date after the
    /// label: a range of dates, by year, with the day kept);
    /// twilio-oai's "with a maximum length of 32 digits" (a length counted in
    /// digits is a length as well as a pattern).
    #[test]
    fn bounds_written_as_labels() {
        finds(&[
            "* Encoding: ASCII * Fixed length: 3 characters | Fixed length: 3 characters | min 3 max 3 Chars",
            "* Format: Numeric * Fixed length: 4 digits | Fixed length: 4 digits | min 4 max 4 Chars | Fixed length: 4 digits | min 4 max 4 Class(\"0-9\")",
            "Tax amount. * maxLength: 12 | maxLength: 12 | max 12 Chars",
            "In hours. Maximum value: **672** (28 days). | Maximum value: **672 | max 672 None",
            "Start date in ISO 8601 format. Minimum is 1950-01-01. | Minimum is 1950-01-01 | min 1950 Year",
            "End date. Maximum: 2050-12-31 | Maximum: 2050-12-31 | max 2050 Year",
            // not a bound: "fixed" without a length label, a date after a bound
            // word that is no label, a date in a condition
            "A fixed fee of 5 dollars.",
            "Uses a fixed 3 retries.",
            "The fixed length of the code.",
            "At least 2001-01-01 data is kept.",
            "If the minimum is 2020-01-01, use the other field.",
        ]);
    }

    /// A day made the first or the last by the words around it, as a new
    /// user wrote it in a tool's description ("Invoices exist from
    /// 2015-01-01") and as the first corpus and the real one have it ("no
    /// earlier than 2010-01-01"; Notion's "require 2026-03-11 or later"):
    /// a range of dates by year, the day kept.
    #[test]
    fn a_day_bounded_in_words() {
        // (each case: the description | the phrase | what it bounds)
        finds(&[
            "Invoices exist from 2015-01-01. | from 2015-01-01 | min 2015 Year",
            "Start date; no earlier than 2010-01-01. | no earlier than 2010-01-01 | min 2010 Year",
            "Must be on or after 2015-01-01. | on or after 2015-01-01 | min 2015 Year",
            "Data is kept since 2015-01-01. | since 2015-01-01 | min 2015 Year",
            "The endpoints require 2026-03-11 or later. | 2026-03-11 or later | min 2026 Year",
            "Filings from 2015-01-01 onwards. | from 2015-01-01 onwards | min 2015 Year",
            "Not later than 2030-12-31. | Not later than 2030-12-31 | max 2030 Year",
            "The day, on or before `2030-12-31`. | on or before `2030-12-31` | max 2030 Year",
            // not read here: a span (`span`'s), the origin of a unit of time, a
            // day in an example or under a condition, bare "after" or "before"
            // (what a filter selects), words that disagree, a year alone
            "The day, from 2015-01-01 to 2020-12-31.",
            "Milliseconds since 1970-01-01.",
            "Seconds from 2001-01-01.",
            "If older, no earlier than 2015-01-01.",
            "Only notes created after 2015-01-01.",
            "From 2015-01-01 or earlier.",
            "Filings from 2015.",
        ]);
        // (an example's day is found, and left out when claims are resolved)
        let example = super::super::claims("For example, from 2015-01-01.");
        assert!(example.iter().all(|c| c.kind != crate::ClaimKind::Range));
    }

    #[test]
    fn prefix_operators_with_units() {
        finds(&["At most 200 characters. | At most 200 characters | max 200 Chars"]);
        // the inner "more than 10" is found too; resolving keeps the longer claim
        assert_eq!(
            bounds("No more than 10 items.")[0],
            pair("No more than 10 items", "max 10 Items")
        );
        finds(&[
            "at least one tag | at least one tag | min 1 Count",
            "Page size, max 50. | max 50 | max 50 None",
            "Maximum length is 64. | Maximum length is 64 | max 64 Chars",
            "Value <= 100 | <= 100 | max 100 None",
        ]);
    }

    #[test]
    fn postfix_operators() {
        finds(&[
            "200 characters max | 200 characters max | max 200 Chars",
            "1 or more labels | 1 or more labels | min 1 Count",
            "10 or fewer | 10 or fewer | max 10 None",
        ]);
    }

    #[test]
    fn comparatives_need_a_cue_or_a_unit() {
        finds(&[
            "Usually takes less than 5 seconds.",
            "Must be greater than 0. | greater than 0 | min 0 excl None",
            "fewer than 80 characters | fewer than 80 characters | max 80 excl Chars",
        ]);
    }

    #[test]
    fn conditions_and_dates_are_not_bounds() {
        finds(&[
            "Use this when at least one file has changed.",
            "Only if more than 100 rows match.",
            "At least 2001-01-01.",
            "At most 1-5 retries.",
        ]);
    }

    #[test]
    fn a_size_before_its_noun_is_an_exact_length() {
        finds(&[
            "A 34 character string. | 34 character string | min 34 max 34 Chars",
            "The 2-character ISO 3166-1 code that identifies the country. | 2-character ISO 3166-1 code | min 2 max 2 Chars",
            // a number that is not a standard's between: not one noun phrase
            "The 2-character part of 10 code points.",
        ]);
    }

    #[test]
    fn a_size_opening_the_description_is_an_exact_length() {
        // browser-use's MCP server, okta's OpenAPI spec
        finds(&[
            "4 Character Tab ID of the tab to close | 4 Character Tab ID | min 4 max 4 Chars",
            "4-char id | 4-char id | min 4 max 4 Chars",
            "10-character Key ID obtained from the Apple developer account | 10-character Key | min 10 max 10 Chars",
            // a count of characters, or a size inside the sentence without an article
            "10 characters of the key ID are shown.",
            "Uses 4 character codes as the id.",
        ]);
    }

    #[test]
    fn the_end_of_an_html_tag_is_not_greater_than() {
        // okta's OpenAPI spec; digitalocean's, together's and nytimes' write such tags
        finds(&[
            "400 - When request validation fails <br> 401 - When the user is not authenticated",
            "Two values <br/> 5 of them",
            "Bold </b> 5 times",
            // a comparison
            "Must be > 0 | > 0 | min 0 excl None",
            "value > 10 | > 10 | min 10 excl None",
        ]);
    }

    #[test]
    fn how_long_the_service_keeps_data_is_not_a_bound() {
        // sendgrid's and digitalocean's OpenAPI specs, awslabs' MCP servers
        finds(&[
            "We only store up to 7 days of email activity in our database.",
            "Result files themselves are retained for up to 30 days after the job completes.",
            "Anomalies are available for up to 90 days.",
            // a retention to send
            "Number of days to retain logs, up to 90 days. | up to 90 days | max 90 Time",
            "How long the file is stored, at most 30 days. | at most 30 days | max 30 Time",
        ]);
    }

    #[test]
    fn a_rate_limit_is_not_a_bound() {
        // okta's and digitalocean's OpenAPI specs
        finds(&[
            "Okta enforces a rate limit of five activation attempts within five minutes.",
            "a rate limit of one OTP challenge per device every 30 seconds",
            "CDN endpoints have a rate limit of 5 requests per 10 seconds.",
            // a bound of a sum (the fourth new user's trial)
            "Width in cm; the sum of length, width and height may not exceed 300. | may not exceed 300 | max 300 Sum | not exceed 300 | max 300 Sum",
            // a limit of the argument
            "There is a limit of 50 tags. | limit of 50 tags | max 50 Count",
        ]);
    }

    #[test]
    fn what_a_thing_may_have_is_not_a_bound() {
        // docusign's, sendgrid's and okta's OpenAPI specs
        finds(&[
            "A payment formula can have one or more line items that provide detail.",
            "Each subuser can have one or more of their own IP addresses as well.",
            "If `true`, passwords can include one or more symbols",
            "A group can also contain one or more users.",
            // asked for, or a bound after "can"
            "The formula must have one or more line items. | one or more line | min 1 Uncounted",
            "The list can have at most 5 tags. | at most 5 tags | max 5 Count",
        ]);
    }

    #[test]
    fn a_maximum_beside_the_default() {
        // apify's MCP server, PagerDuty's OpenAPI spec
        finds(&[
            "Maximum number of array elements to return. The default value (as well as the maximum) is 20. | (as well as the maximum) is 20 | max 20 None",
            "The default value (and maximum) is 10. | (and maximum) is 10 | max 10 None",
            "The maximum number of results to return per page. The default (and maximum allowed value) is 1000. | (and maximum allowed value) is 1000 | max 1000 None",
            // not beside the default, or a maximum of something else
            "The page size (and maximum) is 10.",
            "The default (and the recommended value) is 10.",
        ]);
    }

    #[test]
    fn a_bound_that_picks_things_is_not_a_limit() {
        finds(&[
            "Number of days with at least one transaction over the past 6 months.",
            "Include all pools that have at least one IP in the region.",
            "The number of users who have at least one notification method configured.",
            "The percentage of users who are on at least one escalation policy.",
            "One entry per underlying model that received at least one prompt during the run.",
            "A list that has at least one tag. | at least one tag | min 1 Count",
            "Labels that must have at least one tag. | at least one tag | min 1 Count",
            "Users who have at least 8 characters in the name. | at least 8 characters | min 8 Chars",
            "Defaults to M10 for projects with fewer than 2 existing clusters.",
            // each item's length, and a bound on the argument itself, stay
            "Tags with at most 32 characters. | at most 32 characters | max 32 Chars",
            "A list with at least one tag. | at least one tag | min 1 Count",
            "A list of tags with at least one entry. | at least one entry | min 1 Items",
            "Up to 10 values with at most 5 items each. | Up to 10 values | max 10 Items | at most 5 items | max 5 Items",
        ]);
    }

    #[test]
    fn what_the_service_returns_is_not_a_limit() {
        // PagerDuty's and sendgrid's OpenAPI specs
        finds(&[
            "List of invocations sorted by creation_time. At most 25 invocations are returned.",
            "A maximum of 10 IPs will be returned per IP Pool by default.",
            "Up to 10 tags are allowed. | Up to 10 tags | max 10 Count",
            "The number of results to be returned, at most 100 results. | at most 100 results | max 100 Count",
        ]);
    }

    #[test]
    fn what_an_operation_acts_on_is_not_a_list_size() {
        // PagerDuty's, okta's, sendgrid's, box's and openai's OpenAPI specs
        finds(&[
            "A Maintenance Window is used to temporarily disable one or more Services.",
            "Create one or more overrides, each for a specific user.",
            "This updates, adds, or removes one or more custom profile properties.",
            "This endpoint allows you to add one or more email addresses to the group.",
            "Applies one or more Box Skills metadata cards to a file.",
            "`required` means the model must call one or more tools.",
            "Specify one or more tags. | one or more tags | min 1 Count",
            "One or more label names to remove. | One or more label | min 1 Count",
        ]);
    }

    #[test]
    fn how_often_an_action_is_retried_is_not_a_limit() {
        // the first corpus; plaid's OpenAPI spec
        finds(&[
            "Retries up to 3 times on network errors.",
            "You may retry a transfer up to 2 times, within 180 days.",
            "Number of retries, up to 5 times. | up to 5 times | max 5 Time",
            "Times to retry, at most 5 times. | at most 5 times | max 5 Time",
        ]);
    }

    #[test]
    fn how_long_the_service_takes_is_not_a_limit() {
        finds(&[
            "It may take up to 60 seconds for your IP address to be added.",
            "Timeout, up to 60 seconds. | up to 60 seconds | max 60 Time",
            "Takes at most 5 tags. | at most 5 tags | max 5 Count",
        ]);
    }

    #[test]
    fn a_rate_of_calls_is_not_a_count() {
        finds(&[
            "This endpoint is rate limited to 100 requests per minute.",
            "It will be rate limited to 1 request every 12 hours.",
            "Up to 100 requests per batch. | Up to 100 requests | max 100 Count",
        ]);
    }

    #[test]
    fn what_the_service_gives_is_not_a_limit() {
        finds(&[
            "extra_snippets allow you to get up to 5 additional, alternative excerpts.",
            "This endpoint allows you to retrieve up to 100 contacts.",
            "This allows you to add up to 5 labels. | up to 5 labels | max 5 Count",
        ]);
    }

    #[test]
    fn one_variant_and_permissions_are_not_counts() {
        finds(&[
            "Specify exactly one edit operation.",
            "Each entry must match exactly one reference variant.",
            "Can be more than one if n is greater than 1.",
            "There can be more than one page of results.",
            "A task can be assigned to more than one user.",
            "A list where the user can select more than one value.",
            // a negated comparative: "not more than 5" is "at most 5"
            "It can not be more than 5 characters. | not be more than 5 characters | max 5 Chars",
            // what they must not swallow
            "Exactly one character. | Exactly one character | min 1 max 1 Chars",
            "Must contain exactly one item. | exactly one item | min 1 max 1 Items",
            "Must be exactly 3 tags. | exactly 3 tags | min 3 max 3 Count",
            "Must be more than 0. | more than 0 | min 0 excl None",
            "Can be at most 5 items. | at most 5 items | max 5 Items",
        ]);
    }

    #[test]
    fn a_year_after_an_operator_is_a_year_bound() {
        finds(&["at least 2001 | at least 2001 | min 2001 Year"]);
    }
}
