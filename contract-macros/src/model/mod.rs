//! The semantic models the macros check and expand: one [`Tool`] per
//! `#[tool_contract]`, one [`Field`] per argument, one [`FailureEnum`] per
//! `#[derive(ToolFailure)]`, one [`ArgsInput`] per `#[derive(ToolArgs)]`.
//! Built once from the syntax (with the attribute grammar of `attr.rs`), with
//! the user's tokens kept for spans; the rules and the expansion read only
//! these and the words of `vocab`.

mod args;
mod failure;
mod field;
mod tool;

use crate::vocab::Sp;

pub use args::{ArgsInput, ClosedSet, Tagged, TaggedVariant};
pub use failure::{FailureEnum, FailureVariant, VariantShape};
pub use field::Field;
pub use tool::{Args, Output, Param, Tool};

/// An attribute key a rule may require.
#[derive(Clone)]
pub enum Slot<T> {
    /// Not written.
    Absent,
    /// Written but not understood (a misspelled key, an unknown value), and
    /// already reported: the rules that require the key stay quiet, so one
    /// mistake gives one error.
    Reported,
    /// Written and understood.
    Given(Sp<T>),
}

impl<T> Slot<T> {
    /// The slot from what the parser found, and whether it reported the key.
    pub fn new(found: Option<Sp<T>>, reported: bool) -> Slot<T> {
        match (found, reported) {
            (Some(v), _) => Slot::Given(v),
            (None, true) => Slot::Reported,
            (None, false) => Slot::Absent,
        }
    }

    pub fn given(&self) -> Option<&Sp<T>> {
        match self {
            Slot::Given(v) => Some(v),
            _ => None,
        }
    }

    pub fn value(&self) -> Option<&T> {
        self.given().map(|v| &v.value)
    }

    pub fn is_absent(&self) -> bool {
        matches!(self, Slot::Absent)
    }
}
