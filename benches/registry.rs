//! Registries of 10,000 tools: what building the registry, its canonical
//! definitions and each dialect's export cost, in time and memory.
//!
//! ```text
//! cargo bench --bench registry            # 10,000 tools
//! REGISTRY_TOOLS=1000,3000,10000 cargo bench --bench registry
//! benches/registry_callgrind.sh           # instructions, export against floor
//! ```
//!
//! `REGISTRY_DIALECTS=openai-chat,mcp` exports to those dialects only,
//! `REGISTRY_ROUNDS=N` sets the timed rounds (default 3), and
//! `REGISTRY_EXTRA=0` leaves out the rows that call `dialect::export` again
//! (the canonical export of definitions given, not borrowed; MCP's export as
//! whole values and the MCP SDK's tools made from it, as a server does), so
//! that benches/registry_callgrind.sh counts the export of each dialect once.
//!
//! A tool is a type, so 10,000 distinct tools would be 10,000 contracts to
//! compile. The toolbox's tools stand in for them:
//!
//! - registry build: 10,000 tools added and checked, as 1,250 builds of the
//!   toolbox's eight (the build's work is per tool: name check, input schema,
//!   patterns compiled, one map insert);
//! - canonical definitions: the registry's `canonical()`, repeated to 10,000
//!   definitions, each renamed `<tool>_<i>` so that every name is distinct;
//! - export: `dialect::export` of those 10,000 definitions to every dialect.
//!
//! Memory: bytes allocated and still held by each result (a counting global
//! allocator), and the peak during each step above what was held before it,
//! from one extra round: the timed rounds do not count, because the count's
//! atomics were a tenth of the time of these allocation-bound steps.
//!
//! Floor: a definition list cannot be produced faster than an owned copy of
//! it can be made, so each export is also reported against the time to clone
//! its own result (`floor`), measured in the same run; the build is reported
//! with the part spent generating input schemas (`Tool::input_schema`).

#[path = "../examples/toolbox/tools.rs"]
#[allow(dead_code)]
mod tools;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use contract_runtime::dialect::{self, Dialect, ExportOptions};
use contract_runtime::Registry;
use serde_json::Value;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Whether allocations are counted (only in the memory round).
static COUNTING: AtomicBool = AtomicBool::new(false);

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged and only adds bookkeeping on the side, so `System`'s guarantees
// are `Counting`'s.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() && COUNTING.load(Relaxed) {
            let now = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        if COUNTING.load(Relaxed) {
            LIVE.fetch_sub(layout.size(), Relaxed);
        }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() && COUNTING.load(Relaxed) {
            let now = if new_size >= layout.size() {
                LIVE.fetch_add(new_size - layout.size(), Relaxed) + new_size - layout.size()
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Relaxed) - (layout.size() - new_size)
            };
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs `f`, returning its value, the best wall time of `rounds` uncounted
/// runs in ms, and from one more, counted run the bytes its value holds and
/// the peak above the bytes held before.
///
/// Counting is off outside the counted run, so a value made in a timed run
/// and freed in the counted one would unbalance the count: each value is
/// dropped in the mode it was made in.
fn measure<T>(rounds: usize, mut f: impl FnMut() -> T) -> (T, f64, usize, usize) {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        drop(v);
    }
    COUNTING.store(true, Relaxed);
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let v = f();
    let held = LIVE.load(Relaxed).saturating_sub(before);
    let peak = PEAK.load(Relaxed).saturating_sub(before);
    COUNTING.store(false, Relaxed);
    (v, best, held, peak)
}

