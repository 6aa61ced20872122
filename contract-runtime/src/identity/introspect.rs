//! Opaque bearer tokens, asked about at the authorization server's
//! introspection endpoint (RFC 7662). Enabled by the `oauth` feature (the
//! endpoint is called with `ureq` over rustls).
//!
//! For each token it has not seen, the server POSTs `token=...` to the
//! endpoint, authenticated as a client of the authorization server (HTTP
//! Basic with the client id and secret, RFC 7662 section 2.1), within a
//! timeout and a size limit. The token is accepted when the answer says
//! `"active": true`, its `aud` (a string or an array) names this resource
//! (RFC 8707), its `iss`, when present, is the issuer, its `exp`, when
//! present, has not passed, and it names a subject (`sub`) and a tenant
//! (the tenant claim) as [`JwtAuthenticator`](super::oauth::JwtAuthenticator)
//! wants them of a JWT; the caller is built the same way, from the same
//! [`Identity`].
//!
//! Failing closed: an endpoint that cannot be reached, answers other than
//! 2xx (our client credentials refused among them), sends more than
//! [`IntrospectionConfig::max_response_bytes`] or something that is not an
//! introspection answer is a 503, and nothing is served. An inactive token is
//! a 401 `invalid_token`. The token is never logged and never part of an
//! answer or an error; the client secret neither (its `Debug` is redacted).
//!
//! Accepted tokens are remembered (with their caller, which holds the
//! token anyway as a secret to scrub), at most
//! [`IntrospectionConfig::token_cache`] of them, each for at most
//! [`IntrospectionConfig::cache_ttl`] and never past its `exp`: a token the
//! authorization server revokes is refused at the latest that long after.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::oauth::{now_secs, Accepted, BuildCaller, Identity};
use super::{bearer_token, AuthFuture, Authenticator, Refusal, ResourceMetadata};
use crate::context::Caller;

/// How opaque tokens are checked. [`IntrospectionConfig::new`] gives the
/// defaults.
#[derive(Clone)]
#[non_exhaustive]
pub struct IntrospectionConfig {
    /// The introspection endpoint: an `https://` URL (plain `http://` only
    /// for a loopback host).
    pub endpoint: String,
    /// This resource server's client id at the authorization server.
    pub client_id: String,
    client_secret: String,
    /// The authorization server's issuer: an answer's `iss`, when present,
    /// must equal it; the resource metadata names it.
    pub issuer: String,
    /// This resource's URL: an answer's `aud` must name it.
    pub audience: String,
    /// The claim that names the tenant (default `tenant`).
    pub tenant_claim: String,
    /// The longest token read (default 8 KiB).
    pub max_token_bytes: usize,
    /// The largest answer read (default 64 KiB).
    pub max_response_bytes: usize,
    /// How long a call to the endpoint may take (default 5 s).
    pub timeout: Duration,
    /// How many accepted tokens are remembered (default 4096; 0: ask about
    /// every request's token).
    pub token_cache: usize,
    /// How long an accepted token is remembered (default 60 s, never past
    /// its `exp`).
    pub cache_ttl: Duration,
}

impl std::fmt::Debug for IntrospectionConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IntrospectionConfig")
            .field("endpoint", &self.endpoint)
            .field("client_id", &self.client_id)
            .field("client_secret", &crate::observe::REDACTED)
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("tenant_claim", &self.tenant_claim)
            .field("token_cache", &self.token_cache)
            .field("cache_ttl", &self.cache_ttl)
            .finish_non_exhaustive()
    }
}

impl IntrospectionConfig {
    /// Tokens introspected at `endpoint` as the client `client_id` with
    /// `client_secret`, from `issuer`, for `audience`. Fails for an
    /// endpoint that is not `https://` (or `http://` on a loopback host).
    pub fn new(
        endpoint: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
        issuer: impl Into<String>,
        audience: impl Into<String>,
    ) -> Result<IntrospectionConfig, String> {
        let endpoint = endpoint.into();
        // The same rule as a key set's URL: over plain http only on this
        // machine.
        match super::oauth::JwksSource::parse(&endpoint)? {
            super::oauth::JwksSource::Url(_) => {}
            _ => {
                return Err(format!(
                    "{endpoint}: the introspection endpoint is an https:// URL"
                ))
            }
        }
        Ok(IntrospectionConfig {
            endpoint,
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            issuer: issuer.into(),
            audience: audience.into(),
            tenant_claim: "tenant".to_owned(),
            max_token_bytes: 8 * 1024,
            max_response_bytes: 64 * 1024,
            timeout: Duration::from_secs(5),
            token_cache: 4096,
            cache_ttl: Duration::from_secs(60),
        })
    }

    /// This configuration with the tenant named by claim `name`.
    pub fn with_tenant_claim(mut self, name: impl Into<String>) -> Self {
        self.tenant_claim = name.into();
        self
    }

