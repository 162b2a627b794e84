//! The `wgpu-noise` command line: `sample`, `bake`, `preview`, `bench`.

mod cli;

use clap::{Parser, Subcommand};

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
    /// Measure the GPU and CPU paths (and peer crates) on the same work.
    Bench(cli::bench::BenchArgs),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Sample(args) => cli::sample::run(args),
        Command::Bake(args) => cli::bake::run(*args),
        #[cfg(feature = "preview")]
        Command::Preview(args) => cli::preview::run(args),
        Command::Bench(args) => cli::bench::run(args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            // One line: the error and its causes.
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
