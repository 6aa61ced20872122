//! Enums with data as argument types, tagged the way serde writes them:
//! internally (`#[serde(tag = "kind")]`: `{"kind": "circle", "radius": 2}`)
//! or adjacently (`#[serde(tag = "t", content = "c")]`:
//! `{"t": "circle", "c": {"radius": 2}}`).
//!
//! The schema is a `oneOf` with one closed object per variant, the tag a
//! required `const` in each, plus an OpenAPI `discriminator` naming the tag,
//! so that a reader can pick the branch without trying them all. The
//! runtime reads the tag first, then checks the variant's fields like an
//! argument struct's, with pointers into the variant. `#[derive(ToolArgs)]`
//! generates the per-variant code; what every tagged enum shares is here.

use serde_json::{json, Map, Value};

use crate::args::validate::{Ptr, Violation, Violations};
use crate::args::{object_schema, Prop};

/// How a tagged enum is written on the wire.
#[derive(Debug)]
pub struct Tagging {
    /// The tag's key (`kind`).
    pub tag: &'static str,
    /// The content's key when adjacently tagged (`c`), else `None`.
    pub content: Option<&'static str>,
    /// Each variant's tag value, in declaration order.
    pub variants: &'static [&'static str],
    /// Per variant: whether it has fields (a unit variant has none, and no content).
    pub with_fields: &'static [bool],
    /// Per variant: its fields' names, to tell a tag that names one variant
    /// while the fields sent are another's.
    pub fields: &'static [&'static [&'static str]],
}

/// One variant's branch of the schema.
pub struct Branch {
    /// The tag value.
    pub name: &'static str,
    /// The variant's doc comment, or empty.
    pub description: &'static str,
    /// Its fields; `None` for a unit variant.
    pub fields: Option<Vec<Prop>>,
}

fn tag_prop(tag: &'static str, name: &'static str) -> Prop {
    let mut s = Map::new();
    s.insert("type".into(), Value::from("string"));
    s.insert("const".into(), Value::from(name));
    Prop {
        name: tag,
        schema: s,
        description: "",
        optional: false,
    }
}

/// `{"oneOf": [one closed object per variant], "discriminator": {"propertyName": tag}}`.
pub fn tagged_schema(t: &Tagging, branches: Vec<Branch>) -> Map<String, Value> {
    let one_of: Vec<Value> = branches
        .into_iter()
        .map(|b| {
            let description = Some(b.description).filter(|d| !d.is_empty());
            let mut props = vec![tag_prop(t.tag, b.name)];
            match (t.content, b.fields) {
                (None, Some(fields)) => props.extend(fields),
                (Some(content), Some(fields)) => props.push(Prop {
                    name: content,
                    schema: object_schema(None, fields),
                    description: "",
                    optional: false,
                }),
                (_, None) => {}
            }
            Value::Object(object_schema(description, props))
        })
        .collect();
    let mut m = Map::new();
    m.insert("oneOf".into(), Value::Array(one_of));
    m.insert("discriminator".into(), json!({ "propertyName": t.tag }));
    m
}

/// Names as the messages list them: `` `a`, `b` ``.
fn listed(names: &[&str]) -> String {
    let q: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    q.join(", ")
}

/// The variant a mistyped tag most likely meant: the same word in another
/// case or with other separators, else one within two edits.
fn closest<'a>(sent: &str, names: &[&'a str]) -> Option<&'a str> {
    let bare = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let b = bare(sent);
    if let Some(n) = names.iter().find(|n| bare(n) == b) {
        return Some(n);
    }
    names
        .iter()
        .map(|n| (edits(&b, &bare(n)), *n))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push(
                (prev[j] + usize::from(ca != *cb))
                    .min(prev[j + 1] + 1)
                    .min(cur[j] + 1),
            );
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The variant an object names, and the object holding its fields (the
/// object itself when internally tagged, its content when adjacently
/// tagged; `None` for a unit variant). Records why when there is none: not
/// an object, the tag missing or naming no variant, or (adjacently) the
/// content missing, not an object, or sent for a unit variant.
pub fn tagged_variant<'v>(
    v: &'v Value,
    t: &Tagging,
    ptr: &Ptr<'_>,
    out: &mut Violations,
) -> Option<(usize, Option<&'v Map<String, Value>>)> {
    let Value::Object(obj) = v else {
        out.wrong_type(ptr, "object", v);
        return None;
    };
    let at = ptr.key(t.tag);
    let Some(sent) = obj.get(t.tag) else {
        out.missing(
            ptr,
            t.tag,
            format!(
                "is required: it names the variant, one of {}",
                listed(t.variants)
            ),
            format!("send `{}` as one of: {}", t.tag, t.variants.join(", ")),
        );
        return None;
    };
    let Some(i) = sent
        .as_str()
        .and_then(|s| t.variants.iter().position(|n| *n == s))
    else {
        let guess = sent.as_str().and_then(|s| closest(s, t.variants));
        let hint = match guess {
            Some(g) => format!("did you mean `{g}`? send one of: {}", t.variants.join(", ")),
            None => format!("send one of: {}", t.variants.join(", ")),
        };
        out.push(
            &at,
            "const",
            Value::from(t.variants.to_vec()),
            Some(sent.clone()),
            format!("must name a variant: one of {}", listed(t.variants)),
            hint,
        );
        return None;
    };
    // The keys this object may hold besides a variant's fields (which the
    // generated code checks): the tag, and the content when adjacently
    // tagged and the variant has fields.
    let known: &[&str] = match t.content {
        Some(content) if t.with_fields[i] => &[t.tag, content],
        _ => &[t.tag],
    };
    let Some(content) = t.content else {
        if wrong_variant(t, i, obj, known, &at, sent, out) {
            return None;
        }
        if t.with_fields[i] {
            return Some((i, Some(obj)));
        }
        unknown(obj, known, ptr, out, "");
        return Some((i, None));
    };
    if let Some(Value::Object(fields)) = obj.get(content) {
        if wrong_variant(t, i, fields, &[], &at, sent, out) {
            return None;
        }
    }
    unknown(obj, known, ptr, out, content);
    if !t.with_fields[i] {
        return Some((i, None));
    }
    let here = ptr.key(content);
    match obj.get(content) {
        Some(Value::Object(fields)) => Some((i, Some(fields))),
        Some(other) => {
            out.wrong_type(&here, "object", other);
            None
        }
        None => {
            out.missing(
                ptr,
                content,
                format!("is required: it holds the fields of `{}`", t.variants[i]),
                format!("send the fields of `{}` in `{content}`", t.variants[i]),
            );
            None
        }
    }
}

