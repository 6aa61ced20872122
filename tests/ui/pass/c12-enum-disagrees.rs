//! Listed values other than the enum's (rule C12): it compiles, since the
//! set checks (`set-wider`, `set-narrower`) are at the audit level
//! (measured, `docs/rule-c12.md#the-contradiction-checks`), so the macro
//! emits no constant comparing them; `Registry::audit()` reports each.
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

/// The file format of the export.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// JSON lines.
    Json,
    /// Comma-separated values.
    Csv,
}

/// Export the notes of a notebook.
#[tool_contract(effect = read_only)]
pub fn export_notes(
    /// The notebook to export.
    notebook: String,
    /// The file format: one of `json`, `csv` or `xml`.
    format: Format,
) -> Result<Done, Oops> {
    let _ = (notebook, format);
    Ok(Done { ok: true })
}

/// What to export.
#[derive(ToolArgs)]
pub struct Export {
    /// The notebook to export.
    pub notebook: String,
    /// The file format, either `json` or `yaml`.
    pub format: Format,
}

fn main() {}
