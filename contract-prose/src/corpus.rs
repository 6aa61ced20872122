//! Precision and recall of the detector over the labelled corpora in
//! `contract-prose/tests/`: `prose_corpus.txt` (written for the first edition),
//! `prose_corpus_real.txt` (wording from real public tool descriptions, each
//! entry with its source), twelve batches from sources never used before
//! (`prose_corpus_heldout*.txt`), each held out until it was scored once (the
//! fourteenth, labelled twice, is the only one no tuning has read), and two
//! tuning batches (`prose_corpus_tuning*.txt`). Scores count (entry, kind)
//! pairs, and whole entries (any claim or none). The held-out part of the real corpus was fixed by a
//! hash of each entry's text before any tuning (FNV-1a 64 of the text, 0 mod 3);
//! it has been tuned on since the second edition. `docs/rule-c12.md` reports
//! every figure and the method.

use super::{claims, unmatched, ClaimKind, Declared, Scalar};

pub(super) const KINDS: [ClaimKind; 6] = [
    ClaimKind::Length,
    ClaimKind::Range,
    ClaimKind::Items,
    ClaimKind::ClosedSet,
    ClaimKind::Format,
    ClaimKind::Pattern,
];

/// True and false positives and negatives, per family.
#[derive(Clone, Copy, Default)]
pub(super) struct Score {
    pub(super) tp: [usize; 6],
    pub(super) fp: [usize; 6],
    pub(super) fneg: [usize; 6],
    /// Whole entries: (stated a constraint, got a claim) counted as true
    /// positives, false positives and false negatives, whatever the family.
    /// This is what a user meets: an entry with any claim fails to compile.
    pub(super) entry: [usize; 3],
}

impl Score {
    fn add(&mut self, expected: &[ClaimKind], got: &[ClaimKind]) {
        match (expected.is_empty(), got.is_empty()) {
            (false, false) => self.entry[0] += 1,
            (true, false) => self.entry[1] += 1,
            (false, true) => self.entry[2] += 1,
            (true, true) => {}
        }
        for (k, kind) in KINDS.iter().enumerate() {
            match (expected.contains(kind), got.contains(kind)) {
                (true, true) => self.tp[k] += 1,
                (false, true) => self.fp[k] += 1,
                (true, false) => self.fneg[k] += 1,
                (false, false) => {}
            }
        }
    }

    pub(super) fn precision(&self) -> f64 {
        let tp: usize = self.tp.iter().sum();
        tp as f64 / (tp + self.fp.iter().sum::<usize>()).max(1) as f64
    }

    pub(super) fn recall(&self) -> f64 {
        let tp: usize = self.tp.iter().sum();
        tp as f64 / (tp + self.fneg.iter().sum::<usize>()).max(1) as f64
    }

    fn report(&self, name: &str) -> String {
        let mut out = format!(
            "{name}: tp {} fp {} fn {}, precision {:.3}, recall {:.3}\n",
            self.tp.iter().sum::<usize>(),
            self.fp.iter().sum::<usize>(),
            self.fneg.iter().sum::<usize>(),
            self.precision(),
            self.recall()
        );
        let [tp, fp, fneg] = self.entry;
        out.push_str(&format!(
            "  any claim, per entry: tp {tp} fp {fp} fn {fneg}, precision {:.3}, recall {:.3}\n",
            tp as f64 / (tp + fp).max(1) as f64,
            tp as f64 / (tp + fneg).max(1) as f64
        ));
        for (k, kind) in KINDS.iter().enumerate() {
            let (tp, fp, fneg) = (self.tp[k], self.fp[k], self.fneg[k]);
            out.push_str(&format!(
                "  {kind:?}: tp {tp} fp {fp} fn {fneg}, precision {:.3}, recall {:.3}\n",
                tp as f64 / (tp + fp).max(1) as f64,
                tp as f64 / (tp + fneg).max(1) as f64
            ));
        }
        out
    }
}

