//! One conformance suite for every store: each case is a generic async body
//! run against the in-memory store, SQLite and PostgreSQL.
//!
//! PostgreSQL comes from `CONTRACT_TEST_POSTGRES_URL` (`.ci/run` starts a
//! throwaway server and sets it; locally `eval "$(.ci/postgres.sh start)"`).
//! Without it the PostgreSQL cases print a notice and pass locally, and fail
//! in CI, where skipping would hide the store the shared deployments use.

use std::sync::Arc;
use std::time::Duration;

use contract_runtime::store::{
    self, ApprovalFilter, ApprovalState, Claim, Claimed, Decided, Decision, Doubt, JournalQuery,
    JournalRecord, Lease, MemoryStore, NewApproval, PostgresOptions, PostgresStore, RecordKey,
    RecordState, Resolution, SqliteStore, Store, StoreErrorKind,
};
use contract_runtime::store::{NewTask, TaskOwner, TaskState, TaskStore};
use contract_runtime::{Envelope, Status};
use serde_json::json;

// ---------------------------------------------------------------------------
// The stores

async fn memory() -> Option<Arc<dyn Store>> {
    Some(Arc::new(MemoryStore::new()))
}

fn temp_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("contract-store-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create the temp folder");
    dir.join(format!("{}-{name}.sqlite", unique("db")))
}

async fn sqlite() -> Option<Arc<dyn Store>> {
    let path = temp_file("conformance");
    Some(Arc::new(SqliteStore::open(&path).expect("open SQLite")))
}

/// The PostgreSQL URL, or `None` (with a notice) outside CI.
fn postgres_url() -> Option<String> {
    match std::env::var("CONTRACT_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => panic!(
            "CONTRACT_TEST_POSTGRES_URL is not set: in CI, .ci/run starts PostgreSQL and sets \
             it, and the PostgreSQL store tests must run"
        ),
        _ => {
            eprintln!(
                "note: CONTRACT_TEST_POSTGRES_URL is not set, so this PostgreSQL store test \
                 checked nothing; run `eval \"$(.ci/postgres.sh start)\"` first"
            );
            None
        }
    }
}

/// A store in a schema of its own, so cases running at once cannot purge or
/// list each other's records.
async fn postgres() -> Option<Arc<dyn Store>> {
    let url = postgres_url()?;
    let options = PostgresOptions {
        schema: Some(unique("t").replace('-', "_")),
        ..PostgresOptions::default()
    };
    let store = PostgresStore::connect_with(&url, options)
        .await
        .expect("connect to CONTRACT_TEST_POSTGRES_URL");
    Some(Arc::new(store))
}

/// Every case, against every store.
macro_rules! conformance {
    ($($case:ident),* $(,)?) => {
        conformance!(@store memory: $($case),*);
        conformance!(@store sqlite: $($case),*);
        conformance!(@store postgres: $($case),*);
    };
    (@store $store:ident: $($case:ident),*) => {
        mod $store {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $case() {
                    if let Some(store) = super::$store().await {
                        super::cases::$case(store).await;
                    }
                }
            )*
        }
    };
}

conformance!(
    first_arrival_runs_then_replays,
    other_arguments_or_revision_are_a_reused_key,
    in_flight_is_refused_with_retry_after,
    dead_worker_is_unknown_until_resolved_done,
    recorded_unknown_resolved_failed_runs_again,
    late_outcome_of_a_dead_worker_is_kept,
    release_lets_the_key_run_again,
    renewed_lease_keeps_a_slow_worker_in_flight,
    resolve_touches_only_records_in_doubt,
    retention_makes_a_key_new_and_purge_removes_it,
    keys_are_scoped_by_tool_and_tenant,
    one_winner_among_1000_concurrent_claims,
    approval_lifecycle_grant_then_single_use,
    denial_keeps_the_reason,
    approvals_expire,
    one_use_among_100_concurrent_consumers,
    one_pending_request_among_50_concurrent_askers,
    approvals_belong_to_their_tenant_and_caller,
    journal_is_queried_by_call_tool_and_time,
    records_list_every_state_and_the_journal_is_purged,
    dispatch_1000_concurrent_calls_one_effect,
    a_task_belongs_to_its_owner_and_ends_with_its_envelope,
    a_cancelled_task_stops_its_worker,
    a_task_whose_worker_stopped_is_unknown,
    a_keyed_task_reads_its_outcome_from_the_keys_record,
);

// ---------------------------------------------------------------------------
// Helpers

fn unique(prefix: &str) -> String {
    store::new_id(prefix).expect("randomness")
}

fn claim(tool: &str, key: &str, digest: &str) -> Claim {
    Claim::new(RecordKey::new(tool, key), digest, "r1", "call_1")
}

fn ok(tool: &str, result: serde_json::Value) -> Envelope {
    let mut env = Envelope::failure("call_1", tool, Status::Ok, false, vec![]);
    env.result = result;
    env
}

async fn run(store: &dyn Store, c: &Claim) -> Lease {
    match store.claim(c).await {
        Ok(Claimed::Run(lease)) => lease,
        other => panic!("expected the claim to win, got {other:?}"),
    }
}

async fn sleep_ms(ms: u64) {
    tokio::time::sleep(Duration::from_millis(ms)).await;
}

/// Runs per request key, across every store's case.
static RUNS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

#[derive(serde::Serialize, contract_runtime::JsonSchema)]
pub struct Sent {
    sent: bool,
}

/// Sends a message once per request key (slowly, so duplicates overlap).
#[contract_runtime::tool_contract(effect = external, idempotency = key(request_key), approval = never)]
pub async fn send_once(
    /// A fresh key per message.
    #[arg(length(min = 1, max = 100))]
    request_key: String,
) -> Result<Sent, std::convert::Infallible> {
    RUNS.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(request_key);
    tokio::time::sleep(Duration::from_millis(50)).await;
    Ok(Sent { sent: true })
}

fn owner(tenant: &str, subject: &str) -> TaskOwner {
    TaskOwner {
        tenant: tenant.into(),
        subject: subject.into(),
    }
}

