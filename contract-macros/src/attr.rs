//! The attribute grammar: `#[tool_contract(...)]`, `#[arg(...)]` and
//! `#[failure(...)]` read into typed values (the vocabularies of `model`) that
//! keep the user's tokens for spans. Unknown and duplicated keys are noted in
//! the `Ctxt` as they are met, for rule C11 (`check/keys.rs`) to report;
//! everything else the rules judge is left to them.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, ExprUnary, Ident, Lit, LitInt, LitStr, Path, Token, UnOp};

use crate::ctxt::{suggest, Ctxt, KeyMet};
use crate::vocab::{
    ApprovalRule, Effect, ExKey, ExObject, ExValue, Format, Idempotency, NumLit, Retry, RuleDecl,
    RuleKind, Sp, SpanUnit, TaskMode, Word,
};

/// Notes `key`, written again at `span`, for rule C11.
fn twice(cx: &Ctxt, key: &str, span: Span) {
    cx.key_met(KeyMet::Twice {
        key: key.to_owned(),
        span,
    });
}

/// Sets an attribute value once; a second `set` is noted for rule C11.
fn set<T>(cx: &Ctxt, slot: &mut Option<Sp<T>>, key: &str, span: Span, value: T) {
    if slot.is_some() {
        twice(cx, key, span);
    } else {
        *slot = Some(Sp { value, span });
    }
}

/// Parses `key = value` or `key(...)` that this macro does not know: notes
/// it for rule C11 and consumes its tokens so parsing can go on. Returns the known key it
/// was probably meant to be, so the rules can skip "missing key" errors for it.
fn skip_unknown(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    what: &'static str,
    known: &'static [&'static str],
) -> syn::Result<Option<&'static str>> {
    let key = meta.path.to_token_stream().to_string().replace(' ', "");
    let meant = suggest(&key, known);
    cx.key_met(KeyMet::Unknown {
        tokens: meta.path.to_token_stream(),
        what,
        key,
        known,
    });
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let _ = meta.parse_nested_meta(|m| {
            if m.input.peek(Token![=]) {
                m.value()?.parse::<Expr>()?;
            }
            Ok(())
        });
    }
    Ok(meant)
}

/// A flag (`secret`, `unique`, `transient`) written with a value
/// (`secret = true`): one error naming the flag, where syn would say only
/// "expected `,`". The value is read and dropped so the keys after it are
/// still read.
fn flag(cx: &Ctxt, meta: &ParseNestedMeta, attr: &str) -> syn::Result<()> {
    if !meta.input.peek(Token![=]) {
        return Ok(());
    }
    let key = meta.path.to_token_stream().to_string();
    let value: Expr = meta.value()?.parse()?;
    cx.error_spanned_by(
        &value,
        format!("`{key}` is a flag and takes no value\nhelp: write `#[{attr}({key})]` to set it, and leave it out otherwise"),
    );
    Ok(())
}

/// "did you mean `natural`?" for a word close to one of `words`.
fn did_you_mean(word: &str, words: &[&str]) -> Option<String> {
    suggest(word, words).map(|w| format!("did you mean `{w}`?"))
}

// ---------------------------------------------------------------- numbers

/// Whether `s` has the shape of an RFC 3339 full-date, date-time or
/// partial-time (digits where digits go); the calendar is the runtime's.
fn is_date_bound(s: &str) -> bool {
    fn shape(s: &str, pat: &str) -> bool {
        s.len() == pat.len()
            && s.bytes().zip(pat.bytes()).all(|(c, p)| match p {
                b'9' => c.is_ascii_digit(),
                p => c == p,
            })
    }
    // A time, and whether it carries an offset.
    let time = |t: &str| -> Option<bool> {
        let (hms, rest) = t.split_at(t.len().min(8));
        let rest = match rest.strip_prefix('.') {
            Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) => {
                r.trim_start_matches(|c: char| c.is_ascii_digit())
            }
            Some(_) => return None,
            None => rest,
        };
        if !shape(hms, "99:99:99") {
            return None;
        }
        match rest {
            "" => Some(false),
            "Z" => Some(true),
            r if shape(r, "+99:99") || shape(r, "-99:99") => Some(true),
            _ => None,
        }
    };
    match s.split_once('T') {
        // A date-time needs its offset to name an instant.
        Some((d, t)) => shape(d, "9999-99-99") && time(t) == Some(true),
        None => shape(s, "9999-99-99") || time(s).is_some(),
    }
}

/// A whole number at `input`, the value of the key `key` (`timeout_ms`,
/// `attempts`, `length(min ..)`). A suffix (`5s`, `2min`, `1kb`) is refused,
/// not dropped: the key names its unit, and a unit written after the number
/// would silently mean something else.
fn whole<T: std::str::FromStr>(input: syn::parse::ParseStream<'_>, key: &str) -> syn::Result<T>
where
    T::Err: std::fmt::Display,
{
    let help = format!("`{key}` takes a whole number, like `{key} = 3`");
    let lit = input.parse::<LitInt>().map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("{help}\nhelp: write a whole number, with no sign or unit"),
        )
    })?;
    if !lit.suffix().is_empty() {
        return Err(syn::Error::new(
            lit.span(),
            format!(
                "`{key} = {lit}` has a suffix `{}` the number cannot carry: `{key}` names its own unit\nhelp: write `{key} = {}`",
                lit.suffix(),
                lit.base10_digits()
            ),
        ));
    }
    // syn reads `-1` as one literal: its parse error ("invalid digit found
    // in string") would be the help. Say what to write instead.
    lit.base10_parse().map_err(|_| {
        let why = if lit.base10_digits().starts_with('-') {
            "write a whole number, with no sign or unit"
        } else {
            "the number is too large"
        };
        syn::Error::new(lit.span(), format!("{help}\nhelp: {why}"))
    })
}

