//! What the contract costs on the way in.
//!
//! For `search_notes` and for a `replace_text` call with 2 KB texts, three ways
//! from raw argument text to a typed value, measured in the same run:
//!
//! - `floor`: `serde_json::from_str` into a plain struct, no checks at all;
//! - `contract`: `decode_args` (strict parse, unknown and duplicate keys refused,
//!   every declared constraint checked);
//! - `hand-rolled`: parse to `serde_json::Value`, validate with a pre-compiled
//!   `jsonschema` validator of the same canonical schema, then `from_value`.
//!
//! And full dispatch for a trivial read-only tool: OpenAI Responses call item
//! bytes → `parse_calls_slice` → `Dispatcher::dispatch` → `Envelope::to_json_string`.
//!
//! Run: `cargo bench --bench decode -- --warm-up-time 1 --measurement-time 3`
//! (see docs/performance.md). For instruction counts, see `loop_mode` below.

use toolbox as tools;

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use contract_runtime::decode::{decode_args, Limits};
use contract_runtime::prelude::*;
use contract_runtime::provider::{parse_calls_slice, Provider};
use criterion::{criterion_group, Criterion, Throughput};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use std::convert::Infallible;

// ------------------------------------------------------------------ the floor's types

#[allow(dead_code)]
#[derive(serde::Deserialize)]
struct PlainSearch {
    query: String,
}

#[allow(dead_code)]
#[derive(serde::Deserialize)]
struct PlainReplace {
    path: String,
    old_text: String,
    new_text: String,
    expected_version: String,
}

// ------------------------------------------------------------------ inputs

fn input_schema(tool: &str) -> Value {
    tools::registry()
        .canonical()
        .into_iter()
        .find(|d| d["name"] == tool)
        .map(|d| d["input_schema"].clone())
        .unwrap_or_else(|| panic!("the toolbox has `{tool}`"))
}

/// About `n` bytes of source-like text: lines of code with quotes, tabs and newlines to escape.
fn code_text(n: usize, salt: &str) -> String {
    let mut s = String::with_capacity(n + 80);
    let mut i = 0;
    while s.len() < n {
        s.push_str(&format!(
            "\tlet v{i} = map.get(\"key_{salt}_{i}\").unwrap_or(&0); // sum {i}\n"
        ));
        i += 1;
    }
    s.truncate(n);
    s
}

fn replace_args() -> String {
    json!({
        "path": "src/storage/kv.rs",
        "old_text": code_text(2048, "old"),
        "new_text": code_text(2048, "new"),
        "expected_version": format!("sha256:{}", "0123456789abcdef".repeat(4)),
    })
    .to_string()
}

// ------------------------------------------------------------------ the three paths

fn floor<P: DeserializeOwned>(raw: &str) -> P {
    match serde_json::from_str::<P>(black_box(raw)) {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    }
}

fn contract<T: ToolArgs>(raw: &str, limits: &Limits) -> T {
    match decode_args::<T>(black_box(raw), limits) {
        Ok(v) => v,
        Err(e) => panic!("{e:?}"),
    }
}

fn hand_rolled<P: DeserializeOwned>(raw: &str, validator: &jsonschema::Validator) -> P {
    let v: Value = match serde_json::from_str(black_box(raw)) {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    };
    if !validator.is_valid(&v) {
        panic!("invalid");
    }
    match serde_json::from_value::<P>(v) {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    }
}

fn validator_for(tool: &str) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(&input_schema(tool))
        .unwrap_or_else(|e| panic!("the schema compiles: {e}"))
}

const SEARCH_ARGS: &str = r#"{"query":"consistent hashing"}"#;

