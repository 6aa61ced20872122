//! The expansion of `examples(...)`: each example as JSON text, for the
//! contract's `EXAMPLES` (the registry decodes and exports them), and a
//! function rustc type-checks but nothing calls, which types every value
//! against the argument it names (`contract_runtime`'s `example.rs` says
//! which errors come from where).

use proc_macro2::{Ident, TokenStream};
use quote::{quote, quote_spanned};

use crate::model::Tool;
use crate::vocab::{ExObject, ExValue};

/// `const EXAMPLES: ...` in the contract's impl, when the tool has examples.
pub fn examples_const(tool: &Tool) -> TokenStream {
    let Some(examples) = &tool.examples else {
        return TokenStream::new();
    };
    let texts = examples.value.iter().map(|e| {
        let mut out = String::new();
        object_json(e, &mut out);
        out
    });
    quote! {
        const EXAMPLES: &'static [&'static str] = &[#(#texts),*];
    }
}

/// `fn __examples(args: &Args)`: one statement per value, each typing the
/// value against the argument it names, spanned where the user wrote them.
pub fn examples_check(tool: &Tool, args_ty: &TokenStream) -> TokenStream {
    let Some(examples) = &tool.examples else {
        return TokenStream::new();
    };
    let krate = &tool.krate;
    let p = quote!(#krate::__private);
    let lines = examples.value.iter().flat_map(|example| {
        example.entries.iter().map(|(key, value)| {
            let key = key.ident();
            // Every token of a check is spanned on its value (but the key,
            // which keeps its own for a field the struct does not have), so
            // rustc reports a value of the wrong shape at the value.
            let check = typed("__arg", value);
            quote_spanned! {value.span()=> {
                let __arg = #p::Example::of(&__args.#key);
                #check
            } }
        })
    });
    quote! {
        // Never called: compiled, so rustc checks the examples' types.
        #[allow(dead_code, unused_variables)]
        fn __examples(__args: &#args_ty) {
            #(#lines)*
        }
    }
}

/// The statement that types `value` against the argument the binding
/// `handle` stands for.
fn typed(handle: &str, value: &ExValue) -> TokenStream {
    let span = value.span();
    let handle = Ident::new(handle, span);
    match value {
        ExValue::Str(lit) => quote_spanned! {span=> #handle.str(#lit); },
        ExValue::Int { lit, negative } => {
            let minus = negative.then(|| quote_spanned!(span=> -));
            quote_spanned! {span=> #handle.int(#minus #lit); }
        }
        ExValue::Float { lit, negative } => {
            let minus = negative.then(|| quote_spanned!(span=> -));
            quote_spanned! {span=> #handle.float(#minus #lit); }
        }
        ExValue::Bool(lit) => quote_spanned! {span=> #handle.bool(#lit); },
        ExValue::Null(_) => quote_spanned! {span=> #handle.null(); },
        ExValue::Object(_) => quote_spanned! {span=> #handle.object(); },
        ExValue::List { items, .. } => {
            let each = items.iter().map(|v| typed("__item", v));
            quote_spanned! {span=> {
                let __item = #handle.list();
                #(#each)*
            } }
        }
    }
}

/// JSON text of an object, keys in the order written.
fn object_json(o: &ExObject, out: &mut String) {
    out.push('{');
    for (n, (key, value)) in o.entries.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        string_json(&key.name(), out);
        out.push(':');
        value_json(value, out);
    }
    out.push('}');
}

fn value_json(v: &ExValue, out: &mut String) {
    match v {
        ExValue::Str(lit) => string_json(&lit.value(), out),
        ExValue::Int { lit, negative } => {
            if *negative {
                out.push('-');
            }
            out.push_str(&number_json(lit.base10_digits()));
        }
        ExValue::Float { lit, negative } => {
            if *negative {
                out.push('-');
            }
            out.push_str(&number_json(lit.base10_digits()));
        }
        ExValue::Bool(lit) => out.push_str(if lit.value { "true" } else { "false" }),
        ExValue::Null(_) => out.push_str("null"),
        ExValue::List { items, .. } => {
            out.push('[');
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                value_json(item, out);
            }
            out.push(']');
        }
        ExValue::Object(o) => object_json(o, out),
    }
}

/// A Rust number's digits (no suffix, no `_`; syn gives them in base 10)
/// as JSON writes a number: no leading zeros, a digit after a point.
fn number_json(digits: &str) -> String {
    let digits = digits.replace('_', "");
    let (mantissa, exponent) = match digits.find(['e', 'E']) {
        Some(i) => digits.split_at(i),
        None => (digits.as_str(), ""),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (mantissa, None),
    };
    let whole = whole.trim_start_matches('0');
    let mut out = String::from(if whole.is_empty() { "0" } else { whole });
    match fraction {
        Some("") => out.push_str(".0"),
        Some(f) => {
            out.push('.');
            out.push_str(f);
        }
        None => {}
    }
    out.push_str(exponent);
    out
}

/// A JSON string: quotes, backslashes and control characters escaped.
fn string_json(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::number_json;

    #[test]
    fn numbers_are_written_as_json_reads_them() {
        for (rust, json) in [
            ("10", "10"),
            ("007", "7"),
            ("0", "0"),
            ("1.", "1.0"),
            ("1.5", "1.5"),
            ("00.5", "0.5"),
            ("1e5", "1e5"),
            ("2.5E-3", "2.5E-3"),
            ("1_000", "1000"),
        ] {
            assert_eq!(number_json(rust), json, "{rust}");
        }
    }
}
