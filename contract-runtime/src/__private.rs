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
/// `declared` (a type that is not a closed set) agrees. The answer is the
/// first value at fault, with `true` when the list names it and the enum
/// lacks it, `false` when the enum publishes it and the description names
/// it nowhere; `None` when they agree.
pub const fn prose_set_fault(
    listed: &[&'static str],
    doc: &str,
    declared: &[&'static str],
    wider: bool,
    narrower: bool,
) -> Option<(&'static str, bool)> {
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
    // the first value of `a` that `b` lacks and `doc` (when given) names nowhere
    const fn outside(a: &[&'static str], b: &[&str], doc: Option<&str>) -> Option<&'static str> {
        let mut i = 0;
        while i < a.len() {
            let named = match doc {
                Some(doc) => named_in(doc, a[i]),
                None => false,
            };
            if !contains(b, a[i]) && !named {
                return Some(a[i]);
            }
            i += 1;
        }
        None
    }
    if declared.is_empty() {
        return None;
    }
    // (a list that names a value the enum lacks is `set-wider` only, as
    // the audit reads it: `narrower` asks of a list all of whose values
    // are declared)
    match outside(listed, declared, None) {
        Some(v) if wider => Some((v, true)),
        Some(_) => None,
        None if narrower => match outside(declared, listed, Some(doc)) {
            Some(v) => Some((v, false)),
            None => None,
        },
        None => None,
    }
}

/// The C12 compile error of an enum argument whose description lists other
/// values than its enum publishes ([`prose_set_fault`]): the macro's `head`
/// (the argument and the words read), then the value at fault and the
/// enum's values, which only the constant sees. Written into a buffer in
/// the constant, since a constant's panic takes one `&str`; a part that
/// does not fit is left out whole, so the text stays UTF-8.
pub struct SetMessage {
    buf: [u8; 2048],
    len: usize,
}

impl SetMessage {
    pub const fn new(head: &str, declared: &[&str], fault: (&str, bool)) -> Self {
        let (value, listed) = fault;
        let mut m = SetMessage {
            buf: [0; 2048],
            len: 0,
        };
        m = m.push(head);
        m = m.push(if listed {
            "publishes no `"
        } else {
            "also publishes `"
        });
        m = m.push(value);
        m = m.push(if listed {
            "` (its values: "
        } else {
            "`, which the description names nowhere (its values: "
        });
        let mut i = 0;
        while i < declared.len() {
            if i > 0 {
                m = m.push(", ");
            }
            m = m.push(declared[i]);
            i += 1;
        }
        m.push(
            "); the enum is what the schema publishes and the runtime enforces: \
             change the prose to list the enum's values, or the enum's variants to the listed ones",
        )
    }

    const fn push(mut self, s: &str) -> Self {
        let b = s.as_bytes();
        if self.len + b.len() <= self.buf.len() {
            let mut i = 0;
            while i < b.len() {
                self.buf[self.len + i] = b[i];
                i += 1;
            }
            self.len += b.len();
        }
        self
    }

    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "C12: the description lists other values than the enum publishes",
        }
    }
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

#[cfg(test)]
mod tests {
    use super::{prose_set_fault, SetMessage};

    // The set check as the constant runs it, with the message it panics
    // with: the value at fault and the enum's values, which only it sees.
    const ENUM: &[&str] = &["json", "csv", "xml"];

    #[test]
    fn the_set_message_names_the_value_at_fault_and_the_enums_values() {
        let doc = "One of `json`, `csv` or `yaml`.";
        let head = "C12: the description of `format` lists json, csv, yaml (read from: one of `json`, `csv` or `yaml`) but its enum type ";
        // wider: a listed value the enum lacks
        let fault = prose_set_fault(&["json", "csv", "yaml"], doc, ENUM, true, true);
        assert_eq!(fault, Some(("yaml", true)));
        assert_eq!(
            SetMessage::new(head, ENUM, fault.unwrap()).as_str(),
            "C12: the description of `format` lists json, csv, yaml (read from: one of `json`, `csv` or `yaml`) but its enum type publishes no `yaml` (its values: json, csv, xml); the enum is what the schema publishes and the runtime enforces: change the prose to list the enum's values, or the enum's variants to the listed ones"
        );
        // at the audit level, no fault
        assert_eq!(
            prose_set_fault(&["json", "csv", "yaml"], doc, ENUM, false, true),
            None
        );
        // narrower: a variant named nowhere; named elsewhere in the doc, it agrees
        let fault = prose_set_fault(&["json", "CSV"], "Either json or CSV.", ENUM, true, true);
        assert_eq!(fault, Some(("xml", false)));
        let doc = "Either json or CSV (xml is kept for old clients).";
        assert_eq!(
            prose_set_fault(&["json", "CSV"], doc, ENUM, true, true),
            None
        );
        // a type that is not a closed set agrees
        assert_eq!(prose_set_fault(&["a"], "a", &[], true, true), None);
        // a part that does not fit is left out whole: still UTF-8
        let long = "é".repeat(1100);
        let text = SetMessage::new(&long, ENUM, ("xml", false));
        assert!(
            text.as_str().starts_with("also publishes `xml`"),
            "{}",
            text.as_str()
        );
    }
}
