use crate::common::{done, Done, Oops};
use contract_runtime::prelude::*;

// @gt A: a kind of event; no constraint
/// A kind of event.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Genre {
    // @gt A: variant doc
    /// Live music.
    Concert,
    // @gt A: variant doc
    /// Plays and musicals.
    Theatre,
    // @gt A: variant doc
    /// Matches and races.
    Sport,
    // @gt A: variant doc
    /// Stand-up and sketch shows.
    Comedy,
    // @gt A: variant doc
    /// Shows for all ages.
    Family,
}

// @gt A: closed set type doc, no constraint
/// Currency of a payment.
#[derive(ToolArgs)]
#[serde(rename_all = "UPPERCASE")]
pub enum Currency {
    // @gt A: variant doc
    /// Euro.
    Eur,
    // @gt A: variant doc
    /// US dollar.
    Usd,
    // @gt A: variant doc
    /// Pound sterling.
    Gbp,
}

// @gt A: reason set type doc
/// Why an order is refunded.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum RefundReason {
    // @gt A: variant doc
    /// The organiser cancelled the event.
    EventCancelled,
    // @gt A: variant doc
    /// The customer was charged twice.
    Duplicate,
    // @gt A: variant doc
    /// The customer asked for it.
    CustomerRequest,
}

// @gt A: struct doc, no constraint
/// How the customer pays.
#[derive(ToolArgs)]
pub struct PaymentMethod {
    // @gt A: prefix and 24 chars, same as pattern
    /// Tokenized card, `tok_` and 24 letters or digits.
    #[arg(pattern = "^tok_[A-Za-z0-9]{24}$")]
    pub card_token: String,
    // @gt C: prose lists CHF, which the enum does not have
    /// Currency: EUR, USD, GBP or CHF.
    pub currency: Currency,
}

// @gt A: plain description
/// List upcoming events at one venue, soonest first.
#[tool_contract(effect = read_only, authority = "events:read")]
pub fn list_events(
    // @gt A: prefix + 8 digits, same as pattern
    /// Venue id, `ven_` followed by 8 digits.
    #[arg(pattern = "^ven_[0-9]{8}$")]
    venue_id: String,
    // @gt A: same bounds as range
    /// How many events to return, between 1 and 50.
    #[arg(range(min = 1, max = 50))]
    limit: u32,
    // @gt A: date layout matches the date type
    /// Only events on or after this date (YYYY-MM-DD).
    from: Option<chrono::NaiveDate>,
    // @gt B: upper date bound 2027-12-31 not declared
    /// Only events on or before this date; nothing after 2027-12-31 is on sale yet.
    to: Option<chrono::NaiveDate>,
) -> Result<Done, Oops> {
    let _ = (venue_id, limit, from, to);
    done()
}

// @gt A: plain description
/// Fetch one event with its price tiers and remaining capacity.
#[tool_contract(effect = read_only, authority = "events:read")]
pub fn get_event(
    // @gt C: says 10 characters after prefix, pattern says 12
    /// Event id: `evt_` plus 10 lowercase letters or digits.
    #[arg(pattern = "^evt_[a-z0-9]{12}$")]
    event_id: String,
    // @gt A: flag, no constraint
    /// Also return price tiers that are sold out.
    include_sold_out: bool,
) -> Result<Done, Oops> {
    let _ = (event_id, include_sold_out);
    done()
}

// @gt B: world rules (10 minute hold, at most 8 seats per customer per event)
/// Hold seats for a customer while they pay. A hold lasts 10 minutes, and a
/// customer may hold at most 8 seats per event.
#[tool_contract(effect = reversible, idempotency = key(hold_key), authority = "tickets:write")]
pub fn hold_seats(
    // @gt A: same prefix/length as pattern
    /// The event, `evt_` plus 12 lowercase letters or digits.
    #[arg(pattern = "^evt_[a-z0-9]{12}$")]
    event_id: String,
    // @gt C: says one to ten seats, declared max 8
    /// Seat labels such as `B-12` or `AA-7`; one to ten seats.
    #[arg(length(min = 1, max = 8), unique, each(pattern = "^[A-Z]{1,2}-[0-9]{1,3}$"))]
    seats: Vec<String>,
    // @gt A: uuid as declared
    /// A fresh UUID for this hold; reuse it only to retry the same hold.
    #[arg(format = "uuid")]
    hold_key: String,
) -> Result<Done, Oops> {
    let _ = (event_id, seats, hold_key);
    done()
}

