//! Argument types: how each Rust type publishes its schema, decodes from JSON
//! and checks its declared constraints.
//!
//! `#[derive(ToolArgs)]` implements [`ArgValue`] for argument structs and for
//! unit enums (closed sets); this module implements it for the standard types.

pub(crate) mod constraint;
#[cfg(any(feature = "chrono", feature = "jiff", feature = "time"))]
mod dates;
pub mod decode;
pub(crate) mod example;
pub(crate) mod format;
pub(crate) mod rules;
pub(crate) mod tagged;
pub(crate) mod validate;

use std::marker::PhantomData;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::args::constraint::{Constraints, Num, Seen};
use crate::args::validate::{Ptr, Violations};
use crate::path::ConfinedPath;

/// The seal on [`ArgValue`]: only this crate and `#[derive(ToolArgs)]`
/// implement it, so that every argument type's schema, decoding and checks
/// come from the one place that keeps them in agreement (a hand-written impl
/// could publish one schema and accept another). The derive reaches it
/// through `__private`, which is not a public API.
pub(crate) mod seal {
    /// Implemented wherever `ArgValue` is.
    pub trait Sealed {}
}

/// A type that can be a tool argument (or part of one).
///
/// Implemented for `String`, `bool`, the integer and float types, `Vec<T>`,
/// `Option<T>`, `BTreeMap<String, V>` and `HashMap<String, V>`,
/// [`ConfinedPath`], dates, date-times and times of day of `chrono`
/// (`NaiveDate`, `DateTime<Utc | FixedOffset>`, `NaiveTime`), `jiff`
/// (`civil::Date`, `Timestamp`, `civil::Time`) and `time` (`Date`,
/// `OffsetDateTime`, `Time`) behind the features of the same names, and by
/// `#[derive(ToolArgs)]` for structs, unit enums and tagged enums.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument",
    label = "not an argument type",
    note = "use String, bool, an integer or float, Vec<T>, Option<T>, BTreeMap<String, V> or HashMap<String, V>, ConfinedPath, a date or time type (features chrono, jiff, time), or a struct or enum with #[derive(ToolArgs)]"
)]
pub trait ArgValue: Sized + Send + 'static + seal::Sealed {
    /// Whether the property may be left out (only `Option<T>`).
    const OPTIONAL: bool = false;

    /// The values of a closed set (a unit enum) as sent, the tags of a
    /// tagged enum, or those of a list's or an option's items; empty for
    /// every other type. Rule C12 compares a list of
    /// values in a doc comment with them at compile time.
    const WIRE_VALUES: &'static [&'static str] = &[];

    /// The value a missing property takes, when it may be missing.
    fn missing() -> Option<Self> {
        None
    }

    /// The JSON Schema of this type under constraints `c`.
    fn schema(c: &'static Constraints) -> Map<String, Value>;

    /// Decodes a JSON value (slow path): records type errors and every broken
    /// constraint in `out`; `None` when the value could not be decoded.
    fn decode_value(
        v: &Value,
        c: &'static Constraints,
        ptr: &Ptr<'_>,
        out: &mut Violations,
    ) -> Option<Self>;

    /// Decodes straight from the parser (fast path). Any error sends the call to
    /// the slow path, which reports it precisely, so this may fail coarsely.
    fn fast<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;

    /// Checks a decoded value against `c` and its own nested constraints.
    fn check(&self, c: &'static Constraints, ptr: &Ptr<'_>, out: &mut Violations);

    /// Equality as `uniqueItems` sees it.
    fn same(&self, other: &Self) -> bool;

    /// Whether any value inside this type is declared `#[arg(secret)]`.
    fn has_secrets(c: &'static Constraints) -> bool {
        c.secret
    }

    /// Replaces secret values in `v` (the JSON this type decoded from) with `"[redacted]"`.
    fn redact(v: &mut Value, c: &'static Constraints) {
        if c.secret {
            *v = Value::from(crate::observe::REDACTED);
        }
    }

    /// Decodes the property `name` of `obj` (slow path, for generated code):
    /// a missing property takes [`missing`](Self::missing) or is reported as
    /// required. One copy per argument type, not one per field of every tool.
    #[doc(hidden)]
    fn decode_field(
        obj: &Map<String, Value>,
        name: &'static str,
        c: &'static Constraints,
        ptr: &Ptr<'_>,
        out: &mut Violations,
    ) -> Option<Self> {
        match obj.get(name) {
            Some(v) => Self::decode_value(v, c, &ptr.key(name), out),
            None => Self::missing().or_else(|| required(name, ptr, out)),
        }
    }

    /// Reads the value of the entry whose key `map` just read (fast path, for
    /// generated code). One copy per argument type, not one per field of
    /// every tool.
    #[doc(hidden)]
    fn fast_field<'de, A: de::MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        map.next_value_seed(FastSeed::<Self>::new())
    }

    /// The fields inside this type whose prose the author acknowledged
    /// (`#[arg(prose = "why")]` on a field of a nested argument struct), each
    /// with its path under `at` (`dimensions.width_cm`, `parcels[].weight_g`):
    /// the audit reports their findings as acknowledged, as the build let
    /// them pass.
    #[doc(hidden)]
    fn acknowledged_within(_at: &str, _out: &mut Vec<(String, &'static str)>) {}

    /// Calls `f` for every confined path inside this value, with its pointer and root name.
    fn visit_paths<'a>(
        &'a self,
        _c: &'static Constraints,
        _ptr: &Ptr<'_>,
        _f: &mut dyn FnMut(&Ptr<'_>, &'a ConfinedPath, &'static str),
    ) {
    }
}

/// Reports a missing required property; always `None`.
fn required<T>(name: &'static str, ptr: &Ptr<'_>, out: &mut Violations) -> Option<T> {
    out.missing(
        ptr,
        name,
        "is required".to_string(),
        format!("send `{name}`"),
    );
    None
}

/// A complete argument object: the root of a tool's input.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool's argument struct: it has no `#[derive(ToolArgs)]`",
    label = "this type needs `#[derive(ToolArgs)]`",
    note = "add `#[derive(ToolArgs)]` to `{Self}`, with a doc comment on each field; or write the arguments inline, as the tool's parameters"
)]
pub trait ToolArgs: ArgValue {
    /// The canonical input schema: JSON Schema 2020-12, `additionalProperties: false` on every object.
    fn input_schema() -> Value {
        root_schema(Self::schema(&Constraints::NONE))
    }

