//! Proves at macro time that a `pattern = "..."` compiles (rule C10).
//!
//! The macro crate may depend only on syn, quote and proc-macro2, so this is a
//! syntax check of the subset both the runtime's `regex` crate and ECMA-262
//! (the dialect JSON Schema patterns are read in) accept. Whatever it lets
//! through is compiled again when a registry is built, which fails loudly.

/// `Err(reason)` when the pattern would not compile or would mean different
/// things to the runtime and to a JSON Schema validator.
pub fn check(p: &str) -> Result<(), String> {
    let chars: Vec<char> = p.chars().collect();
    let mut i = 0;
    let mut depth = 0usize;
    // Whether the previous item can take a quantifier.
    let mut atom = false;
    // Group names seen: a name given twice does not compile in either engine.
    let mut names: Vec<String> = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                i = escape(&chars, i, false)?;
                atom = true;
                continue;
            }
            '[' => {
                i = class(&chars, i)?;
                atom = true;
                continue;
            }
            '(' => {
                if chars.get(i + 1) == Some(&'?') {
                    let rest: String = chars[i + 2..].iter().take(3).collect();
                    if rest.starts_with('=')
                        || rest.starts_with('!')
                        || rest.starts_with("<=")
                        || rest.starts_with("<!")
                    {
                        return Err(format!("lookaround at character {i} is not supported by the runtime's regex engine"));
                    }
                    if rest.starts_with(':') {
                        i += 3;
                    } else if rest.starts_with("P<") {
                        return Err(format!("`(?P<` at character {i} is a group name ECMA-262 does not compile; write `(?<name>...)`, which both read alike"));
                    } else if rest.starts_with('<') {
                        let start = i + 3;
                        let end = chars[start..]
                            .iter()
                            .position(|&c| c == '>')
                            .ok_or_else(|| format!("unclosed group name at character {i}"))?;
                        let name: String = chars[start..start + end].iter().collect();
                        if name.is_empty()
                            || name.starts_with(|c: char| c.is_ascii_digit())
                            || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                        {
                            return Err(format!("invalid group name `{name}`"));
                        }
                        if names.contains(&name) {
                            return Err(format!("the group name `{name}` is used twice"));
                        }
                        names.push(name);
                        i = start + end + 1;
                    } else {
                        return Err(format!(
                            "unsupported group syntax `(?{}` at character {i}",
                            rest.chars().next().unwrap_or(' ')
                        ));
                    }
                } else {
                    i += 1;
                }
                depth += 1;
                atom = false;
                continue;
            }
            ')' => {
                if depth == 0 {
                    return Err(format!("unopened `)` at character {i}"));
                }
                depth -= 1;
                atom = true;
            }
            '*' | '+' | '?' => {
                if !atom {
                    return Err(format!("`{c}` at character {i} repeats nothing"));
                }
                i += 1;
                if chars.get(i) == Some(&'?') {
                    i += 1;
                }
                atom = false;
                continue;
            }
            '{' => {
                if !atom {
                    return Err(format!("`{{` at character {i} repeats nothing"));
                }
                let end = chars[i..]
                    .iter()
                    .position(|&c| c == '}')
                    .ok_or_else(|| format!("unclosed `{{` at character {i}"))?;
                let body: String = chars[i + 1..i + end].iter().collect();
                let (lo, hi) = match body.split_once(',') {
                    Some((a, b)) => (a.trim(), Some(b.trim())),
                    None => (body.trim(), None),
                };
                let lo: u32 = lo
                    .parse()
                    .map_err(|_| format!("invalid repetition `{{{body}}}` at character {i}"))?;
                if let Some(hi) = hi.filter(|h| !h.is_empty()) {
                    let hi: u32 = hi
                        .parse()
                        .map_err(|_| format!("invalid repetition `{{{body}}}` at character {i}"))?;
                    if lo > hi {
                        return Err(format!("repetition `{{{body}}}` has min greater than max"));
                    }
                }
                i += end + 1;
                if chars.get(i) == Some(&'?') {
                    i += 1;
                }
                atom = false;
                continue;
            }
            '|' | '^' => atom = false,
            '$' => atom = false,
            _ => atom = true,
        }
        i += 1;
    }
    if depth > 0 {
        return Err("unclosed `(`".to_string());
    }
    Ok(())
}

