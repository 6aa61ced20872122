//! Helpers the macros expand to, so generated code stays small and the logic
//! lives (and is tested) here.

pub use crate::args::constraint::{Constraints, Format, Num, Pattern, Served};
pub use crate::args::example::{
    Example, ExampleBool, ExampleFloat, ExampleInt, ExampleList, ExampleNull, ExampleObject,
    ExampleStr,
};
pub use crate::args::rules::{
    apply_rules, check_compare, check_custom, check_presence, check_span, operands, Cmp, Operand,
    OrderWords, Ordered, Presence, Rule, RuleViolation, SpanUnit, Spanned,
};
pub use crate::args::seal::Sealed as ArgSealed;
pub use crate::args::tagged::{tagged_schema, tagged_variant, Branch, Tagging};
pub use crate::args::validate::{Ptr, Violations};
pub use crate::args::{object_schema, ArgValue, FastSeed, Key, Prop, ToolArgs};
pub use crate::context::{CallContext, StateNeed};
pub use crate::contract::{
    ApprovalRule, BoxFuture, Effect, Idempotency, RetryPolicy, TaskSupport, ToolContract, ToolSpec,
};
pub use crate::envelope::RepairCall;
pub use crate::failure::{Failure, FailureKind, ToolFailure, ToolOutput};
pub use crate::observe::REDACTED;
pub use crate::path::ConfinedPath;
/// Rule C9, evaluated by `#[tool_contract]` in a `const` assertion on the
/// user's name: the registry's own check, so the rule is written once.
pub use crate::schema::is_portable_name;
pub use crate::tool::Tool;
pub use serde;
pub use serde_json::{Map, Value};
pub use std::borrow::Cow;

use std::any::Any;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::args::validate::Violation;

/// The argument object, or a type violation.
pub fn expect_object<'v>(
    v: &'v Value,
    ptr: &Ptr<'_>,
    out: &mut Violations,
) -> Option<&'v Map<String, Value>> {
    match v {
        Value::Object(m) => Some(m),
        other => {
            out.wrong_type(ptr, "object", other);
            None
        }
    }
}

/// Reports every key not in `known` (`additionalProperties: false`).
pub fn unknown_keys(obj: &Map<String, Value>, known: &[&str], ptr: &Ptr<'_>, out: &mut Violations) {
    for k in obj.keys() {
        if !known.contains(&k.as_str()) {
            out.push_violation(Violation {
                pointer: ptr.key(k).render(),
                keyword: "additionalProperties",
                limit: Some(Value::Bool(false)),
                actual: None,
                message: "is not an argument of this tool".to_string(),
                hint: format!("remove it; the arguments are: {}", known.join(", ")),
                served: false,
            });
        }
    }
}

/// A closed set of strings: `{"type":"string","enum":[...]}`.
pub fn enum_schema(names: &[&str]) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("type".into(), Value::from("string"));
    m.insert("enum".into(), Value::from(names.to_vec()));
    m
}

/// The index of `v` in a closed set (slow path), or an `enum` violation.
pub fn enum_index(v: &Value, names: &[&str], ptr: &Ptr<'_>, out: &mut Violations) -> Option<usize> {
    let Value::String(s) = v else {
        out.wrong_type(ptr, "string", v);
        return None;
    };
    let i = names.iter().position(|n| n == s);
    if i.is_none() {
        out.push(
            ptr,
            "enum",
            Value::from(names.to_vec()),
            Some(v.clone()),
            format!("must be one of {}", names.join(", ")),
            format!("send one of: {}", names.join(", ")),
        );
    }
    i
}

/// The fast path's refusal; the slow path finds the precise reason.
pub fn fast_refuse<E: serde::de::Error>() -> E {
    E::custom("refused by the fast path")
}

/// Compile-time check that a failure type has a contract (rule C8).
pub const fn assert_failure<E: ToolFailure>() {}

/// Rule C12 at compile time: whether the values a doc comment lists agree
/// with the wire values of the argument's enum, compared case-insensitively
/// and in any order, as far as the set checks at the error level say:
/// `wider`, every listed value is declared; `narrower`, for a list whose
/// values are all declared, every declared value is listed or named in the
/// description `doc` as a word of its own ([`named_in`]). An empty
/// `declared` (a type that is not a closed set) agrees.
pub const fn prose_set_agrees(
    listed: &[&str],
    doc: &str,
    declared: &[&str],
    wider: bool,
    narrower: bool,
) -> bool {
    const fn contains(set: &[&str], v: &str) -> bool {
        let mut i = 0;
        while i < set.len() {
            if set[i].as_bytes().eq_ignore_ascii_case(v.as_bytes()) {
                return true;
            }
            i += 1;
        }
        false
    }
    const fn within(a: &[&str], b: &[&str], doc: Option<&str>) -> bool {
        let mut i = 0;
        while i < a.len() {
            let named = match doc {
                Some(doc) => named_in(doc, a[i]),
                None => false,
            };
            if !contains(b, a[i]) && !named {
                return false;
            }
            i += 1;
        }
        true
    }
    // (a list that names a value the enum lacks is `set-wider` only, as
    // the audit reads it: `narrower` asks of a list all of whose values
    // are declared)
    let names_other = !within(listed, declared, None);
    let lacks_one = !names_other && !within(declared, listed, Some(doc));
    declared.is_empty() || !((wider && names_other) || (narrower && lacks_one))
}

