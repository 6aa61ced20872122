//! `#[tool_contract(...)]`: a function becomes a tool with a contract.
//! Parse → check (rules C1-C13) → expand; on errors, the function is still
//! emitted with a stub contract so the user sees only the real mistakes.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, GenericArgument, ItemFn, Pat, PathArguments, ReturnType, Type};

use crate::args::{check_field, expand_struct};
use crate::attr::{parse_tool_attrs, ApprovalAttr, IdempotencyAttr};
use crate::check;
use crate::ctxt::Ctxt;
use crate::doc::doc_text;
use crate::model::Field;

/// How the function takes its arguments.
enum ArgsForm {
    /// One parameter whose type derives ToolArgs.
    Struct(Type),
    /// Parameters with doc comments and `#[arg(...)]`: the macro writes the struct.
    Inline(Vec<Field>),
}

pub fn expand(args: TokenStream, mut item: ItemFn) -> TokenStream {
    let cx = Ctxt::new();
    let attrs = parse_tool_attrs(&cx, args);
    let fn_ident = item.sig.ident.clone();
    let item_span = fn_ident.span();
    let krate: syn::Path = attrs
        .krate
        .as_ref()
        .map(|k| k.value.clone())
        .unwrap_or_else(|| syn::parse_quote!(::contract_runtime));
    let p = quote!(#krate::__private);

    let description = attrs
        .description
        .as_ref()
        .map(|d| d.value.value())
        .or_else(|| doc_text(&item.attrs));
    let (name, name_span) = match &attrs.name {
        Some(n) => (n.value.value(), n.value.span()),
        None => (fn_ident.to_string(), item_span),
    };

    // Parameters: an optional `&CallContext`, then the arguments.
    let mut call_args = Vec::new();
    let mut arg_params = Vec::new();
    for input in item.sig.inputs.iter_mut() {
        match input {
            FnArg::Receiver(r) => cx.error_spanned_by(
                &*r,
                "a tool is a free function, not a method\nhelp: move it out of the impl block",
            ),
            FnArg::Typed(pt) => {
                if is_call_context(&pt.ty) {
                    call_args.push(quote!(&__ctx));
                } else {
                    arg_params.push(pt.clone());
                    call_args.push(TokenStream::new()); // filled below
                }
                // Doc comments and #[arg] on parameters are ours to consume.
                pt.attrs
                    .retain(|a| !a.path().is_ident("arg") && !a.path().is_ident("doc"));
            }
        }
    }
    let struct_form = arg_params.len() == 1
        && !arg_params[0]
            .attrs
            .iter()
            .any(|a| a.path().is_ident("arg") || a.path().is_ident("doc"));
    let form = if struct_form {
        ArgsForm::Struct((*arg_params[0].ty).clone())
    } else {
        let mut fields = Vec::new();
        for pt in &arg_params {
            match &*pt.pat {
                Pat::Ident(pi) => fields.push(Field::new(
                    &cx,
                    pi.ident.clone(),
                    (*pt.ty).clone(),
                    &pt.attrs,
                )),
                other => cx.error_spanned_by(
                    other,
                    "a tool argument must be a plain name\nhelp: write `name: Type`",
                ),
            }
        }
        ArgsForm::Inline(fields)
    };
    let args_struct_ident = format_ident!(
        "{}Args",
        camel(&fn_ident.to_string()),
        span = fn_ident.span()
    );
    {
        let mut it = arg_params.iter();
        for slot in call_args.iter_mut().filter(|t| t.is_empty()) {
            let pt = it.next();
            *slot = match (&form, pt.map(|p| &*p.pat)) {
                (ArgsForm::Struct(_), _) => quote!(__args),
                (ArgsForm::Inline(_), Some(Pat::Ident(pi))) => {
                    let id = &pi.ident;
                    quote!(#id)
                }
                _ => quote!(::core::unreachable!()),
            };
        }
    }

    // The rules.
    check::c1_tool_description(&cx, &description, &fn_ident);
    let effect = check::c2_effect_declared(&cx, &attrs, &fn_ident);
    if let Some(effect) = &effect {
        check::c3_destructive_needs_approval(&cx, effect, &attrs);
        check::c4_external_explicit_approval(&cx, effect, &attrs);
        check::c5_write_declares_idempotency(&cx, effect, &attrs);
        check::c6_retry_needs_idempotency(&cx, effect, &attrs);
    }
    check::c9_name(&cx, &name, name_span);
    if let ArgsForm::Inline(fields) = &form {
        check::c7_key_names_string_arg(&cx, &attrs, Some(fields));
        for f in fields {
            check_field(
                &cx,
                f,
                description.as_deref().filter(|d| mentions(d, &f.name)),
            );
        }
    }
    let output_ty = match &item.sig.output {
        ReturnType::Type(_, ty) => {
            if let Some(err) = failure_type(ty) {
                check::c8_failure_type(&cx, err);
            }
            Some((**ty).clone())
        }
        ReturnType::Default => {
            cx.error_spanned_by(&item.sig, "a tool returns `Result<T, E>` (or `Batch<T, E>`)\nhelp: add a return type whose error is a `#[derive(ToolFailure)]` enum");
            None
        }
    };

    let vis = &item.vis;
    let marker_doc = format!("The contract of the tool [`{fn_ident}`](fn@{fn_ident}): pass `{fn_ident}::contract()` to a registry.");
    let marker = quote! {
        #[doc = #marker_doc]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #fn_ident {}
    };

    if cx.has_errors() {
        let errors = cx.into_compile_errors();
        return quote! {
            #errors
            #item
            #marker
            impl #fn_ident {
                /// The tool (its contract has errors).
                #vis fn contract() -> #krate::Tool { ::core::unreachable!() }
            }
        };
    }
    drop(cx);
    let (Some(effect), Some(output_ty)) = (effect, output_ty) else {
        return TokenStream::new();
    };

    let (args_ty, args_def, destructure) = match &form {
        ArgsForm::Struct(ty) => (quote!(#ty), TokenStream::new(), TokenStream::new()),
        ArgsForm::Inline(fields) => {
            let idents: Vec<_> = fields.iter().map(|f| &f.ident).collect();
            let tys: Vec<_> = fields.iter().map(|f| &f.ty).collect();
            let docs: Vec<String> = fields
                .iter()
                .map(|f| f.description.clone().unwrap_or_default())
                .collect();
            let struct_doc = format!(
                "The arguments of [`{fn_ident}`](fn@{fn_ident}), generated from its parameters."
            );
            let derived = expand_struct(&krate, &args_struct_ident, None, fields);
            (
                quote!(#args_struct_ident),
                quote! {
                    #[doc = #struct_doc]
                    #vis struct #args_struct_ident {
                        #(#[doc = #docs] pub #idents: #tys,)*
                    }
                    #derived
                },
                quote!(let #args_struct_ident { #(#idents),* } = __args;),
            )
        }
    };

    let effect_variant = format_ident!("{}", camel(&effect));
    let idempotency = match attrs.idempotency.as_ref().map(|i| &i.value) {
        None | Some(IdempotencyAttr::Natural) if effect == "read_only" => {
            quote!(#p::Idempotency::Natural)
        }
        Some(IdempotencyAttr::Natural) => quote!(#p::Idempotency::Natural),
        Some(IdempotencyAttr::Key(k)) => {
            let s = k.to_string().trim_start_matches("r#").to_string();
            quote!(#p::Idempotency::Key(#s))
        }
        _ => quote!(#p::Idempotency::None),
    };
    let approval = match attrs.approval.as_ref().map(|a| &a.value) {
        Some(ApprovalAttr::Always) => quote!(#p::ApprovalRule::Always),
        Some(ApprovalAttr::When(path)) => {
            let s = path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default();
            quote!(#p::ApprovalRule::When(#s))
        }
        _ => quote!(#p::ApprovalRule::Never),
    };
    let scopes: Vec<_> = attrs
        .authority
        .as_ref()
        .map(|a| a.value.clone())
        .unwrap_or_default();
    let retry = match &attrs.retry {
        Some(r) => {
            let (a, b) = (r.value.attempts, r.value.backoff_ms);
            quote!(#p::RetryPolicy { attempts: #a, backoff_ms: #b })
        }
        None => quote!(#p::RetryPolicy::NONE),
    };
    let timeout = match &attrs.timeout_ms {
        Some(t) => {
            let v = t.value;
            quote!(::core::option::Option::Some(#v))
        }
        None => quote!(::core::option::Option::None),
    };
    let description = description.unwrap_or_default();

    let approval_fn = match attrs.approval.as_ref().map(|a| &a.value) {
        Some(ApprovalAttr::When(path)) => quote_spanned! {path.span()=>
            fn approval_reason(ctx: &#p::CallContext, args: &Self::Args) -> ::core::option::Option<::std::string::String> {
                #path(ctx, args)
            }
        },
        _ => TokenStream::new(),
    };
    let key_fn = match attrs.idempotency.as_ref().map(|i| &i.value) {
        // C7 for an argument struct, whose field types the macro cannot see:
        // rustc checks the field, with a message that names the user's `key(...)`.
        Some(IdempotencyAttr::Key(k)) => {
            let message =
                format!("`key({k})` must name a string argument, but `{k}` is `{{Self}}`");
            let note = format!("make `{k}` a `String`; a request key is usually `#[arg(format = \"uuid\")] {k}: String`");
            quote_spanned! {k.span()=>
                fn idempotency_key(args: &Self::Args) -> ::core::option::Option<&str> {
                    #[diagnostic::on_unimplemented(message = #message, label = "not a string", note = #note)]
                    trait KeyField {
                        fn key_text(&self) -> &str;
                    }
                    impl KeyField for ::std::string::String {
                        fn key_text(&self) -> &str {
                            self
                        }
                    }
                    ::core::option::Option::Some(KeyField::key_text(&args.#k))
                }
            }
        }
        _ => TokenStream::new(),
    };
    let invoke = quote!(#fn_ident(#(#call_args),*));
    let body = if item.sig.asyncness.is_some() {
        quote!(::std::boxed::Box::pin(async move { #destructure #invoke.await }))
    } else {
        // A sync handler runs on the blocking pool: inline, it would hold the
        // executor thread other calls run on (and no timeout could fire).
        quote!(::std::boxed::Box::pin(async move { #p::run_blocking(move || { #destructure #invoke }).await }))
    };
    let failure_assert = failure_type(&output_ty).map(|e| {
        quote_spanned! {e.span()=> const _: () = #p::assert_failure::<#e>(); }
    });
    let output_assert =
        quote_spanned! {output_ty.span()=> const _: () = #p::assert_output::<#output_ty>(); };
    let args_assert =
        quote_spanned! {args_ty.span()=> const _: () = #p::assert_args::<#args_ty>(); };

    quote! {
        #item
        #marker
        #args_def

        impl #fn_ident {
            /// The tool, ready for a registry.
            #vis fn contract() -> #krate::Tool {
                #krate::Tool::of::<#fn_ident>()
            }
        }

        const _: () = {
            #failure_assert
            #output_assert
            #args_assert

            #[automatically_derived]
            impl #krate::ToolContract for #fn_ident {
                type Args = #args_ty;
                type Output = #output_ty;
                const SPEC: #p::ToolSpec = #p::ToolSpec {
                    name: #name,
                    description: #description,
                    effect: #p::Effect::#effect_variant,
                    idempotency: #idempotency,
                    authority: &[#(#scopes),*],
                    approval: #approval,
                    retry: #retry,
                    timeout_ms: #timeout,
                };
                #approval_fn
                #key_fn
                #[allow(unused_variables)]
                fn call(__ctx: #p::CallContext, __args: Self::Args) -> #p::BoxFuture<Self::Output> {
                    #body
                }
            }
        };
    }
}

fn is_call_context(ty: &Type) -> bool {
    match ty {
        Type::Reference(r) => {
            matches!(&*r.elem, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "CallContext"))
        }
        _ => false,
    }
}

/// `E` of `Result<T, E>` or `Batch<T, E>`.
fn failure_type(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let seg = p.path.segments.last()?;
    if seg.ident != "Result" && seg.ident != "Batch" {
        return None;
    }
    let PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    a.args
        .iter()
        .filter_map(|g| match g {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .nth(1)
}

/// Whether a tool's description speaks of argument `name` (its words, `_` read as a space).
fn mentions(doc: &str, name: &str) -> bool {
    let doc = doc.to_lowercase();
    doc.contains(&format!("`{name}`")) || doc.contains(&name.replace('_', " "))
}

fn camel(s: &str) -> String {
    s.split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}