fn compare<T: ToolArgs, P: DeserializeOwned>(
    c: &mut Criterion,
    group: &str,
    raw: &str,
    tool: &str,
) {
    let limits = Limits::default();
    let validator = validator_for(tool);
    // All three must accept the input, or the comparison means nothing.
    assert!(serde_json::from_str::<P>(raw).is_ok());
    assert!(
        decode_args::<T>(raw, &limits).is_ok(),
        "decode_args accepts {raw}"
    );
    assert!(validator.is_valid(&serde_json::from_str::<Value>(raw).unwrap_or(Value::Null)));

    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(raw.len() as u64));
    g.bench_function("floor", |b| b.iter(|| floor::<P>(raw)));
    g.bench_function("contract", |b| b.iter(|| contract::<T>(raw, &limits)));
    g.bench_function("hand-rolled", |b| {
        b.iter(|| hand_rolled::<P>(raw, &validator))
    });
    g.finish();
}

fn decode(c: &mut Criterion) {
    compare::<tools::SearchNotesArgs, PlainSearch>(
        c,
        "decode/search_notes",
        SEARCH_ARGS,
        "search_notes",
    );
    compare::<tools::ReplaceTextArgs, PlainReplace>(
        c,
        "decode/replace_text_2k",
        &replace_args(),
        "replace_text",
    );
}

// ------------------------------------------------------------------ full dispatch

/// The text, sent back.
#[derive(Serialize, JsonSchema)]
pub struct Echoed {
    /// The text as received.
    pub text: String,
}

/// Send the text back unchanged.
#[tool_contract(effect = read_only, authority = "bench:read")]
pub async fn echo(
    /// The text to send back.
    #[arg(length(min = 1, max = 100))]
    text: String,
) -> Result<Echoed, Infallible> {
    Ok(Echoed { text })
}

/// Send the text back unchanged, from a sync handler.
#[tool_contract(effect = read_only, authority = "bench:read")]
pub fn echo_sync(
    /// The text to send back.
    #[arg(length(min = 1, max = 100))]
    text: String,
) -> Result<Echoed, Infallible> {
    Ok(Echoed { text })
}

const ITEM: &[u8] = br#"{"type":"function_call","id":"fc_67ab","call_id":"call_7Hq2","name":"echo","arguments":"{\"text\":\"hello, world\"}","status":"completed"}"#;

struct Dispatch {
    rt: tokio::runtime::Runtime,
    dispatcher: Dispatcher,
    caller: Arc<Caller>,
}

impl Dispatch {
    fn new() -> Dispatch {
        let rt = match tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
        {
            Ok(rt) => rt,
            Err(e) => panic!("a runtime: {e}"),
        };
        let registry = match Registry::builder()
            .tool(echo::contract())
            .tool(echo_sync::contract())
            .build()
        {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        };
        let d = Dispatch {
            rt,
            dispatcher: Dispatcher::new(registry),
            caller: Arc::new(Caller::new().grant("bench:read")),
        };
        for b in [body(), body_sync()] {
            let out = d.run(&b);
            assert!(out.contains(r#""status":"ok""#), "{out}");
        }
        d
    }

    /// Call item bytes (a Responses `output` array of one item) to envelope bytes.
    fn run(&self, body: &[u8]) -> String {
        let calls = match parse_calls_slice(Provider::OpenAiResponses, black_box(body)) {
            Ok(c) => c,
            Err(e) => panic!("{e:?}"),
        };
        let env = self
            .rt
            .block_on(self.dispatcher.dispatch(&self.caller, &calls[0]));
        env.to_json_string()
    }
}

/// The floor of dispatch: what any server must do to answer this call,
/// without a contract: the item into a typed struct, its argument text into
/// typed arguments, the function called, a plain result serialized with the
/// call id. No checks, no lookup, no runtime.
mod floor {
    use serde::{Deserialize, Serialize};

    #[derive(Deserialize)]
    pub struct Item<'a> {
        #[serde(borrow)]
        pub call_id: &'a str,
        pub name: &'a str,
        pub arguments: String,
    }

    #[derive(Deserialize)]
    pub struct EchoArgs {
        pub text: String,
    }

    #[derive(Serialize)]
    pub struct Output<'a, T> {
        pub call_id: &'a str,
        pub tool: &'a str,
        pub result: T,
    }