/// Whether `doc` names `v` as a word of its own, in any ASCII letter case:
/// not inside a longer word or identifier, nor joined to one by a hyphen or
/// a full stop ("re-use", "v1.2"). The audit's rule
/// (`contract_prose::named_elsewhere`), written to run in a constant so the
/// compile-time check and the audit read a description alike (a test holds
/// the two to the same answers).
pub const fn named_in(doc: &str, v: &str) -> bool {
    const fn word(c: u8) -> bool {
        c.is_ascii_alphanumeric() || c == b'_'
    }
    // whether the byte at `at` joins the value, `beyond` the byte past it
    const fn joins(b: &[u8], at: Option<usize>, beyond: Option<usize>) -> bool {
        match at {
            None => false,
            Some(k) => match b[k] {
                b'-' | b'.' => match beyond {
                    Some(j) => j < b.len() && word(b[j]),
                    None => false,
                },
                c => word(c),
            },
        }
    }
    let (hay, needle) = (doc.as_bytes(), v.as_bytes());
    if needle.is_empty() || needle.len() > hay.len() {
        return false;
    }
    let mut start = 0;
    while start + needle.len() <= hay.len() {
        let mut i = 0;
        while i < needle.len() && hay[start + i].eq_ignore_ascii_case(&needle[i]) {
            i += 1;
        }
        if i == needle.len() {
            let end = start + needle.len();
            let before = start.checked_sub(1);
            let after = if end < hay.len() { Some(end) } else { None };
            if !joins(hay, before, start.checked_sub(2)) && !joins(hay, after, Some(end + 1)) {
                return true;
            }
        }
        start += 1;
    }
    false
}

/// Compile-time check that a return type is a tool result.
pub const fn assert_output<O: ToolOutput>() {}

/// Runs a sync handler on the blocking pool, so it never holds the executor
/// thread other calls run on and its timeout can be enforced. The handler is
/// spawned when the future is first polled, as an `async` block would.
///
/// The handler is boxed before it is spawned, and the future is a plain
/// struct rather than an `async` state machine: tokio's task machinery and
/// the polling are compiled once for all sync tools, and what each tool adds
/// is the boxing closure and a downcast.
pub fn run_blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Blocking<T> {
    Blocking {
        job: BlockingJob::Waiting(Some(Box::new(move || Box::new(f()) as Box<dyn Any + Send>))),
        ty: PhantomData,
    }
}

/// The future of [`run_blocking`]: the handler's output, once it ran.
pub struct Blocking<T> {
    job: BlockingJob,
    ty: PhantomData<fn() -> T>,
}

impl<T: 'static> Future for Blocking<T> {
    type Output = T;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        let out = std::task::ready!(self.get_mut().job.poll(cx));
        match out.downcast::<T>() {
            Ok(v) => Poll::Ready(*v),
            // The box holds what `f` returned, so this cannot happen; it would
            // be caught as a panic of the call, like any other.
            Err(_) => unreachable!("a blocking job returns its own type"),
        }
    }
}

/// A sync handler's job, its output type erased.
type Job = Box<dyn FnOnce() -> Box<dyn Any + Send> + Send>;

/// A sync handler's job before and after it is spawned.
enum BlockingJob {
    Waiting(Option<Job>),
    Spawned(tokio::task::JoinHandle<Box<dyn Any + Send>>),
}

impl BlockingJob {
    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<Box<dyn Any + Send>> {
        if let BlockingJob::Waiting(job) = self {
            let Some(job) = job.take() else {
                unreachable!("a blocking job is spawned once")
            };
            *self = BlockingJob::Spawned(tokio::task::spawn_blocking(job));
        }
        let BlockingJob::Spawned(handle) = self else {
            unreachable!("the job was spawned above")
        };
        match std::task::ready!(Pin::new(handle).poll(cx)) {
            Ok(v) => Poll::Ready(v),
            // Re-raise the handler's panic here, where the dispatcher catches it.
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }
}

/// A `#[derive(ToolFailure)]` code, checked at compile time: a code only the
/// pipeline produces (`crate::codes::reserved_for_the_pipeline`) fails the
/// build at the variant that claims it.
pub const fn a_tool_code(code: &str) {
    if crate::codes::reserved_for_the_pipeline(code) {
        panic!(
            "this failure code is one the runtime's pipeline produces itself (see contract_runtime::codes::STANDARD_CODES); give the tool's failure a code of its own, such as `upstream-refused` (only `timeout` and `transient` are shared)"
        );
    }
}

/// The path of the field `name` under `at` as the audit names it: the
/// field alone at the root (`at` empty), else `at.name`.
pub fn nested_path(at: &str, name: &str) -> String {
    if at.is_empty() {
        name.to_owned()
    } else {
        format!("{at}.{name}")
    }
}
