//! An OAuth 2.1 resource server: bearer access tokens that are JWTs
//! (RFC 9068), checked against the authorization server's key set, as MCP's
//! authorization spec asks of a server. Enabled by the `oauth` feature
//! (signatures by the `jsonwebtoken` crate's pure-Rust backend; a key set
//! at an `https://` URL fetched with `ureq` over rustls).
//!
//! A token is accepted when, in this order:
//!
//! 1. it is the one `Authorization: Bearer` header, at most
//!    [`JwtConfig::max_token_bytes`] long;
//! 2. its header names an algorithm of the allowlist
//!    ([`JwtConfig::algorithms`]: RSA, RSA-PSS, ECDSA and EdDSA only; `none`
//!    and every HMAC algorithm are refused before any key is looked at, so a
//!    token "signed" with the public key as an HMAC secret never verifies);
//! 3. its `kid` names a key of the set ([`JwksSource`]) of the same family
//!    and, when the key says, the same algorithm (an unknown `kid` reads the
//!    set again, at most once per [`JwtConfig::jwks_min_refresh`]);
//! 4. the signature verifies (the `jsonwebtoken` crate's, never ours);
//! 5. `iss` is the issuer, `aud` names the resource (RFC 8707), `exp` has
//!    not passed and `nbf`, when present, has, each within
//!    [`JwtConfig::leeway`];
//! 6. `sub` is a non-empty string, and the tenant claim
//!    ([`JwtConfig::tenant_claim`], `tenant` by default) a non-empty string.
//!
//! The caller is then `sub` as the subject, the tenant claim as the tenant,
//! and `scope` (space-separated) or `scp` (an array, or a string) as the
//! scopes, over what the host builds for every caller
//! ([`JwtAuthenticator::with_caller`]: roots, secrets, state). The token
//! itself is registered as a secret of the caller, so it is scrubbed from
//! every envelope, log line and journal entry should a tool echo it.
//!
//! A token that fails any step answers 401 `invalid_token` with a
//! description that never contains the token; a key set that cannot be had
//! answers 503. Accepted tokens are remembered, with their caller, for at most
//! a minute and never past their `exp` ([`JwtConfig::token_cache`]), so a
//! client sending the same token on every request pays for one signature
//! check a minute.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::Validation;
use serde_json::{Map, Value};

use super::jwks::Jwks;
pub use super::jwks::JwksSource;
use super::{bearer_token, AuthFuture, Authenticator, Refusal, ResourceMetadata};
use crate::context::Caller;
/// The signature algorithms a [`JwtConfig`] names.
pub use jsonwebtoken::Algorithm;

/// How tokens are checked. [`JwtConfig::new`] gives the safe defaults.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct JwtConfig {
    /// Where the keys are.
    pub jwks: JwksSource,
    /// The authorization server's issuer identifier: `iss` must equal it.
    pub issuer: String,
    /// This resource's URL (the MCP endpoint, e.g.
    /// `https://tools.example.com/mcp`): `aud` must name it.
    pub audience: String,
    /// The claim that names the tenant (default `tenant`).
    pub tenant_claim: String,
    /// The signature algorithms accepted (default: RS256, RS384, RS512,
    /// PS256, PS384, PS512, ES256, ES384, EdDSA). HMAC algorithms are never
    /// accepted, even if listed.
    pub algorithms: Vec<Algorithm>,
    /// How far `exp` and `nbf` may be off (default 30 s).
    pub leeway: Duration,
    /// The longest token read (default 8 KiB).
    pub max_token_bytes: usize,
    /// The largest key set read (default 256 KiB).
    pub max_jwks_bytes: usize,
    /// The shortest time between two readings of the key set (default 30 s):
    /// tokens naming unknown keys cannot make the server hammer its
    /// authorization server.
    pub jwks_min_refresh: Duration,
    /// How long a key set is used before it is read again (default 10 min),
    /// so that a key the authorization server withdrew stops verifying. If
    /// the set cannot be read then, the keys held stay in use.
    pub jwks_max_age: Duration,
    /// How long fetching the key set may take (default 5 s).
    pub jwks_timeout: Duration,
    /// How many accepted tokens are remembered (default 4096; 0: check the
    /// signature of every request).
    pub token_cache: usize,
    /// The authorization servers named in the resource metadata (default:
    /// the issuer).
    pub authorization_servers: Vec<String>,
}

