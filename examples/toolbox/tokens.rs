//! `--jwks FILE|URL --issuer ISS --audience AUD [--tenant-claim NAME]`: how
//! `toolbox mcp --http` and `toolbox approvals serve` check bearer tokens
//! (`contract_runtime::identity::oauth`); for `toolbox mcp --http`, opaque
//! tokens instead with `--introspect URL --client-id-env NAME
//! --client-secret-env NAME` (`contract_runtime::identity::introspect`),
//! the client's credentials read from the environment variables named, never
//! from the command line.

use contract_runtime::identity::introspect::IntrospectionConfig;
use contract_runtime::identity::oauth::{JwksSource, JwtConfig};

/// How a server checks bearer tokens.
pub enum TokenCheck {
    /// JWTs against a key set (`--jwks`).
    Jwt(JwtConfig),
    /// Opaque tokens at an introspection endpoint (`--introspect`).
    Introspect(IntrospectionConfig),
}

impl TokenCheck {
    /// This server's resource URL, the tokens' audience.
    pub fn audience(&self) -> &str {
        match self {
            TokenCheck::Jwt(c) => &c.audience,
            TokenCheck::Introspect(c) => &c.audience,
        }
    }
}

/// How bearer tokens are checked (`--jwks`, `--issuer`, `--audience`,
/// `--tenant-claim`).
#[derive(Default)]
pub struct TokenOptions {
    jwks: Option<String>,
    issuer: Option<String>,
    audience: Option<String>,
    tenant_claim: Option<String>,
    introspect: Option<String>,
    client_id_env: Option<String>,
    client_secret_env: Option<String>,
}

impl TokenOptions {
    /// Takes `a` (and its value from `it`) when it is one of these flags.
    pub fn take<'a>(
        &mut self,
        a: &str,
        it: &mut impl Iterator<Item = &'a String>,
    ) -> Result<bool, String> {
        let slot = match a {
            "--jwks" => &mut self.jwks,
            "--issuer" => &mut self.issuer,
            "--audience" => &mut self.audience,
            "--tenant-claim" => &mut self.tenant_claim,
            "--introspect" => &mut self.introspect,
            "--client-id-env" => &mut self.client_id_env,
            "--client-secret-env" => &mut self.client_secret_env,
            _ => return Ok(false),
        };
        let what = match a {
            "--jwks" => "a key set file or an https:// URL",
            "--issuer" => "the authorization server's issuer (the tokens' `iss`)",
            "--audience" => "this server's resource URL (the tokens' `aud`)",
            "--introspect" => "the authorization server's introspection endpoint (an https:// URL)",
            "--client-id-env" | "--client-secret-env" => {
                "the name of an environment variable (the value is read from it, never given here)"
            }
            _ => "the name of the claim that names the tenant",
        };
        let v = it
            .next()
            .filter(|v| !v.is_empty() && !v.starts_with("--"))
            .ok_or_else(|| format!("{a} needs a value: {what}"))?;
        if slot.replace(v.clone()).is_some() {
            return Err(format!("{a} is given twice"));
        }
        Ok(true)
    }

    /// The JWT check these flags ask for (`toolbox approvals serve`, which
    /// takes no `--introspect`): `None` without `--jwks`, an error naming
    /// what is missing or wrong.
    pub fn config(&self) -> Result<Option<JwtConfig>, String> {
        match self.check()? {
            None => Ok(None),
            Some(TokenCheck::Jwt(c)) => Ok(Some(c)),
            Some(TokenCheck::Introspect(_)) => {
                Err("--introspect checks the tokens of `toolbox mcp --http` only".to_owned())
            }
        }
    }

    /// The token check these flags ask for: `None` without `--jwks` or
    /// `--introspect`, an error naming what is missing or wrong.
    pub fn check(&self) -> Result<Option<TokenCheck>, String> {
        if self.introspect.is_some() {
            return self
                .introspection()
                .map(|c| Some(TokenCheck::Introspect(c)));
        }
        for (flag, v) in [
            ("--client-id-env", &self.client_id_env),
            ("--client-secret-env", &self.client_secret_env),
        ] {
            if v.is_some() {
                return Err(format!(
                    "{flag} names the introspection client's credentials: it goes with --introspect URL"
                ));
            }
        }
        let Some(jwks) = &self.jwks else {
            for (flag, v) in [
                ("--issuer", &self.issuer),
                ("--audience", &self.audience),
                ("--tenant-claim", &self.tenant_claim),
            ] {
                if v.is_some() {
                    return Err(format!(
                        "{flag} checks bearer tokens: it needs --jwks FILE|URL (or --introspect URL)"
                    ));
                }
            }
            return Ok(None);
        };
        let source = JwksSource::parse(jwks).map_err(|e| format!("--jwks {e}"))?;
        if let JwksSource::File(path) = &source {
            if !path.is_file() {
                let what = if path.exists() {
                    "not a file"
                } else {
                    "no such file"
                };
                return Err(format!(
                    "--jwks {jwks}: {what} (a key set file, or an https:// URL)"
                ));
            }
        }
        let issuer = self.issuer.clone().ok_or(
            "--jwks needs --issuer ISS: the authorization server whose tokens are accepted",
        )?;
        let audience = self.audience("--jwks")?;
        let mut config = JwtConfig::new(source, issuer, audience);
        if let Some(claim) = &self.tenant_claim {
            config = config.with_tenant_claim(claim);
        }
        Ok(Some(TokenCheck::Jwt(config)))
    }

    /// `--audience AUD`, which `flag` needs: a URL.
    fn audience(&self, flag: &str) -> Result<String, String> {
        let audience = self.audience.clone().ok_or_else(|| format!(
            "{flag} needs --audience AUD: this server's resource URL, e.g. https://tools.example.com/mcp"
        ))?;
        if !(audience.starts_with("https://") || audience.starts_with("http://")) {
            return Err(format!(
                "--audience {audience}: the resource is named by its URL (https://HOST/mcp), as tokens name it in `aud`"
            ));
        }
        Ok(audience)
    }

    /// `--introspect URL` and what it needs.
    fn introspection(&self) -> Result<IntrospectionConfig, String> {
        let endpoint = self.introspect.clone().unwrap_or_default();
        if self.jwks.is_some() {
            return Err(
                "--jwks and --introspect are two ways to check tokens: give one".to_owned(),
            );
        }
        let issuer = self.issuer.clone().ok_or(
            "--introspect needs --issuer ISS: the authorization server whose tokens are accepted",
        )?;
        let audience = self.audience("--introspect")?;
        let from_env = |flag: &str, name: &Option<String>| -> Result<String, String> {
            let name = name.as_deref().ok_or_else(|| {
                format!("--introspect needs {flag} NAME: the environment variable holding the client's {}",
                    if flag == "--client-id-env" { "id" } else { "secret" })
            })?;
            match std::env::var(name) {
                Ok(v) if !v.is_empty() => Ok(v),
                _ => Err(format!(
                    "{flag} {name}: the environment variable {name} is not set"
                )),
            }
        };
        let id = from_env("--client-id-env", &self.client_id_env)?;
        let secret = from_env("--client-secret-env", &self.client_secret_env)?;
        let mut config = IntrospectionConfig::new(endpoint, id, secret, issuer, audience)
            .map_err(|e| format!("--introspect {e}"))?;
        if let Some(claim) = &self.tenant_claim {
            config = config.with_tenant_claim(claim);
        }
        Ok(config)
    }
}
