//! The league's listener: HTTP/1 connections served by hyper under limits that one client cannot
//! exhaust (`axum::serve` has neither a header timeout nor a connection cap).
//!
//! - **Header timeout**: a connection must deliver each request's headers (the first one from
//!   accept, later ones from the end of the previous response) within it, or it is closed.
//! - **Idle timeout**: a keep-alive connection with no request in flight is closed after it.
//! - **Connection caps**, in total and per peer address, below the process's file limit. A new
//!   connection over a cap takes the place of the longest-waiting connection of that peer (or, for
//!   the total cap, of anyone) that has no request in flight, the way nginx reuses idle
//!   connections; only when every connection is busy is the new one closed at once. So a client
//!   holding thousands of silent connections churns through its own and never locks anyone out.
//!
//! The request timeouts (uploads have their own) are layers on the router ([`super::router`]).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use http_body_util::BodyExt;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{Notify, watch};
use tower::ServiceExt;

/// The connection limits.
#[derive(Clone, Copy, Debug)]
pub struct Listen {
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
    /// Open connections at most, in total (already lowered to fit the file limit).
    pub max_connections: usize,
    /// Open connections at most per peer address (an IPv6 peer's /64).
    pub max_per_peer: usize,
}

/// File descriptors kept free for everything but connections: the database, the strategy cache,
/// the workers' files and pipes.
const RESERVED_FILES: u64 = 128;

impl Listen {
    /// Raises the soft limit on open files to the hard limit and lowers `max_connections` to fit
    /// below it; says what it did on the log.
    pub fn fit_file_limit(mut self) -> Listen {
        use nix::sys::resource::{Resource, getrlimit, setrlimit};
        let files = match getrlimit(Resource::RLIMIT_NOFILE) {
            Ok((soft, hard)) if soft < hard => match setrlimit(Resource::RLIMIT_NOFILE, hard, hard)
            {
                Ok(()) => {
                    tracing::info!("open-file limit raised from {soft} to its hard limit {hard}");
                    hard
                }
                Err(e) => {
                    tracing::warn!("open-file limit stays at {soft}: raising it failed: {e}");
                    soft
                }
            },
            Ok((soft, _)) => soft,
            Err(e) => {
                tracing::warn!("the open-file limit cannot be read ({e}); assuming 1024");
                1024
            }
        };
        let fits =
            usize::try_from(files.saturating_sub(RESERVED_FILES).max(16)).unwrap_or(usize::MAX);
        if self.max_connections > fits {
            tracing::info!(
                "at most {fits} connections (not {}): the open-file limit is {files}",
                self.max_connections
            );
            self.max_connections = fits;
        }
        self.max_per_peer = self.max_per_peer.clamp(1, self.max_connections);
        self
    }
}

/// One open connection, as the caps and the idle timeout see it.
#[derive(Debug)]
struct Conn {
    peer: IpAddr,
    /// Requests whose response (body included) is not yet written.
    in_flight: usize,
    /// Since when it has waited for a request: its accept, or the end of its last response.
    waiting_since: Instant,
    /// Whether it has served a request: the idle timeout is for those; a connection that never
    /// sent one is the header timeout's.
    served: bool,
    close: Arc<Notify>,
}

#[derive(Debug, Default)]
struct Table {
    next: u64,
    conns: HashMap<u64, Conn>,
    per_peer: HashMap<IpAddr, usize>,
}

impl Table {
    /// Registers a connection from `peer`, making room under the caps by closing the
    /// longest-waiting idle connection; `None` when every connection in the way is busy.
    fn admit(&mut self, peer: IpAddr, limits: &Listen) -> Option<(u64, Arc<Notify>)> {
        if self.per_peer.get(&peer).copied().unwrap_or(0) >= limits.max_per_peer
            && !self.evict(Some(peer))
        {
            return None;
        }
        if self.conns.len() >= limits.max_connections && !self.evict(None) {
            return None;
        }
        let id = self.next;
        self.next += 1;
        let close = Arc::new(Notify::new());
        self.conns.insert(
            id,
            Conn {
                peer,
                in_flight: 0,
                waiting_since: Instant::now(),
                served: false,
                close: close.clone(),
            },
        );
        *self.per_peer.entry(peer).or_default() += 1;
        Some((id, close))
    }

    /// Closes the longest-waiting connection with no request in flight (of `peer`, if given).
    fn evict(&mut self, peer: Option<IpAddr>) -> bool {
        let victim = self
            .conns
            .iter()
            .filter(|(_, c)| c.in_flight == 0 && peer.is_none_or(|p| c.peer == p))
            .min_by_key(|(_, c)| c.waiting_since)
            .map(|(&id, _)| id);
        victim.is_some_and(|id| self.close(id))
    }

    /// Forgets connection `id` and tells its task to drop it; false if it was gone already.
    fn close(&mut self, id: u64) -> bool {
        let Some(conn) = self.conns.remove(&id) else {
            return false;
        };
        if let Some(n) = self.per_peer.get_mut(&conn.peer) {
            *n -= 1;
            if *n == 0 {
                self.per_peer.remove(&conn.peer);
            }
        }
        conn.close.notify_one();
        true
    }

    /// Closes the connections idle (no request in flight, one served) for longer than `idle`.
    fn close_idle(&mut self, idle: Duration) {
        let now = Instant::now();
        let idle: Vec<u64> = self
            .conns
            .iter()
            .filter(|(_, c)| {
                c.served && c.in_flight == 0 && now.duration_since(c.waiting_since) > idle
            })
            .map(|(&id, _)| id)
            .collect();
        for id in idle {
            self.close(id);
        }
    }
}

