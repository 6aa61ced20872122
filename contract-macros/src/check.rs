//! The compile-time rules of `design.md`, one function each, the rule stated
//! above it. Each records its errors in the `Ctxt` and never stops the others.

use proc_macro2::Span;
use quote::ToTokens;
use syn::Type;

use crate::attr::{ApprovalAttr, ArgAttrs, IdempotencyAttr, ToolAttrs, FORMATS};
use crate::ctxt::Ctxt;
use crate::model::Field;
use crate::ty::Kind;

// C1: the tool has a description (doc comment or `description = "..."`).
pub fn c1_tool_description(cx: &Ctxt, description: &Option<String>, ident: &syn::Ident) {
    if description.as_deref().is_none_or(str::is_empty) {
        cx.error_spanned_by(
            ident,
            format!("tool `{ident}` has no description\nhelp: add a doc comment saying when to choose this tool (`/// Search the approved notes...`) or `description = \"...\"`"),
        );
    }
}

// C1: every argument has a description.
pub fn c1_arg_description(cx: &Ctxt, f: &Field) {
    if f.description.as_deref().is_none_or(str::is_empty) {
        cx.error_spanned_by(
            &f.ident,
            format!("argument `{}` has no description\nhelp: add a doc comment (`/// ...`) or `#[arg(description = \"...\")]` saying what the model should send", f.name),
        );
    }
}

// C2: `effect` is declared, one of the four classes.
pub fn c2_effect_declared(cx: &Ctxt, a: &ToolAttrs, ident: &syn::Ident) -> Option<String> {
    match &a.effect {
        // A misspelled `effect` key was reported by C11 already.
        None if a.attempted("effect") => None,
        None => {
            cx.error_spanned_by(
                ident,
                format!("tool `{ident}` has no `effect`\nhelp: add one of `effect = read_only`, `effect = reversible`, `effect = external`, `effect = destructive` to `#[tool_contract(...)]`"),
            );
            None
        }
        Some(e) => {
            let s = e.value.to_string();
            if crate::attr::EFFECTS.contains(&s.as_str()) {
                Some(s)
            } else {
                let hint = crate::ctxt::suggest(&s, crate::attr::EFFECTS)
                    .map(|k| format!("did you mean `{k}`?"))
                    .unwrap_or_else(|| {
                        "write `read_only`, `reversible`, `external` or `destructive`".into()
                    });
                cx.error_spanned_by(&e.value, format!("unknown effect `{s}`\nhelp: {hint}"));
                None
            }
        }
    }
}

/// The span of the user's `effect = ...` value: the token the effect rules are about.
fn effect_span(a: &ToolAttrs) -> Span {
    a.effect
        .as_ref()
        .map_or_else(Span::call_site, |e| e.value.span())
}

// C3: `destructive` requires an approval rule other than `never`.
pub fn c3_destructive_needs_approval(cx: &Ctxt, effect: &str, a: &ToolAttrs) {
    if effect != "destructive" {
        return;
    }
    match &a.approval {
        None if a.attempted("approval") => {}
        None => cx.error_at(
            effect_span(a),
            "`effect = destructive` needs an approval rule: a person confirms before anything is destroyed\nhelp: add `approval = always` or `approval = when(predicate)`",
        ),
        Some(ap) if matches!(ap.value, ApprovalAttr::Never) => cx.error_at(
            ap.span,
            "a destructive tool cannot have `approval = never`\nhelp: write `approval = always` or `approval = when(predicate)`",
        ),
        _ => {}
    }
}

// C4: `external` requires an explicit approval rule (`never` allowed, written out).
pub fn c4_external_explicit_approval(cx: &Ctxt, effect: &str, a: &ToolAttrs) {
    if effect == "external" && a.approval.is_none() && !a.attempted("approval") {
        cx.error_at(
            effect_span(a),
            "`effect = external` needs an explicit approval rule: others will see what this tool does\nhelp: add `approval = always`, `approval = when(predicate)`, or `approval = never` to say no person needs to approve",
        );
    }
}

