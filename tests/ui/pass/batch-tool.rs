//! A batch tool returns one outcome per item.
use contract_runtime::prelude::*;
use serde::Serialize;

/// What tagging one note did.
#[derive(Serialize, JsonSchema)]
pub struct Tagged {
    /// Whether the tag was added now.
    pub added: bool,
}

/// Why one note could not be tagged.
#[derive(Debug, ToolFailure)]
pub enum TagError {
    /// No note has this name.
    #[failure(code = "no-such-note", field = "notes")]
    NoSuchNote,
}

/// Add a tag to each of several notes. Tagging a note twice changes nothing.
#[tool_contract(effect = reversible, idempotency = natural)]
pub fn tag_notes(
    /// The notes to tag, by file name.
    #[arg(length(min = 1, max = 50), unique, each(pattern = r"^[a-z0-9_-]{1,64}\.md$"))]
    notes: Vec<String>,
    /// The tag, without `#`.
    #[arg(pattern = "^[a-z][a-z0-9-]{0,31}$")]
    tag: String,
) -> Batch<Tagged, TagError> {
    let _ = tag;
    notes
        .into_iter()
        .map(|n| {
            let r = if n.starts_with('x') { Err(TagError::NoSuchNote) } else { Ok(Tagged { added: true }) };
            (n, r)
        })
        .collect()
}

fn main() {
    let registry = Registry::builder().tool(tag_notes::contract()).build().expect("a valid registry");
    assert!(registry.get("tag_notes").is_some());
}
