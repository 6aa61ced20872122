//! The model of a `#[derive(ToolArgs)]` input: an argument struct (its
//! fields) or a closed set (a unit enum, with the strings serde reads).

use syn::{Data, DeriveInput, Fields, Ident, LitStr};

use super::{Field, RuleDecl};
use crate::attr::parse_args_attrs;
use crate::ctxt::Ctxt;
use crate::doc::doc_text;

pub enum ArgsInput {
    Struct {
        ident: Ident,
        doc: Option<String>,
        fields: Vec<Field>,
        /// `#[args(rules(...))]`.
        rules: Vec<RuleDecl>,
    },
    ClosedSet(ClosedSet),
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
                let fields = named
                    .named
                    .iter()
                    .filter_map(|f| {
                        f.ident
                            .clone()
                            .map(|id| Field::new(cx, id, f.ty.clone(), &f.attrs))
                    })
                    .collect();
                Some(ArgsInput::Struct {
                    ident: input.ident.clone(),
                    doc: doc_text(&input.attrs),
                    fields,
                    rules: parse_args_attrs(cx, &input.attrs),
                })
            }
            Data::Enum(e) => Some(ArgsInput::ClosedSet(closed_set(cx, input, e))),
            Data::Union(_) => {
                cx.error_spanned_by(&input.ident, "`ToolArgs` cannot be derived for a union");
                None
            }
        }
    }
}

fn closed_set(cx: &Ctxt, input: &DeriveInput, e: &syn::DataEnum) -> ClosedSet {
    let rule = serde_str(&input.attrs, "rename_all");
    let mut members = Vec::new();
    for v in &e.variants {
        if !matches!(v.fields, Fields::Unit) {
            cx.error_spanned_by(&v.ident, "a closed set is a unit enum\nhelp: remove the variant's fields; for structured arguments derive ToolArgs on a struct");
            continue;
        }
        let name = match serde_str(&v.attrs, "rename") {
            Some(l) => l.value(),
            None => match &rule {
                Some(r) => rename(&v.ident.to_string(), &r.value()).unwrap_or_else(|| {
                    cx.error_spanned_by(r, "unknown `rename_all` rule");
                    v.ident.to_string()
                }),
                None => v.ident.to_string(),
            },
        };
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

fn serde_str(attrs: &[syn::Attribute], key: &str) -> Option<LitStr> {
    let mut found = None;
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = a.parse_nested_meta(|m| {
            if m.path.is_ident(key) {
                found = Some(m.value()?.parse::<LitStr>()?);
            } else if m.input.peek(syn::Token![=]) {
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
    found
}