impl JwtConfig {
    /// Tokens from `issuer`, for `audience`, signed by keys in `jwks`.
    pub fn new(jwks: JwksSource, issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        let issuer = issuer.into();
        JwtConfig {
            jwks,
            authorization_servers: vec![issuer.clone()],
            issuer,
            audience: audience.into(),
            tenant_claim: "tenant".to_owned(),
            algorithms: vec![
                Algorithm::RS256,
                Algorithm::RS384,
                Algorithm::RS512,
                Algorithm::PS256,
                Algorithm::PS384,
                Algorithm::PS512,
                Algorithm::ES256,
                Algorithm::ES384,
                Algorithm::EdDSA,
            ],
            leeway: Duration::from_secs(30),
            max_token_bytes: 8 * 1024,
            max_jwks_bytes: 256 * 1024,
            jwks_min_refresh: Duration::from_secs(30),
            jwks_max_age: Duration::from_secs(600),
            jwks_timeout: Duration::from_secs(5),
            token_cache: 4096,
        }
    }

    /// This configuration with the tenant named by claim `name`.
    pub fn with_tenant_claim(mut self, name: impl Into<String>) -> Self {
        self.tenant_claim = name.into();
        self
    }

    /// This configuration remembering at most `n` accepted tokens (0: none).
    pub fn with_token_cache(mut self, n: usize) -> Self {
        self.token_cache = n;
        self
    }

    /// This configuration accepting only the signature algorithms `algs`
    /// (HMAC algorithms among them are still refused).
    pub fn with_algorithms(mut self, algs: impl IntoIterator<Item = Algorithm>) -> Self {
        self.algorithms = algs.into_iter().collect();
        self
    }

    /// This configuration allowing `exp` and `nbf` to be off by `leeway`.
    pub fn with_leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// This configuration naming `servers` as the authorization servers in
    /// the resource metadata (instead of the issuer).
    pub fn with_authorization_servers(mut self, servers: Vec<String>) -> Self {
        self.authorization_servers = servers;
        self
    }

    /// This configuration reading the key set at most once per `interval`.
    pub fn with_jwks_min_refresh(mut self, interval: Duration) -> Self {
        self.jwks_min_refresh = interval;
        self
    }
}

/// Who a valid token says is calling.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Identity {
    /// `sub`.
    pub subject: String,
    /// The tenant claim.
    pub tenant: String,
    /// `scope` or `scp`.
    pub scopes: Vec<String>,
    /// Every claim of the token, for a host that maps more of them.
    pub claims: Map<String, Value>,
}

impl Identity {
    /// The identity `claims` name: `sub`, a non-empty string, as the
    /// subject; the claim `tenant_claim`, a non-empty string, as the
    /// tenant; `scope` or `scp` as the scopes.
    pub(super) fn of(claims: Map<String, Value>, tenant_claim: &str) -> Result<Identity, Refusal> {
        let subject = match claims.get("sub") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            _ => return Err(Refusal::invalid_token("the token's `sub` is not a name")),
        };
        let tenant = match claims.get(tenant_claim) {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            _ => {
                return Err(Refusal::invalid_token(format!(
                    "the token names no tenant (claim `{tenant_claim}`)"
                )))
            }
        };
        let scopes = scopes(&claims);
        Ok(Identity {
            subject,
            tenant,
            scopes,
            claims,
        })
    }

    /// `caller` with this identity's subject, tenant and scopes.
    pub fn apply(&self, caller: Caller) -> Caller {
        let caller = caller.subject(&self.subject).tenant(&self.tenant);
        self.scopes.iter().fold(caller, |c, s| c.grant(s))
    }
}

pub(super) type BuildCaller = dyn Fn(&Identity) -> Result<Caller, Refusal> + Send + Sync;

/// Accepted tokens: the caller, and until when. At most `cap` of them (0:
/// none); full, those past their time go, and if none has, all do.
///
/// Keyed by the token itself, compared whole. The caller it maps to holds
/// the token already (a secret to scrub from what the call returns), so the
/// key keeps nothing the memory did not hold; a SHA-256 of the token, the
/// key before, cost 34.6 k instructions on every request (`sha2`'s portable
/// code), where the map's keyed hash and one comparison cost a few hundred.
pub(super) struct Accepted {
    cap: usize,
    held: Mutex<HashMap<Box<str>, Remembered>>,
}

