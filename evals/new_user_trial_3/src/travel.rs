#![allow(unused_variables)]
use contract_runtime::prelude::*;
use crate::common::*;

/// Search scheduled flights between two airports on one day. An empty list means no seats were found, not that the route does not exist.
#[tool_contract(effect = read_only, authority = "flights:read")]
pub fn search_flights(
    /// IATA code of the departure airport, three capital letters such as LHR.
    #[arg(pattern = "^[A-Z]{3}$")]
    origin: String,
    /// Arrival airport as a 3-letter IATA code; must differ from the origin.
    #[arg(pattern = "^[A-Z]{3}$")]
    destination: String,
    /// Day of departure, YYYY-MM-DD, between 2026-01-01 and 2027-12-31.
    #[arg(range(min = "2026-01-01", max = "2027-12-31"))]
    departure_date: chrono::NaiveDate,
    /// Number of travellers, at most 9 per booking.
    #[arg(range(min = 1, max = 9))]
    passengers: u8,
    /// Cabin class: economy, premium_economy, business or first.
    cabin: Option<Cabin>,
    /// Maximum number of connections; up to two.
    #[arg(range(max = 3), prose = "trial: compile error recorded")]
    max_stops: Option<u8>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Book seats on a flight offer returned by search_flights and charge the traveller's stored card.
#[tool_contract(effect = external, idempotency = key(request_key), approval = never, authority = "flights:book")]
pub fn book_flight(
    /// The offer to book, an id starting with `off_` followed by 16 letters or digits.
    #[arg(pattern = "^off_[A-Za-z0-9]{16}$")]
    offer_id: String,
    /// Full names of the travellers as printed on their passports, one to nine names.
    #[arg(length(min = 1, max = 9), each(length(min = 1, max = 100)))]
    passenger_names: Vec<String>,
    /// Preferred seat, for example 14C; row numbers run from 1 to 60.
    seat_preference: Option<String>,
    /// A UUID identifying this booking attempt; resend the same one on retry.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Find hotels with free rooms in a city for a stay of at most 30 nights.
#[tool_contract(effect = read_only, authority = "hotels:read")]
pub fn search_hotels(
    /// City name in English, e.g. Lisbon.
    #[arg(length(min = 1, max = 80))]
    city: String,
    /// Arrival date (ISO 8601, YYYY-MM-DD).
    check_in: chrono::NaiveDate,
    /// Departure date; must be after the check-in date.
    check_out: chrono::NaiveDate,
    /// Guests sharing the room, from one to eight.
    #[arg(range(min = 1, max = 8))]
    guests: u8,
    /// Upper limit on the nightly rate in whole euros; no more than 5000.
    #[arg(range(min = 1), prose = "trial: compile error recorded")]
    max_price_per_night: Option<u32>,
    /// Minimum star rating, 1 to 7.
    #[arg(range(min = 1, max = 5), prose = "trial: compile error recorded")]
    min_stars: Option<u8>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Reserve a room at a hotel found by search_hotels. Payment is taken at the hotel.
#[tool_contract(effect = external, idempotency = natural, approval = never, authority = "hotels:book")]
pub fn book_hotel(
    /// Hotel identifier as returned by search_hotels (htl_ plus 8 digits).
    #[arg(pattern = "^htl_[0-9]{8}$")]
    hotel_id: String,
    /// Kind of room: single, double or twin.
    #[arg(prose = "trial: compile error recorded")]
    room_type: RoomType,
    /// Length of stay in nights, at most a month (30 nights).
    #[arg(range(min = 1, max = 30))]
    nights: u16,
    /// Free-text requests passed to the hotel, up to 1000 characters.
    #[arg(length(max = 500), prose = "trial: compile error recorded")]
    special_requests: Option<String>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Cancel a flight booking. Refunds follow the fare rules; this cannot be undone.
#[tool_contract(effect = destructive, idempotency = natural, approval = always, authority = "flights:book")]
pub fn cancel_booking(
    /// Six-character booking reference (PNR), capital letters and digits.
    #[arg(pattern = "^[A-Z0-9]{6}$")]
    booking_ref: String,
    /// Why the traveller is cancelling; shown to the agent. Keep it under 200 characters.
    #[arg(length(max = 300))]
    reason: Option<String>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Return the fare rules (changes, refunds, baggage) for a fare basis code on one carrier.
#[tool_contract(effect = read_only, authority = "flights:read")]
pub fn get_fare_rules(
    /// Fare basis code, 1–8 alphanumeric characters, e.g. YLOWUS.
    #[arg(length(min = 1, max = 8))]
    fare_basis: String,
    /// Two-character airline designator such as BA or U2.
    #[arg(pattern = "^[A-Z0-9]{2}$")]
    carrier: String,
    /// Language of the rules text as an ISO 639-1 code (two lowercase letters); defaults to en.
    language: Option<String>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Report the live status, gate and delay of one flight.
#[tool_contract(effect = read_only, authority = "flights:read")]
pub fn track_flight_status(
    /// Flight number: the airline code followed by 1 to 4 digits, e.g. BA117.
    #[arg(pattern = "^[A-Z0-9]{2}[0-9]{1,4}$")]
    flight_number: String,
    /// Scheduled departure date, local to the origin airport; no earlier than 2025-01-01.
    #[arg(range(min = "2026-01-01"))]
    date: chrono::NaiveDate,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}
