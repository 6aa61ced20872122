//! The approvals inbox with an authenticator, in process, over real HTTP:
//! each approver sees and decides only their tenant's requests (another
//! tenant's id answers 404 and decides nothing); a request without
//! credentials is 401 with the authenticator's challenge, one without the
//! scope 403; a CSRF token is one approver's only.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

use contract_runtime::identity::{http::request::Parts, Refusal};
use contract_runtime::inbox::{Inbox, SCOPE};
use contract_runtime::prelude::*;
use contract_runtime::store::{ApprovalState, MemoryStore, Store};
use serde_json::json;

mod common;

/// Approvers named by a test header, `x-approver: NAME TENANT SCOPES...`:
/// a host's authenticator (a closure is one), the same seam as the MCP
/// server's. The inbox itself checks the scope `approvals:decide`.
fn header(request: &Parts) -> Result<Arc<Caller>, Refusal> {
    let said = request
        .headers
        .get("x-approver")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| Refusal::missing_token("who are you?"))?;
    let mut words = said.split(' ');
    let name = words.next().unwrap_or_default();
    let tenant = words.next().unwrap_or_default();
    let caller = Caller::new().subject(name).tenant(tenant);
    Ok(Arc::new(words.fold(caller, |c, s| c.grant(s))))
}

fn http(addr: &str, request: String) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.write_all(request.as_bytes()).expect("send");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    (out[9..12].parse().expect("a status"), out)
}

fn get(addr: &str, who: &str) -> (u16, String) {
    http(
        addr,
        format!("GET / HTTP/1.1\r\nHost: {addr}\r\nx-approver: {who}\r\nConnection: close\r\n\r\n"),
    )
}

fn post(addr: &str, who: &str, body: &str) -> (u16, String) {
    http(addr, format!("POST / HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\nx-approver: {who}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len()))
}

/// `inbox` served on a loopback port of its own: the address.
fn serve(rt: &tokio::runtime::Runtime, inbox: Inbox) -> String {
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    rt.spawn(inbox.serve(listener));
    addr
}

/// The CSRF token on a page.
fn token(page: &str) -> String {
    let at = page.find("name=\"csrf\" value=\"").expect("a form") + 19;
    page[at..at + 64].to_owned()
}

#[test]
fn approvers_see_and_decide_only_their_tenants_requests() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let fx = common::Fixture::standard("inbox-tenants");
    fx.write("notes/a.md", "a\n");
    let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
    let d = Dispatcher::new(toolbox::registry()).with_store(store.clone());
    let ask = |tenant: &str| {
        let caller = Arc::new(toolbox::caller(&fx.root, None, &[]).unwrap().tenant(tenant));
        let call = ToolCall::new("c1", "delete_note", json!({"note": "a.md"}).to_string());
        let env = rt.block_on(d.dispatch(&caller, &call));
        env.approval.unwrap().id.unwrap()
    };
    let acme = ask("acme");
    let globex = ask("globex");

    let inbox = Inbox::new(d.approvals())
        .unwrap()
        .describe(d.registry())
        .authenticate_with(header);
    let addr = serve(&rt, inbox);

    let ana = format!("ana acme {SCOPE}");
    let (status, page) = get(&addr, &ana);
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains(&format!("data-approval-id=\"{acme}\"")),
        "{page}"
    );
    assert!(
        !page.contains(&globex),
        "another tenant's request is not shown"
    );
    assert!(
        page.contains("Deciding as <b>ana</b> for the requests of <b>acme</b>"),
        "{page}"
    );

    // Another tenant's id: 404, nothing decided.
    let csrf = token(&page);
    let (status, _) = post(
        &addr,
        &ana,
        &format!("id={globex}&decision=grant&csrf={csrf}"),
    );
    assert_eq!(status, 404);
    let r = rt.block_on(d.approvals().get(&globex)).unwrap().unwrap();
    assert_eq!(r.state, ApprovalState::Pending);

    // A reason past the bound every decider has: 400, nothing decided.
    let long = "x".repeat(contract_runtime::policy::approval::MAX_REASON + 1);
    let (status, answer) = post(
        &addr,
        &ana,
        &format!("id={acme}&decision=deny&reason={long}&csrf={csrf}"),
    );
    assert_eq!(status, 400, "{answer}");
    assert!(answer.contains("The reason is too long"), "{answer}");
    let r = rt.block_on(d.approvals().get(&acme)).unwrap().unwrap();
    assert_eq!(r.state, ApprovalState::Pending);

    // Another approver's token is not this one's.
    let bo = format!("bo globex {SCOPE}");
    let (status, _) = post(
        &addr,
        &bo,
        &format!("id={globex}&decision=grant&csrf={csrf}"),
    );
    assert_eq!(status, 403);
    let (_, page) = get(&addr, &bo);
    let (status, answer) = post(
        &addr,
        &bo,
        &format!("id={globex}&decision=grant&reason=ok&csrf={}", token(&page)),
    );
    assert_eq!(status, 303, "{answer}");
    let r = rt.block_on(d.approvals().get(&globex)).unwrap().unwrap();
    assert_eq!(
        (r.state, r.decided_by.as_deref()),
        (ApprovalState::Granted, Some("bo"))
    );

    // No credentials: 401 with the challenge; no scope: 403.
    let (status, answer) = http(
        &addr,
        format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    );
    assert_eq!(status, 401);
    assert!(
        answer
            .to_ascii_lowercase()
            .contains("www-authenticate: bearer"),
        "{answer}"
    );
    let (status, answer) = get(&addr, "cy acme notes:read");
    assert_eq!(status, 403);
    assert!(
        answer.contains("error=\"insufficient_scope\"")
            && answer.contains("scope=\"approvals:decide\""),
        "{answer}"
    );
}

