use crate::common::{done, Done, Oops};
use contract_runtime::prelude::*;

// @gt A: type doc
/// A register of a meter.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Register {
    Day,
    Night,
    Export,
}

// @gt A: type doc
/// A fuel a tariff covers.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Fuel {
    Electricity,
    Gas,
    Dual,
}

// @gt A: type doc
/// A way to notify the customer.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum AlertChannel {
    Email,
    Sms,
    Push,
}

// @gt A: type doc
/// A document format for bills.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum BillFormat {
    Pdf,
    Json,
}

// @gt A: plain description
/// Read a smart meter's register, as last reported by the meter.
#[tool_contract(effect = read_only, authority = "meters:read")]
pub fn get_meter_reading(
    // @gt A: MTR- and 10 digits as pattern
    /// Meter point id, `MTR-` followed by 10 digits.
    #[arg(pattern = "^MTR-[0-9]{10}$")]
    meter_id: String,
    // @gt B: within last 13 months, not declared
    /// Reading at this instant, within the last 13 months; the latest when left out.
    at: Option<chrono::DateTime<chrono::Utc>>,
    // @gt A: complete list
    /// Which register: day, night or export.
    register: Register,
    // @gt A: example only
    /// IANA time zone for the timestamps, e.g. Europe/London.
    #[arg(length(max = 64))]
    timezone: Option<String>,
) -> Result<Done, Oops> {
    let _ = (meter_id, at, register, timezone);
    done()
}

// @gt B: a reading lower than the previous one is rejected (world rule)
/// Submit a customer meter reading. A reading lower than the previous one is
/// rejected.
#[tool_contract(effect = reversible, idempotency = key(submission_key), authority = "meters:write")]
pub fn submit_reading(
    // @gt A: same as pattern
    /// Meter point id, `MTR-` followed by 10 digits.
    #[arg(pattern = "^MTR-[0-9]{10}$")]
    meter_id: String,
    // @gt A: display digits, same as declared max ~999999.9
    /// The register's value in kWh, as shown on the display.
    #[arg(range(min = 0.0, max = 999999.9))]
    value_kwh: f64,
    // @gt A: served from 2020 as declared
    /// Day the meter was read; readings from before 2020 are not accepted.
    #[arg(served(range(min = "2020-01-01")))]
    read_on: chrono::NaiveDate,
    // @gt A: no constraint
    /// Register the value belongs to.
    register: Register,
    // @gt B: https only not declared
    /// Link to a photo of the display (https only).
    #[arg(format = "uri")]
    photo_url: Option<String>,
    // @gt A: uuid
    /// UUID of this submission, for retries.
    #[arg(format = "uuid")]
    submission_key: String,
) -> Result<Done, Oops> {
    let _ = (meter_id, value_kwh, read_on, register, photo_url, submission_key);
    done()
}

// @gt A: plain description
/// List tariffs available at an address, cheapest first.
#[tool_contract(effect = read_only, authority = "tariffs:read")]
pub fn list_tariffs(
    // @gt A: example only
    /// UK postcode, e.g. SW1A 1AA.
    #[arg(pattern = "^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$")]
    postcode: String,
    // @gt A: complete list
    /// Electricity, gas or dual fuel.
    fuel: Fuel,
    // @gt A: flag
    /// Only 100% renewable tariffs.
    green_only: bool,
    // @gt C: says up to 50, declared max 20
    /// How many tariffs to list, up to 50.
    #[arg(prose = "trial: compile error recorded", range(min = 1, max = 20))]
    max_results: u8,
) -> Result<Done, Oops> {
    let _ = (postcode, fuel, green_only, max_results);
    done()
}

