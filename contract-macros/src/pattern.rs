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
                    } else if rest.starts_with("P<") || rest.starts_with('<') {
                        let start = i + if rest.starts_with('P') { 4 } else { 3 };
                        let end = chars[start..]
                            .iter()
                            .position(|&c| c == '>')
                            .ok_or_else(|| format!("unclosed group name at character {i}"))?;
                        let name: String = chars[start..start + end].iter().collect();
                        if name.is_empty()
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
fn escape(chars: &[char], i: usize, in_class: bool) -> Result<usize, String> {
    let Some(&e) = chars.get(i + 1) else {
        return Err("the pattern ends with a lone `\\`".to_string());
    };
    match e {
        'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'n' | 'r' | 't' | 'f' | 'v' | '0' => Ok(i + 2),
        'b' | 'B' if !in_class => Ok(i + 2),
        '1'..='9' => Err(format!("backreference `\\{e}` is not supported by the runtime's regex engine")),
        'x' => {
            if chars.get(i + 2) == Some(&'{') {
                let end = chars[i..].iter().position(|&c| c == '}').ok_or("unclosed `\\x{`")?;
                let hex: String = chars[i + 3..i + end].iter().collect();
                if hex_char(&hex).is_none() {
                    return Err(format!(
                        "`\\x{{{hex}}}` at character {i} is not a character (hex digits up to 10FFFF, no surrogate)"
                    ));
                }
                Ok(i + end + 1)
            } else if chars.get(i + 2..i + 4).is_some_and(|h| h.iter().all(char::is_ascii_hexdigit)) {
                Ok(i + 4)
            } else {
                Err(format!("invalid hex escape at character {i}"))
            }
        }
        'u' => Err(format!("`\\u` escape at character {i}: write `\\x{{...}}` (understood by both the runtime and ECMA-262 validators) or the character itself")),
        'p' | 'P' => {
            if chars.get(i + 2) == Some(&'{') {
                let end = chars[i..].iter().position(|&c| c == '}').ok_or("unclosed `\\p{`")?;
                Ok(i + end + 1)
            } else {
                Err(format!("`\\{e}` needs a class in braces, like `\\{e}{{L}}`"))
            }
        }
        c if c.is_ascii_punctuation() || c == ' ' => Ok(i + 2),
        c => Err(format!("unknown escape `\\{c}` at character {i}")),
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
        '0' => Some('\0'),
        'x' => {
            let hex: String = chars[j + 2..next]
                .iter()
                .filter(|c| c.is_ascii_hexdigit())
                .collect();
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
            "\\p{L}+",
            "^[a-zA-Z0-9_.-]{1,32}$",
            "^[-a-z]+$",
            "^[a-z-]+$",
            "[\\x41-\\x5A]",
            "[\\x{41}-\\x{5A}]",
            "[a-z-0]",
            "(?P<a>x)(?P<b>y)",
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
            ("(?P<n>a)(?P<n>b)", "the group name `n` is used twice"),
            ("\\x{110000}", "is not a character"),
            ("\\x{D800}", "is not a character"),
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
