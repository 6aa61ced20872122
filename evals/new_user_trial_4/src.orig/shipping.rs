//! Shipping and logistics tools.
#![allow(unused_variables, dead_code)]

use contract_runtime::prelude::*;
use serde::Serialize;

/// A price and transit time.
#[derive(Serialize, JsonSchema)]
pub struct Quote {
    /// The quote's id, to book it.
    pub quote_id: String,
    /// Price in cents.
    pub price_cents: u64,
    /// Expected transit time in days.
    pub transit_days: u32,
}

/// A booked shipment.
#[derive(Serialize, JsonSchema)]
pub struct Shipment {
    /// The carrier's tracking number.
    pub tracking_number: String,
    /// Where the label can be downloaded.
    pub label_url: String,
}

/// Tracking events, newest first.
#[derive(Serialize, JsonSchema)]
pub struct TrackingEvents {
    /// One line per event.
    pub events: Vec<String>,
}

/// A confirmation from the carrier.
#[derive(Serialize, JsonSchema)]
pub struct Confirmation {
    /// The carrier's reference.
    pub reference: String,
}

/// Stock rows.
#[derive(Serialize, JsonSchema)]
pub struct StockRows {
    /// SKU and quantity, one pair per row.
    pub rows: Vec<(String, u32)>,
}

/// Why a shipping tool could not do what was asked.
#[derive(Debug, ToolFailure)]
pub enum ShipError {
    /// The carrier does not know this shipment.
    #[failure(code = "no-such-shipment", repair = "check the tracking number")]
    NoSuchShipment,
    /// The carrier's API did not answer.
    #[failure(code = "carrier-unavailable", transient)]
    CarrierUnavailable,
}

// @gt A
/// Outer size of a box in centimetres.
#[derive(ToolArgs)]
pub struct ParcelDimensions {
    // @gt A
    /// Longest side in cm, 1 to 150.
    #[arg(range(min = 1, max = 150))]
    pub length_cm: u16,
    // @gt B: sum of length, width and height at most 300; no rule declared
    /// Width in cm; the sum of length, width and height may not exceed 300.
    #[arg(range(min = 1, max = 150))]
    pub width_cm: u16,
    // @gt C: prose says up to 120; declares range(max = 150)
    /// Height in centimetres, up to 120.
    #[arg(range(min = 1, max = 150))]
    pub height_cm: u16,
}

// @gt A
/// How fast a parcel travels.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum ServiceLevel {
    // @gt A
    /// Cheapest, slowest.
    Economy,
    // @gt A
    /// The usual service.
    Standard,
    // @gt A
    /// Next business day where possible.
    Express,
}

// @gt A
/// A warehouse of the network.
#[derive(ToolArgs)]
#[serde(rename_all = "UPPERCASE")]
pub enum Warehouse {
    // @gt A
    /// Amsterdam.
    Ams1,
    // @gt A
    /// Frankfurt.
    Fra2,
    // @gt A
    /// Madrid.
    Mad1,
    // @gt A
    /// Warsaw.
    Waw1,
}

// @gt A
/// Quote the price and transit time of sending one parcel between two postcodes.
#[tool_contract(effect = read_only, authority = "shipping:read")]
pub fn quote_shipment(
    // @gt A
    /// Postcode the parcel leaves from, as written locally (3 to 10 characters).
    #[arg(length(min = 3, max = 10))]
    origin_postcode: String,
    // @gt A
    /// Destination country as an ISO 3166-1 alpha-2 code (two capital letters, e.g. `DE`).
    #[arg(pattern = "^[A-Z]{2}$")]
    destination_country: String,
    // @gt C: prose says at most 20 kg (20000 g); declares range(max = 30000) grams
    /// Parcel weight in grams; at most 20 kg.
    #[arg(range(min = 1, max = 30000))]
    weight_grams: u32,
    // @gt A
    /// Outer dimensions of the box, if known.
    dimensions: Option<ParcelDimensions>,
    // @gt A
    /// Speed of service: economy, standard or express; standard when omitted.
    service: Option<ServiceLevel>,
) -> Result<Quote, ShipError> {
    Err(ShipError::CarrierUnavailable)
}

// @gt B: world rule, labels only Monday to Friday before 18:00
/// Book a shipment with the carrier and buy its label; the account is charged
/// at once. Labels can only be bought Monday to Friday before 18:00 local time.
#[tool_contract(
    effect = external,
    idempotency = key(idempotency_key),
    approval = never,
    authority = "shipping:write"
)]
pub fn create_shipment(
    // @gt A
    /// The quote to book, as returned by `quote_shipment` (`q_` followed by 16
    /// letters or digits).
    #[arg(pattern = "^q_[A-Za-z0-9]{16}$")]
    quote_id: String,
    // @gt A
    /// Recipient's full name as printed on the label, at most 35 characters.
    #[arg(length(min = 1, max = 35))]
    recipient_name: String,
    // @gt B: up to 20 characters, letters and digits only; no length or pattern declared
    /// Your own reference printed on the label; up to 20 characters, letters
    /// and digits only.
    reference: Option<String>,
    // @gt A
    /// Unique key for this booking, a UUID.
    #[arg(format = "uuid")]
    idempotency_key: String,
) -> Result<Shipment, ShipError> {
    Err(ShipError::CarrierUnavailable)
}

