//! Approvals as records in the store, in process, on each store (memory,
//! SQLite, and PostgreSQL when `CONTRACT_TEST_POSTGRES_URL` is set; .ci/run
//! sets it): a grant is used once, even by racing calls; other arguments get
//! their own request; a denial ends in `denied` with the person's reason;
//! requests and grants expire; a keyed call re-sent after it ran is answered
//! from its record; every request and decision is in the journal.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use contract_runtime::policy::approval::DecideError;
use contract_runtime::prelude::*;
use contract_runtime::store::{self, ApprovalState, JournalQuery, RecordTimes, Store};
use serde_json::{json, Value};

use common::Fixture;

#[derive(Clone, Copy, Debug)]
enum Kind {
    Memory,
    Sqlite,
    Postgres,
}

const KINDS: [Kind; 3] = [Kind::Memory, Kind::Sqlite, Kind::Postgres];

fn postgres_url() -> Option<String> {
    match std::env::var("CONTRACT_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CONTRACT_TEST_POSTGRES_URL is not set: in CI, .ci/run starts PostgreSQL")
        }
        _ => {
            eprintln!(
                "note: CONTRACT_TEST_POSTGRES_URL is not set; the PostgreSQL case is skipped"
            );
            None
        }
    }
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap()
}

/// One session: a toolbox root, a dispatcher over a store of `kind`, and one
/// caller shared by every call (never rebuilt, whatever a person decides).
struct Session {
    fx: Fixture,
    d: Arc<Dispatcher>,
    caller: Arc<Caller>,
    rt: tokio::runtime::Runtime,
    n: AtomicUsize,
}

fn session(kind: Kind, name: &str, times: RecordTimes) -> Option<Session> {
    let fx = Fixture::standard(&format!("approvals-{name}-{kind:?}"));
    fx.write("notes/a.md", "a\n").write("notes/b.md", "b\n");
    let rt = rt();
    let spec = match kind {
        Kind::Memory => "memory".to_string(),
        Kind::Sqlite => format!("sqlite:{}", fx.base.join("state.sqlite").display()),
        Kind::Postgres => format!("postgres:{}", postgres_url()?),
    };
    let s: Arc<dyn Store> = rt.block_on(store::open(&spec)).expect("open the store");
    let d = Dispatcher::new(toolbox::registry())
        .with_store(s)
        .with_record_times(times);
    let caller = Arc::new(
        toolbox::caller(&fx.root, None, &[])
            .unwrap()
            // A tenant of its own per session: the PostgreSQL database is
            // shared by every test, and approvals are bound to the caller.
            .tenant(format!("{name}-{kind:?}-{}", unique())),
    );
    Some(Session {
        fx,
        d: Arc::new(d),
        caller,
        rt,
        n: AtomicUsize::new(0),
    })
}

fn unique() -> String {
    contract_runtime::store::new_id("t").unwrap()
}

impl Session {
    fn call(&self, name: &str, args: Value) -> Envelope {
        let n = self.n.fetch_add(1, Ordering::SeqCst);
        let call = ToolCall::new(format!("call_{n}"), name, args.to_string());
        self.rt.block_on(self.d.dispatch(&self.caller, &call))
    }

    fn request_id(env: &Envelope) -> String {
        assert_eq!(
            env.status,
            Status::NeedsApproval,
            "{}",
            env.to_json_string()
        );
        assert_eq!(env.codes(), vec!["approval-required"]);
        let a = env.approval.as_ref().expect("an approval object");
        let id = a.id.clone().expect("the approval names its request");
        assert!(
            id.starts_with("apr_") && id.len() == 36,
            "128 random bits in hex: {id}"
        );
        id
    }

    fn grant(&self, id: &str) {
        let r = self
            .rt
            .block_on(self.d.approvals().grant(id, "alice", Some("fine")))
            .expect("grant a pending request");
        assert_eq!(r.state, ApprovalState::Granted);
    }
}

fn each(f: impl Fn(Kind)) {
    for kind in KINDS {
        f(kind);
    }
}

