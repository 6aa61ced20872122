//! Confined file-system paths for tool arguments (design rule C13).
//!
//! Two layers, because each one alone has a known hole:
//!
//! 1. [`ConfinedPath::parse`] is a lexical check at decode time. It rejects
//!    what is wrong whatever the file system holds (absolute paths, Windows
//!    prefixes, `..` that climbs above the root, NUL) so the model gets a
//!    precise answer before anything touches the disk.
//! 2. [`Root`] holds a directory handle (cap-std's `Dir`, which uses `openat2`
//!    with `RESOLVE_BENEATH` on Linux) and resolves every path beneath it. This
//!    is the layer that defeats symlinks and races: a string check can never
//!    know where `cfg/passwd` leads, the kernel can.
//!
//! Every operation on [`Root`] runs [`Root::check`] first (to report a clean
//! `OutsideScope`), then performs the access through the handle, so a symlink
//! swapped in between the check and the use still cannot leave the root.
//!
//! A hard link is the one escape a handle cannot see: a second name for a file
//! is the same file, wherever its other names live. So a regular file with
//! more than one link is treated as outside the root (never read, never
//! replaced, never appended to, not listed) unless the host opts in with
//! [`Root::allow_hard_links`].

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use cap_std::fs::{Dir, OpenOptions};

/// The root a confined path argument resolves in when it names none with `#[arg(root = "..")]`.
pub const DEFAULT_ROOT: &str = "default";

/// A path argument confined to a tool's root: relative, validated lexically at decode time.
///
/// Build one with [`ConfinedPath::parse`]; arguments are decoded as sent and
/// every [`Root`] operation re-checks them, lexically and then on disk. The original text is kept
/// (not a normalised form) because the file system, not string arithmetic,
/// decides what `in/../x` means when `in` is a symlink.
///
/// ```
/// use contract_runtime::path::{ConfinedPath, PathRejection};
/// let p = ConfinedPath::parse("notes/today.md").unwrap();
/// assert_eq!(p.as_str(), "notes/today.md");
/// assert_eq!(ConfinedPath::parse("../etc/passwd"), Err(PathRejection::OutsideScope));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConfinedPath(String);

impl ConfinedPath {
    /// Lexical checks only (no file system).
    ///
    /// Rejects NUL ([`PathRejection::Nul`]), the empty string
    /// ([`PathRejection::Empty`]), and with [`PathRejection::OutsideScope`]:
    /// absolute paths, Windows drive prefixes (`C:`, `C:\..`), UNC and verbatim
    /// paths (`\\host\share`, `\\?\C:\x`), any backslash at all (denied on every
    /// platform so a path means the same thing everywhere), and any path whose
    /// lexical normalisation climbs above the root (`a/../../x`). `.`
    /// components are fine, `a/../b` is fine, and `.` names the root itself.
    pub fn parse(s: &str) -> Result<ConfinedPath, PathRejection> {
        validate_lexically(s)?;
        Ok(ConfinedPath(s.to_owned()))
    }

    /// Keeps argument text as sent, before any check. The decode stage builds
    /// paths this way so that an escape is answered by the authority stage as
    /// `denied / path-outside-scope` (with the field at fault), not as a schema
    /// error; [`Root::check`] re-applies every lexical rule before any access.
    pub(crate) fn from_arg(s: String) -> ConfinedPath {
        ConfinedPath(s)
    }

    /// The path exactly as the caller wrote it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The path as handed to cap-std; private so callers cannot bypass `Root`.
    fn as_path(&self) -> &Path {
        Path::new(&self.0)
    }
}

impl fmt::Display for ConfinedPath {
    /// Shows the path as written; it passed validation, so it holds no NUL.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl serde::Serialize for ConfinedPath {
    /// Serialises as the plain string, so journals and envelopes show what the model sent.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// Why [`ConfinedPath::parse`] refused a string.
///
/// Kept separate from [`PathError`] because these are decode-time verdicts
/// (a malformed or out-of-scope argument), known before any file is touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathRejection {
    /// The string was empty; use `.` to name the root.
    Empty,
    /// The string contained a NUL byte, which the OS would silently truncate at.
    Nul,
    /// The path is absolute, carries a Windows prefix or backslash, or climbs above the root.
    OutsideScope,
}

impl PathRejection {
    /// A one-line, lowercase message. It never echoes the path, because the
    /// path is model-controlled text that may carry a secret or an injection.
    pub fn message(&self) -> &'static str {
        match self {
            PathRejection::Empty => "path is empty; use \".\" for the tool's root",
            PathRejection::Nul => "path contains a nul byte",
            PathRejection::OutsideScope => "path is outside the tool's scope",
        }
    }
}

impl fmt::Display for PathRejection {
    /// Same text as [`PathRejection::message`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for PathRejection {}

/// The lexical rules of [`ConfinedPath::parse`], in the order a reader would check them.
fn validate_lexically(s: &str) -> Result<(), PathRejection> {
    if s.is_empty() {
        return Err(PathRejection::Empty);
    }
    if s.contains('\0') {
        return Err(PathRejection::Nul);
    }
    // A backslash is a separator on Windows and a name byte elsewhere; refusing
    // it everywhere closes UNC (`\\host`), verbatim (`\\?\`) and `..\` tricks at once.
    if s.contains('\\') {
        return Err(PathRejection::OutsideScope);
    }
    if s.starts_with('/') {
        return Err(PathRejection::OutsideScope);
    }
    // `C:` (drive-relative) and `C:/x` name another volume on Windows.
    let bytes = s.as_bytes();
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        return Err(PathRejection::OutsideScope);
    }
    let mut depth: usize = 0;
    for component in s.split('/') {
        match component {
            "" | "." => {}
            ".." => {
                depth = depth.checked_sub(1).ok_or(PathRejection::OutsideScope)?;
            }
            _ => depth += 1,
        }
    }
    Ok(())
}

/// A directory handle held for a tool's root; every access resolves beneath it
/// (`openat2` `RESOLVE_BENEATH` via cap-std).
///
/// The handle, not a path string, is the authority: renaming or replacing the
/// directory on disk after `open` does not widen what this `Root` can reach.
pub struct Root {
    dir: Dir,
    name: String,
    /// Whether regular files with more than one hard link are served (see [`Root::allow_hard_links`]).
    hard_links: bool,
    /// The largest file a read returns whole (see [`Root::max_read`]).
    max_read: Option<u64>,
}

/// A folder locked for writing ([`Root::lock_folder_of`]); dropping it
/// releases the lock.
#[derive(Debug)]
pub struct FolderLock {
    _folder: std::fs::File,
}

impl fmt::Debug for Root {
    /// Shows the display name only; the handle's absolute location is not the model's business.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Root")
            .field("name", &self.name)
            .field("hard_links", &self.hard_links)
            .field("max_read", &self.max_read)
            .finish()
    }
}

/// Makes temp names unique within the process even when two writes share a nanosecond.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

impl Root {
    /// Open `dir` as a root, using ambient authority exactly once, here.
    ///
    /// `name` is a display name for messages (for example `"repo"`), so the
    /// host's absolute path never reaches a model.
    pub fn open(dir: impl AsRef<Path>, name: &str) -> io::Result<Root> {
        let dir = Dir::open_ambient_dir(dir.as_ref(), cap_std::ambient_authority())?;
        Ok(Root {
            dir,
            name: name.to_owned(),
            hard_links: false,
            max_read: None,
        })
    }

    /// Opt in to serving regular files that have more than one hard link.
    ///
    /// By default such a file is refused like an escape
    /// ([`PathError::OutsideScope`]): a hard link is the same file as every
    /// other name it has, and one of those names may be outside the root
    /// (`ln /etc/shadow $R/notes.md` needs no symlink). No path check can tell
    /// where the other names are, so the only safe default is to refuse them
    /// all. Opt in only when nobody who could make links in the root's tree is
    /// less trusted than the model, for example a tree the host itself built
    /// from a content-addressed store that deduplicates by hard link.
    ///
    /// Roots opened with [`Root::subdir`] inherit the choice.
    ///
    /// ```
    /// # use contract_runtime::path::Root;
    /// # let dir = std::env::temp_dir();
    /// let root = Root::open(&dir, "cache")?.allow_hard_links();
    /// assert!(root.allows_hard_links());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[must_use]
    pub fn allow_hard_links(mut self) -> Root {
        self.hard_links = true;
        self
    }

