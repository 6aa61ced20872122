//! Running programs for a tool without a shell.
//!
//! A model (or whoever writes into its context) must never be able to choose
//! which program runs, add options to it, or smuggle shell syntax into it. The
//! rules this module enforces, each of them a real bug in agent tool servers:
//!
//! * the program is fixed in the contract ([`Program`], a `const`) and is a
//!   bare name resolved from `PATH` by [`std::process::Command`]; no shell is
//!   ever started, so `; touch /tmp/pwned #` and `$(id)` stay literal text;
//! * the subcommand must be one the contract lists;
//! * flags are written by the tool author ([`CommandLine::flag`]); a value the
//!   model supplied is either glued to its option name as one argv element
//!   (`--max-count=5`, [`CommandLine::option_value`]) or is a positional that
//!   may not begin with `-` ([`CommandLine::positional`],
//!   [`CommandLine::revision`]), so `--output=/tmp/pwned`, `--upload-pack=...`
//!   or `-u/tmp/x` can never become options;
//! * positionals go after `--`, the end-of-options marker;
//! * URLs must use a scheme from an allowlist, and git's transport-helper
//!   syntax (`ext::sh -c ...`, `fd::17`) and option-like ssh hosts
//!   (`-oProxyCommand=...`) are refused ([`CommandLine::url`]).
//!
//! ```
//! use contract_runtime::command::{program, CommandLine, Program};
//!
//! const GIT: Program = program("git", &["log", "show"]);
//!
//! let cmd = CommandLine::new(&GIT, "log")?
//!     .flag("--no-color")
//!     .option_value("--max-count", "5")?
//!     .revision("rev", "HEAD")?
//!     .positional("path", "src/lib.rs")?;
//! assert_eq!(
//!     cmd.argv(),
//!     ["git", "log", "--no-color", "--max-count=5", "HEAD", "--", "src/lib.rs"]
//! );
//!
//! // A value that would be read as an option is refused, not passed on.
//! assert!(CommandLine::new(&GIT, "log")?.revision("rev", "--output=/tmp/x").is_err());
//! # Ok::<(), contract_runtime::command::CommandRejection>(())
//! ```

use std::ffi::OsString;
use std::fmt;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A program a tool may run: fixed in the contract (a const), never taken from the model.
///
/// `name` is a bare program name (`"git"`, no `/`) resolved from `PATH`;
/// `allowed_subcommands` lists the only first arguments the tool may pass. A
/// program without subcommands can list `""`, which then adds no argument.
///
/// ```
/// use contract_runtime::command::Program;
/// const GIT: Program = Program { name: "git", allowed_subcommands: &["log", "status"] };
/// assert_eq!(GIT.name, "git");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Program {
    /// The bare program name, e.g. `"git"`; resolved from `PATH`, never a path.
    pub name: &'static str,
    /// The subcommands the contract allows, e.g. `&["log", "show"]`.
    pub allowed_subcommands: &'static [&'static str],
}

/// Builds a [`Program`] in a `const` context, so the allowlist lives in the contract.
///
/// ```
/// use contract_runtime::command::{program, Program};
/// const GIT: Program = program("git", &["log"]);
/// assert_eq!(GIT.allowed_subcommands, &["log"]);
/// ```
pub const fn program(name: &'static str, allowed_subcommands: &'static [&'static str]) -> Program {
    Program {
        name,
        allowed_subcommands,
    }
}

/// Why a value was refused: shown to the model, never echoing secrets; lowercase one line.
///
/// Only the field name (chosen by the tool author) and, for URLs, the scheme
/// are ever repeated back; the refused value itself is not, because it may be
/// a token the model was handed. Nor are a refused program name or
/// subcommand: a tool may build either from model text. Their message says
/// what kind of value it was and what is allowed; the variant still holds
/// the value, for the tool author's logs.
///
/// ```
/// use contract_runtime::command::{program, CommandLine, CommandRejection};
/// const GIT: contract_runtime::command::Program = program("git", &["log"]);
/// let err = CommandLine::new(&GIT, "log").and_then(|c| c.revision("rev", "--help")).err();
/// assert_eq!(err, Some(CommandRejection::FlagLike { field: "rev".into() }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CommandRejection {
    /// The value begins with `-` where a positional is expected, so the
    /// program would parse it as an option.
    FlagLike {
        /// The field (argument name) that held the value.
        field: String,
    },
    /// The value contains a NUL byte, which cannot be passed in argv and
    /// would otherwise truncate the value silently.
    Nul {
        /// The field (argument name) that held the value.
        field: String,
    },
    /// The URL's scheme (or transport, for `x::y` and scp-like forms) is not
    /// in the allowlist, or is one that is never allowed (`ext`, `fd`).
    SchemeNotAllowed {
        /// The field (argument name) that held the URL.
        field: String,
        /// The scheme as parsed, lowercased; `"invalid"` when unparseable.
        scheme: String,
    },
    /// The URL's host or user part begins with `-`, which ssh would read as
    /// an option (`-oProxyCommand=...`).
    OptionLikeHost {
        /// The field (argument name) that held the URL.
        field: String,
    },
    /// The program name is not a bare, allowed name: it holds a `/` or `\`,
    /// is empty, `.` or `..`, begins with `-`, or is a shell, command runner
    /// or interpreter ([`CommandLine::new`] lists them). The message does not
    /// repeat the name.
    ProgramNotAllowed(String),
    /// The subcommand is not in the program's `allowed_subcommands`. The
    /// message gives its length, not its text.
    SubcommandNotAllowed(String),
    /// The option name given to [`CommandLine::option_value`] is not a long
    /// option (`--` and then a letter or digit, then letters, digits, `-`,
    /// `_` or `.`; no `=`). The name is the tool author's, so this is a
    /// mistake in the tool, refused when the command line is built like a
    /// program name is: with `-c` the value would join a short option's
    /// cluster (`-c=core.sshCommand=...`), and with `upload-pack` or an
    /// empty name, `name=value` would stand alone as a positional. The message repeats the name, which
    /// the author wrote.
    OptionNameNotLong(String),
    /// The value is empty where a positional or URL is required.
    Empty {
        /// The field (argument name) that held the value.
        field: String,
    },
}

impl CommandRejection {
    /// The field the refused value came from, if the refusal is about a value.
    ///
    /// ```
    /// use contract_runtime::command::CommandRejection;
    /// assert_eq!(CommandRejection::Empty { field: "rev".into() }.field(), Some("rev"));
    /// assert_eq!(CommandRejection::ProgramNotAllowed("sh".into()).field(), None);
    /// ```
    pub fn field(&self) -> Option<&str> {
        match self {
            CommandRejection::FlagLike { field }
            | CommandRejection::Nul { field }
            | CommandRejection::SchemeNotAllowed { field, .. }
            | CommandRejection::OptionLikeHost { field }
            | CommandRejection::Empty { field } => Some(field),
            CommandRejection::ProgramNotAllowed(_)
            | CommandRejection::SubcommandNotAllowed(_)
            | CommandRejection::OptionNameNotLong(_) => None,
        }
    }

    /// A lowercase, one-line explanation for the model; it never repeats the
    /// refused value (it may be a secret), only field names and schemes.
    ///
    /// ```
    /// use contract_runtime::command::CommandRejection;
    /// let m = CommandRejection::FlagLike { field: "rev".into() }.message();
    /// assert_eq!(m, "field `rev` must not begin with '-': it would be read as an option");
    /// ```
    pub fn message(&self) -> String {
        match self {
            CommandRejection::FlagLike { field } => format!(
                "field `{}` must not begin with '-': it would be read as an option",
                printable(field)
            ),
            CommandRejection::Nul { field } => {
                format!("field `{}` must not contain a nul byte", printable(field))
            }
            CommandRejection::SchemeNotAllowed { field, scheme } => format!(
                "field `{}`: url scheme `{}` is not allowed",
                printable(field),
                printable(scheme)
            ),
            CommandRejection::OptionLikeHost { field } => format!(
                "field `{}`: url host or user must not begin with '-': ssh would read it as an option",
                printable(field)
            ),
            // Neither the program nor the subcommand is repeated: a tool may
            // build either from the model's text, which may be a secret.
            CommandRejection::ProgramNotAllowed(name) if is_bare_program_name(name) => {
                "program is not allowed: it is a shell, command runner or interpreter, \
                 with which a value the model sends would decide what runs"
                    .to_string()
            }
            CommandRejection::ProgramNotAllowed(_) => "program is not allowed: \
                 it must be a bare name looked up on PATH (not empty, `.` or `..`, \
                 no '/' or '\\', not beginning with '-')"
                .to_string(),
            CommandRejection::SubcommandNotAllowed(sub) if sub.is_empty() => {
                "subcommand is not allowed: the program's contract does not list \
                 the empty subcommand"
                    .to_string()
            }
            CommandRejection::SubcommandNotAllowed(sub) => format!(
                "subcommand is not allowed: a value of {} characters that the program's \
                 contract does not list; only listed subcommands run",
                sub.chars().count()
            ),
            CommandRejection::OptionNameNotLong(name) => format!(
                "option name `{}` is not a long option: write it as `--name`, \
                 so the value stays glued to it",
                printable(name)
            ),
            CommandRejection::Empty { field } => {
                format!("field `{}` must not be empty", printable(field))
            }
        }
    }
}

