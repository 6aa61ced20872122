//! Values described one by one ("'off' - No filtering. 'strict' - Drops
//! adult content", "`asc` for ascending, `desc` for descending"): what
//! the readers `described-values` and `values-one-by-one` read.

use super::*;

/// A bullet marker ("-", "*", "\u{2022}") at `k` that opens an item: at the
/// start of the text, or after the end of a sentence, a colon or the
/// description of the item before (a bullet is never in the middle of a word
/// pair, "a - b").
fn bullet(t: &[Tok], doc: &str, k: usize) -> bool {
    matches!(text(t, k), "-" | "*" | "\u{2022}")
        && (k == 0
            || t[k - 1].sent != t[k].sent
            || matches!(text(t, k - 1), ":" | "." | ")" | ";")
            || doc[t[k - 1].end..t[k].start].contains('\n'))
}

/// Values listed with a description each: "'off' - No filtering. 'strict' - Drops
/// adult content", "`asc` for ascending, `desc` for descending", "'all' (default),
/// 'dm' (direct messages)", "ascending (`asc`) or descending (`desc`)", and a single
/// value: "only `dtmf` is supported", "('indexed' only)".
pub(super) fn described_at(t: &[Tok], doc: &str, i: usize) -> Option<(Vec<String>, usize)> {
    let lit = |k: usize| {
        t.get(k)
            .filter(|x| matches!(x.k, Tk::Code | Tk::Quoted))
            .filter(|x| !x.s.contains(' ') && x.s.chars().count() <= 32)
    };
    let value = |k: usize| match t[k].k {
        Tk::Word | Tk::Num => doc[t[k].start..t[k].end].to_string(),
        _ => inner(doc, &t[k]).to_string(),
    };
    // "- canceled: indicates ... - incorrect: indicates ...", "* `none` will
    // preserve ... * `overwrite` will force ...": a value opening a bullet; a
    // bare word needs a colon after it ("- Note: ..." is one bullet, and two
    // are needed)
    // (the first bullet opens its line or follows a sentence or a colon; the
    // next ones only repeat its marker)
    let opened = |k: usize, first: bool| {
        if first {
            bullet(t, doc, k - 1)
                || (matches!(text(t, k - 1), "*" | "\u{2022}")
                    && matches!(
                        prev_word(t, k - 1, 1),
                        "be" | "are" | "include" | "includes"
                    ))
        } else {
            text(t, k - 1) == text(t, i - 1)
        }
    };
    let bulleted_as = |k: usize, first: bool| {
        k > 0
            && opened(k, first)
            && (lit(k).is_some()
                // "Allowed values: * **01** — No suspicious activity ... *
                // **02** — ..." (adyen-openapi, its emphasis seen through):
                // a code of digits, glossed after a colon or a dash
                || (kind(t, k) == Some(Tk::Num)
                    && t[k].s.bytes().all(|b| b.is_ascii_digit())
                    && matches!(text(t, k + 1), ":" | "-" | "\u{2014}"))
                || (kind(t, k) == Some(Tk::Word)
                    && matches!(text(t, k + 1), ":" | "\u{2014}")
                    && t[k].s.chars().count() <= 24
                    && !NOT_VALUES.contains(&t[k].s.as_str())
                    && !(matches!(t[k].s.as_str(), "note" | "notes" | "example" | "examples") || matches!(t[k].s.as_str(), "default" | "tip" | "warning") || matches!(t[k].s.as_str(), "important" | "returns" | "required") || matches!(t[k].s.as_str(), "optional"))))
    };
    let bulleted = |k: usize| bulleted_as(k, true);
    if bulleted(i) && !(1..i).any(|k| bulleted(k) && t[k].sent + 3 >= t[i].sent) {
        let mut items = vec![value(i)];
        let mut last = i;
        let mut k = i + 1;
        // (every bullet of one list holds the same kind of value: "- **Users**:
        // ... - **Escalation Policies**: ... **Result Values**: - `cancelled`:
        // ..." (PagerDuty/api-schema) is a bullet of headings, then literals,
        // once markdown emphasis is seen through)
        let literal = lit(i).is_some();
        while k < t.len() && k <= last + 80 {
            if bulleted_as(k, false) && lit(k).is_some() == literal {
                items.push(value(k));
                last = k;
            }
            k += 1;
        }
        if items.len() >= 2 {
            return Some((items, last));
        }
    }
    // "either `finite`, where ..., or `indefinite`, where ...": two values
    // each with a clause
    let either = prev_word(t, i, 1) == "either"
        || (prev_word(t, i, 1) == "be" && prev_word(t, i, 2) == "either");
    if lit(i).is_some() && either && text(t, i + 1) == "," {
        let second = (i + 2..(i + 40).min(t.len().saturating_sub(1)))
            .take_while(|&k| t[k].sent == t[i].sent)
            .find(|&k| text(t, k - 1) == "," && word(t, k) == "or" && lit(k + 1).is_some());
        if let Some(k) = second {
            if !names_arguments(t, k + 1) {
                return Some((vec![value(i), value(k + 1)], k + 1));
            }
        }
    }
    // a single value: "only `dtmf` is supported", "('indexed' only)"
    if lit(i).is_some() {
        let only_before = prev_word(t, i, 1) == "only";
        let supported = matches!(word(t, i + 1), "is" | "are")
            && matches!(
                word(t, i + 2),
                "supported" | "allowed" | "accepted" | "valid" | "available"
            );
        let only_after =
            word(t, i + 1) == "only" && text(t, i + 2) == ")" && text(t, i.wrapping_sub(1)) == "(";
        if (only_before && supported) || only_after {
            return Some((vec![value(i)], i));
        }
    }
    // "- "cohere-rerank-3.5" is Cohere's ... model", "'None' returns only the
    // page. 'OneLevel' includes ...": a value opening a bullet or a sentence,
    // described by a verb
    // (or after a colon or a semicolon: "Display format: 'number' shows ...")
    let opens = |k: usize| {
        k < t.len()
            && (matches!(text(t, k.wrapping_sub(1)), "-" | ":" | ";")
                || k == 0
                || t[k - 1].sent != t[k].sent)
    };
    // (any verb in the third person that a lowercase word follows, read from
    // its ending: "'codeblock' wraps logs ... 'plain' returns raw text"
    // (containers/kubernetes-mcp-server), "\"first\" uses first item as
    // template, \"all\" merges all items" (apify/actors-mcp-server), "`IN`
    // returns content ...; `NIN` excludes content ..." (Intercom-OpenAPI);
    // not a plural noun the literal qualifies, "`query` fields match ...")
    // (not a label written with its colon, "`digital:` transactions that
    // took place online", plaid-openapi: a plural noun, not a verb)
    // (the verbs read by name; any other is known only by its ending)
    let known = |k: usize| {
        (matches!(word(t, k + 1), "is" | "returns" | "includes" | "means")
            || matches!(word(t, k + 1), "uses" | "gives" | "shows" | "selects"))
    };
    let verb_described = |k: usize| {
        lit(k).is_some()
            && opens(k)
            && !t[k].s.ends_with(':')
            && (known(k) || third_person_verb(t, k + 1))
    };
    // (a literal alone in parentheses after a plural noun, restating no
    // word of the description before it, is an example of the things the
    // noun names, not a value it glosses: "Supports: simple fields
    // (\"title\"), nested objects (\"author.name\"), ..."
    // (sanity-io/sanity-mcp-server); a value restates its description,
    // "local branches ('local')" (modelcontextprotocol/servers), "a set of
    // groups (`GROUPS`)" (okta), or follows a singular, "ascending (`asc`)",
    // "direct (`USER`)", "anyone with the link (`open`)" (box-openapi))
    let category = |k: usize| {
        let w = word(t, k);
        w.len() > 3
            && w.ends_with('s')
            && !(w.ends_with("ss") || w.ends_with("us") || w.ends_with("is"))
    };
    let restates = |k: usize| {
        let v = t[k].s.as_str();
        (k.saturating_sub(5)..k.saturating_sub(1)).any(|m| {
            let w = word(t, m);
            t[m].sent == t[k].sent
                && w.len() >= 2
                && (w.starts_with(v) || v.starts_with(w) || (w.len() >= 3 && v.contains(w)))
        })
    };
    // the first value of a described list starts it
    let described = |k: usize| {
        (lit(k).is_some()
            && (matches!(text(t, k + 1), ":" | "(" | "-" | "\u{2014}" | "=")
                || word(t, k + 1) == "for"
                // "\"completion\" to get tasks by completion date ..., \"due\"
                // to get tasks by due date" (Doist/todoist-ai), "\"new\" to
                // open a new tab, \"select\" to switch to a tab by index"
                // (awslabs/mcp): a value described by what it is for
                || (word(t, k + 1) == "to"
                    && kind(t, k + 2) == Some(Tk::Word)
                    && !NOT_VALUES.contains(&word(t, k + 2)))
                || (text(t, k.wrapping_sub(1)) == "("
                    && text(t, k + 1) == ")"
                    && (!category(k.wrapping_sub(2)) || restates(k)))))
            || verb_described(k)
    };
    if !described(i) || (i > 0 && described(i - 1)) {
        return None;
    }
    // "use `openai.OpenAI` for blocking mode" is advice
    if (matches!(prev_word(t, i, 1), "use" | "using" | "call" | "pass")
        || matches!(prev_word(t, i, 1), "set" | "with"))
    {
        return None;
    }
    // a value already listed before ("`a`: .., `b`: ..") is part of this list
    if (i.saturating_sub(12)..i).any(|k| described(k) && t[k].sent == t[i].sent) {
        return None;
    }
    let mut items = vec![value(i)];
    let mut last = i;
    let mut k = i + 1;
    // later values follow within a dozen tokens, in the same sentence or the next
    // ("'off' - No filtering. 'strict' - Drops ...")
    // (a value described by a verb may be a long sentence away)
    // (values described by verbs are all described so)
    let by_verb = verb_described(i);
    // (what a value is for may carry a gloss in parentheses: "\"completion\"
    // to get tasks by completion date (ie, when the task was actually
    // completed), \"due\" ...")
    let for_what = word(t, i + 1) == "to";
    let reach = if by_verb {
        40
    } else if for_what {
        24
    } else {
        14
    };
    // (the first value opens its sentence or follows a colon: not advice,
    // "Prefer `replace_content` to overwrite the whole page or ..."
    // (notion-mcp-server), nor a member's value, "Use resource='workspace'
    // to create a new workspace" (mongodb-mcp-server))
    if for_what && !opens(i) {
        return None;
    }
    // (a verb known only by its ending needs the first value to open its
    // sentence or bullet, not to follow a semicolon after another argument's
    // default: "`mode` defaults to `similar`; `citers` returns papers ...
    // `intent` ranks candidates", firecrawl's MCP server)
    // (or follows the colon of a label that opens its sentence: "Operation
    // type: \"edit\" modifies existing document, \"create\" creates new
    // document" (sanity-io/sanity-mcp-server), the label a bullet or a
    // sentence would hold; not a semicolon)
    let labelled = i >= 2
        && text(t, i - 1) == ":"
        && (1..=4).any(|b| {
            i > b
                && (i - 1 - b == 0 || t[i - 2 - b].sent != t[i].sent)
                && (i - 1 - b..i - 1).all(|m| kind(t, m) == Some(Tk::Word))
        });
    let sentence_opener = i == 0 || t[i - 1].sent != t[i].sent || text(t, i - 1) == "-" || labelled;
    let mut generic = by_verb && !known(i);
    while k < t.len() && k <= last + reach {
        // (a later value may follow a comma, described by the same verb:
        // "'number' shows ..., 'emoji' shows ...")
        // (an example sentence may come between two values described by
        // verbs, "For example, \"Knope\" vs. \"Knope-Wyatt\" for last name."
        // (plaid-openapi): the set is read whole, not split in two)
        let next = if by_verb {
            verb_described(k)
                || (text(t, k - 1) == ","
                    && lit(k).is_some()
                    && (word(t, k + 1) == word(t, i + 1) || third_person_verb(t, k + 1)))
        } else {
            described(k)
        };
        let gap = if by_verb { 2 } else { 1 };
        if next && t[k].sent <= t[last].sent + gap {
            generic |= by_verb && !known(k) && word(t, k + 1) != word(t, i + 1);
            items.push(value(k));
            last = k;
        }
        k += 1;
    }
    (items.len() >= 2 && (!generic || sentence_opener)).then_some((items, last))
}

/// A verb in the third person at `k`, read from its ending ("wraps",
/// "merges", "excludes", "applies"), with a lowercase word, a literal or an
/// article after it: not a plural noun that the value before it qualifies
/// ("`query` fields match ...", "`swept` events occur ..."), which a verb
/// follows, nor a member noun ("fields", "properties").
fn third_person_verb(t: &[Tok], k: usize) -> bool {
    let w = word(t, k);
    let n = w.chars().count();
    if n < 4 || !w.bytes().all(|b| b.is_ascii_lowercase()) || !w.ends_with('s') {
        return false;
    }
    // ("`mode` defaults to `similar`" names another argument's default)
    if w.ends_with("ss")
        || w.ends_with("us")
        || w.ends_with("is")
        || w == "defaults"
        || member_noun(w)
    {
        return false;
    }
    // what follows the verb: its object or a preposition, not another verb
    let next = word(t, k + 1);
    let object = is_lit(t, k + 1)
        || (kind(t, k + 1) == Some(Tk::Word)
            && next.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
            && !(matches!(next, "are" | "is" | "were" | "was" | "can" | "will")
                || matches!(next, "must" | "should" | "may" | "have" | "has" | "do")
                || matches!(next, "does"))
            && !next.ends_with("ed"));
    object
}
