//! Approval predicates, request keys, retries of safe tools, a prose opt-out,
//! and `crate = "..."` written out (it is never needed otherwise).
use contract_runtime::prelude::*;
use serde::Serialize;

/// What was done.
#[derive(Serialize, JsonSchema)]
pub struct Done {
    /// Whether it was done.
    pub ok: bool,
}

/// Why the call failed.
#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// The service did not answer in time.
    #[failure(code = "timeout", transient)]
    Timeout,
}

/// Transfer money between two of the caller's accounts.
#[tool_contract(effect = external, idempotency = key(request_key), approval = when(large_amount))]
pub fn transfer(
    /// The amount in cents.
    #[arg(range(min = 1, max = 1000000))]
    cents: u64,
    /// A fresh UUID for this transfer; reuse it only to retry the same transfer.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Done, Oops> {
    let _ = (cents, request_key);
    Ok(Done { ok: true })
}

/// Transfers above 100 euros need a person.
pub fn large_amount(_ctx: &CallContext, args: &TransferArgs) -> Option<String> {
    (args.cents > 10_000).then(|| format!("{} cents is more than 100 euros", args.cents))
}

/// Look up the exchange rate between two currencies.
#[tool_contract(effect = read_only, retry(attempts = 3, backoff_ms = 10))]
pub fn exchange_rate(
    /// The currency to convert from.
    #[arg(pattern = "^[A-Z]{3}$")]
    from: String,
    /// The currency to convert to.
    #[arg(pattern = "^[A-Z]{3}$")]
    to: String,
) -> Result<Done, Oops> {
    let _ = (from, to);
    Err(Oops::Timeout)
}

/// Look up a customer's orders.
#[tool_contract(effect = read_only, crate = "::contract_runtime")]
pub fn orders(
    /// The customer's number. Older accounts may show up to 10 orders a page; this
    /// describes the service, not a limit on what to send.
    #[arg(prose = "describes the service's paging, not a limit on the argument")]
    customer: u64,
) -> Result<Done, Oops> {
    let _ = customer;
    Ok(Done { ok: true })
}

/// Record a payment reference. Sending the same reference again records nothing new.
#[tool_contract(effect = reversible, idempotency = key(reference), retry(attempts = 2))]
pub fn record_payment(
    /// The payment's reference, as the bank wrote it.
    #[arg(length(min = 1, max = 64))]
    reference: String,
) -> Result<Done, Oops> {
    let _ = reference;
    Ok(Done { ok: true })
}

fn main() {
    let registry = Registry::builder()
        .tool(transfer::contract())
        .tool(exchange_rate::contract())
        .tool(orders::contract())
        .tool(record_payment::contract())
        .build()
        .expect("a valid registry");
    assert_eq!(registry.names().count(), 4);
}