fn parse_num(input: syn::parse::ParseStream) -> syn::Result<NumLit> {
    let expr: Expr = input.parse()?;
    let (neg, lit) = match &expr {
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) => (true, &**inner),
        e => (false, e),
    };
    let sign = if neg { -1.0 } else { 1.0 };
    match lit {
        Expr::Lit(ExprLit {
            lit: Lit::Int(i), ..
        }) if i.suffix().is_empty() => {
            let v: i64 = i.base10_parse()?;
            let v = if neg { -v } else { v };
            Ok(NumLit {
                tokens: expr.to_token_stream(),
                value: v as f64,
                int: Some(v),
            })
        }
        Expr::Lit(ExprLit {
            lit: Lit::Float(f), ..
        }) if f.suffix().is_empty() => {
            let v: f64 = f.base10_parse()?;
            Ok(NumLit {
                tokens: expr.to_token_stream(),
                value: sign * v,
                int: None,
            })
        }
        _ => Err(syn::Error::new_spanned(
            expr,
            "expected a plain number, like `1` or `0.5`, with no suffix or unit",
        )),
    }
}

// ---------------------------------------------------------------- #[arg(...)]

pub const ARG_KEYS: &[&str] = &[
    "length",
    "range",
    "pattern",
    "format",
    "unique",
    "each",
    "secret",
    "root",
    "prose",
    "description",
    "served",
];
/// The keys `each(...)` accepts: the constraints that apply to one list item.
pub const EACH_KEYS: &[&str] = &["length", "range", "pattern", "format", "unique", "served"];
/// The keys `served(...)` accepts: the bounds that can limit what a tool serves.
const SERVED_KEYS: &[&str] = &["range"];
const LENGTH_KEYS: &[&str] = &["min", "max"];
const RANGE_KEYS: &[&str] = &["min", "max", "exclusive_min", "exclusive_max"];

#[derive(Default, Clone)]
pub struct Length {
    pub min: Option<Sp<u64>>,
    pub max: Option<Sp<u64>>,
    /// A key inside was not understood and is reported (C11): an empty
    /// `length()` is then not also said to bound nothing.
    pub reported: bool,
}

#[derive(Default, Clone)]
pub struct Range {
    pub min: Option<NumLit>,
    pub max: Option<NumLit>,
    pub exclusive_min: Option<NumLit>,
    pub exclusive_max: Option<NumLit>,
    /// `min = "2001-01-01"`: a date or time bound (`formatMinimum`).
    pub min_text: Option<LitStr>,
    /// `max = ".."`: `formatMaximum`.
    pub max_text: Option<LitStr>,
}

/// `served(range(..))`: bounds of what the tool serves (an index that holds
/// records back to 2001), apart from bounds of the form of a value.
#[derive(Default, Clone)]
pub struct ServedAttrs {
    pub range: Option<Sp<Range>>,
    /// An unknown key inside was reported (C11): "declares no bound" would repeat it.
    pub reported: bool,
}

/// Consumes `()` when a key's parentheses are empty (`served()`), which
/// `parse_nested_meta` refuses with a bare syntax error; the rules then say
/// what is missing.
fn empty_parens(meta: &ParseNestedMeta) -> syn::Result<bool> {
    let ahead = meta.input.fork();
    let content;
    syn::parenthesized!(content in ahead);
    if content.is_empty() {
        let _empty;
        syn::parenthesized!(_empty in meta.input);
        return Ok(true);
    }
    Ok(false)
}

/// Everything `#[arg(...)]` declares about one value.
#[derive(Default, Clone)]
pub struct ArgAttrs {
    pub length: Option<Sp<Length>>,
    pub range: Option<Sp<Range>>,
    pub pattern: Option<Sp<LitStr>>,
    pub format: Option<Sp<Word<Format>>>,
    pub unique: Option<Sp<()>>,
    pub each: Option<Sp<Box<ArgAttrs>>>,
    pub secret: Option<Sp<()>>,
    pub root: Option<Sp<LitStr>>,
    pub prose: Option<Sp<LitStr>>,
    pub description: Option<Sp<LitStr>>,
    pub served: Option<Sp<ServedAttrs>>,
}

