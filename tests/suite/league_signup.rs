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
    crate::util::sqlite(file, sql);
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
    // The CLI speaks TLS: an https:// league that is not there is a refused connection, and a
    // plain-HTTP one answered over TLS a handshake that fails, not a scheme it does not know.
    let cli = |server: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_botbox"))
            .args(["league", "status", "--server", server])
            .output()
            .unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let refused = cli("https://127.0.0.1:1");
    assert!(refused.contains("refused"), "{refused}");
    let plain = cli(&open.url.replace("http://", "https://"));
    assert!(
        !plain.contains("scheme") && !plain.contains("refused"),
        "{plain}"
    );
    let (status, body) = sign_up(&open, "four", None);
    assert_eq!(status, 429, "{body}");
    assert!(body.to_string().contains("3 sign-ups an hour"), "{body}");
    open.stop();
}

/// Unrated challenges: played ahead of the ladder's queue, counted by no rating, shown to their
/// owner with their games and logs; more than 20 games an hour is refused with 429.
#[test]
fn a_challenge_plays_ahead_of_the_ladder_and_moves_no_rating() {
    let dir = scratch("league-challenge");
    let db = dir.join("league.db");
    let db = db.to_str().unwrap();
    // A deep queue, so ladder jobs are still waiting when the challenge comes.
    let league = League::start(&dir, db, 1, &["--queue", "200"]);
    let alice = league.user("alice");
    let bob = league.user("bob");
    league.upload_ok(
        &alice,
        "hunter",
        "connect4",
        &at("strategies/lua/connect4/center.lua"),
    );
    league.upload_ok(
        &bob,
        "prey",
        "connect4",
        &at("strategies/lua/connect4/random.lua"),
    );
    league.wait_for_games(5, std::time::Duration::from_secs(60));

    let challenge = |token: &str, bot: &str, body: Value| -> (u16, Value) {
        let response = reqwest::blocking::Client::new()
            .post(format!("{}/api/v1/bots/{bot}/challenges", league.url))
            .bearer_auth(token)
            .json(&body)
            .send()
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().unwrap_or(Value::Null))
    };
    let (status, body) = challenge(&bob, "hunter", json!({"opponent": "prey"}));
    assert_eq!(status, 403, "not bob's bot: {body}");
    let (status, body) = challenge(&alice, "hunter", json!({"opponent": "nobody"}));
    assert_eq!(status, 404, "{body}");
    let (status, body) = challenge(&alice, "hunter", json!({"opponent": "prey", "games": 21}));
    assert_eq!(status, 429, "{body}");
    let (status, first) = challenge(&alice, "hunter", json!({"opponent": "prey", "games": 10}));
    assert_eq!(status, 201, "{first}");
    let id = first["id"].as_i64().unwrap();
    // The ladder jobs still waiting now were queued before the challenge: none may be played
    // before the challenge's games are.
    let waiting: Vec<String> = {
        use sqlx::Row;
        crate::util::sqlite(
            db,
            &format!(
                "SELECT id FROM jobs WHERE challenge_id IS NULL AND state = 'queued' \
                 AND id < (SELECT MIN(id) FROM jobs WHERE challenge_id = {id})"
            ),
        )
        .0
        .iter()
        .map(|r| r.get::<i64, _>(0).to_string())
        .collect()
    };
    assert!(
        !waiting.is_empty(),
        "no ladder job was waiting when the challenge came"
    );
    let waiting_ids = waiting.join(",");

    // Played before the ladder jobs that were queued first.
    let start = std::time::Instant::now();
    let done = loop {
        let (status, all) = league.get("/bots/hunter/challenges", Some(&alice));
        assert_eq!(status, 200, "{all}");
        let c = all
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()
            .clone();
        if c["played"] == 10 {
            break c;
        }
        assert!(
            start.elapsed().as_secs() < 60,
            "the challenge was not played: {c}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let w = done["wins"].as_i64().unwrap();
    let d = done["draws"].as_i64().unwrap();
    let l = done["losses"].as_i64().unwrap();
    assert_eq!(w + d + l, 10, "{done}");
    let games: Vec<i64> = done["game_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_i64().unwrap())
        .collect();
    let last_challenge_game = *games.iter().max().unwrap();
    let before = count(
        db,
        &format!(
            "SELECT COUNT(*) FROM results WHERE job_id IN ({waiting_ids}) \
             AND id < {last_challenge_game}"
        ),
    );
    assert_eq!(
        before, 0,
        "ladder jobs queued before the challenge were played first"
    );
    let start = std::time::Instant::now();
    let after = || {
        count(
            db,
            &format!("SELECT COUNT(*) FROM results WHERE job_id IN ({waiting_ids})"),
        )
    };
    while after() == 0 {
        assert!(
            start.elapsed().as_secs() < 60,
            "the ladder jobs queued before the challenge were not played after it"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }

    // No rating moved: each version counts its ladder games only (games go on meanwhile, so the
    // page's count lies between the ladder games before and after it was read).
    for bot in ["hunter", "prey"] {
        let rated = || {
            count(
                db,
                &format!(
                    "SELECT COUNT(*) FROM seats JOIN results ON results.id = seats.result_id \
                     JOIN bots ON bots.id = seats.bot_id WHERE bots.name = '{bot}' \
                     AND results.challenge_id IS NULL"
                ),
            )
        };
        let low = rated();
        let (_, page) = league.get(&format!("/bots/{bot}"), None);
        let counted = page["versions"][0]["games"].as_i64().unwrap();
        let high = rated();
        assert!(
            (low..=high).contains(&counted),
            "{bot}: {counted} counted, {low}..{high} ladder games"
        );
    }
    // Their games and the owner's logs are there; bob cannot read alice's challenges.
    let (status, _) = league.get(&format!("/games/{}/logs", games[0]), Some(&alice));
    assert_eq!(status, 200);
    assert_eq!(league.get("/bots/hunter/challenges", Some(&bob)).0, 403);
    let page = reqwest::blocking::get(format!("{}/bot/hunter", league.url))
        .unwrap()
        .text()
        .unwrap();
    assert!(
        !page.contains("id=\"challenges\""),
        "only the owner sees the challenges"
    );

    // The hour's limit: 10 more, then none.
    let (status, body) = challenge(&alice, "hunter", json!({"opponent": "prey", "games": 10}));
    assert_eq!(status, 201, "{body}");
    let (status, body) = challenge(&alice, "hunter", json!({"opponent": "prey", "games": 1}));
    assert_eq!(status, 429, "{body}");
    assert!(
        body.to_string().contains("20 challenge games an hour"),
        "{body}"
    );

    // The CLI shows them.
    let out = Command::new(env!("CARGO_BIN_EXE_botbox"))
        .args([
            "league",
            "challenge",
            "hunter",
            "--server",
            &league.url,
            "--token",
            &alice,
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(&format!("challenge {id}: hunter against prey")),
        "{text}"
    );
    league.stop();
}

fn count(db: &str, sql: &str) -> i64 {
    use sqlx::Row;
    crate::util::sqlite(db, sql).0[0].get::<i64, _>(0)
}

/// The whole way in, in Chromium: an invite link, a name, the token shown once, an upload through
/// the form, a challenge from the bot's page, and the bot playing.
#[test]
fn a_stranger_signs_up_by_invite_uploads_and_challenges_in_the_browser() {
    use crate::browser::{Browser, body_text, browser_here, upload_in_browser};
    if !browser_here("league_signup::browser") {
        return;
    }
    let dir = scratch("browser-signup");
    let db = dir.join("league.db");
    let db = db.to_str().unwrap();
    let league = League::start(&dir, db, 1, &[]);
    let bob = league.user("bob");
    league.upload_ok(
        &bob,
        "random-c4",
        "connect4",
        &at("strategies/lua/connect4/random.lua"),
    );
    let (ok, link, err) = admin(db, &["invite", "create", "--url", &league.url]);
    assert!(ok, "{err}");
    let browser = Browser::start(&dir.join("profile"));

    browser.open(link.trim());
    browser.eval(
        "document.querySelector('input[name=name]').value = 'carol'; \
         document.querySelector('form[action=\"/signup\"]').submit(); return true",
    );
    browser.wait_for(
        "return document.querySelector('#token') !== null",
        "signing up shows the token",
    );
    let token = browser.eval("return document.querySelector('#token').textContent");
    assert!(token.as_str().unwrap().starts_with("bbx_"), "{token}");
    assert!(body_text(&browser).contains("signed in as carol"));

    let center = at("strategies/lua/connect4/center.lua");
    upload_in_browser(&browser, &league.url, "carols-bot", "connect4", &center);
    browser.eval(
        "document.querySelector('select[name=opponent]').value = 'random-c4'; \
         document.querySelector('input[name=games]').value = '2'; \
         document.querySelector('form[action$=\"/challenge\"]').submit(); return true",
    );
    browser.wait_for(
        "return document.querySelector('#challenges') !== null",
        "the challenge shows on the bot's page",
    );
    let start = std::time::Instant::now();
    loop {
        browser.open(&format!("{}/bot/carols-bot", league.url));
        let table = browser.eval("return document.querySelector('#challenges').innerText");
        if table.as_str().unwrap().contains("2 of 2") {
            break;
        }
        assert!(
            start.elapsed().as_secs() < 60,
            "the challenge was not played: {table}"
        );
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    // The bot plays on the ladder too (its page as it is after those games, not as it was loaded).
    league.wait_for_games(4, std::time::Duration::from_secs(60));
    browser.open(&format!("{}/bot/carols-bot", league.url));
    let games = browser.eval("return document.querySelectorAll('#games a').length");
    assert!(games.as_i64().unwrap() >= 2, "{games}");
    assert!(
        browser.console_errors().is_empty(),
        "{:?}",
        browser.console_errors()
    );
    league.stop();
}
