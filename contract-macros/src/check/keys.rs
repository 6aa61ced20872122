//! Rule C11, the one rule the parser runs: a key is known or not, and written
//! once or not, when it is read (`attr.rs` calls these), so a misspelled key is
//! reported where it stands and is not also reported missing by the rules
//! that require it.

use proc_macro2::Span;
use quote::ToTokens;

use crate::ctxt::{unknown_key_message, Ctxt};

// C11: every attribute key is one the macro knows, written once: a key
// written twice is an error at the second.
pub fn c11_duplicate_key(cx: &Ctxt, key: &str, span: Span) {
    cx.error_at(
        span,
        format!("duplicate key `{key}`\nhelp: write `{key}` once"),
    );
}

// C11: an unknown key gets a did-you-mean, or the list of accepted keys.
pub fn c11_unknown_key<T: ToTokens>(cx: &Ctxt, tokens: T, what: &str, key: &str, known: &[&str]) {
    cx.error_spanned_by(tokens, unknown_key_message(what, key, known));
}
