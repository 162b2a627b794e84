//! What the user reads: bad fractal parameters refused up front naming the parameter (in
//! the library's validation, so every path gets it), numbers in their shortest form,
//! `preview`'s window and screenshot errors, and one exit code for every error.

use crate::bake_support;

use std::path::Path;
use std::process::{Command, Output};

use bake_support::{assert_refused, bake_in, listing, read_npy};
use wgpu_noise::field::{FlagField, Fractal, FractalMode};
use wgpu_noise::{cpu, tables::PermutationTables, NoiseError, NoiseKind};

/// 2^k as the command line gives it (shortest round-trip text, exact in f32 too).
fn power_of_two(k: i32) -> String {
    format!("{:e}", 2f64.powi(k))
}

#[test]
fn fractal_parameters_beyond_f32_are_refused_up_front_naming_the_parameter() {
    let dir = tempfile::tempdir().unwrap();
    let over = power_of_two(121);
    for (args, message) in [
        (
            &["--octaves", "4", "--lacunarity=1e308"][..],
            &"lacunarity 1e308 with 4 octaves: octave 2's coordinates reach inf".to_string(),
        ),
        // One step past the limit (2^120): octave 2 samples [0, 1) × 2^121.
        (
            &["--octaves", "2", "--lacunarity", &over],
            &format!("lacunarity {over} with 2 octaves: octave 2's coordinates reach {over}"),
        ),
        (
            &["--octaves", "4", "--lacunarity", "1e-50"],
            &"lacunarity 1e-50 with 4 octaves: octave 2's coordinates reach 0".to_string(),
        ),
        (
            &["--octaves", "4", "--gain=-1"],
            &"gain must be 0 or more, not -1".to_string(),
        ),
        (
            &["--octaves", "4", "--gain=-0.5"],
            &"gain must be 0 or more, not -0.5".to_string(),
        ),
        (
            &["--octaves", "4", "--gain", "1e308"],
            &"gain 1e308 with 4 octaves: octave 2's amplitude gain^1 is inf".to_string(),
        ),
        (&["--offset", "1e308,0"], &"offset".to_string()),
    ] {
        let mut all = vec!["--size", "64x64", "--frequency", "1", "-o", "a.npy"];
        all.extend_from_slice(args);
        for backend in ["cpu", "gpu", "auto"] {
            let mut with_backend = all.clone();
            with_backend.extend_from_slice(&["--backend", backend]);
            assert_refused(dir.path(), &with_backend, message);
        }
        let out = bake_in(dir.path(), &all, &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("verif"), "{args:?}: {stderr}");
    }
}

#[test]
fn the_library_refuses_them_on_every_path() {
    let field = |fractal: Fractal| {
        FlagField::new(NoiseKind::Simplex, &[8, 8])
            .with_frequency(&[4.0, 4.0])
            .with_fractal(fractal)
    };
    let fbm = |lacunarity: f64, gain: f64| Fractal {
        mode: FractalMode::Fbm,
        octaves: 4,
        lacunarity,
        gain,
    };
    let lut = PermutationTables::new(0);
    for bad in [fbm(1e308, 0.5), fbm(2.0, -1.0), fbm(2.0, 1e308)] {
        let field = field(bad);
        assert!(
            matches!(field.validate(), Err(NoiseError::InvalidField(_))),
            "{bad:?}"
        );
        assert!(cpu::fill::generate_f32(&lut, &field).is_err(), "{bad:?}");
        if let Some(ctx) = common_gpu() {
            let gpu = wgpu_noise::gpu::GpuNoise::new(&ctx.device, &ctx.queue, 0).unwrap();
            assert!(gpu.generate(&field).is_err(), "{bad:?}");
        }
    }
    // Offsets are the same coordinates: a huge one is refused too.
    let far = FlagField::new(NoiseKind::Classic, &[8, 8]).with_offset(&[1e308, 0.0]);
    assert!(far.validate().is_err());
}

use crate::common;

fn common_gpu() -> Option<wgpu_noise::gpu::GpuContext> {
    common::gpu()
}

