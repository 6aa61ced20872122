//! A call's progress and log lines as MCP notifications ([`crate::report`]).
//!
//! Progress goes out as `notifications/progress` only when the request
//! carried a `progressToken` (rmcp's streamable HTTP transport then sends it
//! on that request's own stream); log lines go out as
//! `notifications/message` only once the client chose a level with
//! `logging/setLevel`, and only at or above it. The handler's thread never
//! waits on the client: reports queue, and one task per call sends them in
//! order; the call's answer waits until the queue is sent, so every report
//! reaches the client before the result.
//!
//! rmcp marks MCP logging deprecated (SEP-2577 drops it from the 2026-07-28
//! revision); clients of the 2025 revisions still ask for it, so it is
//! served on every revision that has it.
#![allow(deprecated)]

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    LoggingLevel, LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken,
};
use rmcp::{Peer, RoleServer};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::report::{LogLevel, Reporter};

/// The level a client chose with `logging/setLevel`, per session; no level
/// (the default) sends no log lines.
#[derive(Debug, Default)]
pub(crate) struct SessionLevel(AtomicU8);

const UNSET: u8 = 0;

impl SessionLevel {
    /// A level chosen for one request (`2026-07-28`: its `_meta`'s
    /// `io.modelcontextprotocol/logLevel`), or none.
    pub(crate) fn of(level: Option<LoggingLevel>) -> SessionLevel {
        let chosen = SessionLevel::default();
        if let Some(level) = level {
            chosen.set(level);
        }
        chosen
    }

    pub(crate) fn set(&self, level: LoggingLevel) {
        self.0.store(rank(from_mcp(level)) + 1, Ordering::Relaxed);
    }

    /// Whether the client chose a level at all.
    pub(crate) fn any(&self) -> bool {
        self.0.load(Ordering::Relaxed) != UNSET
    }

    fn admits(&self, level: LogLevel) -> bool {
        match self.0.load(Ordering::Relaxed) {
            UNSET => false,
            min => rank(level) + 1 >= min,
        }
    }
}

fn rank(level: LogLevel) -> u8 {
    level as u8
}

fn from_mcp(level: LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}

fn to_mcp(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}

enum Note {
    Progress(ProgressNotificationParam),
    Log(LoggingMessageNotificationParam),
}

/// One call's reporter: queues notifications for [`Notifier::finish`]'s task.
pub(crate) struct Notifier {
    token: Option<ProgressToken>,
    level: Arc<SessionLevel>,
    logger: String,
    queue: Mutex<Option<mpsc::UnboundedSender<Note>>>,
}

/// The task sending one call's notifications; [`Sending::finish`] waits for it.
pub(crate) struct Sending {
    notifier: Arc<Notifier>,
    task: tokio::task::JoinHandle<()>,
}

impl Notifier {
    /// A reporter for one call from `peer`, and the task that sends what it
    /// queues. `logger` names the server in log lines.
    pub(crate) fn start(
        peer: Peer<RoleServer>,
        token: Option<ProgressToken>,
        level: Arc<SessionLevel>,
        logger: &str,
    ) -> Sending {
        let (tx, mut rx) = mpsc::unbounded_channel::<Note>();
        let notifier = Arc::new(Notifier {
            token,
            level,
            logger: logger.to_owned(),
            queue: Mutex::new(Some(tx)),
        });
        let task = tokio::spawn(async move {
            while let Some(note) = rx.recv().await {
                // A client that went away loses its notifications; the call
                // itself goes on.
                let _ = match note {
                    Note::Progress(p) => peer.notify_progress(p).await,
                    Note::Log(l) => peer.notify_logging_message(l).await,
                };
            }
        });
        Sending { notifier, task }
    }

    fn send(&self, note: Note) {
        if let Ok(queue) = self.queue.lock() {
            if let Some(tx) = queue.as_ref() {
                let _ = tx.send(note);
            }
        }
    }
}

impl Sending {
    /// The reporter to put in the call's scope.
    pub(crate) fn reporter(&self) -> Arc<dyn Reporter> {
        self.notifier.clone()
    }

    /// Closes the queue (reports after this are traced only) and waits
    /// until everything queued was sent.
    pub(crate) async fn finish(self) {
        if let Ok(mut queue) = self.notifier.queue.lock() {
            queue.take();
        }
        let _ = self.task.await;
    }
}

impl Reporter for Notifier {
    fn progress(&self, done: f64, total: Option<f64>, message: Option<&str>) {
        let Some(token) = &self.token else {
            return;
        };
        let mut p = ProgressNotificationParam::new(token.clone(), done);
        p.total = total;
        p.message = message.map(str::to_owned);
        self.send(Note::Progress(p));
    }

    fn log(&self, level: LogLevel, message: &str) {
        if !self.level.admits(level) {
            return;
        }
        let mut l = LoggingMessageNotificationParam::new(to_mcp(level), Value::from(message));
        l.logger = Some(self.logger.clone());
        self.send(Note::Log(l));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_admits_itself_and_above_and_no_level_admits_nothing() {
        let level = SessionLevel::default();
        assert!(!level.admits(LogLevel::Emergency));
        level.set(LoggingLevel::Warning);
        assert!(!level.admits(LogLevel::Info));
        assert!(level.admits(LogLevel::Warning));
        assert!(level.admits(LogLevel::Error));
        level.set(LoggingLevel::Debug);
        assert!(level.admits(LogLevel::Debug));
    }
}