impl fmt::Display for CommandRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for CommandRejection {}

/// Programs [`CommandLine::new`] refuses, the one list (its rustdoc names
/// every entry, and a test holds the two together): with any of them, a value
/// the model sends (a positional) decides what runs. Entries are compared with
/// the name as [`normalized_program`] makes it; an entry ending in `*` is a
/// prefix. Refusing them by name is a guard against the obvious mistake, not a
/// substitute for choosing programs carefully.
const NEVER_PROGRAMS: &[&str] = &[
    // shells
    "sh",
    "ash",
    "bash",
    "rbash",
    "dash",
    "zsh",
    "rzsh",
    "ksh",
    "rksh",
    "pdksh",
    "mksh",
    "oksh",
    "loksh",
    "yash",
    "posh",
    "csh",
    "tcsh",
    "fish",
    "elvish",
    "xonsh",
    "nu",
    // Windows shells and script hosts
    "cmd",
    "powershell",
    "pwsh",
    "wsl",
    "wscript",
    "cscript",
    "mshta",
    // multi-call binaries, one of whose applets is a shell
    "busybox",
    "toybox",
    // command runners: a later argument names the program they run
    "env",
    "sudo",
    "doas",
    "su",
    "runuser",
    "pkexec",
    "sg",
    "xargs",
    "timeout",
    "nohup",
    "nice",
    "setsid",
    "stdbuf",
    "chroot",
    "unshare",
    "nsenter",
    "flock",
    "ionice",
    "taskset",
    "chrt",
    "setpriv",
    "strace",
    "ltrace",
    "script",
    "watch",
    "systemd-run",
    "parallel",
    "time",
    "ld.so",
    "ld-linux*",
    "ld-musl*",
    // remote command runners
    "ssh",
    "rsh",
    // interpreters: a positional is the program's code, or the script it runs
    "python*",
    "pypy*",
    "py",
    "perl",
    "node",
    "nodejs",
    "ruby",
    "php",
    "lua",
    "luajit",
    "awk",
    "gawk",
    "mawk",
    "nawk",
    "tclsh",
    "wish",
    "expect",
    "rscript",
    "deno",
    "bun",
    "osascript",
];

/// The name as [`NEVER_PROGRAMS`] is matched against: lowercased, a Windows
/// executable suffix dropped (`bash.exe`), then a trailing version
/// (`python3.12`, `perl5.36`, `ksh93`, `lua-5.4`), so every spelling of a
/// refused program is refused.
fn normalized_program(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    let mut base = lower.as_str();
    for ext in [".exe", ".com", ".bat", ".cmd"] {
        if let Some(stem) = base.strip_suffix(ext) {
            base = stem;
            break;
        }
    }
    let unversioned = base
        .trim_end_matches(|c: char| c.is_ascii_digit() || c == '.')
        .trim_end_matches(['-', '_']);
    // A name that is all version (`7`) stays as it is.
    if unversioned.is_empty() {
        base
    } else {
        unversioned
    }
    .to_string()
}

/// Whether `name` is one of [`NEVER_PROGRAMS`], in any of its spellings.
fn is_never_program(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let normalized = normalized_program(name);
    NEVER_PROGRAMS
        .iter()
        .any(|entry| match entry.strip_suffix('*') {
            Some(prefix) => lower.starts_with(prefix) || normalized.starts_with(prefix),
            None => *entry == normalized || *entry == lower,
        })
}

/// Transports that run commands (`ext::`) or talk to file descriptors
/// (`fd::`): refused even if a contract lists them.
const NEVER_SCHEMES: &[&str] = &["ext", "fd"];

/// Builder: the tool author writes fixed flags; model-supplied values go through typed adders.
///
/// The argv is laid out as
/// `[program, subcommand, flags/options..., revisions..., "--", positionals...]`;
/// `--` is always present so a program never has to guess where options end.
///
/// ```
/// use contract_runtime::command::{program, CommandLine};
/// let cmd = CommandLine::new(&program("git", &["show"]), "show")?.revision("rev", "HEAD~1")?;
/// assert_eq!(cmd.argv(), ["git", "show", "HEAD~1", "--"]);
/// # Ok::<(), contract_runtime::command::CommandRejection>(())
/// ```
#[derive(Debug, Clone)]
pub struct CommandLine {
    program: &'static str,
    subcommand: Option<&'static str>,
    options: Vec<String>,
    revisions: Vec<String>,
    positionals: Vec<String>,
    current_dir: Option<PathBuf>,
    /// For git: the one repository it may read (`GIT_DIR`, `GIT_WORK_TREE`).
    git_repository: Option<PathBuf>,
    /// For git: that repository as handles ([`CommandLine::git_repository_of`]),
    /// held until the child has ended.
    git_handles: Option<std::sync::Arc<GitHandles>>,
}

/// A repository's work tree and its `.git` folder, opened through a
/// confined root: git is given these folders, not their names.
#[derive(Debug)]
struct GitHandles {
    work: cap_std::fs::Dir,
    git: cap_std::fs::Dir,
}

impl GitHandles {
    /// The path that names a handle itself: `/proc/PID/fd/N` is a link the
    /// kernel resolves to the open folder, whatever has since been renamed
    /// or linked in its place (the child reads this process's table, so the
    /// handle need not be inherited).
    fn path(dir: &cap_std::fs::Dir) -> PathBuf {
        use std::os::fd::AsRawFd as _;
        PathBuf::from(format!(
            "/proc/{}/fd/{}",
            std::process::id(),
            dir.as_raw_fd()
        ))
    }
}

impl CommandLine {
    /// Starts a command line for `program` and `subcommand`; refuses a program
    /// name that is not bare, or that is a shell, command runner or
    /// interpreter, and a subcommand the program's allowlist does not hold.
    ///
    /// With a program of the second kind, a value the model sends (a
    /// positional, which may not begin with `-` but may be anything else)
    /// decides what runs: `timeout -- 5 touch /tmp/x`, `nohup -- id`,
    /// `rbash -- script.sh`, `python3 -- script.py`. They are refused whatever
    /// the case, with a Windows suffix (`bash.exe`) or a version
    /// (`python3.12`, `ksh93`); a name ending in `*` is a prefix:
    ///
    /// * shells: `sh`, `ash`, `bash`, `rbash`, `dash`, `zsh`, `rzsh`, `ksh`,
    ///   `rksh`, `pdksh`, `mksh`, `oksh`, `loksh`, `yash`, `posh`, `csh`,
    ///   `tcsh`, `fish`, `elvish`, `xonsh`, `nu`; on Windows `cmd`,
    ///   `powershell`, `pwsh`, `wsl`, `wscript`, `cscript`, `mshta`;
    /// * multi-call binaries: `busybox`, `toybox`;
    /// * command runners: `env`, `sudo`, `doas`, `su`, `runuser`, `pkexec`,
    ///   `sg`, `xargs`, `timeout`, `nohup`, `nice`, `setsid`, `stdbuf`,
    ///   `chroot`, `unshare`, `nsenter`, `flock`, `ionice`, `taskset`, `chrt`,
    ///   `setpriv`, `strace`, `ltrace`, `script`, `watch`, `systemd-run`,
    ///   `parallel`, `time`, `ld.so`, `ld-linux*`, `ld-musl*`, and the remote
    ///   ones `ssh`, `rsh`;
    /// * interpreters: `python*`, `pypy*`, `py`, `perl`, `node`, `nodejs`,
    ///   `ruby`, `php`, `lua`, `luajit`, `awk`, `gawk`, `mawk`, `nawk`,
    ///   `tclsh`, `wish`, `expect`, `rscript`, `deno`, `bun`, `osascript`.
    ///
    /// The list guards against the obvious mistake; it is no substitute for
    /// choosing a program whose arguments cannot name another program.
    ///
    /// ```
    /// use contract_runtime::command::{program, CommandLine, CommandRejection};
    /// const GIT: contract_runtime::command::Program = program("git", &["log"]);
    /// assert!(CommandLine::new(&GIT, "log").is_ok());
    /// assert_eq!(
    ///     CommandLine::new(&GIT, "push").err(),
    ///     Some(CommandRejection::SubcommandNotAllowed("push".into()))
    /// );
    /// ```
    pub fn new(program: &Program, subcommand: &str) -> Result<CommandLine, CommandRejection> {
        if !is_bare_program_name(program.name) || is_never_program(program.name) {
            return Err(CommandRejection::ProgramNotAllowed(
                program.name.to_string(),
            ));
        }
        // Take the subcommand from the contract's static list, not from the
        // caller's string, so what runs is always text the contract wrote.
        let Some(sub) = program
            .allowed_subcommands
            .iter()
            .copied()
            .find(|allowed| *allowed == subcommand)
        else {
            return Err(CommandRejection::SubcommandNotAllowed(
                subcommand.to_string(),
            ));
        };
        Ok(CommandLine {
            program: program.name,
            subcommand: if sub.is_empty() { None } else { Some(sub) },
            options: Vec::new(),
            revisions: Vec::new(),
            positionals: Vec::new(),
            current_dir: None,
            git_repository: None,
            git_handles: None,
        })
    }

