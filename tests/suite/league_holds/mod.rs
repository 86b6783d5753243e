//! The league against a client that knows its API (issue 28): the real `botbox league serve`,
//! attacked from outside over loopback. Rate limits keyed by who the client really is, a server
//! that silent connections cannot stall, nothing of a seat shown to anyone but its owner, page data
//! that cannot change the HTML parser's state (both in `seats.rs`), sessions instead of tokens in
//! cookies, the upload form's cap, and admin commands that never create a database.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::league::{League, PgDatabase};
use crate::util::scratch;

mod seats;

/// `n` random hex digits (a fresh hasher's keys are random).
fn random_hex(n: usize) -> String {
    let state = RandomState::new();
    (0..n.div_ceil(16))
        .map(|i| format!("{:016x}", state.hash_one(i)))
        .collect::<String>()[..n]
        .to_string()
}

/// A client that neither follows redirects nor keeps cookies: each test says what it sends.
fn client() -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

/// GET `url` with these headers: the status and the body's raw text.
fn fetch(url: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let mut request = client().get(url);
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let response = request.send().expect("the server answers");
    (response.status().as_u16(), response.text().unwrap())
}

/// Signs in on the web form with `token`: the session cookie's `Set-Cookie` line.
fn web_sign_in(league: &League, token: &str) -> String {
    let response = client()
        .post(format!("{}/signin", league.url))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("token={token}"))
        .send()
        .unwrap();
    assert_eq!(response.status().as_u16(), 303, "signing in redirects");
    response
        .headers()
        .get("set-cookie")
        .expect("a session cookie")
        .to_str()
        .unwrap()
        .to_string()
}

/// `name=value` of a `Set-Cookie` line, as a `Cookie` header sends it.
fn cookie_pair(set_cookie: &str) -> String {
    set_cookie.split(';').next().unwrap().to_string()
}

#[test]
fn made_up_tokens_and_cookies_are_refused_per_address_while_a_real_user_keeps_its_bucket() {
    let dir = scratch("league-made-up-tokens");
    let db = dir.join("league.db");
    let league = League::start(
        &dir,
        db.to_str().unwrap(),
        0,
        &["--rate", "50", "--burst", "100"],
    );
    let alice = league.user("alice");
    let bob = league.user("bob");
    // The server reads the tokens in use every 5 s: after that, bob's counts as one.
    std::thread::sleep(Duration::from_secs(6));
    let api = format!("{}/api/v1/ladders", league.url);
    let page = format!("{}/", league.url);
    let (mut refused, mut mine) = (0, Vec::new());
    for i in 0..1000 {
        // Half of each kind shaped like the real thing, half anything at all.
        let secret = match i % 2 {
            0 => format!("bbx_{}", random_hex(64)),
            _ => random_hex(20),
        };
        let (status, body) = if i < 500 {
            fetch(&api, &[("authorization", &format!("Bearer {secret}"))])
        } else {
            // The session cookie, and the one that held the token before sessions.
            let name = ["botbox_session", "botbox_token"][i / 2 % 2];
            let secret = secret.replace("bbx_", "bbs_");
            fetch(&page, &[("cookie", &format!("{name}={secret}"))])
        };
        // An open page or endpoint answers a made-up credential as it answers nobody, until the
        // address has no strike left.
        assert!(matches!(status, 200 | 429), "request {i}: {status} {body}");
        assert!(!body.contains("signed in as"), "a made-up cookie is nobody");
        refused += usize::from(status == 429);
        if i % 50 == 0 {
            mine.push(league.get("/me", Some(&alice)).0);
        }
    }
    assert!(
        refused >= 950,
        "only {refused} of 1000 made-up credentials got 429"
    );
    assert!(
        mine.iter().all(|&s| s == 200),
        "alice's own requests meanwhile: {mine:?}"
    );
    // Bob, behind the same address, signs in for the first time after the attack.
    assert_eq!(league.get("/me", Some(&bob)).0, 200);
    // The address still reads anonymously; only its credentials are refused.
    assert_eq!(fetch(&api, &[]).0, 200);
    league.stop();
}