fn new_task(tool: &str, owner: &TaskOwner, key: Option<&str>, lease_ms: u64) -> NewTask {
    NewTask {
        tool: tool.into(),
        owner: owner.clone(),
        key: key.map(str::to_string),
        lease: Duration::from_millis(lease_ms),
        ttl: Duration::from_secs(600),
    }
}

fn tasks_of(s: &dyn Store) -> &dyn TaskStore {
    s.task_store()
        .expect("every store of this crate keeps tasks")
}

mod cases {
    use super::*;

    pub async fn a_task_belongs_to_its_owner_and_ends_with_its_envelope(s: Arc<dyn Store>) {
        let t = tasks_of(&*s);
        let tool = unique("export");
        let (alice, bob) = (owner("acme", "alice"), owner("acme", "bob"));
        let mallory = owner("evil", "alice");
        let lease = t
            .create_task(&new_task(&tool, &alice, None, 60_000))
            .await
            .unwrap();
        assert!(lease.id.starts_with("task_"), "{}", lease.id);
        let read = t.task(&lease.id, &alice).await.unwrap().expect("hers");
        assert_eq!(read.state, TaskState::Working);
        assert_eq!(
            (read.tool.as_str(), read.created_ms),
            (tool.as_str(), lease.created_ms)
        );
        // Another subject of the tenant, or the same subject in another
        // tenant, neither sees, lists nor cancels it.
        for other in [&bob, &mallory] {
            assert_eq!(t.task(&lease.id, other).await.unwrap(), None);
            assert_eq!(t.cancel_task(&lease.id, other).await.unwrap(), None);
            assert!(t.tasks(other).await.unwrap().is_empty());
        }
        assert_eq!(t.tasks(&alice).await.unwrap().len(), 1);
        let env = ok(&tool, json!({"rows": 3}));
        assert!(t.finish_task(&lease, &env).await.unwrap());
        assert!(
            !t.finish_task(&lease, &env).await.unwrap(),
            "finished twice"
        );
        let done = t.task(&lease.id, &alice).await.unwrap().unwrap();
        assert_eq!(done.state, TaskState::Done(Box::new(env.clone())));
        // A task that ended is not cancelled.
        let after = t.cancel_task(&lease.id, &alice).await.unwrap().unwrap();
        assert_eq!(after.state, TaskState::Done(Box::new(env)));
        // Newest first.
        let second = t
            .create_task(&new_task(&tool, &alice, None, 60_000))
            .await
            .unwrap();
        sleep_ms(2).await;
        let listed: Vec<String> = t
            .tasks(&alice)
            .await
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .collect();
        assert_eq!(listed.len(), 2);
        assert!(listed.contains(&second.id) && listed.contains(&lease.id));
    }

    pub async fn a_cancelled_task_stops_its_worker(s: Arc<dyn Store>) {
        let t = tasks_of(&*s);
        let tool = unique("export");
        let alice = owner("", "alice");
        let lease = t
            .create_task(&new_task(&tool, &alice, None, 60_000))
            .await
            .unwrap();
        assert!(t.renew_task(&lease, Duration::from_secs(60)).await.unwrap());
        let cancelled = t.cancel_task(&lease.id, &alice).await.unwrap().unwrap();
        assert_eq!(cancelled.state, TaskState::Cancelled);
        // The worker learns it at its next renewal, and its outcome is not kept.
        assert!(!t.renew_task(&lease, Duration::from_secs(60)).await.unwrap());
        assert!(!t.finish_task(&lease, &ok(&tool, json!(1))).await.unwrap());
        let read = t.task(&lease.id, &alice).await.unwrap().unwrap();
        assert_eq!(read.state, TaskState::Cancelled);
    }

    pub async fn a_task_whose_worker_stopped_is_unknown(s: Arc<dyn Store>) {
        let t = tasks_of(&*s);
        let tool = unique("export");
        let alice = owner("acme", "alice");
        let lease = t
            .create_task(&new_task(&tool, &alice, None, 150))
            .await
            .unwrap();
        sleep_ms(400).await;
        let read = t.task(&lease.id, &alice).await.unwrap().unwrap();
        assert_eq!(read.state, TaskState::Unknown(Doubt::LeaseExpired));
        // In doubt, it cannot be cancelled into looking like nothing happened.
        let after = t.cancel_task(&lease.id, &alice).await.unwrap().unwrap();
        assert_eq!(after.state, TaskState::Unknown(Doubt::LeaseExpired));
    }

    pub async fn a_keyed_task_reads_its_outcome_from_the_keys_record(s: Arc<dyn Store>) {
        let t = tasks_of(&*s);
        let tool = unique("post_comment");
        let alice = owner("acme", "alice");
        let key = unique("k");
        let lease = t
            .create_task(&new_task(&tool, &alice, Some(&key), 60_000))
            .await
            .unwrap();
        // The task's call claims the key under the task's id, as the
        // runner's dispatch does.
        let c = Claim::new(
            RecordKey::new(&tool, key.as_str()).for_tenant("acme"),
            "sha256:a",
            "r1",
            lease.id.clone(),
        );
        let claimed = run(&*s, &c).await;
        let env = ok(&tool, json!({"comment": 9}));
        assert!(s.complete(&claimed, &env).await.unwrap());
        // The worker died before marking the task done: the record says.
        let read = t.task(&lease.id, &alice).await.unwrap().unwrap();
        assert_eq!(read.state, TaskState::Done(Box::new(env.clone())));
        assert_eq!(read.key.as_deref(), Some(key.as_str()));
        // Finished, the task keeps no copy: what it reads is the record's
        // envelope, not the one handed to `finish_task`.
        let other = ok(&tool, json!("not the outcome"));
        assert!(t.finish_task(&lease, &other).await.unwrap());
        let read = t.task(&lease.id, &alice).await.unwrap().unwrap();
        assert_eq!(read.state, TaskState::Done(Box::new(env)));
        // Another task on the same key (a replay) keeps its own envelope:
        // the record is not its call's.
        let replayer = t
            .create_task(&new_task(&tool, &alice, Some(&key), 60_000))
            .await
            .unwrap();
        let replayed = ok(&tool, json!("replayed"));
        assert!(t.finish_task(&replayer, &replayed).await.unwrap());
        let read = t.task(&replayer.id, &alice).await.unwrap().unwrap();
        assert_eq!(read.state, TaskState::Done(Box::new(replayed)));
    }

