//! `#[derive(ToolArgs)]`: an argument struct (or a unit enum, a closed set)
//! becomes its schema, its decoder and its checks, all from one declaration.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Ident, LitStr, Path};

use crate::attr::{ArgAttrs, NumLit};
use crate::check;
use crate::ctxt::Ctxt;
use crate::doc::doc_text;
use crate::model::Field;

pub fn derive(input: DeriveInput) -> TokenStream {
    let krate: Path = syn::parse_quote!(::contract_runtime);
    let cx = Ctxt::new();
    let out = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => {
                let fields: Vec<Field> = named
                    .named
                    .iter()
                    .filter_map(|f| {
                        f.ident
                            .clone()
                            .map(|id| Field::new(&cx, id, f.ty.clone(), &f.attrs))
                    })
                    .collect();
                if !input.generics.params.is_empty() {
                    cx.error_spanned_by(
                        &input.generics,
                        "argument structs cannot be generic\nhelp: use concrete field types",
                    );
                }
                let doc = doc_text(&input.attrs);
                for f in &fields {
                    check_field(&cx, f, None);
                }
                expand_struct(&krate, &input.ident, doc.as_deref(), &fields)
            }
            _ => {
                cx.error_spanned_by(&input.ident, "`ToolArgs` needs a struct with named fields\nhelp: the JSON arguments are an object; name each field");
                TokenStream::new()
            }
        },
        Data::Enum(e) => expand_enum(&cx, &krate, &input, e),
        Data::Union(_) => {
            cx.error_spanned_by(&input.ident, "`ToolArgs` cannot be derived for a union");
            TokenStream::new()
        }
    };
    if cx.has_errors() {
        // Fallback: a stub impl so one mistake does not also produce "trait not
        // implemented" errors wherever the type is used.
        let errors = cx.into_compile_errors();
        let ident = &input.ident;
        return quote! {
            #errors
            const _: () = {
                #[automatically_derived]
                impl #krate::ArgValue for #ident {
                    fn schema(_: &'static #krate::__private::Constraints) -> #krate::__private::Map<::std::string::String, #krate::__private::Value> { ::core::unreachable!() }
                    fn decode_value(_: &#krate::__private::Value, _: &'static #krate::__private::Constraints, _: &#krate::__private::Ptr<'_>, _: &mut #krate::__private::Violations) -> ::core::option::Option<Self> { ::core::unreachable!() }
                    fn fast<'de, D: #krate::__private::serde::Deserializer<'de>>(_: D) -> ::core::result::Result<Self, D::Error> { ::core::unreachable!() }
                    fn check(&self, _: &'static #krate::__private::Constraints, _: &#krate::__private::Ptr<'_>, _: &mut #krate::__private::Violations) {}
                    fn same(&self, _: &Self) -> bool { ::core::unreachable!() }
                }
                impl #krate::ToolArgs for #ident {}
            };
        };
    }
    drop(cx);
    out
}

/// The per-field rules, shared by argument structs and inline parameters.
pub fn check_field(cx: &Ctxt, f: &Field, tool_doc: Option<&str>) {
    check::c1_arg_description(cx, f);
    check::c10_constraints_fit(cx, f);
    check::c12_prose_constraints(cx, f, tool_doc);
    check::c13_path_type(cx, f);
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

fn format_tokens(krate: &Path, f: &str) -> TokenStream {
    let variant = match f {
        "date" => "Date",
        "date-time" => "DateTime",
        "time" => "Time",
        "email" => "Email",
        "uuid" => "Uuid",
        "uri" => "Uri",
        "ipv4" => "Ipv4",
        "ipv6" => "Ipv6",
        _ => "Hostname",
    };
    let v = Ident::new(variant, proc_macro2::Span::call_site());
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
    let r = attrs
        .range
        .as_ref()
        .map(|r| r.value.clone())
        .unwrap_or_default();
    let (minimum, maximum, emin, emax) = (
        num_tokens(krate, &r.min),
        num_tokens(krate, &r.max),
        num_tokens(krate, &r.exclusive_min),
        num_tokens(krate, &r.exclusive_max),
    );
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
    let format = match &attrs.format {
        Some(f) => {
            let t = format_tokens(krate, &f.value.value());
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
        };
    });
    c_ident
}

pub fn expand_struct(
    krate: &Path,
    ident: &Ident,
    doc: Option<&str>,
    fields: &[Field],
) -> TokenStream {
    let mut statics = TokenStream::new();
    let c_idents: Vec<Ident> = fields
        .iter()
        .map(|f| constraints(krate, &f.attrs, &f.ident, &mut statics))
        .collect();
    let idents: Vec<&Ident> = fields.iter().map(|f| &f.ident).collect();
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    let tys: Vec<&syn::Type> = fields.iter().map(|f| &f.ty).collect();
    let descriptions: Vec<String> = fields
        .iter()
        .map(|f| f.description.clone().unwrap_or_default())
        .collect();
    let slots: Vec<Ident> = fields
        .iter()
        .map(|f| format_ident!("__slot_{}", f.ident))
        .collect();
    let doc = match doc {
        Some(d) => quote!(::core::option::Option::Some(#d)),
        None => quote!(::core::option::Option::None),
    };
    let p = quote!(#krate::__private);
    // Each field type must be an argument type; the assertion points at the field.
    let asserts = tys.iter().map(|ty| {
        quote_spanned! {ty.span()=>
            let _ = <#ty as #p::ArgValue>::OPTIONAL;
        }
    });
    // Every use of a field type goes through `<T as ArgValue>` spanned at the
    // field, so a type that is not an argument type gives one error there
    // (rustc merges identical ones) instead of one per generated use.
    let avs: Vec<TokenStream> = tys
        .iter()
        .map(|ty| quote_spanned!(ty.span()=> <#ty as #p::ArgValue>))
        .collect();
    let seeds: Vec<Ident> = fields
        .iter()
        .map(|f| format_ident!("__Seed_{}", f.ident))
        .collect();
    let expecting = format!("the arguments of {ident}");
    quote! {
        const _: () = {
            #statics

            // The fast path's seed per field (a generic seed would repeat the
            // field type's trait error at the derive).
            #(
                #[allow(non_camel_case_types)]
                struct #seeds;
                impl<'de> #p::serde::de::DeserializeSeed<'de> for #seeds {
                    type Value = #tys;
                    fn deserialize<__D: #p::serde::Deserializer<'de>>(self, d: __D) -> ::core::result::Result<#tys, __D::Error> {
                        #avs::fast(d)
                    }
                }
            )*

            #[automatically_derived]
            impl #p::ArgValue for #ident {
                fn schema(_c: &'static #p::Constraints) -> #p::Map<::std::string::String, #p::Value> {
                    #(#asserts)*
                    #p::object_schema(#doc, ::std::vec![
                        #(#p::Prop {
                            name: #names,
                            schema: #avs::schema(&#c_idents),
                            description: #descriptions,
                            optional: #avs::OPTIONAL,
                        },)*
                    ])
                }

                fn decode_value(v: &#p::Value, _c: &'static #p::Constraints, ptr: &#p::Ptr<'_>, out: &mut #p::Violations) -> ::core::option::Option<Self> {
                    let obj = #p::expect_object(v, ptr, out)?;
                    #p::unknown_keys(obj, &[#(#names),*], ptr, out);
                    #(let #slots = match obj.get(#names) {
                        ::core::option::Option::Some(v) => #avs::decode_value(v, &#c_idents, &ptr.key(#names), out),
                        ::core::option::Option::None => #avs::missing().or_else(|| #p::required(#names, ptr, out)),
                    };)*
                    ::core::option::Option::Some(#ident { #(#idents: #slots?,)* })
                }

                fn fast<'de, D: #p::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    struct __Visitor;
                    impl<'de> #p::serde::de::Visitor<'de> for __Visitor {
                        type Value = #ident;
                        fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            f.write_str(#expecting)
                        }
                        fn visit_map<A: #p::serde::de::MapAccess<'de>>(self, mut map: A) -> ::core::result::Result<#ident, A::Error> {
                            #(let mut #slots: ::core::option::Option<#tys> = ::core::option::Option::None;)*
                            while let ::core::option::Option::Some(key) = map.next_key::<#p::Key<'de>>()? {
                                match key.as_str() {
                                    #(#names => {
                                        if #slots.is_some() {
                                            return ::core::result::Result::Err(#p::fast_refuse());
                                        }
                                        #slots = ::core::option::Option::Some(map.next_value_seed(#seeds)?);
                                    })*
                                    _ => return ::core::result::Result::Err(#p::fast_refuse()),
                                }
                            }
                            ::core::result::Result::Ok(#ident {
                                #(#idents: match #slots {
                                    ::core::option::Option::Some(v) => v,
                                    ::core::option::Option::None => #avs::missing().ok_or_else(#p::fast_refuse)?,
                                },)*
                            })
                        }
                    }
                    d.deserialize_map(__Visitor)
                }

                fn check(&self, _c: &'static #p::Constraints, ptr: &#p::Ptr<'_>, out: &mut #p::Violations) {
                    #(#avs::check(&self.#idents, &#c_idents, &ptr.key(#names), out);)*
                }

                fn same(&self, other: &Self) -> bool {
                    true #(&& #avs::same(&self.#idents, &other.#idents))*
                }

                fn has_secrets(c: &'static #p::Constraints) -> bool {
                    c.secret #(|| #avs::has_secrets(&#c_idents))*
                }

                fn redact(v: &mut #p::Value, c: &'static #p::Constraints) {
                    if c.secret {
                        *v = #p::Value::from(#krate::REDACTED);
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

            #[automatically_derived]
            impl #krate::ToolArgs for #ident {}
        };
    }
}

