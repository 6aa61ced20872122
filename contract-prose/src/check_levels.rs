//! Written by `tests/false_alarms.rs` (`contradiction_checks_are_measured`,
//! C12_BLESS=1 to rewrite), never by hand: the contradiction checks whose
//! precision over the labelled text is at least 0.97 with enough true hits.
//! Every other check reports at the audit level.

/// The names of the contradiction checks at the error level.
pub(crate) const CHECK_ERROR_LEVEL: &[&str] = &["bounds", "set-narrower"];
