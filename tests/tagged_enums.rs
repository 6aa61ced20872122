//! Enums with data as arguments, tagged as serde writes them: the schema
//! (`oneOf` with a `discriminator`), both decode paths, the envelope's
//! pointers into a variant, and what each dialect makes of them.

#[path = "common/reminders.rs"]
mod reminders;

use contract_runtime::decode::{decode_args, DecodeError, Limits};
use contract_runtime::dialect::{export, Dialect, ExportOptions};
use contract_runtime::envelope::ErrorEntry;
use contract_runtime::ToolArgs;
use reminders::{Channel, Repeat, ScheduleReminderArgs};
use serde_json::{json, Value};

fn decode(raw: &str) -> Result<ScheduleReminderArgs, Vec<ErrorEntry>> {
    decode_args::<ScheduleReminderArgs>(raw, &Limits::default()).map_err(DecodeError::into_errors)
}

/// (pointer, keyword, hint) of every error.
fn errors(v: Value) -> Vec<(String, String, String)> {
    decode(&v.to_string())
        .err()
        .unwrap_or_else(|| panic!("{v} is refused"))
        .into_iter()
        .map(|e| {
            (
                e.field.unwrap_or_default(),
                e.constraint.map(|c| c.keyword).unwrap_or_default(),
                e.repair.map(|r| r.hint).unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn an_internally_tagged_enum_is_one_of_its_variants_with_a_discriminator() {
    let s = ScheduleReminderArgs::input_schema();
    assert_eq!(
        s["properties"]["channel"],
        json!({
            "description": "Where the reminder is delivered.",
            "oneOf": [
                {
                    "type": "object",
                    "description": "An email to one address.",
                    "properties": {
                        "kind": {"type": "string", "const": "email"},
                        "to": {"description": "The recipient's address.", "type": "string", "minLength": 3, "maxLength": 254},
                        "cc": {"description": "Up to three more addresses to copy.", "type": ["array", "null"], "items": {"type": "string", "pattern": "^[^@ ]+@[^@ ]+$"}, "maxItems": 3}
                    },
                    "required": ["kind", "to"],
                    "additionalProperties": false
                },
                {
                    "type": "object",
                    "description": "A message in a chat room.",
                    "properties": {
                        "kind": {"type": "string", "const": "chat_room"},
                        "room": {"description": "The room, such as #ops.", "type": "string", "pattern": "^#[a-z0-9-]{1,20}$"},
                        "delay_minutes": {"description": "Minutes to wait before posting.", "type": ["integer", "null"], "minimum": 0, "maximum": 60}
                    },
                    "required": ["kind", "room"],
                    "additionalProperties": false
                },
                {
                    "type": "object",
                    "description": "No delivery: the reminder is only listed.",
                    "properties": {"kind": {"type": "string", "const": "silent"}},
                    "required": ["kind"],
                    "additionalProperties": false
                }
            ],
            "discriminator": {"propertyName": "kind"}
        })
    );
}

#[test]
fn an_adjacently_tagged_enum_puts_the_fields_under_the_content_key() {
    let s = ScheduleReminderArgs::input_schema();
    let repeat = &s["properties"]["repeat"];
    assert_eq!(
        repeat["description"],
        "How the reminder repeats; once when left out."
    );
    // Optional: null or one of the variants.
    assert_eq!(repeat["anyOf"][1], json!({"type": "null"}));
    let inner = &repeat["anyOf"][0];
    assert_eq!(inner["discriminator"], json!({"propertyName": "every"}));
    assert_eq!(
        inner["oneOf"][0],
        json!({
            "type": "object",
            "description": "Every few days.",
            "properties": {
                "every": {"type": "string", "const": "days"},
                "with": {
                    "type": "object",
                    "properties": {"count": {"description": "Days between two reminders.", "type": "integer", "minimum": 1, "maximum": 365}},
                    "required": ["count"],
                    "additionalProperties": false
                }
            },
            "required": ["every", "with"],
            "additionalProperties": false
        })
    );
    assert_eq!(
        inner["oneOf"][2],
        json!({
            "type": "object",
            "description": "Once only.",
            "properties": {"every": {"type": "string", "const": "never"}},
            "required": ["every"],
            "additionalProperties": false
        })
    );
}

#[test]
fn both_decode_paths_read_every_variant() {
    // The tag first: the fast path; the tag last: the slow path. Same value.
    for raw in [
        r#"{"text":"t","channel":{"kind":"email","to":"a@example.com"},"repeat":{"every":"days","with":{"count":3}}}"#,
        r#"{"text":"t","channel":{"to":"a@example.com","kind":"email"},"repeat":{"with":{"count":3},"every":"days"}}"#,
    ] {
        let a = decode(raw).expect("accepted");
        assert_eq!(
            a.channel,
            Channel::Email {
                to: "a@example.com".into(),
                cc: None
            }
        );
        assert_eq!(a.repeat, Some(Repeat::Days { count: 3 }));
    }
    let a = decode(r#"{"text":"t","channel":{"kind":"silent"},"repeat":{"every":"never"}}"#)
        .expect("accepted");
    assert_eq!(a.channel, Channel::Silent);
    assert_eq!(a.repeat, Some(Repeat::Never));
    let a = decode(
        r##"{"text":"t","channel":{"kind":"chat_room","room":"#ops","delay_minutes":5},"repeat":{"every":"weekdays","with":{"days":[1,3]}}}"##,
    )
    .expect("accepted");
    assert_eq!(
        a.channel,
        Channel::ChatRoom {
            room: "#ops".into(),
            delay_minutes: Some(5)
        }
    );
    assert_eq!(a.repeat, Some(Repeat::Weekdays { days: vec![1, 3] }));
}

#[test]
fn a_wrong_or_missing_tag_lists_the_variants() {
    assert_eq!(
        errors(json!({"text": "t", "channel": {"kind": "Email", "to": "a@example.com"}})),
        vec![(
            "/channel/kind".into(),
            "const".into(),
            "did you mean `email`? send one of: email, chat_room, silent".into()
        )]
    );
    assert_eq!(
        errors(json!({"text": "t", "channel": {"kind": "pager"}})),
        vec![(
            "/channel/kind".into(),
            "const".into(),
            "send one of: email, chat_room, silent".into()
        )]
    );
    assert_eq!(
        errors(json!({"text": "t", "channel": {"room": "#ops"}})),
        vec![(
            "/channel/kind".into(),
            "required".into(),
            "send `kind` as one of: email, chat_room, silent".into()
        )]
    );
    let Err(e) = decode(&json!({"text": "t", "channel": {"kind": 3}}).to_string()) else {
        panic!("refused")
    };
    assert_eq!(
        e[0].message,
        "`/channel/kind` must name a variant: one of `email`, `chat_room`, `silent`"
    );
}

#[test]
fn a_variant_field_breaking_its_constraint_is_pointed_at() {
    assert_eq!(
        errors(
            json!({"text": "t", "channel": {"kind": "chat_room", "room": "ops", "delay_minutes": 61}})
        ),
        vec![
            (
                "/channel/room".into(),
                "pattern".into(),
                "send a value that matches the regular expression ^#[a-z0-9-]{1,20}$".into()
            ),
            (
                "/channel/delay_minutes".into(),
                "maximum".into(),
                "send a number at least 0 and at most 60".into()
            ),
        ]
    );
    let e = errors(
        json!({"text": "t", "channel": {"kind": "silent"}, "repeat": {"every": "days", "with": {"count": 0}}}),
    );
    assert_eq!(e[0].0, "/repeat/with/count");
    assert_eq!(e[0].1, "minimum");
    let e = errors(
        json!({"text": "t", "channel": {"kind": "email", "to": "a@example.com", "room": "#ops"}}),
    );
    assert_eq!(e[0].0, "/channel/room");
    assert_eq!(e[0].1, "additionalProperties");
    let e = errors(json!({"text": "t", "channel": {"kind": "email"}}));
    assert_eq!(e[0].0, "/channel/to");
    assert_eq!(e[0].1, "required");
}

#[test]
fn adjacently_tagged_content_is_required_and_refused_on_a_unit_variant() {
    let e =
        errors(json!({"text": "t", "channel": {"kind": "silent"}, "repeat": {"every": "days"}}));
    assert_eq!(
        e,
        vec![(
            "/repeat/with".into(),
            "required".into(),
            "send the fields of `days` in `with`".into()
        )]
    );
    let e = errors(
        json!({"text": "t", "channel": {"kind": "silent", "note": "x"}, "repeat": {"every": "never", "with": {}}}),
    );
    assert_eq!(e[0].0, "/channel/note");
    assert_eq!(e[0].1, "additionalProperties");
    assert_eq!(e[1].0, "/repeat/with");
    assert_eq!(e[1].1, "additionalProperties");
    let e = errors(
        json!({"text": "t", "channel": {"kind": "silent"}, "repeat": {"every": "days", "with": 3}}),
    );
    assert_eq!(e[0].0, "/repeat/with");
    assert_eq!(e[0].1, "type");
}

fn exported(d: Dialect) -> (Value, Vec<contract_runtime::dialect::Loss>) {
    let defs = reminders::registry().canonical();
    let out = export(&defs, d, &ExportOptions::default()).unwrap_or_else(|e| panic!("{d}: {e}"));
    (out.tools[0].to_value(), out.losses)
}

#[test]
fn strict_dialects_get_any_of_and_report_the_discriminator() {
    let (t, losses) = exported(Dialect::OpenAiResponses);
    let channel = &t["parameters"]["properties"]["channel"];
    assert!(channel.get("oneOf").is_none() && channel.get("discriminator").is_none());
    let branches = channel["anyOf"].as_array().expect("anyOf");
    assert_eq!(branches.len(), 3);
    // Strict objects list every property; optional ones become nullable.
    assert_eq!(branches[0]["required"], json!(["kind", "to", "cc"]));
    assert_eq!(
        branches[0]["properties"]["kind"],
        json!({"type": "string", "const": "email"})
    );
    let dropped: Vec<&str> = losses
        .iter()
        .filter(|l| l.keyword == "discriminator")
        .map(|l| l.pointer.as_str())
        .collect();
    assert_eq!(
        dropped,
        vec![
            "/properties/channel/discriminator",
            "/properties/repeat/anyOf/0/discriminator"
        ]
    );
    // Dropped, not moved: the tag's `const` in each branch says it already.
    let d = losses
        .iter()
        .find(|l| l.keyword == "discriminator")
        .expect("a loss");
    assert_eq!(d.action, contract_runtime::dialect::LossAction::Dropped);
    assert!(!t.to_string().contains("propertyName"));
    // Losses inside a variant point into the canonical schema's `oneOf`.
    assert!(losses
        .iter()
        .any(|l| l.pointer == "/properties/channel/oneOf/0/properties/to/minLength"));

    let (t, losses) = exported(Dialect::Gemini);
    let channel = &t["parameters"]["properties"]["channel"];
    assert_eq!(
        channel["anyOf"][1]["properties"]["kind"],
        json!({"type": "string", "enum": ["chat_room"]})
    );
    assert!(losses.iter().any(|l| l.keyword == "discriminator"));

    let (t, losses) = exported(Dialect::AnthropicStrict);
    let channel = &t["input_schema"]["properties"]["channel"];
    assert_eq!(
        channel["anyOf"][2]["properties"]["kind"],
        json!({"const": "silent"})
    );
    assert!(losses.iter().any(|l| l.keyword == "discriminator"));

    // Plain JSON Schema dialects keep oneOf and the discriminator.
    for d in [Dialect::Anthropic, Dialect::GeminiJsonSchema, Dialect::Mcp] {
        let (t, losses) = exported(d);
        let s = t
            .get("input_schema")
            .or(t.get("parametersJsonSchema"))
            .or(t.get("inputSchema"))
            .expect("schema");
        assert_eq!(
            s["properties"]["channel"]["discriminator"],
            json!({"propertyName": "kind"}),
            "{d}"
        );
        assert!(s["properties"]["channel"]["oneOf"].is_array(), "{d}");
        assert!(losses.iter().all(|l| l.keyword != "discriminator"), "{d}");
    }
}

/// Where an export goes.
#[derive(contract_runtime::ToolArgs, Debug)]
#[serde(tag = "to", content = "with", rename_all = "snake_case")]
pub enum Target {
    /// A file under the export root.
    File {
        /// The file.
        #[arg(root = "exports")]
        path: contract_runtime::ConfinedPath,
    },
    /// A web hook.
    Hook {
        /// The hook's address.
        url: String,
        /// The hook's token.
        #[arg(secret)]
        token: String,
    },
}

/// A variant's secret is redacted wherever the call is logged (also when the
/// tag names no variant), and its confined paths are found with their root.
#[test]
fn variant_fields_keep_their_secrets_and_their_roots() {
    use contract_runtime::__private::Constraints;
    use contract_runtime::__private::Ptr;
    use contract_runtime::ArgValue;
    assert!(Target::has_secrets(&Constraints::NONE));
    let mut v = json!({"to": "hook", "with": {"url": "https://example.com", "token": "s3cr3t"}});
    Target::redact(&mut v, &Constraints::NONE);
    assert_eq!(v["with"]["token"], "[redacted]");
    assert_eq!(v["with"]["url"], "https://example.com");
    let mut v = json!({"to": "hoook", "with": {"token": "s3cr3t"}});
    Target::redact(&mut v, &Constraints::NONE);
    assert_eq!(v["with"]["token"], "[redacted]");

    let t: Target = contract_runtime::decode::parse_strict(
        r#"{"to":"file","with":{"path":"q3/report.csv"}}"#,
        &Limits::default(),
    )
    .ok()
    .and_then(|v| {
        let mut out = contract_runtime::__private::Violations::new();
        Target::decode_value(&v, &Constraints::NONE, &Ptr::ROOT, &mut out)
    })
    .expect("a file target");
    let mut seen = Vec::new();
    t.visit_paths(&Constraints::NONE, &Ptr::ROOT, &mut |ptr, path, root| {
        seen.push((ptr.render(), path.as_str().to_owned(), root));
    });
    assert_eq!(
        seen,
        vec![(
            "/with/path".to_owned(),
            "q3/report.csv".to_owned(),
            "exports"
        )]
    );
}

/// Shapes at the edges compile without a warning: only unit variants, one
/// variant, a variant without fields, raw and clashing field names.
#[deny(warnings)]
mod edges {
    /// A mode.
    #[derive(contract_runtime::ToolArgs, Debug, PartialEq)]
    #[serde(tag = "mode")]
    pub enum Mode {
        /// Fast.
        Fast,
        /// Slow.
        Slow,
    }

    /// One variant, adjacently tagged.
    #[derive(contract_runtime::ToolArgs, Debug, PartialEq)]
    #[serde(tag = "t", content = "c")]
    pub enum Only {
        /// The one.
        One {
            /// A field named like the collector.
            out: u8,
            /// A raw identifier.
            r#type: String,
        },
        /// Empty braces.
        Empty {},
    }
}

#[test]
fn edge_shapes_decode() {
    use edges::{Mode, Only};
    fn read<T: contract_runtime::ArgValue>(v: Value) -> Option<T> {
        let mut out = contract_runtime::__private::Violations::new();
        let r = T::decode_value(
            &v,
            &contract_runtime::__private::Constraints::NONE,
            &contract_runtime::__private::Ptr::ROOT,
            &mut out,
        );
        r.filter(|_| out.is_empty())
    }
    assert_eq!(read::<Mode>(json!({"mode": "Slow"})), Some(Mode::Slow));
    assert_eq!(
        read::<Only>(json!({"t": "One", "c": {"out": 1, "type": "x"}})),
        Some(Only::One {
            out: 1,
            r#type: "x".into()
        })
    );
    assert_eq!(
        read::<Only>(json!({"t": "Empty", "c": {}})),
        Some(Only::Empty {})
    );
    assert_eq!(read::<Only>(json!({"t": "Empty"})), None);
}

#[test]
fn a_tag_over_the_fields_of_another_variant_names_that_variant() {
    // internally tagged: `room` and `delay_minutes` are the fields of `chat_room`
    let Err(e) = decode(
        &json!({"text": "t", "channel": {"kind": "email", "room": "#ops", "delay_minutes": 5}})
            .to_string(),
    ) else {
        panic!("refused")
    };
    assert_eq!(
        e.len(),
        1,
        "one repair, not a missing `to` and two unknown fields: {e:?}"
    );
    assert_eq!(e[0].field.as_deref(), Some("/channel/kind"));
    assert_eq!(
        e[0].message,
        "`/channel/kind` names `email`, but `room`, `delay_minutes` are fields of `chat_room`"
    );
    assert_eq!(
        e[0].repair.as_ref().map(|r| r.hint.as_str()),
        Some("send `\"kind\": \"chat_room\"` with these fields; for `email`, send its fields: `to`, `cc`")
    );
    // a unit variant over another's fields
    assert_eq!(
        errors(json!({"text": "t", "channel": {"kind": "silent", "to": "a@example.com"}})),
        vec![(
            "/channel/kind".into(),
            "const".into(),
            "send `\"kind\": \"email\"` with these fields; for `silent`, send no fields".into()
        )]
    );
    // adjacently tagged: the content holds the fields of `weekdays`
    assert_eq!(
        errors(
            json!({"text": "t", "channel": {"kind": "silent"}, "repeat": {"every": "days", "with": {"days": [1]}}})
        ),
        vec![(
            "/repeat/every".into(),
            "const".into(),
            "send `\"every\": \"weekdays\"` with these fields; for `days`, send its fields: `count`".into()
        )]
    );
}
