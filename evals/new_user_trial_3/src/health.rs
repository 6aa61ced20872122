#![allow(unused_variables)]
use contract_runtime::prelude::*;
use crate::common::*;

/// List open appointment slots for a specialty at one clinic. Slots are 15 minutes long unless a duration is given.
#[tool_contract(effect = read_only, authority = "appointments:read")]
pub fn find_available_slots(
    /// Medical specialty: general-practice, dermatology, cardiology, pediatrics or physiotherapy.
    specialty: Specialty,
    /// First day to search.
    from_date: chrono::NaiveDate,
    /// How many days from from_date to look ahead; 1 to 90, default 14.
    #[arg(range(min = 1, max = 60))]
    days_ahead: Option<u8>,
    /// Appointment length in minutes, between 10 minutes and 2 hours.
    #[arg(range(min = 10, max = 120))]
    duration_minutes: Option<u16>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Book a slot for a registered patient. A patient may hold at most three future appointments.
#[tool_contract(effect = reversible, idempotency = key(request_key), authority = "appointments:write")]
pub fn book_appointment(
    /// Patient number: PAT followed by seven digits.
    #[arg(pattern = "^PAT[0-9]{7}$")]
    patient_id: String,
    /// The slot to book, as returned by find_available_slots.
    #[arg(pattern = "^slot_[a-z0-9]{12}$")]
    slot_id: String,
    /// Short reason for the visit in the patient's words, 3 to 500 characters.
    #[arg(length(min = 3, max = 500))]
    visit_reason: String,
    /// If an interpreter is needed, the language as a BCP 47 tag such as es or pt-BR.
    interpreter_language: Option<String>,
    /// Client-generated UUID so a retried request books only once.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Move an existing appointment to another free slot with the same clinician.
#[tool_contract(effect = reversible, idempotency = natural, authority = "appointments:write")]
pub fn reschedule_appointment(
    /// The appointment to move (apt_ followed by 10 hex digits).
    #[arg(pattern = "^apt_[0-9a-f]{10}$")]
    appointment_id: String,
    /// The new slot; it must be at least 24 hours from now.
    #[arg(pattern = "^slot_[a-z0-9]{12}$")]
    new_slot_id: String,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Cancel an appointment and free its slot. The patient is notified by text message.
#[tool_contract(effect = destructive, idempotency = natural, approval = always, authority = "appointments:write")]
pub fn cancel_appointment(
    /// The appointment to cancel; an id like apt_ followed by 12 hexadecimal characters.
    #[arg(pattern = "^apt_[0-9a-f]{10}$")]
    appointment_id: String,
    /// Why it is cancelled: patient_request, clinician_unavailable, duplicate or other.
    cancellation_reason: CancelReason,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Record one set of vital signs in a patient's chart.
#[tool_contract(effect = reversible, idempotency = natural, authority = "charts:write")]
pub fn record_vitals(
    /// Patient number (PAT + 7 digits).
    #[arg(pattern = "^PAT[0-9]{7}$")]
    patient_id: String,
    /// Body temperature in degrees Celsius, from 30 to 45.
    #[arg(range(min = 30.0, max = 45.0))]
    body_temperature_c: f32,
    /// Systolic blood pressure in mmHg, 60–250.
    #[arg(range(min = 50, max = 250), prose = "trial: compile error recorded")]
    systolic_mmhg: u16,
    /// Oxygen saturation as a percentage; readings below 70% are rejected as sensor errors.
    #[arg(range(max = 100))]
    spo2_percent: Option<u8>,
    /// Weight in kilograms, up to 400 kg.
    #[arg(range(min = 0.5, max = 400.0))]
    weight_kg: Option<f32>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Send a refill of an existing prescription to the pharmacy. A clinician must approve every refill.
#[tool_contract(effect = external, idempotency = natural, approval = always, authority = "prescriptions:write")]
pub fn prescribe_refill(
    /// Prescription number, RX and nine digits.
    #[arg(pattern = "^RX[0-9]{9}$")]
    prescription_id: String,
    /// Supply to dispense, in days: one week to 90 days.
    #[arg(range(min = 7, max = 90))]
    quantity_days: u16,
    /// Optional note, at most 140 characters.
    note_to_pharmacist: Option<String>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Look up patients by surname and date of birth. Only patients of the caller's clinic are returned.
#[tool_contract(effect = read_only, authority = "patients:read")]
pub fn search_patients(
    /// Surname, at least two letters; matching ignores accents.
    #[arg(length(min = 2, max = 100))]
    family_name: String,
    /// Date of birth, YYYY-MM-DD, not before 1900 and not in the future.
    #[arg(range(min = "1900-01-01"))]
    date_of_birth: Option<chrono::NaiveDate>,
    /// Maximum number of patients to return, 1–50.
    #[arg(range(min = 1, max = 25), prose = "trial: compile error recorded")]
    limit: Option<u8>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}
