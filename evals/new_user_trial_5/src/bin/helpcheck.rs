// Applies a few of C12's suggested declarations verbatim, to see that they compile.
use contract_runtime::prelude::*;
#[derive(serde::Serialize, JsonSchema)]
pub struct Done { pub ok: bool }
/// Record a body-weight measurement.
#[tool_contract(effect = read_only)]
pub fn hc(
    /// Body fat percentage.
    #[arg(range(min = 3, max = 60))]
    body_fat_percent: Option<f32>,
    /// The new holder's email address.
    #[arg(format = "email", length(max = 254))]
    recipient_email: String,
    /// Name shown on the leaderboard.
    #[arg(length(min = 1, max = 40), pattern = "^[A-Za-z0-9 ]+$")]
    display_name: String,
    /// Sort order.
    #[arg(pattern = "^(newest|oldest|title)$")]
    sort: Option<String>,
) -> Result<Done, std::convert::Infallible> { let _ = (body_fat_percent, recipient_email, display_name, sort); Ok(Done { ok: true }) }
fn main() { let r = Registry::builder().tool(hc::contract()).build().unwrap(); println!("{}", r.audit().len()); }
