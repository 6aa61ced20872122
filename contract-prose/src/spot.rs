//! The spotter tier: beside the precise readers, one recognizer per family that
//! reads only its vocabulary (cue words and shapes, [`CUES`]), never a value: what
//! it finds ([`What::Spotted`]) can neither contradict a declaration nor stop a
//! build. An audit finding, kept where no precise reader read the family.

use super::driver::Cx;
use super::finding::*;
use super::tokens::*;
use super::values::NUMBER_WORDS;
use super::ClaimKind::{self, *};

/// The cue words (leads of the spotter), by the family each hints at, in
/// [`ClaimKind`]'s order: Length, Range, Items, ClosedSet, Format, Pattern.
#[rustfmt::skip]
pub(super) const CUES: [&[&str]; 6] = [&[], &["multiple", "within"], &["array", "list"],
    &["accepts", "allowed", "always", "or", "available", "possible", "supported", "valid"],
    &["datetime", "date-time", "e-mail", "email", "guid", "hostname", "ipv4", "ipv6", "iso",
      "iso8601", "rfc", "rfc3339", "uri", "url", "uuid", "uuids"],
    &["alpha", "begins", "comma", "comma-delimited", "comma-separated", "cron", "iso",
      "international", "key", "numeric", "prefixed", "starts"],
];

