//! The policy stages of the pipeline: approval, idempotency, retry.

pub mod approval;
pub mod idempotency;
pub mod retry;
pub mod breaker;