/// The ids of the pending requests on a page, in order.
fn ids_on(page: &str) -> Vec<String> {
    page.split("data-approval-id=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').expect("a closing quote")].to_owned())
        .collect()
}

/// Many callers of one tenant can leave more requests waiting than a page
/// holds: the inbox shows them `PAGE` at a time, newest first, says where
/// the page is among them, links the pages beside it, and a decision made
/// on a later page comes back to that page.
#[test]
fn many_pending_requests_are_shown_a_page_at_a_time() {
    use contract_runtime::inbox::PAGE;
    use contract_runtime::store::NewApproval;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
    let total = 2 * PAGE + 20;
    for i in 0..total {
        let new = NewApproval {
            tool: "delete_note".into(),
            arguments: json!({"note": format!("n{i}.md")}),
            digest: format!("sha256:{i:064x}"),
            rule: "always".into(),
            reason: "deletes a note".into(),
            caller: format!("agent-{}", i % 3),
            tenant: "acme".into(),
            ttl: std::time::Duration::from_secs(600),
        };
        rt.block_on(store.create_approval(&new)).unwrap();
    }
    let d = Dispatcher::new(toolbox::registry()).with_store(store.clone());
    let addr = serve(
        &rt,
        Inbox::new(d.approvals()).unwrap().authenticate_with(header),
    );
    let ana = format!("ana acme {SCOPE}");
    let page = |query: &str| {
        let (status, page) = http(
            &addr,
            format!("GET /{query} HTTP/1.1\r\nHost: {addr}\r\nx-approver: {ana}\r\nConnection: close\r\n\r\n"),
        );
        assert_eq!(status, 200, "{page}");
        page
    };

    let first = page("");
    assert_eq!(ids_on(&first).len(), PAGE);
    assert!(
        first.contains(&format!("Waiting for a decision ({total})")),
        "{first}"
    );
    assert!(
        first.contains(&format!(
            "Requests 1 to {PAGE} of {total}, newest first, page 1 of 3"
        )),
        "{first}"
    );
    assert!(
        first.contains("<a href=\"?page=2\" rel=\"next\">older</a>"),
        "{first}"
    );
    assert!(!first.contains("rel=\"prev\""), "{first}");
    // The newest first: the last request made heads the first page.
    assert!(first.contains("n119.md"), "{first}");

    let second = page("?page=2");
    assert_eq!(ids_on(&second).len(), PAGE);
    assert!(
        second.contains(&format!("Requests {} to {} of {total}", PAGE + 1, 2 * PAGE)),
        "{second}"
    );
    assert!(
        second.contains("<a href=\"?page=1\" rel=\"prev\">newer</a>"),
        "{second}"
    );
    assert!(
        second.contains("<a href=\"?page=3\" rel=\"next\">older</a>"),
        "{second}"
    );
    let last = page("?page=3");
    assert_eq!(ids_on(&last).len(), 20);
    assert!(!last.contains("rel=\"next\""), "{last}");
    // Every request is on exactly one page.
    let mut all: Vec<String> = [&first, &second, &last]
        .iter()
        .flat_map(|p| ids_on(p))
        .collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), total);
    // A page past the last shows the last; one that is not a number, the first.
    assert_eq!(ids_on(&page("?page=99")), ids_on(&last));
    assert_eq!(ids_on(&page("?page=x")), ids_on(&first));

    // Decided on page 2, back to page 2, one request fewer in all.
    let id = &ids_on(&second)[0];
    let (status, answer) = post(
        &addr,
        &ana,
        &format!(
            "id={id}&decision=deny&reason=no&page=2&csrf={}",
            token(&second)
        ),
    );
    assert_eq!(status, 303, "{answer}");
    assert!(
        answer.contains(&format!("location: ?id={id}&page=2")),
        "{answer}"
    );
    let after = page(&format!("?id={id}&page=2"));
    assert!(
        after.contains(&format!("Waiting for a decision ({})", total - 1)),
        "{after}"
    );
    assert!(!ids_on(&after).contains(id), "{after}");
    assert!(after.contains("data-notice=\"decided\""), "{after}");
}
