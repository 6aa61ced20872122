//! Family: emptiness (Length, Items).

use super::finding::*;
use super::reader::Cx;
use super::tokens::*;

pub(super) const LIST_WORDS: &[&str] = &[
    "list",
    "array",
    "vec",
    "set",
    "collection",
    "sequence",
    "lists",
    "arrays",
];

// Family: emptiness (Length, Items) — "non-empty", "must not be empty", "cannot be blank".
pub(super) fn must_not_be_empty(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    const NEGATED: &[&[&str]] = &[
        &["must", "not", "be", "empty"],
        &["must", "not", "be", "blank"],
        &["may", "not", "be", "empty"],
        &["should", "not", "be", "empty"],
        &["cannot", "be", "empty"],
        &["can't", "be", "empty"],
        &["cannot", "be", "blank"],
        &["must", "contain", "at", "least", "one"],
    ];
    let negation = matches!(w, "must" | "may" | "should" | "cannot" | "can't");
    if let Some(p) = NEGATED.iter().filter(|_| negation).find(|p| seq(t, i, p)) {
        if p[1] == "contain" {
            return Some(i + 1); // "must contain at least one" is read by the bounds detector
        }
        let list = (1..=6).any(|b| LIST_WORDS.contains(&prev_word(t, i, b)));
        out.push(found(What::NonEmpty { list }, i, i + p.len() - 1));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::driver::assert_finds;
    use super::*;

    /// Asserts each case (see [`assert_finds`]) of this family.
    fn finds(cases: &[&str]) {
        assert_finds(EMPTINESS, cases)
    }

    #[test]
    fn must_not_be_empty_of_values_and_lists() {
        finds(&[
            "Must not be empty. | Must not be empty | non-empty",
            "The list of tags cannot be empty. | cannot be empty | non-empty list",
        ]);
    }

    #[test]
    fn conditions_are_not_claims() {
        finds(&[
            "If non-empty, only these files are read.",
            "Must contain at least one label.",
            "An empty string clears the field.",
        ]);
    }
}
