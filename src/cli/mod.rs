//! Subcommands of the `wgpu-noise` binary, one module each, and the options they share.

pub mod bake;
pub mod bench;
#[cfg(feature = "preview")]
pub mod preview;
pub mod sample;

use clap::{Args, ValueEnum};
use wgpu_noise::NoiseKind;

/// `--noise classic|simplex`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// Classic Perlin noise.
    Classic,
    /// Simplex noise.
    Simplex,
}

impl From<KindArg> for NoiseKind {
    fn from(k: KindArg) -> Self {
        match k {
            KindArg::Classic => NoiseKind::Classic,
            KindArg::Simplex => NoiseKind::Simplex,
        }
    }
}

/// `--backend gpu|cpu|auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackendArg {
    /// The GPU; an error when no adapter exists.
    Gpu,
    /// The CPU reference.
    Cpu,
    /// The GPU when an adapter exists, else the CPU (with a notice on stderr).
    Auto,
}

/// Options every noise-producing subcommand shares.
#[derive(Args, Clone, Debug)]
pub struct NoiseOptions {
    /// Noise family.
    #[arg(long = "noise", value_enum, default_value = "simplex")]
    pub kind: KindArg,
    /// Number of dimensions.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    pub dims: u8,
    /// Seed of the permutation (0 = Perlin's original, as in Gustavson's code).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Silences lavapipe's "XDG_RUNTIME_DIR is invalid or not set" on machines without it.
pub fn quiet_xdg_runtime_dir() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        let dir = std::env::temp_dir().join(format!("wgpu-noise-xdg-{}", unsafe_uid()));
        if std::fs::create_dir_all(&dir).is_ok() {
            std::env::set_var("XDG_RUNTIME_DIR", dir);
        }
    }
}

fn unsafe_uid() -> String {
    std::env::var("USER").unwrap_or_else(|_| "user".into())
}

/// A notice for each temporary file of an earlier, killed `wgpu-noise` that
/// [`AtomicFile::create`](wgpu_noise::bake::file::AtomicFile::create) deleted.
pub fn report_leftovers(file: &wgpu_noise::bake::file::AtomicFile) {
    for path in file.removed_leftovers() {
        eprintln!(
            "notice: removed {}, left by an interrupted wgpu-noise whose process is gone",
            path.display()
        );
    }
}
