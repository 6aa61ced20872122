//! Examples of arguments in the contract: inline arguments and an argument
//! struct; strings, integers (a whole number for a float too), fractions,
//! bools, `None`, lists, objects, closed sets, tagged enums, maps, dates,
//! confined paths and keywords as names. Nothing here runs: it compiles.
use std::collections::BTreeMap;

use contract_runtime::prelude::*;
use contract_runtime::ConfinedPath;

#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// It failed.
    #[failure(code = "oops")]
    Oops,
}

/// The order of results.
#[derive(ToolArgs)]
pub enum Order {
    /// Oldest first.
    Oldest,
    /// Newest first.
    Newest,
}

/// A place.
#[derive(ToolArgs)]
pub struct Place {
    /// Its latitude.
    pub lat: f64,
    /// Its longitude.
    pub lon: f64,
}

/// Where to send a note.
#[derive(ToolArgs)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Channel {
    /// By email.
    Email {
        /// The address.
        #[arg(format = "email")]
        to: String,
    },
    /// Nowhere.
    Silent,
}

/// Search the notes for a phrase.
#[tool_contract(
    effect = read_only,
    examples(
        {query: "kv cache", limit: 10, order: "newest"},
        {query: "rust", tags: ["lang", "systems"], near: {lat: 48.1, lon: 11}, r#type: None},
        {query: "x", score: -0.5, exact: true, labels: {"en": "hello"}, notify: {kind: "silent"}}
    )
)]
pub fn search(
    /// The phrase to look for.
    #[arg(length(min = 1, max = 200))]
    query: String,
    /// The most results to return.
    limit: Option<u8>,
    /// The order of results.
    order: Option<Order>,
    /// Tags the notes must have.
    tags: Option<Vec<String>>,
    /// A place the notes are about.
    near: Option<Place>,
    /// The kind of note.
    r#type: Option<String>,
    /// The least score.
    score: Option<f64>,
    /// Whether the phrase must match exactly.
    exact: Option<bool>,
    /// Labels by language.
    labels: Option<BTreeMap<String, String>>,
    /// Where to send the results.
    notify: Option<Channel>,
) -> Result<Vec<String>, Oops> {
    let _ = (limit, order, tags, near, r#type, score, exact, labels, notify);
    Ok(vec![query])
}

/// The arguments of `read_lines`.
#[derive(ToolArgs)]
pub struct ReadLines {
    /// The file.
    #[arg(root = "repo")]
    pub path: ConfinedPath,
    /// The first line, from 1.
    #[arg(range(min = 1))]
    pub from: u32,
    /// How many lines.
    pub count: Option<u32>,
}

/// Read lines of a file in the repository.
#[tool_contract(effect = read_only, authority = "repo:read", examples({path: "src/lib.rs", from: 1, count: 20}))]
pub fn read_lines(args: ReadLines) -> Result<Vec<String>, Oops> {
    let _ = (args.path, args.from, args.count);
    Ok(vec![])
}

fn main() {}