/// One escape starting at `chars[i] == '\\'`; returns the index after it.
/// Only escapes both engines read alike pass: ECMA-262 is read with the
/// `u` flag by some validators (ajv) and without it by others (a browser's
/// `new RegExp(p)`), so an escape must mean the same in the regex crate and
/// in ECMA-262 read either way.
fn escape(chars: &[char], i: usize, in_class: bool) -> Result<usize, String> {
    let Some(&e) = chars.get(i + 1) else {
        return Err("the pattern ends with a lone `\\`".to_string());
    };
    let hex_digits = |from: usize, n: usize| {
        chars
            .get(from..from + n)
            .filter(|h| h.iter().all(char::is_ascii_hexdigit))
            .map(|h| h.iter().collect::<String>())
    };
    match e {
        'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'n' | 'r' | 't' | 'f' | 'v' => Ok(i + 2),
        'b' | 'B' if !in_class => Ok(i + 2),
        '0' => Err(format!("`\\0` at character {i} is NUL to ECMA-262 but does not compile in the runtime's regex crate; write `\\x00`")),
        '1'..='9' => Err(format!("backreference `\\{e}` is not supported by the runtime's regex engine")),
        'x' if chars.get(i + 2) == Some(&'{') => {
            let end = chars[i..].iter().position(|&c| c == '}').map_or(chars.len(), |e| i + e + 1);
            let written: String = chars[i..end].iter().collect();
            Err(format!(
                "`{written}` at character {i} is a code point to the runtime's regex crate, but ECMA-262 reads `\\x{{` as the letter `x` and a repetition (without the `u` flag) or refuses it (with it); {}",
                alike(&chars[i + 3..end.saturating_sub(1).max(i + 3)].iter().collect::<String>())
            ))
        }
        'x' => match hex_digits(i + 2, 2) {
            Some(_) => Ok(i + 4),
            None => Err(format!("invalid hex escape at character {i}: write `\\x` and exactly two hex digits (`\\x41`)")),
        },
        'u' if chars.get(i + 2) == Some(&'{') => {
            let end = chars[i..].iter().position(|&c| c == '}').map_or(chars.len(), |e| i + e + 1);
            let written: String = chars[i..end].iter().collect();
            Err(format!(
                "`{written}` at character {i} is a code point to the runtime's regex crate and to ECMA-262 with the `u` flag, but the letter `u` and a repetition without it; {}",
                alike(&chars[i + 3..end.saturating_sub(1).max(i + 3)].iter().collect::<String>())
            ))
        }
        'u' => match hex_digits(i + 2, 4) {
            Some(h) if hex_char(&h).is_some() => Ok(i + 6),
            Some(h) => Err(format!("`\\u{h}` at character {i} is a surrogate, not a character: the runtime's regex crate refuses it, and ECMA-262 reads it as half a character; write the character itself")),
            None => Err(format!("`\\u` at character {i} needs exactly four hex digits (`\\u00e9`), the one form of `\\u` the runtime's regex crate and ECMA-262 read alike; or write the character itself")),
        },
        'U' => Err(format!("`\\U` at character {i} is an eight-digit code point to the runtime's regex crate but the letter `U` (or an error) to ECMA-262; write the character itself, `\\xHH` or `\\uHHHH`")),
        'p' | 'P' => Err(format!(
            "`\\{e}` at character {i} is a Unicode class to the runtime's regex crate and to ECMA-262 with the `u` flag, but the letters `{e}{{..}}` without it (and JSON Schema does not say which); write the characters as a class, like `[A-Za-z\\u00c0-\\u024f]`"
        )),
        '<' | '>' => Err(format!("`\\{e}` at character {i} is a word boundary to the runtime's regex crate but the character `{e}` (or an error) to ECMA-262; write `\\b` for a boundary, or `{e}` for the character")),
        // ECMA-262 with the `u` flag escapes only its syntax characters and
        // `/` (and `-` in a class); any other escaped punctuation is an error there.
        '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|' | '/' => Ok(i + 2),
        '-' if in_class => Ok(i + 2),
        c if c.is_ascii_punctuation() || c == ' ' => Err(format!("`\\{c}` at character {i} escapes a character that needs no escape, which ECMA-262 with the `u` flag refuses; write `{c}`")),
        c => Err(format!("unknown escape `\\{c}` at character {i}")),
    }
}

