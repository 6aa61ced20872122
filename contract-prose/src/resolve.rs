//! From findings to claims: the argument's type decides the family of a bare
//! bound, neighbouring bounds merge, overlapping claims of one kind collapse.

use super::driver::drive;
use super::finding::*;
use super::help::*;
use super::tokens::*;
use super::units::{measure_of, FUNCTION_WORDS};
use super::{Claim, ClaimKind, Declared, Rec, Scalar};

/// A claim together with what was found, so that [`super::agree`] can compare
/// its numbers and values with the declaration.
#[derive(Clone, Debug)]
pub(super) struct Resolved {
    pub(super) claim: Claim,
    pub(super) what: What,
    /// For a listed set: the list was read to its end (it does not go on
    /// after the last value read), so a declared value it lacks is missing
    /// from the prose, not from the part read.
    pub(super) whole: bool,
    /// Where the phrase ends in the doc (a byte offset): the word after it
    /// may name its unit ("at most 50" km).
    pub(super) end: usize,
}

/// The family of a finding: the unit decides where it can, else the type.
fn kind_of(what: &What, decl: Option<&Declared>, list: bool) -> ClaimKind {
    match what {
        // "Value is from -1000000 to 1000000": no length or count is negative
        What::Bound { min: Some(b), .. } if b.v < 0.0 => ClaimKind::Range,
        What::Bound { unit, .. } => match unit {
            Unit::Class(_) => ClaimKind::Pattern,
            Unit::Year | Unit::Time | Unit::Sum => ClaimKind::Range,
            _ => match decl {
                Some(d) if d.is_number => ClaimKind::Range,
                // (the lines of a list, "up to 40 lines per order", are its
                // items; its characters are its items' length)
                Some(d) if d.is_list => match unit {
                    Unit::Chars => ClaimKind::Length,
                    _ => ClaimKind::Items,
                },
                Some(d) if d.is_string => match unit {
                    Unit::None if list => ClaimKind::Items,
                    Unit::Chars | Unit::Uncounted | Unit::None => ClaimKind::Length,
                    _ => ClaimKind::Items,
                },
                _ => match unit {
                    Unit::Chars | Unit::Uncounted => ClaimKind::Length,
                    Unit::Items | Unit::Count => ClaimKind::Items,
                    Unit::None if list => ClaimKind::Items,
                    _ => ClaimKind::Range,
                },
            },
        },
        What::NonEmpty { list } => match decl {
            Some(d) if d.is_list => ClaimKind::Items,
            Some(d) if d.is_string => ClaimKind::Length,
            _ if *list => ClaimKind::Items,
            _ => ClaimKind::Length,
        },
        What::Set(_) => ClaimKind::ClosedSet,
        What::Format(_) => ClaimKind::Format,
        What::Pattern(_) => ClaimKind::Pattern,
    }
}

pub(super) fn resolve(f: &Found, doc: &str, t: &[Tok], decl: Option<&Declared>) -> Resolved {
    // A finding never reaches past the last token; clamp anyway, a macro must not panic.
    let last = t.len().saturating_sub(1);
    let t1 = f.t1.min(last);
    let t0 = f.t0.min(t1);
    let phrase = doc[t[t0].start..t[t1].end].to_string();
    let mut kind = kind_of(&f.what, decl, list_subject(t));
    // "Scores, each from 1 to 10" on a list of numbers: the values of the
    // items, `each(range(..))`, not how many there are
    if kind == ClaimKind::Items
        && decl.is_some_and(|d| d.is_list && matches!(d.scalar, Scalar::Integer | Scalar::Float))
        && matches!(
            f.what,
            What::Bound {
                unit: Unit::None,
                ..
            }
        )
        && per_item(t, t0, t1)
    {
        kind = ClaimKind::Range;
    }
    // "at most 62 days after `from`" on a date: a distance from another day
    // (a rule across arguments) or from today, never a `range(..)` number
    let a_date = decl.is_some_and(|d| matches!(d.format_name, Some("date" | "date-time")));
    let time = || measure_of(&phrase, "").is_some_and(|(_, kind, _)| kind == 0);
    let help = if kind == ClaimKind::Range && a_date && time() {
        DATE_SPAN.to_string()
    } else {
        help_for(kind, &f.what, decl)
    };
    Resolved {
        claim: Claim {
            by: Rec::at(f.by),
            kind,
            phrase,
            help,
            conflict: None,
        },
        what: f.what.clone(),
        whole: !matches!(f.what, What::Set(_)) || !super::closed_sets::list_goes_on(t, t1),
        end: t[t1].end,
    }
}

