//! Who holds a lease: the process that claimed a key, named in its lease
//! token so that another process can tell, without waiting for the lease to
//! run out, that the holder is gone.
//!
//! A worker killed mid-call (`kill -9`, an abort, the machine's OOM killer)
//! leaves its record `running` with a live lease. Waiting the lease out is
//! always correct and is the only way across machines; but on the machine
//! the holder ran on, the kernel knows whether it still runs. A token is
//! `lease_<random>@<boot>/<pid namespace>/<pid>/<start time>`: a reader in
//! the same boot and the same PID namespace looks the pid up in `/proc`, and
//! a pid that is gone, a zombie, or a later process with the same number
//! (another start time) is a holder that can never finish. Its record is in
//! doubt at once (the caller hears `unknown`, an operator sees it), exactly
//! as if its lease had run out.
//!
//! Anything that cannot be read, or a holder on another machine or in
//! another container, counts as alive: the lease then decides, as before.

use std::sync::OnceLock;

use super::{new_id, StoreError};

/// A fresh lease token naming this process as its holder where it can be named.
#[cfg_attr(not(any(feature = "sqlite", feature = "postgres")), allow(dead_code))]
pub(crate) fn lease_token() -> Result<String, StoreError> {
    let mut token = new_id("lease")?;
    if let Some(me) = this_process() {
        token.push('@');
        token.push_str(me);
    }
    Ok(token)
}

/// Whether the process named in `token` is known to be gone for good. `false`
/// when it cannot be known (an older token, another machine, another PID
/// namespace, `/proc` unreadable).
pub(crate) fn holder_gone(token: &str) -> bool {
    let Some((_, holder)) = token.split_once('@') else {
        return false;
    };
    let Some(me) = this_process() else {
        return false;
    };
    let mut theirs = holder.split('/');
    let mut mine = me.split('/');
    // The same boot and the same PID namespace: their pid means what ours would.
    for _ in 0..2 {
        if theirs.next() != mine.next() {
            return false;
        }
    }
    let (Some(pid), Some(started), None) = (theirs.next(), theirs.next(), theirs.next()) else {
        return false;
    };
    let Ok(pid) = pid.parse::<u32>() else {
        return false;
    };
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => true,
        Err(_) => false,
        Ok(stat) => match state_and_start(&stat) {
            // a zombie has finished for good; a different start time is
            // another process that got the number
            Some((state, start)) => matches!(state, 'Z' | 'X') || start != started,
            None => false,
        },
    }
}

/// `<boot id>/<pid namespace>/<pid>/<start time>`, read once; `None` where
/// `/proc` does not say (not Linux).
fn this_process() -> Option<&'static str> {
    static ME: OnceLock<Option<String>> = OnceLock::new();
    ME.get_or_init(|| {
        let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
        let ns = std::fs::read_link("/proc/self/ns/pid").ok()?;
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        let (_, start) = state_and_start(&stat)?;
        Some(format!(
            "{}/{}/{}/{start}",
            boot.trim(),
            ns.to_string_lossy()
                .trim_start_matches("pid:[")
                .trim_end_matches(']'),
            std::process::id()
        ))
    })
    .as_deref()
}

/// A `/proc/<pid>/stat` line's state letter and start time (field 22, in
/// clock ticks since boot). The command name (field 2) may hold spaces and
/// parentheses, so fields are counted after its last `)`.
fn state_and_start(stat: &str) -> Option<(char, &str)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    // fields 4 to 21 lie between the state (3) and the start time (22)
    let start = fields.nth(18)?;
    Some((state, start))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn this_process_holds_its_own_tokens() {
        let token = lease_token().unwrap();
        assert!(token.contains('@'), "{token}");
        assert!(!holder_gone(&token), "this process runs");
    }

    /// A child that ran and was reaped is gone; one that runs is not; a
    /// token of another machine or namespace, or an old token, is unknown.
    #[test]
    fn a_reaped_process_is_gone_and_a_running_one_is_not() {
        let me = this_process().unwrap();
        let (prefix, _) = me.rsplit_once('/').unwrap();
        let (prefix, _) = prefix.rsplit_once('/').unwrap();
        let token_of = |pid: u32| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
            let (_, start) = state_and_start(&stat).unwrap();
            format!("lease_x@{prefix}/{pid}/{start}")
        };
        let mut running = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let token = token_of(running.id());
        assert!(!holder_gone(&token), "{token}");
        running.kill().unwrap();
        running.wait().unwrap();
        assert!(holder_gone(&token), "killed and reaped: {token}");
        // the same pid with another start time is another process
        let reused = format!("lease_x@{prefix}/{}/1", std::process::id());
        assert!(holder_gone(&reused));
        for unknown in [
            "lease_x".to_string(),
            format!("lease_x@other-boot/1/{}/1", std::process::id()),
            "lease_x@garbage".to_string(),
        ] {
            assert!(!holder_gone(&unknown), "{unknown}");
        }
    }

    #[test]
    fn a_command_name_with_spaces_and_parentheses_is_skipped() {
        let stat = "42 (a (b) c) S 1 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 12345 1000 10";
        assert_eq!(state_and_start(stat), Some(('S', "12345")));
    }
}
