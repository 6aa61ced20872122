//! A breaker for unproductive retries: a model that keeps sending the same
//! failing call is stopped with `circuit-open` instead of running the tool
//! again, and a tool that keeps failing transiently is given a rest.
//!
//! It counts per tenant ([`crate::Caller::tenant`]; `""` for callers that
//! name none): one tenant's failing calls open circuits for that tenant
//! only, and never rest a tool for everyone.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::envelope::Envelope;

/// When the breaker opens and for how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
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

impl BreakerConfig {
    /// This configuration with `n` as the same-call failure threshold.
    pub fn with_same_call_failures(mut self, n: u32) -> Self {
        self.same_call_failures = n;
        self
    }

    /// This configuration with `n` as the tool-wide transient failure threshold.
    pub fn with_tool_transient_failures(mut self, n: u32) -> Self {
        self.tool_transient_failures = n;
        self
    }

    /// This configuration with failures counted over `window`.
    pub fn with_window(mut self, window: Duration) -> Self {
        self.window = window;
        self
    }

    /// This configuration with open circuits refusing calls for `cooldown`.
    pub fn with_cooldown(mut self, cooldown: Duration) -> Self {
        self.cooldown = cooldown;
        self
    }
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

/// What makes two failures "the same": the error codes of the envelope, in
/// order. A call that fails a different way has made progress of a kind, and
/// its count starts again.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    codes: Box<[String]>,
}

impl Signature {
    /// The signature of a failed envelope.
    pub fn of(env: &Envelope) -> Signature {
        Signature {
            codes: env.errors.iter().map(|e| e.code.clone()).collect(),
        }
    }

    /// A signature made of these codes.
    pub fn from_codes<S: Into<String>>(codes: impl IntoIterator<Item = S>) -> Signature {
        Signature {
            codes: codes.into_iter().map(Into::into).collect(),
        }
    }
}

/// What an open circuit refuses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Circuit {
    /// One call: the tool with these arguments (their digest).
    Call(String),
    /// Every call of the tool.
    Tool,
}

/// What the breaker remembers of one tool. Kept per tool so that the hot
/// path's question, "is anything remembered for this tool?", is one lookup,
/// and so that forgetting a tool whose failures aged out is one removal.
#[derive(Default)]
struct ToolState {
    /// digest → (failure signature, times).
    calls: HashMap<String, (Signature, Vec<Instant>)>,
    /// Times of transient failures, any arguments.
    transient: Vec<Instant>,
    /// Open circuits → until.
    open: HashMap<Circuit, Instant>,
}

impl ToolState {
    /// Drops what is older than the window or past its cooldown.
    fn prune(&mut self, now: Instant, window: Duration) {
        self.open.retain(|_, until| *until > now);
        self.calls.retain(|_, (_, times)| {
            times.retain(|t| now.duration_since(*t) < window);
            !times.is_empty()
        });
        self.transient.retain(|t| now.duration_since(*t) < window);
    }

    fn is_empty(&self) -> bool {
        self.calls.is_empty() && self.transient.is_empty() && self.open.is_empty()
    }
}

/// An open circuit, as [`Breaker::open_circuit`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct OpenCircuit {
    /// How long it stays open.
    pub retry_after: Duration,
    /// The whole tool rests (its transient failures, any arguments), not
    /// only this call.
    pub whole_tool: bool,
}

/// The breaker's memory of recent failures: tenant → tool → state.
#[derive(Default)]
pub struct Breaker {
    config: BreakerConfig,
    state: Mutex<HashMap<String, HashMap<String, ToolState>>>,
}

/// Forgets `tool` of `tenant` (and the tenant) once nothing is remembered.
fn forget_if_empty(st: &mut HashMap<String, HashMap<String, ToolState>>, tenant: &str, tool: &str) {
    if let Some(tools) = st.get_mut(tenant) {
        if tools.get(tool).is_some_and(ToolState::is_empty) {
            tools.remove(tool);
        }
        if tools.is_empty() {
            st.remove(tenant);
        }
    }
}

impl Breaker {
    /// A breaker with `config`.
    pub fn new(config: BreakerConfig) -> Breaker {
        Breaker {
            config,
            state: Mutex::new(HashMap::new()),
        }
    }

    /// Whether any failure of `tool` by `tenant` is remembered; when not,
    /// callers can skip computing the argument digest on the hot path.
    pub fn watching(&self, tenant: &str, tool: &str) -> bool {
        self.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(tenant)
            .is_some_and(|tools| tools.contains_key(tool))
    }

    /// `Some(retry_after)` when the circuit for this call (or its tool) is
    /// open for `tenant`. Forgets the tool once everything it remembered has
    /// aged out.
    pub fn check(&self, tenant: &str, tool: &str, digest: &str, now: Instant) -> Option<Duration> {
        self.open_circuit(tenant, tool, digest, now)
            .map(|o| o.retry_after)
    }