/// The bound at `t0..=t1` speaks of each item: "Scores, each from 1 to 10",
/// "Every score must be between 1 and 10", "All values must be at most 5",
/// "Each value at most 10", "Ratings from 1 to 5 each". A verb of holding
/// between ("Each request may contain up to 10 IDs") makes it a count.
fn per_item(t: &[Tok], t0: usize, t1: usize) -> bool {
    if word(t, t1 + 1) == "each" && t[t1 + 1].sent == t[t1].sent {
        return true;
    }
    for b in 1..=6 {
        match prev_word(t, t0, b) {
            "each" | "every" => return true,
            // "all values", "all scores": "all" before a plural noun
            w if prev_word(t, t0, b + 1) == "all" && w.len() > 2 && w.ends_with('s') => {
                return true
            }
            "contain" | "contains" | "include" | "includes" | "have" | "has" | "hold" | "holds"
            | "list" | "array" | "of" | "" => return false,
            _ => {}
        }
    }
    false
}

/// "at least 1 and at most 200 characters": one claim with both bounds and the later unit.
pub(super) fn merge_bounds(fs: &mut Vec<Found>, t: &[Tok]) {
    fs.sort_by_key(|f| (f.t0, std::cmp::Reverse(f.t1)));
    let mut i = 0;
    while i + 1 < fs.len() {
        let (a, b) = (&fs[i], &fs[i + 1]);
        let joinable = b.t0 > a.t1
            && b.t0 <= a.t1 + 3
            && t[a.t0].sent == t[b.t0].sent
            && (a.t1 + 1..b.t0).all(|k| matches!(text(t, k), "and" | "," | "but" | ";"));
        if let (
            true,
            What::Bound {
                min: amin,
                max: amax,
                unit: au,
                integer: ai,
            },
            What::Bound {
                min: bmin,
                max: bmax,
                unit: bu,
                integer: bi,
            },
        ) = (joinable, &a.what, &b.what)
        {
            let complementary =
                (amin.is_some() != bmin.is_some()) && (amax.is_some() != bmax.is_some());
            if complementary && (*au == Unit::None || au == bu) {
                let what = What::Bound {
                    min: amin.or(*bmin),
                    max: amax.or(*bmax),
                    unit: *bu,
                    integer: *ai || *bi,
                };
                let merged = Found {
                    by: a.by,
                    what,
                    t0: a.t0,
                    t1: b.t1,
                    always: a.always || b.always,
                };
                fs[i] = merged;
                fs.remove(i + 1);
                continue;
            }
        }
        i += 1;
    }
}

