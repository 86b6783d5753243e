//! Sign-up without an admin at hand: an invite link from `botbox league invite create` lets a
//! stranger choose a name and get a token (through the API and the web page), as many times as the
//! invite allows and until it expires; `--signup closed` refuses sign-up, `--signup open` takes it
//! without an invite a few times per address; a disabled user is locked out everywhere.

use std::process::Command;

use serde_json::{Value, json};

use crate::league::League;
use crate::util::{at, scratch};

fn admin(db: &str, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_botbox"))
        .arg("league")
        .args(args)
        .args(["--db", db])
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A new invite's code, from the link the admin command prints.
fn invite(db: &str, uses: &str, url: &str) -> (String, i64) {
    let (ok, link, err) = admin(db, &["invite", "create", "--uses", uses, "--url", url]);
    assert!(ok, "{err}");
    assert!(
        link.starts_with(&format!("{url}/signup?invite=inv_")),
        "{link}"
    );
    let id = err
        .strip_prefix("invite ")
        .and_then(|rest| rest.split(':').next())
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    (link.trim().rsplit('=').next().unwrap().to_string(), id)
}

fn sign_up(league: &League, name: &str, code: Option<&str>) -> (u16, Value) {
    let response = reqwest::blocking::Client::new()
        .post(format!("{}/api/v1/signup", league.url))
        .json(&json!({ "name": name, "invite": code }))
        .send()
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn sqlite_execute(file: &str, sql: &str) {
    use sqlx::Connection;
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{file}"))
                .await
                .unwrap();
            sqlx::query(sql).execute(&mut conn).await.unwrap();
        });
}

/// Signs up through the web form; returns the status, the page and the session cookie.
fn web_sign_up(league: &League, name: &str, code: &str) -> (u16, String, Option<String>) {
    let client = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let page = client
        .get(format!("{}/signup?invite={code}", league.url))
        .send()
        .unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().unwrap().contains(&format!("value=\"{code}\"")));
    let response = client
        .post(format!("{}/signup", league.url))
        .form(&[("name", name), ("invite", code)])
        .send()
        .unwrap();
    let status = response.status().as_u16();
    let cookie = response
        .headers()
        .get("set-cookie")
        .map(|c| c.to_str().unwrap().split(';').next().unwrap().to_string());
    (status, response.text().unwrap(), cookie)
}

fn account_status(league: &League, cookie: &str) -> u16 {
    reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(format!("{}/account", league.url))
        .header("cookie", cookie)
        .send()
        .unwrap()
        .status()
        .as_u16()
}