/// [`measure`] for a step that takes its input: `input` makes a fresh one
/// for each run, outside the time.
fn measure_given<I, T>(
    rounds: usize,
    mut input: impl FnMut() -> I,
    mut f: impl FnMut(I) -> T,
) -> (T, f64, usize, usize) {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let i = input();
        let t = Instant::now();
        let v = f(i);
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        drop(v);
    }
    // Counted from before the input is made: what the value holds is then
    // what it kept of the input and what it made (the peak includes the
    // input).
    COUNTING.store(true, Relaxed);
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let i = input();
    let v = f(i);
    let held = LIVE.load(Relaxed).saturating_sub(before);
    let peak = PEAK.load(Relaxed).saturating_sub(before);
    COUNTING.store(false, Relaxed);
    (v, best, held, peak)
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn main() {
    let counts: Vec<usize> = std::env::var("REGISTRY_TOOLS")
        .ok()
        .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![10_000]);
    let rounds: usize = std::env::var("REGISTRY_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let only: Option<Vec<String>> = std::env::var("REGISTRY_DIALECTS")
        .ok()
        .map(|v| v.split(',').map(|d| d.trim().to_owned()).collect());
    let eight = tools::registry().names().count();
    let mut report = Vec::new();
    for n in counts {
        println!("== {n} tools (best of {rounds})");
        let (regs, ms, held, peak) = measure(rounds, || {
            (0..n.div_ceil(eight))
                .map(|_| tools::registry())
                .collect::<Vec<Registry>>()
        });
        println!(
            "{:<20} {ms:8.1} ms {:6.2} us/tool  held {:7.2} MiB  peak {:7.2} MiB",
            "registry build",
            ms * 1e3 / n as f64,
            mib(held),
            mib(peak)
        );
        drop(regs);
        let mut row = serde_json::json!({"tools": n, "registry_ms": ms, "registry_mib": mib(held)});

        // The part of the build spent generating input schemas.
        let all: Vec<contract_runtime::Tool> = regs_tools(n);
        let (_, ms, _, _) = measure(rounds, || {
            all.iter().map(|t| t.input_schema()).collect::<Vec<Value>>()
        });
        println!(
            "{:<20} {ms:8.1} ms {:6.2} us/tool  (part of the build)",
            "  input schemas",
            ms * 1e3 / n as f64,
        );
        row["input_schemas_ms"] = ms.into();

        // A build checks every pattern by compiling it, once per process per
        // pattern text: what 10,000 tools whose patterns were never seen
        // before would add (the toolbox's seven, compiled again and again).
        let patterns: Vec<String> = all
            .iter()
            .flat_map(|t| patterns_of(&t.input_schema()))
            .collect();
        let (_, ms, _, _) = measure(1, || {
            patterns
                .iter()
                .map(|p| regex::Regex::new(p).is_ok())
                .filter(|ok| *ok)
                .count()
        });
        println!(
            "{:<20} {ms:8.1} ms {:6.2} us/tool  ({} patterns never seen before; not part of the build above)",
            "  pattern compile",
            ms * 1e3 / n as f64,
            patterns.len()
        );
        row["pattern_compile_ms"] = ms.into();

        let registry = tools::registry();
        let (canonical, ms, held, peak) = measure(rounds, || {
            let mut all: Vec<Value> = Vec::with_capacity(n);
            while all.len() < n {
                for mut def in registry.canonical() {
                    if all.len() == n {
                        break;
                    }
                    let name = format!("{}_{}", def["name"].as_str().unwrap_or("t"), all.len());
                    def["name"] = Value::String(name);
                    all.push(def);
                }
            }
            all
        });
        println!(
            "{:<20} {ms:8.1} ms {:6.2} us/tool  held {:7.2} MiB  peak {:7.2} MiB",
            "canonical",
            ms * 1e3 / n as f64,
            mib(held),
            mib(peak)
        );
        row["canonical_ms"] = ms.into();
        row["canonical_mib"] = mib(held).into();
        // A copy of the definitions as they are laid out in memory: what the
        // canonical export does, where its floor copies the export's result.
        let (_, ms, _, _) = measure(rounds, || floor_values(&canonical));
        println!(
            "{:<20} {ms:8.1} ms {:6.2} us/tool",
            "  copy of those",
            ms * 1e3 / n as f64,
        );
        row["canonical_copy_ms"] = ms.into();

        let opts = ExportOptions::default();
        let extra = std::env::var("REGISTRY_EXTRA").as_deref() != Ok("0");
        let mut exports = serde_json::Map::new();
        for &d in Dialect::ALL
            .iter()
            .filter(|d| only.as_ref().is_none_or(|o| o.iter().any(|x| x == d.id())))
        {
            let (export, ms, held, peak) =
                measure(rounds, || dialect::export(&canonical, d, &opts));
            let export = match export {
                Ok(export) => export,
                // A set over the provider's per-request limits (OpenAI strict:
                // 5,000 properties; Anthropic strict: 20 tools) is refused, as
                // the provider would refuse it: what such a set exports to is
                // the deferred export below.
                Err(e) if e.limit.is_some() => {
                    println!("{:<20} refused: {e}", format!("export {}", d.id()));
                    deferred_row(&canonical, d, rounds, &mut exports);
                    continue;
                }
                Err(e) => panic!("{}: {e}", d.id()),
            };
            assert_eq!(export.tools.len(), n);
            // The floor: an owned copy of the same definitions and losses.
            let (_, floor, _, _) = measure(rounds, || floor_copy(&export));
            println!(
                "{:<20} {ms:8.1} ms {:6.2} us/tool  held {:7.2} MiB  peak {:7.2} MiB  floor {floor:6.1} ms ({:.2}x)",
                format!("export {}", d.id()),
                ms * 1e3 / n as f64,
                mib(held),
                mib(peak),
                ms / floor
            );
            let mut entry = serde_json::json!({"ms": ms, "mib": mib(held), "floor_ms": floor});
            if d == Dialect::Canonical && extra {
                // The definitions given, not borrowed: kept, not copied.
                let (_, ms, held, _) = measure_given(
                    rounds,
                    || canonical.clone(),
                    |defs| dialect::export(defs, d, &opts),
                );
                println!(
                    "{:<20} {ms:8.1} ms {:6.2} us/tool  held {:7.2} MiB (the definitions given, kept)",
                    "  given, not borrowed",
                    ms * 1e3 / n as f64,
                    mib(held),
                );
                entry["given_ms"] = ms.into();
                entry["given_mib"] = mib(held).into();
            }
            if d == Dialect::Mcp && extra {
                mcp_rows(&export, &canonical, rounds, &mut entry);
            }
            exports.insert(d.id().to_owned(), entry);
        }
        row["export"] = Value::Object(exports);
        report.push(row);
    }
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/registry-bench.json");
    if std::fs::write(&out, Value::Array(report).to_string()).is_ok() {
        println!("wrote {}", out.display());
    }
}

