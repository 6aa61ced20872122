//! Checks for the string formats of JSON Schema that the runtime enforces.
//! Each follows the RFC the JSON Schema spec names, as strictly as the
//! `jsonschema` crate does, so schema and runtime agree.

/// RFC 3339 full-date: `YYYY-MM-DD` with a real day of the month.
pub(crate) fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(y), Some(m), Some(d)) = (digits(&b[0..4]), digits(&b[5..7]), digits(&b[8..10]))
    else {
        return false;
    };
    (1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m)
}

/// RFC 3339 full-time: `HH:MM:SS[.frac](Z|±HH:MM)`.
pub(crate) fn is_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(h), Some(m), Some(sec)) = (digits(&b[0..2]), digits(&b[3..5]), digits(&b[6..8]))
    else {
        return false;
    };
    if h > 23 || m > 59 || sec > 60 {
        return false;
    }
    let mut rest = &b[8..];
    if rest.first() == Some(&b'.') {
        let n = rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &rest[1 + n..];
    }
    // What is left is the offset (ASCII, so the cut is on a char boundary).
    let Some(offset) = offset_seconds(&s[s.len() - rest.len()..]) else {
        return false;
    };
    // A leap second is the last second of a UTC day: 23:59:60 once the
    // offset is taken off (`23:59:60+01:00` is 22:59:60 UTC, no leap second).
    sec < 60 || ((h * 60 + m) as i32 - offset / 60).rem_euclid(24 * 60) == 23 * 60 + 59
}

/// RFC 3339 date-time: a full-date, `T`, and a full-time.
pub(crate) fn is_date_time(s: &str) -> bool {
    s.len() > 11
        && s.is_char_boundary(10)
        && is_date(&s[..10])
        && matches!(s.as_bytes()[10], b'T' | b't')
        && is_time(&s[11..])
}

/// A hyphenated UUID: 8-4-4-4-12 hex digits.
pub(crate) fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// An email address: a non-empty local part without spaces, one `@`, and a host name or IP literal.
///
/// A host name without a dot (`ops@localhost`) is an address: JSON Schema's
/// `email` format (RFC 5321) accepts it, and a published `format: email` must
/// not refuse what the schema lets through.
pub(crate) fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let dot_atom = !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~.".contains(c));
    !local.is_empty()
        && local.len() <= 64
        && (dot_atom || is_quoted_string(local))
        && (is_hostname(domain) || domain.starts_with('[') && domain.ends_with(']'))
}

/// RFC 5321's quoted local part: `"` printable ASCII `"`, where `"` and `\`
/// inside are escaped with `\` (`"joe bloggs"@example.com`).
fn is_quoted_string(local: &str) -> bool {
    let Some(inner) = local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) else {
        return false;
    };
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if !chars.next().is_some_and(|e| (' '..='~').contains(&e)) {
                    return false;
                }
            }
            '"' => return false,
            ' '..='~' => {}
            _ => return false,
        }
    }
    true
}

/// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens.
pub(crate) fn is_hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

/// An absolute URI (RFC 3986): a scheme (`ALPHA *(ALPHA / DIGIT / + - .)`),
/// `:`, then only the characters a URI is made of (unreserved, reserved,
/// and `%` with two hex digits), one `#` at most, and `[` `]` only around
/// an IP literal host. Non-ASCII text (an IRI), `\\`, `|`, `{` or a space
/// is not a URI.
pub(crate) fn is_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut cs = scheme.chars();
    if !(cs.next().is_some_and(|c| c.is_ascii_alphabetic())
        && cs.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)))
    {
        return false;
    }
    // The authority: after `//`, up to the path, the query or the fragment.
    let authority_len = rest
        .strip_prefix("//")
        .map_or(0, |a| 2 + a.find(['/', '?', '#']).unwrap_or(a.len()));
    let (authority, after) = rest.split_at(authority_len);
    let host = authority
        .get(2..)
        .map_or("", |a| a.rsplit_once('@').map_or(a, |(_, host)| host));
    let brackets = match host.strip_prefix('[') {
        // `//[::1]:80`: one IP literal, then at most a port.
        Some(inner) => {
            inner.split_once(']').is_some_and(|(ip, port)| {
                !ip.contains(['[', ']'])
                    && !port.contains(['[', ']'])
                    && (port.is_empty() || port.starts_with(':'))
            }) && !authority[..authority.len() - host.len()].contains(['[', ']'])
        }
        None => !authority.contains(['[', ']']),
    };
    brackets && !after.contains(['[', ']']) && rest.matches('#').count() <= 1 && uri_chars(rest)
}

/// Whether every character is one a URI may hold, `%` only as an escape.
fn uri_chars(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = |k: usize| b.get(k).is_some_and(u8::is_ascii_hexdigit);
                if !(hex(i + 1) && hex(i + 2)) {
                    return false;
                }
                i += 3;
                continue;
            }
            c if c.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&c) => {}
            _ => return false,
        }
        i += 1;
    }
    true
}

/// An RFC 3339 offset (`Z` or `±HH:MM`) in seconds east of UTC.
pub(crate) fn offset_seconds(s: &str) -> Option<i32> {
    if s.eq_ignore_ascii_case("z") {
        return Some(0);
    }
    let b = s.as_bytes();
    if b.len() != 6 || b[3] != b':' {
        return None;
    }
    let sign = match b[0] {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let (h, m) = (digits(&b[1..3])?, digits(&b[4..6])?);
    (h <= 23 && m <= 59).then(|| sign * (h * 3600 + m * 60) as i32)
}

/// The digits of `b` as a number, when every byte is a digit.
pub(crate) fn digits(b: &[u8]) -> Option<u32> {
    b.iter().try_fold(0u32, |acc, c| {
        c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
    })
}

fn days_in_month(y: u32, m: u32) -> u32 {
    match m {
        2 if (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("2024-13-01"));
        assert!(!is_date("24-01-01"));
        assert!(is_date_time("2024-01-31T09:30:00Z"));
        assert!(is_date_time("2024-01-31T09:30:00.5+02:00"));
        assert!(!is_date_time("2024-01-31 09:30:00"));
        assert!(!is_time("25:00:00Z"));
        assert!(is_time("23:59:60Z"));
        assert!(is_time("15:59:60-08:00"));
        assert!(!is_time("23:58:60Z"));
        assert!(!is_time("23:59:60+01:00"));
        assert!(!is_date_time("1998-12-31T22:59:60Z"));
    }

    #[test]
    fn uuids_and_emails() {
        assert!(is_uuid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(!is_uuid("123e4567e89b12d3a456426614174000"));
        assert!(is_email("a.b@example.com"));
        assert!(!is_email("a b@example.com"));
        assert!(!is_email("ab.example.com"));
        assert!(is_email("ops@localhost"));
        assert!(!is_email("a@-b"));
        assert!(is_uri("https://x.y/z"));
        assert!(!is_uri("no scheme"));
        assert!(is_uri("http://[::1]:80/p?q=1#f"));
        assert!(is_uri("urn:isbn:0451450523"));
        assert!(is_uri("http://example.com/%41"));
        for not in [
            "http://example.com/%zz",
            "http://ü.de/",
            "http://x/\\y",
            "http://x/a|b",
            "http://x/#a#b",
            "http://x/[a]",
        ] {
            assert!(!is_uri(not), "{not}");
        }
        assert!(is_email("\"joe bloggs\"@example.com"));
        assert!(is_email("\"a\\\"b\"@example.com"));
        assert!(!is_email("\"a\"b\"@example.com"));
    }
}
