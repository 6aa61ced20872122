//! The model of one `#[tool_contract]` function: what the attribute declares,
//! the handler's parameters and arguments, and its output and failure types.

use proc_macro2::TokenStream;
use quote::format_ident;
use syn::{
    FnArg, GenericArgument, Ident, ItemFn, LitStr, Pat, PatType, Path, PathArguments, ReturnType,
    Type, Visibility,
};

use super::{Field, Slot};
use crate::attr::parse_tool_attrs;
use crate::ctxt::Ctxt;
use crate::doc::{doc_by_macro, doc_text};
use crate::vocab::{
    ApprovalRule, Effect, ExObject, Idempotency, Retry, RuleDecl, Sp, TaskMode, Word,
};

/// One tool, as declared.
pub struct Tool {
    /// The user's function, with the doc comments and `#[arg]` of its
    /// parameters removed (they are ours); emitted unchanged otherwise.
    pub item: ItemFn,
    pub ident: Ident,
    pub vis: Visibility,
    /// The path of the runtime crate (`crate = "..."`, else `::contract_runtime`).
    pub krate: Path,
    /// `name = "..."`, else the function's name; spanned on what the user wrote.
    pub name: Sp<String>,
    /// `description = "..."`, else the doc comment.
    pub description: Option<String>,
    /// The macro that gives the tool's doc text (`include_str!`), if any.
    pub doc_macro: Option<String>,
    pub effect: Slot<Word<Effect>>,
    /// The further effects of `effect = a + b`.
    pub also_effects: Vec<Sp<Word<Effect>>>,
    /// `title = "..."`.
    pub title: Option<String>,
    /// `state(Db, Mailer)`: the host state types, in order.
    pub state: Vec<Type>,
    pub idempotency: Slot<Idempotency>,
    pub approval: Slot<ApprovalRule>,
    pub authority: Vec<LitStr>,
    pub retry: Option<Sp<Retry>>,
    pub timeout_ms: Option<Sp<u64>>,
    /// `rules(...)`: the rules across the inline arguments.
    pub rules: Option<Sp<Vec<RuleDecl>>>,
    /// `precheck = path`: the tool's own check, run before approval.
    pub precheck: Option<Sp<Path>>,
    /// `prose = "why"`: the tool's description is not read by C12.
    pub prose: Option<Sp<LitStr>>,
    /// `examples({..}, ..)`: examples of the arguments, spanned on the key.
    pub examples: Option<Sp<Vec<ExObject>>>,
    /// `task = optional | required`: the call may run in the background.
    pub task: Option<Sp<Word<TaskMode>>>,
    pub args: Args,
    /// How the handler is called: one entry per parameter.
    pub params: Vec<Param>,
    pub is_async: bool,
    /// `None` when the function has no return type (already reported).
    pub output: Option<Output>,
}

/// How the function takes its arguments.
pub enum Args {
    /// One parameter whose type derives ToolArgs.
    Struct(Type),
    /// Parameters with doc comments and `#[arg(...)]`: the macro writes the
    /// struct `ident`.
    Inline { ident: Ident, fields: Vec<Field> },
}

/// One parameter of the handler.
pub enum Param {
    /// `&CallContext`.
    Context,
    /// `&T` for the `i`-th type of `state(...)`.
    State(usize),
    /// The argument struct, whole.
    Args,
    /// One inline argument.
    Field(Ident),
}

/// The return type `Result<T, E>` or `Batch<T, E>`.
pub struct Output {
    pub ty: Type,
    /// `E`, when the syntax shows it.
    pub failure: Option<Type>,
}

