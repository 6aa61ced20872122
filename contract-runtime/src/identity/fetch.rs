//! What the identity stage asks an authorization server over HTTP (the
//! JWKS, introspection): one set of rules for every such request, on
//! `ureq` over rustls, blocking (callers run it on tokio's blocking pool).

use std::time::Duration;

/// A client for one request to `url`: the whole exchange within `timeout`,
/// and for an `https://` URL at most `redirects` redirects, none of them to
/// plain `http://` (`https_only`). A plain `http://` URL follows none: the
/// configuration allows one only on a loopback host, and a redirect could
/// lead off it, to keys anyone on the path can replace. Its 3xx answer is
/// returned as it is.
pub(crate) fn agent(url: &str, redirects: u32, timeout: Duration) -> ureq::Agent {
    let https = url.starts_with("https://");
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .https_only(https)
        .max_redirects(if https { redirects } else { 0 })
        .build()
        .into()
}

/// The answer's body, at most `max` bytes: a larger one is refused as
/// `what` "is larger than" the limit, not read whole into memory.
pub(crate) fn body(
    answer: &mut ureq::http::Response<ureq::Body>,
    url: &str,
    max: usize,
    what: &str,
) -> Result<Vec<u8>, String> {
    answer
        .body_mut()
        .with_config()
        .limit(max as u64)
        .read_to_vec()
        .map_err(|e| match e {
            ureq::Error::BodyExceedsLimit(_) => format!("{url}: {what} is larger than {max} bytes"),
            e => format!("{url}: {e}"),
        })
}
