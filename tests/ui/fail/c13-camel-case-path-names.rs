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

/// Write a report (camelCase names, as a model sends them, are paths too).
#[tool_contract(effect = reversible, idempotency = natural)]
#[allow(non_snake_case)]
pub fn write_report(
    /// The file to write, relative to the workspace.
    filePath: String,
    /// Where the output goes.
    outputPath: String,
    /// The template directories.
    templateDirs: Vec<String>,
) -> Result<Done, Oops> {
    let _ = (filePath, outputPath, templateDirs);
    Ok(Done { ok: true })
}

/// The arguments of an export.
#[derive(ToolArgs)]
#[allow(non_snake_case)]
pub struct Export {
    /// The output file, relative to the workspace.
    pub outputFile: String,
    /// The directory to write into.
    pub targetDir: Option<String>,
    /// The base directory (PascalCase).
    pub BaseDIR: String,
}

fn main() {}
