//! Tasks over MCP: a call of a tool declared `task = optional | required`
//! is answered with a task when the client declared the Tasks extension
//! (`io.modelcontextprotocol/tasks`), and the client follows it with the
//! extension's methods. The tasks are [`crate::task::Tasks`], kept in the
//! dispatcher's store, so another process serving the same store, or this
//! one restarted, answers for them.
//!
//! Served as rmcp routes them (the extension, SEP-2663): a `CreateTaskResult`
//! for `tools/call`, `tasks/get` (with the call's result inline once it
//! ended), `tasks/cancel`; `tasks/update` is refused, since a contract
//! tool's task never asks the client for input. Served beside them, as the
//! 2025-11-25 revision named them (rmcp passes them on as custom requests):
//! `tasks/list` and `tasks/result`. See `docs/mcp.md`, "Tasks".

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, CreateTaskResult, CustomRequest,
    CustomResult, DetailedTask, GetTaskResult, JsonObject, Task, TaskPayload, TaskStatus,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{json, Value};

use crate::codes;
use crate::contract::TaskSupport;
use crate::envelope::{Envelope, ErrorEntry, Status};
use crate::store::{TaskRecord, TaskState};
use crate::task::{StartError, Tasks};
use crate::Caller;

use super::call_tool_result;

/// How often a client should poll a task, in milliseconds.
const POLL_MS: u64 = 500;

