use contract_runtime::prelude::*;

/// What the tool did.
#[derive(serde::Serialize, JsonSchema)]
pub struct Done {
    /// Whether it did it.
    pub ok: bool,
}

/// Why the tool failed.
#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// It did not.
    #[failure(code = "oops")]
    Oops,
}

/// The host's billing.
pub struct Billing;

/// Refund part or all of a payment.
#[tool_contract(effect = external, idempotency = none, approval = always)]
pub fn refund(
    /// The payment to refund.
    #[arg(length(min = 1, max = 64))]
    payment: String,
    billing: &Billing,
) -> Result<Done, Oops> {
    let _ = (payment, billing);
    Ok(Done { ok: true })
}

fn main() {}
