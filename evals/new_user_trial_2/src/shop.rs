#![allow(unused)]
use crate::common::{Done, Oops};
use contract_runtime::prelude::*;

/// Sort order of product search results.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum SortOrder {
    /// Best match first.
    Relevance,
    /// Cheapest first.
    PriceAsc,
    /// Most expensive first.
    PriceDesc,
    /// Most recently added first.
    Newest,
}

/// Why an order is refunded.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum RefundReason {
    /// Arrived damaged.
    Damaged,
    /// Never arrived.
    NotReceived,
    /// Not what was ordered.
    WrongItem,
    /// Any other reason.
    Other,
}

/// Status of an order.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum OrderStatus {
    /// Awaiting payment.
    Pending,
    /// Paid, not shipped.
    Paid,
    /// On its way.
    Shipped,
    /// Delivered.
    Delivered,
    /// Cancelled.
    Cancelled,
}

// GT-TOOL: A
/// Search the product catalog. Returns matching products with price and stock.
#[tool_contract(effect = read_only, authority = "catalog:read")]
pub fn search_products(
    // GT: A
    /// Search terms, up to 200 characters.
    #[arg(length(min = 1, max = 200))]
    query: String,
    // GT: A
    /// Restrict to a category (`cat_` followed by six lowercase letters or digits).
    #[arg(pattern = "^cat_[a-z0-9]{6}$")]
    category_id: Option<String>,
    // GT: A
    /// Lowest price, in cents.
    min_price_cents: Option<u64>,
    // GT: B: le(min_price_cents, max_price_cents) not declared
    /// Highest price, in cents; must not be lower than `min_price_cents`.
    max_price_cents: Option<u64>,
    // GT: A
    /// Sort order: relevance, price_asc, price_desc or newest.
    sort: Option<SortOrder>,
    // GT: A
    /// Results per page (at most 100).
    #[arg(range(min = 1, max = 100))]
    page_size: Option<u32>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Fetch one product with its variants, images and stock per warehouse.
#[tool_contract(effect = read_only, authority = "catalog:read")]
pub fn get_product(
    // GT: A
    /// Stock keeping unit, three capital letters, a dash and five digits (e.g. `TSH-00421`).
    #[arg(pattern = "^[A-Z]{3}-[0-9]{5}$")]
    sku: String,
    // GT: A
    /// Locale for names and descriptions, such as `en-US`.
    #[arg(pattern = "^[a-z]{2}-[A-Z]{2}$")]
    locale: Option<String>,
    // GT: B: three-letter code (pattern ^[A-Z]{3}$ / length 3) not declared
    /// Three-letter ISO 4217 currency code for prices, such as EUR.
    currency: Option<String>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Change a product's list price and the discount shown on its page.
#[tool_contract(effect = reversible, idempotency = natural, authority = "catalog:write")]
pub fn update_price(
    // GT: A
    /// The product whose price changes.
    #[arg(pattern = "^[A-Z]{3}-[0-9]{5}$")]
    sku: String,
    // GT: A
    /// New price in cents; must be positive and at most 100,000.00 in the store currency.
    #[arg(range(min = 1, max = 10000000))]
    price_cents: u64,
    // GT: A
    /// Discount to show, as a percentage from 0 to 90.
    #[arg(range(min = 0.0, max = 90.0))]
    discount_percent: Option<f64>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: B: orders over 5,000.00 need manager approval (not declared; approval = never)
/// Place an order for a customer and charge their default payment method.
/// Orders over 5,000.00 need manager approval.
#[tool_contract(effect = external, idempotency = key(idempotency_key), approval = never, authority = "orders:write")]
pub fn create_order(
    // GT: A
    /// The buyer, a `cus_` id.
    #[arg(pattern = "^cus_[A-Za-z0-9]{14}$")]
    customer_id: String,
    // GT: C: prose 1 to 100 entries vs declared length max 50
    /// SKUs to order, one entry per unit; between 1 and 100 entries.
    #[arg(prose = "trial: a compile error of the first build", length(min = 1, max = 50))]
    items: Vec<String>,
    // GT: C: prose three-letter code vs declared pattern ^[A-Z]{2}$
    /// Destination country as a three-letter ISO code.
    #[arg(pattern = "^[A-Z]{2}$")]
    shipping_country: String,
    // GT: B: 8 uppercase letters or digits (pattern/length 8 not declared)
    /// Coupon code; 8 uppercase letters or digits.
    coupon: Option<String>,
    // GT: A
    /// UUID that deduplicates retried orders.
    #[arg(format = "uuid")]
    idempotency_key: String,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: B: at most 3 refunds per order, within 90 days of delivery (not declared)
/// Refund all or part of an order to the original payment method. An order can
/// be refunded at most 3 times, and only within 90 days of delivery.
#[tool_contract(effect = external, idempotency = key(request_key), approval = always, authority = "orders:refund")]
pub fn refund_order(
    // GT: A
    /// The order to refund, `ord_` and ten digits.
    #[arg(pattern = "^ord_[0-9]{10}$")]
    order_id: String,
    // GT: A
    /// Amount to refund in cents; leave it out to refund the full amount.
    #[arg(range(min = 1))]
    amount_cents: Option<u64>,
    // GT: A
    /// Why: damaged, not_received, wrong_item or other.
    reason: RefundReason,
    // GT: A
    /// A UUID for this refund request.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// List orders, newest first.
#[tool_contract(effect = read_only, authority = "orders:read", rules(le(from, to)))]
pub fn list_orders(
    // GT: C: prose lists 4 statuses, declaration has 5 (cancelled missing from prose)
    /// Order status: pending, paid, shipped or delivered.
    #[arg(prose = "trial: a compile error of the first build")]
    status: Option<OrderStatus>,
    // GT: C: prose min 2020-01-01 vs declared min 2018-01-01
    /// Orders placed on or after this date, not earlier than 2020-01-01.
    #[arg(range(min = "2018-01-01"))]
    from: Option<chrono::NaiveDate>,
    // GT: A
    /// Orders placed on or before this date.
    to: Option<chrono::NaiveDate>,
    // GT: A
    /// Page size; 1-200.
    #[arg(range(min = 1, max = 200))]
    limit: Option<u32>,
    // GT: B: multiple of 100 (multipleOf not declared)
    /// Only orders of at least this total, in cents; must be a multiple of 100.
    min_total_cents: Option<u64>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Set the stock of a product in one warehouse.
#[tool_contract(effect = reversible, idempotency = natural, authority = "inventory:write")]
pub fn set_inventory(
    // GT: A
    /// Warehouse code such as WH01.
    #[arg(pattern = "^WH[0-9]{2}$")]
    warehouse: String,
    // GT: A
    /// Units on hand; cannot be negative.
    #[arg(range(min = 0))]
    quantity: i64,
    // GT: B: range 0..=10000 (not declared)
    /// Stock level that triggers a reorder, between 0 and 10000.
    reorder_level: Option<u32>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: B: each image JPEG or PNG no larger than 5 MB (not declared)
/// Attach images to a product. Each image must be a JPEG or PNG no larger than 5 MB.
#[tool_contract(effect = reversible, idempotency = natural, authority = "catalog:write")]
pub fn add_product_images(
    // GT: A
    /// Public URLs of the images, at most 8.
    #[arg(length(max = 8), each(format = "uri"))]
    image_urls: Vec<String>,
    // GT: A
    /// Alternative text for screen readers, at most 125 characters.
    #[arg(length(max = 125))]
    alt_text: Option<String>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}