/// Bakes `args` to `.npy` on `backend` and returns the values (or `None`: no GPU here).
fn bake_values(dir: &Path, backend: &str, args: &[&str], shape: &[usize]) -> Option<Vec<f32>> {
    let mut all = args.to_vec();
    all.extend_from_slice(&["--backend", backend, "--force", "-o", "edge.npy"]);
    let out = bake_in(dir, &all, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() && backend == "gpu" && stderr.contains("no GPU adapter") {
        assert!(
            std::env::var_os("WGPU_NOISE_REQUIRE_GPU").is_none(),
            "{stderr}"
        );
        return None;
    }
    assert!(out.status.success(), "bake {all:?}: {stderr}");
    Some(read_npy(&dir.join("edge.npy"), shape))
}

#[test]
fn fractals_at_the_limit_are_accepted_and_finite_on_cpu_and_gpu() {
    // The largest accepted octave reaches 2^119 (lacunarity) or weighs 2^119 (gain): every
    // sample must come out finite, as the check promises.
    let dir = tempfile::tempdir().unwrap();
    let (lacunarity, gain) = (power_of_two(119), power_of_two(119));
    for backend in ["cpu", "gpu"] {
        for noise in ["classic", "simplex"] {
            for (dims, size, shape) in [
                ("2", "16x16", &[16, 16][..]),
                ("3", "16x16x4", &[4, 16, 16]),
                ("4", "8x8x4x2", &[2, 4, 8, 8]),
            ] {
                for mode in ["fbm", "turbulence", "ridged"] {
                    for extra in [["--lacunarity", &lacunarity], ["--gain", &gain]] {
                        let mut args = vec![
                            "--noise",
                            noise,
                            "--dims",
                            dims,
                            "--size",
                            size,
                            "--frequency",
                            "1",
                            "--octaves",
                            "2",
                            "--fractal",
                            mode,
                        ];
                        args.extend_from_slice(&extra);
                        let Some(values) = bake_values(dir.path(), backend, &args, shape) else {
                            eprintln!("SKIPPED --backend gpu (no GPU adapter)");
                            return;
                        };
                        let bad = values.iter().filter(|v| !v.is_finite()).count();
                        assert_eq!(bad, 0, "{backend} {args:?}: {bad} samples not finite");
                    }
                }
            }
        }
        // The gradient scales with gain^k × lacunarity^k: 2^59 × 2^59 = 2^118.
        let half = power_of_two(59);
        for (dims, size, shape) in [
            ("2", "16x16", &[16, 16, 4][..]),
            ("3", "8x8x4", &[4, 8, 8, 4]),
        ] {
            let args = [
                "--dims",
                dims,
                "--size",
                size,
                "--frequency",
                "1",
                "--octaves",
                "2",
                "--lacunarity",
                &half,
                "--gain",
                &half,
                "--gradient",
            ];
            let values = bake_values(dir.path(), backend, &args, shape).unwrap();
            let bad = values.iter().filter(|v| !v.is_finite()).count();
            assert_eq!(bad, 0, "{backend} {args:?}: {bad} values not finite");
        }
    }
}

#[test]
fn numbers_print_in_their_shortest_round_trip_form() {
    use wgpu_noise::bake::shortest;
    assert_eq!(shortest(8.0), "8");
    assert_eq!(shortest(0.125), "0.125");
    assert_eq!(shortest(-3.5), "-3.5");
    assert_eq!(shortest(1e-30), "1e-30");
    assert_eq!(shortest(2.5e20), "2.5e20");
    assert_eq!(shortest(0.0), "0");
    assert_eq!(shortest(0.1f32), "0.1");
    assert_eq!(shortest(-4.3066404e-30f32), "-4.3066404e-30");
    // Round trip over many magnitudes, f64 and f32 (an independent check: parse it back).
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let v = f64::from_bits(x);
        if v.is_finite() {
            let text = shortest(v);
            assert_eq!(text.parse::<f64>().unwrap(), v, "{text}");
            assert!(text.len() <= 24, "{text}");
        }
        let w = f32::from_bits(x as u32);
        if w.is_finite() {
            let text = shortest(w);
            assert_eq!(text.parse::<f32>().unwrap(), w, "{text}");
            assert!(text.len() <= 18, "{text}");
        }
    }
}

