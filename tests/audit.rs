//! `Registry::audit()`: what the macro lets compile but the reader still
//! finds (audit-level findings), each with its tool, argument, family,
//! phrase, help and level; acknowledgements carry their reason, and
//! `audit::assert_acknowledged` fails on the rest.

use contract_runtime::audit::{assert_acknowledged, Level};
use contract_runtime::prelude::*;
use serde::Serialize;

/// What the tool did.
#[derive(Serialize, JsonSchema)]
pub struct Done {
    /// Whether it did it.
    pub ok: bool,
}

/// Why the tool failed.
#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// It did not.
    #[failure(code = "oops")]
    Oops,
}

/// Show the weather of one year.
#[tool_contract(effect = read_only)]
pub fn yearly_weather(
    /// The year; at least 2001.
    year: u16,
    /// The station's page, a URL.
    #[arg(prose = "the page is shown to the user, never fetched")]
    page: String,
) -> Result<Done, Oops> {
    let _ = (year, page);
    Ok(Done { ok: true })
}

/// Refund an order. An order takes at most 3 refunds.
#[tool_contract(effect = read_only, prose = "a policy of the shop, enforced by the payment service")]
pub fn refund(
    /// The order to refund.
    order: String,
) -> Result<Done, Oops> {
    let _ = order;
    Ok(Done { ok: true })
}

fn registry(tools: Vec<contract_runtime::tool::Tool>) -> Registry {
    tools
        .into_iter()
        .fold(Registry::builder(), |b, t| b.tool(t))
        .build()
        .expect("a registry")
}

#[test]
fn the_audit_lists_each_finding_with_its_level_and_acknowledgement() {
    let found = registry(vec![yearly_weather::contract(), refund::contract()]).audit();
    let lines: Vec<String> = found
        .iter()
        .map(|f| {
            format!(
                "{} {} {} {:?} {} {:?}",
                f.tool,
                f.argument.as_deref().unwrap_or("-"),
                f.family,
                f.phrase,
                f.level.as_str(),
                f.acknowledged
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            "yearly_weather year range \"at least 2001\" audit None",
            "yearly_weather page format \"URL\" audit Some(\"the page is shown to the user, never fetched\")",
            "refund - items \"at most 3 refunds\" audit Some(\"a policy of the shop, enforced by the payment service\")",
        ],
        "{found:#?}"
    );
    assert!(found.iter().all(|f| f.level == Level::Audit));
    assert_eq!(found[0].help, "#[arg(range(min = 2001))]");
    assert_eq!(found[0].to_json()["argument"], "year");
    // `u16` publishes 0 to 65535 in its schema: the type's bounds, not a
    // declaration the prose could contradict
    assert_eq!(
        registry(vec![yearly_weather::contract()])
            .tools()
            .next()
            .unwrap()
            .input_schema()["properties"]["year"]["maximum"],
        65535
    );
}

#[test]
#[should_panic(
    expected = "1 prose finding(s) not acknowledged; declare the constraint, reword the prose, or acknowledge it: `#[arg(prose = \"why\")]` on the argument, `#[tool_contract(prose = \"why\")]` for a finding on the tool's own description"
)]
fn an_unacknowledged_finding_fails_the_suite() {
    assert_acknowledged(&registry(vec![yearly_weather::contract()]));
}

#[test]
fn acknowledged_findings_pass() {
    assert_acknowledged(&registry(vec![refund::contract()]));
}

/// List a customer's invoices. Invoices exist from 2015-01-01.
#[tool_contract(effect = read_only)]
pub fn list_invoices(
    /// The customer's id.
    customer: String,
    /// The first issue day listed.
    since: chrono::NaiveDate,
    /// The last issue day listed; no later than 2030-12-31.
    #[arg(range(max = "2030-12-31"))]
    until: chrono::NaiveDate,
) -> Result<Done, Oops> {
    let _ = (customer, since, until);
    Ok(Done { ok: true })
}

/// The same invoices, the first day declared.
#[tool_contract(effect = read_only)]
pub fn list_invoices_declared(
    /// The first issue day listed; invoices exist from 2015-01-01.
    #[arg(range(min = "2015-01-01"))]
    since: chrono::NaiveDate,
) -> Result<Done, Oops> {
    let _ = since;
    Ok(Done { ok: true })
}