    /// The rules across arguments (`rules(...)`), which the schema states and
    /// the checks enforce; listed in the canonical definition so that every
    /// dialect can report the ones its schema cannot carry.
    fn rules() -> &'static [crate::args::rules::Rule] {
        &[]
    }

    /// The arguments whose prose the author acknowledged
    /// (`#[arg(prose = "why")]`), each with the reason: the audit reports
    /// their findings as acknowledged.
    fn prose_acknowledged() -> &'static [(&'static str, &'static str)] {
        &[]
    }
}

/// A root schema: `$schema` first, then `schema` (compiled once, not per tool).
fn root_schema(schema: Map<String, Value>) -> Value {
    let mut s = Map::new();
    s.insert("$schema".into(), Value::from(crate::schema::DRAFT_2020_12));
    s.extend(schema);
    Value::Object(s)
}

/// One property of an object schema (for generated code).
#[doc(hidden)]
pub struct Prop {
    /// Property name.
    pub name: &'static str,
    /// Its schema.
    pub schema: Map<String, Value>,
    /// Its description (the field's doc comment).
    pub description: &'static str,
    /// Whether it may be left out.
    pub optional: bool,
}

/// Builds an object schema with `additionalProperties: false` (for generated code).
#[doc(hidden)]
pub fn object_schema(description: Option<&'static str>, props: Vec<Prop>) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("type".into(), Value::from("object"));
    if let Some(d) = description.filter(|d| !d.is_empty()) {
        m.insert("description".into(), Value::from(d));
    }
    let mut properties = Map::new();
    let mut required = Vec::new();
    for p in props {
        // The description first: it is what a person reading the schema wants first.
        let mut s = Map::new();
        if !p.description.is_empty() {
            s.insert("description".into(), Value::from(p.description));
        }
        // A field's doc says what the value is here: it wins over the doc of
        // its type (an argument struct's, which stays where the struct is
        // used without one, such as a list's items), as over an enum's. The
        // sentence of rules across the struct's arguments still binds, so it
        // follows the field's doc.
        let own = (!p.description.is_empty())
            .then(|| p.schema.get("description").and_then(Value::as_str))
            .flatten()
            .map(|d| match rules::rules_sentence(d) {
                Some(r) => format!("{}\n\n{r}", p.description),
                None => p.description.to_owned(),
            });
        s.extend(p.schema);
        if let Some(d) = own {
            s.insert("description".into(), Value::from(d));
        }
        if !p.optional {
            required.push(Value::from(p.name));
        }
        properties.insert(p.name.into(), Value::Object(s));
    }
    m.insert("properties".into(), Value::Object(properties));
    m.insert("required".into(), Value::Array(required));
    m.insert("additionalProperties".into(), Value::Bool(false));
    m
}

