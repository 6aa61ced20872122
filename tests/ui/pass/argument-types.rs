//! Closed sets (unit enums, serde renames honoured), Option, Vec, nested
//! structs, confined paths and secrets.
use contract_runtime::prelude::*;
use serde::Serialize;

/// What the export produced.
#[derive(Serialize, JsonSchema)]
pub struct Exported {
    /// How many rows were written.
    pub rows: u64,
}

/// Why an export failed.
#[derive(Debug, ToolFailure)]
pub enum ExportError {
    /// The destination is full.
    #[failure(code = "disk-full")]
    DiskFull,
}

/// The file format of the export.
#[derive(ToolArgs)]
#[serde(rename_all = "kebab-case")]
pub enum OutputFormat {
    /// JSON lines.
    JsonLines,
    /// Comma-separated values.
    Csv,
}

/// A window of dates.
#[derive(ToolArgs)]
pub struct Window {
    /// First day included.
    #[arg(format = "date")]
    pub from: String,
    /// Last day included; open-ended when left out.
    #[arg(format = "date")]
    pub to: Option<String>,
}

/// What to export and where.
#[derive(ToolArgs)]
pub struct Export {
    /// The file format.
    pub output: OutputFormat,
    /// The window of dates to export.
    pub window: Window,
    /// Columns to include; every column when left out.
    #[arg(length(min = 1, max = 20), unique)]
    pub columns: Option<Vec<String>>,
    /// Labels to filter by.
    #[arg(each(length(min = 1, max = 32)))]
    pub labels: Vec<String>,
    /// Where to write the export, relative to the exports folder.
    #[arg(root = "exports")]
    pub destination: ConfinedPath,
    /// The token for the export service.
    #[arg(secret)]
    pub token: String,
    /// Rows per file.
    #[arg(range(exclusive_min = 0, max = 100000))]
    pub rows_per_file: Option<u64>,
    /// Sampling ratio.
    #[arg(range(min = 0.0, max = 1.0))]
    pub sample: f64,
    /// Whether to overwrite an existing file.
    pub overwrite: bool,
}

/// Export rows to a file in the exports folder. Running it again rewrites the same file.
#[tool_contract(effect = reversible, idempotency = natural)]
pub fn export_rows(args: Export) -> Result<Exported, ExportError> {
    let _ = args;
    Ok(Exported { rows: 0 })
}

fn main() {
    let registry = Registry::builder().tool(export_rows::contract()).build().expect("a valid registry");
    let schema = registry.get("export_rows").expect("registered").input_schema();
    let output = &schema["properties"]["output"]["enum"];
    assert_eq!(output, &serde_json::json!(["json-lines", "csv"]));
}
