//! `botbox league ...`: run a league (`serve`, `worker`), administer it (`user add`, `verify`), and
//! use one as a client of its HTTP API (`upload`, `list`, `show`, `retire`, `games`, `status`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;

use crate::league::client::Client;
use crate::league::server::signup::Signup;
use crate::runtime::LimitSpec;

mod admin;
mod client;
use admin::{InviteCommand, UserCommand};
use client::{challenge, games, list, replay, retire, show, status, upload};

/// Run a league of uploaded WASM and Luau bots, or use one: upload, ladders, games, logs
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox league serve                      # SQLite under ./league/, http://127.0.0.1:8080, 1 worker
  botbox league user add alice             # prints alice's token once
  export BOTBOX_TOKEN=bbx_...
  botbox league upload my_bot.wasm --game worms --name hunter
  botbox league list worms
  botbox league show hunter
  botbox league games hunter --faults      # your bot's games, with its logs and faults
  botbox league replay 1234                # download a game's replay and show it
  botbox league verify 1234                # re-play a stored game here, byte for byte (admin: --db)
  botbox league retire hunter
  # several machines: one PostgreSQL, the server, and workers anywhere
  botbox league serve --db postgres://league@db/league --workers 0
  botbox league worker --db postgres://league@db/league --workers 2

The client commands read the server from --server or BOTBOX_SERVER (http://127.0.0.1:8080) and the
token from --token or BOTBOX_TOKEN. The API is described at <server>/api/v1/openapi.json.")]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    Serve(Box<ServeArgs>),
    Worker(WorkerArgs),
    /// Manage the league's users: add, list, disable, enable (an admin's command: it opens the
    /// database)
    #[command(
        subcommand,
        after_help = "Examples:
  botbox league user add alice
  botbox league user list
  botbox league user disable mallory
  botbox league user add bob --db postgres://league@db/league"
    )]
    User(UserCommand),
    /// Invite people to sign up themselves: links good for N sign-ups until a day (an admin's
    /// command: it opens the database)
    #[command(
        subcommand,
        after_help = "Examples:
  botbox league invite create --uses 30 --days 14 --url https://league.example.org
  botbox league invite list"
    )]
    Invite(InviteCommand),
    Upload(UploadArgs),
    List(ListArgs),
    Show(ShowArgs),
    /// Retire one of your bots: it plays no more games; its games and ratings stay
    #[command(after_help = "Examples:
  botbox league retire hunter
  botbox league show hunter                # its versions and games are still there")]
    Retire(ShowArgs),
    Games(GamesArgs),
    Challenge(ChallengeArgs),
    Status(StatusArgs),
    Replay(ReplayArgs),
    Verify(VerifyArgs),
}

/// The league's queue, pace and storage: jobs by state, games in the last hour, the database's and
/// the replays' size
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox league status
  botbox league status --server http://league.example:8080 --json")]
struct StatusArgs {
    #[command(flatten)]
    client: ClientArgs,
}

/// Download a stored game's replay (with your own bots' logs), save it and print it here
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox league replay 1234
  botbox league replay 1234 --out game.jsonl --last 10
  botbox replay league-1234.jsonl          # the saved file, animated on a terminal")]
struct ReplayArgs {
    /// The game's id
    id: i64,
    /// Where to save it
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Print only the last N moves
    #[arg(long, value_name = "N")]
    last: Option<usize>,
    #[command(flatten)]
    client: ClientArgs,
}

/// Where the league's database is.
#[derive(Debug, clap::Args)]
struct DbArgs {
    /// The database: a SQLite file, or a postgres:// URL
    #[arg(long, env = "BOTBOX_DB", default_value = "league/league.db")]
    db: String,
    /// Where strategy files are cached for the runtime, by content hash
    #[arg(long, default_value = "league/cache")]
    cache: PathBuf,
}

/// Run the league: the API, the matchmaker, the reaper and its own workers, until Ctrl-C
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox league serve
  botbox league serve --listen 0.0.0.0:8080 --workers 2 --keep-days 7
  botbox league serve --games-per-hour 120 --max-replay-mib 500     # a quiet laptop league
  botbox league serve --db postgres://league:secret@db/league --workers 0