impl ArgAttrs {
    /// The range as published and enforced: the bounds of form, with the
    /// served side filled in from `served(range(..))`. A side declared by
    /// both is an error of rule C10; here the bound of form is kept.
    pub fn full_range(&self) -> Option<Range> {
        let form = self.range.as_ref().map(|r| &r.value);
        let served = self.served_range();
        if form.is_none() && served.is_none() {
            return None;
        }
        let mut r = form.cloned().unwrap_or_default();
        if let Some(sv) = served {
            if !r.has_min() {
                r.min = sv.min.clone();
                r.exclusive_min = sv.exclusive_min.clone();
                r.min_text = sv.min_text.clone();
            }
            if !r.has_max() {
                r.max = sv.max.clone();
                r.exclusive_max = sv.exclusive_max.clone();
                r.max_text = sv.max_text.clone();
            }
        }
        Some(r)
    }

    /// The range inside `served(..)`, if any.
    pub fn served_range(&self) -> Option<&Range> {
        self.served
            .as_ref()
            .and_then(|s| s.value.range.as_ref())
            .map(|r| &r.value)
    }

    /// Which sides of [`ArgAttrs::full_range`] are served: (min, max).
    pub fn served_sides(&self) -> (bool, bool) {
        let form = self.range.as_ref().map(|r| &r.value);
        match self.served_range() {
            Some(sv) => (
                sv.has_min() && !form.is_some_and(Range::has_min),
                sv.has_max() && !form.is_some_and(Range::has_max),
            ),
            None => (false, false),
        }
    }
}

impl Range {
    /// Whether a lower bound is declared (inclusive, exclusive or a date).
    pub fn has_min(&self) -> bool {
        self.min.is_some() || self.exclusive_min.is_some() || self.min_text.is_some()
    }

    /// Whether an upper bound is declared.
    pub fn has_max(&self) -> bool {
        self.max.is_some() || self.exclusive_max.is_some() || self.max_text.is_some()
    }

    /// The numeric lower bound, inclusive or exclusive.
    pub fn lower(&self) -> Option<&NumLit> {
        self.min.as_ref().or(self.exclusive_min.as_ref())
    }

    /// The numeric upper bound, inclusive or exclusive.
    pub fn upper(&self) -> Option<&NumLit> {
        self.max.as_ref().or(self.exclusive_max.as_ref())
    }
}

/// Parses every `#[arg(...)]` on a field or parameter.
pub fn parse_arg_attrs(cx: &Ctxt, attrs: &[syn::Attribute]) -> ArgAttrs {
    let mut out = ArgAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("arg")) {
        if let Err(e) = attr.parse_nested_meta(|meta| parse_arg_key(cx, &meta, &mut out, true)) {
            cx.syn_error(e);
        }
    }
    out
}

fn parse_arg_key(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    out: &mut ArgAttrs,
    top: bool,
) -> syn::Result<()> {
    let span = meta.path.span();
    let key = meta
        .path
        .get_ident()
        .map(Ident::to_string)
        .unwrap_or_default();
    match key.as_str() {
        "length" => {
            let mut l = Length::default();
            meta.parse_nested_meta(|m| {
                let k = m.path.get_ident().map(Ident::to_string).unwrap_or_default();
                let s = m.path.span();
                match k.as_str() {
                    "min" | "max" => {
                        let v: u64 = whole(m.value()?, &k)?;
                        let slot = if k == "min" { &mut l.min } else { &mut l.max };
                        set(cx, slot, &k, s, v);
                    }
                    _ => {
                        skip_unknown(cx, &m, "length", LENGTH_KEYS)?;
                        l.reported = true;
                    }
                }
                Ok(())
            })?;
            set(cx, &mut out.length, "length", span, l);
        }
        "range" => {
            let r = parse_range(cx, meta)?;
            set(cx, &mut out.range, "range", span, r);
        }
        "served" => {
            let mut sv = ServedAttrs::default();
            if !empty_parens(meta)? {
                meta.parse_nested_meta(|m| {
                    if m.path.is_ident("range") {
                        let r = if empty_parens(&m)? {
                            Range::default()
                        } else {
                            parse_range(cx, &m)?
                        };
                        set(cx, &mut sv.range, "range", m.path.span(), r);
                    } else {
                        skip_unknown(cx, &m, "served(...)", SERVED_KEYS)?;
                        sv.reported = true;
                    }
                    Ok(())
                })?;
            }
            set(cx, &mut out.served, "served", span, sv);
        }
        "pattern" => {
            let lit: LitStr = meta.value()?.parse()?;
            set(cx, &mut out.pattern, "pattern", span, lit);
        }
        "format" => {
            let lit: LitStr = meta.value()?.parse()?;
            let word = Word::read(&lit.value(), lit.span());
            set(cx, &mut out.format, "format", span, word);
        }
        "unique" => {
            flag(cx, meta, "arg")?;
            set(cx, &mut out.unique, "unique", span, ());
        }
        "each" if top => {
            let mut inner = ArgAttrs::default();
            meta.parse_nested_meta(|m| parse_arg_key(cx, &m, &mut inner, false))?;
            set(cx, &mut out.each, "each", span, Box::new(inner));
        }
        "secret" if top => {
            flag(cx, meta, "arg")?;
            set(cx, &mut out.secret, "secret", span, ());
        }
        "root" if top => {
            let lit: LitStr = meta.value()?.parse()?;
            set(cx, &mut out.root, "root", span, lit);
        }
        "prose" if top => {
            let lit: LitStr = meta.value()?.parse()?;
            reason_given(cx, &lit);
            set(cx, &mut out.prose, "prose", span, lit);
        }
        "description" if top => {
            let lit: LitStr = meta.value()?.parse()?;
            set(cx, &mut out.description, "description", span, lit);
        }
        _ if top => {
            skip_unknown(cx, meta, "#[arg]", ARG_KEYS)?;
        }
        _ => {
            skip_unknown(cx, meta, "each(...)", EACH_KEYS)?;
        }
    }
    Ok(())
}

