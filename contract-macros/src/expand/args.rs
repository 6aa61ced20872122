//! The expansion of `#[derive(ToolArgs)]` (and of a tool's inline
//! arguments): the `ArgValue` impl that is the schema, the decoders and the
//! checks, and the `Constraints` statics they read.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, LitStr, Path};

use crate::attr::{ArgAttrs, NumLit};
use crate::model::{ArgsInput, ClosedSet, Field, Format, Vocabulary};

/// The `ArgValue` and `ToolArgs` impls of a checked input.
pub fn expand(krate: &Path, input: &ArgsInput) -> TokenStream {
    match input {
        ArgsInput::Struct { ident, doc, fields } => {
            expand_struct(krate, ident, doc.as_deref(), fields)
        }
        ArgsInput::ClosedSet(set) => expand_closed_set(krate, set),
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
        };
    });
    c_ident
}

/// The fields of an argument struct as the generated code names them, one
/// entry per field in each list.
struct Parts<'a> {
    /// `krate::__private`.
    p: TokenStream,
    krate: &'a Path,
    ident: &'a Ident,
    doc: Option<&'a str>,
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
    /// The fast path's seed type per field.
    seeds: Vec<Ident>,
}

/// The `ArgValue` and `ToolArgs` impls of an argument struct, and the
/// statics and seed types they use.
pub fn expand_struct(
    krate: &Path,
    ident: &Ident,
    doc: Option<&str>,
    fields: &[Field],
) -> TokenStream {
    let mut statics = TokenStream::new();
    let c_idents = fields
        .iter()
        .map(|f| constraints(krate, &f.attrs, &f.ident, &mut statics))
        .collect();
    let p = quote!(#krate::__private);
    let parts = Parts {
        avs: fields
            .iter()
            .map(|f| {
                let ty = &f.ty;
                quote_spanned!(ty.span()=> <#ty as #p::ArgValue>)
            })
            .collect(),
        p,
        krate,
        ident,
        doc,
        idents: fields.iter().map(|f| &f.ident).collect(),
        names: fields.iter().map(|f| f.name.as_str()).collect(),
        tys: fields.iter().map(|f| &f.ty).collect(),
        descriptions: fields
            .iter()
            .map(|f| f.description.clone().unwrap_or_default())
            .collect(),
        c_idents,
        slots: fields
            .iter()
            .map(|f| format_ident!("__slot_{}", f.ident))
            .collect(),
        seeds: fields
            .iter()
            .map(|f| format_ident!("__Seed_{}", f.ident))
            .collect(),
    };
    let seeds = seeds(&parts);
    let schema_fn = schema_fn(&parts);
    let decode_fn = decode_value_fn(&parts);
    let fast_fn = fast_fn(&parts);
    let walk_fns = walk_fns(&parts);
    let p = &parts.p;
    quote! {
        const _: () = {
            #statics
            #seeds

            #[automatically_derived]
            impl #p::ArgValue for #ident {
                #schema_fn
                #decode_fn
                #fast_fn
                #walk_fns
            }

            #[automatically_derived]
            impl #krate::ToolArgs for #ident {}
        };
    }
}

/// The fast path's seed per field (a generic seed would repeat the field
/// type's trait error at the derive).
fn seeds(parts: &Parts) -> TokenStream {
    let Parts {
        p, tys, avs, seeds, ..
    } = parts;
    quote! {
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
    }
}

/// `schema`: the object schema, each field's schema under its description.
fn schema_fn(parts: &Parts) -> TokenStream {
    let Parts {
        p,
        tys,
        avs,
        names,
        c_idents,
        descriptions,
        doc,
        ..
    } = parts;
    let doc = match doc {
        Some(d) => quote!(::core::option::Option::Some(#d)),
        None => quote!(::core::option::Option::None),
    };
    // Each field type must be an argument type; the assertion points at the field.
    let asserts = tys.iter().map(|ty| {
        quote_spanned! {ty.span()=>
            let _ = <#ty as #p::ArgValue>::OPTIONAL;
        }
    });
    quote! {
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
    }
}

/// `decode_value`: the slow path, reporting every violation with its pointer.
fn decode_value_fn(parts: &Parts) -> TokenStream {
    let Parts {
        p,
        ident,
        idents,
        names,
        avs,
        c_idents,
        slots,
        ..
    } = parts;
    quote! {
        fn decode_value(v: &#p::Value, _c: &'static #p::Constraints, ptr: &#p::Ptr<'_>, out: &mut #p::Violations) -> ::core::option::Option<Self> {
            let obj = #p::expect_object(v, ptr, out)?;
            #p::unknown_keys(obj, &[#(#names),*], ptr, out);
            #(let #slots = match obj.get(#names) {
                ::core::option::Option::Some(v) => #avs::decode_value(v, &#c_idents, &ptr.key(#names), out),
                ::core::option::Option::None => #avs::missing().or_else(|| #p::required(#names, ptr, out)),
            };)*
            ::core::option::Option::Some(#ident { #(#idents: #slots?,)* })
        }
    }
}

/// `fast`: straight from the deserializer; any doubt refuses, and the slow
/// path finds the precise reason.
fn fast_fn(parts: &Parts) -> TokenStream {
    let Parts {
        p,
        ident,
        idents,
        names,
        tys,
        avs,
        slots,
        seeds,
        ..
    } = parts;
    let expecting = format!("the arguments of {ident}");
    quote! {
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
    }
}

/// `check`, `same`, `has_secrets`, `redact` and `visit_paths`: each walks
/// the fields in turn.
fn walk_fns(parts: &Parts) -> TokenStream {
    let Parts {
        p,
        krate,
        idents,
        names,
        avs,
        c_idents,
        ..
    } = parts;
    quote! {
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
