//! `wgpu-noise bench` (not implemented yet).

use anyhow::{bail, Result};
use clap::Args;

/// Arguments of `wgpu-noise bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {}

/// Runs the subcommand.
pub fn run(_args: BenchArgs) -> Result<()> {
    bail!("`bench` is not implemented yet")
}