#[test]
fn a_grant_lets_the_re_sent_call_run_once() {
    each(|kind| {
        let Some(s) = session(kind, "once", RecordTimes::default()) else {
            return;
        };
        let args = json!({"note": "a.md"});
        let asked = s.call("delete_note", args.clone());
        let id = Session::request_id(&asked);
        assert!(
            s.fx.path("notes/a.md").exists(),
            "nothing ran before approval"
        );
        // A repeat before anyone decided names the same request, not a new one.
        assert_eq!(
            Session::request_id(&s.call("delete_note", args.clone())),
            id
        );

        let pending = s.rt.block_on(s.d.approvals().pending()).unwrap();
        let mine: Vec<_> = pending.iter().filter(|r| r.id == id).collect();
        assert_eq!(mine.len(), 1, "{kind:?}: the request is listed as pending");
        assert_eq!(mine[0].tool, "delete_note");
        assert_eq!(mine[0].arguments, args);
        assert_eq!(mine[0].digest, asked.approval.as_ref().unwrap().digest);
        assert_eq!(mine[0].rule, "always");
        assert_eq!(mine[0].caller, s.caller.tenant_name().unwrap());

        s.grant(&id);
        let ran = s.call("delete_note", args.clone());
        assert_eq!(ran.status, Status::Ok, "{kind:?}: {}", ran.to_json_string());
        assert!(!s.fx.path("notes/a.md").exists(), "the approved call ran");
        assert_eq!(
            s.rt.block_on(s.d.approvals().get(&id))
                .unwrap()
                .unwrap()
                .state,
            ApprovalState::Used
        );

        // Used up: the same call again is a new question for a person.
        let again = s.call("delete_note", args);
        assert_ne!(Session::request_id(&again), id, "{kind:?}");
        // A decision on a used request is refused and changes nothing.
        let late = s.rt.block_on(s.d.approvals().grant(&id, "bob", None));
        assert!(
            matches!(&late, Err(DecideError::NotPending(r)) if r.state == ApprovalState::Used),
            "{late:?}"
        );
    });
}

/// A caller without a subject is named by its tenant (or `-`); a caller
/// whose subject is spelled that way is still someone else, and neither
/// finds the other's request or uses the other's grant.
#[test]
fn a_subject_spelled_like_a_callers_fallback_name_is_another_owner() {
    each(|kind| {
        let Some(s) = session(kind, "owner", RecordTimes::default()) else {
            return;
        };
        let tenant = s.caller.tenant_name().unwrap().to_owned();
        let pairs = [
            // No subject, named by the tenant; a subject equal to the tenant.
            (
                toolbox::caller(&s.fx.root, None, &[])
                    .unwrap()
                    .tenant(tenant.clone()),
                toolbox::caller(&s.fx.root, None, &[])
                    .unwrap()
                    .tenant(tenant.clone())
                    .subject(tenant.clone()),
            ),
            // Neither tenant nor subject (named `-`); the subject `-`.
            (
                toolbox::caller(&s.fx.root, None, &[]).unwrap(),
                toolbox::caller(&s.fx.root, None, &[]).unwrap().subject("-"),
            ),
        ];
        for (n, (first, second)) in pairs.into_iter().enumerate() {
            let (first, second) = (Arc::new(first), Arc::new(second));
            let note = format!("owner-{n}.md");
            s.fx.write(&format!("notes/{note}"), "x\n");
            let args = json!({"note": note});
            let call = |who: &Arc<Caller>| {
                let call = ToolCall::new(format!("call_o{n}"), "delete_note", args.to_string());
                s.rt.block_on(s.d.dispatch(who, &call))
            };
            let id = Session::request_id(&call(&first));
            let theirs = Session::request_id(&call(&second));
            assert_ne!(theirs, id, "{kind:?}: one pending request for two callers");
            s.grant(&id);
            let other = call(&second);
            assert_eq!(
                other.status,
                Status::NeedsApproval,
                "{kind:?}: another caller's grant let the call run: {}",
                other.to_json_string()
            );
            assert!(s.fx.path(&format!("notes/{note}")).exists());
            assert_eq!(
                call(&first).status,
                Status::Ok,
                "{kind:?}: the grant's own caller runs"
            );
            assert!(!s.fx.path(&format!("notes/{note}")).exists());
            let stored =
                s.rt.block_on(s.d.approvals().get(&theirs))
                    .unwrap()
                    .unwrap();
            assert!(stored.caller.starts_with("subject:"), "{}", stored.caller);
        }
    });
}

