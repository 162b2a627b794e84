//! The `wgpu-noise` command: its subcommands, exit codes and signal handling.

use clap::{Parser, Subcommand};

use crate::cli;

/// Classic Perlin and simplex noise (2D/3D/4D) on the GPU with wgpu, with a CPU reference.
#[derive(Parser)]
#[command(name = "wgpu-noise", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Evaluate noise at points read from stdin, one point per line.
    Sample(cli::sample::SampleArgs),
    /// Bake a noise texture or volume to a PNG, EXR, .npy, KTX2 or RAW file.
    // Boxed: its many options make it several times larger than the other commands.
    Bake(Box<cli::bake::BakeArgs>),
    /// Open a window with live, animated noise.
    #[cfg(feature = "preview")]
    Preview(cli::preview::PreviewArgs),
    /// Open a window with live, animated noise (not in this build: it needs the cargo
    /// feature `preview`).
    #[cfg(not(feature = "preview"))]
    #[command(disable_help_flag = true)]
    Preview {
        /// The preview's options, refused with the rest.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        args: Vec<std::ffi::OsString>,
    },
    /// Measure the GPU and CPU paths (and peer crates) on the same work.
    Bench(cli::bench::BenchArgs),
}

/// The `wgpu-noise` binary (`src/main.rs` calls it): parses the command line, runs the
/// subcommand and returns the exit status.
pub fn main() -> std::process::ExitCode {
    cli::quiet_xdg_runtime_dir();
    // Every error exits 1, usage errors clap finds included (clap's own default is 2): the
    // line between "clap checks it" (`--dims 5`) and "we check it" (`--size 0`) is an
    // implementation detail a script cannot predict. --help and --version exit 0.
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // No subcommand: the help, on stderr, as an error.
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = errln!("{}", e.render().to_string().trim_end());
            return std::process::ExitCode::FAILURE;
        }
        Err(e) if e.use_stderr() => {
            let _ = errln!("{}", cli::usage_error_line(&e));
            return std::process::ExitCode::FAILURE;
        }
        // --help and --version: their text on stdout, exit 0, unless it cannot be written.
        Err(e) => {
            use std::io::Write;
            let text = e.render().to_string();
            let mut out = std::io::stdout().lock();
            return match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
                    fail(&anyhow::Error::new(cli::StreamError {
                        stream: cli::Stream::Stdout,
                        error,
                    }))
                }
                _ => std::process::ExitCode::SUCCESS,
            };
        }
    };
    #[cfg(unix)]
    if let Err(e) = handle_signals() {
        return fail(&anyhow::anyhow!("cannot install signal handlers: {e}"));
    }
    let result = match cli.command {
        Command::Sample(args) => cli::sample::run(args),
        Command::Bake(args) => cli::bake::run(*args),
        #[cfg(feature = "preview")]
        Command::Preview(args) => cli::preview::run(args),
        #[cfg(not(feature = "preview"))]
        Command::Preview { .. } => Err(anyhow::anyhow!(
            "this wgpu-noise was built without the preview window: build it with the cargo \
             feature `preview` (`cargo run --release --features preview -- preview ...`, \
             `cargo install --path . --features preview`)"
        )),
        Command::Bench(args) => cli::bench::run(args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // The reader of stdout or stderr has gone (`| head -1`): it has what it wanted.
        Err(e)
            if e.downcast_ref::<cli::StreamError>()
                .is_some_and(cli::StreamError::reader_gone) =>
        {
            std::process::ExitCode::SUCCESS
        }
        Err(e) => fail(&e),
    }
}

/// Reports `e` as one line (the error and its causes) on stderr, if stderr can still be
/// written, and returns the failure status.
fn fail(e: &anyhow::Error) -> std::process::ExitCode {
    let _ = errln!("error: {e:#}");
    std::process::ExitCode::FAILURE
}

/// SIGINT, SIGTERM and SIGHUP delete the temporary file of an unfinished output (the
/// output itself is untouched until a finished file is renamed over it), then end the
/// process by the same signal, so a shell reports 130/143/129 and a script loop stops at
/// Ctrl-C as it would for any program. A signal that comes after the output was renamed
/// into place (nothing unfinished is left) ends the process with status 0: the exit status
/// says whether the file was written, and it was. SIGXFSZ (a write past `ulimit -f`) is caught and
/// ignored, so that write fails with EFBIG and the usual one-line error and clean-up
/// follow, instead of the default kill that would leave the temporary file.
#[cfg(unix)]
fn handle_signals() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGXFSZ};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP, SIGXFSZ])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if signal == SIGXFSZ {
                    continue;
                }
                // Held until the process ends: no new temporary file, no rename meanwhile.
                let removed = crate::bake::file::remove_unfinished();
                if removed.unfinished == 0 && removed.committed > 0 {
                    std::process::exit(0);
                }
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                // Not reached: the default action of these signals ends the process.
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}
