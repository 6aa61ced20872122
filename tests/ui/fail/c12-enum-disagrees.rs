//! Listed values other than the enum's (rule C12), as measured: a whole
//! list that lacks a variant the description names nowhere stops the build
//! (`set-narrower`, at the error level: "either `json` or `csv`" lacks
//! `xml`); a list that names a value the enum lacks compiles (`set-wider`,
//! at the audit level: "one of `json`, `csv` or `yaml`").
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
    /// XML.
    Xml,
}

/// Export the notes of a notebook.
#[tool_contract(effect = read_only)]
pub fn export_notes(
    /// The notebook to export.
    notebook: String,
    /// The file format: one of `json`, `csv` or `yaml`.
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
    /// The file format, either `json` or `csv`.
    pub format: Format,
}

fn main() {}
