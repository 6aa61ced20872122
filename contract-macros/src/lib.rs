//! The macros of contract-runtime: `#[tool_contract]`, `#[derive(ToolArgs)]`
//! and `#[derive(ToolFailure)]`. Use them through `contract_runtime`, which
//! re-exports them along with the runtime their expansions call.
//!
//! This file only parses and dispatches. Each macro is one pipeline
//! (`expand/mod.rs`): the attribute grammar (`attr.rs`) reads the item, in
//! the words of `vocab/`, into a model (`model/`), the rules (`check/`, one
//! function per rule) run over the model into one error accumulator
//! (`ctxt.rs`), and the expansion (`expand/`) reads the model, or emits a
//! fallback when a rule failed. Each module uses only those before it in
//! that order (`tests/module_graph.rs`).

mod attr;
mod check;
mod ctxt;
mod doc;
mod expand;
mod model;
mod pattern;
mod ty;
mod vocab;

use proc_macro::TokenStream;

/// Declares a tool: its effect, idempotency, authority, approval, retry and
/// timeout. See the attribute reference in `docs/attributes.md`.
#[proc_macro_attribute]
pub fn tool_contract(args: TokenStream, item: TokenStream) -> TokenStream {
    match syn::parse::<syn::ItemFn>(item) {
        Ok(f) => expand::tool_contract(args.into(), f).into(),
        Err(e) => e.into_compile_error().into(),
    }
}

/// Derives the argument contract of a struct (schema, decoder, checks) or of a
/// unit enum (a closed set of strings).
#[proc_macro_derive(ToolArgs, attributes(arg, args, serde))]
pub fn derive_tool_args(input: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(input) {
        Ok(d) => expand::tool_args(&d).into(),
        Err(e) => e.into_compile_error().into(),
    }
}

/// Derives the failure contract of an enum: a code per variant, and where they
/// apply the field at fault, a repair and what it says about retries.
#[proc_macro_derive(ToolFailure, attributes(failure, repair))]
pub fn derive_tool_failure(input: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(input) {
        Ok(d) => expand::tool_failure(&d).into(),
        Err(e) => e.into_compile_error().into(),
    }
}