#[test]
fn of_many_racing_calls_one_grant_runs_exactly_one() {
    each(|kind| {
        let Some(s) = session(kind, "race", RecordTimes::default()) else {
            return;
        };
        let args = json!({"note": "a.md"});
        let id = Session::request_id(&s.call("delete_note", args.clone()));
        s.grant(&id);
        let calls: Vec<_> = (0..16)
            .map(|i| {
                let d = s.d.clone();
                let caller = s.caller.clone();
                let call = ToolCall::new(format!("race_{i}"), "delete_note", args.to_string());
                s.rt.spawn(async move { d.dispatch(&caller, &call).await })
            })
            .collect();
        let envs: Vec<Envelope> = calls
            .into_iter()
            .map(|h| s.rt.block_on(h).unwrap())
            .collect();
        let ok = envs.iter().filter(|e| e.status == Status::Ok).count();
        let asked = envs
            .iter()
            .filter(|e| e.status == Status::NeedsApproval)
            .count();
        assert_eq!(
            (ok, asked),
            (1, 15),
            "{kind:?}: one runs, every other is asked again (none ran and failed): {:?}",
            envs.iter().map(|e| e.status).collect::<Vec<_>>()
        );
    });
}

#[test]
fn other_arguments_are_an_approval_mismatch_with_a_fresh_request() {
    each(|kind| {
        let Some(s) = session(kind, "mismatch", RecordTimes::default()) else {
            return;
        };
        let a = Session::request_id(&s.call("delete_note", json!({"note": "a.md"})));
        s.grant(&a);
        let other = s.call("delete_note", json!({"note": "b.md"}));
        assert_eq!(other.status, Status::Denied, "{kind:?}");
        assert_eq!(other.codes(), vec!["approval-mismatch"], "{kind:?}");
        let b = (other.approval.as_ref().and_then(|r| r.id.clone())).expect("b.md's request");
        assert_ne!(a, b, "{kind:?}: b.md is its own request");
        let message = &other.errors[0].message;
        assert!(
            message.contains(&a) && message.contains("was given for other arguments"),
            "{kind:?}: {message}"
        );
        let hint = other.errors[0].repair.as_ref().map(|r| r.hint.clone());
        assert!(
            hint.as_deref().is_some_and(|h| h.contains(&b)),
            "{kind:?}: the hint names b.md's request: {hint:?}"
        );
        // sent again, the same refusal and the same request: no new one
        let again = s.call("delete_note", json!({"note": "b.md"}));
        assert_eq!(again.codes(), vec!["approval-mismatch"], "{kind:?}");
        assert_eq!(again.approval.and_then(|r| r.id), Some(b.clone()));
        assert!(s.fx.path("notes/b.md").exists(), "b.md kept");
        // b.md's request can be granted in turn: no dead end.
        s.grant(&b);
        assert_eq!(
            s.call("delete_note", json!({"note": "b.md"})).status,
            Status::Ok
        );
        // And a.md's grant is still there for a.md.
        assert_eq!(
            s.call("delete_note", json!({"note": "a.md"})).status,
            Status::Ok
        );
    });
}

#[test]
fn a_denial_ends_in_denied_with_the_persons_reason() {
    each(|kind| {
        let Some(s) = session(kind, "deny", RecordTimes::default()) else {
            return;
        };
        let args = json!({"note": "a.md"});
        let id = Session::request_id(&s.call("delete_note", args.clone()));
        let r =
            s.rt.block_on(
                s.d.approvals()
                    .deny(&id, "carol", Some("a.md is still referenced")),
            )
            .unwrap();
        assert_eq!(r.state, ApprovalState::Denied);
        let env = s.call("delete_note", args);
        assert_eq!(
            (env.status, env.codes()),
            (Status::Denied, vec!["approval-denied"]),
            "{kind:?}"
        );
        assert_eq!(
            env.errors[0].message,
            "carol denied this call: a.md is still referenced"
        );
        assert!(env.approval.is_none());
        assert!(s.fx.path("notes/a.md").exists(), "nothing ran");
    });
}

