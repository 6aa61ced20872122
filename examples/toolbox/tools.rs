//! The tools of the reference example `toolbox`, declared with contract-runtime.
//!
//! This file is the root package's library (`toolbox`), so the example, the
//! tests and the benches compile the tools once and share them. The example
//! (`examples/toolbox/main.rs`) adds the commands around them.
//!
//! Roots: `notes` is DIR/notes, `repo` is DIR/repo, `base` is DIR itself
//! (for `outbox.jsonl`). Every path a tool touches resolves beneath one of them.

use contract_runtime::command::{
    program, CommandLine, CommandRejection, Program, RunError, RunLimits,
};
use contract_runtime::digest::sha256_hex as version_of;
use contract_runtime::path::PathError;
use contract_runtime::prelude::*;
use serde::Serialize;

/// Host state: the sub-directory of `repo/` the current task may change freely.
#[derive(Clone, Debug, Default)]
pub struct TaskScope(pub Option<String>);

/// Host state, a testing aid (`--fault`): the process aborts, with no
/// cleanup, inside the first write tool call it runs, just before or just
/// after that tool's effect, so the call's outcome is never recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    CrashBeforeEffect,
    CrashAfterEffect,
}

impl std::str::FromStr for Fault {
    type Err = String;
    fn from_str(s: &str) -> Result<Fault, String> {
        match s {
            "crash-before-effect" => Ok(Fault::CrashBeforeEffect),
            "crash-after-effect" => Ok(Fault::CrashAfterEffect),
            other => Err(format!(
                "`{other}` is not a fault: use crash-before-effect or crash-after-effect"
            )),
        }
    }
}

/// A write tool's effect, where `--fault` strikes.
fn effect<T>(ctx: &CallContext, act: impl FnOnce() -> T) -> T {
    let fault = ctx.state::<Fault>().copied();
    if fault == Some(Fault::CrashBeforeEffect) {
        std::process::abort();
    }
    let out = act();
    if fault == Some(Fault::CrashAfterEffect) {
        std::process::abort();
    }
    out
}

fn root<'a>(ctx: &'a CallContext, name: &str) -> Result<&'a Root, IoFailure> {
    ctx.root(name).ok_or(IoFailure::NoRoot)
}

/// A failure of the file system under a tool.
#[derive(Debug, ToolFailure)]
pub enum IoFailure {
    /// The host did not configure the folder this tool works in.
    #[failure(code = "no-root")]
    NoRoot,
    /// The file system refused the operation.
    #[failure(code = "io-error", transient)]
    Io,
}

impl From<PathError> for IoFailure {
    fn from(_: PathError) -> Self {
        IoFailure::Io
    }
}

// ------------------------------------------------------------------ note names

/// The rule every note name follows: the pattern `tag_notes` and
/// `delete_note` declare (the macro takes a literal there, and a test checks
/// the two are this text) and the names `search_notes` searches.
pub const NOTE_NAME: &str = r"^[a-z0-9][a-z0-9_-]{0,63}\.md$";

/// Whether `name` matches [`NOTE_NAME`]: a lowercase letter or digit, at
/// most 63 more of lowercase letters, digits, `_` and `-`, then `.md`. So no
/// dot-file (`.draft.md`), no capital (`Upper.md`), no folder.
pub fn is_note_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".md") else {
        return false;
    };
    let mut chars = stem.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase() || c.is_ascii_digit())
        && stem.len() <= 64
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-'))
}

// ------------------------------------------------------------------ search_notes

/// One line of a note that matched.
#[derive(Serialize, JsonSchema)]
pub struct Match {
    /// The note's file name.
    pub note: String,
    /// 1-based line number.
    pub line: usize,
    /// The line's text.
    pub text: String,
}

/// The lines that matched, in note order.
#[derive(Serialize, JsonSchema)]
pub struct Matches {
    /// Every matching line; empty when nothing matched.
    pub matches: Vec<Match>,
}