Ctrl-C (or SIGTERM) stops taking requests, lets the games in play finish, and gives back any
lease it cannot finish. Logs go to stderr (RUST_LOG=debug for more).")]
#[command(mut_arg("fuel", |a| in_force(a, crate::league::games::default_limits().fuel)))]
#[command(mut_arg("time_limit_ms", |a| in_force(a, crate::league::games::default_limits().time_limit_ms)))]
struct ServeArgs {
    #[command(flatten)]
    db: DbArgs,
    /// The address to listen on
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Workers playing games in this process (0: only `botbox league worker`s play)
    #[arg(long, default_value_t = 1)]
    workers: usize,
    /// The league's seed: game N is seeded from it and N
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games kept waiting per ladder
    #[arg(long, default_value_t = 16)]
    queue: i64,
    /// Games each ladder may start per hour (0: as fast as the workers play them). New versions
    /// get them first, then bots whose rating is uncertain; a settled bot's game costs four
    #[arg(long, default_value_t = 600, value_name = "N")]
    games_per_hour: u32,
    /// Requests per second per client (the user of a valid token or session, else the IP address)
    #[arg(long, default_value_t = 50)]
    rate: u64,
    /// Requests a client may make at once above its rate
    #[arg(long, default_value_t = 100)]
    burst: u32,
    /// Failed sign-ins (a token or session that does not check out) per IP address and minute;
    /// past them the address's credentials get 429 unread
    #[arg(long, default_value_t = 10, value_name = "N")]
    auth_failures: u32,
    /// Seconds a connection has to send each request's headers
    #[arg(long, default_value_t = 10, value_name = "S")]
    header_timeout: u64,
    /// Seconds an idle keep-alive connection stays open
    #[arg(long, default_value_t = 5, value_name = "S")]
    idle_timeout: u64,
    /// Seconds a request may take, uploads aside
    #[arg(long, default_value_t = 30, value_name = "S")]
    request_timeout: u64,
    /// Seconds an upload may take (sending it, compiling it and its smoke game)
    #[arg(long, default_value_t = 120, value_name = "S")]
    upload_timeout: u64,
    /// Open connections at most (lowered to fit the open-file limit, which is raised to its hard
    /// limit at start)
    #[arg(long, default_value_t = 1024, value_name = "N")]
    max_connections: usize,
    /// Open connections at most per IP address; over it, its longest-idle connection is closed
    #[arg(long, default_value_t = 64, value_name = "N")]
    max_connections_per_address: usize,
    /// Who may sign up: with an invite link (`league invite create`), anyone (3 sign-ups an hour
    /// per address), or nobody (the admin adds users)
    #[arg(long, value_enum, default_value_t = Signup::Invite)]
    signup: Signup,
    /// A reverse proxy (an address or network, e.g. 10.0.0.0/8; repeat for more) whose
    /// X-Forwarded-For names the client; nobody else's is believed
    #[arg(long = "trusted-proxy", value_name = "NET")]
    trusted_proxies: Vec<crate::league::server::proxy::Network>,
    /// Session cookies without `Secure`: only for a league served over plain HTTP on a LAN
    /// (browsers treat http://localhost as secure already)
    #[arg(long)]
    insecure_cookies: bool,
    /// Days a game's replay is kept (its result stays)
    #[arg(long, default_value_t = 30)]
    keep_days: u64,
    /// The most space replays may take, in MiB (fractions allowed): the oldest are dropped first,
    /// but each bot keeps its newest 3 and its latest game with a fault; results and ratings stay
    #[arg(long, value_name = "MIB")]
    max_replay_mib: Option<f64>,
    /// A job's lease, in seconds: a worker that stops renewing it loses the job to another
    #[arg(long, default_value_t = 30)]
    lease: u64,
    /// Upload checks (a compile and a smoke game each) run at a time
    #[arg(long, default_value_t = 2)]
    checks: usize,
    /// The limits the league's games are played under (the help shows the league's defaults)
    #[command(flatten)]
    limits: LimitSpec,
}

