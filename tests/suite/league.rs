//! The league end to end, on loopback: the real `botbox league serve` (and `worker`) processes, a
//! real SQLite file and a real PostgreSQL server, driven through the HTTP API and the CLI.
//!
//! PostgreSQL: `BOTBOX_TEST_POSTGRES` is a URL of a role that may create databases (`.ci/postgres`
//! starts the server and prints it); each test makes a database of its own and drops it. Without
//! the variable the PostgreSQL tests say so and pass, unless `BOTBOX_REQUIRE_POSTGRES` is set (CI
//! sets it, so there they cannot be skipped).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{announced_url, at, guest_wasm, repo, scratch};

/// A running `botbox league serve`.
pub(crate) struct League {
    child: Child,
    pub(crate) url: String,
    db: String,
}

impl League {
    /// Starts a server on a free port with `workers` workers.
    pub(crate) fn start(dir: &Path, db: &str, workers: usize, extra: &[&str]) -> League {
        League::start_under(&[], dir, db, workers, extra)
    }

    /// [`League::start`] through a `wrapper` command that runs the server (`prlimit ... --`).
    pub(crate) fn start_under(
        wrapper: &[&str],
        dir: &Path,
        db: &str,
        workers: usize,
        extra: &[&str],
    ) -> League {
        let cache = dir.join("cache");
        let botbox = env!("CARGO_BIN_EXE_botbox");
        let (program, before) = match wrapper.split_first() {
            Some((program, rest)) => (*program, [rest, &[botbox]].concat()),
            None => (botbox, Vec::new()),
        };
        let mut child = Command::new(program)
            .args(before)
            .args(["league", "serve", "--db", db, "--listen", "127.0.0.1:0"])
            .args(["--cache", cache.to_str().unwrap()])
            .args(["--workers", &workers.to_string()])
            .args(if extra.contains(&"--rate") {
                &[][..]
            } else {
                &["--rate", "100000", "--burst", "100000"][..]
            })
            // Tests play as fast as they can unless they test the pace.
            .args(if extra.contains(&"--games-per-hour") {
                &[][..]
            } else {
                &["--games-per-hour", "0"][..]
            })
            .args(extra)
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::from(
                std::fs::File::create(dir.join(format!("serve-{}.log", now_ms()))).unwrap(),
            ))
            .spawn()
            .expect("starting botbox league serve");
        let url = announced_url(&mut child);
        League {
            child,
            url,
            db: db.to_string(),
        }
    }

    /// Adds a user with the CLI and returns their token.
    pub(crate) fn user(&self, name: &str) -> String {
        let out = Command::new(env!("CARGO_BIN_EXE_botbox"))
            .args(["league", "user", "add", name, "--db", &self.db])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }

    pub(crate) fn request(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Vec<u8>,
    ) -> (u16, Value) {
        let client = reqwest::blocking::Client::new();
        let mut r = client
            .request(method, format!("{}/api/v1{path}", self.url))
            .timeout(Duration::from_secs(120))
            .body(body);
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        let response = r.send().expect("the server answers");
        let status = response.status().as_u16();
        let text = response.text().unwrap();
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value)
    }

    pub(crate) fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        self.request(reqwest::Method::GET, path, token, Vec::new())
    }

    pub(crate) fn upload(
        &self,
        token: Option<&str>,
        name: &str,
        game: &str,
        bytes: Vec<u8>,
    ) -> (u16, Value) {
        let path = format!("/bots/{name}/versions?game={game}");
        self.request(reqwest::Method::POST, &path, token, bytes)
    }

    /// Uploads and expects the bot on the ladder.
    pub(crate) fn upload_ok(&self, token: &str, name: &str, game: &str, file: &Path) {
        let (status, body) = self.upload(Some(token), name, game, std::fs::read(file).unwrap());
        assert_eq!(status, 201, "{name} ({}): {body}", file.display());
    }

    pub(crate) fn status(&self) -> Value {
        self.get("/status", None).1
    }

    pub(crate) fn games(&self) -> i64 {
        self.status()["games"].as_i64().unwrap()
    }

    /// Waits until `n` games are recorded.
    pub(crate) fn wait_for_games(&self, n: i64, within: Duration) {
        let start = Instant::now();
        while self.games() < n {
            assert!(
                start.elapsed() < within,
                "only {} of {n} games after {within:?}: {}",
                self.games(),
                self.status()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Stops the server as Ctrl-C does and waits for it to exit.
    pub(crate) fn stop(mut self) {
        let pid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "the server exits cleanly: {status}");
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the server stops within a minute of SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Kills the server at once (SIGKILL): whatever it was writing is cut off.
    pub(crate) fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for League {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn now_ms() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

fn botbox(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_botbox"))
        .args(args)
        .current_dir(repo())
        .output()
        .unwrap()
}

/// A scratch PostgreSQL database for one test, dropped at the end; `None` (the test passes, saying
/// so) where no PostgreSQL is configured and none is required.
pub(crate) struct PgDatabase {
    admin: String,
    name: String,
    pub(crate) url: String,
}

impl PgDatabase {
    pub(crate) fn new(test: &str) -> Option<PgDatabase> {
        let Ok(admin) = std::env::var("BOTBOX_TEST_POSTGRES") else {
            assert!(
                std::env::var_os("BOTBOX_REQUIRE_POSTGRES").is_none(),
                "BOTBOX_REQUIRE_POSTGRES is set but BOTBOX_TEST_POSTGRES is not: run .ci/postgres"
            );
            eprintln!(
                "{test}: skipped, no PostgreSQL (export BOTBOX_TEST_POSTGRES=$(.ci/postgres) to run it)"
            );
            return None;
        };
        let name = format!("botbox_{test}_{}", std::process::id());
        pg_execute(&admin, &format!("DROP DATABASE IF EXISTS {name}"));
        pg_execute(&admin, &format!("CREATE DATABASE {name}"));
        let base = admin.rsplit_once('/').expect("a URL with a database").0;
        Some(PgDatabase {
            url: format!("{base}/{name}"),
            admin,
            name,
        })
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        pg_execute(
            &self.admin,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
    }
}

fn pg_execute(url: &str, sql: &str) {
    use sqlx::Connection;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut conn = sqlx::PgConnection::connect(url)
            .await
            .unwrap_or_else(|e| panic!("connecting to {url}: {e}"));
        sqlx::query(sql)
            .execute(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    });
}

/// A Connect Four bot that logs a line every move.
const LOGGER: &str = r#"
local M = {}
function M.choose_move(obs)
	print("choosing among " .. #obs.legal .. " columns")
	return obs.legal[1]
end
return M
"#;

/// Four bots per registered game, two per owner (alice first), WASM and Luau mixed.
fn four_bots(game: &str) -> Vec<(String, PathBuf)> {
    let lua = |p: &str| at(&format!("strategies/lua/{p}"));
    let named = |bots: Vec<(&str, PathBuf)>| {
        bots.into_iter()
            .map(|(name, file)| (name.to_string(), file))
            .collect()
    };
    named(match game {
        "2048" => vec![
            ("first-legal-wasm", guest_wasm("g2048-first-legal")),
            ("random-2048", lua("g2048/random.lua")),
            ("greedy-2048", lua("g2048/greedy.lua")),
            ("corner-2048", lua("g2048/corner.lua")),
        ],
        "dice" => vec![
            ("capture", lua("dice/capture_first.lua")),
            ("front", lua("dice/frontmost.lua")),
            ("safety", lua("dice/safety_first.lua")),
            ("front-too", lua("dice/frontmost.lua")),
        ],
        "bs" => vec![
            ("counter-wasm", guest_wasm("bs-counter")),
            ("hoarder", lua("bs/hoarder.lua")),
            ("liar", lua("bs/calculating_liar.lua")),
            ("p4", lua("bs/player4.lua")),
        ],
        "worms" => vec![
            ("search-wasm", guest_wasm("worms-search")),
            ("greedy-worm", lua("worms/greedy.lua")),
            ("random-worm", lua("worms/random.lua")),
            ("greedy-worm-2", lua("worms/greedy.lua")),
        ],
        "connect4" => vec![
            ("alphabeta-wasm", guest_wasm("connect4-alphabeta")),
            ("center", lua("connect4/center.lua")),
            ("logger", PathBuf::new()),
            ("random-c4", lua("connect4/random.lua")),
        ],
        // Any other game: its bundled bots, as `botbox games --json` lists them, four times over.
        other => return bundled_bots(other, 4),
    })
}

/// `n` bots of `game` from the ones it bundles, named by their stems and their number.
fn bundled_bots(game: &str, n: usize) -> Vec<(String, PathBuf)> {
    let out = botbox(&["games", "--json"]);
    let games: Value = serde_json::from_slice(&out.stdout).unwrap();
    let bots: Vec<String> = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == game)
        .and_then(|g| g["bots"].as_array())
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap().to_string())
        .collect();
    (0..n)
        .map(|i| {
            let path = at(&bots[i % bots.len()]);
            let stem = path
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .replace('_', "-");
            (format!("{stem}-{i}"), path)
        })
        .collect()
}

fn registered_games() -> Vec<String> {
    let out = botbox(&["games", "--json"]);
    let games: Value = serde_json::from_slice(&out.stdout).unwrap();
    games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap().to_string())
        .collect()
}

/// The whole league against one database: every registered game gets four bots of two owners,
/// plays ≥ 500 games, and its ladder, bot pages, logs and permissions are right; every stored game
/// re-plays byte for byte.
/// The ladder per variant agrees with the ladder: summed over the variants, each bot's games,
/// faults (and, with two or more seats, wins, draws and losses) are its version's counts. The two
/// come from different places (the seats of every stored game, and the counters a result moves),
/// and games go on meanwhile: the variants are read before and after the ladder until both reads
/// agree, so no game was recorded between them.
fn variants_add_up(league: &League, game: &str, seats: i64) {
    let path = format!("/ladders/{game}/variants");
    for _ in 0..200 {
        let (status, before) = league.get(&path, None);
        assert_eq!(status, 200, "{before}");
        let ladder = league.get(&format!("/ladders/{game}"), None).1;
        let after = league.get(&path, None).1;
        if before != after {
            continue;
        }
        let variants = after.as_array().unwrap();
        assert!(!variants.is_empty(), "{game}: {after}");
        let mut keys = vec!["games", "faults"];
        if seats >= 2 {
            keys.extend(["wins", "draws", "losses"]);
        }
        for row in ladder["rows"].as_array().unwrap() {
            let bot = &row["bot"];
            for key in &keys {
                let summed: i64 = variants
                    .iter()
                    .flat_map(|v| v["rows"].as_array().unwrap())
                    .filter(|r| &r["bot"] == bot)
                    .map(|r| r[key].as_i64().unwrap())
                    .sum();
                assert_eq!(
                    summed,
                    row[key].as_i64().unwrap(),
                    "{game} {bot} {key}: {after}"
                );
            }
        }
        // The ladder page links every variant, and each variant's page ranks the bots there.
        let page = |query: &str| {
            let response =
                reqwest::blocking::get(format!("{}/ladder/{game}{query}", league.url)).unwrap();
            (response.status().as_u16(), response.text().unwrap())
        };
        let (status, html) = page("");
        assert_eq!(status, 200);
        if game == "2048" {
            // The benchmark said in its own words beside the mean score it ranks by.
            assert!(
                html.contains("points / 100")
                    && html.contains("65536")
                    && html.contains("mean score"),
                "{html}"
            );
        }
        if variants.len() > 1 {
            assert!(html.contains("id=\"variants\""), "{game}: {html}");
            let played = variants
                .iter()
                .find(|v| !v["rows"].as_array().unwrap().is_empty())
                .unwrap();
            let name = played["variant"].as_str().unwrap();
            let (status, html) = page(&format!("?variant={}", name.replace(' ', "%20")));
            assert_eq!(status, 200, "{html}");
            assert!(
                html.contains("id=\"variant-ladder\""),
                "{game} {name}: {html}"
            );
            let first = played["rows"][0]["bot"].as_str().unwrap();
            assert!(html.contains(&format!("/bot/{first}")), "{html}");
        }
        let (status, html) = page("?variant=no-such-variant");
        assert_eq!(status, 404, "{html}");
        assert!(html.contains("has no variant"), "{html}");
        return;
    }
    panic!("{game}: games kept being recorded between two reads of {path}");
}

fn a_full_league(dir: &Path, db: &str) {
    let league = League::start(dir, db, 2, &["--queue", "8"]);
    let alice = league.user("alice");
    let bob = league.user("bob");
    let carol = league.user("carol");
    let games = registered_games();
    assert!(games.len() >= 5, "{games:?}");
    for game in &games {
        for (i, (name, file)) in four_bots(game).into_iter().enumerate() {
            let token = if i % 2 == 0 { &alice } else { &bob };
            if name == "logger" {
                let (status, body) = league.upload(Some(token), &name, game, LOGGER.into());
                assert_eq!(status, 201, "{body}");
            } else {
                league.upload_ok(token, &name, game, &file);
            }
        }
    }
    league.wait_for_games(500, Duration::from_secs(600));

    // Every ladder: four bots, each of which played, and every game counted once per seat.
    let ladders = league.get("/ladders", None).1;
    for l in ladders.as_array().unwrap() {
        let game = l["game"].as_str().unwrap();
        let (status, ladder) = league.get(&format!("/ladders/{game}"), None);
        assert_eq!(status, 200);
        let rows = ladder["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 4, "{game}: {ladder}");
        let seats = l["seats"].as_i64().unwrap();
        let played: i64 = rows.iter().map(|r| r["games"].as_i64().unwrap()).sum();
        assert!(played > 0, "{game}: no games played: {ladder}");
        assert!(
            l["formula"].as_str().unwrap().len() > 10,
            "the formula is named"
        );
        for r in rows {
            if seats == 2 {
                let wdl: i64 = ["wins", "draws", "losses"]
                    .iter()
                    .map(|k| r[k].as_i64().unwrap())
                    .sum();
                assert_eq!(wdl, r["games"].as_i64().unwrap(), "{game}: {r}");
            }
        }
        assert!(
            rows.windows(2)
                .all(|w| w[0]["rank_value"].as_f64() >= w[1]["rank_value"].as_f64()),
            "{game}: best first: {ladder}"
        );
        variants_add_up(&league, game, seats);
    }

    // A bot page, and its games from its owner's view and another's.
    let (status, page) = league.get("/bots/logger", None);
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["bot"]["owner"], "alice");
    assert_eq!(page["versions"].as_array().unwrap().len(), 1);
    let (_, mine) = league.get("/bots/logger/games?limit=5", Some(&alice));
    let mine = mine.as_array().unwrap();
    assert!(!mine.is_empty(), "the logger played");
    let game_id = mine[0]["id"].as_i64().unwrap();
    let seat = mine[0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p.as_str().unwrap().starts_with("logger@"))
        .unwrap();
    let logs = &mine[0]["logs"][seat];
    assert!(
        logs.as_array().unwrap()[0]
            .as_str()
            .unwrap()
            .starts_with("choosing among"),
        "the owner sees the logger's lines: {}",
        mine[0]
    );
    let (_, theirs) = league.get("/bots/logger/games?limit=5", Some(&bob));
    assert!(
        theirs[0].get("logs").is_none(),
        "another user sees no logs: {}",
        theirs[0]
    );
    let (status, own) = league.get(&format!("/games/{game_id}/logs"), Some(&alice));
    assert_eq!(status, 200, "{own}");
    assert!(own.as_array().unwrap().iter().any(|s| s["bot"] == "logger"));
    let (status, body) = league.get(&format!("/games/{game_id}/logs"), Some(&carol));
    assert_eq!(status, 403, "carol has no bot in the game: {body}");
    let (status, _) = league.get(&format!("/games/{game_id}/logs"), None);
    assert_eq!(status, 401);
    let (_, replay) = league.get(&format!("/games/{game_id}/replay"), Some(&carol));
    let text = replay.as_str().unwrap();
    assert!(
        !text.contains("choosing among") && !text.contains("\"logged\""),
        "the public replay has no logs, and no counts of them"
    );
    let (_, replay) = league.get(&format!("/games/{game_id}/replay"), Some(&alice));
    let own = replay.as_str().unwrap();
    assert!(own.contains("choosing among") && own.contains("\"logged\""));

    // Owners only: bob cannot upload to, or retire, alice's bot; nobody uploads without a token.
    let lua = std::fs::read(at("strategies/lua/connect4/random.lua")).unwrap();
    let (status, body) = league.upload(Some(&bob), "logger", "connect4", lua.clone());
    assert_eq!(status, 403, "{body}");
    assert!(body["error"].as_str().unwrap().contains("another user"));
    let (status, _) = league.request(
        reqwest::Method::POST,
        "/bots/logger/retire",
        Some(&bob),
        vec![],
    );
    assert_eq!(status, 403);
    let (status, _) = league.upload(None, "mine", "connect4", lua.clone());
    assert_eq!(status, 401);
    let (status, _) = league.upload(Some("bbx_not_a_token"), "mine", "connect4", lua.clone());
    assert_eq!(status, 401);
    // The same bytes again are the same version; the owner retires their bot.
    let (status, body) = league.upload(Some(&alice), "logger", "connect4", LOGGER.into());
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["created"], false);
    let (status, _) = league.request(
        reqwest::Method::POST,
        "/bots/logger/retire",
        Some(&alice),
        vec![],
    );
    assert_eq!(status, 200);
    let ladder = league.get("/ladders/connect4", None).1;
    assert_eq!(ladder["rows"].as_array().unwrap().len(), 3, "{ladder}");

    // Through the CLI as well: the ladder table and the owner's games with their faults.
    let out = Command::new(env!("CARGO_BIN_EXE_botbox"))
        .args(["league", "list", "worms", "--server", &league.url])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("search-wasm"),
        "{text}"
    );

    // The owner downloads a game with their bot's log and sees it re-played here.
    let saved = dir.join("replay.jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_botbox"))
        .args([
            "league",
            "replay",
            &game_id.to_string(),
            "--server",
            &league.url,
        ])
        .args(["--token", &alice, "--out", saved.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.stdout.is_empty());
    assert!(
        std::fs::read_to_string(&saved)
            .unwrap()
            .contains("choosing among")
    );

    let url = league.url.clone();
    league.stop();
    let status_after = || {
        let out = Command::new(env!("CARGO_BIN_EXE_botbox"))
            .args(["league", "status", "--server", &url])
            .output()
            .unwrap();
        out.status.success()
    };
    assert!(!status_after(), "the server is gone");

    // Every stored game re-plays the same, WASM and Luau, every game.
    let out = Command::new(env!("CARGO_BIN_EXE_botbox"))
        .args(["league", "verify", "--recent", "200", "--db", db])
        .args(["--cache", dir.join("verify-cache").to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{err}\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(err.contains("200 agree, 0 differ"), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    for game in &games {
        assert!(
            text.contains(&format!("({game},")),
            "verify covered {game}: {text}"
        );
    }
}

#[test]
fn a_full_league_on_sqlite() {
    let dir = scratch("league-sqlite");
    let db = dir.join("league.db");
    a_full_league(&dir, db.to_str().unwrap());
}

#[test]
fn a_full_league_on_postgres() {
    let Some(pg) = PgDatabase::new("full") else {
        return;
    };
    let dir = scratch("league-postgres");
    a_full_league(&dir, &pg.url);
}

/// Uploads that must be refused (with a reason) or contained, while the ladder keeps playing.
#[test]
fn hostile_uploads_are_refused_with_a_reason_and_the_ladder_keeps_running() {
    let dir = scratch("league-hostile");
    let db = dir.join("league.db");
    let league = League::start(&dir, db.to_str().unwrap(), 1, &[]);
    let alice = league.user("alice");
    let bob = league.user("bob");
    league.upload_ok(
        &alice,
        "greedy",
        "worms",
        &at("strategies/lua/worms/greedy.lua"),
    );
    league.upload_ok(
        &bob,
        "random",
        "worms",
        &at("strategies/lua/worms/random.lua"),
    );
    let wasm =
        |file: &str| wat::parse_file(at(&format!("strategies/hostile/wasm/{file}"))).unwrap();
    let lua = |file: &str| std::fs::read(at(&format!("strategies/hostile/lua/{file}"))).unwrap();
    let looping_start = wat::parse_str(
        r#"(module
            (memory (export "memory") 1)
            (func $spin (loop $l (br $l)))
            (start $spin)
            (func (export "botbox_alloc") (param i32) (result i32) (i32.const 1024))
            (func (export "choose_move") (param i32 i32) (result i64) (i64.const 0)))"#,
    )
    .unwrap();
    let mut oversized = b"\0asm\x01\0\0\0".to_vec();
    oversized.resize((4 << 20) + 1, 0);
    let long = "x".repeat(41);
    let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        (
            "garbage",
            std::fs::read(at("strategies/hostile/wasm/malformed.wasm")).unwrap(),
            422,
            "",
        ),
        (
            "binary",
            vec![0xff, 0xfe, 0x00, 0x01, 0x80],
            422,
            "neither a WASM module",
        ),
        ("empty", Vec::new(), 422, "empty"),
        ("oversized", oversized, 413, ""),
        ("wasi", wasm("wasi_import.wat"), 422, "wasi"),
        ("start-loop", looping_start, 422, ""),
        ("fuel-bomb", wasm("endless_loop.wat"), 422, "smoke game"),
        ("memory-bomb", wasm("grow_bomb.wat"), 422, "smoke game"),
        ("init-fails", wasm("init_fails.wat"), 422, ""),
        (
            "lua-load-error",
            b"error('refusing to load')".to_vec(),
            422,
            "refusing to load",
        ),
        ("lua-syntax", b"local = = 1".to_vec(), 422, ""),
        ("lua-loop", lua("endless_loop.lua"), 422, "smoke game"),
        ("lua-memory", lua("memory_bomb.lua"), 422, "smoke game"),
        ("lua-io", lua("io_open.lua"), 422, "smoke game"),
        ("lua-os", lua("os_execute.lua"), 422, "smoke game"),
        ("program", b"#!/bin/sh\necho 1\n".to_vec(), 422, "programs"),
        ("wat-text", b"(module)".to_vec(), 422, "compile it"),
        (
            "random",
            std::fs::read(at("strategies/lua/worms/random.lua")).unwrap(),
            403,
            "another user",
        ),
        ("..%2Fetc", b"return {}".to_vec(), 400, "name"),
        ("a%2Fb", b"return {}".to_vec(), 400, "name"),
        (".hidden", b"return {}".to_vec(), 400, "name"),
        ("a%20b", b"return {}".to_vec(), 400, "name"),
        ("-dash", b"return {}".to_vec(), 400, "name"),
        (long.as_str(), b"return {}".to_vec(), 400, "name"),
    ];
    for (name, bytes, want, says) in cases {
        let (status, body) = league.upload(Some(&alice), name, "worms", bytes);
        assert_eq!(status, want, "{name}: {body}");
        if !says.is_empty() {
            assert!(
                body.to_string()
                    .to_lowercase()
                    .contains(&says.to_lowercase()),
                "{name}: the reason says {says:?}: {body}"
            );
        }
        if status != 413 {
            assert!(
                body["error"].as_str().is_some_and(|e| !e.is_empty()),
                "{name}: a reason: {body}"
            );
        }
    }
    let (status, body) = league.upload(Some(&alice), "nogame", "chess", b"return {}".to_vec());
    assert_eq!(status, 422, "{body}");
    // Nothing refused is on the ladder, and the ladder keeps playing.
    let before = league.games();
    league.wait_for_games(before + 20, Duration::from_secs(120));
    let ladder = league.get("/ladders/worms", None).1;
    let names: Vec<&str> = ladder["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bot"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    league.stop();

    // `verify` is not believed either: a stored game changed behind the league's back is caught.
    let db = db.to_str().unwrap();
    let verify = |id: i64| {
        let cache = dir.join("verify-cache");
        botbox(&[
            "league",
            "verify",
            &id.to_string(),
            "--db",
            db,
            "--cache",
            cache.to_str().unwrap(),
        ])
    };
    let out = verify(1);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    sqlite_execute(db, "UPDATE results SET replay_sha256 = 'feed' WHERE id = 1");
    let out = verify(1);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("the replay differs"));
    sqlite_execute(
        db,
        "UPDATE results SET record = replace(record, '\"turns\":', '\"turns\":9') WHERE id = 2",
    );
    let out = verify(2);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("the result differs"));
}