/// The serde `rename_all` rules, so a closed set publishes the strings serde reads.
fn rename(name: &str, rule: &str) -> Option<String> {
    let words: Vec<String> = {
        let mut w = Vec::new();
        let mut cur = String::new();
        for c in name.chars() {
            if c.is_uppercase() && !cur.is_empty() {
                w.push(std::mem::take(&mut cur));
            }
            cur.push(c);
        }
        w.push(cur);
        w
    };
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    Some(match rule {
        "lowercase" => name.to_lowercase(),
        "UPPERCASE" => name.to_uppercase(),
        "PascalCase" => name.to_string(),
        "camelCase" => {
            let mut s = lower[0].clone();
            for w in &words[1..] {
                s.push_str(w);
            }
            s
        }
        "snake_case" => lower.join("_"),
        "SCREAMING_SNAKE_CASE" => lower.join("_").to_uppercase(),
        "kebab-case" => lower.join("-"),
        "SCREAMING-KEBAB-CASE" => lower.join("-").to_uppercase(),
        _ => return None,
    })
}

fn serde_str(attrs: &[syn::Attribute], key: &str) -> Option<LitStr> {
    let mut found = None;
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = a.parse_nested_meta(|m| {
            if m.path.is_ident(key) {
                found = Some(m.value()?.parse::<LitStr>()?);
            } else if m.input.peek(syn::Token![=]) {
                m.value()?.parse::<syn::Expr>()?;
            } else if m.input.peek(syn::token::Paren) {
                let _ = m.parse_nested_meta(|n| {
                    if n.input.peek(syn::Token![=]) {
                        n.value()?.parse::<syn::Expr>()?;
                    }
                    Ok(())
                });
            }
            Ok(())
        });
    }
    found
}