/// The text of a JSON string, or a type violation: the first step of every
/// argument type written as a string (strings, paths, dates and times).
pub(crate) fn string_value<'v>(
    v: &'v Value,
    ptr: &Ptr<'_>,
    out: &mut Violations,
) -> Option<&'v str> {
    match v {
        Value::String(s) => Some(s),
        other => {
            out.wrong_type(ptr, "string", other);
            None
        }
    }
}

fn typed(t: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("type".into(), Value::from(t));
    m
}

impl seal::Sealed for String {}
impl ArgValue for String {
    fn schema(c: &'static Constraints) -> Map<String, Value> {
        let mut s = typed("string");
        c.apply_string(&mut s);
        s
    }
    fn decode_value(
        v: &Value,
        c: &'static Constraints,
        ptr: &Ptr<'_>,
        out: &mut Violations,
    ) -> Option<Self> {
        let s = string_value(v, ptr, out)?;
        c.check_string(s, ptr, out);
        Some(s.to_owned())
    }
    fn fast<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::Deserialize::deserialize(d)
    }
    fn check(&self, c: &'static Constraints, ptr: &Ptr<'_>, out: &mut Violations) {
        c.check_string(self, ptr, out);
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
}

impl seal::Sealed for bool {}
impl ArgValue for bool {
    fn schema(_: &'static Constraints) -> Map<String, Value> {
        typed("boolean")
    }
    fn decode_value(
        v: &Value,
        _: &'static Constraints,
        ptr: &Ptr<'_>,
        out: &mut Violations,
    ) -> Option<Self> {
        v.as_bool().or_else(|| {
            out.wrong_type(ptr, "boolean", v);
            None
        })
    }
    fn fast<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::Deserialize::deserialize(d)
    }
    fn check(&self, _: &'static Constraints, _: &Ptr<'_>, _: &mut Violations) {}
    fn same(&self, other: &Self) -> bool {
        self == other
    }
}

macro_rules! integer {
    ($($t:ty => $min:expr, $max:expr;)*) => {$(
        impl seal::Sealed for $t {}
        impl ArgValue for $t {
            fn schema(c: &'static Constraints) -> Map<String, Value> {
                let mut s = typed("integer");
                c.apply_number(&mut s, $min, $max);
                s
            }
            fn decode_value(v: &Value, c: &'static Constraints, ptr: &Ptr<'_>, out: &mut Violations) -> Option<Self> {
                let n = match integer_of(v) {
                    Some(n) => n,
                    None => {
                        out.wrong_type(ptr, "integer", v);
                        return None;
                    }
                };
                match <$t>::try_from(n) {
                    Ok(x) => {
                        c.check_number(Seen::Int(n), ptr, out);
                        Some(x)
                    }
                    Err(_) => {
                        #[allow(clippy::cast_lossless)]
                        let held = (<$t>::MIN as i128, <$t>::MAX as i128);
                        out_of_type_range(ptr, n, (stringify!($t), held), c, c.published_range($min, $max), out);
                        None
                    }
                }
            }
            fn fast<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                serde::Deserialize::deserialize(d)
            }
            fn check(&self, c: &'static Constraints, ptr: &Ptr<'_>, out: &mut Violations) {
                c.check_number(Seen::Int(*self as i128), ptr, out);
            }
            fn same(&self, other: &Self) -> bool {
                self == other
            }
        }
    )*};
}