// C5: a write (reversible, external, destructive) declares its idempotency;
// a read-only tool is naturally idempotent and may say only that.
pub fn c5_write_declares_idempotency(cx: &Ctxt, effect: &str, a: &ToolAttrs) {
    match (&a.idempotency, effect) {
        (None, "read_only") => {}
        (None, _) if a.attempted("idempotency") => {}
        (None, _) => cx.error_at(
            effect_span(a),
            format!("`effect = {effect}` needs a declared idempotency: it decides whether a repeated call repeats the effect\nhelp: add `idempotency = natural` (repeating is harmless), `idempotency = key(field)` (a request key), or `idempotency = none`"),
        ),
        (Some(i), "read_only") if !matches!(i.value, IdempotencyAttr::Natural) => cx.error_at(
            i.span,
            "a read_only tool is naturally idempotent\nhelp: remove `idempotency`, or write `idempotency = natural`",
        ),
        _ => {}
    }
}

// C6: an automatic retry policy needs idempotency `natural` or `key(...)`.
pub fn c6_retry_needs_idempotency(cx: &Ctxt, effect: &str, a: &ToolAttrs) {
    let Some(r) = &a.retry else { return };
    if r.value.attempts > 1 {
        match &a.idempotency {
            Some(i) if matches!(i.value, IdempotencyAttr::None) => cx.error_at(
                r.span,
                "`retry(...)` cannot be used with `idempotency = none`: a retry could repeat the tool's effect\nhelp: remove `retry(...)`, or make repeats safe with `idempotency = key(field)` or `idempotency = natural`",
            ),
            None if effect != "read_only" && !a.attempted("idempotency") => cx.error_at(
                r.span,
                format!("`retry(...)` on a {effect} tool needs `idempotency = natural` or `idempotency = key(field)`: a retry could repeat the tool's effect\nhelp: declare the idempotency, or remove `retry(...)`"),
            ),
            _ => {}
        }
    }
    if r.value.attempts == 0 {
        cx.error_at(r.span, "`retry(attempts = 0)` never runs the tool\nhelp: write `attempts = 1` for no retry, or more");
    }
}

// C7: `key(field)` names an existing string argument (inline parameters; for an
// argument struct the generated code asserts it with the field's type).
pub fn c7_key_names_string_arg(cx: &Ctxt, a: &ToolAttrs, fields: Option<&[Field]>) {
    let (Some(fields), Some(i)) = (fields, &a.idempotency) else {
        return;
    };
    let IdempotencyAttr::Key(key) = &i.value else {
        return;
    };
    match fields.iter().find(|f| f.ident == *key) {
        None => cx.error_spanned_by(
            key,
            format!(
                "`key({key})` names no argument\nhelp: the arguments are {}",
                fields.iter().map(|f| format!("`{}`", f.name)).collect::<Vec<_>>().join(", ")
            ),
        ),
        Some(f) if f.kind != Kind::String => cx.error_spanned_by(key, format!("`key({key})` must name a String argument, but `{key}` is {}\nhelp: make `{key}` a String, e.g. with `#[arg(format = \"uuid\")]`", f.kind.describe())),
        _ => {}
    }
}

// C8: the failure type implements ToolFailure: not bool, String, (), Box<dyn Error> or anyhow::Error.
pub fn c8_failure_type(cx: &Ctxt, err: &Type) {
    let text = err.to_token_stream().to_string().replace(' ', "");
    let bare = matches!(
        text.as_str(),
        "bool"
            | "String"
            | "()"
            | "&str"
            | "&'staticstr"
            | "anyhow::Error"
            | "std::io::Error"
            | "io::Error"
    ) || text.starts_with("Box<dyn")
        || text.ends_with("anyhow::Error");
    if bare {
        let text = tidy(err);
        cx.error_spanned_by(
            err,
            format!("`{text}` is not a typed failure: the model cannot tell one failure from another\nhelp: define an enum with `#[derive(ToolFailure)]` and a `#[failure(code = \"...\")]` on each variant"),
        );
    }
}

// C9: the name matches ^[a-zA-Z0-9_-]{1,64}$ and starts with a letter or `_`
// (the one name every provider accepts).
pub fn c9_name(cx: &Ctxt, name: &str, span: Span) {
    let b = name.as_bytes();
    let ok = !b.is_empty()
        && b.len() <= 64
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-');
    if !ok {
        cx.error_at(
            span,
            format!("tool name `{name}` is not accepted by every provider\nhelp: use 1 to 64 letters, digits, `_` or `-`, starting with a letter or `_`"),
        );
    }
}