#[test]
fn invites_sign_strangers_up_and_a_disabled_user_is_locked_out() {
    let dir = scratch("league-invites");
    let db = dir.join("league.db");
    let db = db.to_str().unwrap();
    let league = League::start(&dir, db, 1, &[]);
    let (code, _) = invite(db, "2", &league.url);

    // Two sign-ups through the API, then the invite is used up.
    let (status, first) = sign_up(&league, "stranger", Some(&code));
    assert_eq!(status, 201, "{first}");
    let token = first["token"].as_str().unwrap().to_string();
    assert_eq!(league.get("/me", Some(&token)).0, 200);
    let (status, body) = sign_up(&league, "stranger", Some(&code));
    assert_eq!(status, 409, "a taken name: {body}");
    let (status, body) = sign_up(&league, "second", Some(&code));
    assert_eq!(status, 201, "the taken name used nothing up: {body}");
    let (status, body) = sign_up(&league, "third", Some(&code));
    assert_eq!(status, 403, "{body}");
    assert!(
        body.to_string()
            .contains("good for 2 sign-ups and is used up"),
        "{body}"
    );

    // No invite, a made-up one, an expired one: each refused with its reason.
    let (status, body) = sign_up(&league, "third", None);
    assert_eq!(status, 403, "{body}");
    assert!(body.to_string().contains("takes an invite"), "{body}");
    let (status, body) = sign_up(&league, "third", Some("inv_0000"));
    assert_eq!(status, 403, "{body}");
    assert!(body.to_string().contains("not an invite"), "{body}");
    let (late, id) = invite(db, "5", &league.url);
    sqlite_execute(
        db,
        &format!("UPDATE invites SET expires = 1000 WHERE id = {id}"),
    );
    let (status, body) = sign_up(&league, "third", Some(&late));
    assert_eq!(status, 403, "{body}");
    assert!(body.to_string().contains("expired on 1970-01-01"), "{body}");

    // The web page: a name, a token shown once, a signed-in browser.
    let (web, _) = invite(db, "1", &league.url);
    let (status, page, cookie) = web_sign_up(&league, "webber", &web);
    assert_eq!(status, 201, "{page}");
    assert!(page.contains("bbx_"), "the token is shown: {page}");
    let cookie = cookie.expect("a session cookie");
    assert_eq!(account_status(&league, &cookie), 200);

    // The stranger uploads a bot, which plays.
    let bot = at("strategies/lua/connect4/center.lua");
    league.upload_ok(&token, "strangers-bot", "connect4", &bot);
    let other = league.user("host");
    league.upload_ok(
        &other,
        "hosts-bot",
        "connect4",
        &at("strategies/lua/connect4/random.lua"),
    );
    league.wait_for_games(2, std::time::Duration::from_secs(60));
    assert!(on_ladder(&league, "strangers-bot"));

    // Disabled: tokens, sessions and bots stop; enabled: all back.
    let (ok, _, err) = admin(db, &["user", "disable", "stranger"]);
    assert!(ok, "{err}");
    let (ok, _, err) = admin(db, &["user", "disable", "webber"]);
    assert!(ok, "{err}");
    assert_eq!(league.get("/me", Some(&token)).0, 401);
    assert_ne!(account_status(&league, &cookie), 200);
    assert!(!on_ladder(&league, "strangers-bot"));
    let (ok, list, _) = admin(db, &["user", "list"]);
    assert!(ok);
    assert!(
        list.lines()
            .any(|l| l.contains("stranger") && l.contains("disabled since")),
        "{list}"
    );
    let (ok, _, _) = admin(db, &["user", "enable", "stranger"]);
    assert!(ok);
    assert_eq!(league.get("/me", Some(&token)).0, 200);
    assert!(on_ladder(&league, "strangers-bot"));
    let (ok, _, err) = admin(db, &["user", "disable", "nobody"]);
    assert!(!ok && err.contains("there is no user nobody"), "{err}");
    league.stop();
}

fn on_ladder(league: &League, bot: &str) -> bool {
    let (status, ladder) = league.get("/ladders/connect4", None);
    assert_eq!(status, 200, "{ladder}");
    ladder.to_string().contains(&format!("\"{bot}\""))
}

#[test]
fn a_closed_league_refuses_sign_up_and_an_open_one_takes_three_an_hour_per_address() {
    let dir = scratch("league-signup-modes");
    let closed_db = dir.join("closed.db");
    let closed = League::start(
        &dir,
        closed_db.to_str().unwrap(),
        0,
        &["--signup", "closed"],
    );
    let (code, _) = invite(closed_db.to_str().unwrap(), "1", &closed.url);
    let (status, body) = sign_up(&closed, "someone", Some(&code));
    assert_eq!(status, 403, "{body}");
    assert!(body.to_string().contains("closed"), "{body}");
    closed.stop();

    let open_db = dir.join("open.db");
    let open = League::start(&dir, open_db.to_str().unwrap(), 0, &["--signup", "open"]);
    for name in ["one", "two", "three"] {
        let (status, body) = sign_up(&open, name, None);
        assert_eq!(status, 201, "{name}: {body}");
    }
    let (status, body) = sign_up(&open, "four", None);
    assert_eq!(status, 429, "{body}");
    assert!(body.to_string().contains("3 sign-ups an hour"), "{body}");
    open.stop();
}