// 64-bit types publish only their sign bound: bounds past 2^53, such as
// 18446744073709551615, are not exact for a reader of JSON numbers as doubles
// (JavaScript reads that one as 2^64), so they would not say what is enforced.
// A value past the type is still refused: by a declared exclusive bound on
// that side, else as not an integer of the type (`type`).
// docs/attributes.md says so, under the type table.
integer! {
    u8 => Some(Num::Int(0)), Some(Num::Int(u8::MAX as i64));
    u16 => Some(Num::Int(0)), Some(Num::Int(u16::MAX as i64));
    u32 => Some(Num::Int(0)), Some(Num::Int(u32::MAX as i64));
    u64 => Some(Num::Int(0)), None;
    usize => Some(Num::Int(0)), None;
    i8 => Some(Num::Int(i8::MIN as i64)), Some(Num::Int(i8::MAX as i64));
    i16 => Some(Num::Int(i16::MIN as i64)), Some(Num::Int(i16::MAX as i64));
    i32 => Some(Num::Int(i32::MIN as i64)), Some(Num::Int(i32::MAX as i64));
    i64 => None, None;
    isize => None, None;
}

/// A map with string keys, as `BTreeMap<String, V>` and `HashMap<String, V>`
/// hold it: an object whose values are `V`. `length` bounds the entries
/// (`minProperties`, `maxProperties`), `pattern` the keys (`propertyNames`),
/// `each(...)` the values.
macro_rules! string_map {
    ($($map:ident),*) => {$(
        impl<V: ArgValue> seal::Sealed for std::collections::$map<String, V> {}
        impl<V: ArgValue> ArgValue for std::collections::$map<String, V> {
            fn schema(c: &'static Constraints) -> Map<String, Value> {
                let mut s = typed("object");
                s.insert(
                    "additionalProperties".into(),
                    Value::Object(V::schema(c.item_constraints())),
                );
                c.apply_map(&mut s);
                s
            }
            fn decode_value(
                v: &Value,
                c: &'static Constraints,
                ptr: &Ptr<'_>,
                out: &mut Violations,
            ) -> Option<Self> {
                let Value::Object(entries) = v else {
                    out.wrong_type(ptr, "object", v);
                    return None;
                };
                let vc = c.item_constraints();
                let mut ok = true;
                let mut map = Self::default();
                for (k, item) in entries {
                    match V::decode_value(item, vc, &ptr.key(k), out) {
                        Some(x) => {
                            map.insert(k.clone(), x);
                        }
                        None => ok = false,
                    }
                }
                c.check_map(entries.len(), entries.keys(), ptr, out);
                ok.then_some(map)
            }
            fn fast<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Entries<V>(PhantomData<V>);
                impl<'de, V: ArgValue> Visitor<'de> for Entries<V> {
                    type Value = std::collections::$map<String, V>;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<A: de::MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
                        let mut map = Self::Value::default();
                        while let Some(k) = m.next_key::<String>()? {
                            let v = m.next_value_seed(FastSeed::<V>::new())?;
                            // A repeated key: the slow path's strict parser names it.
                            if map.insert(k, v).is_some() {
                                return Err(de::Error::custom("duplicate key"));
                            }
                        }
                        Ok(map)
                    }
                }
                d.deserialize_map(Entries(PhantomData))
            }
            fn check(&self, c: &'static Constraints, ptr: &Ptr<'_>, out: &mut Violations) {
                let vc = c.item_constraints();
                for (k, x) in self {
                    x.check(vc, &ptr.key(k), out);
                }
                c.check_map(self.len(), self.keys(), ptr, out);
            }
            fn same(&self, other: &Self) -> bool {
                self.len() == other.len()
                    && self
                        .iter()
                        .all(|(k, a)| other.get(k).is_some_and(|b| a.same(b)))
            }
            fn has_secrets(c: &'static Constraints) -> bool {
                c.secret || V::has_secrets(c.item_constraints())
            }
            fn redact(v: &mut Value, c: &'static Constraints) {
                if c.secret {
                    *v = Value::from(crate::observe::REDACTED);
                } else if let Value::Object(entries) = v {
                    for item in entries.values_mut() {
                        V::redact(item, c.item_constraints());
                    }
                }
            }
            fn visit_paths<'a>(
                &'a self,
                c: &'static Constraints,
                ptr: &Ptr<'_>,
                f: &mut dyn FnMut(&Ptr<'_>, &'a ConfinedPath, &'static str),
            ) {
                for (k, x) in self {
                    x.visit_paths(c.item_constraints(), &ptr.key(k), f);
                }
            }
        }
    )*};
}