pub(super) fn parse_kind(s: &str) -> ClaimKind {
    match s.trim() {
        "Length" => ClaimKind::Length,
        "Range" => ClaimKind::Range,
        "Items" => ClaimKind::Items,
        "ClosedSet" => ClaimKind::ClosedSet,
        "Format" => ClaimKind::Format,
        "Pattern" => ClaimKind::Pattern,
        other => panic!("unknown label {other:?} in the corpus"),
    }
}

/// The declaration a corpus line's type column stands for (`-`: no type, [`claims`]).
pub(super) fn declared(ty: &str) -> Option<Declared<'static>> {
    let d = Declared::default();
    match ty.trim() {
        "num" => Some(Declared {
            is_number: true,
            ..d
        }),
        "str" => Some(Declared {
            is_string: true,
            ..d
        }),
        "list" => Some(Declared { is_list: true, ..d }),
        "-" => None,
        other => panic!("unknown type {other:?} in the corpus"),
    }
}

/// The kinds found in `doc`, deduplicated.
pub(super) fn found(doc: &str, ty: &str) -> Vec<ClaimKind> {
    let got = match declared(ty) {
        Some(d) => unmatched(doc, d),
        None => claims(doc),
    };
    sorted(got.into_iter().map(|c| c.kind).collect())
}

/// Kinds in one order, each once, as found and expected kinds are compared.
pub(super) fn sorted(mut kinds: Vec<ClaimKind>) -> Vec<ClaimKind> {
    kinds.sort_by_key(|k| *k as u8);
    kinds.dedup();
    kinds
}

/// One labelled line: expected kinds (sorted, each once), type, source (the
/// real corpus only), text.
pub(super) struct Entry<'a> {
    pub(super) expected: Vec<ClaimKind>,
    pub(super) ty: &'a str,
    pub(super) source: &'a str,
    pub(super) text: &'a str,
}

pub(super) fn entries(corpus: &str, with_source: bool) -> Vec<Entry<'_>> {
    let columns = if with_source { 4 } else { 3 };
    corpus
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(n, line)| {
            let cols: Vec<&str> = line.splitn(columns, '\t').collect();
            assert_eq!(
                cols.len(),
                columns,
                "corpus line {} needs {columns} tab-separated columns",
                n + 1
            );
            Entry {
                expected: kinds(cols[0]),
                ty: cols[1],
                source: if with_source { cols[2] } else { "" },
                text: cols[columns - 1],
            }
        })
        .collect()
}

/// The held-out part of the real corpus: decided by the text alone.
pub(super) fn held_out(text: &str) -> bool {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h.is_multiple_of(3)
}

pub(super) const FIRST: &str = include_str!("../tests/prose_corpus.txt");
pub(super) const REAL: &str = include_str!("../tests/prose_corpus_real.txt");

/// The first corpus: precision at least 0.9 on the whole, as in the first
/// edition; recall at least 0.83, just under its measured 0.839 (0.845 with
/// the spotter tier, deleted: see `docs/rule-c12.md`; 0.988 before the recognizers with no held-out hit were
/// deleted, 0.938 before the nine kept for the contradiction checks went too:
/// what it loses is what those read, `docs/rule-c12.md`).
#[test]
fn first_corpus_precision_and_recall() {
    let mut score = Score::default();
    let list = entries(FIRST, false);
    for e in &list {
        let (got, expected) = (found(e.text, e.ty), &e.expected);
        if got != *expected {
            println!("{got:?} expected {expected:?}: {}", e.text);
        }
        score.add(expected, &got);
    }
    println!(
        "{}",
        score.report(&format!("first corpus, {} entries", list.len()))
    );
    assert!(list.len() >= 150, "the corpus needs at least 150 entries");
    assert!(
        score.precision() >= 0.9,
        "precision {:.3} < 0.9",
        score.precision()
    );
    assert!(
        score.recall() >= 0.83,
        "recall {:.3} < 0.83",
        score.recall()
    );
}