    /// Reads return at most `bytes` of a file: a larger one is
    /// [`PathError::TooLarge`], never read into memory (a 105 MB file read
    /// whole is 105 MB in the process and in the model's answer). No bound by
    /// default. Roots opened with [`Root::subdir`] inherit it.
    ///
    /// ```
    /// # use contract_runtime::path::{ConfinedPath, PathError, Root};
    /// # let dir = std::env::temp_dir().join(format!("max-read-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # std::fs::write(dir.join("big.log"), vec![b'x'; 2048])?;
    /// let root = Root::open(&dir, "logs")?.max_read(1024);
    /// let big = ConfinedPath::parse("big.log").unwrap();
    /// assert!(matches!(root.read(&big), Err(PathError::TooLarge { size: 2048, max: 1024 })));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[must_use]
    pub fn max_read(mut self, bytes: u64) -> Root {
        self.max_read = Some(bytes);
        self
    }

    /// Whether this root serves files with more than one hard link.
    pub fn allows_hard_links(&self) -> bool {
        self.hard_links
    }

    /// The display name given at open time.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Open a sub-directory as its own Root (e.g. DIR/repo, DIR/notes); creates
    /// it if missing when `create` is true.
    ///
    /// `rel` goes through the same lexical and handle checks as a tool
    /// argument, so a host-side configuration mistake cannot hand a tool more
    /// than its parent had. A lexically invalid `rel` is `OutsideScope`. The
    /// new root's display name is `rel`.
    pub fn subdir(&self, rel: &str, create: bool) -> Result<Root, PathError> {
        let p = ConfinedPath::parse(rel).map_err(|_| PathError::OutsideScope)?;
        self.check(&p)?;
        if create {
            // cap-std's create_dir_all resolves each step beneath the handle.
            self.dir.create_dir_all(p.as_path())?;
        }
        let dir = self.dir.open_dir(p.as_path())?;
        Ok(Root {
            dir,
            name: rel.to_owned(),
            hard_links: self.hard_links,
            max_read: self.max_read,
        })
    }

    /// The folder `name` directly beneath this one, opened following no
    /// link: a link (even to a folder inside the root) or a file is
    /// [`PathError::NotAFile`]. For
    /// [`crate::command::CommandLine::git_repository_of`], whose `.git` must
    /// be the folder itself: through a link, settings kept under another
    /// name (that the tools edit as ordinary files) would be git's.
    #[cfg(feature = "command")]
    pub(crate) fn open_dir_nofollow(&self, name: &str) -> Result<Dir, PathError> {
        folder_nofollow(&self.dir, Path::new(name))
    }

    /// A second handle on the same folder.
    #[cfg(feature = "command")]
    pub(crate) fn try_clone_dir(&self) -> Result<Dir, PathError> {
        Ok(self.dir.try_clone()?)
    }

    /// The pre-check the dispatcher runs before a tool executes.
    ///
    /// 1. cap-std canonicalize of the path beneath the root (confirmed by a
    ///    sandboxed `metadata`): Ok means inside.
    /// 2. An escape error means [`PathError::OutsideScope`].
    /// 3. NotFound: if `symlink_metadata` of the path itself succeeds, the path
    ///    is a dangling link, which is `OutsideScope` (we never fall back to
    ///    the parent, because a write would follow the link wherever it points).
    ///    A name that is not a link was made between the two looks (another
    ///    writer creating the file): the path is probed again, a few times.
    ///    Otherwise repeat on the parent; an empty parent is the root, which is
    ///    inside. A missing path whose parents are inside is `Ok(())`, since a
    ///    write may create it.
    /// 4. A path that resolves to a regular file with more than one hard link
    ///    is `OutsideScope`, unless the root allows hard links.
    ///
    /// The lexical rules are re-applied first: cheap, and it keeps `check`
    /// honest even if a `ConfinedPath` ever reaches here by another route.
    pub fn check(&self, p: &ConfinedPath) -> Result<(), PathError> {
        validate_lexically(p.as_str()).map_err(|_| PathError::OutsideScope)?;
        self.check_beneath(p.as_path())
    }

    /// The file-system half of [`Root::check`].
    fn check_beneath(&self, path: &Path) -> Result<(), PathError> {
        let mut current = path;
        // Times a name that did not resolve was found to be no link at all:
        // something else (another writer's new file) appeared at it between
        // the two looks, so it is looked at again.
        let mut appeared = 0;
        loop {
            if current.as_os_str().is_empty() {
                return Ok(());
            }
            // cap-std's fallback canonicalize (used when openat2 is unavailable)
            // can return a partial path on error; the sandboxed metadata call
            // makes sure the whole path really resolved.
            let probe = self
                .dir
                .canonicalize(current)
                .and_then(|_| self.dir.metadata(current));
            match probe.map_err(PathError::from) {
                // Only the path itself can be a linked file: a parent that
                // resolves is a directory, whose link count means nothing here.
                Ok(meta) => return self.refuse_hard_link(&meta),
                Err(PathError::NotFound) => match self.dir.symlink_metadata(current) {
                    // The name exists but does not resolve: a dangling link.
                    Ok(meta) if meta.file_type().is_symlink() => {
                        return Err(PathError::OutsideScope)
                    }
                    // Not a link: it was made after the first look (two
                    // writers creating one file), so look again. A name
                    // that keeps coming and going is no link either, so
                    // after a few tries it is treated as missing: whatever
                    // then writes opens it through the handle checks.
                    Ok(_) if appeared < 3 => appeared += 1,
                    Ok(_) => current = current.parent().unwrap_or_else(|| Path::new("")),
                    Err(e) => match PathError::from(e) {
                        PathError::NotFound => {
                            current = current.parent().unwrap_or_else(|| Path::new(""));
                        }
                        other => return Err(other),
                    },
                },
                Err(other) => return Err(other),
            }
        }
    }