string_map!(BTreeMap, HashMap);

/// An integer from JSON, accepting `2001.0` as JSON Schema does; `None` for
/// anything that is not an integral number (integral floats past 128 bits saturate).
fn integer_of(v: &Value) -> Option<i128> {
    let n = v.as_number()?;
    if let Some(i) = n.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = n.as_u64() {
        return Some(i128::from(u));
    }
    let f = n.as_f64()?;
    // JSON Schema counts any integral number as an integer, however large; past
    // 2^64 the cast saturates, which no argument type holds, so the value is
    // refused by its range (the keyword the schema validator names too).
    (f.fract() == 0.0).then_some(f as i128)
}

/// An integer the Rust type cannot hold, reported against the bounds the schema
/// publishes (`published`: the tighter of the declared and the type's own).
///
/// With no published bound on that side, a declared exclusive bound is the
/// keyword the schema breaks (`exclusiveMaximum: 10` on an `i64` sent 2^63);
/// with neither, the value is no integer of the type (`type`), and the
/// repair names the type's range.
fn out_of_type_range(
    ptr: &Ptr<'_>,
    n: i128,
    (ty, (type_min, type_max)): (&str, (i128, i128)),
    c: &Constraints,
    published: (Option<Num>, Option<Num>),
    out: &mut Violations,
) {
    let (keyword, limit, words) = match published {
        (Some(lo), _) if n < 0 => ("minimum", lo.to_json(), "at least"),
        (_, Some(hi)) if n >= 0 => ("maximum", hi.to_json(), "at most"),
        _ => match (c.exclusive_minimum, c.exclusive_maximum) {
            (Some(lo), _) if n < 0 => ("exclusiveMinimum", lo.to_json(), "more than"),
            (_, Some(hi)) if n >= 0 => ("exclusiveMaximum", hi.to_json(), "less than"),
            _ => ("type", Value::from("integer"), ""),
        },
    };
    // Past a served bound as well as past the type: unserved, like any value past it.
    if let Some(served) = c.served_bound(keyword, &limit) {
        let actual = i64::try_from(n).ok().map(Value::from);
        out.push_served(ptr, keyword, limit, actual, &served);
        return;
    }
    let message = if words.is_empty() {
        format!("does not fit in {ty}")
    } else {
        format!("must be {words} {limit}")
    };
    let hint = match (keyword, published) {
        ("minimum" | "maximum", (Some(lo), Some(hi))) => {
            format!("send an integer from {} to {}", lo.to_json(), hi.to_json())
        }
        ("minimum" | "maximum", (Some(lo), None)) => {
            format!("send an integer of at least {}", lo.to_json())
        }
        ("type", _) => format!("send an integer from {type_min} to {type_max}, what {ty} holds"),
        _ => format!("send an integer {words} {limit}"),
    };
    out.push(
        ptr,
        keyword,
        limit,
        i64::try_from(n).ok().map(Value::from),
        message,
        hint,
    );
}