#[test]
fn two_thousand_silent_connections_under_a_1024_file_limit_stall_nothing() {
    let dir = scratch("league-slowloris");
    let db = dir.join("league.db");
    let header_timeout = Duration::from_secs(4);
    let league = League::start_under(
        &["prlimit", "--nofile=1024:1024", "--"],
        &dir,
        db.to_str().unwrap(),
        0,
        &["--header-timeout", "4"],
    );
    let address = league.url.trim_start_matches("http://").to_string();
    // This process holds the connections: it may need more files than its soft limit.
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (_, hard) = getrlimit(Resource::RLIMIT_NOFILE).unwrap();
    setrlimit(Resource::RLIMIT_NOFILE, hard, hard).unwrap();
    assert!(
        hard >= 2_200,
        "the test needs 2,200 open files, the hard limit is {hard}"
    );

    // One client holds 2,000 connections that never finish their request line and, like
    // slowloris, opens new ones once a second for those the server closed. It notes any
    // connection left open past the header timeout (with slack for its own sweeps).
    let stop = Arc::new(AtomicBool::new(false));
    let (closed, overdue) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let attacker = {
        let (stop, closed, overdue) = (stop.clone(), closed.clone(), overdue.clone());
        let address = address.clone();
        std::thread::spawn(move || {
            let open = || {
                let mut s = TcpStream::connect(&address).unwrap();
                s.write_all(b"GET /api/v1/hea").unwrap();
                s.set_nonblocking(true).unwrap();
                Some((s, Instant::now()))
            };
            let mut held: Vec<Option<(TcpStream, Instant)>> = (0..2_000).map(|_| open()).collect();
            let mut topped_up = Instant::now();
            while !stop.load(Ordering::Relaxed) {
                for slot in held.iter_mut() {
                    let Some((stream, since)) = slot else {
                        continue;
                    };
                    let mut byte = [0u8; 64];
                    let gone = match stream.read(&mut byte) {
                        Ok(_) => true,
                        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
                    };
                    if gone {
                        closed.fetch_add(1, Ordering::Relaxed);
                        *slot = None;
                    } else if since.elapsed() > header_timeout + Duration::from_secs(2) {
                        overdue.fetch_add(1, Ordering::Relaxed);
                        *since = Instant::now();
                    }
                }
                if topped_up.elapsed() >= Duration::from_secs(1) {
                    for slot in held.iter_mut().filter(|s| s.is_none()) {
                        *slot = open();
                    }
                    topped_up = Instant::now();
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };
    std::thread::sleep(Duration::from_secs(1));
    // Health answers within a second, every second for 30 s, each time on a new connection.
    let health = reqwest::blocking::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(1))
        .build()
        .unwrap();
    let mut failures = Vec::new();
    for second in 0..30 {
        let start = Instant::now();
        match health.get(format!("{}/api/v1/health", league.url)).send() {
            Ok(r) if r.status() == 200 && start.elapsed() <= Duration::from_secs(1) => {}
            Ok(r) => failures.push(format!("{second}: {} in {:?}", r.status(), start.elapsed())),
            Err(e) => failures.push(format!("{second}: {e}")),
        }
        std::thread::sleep(Duration::from_secs(1).saturating_sub(start.elapsed()));
    }
    stop.store(true, Ordering::Relaxed);
    attacker.join().unwrap();
    assert!(
        failures.is_empty(),
        "health did not answer in time: {failures:?}"
    );
    assert!(
        closed.load(Ordering::Relaxed) >= 2_000,
        "the server closed {} held connections",
        closed.load(Ordering::Relaxed)
    );
    assert_eq!(
        overdue.load(Ordering::Relaxed),
        0,
        "connections left open past the header timeout"
    );
    league.stop();
}

#[test]
fn a_session_ends_at_sign_out_and_with_its_token_and_is_never_the_token_on_sqlite() {
    let dir = scratch("league-sessions");
    sessions(&dir, dir.join("league.db").to_str().unwrap());
}

#[test]
fn a_session_ends_at_sign_out_and_with_its_token_and_is_never_the_token_on_postgres() {
    let Some(pg) = PgDatabase::new("sessions") else {
        return;
    };
    sessions(&scratch("league-sessions-pg"), &pg.url);
}

fn sessions(dir: &Path, db: &str) {
    let league = League::start(dir, db, 0, &[]);
    let alice = league.user("alice");
    let account = format!("{}/account", league.url);
    let signed_in = |cookie: &str| {
        let (status, body) = fetch(&account, &[("cookie", cookie)]);
        status == 200 && body.contains("signed in as")
    };

    let set = web_sign_in(&league, &alice);
    for attribute in ["HttpOnly", "SameSite=Strict", "Secure", "Path=/"] {
        assert!(set.contains(attribute), "{attribute} in {set}");
    }
    let cookie = cookie_pair(&set);
    assert!(!cookie.contains(&alice[4..]), "the cookie is not the token");
    assert!(signed_in(&cookie));
    // Signing out ends the session on the server: the same cookie again is nobody.
    let out = client()
        .post(format!("{}/signout", league.url))
        .header("cookie", &cookie)
        .send()
        .unwrap();
    assert_eq!(out.status().as_u16(), 303);
    assert!(!signed_in(&cookie), "a cookie used after sign-out");

    // Revoking the token a session came from ends the session.
    let second: Value = client()
        .post(format!("{}/api/v1/tokens", league.url))
        .bearer_auth(&alice)
        .header("content-type", "application/json")
        .body(r#"{"label":"second"}"#)
        .send()
        .unwrap()
        .json()
        .unwrap();
    let second = second["token"].as_str().unwrap().to_string();
    let cookie = cookie_pair(&web_sign_in(&league, &second));
    assert!(signed_in(&cookie));
    let (_, me) = league.get("/me", Some(&alice));
    let id = me["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["label"] == "second")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let (status, _) = league.request(
        reqwest::Method::DELETE,
        &format!("/tokens/{id}"),
        Some(&alice),
        Vec::new(),
    );
    assert_eq!(status, 204);
    assert!(!signed_in(&cookie), "a cookie after its token was revoked");

    // A form posted from another site is refused, whatever its cookie.
    let cookie = cookie_pair(&web_sign_in(&league, &alice));
    let cross = client()
        .post(format!("{}/account/tokens", league.url))
        .header("cookie", &cookie)
        .header("origin", "http://evil.example")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("label=stolen")
        .send()
        .unwrap();
    assert_eq!(cross.status().as_u16(), 403);
    let (_, me) = league.get("/me", Some(&alice));
    assert!(!me.to_string().contains("stolen"), "{me}");
    league.stop();
}

/// Over its cap, the upload form gets 413 as the API does, and the client gets to read it (the
/// server reads the rest of the body away instead of cutting the client off mid-send).
#[test]
fn the_upload_form_over_its_cap_gets_413() {
    let dir = scratch("league-form-cap");
    let db = dir.join("league.db");
    let league = League::start(&dir, db.to_str().unwrap(), 0, &[]);
    let alice = league.user("alice");
    let signed_in = cookie_pair(&web_sign_in(&league, &alice));
    for (cookie, size) in [
        (signed_in.as_str(), (4 << 20) + 1),
        (signed_in.as_str(), 5 << 20),
        (signed_in.as_str(), 32 << 20),
        ("", 5 << 20),
    ] {
        let boundary = "botbox-test-boundary";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nbig\r\n\
             --{boundary}\r\nContent-Disposition: form-data; name=\"game\"\r\n\r\nworms\r\n\
             --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.wasm\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n"
        )
        .into_bytes();
        body.extend(b"\0asm\x01\0\0\0");
        body.resize(body.len() + size - 8, 0);
        body.extend(format!("\r\n--{boundary}--\r\n").as_bytes());
        let response = client()
            .post(format!("{}/upload", league.url))
            .header("cookie", cookie)
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(body)
            .send()
            .unwrap();
        assert_eq!(
            response.status().as_u16(),
            413,
            "a {size}-byte file, cookie {cookie:?}"
        );
    }
    // The API as well, with a body far over what the socket buffers hold.
    let (status, body) = league.upload(Some(&alice), "big", "worms", vec![0; 32 << 20]);
    assert_eq!(status, 413, "{body}");
    league.stop();
}

/// `botbox league <args>` in `dir`.
fn admin(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_botbox"))
        .arg("league")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn admin_commands_in_an_empty_folder_create_nothing_and_say_which_database_they_looked_for() {
    let dir = scratch("league-admin-empty");
    for args in [&["verify", "1"][..], &["user", "add", "carol"][..]] {
        let out = admin(&dir, args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("league/league.db"), "{args:?}: {stderr}");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            0,
            "{args:?} created something"
        );
    }
    // A game that is not in an existing database is not there, not a mismatch.
    let db = dir.join("league.db");
    let league = League::start(&dir, db.to_str().unwrap(), 0, &[]);
    league.stop();
    let out = admin(&dir, &["verify", "7", "--db", db.to_str().unwrap()]);
    assert!(!out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("game 7: not in") && !stdout.contains("MISMATCH"),
        "{stdout}"
    );
}

/// Behind a reverse proxy the admin trusts (`--trusted-proxy`), each forwarded client has its own
/// strikes; a client that is not a trusted proxy cannot choose its address with the header.
#[test]
fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_strikes_and_nobody_forges_one() {
    let dir = scratch("league-proxy");
    let me = |league: &League, from: &str| {
        let bearer = format!("Bearer bbx_{}", random_hex(64));
        fetch(
            &format!("{}/api/v1/me", league.url),
            &[("authorization", &bearer), ("x-forwarded-for", from)],
        )
        .0
    };
    // Made-up tokens from one forwarded client until its strikes are spent.
    let spend = |league: &League, from: &str| {
        for _ in 0..20 {
            if me(league, from) == 429 {
                return;
            }
        }
        panic!("{from}'s strikes were never spent");
    };
    for (trusted, db) in [(true, "trusted.db"), (false, "untrusted.db")] {
        let db = dir.join(db);
        let mut extra = vec!["--auth-failures", "3"];
        if trusted {
            extra.extend(["--trusted-proxy", "127.0.0.0/8"]);
        }
        let league = League::start(&dir, db.to_str().unwrap(), 0, &extra);
        spend(&league, "203.0.113.7");
        let other = me(&league, "198.51.100.8, 203.0.113.8");
        if trusted {
            assert_eq!(
                other, 401,
                "another client behind the proxy is not struck out"
            );
        } else {
            assert_eq!(
                other, 429,
                "a header from an untrusted peer changes nothing"
            );
        }
        league.stop();
    }
}
