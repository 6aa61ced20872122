//! The driver: the one loop over a description's tokens. Each family of
//! recognizers (one module: `bounds`, `spans`, ... in [`FAMILIES`] order) is
//! a step, data in [`STEPS`]; the driver owns the order and the cursor, and
//! gives a family's step only the tokens that may open one of its shapes
//! (the family's bit in [`Tok::lead`](crate::tokens::Tok)).
//!
//! A step reads what starts at token `i`, pushes its findings and returns
//! where the family's next step may start: `i + 1`, or past a shape it has
//! read whole. `mark` is the family's one memory between steps (a position
//! up to which a list or a legend is already read).

use super::finding::{Found, BOUNDS, EMPTINESS, FORMATS, PATTERNS, SERVABLE, SETS, SIGNS, SPANS};
use super::tokens::Tok;
#[cfg(test)]
use super::FAMILIES;

/// One family's step: `(tokens, text, i, mark, findings) -> next i`.
pub(super) type Step = fn(&[Tok], &str, usize, &mut usize, &mut Out) -> usize;

/// The findings a step pushes to.
pub(super) type Out = Vec<Found>;

/// Each family's lead bit and step, in the order of [`FAMILIES`]: the order
/// the driver runs them, which is the order of the findings.
pub(super) const STEPS: [(u8, Step); 8] = [
    (BOUNDS, super::bounds::step),
    (SPANS, super::spans::step),
    (SERVABLE, super::servable::step),
    (EMPTINESS, super::emptiness::step),
    (SIGNS, super::signs::step),
    (SETS, super::closed_sets::step),
    (FORMATS, super::formats::step),
    (PATTERNS, super::patterns::step),
];

/// Runs the families whose bits are in `families` (`u8::MAX`: all) over
/// the tokens of `doc`, family after family, each from the first token.
pub(super) fn drive(t: &[Tok], doc: &str, families: u8, out: &mut Vec<Found>) {
    for (lead, step) in STEPS.iter().filter(|(lead, _)| families & lead != 0) {
        let (mut i, mut mark) = (0, 0);
        while i < t.len() {
            i = if t[i].lead & lead == 0 {
                i + 1
            } else {
                step(t, doc, i, &mut mark, out).max(i + 1)
            };
        }
    }
}

#[test]
fn one_step_per_family_in_order() {
    assert_eq!(STEPS.len(), FAMILIES.len());
    for (k, (lead, _)) in STEPS.iter().enumerate() {
        assert_eq!(*lead, 1 << k, "{}", FAMILIES[k]);
    }
}
