use contract_runtime::prelude::*;

/// What the tool did.
#[derive(serde::Serialize, JsonSchema)]
pub struct Done {
    /// Whether it did it.
    pub ok: bool,
}

/// Why the tool failed.
#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// It did not.
    #[failure(code = "oops")]
    Oops,
}

/// Build the project.
#[tool_contract(effect = reversible, idempotency = natural)]
pub fn build(
    /// The working directory to run the build in.
    cwd: String,
    /// The path name of the main file.
    pathname: String,
    /// The folder on disk where the build writes its output.
    folder_name: String,
    /// The file to read first.
    file: &std::path::Path,
) -> Result<Done, Oops> {
    let _ = (cwd, pathname, folder_name, file);
    Ok(Done { ok: true })
}

fn main() {}
