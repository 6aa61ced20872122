//! The expansion of `#[derive(ToolFailure)]`: one match arm per variant,
//! building the runtime's `Failure` from what the variant declares.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Path;

use crate::model::{FailureEnum, FailureVariant, VariantShape};
use crate::vocab::FailureKind;

/// The `ToolFailure` impl of a checked enum.
pub fn expand(krate: &Path, failure: &FailureEnum) -> TokenStream {
    let ident = &failure.ident;
    let arms = failure.variants.iter().map(|v| arm(krate, ident, v));
    // The runtime's list of its own codes decides, at compile time, which
    // codes a tool may not claim; the check is spanned to the code's text.
    let own_codes = failure.variants.iter().filter_map(|v| {
        let lit = &v.attrs.code.as_ref()?.value;
        // Every token of the call carries the literal's span: rustc points
        // a failed constant at its call, path and all.
        let check = respan(quote!(#krate::__private::a_tool_code(#lit)), lit.span());
        Some(quote::quote_spanned! {lit.span()=> const _: () = #check; })
    });
    let body = if failure.variants.is_empty() {
        quote!(match *self {})
    } else {
        quote!(match self { #(#arms)* })
    };
    quote! {
        const _: () = {
            #(#own_codes)*
            #[automatically_derived]
            impl #krate::ToolFailure for #ident {
                fn failure(&self) -> #krate::__private::Failure {
                    #body
                }
            }
        };
    }
}

/// `Variant { .. } => Failure { .. }`.
fn arm(krate: &Path, ident: &syn::Ident, v: &FailureVariant) -> TokenStream {
    let p = quote!(#krate::__private);
    let a = &v.attrs;
    let vi = &v.ident;
    let code = a.code.as_ref().map(|c| c.value.value()).unwrap_or_default();
    let some = |t: TokenStream| quote!(::core::option::Option::Some(#t));
    let none = quote!(::core::option::Option::None);
    // `message = ".."` (may name fields, like format!), else the doc comment, else the code.
    let message = match &a.message {
        Some(m) => {
            let lit = &m.value;
            quote!(::std::format!(#lit))
        }
        None => {
            let text = v.doc.clone().unwrap_or_else(|| code.replace('-', " "));
            quote!(::std::string::String::from(#text))
        }
    };
    let field = match &a.field {
        Some(f) => {
            let s = f.value.value();
            let ptr = if s.starts_with('/') {
                s
            } else {
                format!("/{s}")
            };
            some(quote!(#p::Cow::Borrowed(#ptr)))
        }
        None => none.clone(),
    };
    let hint = match &a.repair {
        Some(r) => {
            let lit = &r.value;
            some(quote!(#p::Cow::Borrowed(#lit)))
        }
        None => none.clone(),
    };
    let kind = v.kind();
    let retry_safe = match (&a.retry_safe, kind) {
        (Some(r), _) => {
            let v = r.value;
            some(quote!(#v))
        }
        (None, FailureKind::Transient) => some(quote!(true)),
        (None, _) => none.clone(),
    };
    let retry_after = match &a.retry_after_ms {
        Some(r) => {
            let v = r.value;
            some(quote!(#v))
        }
        None => none.clone(),
    };
    let kind = format_ident!("{}", kind.variant());
    let (pattern, call) = match &v.shape {
        VariantShape::Named { fields, repair } => {
            let call = match repair {
                Some(rf) => {
                    quote!(::core::convert::Into::<::core::option::Option<#p::RepairCall>>::into(::core::clone::Clone::clone(#rf)))
                }
                None => none.clone(),
            };
            (quote!(#ident::#vi { #(#fields),* }), call)
        }
        VariantShape::Tuple => (quote!(#ident::#vi(..)), none.clone()),
        VariantShape::Unit => (quote!(#ident::#vi), none.clone()),
    };
    quote! {
        #[allow(unused_variables)]
        #pattern => #p::Failure {
            code: #p::Cow::Borrowed(#code),
            message: #message,
            field: #field,
            hint: #hint,
            call: #call,
            retry_safe: #retry_safe,
            retry_after_ms: #retry_after,
            kind: #p::FailureKind::#kind,
        },
    }
}

/// `tokens` with every span, inside groups too, set to `span`.
fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    tokens
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => {
                let mut new = Group::new(g.delimiter(), respan(g.stream(), span));
                new.set_span(span);
                TokenTree::Group(new)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}