// @gt A: plain description
/// Pay for held seats and issue the tickets by email.
#[tool_contract(
    effect = external,
    idempotency = key(order_key),
    approval = never,
    authority = "tickets:write"
)]
pub fn purchase_tickets(
    // @gt A: prefix and 16 hex as declared
    /// The hold to pay for, as returned by `hold_seats` (`hold_` and 16 hex digits).
    #[arg(pattern = "^hold_[0-9a-f]{16}$")]
    hold_id: String,
    // @gt A: nested struct, no constraint
    /// Card and currency to charge.
    payment: PaymentMethod,
    // @gt B: must equal the hold's total (world rule), not declared
    /// Total to charge in cents; must match the hold's total exactly.
    #[arg(range(min = 1))]
    amount_cents: u64,
    // @gt A: email as declared
    /// Email address the tickets are sent to.
    #[arg(format = "email")]
    buyer_email: String,
    // @gt A: uuid
    /// UUID identifying this purchase, for safe retries.
    #[arg(format = "uuid")]
    order_key: String,
) -> Result<Done, Oops> {
    let _ = (hold_id, payment, amount_cents, buyer_email, order_key);
    done()
}

// @gt B: at most two transfers per ticket (world rule)
/// Transfer a ticket to another person. A ticket can be transferred at most twice.
#[tool_contract(
    effect = external,
    idempotency = natural,
    approval = always,
    authority = "tickets:write"
)]
pub fn transfer_ticket(
    // @gt A: example matches the pattern
    /// Ticket number, e.g. tkt_0123456789.
    #[arg(pattern = "^tkt_[0-9]{10}$")]
    ticket_id: String,
    // @gt B: max 254 characters not declared
    /// The new holder's email address (max 254 characters).
    #[arg(format = "email")]
    recipient_email: String,
    // @gt C: says 500, declared max 280
    /// Optional message to the recipient, up to 500 characters.
    #[arg(prose = "trial: compile error recorded", length(max = 280))]
    note: Option<String>,
) -> Result<Done, Oops> {
    let _ = (ticket_id, recipient_email, note);
    done()
}

// @gt B: refunds only until 48 hours before the event (world rule)
/// Refund an order in full or in part. Refunds are possible only until 48
/// hours before the event starts.
#[tool_contract(
    effect = destructive,
    idempotency = natural,
    approval = always,
    authority = "tickets:refund"
)]
pub fn refund_order(
    // @gt A: example matches pattern
    /// The order, like ord_00012345.
    #[arg(pattern = "^ord_[0-9]{8}$")]
    order_id: String,
    // @gt C: lists two reasons, enum has three (customer_request missing)
    /// Why: `event_cancelled` or `duplicate`.
    #[arg(prose = "trial: compile error recorded")]
    reason: RefundReason,
    // @gt A: no constraint beyond min 1
    /// Partial refund in cents; leave it out to refund everything.
    #[arg(range(min = 1))]
    amount_cents: Option<u64>,
) -> Result<Done, Oops> {
    let _ = (order_id, reason, amount_cents);
    done()
}

// @gt A: plain description
/// Search all events by name, performer, city and genre.
#[tool_contract(effect = read_only, authority = "events:read")]
pub fn search_events(
    // @gt C: says 3 to 100, declared min 2
    /// Words from the event's name or performer, 3 to 100 characters.
    #[arg(prose = "trial: compile error recorded", length(min = 2, max = 100))]
    query: String,
    // @gt A: no constraint
    /// City name, e.g. Lyon.
    #[arg(length(max = 60))]
    city: Option<String>,
    // @gt A: up to 5 as declared
    /// Genres to include; up to 5.
    #[arg(length(max = 5), unique)]
    genres: Vec<Genre>,
    // @gt C: says at most 50000, declared max 100000
    /// Highest ticket price in cents, at most 50000.
    #[arg(prose = "trial: compile error recorded", range(max = 100000))]
    max_price_cents: Option<u32>,
    // @gt B: at most 20 pages not declared
    /// Page number, starting at 1; the search serves at most 20 pages.
    #[arg(range(min = 1))]
    page: u32,
) -> Result<Done, Oops> {
    let _ = (query, city, genres, max_price_cents, page);
    done()
}
