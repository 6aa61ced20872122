//! The validate stage's bookkeeping: JSON pointers built without allocating on
//! the happy path, and the list of every violation of one call.

use serde_json::Value;

use crate::envelope::{ConstraintInfo, ErrorEntry, Repair};

/// A JSON pointer under construction, one segment per stack frame. Rendered to
/// text only when a violation is recorded.
#[derive(Clone, Copy, Debug)]
pub struct Ptr<'a> {
    parent: Option<&'a Ptr<'a>>,
    seg: Seg<'a>,
}

#[derive(Clone, Copy, Debug)]
enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

impl<'a> Ptr<'a> {
    /// The root of the arguments (`""`).
    pub const ROOT: Ptr<'static> = Ptr {
        parent: None,
        seg: Seg::Root,
    };

    /// The pointer to property `key` below this one.
    pub fn key<'b>(&'b self, key: &'b str) -> Ptr<'b> {
        Ptr {
            parent: Some(self),
            seg: Seg::Key(key),
        }
    }

    /// The pointer to item `i` below this one.
    pub fn index<'b>(&'b self, i: usize) -> Ptr<'b> {
        Ptr {
            parent: Some(self),
            seg: Seg::Index(i),
        }
    }

    /// The pointer as RFC 6901 text (`/notes/3`, `~1` for `/`, `~0` for `~`).
    pub fn render(&self) -> String {
        let mut segs = Vec::new();
        let mut cur = Some(self);
        while let Some(p) = cur {
            segs.push(p.seg);
            cur = p.parent;
        }
        let mut out = String::new();
        for seg in segs.iter().rev() {
            match seg {
                Seg::Root => {}
                Seg::Key(k) => {
                    out.push('/');
                    out.push_str(&k.replace('~', "~0").replace('/', "~1"));
                }
                Seg::Index(i) => {
                    out.push('/');
                    out.push_str(&i.to_string());
                }
            }
        }
        out
    }
}

/// One broken constraint.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// JSON pointer to the value at fault.
    pub pointer: String,
    /// The JSON Schema keyword the published schema carries.
    pub keyword: &'static str,
    /// The keyword's value in the schema.
    pub limit: Option<Value>,
    /// What was sent (omitted for secrets).
    pub actual: Option<Value>,
    /// What is wrong, without the pointer.
    pub message: String,
    /// What to send instead.
    pub hint: String,
    /// The bound broken is one of service, not of form (`x-served`).
    pub served: bool,
}

impl Violation {
    /// The violation as an envelope error (`schema-violation`).
    pub fn into_error(self) -> ErrorEntry {
        let name = if self.pointer.is_empty() {
            "the arguments".to_string()
        } else {
            format!("`{}`", self.pointer)
        };
        ErrorEntry {
            code: crate::codes::SCHEMA_VIOLATION.to_string(),
            message: format!("{name} {}", self.message),
            field: Some(self.pointer),
            item: None,
            constraint: Some(ConstraintInfo {
                keyword: self.keyword.to_string(),
                limit: self.limit,
                actual: self.actual,
                served: self.served,
            }),
            repair: (!self.hint.is_empty()).then_some(Repair {
                hint: self.hint,
                call: None,
            }),
            retry_safe: None,
            retry_after_ms: None,
        }
    }
}

/// Every violation of one call, collected so the model sees them all at once,
/// up to [`Violations::MAX`]: past that a call is hostile or hopeless, and an
/// envelope of megabytes would help nobody. Past the bound, a violation
/// nearer the root takes the place of a deeper one: 150 notes that each
/// break the pattern keep the list's `maxItems` and the `tag`'s own
/// violation, which say what to fix first, rather than the first hundred
/// items only.
#[derive(Debug, Default)]
pub struct Violations {
    list: Vec<Violation>,
    dropped: usize,
    /// The depth of the deepest violation kept, once the list is full:
    /// a flood of violations as deep is dropped without a scan.
    deepest: usize,
}

