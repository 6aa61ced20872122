//! The digest of a call's exact arguments: `sha256:` and the hex of their
//! canonical JSON (keys sorted, no whitespace). Approvals, idempotency keys
//! and the breaker are all bound to it, so that a decision about
//! `{"note":"a.md"}` is never taken for `{"note":"b.md"}`.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// Canonical JSON text: object keys sorted by their UTF-16-independent byte
/// order, no insignificant whitespace, numbers as serde_json prints them,
/// except that a fraction-free number written with a fraction or an
/// exponent (`1.0`, `1e0`) is written as the integer it is, so that it is
/// the same call as `1` (the validator reads both as the integer).
pub fn canonical_json(v: &Value) -> String {
    let mut out = String::new();
    write_canonical(v, &mut out);
    out
}

fn write_canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::from(k.as_str()).to_string());
                out.push(':');
                write_canonical(&m[k], out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(x, out);
            }
            out.push(']');
        }
        Value::Number(n) => match n.as_f64() {
            // Below 2^53 every integer is exact in an f64.
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => {
                out.push_str(&(f as i64).to_string())
            }
            _ => out.push_str(&n.to_string()),
        },
        other => out.push_str(&other.to_string()),
    }
}

/// `sha256:` + hex of the canonical JSON of `args`.
pub fn digest(args: &Value) -> String {
    sha256_hex(canonical_json(args).as_bytes())
}

/// `sha256:` + lowercase hex of the SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hash = Sha256::digest(bytes);
    let mut s = String::with_capacity(7 + 64);
    s.push_str("sha256:");
    for b in hash {
        s.push(char::from(HEX[usize::from(b >> 4)]));
        s.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_hex_is_the_standard_digest() {
        // FIPS 180-2's test vectors.
        assert_eq!(
            sha256_hex(b""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn digest_ignores_key_order_and_whitespace() {
        let a: Value = serde_json::from_str(r#"{"b":1,"a":{"y":[1,2],"x":"é"}}"#).unwrap();
        let b: Value =
            serde_json::from_str(r#"{ "a" : {"x":"\u00e9","y":[1,2]}, "b":1 }"#).unwrap();
        assert_eq!(digest(&a), digest(&b));
        assert_eq!(canonical_json(&a), r#"{"a":{"x":"é","y":[1,2]},"b":1}"#);
        assert!(digest(&a).starts_with("sha256:") && digest(&a).len() == 71);
    }

    #[test]
    fn a_whole_number_is_one_call_however_it_is_written() {
        let one: Value = serde_json::from_str(r#"{"n":1}"#).unwrap();
        for same in [r#"{"n":1.0}"#, r#"{"n":1e0}"#, r#"{"n":10e-1}"#] {
            let v: Value = serde_json::from_str(same).unwrap();
            assert_eq!(digest(&v), digest(&one), "{same}");
        }
        for (text, canonical) in [
            (r#"[-0.0,1.5,2e20,-3.0]"#, "[0,1.5,2e+20,-3]"),
            ("[18446744073709551615]", "[18446744073709551615]"),
        ] {
            let v: Value = serde_json::from_str(text).unwrap();
            assert_eq!(canonical_json(&v), canonical, "{text}");
        }
    }
}