    use contract_runtime::{Caller, Dispatcher, Registry, ToolCall};

    pub async fn first_arrival_runs_then_replays(s: Arc<dyn Store>) {
        let tool = unique("post_comment");
        let c = claim(&tool, "k1", "sha256:a");
        let lease = run(&*s, &c).await;
        let env = ok(&tool, json!({"comment": 7}));
        assert!(s.complete(&lease, &env).await.unwrap());
        // The lease is spent: a second outcome for the same run is refused.
        assert!(!s.complete(&lease, &env).await.unwrap());
        let again = Claim {
            call_id: "call_2".into(),
            ..c.clone()
        };
        match s.claim(&again).await.unwrap() {
            Claimed::Replay(e) => assert_eq!(*e, env),
            other => panic!("expected a replay, got {other:?}"),
        }
    }

    pub async fn other_arguments_or_revision_are_a_reused_key(s: Arc<dyn Store>) {
        let tool = unique("post_comment");
        let lease = run(&*s, &claim(&tool, "k1", "sha256:a")).await;
        // While it runs, and after it completed: other arguments are never run.
        let other = claim(&tool, "k1", "sha256:b");
        assert_eq!(
            s.claim(&other).await.unwrap(),
            Claimed::Reused {
                revision_changed: false
            }
        );
        assert!(s.complete(&lease, &ok(&tool, json!(1))).await.unwrap());
        assert_eq!(
            s.claim(&other).await.unwrap(),
            Claimed::Reused {
                revision_changed: false
            }
        );
        let newer = Claim {
            revision: "r2".into(),
            ..claim(&tool, "k1", "sha256:a")
        };
        assert_eq!(
            s.claim(&newer).await.unwrap(),
            Claimed::Reused {
                revision_changed: true
            }
        );
    }

    pub async fn in_flight_is_refused_with_retry_after(s: Arc<dyn Store>) {
        let tool = unique("post_comment");
        let c = Claim {
            lease: Duration::from_secs(30),
            ..claim(&tool, "k1", "sha256:a")
        };
        let _lease = run(&*s, &c).await;
        match s.claim(&c).await.unwrap() {
            Claimed::InFlight { retry_after_ms } => {
                assert!(
                    (20_000..=30_000).contains(&retry_after_ms),
                    "retry_after_ms {retry_after_ms} is not what is left of a 30 s lease"
                );
            }
            other => panic!("expected in-flight, got {other:?}"),
        }
    }

    pub async fn dead_worker_is_unknown_until_resolved_done(s: Arc<dyn Store>) {
        let tool = unique("post_comment");
        let c = Claim {
            lease: Duration::from_millis(150),
            ..claim(&tool, "k1", "sha256:a")
        };
        let _dead = run(&*s, &c).await;
        sleep_ms(400).await;
        assert_eq!(
            s.claim(&c).await.unwrap(),
            Claimed::Unknown(Doubt::LeaseExpired)
        );
        // Asking again changes nothing: an unknown outcome is never re-run.
        assert_eq!(
            s.claim(&c).await.unwrap(),
            Claimed::Unknown(Doubt::LeaseExpired)
        );
        // Nor with other arguments: a key in doubt is never "reused", which
        // would tell the model to send the effect again under a new key.
        let other = Claim {
            digest: "sha256:b".into(),
            ..c.clone()
        };
        assert_eq!(
            s.claim(&other).await.unwrap(),
            Claimed::Unknown(Doubt::LeaseExpired)
        );
        let doubtful = s.in_doubt().await.unwrap();
        let mine: Vec<_> = doubtful.iter().filter(|d| d.key == c.key).collect();
        assert_eq!(mine.len(), 1, "{doubtful:?}");
        assert_eq!(mine[0].doubt, Doubt::LeaseExpired);
        assert_eq!(mine[0].call_id, "call_1");
        assert_eq!(mine[0].digest, "sha256:a");

        assert!(s.resolve(&c.key, Resolution::Done).await.unwrap());
        match s.claim(&c).await.unwrap() {
            Claimed::Replay(e) => {
                assert_eq!(e.status, Status::Ok);
                assert!(e.retry_safe);
                assert_eq!(e.tool, tool);
            }
            other => panic!("expected a replay after resolve done, got {other:?}"),
        }
        assert!(!s.in_doubt().await.unwrap().iter().any(|d| d.key == c.key));
        assert!(!s.resolve(&c.key, Resolution::Done).await.unwrap());
        // Settled, the key is bound to its arguments again.
        assert!(matches!(
            s.claim(&other).await.unwrap(),
            Claimed::Reused { .. }
        ));
    }

    pub async fn recorded_unknown_resolved_failed_runs_again(s: Arc<dyn Store>) {
        let tool = unique("post_comment");
        let c = claim(&tool, "k1", "sha256:a");
        let lease = run(&*s, &c).await;
        let unknown = Envelope::failure("call_1", &tool, Status::Unknown, false, vec![]);
        assert!(s.complete(&lease, &unknown).await.unwrap());
        assert_eq!(
            s.claim(&c).await.unwrap(),
            Claimed::Unknown(Doubt::Recorded)
        );
        let doubtful = s.in_doubt().await.unwrap();
        assert!(doubtful
            .iter()
            .any(|d| d.key == c.key && d.doubt == Doubt::Recorded));
        assert!(s.resolve(&c.key, Resolution::Failed).await.unwrap());
        run(&*s, &c).await;
    }

