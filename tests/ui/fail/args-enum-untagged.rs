use contract_runtime::prelude::*;

/// A size.
#[derive(ToolArgs)]
#[serde(untagged)]
pub enum Size {
    /// In pixels.
    Pixels {
        /// Width.
        width: u32,
    },
    /// In percent.
    Percent {
        /// Share.
        share: u8,
    },
}


/// A shape.
#[derive(ToolArgs)]
#[serde(content = "c")]
pub enum Shape {
    /// A circle.
    Circle {
        /// Its radius.
        radius: f64,
    },
}

fn main() {}
