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

/// Set the levels of one mixer channel.
#[tool_contract(effect = read_only)]
pub fn set_levels(
    /// The gain step.
    #[arg(range(min = 300))]
    gain: u8,
    /// The bus.
    #[arg(range(min = -5, max = -1))]
    bus: u32,
    /// The slot.
    #[arg(range(exclusive_min = 5, exclusive_max = 6))]
    slot: u32,
    /// The pan.
    #[arg(range(exclusive_min = 0.5, exclusive_max = 0.5))]
    pan: f64,
    /// The fader level.
    #[arg(range(exclusive_min = 0, max = 300))]
    fader: u8,
) -> Result<Done, Oops> {
    let _ = (gain, bus, slot, pan, fader);
    Ok(Done { ok: true })
}

fn main() {}
