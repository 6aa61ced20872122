//! Rule C12, third edition: what this file states only in prose is an audit
//! finding (`Registry::audit()`), not a compile error: no recognizer is at the
//! error level (docs/rule-c12.md). It was the compile-fail case `c12-letter-codes`.
//! Letter codes stated only in prose: ISO 639-1 language codes are lower case
//! (`^[a-z]{2}$`, which accepts `en`), ISO 3166-1 alpha-2 country codes upper case.
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

/// Translate a text.
#[tool_contract(effect = read_only)]
pub fn translate(
    /// The two-letter language code to translate into.
    lang: String,
    /// The two-letter country code of the reader.
    country: String,
) -> Result<Done, Oops> {
    let _ = (lang, country);
    Ok(Done { ok: true })
}

fn main() {}