// @gt A: cooling-off is information, not a constraint
/// Move an account to a new tariff. The customer has a 14-day cooling-off
/// period after the switch.
#[tool_contract(
    effect = external,
    idempotency = key(switch_key),
    approval = always,
    authority = "tariffs:switch"
)]
pub fn switch_tariff(
    // @gt A: 10 digits as pattern
    /// Customer account number, 10 digits.
    #[arg(pattern = "^[0-9]{10}$")]
    account_number: String,
    // @gt A: example matches pattern
    /// Tariff code like FIX-24-ELE.
    #[arg(pattern = "^[A-Z]{2,4}-[0-9]{2}-[A-Z]{3}$")]
    tariff_code: String,
    // @gt B: at least 14 days from today, not declared
    /// Day the new tariff starts; at least 14 days from today.
    start_date: chrono::NaiveDate,
    // @gt B: must be true, not declared
    /// Must be true: confirms the customer accepted any exit fee.
    exit_fee_ack: bool,
    // @gt A: uuid
    /// UUID of this switch request.
    #[arg(format = "uuid")]
    switch_key: String,
) -> Result<Done, Oops> {
    let _ = (account_number, tariff_code, start_date, exit_fee_ack, switch_key);
    done()
}

// @gt A: plain description
/// Alert the customer when a day's consumption passes a threshold.
#[tool_contract(effect = reversible, idempotency = natural, authority = "alerts:write")]
pub fn set_usage_alert(
    // @gt A: no constraint
    /// The meter to watch.
    #[arg(pattern = "^MTR-[0-9]{10}$")]
    meter_id: String,
    // @gt C: says 1 to 500, declared max 1000
    /// Daily consumption in kWh that triggers the alert, 1 to 500.
    #[arg(prose = "trial: compile error recorded", range(min = 1, max = 1000))]
    threshold_kwh: u32,
    // @gt A: complete list
    /// How to notify: email, sms, push.
    #[arg(length(min = 1, max = 3), unique)]
    channels: Vec<AlertChannel>,
    // @gt B: on the hour, not declared
    /// Start of quiet hours (no notifications), on the hour, e.g. 22:00:00.
    quiet_start: Option<chrono::NaiveTime>,
) -> Result<Done, Oops> {
    let _ = (meter_id, threshold_kwh, channels, quiet_start);
    done()
}

// @gt B: bills kept for 7 years (world rule on month)
/// Fetch a monthly bill. Bills are kept for 7 years.
#[tool_contract(effect = read_only, authority = "bills:read")]
pub fn get_bill(
    // @gt A: 10 digits
    /// Customer account number, 10 digits.
    #[arg(pattern = "^[0-9]{10}$")]
    account_number: String,
    // @gt A: YYYY-MM as pattern
    /// Billing month as YYYY-MM.
    #[arg(pattern = "^[0-9]{4}-(0[1-9]|1[0-2])$")]
    month: String,
    // @gt C: lists CSV, which the enum lacks
    /// Return the bill as PDF, JSON or CSV.
    format: BillFormat,
) -> Result<Done, Oops> {
    let _ = (account_number, month, format);
    done()
}

// @gt B: unpaid balance blocks closing (world rule)
/// Close a customer account after a move-out. Accounts with an unpaid balance
/// cannot be closed.
#[tool_contract(
    effect = destructive,
    idempotency = natural,
    approval = always,
    authority = "accounts:close"
)]
pub fn close_account(
    // @gt A: 10 digits
    /// Customer account number, 10 digits.
    #[arg(pattern = "^[0-9]{10}$")]
    account_number: String,
    // @gt A: unit only
    /// Final meter reading in kWh.
    #[arg(range(min = 0.0))]
    final_reading_kwh: f64,
    // @gt C: says no earlier than 2023-01-01, declared min 2024-01-01
    /// Move-out day; no earlier than 2023-01-01.
    #[arg(range(min = "2024-01-01"))]
    move_out_date: chrono::NaiveDate,
    // @gt A: email
    /// Where the final bill is sent.
    #[arg(format = "email")]
    forwarding_email: String,
) -> Result<Done, Oops> {
    let _ = (account_number, final_reading_kwh, move_out_date, forwarding_email);
    done()
}