    /// Where `p` leads beneath the root, links followed: its canonical path
    /// relative to the root, `/`-separated (`""` for the root itself). A name
    /// that does not exist yet is kept as written (a missing folder cannot be
    /// a link), and `..` steps back from wherever the path had led. For a check that compares locations, not spellings
    /// (is this file inside the task's folder?): `src/l/x.md`, with `src/l`
    /// a link to `docs`, is `docs/x.md`.
    ///
    /// An escape is [`PathError::OutsideScope`], as for [`Root::check`].
    ///
    /// ```
    /// # use contract_runtime::path::{ConfinedPath, Root};
    /// # let dir = std::env::temp_dir().join(format!("resolve-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(dir.join("docs"))?;
    /// # #[cfg(unix)] { let _ = std::os::unix::fs::symlink("docs", dir.join("l")); }
    /// let root = Root::open(&dir, "repo")?;
    /// let p = ConfinedPath::parse("l/new.md").unwrap();
    /// # #[cfg(unix)]
    /// assert_eq!(root.resolve(&p).unwrap(), "docs/new.md");
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn resolve(&self, p: &ConfinedPath) -> Result<String, PathError> {
        use std::path::{Component, PathBuf};
        self.check(p)?;
        // One name at a time: a name that exists is resolved by the file
        // system (links and all), one that does not is taken as written, and
        // `..` steps back from wherever that led, which may be somewhere that
        // exists again (`new/../link`).
        let mut at = PathBuf::new();
        for c in p.as_path().components() {
            match c {
                Component::Normal(name) => {
                    let next = at.join(name);
                    at = match self.dir.canonicalize(&next).map_err(PathError::from) {
                        Ok(found) => found,
                        Err(PathError::NotFound) => next,
                        Err(other) => return Err(other),
                    };
                }
                Component::ParentDir => {
                    at.pop();
                }
                _ => {}
            }
        }
        let names: Vec<String> = at
            .components()
            .filter_map(|c| match c {
                Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect();
        Ok(names.join("/"))
    }

    /// Read a regular file's bytes.
    pub fn read(&self, p: &ConfinedPath) -> Result<Vec<u8>, PathError> {
        self.check(p)?;
        self.read_beneath(p.as_path())
    }

    /// The handle-only half of [`Root::read`]: cap-std alone enforces confinement here.
    fn read_beneath(&self, path: &Path) -> Result<Vec<u8>, PathError> {
        // Refuse non-files before opening: opening a FIFO for reading would block.
        self.read_looking(&self.dir, path, || self.dir.metadata(path))
    }

    /// [`Root::read_seen`] of `name` as `look` sees it, looked at and read
    /// again, at most eight times, while it found a regular file that
    /// another had replaced by the time it was opened: a writer's rename
    /// (every write is one), not an attack. A link or anything else swapped
    /// in is refused as ever, since the next look sees it.
    fn read_looking(
        &self,
        dir: &Dir,
        name: &Path,
        look: impl Fn() -> io::Result<cap_std::fs::Metadata>,
    ) -> Result<Vec<u8>, PathError> {
        let mut tries = 0;
        loop {
            tries += 1;
            let seen = look()?;
            match self.read_seen(dir, name, &seen) {
                Err(PathError::NotAFile) if seen.is_file() && tries < 8 => continue,
                outcome => return outcome,
            }
        }
    }

    /// Reads `name` in `dir` when it is the one-link regular file `seen`
    /// describes: opened non-blocking (a FIFO renamed over the name since
    /// `seen` was read would otherwise block the open for good), then the
    /// descriptor's own metadata must be that file's, so a name swapped in
    /// between is refused, never read.
    fn read_seen(
        &self,
        dir: &Dir,
        name: &Path,
        seen: &cap_std::fs::Metadata,
    ) -> Result<Vec<u8>, PathError> {
        if !seen.is_file() {
            return Err(PathError::NotAFile);
        }
        self.refuse_hard_link(seen)?;
        let mut options = OpenOptions::new();
        options.read(true);
        nonblocking(&mut options);
        let too_large = |size: u64| match self.max_read {
            Some(max) if size > max => Err(PathError::TooLarge { size, max }),
            _ => Ok(()),
        };
        too_large(seen.len())?;
        let mut file = dir.open_with(name, &options)?;
        let opened = file.metadata()?;
        if !same_file(seen, &opened) {
            return Err(PathError::NotAFile);
        }
        self.refuse_hard_link(&opened)?;
        let mut bytes = Vec::new();
        match self.max_read {
            // one byte past the bound tells a file that grew since
            Some(max) => (&mut file)
                .take(max.saturating_add(1))
                .read_to_end(&mut bytes)?,
            None => file.read_to_end(&mut bytes)?,
        };
        too_large(bytes.len() as u64)?;
        Ok(bytes)
    }

    /// Read a regular file as UTF-8; invalid UTF-8 is an `Io` error of kind `InvalidData`.
    pub fn read_to_string(&self, p: &ConfinedPath) -> Result<String, PathError> {
        let bytes = self.read(p)?;
        // The error is built from the kind only, so no file bytes leak into messages.
        String::from_utf8(bytes).map_err(|_| {
            PathError::Io(io::Error::new(
                io::ErrorKind::InvalidData,
                "file is not valid utf-8",
            ))
        })
    }

    /// Write-then-rename: write a temp file beside the target (create_new), then
    /// rename over it. Never follows a symlink at the target.
    ///
    /// Readers see either the old contents or the new, never a torn file. A
    /// symlink at the target is replaced by the new file (rename does not
    /// follow it); one that leads outside the root is refused by `check`. A
    /// regular file with more than one hard link is never replaced (it is
    /// `OutsideScope`, as for a read) unless the root allows hard links. The
    /// parent directory must already exist (`NotFound` otherwise).
    pub fn write_atomic(&self, p: &ConfinedPath, bytes: &[u8]) -> Result<(), PathError> {
        self.check(p)?;
        self.write_atomic_beneath(p.as_path(), bytes)
    }

    /// The handle-only half of [`Root::write_atomic`].
    fn write_atomic_beneath(&self, path: &Path, bytes: &[u8]) -> Result<(), PathError> {
        let file_name = path.file_name().ok_or(PathError::NotAFile)?;
        let parent = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        // Open the parent once and do everything relative to it, so the temp
        // file and the target are guaranteed to share a directory.
        let parent_dir = self.dir.open_dir(parent)?;
        self.write_atomic_in(parent_dir, file_name, bytes)
    }

    /// Write-then-rename of `file_name` in the opened folder `parent_dir`.
    fn write_atomic_in(
        &self,
        parent_dir: Dir,
        file_name: &std::ffi::OsStr,
        bytes: &[u8],
    ) -> Result<(), PathError> {
        let mut keep = None;
        match parent_dir.symlink_metadata(file_name) {
            Ok(meta) if meta.is_dir() => return Err(PathError::NotAFile),
            Ok(meta) => {
                self.refuse_hard_link(&meta)?;
                if meta.is_file() {
                    // Replacing a file needs write permission on its folder
                    // only: without this, a file the process may not write
                    // (read-only, another user's) would be replaced all the
                    // same. Opened for writing (never truncated) to ask the
                    // system, then its mode is the new file's.
                    let mut probe = OpenOptions::new();
                    probe.write(true);
                    nonblocking(&mut probe);
                    parent_dir.open_with(file_name, &probe).map_err(no_fifo)?;
                    keep = Some(meta.permissions());
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e.into()),
        }

        let temp_name = temp_file_name();
        let mut options = OpenOptions::new();
        // create_new is O_CREAT|O_EXCL: it refuses to follow a symlink planted at the temp name.
        options.write(true).create_new(true);
        let mut temp = parent_dir.open_with(&temp_name, &options)?;
        let written = temp
            .write_all(bytes)
            // a 0600 file stays 0600, a script keeps its exec bit
            .and_then(|()| keep.map_or(Ok(()), |mode| temp.set_permissions(mode)))
            .and_then(|()| temp.sync_all())
            .and_then(|()| parent_dir.rename(&temp_name, &parent_dir, file_name));
        drop(temp);
        if let Err(e) = written {
            // Best effort: the temp name is ours alone, so removing it cannot hurt anyone.
            let _ = parent_dir.remove_file(&temp_name);
            return Err(e.into());
        }
        // Best effort durability of the rename; some file systems reject fsync on a directory.
        let _ = parent_dir.into_std_file().sync_all();
        Ok(())
    }

    /// [`Root::read`] of a path that follows no link anywhere: each folder
    /// is opened only when it is a folder and not a link (its identity
    /// checked on the opened handle), and the file itself must not be one.
    /// For a path [`Root::resolve`] returned, this reads the very file a
    /// decision about that path was about: a link swapped in since is
    /// refused ([`PathError::NotAFile`]), never followed.
    pub fn read_nofollow(&self, p: &ConfinedPath) -> Result<Vec<u8>, PathError> {
        self.check(p)?;
        let (dir, name) = self.parent_nofollow(p.as_path())?;
        self.read_looking(&dir, Path::new(name), || dir.symlink_metadata(name))
    }

    /// [`Root::write_atomic`] of a path that follows no link anywhere (see
    /// [`Root::read_nofollow`]): a link at the target is refused, not
    /// replaced, since the path was meant to name a file.
    pub fn write_atomic_nofollow(&self, p: &ConfinedPath, bytes: &[u8]) -> Result<(), PathError> {
        self.check(p)?;
        let (dir, name) = self.parent_nofollow(p.as_path())?;
        match dir.symlink_metadata(name) {
            Ok(meta) if meta.file_type().is_symlink() => return Err(PathError::NotAFile),
            _ => {}
        }
        self.write_atomic_in(dir, name, bytes)
    }

    /// Locks the folder that holds `p` (following no link to it) for
    /// writing, waiting while another holds it, in this process or any
    /// other, until the [`FolderLock`] is dropped. A read, check and write
    /// of a file in it (a precondition's version compared, a line added
    /// once) made under the lock is one step among writers that take it
    /// too: without it, two writers that read the same version both write,
    /// and the first one's change is lost though it was answered `ok`.
    /// Readers need not take it: a write is a rename, so they read the old
    /// file or the new one whole. An advisory lock (`flock(2)` on the
    /// folder): it binds only writers that take it.
    pub fn lock_folder_of(&self, p: &ConfinedPath) -> Result<FolderLock, PathError> {
        self.check(p)?;
        let (dir, _) = self.parent_nofollow(p.as_path())?;
        // A folder opened anew, never a clone of a held handle: a lock
        // belongs to the open folder, which clones share, so two calls
        // through clones of one handle would both hold it at once. Opened
        // for reading, as a file: a folder handle is opened for lookups
        // only (`O_PATH`), which cannot be locked.
        let mut options = OpenOptions::new();
        options.read(true);
        let folder = dir.open_with(".", &options)?.into_std();
        folder.lock()?;
        Ok(FolderLock { _folder: folder })
    }

    /// The folder holding `path`'s last name, opened one folder at a time
    /// without following a link, and that last name.
    fn parent_nofollow<'p>(&self, path: &'p Path) -> Result<(Dir, &'p std::ffi::OsStr), PathError> {
        use std::path::Component;
        let name = path.file_name().ok_or(PathError::NotAFile)?;
        let mut dir = self.dir.try_clone()?;
        for c in path.parent().into_iter().flat_map(Path::components) {
            match c {
                Component::Normal(folder) => dir = folder_nofollow(&dir, Path::new(folder))?,
                Component::CurDir => {}
                // a resolved path names folders only
                _ => return Err(PathError::NotAFile),
            }
        }
        Ok((dir, name))
    }

    /// Append bytes (create if missing), refusing symlinks at the target.
    ///
    /// A symlink at the target is `NotAFile` (or `OutsideScope` when it leads
    /// out of the root), even if it points at a regular file inside. A file
    /// with more than one hard link is `OutsideScope` unless the root allows
    /// hard links: appending writes through the link, into every name it has.
    pub fn append(&self, p: &ConfinedPath, bytes: &[u8]) -> Result<(), PathError> {
        self.check(p)?;
        self.append_beneath(p.as_path(), bytes)
    }

    /// The handle-only half of [`Root::append`].
    fn append_beneath(&self, path: &Path, bytes: &[u8]) -> Result<(), PathError> {
        // Two writers (threads or processes) may both find the file missing;
        // the one whose O_EXCL create loses appends to the file the other
        // made, through the same checks, instead of failing its write.
        let mut file = match self.open_for_append(path) {
            Err(PathError::Io(e)) if e.kind() == io::ErrorKind::AlreadyExists => {
                self.open_for_append(path)?
            }
            opened => opened?,
        };
        file.write_all(bytes)?;
        Ok(())
    }

    /// Opens `path` for appending: an existing regular file with one link,
    /// confirmed to be the file it checked, or a new one made with O_EXCL.
    fn open_for_append(&self, path: &Path) -> Result<cap_std::fs::File, PathError> {
        Ok(match self.dir.symlink_metadata(path) {
            Ok(meta) if !meta.is_file() => return Err(PathError::NotAFile),
            Ok(before) => {
                self.refuse_hard_link(&before)?;
                let mut options = OpenOptions::new();
                options.append(true);
                // a FIFO swapped in meanwhile must not block the open: with
                // no reader it fails at once (ENXIO), and is no regular file
                nonblocking(&mut options);
                let file = self.dir.open_with(path, &options).map_err(no_fifo)?;
                // cap-std's public API has no O_NOFOLLOW; instead confirm the fd
                // is the very file we lstat'ed, so a link swapped in meanwhile
                // is caught before a byte is written.
                let opened = file.metadata()?;
                if !same_file(&before, &opened) {
                    return Err(PathError::NotAFile);
                }
                // A link made between the lstat and the open: refuse before a byte is written.
                self.refuse_hard_link(&opened)?;
                file
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let mut options = OpenOptions::new();
                // O_EXCL: never follows a symlink that appears at the name.
                options.append(true).create_new(true);
                self.dir.open_with(path, &options)?
            }
            Err(e) => return Err(e.into()),
        })
    }

    /// Remove a regular file (a symlink inside the root is removed itself, never its target).
    pub fn remove_file(&self, p: &ConfinedPath) -> Result<(), PathError> {
        self.check(p)?;
        if self.dir.symlink_metadata(p.as_path())?.is_dir() {
            return Err(PathError::NotAFile);
        }
        self.dir.remove_file(p.as_path())?;
        Ok(())
    }

    /// Whether the path resolves to something inside the root; false on escape.
    pub fn exists(&self, p: &ConfinedPath) -> bool {
        self.check(p).is_ok() && self.dir.exists(p.as_path())
    }

    /// Names of regular files directly in the directory `p` (`.` = root), sorted.
    ///
    /// Symlinks, directories, files with more than one hard link (unless the
    /// root allows them) and names that are not UTF-8 are left out: a listing
    /// should only offer names that `read` will accept as plain files.
    pub fn list_files(&self, p: &ConfinedPath) -> Result<Vec<String>, PathError> {
        self.check(p)?;
        let dir = self.dir.open_dir(p.as_path())?;
        let mut names = Vec::new();
        for entry in dir.entries()? {
            let entry = entry?;
            // An entry removed or replaced while the folder is read is no
            // file of it: skipped, not an error of the whole listing (which
            // a tool would report as a passing failure for every call).
            let (Ok(kind), Ok(meta)) = (entry.file_type(), entry.metadata()) else {
                continue;
            };
            if !kind.is_file() || !meta.is_file() {
                continue;
            }
            if !self.hard_links && link_count(&meta) > 1 {
                continue;
            }
            if let Ok(name) = entry.file_name().into_string() {
                names.push(name);
            }
        }
        names.sort();
        Ok(names)
    }

    /// `OutsideScope` for a regular file with more than one hard link, unless
    /// this root allows them; `Ok` for anything else.
    fn refuse_hard_link(&self, meta: &cap_std::fs::Metadata) -> Result<(), PathError> {
        if !self.hard_links && meta.is_file() && link_count(meta) > 1 {
            return Err(PathError::OutsideScope);
        }
        Ok(())
    }
}

/// How many names the file has.
#[cfg(unix)]
fn link_count(meta: &cap_std::fs::Metadata) -> u64 {
    use cap_std::fs::MetadataExt;
    meta.nlink()
}

/// Without a portable link count, every file counts as having one name: the
/// hard-link refusal is a Unix guarantee (see `docs/security.md`).
#[cfg(not(unix))]
fn link_count(_meta: &cap_std::fs::Metadata) -> u64 {
    1
}

/// A temp name that is short (the target's own name may already be at NAME_MAX)
/// and hidden, so a crash leaves an obvious leftover rather than a plausible file.
fn temp_file_name() -> String {
    let counter = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(".tmp-write-{}-{counter}-{nanos}", std::process::id())
}

/// The folder `name` directly in `dir`, opened following no link: a link
/// (even to a folder beneath the root) or a file is [`PathError::NotAFile`].
fn folder_nofollow(dir: &Dir, name: &Path) -> Result<Dir, PathError> {
    let seen = dir.symlink_metadata(name)?;
    // `is_dir` of a link's own metadata is false
    if !seen.is_dir() {
        return Err(PathError::NotAFile);
    }
    let next = dir.open_dir(name)?;
    // a link swapped in between the two is followed by the open (beneath
    // the root) and caught here
    if !same_dir(&seen, &next.dir_metadata()?) {
        return Err(PathError::NotAFile);
    }
    Ok(next)
}

/// Whether an `lstat` result and an open fd's metadata describe the same regular file.
fn same_file(before: &cap_std::fs::Metadata, opened: &cap_std::fs::Metadata) -> bool {
    opened.is_file() && same_node(before, opened)
}

/// Whether an opened folder is the one whose metadata was read by name.
fn same_dir(seen: &cap_std::fs::Metadata, opened: &cap_std::fs::Metadata) -> bool {
    opened.is_dir() && same_node(seen, opened)
}

/// Whether two metadata describe one file system object (device and inode).
#[cfg(unix)]
fn same_node(a: &cap_std::fs::Metadata, b: &cap_std::fs::Metadata) -> bool {
    use cap_std::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

/// Without inode numbers, the callers' type checks alone.
#[cfg(not(unix))]
fn same_node(_a: &cap_std::fs::Metadata, _b: &cap_std::fs::Metadata) -> bool {
    true
}

/// A non-blocking open for writing of a FIFO with no reader fails with
/// ENXIO: the name is no regular file, which is what the caller is told.
fn no_fifo(e: io::Error) -> PathError {
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ENXIO) {
        return PathError::NotAFile;
    }
    e.into()
}

/// Opens without blocking: a FIFO (swapped in after a type check) opens
/// at once, or fails, instead of waiting for a peer that never comes. A
/// regular file reads and writes as before.
fn nonblocking(options: &mut OpenOptions) {
    #[cfg(unix)]
    {
        use cap_std::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    #[cfg(not(unix))]
    let _ = options;
}

/// Why an operation on a [`Root`] failed.
///
/// The variants are the outcomes a dispatcher must tell apart: `OutsideScope`
/// becomes `denied / path-outside-scope`; the rest are ordinary tool failures.
#[derive(Debug)]
#[non_exhaustive]
pub enum PathError {
    /// The path resolves (or would resolve) outside the root, is a dangling
    /// link, or is a regular file with more than one hard link (which may lead
    /// outside) in a root that does not allow them.
    OutsideScope,
    /// Nothing exists at the path (or at its parent, for a write).
    NotFound,
    /// The path exists but is not a regular file (a directory, a link where none is allowed, ...).
    NotAFile,
    /// The file is larger than the root reads ([`Root::max_read`]).
    TooLarge {
        /// Its size in bytes (at least `max + 1` for one that grew while read).
        size: u64,
        /// The bound.
        max: u64,
    },
    /// Any other I/O failure; displayed by kind only.
    Io(io::Error),
}

impl fmt::Display for PathError {
    /// Lowercase one-liners. `Io` shows only the error kind, because an OS or
    /// decoding message could otherwise carry a path or a file's bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::OutsideScope => f.write_str("path is outside the tool's scope"),
            PathError::NotFound => f.write_str("no such file or directory"),
            PathError::NotAFile => f.write_str("path is not a regular file"),
            PathError::TooLarge { size, max } => {
                write!(
                    f,
                    "file is {size} bytes, more than the {max} this root reads"
                )
            }
            PathError::Io(e) => write!(f, "i/o error: {}", e.kind()),
        }
    }
}

impl std::error::Error for PathError {
    /// Exposes the underlying `io::Error` for logs that want the OS detail.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PathError::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// `ELOOP` (too many links), which std names only on nightly
/// (`ErrorKind::FilesystemLoop`).
const ELOOP: Option<i32> = if cfg!(target_os = "linux") {
    Some(40)
} else if cfg!(any(
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly"
)) {
    Some(62)
} else {
    None
};

/// The message cap-primitives (`fs/errors.rs`, `escape_attempt`) attaches to
/// every sandbox escape, including `openat2`'s `EXDEV` under `RESOLVE_BENEATH`.
const CAP_STD_ESCAPE_MESSAGE: &str = "a path led outside of the filesystem";

impl From<io::Error> for PathError {
    /// Maps cap-std's escape error (kind `PermissionDenied` with the message
    /// above) to `OutsideScope` and `NotFound` to `NotFound`. A plain OS
    /// `EACCES` is also `PermissionDenied` but carries no custom message, so it
    /// stays `Io`.
    fn from(e: io::Error) -> Self {
        if is_escape(&e) {
            return PathError::OutsideScope;
        }
        // Errors that the same path will always give are named for what they
        // say about it, not left as `Io`: a tool reads `Io` as a passing
        // failure, retries it and counts it against its breaker, so a model
        // sending a few such paths would shut the tool for every caller.
        match e.kind() {
            // `a.txt/b` (a component is a file) and a name longer than the
            // file system allows: nothing can exist there.
            io::ErrorKind::NotFound
            | io::ErrorKind::NotADirectory
            | io::ErrorKind::InvalidFilename => PathError::NotFound,
            // A directory where a file was asked for.
            io::ErrorKind::IsADirectory => PathError::NotAFile,
            // A link loop.
            _ if e.raw_os_error().is_some() && e.raw_os_error() == ELOOP => PathError::NotAFile,
            _ => PathError::Io(e),
        }
    }
}

/// Whether an `io::Error` is cap-std's sandbox-escape error.
fn is_escape(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::PermissionDenied
        && e.raw_os_error().is_none()
        && e.get_ref()
            .is_some_and(|inner| inner.to_string() == CAP_STD_ESCAPE_MESSAGE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;
    use std::path::PathBuf;

    /// A fresh directory under the system temp dir, removed on drop.
    struct Scratch {
        base: PathBuf,
    }

    impl Scratch {
        fn new(tag: &str) -> Scratch {
            static N: AtomicU64 = AtomicU64::new(0);
            let n = N.fetch_add(1, Ordering::Relaxed);
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos();
            let base = std::env::temp_dir().join(format!(
                "confined-path-test-{tag}-{}-{n}-{nanos}",
                std::process::id()
            ));
            std::fs::create_dir_all(base.join("R")).unwrap();
            Scratch { base }
        }

        /// `$R`, the tool's root.
        fn r(&self) -> PathBuf {
            self.base.join("R")
        }

        fn root(&self) -> Root {
            Root::open(self.r(), "repo").unwrap()
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.base);
        }
    }

    fn cp(s: &str) -> ConfinedPath {
        ConfinedPath::parse(s).unwrap()
    }

    /// Bypasses the lexical layer so tests can prove the handle layer holds on its own.
    fn raw(s: &str) -> ConfinedPath {
        ConfinedPath(s.to_owned())
    }

    fn is_outside<T: fmt::Debug>(r: Result<T, PathError>) -> bool {
        matches!(r, Err(PathError::OutsideScope))
    }

    const PASSWD_MARKER: &[u8] = b"root:";

    /// Where a path leads: links followed in the part that exists, `..`
    /// applied in the part that does not, an escape refused.
    #[cfg(unix)]
    #[test]
    fn resolve_names_where_a_path_leads() {
        let s = Scratch::new("resolve");
        std::fs::create_dir_all(s.r().join("docs")).unwrap();
        std::fs::create_dir_all(s.r().join("src")).unwrap();
        std::os::unix::fs::symlink("../docs", s.r().join("src/l")).unwrap();
        let root = s.root();
        for (path, leads) in [
            ("src/l/guide.md", "docs/guide.md"),
            ("src/l", "docs"),
            ("src/new/../l/x.md", "docs/x.md"),
            ("src/new/sub/../x.md", "src/new/x.md"),
            ("src/new/..", "src"),
            (".", ""),
        ] {
            assert_eq!(
                root.resolve(&cp(path)).ok().as_deref(),
                Some(leads),
                "{path}"
            );
        }
        std::os::unix::fs::symlink("/etc", s.r().join("out")).unwrap();
        assert!(is_outside(root.resolve(&cp("out/passwd"))));
    }

    // ---- lexical layer -------------------------------------------------

    #[test]
    fn parse_accepts_plain_relative_paths() {
        for ok in [
            "a",
            "a/b.txt",
            ".",
            "./a",
            "a/./b",
            "a/../b",
            "a/b/../../c",
            "a/",
            "notes:1.md",
        ] {
            assert_eq!(cp(ok).as_str(), ok, "{ok:?} should parse");
        }
    }

    #[test]
    fn parse_rejects_empty_and_nul() {
        assert_eq!(ConfinedPath::parse(""), Err(PathRejection::Empty));
        assert_eq!(
            ConfinedPath::parse("ok.txt\u{0000}.png"),
            Err(PathRejection::Nul)
        );
    }

    #[test]
    fn parse_rejects_absolute_and_climbing_paths() {
        for bad in [
            "/etc/passwd",
            "/tmp/R/../etc/passwd",
            "//host/share",
            "..",
            "../R-evil/f",
            "sub/../../outside/s.txt",
            "new/../../x.txt",
            "a/../../x",
            "./..",
        ] {
            assert_eq!(
                ConfinedPath::parse(bad),
                Err(PathRejection::OutsideScope),
                "{bad:?} should be outside scope"
            );
        }
    }

    #[test]
    fn parse_rejects_windows_forms_on_every_platform() {
        for bad in [
            "C:\\Windows\\win.ini",
            "\\\\host\\share\\x",
            "\\\\?\\C:\\x",
            "C:",
            "c:/x",
            "x:y",
            "a\\b",
            "..\\x",
        ] {
            assert_eq!(
                ConfinedPath::parse(bad),
                Err(PathRejection::OutsideScope),
                "{bad:?} should be outside scope"
            );
        }
    }

    #[test]
    fn rejection_messages_are_lowercase_and_never_echo_the_path() {
        for r in [
            PathRejection::Empty,
            PathRejection::Nul,
            PathRejection::OutsideScope,
        ] {
            let m = r.message();
            assert!(!m.contains('\n'));
            assert_eq!(m, m.to_lowercase());
            assert_eq!(r.to_string(), m);
        }
        assert_eq!(
            PathRejection::OutsideScope.message(),
            "path is outside the tool's scope"
        );
    }

    #[test]
    fn serializes_and_displays_as_the_string() {
        let p = cp("notes/a.md");
        assert_eq!(serde_json::to_string(&p).unwrap(), "\"notes/a.md\"");
        assert_eq!(p.to_string(), "notes/a.md");
    }

    #[test]
    fn path_error_display() {
        assert_eq!(
            PathError::OutsideScope.to_string(),
            "path is outside the tool's scope"
        );
        assert_eq!(PathError::NotFound.to_string(), "no such file or directory");
        assert_eq!(
            PathError::NotAFile.to_string(),
            "path is not a regular file"
        );
        let io = PathError::Io(io::Error::other("secret bytes /x/y"));
        assert_eq!(io.to_string(), "i/o error: other error");
        assert!(std::error::Error::source(&io).is_some());
    }

    #[test]
    fn io_error_mapping() {
        let escape = io::Error::new(io::ErrorKind::PermissionDenied, CAP_STD_ESCAPE_MESSAGE);
        assert!(matches!(PathError::from(escape), PathError::OutsideScope));
        let nf = io::Error::from(io::ErrorKind::NotFound);
        assert!(matches!(PathError::from(nf), PathError::NotFound));
        // A genuine EACCES is not an escape.
        let eacces = io::Error::from_raw_os_error(13);
        assert!(matches!(PathError::from(eacces), PathError::Io(_)));
    }

    // ---- escapes: the path attacks of docs/security.md ----------------

    #[test]
    fn sibling_prefix_dir_is_denied() {
        let s = Scratch::new("sibling");
        std::fs::create_dir(s.base.join("R-evil")).unwrap();
        std::fs::write(s.base.join("R-evil/f"), b"evil").unwrap();
        let root = s.root();

        let abs = s.base.join("R-evil/f");
        let abs = abs.to_str().unwrap();
        assert_eq!(ConfinedPath::parse(abs), Err(PathRejection::OutsideScope));
        assert_eq!(
            ConfinedPath::parse("../R-evil/f"),
            Err(PathRejection::OutsideScope)
        );
        // The handle layer refuses them too, without the lexical check.
        assert!(is_outside(root.check_beneath(Path::new(abs))));
        assert!(is_outside(root.read_beneath(Path::new(abs))));
        assert!(is_outside(root.read_beneath(Path::new("../R-evil/f"))));
    }

    #[test]
    fn sub_dotdot_dotdot_is_denied() {
        let s = Scratch::new("subdotdot");
        std::fs::create_dir(s.r().join("sub")).unwrap();
        std::fs::create_dir(s.base.join("outside")).unwrap();
        std::fs::write(s.base.join("outside/s.txt"), b"secret").unwrap();
        let root = s.root();

        assert_eq!(
            ConfinedPath::parse("sub/../../outside/s.txt"),
            Err(PathRejection::OutsideScope)
        );
        assert!(is_outside(root.read(&raw("sub/../../outside/s.txt"))));
        assert!(is_outside(
            root.read_beneath(Path::new("sub/../../outside/s.txt"))
        ));
    }

    #[test]
    fn etc_passwd_forms_are_denied() {
        let s = Scratch::new("passwd");
        let root = s.root();
        let via_r = format!("{}/../etc/passwd", s.r().display());
        for bad in ["/etc/passwd", via_r.as_str()] {
            assert_eq!(ConfinedPath::parse(bad), Err(PathRejection::OutsideScope));
            assert!(is_outside(root.read(&raw(bad))));
            assert!(is_outside(root.read_beneath(Path::new(bad))));
        }
    }

    #[test]
    fn symlink_to_etc_passwd_is_denied_and_bytes_never_returned() {
        let s = Scratch::new("linkpasswd");
        symlink("/etc/passwd", s.r().join("l")).unwrap();
        let root = s.root();
        let l = cp("l");

        assert!(is_outside(root.check(&l)));
        match root.read(&l) {
            Ok(bytes) => panic!("read escaped: {} bytes", bytes.len()),
            Err(e) => assert!(matches!(e, PathError::OutsideScope)),
        }
        assert!(is_outside(root.read_to_string(&l)));
        // Even skipping the pre-check, the handle refuses the open.
        match root.read_beneath(Path::new("l")) {
            Ok(bytes) => panic!("read escaped: {} bytes", bytes.len()),
            Err(e) => {
                assert!(matches!(e, PathError::OutsideScope));
                assert!(!e.to_string().as_bytes().starts_with(PASSWD_MARKER));
            }
        }
        assert!(!root.exists(&l));
    }

    #[test]
    fn symlinked_dir_to_etc_is_denied() {
        let s = Scratch::new("cfg");
        symlink("/etc", s.r().join("cfg")).unwrap();
        let root = s.root();
        let p = cp("cfg/passwd");

        assert!(is_outside(root.check(&p)));
        assert!(is_outside(root.read(&p)));
        assert!(is_outside(root.read_beneath(Path::new("cfg/passwd"))));
        assert!(is_outside(root.list_files(&cp("cfg"))));
        assert!(is_outside(root.write_atomic(&cp("cfg/x"), b"x")));
    }

    #[test]
    fn dangling_symlink_write_is_denied_and_target_never_created() {
        let s = Scratch::new("dangling");
        let target = std::env::temp_dir().join(format!(
            "confined-path-pwned-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        ));
        assert!(!target.exists());
        symlink(&target, s.r().join("w")).unwrap();
        let root = s.root();
        let w = cp("w");

        assert!(is_outside(root.check(&w)));
        assert!(is_outside(root.write_atomic(&w, b"pwned")));
        assert!(is_outside(root.append(&w, b"pwned")));
        assert!(!target.exists(), "write followed a dangling link");

        // The handle layer alone: append's create_new refuses the link.
        assert!(root.append_beneath(Path::new("w"), b"pwned").is_err());
        assert!(!target.exists(), "append followed a dangling link");
    }

    #[test]
    fn dangling_relative_symlink_inside_root_is_denied() {
        // Rule 3 of check: never fall back to the parent when a link dangles.
        let s = Scratch::new("danglingrel");
        symlink("missing.txt", s.r().join("w")).unwrap();
        let root = s.root();
        assert!(is_outside(root.check(&cp("w"))));
        assert!(is_outside(root.append(&cp("w"), b"x")));
        assert!(!s.r().join("missing.txt").exists());
    }

    #[test]
    fn write_to_new_dotdot_dotdot_is_denied_and_no_file_anywhere() {
        let s = Scratch::new("newdotdot");
        let root = s.root();
        assert_eq!(
            ConfinedPath::parse("new/../../x.txt"),
            Err(PathRejection::OutsideScope)
        );
        assert!(is_outside(root.write_atomic(&raw("new/../../x.txt"), b"x")));
        assert!(is_outside(root.append(&raw("new/../../x.txt"), b"x")));
        // The handle layer alone cannot create it either.
        assert!(root
            .write_atomic_beneath(Path::new("new/../../x.txt"), b"x")
            .is_err());
        assert!(!s.base.join("x.txt").exists());
        assert!(!s.r().join("x.txt").exists());
        assert!(!s.r().join("new").exists());
        assert_eq!(std::fs::read_dir(s.r()).unwrap().count(), 0);
    }

    #[test]
    fn proc_self_root_symlink_is_denied() {
        let s = Scratch::new("procroot");
        symlink("/proc/self/root/etc/passwd", s.r().join("p")).unwrap();
        let root = s.root();
        let p = cp("p");
        assert!(is_outside(root.check(&p)));
        assert!(is_outside(root.read(&p)));
        assert!(root.read_beneath(Path::new("p")).is_err());
    }

    #[test]
    fn symlink_that_stays_inside_is_allowed() {
        let s = Scratch::new("inside");
        std::fs::create_dir(s.r().join("sub")).unwrap();
        std::fs::write(s.r().join("ok.txt"), b"fine").unwrap();
        symlink("sub/..", s.r().join("in")).unwrap();
        let root = s.root();
        let p = cp("in/ok.txt");
        assert!(root.check(&p).is_ok());
        assert_eq!(root.read(&p).unwrap(), b"fine");
        assert_eq!(root.read_to_string(&p).unwrap(), "fine");
        assert!(root.exists(&p));
    }

    #[test]
    fn symlink_climbing_physically_is_denied_by_the_handle() {
        // Lexically clean, physically outside: only the handle layer can tell.
        let s = Scratch::new("up");
        std::fs::create_dir(s.base.join("R-evil")).unwrap();
        std::fs::write(s.base.join("R-evil/f"), b"evil").unwrap();
        symlink("..", s.r().join("up")).unwrap();
        let root = s.root();
        let p = cp("up/R-evil/f");
        assert!(is_outside(root.check(&p)));
        assert!(is_outside(root.read(&p)));
        assert!(is_outside(root.read_beneath(Path::new("up/R-evil/f"))));
        assert!(is_outside(root.write_atomic(&cp("up/R-evil/g"), b"x")));
        assert!(!s.base.join("R-evil/g").exists());
    }

    #[test]
    fn windows_forms_are_denied() {
        for bad in ["C:\\Windows\\win.ini", "\\\\host\\share\\x", "\\\\?\\C:\\x"] {
            assert_eq!(ConfinedPath::parse(bad), Err(PathRejection::OutsideScope));
        }
        let s = Scratch::new("win");
        let root = s.root();
        assert!(is_outside(root.check(&raw("C:\\Windows\\win.ini"))));
    }

    // ---- hard links: the escape a handle cannot see ---------------------

    /// `$R/h` is a second name of `outside/s.txt`.
    fn hard_linked(tag: &str) -> Scratch {
        let s = Scratch::new(tag);
        std::fs::write(s.base.join("s.txt"), b"outside secret").unwrap();
        std::fs::hard_link(s.base.join("s.txt"), s.r().join("h")).unwrap();
        s
    }

    fn links(path: &Path) -> u64 {
        use std::os::unix::fs::MetadataExt;
        std::fs::symlink_metadata(path).unwrap().nlink()
    }

    #[test]
    fn hard_link_to_an_outside_file_is_never_read() {
        let s = hard_linked("hardread");
        symlink("h", s.r().join("to-h")).unwrap();
        let root = s.root();
        for p in ["h", "to-h"] {
            assert!(is_outside(root.check(&cp(p))), "{p}");
            assert!(is_outside(root.read(&cp(p))), "{p}");
            assert!(is_outside(root.read_to_string(&cp(p))), "{p}");
            assert!(!root.exists(&cp(p)), "{p}");
        }
        // The handle layer alone refuses it too, whatever the pre-check said.
        assert!(is_outside(root.read_beneath(Path::new("h"))));
        assert!(root.list_files(&cp(".")).unwrap().is_empty());
    }

    #[test]
    fn hard_link_to_an_outside_file_is_never_written_or_replaced() {
        let s = hard_linked("hardwrite");
        let root = s.root();
        let h = cp("h");
        assert!(is_outside(root.write_atomic(&h, b"changed")));
        assert!(is_outside(root.append(&h, b" appended")));
        assert!(is_outside(root.remove_file(&h)));
        assert!(is_outside(root.write_atomic_beneath(Path::new("h"), b"x")));
        assert!(is_outside(root.append_beneath(Path::new("h"), b"x")));
        assert_eq!(
            std::fs::read(s.base.join("s.txt")).unwrap(),
            b"outside secret"
        );
        // The link itself is still there: refused, not replaced.
        assert_eq!(links(&s.r().join("h")), 2);
        assert_eq!(std::fs::read_dir(s.r()).unwrap().count(), 1);
    }

    #[test]
    fn hard_links_between_two_inside_names_are_refused_too() {
        // Where the other name lives cannot be known, so both are refused.
        let s = Scratch::new("hardinside");
        std::fs::write(s.r().join("a.txt"), b"a").unwrap();
        std::fs::hard_link(s.r().join("a.txt"), s.r().join("b.txt")).unwrap();
        std::fs::write(s.r().join("single.txt"), b"one name").unwrap();
        let root = s.root();
        assert!(is_outside(root.read(&cp("a.txt"))));
        assert!(is_outside(root.read(&cp("b.txt"))));
        assert_eq!(root.read(&cp("single.txt")).unwrap(), b"one name");
        assert_eq!(root.list_files(&cp(".")).unwrap(), vec!["single.txt"]);
        // Once one name is gone, the file has one name and is served again.
        std::fs::remove_file(s.r().join("b.txt")).unwrap();
        assert_eq!(root.read(&cp("a.txt")).unwrap(), b"a");
    }

    #[test]
    fn allow_hard_links_serves_them_and_subdirs_inherit_it() {
        let s = hard_linked("hardallow");
        std::fs::create_dir(s.r().join("d")).unwrap();
        std::fs::hard_link(s.base.join("s.txt"), s.r().join("d/h2")).unwrap();
        assert!(!s.root().allows_hard_links());
        let root = s.root().allow_hard_links();
        assert!(root.allows_hard_links());
        assert_eq!(root.read(&cp("h")).unwrap(), b"outside secret");
        assert_eq!(root.list_files(&cp(".")).unwrap(), vec!["h"]);
        let sub = root.subdir("d", false).unwrap();
        assert!(sub.allows_hard_links());
        assert_eq!(sub.read(&cp("h2")).unwrap(), b"outside secret");
        assert!(!s.root().subdir("d", false).unwrap().allows_hard_links());
        // A write still replaces the name rather than writing through it.
        root.write_atomic(&cp("h"), b"new").unwrap();
        assert_eq!(
            std::fs::read(s.base.join("s.txt")).unwrap(),
            b"outside secret"
        );
        assert_eq!(links(&s.r().join("h")), 1);
    }

    // ---- ordinary operations -------------------------------------------

    #[test]
    fn atomic_write_then_read_back() {
        let s = Scratch::new("write");
        let root = s.root();
        let p = cp("a.txt");
        root.write_atomic(&p, b"first").unwrap();
        assert_eq!(root.read(&p).unwrap(), b"first");
        root.write_atomic(&p, b"second, longer").unwrap();
        assert_eq!(root.read_to_string(&p).unwrap(), "second, longer");
        // No temp files are left behind.
        assert_eq!(root.list_files(&cp(".")).unwrap(), vec!["a.txt"]);
        assert_eq!(std::fs::read_dir(s.r()).unwrap().count(), 1);
    }

    /// A read while a writer renames new contents over the file reads the
    /// old file or the new one, never "not a file": the name named another
    /// regular file between the look and the open.
    #[test]
    fn a_read_during_writes_reads_a_whole_file() {
        let s = Scratch::new("read-during-writes");
        let root = std::sync::Arc::new(s.root());
        root.write_atomic(&cp("a.txt"), b"0").unwrap();
        let writer = {
            let root = root.clone();
            std::thread::spawn(move || {
                for i in 0..1000 {
                    root.write_atomic(&cp("a.txt"), i.to_string().as_bytes())
                        .unwrap();
                }
            })
        };
        let mut refused = 0;
        while !writer.is_finished() {
            for read in [root.read(&cp("a.txt")), root.read_nofollow(&cp("a.txt"))] {
                if read.is_err() {
                    refused += 1;
                }
            }
        }
        writer.join().unwrap();
        assert_eq!(refused, 0);
    }

    /// A folder's lock is exclusive among handles of one root (clones
    /// share an open folder, so each lock opens its own) and released when
    /// dropped.
    #[test]
    fn a_folder_lock_is_held_by_one_at_a_time() {
        let s = Scratch::new("lock");
        let root = std::sync::Arc::new(s.root());
        root.write_atomic(&cp("a.txt"), b"x").unwrap();
        let held = root.lock_folder_of(&cp("a.txt")).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let other = root.clone();
        let waiter = std::thread::spawn(move || {
            let _second = other.lock_folder_of(&cp("a.txt")).unwrap();
            tx.send(()).unwrap();
        });
        assert!(
            rx.recv_timeout(std::time::Duration::from_millis(300))
                .is_err(),
            "a second lock was taken while the first was held"
        );
        drop(held);
        rx.recv_timeout(std::time::Duration::from_secs(10))
            .expect("the second lock, once the first was dropped");
        waiter.join().unwrap();
    }

    /// Replacing a file keeps its mode (a 0600 file is not made readable
    /// by everyone, a script keeps its exec bit), and a file the process
    /// may not write is not replaced through its folder's permission.
    #[test]
    fn atomic_write_keeps_the_mode_and_asks_for_write_permission() {
        use std::os::unix::fs::PermissionsExt;
        let s = Scratch::new("modes");
        let root = s.root();
        for (name, mode) in [("private.txt", 0o600), ("run.sh", 0o755)] {
            std::fs::write(s.r().join(name), b"old").unwrap();
            std::fs::set_permissions(s.r().join(name), std::fs::Permissions::from_mode(mode))
                .unwrap();
            root.write_atomic(&cp(name), b"new").unwrap();
            let now = std::fs::metadata(s.r().join(name)).unwrap().permissions();
            assert_eq!(now.mode() & 0o7777, mode, "{name}");
            assert_eq!(std::fs::read(s.r().join(name)).unwrap(), b"new");
        }
        // Read-only: root may write anything, so only another user sees
        // the refusal (CI runs as root; the check is the open for writing).
        let ro = s.r().join("readonly.txt");
        std::fs::write(&ro, b"frozen").unwrap();
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
        let got = root.write_atomic(&cp("readonly.txt"), b"thawed");
        // (a file this process made is owned by its effective user)
        let me = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(&ro).unwrap());
        if me != 0 {
            assert!(
                matches!(&got, Err(PathError::Io(e)) if e.kind() == io::ErrorKind::PermissionDenied),
                "{got:?}"
            );
            assert_eq!(std::fs::read(&ro).unwrap(), b"frozen");
        }
    }

    /// The no-follow forms read and write a path whose every name is a real
    /// folder or file, and refuse one that passes through a link anywhere,
    /// even a link that stays inside the root.
    #[test]
    fn nofollow_reads_and_writes_refuse_any_link() {
        let s = Scratch::new("nofollow");
        std::fs::create_dir_all(s.r().join("src/real")).unwrap();
        std::fs::write(s.r().join("src/real/a.txt"), b"a").unwrap();
        symlink("real", s.r().join("src/l")).unwrap();
        symlink("a.txt", s.r().join("src/real/la")).unwrap();
        let root = s.root();
        assert_eq!(root.read_nofollow(&cp("src/real/a.txt")).unwrap(), b"a");
        root.write_atomic_nofollow(&cp("src/real/a.txt"), b"b")
            .unwrap();
        root.write_atomic_nofollow(&cp("src/real/new.txt"), b"n")
            .unwrap();
        assert_eq!(std::fs::read(s.r().join("src/real/new.txt")).unwrap(), b"n");
        for linked in ["src/l/a.txt", "src/real/la"] {
            assert!(
                matches!(root.read_nofollow(&cp(linked)), Err(PathError::NotAFile)),
                "{linked}"
            );
            assert!(
                matches!(
                    root.write_atomic_nofollow(&cp(linked), b"x"),
                    Err(PathError::NotAFile)
                ),
                "{linked}"
            );
        }
        assert_eq!(std::fs::read(s.r().join("src/real/a.txt")).unwrap(), b"b");
        // The link at the target is still a link: refused, not replaced.
        assert!(std::fs::symlink_metadata(s.r().join("src/real/la"))
            .unwrap()
            .file_type()
            .is_symlink());
    }

    /// Opens never block on a FIFO, even one that took a file's place
    /// after the type check: read, it opens at once (and the fd's type
    /// check refuses it); written with no reader, it fails at once.
    #[test]
    fn opens_do_not_block_on_a_fifo() {
        let s = Scratch::new("fifo");
        let fifo = s.r().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|st| st.success()) {
            return; // no mkfifo here
        }
        let dir = Dir::open_ambient_dir(s.r(), cap_std::ambient_authority()).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut read = OpenOptions::new();
            read.read(true);
            nonblocking(&mut read);
            let opened = dir
                .open_with("pipe", &read)
                .map(|f| f.metadata().unwrap().is_file());
            let mut write = OpenOptions::new();
            write.append(true);
            nonblocking(&mut write);
            let _ = tx.send((opened.ok(), dir.open_with("pipe", &write).is_err()));
        });
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("an open blocked on the FIFO");
        assert_eq!(got, (Some(false), true));
    }

