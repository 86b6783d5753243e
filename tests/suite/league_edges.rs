//! Small things a new league user met (issue 35): a program is refused as a program whatever name
//! it takes, an unknown path answers a browser with a page, a retired bot's version no longer
//! "plays", the 2048 ladder and bot pages have no win-draw-loss column, and `league retire --help` says what
//! retiring does.

use std::time::Duration;

use crate::league::League;
use crate::util::{at, botbox, scratch, stdout};

#[test]
fn league_pages_and_refusals_say_what_is_so() {
    let dir = scratch("league-edges");
    let db = dir.join("league.db");
    let league = League::start(&dir, db.to_str().unwrap(), 0, &[]);
    let alice = league.user("alice");
    let bob = league.user("bob");
    league.upload_ok(
        &bob,
        "greedy",
        "worms",
        &at("strategies/lua/worms/greedy.lua"),
    );
    // A program under a name bob holds: refused as a program, not as bob's name.
    for (file, bytes) in [
        ("greedy.py", b"print('hello')\n".to_vec()),
        ("greedy", b"#!/bin/sh\necho 1\n".to_vec()),
    ] {
        let (status, body) = league.request(
            reqwest::Method::POST,
            &format!("/bots/greedy/versions?game=worms&file={file}"),
            Some(&alice),
            bytes,
        );
        assert_eq!(status, 422, "{file}: {body}");
        assert!(body.to_string().contains("programs"), "{file}: {body}");
    }
    // An unknown path: a page for a browser, JSON under /api/.
    let client = reqwest::blocking::Client::new();
    let page = client
        .get(format!("{}/no/such/page", league.url))
        .timeout(Duration::from_secs(30))
        .send()
        .unwrap();
    assert_eq!(page.status().as_u16(), 404);
    assert!(page.text().unwrap().contains("<nav>"));
    assert_eq!(league.get("/no/such/thing", None).0, 404);
    // Retired, its version no longer plays.
    let (status, _) = league.request(
        reqwest::Method::POST,
        "/bots/greedy/retire",
        Some(&bob),
        Vec::new(),
    );
    assert_eq!(status, 200);
    let page = client
        .get(format!("{}/bot/greedy", league.url))
        .send()
        .unwrap()
        .text()
        .unwrap();
    assert!(
        page.contains("retired") && !page.contains("(plays)"),
        "{page}"
    );
    // A game played alone has no wins, draws or losses on its ladder.
    let ladder = |game: &str| {
        client
            .get(format!("{}/ladder/{game}", league.url))
            .send()
            .unwrap()
            .text()
            .unwrap()
    };
    assert!(!ladder("2048").contains("W-D-L"));
    assert!(ladder("worms").contains("W-D-L"));
    // Nor on a 2048 bot's page, whose versions show mean score, not a rating.
    league.upload_ok(
        &alice,
        "corner",
        "2048",
        &at("strategies/lua/g2048/corner.lua"),
    );
    let bot = |name: &str| {
        client
            .get(format!("{}/bot/{name}", league.url))
            .send()
            .unwrap()
            .text()
            .unwrap()
    };
    let corner = bot("corner");
    assert!(
        !corner.contains("W-D-L") && corner.contains("mean score"),
        "{corner}"
    );
    assert!(bot("greedy").contains("W-D-L"));
    league.stop();

    let help = stdout(&botbox(&["league", "retire", "--help"]));
    assert!(help.starts_with("Retire one of your bots"), "{help}");
}
