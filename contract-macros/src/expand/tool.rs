//! The expansion of `#[tool_contract]`, one function per generated item: the
//! user's function, the marker type, the inline argument struct, `contract()`,
//! the type assertions, the `ToolSpec`, the approval and key hooks, and the
//! call.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::args::expand_struct;
use crate::model::{Args, Output, Param, Tool};
use crate::vocab::{ApprovalRule, Effect, Idempotency, Vocabulary};

/// Everything a checked tool expands to.
pub fn expand(tool: &Tool, effect: Effect, output: &Output) -> TokenStream {
    let item = &tool.item;
    let marker = marker(tool);
    let args_struct = args_struct(tool);
    let contract_fn = contract_fn(tool);
    let asserts = type_asserts(tool, output);
    let name_assert = crate::check::c9_name(tool);
    let contract_impl = contract_impl(tool, effect, output);
    let examples_check = super::examples::examples_check(tool, &args_ty(tool));
    quote! {
        #item
        #marker
        #args_struct
        #contract_fn
        #name_assert
        const _: () = {
            #asserts
            #contract_impl
            #examples_check
        };
    }
}

/// `#[doc(hidden)] pub mod __private` path of the runtime.
fn private(tool: &Tool) -> TokenStream {
    let krate = &tool.krate;
    quote!(#krate::__private)
}

/// The unit struct named like the function: `name::contract()` hangs off it.
pub fn marker(tool: &Tool) -> TokenStream {
    let (ident, vis) = (&tool.ident, &tool.vis);
    let doc = format!("The contract of the tool [`{ident}`](fn@{ident}): pass `{ident}::contract()` to a registry.");
    quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #ident {}
    }
}

/// For inline arguments, the struct the macro writes and its `ToolArgs` derive.
fn args_struct(tool: &Tool) -> TokenStream {
    let Args::Inline { ident, fields } = &tool.args else {
        return TokenStream::new();
    };
    let (fn_ident, vis) = (&tool.ident, &tool.vis);
    let idents = fields.iter().map(|f| &f.ident);
    let tys = fields.iter().map(|f| &f.ty);
    let docs = fields
        .iter()
        .map(|f| f.description.clone().unwrap_or_default());
    let doc =
        format!("The arguments of [`{fn_ident}`](fn@{fn_ident}), generated from its parameters.");
    let rules = tool.rules.as_ref().map_or(&[][..], |r| &r.value[..]);
    let derived = expand_struct(&tool.krate, ident, None, fields, rules);
    // A parameter named as the model sends it (`startDate`) is allowed on
    // the function by the user; the struct is ours, so we allow it here.
    quote! {
        #[doc = #doc]
        #[allow(non_snake_case)]
        #vis struct #ident {
            #(#[doc = #docs] pub #idents: #tys,)*
        }
        #derived
    }
}

/// `impl name { fn contract() -> Tool }`.
fn contract_fn(tool: &Tool) -> TokenStream {
    let (ident, vis, krate) = (&tool.ident, &tool.vis, &tool.krate);
    quote! {
        impl #ident {
            /// The tool, ready for a registry.
            #vis fn contract() -> #krate::Tool {
                #krate::Tool::of::<#ident>()
            }
        }
    }
}

