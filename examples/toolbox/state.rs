//! Where the toolbox keeps its state (`--store`), and `toolbox state`: the
//! operator's view of a store.
//!
//! ```text
//! toolbox state (--store S | --root DIR) unknown
//! toolbox state (--store S | --root DIR) records
//! toolbox state (--store S | --root DIR) resolve KEY --as done|failed [--tool NAME] [--tenant NAME]
//! toolbox state (--store S | --root DIR) journal [--call-id ID] [--tool NAME] [--tenant NAME]
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;

use contract_runtime::store::{self, JournalQuery, RecordTimes, Resolution, Store};
use contract_runtime::{Caller, Dispatcher};
use serde_json::json;

use toolbox::Fault;

/// What `serve-jsonl` and `mcp` take about state: `--store S`, `--fault F`,
/// `--lease-ms N` (how long a claim lasts without a heartbeat: how soon a
/// crashed worker's key reads `unknown`), `--retention-ms N` (how long a
/// completed key is remembered), `--journal-retention-ms N` (how long a
/// journal entry is kept), `--purge-every-ms N` (how often what is past its
/// time is deleted).
#[derive(Default)]
pub struct StateOptions {
    store: Option<String>,
    fault: Option<Fault>,
    times: RecordTimes,
}

impl StateOptions {
    /// Takes `a` (and its value from `rest`) if it is one of these options.
    pub fn take<'a>(
        &mut self,
        a: &str,
        rest: &mut impl Iterator<Item = &'a String>,
    ) -> Result<bool, String> {
        let mut value = || rest.next().cloned().ok_or(format!("{a} needs a value"));
        // A century at most: the store adds it to its clock in milliseconds,
        // and a larger number would overflow there, not here.
        const CENTURY_MS: u64 = 100 * 365 * 24 * 3600 * 1000;
        let ms = |v: String| {
            v.parse::<u64>()
                .ok()
                .filter(|&n| n > 0 && n <= CENTURY_MS)
                .map(std::time::Duration::from_millis)
                .ok_or(format!(
                    "{a} needs a positive number of milliseconds, at most a century ({CENTURY_MS})"
                ))
        };
        match a {
            "--store" if self.store.is_some() => {
                return Err("--store given twice: one server, one store".into())
            }
            "--store" => self.store = Some(value()?),
            "--fault" => self.fault = Some(value()?.parse()?),
            "--lease-ms" => self.times.lease = ms(value()?)?,
            "--retention-ms" => self.times.retention = ms(value()?)?,
            "--approval-ttl-ms" => self.times.approval_ttl = ms(value()?)?,
            "--journal-retention-ms" => self.times.journal_retention = ms(value()?)?,
            "--purge-every-ms" => self.times.purge_every = ms(value()?)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The caller with the fault, if one was asked for, as host state.
    pub fn caller(&self, caller: Caller) -> Caller {
        match self.fault {
            Some(f) => caller.state(f),
            None => caller,
        }
    }

    /// `dispatcher` keeping its records and journal in the chosen store
    /// (the embedded default for `root` without `--store`).
    pub async fn dispatcher(
        &self,
        dispatcher: Dispatcher,
        root: &Path,
    ) -> Result<Dispatcher, String> {
        let store = StoreChoice::new(self.store.clone(), Some(root))?
            .open()
            .await?;
        Ok(dispatcher.with_store(store).with_record_times(self.times))
    }
}

/// The store to open: `--store` as given, or the embedded default for `root`.
pub struct StoreChoice {
    pub spec: String,
    /// Not chosen by the user: say where it is, once, on stderr.
    pub default: bool,
}

impl StoreChoice {
    pub fn new(store: Option<String>, root: Option<&Path>) -> Result<StoreChoice, String> {
        match (store, root) {
            (Some(spec), _) => Ok(StoreChoice {
                spec,
                default: false,
            }),
            (None, Some(root)) => Ok(StoreChoice {
                spec: format!("sqlite:{}", default_path(root)?.display()),
                default: true,
            }),
            (None, None) => Err("say which store: --store S or --root DIR".into()),
        }
    }

    /// Opens a store that a server already made, for the operator's
    /// commands: a view of a store never creates one (a mistyped path would
    /// read as "nothing in doubt"), and `memory` lives and dies inside one
    /// server process, so no other process can see it.
    pub async fn open_existing(&self) -> Result<Arc<dyn Store>, String> {
        if self.spec == "memory" {
            return Err("--store memory lives inside one server process and cannot be seen from another: name the store the server uses (sqlite:PATH or postgres:URL)".into());
        }
        if let Some(path) = self.spec.strip_prefix("sqlite:").map(Path::new) {
            if !path.exists() {
                return Err(format!(
                    "no store at {}: check the path, or start a server on it first",
                    path.display()
                ));
            }
        }
        // an empty file or another program's database is refused too, and
        // left as it is
        store::open_existing(&self.spec)
            .await
            .map_err(|e| format!("--store: {e}"))
    }

    /// Opens the store; creates the default's folder and file first.
    pub async fn open(&self) -> Result<Arc<dyn Store>, String> {
        if self.default {
            if let Some(file) = self.spec.strip_prefix("sqlite:").map(Path::new) {
                private_file(file)?;
            }
        }
        let s = store::open(&self.spec)
            .await
            .map_err(|e| format!("--store: {e}"))?;
        if self.default {
            err!(
                "toolbox: state in {} (the default for this --root; choose with --store)",
                s.describe()
            );
        }
        Ok(s)
    }
}

/// The embedded default: one SQLite file per root, in the user's state folder
/// (`$XDG_STATE_HOME/toolbox`, else `~/.local/state/toolbox`), so it is outside
/// every tool root, and a restart on the same root finds its records again.
/// A relative `XDG_STATE_HOME` is ignored, as the XDG spec asks; a state
/// folder that lies inside the root (links followed) gives way to the next
/// one, the system's temporary folder last.
fn default_path(root: &Path) -> Result<PathBuf, String> {
    let root = root
        .canonicalize()
        .map_err(|e| format!("cannot open --root {}: {e}", root.display()))?;
    let xdg = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let home = std::env::var_os("HOME")
        .map(|h| PathBuf::from(h).join(".local/state"))
        .filter(|p| p.is_absolute());
    let hash = contract_runtime::digest::sha256_hex(root.as_os_str().as_encoded_bytes());
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file_name = format!("{name}-{}.sqlite", &hash["sha256:".len()..][..16]);
    [xdg, home, Some(std::env::temp_dir())]
        .into_iter()
        .flatten()
        .map(|base| base.join("toolbox"))
        .find(|dir| !located(dir).starts_with(&root))
        .map(|dir| dir.join(file_name))
        .ok_or_else(|| {
            "every state folder (XDG_STATE_HOME, ~/.local/state, the temporary folder) is inside --root; choose a store with --store".to_string()
        })
}

/// The default store holds the journal (arguments, if redacted) and the
/// approval requests: its folder is the user's alone (0700) and so is the
/// file (0600; SQLite gives its WAL the file's mode), created before SQLite
/// opens it so that it is never readable by others, not even for a moment.
/// A folder that exists but belongs to another user (a shared temporary
/// folder someone made first) is refused rather than used.
fn private_file(file: &Path) -> Result<(), String> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
    let Some(dir) = file.parent() else {
        return Ok(());
    };
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    if let (Ok(folder), Ok(me)) = (std::fs::metadata(dir), std::fs::metadata("/proc/self")) {
        if folder.uid() != me.uid() {
            return Err(format!(
                "the state folder {} belongs to another user; choose a store with --store",
                dir.display()
            ));
        }
        // Made by an earlier version, or by hand: the toolbox's own folder
        // is closed whenever it is used.
        if folder.mode() & 0o077 != 0 {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| format!("cannot make {} private: {e}", dir.display()))?;
        }
    }
    let f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(file)
        .map_err(|e| format!("cannot create {}: {e}", file.display()))?;
    // A file an earlier version made readable by others is closed too.
    match f.metadata() {
        Ok(m) if m.mode() & 0o077 != 0 => {
            use std::os::unix::fs::PermissionsExt;
            f.set_permissions(std::fs::Permissions::from_mode(0o600))
                .map_err(|e| format!("cannot make {} private: {e}", file.display()))
        }
        _ => Ok(()),
    }
}

