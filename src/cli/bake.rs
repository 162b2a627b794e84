//! `wgpu-noise bake` (not implemented yet).

use anyhow::{bail, Result};
use clap::Args;

/// Arguments of `wgpu-noise bake`.
#[derive(Args, Debug)]
pub struct BakeArgs {}

/// Runs the subcommand.
pub fn run(_args: BakeArgs) -> Result<()> {
    bail!("`bake` is not implemented yet")
}
