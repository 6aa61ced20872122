//! The policies the pipeline stages apply, as state and rules of their own:
//! approval digests, the breaker, and when to retry. (Idempotency records
//! live in [`crate::store`].)

pub mod approval;
pub mod breaker;
pub mod retry;
