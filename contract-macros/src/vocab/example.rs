//! The model of `examples(...)`: each example an object of values as
//! written, with the user's tokens kept for spans. The values are JSON's
//! (strings, numbers, `true`/`false`, `None`, lists, objects), the keys of
//! an object Rust identifiers (an argument's name, `r#type` for a keyword).

use proc_macro2::Span;
use syn::{Ident, LitBool, LitFloat, LitInt, LitStr};

/// One example: the arguments of a call, as an object.
#[derive(Clone)]
pub struct ExObject {
    pub entries: Vec<(ExKey, ExValue)>,
    /// The braces.
    pub span: Span,
}

/// One value of an example.
#[derive(Clone)]
pub enum ExValue {
    Str(LitStr),
    /// An integer, `negative` when written with a leading `-`.
    Int {
        lit: LitInt,
        negative: bool,
    },
    /// A number with a fraction or an exponent.
    Float {
        lit: LitFloat,
        negative: bool,
    },
    Bool(LitBool),
    /// `None` (or `null`).
    Null(Span),
    List {
        items: Vec<ExValue>,
        span: Span,
    },
    Object(ExObject),
}

impl ExValue {
    pub fn span(&self) -> Span {
        match self {
            ExValue::Str(l) => l.span(),
            ExValue::Int { lit, .. } => lit.span(),
            ExValue::Float { lit, .. } => lit.span(),
            ExValue::Bool(l) => l.span,
            ExValue::Null(s) => *s,
            ExValue::List { span, .. } => *span,
            ExValue::Object(o) => o.span,
        }
    }
}

/// A key of an object: an argument's name as the code writes it, or (inside
/// a nested object, which may be a map) a string.
#[derive(Clone)]
pub enum ExKey {
    Ident(Ident),
    Str(LitStr),
}

impl ExKey {
    /// The JSON property name (an identifier without `r#`).
    pub fn name(&self) -> String {
        match self {
            ExKey::Ident(i) => i.to_string().trim_start_matches("r#").to_owned(),
            ExKey::Str(s) => s.value(),
        }
    }

    /// The key as a field of the argument struct. The top level of an
    /// example has identifiers only (the grammar refuses strings there).
    pub fn ident(&self) -> Ident {
        match self {
            ExKey::Ident(i) => i.clone(),
            ExKey::Str(s) => Ident::new("__string_key", s.span()),
        }
    }

    pub fn span(&self) -> Span {
        match self {
            ExKey::Ident(i) => i.span(),
            ExKey::Str(s) => s.span(),
        }
    }
}