/// Search the approved public-note index. An empty list means that this
/// search found no match, not that the topic does not exist.
#[tool_contract(effect = read_only, authority = "notes:read")]
pub fn search_notes(
    ctx: &CallContext,
    /// Text to search for; matched case-insensitively as a substring.
    #[arg(length(min = 1, max = 200))]
    query: String,
) -> Result<Matches, IoFailure> {
    let notes = root(ctx, "notes")?;
    let needle = query.to_lowercase();
    let mut matches = Vec::new();
    for name in notes.list_files(&here())? {
        // Only notes: a dot-file (a hidden draft) or a name outside the rule
        // is no note of the index, and tag_notes and delete_note refuse it.
        if !is_note_name(&name) {
            continue;
        }
        let Ok(p) = ConfinedPath::parse(&name) else {
            continue;
        };
        // A note that is not all UTF-8 is still searched, its undecodable
        // bytes read as U+FFFD: one such note must not fail every search.
        let bytes = match notes.read(&p) {
            Ok(bytes) => bytes,
            // A note this process may not read, or one that changed under
            // the listing (removed, replaced by a folder or a link), is
            // skipped as a FIFO is: one such note must not fail every search.
            Err(PathError::Io(e)) if e.kind() == std::io::ErrorKind::PermissionDenied => continue,
            Err(PathError::NotFound | PathError::NotAFile | PathError::OutsideScope) => continue,
            Err(e) => return Err(e.into()),
        };
        let text = String::from_utf8_lossy(&bytes);
        for (i, line) in text.lines().enumerate() {
            if line.to_lowercase().contains(&needle) {
                matches.push(Match {
                    note: name.clone(),
                    line: i + 1,
                    text: line.to_string(),
                });
            }
        }
    }
    Ok(Matches { matches })
}

fn here() -> ConfinedPath {
    // "." always passes the lexical rules.
    ConfinedPath::parse(".").unwrap_or_else(|_| unreachable!("`.` is a valid confined path"))
}

// ------------------------------------------------------------------ read_file

/// The largest file `read_file` and `replace_text` read (8 MiB).
pub const MAX_FILE: u64 = 8 << 20;

/// A file's content and the version to send back when replacing text in it.
#[derive(Serialize, JsonSchema)]
pub struct FileContent {
    /// The path as requested.
    pub path: String,
    /// The file's text.
    pub content: String,
    /// `sha256:` + hex of the content.
    pub version: String,
}

/// Why a file could not be read or changed.
#[derive(Debug, ToolFailure)]
pub enum FileError {
    /// No file exists at this path.
    #[failure(
        code = "not-found",
        field = "path",
        repair = "list the repository or check the path's spelling"
    )]
    NotFound,
    /// The path names a directory or a special file.
    #[failure(code = "not-a-file", field = "path")]
    NotAFile,
    /// The file is not UTF-8 text.
    #[failure(code = "not-text", field = "path")]
    NotText,
    /// The file changed since it was read.
    #[failure(
        code = "conflict",
        field = "expected_version",
        message = "{path} changed since it was read",
        repair = "read the file again and retry with its new version"
    )]
    Conflict {
        /// The file, as the call named it (inside the root: an escape is
        /// denied before the tool runs).
        path: String,
        /// Reads the file again.
        #[repair]
        reread: RepairCall,
    },
    /// `old_text` does not occur in the file.
    #[failure(
        code = "no-match",
        field = "old_text",
        repair = "read the file and copy the exact text to replace"
    )]
    NoMatch,
    /// `old_text` occurs more than once.
    #[failure(
        code = "multiple-matches",
        field = "old_text",
        message = "old_text occurs {count} times; it must occur exactly once",
        repair = "include more surrounding text so it matches exactly once"
    )]
    MultipleMatches {
        /// How many times it occurs.
        count: usize,
    },
    /// The path leads into `.git/`: the repository's own data and settings,
    /// which decide what git runs, not a file of the work tree.
    #[failure(
        code = "repository-metadata",
        field = "path",
        denied,
        message = "`.git/` holds the repository's own data and settings, which this tool does not edit",
        repair = "edit files of the work tree, outside `.git/`"
    )]
    RepositoryMetadata,
    /// Where the path leads changed after it was checked (a link swapped
    /// in between): outside the task's scope that the approval rule saw it
    /// inside, or outside the root. Nothing was changed.
    #[failure(
        code = "path-moved",
        field = "path",
        denied,
        message = "where the path leads changed after it was checked (a link was swapped); nothing changed",
        repair = "send the call again: it will be checked where the path leads now"
    )]
    PathMoved,
    /// The file is larger than this tool reads.
    #[failure(
        code = "file-too-large",
        field = "path",
        message = "the file is {size} bytes, more than the {max} this tool reads",
        repair = "tell the user the file is too large to read whole"
    )]
    TooLarge {
        /// Its size in bytes.
        size: u64,
        /// The most this tool reads.
        max: u64,
    },
    /// The file system does not let this server read or write the file.
    #[failure(
        code = "not-permitted",
        field = "path",
        message = "the server may not use this file (its permissions refuse it); nothing changed",
        repair = "choose another file, or ask the user to change its permissions"
    )]
    NotPermitted,
    /// The file system refused the operation.
    #[failure(code = "io-error", transient)]
    Io,
}

