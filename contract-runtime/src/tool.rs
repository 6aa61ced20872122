//! A registered tool: a contract with its types erased, so that tools of
//! different argument and output types sit in one registry and walk one
//! pipeline, and its canonical definition.
//!
//! # How a tool is erased
//!
//! The pipeline (`pipeline/`) is written once, for every tool: it is not
//! generic. What differs between tools reaches it through two small trait
//! objects, each method a plain function instantiated once per tool:
//!
//! - `ErasedTool`, one per tool: its declarations and schemas, redaction,
//!   and decoding argument text (or a parsed tree, for a retry) into
//! - `Decoded`, one per call: the typed arguments in a box, asked for what
//!   the stages need of them (confined paths, the tool's precheck, the
//!   approval predicate, the request key) and finally run: the handler is
//!   called with them and its output turned into an [`Outcome`].
//!
//! So a tool adds to the build the code that is its own (argument decoding,
//! schemas, its handler) and a handful of small functions, never another copy
//! of the pipeline.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use serde_json::{json, Value};

use crate::args::constraint::Constraints;
use crate::args::decode::{decode_keeping_tree, decode_tree, DecodeError, Limits};
use crate::args::validate::Ptr;
use crate::args::{ArgValue, ToolArgs};
use crate::context::CallContext;
use crate::contract::{ApprovalRule, BoxFuture, Idempotency, ToolContract, ToolSpec};
use crate::failure::{Failure, Outcome, ToolOutput};
use crate::observe::Secrets;
use crate::path::ConfinedPath;

/// The arguments `original` with the tool's secret values replaced, the
/// values it replaced added to `secrets`. The one redaction routine: logs,
/// journals and approval requests all show arguments through it.
pub(crate) fn redacted(tool: &dyn ErasedTool, original: &Value, secrets: &mut Secrets) -> Value {
    let mut v = original.clone();
    tool.redact(&mut v);
    secrets.collect_redacted(original, &v);
    v
}