/// A day bounded in words, the shape a new user wrote ("Invoices exist
/// from 2015-01-01", a rule stated in the tool's description): found at
/// the audit level with the declaration to write; a bound the argument
/// declares agrees, on the argument or in the tool's sentence.
#[test]
fn a_day_bounded_in_words_is_found_unless_declared() {
    let found = registry(vec![list_invoices::contract()]).audit();
    let lines: Vec<String> = found
        .iter()
        .map(|f| {
            format!(
                "{} {} {:?} {} {} | {}",
                f.argument.as_deref().unwrap_or("-"),
                f.family,
                f.phrase,
                f.level.as_str(),
                f.recognizer,
                f.help
            )
        })
        .collect();
    assert_eq!(
        lines,
        ["- range \"from 2015-01-01\" audit date-bound | on a date (`chrono::NaiveDate`, `jiff::civil::Date`, `time::Date`) argument, declare `range(min = \"2015-01-01\")`"],
        "{found:#?}"
    );
    assert!(registry(vec![list_invoices_declared::contract()])
        .audit()
        .is_empty());
}

/// The file format of an export.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// JSON lines.
    Json,
    /// Comma-separated values.
    Csv,
    /// XML.
    Xml,
}

/// Export the notes of a notebook.
#[tool_contract(effect = read_only)]
pub fn export_notes(
    /// How many notes to export.
    #[arg(range(min = 1, max = 500))]
    limit: u32,
    /// The file format: one of `json`, `csv` or `yaml`.
    format: Format,
    /// The day to export from, as YYYY-MM-DD.
    #[arg(format = "date-time")]
    since: Option<String>,
    /// The format of the index. Options:json(JSON lines (one object a line). Each line ends in a newline.),csv(comma-separated values)
    index: Option<Format>,
) -> Result<Done, Oops> {
    let _ = (limit, format, since, index);
    Ok(Done { ok: true })
}

