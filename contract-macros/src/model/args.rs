//! The model of a `#[derive(ToolArgs)]` input: an argument struct (its
//! fields) or a closed set (a unit enum, with the strings serde reads).

use syn::{Data, DeriveInput, Fields, Ident, LitStr};

use super::Field;
use crate::attr::parse_args_attrs;
use crate::ctxt::Ctxt;
use crate::doc::doc_text;
use crate::vocab::RuleDecl;

pub enum ArgsInput {
    Struct {
        ident: Ident,
        doc: Option<String>,
        fields: Vec<Field>,
        /// `#[args(rules(...))]`.
        rules: Vec<RuleDecl>,
    },
    ClosedSet(ClosedSet),
    /// An enum with data, tagged as serde writes it.
    Tagged(Tagged),
}

/// An internally (`#[serde(tag = "kind")]`) or adjacently (`#[serde(tag =
/// "t", content = "c")]`) tagged enum whose variants are structs or units.
pub struct Tagged {
    pub ident: Ident,
    /// The tag's key.
    pub tag: LitStr,
    /// The content's key, when adjacently tagged.
    pub content: Option<LitStr>,
    pub variants: Vec<TaggedVariant>,
}

/// One variant of a tagged enum.
pub struct TaggedVariant {
    pub ident: Ident,
    /// The tag value serde reads for it.
    pub name: String,
    pub doc: Option<String>,
    /// Its named fields; `None` for a unit variant.
    pub fields: Option<Vec<Field>>,
}

pub struct ClosedSet {
    pub ident: Ident,
    pub members: Vec<Member>,
}

/// One variant of a closed set and the string that stands for it.
pub struct Member {
    pub ident: Ident,
    pub name: String,
}

impl ArgsInput {
    /// The model, or `None` when the input's shape cannot be one (reported).
    pub fn from_syn(cx: &Ctxt, input: &DeriveInput) -> Option<ArgsInput> {
        match &input.data {
            Data::Struct(s) => {
                let Fields::Named(named) = &s.fields else {
                    cx.error_spanned_by(&input.ident, "`ToolArgs` needs a struct with named fields\nhelp: the JSON arguments are an object; name each field");
                    return None;
                };
                if !input.generics.params.is_empty() {
                    cx.error_spanned_by(
                        &input.generics,
                        "argument structs cannot be generic\nhelp: use concrete field types",
                    );
                }
                match serde_key(&input.attrs, "rename_all") {
                    Some(Some(rule)) => cx.error_spanned_by(&rule, NOT_RENAMED),
                    Some(None) => cx.error_spanned_by(&input.ident, NOT_RENAMED),
                    None => {}
                }
                let fields = named_fields(cx, named);
                Some(ArgsInput::Struct {
                    ident: input.ident.clone(),
                    doc: doc_text(&input.attrs),
                    fields,
                    rules: parse_args_attrs(cx, &input.attrs),
                })
            }
            Data::Enum(e) => enum_input(cx, input, e),
            Data::Union(_) => {
                cx.error_spanned_by(&input.ident, "`ToolArgs` cannot be derived for a union");
                None
            }
        }
    }
}

/// Why serde's renames of an argument's name are refused: the strict
/// decoder, the schema and every error pointer name an argument by its
/// field, so a rename serde alone would read was silently not the name the
/// model is told or the name the decoder accepts.
const NOT_RENAMED: &str = "serde's renames of an argument are not read: an argument's JSON name is its field's name, in the schema, the decoder and every error\nhelp: name the field as the model sends it (`start_date`; `r#type` for a keyword; `#[allow(non_snake_case)]` on the struct for `startDate`)";

/// The serde attributes of a field the contract does not read, other than
/// the renames (`NOT_RENAMED`), each with what to write instead. The strict
/// decoder, the schema and the validator read an argument by its field's
/// name and type, never through serde, so each of these would silently
/// make serde's reading and the contract's differ.
fn not_honoured(key: &str) -> Option<String> {
    let why = "the contract decodes, publishes and checks each argument by its field's name and type, not through serde";
    let help = match key {
        "rename" | "alias" => return None,
        "default" => "make it optional, `Option<T>` (published as not required), and choose the default in the handler: `count.unwrap_or(10)`",
        "skip" | "skip_deserializing" => "an argument struct holds only what the model sends: remove the field, and compute the value in the handler or take it from `state(..)`",
        "flatten" => "write the fields in this struct, or remove `flatten` and take them as a nested object (a `#[derive(ToolArgs)]` struct is published in place)",
        _ => "remove it; constrain the value with `#[arg(..)]` instead",
    };
    Some(format!(
        "`#[serde({key})]` on an argument is not read: {why}\nhelp: {help}"
    ))
}