/// The object-safe face of a tool, implemented once for every contract.
pub(crate) trait ErasedTool: Send + Sync {
    fn spec(&self) -> &'static ToolSpec;
    fn input_schema(&self) -> Value;
    fn rules(&self) -> &'static [crate::args::rules::Rule];
    fn prose_acknowledged(&self) -> &'static [(&'static str, &'static str)];
    #[cfg(feature = "audit")]
    fn acknowledged_within(&self) -> Vec<(String, &'static str)>;
    fn output_schema(&self) -> Option<Value>;
    fn redact(&self, args: &mut Value);
    fn has_secrets(&self) -> bool;
    /// The contract's revision, computed on the first keyed call.
    fn revision(&self) -> &OnceLock<String>;
    /// The output schema, derived once, on the first result that needs it.
    fn checked_output_schema(&self) -> Option<&Value>;
    /// Decodes and validates argument text; `tree` receives the parsed tree
    /// when the slow path built one.
    fn decode(
        &self,
        raw: &str,
        limits: &Limits,
        tree: &mut Option<Value>,
    ) -> Result<Decoded, DecodeError>;
    /// Decodes arguments again from their tree (a retry: argument types need
    /// not be `Clone`). `None` if they no longer decode.
    fn decode_tree(&self, tree: &Value) -> Option<Decoded>;
}

/// One call's decoded arguments, their type erased.
pub(crate) type Decoded = Box<dyn DecodedArgs>;

/// What the stages ask of a call's typed arguments.
pub(crate) trait DecodedArgs: Send {
    /// Calls `f` for every confined path inside the arguments.
    fn visit_paths<'a>(&'a self, f: &mut dyn FnMut(&Ptr<'_>, &'a ConfinedPath, &'static str));
    /// For `approval = when(pred)`: `Some(reason)` when a person must approve.
    fn approval_reason(&self, ctx: &CallContext) -> Option<String>;
    /// For `precheck = fn`: `Some(failure)` when the tool's own check
    /// refuses the call.
    fn precheck(&self, ctx: &CallContext) -> Option<Failure>;
    /// For `idempotency = key(field)`: the key this call carries.
    fn idempotency_key(&self) -> Option<&str>;
    /// Calls the handler with the arguments (moved out: a second call finds
    /// none and answers `None`).
    fn start(&mut self, ctx: CallContext) -> bool;
    /// Polls the handler's future; its output becomes an outcome here,
    /// inside the caller's panic capture (serializing runs the author's code).
    fn poll_outcome(&mut self, cx: &mut Context<'_>) -> Poll<Outcome>;
}

/// A running call: polls a started [`DecodedArgs`] to its outcome.
pub(crate) struct Running(pub(crate) Decoded);

impl Future for Running {
    type Output = Outcome;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Outcome> {
        self.0.poll_outcome(cx)
    }
}

struct Typed<C> {
    /// The contract's revision, computed on the first keyed call.
    revision: OnceLock<String>,
    /// The output schema, for the output check.
    output: OnceLock<Option<Value>>,
    ty: PhantomData<fn() -> C>,
}

impl<C: ToolContract> ErasedTool for Typed<C> {
    fn spec(&self) -> &'static ToolSpec {
        &C::SPEC
    }
    fn input_schema(&self) -> Value {
        C::Args::input_schema()
    }
    fn output_schema(&self) -> Option<Value> {
        C::Output::output_schema()
    }
    fn rules(&self) -> &'static [crate::args::rules::Rule] {
        C::Args::rules()
    }
    fn prose_acknowledged(&self) -> &'static [(&'static str, &'static str)] {
        C::Args::prose_acknowledged()
    }
    #[cfg(feature = "audit")]
    fn acknowledged_within(&self) -> Vec<(String, &'static str)> {
        let mut out = Vec::new();
        <C::Args as crate::args::ArgValue>::acknowledged_within("", &mut out);
        out
    }
    fn redact(&self, args: &mut Value) {
        C::Args::redact(args, &Constraints::NONE);
    }
    fn has_secrets(&self) -> bool {
        C::Args::has_secrets(&Constraints::NONE)
    }
    fn revision(&self) -> &OnceLock<String> {
        &self.revision
    }
    fn checked_output_schema(&self) -> Option<&Value> {
        self.output.get_or_init(C::Output::output_schema).as_ref()
    }
    fn decode(
        &self,
        raw: &str,
        limits: &Limits,
        tree: &mut Option<Value>,
    ) -> Result<Decoded, DecodeError> {
        let args = decode_keeping_tree::<C::Args>(raw, limits, tree)?;
        Ok(Box::new(Args::<C>::Ready(args)))
    }
    fn decode_tree(&self, tree: &Value) -> Option<Decoded> {
        let args = decode_tree::<C::Args>(tree).ok()?;
        Some(Box::new(Args::<C>::Ready(args)))
    }
}

/// The typed arguments of one call of `C`, then its handler's future.
enum Args<C: ToolContract> {
    Ready(C::Args),
    Running(BoxFuture<C::Output>),
    Done,
}

impl<C: ToolContract> DecodedArgs for Args<C> {
    fn visit_paths<'a>(&'a self, f: &mut dyn FnMut(&Ptr<'_>, &'a ConfinedPath, &'static str)) {
        if let Args::Ready(args) = self {
            args.visit_paths(&Constraints::NONE, &Ptr::ROOT, f);
        }
    }
    fn approval_reason(&self, ctx: &CallContext) -> Option<String> {
        match self {
            Args::Ready(args) => C::approval_reason(ctx, args),
            _ => None,
        }
    }
    fn precheck(&self, ctx: &CallContext) -> Option<Failure> {
        match self {
            Args::Ready(args) => C::precheck(ctx, args),
            _ => None,
        }
    }
    fn idempotency_key(&self) -> Option<&str> {
        match self {
            Args::Ready(args) => C::idempotency_key(args),
            _ => None,
        }
    }
    fn start(&mut self, ctx: CallContext) -> bool {
        match std::mem::replace(self, Args::Done) {
            Args::Ready(args) => {
                *self = Args::Running(C::call(ctx, args));
                true
            }
            _ => false,
        }
    }
    fn poll_outcome(&mut self, cx: &mut Context<'_>) -> Poll<Outcome> {
        let Args::Running(fut) = self else {
            return Poll::Ready(Outcome::OutputBroken(
                "the handler was polled before it started".to_string(),
            ));
        };
        let out = std::task::ready!(fut.as_mut().poll(cx));
        *self = Args::Done;
        Poll::Ready(out.into_outcome())
    }
}