#[test]
fn the_bake_summary_reads_as_english_with_short_numbers() {
    let dir = tempfile::tempdir().unwrap();
    for (args, expected) in [
        (
            &[
                "--octaves",
                "1",
                "--lacunarity",
                "3",
                "--frequency",
                "1e-30",
            ][..],
            // One fBm octave is the noise itself: the summary describes what is computed.
            "frequency 1e-30,1e-30, offset 0,0, little-endian f32 .npy",
        ),
        (
            &["--octaves", "3", "--fractal", "ridged"],
            "ridged multifractal of 3 octaves (lacunarity 2, gain 0.5)",
        ),
        (
            &[
                "--octaves",
                "2",
                "--fractal",
                "turbulence",
                "--gain",
                "0.25",
            ],
            "turbulence of 2 octaves (lacunarity 2, gain 0.25)",
        ),
    ] {
        let mut all = vec![
            "--size",
            "16x16",
            "--backend",
            "cpu",
            "--force",
            "-o",
            "s.npy",
        ];
        all.extend_from_slice(args);
        let out = bake_in(dir.path(), &all, &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("0000000"), "{args:?}: {stderr}");
    }
}

#[cfg(feature = "preview")]
fn preview(dir: &Path, display: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"));
    cmd.arg("preview")
        .args(args)
        .current_dir(dir)
        .env_remove("WAYLAND_DISPLAY");
    match display {
        Some(d) => cmd.env("DISPLAY", d),
        None => cmd.env_remove("DISPLAY"),
    };
    cmd.output().expect("run wgpu-noise")
}

#[test]
#[cfg(feature = "preview")]
fn an_unreachable_x_server_is_one_line_without_build_paths() {
    let dir = tempfile::tempdir().unwrap();
    // No X server listens on display 65000.
    let out = preview(dir.path(), Some(":65000"), &["--frames", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: cannot open a window ("),
        "{stderr}"
    );
    assert!(stderr.contains("wgpu-noise bake"), "{stderr}");
    for leak in [".rs:", ".cargo", "registry", "os error at"] {
        assert!(!stderr.contains(leak), "{leak:?} in {stderr}");
    }
}

#[test]
#[cfg(feature = "preview")]
fn a_screenshot_is_png_and_never_replaces_a_file_without_force() {
    // Checked before any window: these fail the same with no display at all.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("shot.png"), b"keep me").unwrap();
    for (args, message) in [
        (
            &["--screenshot", "shot.png"][..],
            "error: shot.png already exists; pass --force to overwrite it",
        ),
        (
            &["--screenshot", "a.jpg"],
            "error: --screenshot a.jpg: screenshots are PNG files; give the name a .png extension",
        ),
        (
            &["--screenshot", "a.jpg", "--force"],
            "error: --screenshot a.jpg: screenshots are PNG files",
        ),
        (
            &["--screenshot", "noext"],
            "error: --screenshot noext: screenshots are PNG files",
        ),
    ] {
        let out = preview(d, None, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with(message), "{args:?}: {stderr}");
        assert_eq!(listing(d), ["shot.png"], "{args:?}");
        assert_eq!(std::fs::read(d.join("shot.png")).unwrap(), b"keep me");
    }
    // With --force the existing file passes the check (and fails on the display instead).
    let out = preview(d, None, &["--screenshot", "shot.png", "--force"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("DISPLAY"), "{stderr}");
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
        .args(args)
        .output()
        .expect("run wgpu-noise")
}

#[test]
fn every_error_exits_1_usage_errors_included_and_help_exits_0() {
    for args in [
        &["bake", "--bogus"][..],
        &["bake", "-o", "x.npy"],
        &["sample", "--dims", "5"],
        &["sample", "--noise", "perlin"],
        &["no-such-command"],
    ] {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // No subcommand: the help on stderr, as an error.
    assert_eq!(run(&[]).status.code(), Some(1));
    for args in [&["--help"][..], &["bake", "--help"], &["--version"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(!out.stdout.is_empty(), "{args:?}: help goes to stdout");
    }
}