#[test]
fn requests_and_grants_expire() {
    each(|kind| {
        // Long enough that a loaded CI machine still grants the second
        // request before it lapses (at 400 ms a slow PostgreSQL round trip
        // once let it expire first), short enough to wait out twice.
        let ttl = Duration::from_millis(2500);
        let times = RecordTimes {
            approval_ttl: ttl,
            ..RecordTimes::default()
        };
        let Some(s) = session(kind, "expiry", times) else {
            return;
        };
        let args = json!({"note": "a.md"});
        // Undecided in time: the request expires and cannot be granted.
        let first = Session::request_id(&s.call("delete_note", args.clone()));
        std::thread::sleep(ttl + Duration::from_millis(500));
        let late = s.rt.block_on(s.d.approvals().grant(&first, "alice", None));
        assert!(
            matches!(&late, Err(DecideError::NotPending(r)) if r.state == ApprovalState::Expired),
            "{kind:?}: {late:?}"
        );
        // Granted but not used in time: the grant lapses, and the call is
        // asked again under a new request, which says so.
        let second = Session::request_id(&s.call("delete_note", args.clone()));
        assert_ne!(first, second);
        s.grant(&second);
        std::thread::sleep(ttl + Duration::from_millis(500));
        let env = s.call("delete_note", args);
        assert_ne!(Session::request_id(&env), second, "{kind:?}");
        assert_eq!(
            env.errors[0].message,
            format!("the grant of approval request {second} by alice expired before a call used it; `delete_note` always needs a person's approval"),
            "{kind:?}"
        );
        assert!(s.fx.path("notes/a.md").exists(), "nothing ran");
    });
}

#[test]
fn every_request_and_decision_is_in_the_journal() {
    each(|kind| {
        let Some(s) = session(kind, "journal", RecordTimes::default()) else {
            return;
        };
        let id = Session::request_id(&s.call("delete_note", json!({"note": "a.md"})));
        s.grant(&id);
        assert_eq!(
            s.call("delete_note", json!({"note": "a.md"})).status,
            Status::Ok
        );
        let q = JournalQuery {
            call_id: Some(id.clone()),
            ..JournalQuery::default()
        };
        let events: Vec<(String, String)> =
            s.rt.block_on(s.d.store().query(&q))
                .unwrap()
                .into_iter()
                .map(|r| (r.event, r.status))
                .collect();
        let expected = [
            ("approval-request", "pending"),
            ("approval-decision", "granted"),
            ("approval-used", "used"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()));
        assert_eq!(events, expected, "{kind:?}");
    });
}

/// A write that needs approval and carries a request key.
#[derive(Debug, ToolFailure)]
pub enum PayError {
    /// Never happens here.
    #[failure(code = "declined", retry_safe)]
    Declined,
}

#[derive(serde::Serialize, JsonSchema)]
pub struct Paid {
    /// How many payments this process has made.
    pub count: usize,
}

static PAID: AtomicUsize = AtomicUsize::new(0);

/// Pay an invoice.
#[tool_contract(effect = external, idempotency = key(request_key), approval = always)]
pub fn pay(
    _ctx: &CallContext,
    /// The invoice.
    #[arg(range(min = 1, max = 1000))]
    invoice: u32,
    /// A fresh UUID per payment.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Paid, PayError> {
    let _ = (invoice, request_key);
    Ok(Paid {
        count: PAID.fetch_add(1, Ordering::SeqCst) + 1,
    })
}

#[test]
fn a_keyed_call_re_sent_after_it_ran_is_answered_from_its_record_not_a_second_use() {
    let rt = rt();
    let d = Dispatcher::new(Registry::builder().tool(pay::contract()).build().unwrap());
    let caller = Arc::new(Caller::new());
    let args =
        json!({"invoice": 7, "request_key": "0b9f7a52-8c1e-4e5b-9a53-2f6d0c1e7a10"}).to_string();
    let send = |id: &str| rt.block_on(d.dispatch(&caller, &ToolCall::new(id, "pay", &args)));
    let asked = send("c1");
    let id = Session::request_id(&asked);
    rt.block_on(d.approvals().grant(&id, "alice", None))
        .unwrap();
    let ran = send("c2");
    assert_eq!(ran.status, Status::Ok, "{}", ran.to_json_string());
    let again = send("c3");
    assert_eq!(again.status, Status::Ok, "{}", again.to_json_string());
    assert!(again.replayed, "answered from the idempotency record");
    assert_eq!(again.result, ran.result);
    assert_eq!(PAID.load(Ordering::SeqCst), 1, "paid once");
    // The grant was used once: no second request was raised by the replay.
    let all = rt.block_on(d.approvals().list(Default::default())).unwrap();
    assert_eq!(
        all.iter().map(|r| r.state).collect::<Vec<_>>(),
        vec![ApprovalState::Used]
    );
}