    /// A fixed flag written by the tool author (e.g. "--no-pager" or "--max-count=5" built from a validated integer). Not for model text.
    ///
    /// The `'static` bound is the point: model text arrives as a runtime
    /// `String` and so cannot be passed here without deliberately leaking it.
    ///
    /// ```
    /// use contract_runtime::command::{program, CommandLine};
    /// let cmd = CommandLine::new(&program("git", &["log"]), "log")?.flag("--no-color");
    /// assert_eq!(cmd.argv(), ["git", "log", "--no-color", "--"]);
    /// # Ok::<(), contract_runtime::command::CommandRejection>(())
    /// ```
    pub fn flag(mut self, flag: &'static str) -> Self {
        self.options.push(flag.to_string());
        self
    }

    /// An option whose value the model supplied, passed as one argv element `--name=value` (value may begin with anything except it may not contain NUL); e.g. .option_value("--max-count", "5").
    ///
    /// Gluing name and value into one element is what makes a leading `-`
    /// harmless: the program's parser sees `--author=--help` as the option
    /// `--author` with the value `--help`, never as a second option. `name`
    /// must be a long option (`--x`); short options do not parse `-x=value`,
    /// so any other name is refused as [`CommandRejection::OptionNameNotLong`].
    /// An empty value is passed as `--name=`.
    ///
    /// ```
    /// use contract_runtime::command::{program, CommandLine};
    /// let cmd = CommandLine::new(&program("git", &["log"]), "log")?
    ///     .option_value("--author", "--help")?;
    /// assert_eq!(cmd.argv(), ["git", "log", "--author=--help", "--"]);
    /// # Ok::<(), contract_runtime::command::CommandRejection>(())
    /// ```
    pub fn option_value(
        mut self,
        name: &'static str,
        value: &str,
    ) -> Result<Self, CommandRejection> {
        if !is_long_option(name) {
            return Err(CommandRejection::OptionNameNotLong(name.to_string()));
        }
        if value.contains('\0') {
            return Err(CommandRejection::Nul {
                field: name.to_string(),
            });
        }
        self.options.push(format!("{name}={value}"));
        Ok(self)
    }

    /// A positional value the model supplied (a ref, a file): refused if it begins with '-' or contains NUL; placed after `--` (end-of-options marker) at build time.
    ///
    /// The two guards overlap on purpose: `--` stops option parsing in
    /// programs that honour it, and the leading-`-` refusal covers programs
    /// that do not (or that re-parse the value). An empty value is refused too,
    /// since no tool means "" as a file or ref. A file such as `-rf` can still
    /// be named as `./-rf`.
    ///
    /// ```
    /// use contract_runtime::command::{program, CommandLine};
    /// let cmd = CommandLine::new(&program("git", &["log"]), "log")?.positional("path", "README.md")?;
    /// assert_eq!(cmd.argv(), ["git", "log", "--", "README.md"]);
    /// let cmd = CommandLine::new(&program("git", &["log"]), "log")?;
    /// assert!(cmd.positional("path", "--output=/tmp/pwned").is_err());
    /// # Ok::<(), contract_runtime::command::CommandRejection>(())
    /// ```
    pub fn positional(mut self, field: &str, value: &str) -> Result<Self, CommandRejection> {
        check_positional(field, value)?;
        self.positionals.push(value.to_string());
        Ok(self)
    }

    /// A positional that must come BEFORE `--` because the program parses it as a revision (git log REV -- paths): refused if it begins with '-' or contains NUL.
    ///
    /// Why this is still safe without `--` in front of it: option parsers
    /// (getopt, git's parse-options and revision parser) only treat an
    /// argument as an option when it begins with `-`, and such values are
    /// refused here. Everything else (`HEAD~2`, `main..topic`, `:/msg`,
    /// `; touch /tmp/x #`) is read as a revision; an unknown one is an error
    /// from the program, not an action. The `--` after the revisions also
    /// stops git from reading a revision as a path or vice versa.
    ///
    /// ```
    /// use contract_runtime::command::{program, CommandLine};
    /// let cmd = CommandLine::new(&program("git", &["log"]), "log")?
    ///     .revision("rev", "main..topic")?
    ///     .positional("path", "src")?;
    /// assert_eq!(cmd.argv(), ["git", "log", "main..topic", "--", "src"]);
    /// # Ok::<(), contract_runtime::command::CommandRejection>(())
    /// ```
    pub fn revision(mut self, field: &str, value: &str) -> Result<Self, CommandRejection> {
        check_positional(field, value)?;
        self.revisions.push(value.to_string());
        Ok(self)
    }

    /// A URL value: scheme must be in `allowed` (e.g. &["https"]); `ext::`, `file:`, `fd::`, transport-helper syntax `x::y`, scp-like `host:path` whose host begins with '-', and any value beginning with '-' are refused.
    ///
    /// The URL is a positional (after `--`). How each form is classified,
    /// following git's own rules:
    ///
    /// * `x::address` (transport helper, checked first): always refused; `ext::`
    ///   runs a command, `fd::` talks to a descriptor, and others run
    ///   `git-remote-x`;
    /// * `scheme://authority/...`: the scheme (case-insensitive) must be in
    ///   `allowed` and not `ext`/`fd`; the host and user must not begin with `-`
    ///   (also not as `[-...]` or `%2d...`);
    /// * `[user@]host:path` with the `:` before any `/`: scp-like ssh, so
    ///   `"ssh"` must be allowed; the host and user must not begin with `-`;
    ///   `file:/x` is refused as the scheme `file` unless `"file"` is allowed;
    /// * anything else is a local path, so `"file"` must be allowed.
    ///
    /// ```
    /// use contract_runtime::command::{program, CommandLine};
    /// const GIT: contract_runtime::command::Program = program("git", &["clone"]);
    /// let ok = CommandLine::new(&GIT, "clone")?.url("url", "https://example.com/r.git", &["https"])?;
    /// assert_eq!(ok.argv(), ["git", "clone", "--", "https://example.com/r.git"]);
    /// let bad = CommandLine::new(&GIT, "clone")?.url("url", "ext::sh -c touch% /tmp/pwned", &["https"]);
    /// assert!(bad.is_err());
    /// # Ok::<(), contract_runtime::command::CommandRejection>(())
    /// ```
    pub fn url(
        mut self,
        field: &str,
        value: &str,
        allowed: &[&str],
    ) -> Result<Self, CommandRejection> {
        check_url(field, value, allowed)?;
        self.positionals.push(value.to_string());
        Ok(self)
    }

