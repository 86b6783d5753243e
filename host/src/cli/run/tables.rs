//! A run's report as text tables: Elo standings and pairs for two players, win rates by seat for
//! more, the score's spread for solo games, a sequential test's verdict, and the first faults.

use comfy_table::Table;

use crate::tournament::runner::{Format, Report};
use crate::tournament::sprt::SprtReport;
use crate::tournament::summary::Score;

use crate::cli::{right_align, table};

/// The report's tables: Elo standings and pairs for two players, win rates by seat for more, the
/// score's spread for solo games; then the first faults.
pub fn render(r: &Report) -> String {
    let kind = match r.plan.format {
        Format::RoundRobin if r.entries.len() == 2 => "match",
        Format::RoundRobin => "round robin",
        Format::Gauntlet => "gauntlet",
        Format::Pool if r.entries.len() == r.plan.seats && !r.plan.repeat => "match",
        Format::Pool => "tournament",
        Format::Series => "series",
    };
    let per = match r.plan.format {
        _ if r.sprt.is_some() => format!(", SPRT with at most {}", r.plan.games),
        Format::Pool => String::new(),
        Format::Series => format!(", {} per entry", r.plan.games),
        _ => format!(", {} per pairing", r.plan.games),
    };
    let variants = if r.variants.len() == 1 {
        format!("variant ({})", r.variants[0])
    } else {
        format!("{} variants ({})", r.variants.len(), r.variants.join(", "))
    };
    let mut out = format!(
        "{} {kind}: {} games{per}, seed {}, {variants}{}\n",
        r.game,
        r.games.len(),
        r.plan.seed,
        if r.plan.repeat {
            ", repeats allowed"
        } else {
            ""
        },
    );
    match r.plan.seats {
        2 => duel(r, &mut out),
        1 => {
            out.push_str(&solo(r).to_string());
            let rules = crate::games::registry::find(&r.game).ok();
            if let Some(figures) = rules.and_then(|g| crate::tournament::setup::of(g).figures(r)) {
                out.push_str(&crate::cli::bench::render_figures(&figures));
            }
        }
        _ => pool(r, &mut out),
    }
    if let Some(test) = &r.sprt {
        out.push_str(&sprt(test, r.plan.games));
    }
    let faults = r.games.iter().flat_map(|g| {
        g.faults
            .iter()
            .enumerate()
            .filter_map(move |(seat, f)| f.as_ref().map(|f| (g, seat, f)))
    });
    for (i, (g, seat, f)) in faults.take(5).enumerate() {
        if i == 0 {
            out.push_str(match r.plan.seats {
                1 | 2 => "\n\nFaults (each lost its game):",
                _ => "\n\nFaults (a loss for the faulting entry, the game void for the others):",
            });
        }
        let name = &g.players[seat];
        let turns = match g.turns {
            1 => "after 1 turn".to_string(),
            n => format!("after {n} turns"),
        };
        out.push_str(&format!(
            "\n  game {} ({name}, seat {seat}), {turns}: {f}",
            g.number
        ));
    }
    out
}

/// A sequential test's lines: its parameters, LLR and bounds, pairs and verdict.
fn sprt(t: &SprtReport, cap: usize) -> String {
    let verdict = match t.verdict {
        Some(_) => format!("{} after {} games", t.conclusion(), t.games),
        None if t.games >= cap => format!("undecided: the cap of {cap} games (--games) came first"),
        None => format!("undecided: the run stopped after {} games", t.games),
    };
    format!(
        "\n\nSPRT {}: {}\n{}\n{verdict}",
        t.test,
        t.llr_line(),
        t.penta_line()
    )
}

fn duel(r: &Report, out: &mut String) {
    out.push_str(&standings(r).to_string());
    if let Some(distinct) = r.summary.distinct_games.filter(|d| *d < r.games.len()) {
        let games = r.games.len();
        let warning = if distinct * 10 < games * 9 {
            ": the same games were played again, so the intervals above are narrower than the \
             evidence (start each pair of games from random moves with --openings)"
        } else {
            ""
        };
        out.push_str(&format!(
            "\n\n{distinct} distinct games of {games}{warning}"
        ));
    }
    if r.summary.pairs.len() > 1 {
        out.push_str("\n\nPairs (the first entry's results against the second):\n");
        out.push_str(&pairs(r).to_string());
    }
}

/// The cells of a win-draw-loss record: wins, draws, losses, score and Elo.
fn results(
    wins: usize,
    draws: usize,
    losses: usize,
    score: f64,
    elo_diff: Option<f64>,
    margin: Option<f64>,
) -> [String; 5] {
    [
        wins.to_string(),
        draws.to_string(),
        losses.to_string(),
        format!("{score:.1}%"),
        elo(elo_diff, margin, score, wins + draws + losses),
    ]
}

/// The Elo cell, in words where the figure is unbounded: a score of 100% or 0% has no finite Elo,
/// and an interval that reaches them no finite margin (JSON has `null` there).
fn elo(elo: Option<f64>, margin: Option<f64>, score: f64, games: usize) -> String {
    match (elo, margin) {
        (Some(e), Some(m)) => format!("{e:+.0} ± {m:.0}"),
        (Some(e), None) => format!("{e:+.0}, margin unbounded"),
        (None, _) if games == 0 => "no games".into(),
        (None, _) if score >= 100.0 => "all won: unbounded".into(),
        (None, _) if score <= 0.0 => "all lost: unbounded".into(),
        (None, _) => "-".into(),
    }
}