/// The export of the same definitions with every tool but the first eight
/// (one toolbox's worth) deferred, where the dialect has tool search: what
/// a registry of thousands sends a provider. Reported against its floor (an
/// owned copy of its result) and against the same export without deferral
/// of the loaded tools, in the same run.
fn deferred_row(
    canonical: &[Value],
    d: Dialect,
    rounds: usize,
    exports: &mut serde_json::Map<String, Value>,
) {
    let core: Vec<String> = canonical
        .iter()
        .take(8)
        .filter_map(|t| t["name"].as_str().map(str::to_owned))
        .collect();
    let opts = ExportOptions {
        defer: dialect::Defer::AllBut(core),
        ..ExportOptions::default()
    };
    let n = canonical.len();
    let (export, ms, held, peak) = measure(rounds, || dialect::export(canonical, d, &opts));
    let export = match export {
        Ok(export) => export,
        Err(e) => {
            println!("{:<20} no deferred form: {e}", "  deferred");
            return;
        }
    };
    let (_, floor, _, _) = measure(rounds, || floor_copy(&export));
    println!(
        "{:<20} {ms:8.1} ms {:6.2} us/tool  held {:7.2} MiB  peak {:7.2} MiB  floor {floor:6.1} ms ({:.2}x)  {} entries",
        "  deferred (all but 8)",
        ms * 1e3 / n as f64,
        mib(held),
        mib(peak),
        ms / floor,
        export.tools.len()
    );
    exports.insert(
        format!("{}-deferred", d.id()),
        serde_json::json!({"ms": ms, "mib": mib(held), "floor_ms": floor, "entries": export.tools.len()}),
    );
}

/// `n` tools, the toolbox's eight over and over.
fn regs_tools(n: usize) -> Vec<contract_runtime::Tool> {
    let registry = tools::registry();
    let eight: Vec<contract_runtime::Tool> = registry.tools().cloned().collect();
    eight.iter().cycle().take(n).cloned().collect()
}

/// Every `pattern` in a schema.
fn patterns_of(v: &Value) -> Vec<String> {
    match v {
        Value::Object(m) => m
            .iter()
            .flat_map(|(k, v)| match (k.as_str(), v) {
                ("pattern", Value::String(p)) => vec![p.clone()],
                _ => patterns_of(v),
            })
            .collect(),
        Value::Array(a) => a.iter().flat_map(patterns_of).collect(),
        _ => Vec::new(),
    }
}