    #[test]
    fn atomic_write_in_subdir_and_missing_parent() {
        let s = Scratch::new("writesub");
        std::fs::create_dir(s.r().join("d")).unwrap();
        let root = s.root();
        root.write_atomic(&cp("d/./x.md"), b"x").unwrap();
        assert_eq!(std::fs::read(s.r().join("d/x.md")).unwrap(), b"x");
        // Missing parents pass check (a write may create the file) but are not created.
        assert!(root.check(&cp("nope/y.md")).is_ok());
        assert!(matches!(
            root.write_atomic(&cp("nope/y.md"), b"y"),
            Err(PathError::NotFound)
        ));
        assert!(matches!(
            root.write_atomic(&cp("d"), b"y"),
            Err(PathError::NotAFile)
        ));
        assert!(matches!(
            root.write_atomic(&cp("."), b"y"),
            Err(PathError::NotAFile)
        ));
    }

    #[test]
    fn atomic_write_replaces_an_inside_symlink_without_following_it() {
        let s = Scratch::new("writelink");
        std::fs::write(s.r().join("real.txt"), b"keep").unwrap();
        symlink("real.txt", s.r().join("alias")).unwrap();
        let root = s.root();
        root.write_atomic(&cp("alias"), b"new").unwrap();
        assert_eq!(std::fs::read(s.r().join("real.txt")).unwrap(), b"keep");
        assert!(std::fs::symlink_metadata(s.r().join("alias"))
            .unwrap()
            .is_file());
    }

