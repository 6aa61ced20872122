//! What the inbox reads from a request: `application/x-www-form-urlencoded`
//! fields (a form's body, a query string), and the CSRF token its forms carry.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::store::StoreError;

/// The fields of an urlencoded text, in order (a repeated name keeps every
/// value; [`field`] reads the first).
pub(super) fn parse(text: &str) -> Vec<(String, String)> {
    text.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(name), decode(value))
        })
        .collect()
}

/// The first value of `name`.
pub(super) fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// One urlencoded component: `+` is a space, `%XX` a byte; bytes that are
/// not UTF-8 become U+FFFD. A `%` not followed by two hex digits is itself.
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => match (hex(b.get(i + 1)), hex(b.get(i + 2))) {
                (Some(h), Some(l)) => {
                    out.push(h << 4 | l);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(c: Option<&u8>) -> Option<u8> {
    let c = *c?;
    (c as char).to_digit(16).map(|d| d as u8)
}

/// CSRF tokens: an HMAC-SHA256 over the approver (name and what they see),
/// with a key random per inbox. A token is valid for that approver on that
/// inbox only, and another site cannot read one (the page is same-origin),
/// so a form it makes a browser post carries none.
#[derive(Clone)]
pub(super) struct Csrf {
    key: [u8; 32],
}

impl Csrf {
    pub(super) fn new() -> Result<Csrf, StoreError> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key)
            .map_err(|e| StoreError::unavailable(format!("no randomness for a CSRF key: {e}")))?;
        Ok(Csrf { key })
    }

    fn mac(&self, binding: &str) -> Hmac<Sha256> {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.key)
            .expect("HMAC takes a key of any length");
        mac.update(b"contract-runtime inbox csrf\n");
        mac.update(binding.as_bytes());
        mac
    }

    /// The token for the approver `binding` names.
    pub(super) fn token(&self, binding: &str) -> String {
        let tag = self.mac(binding).finalize().into_bytes();
        tag.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Whether `token` is this approver's (compared in constant time).
    pub(super) fn verify(&self, binding: &str, token: &str) -> bool {
        let Some(bytes) = unhex(token) else {
            return false;
        };
        self.mac(binding).verify_slice(&bytes).is_ok()
    }
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    s.as_bytes()
        .chunks(2)
        .map(|p| Some(hex(p.first())? << 4 | hex(p.get(1))?))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urlencoded_fields_decode() {
        let f = parse(
            "id=apr_1&reason=not+now%2C+%3Cb%3E%C3%A9&empty=&bare&decision=deny&reason=second",
        );
        assert_eq!(field(&f, "reason"), Some("not now, <b>é"));
        assert_eq!(field(&f, "empty"), Some(""));
        assert_eq!(field(&f, "bare"), Some(""));
        assert_eq!(field(&f, "decision"), Some("deny"));
        assert_eq!(field(&f, "missing"), None);
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz%4"), "%zz%4");
        assert_eq!(decode("%ff"), "\u{fffd}");
    }

    #[test]
    fn a_token_is_one_approver_s_on_one_inbox() {
        let csrf = Csrf::new().unwrap();
        let t = csrf.token("alice\n*");
        assert_eq!(t.len(), 64);
        assert!(csrf.verify("alice\n*", &t));
        assert!(!csrf.verify("mallory\n*", &t));
        assert!(!csrf.verify("alice\n*", ""));
        assert!(!csrf.verify("alice\n*", &t[..62]));
        assert!(
            !Csrf::new().unwrap().verify("alice\n*", &t),
            "another inbox's key"
        );
    }
}
