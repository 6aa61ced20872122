//! Each macro's pipeline, parse → model → check → expand, and the expansion
//! of each model. On errors, the fallback still emits the user's item and a
//! stub of each impl, so one mistake does not cascade into "trait not
//! implemented" errors wherever the item is used.

mod args;
mod examples;
mod failure;
mod fallback;
mod tool;

use proc_macro2::TokenStream;
use syn::{DeriveInput, ItemFn, Path};

use crate::check;
use crate::ctxt::Ctxt;
use crate::model::{ArgsInput, FailureEnum, Tool};

/// `#[tool_contract(args)] item`.
pub fn tool_contract(args: TokenStream, item: ItemFn) -> TokenStream {
    let cx = Ctxt::new();
    let tool = Tool::from_syn(&cx, args, item);
    check::tool(&cx, &tool);
    // With several effects, the strictest decides the runtime's treatment.
    match (cx.check(), tool.effects().first().copied(), &tool.output) {
        (Ok(()), Some(effect), Some(output)) => tool::expand(&tool, effect, output),
        // The rules report a missing effect and the model a missing output,
        // so `Ok` comes with both.
        (errors, ..) => fallback::tool(&tool, errors.err()),
    }
}

/// `#[derive(ToolArgs)]`.
pub fn tool_args(input: &DeriveInput) -> TokenStream {
    let krate = runtime();
    let cx = Ctxt::new();
    let model = ArgsInput::from_syn(&cx, input);
    check::args(&cx, model.as_ref());
    match (cx.check(), model) {
        (Ok(()), Some(model)) => args::expand(&krate, &model),
        (errors, _) => fallback::tool_args(&krate, &input.ident, errors.err()),
    }
}

/// `#[derive(ToolFailure)]`.
pub fn tool_failure(input: &DeriveInput) -> TokenStream {
    let krate = runtime();
    let cx = Ctxt::new();
    let model = FailureEnum::from_syn(&cx, input);
    check::failure(&cx, model.as_ref());
    match (cx.check(), model) {
        (Ok(()), Some(model)) => failure::expand(&krate, &model),
        // Not an enum (a struct, a union): its error, and a stub impl so that
        // the tools returning it do not add "not a typed tool failure" errors
        // (a generic type cannot be stubbed without its bounds: error only).
        (Err(errors), None) if input.generics.params.is_empty() => {
            fallback::tool_failure(&krate, &input.ident, Some(errors))
        }
        (Err(errors), None) => errors.into_compile_error(),
        (errors, _) => fallback::tool_failure(&krate, &input.ident, errors.err()),
    }
}

/// The runtime crate as the derives name it.
fn runtime() -> Path {
    syn::parse_quote!(::contract_runtime)
}