/// Where `dir` is, links followed: its deepest existing ancestor made
/// canonical, with the rest of the path as written.
fn located(dir: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut at = dir;
    loop {
        if let Ok(real) = at.canonicalize() {
            return rest.iter().rev().fold(real, |p, c| p.join(c));
        }
        match (at.file_name(), at.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return dir.to_path_buf(),
        }
    }
}

/// `toolbox state ...`
pub fn run(args: &[String]) -> Result<(), String> {
    let mut store = None;
    let mut root = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--store" if store.is_some() => return Err("--store given twice".into()),
            "--store" => store = Some(it.next().ok_or("--store needs a value")?.clone()),
            "--root" => root = Some(PathBuf::from(it.next().ok_or("--root needs a value")?)),
            _ => rest.push(a.clone()),
        }
    }
    let choice = StoreChoice::new(store, root.as_deref())?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async {
        let s = choice.open_existing().await?;
        match rest.first().map(String::as_str) {
            Some("unknown") if rest.len() == 1 => unknown(&*s).await,
            Some("records") if rest.len() == 1 => records(&*s).await,
            Some("resolve") => resolve(&*s, &rest[1..]).await,
            Some("journal") => journal(&*s, &rest[1..]).await,
            _ => Err(USAGE.to_string()),
        }
    })
}