/// The real-world corpus, split into the part tuned on and the held-out part.
/// The floors are the measured figures, so a change that loses either fails;
/// `docs/rule-c12.md` reports them per family.
#[test]
fn real_corpus_precision_and_recall() {
    let list = entries(REAL, true);
    let (mut tuned, mut held) = (Score::default(), Score::default());
    let mut negatives = 0;
    for e in &list {
        assert!(
            !e.source.trim().is_empty(),
            "every real entry names its source: {}",
            e.text
        );
        negatives += usize::from(e.expected.is_empty());
        let (got, expected) = (found(e.text, e.ty), &e.expected);
        let part = if held_out(e.text) {
            &mut held
        } else {
            &mut tuned
        };
        part.add(expected, &got);
        // The old held-out third is tuned on since the third batch was added
        // (`docs/rule-c12.md`), so its mistakes are printed too.
        if got != *expected {
            println!("{got:?} expected {expected:?}: {} ({})", e.text, e.source);
        }
    }
    println!("real corpus: {} entries ({negatives} negative)", list.len());
    println!("{}", tuned.report("tuned-on part"));
    println!("{}", held.report("held-out part"));
    assert!(
        list.len() >= 500,
        "the real corpus needs at least 500 entries"
    );
    // Floors just under the figures in docs/rule-c12.md: a change that loses
    // precision or recall on either part fails here. (Recall was 0.990 and
    // 0.968 before the recognizers with no held-out hit were deleted, 0.977
    // and 0.944 before the nine kept for the contradiction checks went too.
    // Precision on the tuned-on part was 0.983 before `prefix`, `one-based`
    // and the placeholder after "format of": 0.977, two false claims more
    // and four misses fewer; then 0.983 and recall 0.974 -> 0.961 when the
    // spotter tier was deleted.)
    for (part, score, precision, recall) in [
        ("tuned-on", &tuned, 0.98, 0.96),
        ("old held-out (tuned on since)", &held, 0.99, 0.92),
    ] {
        assert!(
            score.precision() >= precision && score.recall() >= recall,
            "{part} part: precision {:.3} (floor {precision}), recall {:.3} (floor {recall})",
            score.precision(),
            score.recall()
        );
    }
}

pub(super) const HELD_OUT: &str = include_str!("../tests/prose_corpus_heldout.txt");
pub(super) const HELD_OUT_2: &str = include_str!("../tests/prose_corpus_heldout2.txt");
pub(super) const HELD_OUT_3: &str = include_str!("../tests/prose_corpus_heldout3.txt");
pub(super) const HELD_OUT_4: &str = include_str!("../tests/prose_corpus_heldout4.txt");

/// The score of a labelled batch, printing its mistakes only when `show` (a
/// held-out batch is scored without them, so that reading the output cannot
/// make it tuning material).
fn score_batch(corpus: &str, show: bool) -> (Score, usize, usize) {
    let list = entries(corpus, true);
    let mut score = Score::default();
    let mut negatives = 0;
    for e in &list {
        assert!(!e.source.trim().is_empty(), "every entry names its source");
        negatives += usize::from(e.expected.is_empty());
        let (got, expected) = (found(e.text, e.ty), &e.expected);
        if show && got != *expected {
            println!("{got:?} expected {expected:?}: {} ({})", e.text, e.source);
        }
        score.add(expected, &got);
    }
    (score, list.len(), negatives)
}

