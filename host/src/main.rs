//! The `botbox` command line: parse, run, report. Only this function picks the exit code.

use botbox::cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    match cli::run(cli::Cli::parse()) {
        Ok(code) => cli::interrupted().unwrap_or(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
