//! The `botbox` command line: parse, run, report. Only this function picks the exit code.

use botbox::cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    match cli::run(cli::parse()) {
        Ok(code) => cli::interrupted().unwrap_or(code),
        Err(e) if closed_stdout(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// A reader that stops early (`botbox check ... | head`) is not an error: as ripgrep does, the
/// command ends at once and quietly, with success. Rust ignores SIGPIPE (and botbox must: a pipe to
/// a strategy program that exits would otherwise kill it), so writing to the closed stdout fails:
/// `println!` panics with "failed printing to stdout: Broken pipe", which this hook turns into
/// that quiet exit, and an error returned by a command is checked by [`closed_stdout`].
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        let epipe = std::io::Error::from_raw_os_error(nix::libc::EPIPE).to_string();
        if message.starts_with("failed printing to stdout") && message.ends_with(&epipe) {
            std::process::exit(0);
        }
        default(info)
    }));
}

/// Whether a command's error is a write to a closed standard output.
fn closed_stdout(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