/// A limit's flag with the league's default in its help, where the league's differs from the
/// runtime's.
fn in_force(arg: clap::Arg, league: Option<u64>) -> clap::Arg {
    let (Some(value), Some(help)) = (league, arg.get_help().map(ToString::to_string)) else {
        return arg;
    };
    let text = help.split(" [default: ").next().unwrap_or_default();
    arg.help(format!("{text} [default: {value}]"))
}

/// Play the league's games from a shared database (PostgreSQL), until Ctrl-C
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox league worker --db postgres://league:secret@db/league --workers 2

Each worker leases a job, plays it as local tournaments do, and records its result exactly once;
a worker that dies loses its lease and another plays the game again.")]
struct WorkerArgs {
    #[command(flatten)]
    db: DbArgs,
    /// Workers in this process
    #[arg(long, default_value_t = 1)]
    workers: usize,
    /// A job's lease, in seconds
    #[arg(long, default_value_t = 30)]
    lease: u64,
}

/// The server and the token of a client command.
#[derive(Debug, clap::Args)]
struct ClientArgs {
    /// The league's address
    #[arg(long, env = "BOTBOX_SERVER", default_value = "http://127.0.0.1:8080")]
    server: String,
    /// Your token (from `botbox league user add`)
    #[arg(long, env = "BOTBOX_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// Print the server's JSON instead of a table
    #[arg(long)]
    json: bool,
}

impl ClientArgs {
    fn client(&self) -> anyhow::Result<Client> {
        Client::new(&self.server, self.token.clone())
    }
}

/// Upload a bot's new version (.wasm or .lua): checked, smoke-tested, then on the ladder
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox league upload my_bot.wasm --game worms --name hunter
  botbox league upload strategies/lua/bs/player1.lua --game bs --name liar
  botbox league upload hunter_v2.wasm --name hunter     # a new version of an existing bot")]
struct UploadArgs {
    /// The bot: a .wasm module, .lua source, a .wat file (compiled here) or a starter kit's directory
    /// (built here, as `botbox check` builds it); programs are not accepted
    file: PathBuf,
    /// The bot's name (the file's stem by default)
    #[arg(long)]
    name: Option<String>,
    /// The game, for a new bot
    #[arg(long)]
    game: Option<String>,
    #[command(flatten)]
    client: ClientArgs,
}

/// Show a game's ladder (every ladder without a game)
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox league list
  botbox league list worms
  botbox league list bs --json")]
struct ListArgs {
    /// The game
    game: Option<String>,
    #[command(flatten)]
    client: ClientArgs,
}

/// Show a bot: its versions, standing and recent games
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox league show hunter
  botbox league retire hunter")]
struct ShowArgs {
    /// The bot's name
    name: String,
    #[command(flatten)]
    client: ClientArgs,
}

/// Play unrated games of your bot against another bot of its ladder, ahead of the ladder's games;
/// without an opponent, show your bot's challenges
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox league challenge hunter greedy --games 10
  botbox league challenge hunter greedy --games 4 --variant 2   # the ladder's third variant
  botbox league challenge hunter                                 # its challenges and their games

The games count for no rating; at most 20 challenge games an hour per user. Watch one with
`botbox league replay ID`; `botbox league games hunter` lists them with your bot's logs.")]
struct ChallengeArgs {
    /// Your bot
    name: String,
    /// The bot to play against (any other bot on the ladder)
    opponent: Option<String>,
    /// Games to play, the seats alternating (1 to 20)
    #[arg(long, default_value_t = 10)]
    games: i64,
    /// The variant, by its index on the ladder's variant page (0 to ...)
    #[arg(long, default_value_t = 0)]
    variant: usize,
    #[command(flatten)]
    client: ClientArgs,
}

/// A bot's games, newest first; your own bot's come with its log lines and fault messages
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox league games hunter
  botbox league games hunter --faults --limit 5")]
struct GamesArgs {
    /// The bot's name
    name: String,
    /// Only the games it faulted in
    #[arg(long)]
    faults: bool,
    /// At most this many games
    #[arg(long, default_value_t = 20)]
    limit: u32,
    #[command(flatten)]
    client: ClientArgs,
}

/// Re-play stored games here and check that the result and the replay match byte for byte
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox league verify 1234
  botbox league verify --recent 200
  botbox league verify 17 18 19 --db postgres://league@db/league")]
