//! `toolbox approvals`: a person's side of approval requests, from another
//! process than the server that asked.
//!
//! ```text
//! toolbox approvals (--store S | --root DIR) list [--all]
//! toolbox approvals (--store S | --root DIR) grant ID [--reason TEXT] [--by NAME]
//! toolbox approvals (--store S | --root DIR) deny ID [--reason TEXT] [--by NAME]
//! toolbox approvals (--store S | --root DIR) serve --http ADDR [--by NAME | TOKENS]
//! ```
//!
//! `serve` is the approvals inbox, a web page at `http://ADDR/` where a
//! person grants or denies each pending request with one click (see
//! `contract_runtime::inbox`). Without TOKENS (`--jwks FILE|URL --issuer
//! ISS --audience AUD [--tenant-claim NAME]`) it binds loopback addresses
//! only, and decisions are recorded as taken by NAME; with them, each
//! request's approver is its bearer token's `sub`, who needs the scope
//! `approvals:decide` and sees and decides only their tenant's requests. `list` prints one JSON object a line (id, tool, redacted arguments, digest,
//! rule, reason, caller, age, state); `grant` and `deny` print the decided
//! request. A grant lets exactly one call with exactly those arguments run,
//! once, before the request expires: the server's caller sends it again.

use std::path::PathBuf;

use contract_runtime::identity::oauth::{JwtAuthenticator, JwtConfig};
use contract_runtime::inbox::Inbox;
use contract_runtime::observe::for_people;
use contract_runtime::policy::approval::Approvals;
use contract_runtime::store::{ApprovalFilter, ApprovalRecord};
use serde_json::json;

use crate::state::StoreChoice;
use crate::tokens::TokenOptions;

const USAGE: &str = "usage:
  toolbox approvals (--store S | --root DIR) list [--all]
  toolbox approvals (--store S | --root DIR) grant ID [--reason TEXT] [--by NAME]
  toolbox approvals (--store S | --root DIR) deny ID [--reason TEXT] [--by NAME]
  toolbox approvals (--store S | --root DIR) serve --http ADDR [--by NAME | --jwks FILE|URL --issuer ISS --audience AUD [--tenant-claim NAME]]";

/// `toolbox approvals ...`
pub fn run(args: &[String]) -> Result<(), String> {
    let mut store = None;
    let mut root = None;
    let mut reason = None;
    let mut by = None;
    let mut all = false;
    let mut http = None;
    let mut rest = Vec::new();
    let mut tokens = TokenOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if tokens.take(a, &mut it)? {
            continue;
        }
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--store" if store.is_some() => return Err("--store given twice".into()),
            "--store" => store = Some(value()?),
            "--root" => root = Some(PathBuf::from(value()?)),
            "--reason" => reason = Some(value()?),
            "--by" => by = Some(value()?),
            "--all" => all = true,
            "--http" => http = Some(value()?),
            other if other.starts_with("--") => {
                return Err(format!("unknown option `{other}`\n{USAGE}"))
            }
            _ => rest.push(a.clone()),
        }
    }
    let choice = StoreChoice::new(store, root.as_deref())?;
    let jwt = tokens.config()?;
    let serving = rest.first().map(String::as_str) == Some("serve");
    if jwt.is_some() && !serving {
        return Err(
            "--jwks checks the tokens of the inbox's approvers: it goes with `approvals serve`"
                .into(),
        );
    }
    if jwt.is_some() && by.is_some() {
        return Err(
            "--by names the local operator; with --jwks each approver is their token's `sub`"
                .into(),
        );
    }
    // Who decided, for the record: the operator's login unless they say.
    let by = by
        .or_else(|| std::env::var("USER").ok().filter(|u| !u.is_empty()))
        .unwrap_or_else(|| "operator".to_string());
    if serving {
        if rest.len() != 1 {
            return Err(USAGE.to_string());
        }
        let http = http.ok_or("approvals serve needs --http ADDR (127.0.0.1:PORT)")?;
        return serve(&choice, &http, &by, jwt);
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async {
        let approvals = Approvals::new(choice.open_existing().await?);
        match rest.iter().map(String::as_str).collect::<Vec<_>>()[..] {
            ["list"] => {
                let list = if all {
                    approvals.list(ApprovalFilter::default()).await
                } else {
                    approvals.pending().await
                };
                let now = now_ms();
                for r in list.map_err(|e| e.to_string())? {
                    let line = shown(&r, now).to_string();
                    out!("{}", for_people(&line))?;
                }
                Ok(())
            }
            ["grant", id] => {
                let r = approvals
                    .grant(id, &by, reason.as_deref())
                    .await
                    .map_err(|e| e.to_string())?;
                out!("{}", for_people(&shown(&r, now_ms()).to_string()))
            }
            ["deny", id] => {
                let r = approvals
                    .deny(id, &by, reason.as_deref())
                    .await
                    .map_err(|e| e.to_string())?;
                out!("{}", for_people(&shown(&r, now_ms()).to_string()))
            }
            _ => Err(USAGE.to_string()),
        }
    })
}

/// `approvals serve`: the inbox page on `addr`, over the store, until killed.
fn serve(choice: &StoreChoice, addr: &str, by: &str, jwt: Option<JwtConfig>) -> Result<(), String> {
    let addr = crate::http_addr(addr)?;
    // Without an authenticator the one person it serves is whoever can
    // reach the port: never the network.
    if jwt.is_none() && !addr.ip().is_loopback() {
        return Err(format!(
            "--http {addr}: without --jwks the inbox serves loopback addresses only"
        ));
    }
    // The inbox's public origin (its audience's): a sign-in proxy in front
    // that rewrites `Host` still posts from it.
    let public = jwt.as_ref().and_then(|c| origin(&c.audience));
    let auth = jwt
        .map(JwtAuthenticator::new)
        .transpose()
        .map_err(|e| format!("--jwks: {e}"))?;
    // Several people may have the page open: their posts run in parallel.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async {
        let approvals = Approvals::new(choice.open_existing().await?);
        let mut inbox = Inbox::new(approvals)
            .map_err(|e| e.to_string())?
            .describe(&toolbox::registry())
            .local_approver(by);
        if let Some(auth) = auth {
            inbox = inbox.authenticate_with(auth);
        }
        if let Some(public) = public {
            inbox = inbox.allow_origin(public);
        }
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("--http {addr}: {e}"))?;
        let bound = listener.local_addr().map_err(|e| e.to_string())?;
        // One line a person (or a test that asked for port 0) can read.
        err!("toolbox: approvals inbox on http://{bound}/");
        inbox
            .serve(listener)
            .await
            .map_err(|e| format!("approvals serve: {e}"))
    })
}

/// One request as a line: what a person needs to decide on it.
fn shown(r: &ApprovalRecord, now: i64) -> serde_json::Value {
    json!({
        "id": r.id,
        "tool": r.tool,
        "arguments": r.arguments,
        "digest": r.digest,
        "rule": r.rule,
        "reason": r.reason,
        "caller": r.caller,
        "tenant": r.tenant,
        "age_s": (now - r.created_ms).max(0) / 1000,
        "expires_in_s": (r.expires_ms - now).max(0) / 1000,
        "state": r.state.as_str(),
        "decided_by": r.decided_by,
        "decision_reason": r.decision_reason,
    })
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The origin of a URL (`https://inbox.example.com:8443/x` is
/// `https://inbox.example.com:8443`); `None` for what is not one.
fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    (!authority.is_empty() && matches!(scheme, "http" | "https"))
        .then(|| format!("{scheme}://{authority}"))
}
