//! Approval is bound to the exact arguments: a `sha256:` digest of their
//! canonical JSON (keys sorted, no whitespace), so an approval for
//! `{"note":"a.md"}` cannot be spent on `{"note":"b.md"}`.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::context::Caller;

/// Canonical JSON text: object keys sorted by their UTF-16-independent byte
/// order, no insignificant whitespace, numbers as serde_json prints them.
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
        other => out.push_str(&other.to_string()),
    }
}

/// `sha256:` + hex of the canonical JSON of `args`.
pub fn digest(args: &Value) -> String {
    sha256_hex(canonical_json(args).as_bytes())
}

/// `sha256:` + lowercase hex of the SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut s = String::with_capacity(7 + 64);
    s.push_str("sha256:");
    for b in hash {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// What the caller's approvals say about one call that needs approval.
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// Approved for exactly these arguments.
    Approved,
    /// Approvals exist for this tool, but none for these arguments.
    Mismatch,
    /// No approval at all.
    Required,
}

/// Looks the call's digest up among the caller's approvals for the tool.
pub fn verdict(caller: &Caller, tool: &str, digest: &str) -> Verdict {
    let mut any = false;
    for a in caller.approvals_for(tool) {
        if a.digest == digest {
            return Verdict::Approved;
        }
        any = true;
    }
    if any {
        Verdict::Mismatch
    } else {
        Verdict::Required
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_ignores_key_order_and_whitespace() {
        let a: Value = serde_json::from_str(r#"{"b":1,"a":{"y":[1,2],"x":"é"}}"#).unwrap();
        let b: Value =
            serde_json::from_str(r#"{ "a" : {"x":"\u00e9","y":[1,2]}, "b":1 }"#).unwrap();
        assert_eq!(digest(&a), digest(&b));
        assert_eq!(canonical_json(&a), r#"{"a":{"x":"é","y":[1,2]},"b":1}"#);
        assert!(digest(&a).starts_with("sha256:") && digest(&a).len() == 71);
    }
}
