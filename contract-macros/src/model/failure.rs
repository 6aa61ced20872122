//! The model of a `#[derive(ToolFailure)]` enum: each variant's
//! `#[failure(...)]`, doc comment and shape.

use syn::{Data, DeriveInput, Fields, Ident};

use crate::attr::{parse_failure_attrs, FailureAttrs};
use crate::ctxt::Ctxt;
use crate::doc::doc_text;
use crate::vocab::FailureKind;

pub struct FailureEnum {
    pub ident: Ident,
    pub variants: Vec<FailureVariant>,
}

pub struct FailureVariant {
    pub ident: Ident,
    pub attrs: FailureAttrs,
    pub doc: Option<String>,
    pub shape: VariantShape,
}

/// What the variant holds, as far as the expansion needs to match it.
pub enum VariantShape {
    Unit,
    Tuple,
    /// Named fields, and the one marked `#[repair]` (a repair call), if any.
    Named {
        fields: Vec<Ident>,
        repair: Option<Ident>,
    },
}

impl FailureEnum {
    /// The model, or `None` when the input is not an enum (reported).
    pub fn from_syn(cx: &Ctxt, input: &DeriveInput) -> Option<FailureEnum> {
        let Data::Enum(e) = &input.data else {
            cx.error_spanned_by(&input.ident, "`ToolFailure` is derived on an enum, one variant per failure\nhelp: write `enum MyError { #[failure(code = \"...\")] Variant, ... }`");
            return None;
        };
        let variants = e
            .variants
            .iter()
            .map(|v| FailureVariant {
                ident: v.ident.clone(),
                attrs: parse_failure_attrs(cx, &v.attrs),
                doc: doc_text(&v.attrs),
                shape: match &v.fields {
                    Fields::Unit => VariantShape::Unit,
                    Fields::Unnamed(_) => VariantShape::Tuple,
                    Fields::Named(named) => VariantShape::Named {
                        fields: named.named.iter().filter_map(|f| f.ident.clone()).collect(),
                        repair: named
                            .named
                            .iter()
                            .find(|f| f.attrs.iter().any(|a| a.path().is_ident("repair")))
                            .and_then(|f| f.ident.clone()),
                    },
                },
            })
            .collect();
        Some(FailureEnum {
            ident: input.ident.clone(),
            variants,
        })
    }
}

impl FailureVariant {
    /// The kind its flags declare (rule F3 reports more than one; the first wins).
    pub fn kind(&self) -> FailureKind {
        let a = &self.attrs;
        if a.transient.is_some() {
            FailureKind::Transient
        } else if a.unknown.is_some() {
            FailureKind::Unknown
        } else if a.denied.is_some() {
            FailureKind::Denied
        } else {
            FailureKind::Domain
        }
    }
}