/// Each contradiction is found by its check, at that check's measured
/// level (`docs/rule-c12.md`): one at the audit level compiles and the
/// registry's audit reports it (a whole list that names a value the enum
/// lacks, `set-wider`; a named format other than the declared one,
/// `format`); one at the error level stops the build (a bound other than
/// the declared one, `bounds`; a whole list that lacks a declared value,
/// `set-narrower`), so it is shown on a tool list, as `toolbox lint`
/// reads any server's. A list the reader stopped inside (a gloss it could
/// not close within its sentence) names no narrower set.
#[test]
fn contradictions_are_found_by_their_check_at_its_level() {
    let found = registry(vec![export_notes::contract()]).audit();
    let lines: Vec<String> = found
        .iter()
        .map(|f| {
            format!(
                "{} {} {} {:?}",
                f.argument.as_deref().unwrap_or("-"),
                f.level.as_str(),
                f.check.unwrap_or("-"),
                f.phrase,
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            "format audit set-wider \"one of `json`, `csv` or `yaml`\"",
            "since audit format \"YYYY-MM-DD\"",
        ],
        "{found:#?}"
    );
    assert_eq!(found[0].to_json()["check"], "set-wider");
    assert!(
        found[0]
            .help
            .starts_with("an enum of `json`, `csv`, `xml` is what"),
        "{}",
        found[0].help
    );
    let list = serde_json::json!({"tools": [{
        "name": "export_notes",
        "description": "Export the notes of a notebook.",
        "inputSchema": {"type": "object", "properties": {
            "limit": {"type": "integer", "description": "How many notes to export, at most 100.",
                      "minimum": 1, "maximum": 500},
            "summary": {"type": "string", "description": "The format of the summary: only `json` or `csv`.",
                        "enum": ["json", "csv", "xml"]},
            "country": {"type": "string", "description": "The 2-character country code.",
                        "minLength": 3, "maxLength": 3}
        }}
    }]});
    let found = contract_runtime::audit::lint_tools(&list).expect("a tool list");
    let lines: Vec<String> = found
        .iter()
        .map(|f| {
            format!(
                "{} {} {} {}",
                f.argument.as_deref().unwrap_or("-"),
                f.level.as_str(),
                f.check.unwrap_or("-"),
                f.recognizer,
            )
        })
        .collect();
    // a check at the error level stops a build only on what a recognizer
    // measured right within it read: `sized-noun`, which no labelled text has
    // measured within `bounds`, leaves the country code's contradiction an
    // audit finding
    assert_eq!(
        lines,
        [
            "limit error bounds comparative",
            "summary error set-narrower value-list",
            "country audit bounds sized-noun",
        ],
        "{found:#?}"
    );
}

/// Any server's date bounds: a property of days declares its range with
/// `formatMinimum` and `formatMaximum` (as a date argument publishes it),
/// so prose that states the same day agrees, a day the schema lacks is
/// asked for in those keywords, and one that differs names what the
/// schema declares.
#[test]
fn a_schema_of_days_declares_its_range_in_format_keywords() {
    let list = serde_json::json!({"tools": [{
        "name": "list_invoices",
        "description": "List invoices.",
        "inputSchema": {"type": "object", "properties": {
            "since": {"type": "string", "format": "date",
                      "description": "The first day, no earlier than 2015-01-01."},
            "until": {"type": "string", "format": "date", "formatMaximum": "2030-12-31",
                      "description": "The last day, no later than 2030-12-31."},
            "due": {"type": "string", "format": "date", "formatMaximum": "2030-12-31",
                    "description": "The due day, 2031-12-31 or earlier."}
        }}
    }]});
    let found = contract_runtime::audit::lint_tools(&list).expect("a tool list");
    let lines: Vec<String> = found
        .iter()
        .map(|f| {
            format!(
                "{} {:?} {} | {}",
                f.argument.as_deref().unwrap_or("-"),
                f.phrase,
                f.check.unwrap_or("-"),
                f.help
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            "since \"no earlier than 2015-01-01\" - | declare \"formatMinimum\": \"2015-01-01\"",
            "due \"2031-12-31 or earlier\" date-bounds | the schema declares \"formatMaximum\": \"2030-12-31\", which the server enforces; change the prose to say \"until 2030-12-31\"",
        ],
        "{found:#?}"
    );
}

/// Create a payment link for a customer.
#[tool_contract(effect = read_only)]
pub fn payment_link(
    /// Amount to collect in cents; the minimum is 50 cents and the maximum 999,999.99 EUR.
    #[arg(range(min = 50))]
    amount_cents: u32,
) -> Result<Done, Oops> {
    let _ = amount_cents;
    Ok(Done { ok: true })
}

/// Book a visit. A patient may hold at most three future appointments.
#[tool_contract(effect = read_only)]
pub fn book_visit(
    /// The slot to book.
    slot: String,
) -> Result<Done, Oops> {
    let _ = slot;
    Ok(Done { ok: true })
}

/// What a fourth new user's predecessors met (`evals/new_user_trial_3`):
/// a side the declaration leaves open beside the type's own bound (`u32`
/// publishes `maximum: 4294967295`) was a contradiction at the error level
/// in the audit where the build let it pass; an amount stated in whole
/// euros over an argument in cents was offered `max = 999999.99`, which no
/// integer declares; and a rule about the world in a tool's description
/// was offered `length(max = 3)` on a tool with no list. Now the audit
/// says what the build says, the help declares cents, and the world rule
/// gets no attribute.
#[test]
fn type_bounds_cents_and_world_rules_get_help_that_fits() {
    let found = registry(vec![payment_link::contract(), book_visit::contract()]).audit();
    let lines: Vec<String> = found
        .iter()
        .map(|f| {
            let arg = f.argument.as_deref().unwrap_or("-");
            let (level, family, phrase) = (f.level.as_str(), f.family, &f.phrase);
            format!("{arg} {family} {phrase:?} {level} | {}", f.help)
        })
        .collect();
    let rule = "no argument holds this rule (it is about the world or the whole call): the tool must check it when called and refuse with an error the model can read";
    assert_eq!(
        lines,
        [
            "amount_cents range \"maximum 999,999.99\" audit | #[arg(range(min = 50, max = 99999999))]".to_string(),
            format!("- items \"at most three future appointments\" audit | {rule}{}", contract_prose::RULES_HINT),
        ],
        "{found:#?}"
    );
    // another server's tools have no `rules(..)`: the linter leaves it out
    let tools: Vec<serde_json::Value> = registry(vec![book_visit::contract()])
        .tools()
        .map(|t| t.canonical())
        .collect();
    let linted = contract_runtime::audit::lint_tools(&serde_json::Value::Array(tools)).unwrap();
    assert_eq!(linted.len(), 1, "{linted:#?}");
    assert_eq!(linted[0].help, rule);
}

/// A parcel's size.
#[derive(ToolArgs)]
pub struct Parcel {
    /// Width in cm; at most 120.
    #[arg(
        range(max = 150),
        prose = "the carrier's own limit, checked when booking"
    )]
    width_cm: u16,
    /// Length in cm; the sum of length, width and height may not exceed 300.
    #[arg(range(max = 150))]
    length_cm: u16,
}