pub(super) fn resolve_all(doc: &str, decl: Option<Declared>) -> Vec<Resolved> {
    let mut t = tokenize(doc);
    mark_context(&mut t);
    let mut fs = Vec::new();
    drive(&t, doc, u8::MAX, &mut fs);
    fs.retain(|f| f.always || !in_output_sentence(&t, f.t0));
    let form = |w: &What| matches!(w, What::Format(_) | What::Pattern(_));
    fs.retain(|f| !form(&f.what) || !among_alternative_forms(&t, f.t0));
    // "at least one field must be provided", "Max 10 total properties": a count of
    // an object's members or of other arguments, not of this argument's items
    // "usually a province, state, or ISO-3166-2 subdivision": what is typical
    // ("its likely in the format of <org>/<project>", sentry's MCP server: a guess)
    fs.retain(|f| {
        let sent = t[f.t0].sent;
        !(f.t0.saturating_sub(8)..f.t0).any(|k| {
            t[k].sent == sent && matches!(word(&t, k), "usually" | "typically" | "often" | "likely")
        })
    });
    // "do not include `num_members` or `is_member`": values named to exclude them
    fs.retain(|f| {
        !matches!(f.what, What::Set(_))
            || !(1..=3).any(|b| matches!(prev_word(&t, f.t0, b), "not" | "never" | "without"))
    });
    // "Up to 2 decimal points" counts digits of the value (a Pattern), not items
    fs.retain(|f| {
        let decimals = word(&t, f.t1.saturating_sub(1)) == "decimal"
            && matches!(
                word(&t, f.t1),
                "places" | "place" | "points" | "point" | "digits"
            );
        !(matches!(f.what, What::Bound { .. }) && decimals)
    });
    // ("At most 50 fields may be set" on a hash does count its members); so is
    // "of the" before them: "Any one or more of the parameters can be updated"
    // (sendgrid's OpenAPI spec), "specify one or more of the attributes below"
    // (digitalocean's); "one or more of the following codes" counts items
    fs.retain(|f| {
        let one = (f.t0..=f.t1).any(|k| matches!(text(&t, k), "one" | "1"));
        let of_members = seq(&t, f.t1 + 1, &["of", "the"])
            && matches!(
                word(&t, f.t1 + 3),
                "parameters" | "properties" | "attributes" | "fields"
            );
        !matches!(f.what, What::Bound { .. })
            || !(matches!(
                word(&t, f.t1),
                "property" | "properties" | "parameter" | "parameters"
            ) || one && matches!(word(&t, f.t1), "field" | "fields")
                || of_members)
    });
    // "A coordinate object with longitude and latitude properties ... Longitude:
    // -180 to 180", "Array of days off, each with a start and end date in ISO
    // format": a constraint on a member of an object, not on the argument
    fs.retain(|f| !about_a_member(&t, f.t0));
    fs.retain(|f| !matches!(f.what, What::Bound { .. }) || !bound_of_a_member(&t, f.t0));
    // members each item must have, conditions, forms of some cases only, values
    // named as the default: each function says the shape it reads and where it was seen
    fs.retain(|f| matches!(f.what, What::Bound { .. }) || !lists_each_members(&t, f.t0));
    fs.retain(|f| !under_a_condition(&t, f.t0));
    fs.retain(|f| !form(&f.what) || !holds_for_some(&t, f.t1));
    fs.retain(|f| !matches!(f.what, What::Set(_)) || !names_the_default(&t, f.t0));
    // "Whether the file is a URL": a flag's description names what the flag
    // tells about another value, never the flag's format
    if word(&t, 0) == "whether" {
        fs.retain(|f| !matches!(f.what, What::Format(_)) || t[f.t0].sent != t[0].sent);
    }
    // "seconds since 1970-01-01T00:00:00Z": the origin of a timestamp's unit
    // names no format or range of the value
    fs.retain(|f| {
        !(matches!(f.what, What::Format(_) | What::Bound { .. })
            && f.t0 >= 1
            && since_the_epoch(&t, f.t0 - 1))
    });
    merge_bounds(&mut fs, &t);
    let mut resolved: Vec<(usize, usize, Resolved)> = fs
        .iter()
        .map(|f| (f.t0, f.t1, resolve(f, doc, &t, decl.as_ref())))
        .collect();
    // Of two overlapping claims of the same kind, keep the longer (then the earlier).
    resolved.sort_by_key(|(a, b, _)| (std::cmp::Reverse(b - a), *a));
    let mut kept: Vec<(usize, usize, Resolved)> = Vec::new();
    for (a, b, c) in resolved {
        if !kept
            .iter()
            .any(|(ka, kb, kc)| kc.claim.kind == c.claim.kind && a <= *kb && *ka <= b)
        {
            kept.push((a, b, c));
        }
    }
    // "Default: the beginning of the day, but at least 15 minutes ago": a bound in
    // a sentence about the default describes the default, not what may be sent;
    // a clause of its own that names the maximum or minimum is a rule ("Defaults to
    // 100 and the max is 100", HubSpot's specs; "Default value is 365; maximum is
    // 731; minimum is 180", plaid's OpenAPI spec)
    kept.retain(|(a, _, c)| {
        !matches!(c.what, What::Bound { .. }) || {
            let first = sentence_start(&t, *a);
            !matches!(word(&t, first), "default" | "defaults") || names_the_limit(&t, *a)
        }
    });
    // "Each entry must match exactly one reference variant": a count inside each
    // item, not the size of the list
    kept.retain(|(a, _, c)| {
        c.claim.kind != ClaimKind::Items || {
            let first = sentence_start(&t, *a);
            word(&t, first) != "each"
        }
    });
    kept.sort_by_key(|(a, _, _)| *a);
    kept.into_iter().map(|(_, _, c)| c).collect()
}