/// `range(min = .., max = .., exclusive_min = .., exclusive_max = ..)`, with
/// numbers, or with RFC 3339 strings for dates and times.
fn parse_range(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Range> {
    let mut r = Range::default();
    meta.parse_nested_meta(|m| {
        let k = m.path.get_ident().map(Ident::to_string).unwrap_or_default();
        if matches!(k.as_str(), "min" | "max") && m.input.peek2(LitStr) {
            let lit: LitStr = m.value()?.parse()?;
            if !is_date_bound(&lit.value()) {
                cx.error_at(
                    lit.span(),
                    format!(
                        "`{}` is not a date, date-time or time bound\n\
                         help: write an RFC 3339 value, such as \"2001-01-01\", \
                         \"2001-01-01T00:00:00Z\" or \"09:30:00\"",
                        lit.value()
                    ),
                );
            }
            let (slot, num) = if k == "min" {
                (&mut r.min_text, r.min.is_some())
            } else {
                (&mut r.max_text, r.max.is_some())
            };
            if slot.is_some() || num {
                twice(cx, &k, m.path.span());
            } else {
                *slot = Some(lit);
            }
            return Ok(());
        }
        let slot = match k.as_str() {
            "min" => &mut r.min,
            "max" => &mut r.max,
            "exclusive_min" => &mut r.exclusive_min,
            "exclusive_max" => &mut r.exclusive_max,
            _ => return skip_unknown(cx, &m, "range", RANGE_KEYS).map(drop),
        };
        let n = parse_num(m.value()?)?;
        if slot.is_some() {
            twice(cx, &k, m.path.span());
        } else {
            *slot = Some(n);
        }
        Ok(())
    })?;
    Ok(r)
}

// ---------------------------------------------------------------- #[tool_contract(...)]

pub const TOOL_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "effect",
    "idempotency",
    "authority",
    "approval",
    "retry",
    "timeout_ms",
    "state",
    "rules",
    "precheck",
    "prose",
    "examples",
    "task",
    "crate",
];
const RETRY_KEYS: &[&str] = &["attempts", "backoff_ms"];

#[derive(Default)]
pub struct ToolAttrs {
    pub name: Option<Sp<LitStr>>,
    pub description: Option<Sp<LitStr>>,
    /// Spanned on the effect word, the token the effect rules are about.
    pub effect: Option<Sp<Word<Effect>>>,
    /// The further effects of `effect = a + b`, each spanned on its word.
    pub also_effects: Vec<Sp<Word<Effect>>>,
    /// `title = "..."`: a human-readable name (MCP `title`).
    pub title: Option<Sp<LitStr>>,
    /// `state(Db, Mailer)`: the host state the handler takes.
    pub state: Option<Sp<Vec<syn::Type>>>,
    pub idempotency: Option<Sp<Idempotency>>,
    pub authority: Option<Sp<Vec<LitStr>>>,
    pub approval: Option<Sp<ApprovalRule>>,
    pub retry: Option<Sp<Retry>>,
    pub timeout_ms: Option<Sp<u64>>,
    pub krate: Option<Sp<Path>>,
    pub rules: Option<Sp<Vec<RuleDecl>>>,
    /// `precheck = path`: the tool's check before anyone is asked.
    pub precheck: Option<Sp<Path>>,
    /// `prose = "why"`: C12 does not read the tool's description.
    pub prose: Option<Sp<LitStr>>,
    /// `examples({..}, {..})`: examples of the arguments.
    pub examples: Option<Sp<Vec<ExObject>>>,
    /// `task = optional | required`: the call may run in the background.
    pub task: Option<Sp<Word<TaskMode>>>,
    /// Keys written but not understood and already reported: a misspelling
    /// (C11) or an unknown value. The rules do not also report them missing.
    pub reported: Vec<&'static str>,
    /// The attribute did not parse to its end (`effect = "read_only"`, a
    /// literal where a word goes): the error is reported, and the keys after
    /// it were never read, so no rule may call them missing.
    pub cut_short: bool,
}

impl ToolAttrs {
    /// Whether `key` was written but not understood (and reported), or may
    /// have been written after a parse error.
    pub fn reported(&self, key: &str) -> bool {
        self.cut_short || self.reported.contains(&key)
    }
}

pub fn parse_tool_attrs(cx: &Ctxt, args: TokenStream) -> ToolAttrs {
    let mut out = ToolAttrs::default();
    let parser = syn::meta::parser(|meta| parse_tool_key(cx, &meta, &mut out));
    if let Err(e) = syn::parse::Parser::parse2(parser, args) {
        cx.syn_error(e);
        out.cut_short = true;
    }
    out
}

