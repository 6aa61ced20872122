//! The inbox's HTML: one page, written by hand, every value escaped, styled
//! by one stylesheet that the Content-Security-Policy allows by its hash
//! (and nothing else: no script, no other source, no framing).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use base64::Engine as _;
use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{self, HeaderValue};
use hyper::{Response, StatusCode};
use sha2::{Digest as _, Sha256};

use crate::store::{ApprovalRecord, ApprovalState};

/// The page's only style.
const STYLE: &str = "\
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem 1.5rem;color:#1d1d1f;background:#fafafa}\
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.6rem 0 .6rem}h3{font-size:1.05rem;margin:0 0 .3rem}\
.who{color:#555;margin:0}.empty{color:#555}\
.request{background:#fff;border:1px solid #d0d0d5;border-radius:8px;padding:1rem 1.2rem;margin:0 0 1rem}\
.left{float:right;font-weight:normal;color:#8a4b00;font-size:.9rem}\
.does{white-space:pre-line;margin:.2rem 0 .6rem;color:#333}\
dl{display:grid;grid-template-columns:11rem 1fr;gap:.3rem .8rem;margin:0 0 .8rem}dt{color:#555}dd{margin:0;overflow-wrap:anywhere}\
pre{background:#f2f2f5;border-radius:6px;padding:.5rem .7rem;margin:0;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.9rem}\
code{font-size:.9rem}form{display:flex;gap:.6rem;align-items:center;flex-wrap:wrap}\
label{flex:1 1 20rem;display:flex;gap:.5rem;align-items:center}input[name=reason]{flex:1;padding:.35rem .5rem;font:inherit}\
button{font:inherit;padding:.35rem 1.1rem;border-radius:6px;border:1px solid #888;cursor:pointer}\
.grant{background:#e3f4e6;border-color:#2e7d32}.deny{background:#fbe5e5;border-color:#c62828}\
.notice{background:#fff8e1;border:1px solid #e0b84c;border-radius:8px;padding:.6rem 1rem}\
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;border-bottom:1px solid #e3e3e8;padding:.35rem .5rem;vertical-align:top;overflow-wrap:anywhere}\
.state-granted,.state-used{color:#2e7d32}.state-denied{color:#c62828}";

/// The Content-Security-Policy: nothing but this page's stylesheet (by its
/// hash), forms that post only to this origin, no framing, no `<base>`.
fn policy() -> &'static HeaderValue {
    static POLICY: OnceLock<HeaderValue> = OnceLock::new();
    POLICY.get_or_init(|| {
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(STYLE));
        let csp = format!(
            "default-src 'none'; style-src 'sha256-{hash}'; img-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        );
        HeaderValue::from_str(&csp).unwrap_or(HeaderValue::from_static("default-src 'none'"))
    })
}

/// `text` with the five characters that mean something in HTML (in text
/// and in quoted attributes) written as references, and each character a
/// person would not see ([`crate::observe::is_invisible`]: a bidirectional
/// control that shows an approver code in another order than the file
/// will hold, a zero-width space, a tag character) shown as its code
/// point, `[U+202E]`.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if crate::observe::is_invisible(c) => {
                out.push_str(&format!("[U+{:04X}]", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// An HTML answer with the inbox's security headers.
pub(super) fn html(status: StatusCode, body: String) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CONTENT_SECURITY_POLICY, policy().clone());
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // `same-origin`, not `no-referrer`: with no referrer at all a browser
    // sends `Origin: null` on the page's own posts.
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// A page that only says `text`.
pub(super) fn message(status: StatusCode, text: &str) -> Response<Full<Bytes>> {
    let mut body = head("Approvals inbox");
    let _ = write!(
        body,
        "<h1>Approvals inbox</h1>\n<p class=\"notice\" role=\"alert\">{}</p>\n<p><a href=\"?\">Back to the inbox</a></p>\n</body>\n</html>\n",
        escape(text)
    );
    html(status, body)
}

fn head(title: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(title)
    )
}

/// What became of the request a decision named (the redirect's query).
pub(super) struct Notice {
    pub(super) record: ApprovalRecord,
    /// Someone else decided it (or it expired) before this decision.
    pub(super) already: bool,
}

/// Everything the page shows.
pub(super) struct Page<'a> {
    /// Who decides: the approver's subject (or the local operator's name).
    pub(super) approver: &'a str,
    /// The tenant whose requests an authenticated approver sees.
    pub(super) tenant: Option<&'a str>,
    pub(super) csrf: &'a str,
    /// This page's pending requests, newest first.
    pub(super) pending: &'a [ApprovalRecord],
    /// How many wait in all, on every page.
    pub(super) waiting: usize,
    /// This page's number, from 1, and how many there are.
    pub(super) page: usize,
    pub(super) pages: usize,
    /// Most recently decided first.
    pub(super) decided: &'a [ApprovalRecord],
    pub(super) notice: Option<&'a Notice>,
    pub(super) descriptions: &'a BTreeMap<String, String>,
    pub(super) now_ms: i64,
}