/// An accepted token's caller, and until when it is remembered.
type Remembered = (Arc<Caller>, Instant);

impl Accepted {
    pub(super) fn new(cap: usize) -> Accepted {
        Accepted {
            cap,
            held: Mutex::new(HashMap::new()),
        }
    }

    /// What both authenticators do before checking a token: refuse one
    /// longer than `max` bytes (before it is read any further), and answer
    /// a token accepted before with its caller, while it is remembered.
    pub(super) fn before_check(
        &self,
        token: &str,
        max: usize,
    ) -> Result<Option<Arc<Caller>>, Refusal> {
        if token.len() > max {
            return Err(Refusal::invalid_token(format!(
                "the token is longer than {max} bytes"
            )));
        }
        Ok(self.get(token))
    }

    /// The caller of a token accepted before, while it is remembered.
    pub(super) fn get(&self, token: &str) -> Option<Arc<Caller>> {
        if self.cap == 0 {
            return None;
        }
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        match held.get(token) {
            Some((caller, until)) if Instant::now() < *until => Some(caller.clone()),
            _ => None,
        }
    }

    /// Remembers a token's caller for `for_secs` seconds.
    pub(super) fn put(&self, token: &str, caller: &Arc<Caller>, for_secs: u64) {
        if self.cap == 0 {
            return;
        }
        let until = Instant::now() + Duration::from_secs(for_secs);
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if held.len() >= self.cap {
            let now = Instant::now();
            held.retain(|_, (_, until)| *until > now);
            if held.len() >= self.cap {
                held.clear();
            }
        }
        held.insert(token.into(), (caller.clone(), until));
    }
}

/// Checks bearer JWTs; see the module docs.
///
/// ```no_run
/// use contract_runtime::identity::oauth::{JwtAuthenticator, JwtConfig, JwksSource};
/// let config = JwtConfig::new(
///     JwksSource::parse("https://auth.example.com/.well-known/jwks.json").unwrap(),
///     "https://auth.example.com",
///     "https://tools.example.com/mcp",
/// );
/// let auth = JwtAuthenticator::new(config).unwrap();
/// ```
pub struct JwtAuthenticator {
    config: JwtConfig,
    jwks: Jwks,
    /// One validation per accepted algorithm: `jsonwebtoken` wants every
    /// algorithm of a validation to be of its key's family.
    validations: Vec<(Algorithm, Validation)>,
    build: Box<BuildCaller>,
    accepted: Accepted,
}