/// A word at `input` (`read_only`, `natural`, an argument's name), or an
/// error there that says what to write instead of a string or a number.
fn word(input: syn::parse::ParseStream<'_>, help: &str) -> syn::Result<Ident> {
    input
        .parse::<Ident>()
        .map_err(|e| syn::Error::new(e.span(), help))
}

fn parse_tool_key(cx: &Ctxt, meta: &ParseNestedMeta, out: &mut ToolAttrs) -> syn::Result<()> {
    let span = meta.path.span();
    let key = if meta.path.is_ident("crate") {
        "crate".to_string()
    } else {
        meta.path
            .get_ident()
            .map(Ident::to_string)
            .unwrap_or_default()
    };
    match key.as_str() {
        "name" => {
            let lit: LitStr = meta.value()?.parse()?;
            set(cx, &mut out.name, "name", span, lit);
        }
        "description" => {
            let lit: LitStr = meta.value()?.parse()?;
            set(cx, &mut out.description, "description", span, lit);
        }
        "title" => {
            let lit: LitStr = meta.value()?.parse()?;
            set(cx, &mut out.title, "title", span, lit);
        }
        "prose" => {
            let lit: LitStr = meta.value()?.parse()?;
            reason_given(cx, &lit);
            set(cx, &mut out.prose, "prose", span, lit);
        }
        "state" => {
            let content;
            syn::parenthesized!(content in meta.input);
            let types = content
                .parse_terminated(|p| p.parse::<syn::Type>(), Token![,])?
                .into_iter()
                .collect();
            set(cx, &mut out.state, "state", span, types);
        }
        "effect" => {
            let input = meta.value()?;
            let id = word(
                input,
                "`effect` takes a word, not a string or a number\nhelp: write `effect = read_only`, `reversible`, `external` or `destructive` (several joined by `+`)",
            )?;
            // `effect = destructive + external`: several effects at once.
            while input.peek(Token![+]) {
                input.parse::<Token![+]>()?;
                let more: Ident = input.parse()?;
                out.also_effects.push(Sp {
                    value: Word::read(&more.to_string(), more.span()),
                    span: more.span(),
                });
            }
            let word = Word::read(&id.to_string(), id.span());
            if out.effect.is_some() {
                set(cx, &mut out.effect, "effect", span, word);
            } else {
                out.effect = Some(Sp {
                    value: word,
                    span: id.span(),
                });
            }
        }
        "idempotency" => {
            let input = meta.value()?;
            let id = word(
                input,
                "`idempotency` takes a word, not a string\nhelp: write `idempotency = natural`, `none` or `key(field)`",
            )?;
            let v = match id.to_string().as_str() {
                "natural" => Idempotency::Natural,
                "none" => Idempotency::None,
                "key" => {
                    let named = "`key(...)` names the argument that holds the request key, as written in the signature, without quotes\nhelp: write `idempotency = key(request_key)`";
                    if !input.peek(syn::token::Paren) {
                        return Err(syn::Error::new(id.span(), named));
                    }
                    let inner;
                    syn::parenthesized!(inner in input);
                    if inner.is_empty() {
                        return Err(syn::Error::new(
                            inner.span(),
                            "`key()` needs the argument that holds the request key\nhelp: write `idempotency = key(request_key)`, naming the argument",
                        ));
                    }
                    // A keyword (`ref`, `type`) names the argument `r#ref`:
                    // say so, rather than that quotes were used.
                    if !inner.peek(LitStr) && !inner.peek(Ident) {
                        if let Ok(kw) = <Ident as syn::ext::IdentExt>::parse_any(&inner) {
                            return Err(syn::Error::new(
                                kw.span(),
                                format!("`{kw}` is a keyword, so the argument is `r#{kw}`\nhelp: write `idempotency = key(r#{kw})`"),
                            ));
                        }
                    }
                    Idempotency::Key(word(&inner, named)?)
                }
                other => {
                    let help = did_you_mean(other, &["natural", "none", "key(field)"])
                        .unwrap_or_else(|| "write `natural`, `none` or `key(field)`".into());
                    cx.error_spanned_by(
                        &id,
                        format!("unknown idempotency `{other}`\nhelp: {help}"),
                    );
                    out.reported.push("idempotency");
                    return Ok(());
                }
            };
            set(cx, &mut out.idempotency, "idempotency", span, v);
        }
        "authority" => {
            let input = meta.value()?;
            let scopes = if input.peek(syn::token::Bracket) {
                let inner;
                syn::bracketed!(inner in input);
                inner
                    .parse_terminated(|p| p.parse::<LitStr>(), Token![,])?
                    .into_iter()
                    .collect()
            } else {
                vec![input.parse::<LitStr>()?]
            };
            set(cx, &mut out.authority, "authority", span, scopes);
        }
        "approval" => {
            let input = meta.value()?;
            let id: Ident = input.parse()?;
            let v = match id.to_string().as_str() {
                "always" => ApprovalRule::Always,
                "never" => ApprovalRule::Never,
                "when" => {
                    let inner;
                    syn::parenthesized!(inner in input);
                    ApprovalRule::When(inner.parse()?)
                }
                other => {
                    let help = did_you_mean(other, &["always", "never", "when(predicate)"])
                        .unwrap_or_else(|| "write `always`, `never` or `when(predicate)`".into());
                    cx.error_spanned_by(
                        &id,
                        format!("unknown approval rule `{other}`\nhelp: {help}"),
                    );
                    out.reported.push("approval");
                    return Ok(());
                }
            };
            set(cx, &mut out.approval, "approval", span, v);
        }
        "retry" => {
            let mut attempts = None;
            let mut backoff = None;
            let mut misspelled = false;
            meta.parse_nested_meta(|m| {
                let k = m.path.get_ident().map(Ident::to_string).unwrap_or_default();
                let s = m.path.span();
                match k.as_str() {
                    "attempts" => {
                        let v: u32 = whole(m.value()?, "attempts")?;
                        set(cx, &mut attempts, "attempts", s, v);
                    }
                    "backoff_ms" => {
                        let v: u64 = whole(m.value()?, "backoff_ms")?;
                        set(cx, &mut backoff, "backoff_ms", s, v);
                    }
                    _ => {
                        skip_unknown(cx, &m, "retry", RETRY_KEYS)?;
                        misspelled = true;
                    }
                }
                Ok(())
            })?;
            let Some(attempts) = attempts else {
                // a misspelled `attempts` is reported once, as a misspelling
                if !misspelled {
                    cx.error_at(span, "`retry(...)` needs `attempts`\nhelp: write `retry(attempts = 3, backoff_ms = 100)`");
                }
                return Ok(());
            };
            let r = Retry {
                attempts: attempts.value,
                backoff_ms: backoff.map(|b| b.value).unwrap_or(100),
            };
            set(cx, &mut out.retry, "retry", span, r);
        }
        "timeout_ms" => {
            let v: u64 = whole(meta.value()?, "timeout_ms")?;
            set(cx, &mut out.timeout_ms, "timeout_ms", span, v);
        }
        "rules" => {
            let rules = parse_rules(cx, meta)?;
            set(cx, &mut out.rules, "rules", span, rules);
        }
        "precheck" => {
            let path: Path = meta.value()?.parse()?;
            set(cx, &mut out.precheck, "precheck", span, path);
        }
        "task" => {
            let id = word(
                meta.value()?,
                "`task` takes a word, not a string\nhelp: write `task = optional` or `task = required`",
            )?;
            let mode = Word::read(&id.to_string(), id.span());
            set(cx, &mut out.task, "task", span, mode);
        }
        "examples" => {
            let list = parse_examples(meta)?;
            set(cx, &mut out.examples, "examples", span, list);
        }
        "crate" => {
            let lit: LitStr = meta.value()?.parse()?;
            let p: Path = lit.parse()?;
            set(cx, &mut out.krate, "crate", span, p);
        }
        _ => {
            if let Some(meant) = skip_unknown(cx, meta, "#[tool_contract]", TOOL_KEYS)? {
                out.reported.push(meant);
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- examples(...)

/// What an example's value may be, for the error at anything else.
const EXAMPLE_VALUES: &str = "an example's value is a string, a number, `true` or `false`, `None`, a list `[..]` or an object `{..}`";

/// Parses `examples({..}, {..})`: objects of arguments, as a model would
/// send them, with Rust names for keys.
fn parse_examples(meta: &ParseNestedMeta) -> syn::Result<Vec<ExObject>> {
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(
            "`examples` takes a list of objects\nhelp: write `examples({query: \"kv cache\", limit: 10})`",
        ));
    }
    let content;
    syn::parenthesized!(content in meta.input);
    let mut list = Vec::new();
    while !content.is_empty() {
        if !content.peek(syn::token::Brace) {
            return Err(content.error(
                "each example is an object of arguments\nhelp: write `{query: \"kv cache\", limit: 10}`",
            ));
        }
        list.push(parse_example_object(&content, true)?);
        if !content.is_empty() {
            content.parse::<Token![,]>()?;
        }
    }
    Ok(list)
}

/// `{key: value, ..}`: at the top, the arguments (keys as the code names
/// them); below, an object or a map (keys may be strings).
fn parse_example_object(input: syn::parse::ParseStream<'_>, top: bool) -> syn::Result<ExObject> {
    let body;
    let braces = syn::braced!(body in input);
    let mut entries = Vec::new();
    while !body.is_empty() {
        let key = if !top && body.peek(LitStr) {
            ExKey::Str(body.parse()?)
        } else {
            ExKey::Ident(example_key(&body)?)
        };
        body.parse::<Token![:]>()?;
        let value = parse_example_value(&body)?;
        entries.push((key, value));
        if !body.is_empty() {
            body.parse::<Token![,]>()?;
        }
    }
    Ok(ExObject {
        entries,
        span: braces.span.join(),
    })
}

/// An argument's name: an identifier as in the signature, not a string.
fn example_key(input: syn::parse::ParseStream<'_>) -> syn::Result<Ident> {
    if input.peek(LitStr) {
        let lit: LitStr = input.parse()?;
        return Err(syn::Error::new(
            lit.span(),
            format!("an example names an argument as the code does, without quotes\nhelp: write `{}: ...`", lit.value()),
        ));
    }
    if !input.peek(Ident) {
        if let Ok(kw) = <Ident as syn::ext::IdentExt>::parse_any(&input.fork()) {
            return Err(syn::Error::new(
                kw.span(),
                format!(
                    "`{kw}` is a keyword, so the argument is `r#{kw}`\nhelp: write `r#{kw}: ...`"
                ),
            ));
        }
    }
    input.parse::<Ident>()
}

fn parse_example_value(input: syn::parse::ParseStream<'_>) -> syn::Result<ExValue> {
    let negative = input.peek(Token![-]);
    if negative {
        input.parse::<Token![-]>()?;
        return if input.peek(LitInt) {
            Ok(ExValue::Int {
                lit: input.parse()?,
                negative,
            })
        } else if input.peek(syn::LitFloat) {
            Ok(ExValue::Float {
                lit: input.parse()?,
                negative,
            })
        } else {
            Err(input.error("`-` goes before a number"))
        };
    }
    if input.peek(LitStr) {
        Ok(ExValue::Str(input.parse()?))
    } else if input.peek(LitInt) {
        Ok(ExValue::Int {
            lit: input.parse()?,
            negative,
        })
    } else if input.peek(syn::LitFloat) {
        Ok(ExValue::Float {
            lit: input.parse()?,
            negative,
        })
    } else if input.peek(syn::LitBool) {
        Ok(ExValue::Bool(input.parse()?))
    } else if input.peek(syn::token::Bracket) {
        let items;
        let brackets = syn::bracketed!(items in input);
        let mut list = Vec::new();
        while !items.is_empty() {
            list.push(parse_example_value(&items)?);
            if !items.is_empty() {
                items.parse::<Token![,]>()?;
            }
        }
        Ok(ExValue::List {
            items: list,
            span: brackets.span.join(),
        })
    } else if input.peek(syn::token::Brace) {
        Ok(ExValue::Object(parse_example_object(input, false)?))
    } else if input.peek(Ident) {
        let id: Ident = input.parse()?;
        if id == "None" || id == "null" {
            Ok(ExValue::Null(id.span()))
        } else {
            Err(syn::Error::new(
                id.span(),
                format!("{EXAMPLE_VALUES}, not a name\nhelp: a string is quoted: `\"{id}\"`"),
            ))
        }
    } else {
        Err(input.error(EXAMPLE_VALUES))
    }
}

// ---------------------------------------------------------------- rules(...)

/// The rules `rules(...)` knows.
pub const RULE_KEYS: &[&str] = &[
    "exactly_one_of",
    "at_most_one_of",
    "requires",
    "lt",
    "le",
    "max_span",
    "check",
];
/// The keys `#[args(...)]` on an argument struct accepts.
pub const ARGS_KEYS: &[&str] = &["rules"];

/// Parses `#[args(rules(...))]` on an argument struct.
pub fn parse_args_attrs(cx: &Ctxt, attrs: &[syn::Attribute]) -> Vec<RuleDecl> {
    let mut rules: Option<Sp<Vec<RuleDecl>>> = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("args")) {
        let r = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rules") {
                let span = meta.path.span();
                let list = parse_rules(cx, &meta)?;
                set(cx, &mut rules, "rules", span, list);
            } else {
                skip_unknown(cx, &meta, "#[args]", ARGS_KEYS)?;
            }
            Ok(())
        });
        if let Err(e) = r {
            cx.syn_error(e);
        }
    }
    rules.map(|r| r.value).unwrap_or_default()
}