/// The finding at `t0` speaks of a member of the argument (an object), not of
/// the argument: it follows a label ("Longitude: -180 to 180") that names a
/// word the description used before it (the object's members, "with longitude
/// and latitude properties"), or it is in a clause about each item's members
/// ("each with a start and end date in ISO format"; "each with at most 32
/// characters" is a bound on each item, and stays).
fn about_a_member(t: &[Tok], t0: usize) -> bool {
    let sent = t[t0].sent;
    // the label: "Longitude:" just before, or before a sign ("Latitude: -85")
    let colon = if text(t, t0.wrapping_sub(1)) == ":" {
        Some(t0 - 1)
    } else if text(t, t0.wrapping_sub(2)) == ":" && matches!(text(t, t0 - 1), "-" | "\u{2212}") {
        Some(t0 - 2)
    } else {
        None
    };
    if let Some(c) = colon.filter(|&c| c >= 1 && t[c].sent == sent) {
        if names_a_member(t, c - 1, t0) {
            return true;
        }
    }
    // "Must include a 'type' field set to 'object' or 'text'" (exa's MCP server), "a
    // `last_tagged_uri` attribute set to the last resource" (box's OpenAPI spec):
    // the value of a member named just before
    let v = t0 - usize::from(matches!(word(t, t0.wrapping_sub(1)), "a" | "an" | "the"));
    let member_set = v >= 4
        && t[v - 4].sent == sent
        && seq(t, v - 2, &["set", "to"])
        && matches!(
            word(t, v - 3),
            "field" | "property" | "key" | "attribute" | "member"
        )
        && is_lit(t, v - 4);
    member_set
        || (sentence_start(t, t0)..t0).any(|k| {
            word(t, k) == "each"
                && matches!(word(t, k + 1), "with" | "having" | "containing")
                && matches!(word(t, k + 2), "a" | "an" | "its" | "their")
        })
}

/// The word at `label` names a member: the description used it before (as a
/// word or a literal), and it speaks of objects or their members before `t0`.
fn names_a_member(t: &[Tok], label: usize, t0: usize) -> bool {
    let name = word(t, label);
    !name.is_empty()
        && (0..label).any(|k| matches!(t[k].k, Tk::Word | Tk::Code | Tk::Quoted) && t[k].s == name)
        && (0..t0).any(|k| {
            (matches!(word(t, k), "object" | "objects" | "dict" | "dictionary")
                || matches!(word(t, k), "properties" | "fields" | "keys" | "elements"))
        })
}

