//! Checks before asking (`#[tool_contract(precheck = fn)]`): a refund larger
//! than what the payment has left is refused with the tool's typed failure
//! before any person is asked. No approval request is made (the store's list
//! stays empty), nothing runs, the claimed request key is given back; a
//! refund the check passes goes on to the approval stage as before. On the
//! memory store and on a real SQLite file.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use contract_runtime::prelude::*;
use contract_runtime::store::{self, ApprovalFilter, Store};
use serde::Serialize;
use serde_json::{json, Value};

/// The host's billing: what each payment has left to refund, and how many
/// refunds ran.
pub struct Billing {
    left: Arc<Mutex<HashMap<String, u64>>>,
    refunds_run: Arc<AtomicUsize>,
}

#[derive(Serialize, JsonSchema)]
pub struct Refunded {
    refunded_cents: u64,
}

#[derive(Debug, ToolFailure)]
pub enum RefundError {
    #[failure(
        code = "exceeds-payment",
        field = "/amount_cents",
        repair = "refund at most what the payment has left"
    )]
    ExceedsPayment { left: u64 },
    #[failure(code = "no-such-payment", field = "/payment", denied)]
    NoSuchPayment,
}

/// Refund part or all of a payment.
#[tool_contract(
    effect = external,
    idempotency = key(request_key),
    approval = always,
    state(Billing),
    precheck = refundable
)]
pub fn refund(
    /// The payment to refund.
    #[arg(length(min = 1, max = 64))]
    payment: String,
    /// How much to refund, in cents.
    #[arg(range(min = 1))]
    amount_cents: u64,
    /// A fresh UUID per refund; a resend with the same key runs once.
    #[arg(format = "uuid")]
    request_key: String,
    billing: &Billing,
) -> Result<Refunded, RefundError> {
    let _ = request_key; // the runtime keeps the key's record
    billing.refunds_run.fetch_add(1, Ordering::SeqCst);
    let mut left = billing.left.lock().unwrap();
    let have = left.get_mut(&payment).ok_or(RefundError::NoSuchPayment)?;
    *have = have
        .checked_sub(amount_cents)
        .ok_or(RefundError::ExceedsPayment { left: *have })?;
    Ok(Refunded {
        refunded_cents: amount_cents,
    })
}

/// The tool's own check: the payment exists and has the amount left.
fn refundable(_: &CallContext, args: &RefundArgs, billing: &Billing) -> Result<(), RefundError> {
    match billing.left.lock().unwrap().get(&args.payment) {
        None => Err(RefundError::NoSuchPayment),
        Some(&left) if args.amount_cents > left => Err(RefundError::ExceedsPayment { left }),
        Some(_) => Ok(()),
    }
}

struct Session {
    d: Dispatcher,
    store: Arc<dyn Store>,
    caller: Arc<Caller>,
    rt: tokio::runtime::Runtime,
    /// How many times the handler ran.
    runs: Arc<AtomicUsize>,
}

fn session(spec: &str) -> Session {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let store = rt.block_on(store::open(spec)).expect("open the store");
    let billing = Billing {
        left: Arc::new(Mutex::new(HashMap::from([("pay_1".to_string(), 5_000)]))),
        refunds_run: Arc::new(AtomicUsize::new(0)),
    };
    let runs = billing.refunds_run.clone();
    let registry = Registry::builder()
        .state(billing)
        .tool(refund::contract())
        .build()
        .expect("the registry builds");
    Session {
        d: Dispatcher::new(registry).with_store(store.clone()),
        store,
        caller: Arc::new(Caller::new().tenant("shop")),
        rt,
        runs,
    }
}

impl Session {
    fn call(&self, args: Value) -> Envelope {
        let call = ToolCall::new("call_1", "refund", args.to_string());
        self.rt.block_on(self.d.dispatch(&self.caller, &call))
    }

    fn requests(&self) -> usize {
        self.rt
            .block_on(self.store.approvals(&ApprovalFilter::default()))
            .expect("the store lists requests")
            .len()
    }
}

fn each_store(name: &str, f: impl Fn(Session)) {
    f(session("memory"));
    let dir = std::env::temp_dir().join(format!("contract-precheck-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("state.sqlite");
    let _ = std::fs::remove_file(&file);
    f(session(&format!("sqlite:{}", file.display())));
    let _ = std::fs::remove_dir_all(&dir);
}

const KEY: &str = "5f0c2a52-8d0e-4f57-9a51-0e6a4a2f1c11";

#[test]
fn a_refund_larger_than_the_payment_is_refused_before_anyone_is_asked() {
    each_store("larger", |s| {
        let env = s.call(json!({"payment": "pay_1", "amount_cents": 9_000, "request_key": KEY}));
        assert_eq!(env.status, Status::Failed, "{}", env.to_json_string());
        assert_eq!(env.codes(), vec!["exceeds-payment"]);
        let e = &env.errors[0];
        assert_eq!(e.field.as_deref(), Some("/amount_cents"));
        assert_eq!(
            e.repair.as_ref().map(|r| r.hint.as_str()),
            Some("refund at most what the payment has left")
        );
        assert!(env.retry_safe, "nothing ran: {}", env.to_json_string());
        assert!(env.approval.is_none(), "no person is asked");
        assert_eq!(s.requests(), 0, "no approval request is made");
        assert_eq!(s.runs.load(Ordering::SeqCst), 0, "nothing ran");

        // The key was given back: the same key with an amount the payment
        // has goes on to the approval stage, not `idempotency-key-reused`.
        let env = s.call(json!({"payment": "pay_1", "amount_cents": 2_000, "request_key": KEY}));
        assert_eq!(
            env.status,
            Status::NeedsApproval,
            "{}",
            env.to_json_string()
        );
        assert_eq!(
            s.requests(),
            1,
            "the refund the check passes is asked about"
        );
        assert_eq!(s.runs.load(Ordering::SeqCst), 0);
    });
}

#[test]
fn a_denied_failure_of_the_check_is_denied() {
    each_store("denied", |s| {
        let env = s.call(json!({"payment": "pay_9", "amount_cents": 1, "request_key": KEY}));
        assert_eq!(env.status, Status::Denied, "{}", env.to_json_string());
        assert_eq!(env.codes(), vec!["no-such-payment"]);
        assert_eq!(env.errors[0].field.as_deref(), Some("/payment"));
        assert_eq!(s.requests(), 0);
        assert_eq!(s.runs.load(Ordering::SeqCst), 0);
    });
}

#[test]
fn a_keyed_refund_re_sent_after_it_ran_is_replayed_not_checked_again() {
    each_store("replayed", |s| {
        let args = json!({"payment": "pay_1", "amount_cents": 4_000, "request_key": KEY});
        let env = s.call(args.clone());
        assert_eq!(
            env.status,
            Status::NeedsApproval,
            "{}",
            env.to_json_string()
        );
        let id = env
            .approval
            .as_ref()
            .and_then(|a| a.id.clone())
            .expect("a request");
        s.rt.block_on(s.d.approvals().grant(&id, "lead", Some("refund agreed")))
            .expect("grant the request");
        let env = s.call(args.clone());
        assert_eq!(env.status, Status::Ok, "{}", env.to_json_string());
        assert_eq!(s.runs.load(Ordering::SeqCst), 1);
        // The payment has 1 000 left now: checked again, this call would be
        // refused; its key's record answers it instead.
        let env = s.call(args);
        assert_eq!(env.status, Status::Ok, "{}", env.to_json_string());
        assert!(env.replayed, "{}", env.to_json_string());
        assert_eq!(s.runs.load(Ordering::SeqCst), 1, "ran once");
    });
}
