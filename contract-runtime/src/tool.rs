//! A registered tool: a contract with its types erased, so that tools of
//! different argument and output types sit in one registry, and its
//! canonical definition.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};

use serde_json::{json, Value};

use crate::args::{ArgValue, ToolArgs};
use crate::call::ToolCall;
use crate::constraint::Constraints;
use crate::context::Caller;
use crate::contract::{ApprovalRule, Idempotency, ToolContract, ToolSpec};
use crate::failure::ToolOutput;
use crate::pipeline::{run_pipeline, Answer, Parts};

/// The object-safe face of a tool, implemented once for every contract.
pub(crate) trait ErasedTool: Send + Sync {
    fn spec(&self) -> &'static ToolSpec;
    fn input_schema(&self) -> Value;
    fn rules(&self) -> &'static [crate::arg_rules::Rule];
    fn output_schema(&self) -> Option<Value>;
    fn redact(&self, args: &mut Value);
    fn has_secrets(&self) -> bool;
    fn dispatch<'a>(
        &'a self,
        parts: &'a Parts,
        caller: &'a Arc<Caller>,
        call: &'a ToolCall,
    ) -> Pin<Box<dyn Future<Output = Answer> + Send + 'a>>;
}

struct Typed<C> {
    /// The contract's revision, computed on the first keyed call.
    revision: OnceLock<String>,
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
    fn rules(&self) -> &'static [crate::arg_rules::Rule] {
        C::Args::rules()
    }
    fn redact(&self, args: &mut Value) {
        C::Args::redact(args, &Constraints::NONE);
    }
    fn has_secrets(&self) -> bool {
        C::Args::has_secrets(&Constraints::NONE)
    }
    fn dispatch<'a>(
        &'a self,
        parts: &'a Parts,
        caller: &'a Arc<Caller>,
        call: &'a ToolCall,
    ) -> Pin<Box<dyn Future<Output = Answer> + Send + 'a>> {
        Box::pin(run_pipeline::<C>(parts, caller, call, &self.revision))
    }
}

/// A registered tool: its contract, type-erased.
#[derive(Clone)]
pub struct Tool {
    pub(crate) inner: Arc<dyn ErasedTool>,
}

impl Tool {
    /// The tool for contract `C` (what `name::contract()` returns).
    pub fn of<C: ToolContract>() -> Tool {
        Tool {
            inner: Arc::new(Typed::<C> {
                revision: OnceLock::new(),
                ty: PhantomData,
            }),
        }
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
            def["rules"] = rules.iter().map(crate::arg_rules::Rule::to_json).collect();
        }
        def
    }
}

impl std::fmt::Debug for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tool").field("name", &self.name()).finish()
    }
}