/// The bound at `t0` is in a clause that opens with a member's name, right
/// before the bound or as a bullet's label: "List of ReplyButton objects, each
/// with 'id' and 'title'. Max 3 buttons, title max 20 chars" (agno's tools),
/// "The array of name/value custom data strings ... The array contains the
/// elements: * name - A string that can be a maximum of 50 characters"
/// (docusign's OpenAPI spec). "Max 3 buttons" bounds the list, and stays.
fn bound_of_a_member(t: &[Tok], t0: usize) -> bool {
    let start = sentence_start(t, t0);
    let Some(label) = (start.max(t0.saturating_sub(10)) + 1..t0)
        .rev()
        .find(|&k| matches!(text(t, k - 1), "," | ";" | "*"))
    else {
        return false;
    };
    let labelled =
        label + 1 == t0 || matches!(text(t, label + 1), "-" | ":") && text(t, label - 1) == "*";
    labelled && !FUNCTION_WORDS.contains(&word(t, label)) && names_a_member(t, label, t0)
}

/// The finding at `t0` is in a sentence that names the members of each item
/// ("Each element must have a 'field_id' (...) and exactly one value field:
/// 'text_value' ..., 'date_value' (ISO 8601 date string) ...", github's MCP
/// server; "Each entry includes 'name', 'type' (file/directory), and
/// 'children'", modelcontextprotocol's filesystem server; "Each object
/// contains a `content` property, which must be a Base64 encoded string",
/// sendgrid's OpenAPI spec): its values and formats are those of a member.
/// A rule on each item itself names no member ("Each tag must contain only
/// lowercase letters"), and bounds are left to the Items rule below.
fn lists_each_members(t: &[Tok], t0: usize) -> bool {
    let first = sentence_start(t, t0);
    word(t, first) == "each"
        && (first + 2..(first + 5).min(t0)).any(|k| {
            (matches!(word(t, k), "have" | "has" | "include" | "includes")
                || matches!(word(t, k), "contain" | "contains"))
                && (is_lit(t, k + 1) || matches!(word(t, k + 1), "a" | "an") && is_lit(t, k + 2))
        })
}

/// The form ending at `t1` holds in one context only ("(UUID in new API,
/// 'i' prefix in old API)", "Unique identifier of the form (UUID in new
/// API)", sooperset's Atlassian MCP server; "Format: APP_NAME::DB for other
/// apps", heroku's MCP server): what values look like in some cases, not the
/// argument's format.
fn holds_for_some(t: &[Tok], t1: usize) -> bool {
    (t1 + 1..(t1 + 6).min(t.len()))
        .take_while(|&k| t[k].sent == t[t1].sent && !matches!(text(t, k), "," | ";" | ")" | "."))
        .any(|k| {
            matches!(word(t, k), "in" | "for")
                && (matches!(word(t, k + 1), "new" | "old" | "other" | "legacy")
                    || matches!(word(t, k + 1), "older" | "newer" | "some" | "certain"))
        })
}

/// The finding at `t0` is inside a condition ("This can only be set when
/// `access` is set to `open` or `company`", box's OpenAPI spec; "until the
/// status is `completed` or `failed`", firecrawl's MCP server): the values of
/// another thing in a situation, not a rule on this argument; so are the forms
/// in the clause of a condition ("If the user passes a parameter in the form of
/// name/otherName, ...", sentry's MCP server; "If a template ID begins with
/// `d-`, it is a dynamic template", sendgrid's OpenAPI spec). The clause runs
/// back to its comma, so "If set, one of `a` or `b`" stays a claim. Bounds
/// read the same words themselves (`units::in_condition`).
fn under_a_condition(t: &[Tok], t0: usize) -> bool {
    let first = sentence_start(t, t0);
    // "When stream is true, partial_images must be greater than 0" (digitalocean's
    // OpenAPI spec), "If offering type is `package`, quantity must be 1" (sendgrid's):
    // a sentence led by another value's state is a rule across values ("If
    // provided, at most 100" is led by no state, and stays)
    if matches!(word(t, first), "when" | "if" | "unless") {
        let comma = (first + 1..t0).find(|&k| text(t, k) == ",");
        if comma.is_some_and(|c| {
            (first + 1..c).any(|k| matches!(text(t, k), "is" | "are" | "equals" | "="))
        }) {
            return true;
        }
    }
    (1..=12)
        .take_while(|&b| {
            t0 >= first + b && !matches!(text(t, t0 - b), "," | ";" | ":" | "(" | ")" | "-" | ".")
        })
        .any(|b| {
            matches!(
                word(t, t0 - b),
                "when" | "if" | "unless" | "until" | "whenever"
            )
        })
}

