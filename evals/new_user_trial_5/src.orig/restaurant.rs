use crate::common::{done, Done, Oops};
use contract_runtime::prelude::*;

// @gt A: type doc
/// Where the party would like to sit.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Seating {
    // @gt A: variant doc
    /// In the dining room.
    Indoor,
    // @gt A: variant doc
    /// Outside, weather permitting.
    Terrace,
    // @gt A: variant doc
    /// At the bar counter.
    Bar,
}

// @gt A: type doc
/// An allergen the kitchen can leave out.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Allergen {
    Gluten,
    Nuts,
    Dairy,
    Egg,
    Shellfish,
    Soy,
}

// @gt A: type doc
/// A course of the menu.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Course {
    Starter,
    Main,
    Dessert,
    Drinks,
}

// @gt A: struct doc
/// One line of an order.
#[derive(ToolArgs)]
pub struct OrderLine {
    // @gt A: three capitals and two digits, same as pattern
    /// Menu code, three capital letters and two digits, like PIZ04.
    #[arg(pattern = "^[A-Z]{3}[0-9]{2}$")]
    pub menu_code: String,
    // @gt C: says at most 10, declared max 20
    /// How many; at most 10 of one dish.
    #[arg(range(min = 1, max = 20))]
    pub quantity: u8,
    // @gt A: example, no constraint
    /// Kitchen notes, e.g. "no onions".
    #[arg(length(max = 140))]
    pub notes: Option<String>,
}

// @gt C: says parties of up to 10, party_size declares max 12
/// Find free tables at one of our restaurants for parties of up to 10 guests.
#[tool_contract(effect = read_only, authority = "bookings:read")]
pub fn find_tables(
    // @gt A: letter r and four digits, same as pattern
    /// Restaurant code: the letter r and four digits (r0042).
    #[arg(pattern = "^r[0-9]{4}$")]
    restaurant_id: String,
    // @gt A: 1 to 12 as declared
    /// Number of guests, 1 to 12.
    #[arg(range(min = 1, max = 12))]
    party_size: u8,
    // @gt A: no constraint stated (served range is declared)
    /// Day of the visit.
    #[arg(served(range(min = "2025-01-01", max = "2026-12-31")))]
    date: chrono::NaiveDate,
    // @gt B: 11:30 to 22:00 window not declared
    /// Preferred seating time, HH:MM:SS, between 11:30 and 22:00.
    time: chrono::NaiveTime,
    // @gt A: the full list of the enum
    /// Indoor, terrace or bar.
    seating: Option<Seating>,
) -> Result<Done, Oops> {
    let _ = (restaurant_id, party_size, date, time, seating);
    done()
}

// @gt B: deposit above 8 and at most 60 days ahead not declared
/// Book a table. Parties larger than 8 need a deposit, and a booking can be
/// made at most 60 days ahead.
#[tool_contract(effect = reversible, idempotency = key(booking_key), authority = "bookings:write")]
pub fn book_table(
    // @gt A: same as pattern
    /// Restaurant code: the letter r and four digits (r0042).
    #[arg(pattern = "^r[0-9]{4}$")]
    restaurant_id: String,
    // @gt C: says at most 12, declared max 20
    /// Guests in the party (at most 12).
    #[arg(range(min = 1, max = 20))]
    party_size: u8,
    // @gt A: date-time as the type
    /// Start of the booking, an RFC 3339 date-time in UTC.
    starts_at: chrono::DateTime<chrono::Utc>,
    // @gt C: says up to 60, declared max 80
    /// Name the booking is under, up to 60 characters.
    #[arg(length(min = 1, max = 80))]
    guest_name: String,
    // @gt A: E.164 example, same as pattern
    /// Contact phone in E.164 form, e.g. +441632960961.
    #[arg(pattern = r"^\+[1-9][0-9]{6,14}$")]
    phone: String,
    // @gt A: uuid
    /// UUID for retrying this booking safely.
    #[arg(format = "uuid")]
    booking_key: String,
) -> Result<Done, Oops> {
    let _ = (restaurant_id, party_size, starts_at, guest_name, phone, booking_key);
    done()
}