    pub async fn late_outcome_of_a_dead_worker_is_kept(s: Arc<dyn Store>) {
        // A worker that outlived its lease but finished before anyone settled
        // the record knows better than an operator's guess.
        let tool = unique("post_comment");
        let c = Claim {
            lease: Duration::from_millis(100),
            ..claim(&tool, "k1", "sha256:a")
        };
        let slow = run(&*s, &c).await;
        sleep_ms(300).await;
        assert_eq!(
            s.claim(&c).await.unwrap(),
            Claimed::Unknown(Doubt::LeaseExpired)
        );
        let env = ok(&tool, json!("late"));
        assert!(s.complete(&slow, &env).await.unwrap());
        assert_eq!(s.claim(&c).await.unwrap(), Claimed::Replay(Box::new(env)));

        // Once settled, a late outcome is refused.
        let c2 = Claim {
            key: RecordKey::new(&tool, "k2"),
            ..c.clone()
        };
        let slower = run(&*s, &c2).await;
        sleep_ms(300).await;
        assert!(s.resolve(&c2.key, Resolution::Failed).await.unwrap());
        assert!(!s.complete(&slower, &ok(&tool, json!(0))).await.unwrap());
        run(&*s, &c2).await;
    }

    pub async fn release_lets_the_key_run_again(s: Arc<dyn Store>) {
        let tool = unique("post_comment");
        let c = claim(&tool, "k1", "sha256:a");
        let first = run(&*s, &c).await;
        assert!(s.release(&first).await.unwrap());
        assert!(!s.release(&first).await.unwrap());
        let second = run(&*s, &c).await;
        assert_ne!(first.token, second.token);
        // The released run's lease no longer counts.
        assert!(!s.complete(&first, &ok(&tool, json!(1))).await.unwrap());
        assert!(!s.release(&first).await.unwrap());
        assert!(s.complete(&second, &ok(&tool, json!(2))).await.unwrap());
    }

    pub async fn renewed_lease_keeps_a_slow_worker_in_flight(s: Arc<dyn Store>) {
        let tool = unique("post_comment");
        // Each renewal has 700 ms to spare, so a loaded machine cannot
        // make the lease lapse between two of them.
        let c = Claim {
            lease: Duration::from_millis(1000),
            ..claim(&tool, "k1", "sha256:a")
        };
        let lease = run(&*s, &c).await;
        for _ in 0..4 {
            sleep_ms(300).await;
            assert!(s.renew(&lease, Duration::from_millis(1000)).await.unwrap());
        }
        // 1.2 s after the claim, past the first lease: still in flight.
        assert!(matches!(
            s.claim(&c).await.unwrap(),
            Claimed::InFlight { .. }
        ));
        sleep_ms(1400).await;
        assert_eq!(
            s.claim(&c).await.unwrap(),
            Claimed::Unknown(Doubt::LeaseExpired)
        );
        // A lease released or settled cannot be renewed.
        assert!(s.resolve(&c.key, Resolution::Failed).await.unwrap());
        assert!(!s.renew(&lease, Duration::from_secs(1)).await.unwrap());
    }

    pub async fn resolve_touches_only_records_in_doubt(s: Arc<dyn Store>) {
        let tool = unique("post_comment");
        let absent = RecordKey::new(&tool, "nobody");
        assert!(!s.resolve(&absent, Resolution::Done).await.unwrap());
        assert!(!s.resolve(&absent, Resolution::Failed).await.unwrap());
        let running = claim(&tool, "running", "sha256:a");
        let lease = run(&*s, &running).await;
        assert!(!s.resolve(&running.key, Resolution::Failed).await.unwrap());
        assert!(!s.resolve(&running.key, Resolution::Done).await.unwrap());
        let env = ok(&tool, json!(1));
        assert!(s.complete(&lease, &env).await.unwrap());
        assert!(!s.resolve(&running.key, Resolution::Failed).await.unwrap());
        assert_eq!(
            s.claim(&running).await.unwrap(),
            Claimed::Replay(Box::new(env))
        );
    }

    pub async fn retention_makes_a_key_new_and_purge_removes_it(s: Arc<dyn Store>) {
        let tool = unique("post_comment");
        // The replay must come inside the retention on a loaded machine too.
        let c = Claim {
            retention: Duration::from_millis(1500),
            ..claim(&tool, "k1", "sha256:a")
        };
        let lease = run(&*s, &c).await;
        assert!(s.complete(&lease, &ok(&tool, json!(1))).await.unwrap());
        assert!(matches!(s.claim(&c).await.unwrap(), Claimed::Replay(_)));
        sleep_ms(1800).await;
        // Past retention the key is new, even with other arguments.
        let other = Claim {
            digest: "sha256:b".into(),
            ..c.clone()
        };
        let lease = run(&*s, &other).await;
        assert!(s.complete(&lease, &ok(&tool, json!(2))).await.unwrap());

        // Purge removes completed records past retention, and only those.
        let doomed = Claim {
            key: RecordKey::new(&tool, "k2"),
            ..c.clone()
        };
        let lease = run(&*s, &doomed).await;
        assert!(s.complete(&lease, &ok(&tool, json!(3))).await.unwrap());
        let kept = Claim {
            key: RecordKey::new(&tool, "k3"),
            retention: Duration::from_secs(3600),
            ..c.clone()
        };
        let lease = run(&*s, &kept).await;
        assert!(s.complete(&lease, &ok(&tool, json!(4))).await.unwrap());
        let doubtful = Claim {
            key: RecordKey::new(&tool, "k4"),
            lease: Duration::from_millis(50),
            ..c.clone()
        };
        run(&*s, &doubtful).await;
        sleep_ms(1800).await;
        // k1 (second run) and k2 are past retention.
        assert_eq!(s.purge().await.unwrap(), 2);
        assert_eq!(s.purge().await.unwrap(), 0);
        assert!(matches!(s.claim(&kept).await.unwrap(), Claimed::Replay(_)));
        assert_eq!(
            s.claim(&doubtful).await.unwrap(),
            Claimed::Unknown(Doubt::LeaseExpired)
        );
    }

