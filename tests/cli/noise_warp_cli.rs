//! The command line for domain warp: `bake --warp` writes the CPU reference's warped field on
//! every backend (and says so in its summary), `sample --warp` evaluates the warped noise,
//! and bad warp options are one-line errors that write nothing.

use crate::bake_support::{
    assert_refused, bake_ok, max_abs_diff, read_npy, sample_with_input, scratch_dir,
};
use wgpu_noise::cpu::fill::generate_f32;
use wgpu_noise::cpu::fractal::fractal;
use wgpu_noise::field::{FlagField, Warp};
use wgpu_noise::params::NoiseSettings;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

const WARP: Warp = Warp {
    amplitude: 0.75,
    frequency: 2.0,
    octaves: 3,
    iterations: 2,
};

fn dir(name: &str) -> std::path::PathBuf {
    scratch_dir(&format!("warp-{name}"))
}

#[test]
fn bake_writes_the_warped_reference_on_every_backend() {
    let dir = dir("bake");
    let field = FlagField::new(NoiseKind::Simplex, &[32, 24, 4])
        .with_frequency(&[3.0, 2.0, 1.0])
        .with_warp(WARP);
    let expect = generate_f32(&PermutationTables::new(9), &field).unwrap();
    for backend in ["cpu", "gpu"] {
        let out = dir.join(format!("{backend}.npy"));
        let stderr = bake_ok(
            &dir,
            &[
                "--dims",
                "3",
                "--size",
                "32x24x4",
                "--frequency",
                "3,2,1",
                "--seed",
                "9",
                "--warp",
                "0.75",
                "--warp-frequency",
                "2",
                "--warp-octaves",
                "3",
                "--warp-iterations",
                "2",
                "--backend",
                backend,
                "-o",
                out.to_str().unwrap(),
            ],
        );
        assert!(
            stderr.contains("domain warp 0.75 (3 octaves at frequency ×2, 2 iterations)"),
            "{stderr}"
        );
        let got = read_npy(&out, &[4, 24, 32]);
        let error = max_abs_diff(&got, &expect);
        let tolerance = wgpu_noise::gpu::parity::tolerance(&field);
        assert!(error <= tolerance, "{backend}: {error:e} > {tolerance:e}");
    }
}

#[test]
fn sample_evaluates_the_warped_noise() {
    let out = sample_with_input(
        &[
            "--dims",
            "2",
            "--warp",
            "0.75",
            "--warp-frequency",
            "2",
            "--warp-octaves",
            "3",
            "--warp-iterations",
            "2",
            "--seed",
            "9",
        ],
        b"1.5 -2.25\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: f64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    let settings = NoiseSettings::default().with_warp(&WARP);
    let lut = PermutationTables::new(9);
    let expect = fractal::<f64>(&lut, NoiseKind::Simplex, &[1.5, -2.25], &settings);
    assert_eq!(got, expect);
    let plain = fractal::<f64>(
        &lut,
        NoiseKind::Simplex,
        &[1.5, -2.25],
        &NoiseSettings::default(),
    );
    assert_ne!(got, plain, "the warp changed nothing");
}

#[test]
fn bad_warp_options_are_refused_and_write_nothing() {
    let dir = dir("refused");
    let cases: [(&[&str], &str); 5] = [
        (&["--warp", "nan"], "--warp must be a finite number"),
        (&["--warp-octaves", "2"], "need --warp A"),
        (
            &["--warp", "1", "--warp-iterations", "9"],
            "warp iterations must be 1 to 4",
        ),
        (
            &["--warp", "1", "--warp-frequency", "-1"],
            "warp frequency must be a positive number",
        ),
        (
            &[
                "--noise",
                "classic",
                "--warp",
                "1",
                "--warp-frequency",
                "0.5",
                "--tileable",
                "--frequency",
                "3",
            ],
            "whole number of warp cells",
        ),
    ];
    for (extra, message) in cases {
        let mut args = vec!["--size", "8x8", "--backend", "cpu", "-o", "x.npy"];
        args.extend_from_slice(extra);
        assert_refused(&dir, &args, message);
    }
}