impl Page<'_> {
    pub(super) fn render(&self) -> String {
        let mut o = head(&format!("Approvals inbox ({})", self.waiting));
        let _ = write!(
            o,
            "<header>\n<h1>Approvals inbox</h1>\n<p class=\"who\">Deciding as <b>{}</b>{} · <a href=\"?\">Refresh</a></p>\n</header>\n",
            escape(self.approver),
            match self.tenant {
                Some(t) => format!(" for the requests of <b>{}</b>", escape(t)),
                None => String::new(),
            }
        );
        if let Some(n) = self.notice {
            self.notice(&mut o, n);
        }
        let _ = write!(
            o,
            "<main>\n<h2>Waiting for a decision ({})</h2>\n",
            self.waiting
        );
        if self.pending.is_empty() {
            o.push_str("<p class=\"empty\">Nothing waits for a decision.</p>\n");
        }
        self.pages(&mut o);
        for r in self.pending {
            self.request(&mut o, r);
        }
        self.pages(&mut o);
        self.decisions(&mut o);
        o.push_str("</main>\n</body>\n</html>\n");
        o
    }

    /// Where this page is among the pages of pending requests, with links
    /// to the pages beside it; nothing when they fit on one.
    fn pages(&self, o: &mut String) {
        if self.pages < 2 {
            return;
        }
        let first = (self.page - 1) * super::PAGE + 1;
        let last = first + self.pending.len() - 1;
        let _ = write!(
            o,
            "<nav class=\"pages\" data-page=\"{page}\" data-pages=\"{pages}\">Requests {first} to {last} of {waiting}, newest first, page {page} of {pages}",
            page = self.page,
            pages = self.pages,
            waiting = self.waiting,
        );
        if self.page > 1 {
            let _ = write!(
                o,
                " · <a href=\"?page={}\" rel=\"prev\">newer</a>",
                self.page - 1
            );
        }
        if self.page < self.pages {
            let _ = write!(
                o,
                " · <a href=\"?page={}\" rel=\"next\">older</a>",
                self.page + 1
            );
        }
        o.push_str("</nav>\n");
    }

    fn notice(&self, o: &mut String, n: &Notice) {
        let r = &n.record;
        let by = decided_by(r);
        let what = if n.already {
            format!(
                "{} ({}) was already {}{} before your decision reached it; nothing changed.",
                r.id,
                r.tool,
                r.state.as_str(),
                by
            )
        } else {
            let next = match r.state {
                ApprovalState::Granted => " The caller's next send of this exact call runs, once.",
                ApprovalState::Denied => {
                    " The caller's next send of this call is refused with your reason."
                }
                _ => "",
            };
            format!("{} ({}) is {}{}.{next}", r.id, r.tool, r.state.as_str(), by)
        };
        let kind = if n.already { "already" } else { "decided" };
        let _ = writeln!(
            o,
            "<p class=\"notice\" role=\"status\" data-notice=\"{kind}\" data-notice-id=\"{}\">{}</p>",
            escape(&r.id),
            escape(&what)
        );
    }

    fn request(&self, o: &mut String, r: &ApprovalRecord) {
        let does = self
            .descriptions
            .get(&r.tool)
            .map(String::as_str)
            .unwrap_or("");
        let arguments =
            serde_json::to_string_pretty(&r.arguments).unwrap_or_else(|_| r.arguments.to_string());
        let id = escape(&r.id);
        let _ = write!(
            o,
            "<article class=\"request\" data-approval-id=\"{id}\">\n\
             <h3><code>{tool}</code> <span class=\"left\">{left}</span></h3>\n\
             <p class=\"does\">{does}</p>\n\
             <dl>\n\
             <dt>Asked by</dt><dd class=\"caller\">{caller} · {age} ago</dd>\n\
             <dt>Why a person decides</dt><dd class=\"reason\">{reason} <small>(rule: {rule})</small></dd>\n\
             <dt>Arguments</dt><dd><pre class=\"arguments\">{arguments}</pre></dd>\n\
             <dt>Digest</dt><dd><code class=\"digest\">{digest}</code></dd>\n\
             <dt>Request</dt><dd><code>{id}</code></dd>\n\
             </dl>\n\
             <form method=\"post\">\n\
             <input type=\"hidden\" name=\"csrf\" value=\"{csrf}\">\n\
             <input type=\"hidden\" name=\"id\" value=\"{id}\">\n\
             <input type=\"hidden\" name=\"page\" value=\"{page}\">\n\
             <label>Reason <input name=\"reason\" maxlength=\"2000\" autocomplete=\"off\" placeholder=\"why (shown to the caller on a denial)\"></label>\n\
             <button type=\"submit\" name=\"decision\" value=\"grant\" class=\"grant\">Grant</button>\n\
             <button type=\"submit\" name=\"decision\" value=\"deny\" class=\"deny\">Deny</button>\n\
             </form>\n\
             </article>\n",
            tool = escape(&r.tool),
            left = escape(&time_left(r.expires_ms - self.now_ms)),
            does = escape(does),
            caller = escape(&caller(r)),
            age = escape(&duration(self.now_ms - r.created_ms)),
            reason = escape(&r.reason),
            rule = escape(&r.rule),
            arguments = escape(&arguments),
            digest = escape(&r.digest),
            csrf = escape(self.csrf),
            page = self.page,
        );
    }

    fn decisions(&self, o: &mut String) {
        o.push_str("<h2>Recent decisions</h2>\n");
        if self.decided.is_empty() {
            o.push_str("<p class=\"empty\">No decisions yet.</p>\n");
            return;
        }
        o.push_str("<table>\n<thead><tr><th>when</th><th>tool</th><th>arguments</th><th>state</th><th>by</th><th>reason</th><th>request</th></tr></thead>\n<tbody>\n");
        for r in self.decided {
            let when = r
                .decided_ms
                .map(|t| format!("{} ago", duration(self.now_ms - t)))
                .unwrap_or_default();
            let _ = writeln!(
                o,
                "<tr data-decided-id=\"{id}\"><td>{when}</td><td><code>{tool}</code></td><td><code>{args}</code></td><td class=\"state-{state}\">{state}</td><td>{by}</td><td>{why}</td><td><code>{id}</code></td></tr>",
                id = escape(&r.id),
                when = escape(&when),
                tool = escape(&r.tool),
                args = escape(&r.arguments.to_string()),
                state = escape(r.state.as_str()),
                by = escape(r.decided_by.as_deref().unwrap_or("")),
                why = escape(r.decision_reason.as_deref().unwrap_or("")),
            );
        }
        o.push_str("</tbody>\n</table>\n");
    }
}