/// The key of every `#[serde(..)]` entry on a field (`default`, `flatten`),
/// spanned on where it is written.
fn serde_field_keys(attrs: &[syn::Attribute]) -> Vec<Ident> {
    let mut keys = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = a.parse_nested_meta(|m| {
            if let Some(id) = m.path.get_ident() {
                keys.push(id.clone());
            }
            if m.input.peek(syn::Token![=]) {
                m.value()?.parse::<syn::Expr>()?;
            } else if m.input.peek(syn::token::Paren) {
                let _ = m.parse_nested_meta(|n| {
                    if n.input.peek(syn::Token![=]) {
                        n.value()?.parse::<syn::Expr>()?;
                    }
                    Ok(())
                });
            }
            Ok(())
        });
    }
    keys
}

/// The model of each named field (of a struct or a struct variant).
fn named_fields(cx: &Ctxt, named: &syn::FieldsNamed) -> Vec<Field> {
    named
        .named
        .iter()
        .inspect(|f| {
            for key in ["rename", "alias"] {
                if let Some(found) = serde_key(&f.attrs, key) {
                    match found {
                        Some(lit) => cx.error_spanned_by(&lit, NOT_RENAMED),
                        None => cx.error_spanned_by(&f.ident, NOT_RENAMED),
                    }
                }
            }
            for key in serde_field_keys(&f.attrs) {
                if let Some(message) = not_honoured(&key.to_string()) {
                    cx.error_spanned_by(&key, message);
                }
            }
        })
        .filter_map(|f| {
            f.ident
                .clone()
                .map(|id| Field::new(cx, id, f.ty.clone(), &f.attrs))
        })
        .collect()
}

/// An enum: a closed set of strings when every variant is a unit and it has
/// no tag, else a tagged enum. Shapes serde writes that the model could not
/// tell apart or that the library does not read (externally tagged with
/// data, untagged, tuple variants) are one error at the type.
fn enum_input(cx: &Ctxt, input: &DeriveInput, e: &syn::DataEnum) -> Option<ArgsInput> {
    let ident = &input.ident;
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            "argument enums cannot be generic\nhelp: use concrete field types",
        );
        return None;
    }
    let tag = serde_str(&input.attrs, "tag");
    let content = serde_str(&input.attrs, "content");
    if serde_flag(&input.attrs, "untagged") {
        cx.error_spanned_by(ident, format!("`{ident}` is `#[serde(untagged)]`: a variant is told apart only by trying each, so it cannot be an argument type\nhelp: tag it: `#[serde(tag = \"kind\")]` (internally tagged) or `#[serde(tag = \"t\", content = \"c\")]` (adjacently tagged)"));
        return None;
    }
    if let Some(v) = e
        .variants
        .iter()
        .find(|v| matches!(v.fields, Fields::Unnamed(_)))
    {
        let vi = &v.ident;
        cx.error_spanned_by(ident, format!("variant `{vi}` of `{ident}` has unnamed fields, which an argument enum cannot have\nhelp: name its fields (`{vi} {{ value: T }}`), and tag the enum with `#[serde(tag = \"kind\")]`"));
        return None;
    }
    let Some(tag) = tag else {
        if let Some(c) = content {
            cx.error_spanned_by(
                c,
                "`content` needs `tag`\nhelp: write `#[serde(tag = \"t\", content = \"c\")]`",
            );
            return None;
        }
        if let Some(v) = e
            .variants
            .iter()
            .find(|v| !matches!(v.fields, Fields::Unit))
        {
            let vi = &v.ident;
            cx.error_spanned_by(ident, format!("`{ident}` has variants with data (`{vi}`) but no tag: serde writes it externally tagged (`{{\"{vi}\": {{...}}}}`), which an argument enum cannot be\nhelp: tag it: `#[serde(tag = \"kind\")]` (internally tagged) or `#[serde(tag = \"t\", content = \"c\")]` (adjacently tagged)"));
            return None;
        }
        return Some(ArgsInput::ClosedSet(closed_set(cx, input, e)));
    };
    let rule = serde_str(&input.attrs, "rename_all");
    let variants: Vec<TaggedVariant> = e
        .variants
        .iter()
        .map(|v| TaggedVariant {
            ident: v.ident.clone(),
            name: variant_name(cx, v, rule.as_ref()),
            doc: doc_text(&v.attrs),
            fields: match &v.fields {
                Fields::Named(named) => Some(named_fields(cx, named)),
                _ => None,
            },
        })
        .collect();
    if variants.is_empty() {
        cx.error_spanned_by(ident, "a tagged enum needs at least one variant");
        return None;
    }
    Some(ArgsInput::Tagged(Tagged {
        ident: ident.clone(),
        tag,
        content,
        variants,
    }))
}