    /// Sets the working directory the program runs in (e.g. a confined repo root).
    ///
    /// ```
    /// use contract_runtime::command::{program, CommandLine};
    /// let cmd = CommandLine::new(&program("git", &["status"]), "status")?.current_dir("/tmp");
    /// assert_eq!(cmd.argv(), ["git", "status", "--"]);
    /// # Ok::<(), contract_runtime::command::CommandRejection>(())
    /// ```
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.current_dir = Some(dir.into());
        self
    }

    /// Runs git on the repository whose work tree is `dir` and only on it:
    /// `GIT_DIR` is `dir/.git`, `GIT_WORK_TREE` is `dir`, and `dir` is the
    /// working directory. Without this, git run in a folder that holds no
    /// repository searches the folders above it and reads the first one it
    /// finds: a tool confined to `repo/` would show the history of a
    /// repository that encloses the whole root. Check first, through the
    /// root's handle, that `dir/.git` is a directory beneath the root (a link
    /// or a `gitdir:` file could lead anywhere); git then fails on a `dir`
    /// without one rather than looking elsewhere.
    ///
    /// ```
    /// use contract_runtime::command::{program, CommandLine};
    /// let cmd = CommandLine::new(&program("git", &["log"]), "log")?.git_repository("/srv/repo");
    /// assert_eq!(cmd.argv(), ["git", "log", "--"]);
    /// # Ok::<(), contract_runtime::command::CommandRejection>(())
    /// ```
    pub fn git_repository(mut self, dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        self.current_dir = Some(dir.clone());
        self.git_repository = Some(dir);
        self
    }

    /// Runs git on the repository of `repo`, a folder of a confined root,
    /// through its handle, where [`CommandLine::git_repository`] gives git
    /// a path. git resolves a path itself when it runs, so a process that
    /// swaps the folder, or its `.git`, for a link between the check and
    /// git's reads would show git another repository. Here `repo/.git` is
    /// opened through `repo`'s handle and must be the folder itself (a
    /// link, even to a folder inside the root, or a `gitdir:` file is
    /// refused: a tool that edits files but not `.git/` would otherwise
    /// edit git's settings under their other name), a repository that reads
    /// another (`.git/commondir`, `.git/objects/info/alternates`) is refused
    /// as [`PathError::OutsideScope`](crate::path::PathError::OutsideScope),
    /// and git is given both
    /// folders as `/proc/PID/fd/N`, which name the open folders themselves:
    /// what is renamed or linked in their place later is never read.
    ///
    /// Linux only (it needs `/proc`): elsewhere, or with no `/proc`
    /// mounted, it answers [`PathError::Io`](crate::path::PathError::Io) of kind `Unsupported`, and a
    /// caller that falls back to a path accepts the race.
    ///
    /// ```no_run
    /// use contract_runtime::command::{program, CommandLine};
    /// use contract_runtime::path::Root;
    /// let repo = Root::open("/srv/repo", "repo")?;
    /// let cmd = CommandLine::new(&program("git", &["log"]), "log")?.git_repository_of(&repo)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn git_repository_of(
        mut self,
        repo: &crate::path::Root,
    ) -> Result<Self, crate::path::PathError> {
        if !cfg!(target_os = "linux") || !std::path::Path::new("/proc/self/fd").is_dir() {
            return Err(crate::path::PathError::Io(std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                "naming an open folder needs /proc",
            )));
        }
        let git = repo.open_dir_nofollow(".git")?;
        // Files by which a repository reads another: `commondir` (git takes
        // its refs, objects and settings from the folder it names) and
        // `objects/info/alternates` (object stores elsewhere). Either could
        // lead `git log` to show commits of a repository outside the root.
        for leads_out in ["commondir", "objects/info/alternates"] {
            if git.symlink_metadata(leads_out).is_ok() {
                return Err(crate::path::PathError::OutsideScope);
            }
        }
        let work = repo.try_clone_dir()?;
        self.git_handles = Some(std::sync::Arc::new(GitHandles { work, git }));
        self.git_repository = None;
        self.current_dir = None;
        Ok(self)
    }

    /// The argv as it will run (for logs/tests): [program, subcommand, flags/options..., revisions..., "--", positionals...]
    ///
    /// ```
    /// use contract_runtime::command::{program, CommandLine};
    /// let cmd = CommandLine::new(&program("git", &["log"]), "log")?
    ///     .positional("path", "a")?
    ///     .flag("--oneline")
    ///     .revision("rev", "HEAD")?;
    /// assert_eq!(cmd.argv(), ["git", "log", "--oneline", "HEAD", "--", "a"]);
    /// # Ok::<(), contract_runtime::command::CommandRejection>(())
    /// ```
    pub fn argv(&self) -> Vec<String> {
        let mut argv = Vec::with_capacity(
            3 + self.options.len() + self.revisions.len() + self.positionals.len(),
        );
        argv.push(self.program.to_string());
        if let Some(sub) = self.subcommand {
            argv.push(sub.to_string());
        }
        argv.extend(self.options.iter().cloned());
        argv.extend(self.revisions.iter().cloned());
        argv.push("--".to_string());
        argv.extend(self.positionals.iter().cloned());
        argv
    }

    /// Run with std::process::Command (never a shell), stdin null, a clean environment except PATH/HOME plus GIT_TERMINAL_PROMPT=0 and GIT_CONFIG_NOSYSTEM=1 when the program is git, an output cap (bytes) and a timeout (kill the child when exceeded).
    ///
    /// Details, each for a reason:
    ///
    /// * `PATH` keeps only absolute entries, so a `.` or empty entry cannot
    ///   make a repository's own `./git` run when `current_dir` is untrusted;
    /// * for git, `GIT_PROTOCOL_FROM_USER=0` is also set, so git itself
    ///   refuses transports whose policy is "user" (a second lock behind
    ///   [`CommandLine::url`]);
    /// * stdout and stderr are each capped at `max_output_bytes`; the rest is
    ///   read and discarded so the child never blocks on a full pipe (the
    ///   timeout bounds a child that writes forever). A cut that splits a
    ///   UTF-8 character drops the partial character;
    /// * on timeout the child is killed and waited for; a grandchild that
    ///   still holds the pipes open is left to its own exit (std cannot kill a
    ///   process group) and its output is abandoned.
    ///
    /// ```no_run
    /// use contract_runtime::command::{program, CommandLine, RunLimits};
    /// let out = CommandLine::new(&program("git", &["log"]), "log")?
    ///     .flag("--max-count=1")
    ///     .revision("rev", "HEAD")?
    ///     .current_dir("/path/to/repo")
    ///     .run(RunLimits::default());
    /// if let Ok(out) = out {
    ///     println!("{:?} {}", out.status, out.stdout);
    /// }
    /// # Ok::<(), contract_runtime::command::CommandRejection>(())
    /// ```
    pub fn run(self, limits: RunLimits) -> Result<Output, RunError> {
        let argv = self.argv();
        let mut cmd = Command::new(self.program);
        cmd.args(argv.iter().skip(1));
        cmd.env_clear();
        for (key, value) in child_env(self.program) {
            cmd.env(key, value);
        }
        if let (Some(dir), "git") = (&self.git_repository, self.program) {
            cmd.env("GIT_DIR", dir.join(".git"))
                .env("GIT_WORK_TREE", dir)
                // a second lock: no search above `dir`, even for a git that
                // ignored GIT_DIR
                .env("GIT_CEILING_DIRECTORIES", dir);
        }
        // `self` holds the handles until this function returns, after the
        // child has ended.
        if let (Some(h), "git") = (&self.git_handles, self.program) {
            let work = GitHandles::path(&h.work);
            cmd.env("GIT_DIR", GitHandles::path(&h.git))
                .env("GIT_WORK_TREE", &work)
                .env("GIT_CEILING_DIRECTORIES", &work)
                .current_dir(&work);
        }
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &self.current_dir {
            cmd.current_dir(dir);
        }

        let deadline = Instant::now() + limits.timeout;
        let mut child = cmd.spawn().map_err(RunError::Spawn)?;

        // Both pipes are drained on their own threads: reading one while the
        // child blocks writing the other would deadlock.
        let (tx, rx) = mpsc::channel::<(StreamKind, Vec<u8>, bool)>();
        let cap = limits.max_output_bytes;
        if let Some(out) = child.stdout.take() {
            let tx = tx.clone();
            thread::spawn(move || {
                let (bytes, truncated) = read_capped(out, cap);
                let _ = tx.send((StreamKind::Stdout, bytes, truncated));
            });
        }
        if let Some(err) = child.stderr.take() {
            let tx = tx.clone();
            thread::spawn(move || {
                let (bytes, truncated) = read_capped(err, cap);
                let _ = tx.send((StreamKind::Stderr, bytes, truncated));
            });
        }
        drop(tx);

        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) => {
                    let now = Instant::now();
                    if now >= deadline {
                        kill_and_reap(&mut child);
                        return Err(RunError::Timeout);
                    }
                    thread::sleep((deadline - now).min(POLL_INTERVAL));
                }
                Err(e) => {
                    kill_and_reap(&mut child);
                    return Err(RunError::Spawn(e));
                }
            }
        };

        let mut output = Output {
            status: status.code(),
            stdout: String::new(),
            stderr: String::new(),
            truncated: false,
        };
        // The child has exited, but a grandchild may still hold the pipes:
        // wait for the readers only until the same deadline.
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(remaining) {
                Ok((kind, bytes, truncated)) => {
                    let text = lossy_text(&bytes, truncated);
                    output.truncated |= truncated;
                    match kind {
                        StreamKind::Stdout => output.stdout = text,
                        StreamKind::Stderr => output.stderr = text,
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => return Err(RunError::Timeout),
            }
        }
        Ok(output)
    }
}