/// Scores one held-out batch and holds it to its floor: at least `min`
/// entries, half of them negative, and precision and recall at or above
/// `floor`. A batch tuned on since it was scored prints its mistakes
/// (`tuned`); one no tuning has read prints only its scores.
fn check_batch(name: &str, text: &str, tuned: bool, min: usize, floor: (f64, f64)) {
    let (score, n, negatives) = score_batch(text, tuned);
    let state = if tuned {
        " (tuned on since it was scored)"
    } else {
        ""
    };
    println!(
        "{}",
        score.report(&format!(
            "{name}{state}, {n} entries ({negatives} negative)"
        ))
    );
    assert!(
        n >= min && 2 * negatives >= n,
        "{name}: {n} entries, {negatives} negative"
    );
    assert!(
        score.precision() >= floor.0 && score.recall() >= floor.1,
        "{name}: precision {:.3}, recall {:.3}",
        score.precision(),
        score.recall()
    );
}

pub(super) const HELD_OUT_5: &str = include_str!("../tests/prose_corpus_heldout5.txt");
pub(super) const HELD_OUT_6: &str = include_str!("../tests/prose_corpus_heldout6.txt");
pub(super) const HELD_OUT_7: &str = include_str!("../tests/prose_corpus_heldout7.txt");
pub(super) const HELD_OUT_8: &str = include_str!("../tests/prose_corpus_heldout8.txt");
pub(super) const HELD_OUT_9: &str = include_str!("../tests/prose_corpus_heldout9.txt");
pub(super) const HELD_OUT_12: &str = include_str!("../tests/prose_corpus_heldout12.txt");
pub(super) const HELD_OUT_13: &str = include_str!("../tests/prose_corpus_heldout13.txt");
pub(super) const HELD_OUT_14: &str = include_str!("../tests/prose_corpus_heldout14.txt");
pub(super) const HELD_OUT_17: &str = include_str!("../tests/prose_corpus_heldout17.txt");
pub(super) const HELD_OUT_18: &str = include_str!("../tests/prose_corpus_heldout18.txt");
pub(super) const HELD_OUT_19: &str = include_str!("../tests/prose_corpus_heldout19.txt");
pub(super) const HELD_OUT_20: &str = include_str!("../tests/prose_corpus_heldout20.txt");
pub(super) const TUNING_10: &str = include_str!("../tests/prose_corpus_tuning10.txt");
pub(super) const TUNING_11: &str = include_str!("../tests/prose_corpus_tuning11.txt");

