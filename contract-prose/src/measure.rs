//! The levels, set by measurement: each recognizer's hits on every held-out
//! batch, its precision over all of them, and from that its level. The test
//! writes the result twice, `src/levels.rs` (the names at the error level,
//! which the reader uses) and the recognizer table of `docs/rule-c12.md`;
//! `C12_BLESS=1` rewrites both after a change, and without it the test fails
//! when either is out of date. Neither is typed by hand.

use super::corpus::{declared, entries, sorted, Entry};
use super::corpus::{
    HELD_OUT, HELD_OUT_12, HELD_OUT_13, HELD_OUT_14, HELD_OUT_17, HELD_OUT_18, HELD_OUT_19,
    HELD_OUT_2, HELD_OUT_20, HELD_OUT_3, HELD_OUT_4, HELD_OUT_5, HELD_OUT_6, HELD_OUT_7,
    HELD_OUT_8, HELD_OUT_9,
};
use super::{claims, unmatched, Claim, Level, Rec, FAMILIES, TABLE};

/// The precision a recognizer needs over all held-out batches to stop a build.
const ERROR_PRECISION: f64 = 0.97;
/// And the true hits it needs for that precision to mean something: with
/// fewer, one false hit more or less moves it by more than the margin.
const ERROR_MIN_HITS: usize = 20;

/// Every held-out batch: each was sampled from sources no round had read and
/// labelled before any detector ran on it (see `docs/rule-c12.md`). Most
/// were tuned on after they were scored, which the counts below include.
pub(super) const BATCHES: &[(&str, &str)] = &[
    ("1", HELD_OUT),
    ("2", HELD_OUT_2),
    ("3", HELD_OUT_3),
    ("4", HELD_OUT_4),
    ("5", HELD_OUT_5),
    ("6", HELD_OUT_6),
    ("7", HELD_OUT_7),
    ("8", HELD_OUT_8),
    ("9", HELD_OUT_9),
    ("12", HELD_OUT_12),
    ("13", HELD_OUT_13),
    ("14", HELD_OUT_14),
    // six MCP servers no round had read, labelled and committed before the
    // reader ran on each; each was scored once, then tuned on
    ("15", include_str!("../tests/prose_corpus_heldout15.txt")),
    ("16", include_str!("../tests/prose_corpus_heldout16.txt")),
    // twelve more, owners a-m and n-z, scored once together, not tuned on
    // (but for `encoded`'s one false claim on 17, mended after)
    ("17", HELD_OUT_17),
    ("18", HELD_OUT_18),
    // twelve more, scored once together after 17 and 18, the reader
    // unchanged since but for that mend
    ("19", HELD_OUT_19),
    ("20", HELD_OUT_20),
];

/// What the reader says of one labelled entry.
pub(super) fn read(e: &Entry) -> Vec<Claim> {
    match declared(e.ty) {
        Some(d) => unmatched(e.text, d),
        None => claims(e.text),
    }
}

/// True and false hits of each recognizer, per batch.
pub(super) struct Hits {
    /// `[recognizer][batch] = (true, false)`.
    pub(super) per: Vec<Vec<(usize, usize)>>,
}

impl Hits {
    pub(super) fn count() -> Hits {
        let mut per = vec![vec![(0, 0); BATCHES.len()]; TABLE.len()];
        for (b, (_, text)) in BATCHES.iter().enumerate() {
            for e in entries(text, true) {
                for c in read(&e) {
                    let cell = &mut per[c.by as usize][b];
                    if e.expected.contains(&c.kind) {
                        cell.0 += 1;
                    } else {
                        cell.1 += 1;
                    }
                }
            }
        }
        Hits { per }
    }

    pub(super) fn total(&self, r: usize) -> (usize, usize) {
        self.per[r]
            .iter()
            .fold((0, 0), |(t, f), (a, b)| (t + a, f + b))
    }

