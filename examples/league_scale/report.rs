//! The report of the runs: a table for people and JSON for machines.

use super::{Args, Measured};

pub(crate) fn thousands(x: f64) -> String {
    let n = x.round() as i64;
    let digits = n.abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

/// Games per second of the same setup with one worker process, if it was measured.
pub(crate) fn one_worker_rate(all: &[Measured], m: &Measured) -> Option<f64> {
    all.iter()
        .find(|o| o.label == m.label && o.workers == 1)
        .map(Measured::games_per_second)
}

pub(crate) fn table(all: &[Measured], cores: usize) -> String {
    let header = [
        "game",
        "workers",
        "games",
        "games/s",
        "vs 1 worker",
        "claims/s",
        "worker CPU ms/game",
        "server CPU ms/game",
        "PostgreSQL CPU ms/game",
        "PostgreSQL share",
        "statements/game",
        "transactions/game",
        "WAL bytes/game",
        "DB growth bytes/game",
        "connections",
        "machine busy",
        "other CPU s",
        "queue empty",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(ToString::to_string).collect()];
    for m in all {
        rows.push(vec![
            m.label.clone(),
            m.workers.to_string(),
            format!("{} in {:.1} s", m.games, m.seconds),
            format!("{:.1}", m.games_per_second()),
            one_worker_rate(all, m)
                .map_or("-".into(), |r| format!("{:.2}x", m.games_per_second() / r)),
            format!("{:.1}", m.claims_per_second()),
            format!("{:.2}", m.ms_per_game(0)),
            format!("{:.2}", m.ms_per_game(1)),
            format!("{:.2}", m.ms_per_game(2)),
            format!("{:.0}%", m.postgres_share() * 100.0),
            m.statements
                .map_or("n/a".into(), |s| format!("{:.1}", m.per_game(s as f64))),
            format!("{:.1}", m.per_game(m.transactions as f64)),
            thousands(m.per_game(m.wal_bytes as f64)),
            thousands(m.per_game(m.size_bytes as f64)),
            m.connections.to_string(),
            format!(
                "{:.0}% of {cores} cores",
                (m.cpu.iter().sum::<f64>()) / m.seconds / cores as f64 * 100.0
            ),
            format!("{:.1}", m.cpu[4]),
            format!("{} of {}", m.queue_empty, m.queue_samples),
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap())
        .collect();
    let line = |r: &Vec<String>| {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        format!("| {} |", cells.join(" | "))
    };
    let mut out = line(&rows[0]);
    out.push('\n');
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    out.push_str(&format!("|-{}-|\n", rule.join("-|-")));
    for r in &rows[1..] {
        out.push_str(&line(r));
        out.push('\n');
    }
    out
}

pub(crate) fn json(
    all: &[Measured],
    args: &Args,
    counted_by: &str,
    cores: usize,
    clk: f64,
) -> String {
    let runs: Vec<serde_json::Value> = all
        .iter()
        .map(|m| {
            serde_json::json!({
                "label": m.label,
                "game": m.game,
                "claims_run": m.claims_run,
                "workers": m.workers,
                "seconds": m.seconds,
                "games": m.games,
                "games_per_second": m.games_per_second(),
                "vs_one_worker": one_worker_rate(all, m).map(|r| m.games_per_second() / r),
                "claims": m.claims,
                "claims_per_second": m.claims_per_second(),
                "cpu_seconds": {
                    "workers": m.cpu[0], "server": m.cpu[1], "postgres": m.cpu[2],
                    "bench": m.cpu[3], "other": m.cpu[4],
                },
                "cpu_ms_per_game": {
                    "workers": m.ms_per_game(0), "server": m.ms_per_game(1),
                    "postgres": m.ms_per_game(2),
                },
                "postgres_share": m.postgres_share(),
                "statements": m.statements,
                "statements_per_game": m.statements.map(|s| m.per_game(s as f64)),
                "transactions": m.transactions,
                "transactions_per_game": m.per_game(m.transactions as f64),
                "wal_bytes_per_game": m.per_game(m.wal_bytes as f64),
                "db_growth_bytes_per_game": m.per_game(m.size_bytes as f64),
                "connections": m.connections,
                "statements_evicted": m.evicted,
                "queue_samples": m.queue_samples,
                "queue_empty": m.queue_empty,
                "by_statement": m.by_statement.iter().map(|(text, calls, ms)| serde_json::json!({
                    "statement": text,
                    "calls": calls,
                    "calls_per_game": m.per_game(*calls as f64),
                    "executor_ms_per_game": m.per_game(*ms),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let out = serde_json::json!({
        "bench": "examples/league_scale.rs",
        "cores": cores,
        "clk_tck": clk,
        "seconds": args.seconds,
        "warmup": args.warmup,
        "queue": args.queue,
        "owners": args.owners,
        "synchronous_commit": args.synchronous_commit.as_deref().unwrap_or("on (default)"),
        "claims_queue": args.claims_queue,
        "queries_counted_by": counted_by,
        "runs": runs,
    });
    serde_json::to_string_pretty(&out).unwrap()
}