/// The help for a braced code point (`\x{41}`, `\u{e9}`): the forms both
/// engines read alike, with this code point's when it has one.
fn alike(hex: &str) -> String {
    match u32::from_str_radix(hex.trim(), 16).ok().filter(|_| !hex.trim().is_empty()) {
        Some(n) if n <= 0xFF => format!("write `\\x{n:02X}` (exactly two hex digits), `\\u{n:04X}` or the character itself"),
        Some(n) if n <= 0xFFFF && char::from_u32(n).is_some() => format!("write `\\u{n:04X}` (exactly four hex digits) or the character itself"),
        _ => "write the character itself (or `\\xHH` with two hex digits, `\\uHHHH` with four, below U+10000)".to_string(),
    }
}

/// A character class starting at `chars[i] == '['`; returns the index after it.
/// Each range's ends are checked: `[_-.]` (meant as `_`, `-`, `.`) is a range
/// from `_` down to `.`, which no engine compiles.
fn class(chars: &[char], i: usize) -> Result<usize, String> {
    let mut j = i + 1;
    if chars.get(j) == Some(&'^') {
        j += 1;
    }
    // A `]` first in the class is a literal in the regex crate but closes an
    // empty class in ECMA-262: refuse the ambiguity.
    if chars.get(j) == Some(&']') {
        return Err(format!("`[]` or `[^]` at character {i} means different things to different engines; escape the `]`"));
    }
    // The element before a `-`: a character, or a class escape (`None`);
    // nothing at the start and right after a range, where `-` is literal.
    let mut prev: Option<Option<char>> = None;
    while j < chars.len() {
        match chars[j] {
            ']' => return Ok(j + 1),
            '[' => return Err(format!("nested `[` at character {j}: escape it as `\\[`")),
            c @ ('&' | '~' | '-') if chars.get(j + 1) == Some(&c) => {
                return Err(format!("`{c}{c}` in a class at character {j} is a set operation to the runtime's regex crate but plain characters (or a range) to ECMA-262; write out the set the class means"))
            }
            '-' if prev.is_some() && chars.get(j + 1).is_some_and(|&c| c != ']') => {
                let (hi, next) = class_element(chars, j + 1)?;
                match (prev.flatten(), hi) {
                    (Some(lo), Some(hi)) if lo <= hi => {}
                    (Some(lo), Some(hi)) => {
                        return Err(format!(
                            "the class range `{lo}-{hi}` at character {j} runs backwards; to match `-` itself, put it first or last in the class, or escape it as `\\-`"
                        ))
                    }
                    _ => {
                        return Err(format!(
                            "a class escape (`\\d`, `\\w`, ...) cannot end a range at character {j}; to match `-` itself, put it last in the class, or escape it as `\\-`"
                        ))
                    }
                }
                prev = None;
                j = next;
            }
            _ => {
                let (element, next) = class_element(chars, j)?;
                prev = Some(element);
                j = next;
            }
        }
    }
    Err(format!("unclosed `[` at character {i}"))
}

/// One element of a class at `chars[j]`: the character it stands for, or
/// `None` for a class escape (`\d`, `\p{L}`), and the index after it.
fn class_element(chars: &[char], j: usize) -> Result<(Option<char>, usize), String> {
    if chars[j] != '\\' {
        return Ok((Some(chars[j]), j + 1));
    }
    let next = escape(chars, j, true)?;
    let e = chars[j + 1];
    let one = match e {
        'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'p' | 'P' => None,
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        'f' => Some('\u{c}'),
        'v' => Some('\u{b}'),
        'x' | 'u' => {
            let hex: String = chars[j + 2..next].iter().collect();
            hex_char(&hex)
        }
        c => Some(c),
    };
    Ok((one, next))
}