    /// What refuses this call, when something does: the call's own circuit
    /// or its tool's, whichever stays open longer. The two need different
    /// advice (other arguments help with one, not with the other).
    pub fn open_circuit(
        &self,
        tenant: &str,
        tool: &str,
        digest: &str,
        now: Instant,
    ) -> Option<OpenCircuit> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let ts = st.get_mut(tenant)?.get_mut(tool)?;
        ts.prune(now, self.config.window);
        let call = ts.open.get(&Circuit::Call(digest.to_owned())).copied();
        let whole = ts.open.get(&Circuit::Tool).copied();
        let open = match (call, whole) {
            (Some(c), Some(t)) if c > t => Some((c, false)),
            (_, Some(t)) => Some((t, true)),
            (Some(c), None) => Some((c, false)),
            (None, None) => None,
        };
        forget_if_empty(&mut st, tenant, tool);
        open.map(|(until, whole_tool)| OpenCircuit {
            retry_after: until - now,
            whole_tool,
        })
    }

    /// Records a failed run of `tenant`'s. `signature` identifies "the same way".
    pub fn record_failure(
        &self,
        tenant: &str,
        tool: &str,
        digest: &str,
        signature: &Signature,
        transient: bool,
        now: Instant,
    ) {
        let cfg = self.config;
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let ts = st
            .entry(tenant.to_owned())
            .or_default()
            .entry(tool.to_owned())
            .or_default();
        ts.prune(now, cfg.window);
        let entry = ts
            .calls
            .entry(digest.to_owned())
            .or_insert_with(|| (signature.clone(), Vec::new()));
        if entry.0 != *signature {
            // Failing a different way is progress of a kind: start counting again.
            *entry = (signature.clone(), Vec::new());
        }
        entry.1.push(now);
        if entry.1.len() as u32 > cfg.same_call_failures {
            entry.1.clear();
            ts.open
                .insert(Circuit::Call(digest.to_owned()), now + cfg.cooldown);
        }
        if transient {
            ts.transient.push(now);
            if ts.transient.len() as u32 > cfg.tool_transient_failures {
                ts.transient.clear();
                ts.open.insert(Circuit::Tool, now + cfg.cooldown);
            }
        }
    }

    /// Records a success of `tenant`'s: the call's failure count starts again.
    pub fn record_success(&self, tenant: &str, tool: &str, digest: &str) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(ts) = st.get_mut(tenant).and_then(|tools| tools.get_mut(tool)) {
            ts.calls.remove(digest);
            forget_if_empty(&mut st, tenant, tool);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(code: &str) -> Signature {
        Signature::from_codes([code])
    }

    #[test]
    fn opens_after_the_threshold_and_closes_after_the_cooldown() {
        let b = Breaker::new(BreakerConfig {
            same_call_failures: 2,
            ..Default::default()
        });
        let t0 = Instant::now();
        for i in 0..3 {
            assert_eq!(b.check("", "t", "d", t0), None, "attempt {i}");
            b.record_failure("", "t", "d", &sig("no-match"), false, t0);
        }
        let wait = b.check("", "t", "d", t0).expect("open");
        assert!(wait <= Duration::from_secs(30) && wait > Duration::from_secs(29));
        assert_eq!(
            b.check("", "t", "other", t0),
            None,
            "other arguments are not blocked"
        );
        assert_eq!(b.check("", "t", "d", t0 + Duration::from_secs(31)), None);
    }

    #[test]
    fn a_different_failure_restarts_the_count() {
        let b = Breaker::new(BreakerConfig {
            same_call_failures: 2,
            ..Default::default()
        });
        let t0 = Instant::now();
        b.record_failure("", "t", "d", &sig("a"), false, t0);
        b.record_failure("", "t", "d", &sig("a"), false, t0);
        b.record_failure("", "t", "d", &sig("b"), false, t0);
        assert_eq!(b.check("", "t", "d", t0), None);
    }

    #[test]
    fn many_transient_failures_open_the_whole_tool() {
        let b = Breaker::new(BreakerConfig {
            tool_transient_failures: 2,
            ..Default::default()
        });
        let t0 = Instant::now();
        for d in ["a", "b", "c"] {
            b.record_failure("", "t", d, &sig("transient"), true, t0);
        }
        assert!(b.check("", "t", "fresh", t0).is_some());
        let open = b.open_circuit("", "t", "fresh", t0).unwrap();
        assert!(open.whole_tool, "{open:?}");
        // A call's own circuit is told apart from its tool's.
        let b = Breaker::new(BreakerConfig::default().with_same_call_failures(1));
        for _ in 0..2 {
            b.record_failure("", "t", "a", &sig("no-match"), false, t0);
        }
        assert!(!b.open_circuit("", "t", "a", t0).unwrap().whole_tool);
        assert_eq!(b.open_circuit("", "t", "b", t0), None);
    }

    #[test]
    fn tenants_are_counted_apart() {
        let b = Breaker::new(BreakerConfig {
            same_call_failures: 1,
            tool_transient_failures: 1,
            ..Default::default()
        });
        let t0 = Instant::now();
        for d in ["a", "a", "b"] {
            b.record_failure("acme", "t", d, &sig("transient"), true, t0);
        }
        assert!(b.open_circuit("acme", "t", "a", t0).is_some());
        assert!(b.open_circuit("acme", "t", "fresh", t0).unwrap().whole_tool);
        assert!(!b.watching("globex", "t"), "another tenant is not watched");
        assert_eq!(b.open_circuit("globex", "t", "a", t0), None);
        assert_eq!(b.open_circuit("", "t", "a", t0), None);
    }

    #[test]
    fn a_tool_is_forgotten_once_its_failures_age_out() {
        let b = Breaker::new(BreakerConfig {
            window: Duration::from_secs(10),
            ..Default::default()
        });
        let t0 = Instant::now();
        b.record_failure("", "t", "d", &sig("no-match"), false, t0);
        assert!(b.watching("", "t"));
        assert_eq!(b.check("", "t", "d", t0 + Duration::from_secs(11)), None);
        assert!(!b.watching("", "t"), "nothing left to remember");
    }
}
