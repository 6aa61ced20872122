//! Facts every published schema shares: the JSON Schema dialect, and the
//! tool-name rule every provider accepts.

/// The schema extension that names a node's bounds of service: the keywords
/// of the bounds that limit what the tool serves, not the form of a value
/// (`"x-served": ["minimum"]`). Grammar exports leave those bounds out, and
/// strict dialects strip the extension and keep the bounds.
pub const SERVED: &str = "x-served";

/// The JSON Schema dialect of every canonical schema.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Rule C9: `^[a-zA-Z0-9_-]{1,64}$` (OpenAI) with Gemini's first character
/// (a letter or `_`): the one name every provider accepts.
///
/// A `const fn`, so `#[tool_contract]` checks a tool's name with this same
/// function at compile time (through `__private`), and the registry at build.
///
/// ```
/// use contract_runtime::__private::is_portable_name;
/// const _: () = assert!(is_portable_name("search_notes"));
/// assert!(is_portable_name("_x-1") && is_portable_name(&"a".repeat(64)));
/// assert!(!is_portable_name("") && !is_portable_name(&"a".repeat(65)));
/// assert!(!is_portable_name("9lives") && !is_portable_name("notes.search"));
/// assert!(!is_portable_name("né"));
/// ```
pub const fn is_portable_name(name: &str) -> bool {
    let b = name.as_bytes();
    if b.is_empty() || b.len() > 64 || !(b[0].is_ascii_alphabetic() || b[0] == b'_') {
        return false;
    }
    let mut i = 1;
    while i < b.len() {
        let c = b[i];
        if !(c.is_ascii_alphanumeric() || c == b'_' || c == b'-') {
            return false;
        }
        i += 1;
    }
    true
}

/// The integer and float `format`s schemars writes for Rust's number types
/// (`uint64`, `int32`, `double`, ...) are no JSON Schema draft's vocabulary,
/// and strict validators warn on each. Every one is taken out of `schema`
/// (and every schema inside it): an integer width becomes the `minimum` and
/// `maximum` it stands for (kept where the schema states a tighter one), a
/// float's is dropped (a JSON number is already a double).
///
/// ```
/// use contract_runtime::schema::standard_number_formats;
/// use serde_json::json;
///
/// let mut s = json!({"type": "integer", "format": "uint8", "minimum": 0});
/// standard_number_formats(&mut s);
/// assert_eq!(s, json!({"type": "integer", "minimum": 0, "maximum": 255}));
/// ```
pub fn standard_number_formats(schema: &mut serde_json::Value) {
    use serde_json::Value;
    match schema {
        Value::Object(map) => {
            let bounds = match map.get("format").and_then(Value::as_str) {
                Some(f) => number_format_bounds(f),
                None => None,
            };
            if let Some((min, max)) = bounds {
                map.shift_remove("format");
                tighten(map, "minimum", min, |new, old| new > old);
                tighten(map, "maximum", max, |new, old| new < old);
            }
            for v in map.values_mut() {
                standard_number_formats(v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(standard_number_formats),
        _ => {}
    }
}

/// `Some` for a format schemars writes for a number type: the bounds it
/// stands for (`None` on a side it does not bound, and for floats).
fn number_format_bounds(
    format: &str,
) -> Option<(Option<serde_json::Number>, Option<serde_json::Number>)> {
    use serde_json::Number;
    let signed = |min: i64, max: i64| Some((Some(Number::from(min)), Some(Number::from(max))));
    let unsigned = |max: u64| Some((Some(Number::from(0u64)), Some(Number::from(max))));
    match format {
        "int8" => signed(i8::MIN.into(), i8::MAX.into()),
        "int16" => signed(i16::MIN.into(), i16::MAX.into()),
        "int32" => signed(i32::MIN.into(), i32::MAX.into()),
        "int64" | "int" => signed(i64::MIN, i64::MAX),
        "uint8" => unsigned(u8::MAX.into()),
        "uint16" => unsigned(u16::MAX.into()),
        "uint32" => unsigned(u32::MAX.into()),
        "uint64" | "uint" => unsigned(u64::MAX),
        // Wider than a JSON number states exactly: only the sign is kept.
        "uint128" => Some((Some(Number::from(0u64)), None)),
        "int128" | "float" | "double" => Some((None, None)),
        _ => None,
    }
}

/// Sets `key` to `bound` unless the schema states a tighter one.
fn tighten(
    map: &mut serde_json::Map<String, serde_json::Value>,
    key: &str,
    bound: Option<serde_json::Number>,
    tighter: fn(f64, f64) -> bool,
) {
    let Some(bound) = bound else {
        return;
    };
    let keep = match map.get(key).and_then(serde_json::Value::as_f64) {
        Some(old) => !bound.as_f64().is_some_and(|new| tighter(new, old)),
        None => false,
    };
    if !keep {
        map.insert(key.to_owned(), serde_json::Value::Number(bound));
    }
}