macro_rules! float {
    ($($t:ty => $bound:expr;)*) => {$(
        impl seal::Sealed for $t {}
        impl ArgValue for $t {
            fn schema(c: &'static Constraints) -> Map<String, Value> {
                let mut s = typed("number");
                c.apply_number(&mut s, $bound.map(|b: f64| Num::Float(-b)), $bound.map(Num::Float));
                s
            }
            fn decode_value(v: &Value, c: &'static Constraints, ptr: &Ptr<'_>, out: &mut Violations) -> Option<Self> {
                let Some(f) = v.as_f64() else {
                    out.wrong_type(ptr, "number", v);
                    return None;
                };
                // A number past the type's published range would be narrowed
                // onto its largest value or an infinity: refuse it against the
                // bound the schema publishes.
                let published = c.published_range($bound.map(|b: f64| Num::Float(-b)), $bound.map(Num::Float));
                if $bound.is_some_and(|b: f64| f.abs() > b) || (f as $t).is_infinite() {
                    float_out_of_range(ptr, f, published, out);
                    return None;
                }
                // The bounds are compared with the number sent, not with
                // its narrowed value: 0.3 is within `maximum: 0.3`, though
                // its nearest f32 is a little more.
                c.check_number(Seen::Float(f), ptr, out);
                Some(f as $t)
            }
            fn fast<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                // Read at full width. A number the type does not hold exactly
                // goes to the slow path, which checks the number sent; so
                // does one past the type's range, instead of silently
                // becoming its largest value or an infinity.
                let f: f64 = serde::Deserialize::deserialize(d)?;
                let x = f as $t;
                #[allow(clippy::float_cmp)]
                if f64::from(x) != f {
                    return Err(de::Error::custom("number not held exactly by the type"));
                }
                Ok(x)
            }
            fn check(&self, c: &'static Constraints, ptr: &Ptr<'_>, out: &mut Violations) {
                c.check_number(Seen::Float(f64::from(*self)), ptr, out);
            }
            fn same(&self, other: &Self) -> bool {
                self == other
            }
        }
    )*};
}

// f64 holds every finite JSON number serde_json parses; f32 publishes its range.
float! {
    f32 => Some(f32::MAX as f64);
    f64 => None::<f64>;
}

/// A number the float type cannot hold, reported against the published bound.
fn float_out_of_range(
    ptr: &Ptr<'_>,
    f: f64,
    published: (Option<Num>, Option<Num>),
    out: &mut Violations,
) {
    let (keyword, bound, words) = match published {
        (Some(lo), _) if f < 0.0 => ("minimum", lo, "at least"),
        (_, Some(hi)) => ("maximum", hi, "at most"),
        (lo, None) => ("minimum", lo.unwrap_or(Num::Float(f64::MIN)), "at least"),
    };
    let limit = bound.to_json();
    out.push(
        ptr,
        keyword,
        limit.clone(),
        serde_json::Number::from_f64(f).map(Value::Number),
        format!("must be {words} {limit}"),
        format!("send a number {words} {limit}"),
    );
}

impl<T: ArgValue> seal::Sealed for Vec<T> {}
impl<T: ArgValue> ArgValue for Vec<T> {
    const WIRE_VALUES: &'static [&'static str] = T::WIRE_VALUES;

    fn schema(c: &'static Constraints) -> Map<String, Value> {
        let mut s = typed("array");
        s.insert(
            "items".into(),
            Value::Object(T::schema(c.item_constraints())),
        );
        c.apply_list(&mut s);
        s
    }
    fn decode_value(
        v: &Value,
        c: &'static Constraints,
        ptr: &Ptr<'_>,
        out: &mut Violations,
    ) -> Option<Self> {
        let Value::Array(items) = v else {
            out.wrong_type(ptr, "array", v);
            return None;
        };
        let ic = c.item_constraints();
        let mut ok = true;
        let before = out.len();
        let mut list = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match T::decode_value(item, ic, &ptr.index(i), out) {
                Some(x) => list.push(x),
                None => ok = false,
            }
        }
        // Items refused for their own keys are not also called repeats.
        let items_ok = ok && out.len() == before;
        c.check_items_len(items.len(), ptr, out);
        if c.unique && items_ok {
            // As JSON, the way the published `uniqueItems` compares: an item
            // with a key written out as null is not the item without it,
            // though both decode to the same value.
            check_unique(items, same_json, c, ptr, out);
        }
        ok.then_some(list)
    }
    fn fast<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Seq<T>(PhantomData<T>);
        impl<'de, T: ArgValue> Visitor<'de> for Seq<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
                let mut list = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
                while let Some(x) = seq.next_element_seed(FastSeed::<T>::new())? {
                    list.push(x);
                }
                Ok(list)
            }
        }
        d.deserialize_seq(Seq(PhantomData))
    }
    fn check(&self, c: &'static Constraints, ptr: &Ptr<'_>, out: &mut Violations) {
        let ic = c.item_constraints();
        for (i, x) in self.iter().enumerate() {
            x.check(ic, &ptr.index(i), out);
        }
        c.check_items_len(self.len(), ptr, out);
        if c.unique {
            // Decoded values equal wherever their JSON is, and sometimes
            // where it is not: a repeat found here sends the call to the
            // slow path, which compares the JSON.
            check_unique(self, T::same, c, ptr, out);
        }
    }
    fn same(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a.same(b))
    }
    fn has_secrets(c: &'static Constraints) -> bool {
        c.secret || T::has_secrets(c.item_constraints())
    }
    fn acknowledged_within(at: &str, out: &mut Vec<(String, &'static str)>) {
        T::acknowledged_within(&format!("{at}[]"), out);
    }
    fn redact(v: &mut Value, c: &'static Constraints) {
        if c.secret {
            *v = Value::from(crate::observe::REDACTED);
        } else if let Value::Array(items) = v {
            for item in items {
                T::redact(item, c.item_constraints());
            }
        }
    }
    fn visit_paths<'a>(
        &'a self,
        c: &'static Constraints,
        ptr: &Ptr<'_>,
        f: &mut dyn FnMut(&Ptr<'_>, &'a ConfinedPath, &'static str),
    ) {
        for (i, x) in self.iter().enumerate() {
            x.visit_paths(c.item_constraints(), &ptr.index(i), f);
        }
    }
}

