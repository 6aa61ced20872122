//! When a failed attempt may be tried again automatically.

use crate::contract::ToolSpec;

/// Whether attempt number `attempt` (1-based) may be followed by another.
/// Only retry-safe tools are retried: a write without idempotency is never
/// replayed behind the model's back (rule C6 makes such a policy a compile error).
pub fn may_retry(spec: &ToolSpec, attempt: u32) -> bool {
    spec.replay_safe() && attempt < spec.retry.attempts
}

/// The wait before retry number `attempt` (1-based): the backoff doubled each time.
pub fn backoff(spec: &ToolSpec, attempt: u32) -> std::time::Duration {
    let factor = 1u64 << attempt.saturating_sub(1).min(16);
    std::time::Duration::from_millis(spec.retry.backoff_ms.saturating_mul(factor))
}
