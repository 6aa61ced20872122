//! The reader's findings on every text of the corpora and tool sets in this
//! directory, each read untyped and against nine declarations, summed into
//! one digest (`findings.digest`). A change that means to leave the
//! findings as they are (a restructuring: the driver, the recognizer table)
//! must leave the digest too; one that changes findings rewrites it with
//! `C12_BLESS=1`, and the diff of the corpus measurements says what moved.

use contract_prose::{claims, unmatched, Declared, Limits, Scalar};

/// FNV-1a over the findings' debug text: stable across toolchains and runs.
fn fnv(h: &mut u64, s: &str) {
    for b in s.bytes() {
        *h = (*h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
}

#[test]
fn findings_are_unchanged() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let limits = Limits {
        min: Some(1.0),
        max: Some(100.0),
        ..Limits::default()
    };
    let d = Declared::default();
    let typed = [
        Declared {
            is_string: true,
            scalar: Scalar::String,
            ..d
        },
        Declared {
            is_number: true,
            scalar: Scalar::Integer,
            ..d
        },
        Declared { is_list: true, ..d },
        Declared {
            is_string: true,
            length: true,
            length_limits: Some(limits),
            ..d
        },
        Declared {
            is_number: true,
            range: true,
            range_limits: Some(limits),
            ..d
        },
        Declared {
            is_list: true,
            length: true,
            length_limits: Some(limits),
            ..d
        },
        Declared {
            is_string: true,
            format: true,
            format_name: Some("date-time"),
            ..d
        },
        Declared {
            is_string: true,
            pattern: true,
            pattern_source: Some("^[a-z]{3}$"),
            ..d
        },
        Declared {
            closed_set: true,
            enum_values: &["asc", "desc", "json"],
            ..d
        },
    ];
    let (mut h, mut pairs, mut found) = (0xcbf2_9ce4_8422_2325_u64, 0, 0);
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a corpus");
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let doc = line
                .rsplit('\t')
                .next()
                .unwrap_or(line)
                .replace("\\n", "\n");
            let mut all = vec![claims(&doc)];
            all.extend(typed.iter().map(|t| unmatched(&doc, *t)));
            for c in &all {
                pairs += 1;
                found += c.len();
                fnv(&mut h, &format!("{c:?}"));
            }
        }
    }
    let got = format!("{pairs} (text, declaration) pairs, {found} findings, digest {h:016x}\n");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/findings.digest");
    if std::env::var_os("C12_BLESS").is_some() {
        std::fs::write(path, &got).expect("write findings.digest");
    }
    let want = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(
        got, want,
        "the findings moved; C12_BLESS=1 rewrites the digest when that is meant"
    );
}
