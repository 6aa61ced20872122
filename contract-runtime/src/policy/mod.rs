//! The policy stages of the pipeline: authority, approval, idempotency, the
//! breaker, and when to retry.

pub mod approval;
pub(crate) mod authority;
pub mod breaker;
pub mod idempotency;
pub mod retry;
