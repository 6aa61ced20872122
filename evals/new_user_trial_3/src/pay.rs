#![allow(unused_variables)]
use contract_runtime::prelude::*;
use crate::common::*;

/// Return the booked and available balance of one account.
#[tool_contract(effect = read_only, authority = "accounts:read")]
pub fn get_balance(
    /// Account id, acc_ and 14 lowercase letters or digits.
    #[arg(pattern = "^acc_[a-z0-9]{14}$")]
    account_id: String,
    /// Balance at the end of this day; at most 13 months in the past.
    as_of: Option<chrono::NaiveDate>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// List an account's transactions between two dates, newest first. The date range may cover at most 90 days.
#[tool_contract(effect = read_only, authority = "accounts:read", rules(le(from, to)))]
pub fn list_transactions(
    /// Account whose transactions are listed.
    #[arg(pattern = "^acc_[a-z0-9]{14}$")]
    account_id: String,
    /// First booking date included.
    from: chrono::NaiveDate,
    /// Last booking date included; on or after `from`.
    to: chrono::NaiveDate,
    /// Only transactions of at least this amount, in cents; must not be negative.
    min_amount_cents: Option<i64>,
    /// Maximum rows to return, from 1 to 500; defaults to 100.
    #[arg(range(min = 1, max = 500))]
    limit: Option<u16>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Move money from an account the caller owns to a saved payee.
#[tool_contract(effect = external, idempotency = key(request_key), approval = always, authority = "payments:write")]
pub fn transfer_funds(
    /// Account to debit.
    #[arg(pattern = "^acc_[a-z0-9]{14}$")]
    source_account_id: String,
    /// Payee, pay_ and 12 lowercase letters or digits.
    #[arg(pattern = "^pay_[a-z0-9]{12}$")]
    payee_id: String,
    /// Amount in cents, at least 1 cent and at most 10,000.00 (1,000,000 cents).
    #[arg(range(min = 1, max = 1000000))]
    amount_cents: u64,
    /// Currency of the amount: EUR, USD or GBP.
    #[arg(prose = "trial: compile error recorded")]
    currency: Currency,
    /// Payment reference shown to the payee, up to 140 characters; letters, digits and spaces only.
    #[arg(length(max = 140))]
    reference: Option<String>,
    /// UUID; retrying with the same key never pays twice.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Create a hosted checkout link that a customer can pay once.
#[tool_contract(effect = external, idempotency = key(request_key), approval = never, authority = "payments:links")]
pub fn create_payment_link(
    /// Amount to collect in cents; the minimum is 50 cents and the maximum 999,999.99 EUR.
    #[arg(range(min = 50), prose = "trial: compile error recorded")]
    amount_cents: u32,
    /// What the customer is paying for, as shown on the checkout page (maximum 500 characters).
    #[arg(length(min = 1, max = 250), prose = "trial: compile error recorded")]
    item_description: String,
    /// When the link expires, an RFC 3339 timestamp with offset; at most 30 days from now.
    expires_at: Option<chrono::DateTime<chrono::Utc>>,
    /// Idempotency key, a UUID.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Refund all or part of a captured payment. At most 3 partial refunds per payment, within 180 days of capture.
#[tool_contract(effect = external, idempotency = natural, approval = always, authority = "payments:refund")]
pub fn refund_payment(
    /// Payment to refund, pi_ followed by 24 letters or digits.
    #[arg(pattern = "^pi_[A-Za-z0-9]{24}$")]
    payment_id: String,
    /// Amount to refund in cents; omit to refund the full amount. It cannot exceed the captured amount.
    #[arg(range(min = 1))]
    amount_cents: Option<u64>,
    /// duplicate, fraudulent or requested_by_customer.
    reason: RefundReason,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Change the daily spending limit of a card; the limit is 0 to 20,000 euros.
#[tool_contract(effect = reversible, idempotency = natural, authority = "cards:write")]
pub fn set_card_limit(
    /// Card id (card_ and ten digits).
    #[arg(pattern = "^card_[0-9]{10}$")]
    card_id: String,
    /// Daily spending limit in whole euros, 0 to 10,000.
    #[arg(range(min = 0, max = 20000), prose = "trial: compile error recorded")]
    daily_limit_eur: u32,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Check that an IBAN is well formed and, when given, that the holder's name matches the bank's records.
#[tool_contract(effect = read_only, authority = "payments:read")]
pub fn verify_iban(
    /// International Bank Account Number without spaces, 15 to 34 characters, starting with a two-letter country code.
    #[arg(length(min = 15, max = 34))]
    iban: String,
    /// BIC/SWIFT code of 8 or 11 characters.
    #[arg(length(min = 8, max = 11))]
    bic: Option<String>,
    /// Name of the account holder to match, at most 35 characters.
    #[arg(length(max = 70), prose = "trial: compile error recorded")]
    account_holder: Option<String>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}
