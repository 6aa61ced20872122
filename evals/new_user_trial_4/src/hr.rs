//! HR and payroll tools.
#![allow(unused_variables, dead_code)]

use contract_runtime::prelude::*;
use serde::Serialize;

/// One employee's profile.
#[derive(Serialize, JsonSchema)]
pub struct Employee {
    /// The employee's id.
    pub id: String,
    /// Full name.
    pub name: String,
    /// Department code.
    pub department: String,
}

/// A page of employees.
#[derive(Serialize, JsonSchema)]
pub struct EmployeeList {
    /// The employees on this page.
    pub employees: Vec<Employee>,
}

/// What the HR system recorded.
#[derive(Serialize, JsonSchema)]
pub struct HrReceipt {
    /// The HR system's reference for the change.
    pub reference: String,
}

/// What a payroll run would pay.
#[derive(Serialize, JsonSchema)]
pub struct PayrollPreview {
    /// Total gross pay, in cents.
    pub gross_cents: u64,
    /// How many employees are paid.
    pub employees: u32,
}

/// Why an HR tool could not do what was asked.
#[derive(Debug, ToolFailure)]
pub enum HrError {
    /// No employee has this id.
    #[failure(code = "no-such-employee", repair = "look the employee up with list_employees")]
    NoSuchEmployee,
    /// The HR system did not answer in time.
    #[failure(code = "hr-unavailable", transient)]
    Unavailable,
}

// @gt A
/// Where an employee stands with the company.
#[derive(ToolArgs)]
#[serde(rename_all = "kebab-case")]
pub enum EmploymentStatus {
    // @gt A
    /// Currently employed and working.
    Active,
    // @gt A
    /// On approved leave of absence.
    OnLeave,
    // @gt A
    /// No longer employed.
    Terminated,
}

// @gt A
/// A kind of leave.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum LeaveKind {
    // @gt A
    /// Paid vacation days.
    Vacation,
    // @gt A
    /// Sick leave.
    Sick,
    // @gt A
    /// Parental leave.
    Parental,
    // @gt A
    /// Leave without pay.
    Unpaid,
}

// @gt A
/// Why a contract ends.
#[derive(ToolArgs)]
#[serde(rename_all = "kebab-case")]
pub enum TerminationReason {
    // @gt A
    /// The employee resigned.
    Resignation,
    // @gt A
    /// The company dismissed the employee.
    Dismissal,
    // @gt A
    /// The employee retired.
    Retirement,
    // @gt A
    /// A fixed-term contract ran out.
    ContractEnd,
}

// @gt A
/// Look up one employee's profile: name, department, manager and employment status.
#[tool_contract(effect = read_only, authority = "hr:read")]
pub fn get_employee(
    // @gt A
    /// The employee's id: `emp_` followed by six digits, e.g. `emp_004512`.
    #[arg(pattern = "^emp_[0-9]{6}$")]
    employee_id: String,
) -> Result<Employee, HrError> {
    Err(HrError::NoSuchEmployee)
}

// @gt C: prose says at most 100 per page; `page_size` declares range(min = 1, max = 200)
/// List employees of one department, sorted by last name, at most 100 per page.
#[tool_contract(effect = read_only, authority = "hr:read")]
pub fn list_employees(
    // @gt C: prose says 3 uppercase letters; pattern ^[A-Z]{2,4}$ allows 2 to 4
    /// Department code, 3 uppercase letters such as `ENG` or `FIN`.
    #[arg(pattern = "^[A-Z]{2,4}$")]
    department: String,
    // @gt A
    /// Only employees with this status; all of them when left out.
    status: Option<EmploymentStatus>,
    // @gt A
    /// How many employees per page, from 1 to 200. Defaults to 50.
    #[arg(range(min = 1, max = 200))]
    page_size: Option<u32>,
    // @gt A
    /// Only employees hired on or after this date (YYYY-MM-DD).
    hired_after: Option<chrono::NaiveDate>,
) -> Result<EmployeeList, HrError> {
    Ok(EmployeeList { employees: vec![] })
}

// @gt B: world rule, at most 3 pending requests per employee (not declarable)
/// File a leave request for an employee; it goes to their manager for
/// approval. An employee may have at most 3 pending requests at a time.
#[tool_contract(
    effect = reversible,
    idempotency = key(request_id),
    authority = "hr:leave"
)]
pub fn submit_leave_request(
    // @gt A
    /// Who is taking leave (an `emp_` id).
    #[arg(pattern = "^emp_[0-9]{6}$")]
    employee_id: String,
    // @gt C: lists vacation, sick, parental; the enum also has `unpaid`
    /// Type of leave: `vacation`, `sick` or `parental`.
    #[arg(prose = "trial: compile error recorded")]
    kind: LeaveKind,
    // @gt A
    /// First day of leave, no earlier than 2024-01-01.
    #[arg(range(min = "2024-01-01"))]
    start_date: chrono::NaiveDate,
    // @gt B: end_date at most 30 days after start_date; no rule declared
    /// Last day of leave, inclusive; must not be more than 30 days after `start_date`.
    end_date: chrono::NaiveDate,
    // @gt C: prose says up to 300 characters; declares length(max = 500)
    /// Optional note for the manager, up to 300 characters.
    #[arg(length(max = 500), prose = "trial: compile error recorded")]
    note: Option<String>,
    // @gt A
    /// A fresh UUID per request; resending it returns the first outcome.
    #[arg(format = "uuid")]
    request_id: String,
) -> Result<HrReceipt, HrError> {
    Ok(HrReceipt { reference: request_id })
}

