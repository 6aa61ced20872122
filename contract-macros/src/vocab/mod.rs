//! The vocabulary of the attributes, the leaf of the macro's module graph:
//! the closed sets of words as enums (each word is read once, where it is
//! parsed, and every later stage matches on the enum; the runtime has an enum
//! of the same name for each, and `variant` names it in generated code), the
//! rules of `rules(...)`, the examples of `examples(...)`, numbers as written, and [`Sp`], a value with its
//! tokens. The parser (`attr.rs`) writes these, the model (`model/`) holds
//! them, the rules (`check/`) and the expansion (`expand/`) read them; this
//! module imports nothing of the crate, so none of them need each other for
//! their words.

mod example;
mod rule;

use proc_macro2::{Span, TokenStream};
use syn::{Ident, Path};

pub use example::{ExKey, ExObject, ExValue};
pub use rule::{RuleDecl, RuleKind, SpanUnit};

/// A value with the tokens it came from.
#[derive(Clone)]
pub struct Sp<T> {
    pub value: T,
    pub span: Span,
}

/// A numeric literal as written (possibly negative).
#[derive(Clone)]
pub struct NumLit {
    pub tokens: TokenStream,
    pub value: f64,
    pub int: Option<i64>,
}

/// A closed set of words, each naming one runtime variant.
pub trait Vocabulary: Copy + Sized + 'static {
    /// Each word as the user writes it, with its value, in the order the
    /// help text lists them.
    const WORDS: &'static [(&'static str, Self)];

    /// The runtime variant's name (`Effect::ReadOnly`, `Format::DateTime`).
    fn variant(self) -> &'static str;

    /// The value `word` stands for.
    fn from_word(word: &str) -> Option<Self> {
        Self::WORDS
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, v)| *v)
    }

    /// The word that stands for this value.
    fn word(self) -> &'static str
    where
        Self: PartialEq,
    {
        Self::WORDS
            .iter()
            .find(|(_, v)| *v == self)
            .map_or("", |(w, _)| w)
    }

    /// Every word, for help texts and did-you-mean.
    fn words() -> Vec<&'static str> {
        Self::WORDS.iter().map(|(w, _)| *w).collect()
    }
}

/// A word of a closed vocabulary as written: understood, or kept with its
/// span for the rule that owns the key to report (C2 for effects, C10 for
/// formats).
#[derive(Clone)]
pub enum Word<T> {
    Known(T),
    Unknown { text: String, span: Span },
}

impl<T: Vocabulary> Word<T> {
    pub fn read(text: &str, span: Span) -> Word<T> {
        match T::from_word(text) {
            Some(v) => Word::Known(v),
            None => Word::Unknown {
                text: text.to_owned(),
                span,
            },
        }
    }

    pub fn known(&self) -> Option<T> {
        match self {
            Word::Known(v) => Some(*v),
            Word::Unknown { .. } => None,
        }
    }
}

/// `effect = ...`: what running the tool does to the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    ReadOnly,
    Reversible,
    External,
    Destructive,
}

impl Effect {
    /// How strict the effect's rules are: with several effects, the
    /// strictest decides the runtime's treatment (approval, idempotency,
    /// retries, unknown outcomes).
    pub fn strictness(self) -> u8 {
        match self {
            Effect::ReadOnly => 0,
            Effect::Reversible => 1,
            Effect::External => 2,
            Effect::Destructive => 3,
        }
    }
}

impl Vocabulary for Effect {
    const WORDS: &'static [(&'static str, Effect)] = &[
        ("read_only", Effect::ReadOnly),
        ("reversible", Effect::Reversible),
        ("external", Effect::External),
        ("destructive", Effect::Destructive),
    ];

    fn variant(self) -> &'static str {
        match self {
            Effect::ReadOnly => "ReadOnly",
            Effect::Reversible => "Reversible",
            Effect::External => "External",
            Effect::Destructive => "Destructive",
        }
    }
}

/// `#[arg(format = "...")]`: a string format the runtime checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Date,
    DateTime,
    Time,
    Email,
    Uuid,
    Uri,
    Ipv4,
    Ipv6,
    Hostname,
}

impl Vocabulary for Format {
    const WORDS: &'static [(&'static str, Format)] = &[
        ("date", Format::Date),
        ("date-time", Format::DateTime),
        ("time", Format::Time),
        ("email", Format::Email),
        ("uuid", Format::Uuid),
        ("uri", Format::Uri),
        ("ipv4", Format::Ipv4),
        ("ipv6", Format::Ipv6),
        ("hostname", Format::Hostname),
    ];

    fn variant(self) -> &'static str {
        match self {
            Format::Date => "Date",
            Format::DateTime => "DateTime",
            Format::Time => "Time",
            Format::Email => "Email",
            Format::Uuid => "Uuid",
            Format::Uri => "Uri",
            Format::Ipv4 => "Ipv4",
            Format::Ipv6 => "Ipv6",
            Format::Hostname => "Hostname",
        }
    }
}

/// `task = ...`: whether a call may run in the background, answered at
/// once with a task its caller asks about later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskMode {
    Optional,
    Required,
}

impl Vocabulary for TaskMode {
    const WORDS: &'static [(&'static str, TaskMode)] = &[
        ("optional", TaskMode::Optional),
        ("required", TaskMode::Required),
    ];

    fn variant(self) -> &'static str {
        match self {
            TaskMode::Optional => "Optional",
            TaskMode::Required => "Required",
        }
    }
}

/// `idempotency = ...`: whether repeating a call can repeat its effect.
#[derive(Clone)]
pub enum Idempotency {
    Natural,
    None,
    /// `key(field)`: calls carrying the same request key run once.
    Key(Ident),
}

/// `approval = ...`: when a person must approve a call.
#[derive(Clone)]
pub enum ApprovalRule {
    Always,
    Never,
    /// `when(predicate)`: a function of the call context and the arguments.
    When(Path),
}

/// `retry(attempts = N, backoff_ms = M)`.
#[derive(Clone)]
pub struct Retry {
    pub attempts: u32,
    pub backoff_ms: u64,
}

/// What a `#[failure(...)]` says about the effect: at most one of the flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// No flag: the tool refused or could not act.
    Domain,
    /// `transient`: no effect, trying again may work.
    Transient,
    /// `unknown`: the effect may have happened.
    Unknown,
    /// `denied`: refused before acting.
    Denied,
}

impl FailureKind {
    pub fn variant(self) -> &'static str {
        match self {
            FailureKind::Domain => "Domain",
            FailureKind::Transient => "Transient",
            FailureKind::Unknown => "Unknown",
            FailureKind::Denied => "Denied",
        }
    }
}