/// ` by NAME: REASON`, as far as the record says.
fn decided_by(r: &ApprovalRecord) -> String {
    let mut s = String::new();
    if let Some(by) = &r.decided_by {
        let _ = write!(s, " by {by}");
    }
    if let Some(why) = r.decision_reason.as_deref().filter(|w| !w.is_empty()) {
        let _ = write!(s, ": {why}");
    }
    s
}

/// Who asked, as the request records it: the caller's subject and its
/// tenant (a caller is named by its tenant when it has no subject).
fn caller(r: &ApprovalRecord) -> String {
    match (r.caller.as_str(), r.tenant.as_str()) {
        ("-", _) => "a caller with no subject or tenant".to_owned(),
        (subject, "") => subject.to_owned(),
        (name, tenant) if name == tenant => format!("tenant {tenant}"),
        (subject, tenant) => format!("{subject} of tenant {tenant}"),
    }
}

fn time_left(ms: i64) -> String {
    if ms <= 0 {
        "expired".to_owned()
    } else {
        format!("expires in {}", duration(ms))
    }
}

/// `2 h 5 min`, `14 min 3 s`, `9 s`.
fn duration(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_text() {
        assert_eq!(
            escape(r#"<script>alert("x")</script> & 'y'"#),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"
        );
    }

    /// Trojan Source: what the approver reads is what the file will hold.
    #[test]
    fn invisible_characters_are_shown_as_code_points() {
        assert_eq!(
            escape("if access != \"user\u{202e} \u{2066}\": # admin\u{2069}\u{2066}"),
            "if access != &quot;user[U+202E] [U+2066]&quot;: # admin[U+2069][U+2066]"
        );
        assert_eq!(escape("a\u{200b}b\u{9b}2J\nc"), "a[U+200B]b[U+009B]2J\nc");
        // tag characters spell text no one sees ("hi"); a soft hyphen, a
        // variation selector
        assert_eq!(
            escape("gamma\u{e0068}\u{e0069}\u{ad}\u{fe0f}delta"),
            "gamma[U+E0068][U+E0069][U+00AD][U+FE0F]delta"
        );
    }

    #[test]
    fn durations_read_as_words() {
        assert_eq!(duration(9_400), "9 s");
        assert_eq!(duration(843_000), "14 min 3 s");
        assert_eq!(duration(7_500_000), "2 h 5 min");
        assert_eq!(time_left(-1), "expired");
    }

    #[test]
    fn the_policy_allows_the_page_s_own_style_and_nothing_else() {
        let csp = policy().to_str().unwrap();
        assert!(
            csp.starts_with("default-src 'none'; style-src 'sha256-"),
            "{csp}"
        );
        assert!(
            !csp.contains("unsafe") && !csp.contains("script-src"),
            "{csp}"
        );
    }
}