fn check_unique<T>(
    list: &[T],
    same: impl Fn(&T, &T) -> bool,
    c: &'static Constraints,
    ptr: &Ptr<'_>,
    out: &mut Violations,
) {
    // Lists are bounded by maxItems and the argument size limit; a pairwise scan
    // keeps the bound to `ArgValue::same` alone. A list far past maxItems is
    // refused by that keyword, and scanning it would be quadratic in what the
    // model sent (70,000 short items under the 1 MiB limit took a minute), so
    // it is not scanned (tests/attacks.rs, json_huge_item_counts_are_refused_quickly);
    // one a little past it still is, so that both broken keywords are told
    // (51 copies of one note: `maxItems` and `uniqueItems`).
    if c.max_length
        .is_some_and(|max| list.len() as u64 > max.saturating_mul(4))
    {
        return;
    }
    for (i, a) in list.iter().enumerate() {
        if let Some(j) = list[..i].iter().position(|b| same(a, b)) {
            out.push(
                ptr,
                "uniqueItems",
                Value::Bool(true),
                c.actual(Value::from(vec![j, i])),
                format!("must not repeat an item: items {j} and {i} are equal"),
                "send each item once".to_string(),
            );
            return;
        }
    }
}

/// Equality of two JSON values as JSON Schema's `uniqueItems` sees it:
/// numbers by value (`1` is `1.0`), objects by their keys and values in any
/// order, everything else as written.
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (integer_of(a), integer_of(b)) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_json(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k).is_some_and(|b| same_json(a, b)))
        }
        _ => a == b,
    }
}

impl<T: ArgValue> seal::Sealed for Option<T> {}
impl<T: ArgValue> ArgValue for Option<T> {
    const OPTIONAL: bool = true;
    const WIRE_VALUES: &'static [&'static str] = T::WIRE_VALUES;

    fn missing() -> Option<Self> {
        Some(None)
    }
    fn schema(c: &'static Constraints) -> Map<String, Value> {
        nullable(T::schema(c))
    }
    fn decode_value(
        v: &Value,
        c: &'static Constraints,
        ptr: &Ptr<'_>,
        out: &mut Violations,
    ) -> Option<Self> {
        match v {
            Value::Null => Some(None),
            v => T::decode_value(v, c, ptr, out).map(Some),
        }
    }
    fn fast<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Opt<T>(PhantomData<T>);
        impl<'de, T: ArgValue> Visitor<'de> for Opt<T> {
            type Value = Option<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a value or null")
            }
            fn visit_none<E: de::Error>(self) -> Result<Option<T>, E> {
                Ok(None)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
                Ok(None)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<T>, D::Error> {
                T::fast(d).map(Some)
            }
        }
        d.deserialize_option(Opt(PhantomData))
    }
    fn check(&self, c: &'static Constraints, ptr: &Ptr<'_>, out: &mut Violations) {
        if let Some(x) = self {
            x.check(c, ptr, out);
        }
    }
    fn same(&self, other: &Self) -> bool {
        match (self, other) {
            (Some(a), Some(b)) => a.same(b),
            (None, None) => true,
            _ => false,
        }
    }
    fn has_secrets(c: &'static Constraints) -> bool {
        T::has_secrets(c)
    }
    fn acknowledged_within(at: &str, out: &mut Vec<(String, &'static str)>) {
        T::acknowledged_within(at, out);
    }
    fn redact(v: &mut Value, c: &'static Constraints) {
        if !v.is_null() {
            T::redact(v, c);
        }
    }
    fn visit_paths<'a>(
        &'a self,
        c: &'static Constraints,
        ptr: &Ptr<'_>,
        f: &mut dyn FnMut(&Ptr<'_>, &'a ConfinedPath, &'static str),
    ) {
        if let Some(x) = self {
            x.visit_paths(c, ptr, f);
        }
    }
}