impl From<PathError> for FileError {
    fn from(e: PathError) -> Self {
        match e {
            PathError::NotFound => FileError::NotFound,
            PathError::NotAFile => FileError::NotAFile,
            PathError::TooLarge { size, max } => FileError::TooLarge { size, max },
            // The dispatcher denied escapes before the tool ran; a later
            // one is a link swapped since: it will be so again, not passing.
            PathError::OutsideScope => FileError::PathMoved,
            // The same answer every time: not a passing failure to retry
            // (nor one the breaker counts against every other path).
            PathError::Io(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
                FileError::NotPermitted
            }
            PathError::Io(_) => FileError::Io,
            // Any kind a later release adds: the file could not be used.
            _ => FileError::Io,
        }
    }
}

impl From<IoFailure> for FileError {
    fn from(_: IoFailure) -> Self {
        FileError::Io
    }
}

/// Read one text file of the repository, with the version `replace_text` needs.
#[tool_contract(effect = read_only, authority = "repo:read")]
pub fn read_file(
    ctx: &CallContext,
    /// The file, relative to the repository root.
    #[arg(root = "repo")]
    path: ConfinedPath,
) -> Result<FileContent, FileError> {
    let repo = root(ctx, "repo")?;
    let bytes = repo.read(&path)?;
    let content = String::from_utf8(bytes).map_err(|_| FileError::NotText)?;
    Ok(FileContent {
        path: path.as_str().to_string(),
        version: version_of(content.as_bytes()),
        content,
    })
}

// ------------------------------------------------------------------ replace_text

/// The file that changed and its new version.
#[derive(Serialize, JsonSchema)]
pub struct Replaced {
    /// The path as requested.
    pub changed_file: String,
    /// The new version.
    pub version: String,
}

/// Replace one exact block of text in one repository file. The block must
/// occur exactly once, and the file must still be at the version read.
#[tool_contract(
    effect = reversible,
    idempotency = none,
    authority = "repo:write",
    precheck = not_repository_metadata,
    approval = when(outside_task_scope)
)]
pub fn replace_text(
    ctx: &CallContext,
    /// The file, relative to the repository root.
    #[arg(root = "repo")]
    path: ConfinedPath,
    /// The exact text to replace; it must occur exactly once.
    #[arg(length(min = 1))]
    old_text: String,
    /// The text to put in its place.
    new_text: String,
    /// The version `read_file` returned.
    #[arg(pattern = "^sha256:[0-9a-f]{64}$")]
    expected_version: String,
) -> Result<Replaced, FileError> {
    let repo = root(ctx, "repo")?;
    // Where the path leads, links followed: `l/config` with `l -> .git` is
    // refused as `.git/config` is. Every check below is on this resolved
    // path, and the file is read and written there following no link: a
    // link swapped after the checks cannot lead the edit elsewhere.
    let resolved = repo.resolve(&path)?;
    if is_repository_metadata(&resolved) {
        return Err(FileError::RepositoryMetadata);
    }
    // The approval rule judged where the path led a moment ago; a call it
    // let run without a person must still lead inside the scope.
    if !ctx.approved() && outside_scope(ctx, &resolved).is_some() {
        return Err(FileError::PathMoved);
    }
    let target = ConfinedPath::parse(&resolved).map_err(|_| FileError::NotAFile)?;
    // From the version check to the write, no other edit of a file in the
    // folder (another call, another server on this root): two calls that
    // read the same version would both pass the check, and the first one's
    // change would be written over though it was answered `ok`.
    let _lock = repo.lock_folder_of(&target)?;
    let bytes = repo.read_nofollow(&target)?;
    let content = String::from_utf8(bytes).map_err(|_| FileError::NotText)?;
    let current = version_of(content.as_bytes());
    if current != expected_version {
        let reread = RepairCall::new("read_file", serde_json::json!({ "path": path.as_str() }));
        return Err(FileError::Conflict {
            path: path.as_str().to_string(),
            reread,
        });
    }
    match occurrences(&content, &old_text) {
        0 => return Err(FileError::NoMatch),
        1 => {}
        count => return Err(FileError::MultipleMatches { count }),
    }
    let updated = content.replacen(old_text.as_str(), &new_text, 1);
    effect(ctx, || {
        repo.write_atomic_nofollow(&target, updated.as_bytes())
    })?;
    Ok(Replaced {
        changed_file: path.as_str().to_string(),
        version: version_of(updated.as_bytes()),
    })
}

