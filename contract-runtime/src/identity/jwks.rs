//! The keys that sign access tokens: a JSON Web Key Set (RFC 7517) read from
//! a file or fetched from a URL, kept in memory, and read again when a token
//! names a key it does not hold, at most once per interval.
//!
//! Only asymmetric signing keys are kept (`RSA`, `EC`, `OKP`); a symmetric
//! `oct` key in the set is dropped, so no token is ever checked with an HMAC
//! keyed by something public. A set that cannot be had (the file unreadable,
//! the URL unreachable, the answer too large or not a key set) leaves the
//! keys held before in place; with none held, every token is refused with
//! 503 (the server fails closed).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, KeyOperations, PublicKeyUse};
use jsonwebtoken::{Algorithm, AlgorithmFamily, DecodingKey};
use serde_json::Value;

use super::Refusal;

/// Where the key set comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum JwksSource {
    /// A file, read again when a token names an unknown key.
    File(PathBuf),
    /// An `https://` URL (or `http://` on a loopback host, for tests and a
    /// local authorization server), fetched again when a token names an
    /// unknown key.
    Url(String),
}

impl JwksSource {
    /// A URL when `spec` starts with `https://` or `http://`, else a file
    /// path. A plain `http://` URL is accepted only for a loopback host:
    /// keys fetched in the clear from elsewhere could be anyone's.
    ///
    /// ```
    /// use contract_runtime::identity::oauth::JwksSource;
    /// assert!(JwksSource::parse("https://auth.example.com/jwks.json").is_ok());
    /// assert!(JwksSource::parse("http://127.0.0.1:8081/jwks").is_ok());
    /// assert!(JwksSource::parse("http://auth.example.com/jwks").is_err());
    /// assert_eq!(
    ///     JwksSource::parse("keys/jwks.json").unwrap(),
    ///     JwksSource::File("keys/jwks.json".into())
    /// );
    /// ```
    pub fn parse(spec: &str) -> Result<JwksSource, String> {
        if spec.starts_with("https://") {
            return Ok(JwksSource::Url(spec.to_owned()));
        }
        if let Some(rest) = spec.strip_prefix("http://") {
            let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
            let host = match authority.strip_prefix('[') {
                Some(v6) => v6.split(']').next().unwrap_or_default(),
                None => authority.rsplit_once(':').map_or(authority, |(h, _)| h),
            };
            let loopback = host == "localhost"
                || host
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback());
            if !loopback {
                return Err(format!(
                    "{spec}: a key set is fetched over https:// (plain http:// only from a loopback host)"
                ));
            }
            return Ok(JwksSource::Url(spec.to_owned()));
        }
        if spec.is_empty() {
            return Err("the key set needs a file path or an https:// URL".to_owned());
        }
        Ok(JwksSource::File(PathBuf::from(spec)))
    }
}

/// One usable key.
pub(super) struct Key {
    pub(super) key: DecodingKey,
    family: AlgorithmFamily,
    alg: Option<Algorithm>,
}

impl Key {
    /// Whether this key may verify a token signed with `alg`.
    pub(super) fn fits(&self, alg: Algorithm) -> bool {
        self.family == alg.family() && self.alg.is_none_or(|a| a == alg)
    }
}

/// The keys of one reading of the set.
#[derive(Default)]
pub(super) struct KeySet {
    /// Keys by id: several keys may share one of other types (RFC 7517,
    /// 4.5), so a token's `kid` and `alg` pick among them.
    by_kid: HashMap<String, Vec<Arc<Key>>>,
    all: Vec<Arc<Key>>,
}

impl KeySet {
    /// The key a token with this `kid` and `alg` names: the one of that id
    /// that fits the algorithm, or, for a token without one, the set's only
    /// key.
    fn find(&self, kid: Option<&str>, alg: Algorithm) -> Option<Arc<Key>> {
        let candidates = match kid {
            Some(kid) => self.by_kid.get(kid)?.as_slice(),
            None if self.all.len() == 1 => &self.all[..],
            None => return None,
        };
        candidates.iter().find(|key| key.fits(alg)).cloned()
    }