fn sqlite_execute(file: &str, sql: &str) {
    let (_, changed) = crate::util::sqlite(file, sql);
    assert_eq!(changed, 1, "{sql}");
}

/// Every client is held to its rate: by its token, or by its address without one.
#[test]
fn clients_over_their_rate_get_429_and_each_token_has_its_own() {
    let dir = scratch("league-rate");
    let db = dir.join("league.db");
    let league = League::start(
        &dir,
        db.to_str().unwrap(),
        0,
        &["--rate", "1", "--burst", "3"],
    );
    let alice = league.user("alice");
    let bob = league.user("bob");
    let statuses = |token: Option<&str>| -> Vec<u16> {
        (0..6).map(|_| league.get("/ladders", token).0).collect()
    };
    let anonymous = statuses(None);
    assert_eq!(&anonymous[..3], [200, 200, 200], "{anonymous:?}");
    assert!(anonymous.contains(&429), "{anonymous:?}");
    let a = statuses(Some(&alice));
    assert_eq!(
        &a[..3],
        [200, 200, 200],
        "alice's token has a bucket of its own: {a:?}"
    );
    assert!(a.contains(&429), "{a:?}");
    let b = statuses(Some(&bob));
    assert_eq!(&b[..3], [200, 200, 200], "so does bob's: {b:?}");
    league.stop();
}

