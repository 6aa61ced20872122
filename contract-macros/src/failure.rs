//! `#[derive(ToolFailure)]`: every variant of a failure enum states its code,
//! and may state the field at fault, a repair, and what it says about retries.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields, Path};

use crate::attr::parse_failure_attrs;
use crate::ctxt::Ctxt;
use crate::doc::doc_text;

pub fn derive(input: DeriveInput) -> TokenStream {
    let krate: Path = syn::parse_quote!(::contract_runtime);
    let p = quote!(#krate::__private);
    let cx = Ctxt::new();
    let ident = &input.ident;
    let Data::Enum(e) = &input.data else {
        cx.error_spanned_by(ident, "`ToolFailure` is derived on an enum, one variant per failure\nhelp: write `enum MyError { #[failure(code = \"...\")] Variant, ... }`");
        return cx.into_compile_errors();
    };
    let mut arms = Vec::new();
    for v in &e.variants {
        let a = parse_failure_attrs(&cx, &v.attrs);
        let vi = &v.ident;
        let Some(code) = &a.code else {
            cx.error_spanned_by(vi, format!("failure `{vi}` has no code\nhelp: add `#[failure(code = \"kebab-case-code\")]`"));
            continue;
        };
        let code_s = code.value.value();
        let kebab = !code_s.is_empty()
            && code_s
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && !code_s.starts_with('-')
            && !code_s.ends_with('-');
        if !kebab {
            cx.error_spanned_by(&code.value, format!("failure code `{code_s}` is not kebab-case\nhelp: use lowercase words joined by `-`, like `no-match`"));
        }
        let kinds = [
            a.transient.is_some(),
            a.unknown.is_some(),
            a.denied.is_some(),
        ];
        if kinds.iter().filter(|k| **k).count() > 1 {
            cx.error_at(code.span, "a failure is at most one of `transient` (no effect, try again), `unknown` (maybe an effect) and `denied` (refused before acting)\nhelp: keep the one that is true");
        }
        if let (Some(u), Some(rs)) = (&a.unknown, &a.retry_safe) {
            if rs.value {
                cx.error_at(u.span, "an `unknown` outcome is never `retry_safe`: the effect may have happened\nhelp: remove `retry_safe`");
            }
        }
        // The message: `message = ".."` (may name fields, like format!), else the doc comment, else the code.
        let message = match &a.message {
            Some(m) => {
                let lit = &m.value;
                quote!(::std::format!(#lit))
            }
            None => {
                let text = doc_text(&v.attrs).unwrap_or_else(|| code_s.replace('-', " "));
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
                quote!(::core::option::Option::Some(#p::Cow::Borrowed(#ptr)))
            }
            None => quote!(::core::option::Option::None),
        };
        let hint = match &a.repair {
            Some(r) => {
                let lit = &r.value;
                quote!(::core::option::Option::Some(#p::Cow::Borrowed(#lit)))
            }
            None => quote!(::core::option::Option::None),
        };
        let retry_safe = match (&a.retry_safe, &a.transient) {
            (Some(r), _) => {
                let v = r.value;
                quote!(::core::option::Option::Some(#v))
            }
            (None, Some(_)) => quote!(::core::option::Option::Some(true)),
            (None, None) => quote!(::core::option::Option::None),
        };
        let retry_after = match &a.retry_after_ms {
            Some(r) => {
                let v = r.value;
                quote!(::core::option::Option::Some(#v))
            }
            None => quote!(::core::option::Option::None),
        };
        let kind = if a.transient.is_some() {
            quote!(#p::FailureKind::Transient)
        } else if a.unknown.is_some() {
            quote!(#p::FailureKind::Unknown)
        } else if a.denied.is_some() {
            quote!(#p::FailureKind::Denied)
        } else {
            quote!(#p::FailureKind::Domain)
        };
        let (pattern, call) = match &v.fields {
            Fields::Named(named) => {
                let idents: Vec<_> = named.named.iter().filter_map(|f| f.ident.clone()).collect();
                let repair_field = named
                    .named
                    .iter()
                    .find(|f| f.attrs.iter().any(|a| a.path().is_ident("repair")))
                    .and_then(|f| f.ident.clone());
                let call = match repair_field {
                    Some(rf) => {
                        quote!(::core::convert::Into::<::core::option::Option<#p::RepairCall>>::into(::core::clone::Clone::clone(#rf)))
                    }
                    None => quote!(::core::option::Option::None),
                };
                (quote!(#ident::#vi { #(#idents),* }), call)
            }
            Fields::Unnamed(_) => (
                quote!(#ident::#vi(..)),
                quote!(::core::option::Option::None),
            ),
            Fields::Unit => (quote!(#ident::#vi), quote!(::core::option::Option::None)),
        };
        arms.push(quote! {
            #[allow(unused_variables)]
            #pattern => #p::Failure {
                code: #p::Cow::Borrowed(#code_s),
                message: #message,
                field: #field,
                hint: #hint,
                call: #call,
                retry_safe: #retry_safe,
                retry_after_ms: #retry_after,
                kind: #kind,
            },
        });
    }
    if cx.has_errors() {
        let errors = cx.into_compile_errors();
        return quote! {
            #errors
            const _: () = {
                impl #krate::ToolFailure for #ident {
                    fn failure(&self) -> #p::Failure { ::core::unreachable!() }
                }
            };
        };
    }
    drop(cx);
    let body = if arms.is_empty() {
        quote!(match *self {})
    } else {
        quote!(match self { #(#arms)* })
    };
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #krate::ToolFailure for #ident {
                fn failure(&self) -> #p::Failure {
                    #body
                }
            }
        };
    }
}
