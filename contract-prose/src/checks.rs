//! Every contradiction check, in one table: the ways prose and declaration
//! can disagree once a recognizer has read a constraint the argument also
//! declares ("at most 100" over `maximum: 500`, a listed set other than the
//! enum's values, "YYYY-MM-DD" over `format: date-time`).
//!
//! A check's level is measured as a recognizer's is (see
//! [`crate::Level`]): its hits are counted on labelled text (the held-out
//! batches and the false-alarm sets, where every contradiction is a false
//! hit since those descriptions are correct), and a check stops a build only
//! with precision at least 0.97 and at least 20 true hits, and then only on
//! prose read by a recognizer measured right within it (at least one true
//! hit of that check, no false one): a contradiction found on what another
//! recognizer read is an audit finding ([`CheckRow::level_for`]). The test
//! `false_alarms::contradiction_checks_are_measured` (in the workspace's
//! `tests/`, where the audit that reads the sets lives) writes the levels to
//! `src/check_levels.rs` and the table to `docs/rule-c12.md`.

use crate::check_levels::CHECK_ERROR_LEVEL;
use crate::Level;

/// One contradiction check: a row of [`CHECKS`].
#[derive(Clone, Copy, Debug)]
pub struct CheckRow {
    /// Its name, kebab-case, as an audit finding and the docs write it.
    pub name: &'static str,
    /// What it compares.
    pub compares: &'static str,
    /// A description and declaration it holds to disagree.
    pub example: &'static str,
    /// What it must not report, though the two look different.
    pub not: &'static str,
}

macro_rules! checks {
    ($($id:ident $name:literal compares $compares:literal e.g. $example:literal not $not:literal;)*) => {
        /// A contradiction check's identity; `CHECKS[check as usize]` is its row.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Check { $(#[doc = $compares] $id,)* }

        /// Every contradiction check, in the order of [`Check`].
        pub static CHECKS: &[CheckRow] = &[$(CheckRow {
            name: $name,
            compares: $compares,
            example: $example,
            not: $not,
        },)*];
    };
}

checks! {
    SetWider "set-wider"
        compares "a listed set that names a value the declared enum (or a pattern of alternatives) lacks"
        e.g. "\"One of `draft` or `final`\" over `enum: [draft, published]`"
        not "a list read in part (its values read so far are all declared)";
    SetNarrower "set-narrower"
        compares "a listed set, read to its end, that lacks a value the declaration has"
        e.g. "\"Only `asc` or `desc`\" over `enum: [asc, desc, random]`"
        not "a list the reader stopped inside (a gloss it could not close, a value it does not take for one: the list goes on after it), or one whose missing values the description names elsewhere";
    Bounds "bounds"
        compares "a numeric bound, length or list size against the declared one"
        e.g. "\"at most 100\" over `maximum: 500`"
        not "a side the prose does not state; an exclusive bound written inclusively (\"fewer than 10\" over `maximum: 9`)";
    DateBounds "date-bounds"
        compares "bounds written as days against a date argument's declared days"
        e.g. "\"Minimum is 1950-01-01\" over `range(min = \"1940-01-01\")`"
        not "a year against a day (\"at least 2001\")";
    PatternRepeat "pattern-repeat"
        compares "a count of characters of a class against the repeat of the declared pattern"
        e.g. "\"1-5 uppercase letters\" over `^[A-Z]{1,4}$`"
        not "a pattern that is not one class repeated";
    Format "format"
        compares "a named format against the declared one"
        e.g. "\"YYYY-MM-DD\" over `format: date-time`"
        not "\"ISO 8601\" or \"RFC 3339\" over any date, time or duration format";
    Span "span"
        compares "a distance in time on a date argument against the tool's declared `max_span`"
        e.g. "\"at most 60 days after `from`\" over `max_span(from, to, 90 days)`"
        not "a bare number that may bound the value itself";
    ShapeLength "shape-length"
        compares "the length of a shape described in words against the declared pattern's"
        e.g. "\"A 6-digit code\" over `^[0-9]{4}$`"
        not "a shape in words of a length the pattern allows, in any letter case";
}

impl Check {
    /// Its row of [`CHECKS`].
    pub fn row(self) -> &'static CheckRow {
        &CHECKS[self as usize]
    }
}

impl CheckRow {
    /// The level of a contradiction it finds on prose the recognizer named
    /// `by` read: the error level only when the check is measured right and
    /// that recognizer is measured right within it (`src/check_levels.rs`);
    /// every other contradiction is an audit finding. The one place a
    /// contradiction's level is decided, for the macro and the runtime alike.
    pub fn level_for(&self, by: &str) -> Level {
        let error = CHECK_ERROR_LEVEL
            .iter()
            .any(|(check, recs)| *check == self.name && recs.contains(&by));
        if error {
            Level::Error
        } else {
            Level::Audit
        }
    }
}
