//! Test-only tool sets for the provider SDK oracles (`tests/oracle/run.sh`):
//! argument shapes the toolbox demo has no natural use for (enums with
//! data), exported to one dialect as `toolbox schemas` exports the toolbox.
//!
//!   cargo run --example oracle_tools -- --dialect openai-responses

use contract_runtime::dialect::{self, Dialect, ExportOptions};

#[path = "../tests/common/reminders.rs"]
#[allow(dead_code)] // its registry() is built here with examples added
mod reminders;

/// The reminder tool, with examples of its arguments, so the oracle checks
/// Anthropic's `input_examples` by the SDK's type and against the schema.
fn registry() -> contract_runtime::Registry {
    let tool = reminders::schedule_reminder::contract()
        .example(serde_json::json!({
            "text": "Stand-up", "channel": {"kind": "chat_room", "room": "#team"},
            "repeat": {"every": "weekdays", "with": {"days": [1, 2, 3, 4, 5]}}, "at": "09:30:00"
        }))
        .example(serde_json::json!({"text": "Call back", "channel": {"kind": "silent"}}));
    contract_runtime::Registry::builder()
        .tool(tool)
        .build()
        .unwrap_or_else(|e| panic!("the oracle's reminder registry is valid: {e}"))
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dialect = match args.as_slice() {
        [flag, d] if flag == "--dialect" => d.parse::<Dialect>(),
        [] => Ok(Dialect::Canonical),
        _ => Err("usage: oracle_tools [--dialect ID]".to_owned()),
    };
    let out = dialect.and_then(|d| {
        dialect::export(registry().canonical(), d, &ExportOptions::default())
            .map_err(|e| e.to_string())
    });
    match out {
        Ok(export) => {
            if !export.losses.is_empty() {
                eprint!("{}", dialect::losses_by_tool(&export.losses));
            }
            match serde_json::to_string_pretty(&export.tools) {
                Ok(text) => {
                    println!("{text}");
                    std::process::ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("oracle_tools: {e}");
                    std::process::ExitCode::FAILURE
                }
            }
        }
        Err(e) => {
            eprintln!("oracle_tools: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