    /// This configuration remembering at most `n` accepted tokens (0: none),
    /// each for at most `ttl`.
    pub fn with_token_cache(mut self, n: usize, ttl: Duration) -> Self {
        self.token_cache = n;
        self.cache_ttl = ttl;
        self
    }

    /// This configuration giving the endpoint `timeout` to answer.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

/// Checks opaque bearer tokens at an introspection endpoint; see the module
/// docs.
pub struct IntrospectionAuthenticator {
    config: IntrospectionConfig,
    /// `Basic base64(id:secret)`, made once.
    authorization: String,
    build: Box<BuildCaller>,
    accepted: Accepted,
}

impl std::fmt::Debug for IntrospectionAuthenticator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IntrospectionAuthenticator")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl IntrospectionAuthenticator {
    /// An authenticator for `config`; callers carry only what the answer
    /// gives (see [`IntrospectionAuthenticator::with_caller`]). Fails when
    /// the configuration names no issuer, audience or client id, or an
    /// audience with a fragment.
    pub fn new(config: IntrospectionConfig) -> Result<IntrospectionAuthenticator, String> {
        use base64::Engine;
        if config.issuer.is_empty() || config.audience.is_empty() || config.client_id.is_empty() {
            return Err("introspection needs an issuer, an audience and a client id".to_owned());
        }
        super::check_audience(&config.audience)?;
        // RFC 6749 section 2.3.1: each form-urlencoded before joining.
        let pair = format!(
            "{}:{}",
            form_encode(&config.client_id),
            form_encode(&config.client_secret)
        );
        let authorization = format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(pair)
        );
        Ok(IntrospectionAuthenticator {
            accepted: Accepted::new(config.token_cache),
            config,
            authorization,
            build: Box::new(|id: &Identity| Ok(id.apply(Caller::new()))),
        })
    }

    /// Builds each caller with `build`, as
    /// [`JwtAuthenticator::with_caller`](super::oauth::JwtAuthenticator::with_caller)
    /// does.
    pub fn with_caller(
        mut self,
        build: impl Fn(&Identity) -> Result<Caller, Refusal> + Send + Sync + 'static,
    ) -> Self {
        self.build = Box::new(build);
        self
    }

    /// The configuration.
    pub fn config(&self) -> &IntrospectionConfig {
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
        let answer = {
            let (endpoint, authorization) =
                (self.config.endpoint.clone(), self.authorization.clone());
            let (token, max, timeout) = (
                token.to_owned(),
                self.config.max_response_bytes,
                self.config.timeout,
            );
            tokio::task::spawn_blocking(move || {
                introspect(&endpoint, &authorization, &token, max, timeout)
            })
            .await
            .map_err(|e| format!("the introspection call failed: {e}"))
            .and_then(|r| r)
        };
        let claims = answer.map_err(|e| {
            // `e` names the endpoint and what went wrong, never the token.
            tracing::warn!(error = %e, "token introspection failed");
            Refusal::unavailable("the token cannot be checked now; try again later")
        })?;
        let exp = self.judge(&claims)?;
        let identity = Identity::of(claims, &self.config.tenant_claim)?;
        let caller = Arc::new((self.build)(&identity)?.secret(token));
        let ttl = self.config.cache_ttl.as_secs();
        let left = exp.map_or(ttl, |exp| exp.saturating_sub(now_secs()).min(ttl));
        self.accepted.put(token, &caller, left);
        Ok(caller)
    }

    /// Whether an answer accepts the token for this resource: its `exp`.
    fn judge(&self, claims: &Map<String, Value>) -> Result<Option<u64>, Refusal> {
        if claims.get("active") != Some(&Value::Bool(true)) {
            return Err(Refusal::invalid_token(
                "the token is not active (expired, revoked or unknown to the authorization server)",
            ));
        }
        if let Some(iss) = claims.get("iss") {
            if iss.as_str() != Some(&self.config.issuer) {
                return Err(Refusal::invalid_token(
                    "the token was issued by another issuer",
                ));
            }
        }
        let audience = &self.config.audience;
        let names_us = match claims.get("aud") {
            Some(Value::String(a)) => a == audience,
            Some(Value::Array(a)) => a.iter().any(|a| a.as_str() == Some(audience)),
            _ => false,
        };
        if !names_us {
            return Err(Refusal::invalid_token(
                "the token is not meant for this resource (`aud`)",
            ));
        }
        let exp = claims.get("exp").and_then(Value::as_u64);
        if exp.is_some_and(|exp| exp <= now_secs()) {
            return Err(Refusal::invalid_token("the token has expired"));
        }
        Ok(exp)
    }

    /// The Protected Resource Metadata of this resource.
    pub fn metadata(&self) -> ResourceMetadata {
        ResourceMetadata::new(
            self.config.audience.clone(),
            vec![self.config.issuer.clone()],
        )
    }
}