/// Lets `null` through a schema: a type array where there is a single type,
/// an `anyOf` otherwise.
fn nullable(mut s: Map<String, Value>) -> Map<String, Value> {
    if let Some(Value::Array(e)) = s.get_mut("enum") {
        e.push(Value::Null);
    }
    match s.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            s.insert("type".into(), Value::from(vec![t, "null".to_string()]));
            s
        }
        Some(Value::Array(ts)) => {
            ts.push(Value::from("null"));
            s
        }
        _ => {
            let mut n = Map::new();
            n.insert(
                "anyOf".into(),
                Value::from(vec![Value::Object(s), Value::Object(typed("null"))]),
            );
            n
        }
    }
}

/// The pattern published for confined paths: the one lexical rule that is a
/// schema matter (no NUL byte); where a path may lead is checked against the root.
pub(crate) const PATH_PATTERN: &str = "^[^\\x00]*$";

impl seal::Sealed for ConfinedPath {}
impl ArgValue for ConfinedPath {
    fn schema(c: &'static Constraints) -> Map<String, Value> {
        let mut s = typed("string");
        c.apply_string(&mut s);
        s.entry("minLength").or_insert(Value::from(1));
        s.entry("pattern").or_insert(Value::from(PATH_PATTERN));
        s
    }
    fn decode_value(
        v: &Value,
        c: &'static Constraints,
        ptr: &Ptr<'_>,
        out: &mut Violations,
    ) -> Option<Self> {
        let s = String::decode_value(v, c, ptr, out)?;
        let p = ConfinedPath::from_arg(s);
        p.check(c, ptr, out);
        Some(p)
    }
    fn fast<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::fast(d).map(ConfinedPath::from_arg)
    }
    fn check(&self, c: &'static Constraints, ptr: &Ptr<'_>, out: &mut Violations) {
        let s = self.as_str();
        c.check_string(s, ptr, out);
        if s.is_empty() && c.min_length.is_none() {
            out.push(
                ptr,
                "minLength",
                Value::from(1),
                Some(Value::from(0)),
                "must not be empty".into(),
                "send a path relative to the tool's root".into(),
            );
        }
        if s.contains('\0') && c.pattern.is_none() {
            out.push(
                ptr,
                "pattern",
                Value::from(PATH_PATTERN),
                None,
                "must not contain a NUL character".into(),
                "send the path without NUL characters".into(),
            );
        }
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
    fn visit_paths<'a>(
        &'a self,
        c: &'static Constraints,
        ptr: &Ptr<'_>,
        f: &mut dyn FnMut(&Ptr<'_>, &'a ConfinedPath, &'static str),
    ) {
        f(ptr, self, c.root.unwrap_or(crate::path::DEFAULT_ROOT));
    }
}

/// Runs [`ArgValue::fast`] inside serde's seed machinery.
pub struct FastSeed<T>(PhantomData<T>);

impl<T> FastSeed<T> {
    /// A seed for `T`.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        FastSeed(PhantomData)
    }
}

impl<'de, T: ArgValue> de::DeserializeSeed<'de> for FastSeed<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::fast(d)
    }
}

/// An object key, borrowed when the input has no escapes (the common case).
pub struct Key<'de>(std::borrow::Cow<'de, str>);

impl Key<'_> {
    /// The key's text after unescaping.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct K;
        impl<'de> Visitor<'de> for K {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(v)))
            }
        }
        d.deserialize_str(K)
    }
}
