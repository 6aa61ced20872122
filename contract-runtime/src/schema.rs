//! Facts every published schema shares: the JSON Schema dialect, and the
//! tool-name rule every provider accepts.

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
