//! The compile-time half of checking the examples a contract declares
//! (`#[tool_contract(examples({query: "kv cache", limit: 10}))]`).
//!
//! `#[tool_contract]` writes, for every value of every example, a line that
//! rustc must type-check against the argument it names:
//!
//! ```ignore
//! fn __examples(a: &SearchArgs) {
//!     Example::of(&a.query).str("kv cache");  // `query` must be a field, and take a string
//!     Example::of(&a.limit).int(10);          // `limit` must take an integer that holds 10
//! }
//! ```
//!
//! The function is never called: it exists to be compiled. A field the
//! arguments do not have is rustc's own error at the key; a value of the
//! wrong shape is an unmet bound of one of the traits below, whose message
//! names the shape and the argument's type; an integer that does not fit
//! is rustc's `literal out of range`. What the types cannot say (a
//! constraint, a rule across arguments, a required argument left out, the
//! fields inside a nested object) is checked when the registry is built,
//! by decoding the example as a call's arguments would be.

use std::collections::{BTreeMap, HashMap};
use std::marker::PhantomData;

use crate::path::ConfinedPath;

/// What one argument of an example is checked against (for generated code):
/// each method is bounded by the trait of the shape it writes, so a value
/// of the wrong shape is one error naming the shape and the type.
pub struct Example<T>(PhantomData<fn() -> T>);

impl<T> Clone for Example<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Example<T> {}

impl<T> Example<T> {
    /// The argument `field` (`&args.query`).
    pub fn of(_field: &T) -> Self {
        Example(PhantomData)
    }

    /// A string value.
    pub fn str(self, _value: &'static str)
    where
        T: ExampleStr,
    {
    }

    /// An integer value, typed as the argument (so rustc checks its range).
    pub fn int(self, _value: <T as ExampleInt>::Int)
    where
        T: ExampleInt,
    {
    }

    /// A number with a fraction or an exponent.
    pub fn float(self, _value: <T as ExampleFloat>::Float)
    where
        T: ExampleFloat,
    {
    }

    /// `true` or `false`.
    pub fn bool(self, _value: bool)
    where
        T: ExampleBool,
    {
    }

    /// A list: the handle of its items, which each item is checked against.
    pub fn list(self) -> Example<<T as ExampleList>::Item>
    where
        T: ExampleList,
    {
        Example(PhantomData)
    }

    /// An object (its fields are checked when the registry is built).
    pub fn object(self)
    where
        T: ExampleObject,
    {
    }

    /// `None`.
    pub fn null(self)
    where
        T: ExampleNull,
    {
    }
}

/// An argument an example may give a string.
#[diagnostic::on_unimplemented(
    message = "an example gives a string for a value of type `{Self}`",
    label = "a string, where `{Self}` goes"
)]
pub trait ExampleStr {}

/// An argument an example may give an integer; `Int` is the type the
/// literal is checked as.
#[diagnostic::on_unimplemented(
    message = "an example gives an integer for a value of type `{Self}`",
    label = "an integer, where `{Self}` goes"
)]
pub trait ExampleInt {
    /// The type of the literal.
    type Int;
}

/// An argument an example may give a number with a fraction.
#[diagnostic::on_unimplemented(
    message = "an example gives a number with a fraction for a value of type `{Self}`",
    label = "a fraction, where `{Self}` goes"
)]
pub trait ExampleFloat {
    /// The type of the literal.
    type Float;
}

/// An argument an example may give `true` or `false`.
#[diagnostic::on_unimplemented(
    message = "an example gives a bool for a value of type `{Self}`",
    label = "a bool, where `{Self}` goes"
)]
pub trait ExampleBool {}

/// An argument an example may give a list `[..]`.
#[diagnostic::on_unimplemented(
    message = "an example gives a list for a value of type `{Self}`",
    label = "a list, where `{Self}` goes"
)]
pub trait ExampleList {
    /// The type of each item.
    type Item;
}

/// An argument an example may give an object `{..}`: a struct or a tagged
/// enum with `#[derive(ToolArgs)]` (the derive implements it), a map.
#[diagnostic::on_unimplemented(
    message = "an example gives an object for a value of type `{Self}`",
    label = "an object, where `{Self}` goes"
)]
pub trait ExampleObject {}

/// An argument an example may give `None`: an optional one.
#[diagnostic::on_unimplemented(
    message = "an example gives `None` for a value of type `{Self}`, which is always sent",
    label = "`None`, where `{Self}` goes",
    note = "give it a value, or make the argument `Option<{Self}>`"
)]
pub trait ExampleNull {}

impl ExampleStr for String {}
impl ExampleStr for ConfinedPath {}
impl ExampleBool for bool {}

macro_rules! ints {
    ($($t:ty),*) => {$(
        impl ExampleInt for $t {
            type Int = $t;
        }
    )*};
}
ints!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

// A whole number is a fine example of a float (JSON has one number type):
// its literal is checked as the integer type of the same width.
impl ExampleInt for f64 {
    type Int = i64;
}
impl ExampleInt for f32 {
    type Int = i32;
}
impl ExampleFloat for f64 {
    type Float = f64;
}
impl ExampleFloat for f32 {
    type Float = f32;
}

impl<T> ExampleList for Vec<T> {
    type Item = T;
}

impl<V> ExampleObject for BTreeMap<String, V> {}
impl<V, S> ExampleObject for HashMap<String, V, S> {}

impl<T> ExampleNull for Option<T> {}
impl<T: ExampleStr> ExampleStr for Option<T> {}
impl<T: ExampleBool> ExampleBool for Option<T> {}
impl<T: ExampleInt> ExampleInt for Option<T> {
    type Int = T::Int;
}
impl<T: ExampleFloat> ExampleFloat for Option<T> {
    type Float = T::Float;
}
impl<T: ExampleList> ExampleList for Option<T> {
    type Item = T::Item;
}
impl<T: ExampleObject> ExampleObject for Option<T> {}