/// `replace_text` never edits `.git/`: refused before anyone is asked, so
/// that a person is not asked to approve an edit that could never run (the
/// handler checks again where the path leads when it runs). A path that
/// does not resolve is the handler's to answer.
pub fn not_repository_metadata(ctx: &CallContext, args: &ReplaceTextArgs) -> Result<(), FileError> {
    let repo = root(ctx, "repo")?;
    match repo.resolve(&args.path) {
        Ok(resolved) if is_repository_metadata(&resolved) => Err(FileError::RepositoryMetadata),
        _ => Ok(()),
    }
}

/// Whether a resolved path (links followed, relative to `repo/`) leads into
/// `.git/`: the one test of the precheck and of the handler.
fn is_repository_metadata(resolved: &str) -> bool {
    resolved.split('/').next() == Some(".git")
}

/// How many times `needle` (not empty) occurs in `hay`, overlapping ones
/// included: "aa" occurs twice in "aaa", and either could be the one meant.
fn occurrences(hay: &str, needle: &str) -> usize {
    let step = needle.chars().next().map_or(1, char::len_utf8);
    let (mut count, mut from) = (0, 0);
    while let Some(at) = hay[from..].find(needle) {
        count += 1;
        from += at + step;
    }
    count
}

/// `replace_text` needs a person when the file lies outside the task's scope.
/// Where the file is, not how its path is spelled, decides: a link inside the
/// scope to a folder outside it (`src/l -> ../docs`) leads outside. A path
/// that cannot be resolved needs a person too (the path check refuses an
/// escape before this rule is asked).
pub fn outside_task_scope(ctx: &CallContext, args: &ReplaceTextArgs) -> Option<String> {
    let scope = outside_scope(ctx, args.path.as_str())?;
    // The path is the model's text and the person reads this: escaped, so
    // a newline in it cannot start a line of its own ("SYSTEM: approved").
    Some(format!(
        "`{}` is outside the task scope `{scope}`",
        args.path.as_str().escape_debug()
    ))
}

/// The task's scope, when `path` leads outside it (or cannot be resolved).
fn outside_scope<'c>(ctx: &'c CallContext, path: &str) -> Option<&'c str> {
    let scope = ctx.state::<TaskScope>()?.0.as_deref()?;
    let repo = ctx.root("repo");
    let located = |p: &str| {
        let p = ConfinedPath::parse(p).ok()?;
        repo?.resolve(&p).ok()
    };
    let inside = match (located(path), located(scope)) {
        (Some(path), Some(scope)) => within(&path, &scope),
        _ => false,
    };
    (!inside).then_some(scope)
}

/// Whether `path` lies inside the directory `scope`, comparing normalised components.
fn within(path: &str, scope: &str) -> bool {
    let (p, s) = (components(path), components(scope));
    p.len() > s.len() && p[..s.len()] == s[..]
}

/// A relative path's names after `.` and `..` are applied.
fn components(s: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for c in s.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

// ------------------------------------------------------------------ list_filings

/// One filing.
#[derive(Serialize, JsonSchema)]
pub struct Filing {
    /// Ticker symbol.
    pub company: String,
    /// Fiscal year.
    pub year: u16,
    /// Form type, e.g. 10-K.
    pub form: String,
}

/// The filings found.
#[derive(Serialize, JsonSchema)]
pub struct Filings {
    /// Every filing of that company and year; empty when there is none.
    pub filings: Vec<Filing>,
}

/// Company, fiscal year, form, and the date it was filed.
const FILINGS: &[(&str, u16, &str, &str)] = &[
    ("ACME", 2001, "10-K", "2002-03-28"),
    ("ACME", 2019, "10-K", "2020-02-27"),
    ("ACME", 2019, "10-Q", "2019-11-05"),
    ("GLOBX", 2024, "10-K", "2025-03-03"),
    ("INIT", 2026, "8-K", "2026-04-14"),
];

/// List a company's public filings for one year from the filings index.
#[tool_contract(
    effect = read_only,
    authority = "filings:read",
    rules(le(from, to), max_span(from, to, 366 days)),
    examples(
        {company: "ACME", year: 2019},
        {company: "ACME", year: 2019, from: "2019-10-01", to: "2019-12-31"}
    )
)]
pub fn list_filings(
    /// Ticker symbol of the company.
    #[arg(pattern = "^[A-Z]{1,5}$")]
    company: String,
    /// Fiscal year; the index serves 2001 to 2026.
    #[arg(served(range(min = 2001, max = 2026)))]
    year: u16,
    /// Only filings filed on or after this date.
    #[arg(served(range(min = "2001-01-01")))]
    from: Option<chrono::NaiveDate>,
    /// Only filings filed on or before this date.
    #[arg(served(range(min = "2001-01-01")))]
    to: Option<chrono::NaiveDate>,
) -> Result<Filings, std::convert::Infallible> {
    let filings = FILINGS
        .iter()
        .filter(|(c, y, _, _)| *c == company && *y == year)
        .filter(|(_, _, _, filed)| {
            // The table's dates are constants in `YYYY-MM-DD`; one that does
            // not parse is left out rather than trusted.
            let Ok(filed) = chrono::NaiveDate::parse_from_str(filed, "%Y-%m-%d") else {
                return false;
            };
            from.is_none_or(|f| f <= filed) && to.is_none_or(|t| filed <= t)
        })
        .map(|(c, y, f, _)| Filing {
            company: c.to_string(),
            year: *y,
            form: f.to_string(),
        })
        .collect();
    Ok(Filings { filings })
}