/// Ship a parcel.
#[tool_contract(effect = read_only)]
pub fn ship(
    /// The parcel.
    parcel: Parcel,
    /// Days before the label expires; at least 30, at most 365.
    #[arg(range(min = 30))]
    expires_after_days: Option<u16>,
) -> Result<Done, Oops> {
    let _ = (parcel.width_cm, parcel.length_cm, expires_after_days);
    Ok(Done { ok: true })
}

/// What the fourth new user's trial met (`evals/new_user_trial_4`): the
/// acknowledgement of a nested argument struct's field let the build pass
/// but did not reach the audit, so `assert_acknowledged` failed on it; the
/// type's own maximum (`u16`: 65535) beside a declared minimum made the
/// prose's maximum a contradiction at the error level in the audit, where
/// the build let it pass; and a bound of a sum of values stopped the build
/// as a contradiction of the argument whose doc states it. The audit now
/// says what the build says, and the sum is a rule across arguments.
#[test]
fn the_audit_agrees_with_the_build_on_nested_acknowledgements_and_type_bounds() {
    let reg = registry(vec![ship::contract()]);
    let found = reg.audit();
    let lines: Vec<String> = found
        .iter()
        .map(|f| {
            let arg = f.argument.as_deref().unwrap_or("-");
            let (level, ack) = (f.level.as_str(), f.acknowledged);
            format!("{arg} {:?} {level} {ack:?} | {}", f.phrase, f.help)
        })
        .collect();
    assert_eq!(
        lines,
        [
            "expires_after_days \"at least 30, at most 365\" audit None | #[arg(range(min = 30, max = 365))]".to_string(),
            "parcel.width_cm \"at most 120\" error Some(\"the carrier's own limit, checked when booking\") | the prose is stricter than `range(max = 150)`: #[arg(range(max = 120))]".to_string(),
            format!("parcel.length_cm \"may not exceed 300\" audit None | a bound of several values together, which no one argument declares: the tool must check it when called and refuse with an error the model can read{}", contract_prose::RULES_HINT),
        ],
        "{found:#?}"
    );
    // the published schema still states what the type holds
    let schema = reg.tools().next().unwrap().input_schema();
    assert_eq!(schema["properties"]["expires_after_days"]["maximum"], 65535);
}

/// Tag a bucket.
#[tool_contract(effect = read_only)]
pub fn tag_bucket(
    /// Labels as key/value pairs; at most 64, values up to 63 characters.
    #[arg(length(max = 64))]
    labels: std::collections::BTreeMap<String, String>,
) -> Result<Done, Oops> {
    let _ = labels;
    Ok(Done { ok: true })
}

/// Order lines.
#[tool_contract(effect = read_only)]
pub fn place_order(
    /// The dishes, up to 40 lines per order.
    #[arg(length(min = 1, max = 40))]
    items: Vec<String>,
) -> Result<Done, Oops> {
    let _ = items;
    Ok(Done { ok: true })
}

/// The fifth new user's trial: "up to 40 lines per order" on a list is
/// its count of items, which `length(..)` declares (the size in lines of a
/// text is no keyword's, but a list's lines are its items).
#[test]
fn the_lines_of_a_list_are_its_items() {
    assert!(registry(vec![place_order::contract()]).audit().is_empty());
}