/// The connection table, shared by the accept loop, the connections' tasks and the idle sweeper.
type Shared = Arc<Mutex<Table>>;

/// A request in flight on connection `id`, until its response body is written or dropped.
struct Busy {
    shared: Shared,
    id: u64,
}

impl Busy {
    fn start(shared: &Shared, id: u64) -> Busy {
        if let Some(c) = shared.lock().expect("not poisoned").conns.get_mut(&id) {
            c.in_flight += 1;
            c.served = true;
        }
        Busy {
            shared: shared.clone(),
            id,
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        if let Some(c) = self
            .shared
            .lock()
            .expect("not poisoned")
            .conns
            .get_mut(&self.id)
        {
            c.in_flight = c.in_flight.saturating_sub(1);
            if c.in_flight == 0 {
                c.waiting_since = Instant::now();
            }
        }
    }
}

/// Serves `app` on `listener` under `limits` until `stop` turns true, then lets the requests in
/// flight finish (for at most 30 s).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Listen,
    mut stop: watch::Receiver<bool>,
) {
    let shared = Shared::default();
    let sweeper = tokio::spawn(sweep(shared.clone(), limits.idle_timeout, stop.clone()));
    let mut tasks = tokio::task::JoinSet::new();
    loop {
        while tasks.try_join_next().is_some() {}
        let accepted = tokio::select! {
            accepted = listener.accept() => Some(accepted),
            _ = stop.wait_for(|s| *s) => None,
        };
        let Some(accepted) = accepted else { break };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of files (EMFILE, ENFILE) or a connection reset before accept: make room,
                // wait a moment and go on; never stop listening.
                tracing::warn!("accepting a connection: {e}");
                shared.lock().expect("not poisoned").evict(None);
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let admitted = shared
            .lock()
            .expect("not poisoned")
            .admit(super::identity::client_address(peer.ip()), &limits);
        let Some((id, close)) = admitted else {
            tracing::debug!("refused a connection from {peer}: its connections are all busy");
            continue;
        };
        tasks.spawn(connection(
            stream,
            peer,
            app.clone(),
            limits,
            (shared.clone(), id, close),
            stop.clone(),
        ));
    }
    sweeper.abort();
    let drain = async { while tasks.join_next().await.is_some() {} };
    if tokio::time::timeout(Duration::from_secs(30), drain)
        .await
        .is_err()
    {
        tracing::warn!("connections still open 30 s after shutdown: closing them");
        tasks.abort_all();
    }
}

/// Closes idle keep-alive connections, twice a second.
async fn sweep(shared: Shared, idle: Duration, mut stop: watch::Receiver<bool>) {
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stop.wait_for(|s| *s) => return,
        }
        shared.lock().expect("not poisoned").close_idle(idle);
    }
}

/// One connection: HTTP/1 with the header timeout, until it ends, is closed by the table (idle,
/// or evicted for a newer one), or the server stops (then gracefully).
async fn connection(
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    app: Router,
    limits: Listen,
    (shared, id, close): (Shared, u64, Arc<Notify>),
    mut stop: watch::Receiver<bool>,
) {
    let _ = stream.set_nodelay(true);
    let service = {
        let shared = shared.clone();
        hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            let busy = Busy::start(&shared, id);
            let response = app.clone().oneshot(request);
            async move {
                let response = response.await?;
                // The request stays in flight until hyper has written (or dropped) the body.
                Ok::<_, std::convert::Infallible>(response.map(|body| {
                    axum::body::Body::new(body.map_frame(move |frame| {
                        let _ = &busy;
                        frame
                    }))
                }))
            }
        })
    };
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true)
        .serve_connection(TokioIo::new(stream), service);
    tokio::pin!(conn);
    let stopping = tokio::select! {
        _ = conn.as_mut() => false,
        _ = close.notified() => false,
        _ = stop.wait_for(|s| *s) => true,
    };
    if stopping {
        conn.as_mut().graceful_shutdown();
        let _ = conn.as_mut().await;
    }
    shared.lock().expect("not poisoned").close(id);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(total: usize, per_peer: usize) -> Listen {
        Listen {
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(5),
            max_connections: total,
            max_per_peer: per_peer,
        }
    }

    /// Over a cap, the longest-waiting idle connection makes room; busy ones never do.
    #[test]
    fn a_new_connection_takes_the_place_of_the_oldest_idle_one() {
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.2".parse().unwrap(), "127.0.0.1".parse().unwrap());
        let l = limits(3, 2);
        let mut t = Table::default();
        let (first, _) = t.admit(a, &l).unwrap();
        let (second, _) = t.admit(a, &l).unwrap();
        // a's third connection closes a's first.
        let (third, _) = t.admit(a, &l).unwrap();
        assert!(!t.conns.contains_key(&first) && t.conns.contains_key(&second));
        // b gets in beside a's two; a fourth in total closes a's oldest.
        t.admit(b, &l).unwrap();
        t.admit(b, &l).unwrap();
        assert!(!t.conns.contains_key(&second) && t.conns.contains_key(&third));
        assert_eq!(t.conns.len(), 3);
        // Every connection busy: the newcomer is refused.
        for c in t.conns.values_mut() {
            c.in_flight = 1;
        }
        assert!(t.admit(b, &l).is_none());
        assert!(t.admit(a, &l).is_none());
        assert_eq!(t.per_peer.values().sum::<usize>(), 3);
    }
}
