//! The registry: the allowlist of tools a dispatcher will run, with unique names.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::context::HostState;
use crate::tool::Tool;

/// Why a registry could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryError {
    /// Two tools share a name.
    DuplicateName(String),
    /// A name breaks the rule every provider accepts.
    BadName(String),
    /// A name a provider's dialect rejects (see `Registry::check_names` in
    /// [`crate::dialect`]).
    DialectName {
        /// The dialect's id (`openai-responses`, `gemini`, ...).
        dialect: &'static str,
        /// Why, stating the dialect's rule.
        reason: String,
    },
    /// A declared pattern does not compile.
    BadPattern {
        /// The tool.
        tool: String,
        /// The pattern.
        pattern: String,
        /// The regex error.
        error: String,
    },
    /// An example of a tool's arguments (declared with `examples(...)`, or
    /// added with [`Tool::example`](crate::Tool::example)) that the runtime
    /// would refuse.
    BadExample {
        /// The tool.
        tool: String,
        /// The example's position among the tool's examples (from 0; those
        /// the contract declares come first).
        index: usize,
        /// Whether the contract declares it (`examples(...)`), rather than
        /// [`Tool::example`](crate::Tool::example) adding it.
        declared: bool,
        /// The example, as JSON text.
        example: String,
        /// Why a call with those arguments would be refused.
        reason: String,
    },
    /// A tool takes host state (`state(...)`) the registry was not given.
    MissingState {
        /// The tool.
        tool: String,
        /// The state's type, as the tool declares it.
        ty: String,
    },
}

impl std::fmt::Display for RegistryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegistryError::DuplicateName(n) => {
                write!(f, "two tools are named `{n}`; tool names must be unique")
            }
            RegistryError::BadName(n) => write!(
                f,
                "tool name `{n}` must match ^[a-zA-Z_][a-zA-Z0-9_-]{{0,63}}$"
            ),
            RegistryError::DialectName { reason, .. } => f.write_str(reason),
            RegistryError::BadPattern {
                tool,
                pattern,
                error,
            } => {
                write!(f, "tool `{tool}` declares the pattern {pattern:?}, which does not compile: {error}")
            }
            RegistryError::BadExample {
                tool,
                index,
                declared,
                example,
                reason,
            } => {
                let whence = if *declared {
                    "declared in `examples(...)`"
                } else {
                    "added with `Tool::example`"
                };
                write!(
                    f,
                    "tool `{tool}`: example {index} ({whence}) would be refused, so it would teach a model a call that fails: {reason}\nthe example: {example}"
                )
            }
            RegistryError::MissingState { tool, ty } => write!(
                f,
                "tool `{tool}` takes host state `{ty}`, which the registry was not given; add it with `Registry::builder().state(...)`"
            ),
        }
    }
}

impl std::error::Error for RegistryError {}

/// The tools a dispatcher may run.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    tools: BTreeMap<&'static str, Tool>,
    order: Vec<&'static str>,
    host: HostState,
}

impl Registry {
    /// A registry builder.
    pub fn builder() -> RegistryBuilder {
        RegistryBuilder {
            tools: Vec::new(),
            host: HostState::default(),
        }
    }

    /// The tool named `name`.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools.get(name)
    }

    /// Tool names in registration order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.order.iter().copied()
    }

    /// Tools in registration order.
    pub fn tools(&self) -> impl Iterator<Item = &Tool> + '_ {
        self.order.iter().filter_map(|n| self.tools.get(n))
    }

    /// The host state every call's context reads (after the caller's own).
    pub(crate) fn host_state(&self) -> &HostState {
        &self.host
    }

    /// The canonical definitions of every tool (see [`Tool::canonical`]).
    pub fn canonical(&self) -> Vec<Value> {
        self.tools().map(Tool::canonical).collect()
    }
}

/// Collects tools, then checks them together.
#[derive(Debug)]
pub struct RegistryBuilder {
    tools: Vec<Tool>,
    host: HostState,
}

impl RegistryBuilder {
    /// Adds a tool (`my_tool::contract()`).
    pub fn tool(mut self, tool: Tool) -> Self {
        self.tools.push(tool);
        self
    }

    /// Adds host state that every call can read (`CallContext::state`) and
    /// that tools declaring `state(T)` take as a parameter.
    pub fn state<T: std::any::Any + Send + Sync>(mut self, value: T) -> Self {
        self.host.insert(value);
        self
    }

    /// Checks names, patterns and the host state each tool takes, and
    /// builds the registry.
    pub fn build(self) -> Result<Registry, RegistryError> {
        let mut reg = Registry {
            host: self.host,
            ..Registry::default()
        };
        for tool in self.tools {
            let name = tool.name();
            if let Some(need) = tool
                .spec()
                .state
                .iter()
                .find(|n| !reg.host.contains((n.id)()))
            {
                return Err(RegistryError::MissingState {
                    tool: name.to_string(),
                    ty: need.name.to_string(),
                });
            }
            if !crate::schema::is_portable_name(name) {
                return Err(RegistryError::BadName(name.to_string()));
            }
            check_patterns(name, &tool.input_schema())?;
            tool.check_examples()
                .map_err(|bad| RegistryError::BadExample {
                    tool: name.to_string(),
                    index: bad.index,
                    declared: bad.declared,
                    example: bad.text,
                    reason: bad.reason,
                })?;
            if reg.tools.insert(name, tool).is_some() {
                return Err(RegistryError::DuplicateName(name.to_string()));
            }
            reg.order.push(name);
        }
        Ok(reg)
    }
}

fn check_patterns(tool: &str, schema: &Value) -> Result<(), RegistryError> {
    match schema {
        Value::Object(m) => {
            if let Some(Value::String(p)) = m.get("pattern") {
                if let Err(error) = crate::args::constraint::pattern_compiles(p) {
                    return Err(RegistryError::BadPattern {
                        tool: tool.to_string(),
                        pattern: p.clone(),
                        error,
                    });
                }
            }
            m.values().try_for_each(|v| check_patterns(tool, v))
        }
        Value::Array(a) => a.iter().try_for_each(|v| check_patterns(tool, v)),
        _ => Ok(()),
    }
}
