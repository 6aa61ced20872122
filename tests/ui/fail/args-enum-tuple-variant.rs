use contract_runtime::prelude::*;

/// A shape.
#[derive(ToolArgs)]
#[serde(tag = "kind")]
pub enum Shape {
    /// A circle.
    Circle(f64),
    /// A square.
    Square {
        /// Its side.
        side: f64,
    },
}

fn main() {}