// @gt A: consequence, not a constraint on arguments
/// Cancel a booking. Cancelling less than 2 hours before the start forfeits
/// the deposit.
#[tool_contract(
    effect = destructive,
    idempotency = natural,
    approval = always,
    authority = "bookings:write"
)]
pub fn cancel_booking(
    // @gt A: BK + 6 digits as pattern
    /// Booking reference, BK plus 6 digits.
    #[arg(pattern = "^BK[0-9]{6}$")]
    booking_ref: String,
    // @gt A: flag
    /// Whether to text the guest about the cancellation.
    notify_guest: bool,
) -> Result<Done, Oops> {
    let _ = (booking_ref, notify_guest);
    done()
}

// @gt A: plain description
/// Send an order to the kitchen for a seated table.
#[tool_contract(
    effect = external,
    idempotency = key(order_key),
    approval = never,
    authority = "orders:write"
)]
pub fn place_order(
    // @gt A: 1-60 as declared
    /// Table number on the floor plan (1-60).
    #[arg(range(min = 1, max = 60))]
    table_number: u16,
    // @gt C: says up to 40 lines, declared max 30
    /// Dishes and drinks; up to 40 lines per order.
    #[arg(length(min = 1, max = 30))]
    items: Vec<OrderLine>,
    // @gt C: list lacks soy, which the enum has
    /// Allergens the kitchen must avoid: gluten, nuts, dairy, egg, shellfish.
    #[arg(unique)]
    allergens: Vec<Allergen>,
    // @gt A: uuid
    /// A new UUID per order; resend the same one only when retrying.
    #[arg(format = "uuid")]
    order_key: String,
) -> Result<Done, Oops> {
    let _ = (table_number, items, allergens, order_key);
    done()
}

// @gt A: plain description
/// Show the current menu of a restaurant, with prices.
#[tool_contract(effect = read_only, authority = "menu:read")]
pub fn get_menu(
    // @gt A: same as pattern
    /// Restaurant code, like r0042.
    #[arg(pattern = "^r[0-9]{4}$")]
    restaurant_id: String,
    // @gt A: two-letter code, same as pattern
    /// Menu language as a two-letter ISO 639-1 code, e.g. `de`.
    #[arg(pattern = "^[a-z]{2}$")]
    language: Option<String>,
    // @gt A: no constraint
    /// Only this course.
    course: Option<Course>,
    // @gt A: flag
    /// Only vegetarian dishes.
    vegetarian_only: bool,
    // @gt B: closed list EUR/GBP/USD not declared (only 3 capitals)
    /// Price currency as an ISO 4217 code: EUR, GBP or USD.
    #[arg(pattern = "^[A-Z]{3}$")]
    currency: Option<String>,
) -> Result<Done, Oops> {
    let _ = (restaurant_id, language, course, vegetarian_only, currency);
    done()
}

// @gt B: a check can be split only once (world rule)
/// Split an open check into equal parts. A check can be split only once.
#[tool_contract(effect = reversible, idempotency = natural, authority = "checks:write")]
pub fn split_bill(
    // @gt A: no constraint stated
    /// The open check.
    #[arg(pattern = "^chk_[0-9]{6}$")]
    check_id: String,
    // @gt C: says 2 to 10, declared max 12
    /// How many equal parts, 2 to 10.
    #[arg(range(min = 2, max = 12))]
    ways: u8,
    // @gt A: 0 to 30 as declared
    /// Tip as a percentage of the subtotal, 0 to 30.
    #[arg(range(min = 0.0, max = 30.0))]
    tip_percent: f32,
) -> Result<Done, Oops> {
    let _ = (check_id, ways, tip_percent);
    done()
}

// @gt B: one review per booking (world rule)
/// Publish a review of a past visit. Only one review per booking; reviews are public.
#[tool_contract(
    effect = external,
    idempotency = key(review_key),
    approval = never,
    authority = "reviews:write"
)]
pub fn leave_review(
    // @gt A: same as pattern
    /// Booking reference of the visit, BK plus 6 digits.
    #[arg(pattern = "^BK[0-9]{6}$")]
    booking_ref: String,
    // @gt A: 1 to 5 as declared
    /// Rating from 1 to 5 stars.
    #[arg(range(min = 1, max = 5))]
    stars: u8,
    // @gt C: says no more than 1500, declared max 2000
    /// The review, at least 20 characters and no more than 1500.
    #[arg(length(min = 20, max = 2000))]
    text: String,
    // @gt A: uuid
    /// UUID for this review, for safe retries.
    #[arg(format = "uuid")]
    review_key: String,
) -> Result<Done, Oops> {
    let _ = (booking_ref, stars, text, review_key);
    done()
}