fn standings(r: &Report) -> Table {
    let mut t = table(vec![
        "#", "entry", "games", "wins", "draws", "losses", "score", "Elo", "faults",
    ]);
    for (i, s) in r.summary.standings.iter().enumerate() {
        let faults = crate::cli::fault_counts(&s.faults, "-");
        let mut row = vec![(i + 1).to_string(), s.name.clone(), s.games.to_string()];
        row.extend(results(
            s.wins,
            s.draws,
            s.losses,
            s.score,
            s.elo,
            s.elo_margin,
        ));
        row.push(faults);
        t.add_row(row);
    }
    right_align(&mut t, [0, 2, 3, 4, 5, 6, 7]);
    t
}

fn pairs(r: &Report) -> Table {
    let mut t = table(vec![
        "entry", "opponent", "wins", "draws", "losses", "score", "Elo",
    ]);
    for p in &r.summary.pairs {
        let mut row = vec![p.a.clone(), p.b.clone()];
        row.extend(results(
            p.wins,
            p.draws,
            p.losses,
            p.score,
            p.elo,
            p.elo_margin,
        ));
        t.add_row(row);
    }
    right_align(&mut t, [2, 3, 4, 5, 6]);
    t
}

/// Solo games: each entry's score, mean with its 95% margin and median, and its faults.
fn solo(r: &Report) -> Table {
    let mut t = table(vec![
        "#",
        "entry",
        "games",
        "mean score",
        "95% margin",
        "median",
        "faults",
    ]);
    for (i, s) in r.summary.standings.iter().enumerate() {
        t.add_row(vec![
            (i + 1).to_string(),
            s.name.clone(),
            s.games.to_string(),
            format!("{:.1}", s.mean_score.unwrap_or(0.0)),
            format!("± {:.1}", s.score_margin.unwrap_or(0.0)),
            format!("{:.1}", s.median_score.unwrap_or(0.0)),
            crate::cli::fault_counts(&s.faults, "none"),
        ]);
    }
    right_align(&mut t, [0, 2, 3, 4, 5]);
    t
}

/// Games of more than two seats: win rates with intervals, by seat, and how the games ended.
fn pool(r: &Report, out: &mut String) {
    let seats = r.plan.seats;
    let mut header: Vec<String> = ["#", "entry", "games", "wins", "win %", "95% interval"]
        .map(String::from)
        .to_vec();
    header.extend((0..seats).map(|s| format!("seat {s}")));
    header.extend(["void", "faults"].map(String::from));
    let mut t = table(header);
    for (i, s) in r.summary.standings.iter().enumerate() {
        let faults = crate::cli::fault_counts(&s.faults, "-");
        let all = s.win_score();
        let mut row = vec![
            (i + 1).to_string(),
            s.name.clone(),
            s.games.to_string(),
            s.wins.to_string(),
            percent(&all),
            interval(&all),
        ];
        row.extend(s.by_seat.iter().map(percent));
        row.extend([s.void.to_string(), faults]);
        t.add_row(row);
    }
    let mut right = vec![0, 2, 3, 4, 5];
    right.extend(6..6 + seats + 1);
    right_align(&mut t, right);
    out.push_str(&t.to_string());
    out.push_str("\n\nBy seat, over the games no fault ended (seat 0 moves first):\n");
    let mut t = table(
        ["seat", "games", "wins", "win %", "95% interval"]
            .map(String::from)
            .to_vec(),
    );
    for (seat, s) in r.summary.seats.iter().enumerate() {
        t.add_row(vec![
            seat.to_string(),
            s.games.to_string(),
            s.wins.to_string(),
            percent(s),
            interval(s),
        ]);
    }
    right_align(&mut t, 0..5);
    out.push_str(&t.to_string());
    let e = &r.summary.ends;
    out.push_str(&format!(
        "\n\nEnds: {} won, {} without a winner, {} ended by a fault",
        e.won, e.no_winner, e.faulted
    ));
}

fn percent(s: &Score) -> String {
    if s.games == 0 {
        "-".into()
    } else {
        format!("{:.1}%", s.win_rate)
    }
}

fn interval(s: &Score) -> String {
    if s.games == 0 {
        "-".into()
    } else {
        format!("{:.1}–{:.1}", s.low, s.high)
    }
}

#[cfg(test)]
mod tests {
    /// Unbounded figures are told in words, never as infinities.
    #[test]
    fn an_unbounded_elo_is_told_in_words() {
        let cases = [
            ((Some(120.4), Some(35.2), 66.7, 30), "+120 ± 35"),
            ((Some(400.0), None, 91.0, 11), "+400, margin unbounded"),
            ((None, None, 100.0, 8), "all won: unbounded"),
            ((None, None, 0.0, 8), "all lost: unbounded"),
            ((None, None, 0.0, 0), "no games"),
        ];
        for ((elo, margin, score, games), want) in cases {
            assert_eq!(super::elo(elo, margin, score, games), want);
        }
    }
}