impl Authenticator for IntrospectionAuthenticator {
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

/// POSTs the token to the endpoint: the answer's members, or what went
/// wrong (never quoting the token). Blocking: called on tokio's blocking
/// pool.
fn introspect(
    endpoint: &str,
    authorization: &str,
    token: &str,
    max: usize,
    timeout: Duration,
) -> Result<Map<String, Value>, String> {
    // No redirect: one would carry the token elsewhere.
    let mut answer = super::fetch::agent(endpoint, 0, timeout)
        .post(endpoint)
        .header("authorization", authorization)
        .header("accept", "application/json")
        .send_form([("token", token), ("token_type_hint", "access_token")])
        .map_err(|e| format!("{endpoint}: {e}"))?;
    let bytes = super::fetch::body(&mut answer, endpoint, max, "the answer")?;
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(members)) if members.get("active").is_some_and(Value::is_boolean) => {
            Ok(members)
        }
        _ => Err(format!(
            "{endpoint}: the answer is not an introspection response (a JSON object with a boolean `active`)"
        )),
    }
}

/// `s` as `application/x-www-form-urlencoded` encodes it.
fn form_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    //! The endpoint out of reach, and the memory's bound; the end-to-end
    //! test, with an endpoint served by Python, is `tests/mcp_oauth.rs`.

    use std::sync::Mutex;

    use super::*;

    /// Every event's fields, as text.
    #[derive(Clone, Default)]
    struct Capture(Arc<Mutex<String>>);

    struct Fields<'a>(&'a mut String);

    impl tracing::field::Visit for Fields<'_> {
        fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
            self.0.push_str(&format!("{}={value:?} ", field.name()));
        }
    }

    impl tracing::Subscriber for Capture {
        fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
            tracing::span::Id::from_u64(1)
        }
        fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
        fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
        fn event(&self, event: &tracing::Event<'_>) {
            let mut s = self.0.lock().unwrap();
            s.push_str("\nevent ");
            event.record(&mut Fields(&mut s));
        }
        fn enter(&self, _: &tracing::span::Id) {}
        fn exit(&self, _: &tracing::span::Id) {}
    }

    const SECRET: &str = "client-secret-5f2e";

    fn unreachable() -> IntrospectionAuthenticator {
        // A loopback port nothing listens on.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let config = IntrospectionConfig::new(
            format!("http://127.0.0.1:{port}/introspect"),
            "tools",
            SECRET,
            "https://auth.test",
            "https://tools.test/mcp",
        )
        .unwrap()
        .with_timeout(Duration::from_secs(2));
        IntrospectionAuthenticator::new(config).unwrap()
    }

    #[test]
    fn an_endpoint_out_of_reach_is_a_503_and_the_log_never_holds_the_token() {
        let auth = unreachable();
        let token = "opaque-token-7c1d9e";
        let capture = Capture::default();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let refused = tracing::subscriber::with_default(capture.clone(), || {
            match rt.block_on(auth.caller_of(token)) {
                Ok(_) => panic!("an endpoint out of reach accepted a token"),
                Err(refused) => refused,
            }
        });
        assert_eq!(refused.status(), 503, "{refused}");
        assert!(refused.www_authenticate(None).is_none());
        let logs = capture.0.lock().unwrap().clone();
        assert!(logs.contains("token introspection failed"), "{logs}");
        assert!(
            logs.contains("/introspect"),
            "the log names the endpoint: {logs}"
        );
        for (what, text) in [
            ("log", logs.as_str()),
            ("refusal", &refused.to_string()),
            ("config", &format!("{auth:?}")),
        ] {
            assert!(!text.contains(token), "{what}: {text}");
            assert!(!text.contains(SECRET), "{what}: {text}");
        }
    }

    #[test]
    fn an_endpoint_that_is_not_https_off_this_machine_is_refused() {
        let e = IntrospectionConfig::new("http://auth.example.com/introspect", "a", "b", "i", "u")
            .unwrap_err();
        assert!(e.contains("https://"), "{e}");
        let e = IntrospectionConfig::new("introspect", "a", "b", "i", "u").unwrap_err();
        assert!(e.contains("https:// URL"), "{e}");
    }

    #[test]
    fn the_memory_of_accepted_tokens_is_bounded() {
        let memory = Accepted::new(2);
        let caller = Arc::new(Caller::new().subject("ana"));
        let prints = ["a", "b", "c"];
        memory.put(prints[0], &caller, 60);
        memory.put(prints[1], &caller, 60);
        assert!(memory.get(prints[0]).is_some() && memory.get(prints[1]).is_some());
        // Full, and none past its time: all go for the third.
        memory.put(prints[2], &caller, 60);
        assert!(memory.get(prints[0]).is_none() && memory.get(prints[1]).is_none());
        assert!(memory.get(prints[2]).is_some());
        // Remembered for no time: not remembered.
        let short = Accepted::new(8);
        short.put(prints[0], &caller, 0);
        assert!(short.get(prints[0]).is_none());
        // A memory of none remembers nothing.
        let none = Accepted::new(0);
        none.put(prints[0], &caller, 60);
        assert!(none.get(prints[0]).is_none());
    }
}