impl std::fmt::Debug for JwtAuthenticator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtAuthenticator")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl JwtAuthenticator {
    /// An authenticator for `config`; callers carry only what the token
    /// gives (see [`JwtAuthenticator::with_caller`]). Fails when the
    /// configuration accepts no asymmetric algorithm, names no issuer or
    /// audience or an audience with a fragment, and when its key set is a
    /// file that cannot be read or holds no key set (the file is read here;
    /// a URL is fetched on the first token).
    pub fn new(config: JwtConfig) -> Result<JwtAuthenticator, String> {
        if config.issuer.is_empty() || config.audience.is_empty() {
            return Err("a token check needs an issuer and an audience".to_owned());
        }
        super::check_audience(&config.audience)?;
        let validations: Vec<(Algorithm, Validation)> = config
            .algorithms
            .iter()
            .copied()
            .filter(|a| !matches!(a, Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512))
            .map(|alg| {
                let mut v = Validation::new(alg);
                v.set_issuer(&[&config.issuer]);
                v.set_audience(&[&config.audience]);
                v.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
                v.leeway = config.leeway.as_secs();
                v.validate_exp = true;
                v.validate_nbf = true;
                (alg, v)
            })
            .collect();
        if validations.is_empty() {
            return Err("no asymmetric signature algorithm is accepted".to_owned());
        }
        let jwks = Jwks::new(
            config.jwks.clone(),
            config.jwks_min_refresh,
            config.jwks_max_age,
            config.max_jwks_bytes,
            config.jwks_timeout,
        );
        jwks.read_file_now()?;
        Ok(JwtAuthenticator {
            jwks,
            validations,
            build: Box::new(|id: &Identity| Ok(id.apply(Caller::new()))),
            accepted: Accepted::new(config.token_cache),
            config,
        })
    }

    /// Builds each caller with `build`: the host's roots, secrets and state,
    /// and the identity ([`Identity::apply`] adds subject, tenant and
    /// scopes). `build` may refuse a valid token (a tenant the host does not
    /// serve: [`Refusal::insufficient_scope`] or [`Refusal::invalid_token`]).
    /// It runs once per token, not per request (accepted tokens are
    /// remembered, see the module docs).
    pub fn with_caller(
        mut self,
        build: impl Fn(&Identity) -> Result<Caller, Refusal> + Send + Sync + 'static,
    ) -> Self {
        self.build = Box::new(build);
        self
    }

    /// The configuration.
    pub fn config(&self) -> &JwtConfig {
        &self.config
    }

    /// The caller of a bearer token (without the `Bearer ` prefix).
    pub async fn caller_of(&self, token: &str) -> Result<Arc<Caller>, Refusal> {
        if let Some(caller) = self
            .accepted
            .before_check(token, self.config.max_token_bytes)?
        {
            return Ok(caller);
        }
        let (identity, exp) = self.check(token).await?;
        let caller = Arc::new((self.build)(&identity)?.secret(token));
        let left = exp.saturating_sub(now_secs());
        self.accepted.put(token, &caller, left.min(60));
        Ok(caller)
    }

    /// Verifies `token`: its identity and its `exp`.
    async fn check(&self, token: &str) -> Result<(Identity, u64), Refusal> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| {
            Refusal::invalid_token(
                "the token is not a JWT signed with an accepted algorithm (its header cannot be read, or names none or an unknown one)",
            )
        })?;
        let Some((alg, validation)) = self.validations.iter().find(|(a, _)| *a == header.alg)
        else {
            return Err(Refusal::invalid_token(format!(
                "tokens signed with {:?} are not accepted",
                header.alg
            )));
        };
        let key = self.jwks.key(header.kid.as_deref(), *alg).await?;
        let data = jsonwebtoken::decode::<Map<String, Value>>(token, &key.key, validation)
            .map_err(|e| Refusal::invalid_token(described(e.kind())))?;
        let exp = data.claims.get("exp").and_then(Value::as_u64).unwrap_or(0);
        Ok((Identity::of(data.claims, &self.config.tenant_claim)?, exp))
    }

    /// The Protected Resource Metadata of this resource (the MCP server adds
    /// the registry's authorities as `scopes_supported`).
    pub fn metadata(&self) -> ResourceMetadata {
        ResourceMetadata::new(
            self.config.audience.clone(),
            self.config.authorization_servers.clone(),
        )
    }
}

impl Authenticator for JwtAuthenticator {
    fn authenticate<'a>(&'a self, request: &'a http::request::Parts) -> AuthFuture<'a> {
        Box::pin(async move {
            let token = bearer_token(request, self.config.max_token_bytes)?;
            self.caller_of(token).await
        })
    }

    fn resource_metadata(&self) -> Option<ResourceMetadata> {
        Some(self.metadata())
    }
}

/// `scope` (space-separated) or, failing that, `scp` (an array of names or
/// one space-separated string).
fn scopes(claims: &Map<String, Value>) -> Vec<String> {
    let words = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_owned).collect() };
    match (claims.get("scope"), claims.get("scp")) {
        (Some(Value::String(s)), _) => words(s),
        (_, Some(Value::String(s))) => words(s),
        (_, Some(Value::Array(a))) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

/// Why a token was refused, in words that never quote it.
fn described(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired".to_owned(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (`nbf`)".to_owned(),
        ErrorKind::InvalidIssuer => "the token was issued by another issuer".to_owned(),
        ErrorKind::InvalidAudience => "the token is meant for another resource (`aud`)".to_owned(),
        ErrorKind::InvalidSignature => "the token's signature does not verify".to_owned(),
        ErrorKind::InvalidAlgorithm | ErrorKind::InvalidAlgorithmName => {
            "the token's algorithm does not fit its key".to_owned()
        }
        ErrorKind::MissingRequiredClaim(c) => format!("the token has no `{c}` claim"),
        _ => "the token cannot be read".to_owned(),
    }
}