// @gt A
/// Record the hours an employee worked on one day. Recording the same day
/// again replaces the earlier entry.
#[tool_contract(effect = reversible, idempotency = natural, authority = "hr:time")]
pub fn record_timesheet(
    // @gt A
    /// Employee id, like `emp_120034`.
    #[arg(pattern = "^emp_[0-9]{6}$")]
    employee_id: String,
    // @gt B: not in the future and at most 14 days in the past; no date range declared
    /// The day worked, in ISO format; it cannot be in the future or more than
    /// 14 days in the past.
    work_date: chrono::NaiveDate,
    // @gt A
    /// Hours worked that day, between 0 and 24; fractions allowed (7.5 is
    /// seven and a half hours).
    #[arg(range(min = 0.0, max = 24.0))]
    hours: f32,
    // @gt C: prose says no more than 8; declares range(max = 12.0)
    /// Overtime on top of regular hours; no more than 8.
    #[arg(range(min = 0.0, max = 12.0), prose = "trial: compile error recorded")]
    overtime_hours: Option<f32>,
    // @gt B: `PRJ-` and four digits; no pattern declared
    /// Project to charge the time to, e.g. `PRJ-2041`: `PRJ-` and four digits.
    project_code: Option<String>,
) -> Result<HrReceipt, HrError> {
    Ok(HrReceipt { reference: employee_id })
}

// @gt A
/// Compute, without paying anything, what a payroll run would pay each
/// employee of a pay group.
#[tool_contract(effect = read_only, authority = "payroll:read")]
pub fn run_payroll_preview(
    // @gt A
    /// The pay group, `pg-` and its name in lowercase letters (for example `pg-monthly`).
    #[arg(pattern = "^pg-[a-z]{3,12}$")]
    pay_group: String,
    // @gt A
    /// Last day of the pay period.
    period_end: chrono::NaiveDate,
) -> Result<PayrollPreview, HrError> {
    Ok(PayrollPreview { gross_cents: 0, employees: 0 })
}

// @gt B: world rule, no backdating by more than one pay period (not declared)
/// Change an employee's base salary from a given date; the employee is
/// notified by email. Salary changes cannot be backdated by more than one
/// pay period.
#[tool_contract(
    effect = external,
    idempotency = natural,
    approval = always,
    authority = "payroll:write"
)]
pub fn adjust_salary(
    // @gt A
    /// Whose salary changes.
    #[arg(pattern = "^emp_[0-9]{6}$")]
    employee_id: String,
    // @gt C: prose max 50000000 cents (500,000.00); declares range(max = 100000000)
    /// New annual base salary in cents, from 1,000.00 to 500,000.00 (100000 to
    /// 50000000 cents).
    #[arg(range(min = 100000, max = 100000000), prose = "trial: compile error recorded")]
    new_salary_cents: u64,
    // @gt A
    /// The date the new salary takes effect (not before 2025-01-01).
    #[arg(range(min = "2025-01-01"))]
    effective_date: chrono::NaiveDate,
    // @gt A
    /// Why the salary changes, for the audit trail; 10 to 1000 characters.
    #[arg(length(min = 10, max = 1000))]
    reason: String,
) -> Result<HrReceipt, HrError> {
    Ok(HrReceipt { reference: employee_id })
}

// @gt A
/// End an employee's contract: access is revoked and final pay is scheduled.
/// This cannot be undone.
#[tool_contract(
    effect = destructive,
    idempotency = natural,
    approval = always,
    authority = "hr:offboard"
)]
pub fn terminate_employee(
    // @gt A
    /// The employee to offboard (`emp_` + 6 digits).
    #[arg(pattern = "^emp_[0-9]{6}$")]
    employee_id: String,
    // @gt A
    /// Their last working day.
    last_day: chrono::NaiveDate,
    // @gt C: lists `layoff`, which the enum does not have
    /// Why: one of `resignation`, `dismissal`, `retirement`, `layoff`, `contract-end`.
    reason_code: TerminationReason,
    // @gt B: must be a valid email address; no format declared
    /// Personal email address for the exit survey; must be a valid address,
    /// not a company one.
    exit_interview_email: Option<String>,
) -> Result<HrReceipt, HrError> {
    Ok(HrReceipt { reference: employee_id })
}
