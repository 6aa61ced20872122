//! The contradiction checks on the contradiction set (`tests/contradictions/`):
//! labelled pairs where the prose and the declaration truly disagree, each
//! with the check that should fire. Per check it counts true hits (the
//! labelled check fires), misses (it does not) and wrong-check hits (a check
//! fires on a pair labelled for another), for the drift pairs and the wild
//! ones apart; prints them (`--nocapture`), writes them to
//! `docs/rule-c12.md` (`C12_BLESS=1`) and asserts them, so a change that
//! loses a hit (or gains one) fails until the figures are updated.

#[path = "contradictions/pairs.rs"]
mod pairs;

use contract_prose::CHECKS;
use pairs::{counts, measured, Counts, Kind};

/// What the checks find, as measured: (check, labelled, true hits,
/// wrong-check hits) per kind.
const DRIFT: &[(&str, usize, usize, usize)] = &[
    ("set-wider", 94, 60, 1),
    ("set-narrower", 67, 40, 0),
    ("bounds", 49, 48, 0),
    ("pattern-repeat", 1, 0, 0),
    ("format", 19, 18, 0),
];
const WILD: &[(&str, usize, usize, usize)] = &[("set-narrower", 1, 0, 0), ("bounds", 1, 1, 0)];

#[test]
fn the_checks_find_the_labelled_contradictions() {
    use std::fmt::Write as _;
    let pairs = measured();
    let drift = counts(&pairs, Kind::Drift);
    let wild = counts(&pairs, Kind::Wild);
    let unchecked = |kind: Kind| {
        pairs
            .iter()
            .filter(|p| p.kind == kind && p.check.is_none())
            .count()
    };
    // the table of docs/rule-c12.md
    const BEGIN: &str =
        "<!-- contradiction set: written by tests/contradictions.rs (C12_BLESS=1), not by hand -->";
    const END: &str = "<!-- contradiction set: end -->";
    let mut t = format!(
        "{BEGIN}\n\n| check | drift: labelled | true hits | misses | recall | wrong-check hits | \
         wild: labelled | true hits | misses | wrong-check hits |\n|---|---|---|---|---|---|---|---|---|---|\n"
    );
    let recall = |c: &Counts| {
        if c.labelled == 0 {
            "-".to_string()
        } else {
            format!("{:.3}", c.hits as f64 / c.labelled as f64)
        }
    };
    let mut sum = [Counts::default(); 2];
    for (i, row) in CHECKS.iter().enumerate() {
        let (d, w) = (drift[i], wild[i]);
        let _ = writeln!(
            t,
            "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            row.name,
            d.labelled,
            d.hits,
            d.misses(),
            recall(&d),
            d.wrong,
            w.labelled,
            w.hits,
            w.misses(),
            w.wrong,
        );
        println!(
            "{:16} drift {:3} labelled, {:3} hits, {:3} misses, {:3} wrong-check | wild {} labelled, {} hits, {} wrong-check",
            row.name,
            d.labelled,
            d.hits,
            d.misses(),
            d.wrong,
            w.labelled,
            w.hits,
            w.wrong
        );
        for (s, c) in sum.iter_mut().zip([d, w]) {
            s.labelled += c.labelled;
            s.hits += c.hits;
            s.wrong += c.wrong;
        }
    }
    let _ = write!(
        t,
        "| no check | {} | | | | | {} | | | |\n| **all** | **{}** | **{}** | **{}** | **{}** | {} | **{}** | **{}** | **{}** | {} |\n\n{END}",
        unchecked(Kind::Drift),
        unchecked(Kind::Wild),
        sum[0].labelled + unchecked(Kind::Drift),
        sum[0].hits,
        sum[0].misses(),
        recall(&sum[0]),
        sum[0].wrong,
        sum[1].labelled + unchecked(Kind::Wild),
        sum[1].hits,
        sum[1].misses(),
        sum[1].wrong,
    );
    for p in &pairs {
        let hit = p.check.as_deref().is_some_and(|c| p.fired.contains(&c));
        if !hit || p.fired.iter().any(|f| Some(*f) != p.check.as_deref()) {
            println!(
                "  {} {:?}: labelled {:?}, fired {:?}",
                if hit { "wrong-check" } else { "miss" },
                p.kind,
                p.check,
                p.fired
            );
            println!("    {}", p.id);
        }
    }
    bless_docs(&t, BEGIN, END);
    let table = |c: &[Counts]| -> Vec<(&str, usize, usize, usize)> {
        CHECKS
            .iter()
            .zip(c)
            .filter(|(_, c)| c.labelled + c.wrong > 0)
            .map(|(r, c)| (r.name, c.labelled, c.hits, c.wrong))
            .collect()
    };
    assert_eq!(
        table(&drift),
        DRIFT,
        "drift: (check, labelled, hits, wrong)"
    );
    assert_eq!(table(&wild), WILD, "wild: (check, labelled, hits, wrong)");
}

/// Writes (`C12_BLESS=1`) or checks the set's table in `docs/rule-c12.md`,
/// between its markers.
fn bless_docs(table: &str, begin: &str, end: &str) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rule-c12.md");
    let text = std::fs::read_to_string(path).expect("docs/rule-c12.md");
    let b = text
        .find(begin)
        .expect("docs/rule-c12.md has the contradiction set's markers");
    let e = text.find(end).expect("end marker") + end.len();
    let want = format!("{}{table}{}", &text[..b], &text[e..]);
    if std::env::var_os("C12_BLESS").is_some() {
        std::fs::write(path, &want).expect("write docs/rule-c12.md");
    }
    assert!(
        std::fs::read_to_string(path).unwrap_or_default() == want,
        "docs/rule-c12.md's contradiction set is out of date; rerun with C12_BLESS=1 and read the diff"
    );
}

/// The drift pairs are what `build.py` writes from the false-alarm sets:
/// rebuilt byte for byte (`--check`), so neither the pairs nor the sets
/// they were made from changed unseen.
#[test]
fn the_drift_pairs_are_rebuilt_byte_for_byte() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/contradictions/build.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg("--check")
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
