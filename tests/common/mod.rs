//! Helpers shared by the integration tests: the toolbox binary and a folder
//! laid out as `shared/toolbox.md` describes.

// Each test crate uses a different subset.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// The `toolbox` example, built once per test process. `cargo test --test X`
/// does not build examples, so this asks cargo (a no-op when up to date).
pub fn toolbox() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        let status = Command::new(cargo)
            .args(["build", "--quiet", "--example", "toolbox"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("run cargo build --example toolbox");
        assert!(status.success(), "cargo build --example toolbox failed");
        // The test binary lives in target/<profile>/deps; the example in target/<profile>/examples.
        let exe = std::env::current_exe().expect("current_exe");
        let bin = exe
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>")
            .join("examples")
            .join("toolbox");
        assert!(bin.is_file(), "{} was not built", bin.display());
        bin
    })
}

/// A fresh folder with `notes/kv-cache.md`, `notes/agents.md` and
/// `repo/src/lib.rs`, unique to this process and call.
pub fn fixture(prefix: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("{prefix}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("notes")).expect("mkdir notes");
    std::fs::create_dir_all(dir.join("repo/src")).expect("mkdir repo");
    let write = |p: &str, s: &str| std::fs::write(dir.join(p), s).expect("write fixture");
    write(
        "notes/kv-cache.md",
        "# KV cache\nThe KV cache trades memory for speed.\n",
    );
    write(
        "notes/agents.md",
        "# Agents\nA tool is an authority boundary.\n",
    );
    write("repo/src/lib.rs", "pub fn answer() -> u32 {\n    41\n}\n");
    dir
}
