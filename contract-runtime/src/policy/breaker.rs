//! A breaker for unproductive retries: a model that keeps sending the same
//! failing call is stopped with `circuit-open` instead of running the tool
//! again, and a tool that keeps failing transiently is given a rest.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// When the breaker opens and for how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BreakerConfig {
    /// The same call (tool + canonical arguments) failing the same way more
    /// than this many times in `window` opens the circuit for that call.
    pub same_call_failures: u32,
    /// A tool failing transiently more than this many times in `window` (any
    /// arguments) opens the circuit for the whole tool.
    pub tool_transient_failures: u32,
    /// How far back failures count.
    pub window: Duration,
    /// How long an open circuit refuses calls.
    pub cooldown: Duration,
}

impl Default for BreakerConfig {
    fn default() -> Self {
        BreakerConfig {
            same_call_failures: 3,
            tool_transient_failures: 5,
            window: Duration::from_secs(60),
            cooldown: Duration::from_secs(30),
        }
    }
}

#[derive(Default)]
struct State {
    /// (tool, digest) → (failure signature, times).
    calls: HashMap<(String, String), (String, Vec<Instant>)>,
    /// tool → transient failure times.
    tools: HashMap<String, Vec<Instant>>,
    /// Open circuits: key → until. A tool-wide circuit has an empty digest.
    open: HashMap<(String, String), Instant>,
}

/// The breaker's memory of recent failures.
#[derive(Default)]
pub struct Breaker {
    config: BreakerConfig,
    state: Mutex<State>,
}

impl Breaker {
    /// A breaker with `config`.
    pub fn new(config: BreakerConfig) -> Breaker {
        Breaker {
            config,
            state: Mutex::new(State::default()),
        }
    }

    /// Whether any failure of `tool` is remembered; when not, callers can skip
    /// computing the argument digest on the hot path.
    pub fn watching(&self, tool: &str) -> bool {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.tools.contains_key(tool)
            || st.open.keys().any(|(t, _)| t == tool)
            || st.calls.keys().any(|(t, _)| t == tool)
    }

    /// `Some(retry_after)` when the circuit for this call (or its tool) is open.
    pub fn check(&self, tool: &str, digest: &str, now: Instant) -> Option<Duration> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.open.retain(|_, until| *until > now);
        let call = st.open.get(&(tool.to_owned(), digest.to_owned()));
        let whole = st.open.get(&(tool.to_owned(), String::new()));
        call.into_iter()
            .chain(whole)
            .max()
            .map(|until| *until - now)
    }

    /// Records a failed run. `signature` identifies "the same way" (the error codes).
    pub fn record_failure(
        &self,
        tool: &str,
        digest: &str,
        signature: &str,
        transient: bool,
        now: Instant,
    ) {
        let cfg = self.config;
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let key = (tool.to_owned(), digest.to_owned());
        let entry = st
            .calls
            .entry(key.clone())
            .or_insert_with(|| (signature.to_owned(), Vec::new()));
        if entry.0 != signature {
            // Failing a different way is progress of a kind: start counting again.
            *entry = (signature.to_owned(), Vec::new());
        }
        entry.1.retain(|t| now.duration_since(*t) < cfg.window);
        entry.1.push(now);
        if entry.1.len() as u32 > cfg.same_call_failures {
            entry.1.clear();
            st.open.insert(key, now + cfg.cooldown);
        }
        if transient {
            let times = st.tools.entry(tool.to_owned()).or_default();
            times.retain(|t| now.duration_since(*t) < cfg.window);
            times.push(now);
            if times.len() as u32 > cfg.tool_transient_failures {
                times.clear();
                st.open
                    .insert((tool.to_owned(), String::new()), now + cfg.cooldown);
            }
        }
    }

    /// Records a success: the call's failure count starts again.
    pub fn record_success(&self, tool: &str, digest: &str) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.calls.remove(&(tool.to_owned(), digest.to_owned()));
        if st.calls.keys().all(|(t, _)| t != tool) && st.tools.get(tool).is_none_or(Vec::is_empty) {
            st.tools.remove(tool);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_after_the_threshold_and_closes_after_the_cooldown() {
        let b = Breaker::new(BreakerConfig {
            same_call_failures: 2,
            ..Default::default()
        });
        let t0 = Instant::now();
        for i in 0..3 {
            assert_eq!(b.check("t", "d", t0), None, "attempt {i}");
            b.record_failure("t", "d", "no-match", false, t0);
        }
        let wait = b.check("t", "d", t0).expect("open");
        assert!(wait <= Duration::from_secs(30) && wait > Duration::from_secs(29));
        assert_eq!(
            b.check("t", "other", t0),
            None,
            "other arguments are not blocked"
        );
        assert_eq!(b.check("t", "d", t0 + Duration::from_secs(31)), None);
    }

    #[test]
    fn a_different_failure_restarts_the_count() {
        let b = Breaker::new(BreakerConfig {
            same_call_failures: 2,
            ..Default::default()
        });
        let t0 = Instant::now();
        b.record_failure("t", "d", "a", false, t0);
        b.record_failure("t", "d", "a", false, t0);
        b.record_failure("t", "d", "b", false, t0);
        assert_eq!(b.check("t", "d", t0), None);
    }

    #[test]
    fn many_transient_failures_open_the_whole_tool() {
        let b = Breaker::new(BreakerConfig {
            tool_transient_failures: 2,
            ..Default::default()
        });
        let t0 = Instant::now();
        for d in ["a", "b", "c"] {
            b.record_failure("t", d, "transient", true, t0);
        }
        assert!(b.check("t", "fresh", t0).is_some());
    }
}
