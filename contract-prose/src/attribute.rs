//! Attribution: a sentence of the tool's description belongs to the argument
//! it names. "The `limit` is at most 100" limits `limit`; "The range may span
//! at most 31 days" names no argument, and is reported once on the tool rather
//! than on every argument; a sentence naming two arguments states a rule across
//! them, which no single argument can declare.

use super::finding::Unit;
use super::tokens::{tokenize, Tk, Tok};
use super::units::{measure_of, unit_at};
use super::{claims, ClaimKind};

/// How a sentence can name the argument `name`: the name itself (in a code
/// span or as a word), its words ("start date" for `start_date`), or its last
/// word ("date") when no other argument ends or is named that way.
fn mentions(sentence: &[Tok], name: &str, names: &[&str]) -> bool {
    let name = name.to_lowercase();
    let parts: Vec<&str> = name.split('_').filter(|p| !p.is_empty()).collect();
    let noun = parts.last().copied().unwrap_or("");
    let noun_is_unique = names
        .iter()
        .filter(|other| {
            let other = other.to_lowercase();
            other.rsplit('_').next() == Some(noun) || other.split('_').any(|p| p == noun)
        })
        .count()
        == 1;
    let is_noun = |w: &str| w == noun || w.strip_suffix('s') == Some(noun);
    sentence.iter().enumerate().any(|(i, t)| match t.k {
        Tk::Code | Tk::Quoted => t.s == name,
        Tk::Word => {
            t.s == name
                || (parts.len() > 1
                    && parts
                        .iter()
                        .enumerate()
                        .all(|(k, p)| sentence.get(i + k).is_some_and(|x| x.s == *p)))
                || (noun.len() >= 3 && noun_is_unique && is_noun(&t.s))
        }
        _ => false,
    })
}

/// Each sentence of `doc` as its text and the arguments it names.
fn sentences<'d>(doc: &'d str, names: &[&str]) -> Vec<(&'d str, Vec<String>)> {
    let t = tokenize(doc);
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let j = (i..t.len())
            .find(|&j| t[j].sent != t[i].sent || j > i && names_a_bullet(doc, &t, j, names))
            .unwrap_or(t.len());
        let sentence = &t[i..j];
        let mut named: Vec<String> = names
            .iter()
            .filter(|n| mentions(sentence, n, names))
            .map(|n| n.to_string())
            .collect();
        let text = &doc[t[i].start..t[j - 1].end];
        // "A section holds at most 35 students" names `section` but counts
        // students: a rule about the world, not a bound of the section number
        if named.len() == 1 && counts_other_things(sentence, text, &named[0]) {
            named.clear();
        }
        out.push((text, named));
        i = j;
    }
    out
}

/// A bullet opening a line with an argument's name and a colon or a dash
/// ("Arguments:\n- `limit`: at most 50\n- `mode`: one of ..."): the item
/// speaks of that argument, even in a list a lead's colon keeps in one
/// sentence.
fn names_a_bullet(doc: &str, t: &[Tok], k: usize, names: &[&str]) -> bool {
    let marker = t[k].k == Tk::Punct && matches!(t[k].s.as_str(), "-" | "*" | "+" | "\u{2022}");
    marker
        && k > 0
        && doc[t[k - 1].end..t[k].start].contains('\n')
        && t.get(k + 1).is_some_and(|n| {
            matches!(n.k, Tk::Code | Tk::Word) && names.iter().any(|m| m.eq_ignore_ascii_case(&n.s))
        })
        && t.get(k + 2)
            .is_some_and(|c| matches!(c.s.as_str(), ":" | "-"))
}

