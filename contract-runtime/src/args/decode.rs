//! The decode stage: raw argument bytes to a validated typed value.
//!
//! The fast path deserializes straight into the argument type (duplicate and
//! unknown keys refused by the generated visitor) and then checks constraints.
//! Anything it cannot accept goes to the slow path, which parses strictly into
//! a JSON tree and reports every problem of the call at once.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::args::constraint::Constraints;
use crate::args::validate::{Ptr, Violations};
use crate::args::ToolArgs;
use crate::codes;
use crate::envelope::ErrorEntry;

/// Limits on argument text, enforced before and during parsing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The largest argument text accepted, in bytes.
    pub max_bytes: usize,
    /// The deepest nesting of arrays and objects accepted.
    pub max_depth: usize,
}

impl Limits {
    /// These limits with `max_bytes` as the largest argument text accepted.
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Limits {
        self.max_bytes = max_bytes;
        self
    }

    /// These limits with `max_depth` as the deepest nesting accepted (at most
    /// 127, the JSON parser's own bound).
    pub fn with_max_depth(mut self, max_depth: usize) -> Limits {
        self.max_depth = max_depth;
        self
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_bytes: 1 << 20,
            max_depth: 64,
        }
    }
}

/// Why arguments were refused: either they are not a well-formed JSON object
/// (`malformed-arguments`, one error) or they break the contract
/// (`schema-violation`, one error per broken constraint).
#[derive(Debug)]
#[non_exhaustive]
pub enum DecodeError {
    /// Not JSON, not an object, a duplicate key, trailing data, too large or too deep.
    Malformed(Box<ErrorEntry>),
    /// Every broken constraint.
    Invalid(Violations),
}

impl DecodeError {
    /// The errors to put in the envelope.
    pub fn into_errors(self) -> Vec<ErrorEntry> {
        match self {
            DecodeError::Malformed(e) => vec![*e],
            DecodeError::Invalid(v) => {
                let dropped = v.dropped();
                let mut errors: Vec<ErrorEntry> =
                    v.into_vec().into_iter().map(|v| v.into_error()).collect();
                if dropped > 0 {
                    errors.push(
                        ErrorEntry::new(
                            codes::SCHEMA_VIOLATION,
                            format!("{dropped} more violations were found and not listed (at most {} are)", Violations::MAX),
                        )
                        // About no one field: the whole call.
                        .with_hint("fix the violations listed, then send the call again"),
                    );
                }
                errors
            }
        }
    }
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::Malformed(e) => f.write_str(&e.message),
            DecodeError::Invalid(v) => {
                let n = v.len() + v.dropped();
                write!(
                    f,
                    "the arguments break the contract in {n} place{}",
                    if n == 1 { "" } else { "s" }
                )
            }
        }
    }
}

impl std::error::Error for DecodeError {}

fn malformed(message: String, hint: &str) -> DecodeError {
    DecodeError::Malformed(Box::new(
        ErrorEntry::new(codes::MALFORMED_ARGUMENTS, message).with_hint(hint),
    ))
}

/// Refuses argument text over the size limit, naming the limit.
fn check_size(raw: &str, limits: &Limits) -> Result<(), DecodeError> {
    if raw.len() > limits.max_bytes {
        return Err(malformed(
            format!(
                "arguments are {} bytes, more than the limit of {} bytes",
                raw.len(),
                limits.max_bytes
            ),
            "send shorter arguments",
        ));
    }
    Ok(())
}

/// Decodes and validates argument text for `T`.
pub fn decode_args<T: ToolArgs>(raw: &str, limits: &Limits) -> Result<T, DecodeError> {
    decode_keeping_tree(raw, limits, &mut None)
}

