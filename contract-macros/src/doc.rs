//! Doc comments become user-facing descriptions (after clap_derive's
//! `doc_comments.rs`): lines joined into paragraphs, paragraphs kept apart.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The doc comment on `attrs`, or `None` when there is none.
pub fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    if lines.is_empty() {
        return None;
    }
    // Paragraphs are separated by blank lines; lines inside one are joined by
    // a space, but an item of a markdown list ("- ", "* ", "+ ", "1. ") keeps
    // its own line, as markdown shows it (and rule C12 reads it: an item is a
    // sentence of its own).
    let mut paragraphs: Vec<String> = Vec::new();
    let mut cur = String::new();
    for line in lines.iter().flat_map(|l| l.split('\n')) {
        let line = line.trim();
        if line.is_empty() {
            if !cur.is_empty() {
                paragraphs.push(std::mem::take(&mut cur));
            }
        } else {
            if !cur.is_empty() {
                cur.push(if list_item(line) { '\n' } else { ' ' });
            }
            cur.push_str(line);
        }
    }
    if !cur.is_empty() {
        paragraphs.push(cur);
    }
    let text = paragraphs.join("\n\n");
    (!text.is_empty()).then_some(text)
}

/// The first doc attribute whose text a macro gives (`#[doc =
/// include_str!("..")]`, `#[doc = concat!(..)]`), written as the user wrote
/// its name (`` `include_str!` ``), or "an expression". An attribute macro receives the tokens before
/// such a macro is expanded, so the text is not there to read: rule C1 says
/// so rather than asking for the doc comment the user wrote.
pub fn doc_by_macro(attrs: &[Attribute]) -> Option<String> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .find_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(_), ..
                }) => None,
                Expr::Macro(m) => Some(format!(
                    "`{}!`",
                    m.mac
                        .path
                        .segments
                        .last()
                        .map_or_else(String::new, |s| s.ident.to_string())
                )),
                _ => Some("an expression".to_owned()),
            },
            _ => None,
        })
}

/// A line opening a markdown list item: `-`, `*` or `+` and a space, or a
/// number of one to three digits, `.` or `)` and a space.
fn list_item(line: &str) -> bool {
    let b = line.as_bytes();
    if matches!(b.first(), Some(b'-' | b'*' | b'+')) {
        return b.get(1) == Some(&b' ');
    }
    let digits = b.iter().take(4).take_while(|c| c.is_ascii_digit()).count();
    (1..=3).contains(&digits)
        && matches!(b.get(digits), Some(b'.' | b')'))
        && b.get(digits + 1) == Some(&b' ')
}