/// The argument type as generated code names it.
fn args_ty(tool: &Tool) -> TokenStream {
    match &tool.args {
        Args::Struct(ty) => quote!(#ty),
        Args::Inline { ident, .. } => quote!(#ident),
    }
}

/// Trait-bound assertions spanned on the user's types, so a wrong type is
/// one error at that type (C8 for the failure type).
fn type_asserts(tool: &Tool, output: &Output) -> TokenStream {
    let p = private(tool);
    let failure = output.failure.as_ref().map(|e| {
        quote_spanned! {e.span()=> const _: () = #p::assert_failure::<#e>(); }
    });
    // With `E` in sight its check above says all there is to say about it;
    // checking the whole `Result` too would repeat that error once more.
    let out = &output.ty;
    let output = match output.failure {
        Some(_) => quote!(),
        None => quote_spanned! {out.span()=> const _: () = #p::assert_output::<#out>(); },
    };
    // The argument type needs no assertion here: `type Args` in the
    // contract's impl requires `ToolArgs`, and that one error, at the user's
    // type, names the derive (a second assertion only repeated it).
    quote! {
        #failure
        #output
    }
}

/// `impl ToolContract`: the spec, the hooks and the call.
fn contract_impl(tool: &Tool, effect: Effect, output: &Output) -> TokenStream {
    let (ident, krate) = (&tool.ident, &tool.krate);
    let p = private(tool);
    let args = args_ty(tool);
    let out = &output.ty;
    let spec = spec(tool, effect);
    let approval_fn = approval_fn(tool);
    let precheck_fn = precheck_fn(tool, output);
    let key_fn = key_fn(tool);
    let call_fn = call_fn(tool);
    let examples = super::examples::examples_const(tool);
    quote! {
        #[automatically_derived]
        impl #krate::ToolContract for #ident {
            type Args = #args;
            type Output = #out;
            const SPEC: #p::ToolSpec = #spec;
            #examples
            #approval_fn
            #precheck_fn
            #key_fn
            #call_fn
        }
    }
}

/// The `ToolSpec` the runtime reads: every declaration, resolved.
fn spec(tool: &Tool, effect: Effect) -> TokenStream {
    let p = private(tool);
    let name = &tool.name.value;
    let description = tool.description.clone().unwrap_or_default();
    let effect_variant = format_ident!("{}", effect.variant());
    let effects = tool
        .effects()
        .into_iter()
        .map(|e| format_ident!("{}", e.variant()));
    let state_needs = tool.state.iter().map(|ty| {
        let name = quote!(#ty).to_string().replace(' ', "");
        quote_spanned! {ty.span()=>
            #p::StateNeed { name: #name, id: ::core::any::TypeId::of::<#ty> }
        }
    });
    let title = match &tool.title {
        Some(t) => quote!(::core::option::Option::Some(#t)),
        None => quote!(::core::option::Option::None),
    };
    let idempotency = match tool.idempotency.value() {
        Some(Idempotency::Natural) => quote!(#p::Idempotency::Natural),
        Some(Idempotency::Key(k)) => {
            let field = k.to_string().trim_start_matches("r#").to_string();
            quote!(#p::Idempotency::Key(#field))
        }
        Some(Idempotency::None) => quote!(#p::Idempotency::None),
        // C5: only a read-only tool may leave it out, and reads are natural.
        None if effect == Effect::ReadOnly => quote!(#p::Idempotency::Natural),
        None => quote!(#p::Idempotency::None),
    };
    let approval = match tool.approval.value() {
        Some(ApprovalRule::Always) => quote!(#p::ApprovalRule::Always),
        Some(ApprovalRule::When(path)) => {
            let name = path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default();
            quote!(#p::ApprovalRule::When(#name))
        }
        Some(ApprovalRule::Never) | None => quote!(#p::ApprovalRule::Never),
    };
    let scopes = &tool.authority;
    let retry = match &tool.retry {
        Some(r) => {
            let (a, b) = (r.value.attempts, r.value.backoff_ms);
            quote!(#p::RetryPolicy { attempts: #a, backoff_ms: #b })
        }
        None => quote!(#p::RetryPolicy::NONE),
    };
    let timeout = match &tool.timeout_ms {
        Some(t) => {
            let v = t.value;
            quote!(::core::option::Option::Some(#v))
        }
        None => quote!(::core::option::Option::None),
    };
    let prose = match &tool.prose {
        Some(why) => {
            let why = why.value.value();
            quote!(::core::option::Option::Some(#why))
        }
        None => quote!(::core::option::Option::None),
    };
    let task = match tool.task.as_ref().and_then(|t| t.value.known()) {
        Some(mode) => {
            let v = format_ident!("{}", mode.variant());
            quote!(#p::TaskSupport::#v)
        }
        None => quote!(#p::TaskSupport::Forbidden),
    };
    quote! {
        #p::ToolSpec {
            name: #name,
            description: #description,
            effect: #p::Effect::#effect_variant,
            effects: &[#(#p::Effect::#effects),*],
            title: #title,
            state: &[#(#state_needs),*],
            idempotency: #idempotency,
            authority: &[#(#scopes),*],
            approval: #approval,
            retry: #retry,
            timeout_ms: #timeout,
            prose: #prose,
            task: #task,
        }
    }
}

/// `approval = when(pred)`: the hook calls the user's predicate.
fn approval_fn(tool: &Tool) -> TokenStream {
    let Some(ApprovalRule::When(path)) = tool.approval.value() else {
        return TokenStream::new();
    };
    let p = private(tool);
    // Through a typed fn pointer: a predicate of the wrong shape gives one
    // error that names the shape it must have (`expected fn pointer
    // fn(&CallContext, &Args) -> Option<String>`), not a wrong argument
    // count and a mismatched return type.
    quote_spanned! {path.span()=>
        fn approval_reason(ctx: &#p::CallContext, args: &Self::Args) -> ::core::option::Option<::std::string::String> {
            let predicate: fn(&#p::CallContext, &Self::Args) -> ::core::option::Option<::std::string::String> = #path;
            predicate(ctx, args)
        }
    }
}

/// `precheck = path`: the hook calls the user's check with the call's
/// context, the arguments and the host state of `state(...)`, in its order,
/// and turns its failure into the runtime's.
fn precheck_fn(tool: &Tool, output: &Output) -> TokenStream {
    // Without `E` in sight, `check::tool` reported it already.
    let (Some(path), Some(failure)) = (&tool.precheck, &output.failure) else {
        return TokenStream::new();
    };
    let p = private(tool);
    let path = &path.value;
    let tys = &tool.state;
    let ids: Vec<_> = (0..tys.len())
        .map(|i| format_ident!("__state_{}", i))
        .collect();
    // Through a typed fn pointer, as the approval predicate: a check of the
    // wrong shape gives one error naming the shape it must have.
    quote_spanned! {path.span()=>
        fn precheck(ctx: &#p::CallContext, args: &Self::Args) -> ::core::option::Option<#p::Failure> {
            let check: fn(&#p::CallContext, &Self::Args #(, &#tys)*) -> ::core::result::Result<(), #failure> = #path;
            // The authority stage checked the host state before this stage.
            #(
                let ::core::option::Option::Some(#ids) = ctx.state::<#tys>() else {
                    ::core::unreachable!("the authority stage checks the host state first")
                };
            )*
            check(ctx, args #(, #ids)*).err().map(|e| #p::ToolFailure::failure(&e))
        }
    }
}

/// `idempotency = key(field)`: the hook reads the field. For an argument
/// struct, whose field types the macro cannot see, this is also C7's check:
/// rustc refuses a non-string field with a message naming the user's `key(...)`.
fn key_fn(tool: &Tool) -> TokenStream {
    let Some(Idempotency::Key(k)) = tool.idempotency.value() else {
        return TokenStream::new();
    };
    let message = format!("`key({k})` must name a string argument, but `{k}` is `{{Self}}`");
    let note = format!(
        "make `{k}` a `String`; a request key is usually `#[arg(format = \"uuid\")] {k}: String`"
    );
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

/// `fn call`: unpacks the arguments and runs the handler. A sync handler runs
/// on the blocking pool: inline, it would hold the executor thread other
/// calls run on (and no timeout could fire).
fn call_fn(tool: &Tool) -> TokenStream {
    let p = private(tool);
    let ident = &tool.ident;
    let destructure = match &tool.args {
        Args::Inline { ident, fields } => {
            let idents = fields.iter().map(|f| &f.ident);
            quote!(let #ident { #(#idents),* } = __args;)
        }
        Args::Struct(_) => TokenStream::new(),
    };
    // Host state: the authority stage answered already when any is missing
    // (and the registry refused to build without it), so the `else` arm
    // cannot run.
    let states: Vec<_> = tool
        .state
        .iter()
        .enumerate()
        .map(|(i, ty)| {
            let id = format_ident!("__state_{}", i);
            quote_spanned! {ty.span()=>
                let ::core::option::Option::Some(#id) = __ctx.state_arc::<#ty>() else {
                    ::core::unreachable!("the authority stage checks the host state first")
                };
            }
        })
        .collect();
    let params = tool.params.iter().map(|param| match param {
        Param::State(i) => {
            let id = format_ident!("__state_{}", i);
            quote!(&*#id)
        }
        Param::Context => quote!(&__ctx),
        Param::Args => quote!(__args),
        Param::Field(id) => quote!(#id),
    });
    let invoke = quote!(#ident(#(#params),*));
    // A sync handler's future is the runtime's, not an `async` block: one
    // state machine less per tool to compile. The host state is looked up
    // on the blocking thread, where the handler runs.
    let body = if tool.is_async {
        quote!(async move { #(#states)* #destructure #invoke.await })
    } else {
        quote!(#p::run_blocking(move || { #(#states)* #destructure #invoke }))
    };
    quote! {
        #[allow(unused_variables)]
        fn call(__ctx: #p::CallContext, __args: Self::Args) -> #p::BoxFuture<Self::Output> {
            ::std::boxed::Box::pin(#body)
        }
    }
}
