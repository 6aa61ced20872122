use contract_runtime::prelude::*;

/// Cabin class.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Cabin { /** Economy. */ Economy, /** Premium economy. */ PremiumEconomy, /** Business. */ Business, /** First. */ First }

/// Room type.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum RoomType { /** Single. */ Single, /** Double. */ Double, /** Twin. */ Twin, /** Suite. */ Suite }

/// Specialty.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "kebab-case")]
pub enum Specialty { /** GP. */ GeneralPractice, /** Skin. */ Dermatology, /** Heart. */ Cardiology, /** Children. */ Pediatrics, /** Physio. */ Physiotherapy }

/// Cancellation reason.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum CancelReason { /** Patient asked. */ PatientRequest, /** Clinician away. */ ClinicianUnavailable, /** Duplicate. */ Duplicate, /** Other. */ Other }

/// Lock action.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum LockAction { /** Lock. */ Lock, /** Unlock. */ Unlock }

/// Day of week.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Weekday { /** Monday. */ Mon, /** Tuesday. */ Tue, /** Wednesday. */ Wed, /** Thursday. */ Thu, /** Friday. */ Fri, /** Saturday. */ Sat, /** Sunday. */ Sun }

/// Sensor metric.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Metric { /** Temperature. */ Temperature, /** Humidity. */ Humidity, /** CO2. */ Co2, /** Motion. */ Motion }

/// Alarm mode.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum ArmMode { /** Away. */ Away, /** Stay. */ Stay, /** Disarmed. */ Disarmed }

/// Language.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Lang { /** English. */ En, /** German. */ De, /** French. */ Fr, /** Spanish. */ Es, /** Japanese. */ Ja }

/// Summary style.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum SummaryStyle { /** Bullets. */ Bullets, /** Paragraph. */ Paragraph, /** Very short. */ Tldr }

/// Share permission.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Permission { /** View. */ View, /** Comment. */ Comment, /** Edit. */ Edit }

/// Currency.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "UPPERCASE")]
pub enum Currency { /** Euro. */ Eur, /** US dollar. */ Usd, /** Pound. */ Gbp, /** Swiss franc. */ Chf }

/// Refund reason.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum RefundReason { /** Duplicate. */ Duplicate, /** Fraud. */ Fraudulent, /** Customer asked. */ RequestedByCustomer }

/// The outcome of a tool.
#[derive(serde::Serialize, JsonSchema)]
pub struct Done {
    /// Whether the tool did its work.
    pub ok: bool,
}

/// Why a tool could not run.
#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// The backend is unavailable; try again shortly.
    #[failure(code = "backend-unavailable", transient)]
    Unavailable,
}