    /// Reads a JWKS document; keys that are not asymmetric signing keys, or
    /// cannot be read, are left out.
    fn parse(bytes: &[u8]) -> Result<KeySet, String> {
        let doc: Value =
            serde_json::from_slice(bytes).map_err(|e| format!("the key set is not JSON: {e}"))?;
        let Some(keys) = doc.get("keys").and_then(Value::as_array) else {
            return Err("the key set has no `keys` array".to_owned());
        };
        let mut set = KeySet::default();
        for raw in keys {
            let Ok(jwk) = serde_json::from_value::<Jwk>(raw.clone()) else {
                continue;
            };
            // A key for something else than verifying signatures, by its
            // `use` or its `key_ops` (RFC 7517, 4.2 and 4.3).
            if matches!(jwk.common.public_key_use, Some(ref u) if *u != PublicKeyUse::Signature)
                || matches!(&jwk.common.key_operations, Some(ops) if !ops.contains(&KeyOperations::Verify))
            {
                continue;
            }
            let family = match &jwk.algorithm {
                AlgorithmParameters::RSA(_) => AlgorithmFamily::Rsa,
                AlgorithmParameters::EllipticCurve(_) => AlgorithmFamily::Ec,
                AlgorithmParameters::OctetKeyPair(_) => AlgorithmFamily::Ed,
                // A shared secret published in a key set is no key of
                // ours, nor is a kind this release does not know.
                _ => continue,
            };
            let alg = jwk
                .common
                .key_algorithm
                .and_then(|a| a.to_string().parse::<Algorithm>().ok());
            let Ok(key) = DecodingKey::from_jwk(&jwk) else {
                continue;
            };
            let key = Arc::new(Key { key, family, alg });
            if let Some(kid) = &jwk.common.key_id {
                set.by_kid.entry(kid.clone()).or_default().push(key.clone());
            }
            set.all.push(key);
        }
        Ok(set)
    }
}

/// The key set, as held and refreshed.
pub(super) struct Jwks {
    source: JwksSource,
    held: RwLock<Option<Arc<KeySet>>>,
    /// When the set was last read (or tried); held across a read, so that
    /// concurrent tokens naming a new key wait for one read.
    last_read: tokio::sync::Mutex<Option<Instant>>,
    /// When the set held was read: past `max_age` it is read again, so a
    /// key the authorization server withdrew stops verifying.
    read_at: RwLock<Option<Instant>>,
    min_interval: Duration,
    max_age: Duration,
    max_bytes: usize,
    timeout: Duration,
}

impl Jwks {
    pub(super) fn new(
        source: JwksSource,
        min_interval: Duration,
        max_age: Duration,
        max_bytes: usize,
        timeout: Duration,
    ) -> Jwks {
        Jwks {
            source,
            held: RwLock::new(None),
            last_read: tokio::sync::Mutex::new(None),
            read_at: RwLock::new(None),
            min_interval,
            max_age,
            max_bytes,
            timeout,
        }
    }

    /// Reads a key set file now, so that a path that names no file, or a
    /// file that holds no key set, is refused when the server is built
    /// rather than answered 503 on every request; the set read is the one
    /// held. A URL is fetched on the first token, as its server may start
    /// later than this one.
    pub(super) fn read_file_now(&self) -> Result<(), String> {
        let JwksSource::File(path) = &self.source else {
            return Ok(());
        };
        let bytes = read_file(path, self.max_bytes).map_err(|e| format!("the key set file {e}"))?;
        let set = KeySet::parse(&bytes)
            .map_err(|e| format!("the key set file {}: {e}", path.display()))?;
        self.hold(set);
        Ok(())
    }

    /// Makes `set` the one held, read now.
    fn hold(&self, set: KeySet) -> Arc<KeySet> {
        let set = Arc::new(set);
        *self.held.write().unwrap_or_else(|e| e.into_inner()) = Some(set.clone());
        *self.read_at.write().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        set
    }

    /// Whether the set held was read longer than `max_age` ago.
    fn stale(&self) -> bool {
        self.read_at
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .is_some_and(|t| t.elapsed() >= self.max_age)
    }

