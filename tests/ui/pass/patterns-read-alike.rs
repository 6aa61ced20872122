//! The escapes the runtime's regex crate and ECMA-262 read alike, with or
//! without the `u` flag: `\xHH` with two hex digits, `\uHHHH` with four, and
//! `(?<name>...)`. Each example is matched by the runtime's regex when the
//! registry is built, so this proves the runtime reads them as a browser
//! does: `\u00e9` is `é`, `\x41` is `A`, `[\u0061-\u0063]` is `a` to `c`.
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

/// Look a word up.
#[tool_contract(effect = read_only, examples({word: "éAbc"}))]
pub fn look_up(
    /// The word.
    #[arg(pattern = r"^\u00e9\x41(?<n>b)[\u0061-\u0063]\/?$")]
    word: String,
) -> Result<Done, Oops> {
    let _ = word;
    Ok(Done { ok: true })
}

fn main() {
    Registry::builder().tool(look_up::contract()).build().expect("`éAbc` matches");
    for wrong in ["eAbc", "éabc", "éAbd", "x".repeat(41).as_str()] {
        let tool = look_up::contract().example(serde_json::json!({ "word": wrong }));
        assert!(
            Registry::builder().tool(tool).build().is_err(),
            "`{wrong}` does not match"
        );
    }
}
