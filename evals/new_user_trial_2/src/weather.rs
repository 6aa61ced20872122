#![allow(unused)]
use crate::common::{Done, Oops};
use contract_runtime::prelude::*;

/// Unit system of a weather response.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Units {
    /// Celsius, metres per second.
    Metric,
    /// Fahrenheit, miles per hour.
    Imperial,
    /// Kelvin, metres per second.
    Standard,
}

/// How to travel along a route.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum TravelMode {
    /// By car.
    Driving,
    /// On foot.
    Walking,
    /// By bicycle.
    Cycling,
    /// By public transport.
    Transit,
}

// GT-TOOL: A
/// Current conditions (temperature, wind, precipitation) at a point.
#[tool_contract(effect = read_only, authority = "weather:read")]
pub fn current_weather(
    // GT: A
    /// Latitude in decimal degrees, from -90 to 90.
    #[arg(range(min = -90.0, max = 90.0))]
    lat: f64,
    // GT: A
    /// Longitude in decimal degrees, between -180 and 180.
    #[arg(range(min = -180.0, max = 180.0))]
    lon: f64,
    // GT: A
    /// Unit system for the response: metric, imperial or standard (Kelvin). Defaults to metric.
    units: Option<Units>,
    // GT: A
    /// Two-letter language code for the condition text, like `en` or `fr`.
    #[arg(pattern = "^[a-z]{2}$")]
    lang: Option<String>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Daily forecast for a location found with `geocode`.
#[tool_contract(effect = read_only, authority = "weather:read")]
pub fn forecast(
    // GT: A
    /// The location, as returned by `geocode` (starts with `loc_`).
    #[arg(pattern = "^loc_[0-9]+$")]
    location_id: String,
    // GT: C: prose 1 to 10 vs declared range max 16
    /// Number of forecast days, 1 to 10.
    #[arg(prose = "trial: a compile error of the first build", range(min = 1, max = 16))]
    days: u8,
    // GT: B: closed set {gfs, ecmwf, icon} (not declared)
    /// Forecast model to use: gfs, ecmwf or icon.
    model: Option<String>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Daily observed weather for a past period at one location.
#[tool_contract(effect = read_only, authority = "weather:read", rules(le(start, end)))]
pub fn historical_weather(
    // GT: A
    /// First day of the period; records start on 1979-01-01.
    #[arg(range(min = "1979-01-01"))]
    start: chrono::NaiveDate,
    // GT: B: max_span(start, end, 31 days) not declared
    /// Last day of the period, inclusive. The period may be at most 31 days long.
    #[arg(range(min = "1979-01-01"))]
    end: chrono::NaiveDate,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Turn an address or place name into candidate locations with coordinates.
#[tool_contract(effect = read_only, authority = "maps:read")]
pub fn geocode(
    // GT: A
    /// Free-form address or place name, 3 to 256 characters.
    #[arg(length(min = 3, max = 256))]
    address: String,
    // GT: B: ISO alpha-2 code (pattern ^[A-Z]{2}$ / length 2) not declared
    /// Restrict results to this country, given as an ISO 3166 alpha-2 code.
    country_hint: Option<String>,
    // GT: C: prose up to 5 vs declared range max 10
    /// How many candidates to return, up to 5.
    #[arg(prose = "trial: a compile error of the first build", range(min = 1, max = 10))]
    max_results: Option<u32>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Compute a route through the given stops, with distance and travel time.
#[tool_contract(effect = read_only, authority = "maps:read")]
pub fn route(
    // GT: A
    /// Stops in visiting order, each as `lat,lon`; at least 2 and at most 25.
    #[arg(length(min = 2, max = 25))]
    waypoints: Vec<String>,
    // GT: A
    /// How to travel: driving, walking, cycling or transit.
    mode: TravelMode,
    // GT: B: each item one of {tolls, highways, ferries} (not declared)
    /// Features to avoid; any of tolls, highways, ferries.
    avoid: Vec<String>,
    // GT: A
    /// Departure time as an RFC 3339 timestamp with offset; defaults to now.
    depart_at: Option<chrono::DateTime<chrono::Utc>>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Find places of a category around a point.
#[tool_contract(effect = read_only, authority = "maps:read")]
pub fn nearby_places(
    // GT: A
    /// Latitude of the search centre.
    #[arg(range(min = -90.0, max = 90.0))]
    lat: f64,
    // GT: A
    /// Longitude of the search centre.
    #[arg(range(min = -180.0, max = 180.0))]
    lon: f64,
    // GT: A
    /// Search radius in metres; at most 50 km.
    #[arg(range(min = 1, max = 50000))]
    radius_m: u32,
    // GT: A
    /// Place category such as `cafe`, `pharmacy` or `fuel`.
    category: Option<String>,
    // GT: B: range 1..=5 (not declared)
    /// Only places rated at least this, on a scale of 1 to 5 stars.
    min_rating: Option<f32>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Email the user when the temperature at a location crosses a threshold.
#[tool_contract(effect = reversible, idempotency = natural, authority = "weather:alerts")]
pub fn set_weather_alert(
    // GT: C: prose -50..50 vs declared range -60..60
    /// Temperature that triggers the alert, in degrees Celsius, between -50 and 50.
    #[arg(prose = "trial: a compile error of the first build", range(min = -60.0, max = 60.0))]
    threshold_c: f64,
    // GT: A
    /// Where to send the alert; an email address.
    #[arg(format = "email")]
    email: String,
    // GT: A
    /// How long the alert stays active, in hours; at most one week.
    #[arg(range(min = 1, max = 168))]
    expires_in_hours: u32,
) -> Result<Done, Oops> {
    Ok(Done::default())
}
