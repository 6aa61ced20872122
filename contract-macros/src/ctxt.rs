//! One error accumulator per macro invocation, so a user sees every mistake of
//! an item in one compile (after serde_derive's `Ctxt`).

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;

pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
    keys: RefCell<Vec<KeyMet>>,
}

/// What the parser met about an attribute key that rule C11
/// (`check/keys.rs`) judges. The parser only notes it, and goes on: it knows
/// the grammar, the rule knows what to tell the user.
pub enum KeyMet {
    /// A key written a second time, at `span`.
    Twice { key: String, span: Span },
    /// A key that is none of `known`, in the attribute or list `what`.
    Unknown {
        tokens: TokenStream,
        what: &'static str,
        key: String,
        known: &'static [&'static str],
    },
}

impl Ctxt {
    pub fn new() -> Ctxt {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
            keys: RefCell::new(Vec::new()),
        }
    }

    /// Notes a key for rule C11, in the order the parser met it.
    pub fn key_met(&self, key: KeyMet) {
        self.keys.borrow_mut().push(key);
    }

    /// The keys noted so far, for rule C11 to report.
    pub fn take_keys(&self) -> Vec<KeyMet> {
        self.keys.take()
    }

    /// Records an error pointing at `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, msg: M) {
        self.syn_error(syn::Error::new_spanned(tokens.into_token_stream(), msg));
    }

    /// Records an error at a span.
    pub fn error_at<M: Display>(&self, span: proc_macro2::Span, msg: M) {
        self.syn_error(syn::Error::new(span, msg));
    }

    pub fn syn_error(&self, err: syn::Error) {
        if let Some(errors) = self.errors.borrow_mut().as_mut() {
            errors.push(err);
        }
    }

    pub fn has_errors(&self) -> bool {
        self.errors.borrow().as_ref().is_some_and(|e| !e.is_empty())
    }

    /// Consumes the context; every recorded error as one combined error.
    pub fn check(self) -> Result<(), syn::Error> {
        let mut errors = self.errors.take().unwrap_or_default().into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        // A forgotten check would silently drop the user's errors.
        if !std::thread::panicking() && self.errors.borrow().as_ref().is_some_and(|e| !e.is_empty())
        {
            panic!("contract-macros: errors recorded but never reported");
        }
        // A pipeline that parsed attributes but skipped rule C11 would let a
        // misspelled key pass silently.
        if !std::thread::panicking() && !self.keys.borrow().is_empty() {
            panic!("contract-macros: attribute keys noted but never judged (rule C11)");
        }
    }
}

/// Did-you-mean: the closest known key within edit distance 2.
pub fn suggest<'a>(unknown: &str, known: &[&'a str]) -> Option<&'a str> {
    // The same word spelled with other separators or case is the closest:
    // `datetime` and `DateTime` mean `date-time`, not `date`.
    let bare = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let unknown_bare = bare(unknown);
    // A prefix counts as close too: `timeout` means `timeout_ms`.
    known
        .iter()
        .map(|k| {
            if bare(k) == unknown_bare {
                return (0, *k);
            }
            let prefix = unknown.len() >= 4 && (k.starts_with(unknown) || unknown.starts_with(k));
            (if prefix { 1 } else { distance(unknown, k) }, *k)
        })
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
