//! The model of an argument field: its name, type kind, attributes and
//! description, with the user's tokens kept for spans.

use syn::{Ident, Type};

use crate::attr::{parse_arg_attrs, ArgAttrs};
use crate::ctxt::Ctxt;
use crate::doc::{doc_by_macro, doc_text};
use crate::ty::{classify, Kind};

pub struct Field {
    pub ident: Ident,
    /// The property name in JSON (the identifier without `r#`).
    pub name: String,
    pub ty: Type,
    pub kind: Kind,
    pub attrs: ArgAttrs,
    pub description: Option<String>,
    /// The macro that gives the doc text (`include_str!`), when there is
    /// one and no text the attribute macro can read.
    pub doc_macro: Option<String>,
}

impl Field {
    pub fn new(cx: &Ctxt, ident: Ident, ty: Type, attrs: &[syn::Attribute]) -> Field {
        let arg = parse_arg_attrs(cx, attrs);
        let description = arg
            .description
            .as_ref()
            .map(|d| d.value.value())
            .or_else(|| doc_text(attrs));
        let name = ident.to_string().trim_start_matches("r#").to_string();
        Field {
            kind: classify(&ty),
            ident,
            name,
            ty,
            doc_macro: arg
                .description
                .is_none()
                .then(|| doc_by_macro(attrs))
                .flatten(),
            attrs: arg,
            description,
        }
    }
}
