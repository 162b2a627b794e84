//! The `wgpu-noise` command line: `sample`, `bake`, `preview`, `bench`. The command lives
//! in the library behind the `cli` feature (`wgpu_noise::run_cli`, not API), so that it reaches
//! the library's crate-private pieces; this is its entry point.

fn main() -> std::process::ExitCode {
    wgpu_noise::run_cli()
}