// ------------------------------------------------------------------ tag_notes

/// What tagging one note did.
#[derive(Serialize, JsonSchema)]
pub struct Tagged {
    /// Whether the tag was added now (false: the note had it already).
    pub added: bool,
}

/// Why one note could not be tagged.
#[derive(Debug, ToolFailure)]
pub enum TagError {
    /// No note has this name.
    #[failure(
        code = "no-such-note",
        field = "notes",
        repair = "call search_notes to find the note's name"
    )]
    NoSuchNote,
    /// The file system refused the operation.
    #[failure(code = "io-error", transient)]
    Io,
}

/// Add a tag to each of several notes: `#tag` on a line of its own at the
/// end. A note has the tag when `#tag` appears anywhere in it as a whole word
/// (not right after a letter, digit, `_`, `-`, `/` or `&`, and not followed
/// by a letter, digit, `_`, `-` or `/`); tagging such a note changes nothing.
#[tool_contract(effect = reversible, idempotency = natural, authority = "notes:write")]
pub fn tag_notes(
    ctx: &CallContext,
    /// The notes to tag, by file name.
    // the pattern is [`NOTE_NAME`]: the macro needs the literal
    #[arg(
        length(min = 1, max = 50),
        unique,
        each(pattern = r"^[a-z0-9][a-z0-9_-]{0,63}\.md$")
    )]
    notes: Vec<String>,
    /// The tag, without `#`.
    #[arg(pattern = "^[a-z][a-z0-9-]{0,31}$")]
    tag: String,
) -> Batch<Tagged, TagError> {
    let Some(dir) = ctx.root("notes") else {
        return notes.into_iter().map(|n| (n, Err(TagError::Io))).collect();
    };
    let line = format!("#{tag}");
    notes
        .into_iter()
        .map(|name| {
            let r = (|| {
                let p = ConfinedPath::parse(&name).map_err(|_| TagError::NoSuchNote)?;
                let refused = |e: PathError| match e {
                    PathError::NotFound | PathError::NotAFile | PathError::OutsideScope => {
                        TagError::NoSuchNote
                    }
                    _ => TagError::Io,
                };
                // The note is read and written back whole: under the
                // folder's lock, so a tag another call adds meanwhile is
                // not written over, nor a deleted note written back.
                let _lock = dir.lock_folder_of(&p).map_err(refused)?;
                // bytes, not text: a note with bytes that are not UTF-8 is
                // tagged too, its bytes kept as they are
                let mut bytes = dir.read(&p).map_err(refused)?;
                if has_tag(&String::from_utf8_lossy(&bytes), &tag) {
                    return Ok(Tagged { added: false });
                }
                // The note's own line ending: a note written with CRLF
                // gets its tag line with CRLF too.
                let eol: &[u8] = if bytes.windows(2).any(|w| w == b"\r\n") {
                    b"\r\n"
                } else {
                    b"\n"
                };
                if !bytes.is_empty() && !bytes.ends_with(b"\n") {
                    bytes.extend_from_slice(eol);
                }
                bytes.extend_from_slice(line.as_bytes());
                bytes.extend_from_slice(eol);
                effect(ctx, || dir.write_atomic(&p, &bytes)).map_err(|_| TagError::Io)?;
                Ok(Tagged { added: true })
            })();
            (name, r)
        })
        .collect()
}

