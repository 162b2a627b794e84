//! `wgpu-noise preview` (not implemented yet).

use anyhow::{bail, Result};
use clap::Args;

/// Arguments of `wgpu-noise preview`.
#[derive(Args, Debug)]
pub struct PreviewArgs {}

/// Runs the subcommand.
pub fn run(_args: PreviewArgs) -> Result<()> {
    bail!("`preview` is not implemented yet")
}