    fn held(&self) -> Option<Arc<KeySet>> {
        self.held.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The key for a token's `kid` and `alg`: from the set held, else from
    /// the set read again (unless it was read less than the interval ago).
    pub(super) async fn key(&self, kid: Option<&str>, alg: Algorithm) -> Result<Arc<Key>, Refusal> {
        if !self.stale() {
            if let Some(key) = self.held().and_then(|s| s.find(kid, alg)) {
                return Ok(key);
            }
        }
        let mut last = self.last_read.lock().await;
        // Another token may have had the set read while this one waited.
        let held = self.held();
        let stale = self.stale();
        if !stale {
            if let Some(key) = held.as_ref().and_then(|s| s.find(kid, alg)) {
                return Ok(key);
            }
        }
        let recent = last.is_some_and(|t| t.elapsed() < self.min_interval);
        if !recent {
            *last = Some(Instant::now());
            match self.read().await {
                Ok(set) => {
                    let set = self.hold(set);
                    drop(last);
                    return set.find(kid, alg).ok_or_else(|| unknown(kid));
                }
                // A set held before stays in use while its source is out
                // of reach (an outage of the authorization server does not
                // lock everyone out); with none, fail closed.
                Err(e) if held.is_some() && stale => {
                    tracing::warn!(error = %e, "the JWKS could not be read again; the keys held are kept");
                }
                Err(e) => {
                    tracing::warn!(error = %e, "the JWKS could not be read");
                    return Err(Refusal::unavailable(
                        "the keys that sign tokens cannot be had now; try again later",
                    ));
                }
            }
        }
        if let Some(key) = held.as_ref().and_then(|s| s.find(kid, alg)) {
            return Ok(key);
        }
        match held {
            Some(_) => Err(unknown(kid)),
            // Never read successfully, and the last try was just now.
            None => Err(Refusal::unavailable(
                "the keys that sign tokens cannot be had now; try again later",
            )),
        }
    }

    /// Reads the set from its source, within the size limit.
    async fn read(&self) -> Result<KeySet, String> {
        let bytes = match &self.source {
            JwksSource::File(path) => {
                let path = path.clone();
                let max = self.max_bytes;
                tokio::task::spawn_blocking(move || read_file(&path, max))
                    .await
                    .map_err(|e| format!("reading the key set failed: {e}"))??
            }
            JwksSource::Url(url) => {
                let (url, max, timeout) = (url.clone(), self.max_bytes, self.timeout);
                tokio::task::spawn_blocking(move || fetch(&url, max, timeout))
                    .await
                    .map_err(|e| format!("fetching the key set failed: {e}"))??
            }
        };
        KeySet::parse(&bytes)
    }
}

fn unknown(kid: Option<&str>) -> Refusal {
    match kid {
        Some(_) => {
            Refusal::invalid_token("the token is signed with a key this server does not know")
        }
        None => Refusal::invalid_token("the token names no key (`kid`) this server can use"),
    }
}

fn read_file(path: &std::path::Path, max: usize) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() > max {
        return Err(format!("{} is larger than {max} bytes", path.display()));
    }
    Ok(bytes)
}

/// GETs the key set at `url`: at most `max` bytes, within `timeout`, a
/// 2xx answer only, at most three redirects from an `https://` URL and none
/// to plain `http://`; none at all from a plain `http://` source, which is
/// a loopback host ([`JwksSource::parse`], [`super::fetch::agent`]).
/// Blocking: called on tokio's blocking pool.
fn fetch(url: &str, max: usize, timeout: Duration) -> Result<Vec<u8>, String> {
    let mut answer = super::fetch::agent(url, 3, timeout)
        .get(url)
        .header("accept", "application/jwk-set+json, application/json")
        .call()
        .map_err(|e| format!("{url}: {e}"))?;
    let status = answer.status();
    if status.is_redirection() {
        return Err(format!(
            "{url}: answered {status}: a key set at a plain http:// URL follows no redirect"
        ));
    }
    if !status.is_success() {
        return Err(format!("{url}: answered {status}, not a key set"));
    }
    super::fetch::body(&mut answer, url, max, "the key set")
}
