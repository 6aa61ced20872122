//! A school's learning platform: courses, assignments, grades.
#![allow(unused_variables, dead_code)]

use contract_runtime::prelude::*;
use serde::Serialize;

/// Course codes, one per enrolled course.
#[derive(Serialize, JsonSchema)]
pub struct Courses {
    /// The course codes.
    pub courses: Vec<String>,
}

/// Grade rows of a section.
#[derive(Serialize, JsonSchema)]
pub struct Gradebook {
    /// Student number and score, one pair per student.
    pub rows: Vec<(String, f64)>,
}

/// What the platform saved.
#[derive(Serialize, JsonSchema)]
pub struct Saved {
    /// The platform's id of the saved item.
    pub id: String,
}

/// A download link.
#[derive(Serialize, JsonSchema)]
pub struct Download {
    /// Where to download the file.
    pub url: String,
}

/// Why a platform tool could not do what was asked.
#[derive(Debug, ToolFailure)]
pub enum SchoolError {
    /// The course, student or assignment does not exist.
    #[failure(code = "not-found", repair = "list the student's courses first")]
    NotFound,
    /// The grade is locked and can no longer be changed.
    #[failure(code = "grade-locked")]
    Locked,
    /// The platform did not answer.
    #[failure(code = "platform-unavailable", transient)]
    Unavailable,
}

// @gt A
/// How the rows of a gradebook are ordered.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum GradeSort {
    // @gt A
    /// By family name, A to Z.
    LastName,
    // @gt A
    /// Highest score first.
    Score,
    // @gt A
    /// By student number.
    StudentId,
}

// @gt A
/// The file type of a transcript.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum TranscriptFormat {
    // @gt A
    /// A printable PDF.
    Pdf,
    // @gt A
    /// A spreadsheet-friendly CSV file.
    Csv,
}

// @gt A
/// List the courses a student is enrolled in this term.
#[tool_contract(effect = read_only, authority = "courses:read")]
pub fn list_courses(
    // @gt A
    /// Student number: the letter `s` and seven digits (s2301456).
    #[arg(pattern = "^s[0-9]{7}$")]
    student_id: String,
    // @gt A
    /// Term, like `autumn-2025` or `spring-2026`.
    #[arg(pattern = "^(spring|autumn)-[0-9]{4}$")]
    term: String,
) -> Result<Courses, SchoolError> {
    Ok(Courses { courses: vec![] })
}

// @gt A
/// Return every grade of one course section, one row per student.
#[tool_contract(effect = read_only, authority = "grades:read")]
pub fn get_gradebook(
    // @gt C: prose says four letters (MATH101); pattern ^[A-Z]{3}[0-9]{3}$ requires three
    /// Course code: four letters and three digits, such as MATH101.
    #[arg(pattern = "^[A-Z]{3}[0-9]{3}$")]
    course_code: String,
    // @gt A
    /// Section number, 1 through 20.
    #[arg(range(min = 1, max = 20))]
    section: u8,
    // @gt A
    /// Order of rows: `last_name`, `score` or `student_id`.
    sort_by: Option<GradeSort>,
) -> Result<Gradebook, SchoolError> {
    Ok(Gradebook { rows: vec![] })
}

// @gt B: world rule, grades locked 30 days after the due date
/// Record or correct one student's grade for an assignment. Grades are locked
/// 30 days after the assignment's due date.
#[tool_contract(effect = reversible, idempotency = natural, authority = "grades:write")]
pub fn record_grade(
    // @gt A
    /// The student, by student number.
    #[arg(pattern = "^s[0-9]{7}$")]
    student_id: String,
    // @gt A
    /// Assignment id, `asg_` then digits.
    #[arg(pattern = "^asg_[0-9]+$")]
    assignment_id: String,
    // @gt A
    /// Score as a percentage, from 0 to 100 (decimals allowed, e.g. 87.5).
    #[arg(range(min = 0.0, max = 100.0))]
    score: f64,
    // @gt B: closed set A, B, C, D, F; no enum or pattern declared
    /// Letter grade to show on the transcript: A, B, C, D or F.
    letter_grade: Option<String>,
    // @gt C: prose says at most 1,000 characters; declares length(max = 2000)
    /// Written feedback to the student, at most 1,000 characters.
    #[arg(length(max = 2000))]
    feedback: Option<String>,
) -> Result<Saved, SchoolError> {
    Ok(Saved { id: assignment_id })
}