/// Whether every claim of `sentence` counts things its one named argument
/// is not: each ends on a plural noun that is no unit and no word of the
/// argument's name ("at most 35 students" of `section`, where "at most 35
/// `section_ids`" or "at most 100 characters" would be its own).
fn counts_other_things(tokens: &[Tok], sentence: &str, name: &str) -> bool {
    let name = name.to_lowercase();
    // a name that counts ("The limit is at most 50 results"), or one the
    // sentence writes as code ("The `section` holds ..."), is the bound's
    const COUNTING: [&str; 8] = [
        "limit", "count", "max", "min", "size", "number", "num", "top",
    ];
    let quoted = tokens
        .iter()
        .any(|t| matches!(t.k, Tk::Code | Tk::Quoted) && t.s == name);
    if quoted || name.split('_').any(|p| COUNTING.contains(&p)) {
        return false;
    }
    let found = claims(sentence);
    let own = |w: &str| {
        name.split('_')
            .any(|p| p == w || w.strip_suffix('s') == Some(p))
    };
    !found.is_empty()
        && found.iter().all(|c| {
            let last = c.phrase.rsplit(' ').next().unwrap_or("").to_lowercase();
            let thing = last.len() >= 4
                && last.ends_with('s')
                && last.chars().all(char::is_alphabetic)
                && unit_at(&tokenize(&last), 0, 2.0).is_some_and(|(u, _)| u == Unit::Count);
            thing && !own(&last)
        })
}

