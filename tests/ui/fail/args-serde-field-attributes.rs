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

/// Paging of a listing.
#[derive(ToolArgs)]
pub struct Paging {
    /// The page to show.
    pub page: Option<u32>,
}

/// The arguments of a listing.
#[derive(ToolArgs)]
pub struct List {
    /// How many to show.
    #[serde(default)]
    pub count: u32,
    /// The paging.
    #[serde(flatten)]
    pub paging: Paging,
    /// Set by the host, never by the model.
    #[serde(skip)]
    pub internal: String,
    /// Read with a function of its own.
    #[serde(deserialize_with = "read_name")]
    pub name: String,
}

fn main() {}