/// The one reader of the spotter's rows, for the family `fam`: one arm per
/// family, each a few cue words and the shape around them.
pub(super) fn spot(Cx { t, doc, out, .. }: Cx, i: usize, fam: ClaimKind, by: Rec) -> Option<usize> {
    let (s, w) = (t[i].s.as_str(), |b: usize| word(t, i + b));
    let cue = t[i].k != Tk::Punct && CUES[fam as usize].contains(&s);
    let num = |k: usize| kind(t, k) == Some(Tk::Num);
    let lit = |k: usize| is_lit(t, k) || num(k);
    let item = |k: usize| lit(k) || word(t, k).len() > 1 && !FUNCTION.contains(&word(t, k));
    let clause = |k: usize| {
        matches!(text(t, k), "," | ";" | "-" | "*" | "\u{2022}" | "." | "")
            || t[k].sent != t[i].sent
    };
    let in_sentence = |f: &dyn Fn(usize) -> bool| (sentence_start(t, i)..i).any(f);
    let t1 = match fam {
        // "Sender email (for ...)", "(a job UUID)", "a valid Git URL", "in ISO 8601 format";
        // not "Email subject" (it qualifies a noun), "Submit a URL", "email or username"
        Format if cue => {
            let end = i + usize::from(matches!(
                (s, text(t, i + 1)),
                ("iso", "8601") | ("rfc", "3339")
            ));
            let next = word(t, end + 1);
            let head = t[i].sent == t[0].sent
                && i < 4
                && (0..i).all(|k| {
                    t[k].k != Tk::Punct
                        && !FUNCTION.contains(&word(t, k))
                        && (k == 0 || !matches!(word(t, k), "a" | "an"))
                })
                && (next.is_empty() || next.ends_with("ed") || FUNCTION[..4].contains(&next))
                && !(end + 1..end + 5).any(|k| word(t, k) == "or");
            let named = matches!(next, "format" | "string" | "form" | "notation")
                || (1..=3).any(|b| prev_word(t, i, b) == "valid")
                || (1..=2).any(|b| {
                    matches!(prev_word(t, i, b), "a" | "an")
                        && matches!(text(t, i.wrapping_sub(b + 1)), "(" | "be")
                });
            (!matches!(s, "iso" | "rfc") || end > i)
                .then_some(end)
                .filter(|_| head || named)
        }
        // "Comma separated string of ...", "ISO alpha-2 country code", "key:value", "(sec-c-...)";
        // not "can be comma separated" (a permission), nor beside an array (one of two forms)
        Pattern if cue => match s {
            _ if prev_word(t, i, 1) == "be" || in_sentence(&|k| word(t, k) == "array") => None,
            "comma-separated" | "comma-delimited" => (w(1) == "string").then_some(i + 1),
            "comma" => {
                (matches!(w(1), "separated" | "delimited") && w(2) == "string").then_some(i + 2)
            }
            "cron" => {
                matches!(w(1), "expression" | "syntax" | "format" | "schedule").then_some(i + 1)
            }
            "alpha" => {
                (text(t, i + 1) == "-" && matches!(text(t, i + 2), "2" | "3")).then_some(i + 2)
            }
            "iso" => (2..=4)
                .find(|&b| w(b) == "code" && t[i + b].sent == t[i].sent)
                .map(|b| i + b),
            "international" => (w(1) == "format").then_some(i + 1),
            "numeric" => (i == 0 && matches!(w(1), "id" | "string" | "code")
                || text(t, i.wrapping_sub(1)) == ":")
                .then_some(i + 1),
            "key" => (matches!(text(t, i + 1), ":" | "=") && w(2) == "value").then_some(i + 2),
            _ => (w(1) == "with" && is_lit(t, i + 2)).then_some(i + 2),
        },
        // a literal `name:value` or '{key}={value}'; not a scope ("Requires `vpc:read`"),
        // a path, a time layout
        Pattern if is_lit(t, i) => {
            let b = s.as_bytes();
            let id = |c: u8| c.is_ascii_lowercase() || matches!(c, b'_' | b'{' | b'}');
            let scope = || {
                (sentence_start(t, i)..t.len())
                    .take_while(|&k| t[k].sent == t[i].sent)
                    .any(|k| matches!(word(t, k), "scope" | "scopes" | "requires"))
            };
            let sep = b.iter().position(|&c| c == b'=' || c == b':');
            sep.filter(|&p| {
                p > 0
                    && p + 1 < b.len()
                    && id(b[p - 1])
                    && id(b[p + 1])
                    && !s.contains("hh")
                    && !s.contains('/')
                    && !b.contains(&b' ')
                    && !scope()
            })
            .map(|_| i)
        }
        Pattern if matches!(s, ".." | "...") && i >= 3 => {
            (text(t, i - 1) == "-" && kind(t, i - 2) == Some(Tk::Word) && text(t, i - 3) == "(")
                .then_some(i)
        }
        // "value is always 1" (not "In standard contracts, ... always 100": one case),
        // "Supported: 5, 15, 30, 60", "aggregate by cost, usage, or count"
        ClosedSet if cue => match s {
            "always" if matches!(word(t, sentence_start(t, i)), "for" | "in" | "by") => None,
            "always" => {
                let k = i
                    + 1
                    + usize::from(matches!(w(1), "be" | "is"))
                    + 2 * usize::from(w(1) == "set" && w(2) == "to");
                (lit(k) && !matches!(t[k].s.as_str(), "true" | "false")).then_some(k)
            }
            "accepts" => {
                (is_lit(t, i + 1) && matches!(text(t, i + 2), "," | "or") && is_lit(t, i + 3))
                    .then_some(i + 3)
            }
            // after a verb of being, a colon or "by" (not "filter by a, b, or c": fields)
            "or" if i >= 5 => {
                let oxford = usize::from(text(t, i - 1) == ",");
                let first = i - 3 - oxford;
                let lead = match text(t, first - 1) {
                    "be" | "is" | "are" | "either" | ":" => true,
                    "by" => !in_sentence(&|k| {
                        matches!(word(t, k), "filter" | "search" | "match" | "query")
                    }),
                    _ => false,
                };
                (lead
                    && item(i - 1 - oxford)
                    && text(t, i - 2 - oxford) == ","
                    && item(first)
                    && item(i + 1)
                    && clause(i + 2))
                .then_some(i + 1)
            }
            "or" => None,
            _ => {
                let colon = i + 1 + usize::from(text(t, i + 1) != ":");
                (text(t, colon) == ":"
                    && !matches!(w(1), "keys" | "characters")
                    && item(colon + 1)
                    && text(t, colon + 2) == ","
                    && item(colon + 3))
                .then_some(colon + 3)
            }
        },
        // "business-object: the data ... metric: ...", "public = visible ...": values as
        // written, lower case or all capitals; not "Encoding: ASCII" (a label), "North=0"
        // (a legend, the spans'), "the following keys: - name: ..." (members)
        ClosedSet if matches!(s, ":" | "=") => {
            let defines = |k: usize| {
                let id = &doc[t[k.max(1) - 1].start..t[k.max(1) - 1].end];
                let case =
                    || id == id.to_lowercase() || text(t, k) == "=" && id == id.to_uppercase();
                matches!(text(t, k), ":" | "=")
                    && k >= 1
                    && !num(k - 1)
                    && item(k - 1)
                    && (k == 1 || clause(k - 2) || sentence_start(t, k - 1) == k - 1)
                    && kind(t, k + 1) == Some(Tk::Word)
                    && !matches!(word(t, k + 1), "true" | "false")
                    && case()
            };
            let legend = || {
                (1..t.len()).any(|k| text(t, k) == "=" && num(k - 1))
                    || (0..i).any(|k| matches!(word(t, k), "keys" | "fields" | "properties"))
            };
            (defines(i) && (i + 1..t.len()).any(defines) && !legend()).then_some(i)
        }
        // "within the last 30 days" (not in a legend: "'pd' - within the last 24 hours"),
        // "any multiple of 5 GB"
        Range if cue => match s {
            "within" => (w(1) == "the"
                && matches!(w(2), "last" | "past")
                && !(i.saturating_sub(4)..i).any(|k| is_lit(t, k)))
            .then_some(i + 2),
            _ => (w(1) == "of" && num(i + 2)).then_some(i + 2),
        },
        // "Array of the two indexUids"
        Items if cue && w(1) == "of" => {
            let k = i + 2 + usize::from(matches!(w(2), "the" | "exactly"));
            (num(k) || NUMBER_WORDS[2..].contains(&word(t, k))).then_some(k)
        }
        _ => None,
    }?;
    // "Timezone for the cron expression": a shape of another thing
    let other = prev_word(t, i, 1) == "the" && i > 1 && matches!(fam, Format | Pattern);
    if !t[i].example && !other {
        out.push(found(by, What::Spotted(fam), i, t1));
    }
    None
}

/// Function words and labels: they end the head of a description ("Sender
/// email (for ...)") and are no value of a list ("Encoding: ASCII").
#[rustfmt::skip]
const FUNCTION: &[&str] = &[
    "of", "for", "to", "from", "by", "with", "whether", "if", "when", "on", "about", "and", "or",
    "via", "using", "into", "per", "in", "at", "is", "are", "be", "not", "that", "which", "this",
    "note", "notes", "default", "defaults", "example", "examples", "format", "type", "required",
    "optional", "important", "warning", "usage", "returns", "values", "options", "e.g.", "i.e.",
    "supported", "allowed", "valid", "accepted", "possible", "available", "tip", "see", "any",
];
