//! Compile-time rules C1-C13: each broken contract fails with the error in its
//! `.stderr`, and each correct one compiles. Regenerate the `.stderr` files
//! with `TRYBUILD=overwrite cargo test --test ui` and read the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