/// A batch (or batches read together) and its floors.
type Floor = (&'static str, &'static [&'static str], bool, usize, Pr);
/// (precision, recall)
type Pr = (f64, f64);

/// Every labelled batch with its floors: (name, batches, tuned, least
/// entries, (precision, recall)). Each batch was sampled from sources no
/// round had read and labelled before the detector ran on it (batches 8, 9
/// and 12 to 14 twice, independently, their disagreements decided from
/// `prose_labelling.md`); `docs/rule-c12.md` gives each one's history. A
/// batch appears once as scored when it was held out (`tuned` false: only
/// its scores are printed, the floors are that scoring's) and, once a round
/// has read it, again as tuning data (`tuned`: its mistakes are printed, the
/// floors are its scores after the latest round that read it). Batches 10
/// and 11 were labelled for tuning; batch 10 lost recall (0.789 to 0.684) when
/// the recognizers with no held-out hit were deleted. The spotter tier, since
/// deleted (it found nothing on text it was not tuned on), had raised batches
/// 8, 10, 11 and 13 to 0.920, 0.789, 0.907 and 0.882; the floors below are
/// without it.
// One row per batch: a table read across, which rustfmt would break.
#[rustfmt::skip]
const BATCH_FLOORS: &[Floor] = &[
    ("batch 1", &[HELD_OUT], true, 200, (0.97, 0.95)),
    ("batch 2", &[HELD_OUT_2], true, 150, (0.95, 0.95)),
    ("batch 3", &[HELD_OUT_3], true, 150, (0.92, 0.97)),
    ("batch 4", &[HELD_OUT_4], true, 150, (0.95, 0.95)),
    ("batch 5", &[HELD_OUT_5], true, 200, (0.95, 0.95)),
    ("batch 6", &[HELD_OUT_6], true, 150, (0.88, 0.82)),
    ("batch 7", &[HELD_OUT_7], true, 150, (0.96, 0.94)),
    ("batches 6 and 7", &[HELD_OUT_6, HELD_OUT_7], false, 300, (0.92, 0.87)),
    ("tuning batch 10", &[TUNING_10], true, 200, (0.92, 0.68)),
    // (0.90 precision before `one-based` read "(1-based)", labelled NONE there)
    ("tuning batch 11", &[TUNING_11], true, 200, (0.88, 0.85)),
    ("batch 8", &[HELD_OUT_8], false, 200, (0.74, 0.58)),
    ("batch 9", &[HELD_OUT_9], false, 200, (0.89, 0.75)),
    ("batches 8 and 9", &[HELD_OUT_8, HELD_OUT_9], false, 400, (0.82, 0.669)),
    ("batch 8", &[HELD_OUT_8], true, 200, (0.88, 0.76)),
    ("batch 9", &[HELD_OUT_9], true, 200, (0.92, 0.85)),
    ("batches 8 and 9, tuned", &[HELD_OUT_8, HELD_OUT_9], false, 400, (0.90, 0.83)),
    ("batch 12", &[HELD_OUT_12], false, 200, (0.84, 0.77)),
    ("batch 12", &[HELD_OUT_12], true, 200, (0.90, 0.93)),
    ("batch 13", &[HELD_OUT_13], false, 200, (0.83, 0.60)),
    ("batch 13", &[HELD_OUT_13], true, 200, (0.98, 0.85)),
    ("batch 14", &[HELD_OUT_14], false, 200, (0.95, 0.67)),
    ("batch 17", &[HELD_OUT_17], false, 200, (0.87, 0.63)),
    ("batch 18", &[HELD_OUT_18], false, 200, (0.89, 0.54)),
    ("batches 17 and 18", &[HELD_OUT_17, HELD_OUT_18], false, 400, (0.88, 0.58)),
    ("batch 19", &[HELD_OUT_19], false, 200, (0.77, 0.67)),
    ("batch 20", &[HELD_OUT_20], false, 200, (0.80, 0.52)),
    ("batches 19 and 20", &[HELD_OUT_19, HELD_OUT_20], false, 400, (0.78, 0.60)),
];

#[test]
fn batches_hold_their_floors() {
    for (name, parts, tuned, min, floor) in BATCH_FLOORS {
        check_batch(name, &parts.concat(), *tuned, *min, *floor);
    }
}

/// The two labellers of batches 8, 9, 12, 13 and 14 (`prose_corpus_heldout{8,9,12,13,14}_labellers.txt`:
/// the first labeller's kinds, the second's, the source, for each entry in
/// order): how far two people who follow the same guide agree, scored like
/// the detector, the second labeller against the first. This is the ceiling
/// a detector can be measured to: a disagreement between labellers is a
/// point of precision or recall that no detector can win for certain.
#[test]
fn labellers_agree() {
    for (name, batch, labellers, floor) in [
        (
            "eighth",
            HELD_OUT_8,
            include_str!("../tests/prose_corpus_heldout8_labellers.txt"),
            (1.0, 0.98),
        ),
        (
            "ninth",
            HELD_OUT_9,
            include_str!("../tests/prose_corpus_heldout9_labellers.txt"),
            (0.93, 1.0),
        ),
        (
            "twelfth",
            HELD_OUT_12,
            include_str!("../tests/prose_corpus_heldout12_labellers.txt"),
            (0.94, 0.95),
        ),
        (
            "thirteenth",
            HELD_OUT_13,
            include_str!("../tests/prose_corpus_heldout13_labellers.txt"),
            (0.98, 0.94),
        ),
        (
            "fourteenth",
            HELD_OUT_14,
            include_str!("../tests/prose_corpus_heldout14_labellers.txt"),
            (0.96, 1.0),
        ),
    ] {
        let gold = entries(batch, true);
        let pairs: Vec<(Vec<ClaimKind>, Vec<ClaimKind>, &str)> = labellers
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let cols: Vec<&str> = l.splitn(3, '\t').collect();
                assert_eq!(cols.len(), 3, "{name}: {l:?} needs three columns");
                (kinds(cols[0]), kinds(cols[1]), cols[2])
            })
            .collect();
        assert_eq!(pairs.len(), gold.len(), "{name}: one line per entry");
        let (mut second, mut first_vs_gold) = (Score::default(), Score::default());
        for ((a, b, source), entry) in pairs.iter().zip(&gold) {
            assert_eq!(
                *source,
                entry.source.trim(),
                "{name}: entries in the batch's order"
            );
            second.add(a, b);
            first_vs_gold.add(&entry.expected, a);
        }
        println!(
            "{}",
            second.report(&format!("{name} batch, second labeller against the first"))
        );
        println!(
            "{}",
            first_vs_gold.report(&format!(
                "{name} batch, first labeller against the decided labels"
            ))
        );
        assert!(
            second.precision() >= floor.0 && second.recall() >= floor.1,
            "{name}: the labellers agree less than when the batch was labelled"
        );
    }
}