// C10: each constraint fits its type (length on strings and lists, range on
// numbers, pattern and format on strings, unique and each on lists); a pattern
// is a valid regex; min <= max.
pub fn c10_constraints_fit(cx: &Ctxt, f: &Field) {
    fits(cx, &f.attrs, &f.kind, &f.name);
}

fn fits(cx: &Ctxt, a: &ArgAttrs, kind: &Kind, name: &str) {
    let ty = kind.describe();
    if let Some(l) = &a.length {
        if !(kind.is_stringy() || kind.is_list()) {
            cx.error_at(l.span, format!("`length(...)` does not fit `{name}`, which is {ty}\nhelp: `length` bounds strings and lists; for numbers write `range(min = .., max = ..)`"));
        }
        if let (Some(lo), Some(hi)) = (&l.value.min, &l.value.max) {
            if lo.value > hi.value {
                cx.error_at(
                    lo.span,
                    format!("`length(min = {}, max = {})` has min greater than max: no value can pass\nhelp: swap them: `length(min = {}, max = {})`", lo.value, hi.value, hi.value, lo.value),
                );
            }
        }
        if l.value.min.is_none() && l.value.max.is_none() {
            cx.error_at(l.span, "`length()` bounds nothing\nhelp: write `length(min = 1)`, `length(max = 200)` or both");
        }
    }
    if let Some(r) = &a.range {
        if !kind.is_number() {
            cx.error_at(r.span, format!("`range(...)` does not fit `{name}`, which is {ty}\nhelp: `range` bounds numbers; for strings and lists write `length(min = .., max = ..)`"));
        }
        let lo = r.value.min.as_ref().or(r.value.exclusive_min.as_ref());
        let hi = r.value.max.as_ref().or(r.value.exclusive_max.as_ref());
        let lo_key = if r.value.min.is_some() {
            "min"
        } else {
            "exclusive_min"
        };
        let hi_key = if r.value.max.is_some() {
            "max"
        } else {
            "exclusive_max"
        };
        if let (Some(lo), Some(hi)) = (lo, hi) {
            if lo.value > hi.value {
                let (l, h) = (
                    lo.tokens.to_string().replace(' ', ""),
                    hi.tokens.to_string().replace(' ', ""),
                );
                cx.error_spanned_by(
                    &lo.tokens,
                    format!("`range({lo_key} = {l}, {hi_key} = {h})` has min greater than max: no value can pass\nhelp: swap them: `range({lo_key} = {h}, {hi_key} = {l})`"),
                );
            }
        }
        if r.value.min.is_some() && r.value.exclusive_min.is_some()
            || r.value.max.is_some() && r.value.exclusive_max.is_some()
        {
            cx.error_at(r.span, "`range(...)` has both an inclusive and an exclusive bound on one side\nhelp: keep one");
        }
        if matches!(kind.inner(), Kind::Integer) {
            for n in [
                &r.value.min,
                &r.value.max,
                &r.value.exclusive_min,
                &r.value.exclusive_max,
            ]
            .into_iter()
            .flatten()
            {
                if n.int.is_none() {
                    cx.error_spanned_by(&n.tokens, format!("`{name}` is an integer, so its bounds must be integers\nhelp: write a whole number"));
                }
            }
        }
    }
    if let Some(p) = &a.pattern {
        if !kind.is_stringy() {
            cx.error_at(p.span, format!("`pattern` does not fit `{name}`, which is {ty}\nhelp: `pattern` constrains strings; for list items write `each(pattern = \"...\")`"));
        }
        let re = p.value.value();
        if let Err(e) = crate::pattern::check(&re) {
            cx.error_spanned_by(
                &p.value,
                format!("`pattern = {:?}` is not a valid regular expression: {e}\nhelp: fix the pattern; it must mean the same to the runtime's `regex` crate and to the ECMA-262 validators that read the published schema", re),
            );
        }
    }
    if let Some(fmt) = &a.format {
        if !kind.is_stringy() {
            cx.error_at(fmt.span, format!("`format` does not fit `{name}`, which is {ty}\nhelp: `format` constrains strings"));
        }
        let v = fmt.value.value();
        if !FORMATS.contains(&v.as_str()) {
            let hint = crate::ctxt::suggest(&v, FORMATS)
                .map(|s| format!("did you mean `{s}`?"))
                .unwrap_or_else(|| format!("the formats are {}", FORMATS.join(", ")));
            cx.error_spanned_by(&fmt.value, format!("unknown format `{v}`\nhelp: {hint}"));
        }
    }
    if let Some(u) = &a.unique {
        if !kind.is_list() {
            cx.error_at(u.span, format!("`unique` does not fit `{name}`, which is {ty}\nhelp: `unique` applies to lists"));
        }
    }
    if let Some(each) = &a.each {
        match kind.item() {
            Some(item) => fits(cx, &each.value, item, &format!("{name}[..]")),
            None => cx.error_at(each.span, format!("`each(...)` does not fit `{name}`, which is {ty}\nhelp: `each` constrains the items of a list")),
        }
    }
    if let Some(root) = &a.root {
        if !matches!(kind.inner(), Kind::Path)
            && !kind.item().is_some_and(|k| matches!(k, Kind::Path))
        {
            cx.error_at(root.span, format!("`root` does not fit `{name}`, which is {ty}\nhelp: `root` names where a ConfinedPath resolves"));
        }
    }
}

