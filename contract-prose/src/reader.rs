//! What a recognizer's reader sees and how it answers: the one interface
//! between the driver, which owns the order and the cursor, and the family
//! modules, which read. A reader does not name its recognizer: the driver
//! stamps each finding with the row whose reader pushed it, so the readers
//! need neither the table nor its names.

use super::finding::Found;
use super::tokens::Tok;

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