/// MCP's extra rows: the old floor (each tool a whole `Value`, as the export
/// held them before its tools shared the envelope's schema) and the serving
/// path, the MCP SDK's tools made from the export (`McpServer::new`'s work
/// after the export), with the stand-ins' outputs and with every output
/// made distinct (no two tools share an `outputSchema` then).
fn mcp_rows(export: &dialect::Export, canonical: &[Value], rounds: usize, entry: &mut Value) {
    let (values, ms, held, _) = measure(rounds, || {
        export
            .tools
            .iter()
            .map(|t| t.to_value())
            .collect::<Vec<Value>>()
    });
    let (_, copy, _, _) = measure(rounds, || floor_values(&values));
    println!(
        "{:<20} {ms:8.1} ms  held {:7.2} MiB  (each tool a whole Value); copy of those {copy:6.1} ms",
        "  mcp as values",
        mib(held)
    );
    // Writing `tools/list`'s tools as JSON text: streamed from the parts,
    // and from whole values (the text is the same).
    let (text, streamed, _, _) = measure(rounds, || serde_json::to_vec(&export.tools));
    let (_, whole, _, _) = measure(rounds, || serde_json::to_vec(&values));
    println!(
        "{:<20} {streamed:8.1} ms  ({:.1} MB of JSON; from whole values {whole:6.1} ms)",
        "  written as JSON",
        text.map_or(0, |t| t.len()) as f64 / 1e6,
    );
    entry["json_ms"] = streamed.into();
    entry["json_values_ms"] = whole.into();
    drop(values);
    entry["values_ms"] = ms.into();
    entry["values_mib"] = mib(held).into();
    entry["values_floor_ms"] = copy.into();

    // What `mcp::list` (and so `McpServer::new`) does after `Registry::canonical`:
    // the export, then the MCP SDK's tools; with the stand-ins' outputs (8
    // different ones), with every output made distinct (a title of its
    // own), and the old way (each tool made a whole `Value`, then read by
    // the SDK whole, as `list` did before the export held tools in parts).
    let renamed: Vec<Value> = canonical
        .iter()
        .enumerate()
        .map(|(i, def)| {
            let mut def = def.clone();
            if let Some(out) = def["output_schema"].as_object_mut() {
                out.insert("title".to_owned(), format!("Output {i}").into());
            }
            def
        })
        .collect();
    let opts = ExportOptions::default();
    // `given`: the definitions given to the export (as `mcp::list` gives
    // `Registry::canonical`'s fresh copy); otherwise borrowed and copied.
    // `whole`: each tool made a whole `Value` and read whole by the SDK.
    for (label, key, defs, given, whole) in [
        ("mcp::list", "list", canonical, true, false),
        (
            "  distinct outputs",
            "list_distinct",
            &renamed[..],
            true,
            false,
        ),
        ("  borrowed", "list_borrowed", canonical, false, false),
        ("  old way", "list_values", canonical, false, true),
    ] {
        // The definitions are made outside the time and dropped inside it,
        // as in `mcp::list`.
        let (tools, ms, held, peak) = measure_given(
            rounds,
            || defs.to_vec(),
            |defs| {
                let export = if given {
                    dialect::export(defs, Dialect::Mcp, &opts)
                } else {
                    dialect::export(&defs, Dialect::Mcp, &opts)
                };
                let mut export = export.expect("export");
                if whole {
                    export.tools = export
                        .tools
                        .into_iter()
                        .map(|t| dialect::ExportedTool::from(t.into_value()))
                        .collect();
                }
                contract_runtime::mcp::rmcp_tools(export).expect("rmcp tools")
            },
        );
        let outputs = distinct(tools.iter().map(|t| {
            t.output_schema
                .as_ref()
                .map(|s| std::sync::Arc::as_ptr(s).cast())
        }));
        println!(
            "{label:<20} {ms:8.1} ms {:6.2} us/tool  held {:7.2} MiB  peak {:7.2} MiB with the definitions  ({outputs} different outputSchema)",
            ms * 1e3 / defs.len() as f64,
            mib(held),
            mib(peak),
        );
        entry[format!("{key}_ms")] = ms.into();
        entry[format!("{key}_mib")] = mib(held).into();
        entry[format!("{key}_peak_mib")] = mib(peak).into();
        entry[format!("{key}_outputs")] = outputs.into();
        if key == "list" {
            // What rmcp writes for a `tools/list` answer of all of them.
            let (_, ms, _, _) = measure(rounds, || serde_json::to_vec(&tools));
            println!(
                "{:<20} {ms:8.1} ms  (the SDK's tools written as JSON)",
                "  tools/list text"
            );
            entry["list_json_ms"] = ms.into();
        }
    }
}

/// How many different allocations these (each tool's `outputSchema`) are.
fn distinct(ptrs: impl Iterator<Item = Option<*const ()>>) -> usize {
    let mut ptrs: Vec<*const ()> = ptrs.flatten().collect();
    ptrs.sort();
    ptrs.dedup();
    ptrs.len()
}

/// A deep copy of values: the old floor of MCP's export (each tool a whole
/// `Value`), and the copy of the canonical definitions.
#[inline(never)]
fn floor_values(values: &[Value]) -> Vec<Value> {
    values.to_vec()
}

/// The floor of an export: an owned copy of its result. Never inlined, so
/// that benches/registry_callgrind.sh finds it by name.
#[inline(never)]
fn floor_copy(export: &dialect::Export) -> dialect::Export {
    export.clone()
}
