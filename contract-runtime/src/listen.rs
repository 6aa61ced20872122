//! What both HTTP servers (MCP over streamable HTTP, the approvals inbox)
//! do with the connections they accept: take them whatever goes wrong with
//! one, and close the ones that send nothing.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};

/// How long a connection may take to send a request's head, and how long
/// an idle one is kept waiting for its next request: a connection that
/// sends nothing, or trickles its headers, is closed rather than held open
/// for ever, one file descriptor each.
pub(crate) const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// The pause after a connection could not be accepted.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// The next connection. A failure to accept one (the process is out of file
/// descriptors, EMFILE or ENFILE, or the client left before it was taken)
/// ends nothing: the server pauses, so that connections can close, and
/// takes the next. Returning the error, as the servers did, let a thousand
/// idle connections end the process.
pub(crate) async fn accept(listener: &TcpListener) -> (TcpStream, SocketAddr) {
    loop {
        match listener.accept().await {
            Ok(accepted) => return accepted,
            Err(_) => tokio::time::sleep(ACCEPT_PAUSE).await,
        }
    }
}

/// hyper's HTTP/1.1 server for one connection, with the header timeout on
/// (hyper reads it only with a timer set).
pub(crate) fn http1() -> hyper::server::conn::http1::Builder {
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT);
    builder
}
