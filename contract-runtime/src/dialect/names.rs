//! Tool-name rules per dialect (`docs/dialects.md`, "Names").

use super::Dialect;
use crate::registry::{Registry, RegistryBuilder, RegistryError};

/// One dialect's name rule.
struct NameRule {
    /// Longest accepted name, in characters.
    max: usize,
    /// Characters accepted besides ASCII letters and digits.
    extra: &'static str,
    /// Whether the first character must be an ASCII letter or `_`.
    letter_first: bool,
    /// The rule as users read it.
    text: &'static str,
}

fn rule(d: Dialect) -> NameRule {
    match d {
        // C9: the intersection of every provider's rule.
        Dialect::Canonical => NameRule {
            max: 64,
            extra: "_-",
            letter_first: true,
            text: "^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$ (the rule every provider accepts)",
        },
        Dialect::OpenAiResponses | Dialect::OpenAiChat => NameRule {
            max: 64,
            extra: "_-",
            letter_first: false,
            text: "^[a-zA-Z0-9_-]{1,64}$",
        },
        // 128 since mid-2025, 64 before: the safer reading is kept.
        Dialect::Anthropic | Dialect::AnthropicStrict => NameRule {
            max: 64,
            extra: "_-",
            letter_first: false,
            text: "^[a-zA-Z0-9_-]{1,64}$ (128 on current API versions, 64 on older ones)",
        },
        // 64 on older APIs, 128 on newer ones: the safer reading is kept.
        Dialect::Gemini | Dialect::GeminiJsonSchema => NameRule {
            max: 64,
            extra: "_.:-",
            letter_first: true,
            text:
                "a letter or `_`, then letters, digits, `_`, `.`, `:` or `-`, 64 characters at most",
        },
        Dialect::Mcp => NameRule {
            max: 128,
            extra: "_.-",
            letter_first: false,
            text: "1 to 128 of [A-Za-z0-9_.-]",
        },
    }
}

/// Checks a tool name against `dialect`'s rule; the error says which
/// character or length is wrong and states the rule.
///
/// ```
/// use contract_runtime::dialect::{check_name, Dialect};
/// assert!(check_name("search_notes", Dialect::OpenAiChat).is_ok());
/// assert!(check_name("notes.search", Dialect::OpenAiChat).is_err());
/// assert!(check_name("notes.search", Dialect::Mcp).is_ok());
/// ```
pub fn check_name(name: &str, dialect: Dialect) -> Result<(), String> {
    let rule = rule(dialect);
    let fail = |what: String| {
        Err(format!(
            "the name `{name}` is not accepted by {dialect}: {what}; a name must match {}",
            rule.text
        ))
    };
    let len = name.chars().count();
    if len == 0 {
        return fail("it is empty".to_owned());
    }
    if len > rule.max {
        return fail(format!("it has {len} characters, more than {}", rule.max));
    }
    for (i, c) in name.chars().enumerate() {
        if !(c.is_ascii_alphanumeric() || rule.extra.contains(c)) {
            return fail(format!("character {c:?} at {i} is not allowed"));
        }
    }
    if rule.letter_first && !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return fail("it must start with a letter or `_`".to_owned());
    }
    Ok(())
}

// The registry is core and knows no dialect; checking its names against one
// is the dialect's business, so these methods live at the edge.
impl Registry {
    /// Checks every tool name against `dialect`'s name rule (`docs/dialects.md`,
    /// "Names"). Names that passed [`RegistryBuilder::build`] follow the rule
    /// every provider accepts, so this fails only for a dialect whose rule is
    /// stricter than that, and it says which name and why.
    ///
    /// ```
    /// # use contract_runtime::{dialect::Dialect, Registry};
    /// let registry = Registry::builder().build().unwrap();
    /// for dialect in Dialect::ALL {
    ///     registry.check_names(*dialect).unwrap();
    /// }
    /// ```
    pub fn check_names(&self, dialect: Dialect) -> Result<(), RegistryError> {
        for name in self.names() {
            check_name(name, dialect).map_err(|reason| RegistryError::DialectName {
                dialect: dialect.id(),
                reason,
            })?;
        }
        Ok(())
    }
}

impl RegistryBuilder {
    /// Checks names and patterns, then builds the registry and checks its
    /// names against `dialect` too (see [`Registry::check_names`]).
    pub fn build_for(self, dialect: Dialect) -> Result<Registry, RegistryError> {
        let registry = self.build()?;
        registry.check_names(dialect)?;
        Ok(registry)
    }
}
