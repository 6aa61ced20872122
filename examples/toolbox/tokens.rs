//! `--jwks FILE|URL --issuer ISS --audience AUD [--tenant-claim NAME]`: how
//! `toolbox mcp --http` and `toolbox approvals serve` check bearer tokens
//! (`contract_runtime::identity::oauth`).

use contract_runtime::identity::oauth::{JwksSource, JwtConfig};

/// How bearer tokens are checked (`--jwks`, `--issuer`, `--audience`,
/// `--tenant-claim`).
#[derive(Default)]
pub struct TokenOptions {
    jwks: Option<String>,
    issuer: Option<String>,
    audience: Option<String>,
    tenant_claim: Option<String>,
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
            _ => return Ok(false),
        };
        let what = match a {
            "--jwks" => "a key set file or an https:// URL",
            "--issuer" => "the authorization server's issuer (the tokens' `iss`)",
            "--audience" => "this server's resource URL (the tokens' `aud`)",
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

    /// The token check these flags ask for: `None` without `--jwks`, an
    /// error naming what is missing or wrong.
    pub fn config(&self) -> Result<Option<JwtConfig>, String> {
        let Some(jwks) = &self.jwks else {
            for (flag, v) in [
                ("--issuer", &self.issuer),
                ("--audience", &self.audience),
                ("--tenant-claim", &self.tenant_claim),
            ] {
                if v.is_some() {
                    return Err(format!(
                        "{flag} checks bearer tokens: it needs --jwks FILE|URL"
                    ));
                }
            }
            return Ok(None);
        };
        let source = JwksSource::parse(jwks).map_err(|e| format!("--jwks {e}"))?;
        if let JwksSource::File(path) = &source {
            if !path.is_file() {
                return Err(format!(
                    "--jwks {jwks}: no such file (a key set file, or an https:// URL)"
                ));
            }
        }
        let issuer = self.issuer.clone().ok_or(
            "--jwks needs --issuer ISS: the authorization server whose tokens are accepted",
        )?;
        let audience = self.audience.clone().ok_or(
            "--jwks needs --audience AUD: this server's resource URL, e.g. https://tools.example.com/mcp",
        )?;
        if !(audience.starts_with("https://") || audience.starts_with("http://")) {
            return Err(format!(
                "--audience {audience}: the resource is named by its URL (https://HOST/mcp), as tokens name it in `aud`"
            ));
        }
        let mut config = JwtConfig::new(source, issuer, audience);
        if let Some(claim) = &self.tenant_claim {
            config = config.with_tenant_claim(claim);
        }
        Ok(Some(config))
    }
}
