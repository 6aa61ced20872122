//! The call: one complete, protocol-level request to run a tool, as the
//! provider adapters hand it to the dispatcher.

/// Prefix of the ids the provider adapters (`provider::parse_calls`) make up for Gemini calls that carry no
/// `id`; `provider::render_results` leaves such ids out of `functionResponse`, since
/// Gemini never saw them.
///
/// ```
/// assert_eq!(contract_runtime::call::GEMINI_SYNTHETIC_ID_PREFIX, "gemini-call-");
/// ```
pub const GEMINI_SYNTHETIC_ID_PREFIX: &str = "gemini-call-";

/// A complete, protocol-level tool call: the only thing the dispatcher ever executes.
///
/// ```
/// use contract_runtime::ToolCall;
///
/// let call = ToolCall::new("toolu_01", "search", r#"{"query":"rust"}"#);
/// assert!(!call.has_synthetic_id());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolCall {
    /// The provider's call id (OpenAI `call_id`/`id`, Anthropic `tool_use.id`,
    /// Gemini `functionCall.id`), unchanged; for Gemini calls without one, a
    /// synthetic id starting with [`GEMINI_SYNTHETIC_ID_PREFIX`].
    pub id: String,
    /// The requested tool name, as sent; unknown names are the dispatcher's to report.
    pub name: String,
    /// The arguments as raw JSON text, exactly as received (OpenAI strings,
    /// assembled stream buffers); Anthropic and Gemini objects from complete
    /// bodies are serialized with `serde_json::to_string`. Validation belongs
    /// to the dispatcher, so that a bad call becomes an envelope the model sees.
    pub arguments: String,
    /// Gemini's `thoughtSignature` on the part that held the call, exactly as
    /// sent: the model's reasoning state, which Gemini 3 requires back on the
    /// replayed call (a replayed call without it is refused with a 400).
    /// `None` for every other provider and for parts without one.
    pub thought_signature: Option<String>,
}

impl ToolCall {
    /// A call with the provider's id, the requested tool name and the argument text.
    ///
    /// ```
    /// use contract_runtime::ToolCall;
    ///
    /// let call = ToolCall::new("call_1", "search", r#"{"query":"rust"}"#);
    /// assert_eq!(call.name, "search");
    /// ```
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: arguments.into(),
            thought_signature: None,
        }
    }

    /// The same call carrying Gemini's thought signature.
    ///
    /// ```
    /// use contract_runtime::ToolCall;
    ///
    /// let call = ToolCall::new("c1", "f", "{}").with_thought_signature("CiQB...");
    /// assert_eq!(call.thought_signature.as_deref(), Some("CiQB..."));
    /// ```
    pub fn with_thought_signature(mut self, signature: impl Into<String>) -> ToolCall {
        self.thought_signature = Some(signature.into());
        self
    }

    /// Whether the id was made up by the provider adapters (`provider::parse_calls`) for a Gemini call that had
    /// none, and so must not be echoed back to the provider.
    ///
    /// ```
    /// use contract_runtime::ToolCall;
    ///
    /// let call = ToolCall::new("gemini-call-0", "f", "{}");
    /// assert!(call.has_synthetic_id());
    /// ```
    pub fn has_synthetic_id(&self) -> bool {
        self.id.starts_with(GEMINI_SYNTHETIC_ID_PREFIX)
    }
}
