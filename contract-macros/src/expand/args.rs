//! The expansion of `#[derive(ToolArgs)]` (and of a tool's inline
//! arguments): the `ArgValue` impl that is the schema, the decoders and the
//! checks, and the `Constraints` statics they read.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, LitStr, Path};

use crate::attr::ArgAttrs;
use crate::model::{ArgsInput, ClosedSet, Field, Tagged, TaggedVariant};
use crate::ty::Kind;
use crate::vocab::{Format, NumLit, RuleDecl, RuleKind, Vocabulary};

/// The `ArgValue` and `ToolArgs` impls of a checked input.
pub fn expand(krate: &Path, input: &ArgsInput) -> TokenStream {
    match input {
        ArgsInput::Struct {
            ident,
            doc,
            fields,
            rules,
        } => expand_struct(krate, ident, doc.as_deref(), fields, rules),
        ArgsInput::ClosedSet(set) => expand_closed_set(krate, set),
        ArgsInput::Tagged(t) => expand_tagged(krate, t),
    }
}

fn num_tokens(krate: &Path, n: &Option<NumLit>) -> TokenStream {
    match n {
        None => quote!(::core::option::Option::None),
        Some(NumLit { int: Some(i), .. }) => {
            quote!(::core::option::Option::Some(#krate::__private::Num::Int(#i)))
        }
        Some(NumLit { value, .. }) => {
            quote!(::core::option::Option::Some(#krate::__private::Num::Float(#value)))
        }
    }
}

fn format_tokens(krate: &Path, f: Format) -> TokenStream {
    let v = Ident::new(f.variant(), proc_macro2::Span::call_site());
    quote!(#krate::__private::Format::#v)
}

/// Emits the statics for `attrs` and returns the path of the `Constraints` static.
pub fn constraints(
    krate: &Path,
    attrs: &ArgAttrs,
    name: &Ident,
    statics: &mut TokenStream,
) -> Ident {
    let c_ident = format_ident!("__CONTRACT_C_{}", name);
    let opt_u64 = |v: Option<u64>| match v {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    };
    let (min_length, max_length) = match &attrs.length {
        Some(l) => (
            opt_u64(l.value.min.as_ref().map(|m| m.value)),
            opt_u64(l.value.max.as_ref().map(|m| m.value)),
        ),
        None => (opt_u64(None), opt_u64(None)),
    };
    let r = attrs.full_range().unwrap_or_default();
    let (served_min, served_max) = attrs.served_sides();
    let (minimum, maximum, emin, emax) = (
        num_tokens(krate, &r.min),
        num_tokens(krate, &r.max),
        num_tokens(krate, &r.exclusive_min),
        num_tokens(krate, &r.exclusive_max),
    );
    let text = |t: &Option<LitStr>| match t {
        Some(t) => quote!(::core::option::Option::Some(#t)),
        None => quote!(::core::option::Option::None),
    };
    let (format_minimum, format_maximum) = (text(&r.min_text), text(&r.max_text));
    let pattern = match &attrs.pattern {
        Some(p) => {
            let p_ident = format_ident!("__CONTRACT_P_{}", name);
            let lit = &p.value;
            statics.extend(quote! {
                #[allow(non_upper_case_globals)]
                static #p_ident: #krate::__private::Pattern = #krate::__private::Pattern::new(#lit);
            });
            quote!(::core::option::Option::Some(&#p_ident))
        }
        None => quote!(::core::option::Option::None),
    };
    let format = match attrs.format.as_ref().and_then(|f| f.value.known()) {
        Some(f) => {
            let t = format_tokens(krate, f);
            quote!(::core::option::Option::Some(#t))
        }
        None => quote!(::core::option::Option::None),
    };
    let items = match &attrs.each {
        Some(each) => {
            let inner = constraints(krate, &each.value, &format_ident!("{}_each", name), statics);
            quote!(::core::option::Option::Some(&#inner))
        }
        None => quote!(::core::option::Option::None),
    };
    let unique = attrs.unique.is_some();
    let secret = attrs.secret.is_some();
    let root = match &attrs.root {
        Some(r) => {
            let lit: &LitStr = &r.value;
            quote!(::core::option::Option::Some(#lit))
        }
        None => quote!(::core::option::Option::None),
    };
    statics.extend(quote! {
        #[allow(non_upper_case_globals)]
        static #c_ident: #krate::__private::Constraints = #krate::__private::Constraints {
            min_length: #min_length,
            max_length: #max_length,
            minimum: #minimum,
            maximum: #maximum,
            exclusive_minimum: #emin,
            exclusive_maximum: #emax,
            pattern: #pattern,
            format: #format,
            unique: #unique,
            items: #items,
            secret: #secret,
            root: #root,
            format_minimum: #format_minimum,
            format_maximum: #format_maximum,
            served: #krate::__private::Served {
                min: #served_min,
                max: #served_max,
            },
        };
    });
    c_ident
}

/// Named fields (of an argument struct or a struct variant) as the
/// generated code names them, one entry per field in each list.
struct Fields<'a> {
    idents: Vec<&'a Ident>,
    names: Vec<&'a str>,
    tys: Vec<&'a syn::Type>,
    descriptions: Vec<String>,
    /// `<T as ArgValue>`, spanned at the field: a type that is not an
    /// argument type gives one error there (rustc merges identical ones)
    /// instead of one per generated use.
    avs: Vec<TokenStream>,
    /// The field's `Constraints` static.
    c_idents: Vec<Ident>,
    /// The local holding the field while decoding.
    slots: Vec<Ident>,
}

impl<'a> Fields<'a> {
    /// The fields, their `Constraints` statics emitted into `statics`;
    /// `scope` (a variant) keeps the statics of two variants apart.
    fn new(
        krate: &Path,
        fields: &'a [Field],
        scope: Option<&Ident>,
        statics: &mut TokenStream,
    ) -> Fields<'a> {
        let p = quote!(#krate::__private);
        // C12 on enum-typed fields: their listed values against the enum's.
        statics.extend(fields.iter().map(|f| prose_sets(krate, f)));
        let scoped = |f: &Field| match scope {
            Some(v) => format_ident!("{}_{}", v, f.ident),
            None => format_ident!("{}", f.ident),
        };
        Fields {
            idents: fields.iter().map(|f| &f.ident).collect(),
            names: fields.iter().map(|f| f.name.as_str()).collect(),
            tys: fields.iter().map(|f| &f.ty).collect(),
            descriptions: fields
                .iter()
                .map(|f| f.description.clone().unwrap_or_default())
                .collect(),
            avs: fields
                .iter()
                .map(|f| {
                    let ty = &f.ty;
                    quote_spanned!(ty.span()=> <#ty as #p::ArgValue>)
                })
                .collect(),
            c_idents: fields
                .iter()
                .map(|f| constraints(krate, &f.attrs, &scoped(f), statics))
                .collect(),
            // Numbered, not named after the field: `__slot__query` (from a
            // parameter `_query`) would trip `non_snake_case` in the user's
            // crate, and a `-D warnings` build with it.
            slots: (0..fields.len())
                .map(|i| format_ident!("__slot{}", i))
                .collect(),
        }
    }

    /// The `Prop` of each field, for `object_schema`.
    fn props(&self, p: &TokenStream) -> TokenStream {
        let Fields {
            names,
            avs,
            c_idents,
            descriptions,
            ..
        } = self;
        quote! {
            #(#p::Prop {
                name: #names,
                schema: #avs::schema(&#c_idents),
                description: #descriptions,
                optional: #avs::OPTIONAL,
            },)*
        }
    }

    /// Slow path: each field's slot decoded from `obj`, pointers under `ptr`
    /// (a `&Ptr`); `known` lists keys allowed beside the fields (a tag).
    fn decode_slots(&self, p: &TokenStream, ptr: &TokenStream, known: &TokenStream) -> TokenStream {
        let Fields {
            names,
            avs,
            c_idents,
            slots,
            ..
        } = self;
        quote! {
            #p::unknown_keys(obj, &[#known #(#names),*], #ptr, out);
            #(let #slots = #avs::decode_field(obj, #names, &#c_idents, #ptr, out);)*
        }
    }

    /// Fast path: the rest of `map`'s keys read into the fields, then `ctor`
    /// (a struct or a variant path) built from them.
    fn read_map(&self, p: &TokenStream, ctor: &TokenStream) -> TokenStream {
        let Fields {
            idents,
            names,
            tys,
            avs,
            slots,
            ..
        } = self;
        quote! {
            #(let mut #slots: ::core::option::Option<#tys> = ::core::option::Option::None;)*
            while let ::core::option::Option::Some(key) = map.next_key::<#p::Key<'de>>()? {
                match key.as_str() {
                    #(#names => {
                        if #slots.is_some() {
                            return ::core::result::Result::Err(#p::fast_refuse());
                        }
                        #slots = ::core::option::Option::Some(#avs::fast_field(&mut *map)?);
                    })*
                    _ => return ::core::result::Result::Err(#p::fast_refuse()),
                }
            }
            ::core::result::Result::Ok(#ctor {
                #(#idents: match #slots {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => #avs::missing().ok_or_else(#p::fast_refuse)?,
                },)*
            })
        }
    }

    /// Each field type must be an argument type; the assertion points at the field.
    fn asserts(&self, p: &TokenStream) -> TokenStream {
        let asserts = self.tys.iter().map(|ty| {
            quote_spanned! {ty.span()=>
                let _ = <#ty as #p::ArgValue>::OPTIONAL;
            }
        });
        quote!(#(#asserts)*)
    }
}

/// An argument struct as the generated code names it.
struct Parts<'a> {
    /// `krate::__private`.
    p: TokenStream,
    krate: &'a Path,
    ident: &'a Ident,
    doc: Option<&'a str>,
    f: Fields<'a>,
    /// Whether `rules(...)` declared any rule (then `__RULES` and
    /// `__rules` exist).
    has_rules: bool,
}

/// The `ArgValue` and `ToolArgs` impls of an argument struct, and the
/// statics and seed types they use.
pub fn expand_struct(
    krate: &Path,
    ident: &Ident,
    doc: Option<&str>,
    fields: &[Field],
    rules: &[RuleDecl],
) -> TokenStream {
    let mut statics = TokenStream::new();
    statics.extend(rules_items(krate, ident, fields, rules));
    let parts = Parts {
        f: Fields::new(krate, fields, None, &mut statics),
        p: quote!(#krate::__private),
        krate,
        ident,
        doc,
        has_rules: !rules.is_empty(),
    };
    let schema_fn = schema_fn(&parts);
    let decode_fn = decode_value_fn(&parts);
    let fast_fn = fast_fn(&parts);
    let walk_fns = walk_fns(&parts);
    let p = &parts.p;
    // `#[arg(prose = "why")]`: the audit reports these fields' findings as
    // acknowledged, with the reason
    let acknowledged: Vec<TokenStream> = fields
        .iter()
        .filter_map(|f| {
            let why = f.attrs.prose.as_ref()?.value.value();
            let name = &f.name;
            Some(quote!((#name, #why)))
        })
        .collect();
    let prose_fn = (!acknowledged.is_empty()).then(|| {
        quote! {
            fn prose_acknowledged() -> &'static [(&'static str, &'static str)] {
                &[#(#acknowledged),*]
            }
        }
    });
    // the same list, with the fields of nested argument structs by their
    // path (`dimensions.width_cm`), which the audit walks into
    let (names, avs) = (&parts.f.names, &parts.f.avs);
    let within_fn = quote! {
        fn acknowledged_within(at: &str, out: &mut ::std::vec::Vec<(::std::string::String, &'static str)>) {
            let path = |name: &str| #p::nested_path(at, name);
            for (name, why) in <Self as #krate::ToolArgs>::prose_acknowledged() {
                out.push((path(name), *why));
            }
            #(#avs::acknowledged_within(&path(#names), out);)*
        }
    };
    let rules_fn = parts.has_rules.then(|| {
        quote! {
            fn rules() -> &'static [#p::Rule] {
                &__RULES
            }
        }
    });
    quote! {
        const _: () = {
            #statics

            #[automatically_derived]
            impl #p::ArgSealed for #ident {}
            #[automatically_derived]
            impl #p::ArgValue for #ident {
                #schema_fn
                #decode_fn
                #fast_fn
                #walk_fns
                #within_fn
            }

            #[automatically_derived]
            impl #krate::ToolArgs for #ident {
                #rules_fn
                #prose_fn
            }

            // An example gives the struct as the object a call sends.
            #[automatically_derived]
            impl #p::ExampleObject for #ident {}
        };
    }
}

/// C12 for an enum argument: the macro cannot see the variants of an enum
/// declared elsewhere, so each list of values its doc comment states is
/// compared with the enum's wire values by a constant, which fails to compile
/// (with the C12 message) when they differ, as far as the set checks at the
/// error level say: a listed value the enum lacks (`set-wider`), or, for a
/// list read to its end, a variant the description names nowhere as a word
/// of its own (`set-narrower`; `__private::named_in`, the audit's rule). A
/// check at the audit level emits nothing: the registry's audit reports it.
fn prose_sets(krate: &Path, f: &Field) -> TokenStream {
    use contract_prose::{Check, Level};
    let enum_like = matches!(f.kind.item().unwrap_or(f.kind.inner()).inner(), Kind::Other);
    let Some(doc) = f
        .description
        .as_deref()
        .filter(|_| enum_like && f.attrs.prose.is_none())
    else {
        return TokenStream::new();
    };
    // a check stops a build only on lists read by a recognizer measured
    // right within it
    let error =
        |c: Check, by: contract_prose::Rec| c.row().level_for(by.row().name) == Level::Error;
    let ty = &f.ty;
    let p = quote!(#krate::__private);
    contract_prose::listed_sets(doc)
        .into_iter()
        .filter(|set| error(Check::SetWider, set.by) || error(Check::SetNarrower, set.by))
        .map(|set| {
            let msg = contract_prose::enum_disagrees_message(&f.name, &set.phrase, &set.values);
            let values = &set.values;
            let wider = error(Check::SetWider, set.by);
            let narrower = error(Check::SetNarrower, set.by) && set.whole;
            quote_spanned! {ty.span()=>
                const _: () = if let ::core::option::Option::Some(fault) = #p::prose_set_fault(
                    &[#(#values),*],
                    #doc,
                    <#ty as #p::ArgValue>::WIRE_VALUES,
                    #wider,
                    #narrower,
                ) {
                    let message = #p::SetMessage::new(
                        #msg,
                        <#ty as #p::ArgValue>::WIRE_VALUES,
                        fault,
                    );
                    ::core::panic!("{}", message.as_str())
                };
            }
        })
        .collect()
}

/// `__RULES`, the rules across arguments, and `__rules`, which checks them
/// on decoded arguments: one runtime call per rule, spanned at what the
/// user wrote so a type that cannot take the rule is one error there.
fn rules_items(krate: &Path, ident: &Ident, fields: &[Field], rules: &[RuleDecl]) -> TokenStream {
    if rules.is_empty() {
        return TokenStream::new();
    }
    let p = quote!(#krate::__private);
    let field = |id: &Ident| {
        let name = id.to_string();
        let name = name.trim_start_matches("r#");
        fields.iter().find(|f| f.name == name)
    };
    let mut statics = Vec::new();
    let mut helpers = Vec::new();
    let mut checks = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        let names: Vec<String> = rule
            .idents()
            .iter()
            .map(|id| id.to_string().trim_start_matches("r#").to_owned())
            .collect();
        let members: Vec<&Ident> = rule
            .idents()
            .into_iter()
            .filter_map(|id| field(id).map(|f| &f.ident))
            .collect();
        let this = quote!(&__RULES[#i]);
        match &rule.kind {
            RuleKind::ExactlyOneOf(_) | RuleKind::AtMostOneOf(_) => {
                let v = if matches!(rule.kind, RuleKind::ExactlyOneOf(_)) {
                    quote!(ExactlyOneOf)
                } else {
                    quote!(AtMostOneOf)
                };
                statics.push(quote!(#p::Rule::#v(&[#(#names),*])));
            }
            RuleKind::Requires(..) => {
                let (a, b) = (&names[0], &names[1..]);
                statics.push(quote!(#p::Rule::Requires(#a, &[#(#b),*])));
            }
            RuleKind::Compare { strict, left, .. } => {
                let op = if *strict { quote!(Lt) } else { quote!(Le) };
                let (l, r) = (&names[0], &names[1]);
                let ty = field(left).map(|f| &f.ty);
                let at = ty.map_or_else(|| left.span(), Spanned::span);
                let words = format_ident!("__words_{}", i);
                // Named in a function body, like the check below, so that a
                // type that cannot be ordered is one error, not one per use.
                statics.push(quote!(#p::Rule::Compare {
                    op: #p::Cmp::#op,
                    left: #l,
                    right: #r,
                    words: #words,
                }));
                helpers.push(quote_spanned! {at=>
                    fn #words() -> #p::OrderWords {
                        #p::operands(::core::option::Option::<&#ty>::None, ::core::option::Option::<&#ty>::None).words()
                    }
                });
            }
            RuleKind::MaxSpan { limit, unit, .. } => {
                let (f, t) = (&names[0], &names[1]);
                let limit = match limit.int {
                    Some(i) => quote!(#p::Num::Int(#i)),
                    None => {
                        let f = limit.value;
                        quote!(#p::Num::Float(#f))
                    }
                };
                let unit = format_ident!("{}", unit.map_or("Plain", |(u, _)| u.variant()));
                statics.push(quote! {
                    #p::Rule::MaxSpan {
                        from: #f,
                        to: #t,
                        limit: #limit,
                        unit: #p::SpanUnit::#unit,
                    }
                });
            }
            RuleKind::Check { path, says } => {
                let name = path
                    .segments
                    .last()
                    .map(|s| s.ident.to_string())
                    .unwrap_or_default();
                let says = says.as_ref().map(LitStr::value).unwrap_or_default();
                statics.push(quote!(#p::Rule::Check { name: #name, says: #says }));
            }
        }
        let check = match &rule.kind {
            RuleKind::ExactlyOneOf(_) | RuleKind::AtMostOneOf(_) | RuleKind::Requires(..) => {
                let present = rule
                    .idents()
                    .into_iter()
                    .zip(&members)
                    .map(|(id, m)| quote_spanned!(id.span()=> #p::Presence::present(&v.#m)));
                quote!(#p::check_presence(#this, &[#(#present),*], ptr, out);)
            }
            RuleKind::Compare { .. } | RuleKind::MaxSpan { .. } => {
                // Every use of the operand types is spanned at the first
                // argument's type: a type that cannot be ordered is one
                // error there (rustc merges identical ones).
                let (a, b) = (members[0], members[1]);
                let tys: Vec<&syn::Type> = rule
                    .idents()
                    .into_iter()
                    .filter_map(|id| field(id).map(|f| &f.ty))
                    .collect();
                let at = tys[0].span();
                let f = if matches!(rule.kind, RuleKind::Compare { .. }) {
                    quote_spanned!(at=> check_compare)
                } else {
                    quote_spanned!(at=> check_span)
                };
                let (a, b) = (
                    Ident::new(&a.to_string(), at),
                    Ident::new(&b.to_string(), at),
                );
                quote_spanned! {at=>
                    #p::#f(#this, #p::operands(::core::option::Option::Some(&v.#a), ::core::option::Option::Some(&v.#b)), ptr, out);
                }
            }
            RuleKind::Check { path, .. } => {
                quote_spanned!(path.span()=> #p::check_custom(#this, #path(v), ptr, out);)
            }
        };
        checks.push(check);
    }
    let n = statics.len();
    quote! {
        static __RULES: [#p::Rule; #n] = [#(#statics),*];

        #(#helpers)*

        fn __rules(v: &#ident, ptr: &#p::Ptr<'_>, out: &mut #p::Violations) {
            #(#checks)*
        }
    }
}

/// `schema`: the object schema, each field's schema under its description.
fn schema_fn(parts: &Parts) -> TokenStream {
    let Parts {
        p,
        f,
        doc,
        has_rules,
        ..
    } = parts;
    let apply = has_rules.then(|| quote!(#p::apply_rules(&mut __s, &__RULES);));
    let doc = match doc {
        Some(d) => quote!(::core::option::Option::Some(#d)),
        None => quote!(::core::option::Option::None),
    };
    let (asserts, props) = (f.asserts(p), f.props(p));
    quote! {
        fn schema(_c: &'static #p::Constraints) -> #p::Map<::std::string::String, #p::Value> {
            #asserts
            #[allow(unused_mut)]
            let mut __s = #p::object_schema(#doc, ::std::vec![#props]);
            #apply
            __s
        }
    }
}

/// `decode_value`: the slow path, reporting every violation with its pointer.
fn decode_value_fn(parts: &Parts) -> TokenStream {
    let Parts {
        p,
        ident,
        f,
        has_rules,
        ..
    } = parts;
    let rules = has_rules.then(|| quote!(__rules(&__v, ptr, out);));
    let slots = f.decode_slots(p, &quote!(ptr), &TokenStream::new());
    let (idents, names) = (&f.idents, &f.slots);
    quote! {
        fn decode_value(v: &#p::Value, _c: &'static #p::Constraints, ptr: &#p::Ptr<'_>, out: &mut #p::Violations) -> ::core::option::Option<Self> {
            let obj = #p::expect_object(v, ptr, out)?;
            #slots
            let __v = #ident { #(#idents: #names?,)* };
            #rules
            ::core::option::Option::Some(__v)
        }
    }
}

/// `fast`: straight from the deserializer; any doubt refuses, and the slow
/// path finds the precise reason.
fn fast_fn(parts: &Parts) -> TokenStream {
    let Parts { p, ident, f, .. } = parts;
    let expecting = format!("the arguments of {ident}");
    let read = f.read_map(p, &quote!(#ident));
    quote! {
        fn fast<'de, D: #p::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
            struct __Visitor;
            impl<'de> #p::serde::de::Visitor<'de> for __Visitor {
                type Value = #ident;
                fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(#expecting)
                }
                fn visit_map<A: #p::serde::de::MapAccess<'de>>(self, mut map: A) -> ::core::result::Result<#ident, A::Error> {
                    let map = &mut map;
                    #read
                }
            }
            d.deserialize_map(__Visitor)
        }
    }
}

/// `check`, `same`, `has_secrets`, `redact` and `visit_paths`: each walks
/// the fields in turn.
fn walk_fns(parts: &Parts) -> TokenStream {
    let Parts {
        p,
        krate,
        f,
        has_rules,
        ..
    } = parts;
    let Fields {
        idents,
        names,
        avs,
        c_idents,
        ..
    } = f;
    let rules = has_rules.then(|| quote!(__rules(self, ptr, out);));
    quote! {
        fn check(&self, _c: &'static #p::Constraints, ptr: &#p::Ptr<'_>, out: &mut #p::Violations) {
            #(#avs::check(&self.#idents, &#c_idents, &ptr.key(#names), out);)*
            #rules
        }

        fn same(&self, other: &Self) -> bool {
            true #(&& #avs::same(&self.#idents, &other.#idents))*
        }

        fn has_secrets(c: &'static #p::Constraints) -> bool {
            c.secret #(|| #avs::has_secrets(&#c_idents))*
        }

        fn redact(v: &mut #p::Value, c: &'static #p::Constraints) {
            if c.secret {
                *v = #p::Value::from(#krate::__private::REDACTED);
                return;
            }
            #(if let ::core::option::Option::Some(v) = v.get_mut(#names) {
                #avs::redact(v, &#c_idents);
            })*
        }

        fn visit_paths<'a>(&'a self, _c: &'static #p::Constraints, ptr: &#p::Ptr<'_>, f: &mut dyn FnMut(&#p::Ptr<'_>, &'a #p::ConfinedPath, &'static str)) {
            #(#avs::visit_paths(&self.#idents, &#c_idents, &ptr.key(#names), f);)*
        }
    }
}

fn expand_closed_set(krate: &Path, set: &ClosedSet) -> TokenStream {
    let ident = &set.ident;
    let names: Vec<&str> = set.members.iter().map(|m| m.name.as_str()).collect();
    let variants: Vec<&Ident> = set.members.iter().map(|m| &m.ident).collect();
    let idx: Vec<usize> = (0..variants.len()).collect();
    let p = quote!(#krate::__private);
    let expecting = format!("one of {}", names.join(", "));
    quote! {
        const _: () = {
            const __NAMES: &[&str] = &[#(#names),*];

            // An example gives a member as the string a call sends.
            #[automatically_derived]
            impl #p::ExampleStr for #ident {}

            #[automatically_derived]
            impl #p::ArgSealed for #ident {}
            #[automatically_derived]
            impl #p::ArgValue for #ident {
                const WIRE_VALUES: &'static [&'static str] = __NAMES;
                fn schema(_c: &'static #p::Constraints) -> #p::Map<::std::string::String, #p::Value> {
                    #p::enum_schema(__NAMES)
                }
                fn decode_value(v: &#p::Value, _c: &'static #p::Constraints, ptr: &#p::Ptr<'_>, out: &mut #p::Violations) -> ::core::option::Option<Self> {
                    match #p::enum_index(v, __NAMES, ptr, out)? {
                        #(#idx => ::core::option::Option::Some(#ident::#variants),)*
                        _ => ::core::option::Option::None,
                    }
                }
                fn fast<'de, D: #p::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    let key = <#p::Key<'de> as #p::serde::Deserialize<'de>>::deserialize(d)?;
                    let _ = #expecting;
                    match key.as_str() {
                        #(#names => ::core::result::Result::Ok(#ident::#variants),)*
                        _ => ::core::result::Result::Err(#p::fast_refuse()),
                    }
                }
                fn check(&self, _c: &'static #p::Constraints, _ptr: &#p::Ptr<'_>, _out: &mut #p::Violations) {}
                fn same(&self, other: &Self) -> bool {
                    ::core::mem::discriminant(self) == ::core::mem::discriminant(other)
                }
            }
        };
    }
}

/// One struct variant of a tagged enum as the generated code names it.
struct VariantParts<'a> {
    name: &'a str,
    f: Fields<'a>,
    /// Bindings in `match self` (a field named `out` must not shadow the
    /// collector).
    binds: Vec<Ident>,
    others: Vec<Ident>,
    /// `__fields_<Variant>`: reads the variant's fields from a map (fast path).
    reader: Ident,
}

impl<'a> VariantParts<'a> {
    fn new(
        krate: &Path,
        v: &'a TaggedVariant,
        fields: &'a [Field],
        statics: &mut TokenStream,
    ) -> VariantParts<'a> {
        let prefixed = |pre: &str| {
            fields
                .iter()
                .map(|f| format_ident!("{}{}", pre, f.ident))
                .collect()
        };
        VariantParts {
            name: &v.name,
            f: Fields::new(krate, fields, Some(&v.ident), statics),
            binds: prefixed("__a_"),
            others: prefixed("__b_"),
            reader: format_ident!("__fields_{}", v.ident),
        }
    }
}

/// The `ArgValue` impl of a tagged enum: its `oneOf` schema, the tag read
/// first on both decode paths, then the variant's fields checked like an
/// argument struct's, with pointers into the variant (under the content
/// key when adjacently tagged).
fn expand_tagged(krate: &Path, t: &Tagged) -> TokenStream {
    let p = quote!(#krate::__private);
    let ident = &t.ident;
    let tag = &t.tag;
    let mut statics = TokenStream::new();
    let parts: Vec<Option<VariantParts>> = t
        .variants
        .iter()
        .map(|v| {
            v.fields
                .as_deref()
                .map(|fs| VariantParts::new(krate, v, fs, &mut statics))
        })
        .collect();
    let structs: Vec<&VariantParts> = parts.iter().flatten().collect();
    let names: Vec<&str> = t.variants.iter().map(|v| v.name.as_str()).collect();
    let with_fields: Vec<bool> = t.variants.iter().map(|v| v.fields.is_some()).collect();
    let field_names = t.variants.iter().map(|v| {
        let names = v.fields.iter().flatten().map(|f| &f.name);
        quote!(&[#(#names),*])
    });
    let content = match &t.content {
        Some(c) => quote!(::core::option::Option::Some(#c)),
        None => quote!(::core::option::Option::None),
    };
    // Where a variant's fields sit: beside the tag, or under the content key.
    let body_ptr = match &t.content {
        Some(c) => quote!(ptr.key(#c)),
        None => quote!(*ptr),
    };
    // Internally tagged fields share their object with the tag.
    let tag_known = match &t.content {
        None => quote!(#tag,),
        Some(_) => TokenStream::new(),
    };

    // Fast-path readers, per struct variant.
    let mut items = TokenStream::new();
    for (v, part) in t.variants.iter().zip(&parts) {
        let Some(VariantParts { f, reader, .. }) = part else {
            continue;
        };
        let vid = &v.ident;
        let read = f.read_map(&p, &quote!(#ident::#vid));
        items.extend(quote! {
            #[allow(non_snake_case)]
            fn #reader<'de, A: #p::serde::de::MapAccess<'de>>(map: &mut A) -> ::core::result::Result<#ident, A::Error> {
                #read
            }
        });
    }

    // schema
    let asserts = structs.iter().map(|v| v.f.asserts(&p));
    let branches = t.variants.iter().zip(&parts).map(|(v, part)| {
        let name = &v.name;
        let doc = v.doc.clone().unwrap_or_default();
        let fields = match part {
            None => quote!(::core::option::Option::None),
            Some(vp) => {
                let props = vp.f.props(&p);
                quote!(::core::option::Option::Some(::std::vec![#props]))
            }
        };
        quote!(#p::Branch { name: #name, description: #doc, fields: #fields })
    });

    // decode_value (slow path)
    let decode_arms = t
        .variants
        .iter()
        .zip(&parts)
        .enumerate()
        .map(|(i, (v, part))| {
            let vid = &v.ident;
            let Some(VariantParts { f, .. }) = part else {
                return quote!((#i, _) => ::core::option::Option::Some(#ident::#vid),);
            };
            let slots = f.decode_slots(&p, &quote!(__bptr), &tag_known);
            let (idents, names) = (&f.idents, &f.slots);
            quote! {
                (#i, ::core::option::Option::Some(obj)) => {
                    let __bptr = &#body_ptr;
                    #slots
                    ::core::option::Option::Some(#ident::#vid { #(#idents: #names?,)* })
                }
            }
        });

    // fast path: the tag must come first (else the slow path decides).
    let fast_arms = t.variants.iter().zip(&parts).map(|(v, part)| {
        let (vid, name) = (&v.ident, &v.name);
        let end = quote! {
            match map.next_key::<#p::Key<'de>>()? {
                ::core::option::Option::None => ::core::result::Result::Ok(__v),
                ::core::option::Option::Some(_) => ::core::result::Result::Err(#p::fast_refuse()),
            }
        };
        match (part, &t.content) {
            (None, _) => quote!(#name => { let __v = #ident::#vid; #end }),
            (Some(VariantParts { reader, .. }), None) => quote!(#name => #reader(&mut map),),
            (Some(VariantParts { reader, .. }), Some(c)) => quote!(#name => {
                match map.next_key::<#p::Key<'de>>()? {
                    ::core::option::Option::Some(k) if k.as_str() == #c => {}
                    _ => return ::core::result::Result::Err(#p::fast_refuse()),
                }
                struct __Content;
                impl<'de> #p::serde::de::DeserializeSeed<'de> for __Content {
                    type Value = #ident;
                    fn deserialize<__D: #p::serde::Deserializer<'de>>(self, d: __D) -> ::core::result::Result<#ident, __D::Error> {
                        struct __Fields;
                        impl<'de> #p::serde::de::Visitor<'de> for __Fields {
                            type Value = #ident;
                            fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                                f.write_str("the fields of a variant")
                            }
                            fn visit_map<A: #p::serde::de::MapAccess<'de>>(self, mut map: A) -> ::core::result::Result<#ident, A::Error> {
                                #reader(&mut map)
                            }
                        }
                        d.deserialize_map(__Fields)
                    }
                }
                let __v = map.next_value_seed(__Content)?;
                #end
            }),
        }
    });
    let expecting = format!("a variant of {ident}");

    // check, same, has_secrets, redact, visit_paths
    let pattern = |v: &TaggedVariant, part: &Option<VariantParts>, binds: bool| {
        let vid = &v.ident;
        match part {
            None => quote!(#ident::#vid),
            Some(vp) => {
                let (f, b) = (&vp.f.idents, if binds { &vp.binds } else { &vp.others });
                quote!(#ident::#vid { #(#f: #b),* })
            }
        }
    };
    // `check` and `visit_paths`: one call per field of the variant matched,
    // with the field's pointer.
    let per_field = |each: &dyn Fn(&TokenStream, &Ident, &Ident, &str) -> TokenStream| {
        t.variants
            .iter()
            .zip(&parts)
            .map(|(v, part)| {
                let pat = pattern(v, part, true);
                let Some(vp) = part else {
                    return quote!(#pat => {});
                };
                let f = &vp.f;
                let calls = (0..f.idents.len())
                    .map(|i| each(&f.avs[i], &vp.binds[i], &f.c_idents[i], f.names[i]));
                quote! {
                    #pat => {
                        let __bptr = &#body_ptr;
                        #(#calls)*
                    }
                }
            })
            .collect::<Vec<_>>()
    };
    let check_arms = per_field(&|av, b, c, n| quote!(#av::check(#b, &#c, &__bptr.key(#n), out);));
    let paths_arms =
        per_field(&|av, b, c, n| quote!(#av::visit_paths(#b, &#c, &__bptr.key(#n), __visit);));
    let same_arms = t.variants.iter().zip(&parts).map(|(v, part)| {
        let (a, b) = (pattern(v, part, true), pattern(v, part, false));
        match part {
            None => quote!((#a, #b) => true,),
            Some(VariantParts {
                f, binds, others, ..
            }) => {
                let avs = &f.avs;
                quote!((#a, #b) => true #(&& #avs::same(#binds, #others))*,)
            }
        }
    });
    let secrets = structs
        .iter()
        .flat_map(|v| v.f.avs.iter().zip(&v.f.c_idents))
        .map(|(av, c)| quote!(|| #av::has_secrets(&#c)));
    let redact_one = |v: &VariantParts| {
        let Fields {
            names,
            avs,
            c_idents,
            ..
        } = &v.f;
        quote! {
            #(if let ::core::option::Option::Some(x) = __body.get_mut(#names) {
                #avs::redact(x, &#c_idents);
            })*
        }
    };
    let redact_arms = structs.iter().map(|v| {
        let name = v.name;
        let body = redact_one(v);
        quote!(::core::option::Option::Some(#name) => { #body })
    });
    // A tag that names no variant: every variant's secrets are redacted.
    let redact_all = structs.iter().map(|v| redact_one(v));
    let body_of = match &t.content {
        Some(c) => quote!(v.get_mut(#c)),
        None => quote!(::core::option::Option::Some(v)),
    };
    let unused = structs.iter().all(|v| v.f.idents.is_empty());
    let allow = unused.then(|| quote!(#[allow(unused_variables)]));

    quote! {
        const _: () = {
            #statics
            #items

            const __NAMES: &[&str] = &[#(#names),*];
            static __TAGGING: #p::Tagging = #p::Tagging {
                tag: #tag,
                content: #content,
                variants: __NAMES,
                with_fields: &[#(#with_fields),*],
                fields: &[#(#field_names),*],
            };

            // An example gives a variant as the object a call sends.
            #[automatically_derived]
            impl #p::ExampleObject for #ident {}

            #[automatically_derived]
            impl #p::ArgSealed for #ident {}
            #[automatically_derived]
            impl #p::ArgValue for #ident {
                // What C12 compares a doc comment's list of values with: the tags.
                const WIRE_VALUES: &'static [&'static str] = __NAMES;
                fn schema(_c: &'static #p::Constraints) -> #p::Map<::std::string::String, #p::Value> {
                    #(#asserts)*
                    #p::tagged_schema(&__TAGGING, ::std::vec![#(#branches),*])
                }
                #allow
                fn decode_value(v: &#p::Value, _c: &'static #p::Constraints, ptr: &#p::Ptr<'_>, out: &mut #p::Violations) -> ::core::option::Option<Self> {
                    match #p::tagged_variant(v, &__TAGGING, ptr, out)? {
                        #(#decode_arms)*
                        _ => ::core::option::Option::None,
                    }
                }
                fn fast<'de, D: #p::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    struct __Visitor;
                    impl<'de> #p::serde::de::Visitor<'de> for __Visitor {
                        type Value = #ident;
                        fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            f.write_str(#expecting)
                        }
                        fn visit_map<A: #p::serde::de::MapAccess<'de>>(self, mut map: A) -> ::core::result::Result<#ident, A::Error> {
                            match map.next_key::<#p::Key<'de>>()? {
                                ::core::option::Option::Some(k) if k.as_str() == #tag => {}
                                _ => return ::core::result::Result::Err(#p::fast_refuse()),
                            }
                            let __tag = map.next_value::<#p::Key<'de>>()?;
                            match __tag.as_str() {
                                #(#fast_arms)*
                                _ => ::core::result::Result::Err(#p::fast_refuse()),
                            }
                        }
                    }
                    d.deserialize_map(__Visitor)
                }
                #allow
                fn check(&self, _c: &'static #p::Constraints, ptr: &#p::Ptr<'_>, out: &mut #p::Violations) {
                    match self {
                        #(#check_arms)*
                    }
                }
                fn same(&self, other: &Self) -> bool {
                    #[allow(unreachable_patterns)]
                    match (self, other) {
                        #(#same_arms)*
                        _ => false,
                    }
                }
                fn has_secrets(c: &'static #p::Constraints) -> bool {
                    c.secret #(#secrets)*
                }
                #allow
                fn redact(v: &mut #p::Value, c: &'static #p::Constraints) {
                    if c.secret {
                        *v = #p::Value::from(#krate::__private::REDACTED);
                        return;
                    }
                    let __tag = v.get(#tag).and_then(#p::Value::as_str).map(::std::borrow::ToOwned::to_owned);
                    let ::core::option::Option::Some(__body) = #body_of else {
                        return;
                    };
                    #[allow(unreachable_patterns)]
                    match __tag.as_deref() {
                        #(#redact_arms)*
                        _ => { #(#redact_all)* }
                    }
                }
                #allow
                fn visit_paths<'a>(&'a self, _c: &'static #p::Constraints, ptr: &#p::Ptr<'_>, __visit: &mut dyn FnMut(&#p::Ptr<'_>, &'a #p::ConfinedPath, &'static str)) {
                    match self {
                        #(#paths_arms)*
                    }
                }
            }
        };
    }
}