/// The character a hex escape names, if it names one.
fn hex_char(hex: &str) -> Option<char> {
    if hex.is_empty() || hex.len() > 6 {
        return None;
    }
    u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn accepts_common_patterns() {
        for p in [
            "^[A-Z]{1,5}$",
            "^[a-z][a-z0-9-]{0,31}$",
            "^[a-z0-9][a-z0-9_-]{0,63}\\.md$",
            "^[^\\x00]*$",
            "(?:ab)+|c*?",
            "^\\d{4}-\\d{2}$",
            "^[a-zA-Z0-9_.-]{1,32}$",
            "^[-a-z]+$",
            "^[a-z-]+$",
            "[\\x41-\\x5A]",
            "[\\u0041-\\u005A]",
            "^\\u00e9\\x41$",
            "^a\\/b\\.c-?$",
            "[\\-a\\]]",
            "[a-z-0]",
            "(?<a>x)(?<b>y)",
        ] {
            assert_eq!(check(p), Ok(()), "{p}");
        }
    }

    /// The mistakes a registry build used to be the first to catch (a
    /// black-box audit wrote them): a range written backwards, a class
    /// escape as a range end, a group name given twice, a code point that
    /// is no character.
    #[test]
    fn refuses_what_no_engine_compiles() {
        for (p, says) in [
            (
                "^[a-zA-Z0-9_-.]{1,32}$",
                "the class range `_-.` at character 12 runs backwards",
            ),
            ("[z-a]", "the class range `z-a`"),
            ("[\\d-z]", "a class escape"),
            ("[a-\\w]", "a class escape"),
            ("(?<n>a)(?<n>b)", "the group name `n` is used twice"),
            ("(?<1n>a)", "invalid group name"),
            ("\\uD800", "is a surrogate"),
            ("\\0", "write `\\x00`"),
        ] {
            let e = check(p).expect_err(p);
            assert!(e.contains(says), "{p}: {e}");
        }
    }

    /// What the runtime's regex crate and ECMA-262 (with or without the `u`
    /// flag) read differently is refused, with a form both read alike: a
    /// black-box audit found `\x{41}` (41 times `x` to a browser) and
    /// `(?P<x>a)` (no pattern at all to ECMA-262) published as they were.
    #[test]
    fn refuses_what_engines_read_differently() {
        for (p, says) in [
            (
                "^\\x{41}$",
                "write `\\x41` (exactly two hex digits), `\\u0041` or the character itself",
            ),
            ("^\\x{e9}$", "write `\\xE9`"),
            ("^\\u{20AC}$", "write `\\u20AC` (exactly four hex digits)"),
            ("^\\x{1F600}$", "write the character itself"),
            ("^(?P<x>a)$", "write `(?<name>...)`"),
            ("\\U00000041", "eight-digit code point"),
            ("\\u41", "exactly four hex digits"),
            ("\\p{L}+", "Unicode class"),
            ("\\PL", "Unicode class"),
            ("\\<word\\>", "word boundary"),
            ("a\\#b", "write `#`"),
            ("a\\-b", "write `-`"),
            ("[a-z--b]", "set operation"),
            ("[a&&b]", "set operation"),
            ("[a~~b]", "set operation"),
        ] {
            let e = check(p).expect_err(p);
            assert!(e.contains(says), "{p}: {e}");
        }
    }

    #[test]
    fn refuses_broken_patterns() {
        for p in [
            "[a-z", "(ab", "ab)", "*a", "a{3,1}", "a{x}", "\\1", "(?=a)", "\\q", "a\\", "[]a]",
        ] {
            assert!(check(p).is_err(), "{p}");
        }
    }
}