    /// The level the counts give recognizer `r`.
    pub(super) fn level(&self, r: usize) -> Level {
        let (t, f) = self.total(r);
        let precision = t as f64 / (t + f).max(1) as f64;
        if t >= ERROR_MIN_HITS && precision >= ERROR_PRECISION {
            Level::Error
        } else {
            Level::Audit
        }
    }
}

fn levels_file(h: &Hits) -> String {
    let mut names: Vec<&str> = (0..TABLE.len())
        .filter(|&r| h.level(r) == Level::Error)
        .map(|r| TABLE[r].name)
        .collect();
    names.sort_unstable();
    let mut out = String::from(
        "//! Written by `measure::levels_are_measured` (C12_BLESS=1 to rewrite), never\n\
         //! by hand: the recognizers whose precision over every held-out batch is at\n\
         //! least 0.97 with enough hits. Every other recognizer reports at the audit level.\n\n\
         /// The names of the recognizers at the error level.\n\
         pub(crate) const ERROR_LEVEL: &[&str] = ",
    );
    // as rustfmt writes it: one line while it fits, else one name a line
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    let one_line = format!("&[{}];\n", quoted.join(", "));
    if one_line.len() + 42 <= 100 {
        out.push_str(&one_line);
    } else {
        out.push_str("&[\n");
        for q in quoted {
            out.push_str(&format!("    {q},\n"));
        }
        out.push_str("];\n");
    }
    out
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

fn docs_table(h: &Hits) -> String {
    let mut out = format!(
        "<!-- recognizers: written by `measure::levels_are_measured` (C12_BLESS=1), not by hand -->\n\n\
         Error level: precision at least {ERROR_PRECISION} over the held-out batches together, \
         with at least {ERROR_MIN_HITS} true hits. Counts are true / false hits, per batch \
         (batches {}).\n\n\
         | recognizer | family | level | true / false | precision | per batch | reads | e.g. | not |\n\
         |---|---|---|---|---|---|---|---|---|\n",
        BATCHES.iter().map(|b| b.0).collect::<Vec<_>>().join(", ")
    );
    for family in FAMILIES {
        for (r, row) in TABLE
            .iter()
            .enumerate()
            .filter(|(_, row)| row.family == *family)
        {
            let (t, f) = h.total(r);
            let per: Vec<String> = h.per[r]
                .iter()
                .map(|(a, b)| {
                    if a + b == 0 {
                        "-".into()
                    } else {
                        format!("{a}/{b}")
                    }
                })
                .collect();
            out.push_str(&format!(
                "| `{}` | {} | {} | {t} / {f} | {:.3} | {} | {} | \"{}\" ({}) | {} |\n",
                row.name,
                row.family,
                h.level(r).as_str(),
                t as f64 / (t + f).max(1) as f64,
                per.join(" "),
                cell(row.reads),
                cell(row.example),
                cell(row.source),
                cell(row.not),
            ));
        }
    }
    out.push_str("\n<!-- recognizers: end -->\n");
    out
}

/// Writes (C12_BLESS=1) or checks the generated file at `path`.
fn bless(path: &str, want: &str) {
    if std::env::var_os("C12_BLESS").is_some() {
        std::fs::write(path, want).expect("write a generated file");
    }
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == want,
        "{path} is out of date; rerun with C12_BLESS=1 and read the diff"
    );
}

/// Counts each recognizer's hits on every held-out batch, sets the levels
/// from them and writes them where the reader and the docs read them.
#[test]
fn levels_are_measured() {
    let h = Hits::count();
    for (r, row) in TABLE.iter().enumerate() {
        let (t, f) = h.total(r);
        println!(
            "{:28} {:12} {:5} {t:4} {f:4}",
            row.name,
            row.family,
            h.level(r).as_str()
        );
    }
    bless(
        concat!(env!("CARGO_MANIFEST_DIR"), "/src/levels.rs"),
        &levels_file(&h),
    );
    let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/rule-c12.md");
    let text = std::fs::read_to_string(docs).expect("docs/rule-c12.md");
    let begin = text
        .find("<!-- recognizers: written")
        .expect("docs/rule-c12.md has the recognizer table's markers");
    let end = text.find("<!-- recognizers: end -->").expect("end marker")
        + "<!-- recognizers: end -->\n".len();
    let want = format!("{}{}{}", &text[..begin], docs_table(&h), &text[end..]);
    bless(docs, &want);
    // the reader's levels are the measured ones
    for (r, row) in TABLE.iter().enumerate() {
        assert_eq!(row.level(), h.level(r), "{}", row.name);
        assert_eq!(TABLE[r].name, row.name);
    }
    let _ = Rec::Comparative;
}