// @gt A
/// Create an assignment in a course; students see it as soon as it is published.
#[tool_contract(effect = reversible, idempotency = key(client_ref), authority = "courses:write")]
pub fn create_assignment(
    // @gt A
    /// Course it belongs to, e.g. `BIO210`.
    #[arg(pattern = "^[A-Z]{3}[0-9]{3}$")]
    course_code: String,
    // @gt A
    /// Title students see, 3–120 characters.
    #[arg(length(min = 3, max = 120))]
    title: String,
    // @gt A
    /// Due date and time, as an RFC 3339 timestamp in UTC (2026-03-01T23:59:00Z).
    due_at: chrono::DateTime<chrono::Utc>,
    // @gt C: prose says between 1 and 100; declares range(min = 1, max = 1000)
    /// Points the assignment is worth, between 1 and 100.
    #[arg(range(min = 1, max = 1000))]
    max_points: u16,
    // @gt A
    /// Links to handout files, up to 5 URLs.
    #[arg(length(max = 5), each(format = "uri"))]
    attachments: Vec<String>,
    // @gt A
    /// Idempotency key, a UUID; sending the same one again does not create a
    /// second assignment.
    #[arg(format = "uuid")]
    client_ref: String,
) -> Result<Saved, SchoolError> {
    Ok(Saved { id: client_ref })
}

// @gt B: world rules, at most 35 students per section and 6 courses per student per term
/// Enroll a student in a course section. A section holds at most 35 students
/// and a student may take at most 6 courses per term.
#[tool_contract(effect = reversible, idempotency = natural, authority = "courses:write")]
pub fn enroll_student(
    // @gt A
    /// Student number to enroll (`s` + 7 digits).
    #[arg(pattern = "^s[0-9]{7}$")]
    student_id: String,
    // @gt A
    /// Three-letter subject and three-digit number, e.g. `CHE120`.
    #[arg(pattern = "^[A-Z]{3}[0-9]{3}$")]
    course_code: String,
    // @gt C: prose says 1 to 12; declares range(min = 1, max = 20)
    /// Section to join, 1 to 12.
    #[arg(range(min = 1, max = 20))]
    section: u8,
) -> Result<Saved, SchoolError> {
    Ok(Saved { id: student_id })
}

// @gt A
/// Post an announcement to everyone in a course; students get it by email and
/// in the app.
#[tool_contract(
    effect = external,
    idempotency = key(announcement_key),
    approval = never,
    authority = "courses:announce"
)]
pub fn post_announcement(
    // @gt A
    /// Course to announce to.
    #[arg(pattern = "^[A-Z]{3}[0-9]{3}$")]
    course_code: String,
    // @gt B: no emoji (a character class not declared); the 1 to 80 length is declared
    /// Subject line, 1 to 80 characters, no emoji.
    #[arg(length(min = 1, max = 80))]
    subject: String,
    // @gt A
    /// Announcement text in Markdown, up to 5000 characters.
    #[arg(length(min = 1, max = 5000))]
    body: String,
    // @gt A
    /// A UUID for this announcement, so a retry does not post it twice.
    #[arg(format = "uuid")]
    announcement_key: String,
) -> Result<Saved, SchoolError> {
    Ok(Saved { id: announcement_key })
}

// @gt A
/// Build a student's transcript and return a download link valid for one hour.
#[tool_contract(effect = read_only, authority = "grades:read")]
pub fn export_transcript(
    // @gt A
    /// Whose transcript.
    #[arg(pattern = "^s[0-9]{7}$")]
    student_id: String,
    // @gt C: prose says records go back to 2015; declares served(range(min = 2010, max = 2026))
    /// First academic year to include; records go back to 2015.
    #[arg(served(range(min = 2010, max = 2026)))]
    from_year: u16,
    // @gt C: lists json, which the enum does not have
    /// File type: pdf, csv or json.
    format: Option<TranscriptFormat>,
) -> Result<Download, SchoolError> {
    Ok(Download { url: String::new() })
}
