//! Written by `prose::tests::suggestions_compile_on_each_type` (C12_BLESS=1 to rewrite):
//! each statement C12 reports, on each kind of argument type, with the help it
//! gives applied. It compiles, so every help is a declaration the type accepts
//! and satisfies the rule. 136 arguments.
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

/// A closed set.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    /// A draft.
    Draft,
    /// A final version.
    Final,
}

/// Take every kind of argument.
#[tool_contract(effect = read_only)]
pub fn c12_suggestions(
    /// At most 200 characters.
    #[arg(length(max = 200))]
    length_on_string: String,
    /// Between 1 and 100.
    #[arg(length(min = 1, max = 100))]
    range_on_string: String,
    /// A positive number.
    #[arg(prose = "not enforced: the type cannot carry it")]
    sign_on_string: String,
    /// Up to 10 items.
    #[arg(prose = "not enforced: the type cannot carry it")]
    items_on_string: String,
    /// Either `draft` or `final`.
    #[arg(pattern = "^(draft|final)$")]
    set_on_string: String,
    /// A UUID.
    #[arg(format = "uuid")]
    format_on_string: String,
    /// An ISO 8601 duration.
    #[arg(pattern = "^P([0-9]+Y)?([0-9]+M)?([0-9]+W)?([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+([.][0-9]+)?S)?)?$")]
    duration_on_string: String,
    /// Lowercase letters and digits only.
    #[arg(pattern = "^[a-z0-9]+$")]
    pattern_on_string: String,
    /// A 6-digit code.
    #[arg(pattern = "^[0-9]{6}$")]
    digits_on_string: String,
    /// A four-digit number.
    #[arg(pattern = "^[0-9]{4}$")]
    digit_words_on_string: String,
    /// The three letter country code.
    #[arg(pattern = "^[A-Z]{3}$")]
    letter_code_on_string: String,
    /// Should be all caps.
    #[arg(pattern = "^[^a-z]+$")]
    caps_on_string: String,
    /// The name in SCREAMING_SNAKE_CASE.
    #[arg(pattern = "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$")]
    case_style_on_string: String,
    /// Fixed length: 3 characters.
    #[arg(length(min = 3, max = 3))]
    length_label_on_string: String,
    /// A time of day in 24-hour hhmm format.
    #[arg(pattern = "^[0-9]{4}$")]
    time_layout_on_string: String,
    /// Start date in ISO 8601 format. Minimum is 1950-01-01.
    #[arg(format = "date-time")]
    #[arg(prose = "not enforced: the type cannot carry it")]
    date_bound_on_string: String,
    /// The tags to add (max ${MAX_TAGS_PER_CALL}).
    #[arg(prose = "not enforced: the type cannot carry it")]
    placeholder_on_string: String,
    /// At most 200 characters.
    #[arg(length(max = 200))]
    length_on_optional_string: Option<String>,
    /// Between 1 and 100.
    #[arg(length(min = 1, max = 100))]
    range_on_optional_string: Option<String>,
    /// A positive number.
    #[arg(prose = "not enforced: the type cannot carry it")]
    sign_on_optional_string: Option<String>,
    /// Up to 10 items.
    #[arg(prose = "not enforced: the type cannot carry it")]
    items_on_optional_string: Option<String>,
    /// Either `draft` or `final`.
    #[arg(pattern = "^(draft|final)$")]
    set_on_optional_string: Option<String>,
    /// A UUID.
    #[arg(format = "uuid")]
    format_on_optional_string: Option<String>,
    /// An ISO 8601 duration.
    #[arg(pattern = "^P([0-9]+Y)?([0-9]+M)?([0-9]+W)?([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+([.][0-9]+)?S)?)?$")]
    duration_on_optional_string: Option<String>,
    /// Lowercase letters and digits only.
    #[arg(pattern = "^[a-z0-9]+$")]
    pattern_on_optional_string: Option<String>,
    /// A 6-digit code.
    #[arg(pattern = "^[0-9]{6}$")]
    digits_on_optional_string: Option<String>,
    /// A four-digit number.
    #[arg(pattern = "^[0-9]{4}$")]
    digit_words_on_optional_string: Option<String>,
    /// The three letter country code.
    #[arg(pattern = "^[A-Z]{3}$")]
    letter_code_on_optional_string: Option<String>,
    /// Should be all caps.
    #[arg(pattern = "^[^a-z]+$")]
    caps_on_optional_string: Option<String>,
    /// The name in SCREAMING_SNAKE_CASE.
    #[arg(pattern = "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$")]
    case_style_on_optional_string: Option<String>,
    /// Fixed length: 3 characters.
    #[arg(length(min = 3, max = 3))]
    length_label_on_optional_string: Option<String>,
    /// A time of day in 24-hour hhmm format.
    #[arg(pattern = "^[0-9]{4}$")]
    time_layout_on_optional_string: Option<String>,
    /// Start date in ISO 8601 format. Minimum is 1950-01-01.
    #[arg(format = "date-time")]
    #[arg(prose = "not enforced: the type cannot carry it")]
    date_bound_on_optional_string: Option<String>,
    /// The tags to add (max ${MAX_TAGS_PER_CALL}).
    #[arg(prose = "not enforced: the type cannot carry it")]
    placeholder_on_optional_string: Option<String>,
    /// At most 200 characters.
    #[arg(range(max = 200))]
    length_on_integer: u32,
    /// Between 1 and 100.
    #[arg(range(min = 1, max = 100))]
    range_on_integer: u32,
    /// A positive number.
    #[arg(range(min = 1))]
    sign_on_integer: u32,
    /// Up to 10 items.
    #[arg(range(max = 10))]
    items_on_integer: u32,
    /// Either `draft` or `final`.
    #[arg(prose = "not enforced: the type cannot carry it")]
    set_on_integer: u32,
    /// A UUID.
    #[arg(prose = "not enforced: the type cannot carry it")]
    format_on_integer: u32,
    /// An ISO 8601 duration.
    #[arg(prose = "not enforced: the type cannot carry it")]
    duration_on_integer: u32,
    /// Lowercase letters and digits only.
    #[arg(prose = "not enforced: the type cannot carry it")]
    pattern_on_integer: u32,
    /// A 6-digit code.
    #[arg(prose = "not enforced: the type cannot carry it")]
    digits_on_integer: u32,
    /// A four-digit number.
    #[arg(prose = "not enforced: the type cannot carry it")]
    digit_words_on_integer: u32,
    /// The three letter country code.
    #[arg(prose = "not enforced: the type cannot carry it")]
    letter_code_on_integer: u32,
    /// Should be all caps.
    #[arg(prose = "not enforced: the type cannot carry it")]
    caps_on_integer: u32,
    /// The name in SCREAMING_SNAKE_CASE.
    #[arg(prose = "not enforced: the type cannot carry it")]
    case_style_on_integer: u32,
    /// Fixed length: 3 characters.
    #[arg(range(min = 3, max = 3))]
    length_label_on_integer: u32,
    /// A time of day in 24-hour hhmm format.
    #[arg(prose = "not enforced: the type cannot carry it")]
    time_layout_on_integer: u32,
    /// Start date in ISO 8601 format. Minimum is 1950-01-01.
    #[arg(prose = "not enforced: the type cannot carry it")]
    date_bound_on_integer: u32,
    /// The tags to add (max ${MAX_TAGS_PER_CALL}).
    #[arg(prose = "not enforced: the type cannot carry it")]
    placeholder_on_integer: u32,
    /// At most 200 characters.
    #[arg(range(max = 200))]
    length_on_float: f64,
    /// Between 1 and 100.
    #[arg(range(min = 1, max = 100))]
    range_on_float: f64,
    /// A positive number.
    #[arg(range(exclusive_min = 0))]
    sign_on_float: f64,
    /// Up to 10 items.
    #[arg(range(max = 10))]
    items_on_float: f64,
    /// Either `draft` or `final`.
    #[arg(prose = "not enforced: the type cannot carry it")]
    set_on_float: f64,
    /// A UUID.
    #[arg(prose = "not enforced: the type cannot carry it")]
    format_on_float: f64,
    /// An ISO 8601 duration.
    #[arg(prose = "not enforced: the type cannot carry it")]
    duration_on_float: f64,
    /// Lowercase letters and digits only.
    #[arg(prose = "not enforced: the type cannot carry it")]
    pattern_on_float: f64,
    /// A 6-digit code.
    #[arg(prose = "not enforced: the type cannot carry it")]
    digits_on_float: f64,
    /// A four-digit number.
    #[arg(prose = "not enforced: the type cannot carry it")]
    digit_words_on_float: f64,
    /// The three letter country code.
    #[arg(prose = "not enforced: the type cannot carry it")]
    letter_code_on_float: f64,
    /// Should be all caps.
    #[arg(prose = "not enforced: the type cannot carry it")]
    caps_on_float: f64,
    /// The name in SCREAMING_SNAKE_CASE.
    #[arg(prose = "not enforced: the type cannot carry it")]
    case_style_on_float: f64,
    /// Fixed length: 3 characters.
    #[arg(range(min = 3, max = 3))]
    length_label_on_float: f64,
    /// A time of day in 24-hour hhmm format.
    #[arg(prose = "not enforced: the type cannot carry it")]
    time_layout_on_float: f64,
    /// Start date in ISO 8601 format. Minimum is 1950-01-01.
    #[arg(prose = "not enforced: the type cannot carry it")]
    date_bound_on_float: f64,
    /// The tags to add (max ${MAX_TAGS_PER_CALL}).
    #[arg(prose = "not enforced: the type cannot carry it")]
    placeholder_on_float: f64,
    /// At most 200 characters.
    #[arg(prose = "not enforced: the type cannot carry it")]
    length_on_flag: bool,
    /// Between 1 and 100.
    #[arg(prose = "not enforced: the type cannot carry it")]
    range_on_flag: bool,
    /// A positive number.
    #[arg(prose = "not enforced: the type cannot carry it")]
    sign_on_flag: bool,
    /// Up to 10 items.
    #[arg(prose = "not enforced: the type cannot carry it")]
    items_on_flag: bool,
    /// Either `draft` or `final`.
    #[arg(prose = "not enforced: the type cannot carry it")]
    set_on_flag: bool,
    /// A UUID.
    #[arg(prose = "not enforced: the type cannot carry it")]
    format_on_flag: bool,
    /// An ISO 8601 duration.
    #[arg(prose = "not enforced: the type cannot carry it")]
    duration_on_flag: bool,
    /// Lowercase letters and digits only.
    #[arg(prose = "not enforced: the type cannot carry it")]
    pattern_on_flag: bool,
    /// A 6-digit code.
    #[arg(prose = "not enforced: the type cannot carry it")]
    digits_on_flag: bool,
    /// A four-digit number.
    #[arg(prose = "not enforced: the type cannot carry it")]
    digit_words_on_flag: bool,
    /// The three letter country code.
    #[arg(prose = "not enforced: the type cannot carry it")]
    letter_code_on_flag: bool,
    /// Should be all caps.
    #[arg(prose = "not enforced: the type cannot carry it")]
    caps_on_flag: bool,
    /// The name in SCREAMING_SNAKE_CASE.
    #[arg(prose = "not enforced: the type cannot carry it")]
    case_style_on_flag: bool,
    /// Fixed length: 3 characters.
    #[arg(prose = "not enforced: the type cannot carry it")]
    length_label_on_flag: bool,
    /// A time of day in 24-hour hhmm format.
    #[arg(prose = "not enforced: the type cannot carry it")]
    time_layout_on_flag: bool,
    /// Start date in ISO 8601 format. Minimum is 1950-01-01.
    #[arg(prose = "not enforced: the type cannot carry it")]
    date_bound_on_flag: bool,
    /// The tags to add (max ${MAX_TAGS_PER_CALL}).
    #[arg(prose = "not enforced: the type cannot carry it")]
    placeholder_on_flag: bool,
    /// At most 200 characters.
    #[arg(each(length(max = 200)))]
    length_on_strings: Vec<String>,
    /// Between 1 and 100.
    #[arg(length(min = 1, max = 100))]
    range_on_strings: Vec<String>,
    /// A positive number.
    #[arg(prose = "not enforced: the type cannot carry it")]
    sign_on_strings: Vec<String>,
    /// Up to 10 items.
    #[arg(length(max = 10))]
    items_on_strings: Vec<String>,
    /// Either `draft` or `final`.
    #[arg(each(pattern = "^(draft|final)$"))]
    set_on_strings: Vec<String>,
    /// A UUID.
    #[arg(each(format = "uuid"))]
    format_on_strings: Vec<String>,
    /// An ISO 8601 duration.
    #[arg(each(pattern = "^P([0-9]+Y)?([0-9]+M)?([0-9]+W)?([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+([.][0-9]+)?S)?)?$"))]
    duration_on_strings: Vec<String>,
    /// Lowercase letters and digits only.
    #[arg(each(pattern = "^[a-z0-9]+$"))]
    pattern_on_strings: Vec<String>,
    /// A 6-digit code.
    #[arg(each(pattern = "^[0-9]{6}$"))]
    digits_on_strings: Vec<String>,
    /// A four-digit number.
    #[arg(each(pattern = "^[0-9]{4}$"))]
    digit_words_on_strings: Vec<String>,
    /// The three letter country code.
    #[arg(each(pattern = "^[A-Z]{3}$"))]
    letter_code_on_strings: Vec<String>,
    /// Should be all caps.
    #[arg(each(pattern = "^[^a-z]+$"))]
    caps_on_strings: Vec<String>,
    /// The name in SCREAMING_SNAKE_CASE.
    #[arg(each(pattern = "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$"))]
    case_style_on_strings: Vec<String>,
    /// Fixed length: 3 characters.
    #[arg(each(length(min = 3, max = 3)))]
    length_label_on_strings: Vec<String>,
    /// A time of day in 24-hour hhmm format.
    #[arg(each(pattern = "^[0-9]{4}$"))]
    time_layout_on_strings: Vec<String>,
    /// Start date in ISO 8601 format. Minimum is 1950-01-01.
    #[arg(each(format = "date-time"))]
    #[arg(prose = "not enforced: the type cannot carry it")]
    date_bound_on_strings: Vec<String>,
    /// The tags to add (max ${MAX_TAGS_PER_CALL}).
    #[arg(prose = "not enforced: the type cannot carry it")]
    placeholder_on_strings: Vec<String>,
    /// At most 200 characters.
    #[arg(prose = "not enforced: the type cannot carry it")]
    length_on_integers: Vec<u32>,
    /// Between 1 and 100.
    #[arg(length(min = 1, max = 100))]
    range_on_integers: Vec<u32>,
    /// A positive number.
    #[arg(each(range(min = 1)))]
    sign_on_integers: Vec<u32>,
    /// Up to 10 items.
    #[arg(length(max = 10))]
    items_on_integers: Vec<u32>,
    /// Either `draft` or `final`.
    #[arg(prose = "not enforced: the type cannot carry it")]
    set_on_integers: Vec<u32>,
    /// A UUID.
    #[arg(prose = "not enforced: the type cannot carry it")]
    format_on_integers: Vec<u32>,
    /// An ISO 8601 duration.
    #[arg(prose = "not enforced: the type cannot carry it")]
    duration_on_integers: Vec<u32>,
    /// Lowercase letters and digits only.
    #[arg(prose = "not enforced: the type cannot carry it")]
    pattern_on_integers: Vec<u32>,
    /// A 6-digit code.
    #[arg(prose = "not enforced: the type cannot carry it")]
    digits_on_integers: Vec<u32>,
    /// A four-digit number.
    #[arg(prose = "not enforced: the type cannot carry it")]
    digit_words_on_integers: Vec<u32>,
    /// The three letter country code.
    #[arg(prose = "not enforced: the type cannot carry it")]
    letter_code_on_integers: Vec<u32>,
    /// Should be all caps.
    #[arg(prose = "not enforced: the type cannot carry it")]
    caps_on_integers: Vec<u32>,
    /// The name in SCREAMING_SNAKE_CASE.
    #[arg(prose = "not enforced: the type cannot carry it")]
    case_style_on_integers: Vec<u32>,
    /// Fixed length: 3 characters.
    #[arg(prose = "not enforced: the type cannot carry it")]
    length_label_on_integers: Vec<u32>,
    /// A time of day in 24-hour hhmm format.
    #[arg(prose = "not enforced: the type cannot carry it")]
    time_layout_on_integers: Vec<u32>,
    /// Start date in ISO 8601 format. Minimum is 1950-01-01.
    #[arg(prose = "not enforced: the type cannot carry it")]
    date_bound_on_integers: Vec<u32>,
    /// The tags to add (max ${MAX_TAGS_PER_CALL}).
    #[arg(prose = "not enforced: the type cannot carry it")]
    placeholder_on_integers: Vec<u32>,
    /// At most 200 characters.
    #[arg(prose = "not enforced: the type cannot carry it")]
    length_on_choice: Choice,
    /// Between 1 and 100.
    #[arg(prose = "not enforced: the type cannot carry it")]
    range_on_choice: Choice,
    /// A positive number.
    #[arg(prose = "not enforced: the type cannot carry it")]
    sign_on_choice: Choice,
    /// Up to 10 items.
    #[arg(prose = "not enforced: the type cannot carry it")]
    items_on_choice: Choice,
    /// Either `draft` or `final`.
    set_on_choice: Choice,
    /// A UUID.
    #[arg(prose = "not enforced: the type cannot carry it")]
    format_on_choice: Choice,
    /// An ISO 8601 duration.
    #[arg(prose = "not enforced: the type cannot carry it")]
    duration_on_choice: Choice,
    /// Lowercase letters and digits only.
    pattern_on_choice: Choice,
    /// A 6-digit code.
    digits_on_choice: Choice,
    /// A four-digit number.
    digit_words_on_choice: Choice,
    /// The three letter country code.
    letter_code_on_choice: Choice,
    /// Should be all caps.
    caps_on_choice: Choice,
    /// The name in SCREAMING_SNAKE_CASE.
    case_style_on_choice: Choice,
    /// Fixed length: 3 characters.
    #[arg(prose = "not enforced: the type cannot carry it")]
    length_label_on_choice: Choice,
    /// A time of day in 24-hour hhmm format.
    time_layout_on_choice: Choice,
    /// Start date in ISO 8601 format. Minimum is 1950-01-01.
    #[arg(prose = "not enforced: the type cannot carry it")]
    date_bound_on_choice: Choice,
    /// The tags to add (max ${MAX_TAGS_PER_CALL}).
    #[arg(prose = "not enforced: the type cannot carry it")]
    placeholder_on_choice: Choice,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

fn main() {}
