//! What a macro emits when its item has errors (after thiserror's
//! `fallback.rs`): the errors, the user's item, and stub impls whose bodies
//! are never run, so the item can still be named and used without a second
//! wave of errors.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Ident, Path};

use super::tool::marker;
use crate::check;
use crate::model::Tool;

fn errors(e: Option<syn::Error>) -> TokenStream {
    e.map(syn::Error::into_compile_error).unwrap_or_default()
}

/// The function, its marker type and a `contract()` that is never called. The
/// name rule (C9) is still evaluated, so a bad name is reported in the same
/// compile as the other mistakes.
pub fn tool(tool: &Tool, e: Option<syn::Error>) -> TokenStream {
    let errors = errors(e);
    let (item, ident, vis, krate) = (&tool.item, &tool.ident, &tool.vis, &tool.krate);
    let marker = marker(tool);
    let name = check::c9_name(tool);
    quote! {
        #errors
        #item
        #marker
        #name
        impl #ident {
            /// The tool (its contract has errors).
            #vis fn contract() -> #krate::Tool { ::core::unreachable!() }
        }
    }
}

/// A stub `ArgValue` and `ToolArgs`.
pub fn tool_args(krate: &Path, ident: &Ident, e: Option<syn::Error>) -> TokenStream {
    let errors = errors(e);
    let p = quote!(#krate::__private);
    quote! {
        #errors
        const _: () = {
            #[automatically_derived]
            impl #p::ArgSealed for #ident {}
            #[automatically_derived]
            impl #p::ArgValue for #ident {
                fn schema(_: &'static #p::Constraints) -> #p::Map<::std::string::String, #p::Value> { ::core::unreachable!() }
                fn decode_value(_: &#p::Value, _: &'static #p::Constraints, _: &#p::Ptr<'_>, _: &mut #p::Violations) -> ::core::option::Option<Self> { ::core::unreachable!() }
                fn fast<'de, D: #p::serde::Deserializer<'de>>(_: D) -> ::core::result::Result<Self, D::Error> { ::core::unreachable!() }
                fn check(&self, _: &'static #p::Constraints, _: &#p::Ptr<'_>, _: &mut #p::Violations) {}
                fn same(&self, _: &Self) -> bool { ::core::unreachable!() }
            }
            impl #krate::ToolArgs for #ident {}
        };
    }
}

/// A stub `ToolFailure`.
pub fn tool_failure(krate: &Path, ident: &Ident, e: Option<syn::Error>) -> TokenStream {
    let errors = errors(e);
    quote! {
        #errors
        const _: () = {
            impl #krate::ToolFailure for #ident {
                fn failure(&self) -> #krate::__private::Failure { ::core::unreachable!() }
            }
        };
    }
}