/// The bound at `t0` opens a clause that names the maximum or minimum: "and the
/// max is 100", "; maximum is 731", or its bare number after a comma, as the
/// default's is ("Default 25, max 100", monday's MCP server; "(default: 30, max:
/// 100)", github's, where the sentence does not open with the default).
fn names_the_limit(t: &[Tok], t0: usize) -> bool {
    let before = t0.saturating_sub(1 + usize::from(word(t, t0.wrapping_sub(1)) == "the"));
    let bare = kind(t, t0 + 1) == Some(Tk::Num) && matches!(text(t, before), "," | ";");
    matches!(word(t, t0), "max" | "maximum" | "min" | "minimum")
        && (matches!(text(t, t0 + 1), "is" | ":" | "=") || bare)
        && before < t0
        && matches!(text(t, before), "and" | ";" | ",")
}

/// Values that start right after "defaults to" or "the default is" ("`mode`
/// defaults to `similar`", firecrawl's MCP server; "the default is
/// `POST`", twilio's OpenAPI spec; "Defaults to \"music_v2\"", elevenlabs'
/// MCP server) name the default, one value, not the set the argument accepts.
fn names_the_default(t: &[Tok], t0: usize) -> bool {
    let (w1, w2) = (word(t, t0.wrapping_sub(1)), word(t, t0.wrapping_sub(2)));
    matches!(w1, "to" | "is") && matches!(w2, "default" | "defaults")
}

/// The "since" at `i` names the origin of a timestamp's unit, not the first
/// year served: "seconds since 1970", "milliseconds since 1970-01-01", "Unix
/// time (seconds since the epoch)", "a Unix timestamp, since 1970". A count
/// of time units before it, or the Unix epoch's year in a sentence about
/// Unix time or timestamps ("Records since 1970" is still a range).
fn since_the_epoch(t: &[Tok], i: usize) -> bool {
    if word(t, i) != "since" {
        return false;
    }
    let unit = |w: &str| {
        (matches!(w, "seconds" | "secs" | "s" | "ms" | "milliseconds")
            || matches!(w, "millis" | "microseconds" | "us" | "nanoseconds" | "ns")
            || matches!(w, "minutes" | "hours" | "days"))
    };
    if unit(prev_word(t, i, 1)) {
        return true;
    }
    let epoch = |k: usize| {
        matches!(
            word(t, k),
            "epoch" | "unix" | "posix" | "timestamp" | "timestamps"
        )
    };
    let sent = t[i].sent;
    let origin = text(t, i + 1) == "1970"
        || word(t, i + 1) == "epoch"
        || (word(t, i + 1) == "the" && word(t, i + 2) == "epoch");
    origin && (0..t.len()).any(|k| t[k].sent == sent && epoch(k))
}

#[cfg(test)]
mod tests {
    use crate::tests::assert_kinds;

    #[test]
    fn a_count_of_the_parameters_is_not_a_list_size() {
        // sendgrid's and digitalocean's OpenAPI specs
        assert_kinds(&[
            "Any one or more of the parameters can be updated via the PATCH endpoint.",
            "Send a PUT request and specify one or more of the attributes below.",
            // plaid's: items of the list (untyped here, so read as a Range)
            "This should be a list that contains one or more of the following codes. | Range",
        ]);
    }

