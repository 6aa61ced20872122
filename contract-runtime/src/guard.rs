//! Panic capture for everything user-supplied the dispatcher calls: handlers,
//! approval predicates, stores, journals. A panic in any of them
//! becomes a value the caller turns into an envelope, so `dispatch` never
//! unwinds into the host.

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::store::{StoreError, StoreFuture};

/// Runs `f`; `None` when it panicked.
///
/// Unwind safety is asserted: what the closure touches is either dropped with
/// the call (its arguments, its context) or guarded by locks that recover from
/// poisoning (the breaker, the in-memory store).
pub(crate) fn catch<T>(f: impl FnOnce() -> T) -> Option<T> {
    catch_unwind(AssertUnwindSafe(f)).ok()
}

/// A future whose panics are caught at every poll.
pub(crate) struct CatchUnwind<F>(pub(crate) F);

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    /// `None` when the future panicked.
    type Output = Option<F::Output>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.0;
        match catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(v)) => Poll::Ready(Some(v)),
            Err(_) => Poll::Ready(None),
        }
    }
}

/// Runs a store call; a panic in the store reads as the store being broken.
pub(crate) async fn guarded<'a, T>(
    call: impl FnOnce() -> StoreFuture<'a, T>,
) -> Result<T, StoreError> {
    let Some(fut) = catch(call) else {
        return Err(StoreError::unavailable("the store panicked"));
    };
    CatchUnwind(fut)
        .await
        .unwrap_or_else(|| Err(StoreError::unavailable("the store panicked")))
}