/// [`decode_args`], also handing back in `tree` the JSON tree when the slow
/// path built one, so that the pipeline never parses the same text twice.
///
/// The slow path's parsing is not generic: it is compiled once, not once per
/// tool; what needs `T` is its fast reader, its checks and its slow decoder.
pub(crate) fn decode_keeping_tree<T: ToolArgs>(
    raw: &str,
    limits: &Limits,
    tree: &mut Option<Value>,
) -> Result<T, DecodeError> {
    check_size(raw, limits)?;
    // Fast path. A typed value nests no deeper than its Rust type, so the depth
    // limit only matters on the slow path, where any JSON tree is built.
    let mut de = serde_json::Deserializer::from_str(raw);
    if let Ok(v) = T::fast(&mut de) {
        if de.end().is_ok() {
            let mut out = Violations::new();
            v.check(&Constraints::NONE, &Ptr::ROOT, &mut out);
            if out.is_empty() {
                return Ok(v);
            }
            // Refused: the slow path says why, from the JSON as sent (a
            // repeat among decoded items may be two different JSON items).
        }
    }
    decode_tree(slow(raw, limits, tree)?)
}

/// Decodes and validates a JSON tree for `T` (the slow path's second half,
/// and a retry's decode).
pub(crate) fn decode_tree<T: ToolArgs>(value: &Value) -> Result<T, DecodeError> {
    let mut out = Violations::new();
    match T::decode_value(value, &Constraints::NONE, &Ptr::ROOT, &mut out) {
        Some(v) if out.is_empty() => Ok(v),
        _ => Err(DecodeError::Invalid(out)),
    }
}

/// The slow path's first half: parses strictly into a tree (kept in `tree`),
/// which must be an object. Kept out of line so the fast path stays small.
#[cold]
#[inline(never)]
fn slow<'t>(
    raw: &str,
    limits: &Limits,
    tree: &'t mut Option<Value>,
) -> Result<&'t Value, DecodeError> {
    let value = tree.insert(parse_strict(raw, limits)?);
    // Only arguments the fast reader refused come here, and an integer
    // argument written as a decimal is one of them: its literal is read
    // once, here, not on every parse of text already decoded (a digest, a
    // redaction, a whole serve-jsonl line).
    if let Some((literal, as_what)) = rounded_to_an_integer(raw) {
        return Err(malformed(
            format!(
                "the number {literal} has more digits than a 64-bit float keeps: it would be read as {as_what}"
            ),
            "send the number with at most 15 significant digits",
        ));
    }
    if !value.is_object() {
        return Err(malformed(
            format!(
                "arguments must be a JSON object, got {}",
                crate::args::validate::json_type(value)
            ),
            "send the arguments as one JSON object",
        ));
    }
    Ok(value)
}

/// The deepest nesting serde_json itself accepts; the strict parser stops one
/// level earlier, so that every depth refusal is its own and names the limit.
const SERDE_JSON_DEPTH: usize = 127;

/// Parses JSON text into a tree, refusing duplicate keys (after unescaping),
/// nesting deeper than the limit, and trailing data.
pub fn parse_strict(raw: &str, limits: &Limits) -> Result<Value, DecodeError> {
    check_size(raw, limits)?;
    let mut de = serde_json::Deserializer::from_str(raw);
    let max = limits.max_depth.min(SERDE_JSON_DEPTH);
    let refused = std::cell::Cell::new(None);
    let seed = Strict {
        depth: 0,
        max,
        refused: &refused,
    };
    let v = seed.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    v.map_err(|e| match refused.take() {
        Some(Refused::TooDeep) => malformed(
            format!("arguments nest deeper than the limit of {max} levels"),
            "send flatter arguments",
        ),
        Some(Refused::Duplicate(key)) => malformed(
            format!("arguments repeat the key `{}`", key.escape_debug()),
            "send each key once",
        ),
        // serde_json's own category: syntax, an early end, or a number no
        // JSON value holds.
        None => malformed(
            format!("arguments are not valid JSON: {e}"),
            "send the arguments as one JSON object, with nothing after it",
        ),
    })
}