// C12: a constraint stated only in prose is an error: a doc comment that states
// a bound, a closed set, a format or a range for an argument that declares no
// matching constraint. `#[arg(prose = "why")]` opts out.
pub fn c12_prose_constraints(cx: &Ctxt, f: &Field, extra_doc: Option<&str>) {
    if f.attrs.prose.is_some() {
        return;
    }
    let declared = crate::prose::Declared {
        length: f.attrs.length.is_some(),
        range: f.attrs.range.is_some(),
        pattern: f.attrs.pattern.is_some()
            || f.attrs
                .each
                .as_ref()
                .is_some_and(|e| e.value.pattern.is_some()),
        format: f.attrs.format.is_some()
            || f.attrs
                .each
                .as_ref()
                .is_some_and(|e| e.value.format.is_some()),
        closed_set: matches!(f.kind.inner(), Kind::Other)
            || f.kind.item().is_some_and(|k| matches!(k, Kind::Other)),
        is_list: f.kind.is_list(),
        is_number: f.kind.is_number(),
        is_string: f.kind.is_stringy(),
    };
    let docs = f.description.iter().map(String::as_str).chain(extra_doc);
    for doc in docs {
        for claim in crate::prose::unmatched(doc, declared) {
            // The help is an attribute to write, or (for a closed set) a sentence.
            let fix = if claim.help.starts_with("#[") {
                format!("declare it with `{}`", claim.help)
            } else {
                claim.help.clone()
            };
            cx.error_spanned_by(
                &f.ident,
                format!(
                    "the description of `{}` states a constraint only in prose: \"{}\"\nhelp: {fix}; or, if it is not a constraint, opt out with `#[arg(prose = \"why\")]`",
                    f.name, claim.phrase
                ),
            );
        }
    }
}

// C13: a file-system path argument uses ConfinedPath, never PathBuf, &Path or a
// String named like a path.
pub fn c13_path_type(cx: &Ctxt, f: &Field) {
    let named_like_path = {
        let n = f.name.as_str();
        matches!(
            n,
            "path"
                | "file"
                | "filename"
                | "file_name"
                | "filepath"
                | "dir"
                | "directory"
                | "folder"
                | "dirname"
        ) || n.ends_with("_path")
            || n.ends_with("_file")
            || n.ends_with("_dir")
            || n.ends_with("_directory")
    };
    let fs = matches!(f.kind.inner(), Kind::FsPath)
        || f.kind.item().is_some_and(|k| matches!(k, Kind::FsPath));
    let string_path = named_like_path
        && (matches!(f.kind.inner(), Kind::String)
            || f.kind.item().is_some_and(|k| matches!(k, Kind::String)));
    if fs || string_path {
        cx.error_spanned_by(
            &f.ty,
            format!(
                "argument `{}` is a file-system path but its type `{}` is not confined\nhelp: use `ConfinedPath` (with `#[arg(root = \"...\")]`), which resolves beneath a held directory handle",
                f.name,
                tidy(&f.ty)
            ),
        );
    }
}

/// A type as the user wrote it, without the spaces token printing adds
/// (`Box<dyn std::error::Error + Send>`, not `Box < dyn std :: error :: Error + Send >`).
fn tidy(ty: &Type) -> String {
    ty.to_token_stream()
        .to_string()
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" <", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
        .replace("& ", "&")
}