    pub async fn keys_are_scoped_by_tool_and_tenant(s: Arc<dyn Store>) {
        let tool = unique("post_comment");
        let other_tool = unique("send_mail");
        let base = claim(&tool, "shared-key", "sha256:a");
        run(&*s, &base).await;
        let scoped = [
            Claim {
                key: RecordKey::new(&other_tool, "shared-key"),
                ..base.clone()
            },
            Claim {
                key: RecordKey::new(&tool, "shared-key").for_tenant("acme"),
                ..base.clone()
            },
            Claim {
                key: RecordKey::new(&tool, "shared-key").for_tenant("globex"),
                ..base.clone()
            },
        ];
        for c in &scoped {
            run(&*s, c).await;
        }
    }

    pub async fn one_winner_among_1000_concurrent_claims(s: Arc<dyn Store>) {
        let tool = unique("post_comment");
        let c = Claim {
            lease: Duration::from_secs(60),
            ..claim(&tool, "hot", "sha256:a")
        };
        let tasks: Vec<_> = (0..1000)
            .map(|i| {
                let s = s.clone();
                let c = Claim {
                    call_id: format!("call_{i}"),
                    ..c.clone()
                };
                tokio::spawn(async move { s.claim(&c).await })
            })
            .collect();
        let (mut won, mut in_flight) = (0, 0);
        for t in tasks {
            match t.await.expect("task").expect("claim") {
                Claimed::Run(_) => won += 1,
                Claimed::InFlight { .. } => in_flight += 1,
                other => panic!("unexpected answer {other:?}"),
            }
        }
        assert_eq!((won, in_flight), (1, 999));
    }

    fn new_approval(tool: &str, digest: &str, ttl: Duration) -> NewApproval {
        NewApproval {
            tool: tool.into(),
            arguments: json!({"note": "a.md", "token": "[redacted]"}),
            digest: digest.into(),
            rule: "always".into(),
            reason: "`delete_note` always needs a person's approval".into(),
            caller: "agent-1".into(),
            tenant: "acme".into(),
            ttl,
        }
    }

    /// The same question from another caller, or another tenant, is another
    /// request: each owner's pending request, grant and denial are its own,
    /// and a tenant's filter finds only that tenant's.
    pub async fn approvals_belong_to_their_tenant_and_caller(s: Arc<dyn Store>) {
        let tool = unique("delete_note");
        let ttl = Duration::from_secs(900);
        let ask = |caller: &str, tenant: &str| NewApproval {
            caller: caller.into(),
            tenant: tenant.into(),
            ..new_approval(&tool, "sha256:a", ttl)
        };
        let ana = s.create_approval(&ask("ana", "acme")).await.unwrap();
        let bob = s.create_approval(&ask("bob", "acme")).await.unwrap();
        let ana_globex = s.create_approval(&ask("ana", "globex")).await.unwrap();
        let ids: std::collections::BTreeSet<_> =
            [&ana.id, &bob.id, &ana_globex.id].into_iter().collect();
        assert_eq!(ids.len(), 3, "one pending request per owner");
        assert_eq!(
            s.create_approval(&ask("ana", "acme")).await.unwrap().id,
            ana.id,
            "the same owner asking again finds its own request"
        );
        assert_eq!((ana.tenant.as_str(), ana.caller.as_str()), ("acme", "ana"));
        let of = |tenant: &str| ApprovalFilter {
            tool: Some(tool.clone()),
            tenant: Some(tenant.into()),
            ..ApprovalFilter::default()
        };
        let acme: Vec<String> = s
            .approvals(&of("acme"))
            .await
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .collect();
        assert_eq!(acme.len(), 2);
        assert!(acme.contains(&ana.id) && acme.contains(&bob.id), "{acme:?}");
        let globex = s.approvals(&of("globex")).await.unwrap();
        assert_eq!(globex.len(), 1);
        assert_eq!(globex[0].id, ana_globex.id);
        assert_eq!(
            s.approval(&ana_globex.id).await.unwrap().unwrap().tenant,
            "globex"
        );
        assert!(s.approvals(&of("initech")).await.unwrap().is_empty());
    }

    fn grant(by: &str) -> Decision {
        Decision {
            grant: true,
            by: by.into(),
            reason: Some("looks right".into()),
        }
    }

    pub async fn approval_lifecycle_grant_then_single_use(s: Arc<dyn Store>) {
        let tool = unique("delete_note");
        let asked = s
            .create_approval(&new_approval(&tool, "sha256:a", Duration::from_secs(900)))
            .await
            .unwrap();
        assert_eq!(asked.state, ApprovalState::Pending);
        assert!(
            asked.id.starts_with("apr_") && asked.id.len() == 36,
            "{}",
            asked.id
        );
        assert_eq!(asked.arguments["token"], "[redacted]");
        assert!((899_000..=900_000).contains(&(asked.expires_ms - asked.created_ms)));
        let other = s
            .create_approval(&new_approval(&tool, "sha256:b", Duration::from_secs(900)))
            .await
            .unwrap();
        assert_ne!(asked.id, other.id);
        assert_eq!(s.approval(&asked.id).await.unwrap(), Some(asked.clone()));

        let mut pending = s
            .approvals(&ApprovalFilter {
                state: Some(ApprovalState::Pending),
                tool: Some(tool.clone()),
                ..ApprovalFilter::default()
            })
            .await
            .unwrap();
        // Oldest first; two created in the same millisecond come in either order.
        pending.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        let mut expected = vec![asked.clone(), other.clone()];
        expected.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        assert_eq!(pending, expected);

        // Not granted yet: nothing to use.
        assert!(!s.consume(&asked.id, "sha256:a").await.unwrap());
        let granted = match s.decide(&asked.id, &grant("alice")).await.unwrap() {
            Decided::Now(r) => r,
            other => panic!("expected a decision, got {other:?}"),
        };
        assert_eq!(granted.state, ApprovalState::Granted);
        assert_eq!(granted.decided_by.as_deref(), Some("alice"));
        assert_eq!(granted.decision_reason.as_deref(), Some("looks right"));
        assert!(granted.decided_ms.is_some_and(|t| t >= asked.created_ms));
        // A decision is final.
        let deny = Decision {
            grant: false,
            by: "mallory".into(),
            reason: None,
        };
        assert_eq!(
            s.decide(&asked.id, &deny).await.unwrap(),
            Decided::Already(granted.clone())
        );
        assert_eq!(
            s.decide("apr_nosuchid", &deny).await.unwrap(),
            Decided::Missing
        );
        assert_eq!(s.approval("apr_nosuchid").await.unwrap(), None);

        // A grant covers its own arguments only, and once.
        assert!(!s.consume(&asked.id, "sha256:b").await.unwrap());
        assert!(s.consume(&asked.id, "sha256:a").await.unwrap());
        assert!(!s.consume(&asked.id, "sha256:a").await.unwrap());
        let used = s.approval(&asked.id).await.unwrap().unwrap();
        assert_eq!(used.state, ApprovalState::Used);
        assert_eq!(used.decided_by.as_deref(), Some("alice"));
    }