/// How deep a pointer is: its number of tokens.
fn depth(pointer: &str) -> usize {
    pointer.bytes().filter(|&b| b == b'/').count()
}

impl Violations {
    /// The most violations kept for one call.
    pub const MAX: usize = 100;

    /// An empty collector.
    pub fn new() -> Violations {
        Violations::default()
    }

    fn keep(&mut self, v: Violation) {
        if self.list.len() < Self::MAX {
            self.list.push(v);
            return;
        }
        self.dropped += 1;
        if self.dropped == 1 {
            self.deepest = self.deepest_kept();
        }
        if depth(&v.pointer) >= self.deepest {
            return;
        }
        // The deepest kept gives way (the last of them, so that the first
        // found of equal depth stay); the order found is kept. Each such
        // swap makes the list shallower, so there are few.
        let deepest = self.deepest;
        if let Some(i) = self.list.iter().rposition(|k| depth(&k.pointer) == deepest) {
            self.list.remove(i);
            self.list.push(v);
        }
        self.deepest = self.deepest_kept();
    }

    fn deepest_kept(&self) -> usize {
        self.list
            .iter()
            .map(|k| depth(&k.pointer))
            .max()
            .unwrap_or(0)
    }

    /// How many violations were found beyond [`Violations::MAX`].
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// Records a violation.
    pub fn push(
        &mut self,
        ptr: &Ptr<'_>,
        keyword: &'static str,
        limit: Value,
        actual: Option<Value>,
        message: String,
        hint: String,
    ) {
        self.keep(Violation {
            pointer: ptr.render(),
            keyword,
            limit: Some(limit),
            actual,
            message,
            hint,
            served: false,
        });
    }

    /// Records a value outside what the tool serves (`served` is the served
    /// range in words, "2001 to 2026"). Still a violation, but its message
    /// and repair say the request must be reported to the user as unserved:
    /// moving the value into range would answer a question nobody asked.
    pub fn push_served(
        &mut self,
        ptr: &Ptr<'_>,
        keyword: &'static str,
        limit: Value,
        actual: Option<Value>,
        served: &str,
    ) {
        let asked = match &actual {
            Some(Value::String(s)) => format!("{s} is"),
            Some(v) => format!("{v} is"),
            None => "the value sent is".to_string(),
        };
        self.keep(Violation {
            pointer: ptr.render(),
            keyword,
            limit: Some(limit),
            actual,
            message: format!("is outside what the tool serves ({served})"),
            hint: format!(
                "{asked} not served (the tool serves {served}): tell the user so; \
                 never send another value in its place"
            ),
            served: true,
        });
    }

    /// Records a value of the wrong JSON type.
    pub fn wrong_type(&mut self, ptr: &Ptr<'_>, expected: &'static str, got: &Value) {
        self.keep(Violation {
            pointer: ptr.render(),
            keyword: "type",
            limit: Some(Value::from(expected)),
            actual: Some(Value::from(json_type(got))),
            message: format!(
                "must be {} {expected}, got {}",
                article(expected),
                json_type(got)
            ),
            hint: format!("send {} {expected}", article(expected)),
            served: false,
        });
    }

    /// Records that the property `name` of the object at `ptr` is missing.
    pub(crate) fn missing(&mut self, ptr: &Ptr<'_>, name: &str, message: String, hint: String) {
        self.keep(Violation {
            pointer: ptr.key(name).render(),
            keyword: "required",
            limit: Some(Value::from(vec![name])),
            actual: None,
            message,
            hint,
            served: false,
        });
    }

    /// Records a violation built by hand.
    pub fn push_violation(&mut self, v: Violation) {
        self.keep(v);
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// How many violations were recorded (kept and dropped).
    pub fn len(&self) -> usize {
        self.list.len() + self.dropped
    }

    /// The violations, in the order found.
    pub fn into_vec(self) -> Vec<Violation> {
        self.list
    }
}

/// The JSON type name of a value, as JSON Schema's `type` keyword spells it.
pub(crate) fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}