// @gt A
/// Show the tracking events of one shipment, newest first.
#[tool_contract(effect = read_only, authority = "shipping:read")]
pub fn track_shipment(
    // @gt C: prose says `1Z` + 18 characters; pattern ^1Z[0-9A-Z]{16}$ requires 16
    /// The carrier's tracking number: `1Z` followed by 18 characters.
    #[arg(pattern = "^1Z[0-9A-Z]{16}$")]
    tracking_number: String,
    // @gt A
    /// How many events to return, at most 50 (default 10).
    #[arg(range(min = 1, max = 50))]
    max_events: Option<u8>,
) -> Result<TrackingEvents, ShipError> {
    Ok(TrackingEvents { events: vec![] })
}

// @gt B: world rule, at least 2 hours ahead and at most 10 business days in advance
/// Ask the carrier to collect parcels from an address. Pickups must be booked
/// at least 2 hours ahead and no more than 10 business days in advance.
#[tool_contract(
    effect = external,
    idempotency = key(request_key),
    approval = never,
    authority = "shipping:write"
)]
pub fn schedule_pickup(
    // @gt A
    /// Day of the pickup; the carrier's calendar covers 2025-01-01 through 2026-12-31.
    #[arg(served(range(min = "2025-01-01", max = "2026-12-31")))]
    pickup_date: chrono::NaiveDate,
    // @gt B: between 08:00 and 18:00; no range declared on the time
    /// Earliest collection time, HH:MM:SS, between 08:00 and 18:00.
    window_start: chrono::NaiveTime,
    // @gt C: prose says 1 to 50; declares range(min = 1, max = 99)
    /// Number of parcels to collect, 1 to 50.
    #[arg(range(min = 1, max = 99))]
    parcel_count: u16,
    // @gt A
    /// Saved pickup address, an id starting with `addr_`.
    #[arg(pattern = "^addr_[a-z0-9]{10}$")]
    address_id: String,
    // @gt A
    /// A UUID you generate for this pickup request.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Confirmation, ShipError> {
    Ok(Confirmation { reference: request_key })
}

// @gt B: world rule, domestic addresses only and one redirect per shipment
/// Redirect a shipment that has not yet left the depot to another address.
/// Only domestic addresses can be used, and a shipment can be redirected once.
#[tool_contract(effect = reversible, idempotency = natural, authority = "shipping:write")]
pub fn update_delivery_address(
    // @gt A
    /// Tracking number of the shipment to redirect (`1Z` plus 16 capital
    /// letters or digits).
    #[arg(pattern = "^1Z[0-9A-Z]{16}$")]
    tracking_number: String,
    // @gt C: prose says 2 to 40 characters; declares length(min = 1, max = 60)
    /// City name, 2 to 40 characters.
    #[arg(length(min = 1, max = 60))]
    city: String,
    // @gt B: five digits; no pattern declared
    /// Postcode, five digits (e.g. 10115).
    postcode: String,
) -> Result<Confirmation, ShipError> {
    Ok(Confirmation { reference: tracking_number })
}

// @gt C: prose says up to 1000 rows per call; `limit` declares range(max = 500)
/// List the stock on hand of one warehouse, by SKU, up to 1000 rows per call.
#[tool_contract(effect = read_only, authority = "warehouse:read")]
pub fn list_warehouse_stock(
    // @gt C: lists AMS1, FRA2, MAD1; the enum also has WAW1
    /// Warehouse code: AMS1, FRA2 or MAD1.
    warehouse: Warehouse,
    // @gt A
    /// Maximum rows returned; 1–500.
    #[arg(range(min = 1, max = 500))]
    limit: Option<u16>,
) -> Result<StockRows, ShipError> {
    Ok(StockRows { rows: vec![] })
}

// @gt A
/// Cancel a booked shipment and void its label; the label fee is refunded to
/// the account. A cancelled shipment cannot be restored.
#[tool_contract(
    effect = destructive,
    idempotency = natural,
    approval = always,
    authority = "shipping:write"
)]
pub fn cancel_shipment(
    // @gt A
    /// The shipment to cancel.
    #[arg(pattern = "^1Z[0-9A-Z]{16}$")]
    tracking_number: String,
) -> Result<Confirmation, ShipError> {
    Ok(Confirmation { reference: tracking_number })
}
