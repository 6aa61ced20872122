use contract_runtime::prelude::*;

/// A shape.
#[derive(ToolArgs)]
#[serde(tag = "kind")]
pub enum Shape {
    /// A circle.
    Circle {
        /// The radius.
        radius: f64,
        /// The kind of circle.
        kind: String,
    },
}

fn main() {}
