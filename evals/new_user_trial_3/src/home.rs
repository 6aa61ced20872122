#![allow(unused_variables)]
use contract_runtime::prelude::*;
use crate::common::*;

/// Set the target temperature of one thermostat.
#[tool_contract(effect = reversible, idempotency = natural, authority = "home:climate")]
pub fn set_thermostat(
    /// Thermostat id, e.g. thermo-012.
    #[arg(pattern = "^thermo-[0-9]{3}$")]
    device_id: String,
    /// Target temperature in °C, between 5 and 30 degrees.
    #[arg(range(min = 5.0, max = 30.0))]
    target_celsius: f32,
    /// How long to hold the setting, in hours; at most 3 days.
    #[arg(range(min = 1, max = 72))]
    hold_hours: Option<u8>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Change the brightness and colour temperature of one or more lights.
#[tool_contract(effect = reversible, idempotency = natural, authority = "home:lights")]
pub fn set_lights(
    /// Lights to change, 1 to 20 ids like light-a1b2.
    #[arg(length(min = 1, max = 20), each(pattern = "^light-[a-z0-9]{4}$"))]
    light_ids: Vec<String>,
    /// Brightness from 0 (off) to 100 percent.
    #[arg(range(max = 100))]
    brightness_percent: u8,
    /// White colour temperature in kelvin, 2200 K (warm) to 6500 K (cool).
    #[arg(range(min = 2700, max = 6500))]
    color_temperature_k: Option<u16>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Lock or unlock a door. Unlocking always needs the owner's approval.
#[tool_contract(effect = external, idempotency = natural, approval = always, authority = "home:locks")]
pub fn operate_lock(
    /// Door lock, such as lock-01.
    #[arg(pattern = "^lock-[0-9]{2}$")]
    lock_id: String,
    /// Either lock or unlock.
    action: LockAction,
    /// Seconds before the door locks itself again, 10 s to 5 minutes.
    #[arg(range(min = 10, max = 600))]
    auto_relock_seconds: Option<u16>,
    /// Keypad PIN, 4 to 8 digits.
    #[arg(pattern = "^[0-9]{4,8}$", secret)]
    pin: Option<String>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Create a rule that runs a scene at a time of day. A home can have at most 100 automations.
#[tool_contract(effect = reversible, idempotency = natural, authority = "home:automations")]
pub fn create_automation(
    /// Human-readable name of the automation, up to 60 characters; must be unique within the home.
    #[arg(length(min = 1, max = 60))]
    name: String,
    /// Scene to run (scn_ plus six digits).
    #[arg(pattern = "^scn_[0-9]{6}$")]
    scene_id: String,
    /// Local time of day, HH:MM:SS, 24-hour clock.
    run_at: chrono::NaiveTime,
    /// Days on which it runs, each at most once: mon, tue, wed, thu, fri, sat, sun.
    #[arg(length(min = 1, max = 7), unique)]
    weekdays: Vec<Weekday>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Return aggregated readings of one sensor over a recent window.
#[tool_contract(effect = read_only, authority = "home:sensors")]
pub fn read_sensor_history(
    /// Sensor id (sns- followed by 8 characters).
    #[arg(pattern = "^sns-[a-z0-9]{8}$")]
    sensor_id: String,
    /// Quantity to read: temperature, humidity, co2, motion or noise.
    metric: Metric,
    /// Window length in hours, up to one week.
    #[arg(range(min = 1, max = 168))]
    hours: u16,
    /// Bucket size in minutes; one of 1, 5, 15 or 60.
    resolution_minutes: Option<u16>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Arm or disarm the home alarm system.
#[tool_contract(effect = external, idempotency = natural, approval = always, authority = "home:alarm")]
pub fn set_alarm_system(
    /// away, stay or disarmed.
    arm_mode: ArmMode,
    /// Delay before arming, 0 to 180 seconds.
    #[arg(range(min = 0, max = 120), prose = "trial: compile error recorded")]
    exit_delay_seconds: Option<u8>,
    /// The user's 6-digit alarm code.
    #[arg(pattern = "^[0-9]{6}$", secret)]
    user_code: String,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Install a firmware version on a device. The device reboots and is offline for a few minutes.
#[tool_contract(effect = destructive, idempotency = natural, approval = always, authority = "home:admin")]
pub fn update_firmware(
    /// Device to update; ids are 3 to 40 characters long.
    device_id: String,
    /// Target version in semantic-version form, e.g. 2.14.3.
    #[arg(pattern = r"^[0-9]+\.[0-9]+\.[0-9]+$")]
    firmware_version: String,
    /// Do not install when the battery is below this level; must be at least 20%.
    #[arg(range(max = 100), prose = "trial: compile error recorded")]
    battery_min_percent: Option<u8>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}