/// A tag that names one variant over the fields of another
/// (`{"kind": "silent", "to": "a@example.com"}`, where `to` is a field of
/// `email`): one violation at the tag, whose repair names the variant the
/// fields belong to, instead of a missing field and an unknown one for each
/// key. Only when every field sent (the keys of `sent` besides `skip`)
/// belongs to that other variant and one of them does not belong to the
/// variant named. `true` when it was reported.
fn wrong_variant(
    t: &Tagging,
    named: usize,
    sent: &Map<String, Value>,
    skip: &[&str],
    at: &Ptr<'_>,
    tag_sent: &Value,
    out: &mut Violations,
) -> bool {
    let keys: Vec<&str> = sent
        .keys()
        .map(String::as_str)
        .filter(|k| !skip.contains(k))
        .collect();
    let fits = |j: usize| keys.iter().all(|k| t.fields[j].contains(k));
    if keys.is_empty() || fits(named) {
        return false;
    }
    let Some(meant) = (0..t.variants.len()).find(|&j| j != named && fits(j)) else {
        return false;
    };
    let (name, other) = (t.variants[named], t.variants[meant]);
    let these = match keys.as_slice() {
        [one] => format!("`{one}` is a field"),
        _ => format!("{} are fields", listed(&keys)),
    };
    let own = match t.fields[named] {
        [] => format!("for `{name}`, send no fields"),
        fields => format!("for `{name}`, send its fields: {}", listed(fields)),
    };
    out.push(
        at,
        "const",
        Value::from(other),
        Some(tag_sent.clone()),
        format!("names `{name}`, but {these} of `{other}`"),
        format!("send `\"{}\": \"{other}\"` with these fields; {own}", t.tag),
    );
    true
}

/// Reports every key of a variant without fields (or of an adjacently
/// tagged object) beyond `known`; `content` is the content key, which a
/// unit variant must not carry.
fn unknown(
    obj: &Map<String, Value>,
    known: &[&str],
    ptr: &Ptr<'_>,
    out: &mut Violations,
    content: &str,
) {
    for k in obj.keys().filter(|k| !known.contains(&k.as_str())) {
        let message = if k == content {
            "is not allowed: this variant has no fields".to_owned()
        } else {
            "is not allowed in this variant".to_owned()
        };
        out.push_violation(Violation {
            pointer: ptr.key(k).render(),
            keyword: "additionalProperties",
            limit: Some(Value::Bool(false)),
            actual: None,
            message,
            hint: format!("remove it; send only {}", listed(known)),
            served: false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static T: Tagging = Tagging {
        tag: "kind",
        content: None,
        variants: &["circle", "square", "none"],
        with_fields: &[true, true, false],
        fields: &[&["radius"], &["side"], &[]],
    };

    #[test]
    fn a_mistyped_tag_gets_a_did_you_mean_and_the_variants() {
        let mut out = Violations::new();
        let v = json!({"kind": "Circel"});
        assert!(tagged_variant(&v, &T, &Ptr::ROOT, &mut out).is_none());
        let e = out.into_vec().remove(0);
        assert_eq!(e.pointer, "/kind");
        assert_eq!(e.keyword, "const");
        assert_eq!(
            e.hint,
            "did you mean `circle`? send one of: circle, square, none"
        );
        assert_eq!(closest("SQUARE", T.variants), Some("square"));
        assert_eq!(closest("triangle", T.variants), None);
    }

    #[test]
    fn fields_of_another_variant_name_it() {
        let mut out = Violations::new();
        let v = json!({"kind": "circle", "side": 2});
        assert!(tagged_variant(&v, &T, &Ptr::ROOT, &mut out).is_none());
        let e = out.into_vec();
        assert_eq!(e.len(), 1, "one repair, not a missing and an unknown field");
        assert_eq!(e[0].pointer, "/kind");
        assert_eq!(
            e[0].message,
            "names `circle`, but `side` is a field of `square`"
        );
        assert_eq!(
            e[0].hint,
            "send `\"kind\": \"square\"` with these fields; for `circle`, send its fields: `radius`"
        );
        // fields of the variant named, or of none, are checked as before
        for v in [
            json!({"kind": "circle", "radius": 2}),
            json!({"kind": "circle", "edge": 2}),
        ] {
            let mut out = Violations::new();
            assert!(
                tagged_variant(&v, &T, &Ptr::ROOT, &mut out).is_some(),
                "{v}"
            );
        }
    }
}