    pub async fn denial_keeps_the_reason(s: Arc<dyn Store>) {
        let tool = unique("delete_note");
        let asked = s
            .create_approval(&new_approval(&tool, "sha256:a", Duration::from_secs(900)))
            .await
            .unwrap();
        let deny = Decision {
            grant: false,
            by: "bob".into(),
            reason: Some("that note is still needed".into()),
        };
        let denied = match s.decide(&asked.id, &deny).await.unwrap() {
            Decided::Now(r) => r,
            other => panic!("expected a decision, got {other:?}"),
        };
        assert_eq!(denied.state, ApprovalState::Denied);
        assert_eq!(
            denied.decision_reason.as_deref(),
            Some("that note is still needed")
        );
        assert!(!s.consume(&asked.id, "sha256:a").await.unwrap());
        assert_eq!(
            s.decide(&asked.id, &grant("alice")).await.unwrap(),
            Decided::Already(denied)
        );
    }

    pub async fn approvals_expire(s: Arc<dyn Store>) {
        let tool = unique("delete_note");
        // Granting the second request must come inside its lifetime on a
        // loaded machine too.
        let ttl = Duration::from_millis(1000);
        let undecided = s
            .create_approval(&new_approval(&tool, "sha256:a", ttl))
            .await
            .unwrap();
        let unused = s
            .create_approval(&new_approval(&tool, "sha256:b", ttl))
            .await
            .unwrap();
        assert!(matches!(
            s.decide(&unused.id, &grant("alice")).await.unwrap(),
            Decided::Now(_)
        ));
        sleep_ms(1300).await;
        let late = s.approval(&undecided.id).await.unwrap().unwrap();
        assert_eq!(late.state, ApprovalState::Expired);
        assert_eq!(
            s.decide(&undecided.id, &grant("alice")).await.unwrap(),
            Decided::Already(late)
        );
        assert!(!s.consume(&unused.id, "sha256:b").await.unwrap());
        let expired = s
            .approvals(&ApprovalFilter {
                state: Some(ApprovalState::Expired),
                tool: Some(tool.clone()),
                ..ApprovalFilter::default()
            })
            .await
            .unwrap();
        assert_eq!(expired.len(), 2);
        // The state filtered is the state shown: neither is still pending
        // or granted, though their rows say so.
        for state in [ApprovalState::Pending, ApprovalState::Granted] {
            let filter = ApprovalFilter {
                state: Some(state),
                tool: Some(tool.clone()),
                ..ApprovalFilter::default()
            };
            assert_eq!(s.approvals(&filter).await.unwrap(), vec![], "{state:?}");
        }
        // Purge forgets them.
        assert!(s.purge().await.unwrap() >= 2);
        assert_eq!(s.approval(&undecided.id).await.unwrap(), None);
    }

    /// Servers asking the same question at once make one request (so a
    /// person's denial cannot be outrun by a grant on a duplicate); a request
    /// past its expiry leaves room for a new one.
    pub async fn one_pending_request_among_50_concurrent_askers(s: Arc<dyn Store>) {
        let tool = unique("delete_note");
        // Long enough that the 50 askers and the checks after them finish
        // well inside it on a loaded machine (a request that expired midway
        // would rightly make room for a second one).
        let ttl = Duration::from_millis(3000);
        let ask = |s: Arc<dyn Store>, tool: String| async move {
            s.create_approval(&new_approval(&tool, "sha256:a", ttl))
                .await
        };
        let tasks: Vec<_> = (0..50)
            .map(|_| tokio::spawn(ask(s.clone(), tool.clone())))
            .collect();
        let mut ids = std::collections::BTreeSet::new();
        for t in tasks {
            ids.insert(t.await.expect("task").expect("create").id);
        }
        assert_eq!(ids.len(), 1, "{ids:?}");
        let only = ApprovalFilter {
            tool: Some(tool.clone()),
            ..ApprovalFilter::default()
        };
        assert_eq!(s.approvals(&only).await.unwrap().len(), 1);
        // Another question is another request.
        let other = s
            .create_approval(&new_approval(&tool, "sha256:b", ttl))
            .await
            .unwrap();
        assert!(!ids.contains(&other.id));

        sleep_ms(3300).await;
        let again = ask(s.clone(), tool.clone()).await.unwrap();
        assert!(!ids.contains(&again.id), "the expired request made room");
        assert_eq!(again.state, ApprovalState::Pending);
        let states: Vec<ApprovalState> = s
            .approvals(&ApprovalFilter {
                digest: Some("sha256:a".into()),
                ..only
            })
            .await
            .unwrap()
            .into_iter()
            .map(|a| a.state)
            .collect();
        assert_eq!(states.len(), 2, "{states:?}");
        assert!(states.contains(&ApprovalState::Expired), "{states:?}");
    }

    pub async fn one_use_among_100_concurrent_consumers(s: Arc<dyn Store>) {
        let tool = unique("delete_note");
        let asked = s
            .create_approval(&new_approval(&tool, "sha256:a", Duration::from_secs(900)))
            .await
            .unwrap();
        assert!(matches!(
            s.decide(&asked.id, &grant("alice")).await.unwrap(),
            Decided::Now(_)
        ));
        let tasks: Vec<_> = (0..100)
            .map(|_| {
                let (s, id) = (s.clone(), asked.id.clone());
                tokio::spawn(async move { s.consume(&id, "sha256:a").await })
            })
            .collect();
        let mut used = 0;
        for t in tasks {
            if t.await.expect("task").expect("consume") {
                used += 1;
            }
        }
        assert_eq!(used, 1);
    }

