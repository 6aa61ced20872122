//! What a 64-bit integer publishes (docs/attributes.md, "Why a 64-bit
//! integer publishes no bound of its own"): `u64` and `usize` only
//! `minimum: 0`, `i64` and `isize` nothing, a declared `range(..)` as
//! written; the 32-bit types their own bounds.
use contract_runtime::prelude::*;
use serde::Serialize;

#[derive(Serialize, JsonSchema)]
pub struct Done {
    pub ok: bool,
}

#[derive(Debug, ToolFailure)]
pub enum Oops {
    #[failure(code = "oops")]
    Oops,
}

/// Count things.
#[tool_contract(effect = read_only)]
pub fn count(
    /// An unsigned count.
    n: u64,
    /// A signed offset.
    m: i64,
    /// A size.
    s: usize,
    /// A signed size.
    t: isize,
    /// A bounded id.
    #[arg(range(max = 9007199254740991))]
    id: u64,
    /// A 32-bit count.
    k: u32,
) -> Result<Done, Oops> {
    let _ = (n, m, s, t, id, k);
    Ok(Done { ok: true })
}

fn main() {
    let registry = Registry::builder().tool(count::contract()).build().expect("a valid registry");
    let p = &registry.get("count").expect("registered").input_schema()["properties"];
    let bounds = |name: &str| (p[name].get("minimum").cloned(), p[name].get("maximum").cloned());
    use serde_json::json;
    assert_eq!(bounds("n"), (Some(json!(0)), None));
    assert_eq!(bounds("s"), (Some(json!(0)), None));
    assert_eq!(bounds("m"), (None, None));
    assert_eq!(bounds("t"), (None, None));
    assert_eq!(bounds("id"), (Some(json!(0)), Some(json!(9007199254740991u64))));
    assert_eq!(bounds("k"), (Some(json!(0)), Some(json!(4294967295u32))));
}