    pub fn run(body: &[u8]) -> String {
        let items: Vec<Item> = match serde_json::from_slice(body) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        };
        let item = &items[0];
        let args: EchoArgs = match serde_json::from_str(&item.arguments) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        };
        let out = Output {
            call_id: item.call_id,
            tool: item.name,
            result: super::Echoed { text: args.text },
        };
        match serde_json::to_string(&out) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        }
    }
}

/// The item as the provider sends it, inside its `output` array.
fn body() -> Vec<u8> {
    [&b"["[..], ITEM, &b"]"[..]].concat()
}

/// The same call to the sync handler, which runs on the blocking pool so that
/// it cannot hold the executor: the difference to `body()` is that hop.
fn body_sync() -> Vec<u8> {
    String::from_utf8_lossy(&body())
        .replace(r#""name":"echo""#, r#""name":"echo_sync""#)
        .into_bytes()
}

fn dispatch(c: &mut Criterion) {
    let d = Dispatch::new();
    let mut g = c.benchmark_group("dispatch");
    g.throughput(Throughput::Bytes(ITEM.len() as u64));
    let body = body();
    g.bench_function("echo: item bytes to envelope bytes", |b| {
        b.iter(|| d.run(&body))
    });
    let body_sync = body_sync();
    g.bench_function("echo_sync: item bytes to envelope bytes", |b| {
        b.iter(|| d.run(&body_sync))
    });
    assert!(floor::run(&body).contains("hello, world"));
    g.bench_function("floor: item bytes to result bytes", |b| {
        b.iter(|| floor::run(black_box(&body)))
    });
    g.finish();
}

fn config() -> Criterion {
    // Short by default (2-core machine); command-line flags still override.
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = decode, dispatch
}

// ------------------------------------------------------------------ loop mode

/// `DECODE_BENCH_LOOP=<routine>:<n>` runs one routine `n` times and exits, for
/// counting instructions (`perf stat -e instructions:u`, callgrind), which a
/// busy machine does not disturb the way it disturbs wall-clock time. Routines:
/// `search/{floor,contract,hand-rolled}`, `replace/{floor,contract,hand-rolled}`,
/// `dispatch` (an async handler), `dispatch/sync`, `dispatch/floor`.
fn loop_mode(spec: &str) {
    let (name, n) = spec.rsplit_once(':').unwrap_or((spec, "100000"));
    let n: usize = n
        .parse()
        .unwrap_or_else(|_| panic!("DECODE_BENCH_LOOP=<routine>:<count>, got {spec}"));
    let limits = Limits::default();
    let replace = replace_args();
    let repeat = |f: &dyn Fn()| (0..n).for_each(|_| f());
    match name {
        "search/floor" => repeat(&|| drop(black_box(floor::<PlainSearch>(SEARCH_ARGS)))),
        "search/contract" => repeat(&|| {
            drop(black_box(contract::<tools::SearchNotesArgs>(
                SEARCH_ARGS,
                &limits,
            )))
        }),
        "search/hand-rolled" => {
            let v = validator_for("search_notes");
            repeat(&|| drop(black_box(hand_rolled::<PlainSearch>(SEARCH_ARGS, &v))))
        }
        "replace/floor" => repeat(&|| drop(black_box(floor::<PlainReplace>(&replace)))),
        "replace/contract" => repeat(&|| {
            drop(black_box(contract::<tools::ReplaceTextArgs>(
                &replace, &limits,
            )))
        }),
        "replace/hand-rolled" => {
            let v = validator_for("replace_text");
            repeat(&|| drop(black_box(hand_rolled::<PlainReplace>(&replace, &v))))
        }
        "dispatch" => {
            let d = Dispatch::new();
            let body = body();
            repeat(&|| drop(black_box(d.run(&body))))
        }
        "dispatch/sync" => {
            let d = Dispatch::new();
            let body = body_sync();
            repeat(&|| drop(black_box(d.run(&body))))
        }
        "dispatch/floor" => {
            let body = body();
            repeat(&|| drop(black_box(floor::run(black_box(&body)))))
        }
        other => panic!("unknown routine {other}"),
    }
}

fn main() {
    if let Ok(spec) = std::env::var("DECODE_BENCH_LOOP") {
        loop_mode(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