/// How long [`CommandLine::run`] lets a program run and how much it keeps.
///
/// ```
/// use contract_runtime::command::RunLimits;
/// use std::time::Duration;
/// let limits = RunLimits { timeout: Duration::from_secs(2), ..RunLimits::default() };
/// assert_eq!(limits.max_output_bytes, 1024 * 1024);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunLimits {
    /// Wall-clock time from spawn; past it the child is killed and the run
    /// is [`RunError::Timeout`].
    pub timeout: Duration,
    /// Bytes kept from each of stdout and stderr; the rest is discarded and
    /// [`Output::truncated`] is set.
    pub max_output_bytes: usize,
}

impl Default for RunLimits {
    /// 10 seconds and 1 MiB per stream: enough for a `git log` page, small
    /// enough that a runaway program cannot flood the model's context.
    fn default() -> Self {
        RunLimits {
            timeout: Duration::from_secs(10),
            max_output_bytes: 1024 * 1024,
        }
    }
}

/// What a finished program produced.
///
/// ```
/// use contract_runtime::command::Output;
/// let out = Output { status: Some(0), stdout: "ok\n".into(), stderr: String::new(), truncated: false };
/// assert_eq!(out.status, Some(0));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The exit code; `None` when the program was ended by a signal.
    pub status: Option<i32>,
    /// Standard output, lossy UTF-8, at most `max_output_bytes` bytes read.
    pub stdout: String,
    /// Standard error, lossy UTF-8, at most `max_output_bytes` bytes read.
    pub stderr: String,
    /// Whether either stream was cut at the cap.
    pub truncated: bool,
}

/// Why a run did not produce an [`Output`].
///
/// ```
/// use contract_runtime::command::RunError;
/// let e = RunError::Timeout;
/// assert!(matches!(e, RunError::Timeout));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum RunError {
    /// The program could not be started (e.g. not on `PATH`) or waited on.
    Spawn(std::io::Error),
    /// The timeout passed; the child was killed.
    Timeout,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Spawn(e) => write!(f, "program could not be run: {e}"),
            RunError::Timeout => f.write_str("program timed out and was killed"),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Spawn(e) => Some(e),
            RunError::Timeout => None,
        }
    }
}

const POLL_INTERVAL: Duration = Duration::from_millis(5);

#[derive(Debug, Clone, Copy)]
enum StreamKind {
    Stdout,
    Stderr,
}

/// A name `PATH` lookup will resolve, and nothing a shell or runner would be.
fn is_bare_program_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.starts_with('-')
        && !name.contains(['/', '\\', '\0'])
}