/// The kinds of a label column ("NONE", or kinds joined by commas).
fn kinds(column: &str) -> Vec<ClaimKind> {
    if column.trim() == "NONE" {
        return Vec::new();
    }
    sorted(column.split(',').map(parse_kind).collect())
}

pub(super) const TOOLSETS: &str = include_str!("../tests/prose_toolsets.txt");

/// The descriptions of the complete real tool sets, as (source, text).
pub(super) fn toolset_lines() -> Vec<(&'static str, &'static str)> {
    TOOLSETS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once('\t'))
        .collect()
}

/// Time per doc comment of `unmatched` over `docs`, and of the floor.
fn time_per_doc(docs: &[&str]) -> (f64, f64) {
    use std::hint::black_box;
    use std::time::Instant;
    // C12_COST_ROUNDS and C12_COST_PART (floor or check) let callgrind count
    // instructions per doc comment on a loaded machine (see docs/rule-c12.md).
    let rounds: usize = std::env::var("C12_COST_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(10);
    let part = std::env::var("C12_COST_PART").unwrap_or_default();
    let start = Instant::now();
    for _ in 0..rounds * usize::from(part != "check") {
        for d in docs {
            black_box(d.to_lowercase().split_whitespace().count());
        }
    }
    let floor = start.elapsed().as_secs_f64();
    let declared = Declared {
        scalar: Scalar::String,
        ..Declared::default()
    };
    let start = Instant::now();
    for _ in 0..rounds * usize::from(part != "floor") {
        for d in docs {
            black_box(unmatched(d, declared));
        }
    }
    let check = start.elapsed().as_secs_f64();
    let n = (docs.len() * rounds) as f64;
    (check / n, floor / n)
}

/// The check's cost per doc comment, printed (no timed assertion), against a
/// floor measured in the same run (lowercasing the text and counting its words,
/// the least any reading of the prose does): over the descriptions of six
/// complete real tool sets, and over the corpora (chosen for their constraints,
/// so the worst case). A crate with 300 tools has about 1,200 doc comments (a
/// tool's and three arguments'). `cargo test -p contract-prose --lib cost --
/// --nocapture` prints it; add `--release` for an optimized macro.
#[test]
fn cost_per_doc_comment() {
    let sets: Vec<&str> = toolset_lines().into_iter().map(|(_, t)| t).collect();
    let corpora: Vec<&str> = entries(FIRST, false)
        .into_iter()
        .chain(entries(REAL, true))
        .map(|e| e.text)
        .collect();
    let both = [("real tool sets", &sets), ("corpora", &corpora)];
    let parts = if std::env::var_os("C12_COST_PART").is_some() {
        &both[..1]
    } else {
        &both[..]
    };
    for (name, docs) in parts {
        let (per_doc, floor) = time_per_doc(docs);
        println!(
            "C12 cost over {name}: {} doc comments, {:.1} us each, floor {:.2} us, ratio {:.0}x; 1,200 doc comments (300 tools) {:.1} ms",
            docs.len(),
            per_doc * 1e6,
            floor * 1e6,
            per_doc / floor,
            per_doc * 1200.0 * 1e3
        );
    }
}

/// A macro must not panic on any doc comment: every prefix and suffix (at a
/// stride of characters) of every corpus and tool-set text goes through the
/// check, with and without a type, so a lookahead or lookbehind at the edge of
/// the text cannot index out of bounds.
#[test]
fn no_text_fragment_panics() {
    let texts: Vec<&str> = entries(FIRST, false)
        .into_iter()
        .chain(entries(REAL, true))
        .map(|e| e.text)
        .chain(toolset_lines().into_iter().map(|(_, t)| t))
        .chain([
            "Either \u{201c}json\u{201d} or \u{2018}csv\u{2019}; must match \u{201c}^[a-z]+$\u{201d}.",
            "IDs begin with \u{2018}ws-\u{2019} and end with \u{201c}-prod\u{201d}: \u{201c}a\u{201d} (x), \u{201c}b\u{201d} (y).",
            "Between \u{2212}90 and 90 \u{2014} at most 5\u{a0}items, \u{2264} 10, \u{2265} 1; e.g. \u{201c}2024-01-31\u{201d}.",
        ])
        .collect();
    let typed = Declared {
        scalar: Scalar::String,
        is_list: true,
        ..Declared::default()
    };
    let mut checked = 0;
    for text in texts {
        let cuts: Vec<usize> = text.char_indices().map(|(k, _)| k).step_by(9).collect();
        for &k in &cuts {
            for part in [&text[..k], &text[k..]] {
                if std::panic::catch_unwind(|| {
                    let _ = claims(part);
                    let _ = unmatched(part, typed);
                })
                .is_err()
                {
                    panic!("the check panicked on {part:?}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked} fragments");
}

/// Every claim found in the complete descriptions of six real tool sets, printed
/// for review (`docs/rule-c12.md` counts the false positives among them), with
/// the number of descriptions and claims per tool set.
#[test]
fn toolset_claims() {
    let mut per_set: Vec<(&str, usize, usize)> = Vec::new();
    for (source, text) in toolset_lines() {
        let repo = source.split(' ').next().unwrap_or(source);
        let found = claims(text);
        for c in &found {
            println!("{repo}: {:?} {:?} in {text:?}", c.kind, c.phrase);
        }
        match per_set.iter_mut().find(|(r, _, _)| *r == repo) {
            Some(entry) => {
                entry.1 += 1;
                entry.2 += found.len();
            }
            None => per_set.push((repo, 1, found.len())),
        }
    }
    for (repo, descriptions, claims) in per_set {
        println!("tool set {repo}: {descriptions} descriptions, {claims} claims");
    }
}

/// Prints the claims found in each line of the file named by `C12_PROBE`
/// (type column optional, as `str\ttext`): a tool for reading the detector on
/// new wording without a labelled corpus. Does nothing without the variable.
#[test]
fn probe() {
    let Some(path) = std::env::var_os("C12_PROBE") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap_or_default();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (ty, doc) = match line.split_once('\t') {
            Some((ty, doc)) if declared_ok(ty) => (ty, doc),
            _ => ("-", line),
        };
        let found: Vec<String> = match declared(ty) {
            Some(d) => unmatched(doc, d),
            None => claims(doc),
        }
        .into_iter()
        .map(|c| format!("{} {:?} {:?}", c.by.row().name, c.kind, c.phrase))
        .collect();
        println!("{found:?} <= {doc}");
    }
}

fn declared_ok(ty: &str) -> bool {
    matches!(ty.trim(), "num" | "str" | "list" | "-")
}