/// Whether `text` has the tag `tag`: `#tag` as a whole word, the one rule
/// tag_notes' description states. `#todo` has it in `has #todo.` and in
/// `(#todo)`, not in `#todos`, `#todo-later`, `#todo/x`, `a#todo` or `&#todo`.
pub fn has_tag(text: &str, tag: &str) -> bool {
    let needle = format!("#{tag}");
    let word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '/');
    text.match_indices(&needle).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + needle.len()..].chars().next();
        !before.is_some_and(|c| word(c) || c == '&') && !after.is_some_and(word)
    })
}

// ------------------------------------------------------------------ delete_note

/// What was deleted.
#[derive(Serialize, JsonSchema)]
pub struct Deleted {
    /// The note's file name.
    pub deleted: String,
}

/// Why a note could not be deleted.
#[derive(Debug, ToolFailure)]
pub enum DeleteError {
    /// No note has this name.
    #[failure(
        code = "no-such-note",
        field = "note",
        repair = "call search_notes to find the note's name"
    )]
    NoSuchNote,
    /// The file system does not let this server remove the note.
    #[failure(
        code = "not-permitted",
        field = "note",
        message = "the server may not remove this note (its folder's permissions refuse it); nothing changed",
        repair = "tell the user; another name will not help"
    )]
    NotPermitted,
    /// The file system refused the operation.
    #[failure(code = "io-error", transient)]
    Io,
}

/// Delete one note for good. It cannot be undone.
#[tool_contract(effect = destructive, idempotency = natural, approval = always, authority = "notes:write")]
pub fn delete_note(
    ctx: &CallContext,
    /// The note to delete, by file name.
    // the pattern is [`NOTE_NAME`]: the macro needs the literal
    #[arg(pattern = r"^[a-z0-9][a-z0-9_-]{0,63}\.md$")]
    note: String,
) -> Result<Deleted, DeleteError> {
    let dir = ctx.root("notes").ok_or(DeleteError::Io)?;
    let p = ConfinedPath::parse(&note).map_err(|_| DeleteError::NoSuchNote)?;
    // (a tag being added is written back whole: not while it is)
    let removed = dir
        .lock_folder_of(&p)
        .and_then(|_lock| effect(ctx, || dir.remove_file(&p)));
    match removed {
        Ok(()) => Ok(Deleted { deleted: note }),
        // A name that leads out of the index (a link, or a hard link whose
        // other names may be anywhere) names no note of it: the same
        // answer every time, never the passing `io-error`.
        Err(PathError::NotFound | PathError::NotAFile | PathError::OutsideScope) => {
            Err(DeleteError::NoSuchNote)
        }
        Err(PathError::Io(e)) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            Err(DeleteError::NotPermitted)
        }
        Err(_) => Err(DeleteError::Io),
    }
}

// ------------------------------------------------------------------ post_comment

/// The comment as posted.
#[derive(Serialize, JsonSchema)]
pub struct Posted {
    /// The issue commented on.
    pub issue: u32,
    /// The request key it was posted under.
    pub request_key: String,
}

/// Why a comment could not be posted.
#[derive(Debug, ToolFailure)]
pub enum PostError {
    /// The outbox could not be written; the comment may or may not have been posted.
    #[failure(code = "outbox-write-failed", unknown)]
    WriteFailed,
    /// The outbox could not be opened (it is a folder, a FIFO, a link, or
    /// the server may not write it): nothing was written.
    #[failure(
        code = "outbox-unavailable",
        message = "the outbox cannot be opened for writing; nothing was posted",
        repair = "tell the user the comment was not posted; once the host has mended its outbox, post it with a new request_key (this key keeps this answer)"
    )]
    Unavailable,
}