/// `--` and a name git-style parsers read as one long option: a letter or
/// digit, then letters, digits, `-`, `_` or `.` (no `=`, which would end the
/// name early).
fn is_long_option(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("--") else {
        return false;
    };
    let mut chars = rest.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn check_positional(field: &str, value: &str) -> Result<(), CommandRejection> {
    if value.is_empty() {
        return Err(CommandRejection::Empty {
            field: field.to_string(),
        });
    }
    if value.contains('\0') {
        return Err(CommandRejection::Nul {
            field: field.to_string(),
        });
    }
    if value.starts_with('-') {
        return Err(CommandRejection::FlagLike {
            field: field.to_string(),
        });
    }
    Ok(())
}

/// RFC 3986 scheme characters; git's `is_urlschemechar` is the same set.
fn is_scheme(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// The scheme as it may be shown to the model: only real scheme text, short.
fn shown_scheme(s: &str) -> String {
    if is_scheme(s) && s.len() <= 32 {
        s.to_ascii_lowercase()
    } else {
        "invalid".to_string()
    }
}

/// True when a URL's host or user part would reach ssh as an option. Checks
/// the raw text, a bracketed form (git strips `[...]`), and `%2d` (`-` encoded).
fn option_like(part: &str) -> bool {
    let part = part.trim_start_matches('[');
    part.starts_with('-') || part.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("%2d"))
}

fn check_url(field: &str, value: &str, allowed: &[&str]) -> Result<(), CommandRejection> {
    let refuse_scheme = |scheme: &str| CommandRejection::SchemeNotAllowed {
        field: field.to_string(),
        scheme: shown_scheme(scheme),
    };
    let scheme_allowed = |scheme: &str| {
        !NEVER_SCHEMES.iter().any(|n| n.eq_ignore_ascii_case(scheme))
            && allowed.iter().any(|a| a.eq_ignore_ascii_case(scheme))
    };
    let host_refusal = || CommandRejection::OptionLikeHost {
        field: field.to_string(),
    };

    check_positional(field, value)?;

    let sep = value.find("://");
    // Transport-helper syntax `x::address`: git runs `git-remote-x` (or, for
    // `ext::`, the command itself). A `::` after `://` is an IPv6 host or a
    // path (`https://[::1]/r`) and is left to the scheme rules below.
    if let Some(helper) = value.find("::").filter(|h| sep.is_none_or(|s| *h < s)) {
        return Err(refuse_scheme(&value[..helper]));
    }

    if let Some(sep) = sep {
        let scheme = &value[..sep];
        if !is_scheme(scheme) || !scheme_allowed(scheme) {
            return Err(refuse_scheme(scheme));
        }
        let rest = &value[sep + 3..];
        let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let authority = &rest[..authority_end];
        let (user, host) = match authority.rfind('@') {
            Some(at) => (Some(&authority[..at]), &authority[at + 1..]),
            None => (None, authority),
        };
        if option_like(host) || user.is_some_and(option_like) {
            return Err(host_refusal());
        }
        return Ok(());
    }

    // git's rule: a `:` before the first `/` makes `[user@]host:path` an
    // scp-like ssh address; otherwise the value is a local path.
    let colon = value.find(':');
    let slash = value.find('/');
    if let Some(colon) = colon.filter(|c| slash.is_none_or(|s| *c < s)) {
        let target = &value[..colon];
        let (user, host) = match target.rfind('@') {
            Some(at) => (Some(&target[..at]), &target[at + 1..]),
            None => (None, target),
        };
        // `file:/etc` looks like a file URL to a reader (and to some tools);
        // treat it as the scheme it names rather than as an ssh host.
        if user.is_none() && host.eq_ignore_ascii_case("file") {
            return if scheme_allowed("file") {
                Ok(())
            } else {
                Err(refuse_scheme("file"))
            };
        }
        if !scheme_allowed("ssh") {
            return Err(refuse_scheme("ssh"));
        }
        if option_like(host) || user.is_some_and(option_like) {
            return Err(host_refusal());
        }
        return Ok(());
    }

    if scheme_allowed("file") {
        Ok(())
    } else {
        Err(refuse_scheme("file"))
    }
}

/// The child's whole environment: nothing inherited but an absolute-only
/// `PATH` and `HOME`, so tokens, proxies, `GIT_SSH_COMMAND`, `LD_PRELOAD` and
/// the like never reach the program.
fn child_env(program: &str) -> Vec<(OsString, OsString)> {
    let mut env = Vec::new();
    if let Some(path) = std::env::var_os("PATH") {
        let absolute: Vec<PathBuf> = std::env::split_paths(&path)
            .filter(|p| p.is_absolute())
            .collect();
        if let Ok(joined) = std::env::join_paths(absolute) {
            env.push((OsString::from("PATH"), joined));
        }
    }
    if let Some(home) = std::env::var_os("HOME") {
        env.push((OsString::from("HOME"), home));
    }
    if program == "git" {
        // Never wait for a password on a terminal nobody is watching, never
        // read the machine-wide config, and let git refuse "user" transports.
        for (k, v) in [
            ("GIT_TERMINAL_PROMPT", "0"),
            ("GIT_CONFIG_NOSYSTEM", "1"),
            ("GIT_PROTOCOL_FROM_USER", "0"),
        ] {
            env.push((OsString::from(k), OsString::from(v)));
        }
    }
    env
}

/// Reads a stream to its end, keeping at most `cap` bytes.
fn read_capped<R: Read>(mut reader: R, cap: usize) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut truncated = false;
    let mut chunk = [0u8; 8192];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                if n > room {
                    truncated = true;
                }
                kept.extend_from_slice(&chunk[..n.min(room)]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    (kept, truncated)
}

/// Lossy UTF-8; when the cap cut a multi-byte character, drop its start
/// instead of showing a replacement character that was never in the output.
fn lossy_text(bytes: &[u8], truncated: bool) -> String {
    let mut end = bytes.len();
    if truncated {
        // Find the last lead byte among the final (at most 4) bytes.
        for back in 1..=bytes.len().min(4) {
            let i = bytes.len() - back;
            let b = bytes[i];
            if b & 0xC0 == 0x80 {
                continue; // continuation byte
            }
            let need = match b {
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF7 => 4,
                _ => 1,
            };
            if i + need > bytes.len() {
                end = i;
            }
            break;
        }
    }
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

fn kill_and_reap(child: &mut std::process::Child) {
    // kill fails only if the child already exited; wait reaps it either way
    // so no zombie is left behind.
    let _ = child.kill();
    let _ = child.wait();
}

/// Field names come from the tool author, but keep messages one line anyway.
fn printable(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    const GIT: Program = program(
        "git",
        &[
            "init",
            "config",
            "commit",
            "log",
            "clone",
            "checkout",
            "ls-remote",
        ],
    );

    static COUNTER: AtomicUsize = AtomicUsize::new(0);

    /// A fresh path under the temp dir, unique per process and call.
    fn unique(tag: &str) -> PathBuf {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        std::env::temp_dir().join(format!(
            "cmdtest-{tag}-{}-{}-{nanos}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        ))
    }

    struct TempDir(PathBuf);
    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn limits() -> RunLimits {
        RunLimits {
            timeout: Duration::from_secs(20),
            max_output_bytes: 1024 * 1024,
        }
    }

    fn git_ok(cmd: CommandLine) -> Output {
        let argv = cmd.argv();
        let out = cmd.run(limits()).expect("git runs");
        assert_eq!(out.status, Some(0), "{argv:?}: {}", out.stderr);
        out
    }

    /// A repo with two commits, made only through CommandLine.
    fn repo_with_two_commits() -> TempDir {
        let dir = TempDir(unique("repo"));
        std::fs::create_dir_all(&dir.0).expect("mkdir");
        let root = dir.0.clone();
        git_ok(
            CommandLine::new(&GIT, "init")
                .unwrap()
                .flag("--quiet")
                .positional("dir", root.to_str().unwrap())
                .unwrap(),
        );
        for (k, v) in [
            ("user.name", "Test"),
            ("user.email", "test@example.com"),
            ("commit.gpgsign", "false"),
        ] {
            git_ok(
                CommandLine::new(&GIT, "config")
                    .unwrap()
                    .positional("key", k)
                    .unwrap()
                    .positional("value", v)
                    .unwrap()
                    .current_dir(&root),
            );
        }
        for msg in ["first commit", "second commit"] {
            git_ok(
                CommandLine::new(&GIT, "commit")
                    .unwrap()
                    .flag("--quiet")
                    .flag("--allow-empty")
                    .option_value("--message", msg)
                    .unwrap()
                    .current_dir(&root),
            );
        }
        dir
    }

    fn log() -> CommandLine {
        CommandLine::new(&GIT, "log").unwrap()
    }

    fn flag_like(field: &str) -> CommandRejection {
        CommandRejection::FlagLike {
            field: field.to_string(),
        }
    }

    // ---- attack: a ref or file argument `--output=/tmp/pwned` ----

    #[test]
    fn output_flag_as_ref_or_file_is_refused_and_no_file_is_written() {
        let repo = repo_with_two_commits();
        let target = unique("pwned-output");
        let attack = format!("--output={}", target.display());

        assert_eq!(log().revision("rev", &attack).err(), Some(flag_like("rev")));
        assert_eq!(
            log().positional("path", &attack).err(),
            Some(flag_like("path"))
        );
        assert_eq!(
            CommandLine::new(&GIT, "checkout")
                .unwrap()
                .positional("file", &attack)
                .err(),
            Some(flag_like("file"))
        );
        // The tool goes on with what it could build; nothing writes the file.
        git_ok(log().revision("rev", "HEAD").unwrap().current_dir(&repo.0));
        assert!(!target.exists());
    }

    #[test]
    fn control_output_flag_really_writes_a_file_when_unguarded() {
        // Shows the row above tests a real attack: handed to git as an
        // argument without the guard, `--output=` creates the file.
        let repo = repo_with_two_commits();
        let target = unique("control-output");
        let status = Command::new("git")
            .arg("log")
            .arg(format!("--output={}", target.display()))
            .current_dir(&repo.0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("git runs");
        assert!(status.success());
        assert!(target.exists());
        let _ = std::fs::remove_file(&target);
    }

    // ---- attack: option-like values ----

    #[test]
    fn option_like_values_are_refused_everywhere_a_positional_goes() {
        let hooks = unique("hooks");
        let template = format!("--template={}", hooks.display());
        for attack in [
            "--orphan=evil",
            "--help",
            "--upload-pack=/tmp/x",
            "-u/tmp/x",
            template.as_str(),
            "-",
            "--",
        ] {
            assert_eq!(
                log().revision("rev", attack).err(),
                Some(flag_like("rev")),
                "{attack}"
            );
            assert_eq!(
                log().positional("path", attack).err(),
                Some(flag_like("path")),
                "{attack}"
            );
            assert_eq!(
                CommandLine::new(&GIT, "clone")
                    .unwrap()
                    .url("url", attack, &["https", "ssh", "file"])
                    .err(),
                Some(flag_like("url")),
                "{attack}"
            );
        }
        assert!(!hooks.exists());
    }

    #[test]
    fn option_value_keeps_a_leading_dash_inside_one_element() {
        let repo = repo_with_two_commits();
        let cmd = log()
            .option_value("--author", "--help")
            .unwrap()
            .current_dir(&repo.0);
        assert_eq!(cmd.argv(), ["git", "log", "--author=--help", "--"]);
        // git reads it as an author filter (no match), not as --help.
        let out = git_ok(cmd);
        assert_eq!(out.stdout, "");
    }

    /// Audit 3, D6: `-c`, `upload-pack`, `--` and `` were accepted as option
    /// names, and `-c=core.sshCommand=...` reached git as a short option.
    #[test]
    fn option_value_refuses_a_name_that_is_not_a_long_option() {
        for name in [
            "-c",
            "c",
            "upload-pack",
            "--",
            "",
            "-",
            "---x",
            "--a=b",
            "--a b",
        ] {
            let err = log()
                .option_value(name, "core.sshCommand=touch /tmp/pwned")
                .err();
            assert_eq!(
                err,
                Some(CommandRejection::OptionNameNotLong(name.to_string())),
                "{name:?}"
            );
            let m = err.unwrap().message();
            assert!(m.contains("is not a long option"), "{m}");
            assert!(!m.contains("sshCommand"), "{m}");
        }
        for name in [
            "--max-count",
            "--author",
            "--format",
            "--no-color",
            "--x_y.z",
            "--1",
        ] {
            assert!(log().option_value(name, "v").is_ok(), "{name}");
        }
    }

    #[test]
    fn option_value_refuses_nul() {
        assert_eq!(
            log().option_value("--author", "a\0b").err(),
            Some(CommandRejection::Nul {
                field: "--author".into()
            })
        );
    }

    // ---- attack: URLs ----

    fn url(value: &str, allowed: &[&str]) -> Result<CommandLine, CommandRejection> {
        CommandLine::new(&GIT, "clone")
            .unwrap()
            .url("url", value, allowed)
    }

    fn scheme_refused(scheme: &str) -> CommandRejection {
        CommandRejection::SchemeNotAllowed {
            field: "url".into(),
            scheme: scheme.into(),
        }
    }

    #[test]
    fn ext_transport_is_refused_even_when_allowlisted_and_nothing_runs() {
        let pwned = unique("pwned-ext");
        let attack = format!("ext::sh -c touch% {}", pwned.display());
        assert_eq!(url(&attack, &["https"]).err(), Some(scheme_refused("ext")));
        assert_eq!(
            url(&attack, &["https", "ext"]).err(),
            Some(scheme_refused("ext"))
        );
        assert_eq!(url("fd::17", &["fd"]).err(), Some(scheme_refused("fd")));
        assert_eq!(url("x::y", &["https"]).err(), Some(scheme_refused("x")));
        assert_eq!(
            url("foo::https://example.com/r", &["https"]).err(),
            Some(scheme_refused("foo"))
        );
        assert_eq!(
            url("ext://sh/x", &["ext"]).err(),
            Some(scheme_refused("ext"))
        );
        assert!(!pwned.exists());
    }

    #[test]
    fn ssh_host_starting_with_dash_is_refused() {
        let ssh = &["https", "ssh"];
        let host = CommandRejection::OptionLikeHost {
            field: "url".into(),
        };
        for attack in [
            "ssh://-oProxyCommand=touch%20/tmp/pwned/repo",
            "ssh://git@-oProxyCommand=touch%20/tmp/pwned/repo",
            "ssh://-oProxyCommand=x@host/repo",
            "ssh://[-oProxyCommand=x]/repo",
            "ssh://%2DoProxyCommand=x/repo",
            "git@-oProxyCommand=touch%20pwned:repo",
            "[-oProxyCommand=x]:repo",
        ] {
            assert_eq!(url(attack, ssh).err(), Some(host.clone()), "{attack}");
            // With only https allowed the ssh forms fail on the scheme first.
            assert_eq!(
                url(attack, &["https"]).err(),
                Some(scheme_refused("ssh")),
                "{attack}"
            );
        }
        assert_eq!(
            url("-oProxyCommand=x:repo", ssh).err(),
            Some(flag_like("url"))
        );
    }

    #[test]
    fn file_urls_and_local_paths_need_file_in_the_allowlist() {
        for v in [
            "file:///etc",
            "FILE:///etc",
            "file:/etc",
            "/etc",
            "./repo",
            "repo",
        ] {
            assert_eq!(
                url(v, &["https"]).err(),
                Some(scheme_refused("file")),
                "{v}"
            );
            assert!(url(v, &["https", "file"]).is_ok(), "{v}");
        }
    }

    #[test]
    fn allowed_urls_pass_and_land_after_the_marker() {
        for v in [
            "https://example.com/r.git",
            "HTTPS://example.com/r.git",
            "https://user:tok@example.com/r.git",
            "https://[::1]:8443/r.git",
            "https://example.com/a::b",
        ] {
            let cmd = url(v, &["https"]).unwrap_or_else(|e| panic!("{v}: {e}"));
            assert_eq!(cmd.argv(), ["git", "clone", "--", v]);
        }
        assert!(url("git@github.com:owner/repo.git", &["ssh"]).is_ok());
        assert_eq!(
            url("git@github.com:owner/repo.git", &["https"]).err(),
            Some(scheme_refused("ssh"))
        );
        assert_eq!(
            url("http://example.com/r", &["https"]).err(),
            Some(scheme_refused("http"))
        );
        assert_eq!(
            url("", &["https"]).err(),
            Some(CommandRejection::Empty {
                field: "url".into()
            })
        );
        assert_eq!(
            url("https://a\0b", &["https"]).err(),
            Some(CommandRejection::Nul {
                field: "url".into()
            })
        );
    }

    #[test]
    fn scheme_in_message_never_echoes_the_value() {
        let err = url("se cret::tok", &["https"]).err().unwrap();
        assert_eq!(err, scheme_refused("invalid"));
        assert!(!err.message().contains("tok"));
    }

    // ---- attack: shell syntax stays literal ----

    #[test]
    fn shell_syntax_is_passed_as_literal_text_and_nothing_runs() {
        let repo = repo_with_two_commits();
        let pwned = unique("pwned-shell");
        for attack in [
            format!("; touch {} #", pwned.display()),
            "$(id)".to_string(),
            "`id`".into(),
        ] {
            let cmd = log().revision("rev", &attack).unwrap().current_dir(&repo.0);
            assert_eq!(cmd.argv(), ["git", "log", attack.as_str(), "--"]);
            let out = cmd.run(limits()).expect("git runs");
            assert_ne!(out.status, Some(0));
            assert!(
                out.stderr.contains("bad revision") || out.stderr.contains("unknown revision"),
                "{}",
                out.stderr
            );
            // The literal text reached git unexpanded.
            assert!(out.stderr.contains(&attack), "{}", out.stderr);

            // As a path it is a literal pathspec that matches nothing.
            let out = git_ok(
                log()
                    .positional("path", &attack)
                    .unwrap()
                    .current_dir(&repo.0),
            );
            assert_eq!(out.stdout, "");
        }
        assert!(!pwned.exists());
    }

    // ---- happy path ----

    #[test]
    fn git_log_happy_path() {
        let repo = repo_with_two_commits();
        let cmd = log()
            .revision("rev", "HEAD")
            .unwrap()
            .flag("--max-count=1")
            .current_dir(&repo.0);
        assert_eq!(cmd.argv(), ["git", "log", "--max-count=1", "HEAD", "--"]);
        let out = git_ok(cmd);
        assert!(out.stdout.contains("second commit"), "{}", out.stdout);
        assert!(!out.stdout.contains("first commit"));
        assert!(!out.truncated);

        let out = git_ok(
            log()
                .flag("--format=%s")
                .revision("rev", "HEAD")
                .unwrap()
                .current_dir(&repo.0),
        );
        assert_eq!(out.stdout, "second commit\nfirst commit\n");
    }

    // ---- limits ----

    #[test]
    fn timeout_kills_the_child() {
        // A duration no other process is likely to use, so /proc can tell
        // whether our child survived.
        const SLEEP: Program = program("sleep", &["7.3141"]);
        let start = Instant::now();
        let res = CommandLine::new(&SLEEP, "7.3141").unwrap().run(RunLimits {
            timeout: Duration::from_millis(200),
            max_output_bytes: 1024,
        });
        assert!(matches!(res, Err(RunError::Timeout)), "{res:?}");
        assert!(start.elapsed() < Duration::from_secs(5));
        if cfg!(target_os = "linux") {
            let me = std::process::id().to_string();
            for entry in std::fs::read_dir("/proc").expect("proc").flatten() {
                let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
                if cmdline == b"sleep\x007.3141\x00--\x00" {
                    let stat =
                        std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
                    // Fields after the ")" are: state ppid ...
                    let after = stat.rsplit(')').next().unwrap_or("");
                    let ppid = after.split_whitespace().nth(1).unwrap_or("");
                    assert_ne!(ppid, me, "our sleep child is still alive");
                }
            }
        }
    }

    #[test]
    fn output_cap_truncates_and_drains() {
        // 3 MB through a 1 KiB cap: also proves the rest is drained (the
        // child exits 0 instead of blocking on a full pipe until the timeout).
        const HEAD: Program = program("head", &["-c3000000"]);
        let out = CommandLine::new(&HEAD, "-c3000000")
            .unwrap()
            .positional("file", "/dev/zero")
            .unwrap()
            .run(RunLimits {
                timeout: Duration::from_secs(20),
                max_output_bytes: 1024,
            })
            .expect("head runs");
        assert_eq!(out.status, Some(0));
        assert!(out.truncated);
        assert_eq!(out.stdout.len(), 1024);

        let repo = repo_with_two_commits();
        let out = log()
            .current_dir(&repo.0)
            .run(RunLimits {
                timeout: Duration::from_secs(20),
                max_output_bytes: 40,
            })
            .expect("git runs");
        assert_eq!(out.status, Some(0));
        assert!(out.truncated);
        assert!(out.stdout.len() <= 40);
        assert!(out.stdout.starts_with("commit "));
    }

    #[test]
    fn cut_multibyte_character_is_dropped_not_replaced() {
        let bytes = "aé€".as_bytes(); // 1 + 2 + 3 bytes
        assert_eq!(lossy_text(&bytes[..5], true), "aé");
        assert_eq!(lossy_text(&bytes[..3], true), "aé");
        assert_eq!(lossy_text(&bytes[..2], true), "a");
        assert_eq!(lossy_text(bytes, false), "aé€");
        assert_eq!(lossy_text(b"a\xff", false), "a\u{fffd}");
        assert_eq!(read_capped(&b"hello"[..], 3), (b"hel".to_vec(), true));
        assert_eq!(read_capped(&b"hel"[..], 3), (b"hel".to_vec(), false));
    }

    #[test]
    fn missing_program_is_a_spawn_error() {
        const NOPE: Program = program("no-such-program-xyzzy", &["x"]);
        let res = CommandLine::new(&NOPE, "x")
            .unwrap()
            .run(RunLimits::default());
        assert!(matches!(res, Err(RunError::Spawn(_))), "{res:?}");
    }

    // ---- environment ----

    #[test]
    fn environment_is_cleared() {
        // cargo runs tests with CARGO_* and RUST* variables set; none may
        // reach the child.
        const PRINTENV: Program = program("printenv", &[""]);
        let cmd = CommandLine::new(&PRINTENV, "").unwrap();
        assert_eq!(cmd.argv(), ["printenv", "--"]);
        let out = cmd.run(limits()).expect("printenv runs");
        assert_eq!(out.status, Some(0));
        let keys: Vec<&str> = out
            .stdout
            .lines()
            .filter_map(|l| l.split('=').next())
            .collect();
        for key in &keys {
            assert!(["PATH", "HOME"].contains(key), "leaked {key}");
        }
    }

    #[test]
    fn git_gets_its_safety_variables_and_path_is_absolute_only() {
        let env = child_env("git");
        let get = |k: &str| {
            env.iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.to_string_lossy().into_owned())
        };
        assert_eq!(get("GIT_TERMINAL_PROMPT").as_deref(), Some("0"));
        assert_eq!(get("GIT_CONFIG_NOSYSTEM").as_deref(), Some("1"));
        assert_eq!(get("GIT_PROTOCOL_FROM_USER").as_deref(), Some("0"));
        if let Some(path) = get("PATH") {
            assert!(std::env::split_paths(&path).all(|p| p.is_absolute()));
        }
        assert!(child_env("sleep")
            .iter()
            .all(|(k, _)| k == "PATH" || k == "HOME"));
    }

    // ---- program and subcommand allowlists ----

    /// A program of the given name, as a test's `const` would declare it.
    fn named(name: &str, allowed_subcommands: &'static [&'static str]) -> Program {
        Program {
            name: Box::leak(name.to_string().into_boxed_str()),
            allowed_subcommands,
        }
    }

    #[test]
    fn program_must_be_bare_and_not_a_shell() {
        for name in [
            "/usr/bin/git",
            "./git",
            "bin/git",
            "",
            "..",
            "-git",
            "sh",
            "bash",
            "env",
            "BASH",
        ] {
            let p = named(name, &["x"]);
            assert_eq!(
                CommandLine::new(&p, "x").err(),
                Some(CommandRejection::ProgramNotAllowed(name.to_string())),
                "{name}"
            );
        }
    }

    /// Audit 3, D1: `rbash`, the command runners and the interpreters were
    /// accepted, and with them a positional (`timeout -- 5 touch X`) decided
    /// what ran.
    #[test]
    fn shells_runners_and_interpreters_are_refused_in_every_spelling() {
        for name in [
            "rbash",
            "sh.exe",
            "BASH.EXE",
            "ksh93",
            "yash",
            "timeout",
            "nohup",
            "nice",
            "setsid",
            "stdbuf",
            "chroot",
            "unshare",
            "flock",
            "ionice",
            "taskset",
            "strace",
            "ltrace",
            "runuser",
            "su",
            "script",
            "watch",
            "systemd-run",
            "parallel",
            "nsenter",
            "chrt",
            "setpriv",
            "time",
            "ld.so",
            "ld-linux-x86-64.so.2",
            "ld-musl-x86_64.so.1",
            "toybox",
            "ssh",
            "ssh.exe",
            "python",
            "python3",
            "python3.12",
            "pythonw.exe",
            "perl",
            "perl5.36",
            "node",
            "ruby",
            "php8.2",
            "lua5.4",
            "lua-5.4",
            "awk",
            "gawk",
            "mawk",
            "nawk",
            "tclsh8.6",
            "Rscript",
            "deno",
            "bun",
            "osascript",
        ] {
            let p = named(name, &[""]);
            let err = CommandLine::new(&p, "").err();
            assert_eq!(
                err,
                Some(CommandRejection::ProgramNotAllowed(name.to_string())),
                "{name}"
            );
            assert_eq!(
                err.unwrap().message(),
                "program is not allowed: it is a shell, command runner or interpreter, \
                 with which a value the model sends would decide what runs"
            );
        }
        // Names that merely resemble them are ordinary programs.
        for name in [
            "git",
            "sleep",
            "printenv",
            "ssh-keygen",
            "shasum",
            "envsubst",
            "perldoc",
            "timeout-helper",
            "7",
        ] {
            let p = named(name, &[""]);
            assert!(CommandLine::new(&p, "").is_ok(), "{name}");
        }
    }

    /// One list, and the rustdoc of `CommandLine::new` names all of it.
    #[test]
    fn every_refused_program_is_named_in_the_rustdoc() {
        let source = include_str!("command.rs");
        let start = source
            .find("/// Starts a command line for `program` and `subcommand`")
            .expect("the rustdoc of CommandLine::new");
        let end = start + source[start..].find("pub fn new").expect("fn new");
        let doc = &source[start..end];
        for entry in NEVER_PROGRAMS {
            assert!(
                doc.contains(&format!("`{entry}`")),
                "{entry} is not documented"
            );
            let p = Program {
                name: Box::leak(entry.trim_end_matches('*').to_string().into_boxed_str()),
                allowed_subcommands: &[""],
            };
            assert!(CommandLine::new(&p, "").is_err(), "{entry}");
        }
    }

    #[test]
    fn subcommand_must_be_allowlisted() {
        assert_eq!(
            CommandLine::new(&GIT, "push").err(),
            Some(CommandRejection::SubcommandNotAllowed("push".into()))
        );
        // An empty subcommand is only allowed when the contract lists "".
        assert_eq!(
            CommandLine::new(&GIT, "").err(),
            Some(CommandRejection::SubcommandNotAllowed(String::new()))
        );
        assert_eq!(
            CommandLine::new(&GIT, "--upload-pack=x")
                .err()
                .map(|e| e.message()),
            Some(
                "subcommand is not allowed: a value of 15 characters that the program's \
                 contract does not list; only listed subcommands run"
                    .to_string()
            )
        );
    }

    #[test]
    fn empty_and_nul_values_are_refused() {
        assert_eq!(
            log().revision("rev", "").err(),
            Some(CommandRejection::Empty {
                field: "rev".into()
            })
        );
        assert_eq!(
            log().positional("path", "a\0b").err(),
            Some(CommandRejection::Nul {
                field: "path".into()
            })
        );
    }

    #[test]
    fn argv_order_is_fixed_whatever_the_call_order() {
        let cmd = log()
            .positional("path", "p1")
            .unwrap()
            .revision("rev", "r1")
            .unwrap()
            .flag("--oneline")
            .positional("path", "p2")
            .unwrap()
            .option_value("--grep", "x")
            .unwrap()
            .revision("rev", "r2")
            .unwrap();
        assert_eq!(
            cmd.argv(),
            [
                "git",
                "log",
                "--oneline",
                "--grep=x",
                "r1",
                "r2",
                "--",
                "p1",
                "p2"
            ]
        );
    }

    // ---- messages ----

    #[test]
    fn messages_are_lowercase_one_line_and_never_echo_values() {
        let secret = "--token=ghp_SECRET123";
        let rejections = [
            log().revision("rev", secret).err().unwrap(),
            log().positional("path", "ghp_SECRET123\0").err().unwrap(),
            url("https://-ghp_SECRET123/x", &["https"]).err().unwrap(),
            url("ghp_SECRET123@host:x", &["https"]).err().unwrap(),
            CommandLine::new(&GIT, "ghp SECRET123").err().unwrap(),
            CommandLine::new(&GIT, "ghp_SECRET123_but_far_too_long_to_be_a_name")
                .err()
                .unwrap(),
            log().revision("rev", "").err().unwrap(),
            CommandLine::new(&program("sh", &["x"]), "x").err().unwrap(),
        ];
        for r in &rejections {
            let m = r.message();
            assert!(!m.contains("SECRET"), "{m}");
            assert!(!m.contains('\n'), "{m}");
            assert_eq!(m, m.to_lowercase(), "{m}");
            assert_eq!(m, r.to_string());
        }
        assert_eq!(rejections[0].field(), Some("rev"));
        assert_eq!(rejections[4].field(), None);
    }

    /// Audit 3, D7: a short refused subcommand (`sk-live-...`) and the
    /// program name were repeated in the message.
    #[test]
    fn refused_subcommands_and_programs_are_not_repeated() {
        for sub in ["sk-live-abcdef0123456789", "AKIAIOSFODNN7EXAMPLE", "push"] {
            let m = CommandLine::new(&GIT, sub).err().unwrap().message();
            assert_eq!(
                m,
                format!(
                    "subcommand is not allowed: a value of {} characters that the program's \
                     contract does not list; only listed subcommands run",
                    sub.len()
                )
            );
        }
        assert_eq!(
            CommandLine::new(&GIT, "").err().unwrap().message(),
            "subcommand is not allowed: the program's contract does not list the empty subcommand"
        );
        for (name, why) in [
            ("sk-live/abcdef", "it must be a bare name looked up on PATH"),
            (
                "-sk-live-abcdef",
                "it must be a bare name looked up on PATH",
            ),
            ("bash", "it is a shell, command runner or interpreter"),
        ] {
            let p = named(name, &["x"]);
            let m = CommandLine::new(&p, "x").err().unwrap().message();
            assert!(m.starts_with("program is not allowed: "), "{m}");
            assert!(m.contains(why), "{m}");
            assert!(!m.contains(name), "{m}");
        }
    }
}