    #[test]
    fn a_bound_in_a_clause_naming_a_member_is_the_members() {
        // agno's tools, docusign's OpenAPI spec
        assert_kinds(&[
            "List of ReplyButton objects, each with 'id' and 'title'. Max 3 buttons, title max 20 chars. | Items",
            "The array of name/value custom data strings. The array contains the elements: * name - A string that can be a maximum of 50 characters. * value - A string that can be a maximum of 200 characters.",
            // a name the description did not use before, no objects, no label
            "List of ReplyButton objects, each with 'id' and 'title'. Max 3 buttons, labels max 20 chars. | Items, Length",
            "The page title, title max 20 chars. | Length",
            "A list of objects with a `file_id`. The maximum batch size is 2000 files. | Items",
            "Names of the elements. * name - one name. Each name can be a maximum of 50 characters. | Length",
        ]);
    }

    #[test]
    fn members_of_each_item_are_not_claims() {
        assert_kinds(&[
            "Array of field values. Each element must have a 'field_id' and one value field: 'text_value' for text, 'date_value' (ISO 8601 date string) for dates, or 'number_value'.",
            "Each entry includes 'name', 'type' (file/directory), and 'children'.",
            "Each object contains a `content` property, which must be a UUID.",
            // a rule on each item names no member, and stays
            "List of tags. Each tag must contain only lowercase letters. | Pattern",
            "Each date must be in ISO 8601 format. | Format",
        ]);
    }

    #[test]
    fn the_value_of_a_named_member_is_not_a_claim() {
        assert_kinds(&[
            "JSON schema. Must include a 'type' field set to 'object' or 'text'.",
            "Includes a `created` attribute set to an ISO 8601 timestamp.",
            // the argument's own values stay
            "The type, set to 'object' or 'text'. | ClosedSet",
        ]);
    }

    #[test]
    fn a_form_of_some_cases_is_not_the_format() {
        assert_kinds(&[
            "Form ID used in API calls (UUID in new API, 'i' prefix in old API)",
            "Database identifier. Format: APP_NAME::DB for other apps.",
            // a form for the argument itself stays
            "Form ID (UUID) used in new API calls | Format",
            "Date in YYYY-MM-DD format, for example today. | Format",
        ]);
    }

    #[test]
    fn values_under_a_condition_are_not_claims() {
        assert_kinds(&[
            "This can only be set when `access` is set to `open` or `company`.",
            "Check again until the status is `completed` or `failed`.",
            // the condition ends at its comma
            "If set, one of `asc` or `desc`. | ClosedSet",
            "Sort order: `asc` or `desc`. | ClosedSet",
            "The image. When stream is true, partial_images must be greater than 0.",
            "If offering type is `package`, quantity must be at most 1.",
            "If provided, must be at most 100. | Range",
            "When set, must be between 1 and 5. | Range",
            // the whole clause of the condition, up to its comma (sentry's MCP server,
            // sendgrid's OpenAPI spec)
            "- If the user passes a parameter in the form of name/otherName, use it.",
        ]);
    }

    #[test]
    fn a_limit_in_its_own_clause_of_a_default_sentence_stays() {
        // HubSpot's specs, plaid's OpenAPI spec
        assert_kinds(&[
            "The maximum number of results to display per page. Defaults to 100 and the max is 100. | Range",
            "Default value is 365; maximum is 731; minimum is 180. | Range",
            // a bound describing the default is still the default's
            "Default: the beginning of the day, but at least 15 minutes ago.",
            "Defaults to a maximum of 10.",
            // monday's MCP server; github's has "(default: 30, max: 100)"
            "Number of results per page. Default 25, max 100. | Range",
            "Default: 20; maximum 50. | Range",
            // the maximum as the default's value, or a bound of the default
            "Defaults to the max, 100.",
            "Defaults to 10, or at most 100 when paging.",
        ]);
    }

    #[test]
    fn the_default_value_is_not_the_set() {
        assert_kinds(&[
            "`mode` defaults to `similar` (co-citation); `citers` returns papers.",
            "One of `music_v1` or `music_v2`. Defaults to `music_v2`. | ClosedSet",
        ]);
    }
}