    #[test]
    fn append_twice() {
        let s = Scratch::new("append");
        let root = s.root();
        let p = cp("log.txt");
        root.append(&p, b"one\n").unwrap();
        root.append(&p, b"two\n").unwrap();
        assert_eq!(root.read_to_string(&p).unwrap(), "one\ntwo\n");
    }

    /// Writers that all find the file missing: every append lands and every
    /// line is in the file. Two races are in this window: the O_EXCL create
    /// another writer won (`AlreadyExists`), and `check` finding the path
    /// missing, then finding a name there (the file another writer just made)
    /// and taking it for a dangling link (`OutsideScope`). Several `toolbox`
    /// processes on one outbox meet both; a failed append is a lost line.
    #[test]
    fn appends_racing_to_create_the_file_all_land() {
        const WRITERS: usize = 8;
        for round in 0..200 {
            let s = Scratch::new(&format!("appendrace{round}"));
            let root = std::sync::Arc::new(s.root());
            let start = std::sync::Arc::new(std::sync::Barrier::new(WRITERS));
            let writers: Vec<_> = (0..WRITERS)
                .map(|i| {
                    let (root, start) = (root.clone(), start.clone());
                    std::thread::spawn(move || {
                        start.wait();
                        root.append(&cp("log.txt"), format!("{i}\n").as_bytes())
                    })
                })
                .collect();
            for (i, w) in writers.into_iter().enumerate() {
                let appended = w.join().expect("writer thread");
                assert!(
                    appended.is_ok(),
                    "round {round}: writer {i} failed: {appended:?}"
                );
            }
            let text = root.read_to_string(&cp("log.txt")).unwrap();
            assert_eq!(text.lines().count(), WRITERS, "round {round}: {text}");
        }
    }

