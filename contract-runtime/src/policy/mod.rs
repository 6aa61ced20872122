//! The policy stages of the pipeline: approval, idempotency, retry.

pub mod approval;
pub mod breaker;
pub mod idempotency;
pub mod retry;