/// The targets, per held-out batch: the precision of what would stop a
/// build (error-level claims), and the recall of both levels together (what
/// the audit reports). Printed with `--nocapture`; held to floors at the
/// figures measured, reported in `docs/rule-c12.md`.
#[test]
fn error_precision_and_audit_recall_per_batch() {
    let (mut all_tp, mut all_fn) = (0, 0);
    let mut low_precision = Vec::new();
    for (name, text) in BATCHES {
        let (mut etp, mut efp, mut tp, mut fp, mut fneg) = (0, 0, 0, 0, 0);
        for e in entries(text, true) {
            let got = read(&e);
            for c in &got {
                let right = e.expected.contains(&c.kind);
                if c.level() == Level::Error {
                    if right {
                        etp += 1;
                    } else {
                        efp += 1;
                    }
                }
            }
            let kinds = sorted(got.iter().map(|c| c.kind).collect());
            let expected = &e.expected;
            tp += kinds.iter().filter(|k| expected.contains(k)).count();
            fp += kinds.iter().filter(|k| !expected.contains(k)).count();
            fneg += expected.iter().filter(|k| !kinds.contains(k)).count();
        }
        // no error-level claim: nothing stopped a build wrongly
        let precision = if etp + efp == 0 {
            1.0
        } else {
            etp as f64 / (etp + efp) as f64
        };
        println!(
            "batch {name}: error level {etp} right, {efp} wrong (precision {precision:.3}); \
             audit (both levels) tp {tp} fp {fp} fn {fneg}, recall {:.3}",
            tp as f64 / (tp + fneg).max(1) as f64
        );
        if precision < 0.97 {
            low_precision.push(format!("batch {name}: {etp} / {efp}"));
        }
        all_tp += tp;
        all_fn += fneg;
    }
    let recall = all_tp as f64 / (all_tp + all_fn).max(1) as f64;
    println!(
        "audit recall over every held-out batch: {recall:.3} ({all_tp} of {})",
        all_tp + all_fn
    );
    assert!(recall >= AUDIT_RECALL_FLOOR, "audit recall {recall:.3}");
    assert!(
        low_precision.len() <= PRECISION_MISSES.len()
            && low_precision
                .iter()
                .zip(PRECISION_MISSES)
                .all(|(a, b)| a == b),
        "error-level precision under 0.97: {low_precision:?}"
    );
}

/// The audit's recall over every held-out batch, as measured (the target is
/// 0.85: `docs/rule-c12.md` says where it stands); 0.919 before batch 16,
/// whose first scoring was 0.618; 0.880 before batches 17 and 18, scored
/// once together at 0.580; 0.845 before batches 19 and 20, scored once
/// together at 0.607.
const AUDIT_RECALL_FLOOR: f64 = 0.81;
/// The batches whose error-level precision is under 0.97, as measured.
const PRECISION_MISSES: &[&str] = &[];

/// The held-out batches declare types only (`num`, `str`, `list`), no
/// values, so no contradiction check can fire on them: their levels are
/// measured on the false-alarm sets (`tests/false_alarms.rs`,
/// `contradiction_checks_are_measured`), whose table in `docs/rule-c12.md`
/// writes 0 / 0 for these batches on the strength of this test.
#[test]
fn no_contradiction_on_the_held_out_batches() {
    for (name, text) in BATCHES {
        for e in entries(text, true) {
            let c = read(&e);
            assert!(
                c.iter().all(|c| c.conflict.is_none()),
                "batch {name}: a contradiction on {:?}",
                e.text
            );
        }
    }
}
