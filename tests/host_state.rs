//! Typed host state: a tool declares what it takes (`state(Db)`, a `&Db`
//! parameter), a registry without it does not build, and the handler gets it.

use std::sync::Arc;

use contract_runtime::prelude::*;
use contract_runtime::RegistryError;
use serde_json::json;

/// The event store.
pub struct Db {
    events: Vec<&'static str>,
}

/// The outgoing mail queue.
pub struct Mailer;

/// No failure.
#[derive(Debug, ToolFailure)]
pub enum Never {
    /// Never happens.
    #[failure(code = "never", message = "never")]
    Never,
}

/// Counts the events whose title contains a word.
#[tool_contract(effect = read_only, state(Db))]
pub fn count_events(
    db: &Db,
    /// The word to look for.
    #[arg(length(min = 1, max = 50))]
    word: String,
) -> Result<usize, Never> {
    Ok(db
        .events
        .iter()
        .filter(|e| e.contains(word.as_str()))
        .count())
}

/// Says whether mail can be sent, asynchronously.
#[tool_contract(effect = read_only, state(Db, Mailer))]
pub async fn ready(ctx: &CallContext, mailer: &Mailer, db: &Db) -> Result<bool, Never> {
    let _ = (ctx.call_id(), mailer);
    Ok(!db.events.is_empty())
}

#[test]
fn a_registry_without_the_state_does_not_build() {
    let err = Registry::builder()
        .tool(count_events::contract())
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        RegistryError::MissingState {
            tool: "count_events".into(),
            ty: "Db".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "tool `count_events` takes host state `Db`, which the registry was not given; add it with `Registry::builder().state(...)`"
    );
    let err = Registry::builder()
        .state(Db { events: vec![] })
        .tool(ready::contract())
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string().split(',').next(),
        Some("tool `ready` takes host state `Mailer`")
    );
}

#[test]
fn the_handler_gets_the_state() {
    let registry = Registry::builder()
        .state(Db {
            events: vec!["standup", "standup notes", "lunch"],
        })
        .state(Mailer)
        .tool(count_events::contract())
        .tool(ready::contract())
        .build()
        .expect("the host provides every state");
    let d = Dispatcher::new(registry);
    let caller = Arc::new(Caller::new());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let call = ToolCall::new("c1", "count_events", json!({"word": "standup"}).to_string());
    let env = rt.block_on(d.dispatch(&caller, &call));
    assert_eq!(env.status, Status::Ok);
    assert_eq!(env.result, json!(2));
    let call = ToolCall::new("c2", "ready", "{}".to_string());
    let env = rt.block_on(d.dispatch(&caller, &call));
    assert_eq!((env.status, env.result), (Status::Ok, json!(true)));
}
