//! The standard error codes the runtime owns: one list, the single source of truth.
//!
//! Tools add their own domain codes through their failure type; these are the
//! ones the pipeline itself produces. `docs/` and the wire tests are checked
//! against [`STANDARD_CODES`].

use crate::envelope::Status;

/// One standard code: its kebab-case text, the status it travels with, and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeInfo {
    /// The code as it appears in the envelope.
    pub code: &'static str,
    /// The status an envelope carrying this code has (for `timeout` and `internal`,
    /// the read-only case; writes answer `unknown`).
    pub status: Status,
    /// One line for the docs.
    pub meaning: &'static str,
}

macro_rules! standard_codes {
    ($($konst:ident = $code:literal => $status:ident, $meaning:literal;)*) => {
        $(
            #[doc = concat!("`", $code, "`: ", $meaning)]
            pub const $konst: &str = $code;
        )*
        /// Every standard code, in the order `docs/envelope.md` lists them.
        pub const STANDARD_CODES: &[CodeInfo] = &[
            $(CodeInfo { code: $code, status: Status::$status, meaning: $meaning },)*
        ];
    };
}

standard_codes! {
    UNKNOWN_TOOL = "unknown-tool" => Invalid, "the name is not in the registry; the repair hint names the available tools";
    MALFORMED_ARGUMENTS = "malformed-arguments" => Invalid, "not JSON, not an object, duplicate key, trailing data, too large or too deep";
    SCHEMA_VIOLATION = "schema-violation" => Invalid, "one per violated constraint, with field and constraint";
    PERMISSION_DENIED = "permission-denied" => Denied, "the caller lacks a scope the tool needs";
    PATH_OUTSIDE_SCOPE = "path-outside-scope" => Denied, "a path argument resolves outside the tool's root";
    APPROVAL_REQUIRED = "approval-required" => NeedsApproval, "a person must approve these exact arguments first";
    APPROVAL_MISMATCH = "approval-mismatch" => Denied, "an approval was given for other arguments of this tool; these were not approved, and nothing ran";
    APPROVAL_DENIED = "approval-denied" => Denied, "a person denied these exact arguments; the message carries their reason";
    TOO_MANY_APPROVALS = "too-many-approvals" => Failed, "the caller already has the most approval requests waiting for a person (policy::approval::MAX_PENDING); no new one was made, and nothing ran";
    TIMEOUT = "timeout" => Failed, "the tool did not finish in time (unknown for writes)";
    TRANSIENT = "transient" => Failed, "a passing failure; replaying is safe";
    CIRCUIT_OPEN = "circuit-open" => Failed, "the same failing call was repeated too often; wait retry_after_ms";
    UNKNOWN_OUTCOME = "unknown-outcome" => Unknown, "the call may or may not have taken effect";
    OUTPUT_CONTRACT_VIOLATION = "output-contract-violation" => Failed, "the tool returned output that breaks its own output schema";
    INTERNAL = "internal" => Failed, "the tool panicked or the host is misconfigured (unknown for writes)";
    IDEMPOTENCY_KEY_REUSED = "idempotency-key-reused" => Invalid, "an idempotency key was sent again with other arguments";
    IN_FLIGHT = "in-flight" => Failed, "a call with this idempotency key is running elsewhere; nothing ran; retry after retry_after_ms";
    DUPLICATE_CALL = "duplicate-call" => Invalid, "the call repeats an earlier write of the same model turn (same tool, same arguments) that has no request key; it did not run again, and the earlier call's answer stands for both";
    STORE_UNAVAILABLE = "store-unavailable" => Failed, "the state store cannot be reached, so a keyed write (or a call that needs approval) did not run; replaying is safe";
}

/// Whether only the pipeline may produce `code`: every standard code but
/// `timeout` and `transient`, which describe a tool's own upstream too. A
/// tool failing with `schema-violation` or `approval-denied` would tell a
/// host matching on codes that a stage refused the call when the tool ran
/// it; `#[derive(ToolFailure)]` refuses such a code at compile time.
pub const fn reserved_for_the_pipeline(code: &str) -> bool {
    let mut i = 0;
    while i < STANDARD_CODES.len() {
        let c = STANDARD_CODES[i].code;
        if same(c, code) && !same(c, TIMEOUT) && !same(c, TRANSIENT) {
            return true;
        }
        i += 1;
    }
    false
}

/// `a == b`, in a `const fn`.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Looks a standard code up by its text.
pub fn lookup(code: &str) -> Option<&'static CodeInfo> {
    STANDARD_CODES.iter().find(|c| c.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_kebab_case() {
        for (i, a) in STANDARD_CODES.iter().enumerate() {
            assert!(a.code.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
            for b in &STANDARD_CODES[i + 1..] {
                assert_ne!(a.code, b.code);
            }
        }
        assert_eq!(lookup("timeout").map(|c| c.status), Some(Status::Failed));
    }

    #[test]
    fn tools_share_timeout_and_transient_and_no_other_standard_code() {
        for c in STANDARD_CODES {
            let shared = [TIMEOUT, TRANSIENT].contains(&c.code);
            assert_eq!(reserved_for_the_pipeline(c.code), !shared, "{}", c.code);
        }
        assert!(!reserved_for_the_pipeline("no-match"));
        assert!(!reserved_for_the_pipeline("schema-violatio"));
    }
}