    /// The dispatcher over the store: 1,000 concurrent calls with one key run
    /// the tool once; every answer is that run's envelope or its replay.
    pub async fn dispatch_1000_concurrent_calls_one_effect(s: Arc<dyn Store>) {
        let registry = Registry::builder()
            .tool(send_once::contract())
            .build()
            .unwrap();
        let d = Arc::new(Dispatcher::new(registry).with_store(s.clone()));
        let caller = Arc::new(Caller::new());
        let key = unique("k");
        let args = json!({"request_key": key}).to_string();
        let tasks: Vec<_> = (0..1000)
            .map(|i| {
                let (d, caller) = (d.clone(), caller.clone());
                let call = ToolCall::new(format!("call_{i}"), "send_once", args.clone());
                tokio::spawn(async move { d.dispatch(&caller, &call).await })
            })
            .collect();
        let mut replays = 0;
        for (i, t) in tasks.into_iter().enumerate() {
            let env = t.await.expect("task");
            assert_eq!(env.status, Status::Ok, "{env:?}");
            assert_eq!(env.call_id, format!("call_{i}"));
            assert_eq!(env.result, json!({"sent": true}));
            if env.replayed {
                replays += 1;
            }
        }
        let runs = RUNS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|k| **k == key)
            .count();
        assert_eq!(runs, 1, "one effect");
        assert_eq!(replays, 999);
        // Every call is in the store's journal, the replays marked.
        let journal = s
            .query(&JournalQuery {
                tool: Some("send_once".into()),
                ..JournalQuery::default()
            })
            .await
            .unwrap();
        let mine: Vec<_> = journal
            .iter()
            .filter(|r| r.arguments["request_key"] == key.as_str())
            .collect();
        assert_eq!(mine.len(), 1000);
        assert_eq!(mine.iter().filter(|r| r.replayed).count(), 999);
    }

    /// `records` shows each record as stored, in doubt or not, with its
    /// envelope's status; `purge_journal` deletes only what started before.
    pub async fn records_list_every_state_and_the_journal_is_purged(s: Arc<dyn Store>) {
        let tool = unique("post_comment");
        let done = claim(&tool, "done", "sha256:a");
        let lease = run(&*s, &done).await;
        let ok = Envelope::failure("call_1", &tool, Status::Ok, true, vec![]);
        assert!(s.complete(&lease, &ok).await.unwrap());
        let live = claim(&tool, "live", "sha256:b");
        let _live = run(&*s, &live).await;
        let dead = Claim {
            lease: Duration::from_millis(100),
            ..claim(&tool, "dead", "sha256:c")
        };
        let _dead = run(&*s, &dead).await;
        sleep_ms(300).await;
        let records = s.records().await.unwrap();
        let mut mine: Vec<_> = records.iter().filter(|r| r.key.tool == tool).collect();
        // Claimed within a millisecond or so: ordered here by key.
        mine.sort_by(|a, b| a.key.key.cmp(&b.key.key));
        let shown: Vec<_> = mine
            .iter()
            .map(|r| (r.key.key.as_str(), r.state, r.in_doubt, r.status.as_deref()))
            .collect();
        assert_eq!(
            shown,
            [
                ("dead", RecordState::Running, true, None),
                ("done", RecordState::Done, false, Some("ok")),
                ("live", RecordState::Running, false, None),
            ]
        );
        assert!(mine.iter().all(|r| r.call_id == "call_1"));

        let base = 1_000_000_000_000_i64;
        let entry = |at: i64| JournalRecord {
            call_id: format!("c{at}"),
            tool: tool.clone(),
            event: "call".into(),
            caller: None,
            tenant: None,
            arguments: json!({}),
            status: "ok".into(),
            codes: vec![],
            retry_safe: true,
            replayed: false,
            started_ms: at,
            duration_us: 1,
        };
        s.append(&entry(base)).await.unwrap();
        s.append(&entry(base + 2000)).await.unwrap();
        assert_eq!(s.purge_journal(base + 1000).await.unwrap(), 1);
        let left = s
            .query(&JournalQuery {
                tool: Some(tool.clone()),
                ..JournalQuery::default()
            })
            .await
            .unwrap();
        assert_eq!(left, vec![entry(base + 2000)]);
    }

    pub async fn journal_is_queried_by_call_tool_and_time(s: Arc<dyn Store>) {
        let (a, b) = (unique("search_notes"), unique("post_comment"));
        let base = 1_700_000_000_000_i64;
        let record = |call: &str, tool: &str, at: i64| JournalRecord {
            call_id: format!("{call}-{a}"),
            tool: tool.into(),
            event: "call".into(),
            caller: Some("agent-1".into()),
            tenant: (at != base + 1000).then(|| format!("acme-{a}")),
            arguments: json!({"query": "kv", "token": "[redacted]"}),
            status: "failed".into(),
            codes: vec!["transient".into(), "timeout".into()],
            retry_safe: true,
            replayed: at == base + 2000,
            started_ms: at,
            duration_us: 1234,
        };
        let written = [
            record("c1", &a, base),
            record("c2", &b, base + 1000),
            record("c3", &a, base + 2000),
        ];
        for r in &written {
            s.append(r).await.unwrap();
        }
        let by_call = s
            .query(&JournalQuery {
                call_id: Some(written[1].call_id.clone()),
                ..JournalQuery::default()
            })
            .await
            .unwrap();
        assert_eq!(by_call, vec![written[1].clone()]);
        let by_tool = s
            .query(&JournalQuery {
                tool: Some(a.clone()),
                ..JournalQuery::default()
            })
            .await
            .unwrap();
        assert_eq!(by_tool, vec![written[0].clone(), written[2].clone()]);
        let window = s
            .query(&JournalQuery {
                since_ms: Some(base + 500),
                until_ms: Some(base + 2000),
                ..JournalQuery::default()
            })
            .await
            .unwrap();
        assert_eq!(window, vec![written[1].clone()]);
        let first = s
            .query(&JournalQuery {
                tool: Some(a.clone()),
                limit: Some(1),
                ..JournalQuery::default()
            })
            .await
            .unwrap();
        assert_eq!(first, vec![written[0].clone()]);
        let of_tenant = s
            .query(&JournalQuery {
                tenant: Some(format!("acme-{a}")),
                ..JournalQuery::default()
            })
            .await
            .unwrap();
        assert_eq!(of_tenant, vec![written[0].clone(), written[2].clone()]);
    }
}

