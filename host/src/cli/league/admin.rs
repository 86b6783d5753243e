//! The admin's commands on users and invites: they open the league's database (`--db`), as
//! `user add` and `verify` do, and work whether or not the server runs.

use std::process::ExitCode;

use super::{DbArgs, runtime};
use crate::league::Store;
use crate::league::store::day;

/// Manage the league's users (an admin's command: it opens the database)
#[derive(Debug, clap::Subcommand)]
pub(super) enum UserCommand {
    /// Add a user and print their first token (shown once; only its hash is stored)
    #[command(after_help = "Examples:
  botbox league user add alice
  botbox league user add bob --db postgres://league@db/league")]
    Add {
        /// The user's name: 1 to 40 letters, digits, - and _
        name: String,
        #[command(flatten)]
        db: DbArgs,
    },
    /// List the users: when they joined, by which invite, their bots, and whether they are disabled
    #[command(after_help = "Examples:
  botbox league user list
  botbox league user list --json")]
    List {
        #[command(flatten)]
        db: DbArgs,
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Disable a user: their tokens and sessions stop working and their bots stop playing (their
    /// games and ratings stay) until they are enabled again
    #[command(after_help = "Examples:
  botbox league user disable mallory
  botbox league user enable mallory")]
    Disable {
        name: String,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Enable a disabled user again: their tokens, sessions and bots work as before
    #[command(after_help = "Examples:
  botbox league user enable mallory")]
    Enable {
        name: String,
        #[command(flatten)]
        db: DbArgs,
    },
}

/// Invite people to sign up (an admin's command: it opens the database)
#[derive(Debug, clap::Subcommand)]
pub(super) enum InviteCommand {
    /// Make an invite link good for a number of sign-ups until a day; the link is shown once
    #[command(after_help = "Examples:
  botbox league invite create                               # one sign-up within 7 days
  botbox league invite create --uses 30 --days 14 --note 'course 2027' \\
      --url https://league.example.org

Whoever opens the link chooses a name and gets a token (shown once) and a signed-in browser.
The server takes invites unless it runs with --signup open or --signup closed.")]
    Create {
        /// Sign-ups the invite is good for
        #[arg(long, default_value_t = 1, value_name = "N")]
        uses: i64,
        /// Days the invite is good for
        #[arg(long, default_value_t = 7, value_name = "D")]
        days: i64,
        /// A note for the list (who it is for)
        #[arg(long, default_value = "")]
        note: String,
        /// The league's address as people reach it, for the link
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        #[command(flatten)]
        db: DbArgs,
    },
    /// List the invites: uses left, expiry and note (never their codes)
    #[command(after_help = "Examples:
  botbox league invite list")]
    List {
        #[command(flatten)]
        db: DbArgs,
    },
}

pub(super) fn user(command: UserCommand) -> anyhow::Result<ExitCode> {
    match command {
        UserCommand::Add { name, db } => user_add(&name, &db),
        UserCommand::List { db, json } => user_list(&db, json),
        UserCommand::Disable { name, db } => set_disabled(&name, &db, true),
        UserCommand::Enable { name, db } => set_disabled(&name, &db, false),
    }
}

pub(super) fn invite(command: InviteCommand) -> anyhow::Result<ExitCode> {
    match command {
        InviteCommand::Create {
            uses,
            days,
            note,
            url,
            db,
        } => {
            anyhow::ensure!(
                (1..=3650).contains(&days),
                "--days {days}: an invite is good for 1 to 3650 days"
            );
            let expires = crate::league::store::now_ms() + days * 86_400_000;
            let (id, code) = with_store(&db, async |store| {
                Ok(store.add_invite(uses, expires, &note).await?)
            })?;
            eprintln!(
                "invite {id}: {uses} sign-up{} until {} (UTC); its link, shown this once:",
                if uses == 1 { "" } else { "s" },
                day(expires)
            );
            println!("{}/signup?invite={code}", url.trim_end_matches('/'));
            Ok(ExitCode::SUCCESS)
        }
        InviteCommand::List { db } => {
            let invites = with_store(&db, async |store| Ok(store.invites().await?))?;
            let now = crate::league::store::now_ms();
            println!(
                "{:>4}  {:>9}  {:<10}  {:<8}  note",
                "id", "uses left", "until", "state"
            );
            for i in invites {
                let state = if i.expires <= now {
                    "expired"
                } else if i.uses_left <= 0 {
                    "used up"
                } else {
                    "open"
                };
                println!(
                    "{:>4}  {:>9}  {:<10}  {:<8}  {}",
                    i.id,
                    format!("{} of {}", i.uses_left, i.uses),
                    day(i.expires),
                    state,
                    i.note
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Runs `f` on the existing database `db`, then closes it.
fn with_store<T>(
    db: &DbArgs,
    f: impl AsyncFnOnce(&Store) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    runtime()?.block_on(async {
        let store = Store::open_existing(&db.db).await?;
        let out = f(&store).await;
        store.close().await;
        out
    })
}

fn user_add(name: &str, db: &DbArgs) -> anyhow::Result<ExitCode> {
    let (id, token) = with_store(db, async |store| Ok(store.add_user(name).await?))?;
    eprintln!("added user {name} (id {id}); their token, shown this once:");
    println!("{token}");
    Ok(ExitCode::SUCCESS)
}

fn user_list(db: &DbArgs, json: bool) -> anyhow::Result<ExitCode> {
    let users = with_store(db, async |store| Ok(store.users().await?))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&users)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{:>4}  {:<20}  {:<10}  {:>6}  {:>4}  state",
        "id", "name", "joined", "invite", "bots"
    );
    for u in users {
        println!(
            "{:>4}  {:<20}  {:<10}  {:>6}  {:>4}  {}",
            u.id,
            u.name,
            day(u.created),
            u.invite.map_or("-".to_string(), |i| i.to_string()),
            u.bots,
            match u.disabled {
                Some(at) => format!("disabled since {}", day(at)),
                None => "active".to_string(),
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn set_disabled(name: &str, db: &DbArgs, disabled: bool) -> anyhow::Result<ExitCode> {
    let found = with_store(db, async |store| {
        Ok(store.set_disabled(name, disabled).await?)
    })?;
    anyhow::ensure!(found, "there is no user {name}");
    eprintln!(
        "{name} is {}",
        if disabled {
            "disabled: their tokens and sessions no longer work and their bots no longer play"
        } else {
            "enabled again"
        }
    );
    Ok(ExitCode::SUCCESS)
}
