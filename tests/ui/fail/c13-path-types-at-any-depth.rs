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

/// Read some files.
#[tool_contract(effect = read_only)]
pub fn read_files(
    /// The files to read, some left out.
    files: Vec<Option<std::path::PathBuf>>,
    /// One more.
    extra: Box<std::path::Path>,
    /// Pairs of files.
    pairs: Vec<[std::path::PathBuf; 2]>,
) -> Result<Done, Oops> {
    let _ = (files, extra, pairs);
    Ok(Done { ok: true })
}

fn main() {}
