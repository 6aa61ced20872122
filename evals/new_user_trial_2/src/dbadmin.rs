#![allow(unused)]
use crate::common::{Done, Oops};
use contract_runtime::prelude::*;

/// A table privilege.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Privilege {
    /// Read rows.
    Select,
    /// Add rows.
    Insert,
    /// Change rows.
    Update,
    /// Remove rows.
    Delete,
}

// GT-TOOL: A
/// Run a read-only SQL query against a database and return the rows.
#[tool_contract(effect = read_only, authority = "db:read")]
pub fn run_query(
    // GT: A
    /// Database name: starts with a lowercase letter, then up to 62 lowercase letters, digits or underscores.
    #[arg(pattern = "^[a-z][a-z0-9_]{0,62}$")]
    database: String,
    // GT: B: SELECT statements only (not declared; the length matches)
    /// A single read-only SQL statement (SELECT only), up to 10,000 characters.
    #[arg(length(min = 1, max = 10000))]
    sql: String,
    // GT: B: maxItems 100 (not declared)
    /// Positional parameters bound to $1, $2, ...; at most 100.
    params: Vec<String>,
    // GT: A
    /// Statement timeout in milliseconds, between 100 ms and 30 seconds.
    #[arg(range(min = 100, max = 30000))]
    timeout_ms: Option<u32>,
    // GT: C: prose at most 1,000 rows vs declared range max 10000
    /// Row limit; at most 1,000 rows.
    #[arg(prose = "trial: a compile error of the first build", range(min = 1, max = 10000))]
    max_rows: Option<u32>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Take a full backup of a database now.
#[tool_contract(effect = reversible, idempotency = natural, authority = "db:backup")]
pub fn create_backup(
    // GT: A
    /// A label for the backup: lowercase letters, digits and dashes, 1 to 40 characters.
    #[arg(pattern = "^[a-z0-9-]{1,40}$")]
    label: Option<String>,
    // GT: A
    /// How many days to keep the backup, up to one year (365 days).
    #[arg(range(min = 1, max = 365))]
    retention_days: u32,
    // GT: B: range 1..=19 (not declared)
    /// zstd compression level, 1 to 19.
    compression_level: Option<u8>,
    // GT: B: maxItems 5, each maxLength 20 (not declared)
    /// Up to 5 tags, each at most 20 characters.
    tags: Vec<String>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Overwrite a database with the contents of a backup. Everything written since is lost.
#[tool_contract(effect = destructive, idempotency = natural, approval = always, authority = "db:admin")]
pub fn restore_backup(
    // GT: A
    /// The backup to restore, `bkp_` followed by a 14-digit timestamp.
    #[arg(pattern = "^bkp_[0-9]{14}$")]
    backup_id: String,
    // GT: B: within the last 7 days (not declared)
    /// Restore to this instant (RFC 3339); must lie within the last 7 days.
    point_in_time: Option<chrono::DateTime<chrono::Utc>>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: B: tables over 1 million rows in `public` cannot be dropped (not declared)
/// Drop a table and all its data. Tables in the `public` schema that hold more
/// than 1 million rows cannot be dropped this way.
#[tool_contract(effect = destructive, idempotency = natural, approval = always, authority = "db:admin")]
pub fn drop_table(
    // GT: A
    /// Table name, at most 63 characters: lowercase letters, digits and underscores, not starting with a digit.
    #[arg(pattern = "^[a-z_][a-z0-9_]{0,62}$")]
    table: String,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Resize a database instance. The instance restarts, with about a minute of downtime.
#[tool_contract(effect = reversible, idempotency = natural, authority = "db:admin")]
pub fn scale_instance(
    // GT: A
    /// The instance, such as `db-7h3k9x2a`.
    #[arg(pattern = "^db-[a-z0-9]{8}$")]
    instance_id: String,
    // GT: B: values limited to {2, 4, 8, 16, 32, 64} (declared range 2..=64 admits others)
    /// Number of vCPUs: 2, 4, 8, 16, 32 or 64.
    #[arg(range(min = 2, max = 64))]
    vcpus: u32,
    // GT: A
    /// Storage in GiB, from 20 GiB to 16 TiB.
    #[arg(range(min = 20, max = 16384))]
    storage_gb: u32,
    // GT: C: prose up to 512 GiB (524288 MiB) vs declared range max 262144 MiB (256 GiB)
    /// Memory in MiB, between 1 GiB and 512 GiB.
    #[arg(range(min = 1024, max = 262144))]
    memory_mb: u32,
    // GT: C: prose a percentage 0-100 vs declared range 0.0..=1.0
    /// CPU utilisation that raises an alert, as a percentage (0-100).
    #[arg(prose = "trial: a compile error of the first build", range(min = 0.0, max = 1.0))]
    cpu_alert_percent: Option<f64>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Grant a role privileges on every table of a database.
#[tool_contract(effect = reversible, idempotency = natural, authority = "db:admin")]
pub fn grant_access(
    // GT: A
    /// Role name, 3 to 32 characters.
    #[arg(pattern = "^[a-z][a-z0-9_]{2,31}$")]
    role: String,
    // GT: A
    /// Privileges to grant, any of select, insert, update, delete.
    #[arg(length(min = 1), unique)]
    privileges: Vec<Privilege>,
    // GT: A
    /// Date the grant lapses; no later than 2030-12-31.
    #[arg(range(min = "2024-01-01", max = "2030-12-31"))]
    expires_on: Option<chrono::NaiveDate>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// List the slowest recent queries of a database.
#[tool_contract(effect = read_only, authority = "db:read")]
pub fn list_slow_queries(
    // GT: A
    /// Only queries slower than this, in milliseconds; at least 10 ms.
    #[arg(range(min = 10))]
    min_duration_ms: u32,
    // GT: C: prose at most 48 hours vs declared range max 72
    /// Look back this many hours, at most 48.
    #[arg(prose = "trial: a compile error of the first build", range(min = 1, max = 72))]
    since_hours: Option<u32>,
    // GT: A
    /// How many queries to return; defaults to 25.
    #[arg(range(min = 1, max = 100))]
    top: Option<u8>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}