const USAGE: &str = "usage:
  toolbox state (--store S | --root DIR) unknown
  toolbox state (--store S | --root DIR) records
  toolbox state (--store S | --root DIR) resolve KEY --as done|failed [--tool NAME] [--tenant NAME]
  toolbox state (--store S | --root DIR) journal [--call-id ID] [--tool NAME] [--tenant NAME]";

/// One JSON line for the operator's terminal: a character the model sent
/// that a terminal would act on or hide is written as its `\u` escape.
fn print(line: serde_json::Value) -> Result<(), String> {
    out!(
        "{}",
        contract_runtime::observe::for_people(&line.to_string())
    )
}

async fn unknown(s: &dyn Store) -> Result<(), String> {
    for r in s.in_doubt().await.map_err(|e| e.to_string())? {
        print(json!({
            "tool": r.key.tool,
            "tenant": r.key.tenant,
            "key": r.key.key,
            "doubt": r.doubt,
            "call_id": r.call_id,
            "digest": r.digest,
            "claimed_ms": r.claimed_ms,
        }))?;
    }
    Ok(())
}

/// Every idempotency record, oldest first: what a check of effects against
/// the store compares.
async fn records(s: &dyn Store) -> Result<(), String> {
    for r in s.records().await.map_err(|e| e.to_string())? {
        print(json!({
            "tool": r.key.tool,
            "tenant": r.key.tenant,
            "key": r.key.key,
            "state": r.state,
            "in_doubt": r.in_doubt,
            "call_id": r.call_id,
            "digest": r.digest,
            "status": r.status,
            "claimed_ms": r.claimed_ms,
            "expires_ms": r.expires_ms,
        }))?;
    }
    Ok(())
}

async fn resolve(s: &dyn Store, args: &[String]) -> Result<(), String> {
    let mut key = None;
    let mut as_ = None;
    let mut tool = None;
    let mut tenant = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--as" => {
                as_ = Some(match it.next().map(String::as_str) {
                    Some("done") => Resolution::Done,
                    Some("failed") => Resolution::Failed,
                    _ => return Err("--as needs done or failed".into()),
                })
            }
            "--tool" => tool = Some(it.next().ok_or("--tool needs a value")?.clone()),
            "--tenant" => tenant = Some(it.next().ok_or("--tenant needs a value")?.clone()),
            k if key.is_none() && !k.starts_with("--") => key = Some(k.to_string()),
            other => return Err(format!("unknown option `{other}`\n{USAGE}")),
        }
    }
    let (Some(key), Some(as_)) = (key, as_) else {
        return Err(USAGE.to_string());
    };
    // Named as the dispatcher names it: a UUID in any letter case is one key.
    let key = contract_runtime::store::RecordKey::new("", key).key;
    let doubtful = s.in_doubt().await.map_err(|e| e.to_string())?;
    let mut matching: Vec<_> = doubtful
        .into_iter()
        .filter(|r| r.key.key == key)
        .filter(|r| tool.as_ref().is_none_or(|t| *t == r.key.tool))
        .filter(|r| tenant.as_ref().is_none_or(|t| *t == r.key.tenant))
        .collect();
    let record = match matching.len() {
        0 => return Err(format!("no record in doubt has the key `{key}`")),
        1 => matching.remove(0),
        _ => {
            // Keys are the model's, per tool and per tenant: the same key
            // may be in doubt for two tenants, and settling one settles
            // nothing of the other's.
            let whose: Vec<_> = (matching.iter())
                .map(|r| match r.key.tenant.as_str() {
                    "" => format!("`{}`", r.key.tool),
                    t => format!("`{}` of tenant {t}", r.key.tool),
                })
                .collect();
            return Err(format!(
                "`{key}` is in doubt for {}; say which with --tool and --tenant",
                whose.join(", ")
            ));
        }
    };
    if !s
        .resolve(&record.key, as_)
        .await
        .map_err(|e| e.to_string())?
    {
        return Err(format!("`{key}` was settled meanwhile"));
    }
    print(json!({
        "tool": record.key.tool,
        "tenant": record.key.tenant,
        "key": record.key.key,
        "resolved": match as_ { Resolution::Done => "done", Resolution::Failed => "failed" },
    }))?;
    Ok(())
}

async fn journal(s: &dyn Store, args: &[String]) -> Result<(), String> {
    let mut q = JournalQuery::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--call-id" => q.call_id = Some(value()?),
            "--tool" => q.tool = Some(value()?),
            // over MCP a call id is a session's request id: the same id
            // recurs across sessions, callers and tenants
            "--tenant" => q.tenant = Some(value()?),
            other => return Err(format!("unknown option `{other}`\n{USAGE}")),
        }
    }
    for r in s.query(&q).await.map_err(|e| e.to_string())? {
        print(serde_json::to_value(&r).map_err(|e| e.to_string())?)?;
    }
    Ok(())
}
