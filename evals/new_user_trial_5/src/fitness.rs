use crate::common::{done, Done, Oops};
use contract_runtime::prelude::*;

// @gt A: type doc
/// A type of workout.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum WorkoutKind {
    Run,
    Ride,
    Swim,
    Strength,
    Yoga,
}

// @gt A: type doc
/// A tracked metric.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    Steps,
    Distance,
    Calories,
    ActiveMinutes,
}

// @gt A: type doc
/// How often a goal resets.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum GoalPeriod {
    Daily,
    Weekly,
}

// @gt A: type doc
/// A kind of paired device.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum DeviceType {
    Watch,
    Band,
    Scale,
    ChestStrap,
}

// @gt A: plain description
/// Record a completed workout in the user's log.
#[tool_contract(effect = reversible, idempotency = key(entry_key), authority = "fitness:write")]
pub fn log_workout(
    // @gt A: no constraint
    /// Type of workout.
    kind: WorkoutKind,
    // @gt B: not more than 30 days ago, not declared
    /// When the workout began (RFC 3339, UTC); not more than 30 days ago.
    started_at: chrono::DateTime<chrono::Utc>,
    // @gt A: 10 hours = 600 minutes, same as declared max
    /// Length in minutes, at most 10 hours.
    #[arg(range(min = 1, max = 600))]
    duration_min: u16,
    // @gt A: unit only
    /// Distance covered in kilometres, if any.
    #[arg(range(min = 0.0, max = 500.0))]
    distance_km: Option<f32>,
    // @gt C: says 30-220, declared max 230
    /// Average heart rate in beats per minute (30-220).
    #[arg(prose = "trial: compile error recorded", range(min = 30, max = 230))]
    avg_heart_rate: Option<u16>,
    // @gt A: no constraint
    /// Free-text notes about how it went.
    #[arg(length(max = 1000))]
    notes: Option<String>,
    // @gt A: uuid
    /// A UUID for this entry; send the same one to retry.
    #[arg(format = "uuid")]
    entry_key: String,
) -> Result<Done, Oops> {
    let _ = (kind, started_at, duration_min, distance_km, avg_heart_rate, notes, entry_key);
    done()
}

// @gt A: plain description
/// Totals of the user's activity over a period, one value per metric.
#[tool_contract(
    effect = read_only,
    authority = "fitness:read",
    rules(le(from, to), max_span(from, to, 92 days))
)]
pub fn get_activity_summary(
    // @gt A: no constraint
    /// First day of the period.
    from: chrono::NaiveDate,
    // @gt C: says at most 31 days, declared max_span 92 days
    /// Last day of the period; the period may be at most 31 days long.
    to: chrono::NaiveDate,
    // @gt A: complete list of the enum's values
    /// Which totals to compute: steps, distance, calories, active_minutes.
    #[arg(length(min = 1), unique)]
    metrics: Vec<Metric>,
) -> Result<Done, Oops> {
    let _ = (from, to, metrics);
    done()
}

// @gt B: at most one goal per metric (world rule)
/// Set the user's goal for one metric. A user has at most one goal per metric;
/// setting a new one replaces the old.
#[tool_contract(effect = reversible, idempotency = natural, authority = "fitness:write")]
pub fn set_goal(
    // @gt A: no constraint
    /// The metric the goal is for.
    metric: Metric,
    // @gt A: examples, not limits
    /// The target, e.g. 10000 steps or 30 active minutes.
    #[arg(range(min = 1, max = 100000))]
    target: u32,
    // @gt A: complete list
    /// Whether the target is daily or weekly.
    period: GoalPeriod,
) -> Result<Done, Oops> {
    let _ = (metric, target, period);
    done()
}

// @gt A: plain description
/// Record a body-weight measurement.
#[tool_contract(effect = reversible, idempotency = key(entry_key), authority = "fitness:write")]
pub fn record_weight(
    // @gt A: 20 to 400 as declared
    /// Body weight in kilograms, 20 to 400.
    #[arg(range(min = 20.0, max = 400.0))]
    weight_kg: f32,
    // @gt B: not in the future, undeclared
    /// Day of the measurement; must not be in the future.
    measured_on: chrono::NaiveDate,
    // @gt C: says 2 to 60, declared 3 to 70
    /// Body fat percentage, between 2 and 60.
    #[arg(prose = "trial: compile error recorded", range(min = 3.0, max = 70.0))]
    body_fat_percent: Option<f32>,
    // @gt A: uuid
    /// UUID for this measurement, for safe retries.
    #[arg(format = "uuid")]
    entry_key: String,
) -> Result<Done, Oops> {
    let _ = (weight_kg, measured_on, body_fat_percent, entry_key);
    done()
}

// @gt B: at most 5 challenges at once (world rule)
/// Join a public challenge. A user can be in at most 5 challenges at once.
#[tool_contract(
    effect = external,
    idempotency = key(join_key),
    approval = never,
    authority = "challenges:write"
)]
pub fn join_challenge(
    // @gt A: same as pattern
    /// Challenge code as shown in the app: `CH-` and six capitals or digits.
    #[arg(pattern = "^CH-[A-Z0-9]{6}$")]
    challenge_code: String,
    // @gt C: says 3 to 24, declared max 30
    /// Team to join or create; 3 to 24 characters.
    #[arg(prose = "trial: compile error recorded", length(min = 3, max = 30))]
    team_name: Option<String>,
    // @gt B: character class not declared
    /// Name shown on the leaderboard; letters, digits and spaces only.
    #[arg(length(min = 1, max = 40))]
    display_name: String,
    // @gt A: uuid
    /// UUID of this join request.
    #[arg(format = "uuid")]
    join_key: String,
) -> Result<Done, Oops> {
    let _ = (challenge_code, team_name, display_name, join_key);
    done()
}

// @gt A: plain description
/// List the user's personal records, best first.
#[tool_contract(effect = read_only, authority = "fitness:read")]
pub fn list_personal_records(
    // @gt A: no constraint
    /// Only records of this workout type.
    kind: Option<WorkoutKind>,
    // @gt C: says 1 to 50, declared max 25
    /// Maximum number of records, 1 to 50; default 10.
    #[arg(prose = "trial: compile error recorded", range(min = 1, max = 25))]
    limit: u8,
    // @gt A: 2015 start, same as declared min
    /// Only records set on or after this date; the app started on 2015-01-01.
    #[arg(range(min = "2015-01-01"))]
    since: Option<chrono::NaiveDate>,
    // @gt B: closed set metric/imperial not declared
    /// Unit system for the values: metric or imperial.
    #[arg(length(min = 1, max = 10))]
    units: String,
) -> Result<Done, Oops> {
    let _ = (kind, limit, since, units);
    done()
}

// @gt B: vendor refuses syncs more often than every 15 minutes (world rule)
/// Pull new data from a paired device. The vendor rejects a sync more often
/// than once every 15 minutes.
#[tool_contract(
    effect = external,
    idempotency = natural,
    approval = never,
    authority = "devices:sync"
)]
pub fn sync_device(
    // @gt A: 12 capitals or digits as pattern
    /// The device's serial number, 12 capital letters or digits.
    #[arg(pattern = "^[A-Z0-9]{12}$")]
    device_serial: String,
    // @gt A: complete list of the enum
    /// Kind of device: watch, band, scale or chest_strap.
    device_type: DeviceType,
    // @gt A: flag
    /// Re-download all history instead of the last 30 days.
    full_resync: bool,
) -> Result<Done, Oops> {
    let _ = (device_serial, device_type, full_resync);
    done()
}