/// A registered tool: its contract, type-erased.
#[derive(Clone)]
pub struct Tool {
    pub(crate) inner: Arc<dyn ErasedTool>,
    /// Examples of arguments, checked at registry build: first those the
    /// contract declares (`examples(...)`), then those added with
    /// [`Tool::example`].
    examples: Vec<Value>,
    /// How many of `examples` the contract declares.
    declared: usize,
    /// Loaded on demand where the provider has tool search ([`Tool::deferred`]).
    deferred: bool,
}

impl Tool {
    /// The tool for contract `C` (what `name::contract()` returns).
    pub fn of<C: ToolContract>() -> Tool {
        Tool {
            inner: Arc::new(Typed::<C> {
                revision: OnceLock::new(),
                output: OnceLock::new(),
                ty: PhantomData,
            }),
            examples: C::EXAMPLES.iter().map(|text| parse_example(text)).collect(),
            declared: C::EXAMPLES.len(),
            deferred: false,
        }
    }

    /// Adds an example of the tool's arguments, as a model should write them,
    /// after those the contract declares (`examples(...)`, which the
    /// compiler checks too). Providers that take examples show them to the
    /// model (Anthropic's `input_examples`); the others get them in the
    /// description, and report it as a loss. Building the registry
    /// decodes each example as a call would be, so an example the runtime
    /// would refuse (a broken constraint, a missing field, a rule across
    /// arguments) is a [`RegistryError::BadExample`](crate::RegistryError::BadExample)
    /// and never teaches a model a call that fails.
    ///
    /// ```
    /// # use contract_runtime::{Registry, RegistryError, Tool};
    /// # use contract_runtime::prelude::*;
    /// /// Search the notes.
    /// #[tool_contract(effect = read_only)]
    /// fn search(
    ///     /// What to look for.
    ///     #[arg(length(min = 1, max = 200))]
    ///     query: String,
    /// ) -> Result<Vec<String>, std::convert::Infallible> {
    ///     Ok(vec![query])
    /// }
    ///
    /// let ok = Registry::builder()
    ///     .tool(search::contract().example(serde_json::json!({"query": "kv cache"})))
    ///     .build()?;
    /// assert_eq!(ok.canonical()[0]["input_examples"][0]["query"], "kv cache");
    /// let err = Registry::builder()
    ///     .tool(search::contract().example(serde_json::json!({"query": ""})))
    ///     .build()
    ///     .unwrap_err();
    /// assert!(matches!(err, RegistryError::BadExample { index: 0, .. }), "{err}");
    /// # Ok::<(), RegistryError>(())
    /// ```
    pub fn example(mut self, arguments: Value) -> Tool {
        self.examples.push(arguments);
        self
    }

    /// Marks the tool as loaded on demand: exported with
    /// [`Defer::Marked`](crate::dialect::Defer::Marked), it is deferred where
    /// the provider has tool search. Its canonical definition says
    /// `"defer_loading": true`.
    pub fn deferred(mut self) -> Tool {
        self.deferred = true;
        self
    }

    /// The examples of arguments, in the order they were added.
    pub fn examples(&self) -> &[Value] {
        &self.examples
    }