    #[test]
    fn append_refuses_inside_symlink() {
        let s = Scratch::new("appendlink");
        std::fs::write(s.r().join("real.txt"), b"keep").unwrap();
        symlink("real.txt", s.r().join("alias")).unwrap();
        let root = s.root();
        assert!(matches!(
            root.append(&cp("alias"), b"x"),
            Err(PathError::NotAFile)
        ));
        assert_eq!(std::fs::read(s.r().join("real.txt")).unwrap(), b"keep");
    }

    #[test]
    fn list_files_sorted_regular_files_only() {
        let s = Scratch::new("list");
        for name in ["b.txt", "a.txt", "c.md"] {
            std::fs::write(s.r().join(name), b"").unwrap();
        }
        std::fs::create_dir(s.r().join("dir")).unwrap();
        std::fs::write(s.r().join("dir/inner.txt"), b"").unwrap();
        symlink("a.txt", s.r().join("link")).unwrap();
        let root = s.root();
        assert_eq!(
            root.list_files(&cp(".")).unwrap(),
            vec!["a.txt", "b.txt", "c.md"]
        );
        assert_eq!(root.list_files(&cp("dir")).unwrap(), vec!["inner.txt"]);
        assert!(matches!(
            root.list_files(&cp("missing")),
            Err(PathError::NotFound)
        ));
    }

