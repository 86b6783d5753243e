//! Nothing of a seat reaches anyone but its owner, on any surface, and nothing a bot prints can
//! change how a page is parsed: a bot that logs secrets and faults with a secret message, read back
//! by everybody else over the API and the pages, and its owner's viewer in Chromium.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{cookie_pair, fetch, random_hex, web_sign_in};
use crate::browser::{Browser, browser_here, sign_in};
use crate::league::League;
use crate::util::{at, scratch};

/// A Connect Four bot that logs secrets every move and, playing second (mark 2; the upload's
/// smoke game has it first), faults with a secret message.
fn secret_bot(nonce: &str) -> String {
    format!(
        r#"local M = {{}}
function M.choose_move(obs)
	print("SECRET-LOG-{nonce} <!--<script> </script> \u{{2028}}")
	if obs.mark == 2 and obs.moves > 4 then
		error("SECRET-FAULT-{nonce}")
	end
	return obs.legal[#obs.legal]
end
return M
"#
    )
}

/// A league in `dir` with one worker where alice's `secret_bot` (uploaded as `bot`, from the file
/// `file`) plays bob's `center.lua`: the league, alice's and bob's tokens, and the secrets' nonce.
fn secret_league(dir: &Path, bot: &str, file: &str) -> (League, String, String, String) {
    let db = dir.join("league.db");
    let league = League::start(dir, db.to_str().unwrap(), 1, &[]);
    let alice = league.user("alice");
    let bob = league.user("bob");
    let nonce = random_hex(12);
    let (status, body) = league.request(
        reqwest::Method::POST,
        &format!("/bots/{bot}/versions?game=connect4&file={file}"),
        Some(&alice),
        secret_bot(&nonce).into_bytes(),
    );
    assert_eq!(status, 201, "{body}");
    league.upload_ok(
        &bob,
        "plain",
        "connect4",
        &at("strategies/lua/connect4/center.lua"),
    );
    (league, alice, bob, nonce)
}

#[test]
fn nothing_of_a_seat_reaches_anyone_but_its_owner_and_no_server_path_reaches_anyone() {
    let dir = scratch("league-leaks");
    let (league, alice, bob, nonce) = secret_league(&dir, "secretive", "hunter.lua");
    // A refusal names the file as its owner named it.
    let (status, body) = league.request(
        reqwest::Method::POST,
        "/bots/broken/versions?game=connect4&file=broken.lua",
        Some(&alice),
        b"local M = {}\nfunction M.choose_move(obs)\n  return obs.legal[1] +\nend\nreturn M\n"
            .to_vec(),
    );
    assert_eq!(status, 422, "{body}");
    assert!(body.to_string().contains("broken.lua:"), "{body}");
    let start = Instant::now();
    let game = loop {
        let (_, games) = league.get("/bots/secretive/games?faults=true", Some(&alice));
        if let Some(id) = games[0]["id"].as_i64() {
            break id;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no game it faulted in"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    let (_, stored) = league.get(&format!("/games/{game}"), None);
    let seat = stored["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["bot"] == "secretive")
        .unwrap();

    // Alice sees her bot's logs and fault, named as she named the file.
    let (_, logs) = league.get(&format!("/games/{game}/logs"), Some(&alice));
    let logs = logs.to_string();
    assert!(logs.contains(&format!("SECRET-LOG-{nonce}")), "{logs}");
    assert!(
        logs.contains(&format!("hunter.lua:5: SECRET-FAULT-{nonce}")),
        "{logs}"
    );

    // Everybody else, signed out or signed in as bob, on every surface.
    let bob_cookie = cookie_pair(&web_sign_in(&league, &bob));
    let bob_bearer = format!("Bearer {bob}");
    let viewers: [(&str, Vec<(&str, &str)>); 3] = [
        ("signed out", vec![]),
        ("bob's token", vec![("authorization", bob_bearer.as_str())]),
        ("bob's session", vec![("cookie", bob_cookie.as_str())]),
    ];
    let paths = [
        format!("/api/v1/games/{game}"),
        format!("/api/v1/games/{game}/replay"),
        format!("/api/v1/games/{game}/logs"),
        "/api/v1/bots/secretive".to_string(),
        "/api/v1/bots/secretive/games".to_string(),
        "/api/v1/bots/secretive/games?faults=true".to_string(),
        "/api/v1/ladders/connect4".to_string(),
        "/api/v1/ladders/connect4/variants".to_string(),
        "/".to_string(),
        "/ladder/connect4".to_string(),
        "/bot/secretive".to_string(),
        "/bot/plain".to_string(),
        format!("/game/{game}"),
    ];
    let server_paths = [dir.to_str().unwrap().to_string(), "cache/".to_string()];
    for (who, headers) in &viewers {
        for path in &paths {
            let (status, body) = fetch(&format!("{}{path}", league.url), headers);
            assert!(status < 500, "{who} {path}: {status}");
            for secret in [
                format!("SECRET-LOG-{nonce}"),
                format!("SECRET-FAULT-{nonce}"),
            ] {
                assert!(
                    !body.contains(&secret),
                    "{who} {path} shows {secret}: {body}"
                );
            }
            for server in &server_paths {
                assert!(
                    !body.contains(server.as_str()),
                    "{who} {path} shows {server}"
                );
            }
            if path.ends_with("/replay") {
                no_log_counts_of(&body, seat, &format!("{who} {path}"));
            }
            if path.starts_with("/game/") {
                let data = embedded_data(&body);
                assert!(
                    data["logs"][seat].as_array().unwrap().is_empty(),
                    "{who} {path}: {}",
                    data["logs"]
                );
                let timed = data["frames"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|f| f["log"].as_array().cloned().unwrap_or_default())
                    .filter(|l| l["seat"] == seat)
                    .count();
                assert_eq!(timed, 0, "{who} {path}: log timing of alice's seat");
            }
        }
    }
    // Alice's own responses name no server path either.
    let alice_cookie = cookie_pair(&web_sign_in(&league, &alice));
    for path in &paths {
        let (_, body) = fetch(
            &format!("{}{path}", league.url),
            &[
                ("authorization", &format!("Bearer {alice}")),
                ("cookie", &alice_cookie),
            ],
        );
        for server in &server_paths {
            assert!(
                !body.contains(server.as_str()),
                "alice {path} shows {server}"
            );
        }
    }
    league.stop();
}

/// No turn line of a replay shows a log count for `seat`.
fn no_log_counts_of(replay: &str, seat: usize, what: &str) {
    for line in replay.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if let Some(counts) = v.get("logged") {
            assert_eq!(counts[seat], 0, "{what}: {line}");
        }
    }
}

/// The viewer's data, as the page embeds it.
fn embedded_data(page: &str) -> Value {
    let start = page
        .find(r#"<script id="replay-data" type="application/json">"#)
        .expect("the viewer's data");
    let rest = &page[start..];
    let body = &rest[rest.find('>').unwrap() + 1..rest.find("</script>").unwrap()];
    serde_json::from_str(body).expect("the data is JSON")
}

#[test]
fn a_bot_printing_markup_leaves_its_owners_viewer_working() {
    if !browser_here("league_holds::viewer") {
        return;
    }
    let dir = scratch("league-markup");
    let (league, alice, _, nonce) = secret_league(&dir, "markup", "markup.lua");
    league.wait_for_games(2, Duration::from_secs(120));
    let (_, games) = league.get("/bots/markup/games", Some(&alice));
    let game = games[0]["id"].as_i64().unwrap();
    let page = fetch(
        &format!("{}/game/{game}", league.url),
        &[("cookie", &cookie_pair(&web_sign_in(&league, &alice)))],
    )
    .1;
    let data = &page[page.find(r#"id="replay-data""#).unwrap()..];
    let data = &data[..data.find("</script>").unwrap()];
    for bad in ["<!--", "<script", "\u{2028}"] {
        assert!(!data[1..].contains(bad), "{bad:?} in the embedded data");
    }

    let browser = Browser::start(&dir.join("profile"));
    sign_in(&browser, &league.url, &alice);
    browser.open(&format!("{}/game/{game}", league.url));
    browser.wait_for(
        "return document.querySelector('#board')?.dataset.frame === '0'",
        "the viewer's script runs",
    );
    browser.press("\u{E014}");
    browser.wait_for(
        "return document.querySelector('#board').dataset.frame === '1'",
        "the viewer steps to the first move",
    );
    let logs = browser.eval("return document.querySelector('#logs').textContent");
    let logs = logs.as_str().unwrap();
    assert!(
        logs.contains(&format!(
            "SECRET-LOG-{nonce} <!--<script> </script> \u{2028}"
        )),
        "{logs}"
    );
    assert!(browser.console_errors().is_empty());
    league.stop();
}
