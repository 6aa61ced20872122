//! The policies the pipeline stages apply, as state and rules of their own:
//! approval digests, idempotency records, the breaker, and when to retry.

pub mod approval;
pub mod breaker;
pub mod idempotency;
pub mod retry;
