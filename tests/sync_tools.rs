//! A sync tool runs on the blocking pool, with or without `timeout_ms`, so a
//! slow sync handler never holds the executor other calls run on.

use std::sync::{Arc, Mutex};

use contract_runtime::prelude::*;
use serde::Serialize;
use serde_json::json;

#[derive(Serialize, JsonSchema)]
pub struct Done {
    pub done: bool,
}

#[derive(Debug, ToolFailure)]
pub enum Never {
    #[failure(code = "never")]
    Never,
}

/// Blocks its thread for a while, as sync code reading a disk or a socket does.
#[tool_contract(effect = read_only)]
pub fn blocking_read(
    /// Milliseconds to block.
    #[arg(range(max = 10000))]
    ms: u64,
) -> Result<Done, Never> {
    std::thread::sleep(std::time::Duration::from_millis(ms));
    Ok(Done { done: true })
}

/// Waits without blocking.
#[tool_contract(effect = read_only)]
pub async fn quick_read(
    /// Milliseconds to wait.
    #[arg(range(max = 10000))]
    ms: u64,
) -> Result<Done, Never> {
    tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
    Ok(Done { done: true })
}

fn call(id: &str, name: &str, ms: u64) -> ToolCall {
    ToolCall::new(id, name, json!({ "ms": ms }).to_string())
}

#[test]
fn a_slow_sync_tool_does_not_hold_the_executor() {
    let reg = Registry::builder()
        .tool(blocking_read::contract())
        .tool(quick_read::contract())
        .build()
        .unwrap();
    let d = Dispatcher::new(reg);
    let caller = Arc::new(Caller::new());
    // One thread runs every call: a handler that blocked it inline would
    // finish before the quick call's 10 ms timer could even be polled.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let finished = Mutex::new(Vec::new());
    let (slow, quick) = rt.block_on(async {
        let run = |c: ToolCall| {
            let (d, caller, finished) = (&d, &caller, &finished);
            async move {
                let env = d.dispatch(caller, &c).await;
                finished.lock().unwrap().push(env.call_id.clone());
                env
            }
        };
        // The slow call is polled first.
        tokio::join!(
            run(call("slow", "blocking_read", 300)),
            run(call("quick", "quick_read", 10))
        )
    });
    assert_eq!((slow.status, quick.status), (Status::Ok, Status::Ok));
    assert_eq!(slow.result, json!({"done": true}));
    assert_eq!(
        *finished.lock().unwrap(),
        ["quick", "slow"],
        "the quick call finished after the blocking one: the sync handler ran on the executor thread"
    );
}