    #[test]
    fn remove_file_works_and_refuses_dirs() {
        let s = Scratch::new("remove");
        let root = s.root();
        let p = cp("gone.txt");
        root.write_atomic(&p, b"x").unwrap();
        assert!(root.exists(&p));
        root.remove_file(&p).unwrap();
        assert!(!root.exists(&p));
        assert!(matches!(root.remove_file(&p), Err(PathError::NotFound)));
        std::fs::create_dir(s.r().join("d")).unwrap();
        assert!(matches!(
            root.remove_file(&cp("d")),
            Err(PathError::NotAFile)
        ));
    }

    #[test]
    fn read_errors() {
        let s = Scratch::new("readerr");
        std::fs::create_dir(s.r().join("d")).unwrap();
        std::fs::write(s.r().join("bin"), [0xff, 0xfe]).unwrap();
        let root = s.root();
        assert!(matches!(root.read(&cp("nope")), Err(PathError::NotFound)));
        assert!(matches!(root.read(&cp("d")), Err(PathError::NotAFile)));
        match root.read_to_string(&cp("bin")) {
            Err(PathError::Io(e)) => assert_eq!(e.kind(), io::ErrorKind::InvalidData),
            other => panic!("expected invalid data, got {other:?}"),
        }
    }

    #[test]
    fn subdir_roots() {
        let s = Scratch::new("subdir");
        let root = s.root();
        let notes = root.subdir("notes", true).unwrap();
        assert_eq!(notes.name(), "notes");
        notes.write_atomic(&cp("n.md"), b"hi").unwrap();
        assert_eq!(std::fs::read(s.r().join("notes/n.md")).unwrap(), b"hi");
        // A sub-root cannot reach its parent.
        std::fs::write(s.r().join("top.txt"), b"top").unwrap();
        assert!(is_outside(notes.read(&raw("../top.txt"))));
        assert!(is_outside(notes.read_beneath(Path::new("../top.txt"))));
        assert!(matches!(
            root.subdir("missing", false),
            Err(PathError::NotFound)
        ));
        assert!(is_outside(root.subdir("../x", true)));
        assert!(!s.base.join("x").exists());
        symlink("/etc", s.r().join("etc")).unwrap();
        assert!(is_outside(root.subdir("etc", false)));
        assert_eq!(root.name(), "repo");
    }
}