/// Starts `request` as a task when its tool runs as one and the client can
/// follow it; `None` when the call runs within its request.
pub(super) async fn start(
    tasks: &Tasks,
    caller: &Arc<Caller>,
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<Result<CallToolResponse, ErrorData>> {
    let support = tasks.support(&request.name);
    if support == TaskSupport::Forbidden {
        return None;
    }
    let follows = context
        .client_capabilities()
        .is_some_and(|c| c.supports_tasks());
    if !follows {
        // A required task cannot be answered within the request: the
        // extension's error names the capability the client lacks.
        return (support == TaskSupport::Required).then(|| {
            Err(ErrorData::missing_required_client_capability(
                ClientCapabilities::builder().enable_tasks().build(),
            ))
        });
    }
    let arguments = super::raw::arguments_text(request.arguments.as_ref());
    Some(
        match tasks.start(caller.clone(), &request.name, arguments).await {
            Ok(task) => Ok(CallToolResponse::Task(CreateTaskResult::new(wire(&task)))),
            Err(StartError::Store(e)) => {
                tracing::warn!(tool = %request.name, error = %e, "store unavailable");
                let mut e = ErrorEntry::new(
                    codes::STORE_UNAVAILABLE,
                    format!(
                        "`{}` did not run: the store that keeps its tasks cannot be reached",
                        request.name
                    ),
                )
                .with_hint("send the same call again later");
                e.retry_after_ms = Some(1000);
                e.retry_safe = Some(true);
                let env = Envelope::failure("", &request.name, Status::Failed, true, vec![e]);
                Ok(call_tool_result(&env).into())
            }
            // Not a task after all (no task store): within the request.
            Err(_) => return None,
        },
    )
}

/// `tasks/get`: the task, with the call's result once it ended.
pub(super) async fn get(
    tasks: &Tasks,
    caller: &Caller,
    id: &str,
) -> Result<GetTaskResult, ErrorData> {
    let task = found(tasks.get(caller, id).await, id)?;
    let payload = match (&task.state, tasks.outcome(&task)) {
        (TaskState::Cancelled, _) => TaskPayload::Cancelled,
        (_, Some(env)) => TaskPayload::Completed {
            result: result_object(&env),
        },
        _ => TaskPayload::Working,
    };
    Ok(GetTaskResult::new(DetailedTask::new(wire(&task), payload)))
}

/// `tasks/cancel`.
pub(super) async fn cancel(tasks: &Tasks, caller: &Caller, id: &str) -> Result<(), ErrorData> {
    found(tasks.cancel(caller, id).await, id).map(drop)
}

/// `tasks/list` and `tasks/result` of the 2025-11-25 revision; `None` for
/// any other custom method.
pub(super) async fn custom(
    tasks: &Tasks,
    caller: &Caller,
    request: &CustomRequest,
) -> Option<Result<CustomResult, ErrorData>> {
    match request.method.as_str() {
        "tasks/list" => Some(list(tasks, caller).await),
        "tasks/result" => {
            let id = request
                .params
                .as_ref()
                .and_then(|p| p.get("taskId"))
                .and_then(Value::as_str);
            Some(match id {
                Some(id) => result(tasks, caller, id).await,
                None => Err(ErrorData::invalid_params("`taskId` is required", None)),
            })
        }
        _ => None,
    }
}

async fn list(tasks: &Tasks, caller: &Caller) -> Result<CustomResult, ErrorData> {
    let listed = tasks.list(caller).await.map_err(unavailable)?;
    let listed: Vec<Value> = listed.iter().map(revision_2025).collect();
    Ok(CustomResult::new(json!({ "tasks": listed })))
}

/// `tasks/result`: waits until the task ended, then its call's result.
async fn result(tasks: &Tasks, caller: &Caller, id: &str) -> Result<CustomResult, ErrorData> {
    loop {
        let task = found(tasks.get(caller, id).await, id)?;
        if task.state == TaskState::Cancelled {
            return Err(ErrorData::invalid_params(
                format!("task {id} was cancelled: it has no result"),
                None,
            ));
        }
        if let Some(env) = tasks.outcome(&task) {
            return Ok(CustomResult::new(Value::Object(result_object(&env))));
        }
        tokio::time::sleep(Duration::from_millis(POLL_MS / 2)).await;
    }
}

/// A task as the 2025-11-25 revision's `Task` (`ttl`, `pollInterval`).
fn revision_2025(task: &TaskRecord) -> Value {
    let t = wire(task);
    let mut v = json!({
        "taskId": t.task_id,
        "status": status_word(t.status),
        "createdAt": t.created_at,
        "lastUpdatedAt": t.last_updated_at,
        "ttl": t.ttl_ms,
        "pollInterval": t.poll_interval_ms,
    });
    if let Some(m) = t.status_message {
        v["statusMessage"] = Value::String(m);
    }
    v
}

fn status_word(s: TaskStatus) -> String {
    serde_json::to_value(s)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The task as the extension's `Task`. A task in doubt is `completed`: its
/// result is the `unknown` envelope, which alone says how the call ended.
fn wire(task: &TaskRecord) -> Task {
    let (status, message) = match &task.state {
        TaskState::Working => (TaskStatus::Working, None),
        TaskState::Cancelled => (TaskStatus::Cancelled, Some("cancelled by its caller")),
        TaskState::Unknown(_) => (
            TaskStatus::Completed,
            Some("the outcome is unknown: the worker stopped before recording it"),
        ),
        _ => (TaskStatus::Completed, None),
    };
    let mut t = Task::new(
        task.id.clone(),
        status,
        iso8601(task.created_ms),
        iso8601(task.updated_ms),
    )
    .with_poll_interval_ms(POLL_MS);
    if let Ok(ttl) = u64::try_from(task.expires_ms - task.created_ms) {
        t = t.with_ttl_ms(ttl);
    }
    if let Some(m) = message {
        t = t.with_status_message(m);
    }
    t
}

fn result_object(env: &Envelope) -> JsonObject {
    match serde_json::to_value(call_tool_result(env)) {
        Ok(Value::Object(m)) => m,
        _ => JsonObject::new(),
    }
}

/// A task of the caller's, or the extension's error for an id that is not
/// one (unknown, expired, or another caller's: the same answer).
fn found(
    got: Result<Option<TaskRecord>, crate::store::StoreError>,
    id: &str,
) -> Result<TaskRecord, ErrorData> {
    got.map_err(unavailable)?
        .ok_or_else(|| ErrorData::invalid_params(format!("no task {id}"), None))
}

fn unavailable(e: crate::store::StoreError) -> ErrorData {
    tracing::warn!(error = %e, "store unavailable");
    ErrorData::internal_error("the store that keeps tasks cannot be reached", None)
}

/// Milliseconds since the Unix epoch as ISO 8601 in UTC
/// (`2026-12-06T10:30:00.000Z`).
fn iso8601(ms: i64) -> String {
    let (days, ms_of_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let s = ms_of_day / 1000;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        s / 3600,
        s / 60 % 60,
        s % 60,
        ms_of_day % 1000
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn iso8601_of_known_instants() {
        assert_eq!(super::iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(super::iso8601(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(
            super::iso8601(1_796_553_045_000),
            "2026-12-06T10:30:45.000Z"
        );
    }
}