/// The string serde reads for a variant: its `rename`, else the enum's
/// `rename_all` applied to its name.
fn variant_name(cx: &Ctxt, v: &syn::Variant, rule: Option<&LitStr>) -> String {
    // An alias serde alone would read: the schema lists one name per value
    // and the decoder accepts that one, so the alias would silently not work.
    if let Some(found) = serde_key(&v.attrs, "alias") {
        let message = "`#[serde(alias)]` on a variant is not read: the schema lists one name for each value, and the decoder accepts that name only\nhelp: remove the alias; a value has one name (`rename` sets it)";
        match found {
            Some(lit) => cx.error_spanned_by(&lit, message),
            None => cx.error_spanned_by(&v.ident, message),
        }
    }
    match serde_str(&v.attrs, "rename") {
        Some(l) => l.value(),
        None => match rule {
            Some(r) => rename(&v.ident.to_string(), &r.value()).unwrap_or_else(|| {
                cx.error_spanned_by(r, "unknown `rename_all` rule");
                v.ident.to_string()
            }),
            None => v.ident.to_string(),
        },
    }
}

fn closed_set(cx: &Ctxt, input: &DeriveInput, e: &syn::DataEnum) -> ClosedSet {
    let rule = serde_str(&input.attrs, "rename_all");
    let mut members = Vec::new();
    for v in &e.variants {
        let name = variant_name(cx, v, rule.as_ref());
        members.push(Member {
            ident: v.ident.clone(),
            name,
        });
    }
    if members.is_empty() && !cx.has_errors() {
        cx.error_spanned_by(&input.ident, "a closed set needs at least one variant");
    }
    ClosedSet {
        ident: input.ident.clone(),
        members,
    }
}

/// The serde `rename_all` rules, so a closed set publishes the strings serde reads.
fn rename(name: &str, rule: &str) -> Option<String> {
    let words: Vec<String> = {
        let mut w = Vec::new();
        let mut cur = String::new();
        for c in name.chars() {
            if c.is_uppercase() && !cur.is_empty() {
                w.push(std::mem::take(&mut cur));
            }
            cur.push(c);
        }
        w.push(cur);
        w
    };
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    Some(match rule {
        "lowercase" => name.to_lowercase(),
        "UPPERCASE" => name.to_uppercase(),
        "PascalCase" => name.to_string(),
        "camelCase" => {
            let mut s = lower[0].clone();
            for w in &words[1..] {
                s.push_str(w);
            }
            s
        }
        "snake_case" => lower.join("_"),
        "SCREAMING_SNAKE_CASE" => lower.join("_").to_uppercase(),
        "kebab-case" => lower.join("-"),
        "SCREAMING-KEBAB-CASE" => lower.join("-").to_uppercase(),
        _ => return None,
    })
}

/// Whether `#[serde(key)]` (a bare flag such as `untagged`) is written.
fn serde_flag(attrs: &[syn::Attribute], key: &str) -> bool {
    matches!(serde_key(attrs, key), Some(None))
}

/// The string of `#[serde(key = "...")]`.
fn serde_str(attrs: &[syn::Attribute], key: &str) -> Option<LitStr> {
    serde_key(attrs, key).flatten()
}

/// `#[serde(key)]`: `None` when not written, `Some(None)` for a bare flag,
/// `Some(Some(s))` for `key = "s"`. Every other key is read past.
fn serde_key(attrs: &[syn::Attribute], key: &str) -> Option<Option<LitStr>> {
    let mut found = None;
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = a.parse_nested_meta(|m| {
            let hit = m.path.is_ident(key);
            if m.input.peek(syn::Token![=]) {
                let v = m.value()?;
                if hit {
                    found = Some(Some(v.parse::<LitStr>()?));
                } else {
                    v.parse::<syn::Expr>()?;
                }
            } else if m.input.peek(syn::token::Paren) {
                if hit {
                    found.get_or_insert(None);
                }
                let _ = m.parse_nested_meta(|n| {
                    if n.input.peek(syn::Token![=]) {
                        n.value()?.parse::<syn::Expr>()?;
                    }
                    Ok(())
                });
            } else if hit {
                found = Some(None);
            }
            Ok(())
        });
    }
    found
}
