//! Numbers as the model wrote them: what a handler receives is the number
//! sent, read as JSON Schema and the published bounds read it, or the call
//! is refused. Nothing is rounded into range, or out of it.

use std::sync::Arc;

use contract_runtime::prelude::*;
use serde::Serialize;
use serde_json::{json, Value};

/// A point on a small grid.
#[derive(ToolArgs, Debug)]
pub struct Point {
    /// Column, 0 to 9.
    #[arg(range(min = 0, max = 9))]
    pub x: u8,
    /// An optional label of one to three characters.
    #[arg(length(min = 1, max = 3))]
    pub label: Option<String>,
}

/// Numbers of every width, echoed back.
#[derive(ToolArgs, Debug)]
pub struct Numbers {
    /// Any 64-bit signed integer.
    pub wide: Option<i64>,
    /// A fraction, more than 0 and less than 1.
    #[arg(range(exclusive_min = 0.0, exclusive_max = 1.0))]
    pub fraction: Option<f64>,
    /// Any 64-bit float.
    pub any: Option<f64>,
    /// A ratio from 0.1 to 0.3, held in 32 bits.
    #[arg(range(min = 0.1, max = 0.3))]
    pub ratio: Option<f32>,
    /// Any 32-bit float.
    pub single: Option<f32>,
    /// Fewer than 10.
    #[arg(range(exclusive_max = 10))]
    pub capped: Option<i64>,
    /// A count.
    pub count: Option<u64>,
    /// Points, none repeated.
    #[arg(unique, length(max = 8))]
    pub points: Option<Vec<Point>>,
}

/// What the handler received.
#[derive(Serialize, JsonSchema)]
pub struct Echo {
    /// The arguments, as the handler saw them.
    pub seen: String,
}

/// Why echo failed (it never does).
#[derive(Debug, ToolFailure)]
pub enum Never {
    /// Unused.
    #[failure(code = "never", message = "never")]
    Never,
}

/// Echoes numbers back, as the handler received them.
#[tool_contract(effect = read_only)]
pub fn echo(args: Numbers) -> Result<Echo, Never> {
    Ok(Echo {
        seen: format!(
            "{:?} {:?} {:?} {:?} {:?} {}",
            args.wide,
            args.fraction,
            args.any,
            args.ratio,
            args.single,
            args.points.map_or(0, |p| p.len())
        ),
    })
}

fn send(raw: &str) -> Value {
    let d = Dispatcher::new(Registry::builder().tool(echo::contract()).build().unwrap());
    let call = ToolCall::new("c1", "echo", raw);
    let env = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(d.dispatch(&Arc::new(Caller::new()), &call));
    serde_json::from_str(&env.to_json_string()).unwrap()
}

fn seen(raw: &str) -> String {
    let env = send(raw);
    assert_eq!(env["status"], "ok", "{raw}: {env:#}");
    env["result"]["seen"].as_str().unwrap().to_owned()
}

/// An integer literal past i64 that a 64-bit float would round onto
/// i64::MIN is not read as i64::MIN.
#[test]
fn an_integer_past_i64_is_never_rounded_into_it() {
    for literal in [
        "-9223372036854775809",
        "-9223372036854775810",
        "-9223372036854776832",
    ] {
        let env = send(&format!(r#"{{"wide":{literal}}}"#));
        assert_eq!(env["status"], "invalid", "{literal}: {env:#}");
        assert!(
            env["errors"][0]["message"]
                .as_str()
                .unwrap()
                .contains(&format!("the number {literal} has more digits than")),
            "{env:#}"
        );
    }
    assert_eq!(
        seen(r#"{"wide":-9223372036854775808}"#),
        "Some(-9223372036854775808) None None None None 0"
    );
}

/// A decimal is read as the 64-bit float nearest to it (IEEE round to
/// nearest), which is what the published bounds are compared with.
#[test]
fn a_decimal_is_the_nearest_float() {
    // The largest double below 1.0, inside `exclusiveMaximum: 1`.
    assert_eq!(
        seen(r#"{"fraction":0.9999999999999999}"#),
        "None Some(0.9999999999999999) None None None 0"
    );
    for text in [
        "94.06149299205461",
        "0.30000000000000004",
        "2.2250738585072014e-308",
    ] {
        let want: f64 = text.parse().unwrap();
        assert_eq!(
            seen(&format!(r#"{{"any":{text}}}"#)),
            format!("None None Some({want:?}) None None 0"),
            "{text}"
        );
    }
}

/// A 32-bit float's bounds are compared with the number sent, before it is
/// narrowed: the declared bound itself is accepted, a number under the
/// minimum that narrows onto it is not, nor one past f32's published range.
#[test]
fn a_32_bit_float_is_checked_as_sent() {
    assert_eq!(seen(r#"{"ratio":0.3}"#), "None None None Some(0.3) None 0");
    assert_eq!(seen(r#"{"ratio":0.1}"#), "None None None Some(0.1) None 0");
    let env = send(r#"{"ratio":0.0999999999}"#);
    assert_eq!(env["status"], "invalid", "{env:#}");
    assert_eq!(env["errors"][0]["constraint"]["keyword"], "minimum");
    assert_eq!(
        env["errors"][0]["constraint"]["actual"],
        json!(0.0999999999)
    );
    for past in ["3.4028235e38", "-3.4028235e38", "3.402823466385289e+38"] {
        let env = send(&format!(r#"{{"single":{past}}}"#));
        assert_eq!(env["status"], "invalid", "{past}: {env:#}");
    }
    assert_eq!(
        seen(r#"{"single":3.4028234663852886e38}"#),
        format!("None None None None Some({:?}) 0", f32::MAX)
    );
}

/// `uniqueItems` compares items as JSON, as the published schema does: an
/// item with a key written out as null is not the item without it, and an
/// item already refused for its own keys is not called a repeat too.
#[test]
fn unique_compares_items_as_json() {
    assert_eq!(
        seen(r#"{"points":[{"x":1},{"x":1,"label":null}]}"#),
        "None None None None None 2"
    );
    let env = send(r#"{"points":[{"x":1},{"x":1,"zz":1}]}"#);
    let keywords: Vec<&str> = env["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["constraint"]["keyword"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(keywords, ["additionalProperties"], "{env:#}");
    // Repeats are refused, however a number is written.
    let env = send(r#"{"points":[{"x":1,"label":"a"},{"label":"a","x":1.0}]}"#);
    assert_eq!(
        env["errors"][0]["constraint"]["keyword"], "uniqueItems",
        "{env:#}"
    );
}

/// An integer past its type is refused by the keyword the published schema
/// breaks, with a repair that asks for something else than what was sent.
#[test]
fn an_integer_past_its_type_names_the_schemas_keyword() {
    let env = send(r#"{"capped":9223372036854775808}"#);
    let e = &env["errors"][0];
    assert_eq!(
        (&e["constraint"]["keyword"], &e["constraint"]["limit"]),
        (&json!("exclusiveMaximum"), &json!(10)),
        "{env:#}"
    );
    assert_eq!(
        e["repair"]["hint"], "send an integer less than 10",
        "{env:#}"
    );
    let env = send(r#"{"count":18446744073709551616}"#);
    let e = &env["errors"][0];
    assert_eq!(e["constraint"]["keyword"], "type", "{env:#}");
    assert_eq!(
        e["repair"]["hint"], "send an integer from 0 to 18446744073709551615, what u64 holds",
        "{env:#}"
    );
}
