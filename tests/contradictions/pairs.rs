//! The contradiction set (`tests/contradictions/`, its README says how it is
//! made and labelled): its pairs, and what the contradiction checks find on
//! each. Shared by `tests/contradictions.rs`, which counts and asserts what
//! the checks find, and `tests/false_alarms.rs`, whose
//! `contradiction_checks_are_measured` takes each check's true hits from it.
// (each test that includes the module uses a part of it)
#![allow(dead_code)]

use contract_prose::CHECKS;
use contract_runtime::audit::lint_tools;
use serde_json::{json, Value};

/// The two kinds of pairs, counted apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A correct description of a false-alarm set, its declaration changed
    /// as an edit drifts (`drift.jsonl`).
    Drift,
    /// A description and declaration a real server publishes together
    /// that disagree (`wild.jsonl`).
    Wild,
}

pub const KINDS: [(Kind, &str); 2] = [
    (Kind::Drift, include_str!("drift.jsonl")),
    (Kind::Wild, include_str!("wild.jsonl")),
];

/// One labelled pair and what the checks found on it.
pub struct Pair {
    pub id: String,
    pub kind: Kind,
    /// The check that should fire (`None`: no check compares what disagrees).
    pub check: Option<String>,
    /// The check of every finding that has one, with the recognizer that
    /// read the prose, in the reader's order.
    pub findings: Vec<(&'static str, &'static str)>,
    /// The checks that fired, each once, in `CHECKS` order.
    pub fired: Vec<&'static str>,
}

/// Every pair of both kinds, each linted as a tool of one argument: the
/// pair's declaration (its description inside) under its argument's name.
pub fn measured() -> Vec<Pair> {
    let mut out = Vec::new();
    for (kind, text) in KINDS {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let pair: Value = serde_json::from_str(line).expect("a JSON line");
            assert_eq!(pair["label"], "contradiction", "{line}");
            let path = pair["argument"].as_str().expect("an argument");
            // a nested property (`data.items[].kind`) stands as its own argument
            let name = path
                .rsplit('.')
                .next()
                .unwrap_or(path)
                .trim_end_matches("[]");
            let list = json!({ "tools": [{
                "name": pair["tool"],
                "inputSchema": {
                    "type": "object",
                    "properties": { name: pair["declaration"] },
                },
            }] });
            let findings: Vec<(&'static str, &'static str)> = lint_tools(&list)
                .expect("a tool list")
                .iter()
                .filter_map(|f| Some((f.check?, f.recognizer)))
                .collect();
            let fired = CHECKS
                .iter()
                .map(|c| c.name)
                .filter(|n| findings.iter().any(|(c, _)| c == n))
                .collect();
            out.push(Pair {
                id: pair["id"].as_str().expect("an id").to_string(),
                kind,
                check: pair["check"].as_str().map(str::to_string),
                findings,
                fired,
            });
        }
    }
    out
}

/// Per check and kind: how many pairs label it, how many of those it fires
/// on (true hits), and how many pairs labelled otherwise it fires on
/// (wrong-check hits).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Counts {
    pub labelled: usize,
    pub hits: usize,
    pub wrong: usize,
}

impl Counts {
    pub fn misses(&self) -> usize {
        self.labelled - self.hits
    }
}

/// `counts(pairs, kind)[i]` is `CHECKS[i]`'s counts on the pairs of `kind`.
pub fn counts(pairs: &[Pair], kind: Kind) -> Vec<Counts> {
    let mut out = vec![Counts::default(); CHECKS.len()];
    for p in pairs.iter().filter(|p| p.kind == kind) {
        for (i, c) in CHECKS.iter().enumerate() {
            let labelled = p.check.as_deref() == Some(c.name);
            let fired = p.fired.contains(&c.name);
            out[i].labelled += usize::from(labelled);
            out[i].hits += usize::from(labelled && fired);
            out[i].wrong += usize::from(!labelled && fired);
        }
    }
    out
}
