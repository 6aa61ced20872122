use contract_runtime::prelude::*;

/// A period of days.
#[derive(ToolArgs)]
pub struct Period {
    /// First day.
    #[serde(rename = "startDate")]
    pub from: String,
    /// Last day.
    #[serde(alias = "endDate")]
    pub to: String,
}

/// A period, named in camel case.
#[derive(ToolArgs)]
#[serde(rename_all = "camelCase")]
pub struct Window {
    /// First day.
    pub start_date: String,
}

fn main() {}