/// Post a comment on an issue, visible to everyone who follows it. Sending
/// the same request key again returns the first outcome and posts nothing.
#[tool_contract(
    effect = external,
    idempotency = key(request_key),
    approval = never,
    authority = "comments:write"
)]
pub fn post_comment(
    ctx: &CallContext,
    /// The issue number.
    #[arg(range(min = 1, max = 1000000))]
    issue: u32,
    /// The comment's text (Markdown).
    #[arg(length(min = 1, max = 2000))]
    body: String,
    /// A fresh UUID for this comment; reuse it only to retry this same comment.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Posted, PostError> {
    let base = ctx.root("base").ok_or(PostError::WriteFailed)?;
    // The outbox stands for the service a real tool would call: it gets the
    // key as that service's own idempotency key (`Idempotency-Key`), so a
    // retry an operator allows after `unknown` is one request there too.
    let line = serde_json::json!({
        "issue": issue,
        "body": body,
        "request_key": request_key,
        "idempotency_key": ctx.downstream_key(),
        "call_id": ctx.call_id(),
    })
    .to_string()
        + "\n";
    let outbox = ConfinedPath::parse("outbox.jsonl").map_err(|_| PostError::WriteFailed)?;
    // A plain append: one line is one comment posted. That a request key has
    // one effect is the dispatcher's promise, kept through its store.
    effect(ctx, || base.append(&outbox, line.as_bytes())).map_err(|e| match e {
        // refused at the open, before a byte: known to have had no effect
        PathError::NotAFile | PathError::NotFound | PathError::OutsideScope => {
            PostError::Unavailable
        }
        PathError::Io(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            PostError::Unavailable
        }
        // a write that failed part way may have posted part of the line
        _ => PostError::WriteFailed,
    })?;
    Ok(Posted { issue, request_key })
}

// ------------------------------------------------------------------ git_log

/// The one program the toolbox may run, and the one subcommand.
const GIT: Program = program("git", &["log"]);

/// One commit.
#[derive(Serialize, JsonSchema)]
pub struct Commit {
    /// The full commit id.
    pub id: String,
    /// The author's name.
    pub author: String,
    /// The message's subject (git's `%s`): its first paragraph, lines joined by spaces.
    pub subject: String,
}

/// The commits, newest first.
#[derive(Serialize, JsonSchema)]
pub struct Commits {
    /// Up to `max_count` commits, each whole; fewer when `truncated`.
    pub commits: Vec<Commit>,
    // One line: a field's doc is its description, line breaks and all.
    /// Whether the log passed the 1 MiB this tool reads: then `commits` holds only the newest whole commits; for older ones, call again with `rev` set to the last id followed by `~1`.
    pub truncated: bool,
}

/// Why the history could not be read.
#[derive(Debug, ToolFailure)]
pub enum GitError {
    /// The value would be read by git as an option.
    #[failure(
        code = "argument-refused",
        field = "rev",
        denied,
        message = "{reason}",
        repair = "send a branch, tag or commit id that does not begin with `-`"
    )]
    Refused {
        /// Why, without echoing the value.
        reason: String,
    },
    /// The value holds a NUL byte, which no revision has and no argument
    /// can carry.
    #[failure(
        code = "argument-refused",
        field = "rev",
        denied,
        message = "{reason}",
        repair = "send the revision without the nul byte (`\\u0000`)"
    )]
    Nul {
        /// Why, without echoing the value.
        reason: String,
    },
    /// git does not know this revision.
    #[failure(
        code = "no-such-revision",
        field = "rev",
        repair = "use `HEAD`, a branch or tag name, or a commit id"
    )]
    NoSuchRevision,
    /// `repo/` holds no git repository of its own (`repo/.git` is missing,
    /// or is a link or a file, not the folder itself).
    #[failure(
        code = "not-a-repository",
        repair = "the repository has no history to show; do not retry"
    )]
    NotARepository,
    /// git did not finish in time.
    #[failure(code = "transient", transient)]
    Timeout,
    /// git could not run or failed.
    #[failure(code = "git-failed")]
    Failed,
}

impl From<CommandRejection> for GitError {
    fn from(r: CommandRejection) -> Self {
        let reason = r.message();
        match r {
            CommandRejection::Nul { .. } => GitError::Nul { reason },
            _ => GitError::Refused { reason },
        }
    }
}

/// The log's size past which git_log answers `truncated` (`Commits`).
const GIT_LOG_LIMITS: RunLimits = RunLimits {
    timeout: std::time::Duration::from_secs(10),
    max_output_bytes: 1 << 20,
};