/// Kill -9 a worker mid-game and the server mid-write: after restarts every game is counted once,
/// no lease stays expired, and nothing uploaded is lost.
fn survives_kills(dir: &Path, db: &str, separate_workers: bool) {
    let lease = ["--lease", "3"];
    let workers = if separate_workers { 0 } else { 2 };
    let league = League::start(dir, db, workers, &lease);
    let alice = league.user("alice");
    let bob = league.user("bob");
    for (i, p) in [
        "player1",
        "player2",
        "player3",
        "player4",
        "hoarder",
        "calculating_liar",
    ]
    .iter()
    .enumerate()
    {
        let token = if i % 2 == 0 { &alice } else { &bob };
        league.upload_ok(token, p, "bs", &at(&format!("strategies/lua/bs/{p}.lua")));
    }
    league.upload_ok(
        &alice,
        "greedy",
        "worms",
        &at("strategies/lua/worms/greedy.lua"),
    );
    league.upload_ok(
        &bob,
        "random",
        "worms",
        &at("strategies/lua/worms/random.lua"),
    );
    let worker = |dir: &Path| {
        Command::new(env!("CARGO_BIN_EXE_botbox"))
            .args([
                "league",
                "worker",
                "--db",
                db,
                "--workers",
                "1",
                "--lease",
                "3",
            ])
            .args(["--cache", dir.join("worker-cache").to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut workers: Vec<Child> = Vec::new();
    if separate_workers {
        workers.push(worker(dir));
        workers.push(worker(dir));
    }
    league.wait_for_games(30, Duration::from_secs(120));
    if separate_workers {
        // One worker dies with a game leased; the other goes on.
        let mut first = workers.remove(0);
        first.kill().unwrap();
        first.wait().unwrap();
    }
    league.kill();
    // Restarted: the same database, the same uploads.
    let league = League::start(dir, db, workers_after(separate_workers), &lease);
    let ladder = league.get("/ladders/bs", None).1;
    assert_eq!(ladder["rows"].as_array().unwrap().len(), 6, "{ladder}");
    let before = league.games();
    league.wait_for_games(before + 30, Duration::from_secs(120));
    // Nothing stays leased past its end: the reaper (every 1.5 s with 3 s leases) puts it back. A
    // live worker's lease may lapse for a moment on a loaded machine; a stuck one never clears.
    let start = Instant::now();
    loop {
        let status = league.status();
        if status["expired_leases"] == 0 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "a lease stayed expired: {status}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    // Exactly once: each ladder's games, counted per seat, add up to its versions' games.
    for (game, seats) in [("bs", 4), ("worms", 2)] {
        let info = league.get("/ladders", None).1;
        let recorded = info
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["game"] == game)
            .unwrap()["games"]
            .as_i64()
            .unwrap();
        let ladder = league.get(&format!("/ladders/{game}"), None).1;
        let seat_games: i64 = ladder["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["games"].as_i64().unwrap())
            .sum();
        // Games may be recorded between the two requests: read them again in the other order.
        let recorded_after = league
            .get("/ladders", None)
            .1
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["game"] == game)
            .unwrap()["games"]
            .as_i64()
            .unwrap();
        assert!(
            (recorded * seats..=recorded_after * seats).contains(&seat_games),
            "{game}: {seat_games} seat-games for {recorded}..{recorded_after} games of {seats} seats"
        );
    }
    league.stop();
    for mut w in workers {
        let pid = nix::unistd::Pid::from_raw(w.id() as i32);
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
        assert!(w.wait().unwrap().success());
    }
    // Verify the newest games after all that.
    let cache = dir.join("verify-cache");
    let out = botbox(&[
        "league",
        "verify",
        "--recent",
        "20",
        "--db",
        db,
        "--cache",
        cache.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

fn workers_after(separate_workers: bool) -> usize {
    if separate_workers { 0 } else { 2 }
}

#[test]
fn the_embedded_league_survives_kill_9_on_sqlite() {
    let dir = scratch("league-kill-sqlite");
    let db = dir.join("league.db");
    survives_kills(&dir, db.to_str().unwrap(), false);
}

#[test]
fn workers_and_server_survive_kill_9_on_postgres() {
    let Some(pg) = PgDatabase::new("kill") else {
        return;
    };
    let dir = scratch("league-kill-postgres");
    survives_kills(&dir, &pg.url, true);
}