/// The tool's description read once for all its arguments: the sentences each
/// argument owns (in the order of `names`) and the claims no single one owns.
pub(super) fn attribute(doc: &str, names: &[&str]) -> super::Attribution {
    // Findings do not depend on the type, so a description without claims
    // gives none to any argument: skip the per-sentence work.
    if claims(doc).is_empty() {
        return super::Attribution {
            about: vec![None; names.len()],
            unattributed: Vec::new(),
        };
    }
    let split = sentences(doc, names);
    let about = names
        .iter()
        .map(|name| {
            let own: Vec<&str> = split
                .iter()
                .filter(|(_, named)| named.len() == 1 && named[0] == *name)
                .map(|(s, _)| *s)
                .collect();
            (!own.is_empty()).then(|| own.join(" "))
        })
        .collect();
    let unattributed = split
        .iter()
        .filter(|(_, named)| named.len() != 1)
        .flat_map(|(s, named)| {
            claims(s).into_iter().map(move |mut c| {
                // a count of things or a span of time that no argument is
                // named for ("at most three future appointments", "at most
                // 90 days") is no one argument's `length(..)` or `range(..)`
                let time = || measure_of(&c.phrase, "").is_some_and(|(_, kind, _)| kind == 0);
                if c.kind == ClaimKind::Items || c.kind == ClaimKind::Range && time() {
                    c.help = super::help::rule_help(named);
                } else if named.is_empty() && c.help.starts_with("#[") {
                    // "at most 50 per page" in the tool's description: the
                    // attribute is right, on an argument the help must say
                    // the sentence does not name
                    c.help = format!(
                        "{}: name the one it bounds (or move it to that argument's doc) and declare `{}` there",
                        super::help::NO_ARGUMENT_NAMED,
                        c.help
                    );
                }
                (c, named.clone())
            })
        })
        .collect();
    super::Attribution {
        about,
        unattributed,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Claim, ClaimKind};
    use super::*;

    fn about(doc: &str, name: &str, names: &[&str]) -> Option<String> {
        let at = names.iter().position(|n| *n == name)?;
        attribute(doc, names).about[at].clone()
    }

    fn unattributed(doc: &str, names: &[&str]) -> Vec<(Claim, Vec<String>)> {
        attribute(doc, names).unattributed
    }

    const NAMES: &[&str] = &["start_date", "end_date", "calendar", "limit"];

    #[test]
    fn a_sentence_belongs_to_the_argument_it_names() {
        let doc = "List events. The `limit` is at most 50. The calendar must be a UUID.";
        assert_eq!(
            about(doc, "limit", NAMES).as_deref(),
            Some("The `limit` is at most 50.")
        );
        assert_eq!(
            about(doc, "calendar", NAMES).as_deref(),
            Some("The calendar must be a UUID.")
        );
        assert_eq!(about(doc, "start_date", NAMES), None);
    }

    #[test]
    fn words_of_a_name_and_unique_nouns_count() {
        let doc = "The start date is YYYY-MM-DD.";
        assert!(about(doc, "start_date", NAMES).is_some());
        // "date" alone is ambiguous between start_date and end_date
        assert!(about("The date is YYYY-MM-DD.", "start_date", NAMES).is_none());
        assert!(about("Up to 50 calendars.", "calendar", NAMES).is_some());
        // the fourth trial's: a count of other things than the one named
        // is a rule about the world, reported on the tool
        let doc = "A calendar holds at most 500 events and at most 20 owners.";
        assert!(about(doc, "calendar", NAMES).is_none());
        assert_eq!(unattributed(doc, NAMES).len(), 2);
        assert!(about(
            "A calendar name is at most 50 characters.",
            "calendar",
            NAMES
        )
        .is_some());
        // a name that counts, or written as code, keeps the bound
        assert!(about("The limit is at most 50 results.", "limit", NAMES).is_some());
        let doc = "A `calendar` holds at most 500 events.";
        assert!(about(doc, "calendar", NAMES).is_some());
    }

    #[test]
    fn a_sentence_naming_no_argument_is_reported_once_on_the_tool() {
        let doc = "List events in a window. The range may span at most 31 days.";
        let found = unattributed(doc, NAMES);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0.kind, ClaimKind::Range);
        assert!(found[0].1.is_empty());
        for name in NAMES {
            assert_eq!(about(doc, name, NAMES), None, "{name}");
        }
    }

    /// The fifth trial's "at most 50 per page", on a tool whose `page_size`
    /// the sentence does not name: the help says so.
    #[test]
    fn a_bound_on_no_named_argument_says_so() {
        let found = unattributed("List contracts, at most 50 per page.", NAMES);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].0.help,
            "the sentence names no argument: name the one it bounds (or move it to that argument's doc) and declare `#[arg(range(max = 50))]` there"
        );
    }

    #[test]
    fn a_sentence_naming_two_arguments_is_a_rule_across_them() {
        let doc = "The start date and the end date may be at most 31 days apart.";
        let found = unattributed(doc, NAMES);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, ["start_date", "end_date"]);
    }

    /// The third lint audit's D1: a markdown list whose items end with no
    /// period. Each item is a sentence of its own, and an item opening with
    /// an argument's name and a colon or a dash belongs to it, also in a
    /// list a lead's colon keeps in one sentence.
    #[test]
    fn a_list_item_belongs_to_the_argument_it_opens_with() {
        let names = &["limit", "mode"];
        for doc in [
            "Run a query.\n- `limit`: at most 50 results\n- `mode`: one of `fast`, `slow`",
            "Run a query.\n* `limit` - at most 50 results\n* `mode` - one of `fast`, `slow`",
            "Run a query\n1. `limit`: at most 50 results\n2. `mode`: one of `fast`, `slow`",
            "Run a query. Arguments:\n- `limit`: at most 50 results\n- `mode`: one of `fast`, `slow`",
        ] {
            let split = attribute(doc, names);
            assert!(split.unattributed.is_empty(), "{doc}: {:?}", split.unattributed);
            let limit = split.about[0].as_deref().unwrap_or("");
            assert!(limit.contains("at most 50") && !limit.contains("fast"), "{doc}");
            let mode = split.about[1].as_deref().unwrap_or("");
            assert!(mode.contains("`fast`, `slow`") && !mode.contains("50"), "{doc}");
        }
    }

    #[test]
    fn a_description_without_claims_gives_nothing() {
        let plain = attribute(
            "List the events of a calendar. The `limit` caps them.",
            NAMES,
        );
        assert_eq!(plain.about, vec![None; NAMES.len()]);
        assert!(plain.unattributed.is_empty());
    }
}