fn expand_enum(cx: &Ctxt, krate: &Path, input: &DeriveInput, e: &syn::DataEnum) -> TokenStream {
    let ident = &input.ident;
    let rule = serde_str(&input.attrs, "rename_all");
    let mut names = Vec::new();
    let mut variants = Vec::new();
    for v in &e.variants {
        if !matches!(v.fields, Fields::Unit) {
            cx.error_spanned_by(&v.ident, "a closed set is a unit enum\nhelp: remove the variant's fields; for structured arguments derive ToolArgs on a struct");
            continue;
        }
        let name = match serde_str(&v.attrs, "rename") {
            Some(l) => l.value(),
            None => match &rule {
                Some(r) => rename(&v.ident.to_string(), &r.value()).unwrap_or_else(|| {
                    cx.error_spanned_by(r, "unknown `rename_all` rule");
                    v.ident.to_string()
                }),
                None => v.ident.to_string(),
            },
        };
        names.push(name);
        variants.push(&v.ident);
    }
    if variants.is_empty() && !cx.has_errors() {
        cx.error_spanned_by(ident, "a closed set needs at least one variant");
    }
    let idx: Vec<usize> = (0..variants.len()).collect();
    let p = quote!(#krate::__private);
    let expecting = format!("one of {}", names.join(", "));
    quote! {
        const _: () = {
            const __NAMES: &[&str] = &[#(#names),*];

            #[automatically_derived]
            impl #p::ArgValue for #ident {
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
