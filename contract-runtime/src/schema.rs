//! Facts every published schema shares: the JSON Schema dialect, and the
//! tool-name rule every provider accepts.

/// The JSON Schema dialect of every canonical schema.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Rule C9: `^[a-zA-Z0-9_-]{1,64}$` (OpenAI) with Gemini's first character
/// (a letter or `_`): the one name every provider accepts.
pub fn is_portable_name(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && b.len() <= 64
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-')
}