pub(super) fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    //! Tokens minted here with `jsonwebtoken`'s encoder and fixed test keys
    //! (made once with Python's `cryptography`); the end-to-end attack table,
    //! with tokens minted by PyJWT against the toolbox's server, is
    //! `tests/mcp_oauth.rs`.

    use std::io::{Read, Write};
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use jsonwebtoken::{encode, EncodingKey, Header};
    use serde_json::{json, Value};

    use super::*;

    const ISS: &str = "https://auth.test";
    const AUD: &str = "https://tools.test/mcp";
    /// PKCS#8 DER of the Ed25519 key `ed-1`, the P-256 key `ec-1`, and a
    /// stranger's Ed25519 key the server never hears of.
    const ED: &str = "302e020100300506032b65700422042097b221d1841cc6833090bd260e9e5ff92a8e2face90df750fe81e4daf0114bdd";
    const EC: &str = "308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b02010104200f9123c9252845fb5d308826b56a53d3a8fd1138e9c22e789d7b55bd93b1c83ba14403420004738af9094a6be253e660af88b9899c8ba5195a7b315c183caf013020a73047146bdbdc7486b3118f5ad23f6243574cb11376d454fbe23f5b355fd9b42aea7696";
    const STRANGER: &str = "302e020100300506032b6570042204203e6c9faec822c670dcf1cb0396392d5dba86c3d1e5be1f3a22d6a7cfa416d96b";

    fn jwks() -> Value {
        json!({"keys": [
            {"kty": "OKP", "crv": "Ed25519", "x": "bO07ofe54q1zFmAbic4wGFAQrWHL3YxDmeF5v8JOBd8", "kid": "ed-1", "use": "sig", "alg": "EdDSA"},
            {"kty": "EC", "crv": "P-256", "x": "c4r5CUpr4lPmYK-IuYmci6UZWnsxXBg8rwEwIKcwRxQ", "y": "a9vcdIazEY9a0j9iQ1dMsRN21FT74j9bNV_ZtCrqdpY", "kid": "ec-1"},
            // A shared secret published in the set: never used.
            {"kty": "oct", "k": "c2VjcmV0", "kid": "hs-1"}
        ]})
    }

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    fn now() -> i64 {
        now_secs() as i64
    }

    fn claims(over: Value) -> Value {
        let mut c = json!({"iss": ISS, "aud": AUD, "sub": "ana", "tenant": "acme",
            "scope": "notes:read notes:write", "iat": now(), "exp": now() + 600});
        for (k, v) in over.as_object().unwrap() {
            if v.is_null() {
                c.as_object_mut().unwrap().remove(k);
            } else {
                c[k] = v.clone();
            }
        }
        c
    }

    fn ed_token(kid: &str, key: &str, over: Value) -> String {
        let mut h = Header::new(Algorithm::EdDSA);
        h.kid = Some(kid.to_owned());
        encode(&h, &claims(over), &EncodingKey::from_ed_der(&hex(key))).unwrap()
    }

    fn token(over: Value) -> String {
        ed_token("ed-1", ED, over)
    }

    fn b64(bytes: &[u8]) -> String {
        const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
            for i in 0..=chunk.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            }
        }
        out
    }

    fn key_file(name: &str, doc: &Value) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("oauth-unit-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("jwks.json");
        std::fs::write(&path, doc.to_string()).unwrap();
        path
    }

    fn auth(name: &str) -> JwtAuthenticator {
        JwtAuthenticator::new(JwtConfig::new(
            JwksSource::File(key_file(name, &jwks())),
            ISS,
            AUD,
        ))
        .unwrap()
    }

    async fn refused(a: &JwtAuthenticator, token: &str) -> Refusal {
        match a.caller_of(token).await {
            Ok(c) => panic!("accepted as {}", c.name()),
            Err(r) => r,
        }
    }

    #[tokio::test]
    async fn a_valid_token_names_subject_tenant_and_scopes() {
        let a = auth("valid");
        let c = a.caller_of(&token(json!({}))).await.unwrap();
        assert_eq!(c.subject_name(), Some("ana"));
        assert_eq!(c.tenant_name(), Some("acme"));
        assert!(c.has_scope("notes:read") && c.has_scope("notes:write"));
        assert!(!c.has_scope("repo:write"));
        // The P-256 key verifies too, and `scp` as an array is read.
        let mut h = Header::new(Algorithm::ES256);
        h.kid = Some("ec-1".into());
        let es = encode(
            &h,
            &claims(json!({"scope": null, "scp": ["repo:read"]})),
            &EncodingKey::from_ec_der(&hex(EC)),
        )
        .unwrap();
        let c = a.caller_of(&es).await.unwrap();
        assert!(c.has_scope("repo:read") && !c.has_scope("notes:read"));
    }

    #[tokio::test]
    async fn the_tenant_comes_from_the_configured_claim() {
        let config = JwtConfig::new(JwksSource::File(key_file("claim", &jwks())), ISS, AUD)
            .with_tenant_claim("org_id");
        let a = JwtAuthenticator::new(config).unwrap();
        let c = a
            .caller_of(&token(json!({"org_id": "globex"})))
            .await
            .unwrap();
        assert_eq!(c.tenant_name(), Some("globex"));
        let r = refused(&a, &token(json!({"org_id": null}))).await;
        assert!(r.description().contains("claim `org_id`"), "{r}");
    }

    #[tokio::test]
    async fn every_attack_is_an_invalid_token_that_never_quotes_it() {
        let a = auth("attacks");
        let good = token(json!({}));
        let (head, rest) = good.split_once('.').unwrap();
        let sig = rest.split_once('.').unwrap().1;
        let forged_body = b64(claims(json!({"sub": "root"})).to_string().as_bytes());
        let none_head = b64(br#"{"alg":"none","typ":"JWT","kid":"ed-1"}"#);
        let hs_head = b64(br#"{"alg":"HS256","typ":"JWT","kid":"hs-1"}"#);
        let body = b64(claims(json!({})).to_string().as_bytes());
        for (case, t, says) in [
            ("expired", token(json!({"exp": now() - 3600})), "expired"),
            ("within the leeway", token(json!({"exp": now() - 5})), ""),
            (
                "not yet valid",
                token(json!({"nbf": now() + 3600})),
                "not valid yet",
            ),
            (
                "wrong issuer",
                token(json!({"iss": "https://evil.test"})),
                "another issuer",
            ),
            (
                "wrong audience",
                token(json!({"aud": "https://other.test/mcp"})),
                "another resource",
            ),
            ("no exp", token(json!({"exp": null})), "no `exp`"),
            ("no sub", token(json!({"sub": null})), "no `sub`"),
            (
                "alg none",
                format!("{none_head}.{body}."),
                "not a JWT signed with an accepted algorithm",
            ),
            (
                "HS256 keyed with the set's secret",
                format!("{hs_head}.{body}.{sig}"),
                "HS256",
            ),
            (
                "tampered payload",
                format!("{head}.{forged_body}.{sig}"),
                "signature does not verify",
            ),
            (
                "unknown kid",
                ed_token("ed-2", STRANGER, json!({})),
                "does not know",
            ),
            (
                "a stranger under a known kid",
                ed_token("ed-1", STRANGER, json!({})),
                "signature does not verify",
            ),
            ("garbage", "not.a.jwt".to_owned(), "not a JWT"),
            ("oversized", "a".repeat(9000), "longer than"),
        ] {
            if says.is_empty() {
                assert!(a.caller_of(&t).await.is_ok(), "{case}");
                continue;
            }
            let r = refused(&a, &t).await;
            assert_eq!(
                (r.status(), r.error()),
                (401, Some("invalid_token")),
                "{case}: {r}"
            );
            assert!(r.description().contains(says), "{case}: {r}");
            assert!(!r.description().contains("eyJ"), "{case}: {r}");
        }
    }

    /// RFC 7517: keys of other types may share an id (4.5), so the token's
    /// `alg` picks among them, in either order; a key whose `key_ops` do
    /// not include `verify` verifies nothing, as one whose `use` is not
    /// `sig` (4.2, 4.3).
    #[tokio::test]
    async fn keys_sharing_an_id_are_told_apart_and_key_ops_are_honoured() {
        let ed = jwks()["keys"][0].clone();
        let ec = jwks()["keys"][1].clone();
        let with = |key: &Value, kid: &str, extra: Value| {
            let mut k = key.clone();
            k["kid"] = json!(kid);
            k.as_object_mut().unwrap().remove("use");
            for (name, v) in extra.as_object().unwrap() {
                k[name] = v.clone();
            }
            k
        };
        let es_token = |kid: &str| {
            let mut h = Header::new(Algorithm::ES256);
            h.kid = Some(kid.into());
            encode(&h, &claims(json!({})), &EncodingKey::from_ec_der(&hex(EC))).unwrap()
        };
        for (name, keys) in [
            (
                "ed-first",
                vec![with(&ed, "dup", json!({})), with(&ec, "dup", json!({}))],
            ),
            (
                "ec-first",
                vec![with(&ec, "dup", json!({})), with(&ed, "dup", json!({}))],
            ),
        ] {
            let mut keys = keys;
            keys.push(with(&ed, "enc-only", json!({"key_ops": ["encrypt"]})));
            keys.push(with(&ed, "verify", json!({"key_ops": ["verify"]})));
            let doc = json!({ "keys": keys });
            let a = JwtAuthenticator::new(JwtConfig::new(
                JwksSource::File(key_file(name, &doc)),
                ISS,
                AUD,
            ))
            .unwrap();
            assert!(
                a.caller_of(&ed_token("dup", ED, json!({}))).await.is_ok(),
                "{name}: EdDSA"
            );
            assert!(a.caller_of(&es_token("dup")).await.is_ok(), "{name}: ES256");
            assert!(
                a.caller_of(&ed_token("verify", ED, json!({})))
                    .await
                    .is_ok(),
                "{name}"
            );
            let r = refused(&a, &ed_token("enc-only", ED, json!({}))).await;
            assert!(r.description().contains("does not know"), "{name}: {r}");
        }
    }

    /// A resource's URL has no fragment (RFC 8707): the metadata and every
    /// challenge would repeat it.
    #[test]
    fn an_audience_with_a_fragment_is_refused() {
        let config = JwtConfig::new(
            JwksSource::File(key_file("frag", &jwks())),
            ISS,
            "https://tools.test/mcp#x",
        );
        let Err(e) = JwtAuthenticator::new(config) else {
            panic!("an audience with a fragment was accepted")
        };
        assert!(e.contains("fragment"), "{e}");
    }

    #[test]
    fn hmac_algorithms_are_never_accepted_even_when_listed() {
        let config = JwtConfig::new(JwksSource::File("k.json".into()), ISS, AUD)
            .with_algorithms([Algorithm::HS256]);
        assert!(JwtAuthenticator::new(config)
            .unwrap_err()
            .contains("asymmetric"));
        let no_aud = JwtConfig::new(JwksSource::File("k.json".into()), ISS, "");
        assert!(JwtAuthenticator::new(no_aud).is_err());
    }

    /// A mistyped key set path is an error when the server is built, with
    /// the path, not a 503 to every token later (nothing logged it before).
    #[test]
    fn a_key_set_file_that_cannot_be_read_is_refused_when_built() {
        let missing = std::env::temp_dir().join("oauth-unit-no-such-dir/jwks.json");
        let config = JwtConfig::new(JwksSource::File(missing.clone()), ISS, AUD);
        let e = JwtAuthenticator::new(config).unwrap_err();
        assert!(
            e.starts_with(&format!("the key set file {}: ", missing.display())),
            "{e}"
        );
        let garbage = key_file("garbage", &json!("not a key set"));
        let e =
            JwtAuthenticator::new(JwtConfig::new(JwksSource::File(garbage), ISS, AUD)).unwrap_err();
        assert!(e.ends_with("the key set has no `keys` array"), "{e}");
    }

    #[tokio::test]
    async fn the_token_is_a_secret_of_its_caller() {
        let a = auth("secret");
        let t = token(json!({}));
        let c = a.caller_of(&t).await.unwrap();
        let scrubbed = c.secrets().scrub_str(&format!("echo {t}")).unwrap();
        assert!(!scrubbed.contains(&t), "{scrubbed}");
    }

    /// A key server on a loopback port that answers each GET with the
    /// current document, and counts the GETs.
    fn key_server(doc: Arc<Mutex<Value>>, hits: Arc<AtomicUsize>) -> String {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/jwks.json", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut s) = stream else { return };
                let mut buf = [0u8; 4096];
                let _ = s.read(&mut buf);
                hits.fetch_add(1, Ordering::SeqCst);
                let body = doc.lock().unwrap().to_string();
                let _ = write!(
                    s,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        url
    }

    #[tokio::test]
    async fn an_unknown_kid_reads_the_set_again_at_most_once_per_interval() {
        let doc = Arc::new(Mutex::new(json!({"keys": []})));
        let hits = Arc::new(AtomicUsize::new(0));
        let url = key_server(doc.clone(), hits.clone());
        let config = JwtConfig::new(JwksSource::parse(&url).unwrap(), ISS, AUD)
            .with_jwks_min_refresh(Duration::from_millis(300));
        let a = JwtAuthenticator::new(config).unwrap();
        // The set has no key yet: refused, one read.
        let r = refused(&a, &token(json!({}))).await;
        assert_eq!(r.status(), 401, "{r}");
        assert_eq!(hits.load(Ordering::SeqCst), 1);
        // The key appears (rotation); within the interval, no second read.
        *doc.lock().unwrap() = jwks();
        for _ in 0..5 {
            assert_eq!(
                refused(&a, &ed_token("ed-9", STRANGER, json!({})))
                    .await
                    .status(),
                401
            );
        }
        assert_eq!(
            hits.load(Ordering::SeqCst),
            1,
            "unknown kids do not hammer the key server"
        );
        tokio::time::sleep(Duration::from_millis(350)).await;
        let c = a.caller_of(&token(json!({}))).await.unwrap();
        assert_eq!(c.subject_name(), Some("ana"));
        assert_eq!(hits.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_key_set_out_of_reach_fails_closed_with_503() {
        // A port nothing listens on.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let config = JwtConfig::new(
            JwksSource::parse(&format!("http://127.0.0.1:{port}/jwks")).unwrap(),
            ISS,
            AUD,
        );
        let a = JwtAuthenticator::new(config).unwrap();
        let r = refused(&a, &token(json!({}))).await;
        assert_eq!(r.status(), 503, "{r}");
        assert_eq!(r.www_authenticate(None), None);
        // An oversized set is refused the same way.
        let big = json!({"keys": [], "pad": "x".repeat(300 * 1024)});
        let url = key_server(Arc::new(Mutex::new(big)), Arc::new(AtomicUsize::new(0)));
        let a = JwtAuthenticator::new(JwtConfig::new(JwksSource::parse(&url).unwrap(), ISS, AUD))
            .unwrap();
        assert_eq!(refused(&a, &token(json!({}))).await.status(), 503);
    }

    /// A key set at a plain `http://` URL is a loopback host's: a redirect
    /// from it could lead off the host, to keys anyone on the path can
    /// replace, so none is followed. The keys it points to are never read
    /// and the token is refused as with a key set out of reach.
    #[tokio::test]
    async fn a_plain_http_key_set_follows_no_redirect() {
        let hits = Arc::new(AtomicUsize::new(0));
        let elsewhere = key_server(Arc::new(Mutex::new(jwks())), hits.clone());
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/jwks.json", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut s) = stream else { return };
                let _ = s.read(&mut [0u8; 4096]);
                let _ = write!(
                    s,
                    "HTTP/1.1 302 Found\r\nlocation: {elsewhere}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                );
            }
        });
        let a = JwtAuthenticator::new(JwtConfig::new(JwksSource::parse(&url).unwrap(), ISS, AUD))
            .unwrap();
        let r = refused(&a, &token(json!({}))).await;
        assert_eq!(r.status(), 503, "{r}");
        assert_eq!(hits.load(Ordering::SeqCst), 0, "the redirect was followed");
    }

    #[tokio::test]
    async fn bearer_tokens_come_from_the_authorization_header_only() {
        let a = auth("header");
        let req = |v: Option<&str>| {
            let mut b = http::Request::builder().uri("/mcp?access_token=x");
            if let Some(v) = v {
                b = b.header("authorization", v);
            }
            b.body(()).unwrap().into_parts().0
        };
        let Err(none) = a.authenticate(&req(None)).await else {
            panic!("a request without a token was served")
        };
        assert_eq!((none.status(), none.error()), (401, None));
        let ok = a
            .authenticate(&req(Some(&format!("bearer {}", token(json!({}))))))
            .await
            .unwrap();
        assert_eq!(ok.subject_name(), Some("ana"));
        let meta = a.resource_metadata().unwrap();
        assert_eq!(meta.resource, AUD);
        assert_eq!(meta.authorization_servers, vec![ISS.to_owned()]);
    }
}
