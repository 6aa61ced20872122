//! Written by `tests/false_alarms.rs` (`contradiction_checks_are_measured`,
//! C12_BLESS=1 to rewrite), never by hand: the contradiction checks whose
//! precision over the labelled text is at least 0.97 with enough true hits,
//! each with the recognizers measured right within it (at least one true
//! hit, no false one). A contradiction is an error only when its check and
//! the recognizer that read the prose are listed here together; every
//! other contradiction reports at the audit level.

/// (check, the recognizers it is at the error level for), by name.
#[rustfmt::skip]
pub(crate) const CHECK_ERROR_LEVEL: &[(&str, &[&str])] = &[
    ("bounds", &["comparative", "span"]),
    ("set-narrower", &["described-values", "value-list"]),
];