struct VerifyArgs {
    /// Game ids
    ids: Vec<i64>,
    /// Also the newest N stored games
    #[arg(long)]
    recent: Option<u32>,
    #[command(flatten)]
    db: DbArgs,
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Serve(a) => serve(*a),
        Command::Worker(a) => worker(a),
        Command::User(command) => admin::user(command),
        Command::Invite(command) => admin::invite(command),
        Command::Upload(a) => upload(a),
        Command::List(a) => list(a),
        Command::Show(a) => show(a),
        Command::Retire(a) => retire(a),
        Command::Games(a) => games(a),
        Command::Challenge(a) => challenge(a),
        Command::Status(a) => status(a),
        Command::Replay(a) => replay(a),
        Command::Verify(a) => verify(a),
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

fn serve(a: ServeArgs) -> anyhow::Result<ExitCode> {
    crate::league::init_tracing();
    let limits = crate::league::games::default_limits().and(&a.limits);
    let config = crate::league::ServeConfig {
        db: a.db.db,
        listen: a.listen,
        cache: a.db.cache,
        workers: a.workers,
        seed: a.seed,
        queue: a.queue.max(1),
        games_per_hour: a.games_per_hour,
        signup: a.signup,
        trusted_proxies: a.trusted_proxies,
        limits,
        rate: crate::league::server::RateLimit {
            per_second: a.rate,
            burst: a.burst,
        },
        auth_failures: a.auth_failures,
        timeouts: crate::league::server::Timeouts {
            request: Duration::from_secs(a.request_timeout.max(1)),
            upload: Duration::from_secs(a.upload_timeout.max(1)),
        },
        connections: crate::league::server::listen::Listen {
            header_timeout: Duration::from_secs(a.header_timeout.max(1)),
            idle_timeout: Duration::from_secs(a.idle_timeout.max(1)),
            max_connections: a.max_connections.max(1),
            max_per_peer: a.max_connections_per_address.max(1),
        },
        secure_cookies: !a.insecure_cookies,
        keep: Duration::from_secs(a.keep_days.max(1) * 86_400),
        replay_cap: a
            .max_replay_mib
            .map(|mib| (mib.max(0.0) * 1_048_576.0) as i64),
        lease: Duration::from_secs(a.lease.max(3)),
        checks: a.checks,
    };
    runtime()?.block_on(crate::league::serve(config))?;
    Ok(ExitCode::SUCCESS)
}

fn worker(a: WorkerArgs) -> anyhow::Result<ExitCode> {
    crate::league::init_tracing();
    let config = crate::league::WorkConfig {
        db: a.db.db,
        cache: a.db.cache,
        workers: a.workers.max(1),
        lease: Duration::from_secs(a.lease.max(3)),
    };
    runtime()?.block_on(crate::league::work(config))?;
    Ok(ExitCode::SUCCESS)
}

fn verify(a: VerifyArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        !a.ids.is_empty() || a.recent.is_some(),
        "give game ids, or --recent N"
    );
    let (agreed, failed, missing) = runtime()?.block_on(async {
        let store = crate::league::Store::open_existing(&a.db.db).await?;
        let cache = crate::league::games::Cache::new(&a.db.cache)?;
        let mut ids = a.ids.clone();
        if let Some(n) = a.recent {
            for g in store.results(None, false, i64::from(n)).await? {
                ids.push(g.id);
            }
        }
        let (mut agreed, mut failed, mut missing) = (0, 0, 0);
        for id in ids {
            if store.result(id).await?.is_none() {
                missing += 1;
                println!("game {id}: not in {}", a.db.db);
                continue;
            }
            match crate::league::verify(&store, &cache, id).await {
                Ok(line) => {
                    agreed += 1;
                    println!("{line}");
                }
                Err(e) => {
                    failed += 1;
                    println!("MISMATCH {e:#}");
                }
            }
        }
        store.close().await;
        anyhow::Ok((agreed, failed, missing))
    })?;
    let missing_note = if missing > 0 {
        format!(", {missing} not found")
    } else {
        String::new()
    };
    eprintln!("{agreed} agree, {failed} differ{missing_note}");
    Ok(if failed == 0 && missing == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
