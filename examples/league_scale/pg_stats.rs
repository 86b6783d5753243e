//! PostgreSQL's statistics for the league's database: statements (pg_stat_statements), commits,
//! WAL and size, connections, and the league's own counts.

use std::collections::HashMap;

use sqlx::{PgConnection, Row};

/// A statement's count and time in the executor.
#[derive(Clone, Debug, Default)]
pub(crate) struct Statement {
    pub(crate) calls: i64,
    pub(crate) ms: f64,
    pub(crate) text: String,
}

/// PostgreSQL's counters for the league's database, at one moment.
#[derive(Clone, Debug, Default)]
pub(crate) struct DbStats {
    /// By `queryid` (empty without pg_stat_statements).
    pub(crate) statements: HashMap<i64, Statement>,
    /// Entries pg_stat_statements has evicted (a window that loses some undercounts).
    pub(crate) dealloc: i64,
    pub(crate) transactions: i64,
    pub(crate) wal_bytes: i64,
    pub(crate) size: i64,
    /// Backends connected to the league's database (the server's and the workers' pools).
    pub(crate) connections: i64,
}

/// Whether `pg_stat_statements` can be read over `admin`, trying `CREATE EXTENSION` once; the
/// reason if not.
pub(crate) async fn statements_available(admin: &mut PgConnection) -> Result<(), String> {
    let probe = "SELECT count(*) FROM pg_stat_statements";
    if sqlx::query(probe).fetch_one(&mut *admin).await.is_ok() {
        return Ok(());
    }
    // As a role that may (a superuser): .ci/postgres makes it in the admin database itself.
    let _ = sqlx::query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        .execute(&mut *admin)
        .await;
    match sqlx::query(probe).fetch_one(&mut *admin).await {
        Ok(_) => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}

pub(crate) async fn db_stats(admin: &mut PgConnection, db: &str, statements: bool) -> DbStats {
    let mut out = DbStats::default();
    if statements {
        let rows = sqlx::query(
            "SELECT queryid, sum(calls)::bigint, sum(total_exec_time)::float8, min(query) \
             FROM pg_stat_statements \
             WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1) AND queryid IS NOT NULL \
             GROUP BY queryid",
        )
        .bind(db)
        .fetch_all(&mut *admin)
        .await
        .unwrap();
        for r in rows {
            out.statements.insert(
                r.get(0),
                Statement {
                    calls: r.get(1),
                    ms: r.get(2),
                    text: r.get::<Option<String>, _>(3).unwrap_or_default(),
                },
            );
        }
        out.dealloc = sqlx::query("SELECT dealloc FROM pg_stat_statements_info")
            .fetch_one(&mut *admin)
            .await
            .map_or(0, |r| r.get(0));
    }
    let row = sqlx::query(
        "SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = $1), \
         pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint, pg_database_size($1), \
         (SELECT count(*) FROM pg_stat_activity WHERE datname = $1)",
    )
    .bind(db)
    .fetch_one(&mut *admin)
    .await
    .unwrap();
    out.transactions = row.get(0);
    out.wal_bytes = row.get(1);
    out.size = row.get(2);
    out.connections = row.get(3);
    out
}

/// Games recorded, job claims so far, and jobs waiting, in the league's database.
pub(crate) async fn league_counts(conn: &mut PgConnection) -> (i64, i64, i64) {
    let row = sqlx::query(
        "SELECT (SELECT count(*) FROM results), \
         (SELECT coalesce(sum(attempts), 0)::bigint FROM jobs), \
         (SELECT count(*) FROM jobs WHERE state = 'queued')",
    )
    .fetch_one(conn)
    .await
    .unwrap();
    (row.get(0), row.get(1), row.get(2))
}

/// The bench's read of the queue inside the window: a statement of a shape the league never runs,
/// so that its calls can be told from the league's and taken off.
pub(crate) const QUEUED: &str = "SELECT count(*) FROM jobs WHERE state = $1 AND id >= $2";

pub(crate) async fn queued(conn: &mut PgConnection) -> i64 {
    sqlx::query(QUEUED)
        .bind("queued")
        .bind(0_i64)
        .fetch_one(conn)
        .await
        .unwrap()
        .get(0)
}