// ---------------------------------------------------------------------------
// Beyond the shared suite

/// Two connections to one file, as two processes would have: one winner.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_connections_sharing_a_file_agree_on_one_winner() {
    let path = temp_file("shared");
    let stores: Vec<Arc<dyn Store>> = (0..2)
        .map(|_| Arc::new(SqliteStore::open(&path).expect("open")) as Arc<dyn Store>)
        .collect();
    let c = Claim {
        lease: Duration::from_secs(60),
        ..claim("post_comment", "hot", "sha256:a")
    };
    let tasks: Vec<_> = (0..400)
        .map(|i| {
            let (s, c) = (stores[i % 2].clone(), c.clone());
            tokio::spawn(async move { s.claim(&c).await })
        })
        .collect();
    let mut won = 0;
    for t in tasks {
        if let Claimed::Run(_) = t.await.unwrap().unwrap() {
            won += 1;
        }
    }
    assert_eq!(won, 1);
}

#[tokio::test]
async fn a_store_that_cannot_open_is_a_typed_error() {
    let missing = std::env::temp_dir()
        .join(unique("no-such-dir"))
        .join("state.sqlite");
    let e = SqliteStore::open(&missing)
        .err()
        .expect("no folder, no store");
    assert_eq!(e.kind, StoreErrorKind::Unavailable);
    assert!(e.message.contains("cannot open SQLite file"), "{e}");

    let e = store::open("redis:localhost")
        .await
        .err()
        .expect("not a store");
    assert_eq!(e.kind, StoreErrorKind::Config);
    assert_eq!(
        e.to_string(),
        "not a usable store: `redis:localhost` is not a store: use memory, \
         sqlite:PATH or postgres:URL"
    );
    for (spec, says) in [
        ("sqlite:", "`sqlite:` needs the path of its file"),
        ("postgres:not a url", "not a PostgreSQL URL"),
        ("MEMORY", "`MEMORY` is not a store"),
    ] {
        let e = store::open(spec).await.err().expect("not a store");
        assert_eq!(e.kind, StoreErrorKind::Config, "{spec}: {e}");
        assert!(e.to_string().contains(says), "{spec}: {e}");
    }
    assert_eq!(store::open("memory").await.unwrap().describe(), "memory");
}

#[tokio::test]
async fn an_unreachable_postgres_is_a_typed_error() {
    // Nothing listens on port 1 of the loopback address.
    let e = PostgresStore::connect("postgres://contract@127.0.0.1:1/postgres")
        .await
        .err()
        .expect("nothing listens there");
    assert_eq!(e.kind, StoreErrorKind::Unavailable);
    assert!(e.message.starts_with("cannot connect to PostgreSQL"), "{e}");
    // Why, not only that: the client's own text stopped at "error
    // connecting to server".
    assert!(e.message.contains("Connection refused"), "{e}");
}

/// A server that refuses the connection says why in its own words (the
/// client's text for any of them was only "db error").
#[tokio::test]
async fn a_postgres_that_refuses_the_connection_says_why() {
    let Some(url) = postgres_url() else {
        return;
    };
    let (server, _) = url.rsplit_once('/').expect("postgres://user@host:port/db");
    let missing = format!("{server}/no_such_database_here");
    let e = PostgresStore::connect(&missing)
        .await
        .err()
        .expect("no such database");
    assert!(
        e.message
            .contains("database \"no_such_database_here\" does not exist"),
        "{e}"
    );
}

#[tokio::test]
async fn open_reads_each_store_form() {
    let path = temp_file("open");
    let s = store::open(&format!("sqlite:{}", path.display()))
        .await
        .unwrap();
    assert_eq!(s.describe(), format!("sqlite:{}", path.display()));
    if let Some(url) = postgres_url() {
        // A password never reaches the description printed on stderr.
        let with_password = url.replacen("contract@", "contract:hunter2@", 1);
        let s = store::open(&format!("postgres:{with_password}"))
            .await
            .unwrap();
        assert!(s.describe().starts_with("postgres://contract@127.0.0.1:"));
        assert!(!s.describe().contains("hunter2"));
    }
}

/// A host that names tenants keeps their keys apart: the same key from two
/// tenants runs twice, once each; from one tenant, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_of_different_tenants_never_meet() {
    use contract_runtime::{Caller, Dispatcher, Registry, ToolCall};
    let registry = Registry::builder()
        .tool(send_once::contract())
        .build()
        .unwrap();
    let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
    let d = Dispatcher::new(registry).with_store(store.clone());
    let key = unique("k");
    let args = json!({"request_key": key}).to_string();
    let acme = Arc::new(Caller::new().tenant("acme"));
    let globex = Arc::new(Caller::new().tenant("globex"));
    let mut replayed = Vec::new();
    for (i, caller) in [&acme, &globex, &acme].into_iter().enumerate() {
        let call = ToolCall::new(format!("call_{i}"), "send_once", args.clone());
        let env = d.dispatch(caller, &call).await;
        assert_eq!(env.status, Status::Ok, "{env:?}");
        replayed.push(env.replayed);
    }
    assert_eq!(replayed, [false, false, true]);
    let runs = RUNS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .filter(|k| **k == key)
        .count();
    assert_eq!(runs, 2);
    // The journal names the tenant as the caller.
    let journal = store.query(&JournalQuery::default()).await.unwrap();
    let callers: Vec<_> = journal.iter().map(|r| r.caller.as_deref()).collect();
    assert_eq!(callers, [Some("acme"), Some("globex"), Some("acme")]);
}