impl Tool {
    pub fn from_syn(cx: &Ctxt, args: TokenStream, mut item: ItemFn) -> Tool {
        let attrs = parse_tool_attrs(cx, args);
        let ident = item.sig.ident.clone();
        let name = match &attrs.name {
            Some(n) => Sp {
                value: n.value.value(),
                span: n.value.span(),
            },
            // `fn r#move` is the tool `move`
            None => Sp {
                value: ident.to_string().trim_start_matches("r#").to_string(),
                span: ident.span(),
            },
        };
        let description = attrs
            .description
            .as_ref()
            .map(|d| d.value.value())
            .or_else(|| doc_text(&item.attrs));
        let state: Vec<Type> = attrs
            .state
            .as_ref()
            .map(|s| s.value.clone())
            .unwrap_or_default();
        let (args, params) = arguments(cx, &mut item, &state);
        let output = output(cx, &item);
        Tool {
            ident,
            vis: item.vis.clone(),
            krate: attrs
                .krate
                .as_ref()
                .map(|k| k.value.clone())
                .unwrap_or_else(|| syn::parse_quote!(::contract_runtime)),
            name,
            doc_macro: attrs
                .description
                .is_none()
                .then(|| doc_by_macro(&item.attrs))
                .flatten(),
            description,
            effect: Slot::new(attrs.effect.clone(), attrs.reported("effect")),
            also_effects: attrs.also_effects.clone(),
            title: attrs.title.as_ref().map(|t| t.value.value()),
            state: state.clone(),
            idempotency: Slot::new(attrs.idempotency.clone(), attrs.reported("idempotency")),
            approval: Slot::new(attrs.approval.clone(), attrs.reported("approval")),
            authority: attrs.authority.map(|a| a.value).unwrap_or_default(),
            retry: attrs.retry,
            timeout_ms: attrs.timeout_ms,
            rules: attrs.rules,
            precheck: attrs.precheck,
            prose: attrs.prose,
            examples: attrs.examples,
            task: attrs.task,
            args,
            params,
            is_async: item.sig.asyncness.is_some(),
            output,
            item,
        }
    }

    /// The effect, when declared and known (rule C2 reports the rest).
    pub fn effect(&self) -> Option<Effect> {
        self.effect.value().and_then(Word::known)
    }

    /// Every declared effect that is known, strictest first, each once.
    pub fn effects(&self) -> Vec<Effect> {
        let mut all: Vec<Effect> = self
            .effect()
            .into_iter()
            .chain(self.also_effects.iter().filter_map(|e| e.value.known()))
            .collect();
        all.sort_by_key(|e| std::cmp::Reverse(e.strictness()));
        all.dedup();
        all
    }

    /// The span of the user's effect word: the token the effect rules are about.
    pub fn effect_span(&self) -> proc_macro2::Span {
        self.effect
            .given()
            .map_or_else(proc_macro2::Span::call_site, |e| e.span)
    }

    /// The inline argument fields (none for an argument struct).
    pub fn fields(&self) -> &[Field] {
        match &self.args {
            Args::Inline { fields, .. } => fields,
            Args::Struct(_) => &[],
        }
    }
}

/// Reads the parameters: an optional `&CallContext`, then either one argument
/// struct or inline arguments. Takes the doc comments and `#[arg]` off them.
fn arguments(cx: &Ctxt, item: &mut ItemFn, state: &[Type]) -> (Args, Vec<Param>) {
    let mut params = Vec::new();
    let mut arg_params: Vec<PatType> = Vec::new();
    for input in item.sig.inputs.iter_mut() {
        match input {
            FnArg::Receiver(r) => cx.error_spanned_by(
                &*r,
                "a tool is a free function, not a method\nhelp: move it out of the impl block",
            ),
            FnArg::Typed(pt) => {
                if is_call_context(&pt.ty) {
                    params.push(Param::Context);
                } else if let Some(i) = state_index(&pt.ty, state) {
                    params.push(Param::State(i));
                } else if let Some(ty) = undeclared_state(&pt.ty) {
                    // Not an argument: a model sends values, not a `&Billing`.
                    // One error that says how to declare it, and no argument
                    // errors (a description, an owned type) that would
                    // lead the user to make it one.
                    cx.error_spanned_by(&pt.ty, undeclared_state_message(&pt.pat, ty));
                } else {
                    arg_params.push(pt.clone());
                    params.push(Param::Args); // refined below for inline arguments
                }
                // `cfg_attr` on a parameter is resolved after this macro
                // runs, so an `arg(..)` inside it would reach rustc as an
                // unknown attribute: one error here that says what works.
                pt.attrs.retain(|a| {
                    let conditional = cfg_attr_names_arg(a);
                    if conditional {
                        cx.error_spanned_by(a, CFG_ATTR_ARG);
                    }
                    !conditional && !a.path().is_ident("arg") && !a.path().is_ident("doc")
                });
            }
        }
    }
    // One parameter without doc comment or `#[arg]` is an argument struct.
    let struct_form = arg_params.len() == 1
        && !arg_params[0]
            .attrs
            .iter()
            .any(|a| a.path().is_ident("arg") || a.path().is_ident("doc"));
    if struct_form {
        return (Args::Struct((*arg_params[0].ty).clone()), params);
    }
    let mut fields = Vec::new();
    let mut idents = Vec::new();
    for pt in &arg_params {
        match &*pt.pat {
            Pat::Ident(pi) => {
                idents.push(Some(pi.ident.clone()));
                fields.push(Field::new(
                    cx,
                    pi.ident.clone(),
                    (*pt.ty).clone(),
                    &pt.attrs,
                ));
            }
            other => {
                idents.push(None);
                cx.error_spanned_by(
                    other,
                    "a tool argument must be a plain name\nhelp: write `name: Type`",
                );
            }
        }
    }
    let mut idents = idents.into_iter();
    for p in params.iter_mut().filter(|p| matches!(p, Param::Args)) {
        if let Some(Some(id)) = idents.next() {
            *p = Param::Field(id);
        }
    }
    let fn_ident = &item.sig.ident;
    let ident = format_ident!(
        "{}Args",
        camel(fn_ident.to_string().trim_start_matches("r#")),
        span = fn_ident.span()
    );
    (Args::Inline { ident, fields }, params)
}

