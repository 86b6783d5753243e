//! The replay viewer in a real browser: Debian's Chromium, headless, driven through chromedriver's
//! W3C WebDriver protocol (plain JSON over HTTP, spoken here with reqwest).
//!
//! Without `/usr/bin/chromium` and `/usr/bin/chromedriver` these tests say so and pass, unless
//! `BOTBOX_REQUIRE_BROWSER` is set (CI installs both and sets it, so there they cannot be skipped).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::util::{announced_url, at, scratch};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

pub(crate) fn browser_here(test: &str) -> bool {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return true;
    }
    assert!(
        std::env::var_os("BOTBOX_REQUIRE_BROWSER").is_none(),
        "BOTBOX_REQUIRE_BROWSER is set but Chromium is missing: apt-get install chromium chromium-driver"
    );
    eprintln!("{test}: skipped, no Chromium (apt-get install chromium chromium-driver to run it)");
    false
}

/// A child process killed when dropped.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One headless Chromium session.
pub(crate) struct Browser {
    base: String,
    session: String,
    http: reqwest::blocking::Client,
    _driver: Process,
}

impl Browser {
    pub(crate) fn start(profile: &Path) -> Browser {
        let port = free_port();
        let driver = Process(
            Command::new(CHROMEDRIVER)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("starting chromedriver"),
        );
        let base = format!("http://127.0.0.1:{port}");
        let http = reqwest::blocking::Client::builder()
            .timeout(Duration::from_secs(60))
            .build()
            .unwrap();
        let start = Instant::now();
        while http.get(format!("{base}/status")).send().is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver starts"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--window-size=1100,800",
            &format!("--user-data-dir={}", profile.display()),
        ];
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args},
            "goog:loggingPrefs": {"browser": "ALL"},
        }}});
        let response: Value = http
            .post(format!("{base}/session"))
            .json(&capabilities)
            .send()
            .unwrap()
            .json()
            .unwrap();
        let session = response["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {response}"))
            .to_string();
        Browser {
            base,
            session,
            http,
            _driver: driver,
        }
    }

    fn command(&self, method: reqwest::Method, path: &str, body: Value) -> Value {
        let url = format!("{}/session/{}{path}", self.base, self.session);
        let request = self.http.request(method.clone(), url);
        // A GET has no body (chromedriver refuses one).
        let request = match method {
            reqwest::Method::GET => request,
            _ => request.json(&body),
        };
        let response: Value = request.send().unwrap().json().unwrap();
        if response["value"].get("error").is_some() {
            panic!("WebDriver {path}: {}", response["value"]);
        }
        response["value"].clone()
    }

    pub(crate) fn open(&self, url: &str) {
        self.command(reqwest::Method::POST, "/url", json!({ "url": url }));
    }

    pub(crate) fn eval(&self, script: &str) -> Value {
        self.command(
            reqwest::Method::POST,
            "/execute/sync",
            json!({ "script": script, "args": [] }),
        )
    }

    /// Saves a screenshot of the page as a PNG file.
    pub(crate) fn screenshot(&self, file: &Path) {
        use base64::Engine as _;
        let png = self.command(reqwest::Method::GET, "/screenshot", Value::Null);
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(png.as_str().expect("a screenshot"))
            .expect("a base64 PNG");
        std::fs::write(file, bytes).unwrap();
    }

    /// Presses a key (a WebDriver key code such as `\u{E014}` for →, or a character).
    pub(crate) fn press(&self, key: &str) {
        let actions = json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]});
        self.command(reqwest::Method::POST, "/actions", actions);
    }

    /// Gives a file to the page's `<input type=file>` with `id`.
    fn choose_file(&self, id: &str, file: &Path) {
        self.choose_file_at(&format!("#{id}"), file);
    }

    /// Gives a file to the `<input type=file>` that `selector` finds.
    fn choose_file_at(&self, selector: &str, file: &Path) {
        let element = self.command(
            reqwest::Method::POST,
            "/element",
            json!({"using": "css selector", "value": selector}),
        );
        let element = element
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap()
            .to_string();
        self.command(
            reqwest::Method::POST,
            &format!("/element/{element}/value"),
            json!({ "text": file.to_str().unwrap() }),
        );
    }

    fn resize(&self, width: u32, height: u32) {
        self.command(
            reqwest::Method::POST,
            "/window/rect",
            json!({"width": width, "height": height}),
        );
    }

    /// The console's errors since the last call.
    pub(crate) fn console_errors(&self) -> Vec<String> {
        let logs = self.command(reqwest::Method::POST, "/se/log", json!({"type": "browser"}));
        logs.as_array()
            .map(|l| {
                l.iter()
                    .filter(|e| e["level"] == "SEVERE")
                    .map(|e| e["message"].to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Waits until `script` returns true.
    pub(crate) fn wait_for(&self, script: &str, what: &str) {
        let start = Instant::now();
        while self.eval(script) != Value::Bool(true) {
            assert!(start.elapsed() < Duration::from_secs(10), "{what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self
            .http
            .delete(format!("{}/session/{}", self.base, self.session))
            .send();
    }
}

/// `botbox view FILE`, serving on a free port.
fn view(file: &Path) -> (Process, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_botbox"))
        .args(["view", file.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let url = announced_url(&mut child);
    (Process(child), url)
}

/// A Connect Four bot that logs a line every move.
const LOGGER: &str = r#"
local M = {}
function M.choose_move(obs)
	print("logger picks column " .. obs.legal[1])
	return obs.legal[1]
end
return M
"#;

/// A bundled Lua strategy that also logs `decision K` each time its function `function` is
/// called (K from 1), written into `dir`: the viewer must show each such line beside its move.
fn counting(dir: &Path, bundled: &str, function: &str) -> String {
    let source = std::fs::read_to_string(at(&format!("strategies/lua/{bundled}"))).unwrap();
    let wrapped = format!(
        "local inner = (function()\n{source}\nend)()\n\
         local M, k = {{}}, 0\n\
         for name, f in pairs(inner) do M[name] = f end\n\
         function M.{function}(obs)\n\tk += 1\n\tprint(\"decision \" .. k)\n\treturn inner.{function}(obs)\nend\n\
         return M\n"
    );
    let file = dir.join(format!("counting-{}", bundled.replace('/', "-")));
    std::fs::write(&file, wrapped).unwrap();
    file.display().to_string()
}

/// Records one replay of every registered game and returns them by game. One seat is always a
/// bundled strategy that logs `decision K` at each decision ([`counting`]), seated where the run
/// puts its first entry.
fn replays(dir: &Path) -> Vec<(String, PathBuf)> {
    let lua = |p: &str| at(&format!("strategies/lua/{p}")).display().to_string();
    let out = dir.join("replays");
    let out_s = out.display().to_string();
    let runs: Vec<Vec<String>> = vec![
        vec![
            "bench".into(),
            "2048".into(),
            counting(dir, "g2048/greedy.lua", "choose_move"),
            "--games".into(),
            "1".into(),
        ],
        vec![
            "match".into(),
            "worms".into(),
            counting(dir, "worms/greedy.lua", "choose_move"),
            lua("worms/random.lua"),
            "--map".into(),
            at("examples/worms/arena.txt").display().to_string(),
            "--games".into(),
            "1".into(),
        ],
        vec![
            "match".into(),
            "connect4".into(),
            counting(dir, "connect4/center.lua", "choose_move"),
            lua("connect4/random.lua"),
            "--games".into(),
            "1".into(),
        ],
        vec![
            "match".into(),
            "bs".into(),
            counting(dir, "bs/player1.lua", "play"),
            lua("bs/player2.lua"),
            lua("bs/player3.lua"),
            lua("bs/player4.lua"),
            "--games".into(),
            "1".into(),
        ],
        vec![
            "match".into(),
            "tron".into(),
            counting(dir, "tron/wall_hugger.lua", "choose_move"),
            lua("tron/random.lua"),
            "--games".into(),
            "1".into(),
        ],
        vec![
            "match".into(),
            "dice".into(),
            counting(dir, "dice/frontmost.lua", "choose_move"),
            lua("dice/capture_first.lua"),
            "--die".into(),
            "1".into(),
            "--games".into(),
            "2".into(),
        ],
    ];
    for mut args in runs {
        args.extend(["--replay-dir".into(), out_s.clone()]);
        let status = Command::new(env!("CARGO_BIN_EXE_botbox"))
            .args(&args)
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "{args:?}");
    }
    let mut found = Vec::new();
    for game in ["2048", "worms", "connect4", "bs", "tron", "dice"] {
        let file = out.join(format!("{game}-0001.jsonl"));
        assert!(file.exists(), "{}", file.display());
        found.push((game.to_string(), file));
    }
    found
}

/// The board the page shows: a grid's cells (and each cell's look, where the game gives them), or a
/// text board's lines.
/// Scrubs from the first move to the last and returns, for each frame that shows what its seat saw
/// (`#asked`), `[frame, title, observation text, command]`.
const READ_ASKED: &str = r#"
const s = document.querySelector('#scrub');
const found = [];
for (let k = 1; k <= Number(s.max); k++) {
  s.value = String(k);
  s.dispatchEvent(new Event('input'));
  if (document.querySelector('#asked').hidden) continue;
  const command = document.querySelector('#asked-command').hidden ? null : document.querySelector('#asked-line').textContent;
  found.push([k, document.querySelector('#asked-title').textContent, document.querySelector('#asked-json').textContent, command]);
}
return found;
"#;

/// The observations of `seat` in a viewer page's data (`"asked": {..., "seat": S, ...}`).
fn asked_by_seat(page: &str, seat: usize) -> Vec<String> {
    page.match_indices("\"asked\":{")
        .map(|(at, _)| page[at..].chars().take(80).collect::<String>())
        .filter(|s| s.contains(&format!("\"seat\":{seat},")))
        .collect()
}

/// The seat and move a `#asked` title names: "What seat S (name) saw at move T (`function`)".
fn asked_seat_and_move(title: &str) -> (usize, usize) {
    let seat = title
        .strip_prefix("What seat ")
        .and_then(|t| t.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{title}"));
    let turn = title
        .split("saw at move ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("{title}"));
    (seat, turn)
}

const READ_BOARD: &str = r#"
const t = document.querySelector('#board table');
if (t && t.classList.contains('seats')) {
  const [head, ...rows] = [...t.rows];
  return {kind: 'table', header: [...head.cells].map(c => c.textContent),
    rows: rows.map(r => [...r.cells].map(c => c.textContent)),
    styles: rows.map(r => [...r.cells].map(c => c.dataset.style))};
}
if (t) {
  const board = {kind: 'grid', rows: [...t.rows].map(r => [...r.cells].map(c => c.textContent))};
  if (t.dataset.styled === '1') board.styles = [...t.rows].map(r => [...r.cells].map(c => c.dataset.style));
  return board;
}
return {kind: 'lines', lines: document.querySelector('#board pre').textContent.split('\n')};
"#;

/// The cells whose look includes `look` in the board the page shows, as `[row, column]`.
fn cells_with(browser: &Browser, look: &str) -> Vec<[usize; 2]> {
    let found = browser.eval(&format!(
        "return [...document.querySelectorAll('#board td.s-{look}')].map(c => \
         [c.parentElement.rowIndex, c.cellIndex])"
    ));
    serde_json::from_value(found).unwrap()
}

/// What the engine says the board holds after `n` moves of the replay, checked against the page
/// (not only against the frames botbox computed): 2048's tiles with their colours, Wormworld's
/// heads, Connect Four's discs, Tron's heads and trails.
fn check_against_engine(
    browser: &Browser,
    game: &str,
    replay: &botbox::replay::ReplayFile,
    n: usize,
) {
    let board = browser.eval(READ_BOARD);
    match game {
        "2048" => {
            let size = replay.header.start["size"].as_u64().unwrap() as usize;
            let mut engine = botbox::games::g2048::Game::new(size, replay.header.seed).unwrap();
            for t in &replay.turns[..n] {
                let direction = t["action"].as_str().unwrap();
                let direction = botbox::games::g2048::Direction::from_name(direction).unwrap();
                engine.step(direction).unwrap();
            }
            let values = engine.board_values();
            let rows: Vec<Vec<String>> = values
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|&v| if v == 0 { String::new() } else { v.to_string() })
                        .collect()
                })
                .collect();
            assert_eq!(board["rows"], json!(rows));
            // Every tile coloured by its value.
            for (r, row) in values.iter().enumerate() {
                for (c, &v) in row.iter().enumerate() {
                    let look = board["styles"][r][c].as_str().unwrap();
                    let want = if v == 0 {
                        String::new()
                    } else {
                        format!("v{v}")
                    };
                    assert_eq!(look, want, "2048: the tile at {r},{c}");
                }
            }
        }
        "worms" => {
            // The heads the engine has after n turns, each with the arrow of the way it faces.
            let turns = botbox::games::worms::view::from_contract(replay).unwrap();
            let replayed = botbox::games::worms::view::replayed(&turns).unwrap();
            // The frames are drawn a turn at a time, passes included: frame n is the n-th.
            let engine = &replayed.games[n];
            let mut heads = Vec::new();
            for worm in engine.observation(0).worms {
                let [r, c] = worm.head();
                let arrow = botbox::games::worms::view::arrow(worm.direction).to_string();
                assert_eq!(
                    board["rows"][r as usize][c as usize],
                    json!(arrow),
                    "worms: a head"
                );
                heads.push([r as usize, c as usize]);
            }
            heads.sort();
            let mut shown = cells_with(browser, "head");
            shown.sort();
            assert_eq!(shown, heads, "worms: the heads marked are the engine's");
        }
        "connect4" => {
            // Seat 0's discs are the columns it dropped in, stacked from the bottom.
            let columns: Vec<u64> = replay.turns[..n]
                .iter()
                .map(|t| t["action"].as_u64().unwrap())
                .collect();
            let rows = board["rows"].as_array().unwrap().len();
            let mut height = vec![0usize; board["rows"][0].as_array().unwrap().len()];
            let mut discs = [Vec::new(), Vec::new()];
            for (i, &c) in columns.iter().enumerate() {
                let seat = replay.turns[i]["seat"].as_u64().unwrap() as usize;
                discs[seat].push([rows - 1 - height[c as usize], c as usize]);
                height[c as usize] += 1;
            }
            for (seat, want) in discs.iter_mut().enumerate() {
                want.sort();
                let mut shown = cells_with(browser, &format!("p{}", seat + 1));
                shown.sort();
                assert_eq!(
                    &shown, want,
                    "connect4: seat {seat}'s discs after {n} moves"
                );
            }
        }
        "tron" => {
            // The heads are where the recorded moves took them from the starts, every cell a head
            // left is its rider's trail.
            let boards = botbox::games::tron::view::boards(replay).unwrap();
            let mut head = [None, None];
            let mut trail = [Vec::new(), Vec::new()];
            for (r, row) in boards[0].iter().enumerate() {
                for (c, cell) in row.iter().enumerate() {
                    if let botbox::games::tron::view::Cell::Head(s) = cell {
                        head[*s] = Some([r, c]);
                    }
                }
            }
            // A round is resolved when its second answer is in: step both heads then.
            let step = |at: [usize; 2], d: &str| match d {
                "north" => [at[0].wrapping_sub(1), at[1]],
                "south" => [at[0] + 1, at[1]],
                "west" => [at[0], at[1].wrapping_sub(1)],
                _ => [at[0], at[1] + 1],
            };
            let mut held = None;
            for t in &replay.turns[..n] {
                match held.take() {
                    None => held = Some(t["action"].as_str().unwrap_or("").to_string()),
                    Some(first) => {
                        let moves = [first, t["action"].as_str().unwrap_or("").to_string()];
                        for s in 0..2 {
                            let at = head[s].unwrap();
                            trail[s].push(at);
                            head[s] = Some(step(at, &moves[s]));
                        }
                    }
                }
            }
            for s in 0..2 {
                let [r, c] = head[s].unwrap();
                let look = format!("p{} head", s + 1);
                // (A head that left the grid is not drawn.)
                if board["styles"].get(r).and_then(|row| row.get(c)).is_some() {
                    assert_eq!(board["styles"][r][c], json!(look), "tron: seat {s}'s head");
                }
                for &[r, c] in &trail[s] {
                    let look = board["styles"][r][c].as_str().unwrap();
                    assert!(
                        look.starts_with(&format!("p{}", s + 1)),
                        "tron: seat {s}'s trail at {r},{c} is {look:?}"
                    );
                }
            }
        }
        "bs" => {
            // A row per seat, then the pile: the cards it holds are as many as it says, 52 in
            // all; at the deal, each hand is the engine's deal of the replay's seed.
            let rows = board["rows"].as_array().unwrap();
            assert_eq!(rows.len(), 5, "bs: four seats and the pile");
            let mut total = 0;
            for row in rows {
                let held: usize = row[1]
                    .as_str()
                    .unwrap()
                    .trim_end_matches(" cards")
                    .parse()
                    .unwrap();
                let shown = row[2].as_str().unwrap().split_whitespace().count();
                assert_eq!(held, shown, "bs: {row:?}");
                total += held;
            }
            assert_eq!(total, 52, "bs: every card on the table");
            let deal = botbox::games::bs::Game::new(replay.header.seed);
            let first =
                botbox::games::bs::view::face(deal.hand(0).iter().map(u32::from).min().unwrap());
            browser.eval("document.querySelector('#scrub').value = '0'; document.querySelector('#scrub').dispatchEvent(new Event('input')); return true");
            let dealt = browser.eval(READ_BOARD)["rows"][0][2].clone();
            assert!(
                dealt.as_str().unwrap().starts_with(&first),
                "bs: seat 0 was dealt {first} first, the page shows {dealt}"
            );
            // Hands are face down unless the viewer is omniscient.
            let hidden = browser.eval(
                "return getComputedStyle(document.querySelector('#board td.s-secret')).color",
            );
            assert_eq!(hidden, json!("rgba(0, 0, 0, 0)"), "bs: hands face down");
            browser.eval(&format!("document.querySelector('#scrub').value = '{n}'; document.querySelector('#scrub').dispatchEvent(new Event('input')); return true"));
        }
        "dice" => {
            // Each piece on the field its step names (the roll's places as the engine made them),
            // four of each colour, and the roll in the middle.
            let rolls = botbox::games::dice::view::from_contract(replay).unwrap();
            let places = match n {
                0 => rolls.header.start["places"].clone(),
                n => rolls.turns[n - 1]["places"].clone(),
            };
            for seat in 0..2 {
                let shown = cells_with(browser, &format!("p{}", seat + 1));
                assert_eq!(shown.len(), 4, "dice: seat {seat}'s pieces {shown:?}");
                for piece in places[seat].as_array().unwrap() {
                    if let Some(step) = piece["step"].as_u64() {
                        let at = botbox::games::dice::view::field(seat, step).unwrap();
                        assert!(
                            shown.contains(&at),
                            "dice: seat {seat}'s piece at step {step}"
                        );
                    }
                }
            }
            if n > 0 {
                let face = rolls.turns[n - 1]["face"].to_string();
                assert_eq!(
                    board["rows"][5][5],
                    json!(face),
                    "dice: the roll in the middle"
                );
            }
        }
        _ => {}
    }
}

fn expected_board(frame: &Value) -> Value {
    frame["board"].clone()
}

#[test]
fn the_viewer_steps_scrubs_and_shows_every_game_as_the_engine_played_it() {
    if !browser_here("browser::viewer") {
        return;
    }
    let dir = scratch("browser-viewer");
    let browser = Browser::start(&dir.join("profile"));
    for (game, file) in replays(&dir) {
        let replay = botbox::replay::read(&file).unwrap();
        let frames = serde_json::to_value(botbox::view::frames::frames(&replay).unwrap()).unwrap();
        let frames = frames["frames"].as_array().unwrap().clone();
        // Dice is drawn a roll at a time, the rolls without a choice included.
        let moves = match game.as_str() {
            "dice" => {
                let rolls = botbox::games::dice::view::from_contract(&replay).unwrap();
                assert!(rolls.turns.len() > replay.turns.len());
                rolls.turns
            }
            _ => replay.turns.clone(),
        };
        assert_eq!(frames.len(), moves.len() + 1, "{game}: a frame per move");
        let (_server, url) = view(&file);
        browser.open(&url);
        browser.wait_for(
            "return document.querySelector('#board')?.dataset.frame === '0'",
            "the viewer shows the start",
        );
        assert_eq!(
            browser.eval(READ_BOARD),
            expected_board(&frames[0]),
            "{game}: the start"
        );
        // Forward N moves with →: the board is the engine's after N moves.
        let n = 5.min(frames.len() - 1);
        for _ in 0..n {
            browser.press("\u{E014}");
        }
        browser.wait_for(
            &format!("return document.querySelector('#board').dataset.frame === '{n}'"),
            "→ steps forward",
        );
        assert_eq!(
            browser.eval(READ_BOARD),
            expected_board(&frames[n]),
            "{game}: after {n} moves"
        );
        // And the board after move N as the engine makes it from the replay.
        check_against_engine(&browser, &game, &replay, n);
        // ← steps back; the scrub bar jumps anywhere, back and forth.
        browser.press("\u{E012}");
        browser.wait_for(
            &format!(
                "return document.querySelector('#board').dataset.frame === '{}'",
                n - 1
            ),
            "← steps back",
        );
        let last = frames.len() - 1;
        for target in [last, 1, 0] {
            if target == last {
                // The last turn as the page draws it, kept with the test's files.
                browser.eval(&format!(
                    "const s = document.querySelector('#scrub'); s.value = '{last}'; \
                     s.dispatchEvent(new Event('input')); return true"
                ));
                browser.screenshot(&dir.join(format!("{game}-last.png")));
            }
            browser.eval(&format!(
                "const s = document.querySelector('#scrub'); s.value = '{target}'; \
                 s.dispatchEvent(new Event('input')); return true"
            ));
            assert_eq!(
                browser.eval("return document.querySelector('#board').dataset.frame"),
                json!(target.to_string())
            );
            assert_eq!(
                browser.eval(READ_BOARD),
                expected_board(&frames[target]),
                "{game}: frame {target}"
            );
        }
        // Space plays; it moves on by itself.
        browser.press(" ");
        browser.wait_for(
            "return Number(document.querySelector('#board').dataset.frame) >= 2",
            "space plays",
        );
        browser.press(" ");
        // The seats' logs are beside the board, and each line beside the move that produced it:
        // stepping from the start, the counting bot's `decision K` lines appear once each, in
        // order, only at its own moves (2048: decision K at move K).
        let logs = browser.eval("return document.querySelector('#logs').textContent");
        assert!(logs.as_str().unwrap().contains("decision 1"), "{logs}");
        browser.press("\u{E011}");
        let logger = replay
            .header
            .strategies
            .iter()
            .position(|s| s.path.contains("counting-"))
            .unwrap();
        let mut seen = 0;
        for n in 1..=frames.len().min(40) - 1 {
            browser.press("\u{E014}");
            browser.wait_for(
                &format!("return document.querySelector('#board').dataset.frame === '{n}'"),
                "→ steps forward",
            );
            let beside = browser.eval("return document.querySelector('#move-log').innerText");
            let decisions: Vec<usize> = beside
                .as_str()
                .unwrap()
                .lines()
                .filter_map(|l| l.strip_prefix("decision "))
                .map(|k| k.trim().parse().unwrap())
                .collect();
            if decisions.is_empty() {
                continue;
            }
            let seat = moves[n - 1]["seat"].as_u64().unwrap_or(0) as usize;
            assert_eq!(
                seat, logger,
                "{game}: move {n} is seat {seat}'s, yet shows {decisions:?}"
            );
            assert_eq!(
                decisions,
                ((seen + 1)..=(seen + decisions.len())).collect::<Vec<_>>(),
                "{game}: move {n}"
            );
            if game == "2048" {
                assert_eq!(decisions, [n], "2048: move {n}");
            }
            seen += decisions.len();
            let lit = browser.eval(
                "return [...document.querySelectorAll('#logs span.now')].map(s => s.textContent)",
            );
            let lit: Vec<&str> = lit
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect();
            assert_eq!(
                lit,
                decisions
                    .iter()
                    .map(|k| format!("decision {k}"))
                    .collect::<Vec<_>>(),
                "{game}: move {n} lit in the whole log"
            );
        }
        assert!(seen >= 1, "{game}: no move showed its log line");
        // Beside a decided move, what its seat saw: the observation its bot received, as the
        // library rebuilds it from the replay, and the command that decides that move again,
        // which works as the page gives it.
        let asked = browser.eval(READ_ASKED);
        let asked = asked.as_array().unwrap();
        assert!(
            !asked.is_empty(),
            "{game}: no frame shows what its seat saw"
        );
        let seen_by = botbox::play::whatif::observations(&replay).unwrap();
        let decided = seen_by.iter().filter(|s| s.is_some()).count();
        assert_eq!(asked.len(), decided, "{game}: a panel per decided move");
        for a in asked.iter().take(3) {
            let (seat, turn) = asked_seat_and_move(a[1].as_str().unwrap());
            let expected = seen_by[turn - 1].as_ref().unwrap();
            assert_eq!(expected.seat as usize, seat, "{game}: move {turn}");
            let shown: Value = serde_json::from_str(a[2].as_str().unwrap()).unwrap();
            assert_eq!(shown, expected.observation, "{game}: move {turn}");
            let command = a[3].as_str().unwrap();
            let file_word = botbox::view::frames::shell_word(&file.display().to_string());
            assert_eq!(
                command,
                format!(
                    "botbox replay {file_word} --seat {seat} --turn {turn} --with my_bot_v2.lua"
                )
            );
        }
        let (seat, turn) = asked_seat_and_move(asked[0][1].as_str().unwrap());
        let bot = replay.header.strategies[seat].path.clone();
        let (file_s, seat_s, turn_s) = (
            file.display().to_string(),
            seat.to_string(),
            turn.to_string(),
        );
        let out = crate::util::botbox(&[
            "replay", &file_s, "--seat", &seat_s, "--turn", &turn_s, "--with", &bot,
        ]);
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && said.contains("(the same)"),
            "{game}: {said}"
        );
        let frame = asked[0][0].as_u64().unwrap();
        browser.eval(&format!(
            "const s = document.querySelector('#scrub'); s.value = '{frame}'; \
             s.dispatchEvent(new Event('input')); document.querySelector('#asked').open = true; \
             document.querySelector('#copy').click(); return true"
        ));
        browser.wait_for(
            "const t = document.querySelector('#copy').textContent; return t === 'copied' || t.startsWith('selected')",
            "the copy button copies the command (or selects it)",
        );
        if game == "bs" {
            browser.eval("document.querySelector('#scrub').value = '1'; document.querySelector('#scrub').dispatchEvent(new Event('input')); return true");
            assert_eq!(
                browser.eval("return document.querySelector('#hidden').hidden"),
                json!(true),
                "hidden cards stay hidden"
            );
            browser.eval("document.querySelector('#omniscient').click(); return true");
            let hidden = browser.eval("return document.querySelector('#hidden').textContent");
            assert!(hidden.as_str().unwrap().starts_with("played "), "{hidden}");
        }
        let errors = browser.console_errors();
        assert!(errors.is_empty(), "{game}: console errors {errors:?}");
    }
}

#[test]
fn the_viewer_refuses_an_unknown_version_and_fits_a_phone() {
    if !browser_here("browser::versions") {
        return;
    }
    let dir = scratch("browser-versions");
    let browser = Browser::start(&dir.join("profile"));
    let (_, file) = replays(&dir)
        .into_iter()
        .find(|(g, _)| g == "worms")
        .unwrap();
    let (_server, url) = view(&file);
    browser.open(&url);
    browser.wait_for(
        "return document.querySelector('#board')?.dataset.frame === '0'",
        "the viewer shows the start",
    );
    // A replay of a newer format version, opened in the page, gets the message.
    let text = std::fs::read_to_string(&file).unwrap();
    let newer = dir.join("newer.jsonl");
    std::fs::write(&newer, text.replacen("\"version\":1", "\"version\":99", 1)).unwrap();
    browser.choose_file("file", &newer);
    browser.wait_for(
        "return !document.querySelector('#message').hidden",
        "a message about the version",
    );
    let message = browser.eval("return document.querySelector('#message').textContent");
    assert!(
        message.as_str().unwrap().contains("version 99"),
        "{message}"
    );
    // A good file opened in the page is drawn from botbox's frames.
    browser.choose_file("file", &file);
    browser.wait_for(
        "return document.querySelector('#message').hidden",
        "the good file replaces the message",
    );
    // 375 px wide: nothing wider than the screen.
    browser.resize(375, 800);
    let width = browser.eval("return document.documentElement.scrollWidth");
    assert!(
        width.as_u64().unwrap() <= 375,
        "the page is {width} px wide at 375"
    );
    assert!(browser.console_errors().is_empty());
}

/// The text of the page's body.
pub(crate) fn body_text(browser: &Browser) -> String {
    browser
        .eval("return document.body.innerText")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Uploads `file` as bot `name` of `game` through the upload form, and waits for the bot's page.
pub(crate) fn upload_in_browser(browser: &Browser, url: &str, name: &str, game: &str, file: &Path) {
    browser.open(&format!("{url}/upload"));
    browser.eval(&format!(
        "document.querySelector('input[name=name]').value = '{name}'; \
         document.querySelector('select[name=game]').value = '{game}'; return true"
    ));
    browser.choose_file_at("input[name=file]", file);
    browser.eval("document.querySelector('form[action=\"/upload\"]').submit(); return true");
    browser.wait_for(
        &format!("return location.pathname === '/bot/{name}'"),
        "the upload leads to the bot's page",
    );
}

pub(crate) fn sign_in(browser: &Browser, url: &str, token: &str) {
    browser.open(&format!("{url}/signin"));
    browser.eval(&format!(
        "document.querySelector('input[name=token]').value = '{token}'; \
         document.querySelector('form[action=\"/signin\"]').submit(); return true"
    ));
    browser.wait_for(
        "return location.pathname === '/account'",
        "signing in leads to the account page",
    );
}

#[test]
fn the_league_pages_sign_in_upload_rank_and_keep_logs_to_their_owner() {
    if !browser_here("browser::league") {
        return;
    }
    let dir = scratch("browser-league");
    let db = dir.join("league.db");
    let league = crate::league::League::start(&dir, db.to_str().unwrap(), 1, &[]);
    let alice = league.user("alice");
    let bob = league.user("bob");
    league.upload_ok(
        &bob,
        "random-c4",
        "connect4",
        &at("strategies/lua/connect4/random.lua"),
    );
    let browser = Browser::start(&dir.join("profile"));
    let url = league.url.clone();

    // Alice signs in with her token and uploads a bot through the form.
    sign_in(&browser, &url, &alice);
    assert!(body_text(&browser).contains("alice"));
    // Her account page dates her token: made today, and used just now by the sign-in (UTC).
    let tokens = browser.eval("return document.querySelector('#tokens').innerText");
    let tokens = tokens.as_str().unwrap();
    let now = time::OffsetDateTime::now_utc();
    let today = format!(
        "{:04}-{:02}-{:02}",
        now.year(),
        u8::from(now.month()),
        now.day()
    );
    assert!(
        tokens.contains("made") && tokens.contains("last used"),
        "{tokens}"
    );
    assert_eq!(
        tokens.matches(&today).count(),
        2,
        "made and last used: {tokens}"
    );
    assert!(!tokens.contains("never"), "{tokens}");
    let bot = dir.join("web-logger.lua");
    std::fs::write(&bot, LOGGER).unwrap();
    upload_in_browser(&browser, &url, "web-logger", "connect4", &bot);
    // It is on the ladder, and plays.
    browser.open(&format!("{url}/ladder/connect4"));
    let ladder = browser.eval("return document.querySelector('#ladder').innerText");
    assert!(ladder.as_str().unwrap().contains("web-logger"), "{ladder}");
    league.wait_for_games(3, Duration::from_secs(60));

    // Its owner sees its log lines on its page and in a game's viewer.
    browser.open(&format!("{url}/bot/web-logger"));
    let page = body_text(&browser);
    assert!(page.contains("logger picks column"), "{page}");
    assert_eq!(
        browser.eval("return document.querySelectorAll('.chart svg').length"),
        json!(1),
        "the bot's rating over its games"
    );
    let game: String = browser
        .eval("return document.querySelector('#games a').textContent")
        .as_str()
        .unwrap()
        .to_string();
    browser.open(&format!("{url}/game/{game}"));
    browser.wait_for(
        "return document.querySelector('#board')?.dataset.frame === '0'",
        "the game page has the viewer",
    );
    let logs = browser.eval("return document.querySelector('#logs').textContent");
    assert!(
        logs.as_str().unwrap().contains("logger picks column"),
        "{logs}"
    );
    // Beside each move of her bot, what it saw, and the command that fetches the replay and
    // decides the move again; the other seat's observations are not in the page. The command
    // works as given on the replay she downloads.
    let asked = browser.eval(READ_ASKED);
    let asked = asked.as_array().unwrap().clone();
    assert!(!asked.is_empty(), "her seat's observations");
    let players = browser
        .eval("return [...document.querySelectorAll('#players li')].map(l => l.textContent)");
    let mine = players
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p.as_str().unwrap().contains("web-logger"))
        .unwrap();
    for a in &asked {
        assert_eq!(asked_seat_and_move(a[1].as_str().unwrap()).0, mine, "{a}");
    }
    let (_, turn) = asked_seat_and_move(asked[0][1].as_str().unwrap());
    assert_eq!(
        asked[0][3],
        json!(format!(
            "botbox league replay {game} --server {url} && botbox replay league-{game}.jsonl \
             --seat {mine} --turn {turn} --with my_bot_v2.lua"
        ))
    );
    let downloaded = dir.join(format!("league-{game}.jsonl"));
    let fetched = crate::util::botbox(&[
        "league",
        "replay",
        &game,
        "--server",
        &url,
        "--token",
        &alice,
        "--out",
        downloaded.to_str().unwrap(),
    ]);
    assert!(
        fetched.status.success(),
        "{}",
        String::from_utf8_lossy(&fetched.stderr)
    );
    let (mine_s, turn_s) = (mine.to_string(), turn.to_string());
    let again = crate::util::botbox(&[
        "replay",
        downloaded.to_str().unwrap(),
        "--seat",
        &mine_s,
        "--turn",
        &turn_s,
        "--with",
        bot.to_str().unwrap(),
    ]);
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(
        said.contains("(the same)") && said.contains("| logger picks column"),
        "{said}"
    );
    let shown: Value = serde_json::from_str(asked[0][2].as_str().unwrap()).unwrap();
    assert!(
        said.contains(&shown.to_string()),
        "the page's observation is the command's: {said}"
    );
    let every = crate::util::botbox(&[
        "replay",
        downloaded.to_str().unwrap(),
        "--seat",
        &mine_s,
        "--with",
        bot.to_str().unwrap(),
    ]);
    let said = String::from_utf8_lossy(&every.stdout);
    assert!(
        said.contains(&format!("differs at 0 of {} turns", asked.len())),
        "{said}"
    );

    // Bob does not.
    browser.open(&format!("{url}/"));
    browser.eval("document.querySelector('form[action=\"/signout\"]').submit(); return true");
    browser.wait_for("return location.pathname === '/'", "signing out");
    sign_in(&browser, &url, &bob);
    browser.open(&format!("{url}/bot/web-logger"));
    let page = body_text(&browser);
    assert!(
        page.contains("web-logger") && !page.contains("logger picks column"),
        "{page}"
    );
    browser.open(&format!("{url}/game/{game}"));
    browser.wait_for(
        "return document.querySelector('#board')?.dataset.frame === '0'",
        "the game page has the viewer",
    );
    let logs = browser.eval("return document.querySelector('#logs').textContent");
    assert!(
        !logs.as_str().unwrap().contains("logger picks column"),
        "{logs}"
    );
    assert!(
        logs.as_str()
            .unwrap()
            .contains("(only its owner sees its log lines)"),
        "the page says whose logs it leaves out: {logs}"
    );
    // Nor what alice's bot saw (his own bot's moves he may see: random-c4 is his).
    let asked = browser.eval(READ_ASKED);
    for a in asked.as_array().unwrap() {
        assert_ne!(asked_seat_and_move(a[1].as_str().unwrap()).0, mine, "{a}");
    }
    let page = browser.eval("return document.documentElement.outerHTML");
    let alices: Vec<String> = asked_by_seat(page.as_str().unwrap(), mine);
    assert!(
        alices.is_empty(),
        "alice's observations in bob's page: {alices:?}"
    );
    // Every page has the navigation bar, the game page too, and the links go round: the ladder
    // to a bot, the bot to a game, the game to each bot (by bot, version and owner) and its
    // ladder.
    let nav = browser
        .eval("return [...document.querySelectorAll('#site-nav a')].map(a => a.textContent)");
    assert_eq!(nav[0], json!("Ladders"), "{nav}");
    assert!(nav.to_string().contains("signed in as bob"), "{nav}");
    let players = browser.eval(
        "return [...document.querySelectorAll('#players a')].map(a => [a.textContent, a.getAttribute('href')])",
    );
    assert!(
        players.to_string().contains("\"/bot/web-logger\""),
        "each seat links to its bot: {players}"
    );
    assert!(players.to_string().contains("by alice"), "{players}");
    browser.eval("document.querySelector('#around a').click(); return true");
    browser.wait_for(
        "return location.pathname === '/ladder/connect4'",
        "the game links to its ladder",
    );
    browser.eval(
        "[...document.querySelectorAll('#ladder a')].find(a => a.textContent.includes('web-logger')).click(); return true",
    );
    browser.wait_for(
        "return location.pathname === '/bot/web-logger'",
        "the ladder links to the bot",
    );
    browser.eval("document.querySelector('#games a').click(); return true");
    browser.wait_for(
        "return location.pathname.startsWith('/game/') && document.querySelector('#board')?.dataset.frame === '0'",
        "the bot links to its games",
    );
    browser.eval(
        "[...document.querySelectorAll('#players a')].find(a => a.textContent.includes('random-c4')).click(); return true",
    );
    browser.wait_for(
        "return location.pathname === '/bot/random-c4'",
        "the game links to each bot",
    );
    browser.eval("document.querySelector('nav a[href=\"/\"]').click(); return true");
    browser.wait_for("return location.pathname === '/'", "the bar leads home");
    // A page for a phone: nothing wider than the screen.
    browser.resize(375, 800);
    browser.open(&format!("{url}/ladder/connect4"));
    let width = browser.eval("return document.body.scrollWidth");
    assert!(
        width.as_u64().unwrap() <= 375,
        "the ladder is {width} px wide at 375"
    );
    assert!(
        browser.console_errors().is_empty(),
        "{:?}",
        browser.console_errors()
    );
    league.stop();
}

/// A replay of more than 10,000 moves (2048 on a 6x6 board) loads and scrubs; the figures it prints
/// are recorded in BENCHMARKS.md (this is not a timed test: it only checks the viewer keeps up).
#[test]
fn the_viewer_handles_a_replay_of_over_10000_moves() {
    if !browser_here("browser::long") {
        return;
    }
    let dir = scratch("browser-long");
    let out = dir.join("replays");
    let status = Command::new(env!("CARGO_BIN_EXE_botbox"))
        .args([
            "bench",
            "2048",
            at("strategies/lua/g2048/greedy.lua").to_str().unwrap(),
        ])
        .args([
            "--size",
            "6",
            "--games",
            "1",
            "--seed",
            "1",
            "--replay-dir",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let file = out.join("2048-0001.jsonl");
    let replay = botbox::replay::read(&file).unwrap();
    let moves = replay.turns.len();
    assert!(moves > 10_000, "{moves} moves");
    let frames = serde_json::to_value(botbox::view::frames::frames(&replay).unwrap()).unwrap();
    let browser = Browser::start(&dir.join("profile"));
    let (_server, url) = view(&file);
    browser.open(&url);
    browser.wait_for(
        "return document.querySelector('#board')?.dataset.frame === '0'",
        "the long replay loads",
    );
    let load = browser.eval(
        "const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime",
    );
    // 1,000 jumps spread over the whole game, timed in the page.
    let scrub = browser.eval(&format!(
        "const s = document.querySelector('#scrub'); const t = performance.now(); \
         for (let i = 0; i < 1000; i++) {{ s.value = String(Math.floor(i * {moves} / 999)); \
         s.dispatchEvent(new Event('input')); }} return performance.now() - t"
    ));
    assert_eq!(
        browser.eval("return document.querySelector('#board').dataset.frame"),
        json!(moves.to_string())
    );
    assert_eq!(browser.eval(READ_BOARD), frames["frames"][moves]["board"]);
    let steps = browser.eval(
        "const t = performance.now(); for (let i = 0; i < 200; i++) \
         document.querySelector('#back').click(); return performance.now() - t",
    );
    assert_eq!(
        browser.eval("return document.querySelector('#board').dataset.frame"),
        json!((moves - 200).to_string())
    );
    assert!(browser.console_errors().is_empty());
    eprintln!(
        "long replay: {moves} moves, {} bytes; page loaded in {:.0} ms; 1,000 scrub jumps in {:.0} ms; \
         200 steps back in {:.0} ms",
        std::fs::metadata(&file).unwrap().len(),
        load.as_f64().unwrap(),
        scrub.as_f64().unwrap(),
        steps.as_f64().unwrap()
    );
}

#[test]
fn report_pages_show_standings_tables_and_charts_without_console_errors() {
    if !browser_here("browser::reports") {
        return;
    }
    let dir = scratch("browser-reports");
    let lua = |p: &str| at(&format!("strategies/lua/{p}")).display().to_string();
    let json = |name: &str| dir.join(format!("{name}.json")).display().to_string();
    let bs: Vec<String> = ["player1", "player2", "player3", "player4", "hoarder"]
        .iter()
        .map(|p| lua(&format!("bs/{p}.lua")))
        .collect();
    let runs: Vec<(&str, Vec<String>, usize)> = vec![
        (
            "worms",
            [vec![
                "tournament".into(),
                "worms".into(),
                "--players".into(),
                lua("worms/greedy.lua"),
                lua("worms/random.lua"),
                "--maps".into(),
                at("examples/worms").display().to_string(),
                "--games".into(),
                "2".into(),
                "--json".into(),
                json("worms"),
            ]]
            .concat(),
            2,
        ),
        (
            "bs",
            [
                vec!["tournament".into(), "bs".into(), "--players".into()],
                bs,
                vec!["--games".into(), "100".into(), "--json".into(), json("bs")],
            ]
            .concat(),
            5,
        ),
        (
            "dice",
            vec![
                "dice".into(),
                at("examples/dice/wuerfel0.txt").display().to_string(),
                "--json".into(),
                json("dice"),
            ],
            6,
        ),
        (
            "2048",
            vec![
                "bench".into(),
                "2048".into(),
                lua("g2048/greedy.lua"),
                lua("g2048/corner.lua"),
                "--games".into(),
                "10".into(),
                "--json".into(),
                json("2048"),
                "--replay-dir".into(),
                dir.join("2048-replays").display().to_string(),
            ],
            2,
        ),
    ];
    let browser = Browser::start(&dir.join("profile"));
    for (name, args, rows) in runs {
        let status = Command::new(env!("CARGO_BIN_EXE_botbox"))
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "{args:?}");
        let out = dir.join(format!("{name}-report"));
        let report_json = json(name);
        let mut report = vec!["report", &report_json, "--html", out.to_str().unwrap()];
        let replays = dir.join(format!("{name}-replays")).display().to_string();
        if name == "2048" {
            report.extend(["--replays", replays.as_str()]);
        }
        let status = Command::new(env!("CARGO_BIN_EXE_botbox"))
            .args(&report)
            .status()
            .unwrap();
        assert!(status.success());
        browser.open(&format!("file://{}", out.join("index.html").display()));
        let shown = browser.eval("return document.querySelectorAll('#standings tbody tr').length");
        assert_eq!(shown, json!(rows), "{name}: a row per entry");
        let charts = browser.eval("return document.querySelectorAll('.chart svg').length");
        assert!(charts.as_u64().unwrap() >= 1, "{name}: charts");
        let drawn = browser.eval("return document.querySelector('.chart svg').getBBox().width");
        assert!(
            drawn.as_f64().unwrap() > 100.0,
            "{name}: the chart has a size"
        );
        let captions = browser.eval(
            "return [...document.querySelectorAll('.chart svg text')].map(t => t.textContent).join('|')",
        );
        let captions = captions.as_str().unwrap();
        let rating = match name {
            "worms" => Some("Glicko-2 rating over each entry's games"),
            "bs" => Some("Weng-Lin rating (mu) over each entry's games"),
            _ => None,
        };
        if let Some(caption) = rating {
            assert!(captions.contains(caption), "{name}: {captions}");
        }
        if name == "worms" {
            assert_eq!(
                browser.eval("return document.querySelectorAll('#pairs td.heat').length"),
                json!(4)
            );
        }
        if name == "dice" {
            assert_eq!(
                browser.eval("return document.querySelectorAll('#matrix tbody tr').length"),
                json!(6)
            );
        }
        if name == "2048" {
            // The benchmark said in its own words, in the JSON and on the page: points out of 100
            // and the share of games reaching each milestone.
            let text = std::fs::read_to_string(json(name)).unwrap();
            let r: Value = serde_json::from_str(&text).unwrap();
            let course = &r["benchmark"];
            assert_eq!(course["points_cap"], json!(100.0));
            for e in course["entries"].as_array().unwrap() {
                assert!(e["points"].as_f64().unwrap() > 0.0, "{e}");
                let tiles: Vec<u64> = e["reached"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["tile"].as_u64().unwrap())
                    .collect();
                assert_eq!(tiles, [2048, 4096, 8192, 16384, 32768, 65536]);
            }
            assert_eq!(
                browser.eval("return document.querySelectorAll('#benchmark tbody tr').length"),
                json!(2)
            );
            let head = browser.eval("return document.querySelector('#benchmark thead').innerText");
            assert!(head.as_str().unwrap().contains("points"), "{head}");
            // A game's number opens its replay in the viewer, by a link relative to the report, in
            // a copy of the report's folder moved anywhere.
            let href =
                browser.eval("return document.querySelector('#games a').getAttribute('href')");
            assert_eq!(href, json!("replays/2048-0001.html"));
            let moved = dir.join("moved-report");
            let copied = Command::new("cp")
                .args(["-r", out.to_str().unwrap(), moved.to_str().unwrap()])
                .status()
                .unwrap();
            assert!(copied.success());
            browser.open(&format!("file://{}", moved.join("index.html").display()));
            browser.eval("document.querySelector('#games a').click(); return true");
            browser.wait_for(
                "return document.querySelector('#board')?.dataset.frame === '0'",
                "the replay opens in the viewer",
            );
            let title = browser.eval("return document.querySelector('#title').textContent");
            assert!(
                title.as_str().unwrap().starts_with("2048 game 1"),
                "{title}"
            );
        }
        let errors = browser.console_errors();
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
    // `botbox view` serves a report as well.
    let (_server, url) = view(&dir.join("worms.json"));
    browser.open(&url);
    let shown = browser.eval("return document.querySelectorAll('#standings tbody tr').length");
    assert_eq!(shown, json!(2));
}

#[test]
fn the_playground_plays_a_bot_written_in_the_page_and_keeps_to_its_allowance() {
    if !browser_here("browser::playground") {
        return;
    }
    let dir = scratch("browser-playground");
    let db = dir.join("league.db");
    let league = crate::league::League::start(&dir, db.to_str().unwrap(), 1, &[]);
    let browser = Browser::start(&dir.join("profile"));
    let url = league.url.clone();
    // A visitor, not signed in: the navigation bar leads there; the editor starts from the
    // game's template.
    browser.open(&format!("{url}/"));
    browser.eval("document.querySelector('nav a[href=\"/play\"]').click(); return true");
    browser.wait_for(
        "return location.pathname === '/play'",
        "the bar leads to the playground",
    );
    browser.eval(
        "const g = document.querySelector('#game'); g.value = 'connect4'; \
         g.dispatchEvent(new Event('change')); return true",
    );
    let template = browser.eval("return document.querySelector('#source').value");
    assert!(
        template.as_str().unwrap().contains("return"),
        "the template: {template}"
    );
    let gutter = browser.eval("return document.querySelector('#gutter').textContent");
    assert!(
        gutter.as_str().unwrap().starts_with("1\n2\n"),
        "line numbers"
    );
    // Edit, run three games, watch them with the bot's print lines.
    browser.eval(&format!(
        "document.querySelector('#source').value = {}; document.querySelector('#games').value = '3'; \
         document.querySelector('#run').click(); return true",
        json!(LOGGER)
    ));
    browser.wait_for(
        "return document.querySelectorAll('#results li').length === 3",
        "three games played",
    );
    let results = browser.eval("return document.querySelector('#results').innerText");
    assert!(
        results.as_str().unwrap().contains("seat 1"),
        "the seats take turns: {results}"
    );
    let page = browser.eval("return document.querySelector('#viewer').srcdoc");
    let page = page.as_str().unwrap();
    assert!(
        page.contains("logger picks column"),
        "the bot's prints are in the viewer"
    );
    assert!(
        page.contains("\"frames\""),
        "the viewer has the game's frames"
    );
    assert!(
        !page.contains(dir.to_str().unwrap()),
        "no path on the server is in the page"
    );
    browser.screenshot(&dir.join("playground.png"));
    // A syntax error names its line.
    browser.eval(
        "document.querySelector('#source').value = 'local M = {}\\nfunction M.choose_move(obs)\\n  return (\\nend\\nreturn M'; \
         document.querySelector('#games').value = '1'; document.querySelector('#run').click(); return true",
    );
    browser.wait_for(
        "return document.querySelector('#status').className === 'error'",
        "the error shows",
    );
    let error = browser.eval("return document.querySelector('#status').textContent");
    assert!(
        error.as_str().unwrap().contains("playground.lua:4"),
        "the error names the file and line: {error}"
    );
    // A bot that never starts (an empty file) loses its games with its fault, told in the answer:
    // never a server error, whatever the game.
    let status = browser.eval(
        "return fetch('/api/v1/play', {method: 'POST', headers: {'content-type': 'application/json'}, \
           body: JSON.stringify({game: 'dice', source: '', games: 1})}).then(async r => [r.status, await r.json()])",
    );
    assert_eq!(status[0], json!(200), "{status}");
    assert!(
        status[1]["games"][0]["fault"]
            .as_str()
            .unwrap()
            .contains("table of functions"),
        "{status}"
    );
    // The allowance of a visitor: 20 games an hour; asking past it is refused with the reason.
    let refused = browser.eval(
        "const ask = () => fetch('/api/v1/play', {method: 'POST', headers: {'content-type': 'application/json'}, \
           body: JSON.stringify({game: 'connect4', source: 'return {', games: 10})}); \
         return (async () => { for (let i = 0; i < 5; i++) { const r = await ask(); \
           if (r.status === 429) return [r.status, (await r.json()).error]; } return null; })()",
    );
    assert_eq!(refused[0], json!(429), "{refused}");
    assert!(
        refused[1].as_str().unwrap().contains("games an hour"),
        "{refused}"
    );
    // Signed in: a ladder bot is an opponent too (its own logs stay its owner's), and "Upload to
    // the ladder" fills the upload form with the bot.
    let bob = league.user("bob");
    league.upload_ok(
        &bob,
        "random-c4",
        "connect4",
        &at("strategies/lua/connect4/random.lua"),
    );
    let alice = league.user("alice");
    sign_in(&browser, &url, &alice);
    browser.open(&format!("{url}/play"));
    browser.eval(
        "const g = document.querySelector('#game'); g.value = 'connect4'; \
         g.dispatchEvent(new Event('change')); return true",
    );
    browser.wait_for(
        "return [...document.querySelectorAll('#opponent option')].some(o => o.value === 'random-c4')",
        "the ladder's bots are opponents",
    );
    browser.eval(&format!(
        "document.querySelector('#source').value = {}; document.querySelector('#opponent').value = 'random-c4'; \
         document.querySelector('#games').value = '2'; document.querySelector('#run').click(); return true",
        json!(LOGGER)
    ));
    browser.wait_for(
        "return document.querySelectorAll('#results li').length === 2",
        "two games against a ladder bot",
    );
    let page = browser.eval("return document.querySelector('#viewer').srcdoc");
    let page = page.as_str().unwrap();
    assert!(
        page.contains("random-c4@v1"),
        "the opponent is the ladder bot"
    );
    assert!(page.contains("logger picks column"), "the bot's own prints");
    assert!(
        page.contains("\"logs_hidden\""),
        "the other seat's logs are its owner's"
    );
    browser.eval("document.querySelector('#upload').click(); return true");
    browser.wait_for(
        "return location.pathname === '/upload' && document.querySelector('input[name=\"file\"]').files.length === 1",
        "the upload form has the bot",
    );
    assert_eq!(
        browser.eval("return document.querySelector('select[name=\"game\"]').value"),
        json!("connect4")
    );
    // The refusals the page asked for are the only errors (the browser logs a 4xx response).
    let errors: Vec<String> = browser
        .console_errors()
        .into_iter()
        .filter(|e| !(e.contains("/api/v1/play") && (e.contains("422") || e.contains("429"))))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    league.stop();
}
