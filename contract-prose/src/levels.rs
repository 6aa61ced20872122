//! Written by `measure::levels_are_measured` (C12_BLESS=1 to rewrite), never
//! by hand: the recognizers whose precision over every held-out batch is at
//! least 0.97 with enough hits. Every other recognizer reports at the audit level.

/// The names of the recognizers at the error level.
pub(crate) const ERROR_LEVEL: &[&str] = &[];