/// Why `#[cfg_attr(cond, arg(..))]` cannot be read on an inline argument.
const CFG_ATTR_ARG: &str = "`#[cfg_attr(.., arg(..))]` on an inline argument cannot be read: `#[tool_contract]` runs before `cfg_attr` on its parameters is resolved, so it cannot tell whether the `#[arg]` applies\nhelp: write `#[arg(..)]` without `cfg_attr`, or declare the arguments in a `#[derive(ToolArgs)]` struct, where `cfg_attr` on a field works";

/// Whether `a` is `#[cfg_attr(cond, ..)]` with an `arg(..)` among the
/// attributes it would apply.
fn cfg_attr_names_arg(a: &syn::Attribute) -> bool {
    if !a.path().is_ident("cfg_attr") {
        return false;
    }
    let Ok(list) = a.meta.require_list() else {
        return false;
    };
    list.parse_args_with(syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
        .is_ok_and(|metas| metas.iter().skip(1).any(|m| m.path().is_ident("arg")))
}

fn output(cx: &Ctxt, item: &ItemFn) -> Option<Output> {
    match &item.sig.output {
        ReturnType::Type(_, ty) => Some(Output {
            failure: failure_type(ty).cloned(),
            ty: (**ty).clone(),
        }),
        ReturnType::Default => {
            cx.error_spanned_by(&item.sig, "a tool returns `Result<T, E>` (or `Batch<T, E>`)\nhelp: add a return type whose error is a `#[derive(ToolFailure)]` enum");
            None
        }
    }
}

/// `T` of a `&T` parameter that can only be host state missing from
/// `state(...)`: a reference to a named type that is not a string, a path
/// or a slice (a borrowed argument, which C13 and the owned-type check
/// answer), nor `CallContext`.
fn undeclared_state(ty: &Type) -> Option<&Type> {
    let Type::Reference(r) = ty else { return None };
    let Type::Path(p) = &*r.elem else { return None };
    let last = p.path.segments.last()?.ident.to_string();
    let borrowed_value = [
        "str",
        "String",
        "Path",
        "PathBuf",
        "OsStr",
        "Cow",
        "Vec",
        "Option",
        "ConfinedPath",
        "bool",
        "char",
        "u8",
        "u16",
        "u32",
        "u64",
        "u128",
        "usize",
        "i8",
        "i16",
        "i32",
        "i64",
        "i128",
        "isize",
        "f32",
        "f64",
    ];
    (!borrowed_value.contains(&last.as_str())).then_some(&*r.elem)
}

fn undeclared_state_message(pat: &Pat, ty: &Type) -> String {
    use quote::ToTokens;
    let ty = ty.to_token_stream().to_string().replace(' ', "");
    let name = pat.to_token_stream().to_string();
    let by_value = if ty.ends_with("Args") {
        format!("; if `{ty}` is the argument struct, take it by value: `{name}: {ty}`")
    } else {
        String::new()
    };
    format!(
        "`{name}: &{ty}` is host state the contract does not declare: a model sends arguments, never a `&{ty}`\nhelp: add `state({ty})` to `#[tool_contract(...)]`, and give the registry the value with `Registry::builder().state(...)`{by_value}"
    )
}

/// Which type of `state(...)` a `&T` parameter takes, if any.
fn state_index(ty: &Type, state: &[Type]) -> Option<usize> {
    use quote::ToTokens;
    let Type::Reference(r) = ty else { return None };
    let text = r.elem.to_token_stream().to_string();
    state
        .iter()
        .position(|s| s.to_token_stream().to_string() == text)
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
