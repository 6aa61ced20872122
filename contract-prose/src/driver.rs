//! The driver: the one loop over a description's tokens. It runs the rows of
//! [`TABLE`] family by family (`bounds`, `spans`, ... in [`FAMILIES`]
//! order) and, within a family, token by token, each recognizer's reader in
//! the table's order; it owns that order and the cursor, and gives a
//! family's readers only the tokens that may open one of its shapes (the
//! family's bit in [`Tok::lead`](crate::tokens::Tok)).

use super::finding::Found;
use super::recognizers::{Recognizer, FAMILIES, TABLE};
use super::tokens::{word, Tok};
use std::sync::OnceLock;

/// The findings a reader pushes to.
pub(super) type Out = Vec<Found>;

/// What a reader sees: the description's tokens and text, the word at the
/// cursor (`""` on another token), its family's one memory between tokens
/// (`mark`: a position up to which a list or a legend is already read) and
/// the findings.
pub(super) struct Cx<'a> {
    pub(super) t: &'a [Tok],
    pub(super) doc: &'a str,
    pub(super) w: &'a str,
    pub(super) mark: &'a mut usize,
    pub(super) out: &'a mut Out,
}

/// A recognizer's reader: reads what starts at token `i` and pushes its
/// findings. `Some(next)` says the shape at `i` is settled (read, or ruled
/// out for the family): its family's later readers skip `i` and the family
/// goes on at `next`; `None` hands `i` to the family's next reader.
pub(super) type Read = fn(Cx, usize) -> Option<usize>;

/// A reader's answer for a token it settles without reading past it: the
/// family goes on at the next token (the driver never moves back).
pub(super) const NEXT: Option<usize> = Some(0);

/// Runs the families whose bits are in `families` (`u8::MAX`: all) over
/// the tokens of `doc`, family after family, each from the first token.
pub(super) fn drive(t: &[Tok], doc: &str, families: u8, out: &mut Out) {
    // (a family that no token may open is not walked: most doc comments
    // open three or four of the eight)
    let families = t.iter().fold(0, |bits, x| bits | x.lead) & families;
    for (k, rows) in family_rows().iter().enumerate() {
        let lead = 1 << k;
        let mut mark = 0;
        let mut i = 0;
        while families & lead != 0 && i < t.len() {
            i = if t[i].lead & lead == 0 {
                i + 1
            } else {
                let (w, mut next) = (word(t, i), i + 1);
                for r in *rows {
                    let c = Cx {
                        t,
                        doc,
                        w,
                        mark: &mut mark,
                        out: &mut *out,
                    };
                    if let Some(n) = (r.read)(c, i) {
                        next = n.max(i + 1);
                        break;
                    }
                }
                next
            };
        }
    }
}

/// Each family's rows, in [`FAMILIES`] order (the table holds each
/// family's rows together, in that order), split once.
fn family_rows() -> &'static [&'static [Recognizer]] {
    static ROWS: OnceLock<Vec<&[Recognizer]>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut rest = TABLE;
        let rows = FAMILIES.iter().map(|f| {
            let (rows, after) = rest.split_at(rest.iter().take_while(|r| r.family == *f).count());
            rest = after;
            rows
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
        family_rows().iter().map(|r| r.len()).sum::<usize>(),
        TABLE.len()
    );
}