/// Parses the rules inside `rules(...)`.
fn parse_rules(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Vec<RuleDecl>> {
    let mut out = Vec::new();
    meta.parse_nested_meta(|m| {
        let key = m.path.get_ident().map(Ident::to_string).unwrap_or_default();
        let span = m.path.span();
        let names = |input: syn::parse::ParseStream| -> syn::Result<Vec<Ident>> {
            Ok(input
                .parse_terminated(|p| p.parse::<Ident>(), Token![,])?
                .into_iter()
                .collect())
        };
        let kind = match key.as_str() {
            "exactly_one_of" | "at_most_one_of" => {
                let content;
                syn::parenthesized!(content in m.input);
                let list = names(&content)?;
                if key == "exactly_one_of" {
                    RuleKind::ExactlyOneOf(list)
                } else {
                    RuleKind::AtMostOneOf(list)
                }
            }
            "requires" => {
                let content;
                syn::parenthesized!(content in m.input);
                let a: Ident = content.parse()?;
                content.parse::<Token![=>]>()?;
                RuleKind::Requires(a, names(&content)?)
            }
            "lt" | "le" => {
                let content;
                syn::parenthesized!(content in m.input);
                let left: Ident = content.parse()?;
                content.parse::<Token![,]>()?;
                let right: Ident = content.parse()?;
                let _ = content.parse::<Option<Token![,]>>()?;
                RuleKind::Compare {
                    strict: key == "lt",
                    left,
                    right,
                }
            }
            "max_span" => {
                let content;
                syn::parenthesized!(content in m.input);
                let from: Ident = content.parse()?;
                content.parse::<Token![,]>()?;
                let to: Ident = content.parse()?;
                content.parse::<Token![,]>()?;
                let limit = parse_num(&content)?;
                let unit = if content.peek(Ident) {
                    let word: Ident = content.parse()?;
                    match SpanUnit::read(&word.to_string()) {
                        Some(u) => Some((u, word.span())),
                        None => {
                            let help = did_you_mean(&word.to_string(), SpanUnit::WORDS)
                                .unwrap_or_else(|| "write `days`, `hours`, `minutes` or `seconds`, or no unit for numbers".into());
                            return Err(syn::Error::new(word.span(), format!("unknown span unit `{word}`\nhelp: {help}")));
                        }
                    }
                } else {
                    None
                };
                let _ = content.parse::<Option<Token![,]>>()?;
                RuleKind::MaxSpan {
                    from,
                    to,
                    limit,
                    unit,
                }
            }
            "check" => {
                if m.input.peek(Token![=]) {
                    RuleKind::Check {
                        path: m.value()?.parse()?,
                        says: None,
                    }
                } else {
                    let content;
                    syn::parenthesized!(content in m.input);
                    let path: Path = content.parse()?;
                    let says = if content.parse::<Option<Token![,]>>()?.is_some() && !content.is_empty() {
                        Some(content.parse::<LitStr>()?)
                    } else {
                        None
                    };
                    RuleKind::Check { path, says }
                }
            }
            _ => {
                cx.key_met(KeyMet::Unknown {
                    tokens: m.path.to_token_stream(),
                    what: "rules(...)",
                    key,
                    known: RULE_KEYS,
                });
                if m.input.peek(Token![=]) {
                    m.value()?.parse::<Expr>()?;
                } else if m.input.peek(syn::token::Paren) {
                    let content;
                    syn::parenthesized!(content in m.input);
                    content.parse::<TokenStream>()?;
                }
                return Ok(());
            }
        };
        out.push(RuleDecl { kind, span });
        Ok(())
    })?;
    Ok(out)
}

// ---------------------------------------------------------------- #[failure(...)]

pub const FAILURE_KEYS: &[&str] = &[
    "code",
    "message",
    "field",
    "repair",
    "retry_safe",
    "retry_after_ms",
    "transient",
    "unknown",
    "denied",
];

#[derive(Default)]
pub struct FailureAttrs {
    pub code: Option<Sp<LitStr>>,
    pub message: Option<Sp<LitStr>>,
    pub field: Option<Sp<LitStr>>,
    pub repair: Option<Sp<LitStr>>,
    pub retry_safe: Option<Sp<bool>>,
    pub retry_after_ms: Option<Sp<u64>>,
    pub transient: Option<Sp<()>>,
    pub unknown: Option<Sp<()>>,
    pub denied: Option<Sp<()>>,
    /// A key was not understood and is reported (C11): a misspelled `code`
    /// is not also said to be missing.
    pub reported: bool,
}

pub fn parse_failure_attrs(cx: &Ctxt, attrs: &[syn::Attribute]) -> FailureAttrs {
    let mut out = FailureAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("failure")) {
        let r = attr.parse_nested_meta(|meta| {
            let span = meta.path.span();
            let key = meta
                .path
                .get_ident()
                .map(Ident::to_string)
                .unwrap_or_default();
            match key.as_str() {
                "code" => set(cx, &mut out.code, "code", span, meta.value()?.parse()?),
                "message" => set(
                    cx,
                    &mut out.message,
                    "message",
                    span,
                    meta.value()?.parse()?,
                ),
                "field" => set(cx, &mut out.field, "field", span, meta.value()?.parse()?),
                "repair" => set(cx, &mut out.repair, "repair", span, meta.value()?.parse()?),
                "retry_safe" => {
                    let v = if meta.input.peek(Token![=]) {
                        meta.value()?.parse::<syn::LitBool>()?.value
                    } else {
                        true
                    };
                    set(cx, &mut out.retry_safe, "retry_safe", span, v);
                }
                "retry_after_ms" => {
                    let v: u64 = whole(meta.value()?, "retry_after_ms")?;
                    set(cx, &mut out.retry_after_ms, "retry_after_ms", span, v);
                }
                "transient" | "unknown" | "denied" => {
                    flag(cx, &meta, "failure")?;
                    let slot = match key.as_str() {
                        "transient" => &mut out.transient,
                        "unknown" => &mut out.unknown,
                        _ => &mut out.denied,
                    };
                    set(cx, slot, &key, span, ());
                }
                _ => {
                    skip_unknown(cx, &meta, "#[failure]", FAILURE_KEYS)?;
                    out.reported = true;
                }
            }
            Ok(())
        });
        if let Err(e) = r {
            cx.syn_error(e);
        }
    }
    out
}

/// C12's opt-out is a reason, not a switch: `prose = ""` would silence the
/// rule and tell a reader nothing.
fn reason_given(cx: &Ctxt, lit: &LitStr) {
    if lit.value().trim().is_empty() {
        cx.error_spanned_by(
            lit,
            "`prose` needs a reason: why the description states no constraint\nhelp: write it out, like `prose = \"the numbers are examples, not limits\"`",
        );
    }
}
