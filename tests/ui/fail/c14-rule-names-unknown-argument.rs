use contract_runtime::prelude::*;

#[derive(Debug, ToolFailure)]
pub enum Oops {
    #[failure(code = "oops")]
    Oops,
}

/// Lists the events of a calendar between two days.
#[tool_contract(
    effect = read_only,
    rules(exactly_one_of(calendar, calender_id), requires(page => per_pag), between(from, to))
)]
pub fn list_events(
    /// The calendar's name.
    calendar: Option<String>,
    /// The calendar's id.
    calendar_id: Option<String>,
    /// The page.
    page: Option<u32>,
    /// Events per page.
    per_page: Option<u32>,
) -> Result<u32, Oops> {
    let _ = (calendar, calendar_id, page, per_page);
    Ok(0)
}

fn main() {}