/// Characters on a map (or a list) are its values': "values up to 63
/// characters" over `length(max = 64)` on a map of labels was a
/// contradiction of the map's 64 entries (the fourth trial's compile
/// error); it is a constraint on each value, which `each(..)` declares.
#[test]
fn characters_on_a_map_are_its_values() {
    let found = registry(vec![tag_bucket::contract()]).audit();
    let lines: Vec<String> = found
        .iter()
        .map(|f| format!("{:?} {} | {}", f.phrase, f.level.as_str(), f.help))
        .collect();
    assert_eq!(
        lines,
        ["\"up to 63 characters\" audit | #[arg(each(length(max = 63)))]"],
        "{found:#?}"
    );
}

/// List contracts, at most 50 per page.
#[tool_contract(effect = read_only)]
pub fn list_contracts(
    /// The customer whose contracts to list.
    customer: String,
    /// How many contracts on a page.
    #[arg(range(min = 1, max = 100))]
    page_size: Option<u32>,
) -> Result<Done, Oops> {
    let _ = (customer, page_size);
    Ok(Done { ok: true })
}

/// The fifth trial's "at most 50 per page" in a tool's description, which
/// names no argument: the help says so, where it offered `range(max = 50)`
/// without saying on which argument (and the linter, on which property).
#[test]
fn a_bound_that_names_no_argument_says_so() {
    let reg = registry(vec![list_contracts::contract()]);
    let found = reg.audit();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].argument, None);
    assert_eq!(
        found[0].help,
        "the sentence names no argument: name the one it bounds (or move it to that argument's doc) and declare `#[arg(range(max = 50))]` there"
    );
    let tools: Vec<serde_json::Value> = reg.tools().map(|t| t.canonical()).collect();
    let linted = contract_runtime::audit::lint_tools(&serde_json::Value::Array(tools)).unwrap();
    assert_eq!(
        linted[0].help,
        "the sentence names no property: name the one it bounds and declare \"maximum\": 50 there"
    );
}

/// List an account's transactions between two days. The range may cover at
/// most 90 days.
#[tool_contract(effect = read_only, rules(le(from, to), max_span(from, to, 90 days)))]
pub fn list_transactions(
    /// First day to include.
    from: chrono::NaiveDate,
    /// Last day to include; at most 90 days after `from`.
    to: chrono::NaiveDate,
) -> Result<Done, Oops> {
    let _ = (from, to);
    Ok(Done { ok: true })
}

/// Book a room for a stay.
#[tool_contract(effect = read_only, rules(max_span(check_in, check_out, 30 days)))]
pub fn book_stay(
    /// Day of arrival.
    check_in: chrono::NaiveDate,
    /// Day of departure, at most 60 days after `check_in`.
    check_out: chrono::NaiveDate,
) -> Result<Done, Oops> {
    let _ = (check_in, check_out);
    Ok(Done { ok: true })
}

/// Read the readings between two meter counts.
#[tool_contract(effect = read_only, rules(max_span(low, high, 10)))]
pub fn meter_window(
    /// The first count.
    #[arg(range(min = 0, max = 1000))]
    low: i32,
    /// The last count, at most 10 above `low`.
    #[arg(range(min = 0, max = 1000))]
    high: i32,
) -> Result<Done, Oops> {
    let _ = (low, high);
    Ok(Done { ok: true })
}

/// A distance the author declared with `max_span`, as the help asks, is
/// no finding: not on the argument ("at most 90 days after `from`"), not on
/// the tool ("The range may cover at most 90 days"). Before, all three
/// stayed in the audit, and "at most 10 above `low`" over `range(max =
/// 1000)` stopped the build as a contradiction of the value's own range
/// (`meter_window` compiling is that half of the test). A distance the
/// rule does not hold, on a date, contradicts it.
#[test]
fn a_declared_max_span_agrees_with_the_distance_the_prose_states() {
    let reg = registry(vec![
        list_transactions::contract(),
        meter_window::contract(),
        book_stay::contract(),
    ]);
    let lines: Vec<String> = reg
        .audit()
        .iter()
        .map(|f| {
            let arg = f.argument.as_deref().unwrap_or("-");
            let check = f.check.unwrap_or("-");
            format!(
                "{} {arg} {check} {:?} {} | {}",
                f.tool,
                f.phrase,
                f.level.as_str(),
                f.help
            )
        })
        .collect();
    assert_eq!(
        lines,
        ["book_stay check_out span \"at most 60 days\" audit | `max_span(check_in, check_out, 30 days)` is what the schema publishes and the server enforces; change the prose to say at most 30 days"],
    );
}