/// The first number literal of valid JSON text that is not a whole number
/// but reads as one (`0.99999999999999999` is 1.0 as a 64-bit float, so a
/// bound of `minimum: 1` or an integer type would accept it), or a whole
/// number past 64-bit integers that reads as another one
/// (`-9223372036854775809` is i64::MIN as a float): a number rounded
/// silently is never read. With it, what it would be read as. Whole numbers
/// that fit, those a float holds exactly, and those whose float keeps a
/// fraction are what they say.
fn rounded_to_an_integer(raw: &str) -> Option<(&str, &'static str)> {
    let b = raw.as_bytes();
    let (mut i, mut in_string) = (0, false);
    while i < b.len() {
        let c = b[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if c == b'"' {
            in_string = true;
            i += 1;
            continue;
        }
        if c == b'-' || c.is_ascii_digit() {
            let start = i;
            while i < b.len() && matches!(b[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                i += 1;
            }
            let literal = &raw[start..i];
            if !literal.bytes().all(|c| c.is_ascii_digit() || c == b'-') {
                let integral = literal.parse::<f64>().is_ok_and(|f| f.fract() == 0.0);
                if integral && !is_whole(literal) {
                    return Some((literal, "a whole number it is not"));
                }
            } else if literal.parse::<i64>().is_err() && literal.parse::<u64>().is_err() {
                // serde_json reads it as a float: exact only if the float's
                // own digits are the literal's.
                let exact = literal
                    .parse::<f64>()
                    .is_ok_and(|f| format!("{f:.0}") == literal);
                if !exact {
                    return Some((literal, "another whole number"));
                }
            }
            continue;
        }
        i += 1;
    }
    None
}

/// Whether a JSON number literal is a whole number exactly: no digit other
/// than 0 after the decimal point, once the exponent has moved it.
fn is_whole(literal: &str) -> bool {
    let unsigned = literal.trim_start_matches('-');
    let (mantissa, exp) = match unsigned.find(['e', 'E']) {
        Some(at) => (
            &unsigned[..at],
            unsigned[at + 1..].parse::<i64>().unwrap_or(0),
        ),
        None => (unsigned, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
    // the decimal point sits before digits[point]
    let point = int.len() as i64 + exp;
    digits
        .iter()
        .enumerate()
        .all(|(k, &d)| d == b'0' || (k as i64) < point)
}

/// Why the strict parser itself refused the text, kept beside the error that
/// serde carries so that the reason is a value, not a message to match.
enum Refused {
    TooDeep,
    Duplicate(String),
}

#[derive(Clone, Copy)]
struct Strict<'r> {
    depth: usize,
    max: usize,
    refused: &'r std::cell::Cell<Option<Refused>>,
}

impl<'r> Strict<'r> {
    fn nested<E: de::Error>(self) -> Result<Strict<'r>, E> {
        if self.depth >= self.max {
            return Err(self.refuse(Refused::TooDeep));
        }
        Ok(Strict {
            depth: self.depth + 1,
            ..self
        })
    }

    fn refuse<E: de::Error>(self, why: Refused) -> E {
        self.refused.set(Some(why));
        E::custom("refused by the strict parser")
    }
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        serde_json::Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("number out of range"))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = self.nested()?;
        let mut list = Vec::new();
        while let Some(v) = seq.next_element_seed(inner)? {
            list.push(v);
        }
        Ok(Value::Array(list))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inner = self.nested()?;
        let mut obj = Map::new();
        while let Some(k) = map.next_key::<String>()? {
            if obj.contains_key(&k) {
                // The key is the model's own text and never a secret value.
                return Err(self.refuse(Refused::Duplicate(k)));
            }
            let v = map.next_value_seed(inner)?;
            obj.insert(k, v);
        }
        Ok(Value::Object(obj))
    }
}

#[cfg(test)]
mod tests {
    /// Arguments are read with serde_json's `float_roundtrip`: the nearest
    /// float, as `str::parse` reads it. Run alone (`cargo test -p
    /// contract-runtime`), where no other crate turns the feature on.
    #[test]
    fn decimals_are_read_as_the_nearest_float() {
        for text in [
            "94.06149299205461",
            "0.9999999999999999",
            "5.684341886080802e-14",
        ] {
            let read: f64 = serde_json::from_str(text).unwrap();
            assert_eq!(read, text.parse::<f64>().unwrap(), "{text}");
        }
    }
}