    /// The declarations.
    pub fn spec(&self) -> &'static ToolSpec {
        self.inner.spec()
    }

    /// The tool's name.
    pub fn name(&self) -> &'static str {
        self.spec().name
    }

    /// The canonical input schema.
    pub fn input_schema(&self) -> Value {
        self.inner.input_schema()
    }

    /// The arguments whose prose the author acknowledged, with the reasons
    /// (`#[arg(prose = "why")]`).
    pub fn prose_acknowledged(&self) -> &'static [(&'static str, &'static str)] {
        self.inner.prose_acknowledged()
    }

    /// The same, with the fields of nested argument structs by their path
    /// (`dimensions.width_cm`, as the audit names them).
    #[cfg(feature = "audit")]
    pub(crate) fn acknowledged_within(&self) -> Vec<(String, &'static str)> {
        self.inner.acknowledged_within()
    }

    /// The output schema, when the output type states one.
    pub fn output_schema(&self) -> Option<Value> {
        self.inner.output_schema()
    }

    /// The canonical definition: `name`, `description`, `input_schema`,
    /// `output_schema`, `effect`, `idempotency`, `authority`, `approval`,
    /// `effects` (every effect, strictest first) when there are several,
    /// `title` when declared, and `rules` (the rules across arguments) when
    /// it has any;
    /// what `toolbox schemas` prints and what every dialect export starts from.
    ///
    /// `idempotency` and `approval` are written as in the attribute:
    /// `"natural"`, `"none"`, `"key(request_key)"`; `"always"`, `"never"`,
    /// `"when(outside_task_scope)"`.
    pub fn canonical(&self) -> Value {
        let spec = self.spec();
        let idempotency = match spec.idempotency {
            Idempotency::Natural => json!("natural"),
            Idempotency::None => json!("none"),
            Idempotency::Key(field) => json!(format!("key({field})")),
        };
        let approval = match spec.approval {
            ApprovalRule::Always => json!("always"),
            ApprovalRule::Never => json!("never"),
            ApprovalRule::When(rule) => json!(format!("when({rule})")),
        };
        let mut def = json!({
            "name": spec.name,
            "description": spec.description,
            "input_schema": null,
            "output_schema": null,
            "effect": spec.effect.as_str(),
            "idempotency": idempotency,
            "authority": spec.authority,
            "approval": approval,
        });
        // Put in place after `json!`, which would copy them.
        def["input_schema"] = self.input_schema();
        def["output_schema"] = self.output_schema().unwrap_or(Value::Null);
        if spec.effects.len() > 1 {
            def["effects"] = spec.effects.iter().map(|e| e.as_str()).collect();
        }
        if let Some(title) = spec.title {
            def["title"] = json!(title);
        }
        let rules = self.inner.rules();
        if !rules.is_empty() {
            def["rules"] = rules
                .iter()
                .map(crate::args::rules::Rule::to_json)
                .collect();
        }
        if !self.examples.is_empty() {
            def["input_examples"] = Value::Array(self.examples.clone());
        }
        if self.deferred {
            def["defer_loading"] = Value::Bool(true);
        }
        def
    }

    /// Decodes every example as a call's arguments would be: the first the
    /// runtime would refuse, and why.
    pub(crate) fn check_examples(&self) -> Result<(), BadExample> {
        let limits = crate::decode::Limits::default();
        for (i, example) in self.examples.iter().enumerate() {
            let text = example.to_string();
            let refused = |reason: String| BadExample {
                index: i,
                declared: i < self.declared,
                text: text.clone(),
                reason,
            };
            if !example.is_object() {
                return Err(refused(
                    "an example of arguments must be a JSON object".to_owned(),
                ));
            }
            if let Err(e) = self.inner.decode(&text, &limits, &mut None) {
                let reasons: Vec<String> = e
                    .into_errors()
                    .into_iter()
                    // Most messages name the field already (`/query` must ...).
                    .map(|entry| match entry.field {
                        Some(field) if !entry.message.contains(&format!("`{field}`")) => {
                            format!("{field}: {}", entry.message)
                        }
                        _ => entry.message,
                    })
                    .collect();
                return Err(refused(reasons.join("; ")));
            }
        }
        Ok(())
    }
}

/// An example the runtime would refuse ([`Tool::check_examples`]).
pub(crate) struct BadExample {
    pub(crate) index: usize,
    /// Declared in the contract, rather than added with [`Tool::example`].
    pub(crate) declared: bool,
    /// The example, as JSON text.
    pub(crate) text: String,
    pub(crate) reason: String,
}

/// An example the contract declares, from the JSON text the macro wrote.
/// The macro writes valid JSON; were it ever not, the text is kept as a
/// string, which the registry then refuses as an example that is not an
/// object, naming it.
fn parse_example(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

impl std::fmt::Debug for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name())
            .field("examples", &self.examples.len())
            .field("deferred", &self.deferred)
            .finish()
    }
}
