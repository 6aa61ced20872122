//! A list of paths is named in the plural; it is judged by its singular
//! (rule C13): `paths`, `file_paths`, `dirs` and `directories` of strings
//! are file-system paths that are not confined.
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

/// Read several files of the repository.
#[tool_contract(effect = read_only)]
pub fn read_files(
    /// The files to read, relative to the repository root.
    paths: Vec<String>,
    /// More files to read.
    file_paths: Vec<String>,
    /// Folders to list.
    dirs: Option<Vec<String>>,
    /// Folders to skip.
    directories: Vec<String>,
    /// Whether to follow the addresses given (not a path).
    address: Option<String>,
) -> Result<Done, Oops> {
    let _ = (paths, file_paths, dirs, directories, address);
    Ok(Done { ok: true })
}

fn main() {}