#[test]
fn one_request_key_asks_about_one_set_of_arguments() {
    let rt = rt();
    let d = Dispatcher::new(Registry::builder().tool(pay::contract()).build().unwrap());
    let caller = Arc::new(Caller::new());
    let key = "5f0c8a7e-3b1d-4c2a-9e6f-7a8b9c0d1e2f";
    let send = |invoice: u32| {
        let args = json!({"invoice": invoice, "request_key": key}).to_string();
        rt.block_on(d.dispatch(&caller, &ToolCall::new("c", "pay", &args)))
    };
    let id = Session::request_id(&send(7));
    // The same key with another amount: refused as a reused key, naming the
    // request it waits on; no second question.
    let other = send(8);
    assert_eq!(other.status, Status::Invalid, "{}", other.to_json_string());
    assert_eq!(other.codes(), vec!["idempotency-key-reused"]);
    assert_eq!(other.errors[0].field.as_deref(), Some("/request_key"));
    assert!(
        other.errors[0].message.contains(&id),
        "{}",
        other.to_json_string()
    );
    // The first arguments again: the same request.
    assert_eq!(Session::request_id(&send(7)), id);
    let pending = rt.block_on(d.approvals().pending()).unwrap();
    assert_eq!(pending.len(), 1, "{pending:?}");
    // The person decides on the one request; the denial stands for it.
    rt.block_on(d.approvals().deny(&id, "alice", Some("wrong amount")))
        .unwrap();
    assert_eq!(send(7).codes(), vec!["approval-denied"]);
}

#[test]
fn a_standing_approval_by_the_host_still_runs_its_digest() {
    let fx = Fixture::standard("approvals-standing");
    fx.write("notes/a.md", "a\n");
    let rt = rt();
    let d = Dispatcher::new(toolbox::registry());
    let plain = Arc::new(toolbox::caller(&fx.root, None, &[]).unwrap());
    let call = ToolCall::new("c1", "delete_note", r#"{"note":"a.md"}"#);
    let digest = rt
        .block_on(d.dispatch(&plain, &call))
        .approval
        .unwrap()
        .digest;
    let standing = Arc::new(
        toolbox::caller(&fx.root, None, &[])
            .unwrap()
            .approve(Approval {
                tool: "delete_note".into(),
                digest,
            }),
    );
    assert_eq!(rt.block_on(d.dispatch(&standing, &call)).status, Status::Ok);
}

/// One caller may have at most `MAX_PENDING` requests waiting for people:
/// past it, a call that needs a new one makes none and fails (a flood of
/// 2,000 requests in 49 s buried everyone else's and made the inbox a 6 MB
/// page). A person's decision makes room again; another caller is not
/// held back.
#[test]
fn one_caller_has_at_most_its_share_of_requests_waiting() {
    use contract_runtime::policy::approval::MAX_PENDING;
    let s = session(Kind::Memory, "flood", RecordTimes::default()).expect("memory");
    let mut first = None;
    for i in 0..MAX_PENDING {
        let env = s.call("delete_note", json!({ "note": format!("n{i}.md") }));
        let id = Session::request_id(&env);
        first.get_or_insert(id);
    }
    let over = s.call("delete_note", json!({"note": "one-more.md"}));
    assert_eq!(
        (over.status, over.codes()),
        (Status::Failed, vec!["too-many-approvals"]),
        "{}",
        over.to_json_string()
    );
    assert!(over.approval.is_none());
    // An earlier request asked again is no new one: still answered.
    let again = s.call("delete_note", json!({"note": "n0.md"}));
    assert_eq!(Session::request_id(&again), first.clone().unwrap());
    // A decision makes room.
    s.rt.block_on(s.d.approvals().deny(&first.unwrap(), "alice", Some("no")))
        .expect("deny");
    let env = s.call("delete_note", json!({"note": "one-more.md"}));
    Session::request_id(&env);
}
