//! The driver: the one loop over a description's tokens. It runs the rows of
//! [`TABLE`] family by family (`bounds`, `spans`, ... in [`FAMILIES`]
//! order) and, within a family, token by token, each recognizer's reader in
//! the table's order; it owns that order and the cursor, and gives a
//! family's readers only the tokens that may open one of its shapes (the
//! family's bit in [`Tok::lead`](crate::tokens::Tok)).

use super::reader::{Cx, Out};
use super::recognizers::{Recognizer, FAMILIES, TABLE};
use super::tokens::{word, Tok};
use std::sync::OnceLock;

/// Runs the families whose bits are in `families` (`u8::MAX`: all) over
/// the tokens of `doc`, family after family, each from the first token.
pub(super) fn drive(t: &[Tok], doc: &str, families: u8, out: &mut Out) {
    // (a family that no token may open is not walked: most doc comments
    // open three or four of the seven)
    let families = t.iter().fold(0, |bits, x| bits | x.lead) & families;
    for (k, &(first, rows)) in family_rows().iter().enumerate() {
        let lead = 1 << k;
        let mut mark = 0;
        let mut i = 0;
        while families & lead != 0 && i < t.len() {
            i = if t[i].lead & lead == 0 {
                i + 1
            } else {
                let (w, mut next) = (word(t, i), i + 1);
                for (n, r) in rows.iter().enumerate() {
                    let before = out.len();
                    let c = Cx {
                        t,
                        doc,
                        w,
                        mark: &mut mark,
                        out: &mut *out,
                    };
                    let settled = (r.read)(c, i);
                    // each finding names the row whose reader pushed it
                    // (most calls push none: the test keeps an unoptimized
                    // macro from building an iterator at every one)
                    if out.len() > before {
                        for f in &mut out[before..] {
                            f.by = first + n;
                        }
                    }
                    if let Some(n) = settled {
                        next = n.max(i + 1);
                        break;
                    }
                }
                next
            };
        }
    }
}

/// Each family's rows with the index of its first row in [`TABLE`], in
/// [`FAMILIES`] order (the table holds each family's rows together, in
/// that order), split once.
fn family_rows() -> &'static [(usize, &'static [Recognizer])] {
    static ROWS: OnceLock<Vec<(usize, &[Recognizer])>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut rest = TABLE;
        let rows = FAMILIES.iter().map(|f| {
            let (rows, after) = rest.split_at(rest.iter().take_while(|r| r.family == *f).count());
            let first = TABLE.len() - rest.len();
            rest = after;
            (first, rows)
        });
        let rows = rows.collect();
        assert!(
            rest.is_empty(),
            "{} is out of its family's rows",
            rest[0].name
        );
        rows
    })
}

#[test]
fn every_row_runs() {
    assert_eq!(
        family_rows().iter().map(|r| r.1.len()).sum::<usize>(),
        TABLE.len()
    );
}

/// What the recognizers of `families` find in `doc`, each finding
/// summarized: `[("at most 200 characters", "max 200 Chars")]`.
#[cfg(test)]
pub(super) fn found_in(doc: &str, families: u8) -> Vec<(String, String)> {
    use super::finding::{run, summary};
    run(doc, |t, doc, out| drive(t, doc, families, out))
        .into_iter()
        .map(|(p, w)| (p, summary(&w)))
        .collect()
}

/// Asserts each case, written "description | phrase | what" with one more
/// "| phrase | what" for each further finding (the description alone for
/// none): the recognizers of `families` find in the description just those
/// findings, in order, each summarized as [`found_in`] summarizes it.
#[cfg(test)]
pub(super) fn assert_finds(families: u8, cases: &[&str]) {
    for case in cases {
        let mut parts = case.split(" | ");
        let doc = parts.next().unwrap_or_default();
        let want: Vec<&str> = parts.collect();
        assert!(
            want.len().is_multiple_of(2),
            "{case}: a phrase without what it finds"
        );
        let want: Vec<(String, String)> = want
            .chunks(2)
            .map(|p| (p[0].to_string(), p[1].to_string()))
            .collect();
        assert_eq!(found_in(doc, families), want, "{doc}");
    }
}