/// Show the latest commits of the repository, newest first, starting from a
/// revision. A log longer than this tool reads comes back with
/// `truncated: true` and the newest commits that fit.
#[tool_contract(effect = read_only, authority = "repo:read", timeout_ms = 10000)]
pub fn git_log(
    ctx: &CallContext,
    /// Where to start: a branch or tag name, a commit id, or an expression like `HEAD~2`.
    #[arg(length(min = 1, max = 200))]
    rev: String,
    /// How many commits to show; the log serves at most 100.
    #[arg(range(min = 1), served(range(max = 100)))]
    max_count: u32,
) -> Result<Commits, GitError> {
    // The command line first: a revision shaped like an option is refused
    // as such whether or not there is a repository to read.
    let cmd = CommandLine::new(&GIT, "log")?
        .flag("--no-color")
        .flag("--format=%H%x09%an%x09%s")
        .option_value("--max-count", &max_count.to_string())?
        .revision("rev", &rev)?;
    // `.git` must be the folder itself beneath `repo/`, found through the
    // root's handle: git would follow a link (or a `gitdir:` file)
    // anywhere. git is given the folders the handles hold, not their
    // names, so nothing swapped in their place while it runs is read.
    // Without `/proc` to name a handle by, git does not run (`git-failed`):
    // a path would let that swap in again.
    let repo = ctx.root("repo").ok_or(GitError::Failed)?;
    let cmd = match cmd.git_repository_of(repo) {
        Ok(cmd) => cmd,
        Err(PathError::Io(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
            return Err(GitError::Failed)
        }
        Err(_) => return Err(GitError::NotARepository),
    };
    let out = cmd.run(GIT_LOG_LIMITS).map_err(|e| match e {
        RunError::Timeout => GitError::Timeout,
        _ => GitError::Failed,
    })?;
    if out.status != Some(0) {
        let unknown = [
            "unknown revision",
            "bad revision",
            "ambiguous argument",
            "does not have any commits",
        ];
        return Err(if unknown.iter().any(|u| out.stderr.contains(u)) {
            GitError::NoSuchRevision
        } else {
            GitError::Failed
        });
    }
    // One commit a line. Cut at the cap, the last line may be part of a
    // commit (a subject cut short, or an id): only whole lines are read.
    let whole = if out.truncated {
        out.stdout.rfind('\n').map_or("", |end| &out.stdout[..=end])
    } else {
        out.stdout.as_str()
    };
    let commits = whole
        .lines()
        .filter_map(|l| {
            let mut parts = l.splitn(3, '\t');
            Some(Commit {
                id: parts.next()?.to_string(),
                author: parts.next()?.to_string(),
                subject: parts.next().unwrap_or("").to_string(),
            })
        })
        .collect();
    Ok(Commits {
        commits,
        truncated: out.truncated,
    })
}

/// Every toolbox tool, in the order `toolbox schemas` prints them.
pub fn registry() -> Registry {
    Registry::builder()
        .tool(search_notes::contract())
        .tool(read_file::contract())
        .tool(replace_text::contract())
        .tool(list_filings::contract())
        .tool(tag_notes::contract())
        .tool(delete_note::contract())
        .tool(post_comment::contract())
        .tool(git_log::contract())
        .build()
        .unwrap_or_else(|e| panic!("the toolbox registry is valid: {e}"))
}

/// Every scope the toolbox tools need.
pub fn all_scopes() -> Vec<&'static str> {
    let mut scopes: Vec<&'static str> = registry()
        .tools()
        .flat_map(|t| t.spec().authority.iter().copied())
        .collect();
    scopes.sort_unstable();
    scopes.dedup();
    scopes
}

/// The caller of a session over `root`: every toolbox scope but the denied ones,
/// the three roots (`notes` = DIR/notes, `repo` = DIR/repo, `base` = DIR), the
/// task scope, and the repository folder `git_log` runs in. Shared by
/// `serve-jsonl`, the demo and the attack tests.
pub fn caller(
    root: &std::path::Path,
    task_scope: Option<String>,
    deny: &[String],
) -> Result<Caller, String> {
    // A scope that is the whole repository, or not inside it, would let every
    // edit skip the person: refused, not taken as written.
    if let Some(scope) = &task_scope {
        if ConfinedPath::parse(scope).is_err() || components(scope).is_empty() {
            return Err(format!(
                "--task-scope {scope:?} must name a folder inside repo/ (relative, no `..`)"
            ));
        }
    }
    let base = Root::open(root, "base")
        .map_err(|e| format!("cannot open --root {}: {e}", root.display()))?;
    let notes = base
        .subdir("notes", true)
        .map_err(|e| format!("cannot open notes/: {e}"))?;
    // A file larger than a model should read whole is refused, not read
    // (`file-too-large`): 105 MB came back as one answer before.
    let repo = base
        .subdir("repo", true)
        .map_err(|e| format!("cannot open repo/: {e}"))?
        .max_read(MAX_FILE);
    let mut caller = Caller::new()
        .root("notes", notes)
        .root("repo", repo)
        .root("base", base)
        .state(TaskScope(task_scope));
    for scope in all_scopes() {
        if !deny.iter().any(|d| d == scope) {
            caller = caller.grant(scope);
        }
    }
    Ok(caller)
}
