//! The league's client commands (`upload`, `list`, `show`, `retire`, `games`, `replay`, `status`):
//! each one request to the league's API through [`crate::league::client::Client`], printed as a
//! table or as JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use super::{ChallengeArgs, GamesArgs, ListArgs, ReplayArgs, ShowArgs, StatusArgs, UploadArgs};
use crate::league::server::{BotPage, GameSummary, Ladder, LadderInfo, Status, Uploaded};

pub(super) fn upload(a: UploadArgs) -> anyhow::Result<ExitCode> {
    let client = a.client.client()?;
    anyhow::ensure!(
        client.signed_in(),
        "uploading needs your token: --token or BOTBOX_TOKEN (from `botbox league user add`)"
    );
    // A bot's directory (a starter kit) is built here, as `botbox check` builds it, and WebAssembly
    // text compiled: the league takes .wasm modules and .lua files.
    let module = match a.file.is_dir() {
        true => crate::runtime::build_dir(&a.file)?,
        false => a.file.clone(),
    };
    let (bytes, sent) = match module.extension().is_some_and(|e| e == "wat") {
        true => (
            wat::parse_file(&module).with_context(|| format!("compiling {}", module.display()))?,
            module.with_extension("wasm"),
        ),
        false => (
            std::fs::read(&module).with_context(|| format!("reading {}", module.display()))?,
            module.clone(),
        ),
    };
    let name = match &a.name {
        Some(name) => name.clone(),
        None => a
            .file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .context("give the bot a --name")?,
    };
    // The file's name, so that the league's messages about this version name it as you do.
    let file = sent.file_name().map(|f| f.to_string_lossy());
    let mut path = format!(
        "/bots/{name}/versions?file={}",
        crate::league::query_value(file.as_deref().unwrap_or_default())
    );
    if let Some(game) = &a.game {
        path.push_str(&format!("&game={}", crate::league::query_value(game)));
    }
    let up: Uploaded = client
        .post(&path, bytes)
        .with_context(|| format!("uploading {}", a.file.display()))?;
    if a.client.json {
        println!("{}", serde_json::to_string_pretty(&up)?);
    } else if up.created {
        println!(
            "{} v{} ({}, {} bytes, sha256 {}) is on the {} ladder",
            up.version.bot,
            up.version.number,
            up.version.kind,
            up.version.size,
            &up.version.sha256[..12],
            up.version.game
        );
    } else {
        println!(
            "{} v{}: the same bytes as before; nothing changed",
            up.version.bot, up.version.number
        );
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn list(a: ListArgs) -> anyhow::Result<ExitCode> {
    let client = a.client.client()?;
    let Some(game) = &a.game else {
        let all: Vec<LadderInfo> = client.get("/ladders")?;
        if a.client.json {
            println!("{}", serde_json::to_string_pretty(&all)?);
            return Ok(ExitCode::SUCCESS);
        }
        let mut t = crate::cli::table(vec!["game", "seats", "bots", "games", "rating"]);
        for l in &all {
            t.add_row(vec![
                l.game.clone(),
                l.seats.to_string(),
                l.bots.to_string(),
                l.games.to_string(),
                l.formula.clone(),
            ]);
        }
        crate::cli::right_align(&mut t, [1, 2, 3]);
        println!("{t}");
        return Ok(ExitCode::SUCCESS);
    };
    let ladder: Ladder = client.get(&format!("/ladders/{game}"))?;
    if a.client.json {
        println!("{}", serde_json::to_string_pretty(&ladder)?);
        return Ok(ExitCode::SUCCESS);
    }
    let solo = ladder.model == crate::league::rating::Model::Points;
    let mut t = crate::cli::table(vec![
        "#",
        "bot",
        "owner",
        "version",
        if solo { "mean score" } else { "rating" },
        "±",
        "games",
        "W-D-L",
        "faults",
    ]);
    for r in &ladder.rows {
        t.add_row(vec![
            r.rank.to_string(),
            r.bot.clone(),
            r.owner.clone(),
            format!("v{} {}", r.version, r.kind),
            format!("{:.1}", r.rating),
            format!("{:.1}", r.uncertainty),
            r.games.to_string(),
            format!("{}-{}-{}", r.wins, r.draws, r.losses),
            r.faults.to_string(),
        ]);
    }
    crate::cli::right_align(&mut t, [0, 4, 5, 6, 8]);
    println!("{} ladder: {}", ladder.game, ladder.formula);
    println!("{t}");
    Ok(ExitCode::SUCCESS)
}

pub(super) fn show(a: ShowArgs) -> anyhow::Result<ExitCode> {
    let client = a.client.client()?;
    let page: BotPage = client.get(&format!("/bots/{}", a.name))?;
    if a.client.json {
        println!("{}", serde_json::to_string_pretty(&page)?);
        return Ok(ExitCode::SUCCESS);
    }
    let b = &page.bot;
    println!(
        "{} ({}), owned by {}{}",
        b.name,
        b.game,
        b.owner,
        if b.retired.is_some() { ", retired" } else { "" }
    );
    let mut t = crate::cli::table(vec![
        "version", "kind", "sha256", "bytes", "rating", "±", "games", "W-D-L", "faults",
    ]);
    for v in &page.versions {
        t.add_row(vec![
            format!("v{}{}", v.number, if v.active { " (plays)" } else { "" }),
            v.kind.clone(),
            v.sha256[..12].to_string(),
            v.size.to_string(),
            format!("{:.1}", v.rating.value),
            format!("{:.1}", v.rating.uncertainty),
            v.games.to_string(),
            format!("{}-{}-{}", v.wins, v.draws, v.losses),
            v.faults.to_string(),
        ]);
    }
    crate::cli::right_align(&mut t, [3, 4, 5, 6, 8]);
    println!("{t}");
    print_games(&page.games, false);
    Ok(ExitCode::SUCCESS)
}

pub(super) fn retire(a: ShowArgs) -> anyhow::Result<ExitCode> {
    let client = a.client.client()?;
    let bot: crate::league::store::Bot =
        client.post(&format!("/bots/{}/retire", a.name), Vec::new())?;
    println!("{} is retired: it plays no more games", bot.name);
    Ok(ExitCode::SUCCESS)
}

pub(super) fn challenge(a: ChallengeArgs) -> anyhow::Result<ExitCode> {
    use crate::league::store::ChallengeInfo;
    let client = a.client.client()?;
    let path = format!("/bots/{}/challenges", a.name);
    let Some(opponent) = &a.opponent else {
        let all: Vec<ChallengeInfo> = client.get(&path)?;
        if a.client.json {
            println!("{}", serde_json::to_string_pretty(&all)?);
        } else if all.is_empty() {
            println!("{} has no challenges", a.name);
        }
        for c in all.iter().filter(|_| !a.client.json) {
            let ids: Vec<String> = c.game_ids.iter().map(ToString::to_string).collect();
            println!(
                "challenge {}: {} against {} (variant {}), {} of {} played: {}-{}-{} (W-D-L); games {}",
                c.id,
                c.bot,
                c.opponent,
                c.variant,
                c.played,
                c.games,
                c.wins,
                c.draws,
                c.losses,
                if ids.is_empty() {
                    "-".to_string()
                } else {
                    ids.join(", ")
                }
            );
        }
        return Ok(ExitCode::SUCCESS);
    };
    let body = serde_json::json!({"opponent": opponent, "games": a.games, "variant": a.variant});
    let c: ChallengeInfo = client.post_json(&path, &body)?;
    if a.client.json {
        println!("{}", serde_json::to_string_pretty(&c)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "challenge {}: {} games of {} against {} queued ahead of the ladder (unrated); \
         `botbox league challenge {}` shows how they go",
        c.id, c.games, c.bot, c.opponent, c.bot
    );
    Ok(ExitCode::SUCCESS)
}

pub(super) fn games(a: GamesArgs) -> anyhow::Result<ExitCode> {
    let client = a.client.client()?;
    let path = format!(
        "/bots/{}/games?faults={}&limit={}",
        a.name, a.faults, a.limit
    );
    let games: Vec<GameSummary> = client.get(&path)?;
    if a.client.json {
        println!("{}", serde_json::to_string_pretty(&games)?);
        return Ok(ExitCode::SUCCESS);
    }
    if games.is_empty() {
        println!("no games{}", if a.faults { " with a fault" } else { "" });
    }
    print_games(&games, true);
    Ok(ExitCode::SUCCESS)
}

fn print_games(games: &[GameSummary], details: bool) {
    if games.is_empty() {
        return;
    }
    let mut t = crate::cli::table(vec!["game", "variant", "players", "winner", "why", "turns"]);
    for g in games {
        t.add_row(vec![
            g.id.to_string(),
            g.variant.clone(),
            g.players.join(", "),
            g.winner.clone().unwrap_or_else(|| "-".into()),
            g.reason.clone(),
            g.turns.to_string(),
        ]);
    }
    crate::cli::right_align(&mut t, [0, 5]);
    println!("{t}");
    if !details {
        return;
    }
    for g in games {
        let faults: Vec<String> = g
            .faults
            .iter()
            .zip(&g.players)
            .filter_map(|(f, p)| f.as_ref().map(|f| format!("{p}: {f}")))
            .collect();
        let logged = g.logs.iter().any(|l| !l.is_empty());
        if faults.is_empty() && !logged {
            continue;
        }
        println!("game {} ({}):", g.id, g.replay);
        for f in faults {
            println!("  fault  {f}");
        }
        for (seat, lines) in g.logs.iter().enumerate() {
            for line in lines {
                println!("  log    {}: {line}", g.players[seat]);
            }
        }
    }
}

pub(super) fn replay(a: ReplayArgs) -> anyhow::Result<ExitCode> {
    let text = a
        .client
        .client()?
        .get_text(&format!("/games/{}/replay", a.id))?;
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("league-{}.jsonl", a.id)));
    std::fs::write(&out, &text).with_context(|| format!("writing {}", out.display()))?;
    let file = crate::replay::read(&out)?;
    println!("{}", crate::view::replay::render(&file, a.last)?.trim_end());
    eprintln!(
        "saved as {} (`botbox replay {}` shows it again)",
        out.display(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

pub(super) fn status(a: StatusArgs) -> anyhow::Result<ExitCode> {
    let s: Status = a.client.client()?.get("/status")?;
    if a.client.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
        return Ok(ExitCode::SUCCESS);
    }
    let jobs: Vec<String> = s
        .jobs
        .iter()
        .map(|j| format!("{} {}", j.state, j.count))
        .collect();
    println!(
        "{} games recorded; jobs: {}; leases past their end: {}",
        s.games,
        if jobs.is_empty() {
            "none".to_string()
        } else {
            jobs.join(", ")
        },
        s.expired_leases
    );
    let pace = match s.games_per_hour {
        0 => "as fast as the workers play".to_string(),
        n => format!("at most {n} games an hour per ladder"),
    };
    let st = &s.storage;
    println!(
        "last hour: {} games ({}); storing {} more an hour",
        st.games_last_hour,
        pace,
        mib(st.bytes_last_hour)
    );
    let cap = s
        .replay_cap_bytes
        .map(|c| format!(" (cap {})", mib(c)))
        .unwrap_or_default();
    println!(
        "database {}; {} replays take {}{cap}",
        mib(st.database_bytes),
        st.replays,
        mib(st.replay_bytes)
    );
    Ok(ExitCode::SUCCESS)
}

/// Bytes in MiB, for people.
fn mib(bytes: i64) -> String {
    format!("{:.1} MiB", bytes as f64 / 1_048_576.0)
}
