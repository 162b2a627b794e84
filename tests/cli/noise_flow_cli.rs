//! The command line for flow noise: `bake --flow-angle` writes the CPU reference's turned
//! field on every backend (and says so in its summary), `sample --flow-angle` evaluates it,
//! and a flow angle where flow noise does not apply is a one-line error that writes nothing.

use crate::bake_support::{
    assert_refused, bake_ok, max_abs_diff, read_npy, sample_with_input, scratch_dir,
};
use wgpu_noise::cpu::fill::generate_f32;
use wgpu_noise::cpu::fractal::fractal;
use wgpu_noise::field::{FlagField, Fractal};
use wgpu_noise::params::NoiseSettings;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

fn dir(name: &str) -> std::path::PathBuf {
    scratch_dir(&format!("flow-{name}"))
}

#[test]
fn bake_writes_flow_noise_on_every_backend() {
    let dir = dir("bake");
    let field = FlagField::new(NoiseKind::Simplex, &[32, 24, 4])
        .with_frequency(&[3.0, 2.0, 1.0])
        .with_fractal(Fractal {
            octaves: 3,
            ..Fractal::default()
        })
        .with_flow_angle(1.25);
    let expect = generate_f32(&PermutationTables::new(9), &field).unwrap();
    let plain = generate_f32(
        &PermutationTables::new(9),
        &field.clone().with_flow_angle(0.0),
    );
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
                "--octaves",
                "3",
                "--seed",
                "9",
                "--flow-angle",
                "1.25",
                "--backend",
                backend,
                "-o",
                out.to_str().unwrap(),
            ],
        );
        assert!(stderr.contains("flow angle 1.25 rad"), "{stderr}");
        let got = read_npy(&out, &[4, 24, 32]);
        let error = max_abs_diff(&got, &expect);
        let tolerance = wgpu_noise::gpu::parity::tolerance(&field);
        assert!(error <= tolerance, "{backend}: {error:e} > {tolerance:e}");
        assert!(
            max_abs_diff(&got, plain.as_ref().unwrap()) > 0.1,
            "{backend}: nothing turned"
        );
    }
}

#[test]
fn sample_evaluates_flow_noise_on_the_cpu() {
    let out = sample_with_input(
        &["--dims", "3", "--flow-angle", "-2", "--seed", "9"],
        b"1.5 -2.25 0.75\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: f64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    let lut = PermutationTables::new(9);
    let p = [1.5, -2.25, 0.75];
    let settings = NoiseSettings::default().with_flow_angle(-2.0);
    assert_eq!(got, fractal::<f64>(&lut, NoiseKind::Simplex, &p, &settings));
    let plain = fractal::<f64>(&lut, NoiseKind::Simplex, &p, &NoiseSettings::default());
    assert_ne!(got, plain, "the flow angle changed nothing");
}

#[test]
fn a_flow_angle_where_flow_noise_does_not_apply_is_refused_and_writes_nothing() {
    let dir = dir("refused");
    let cases: [(&[&str], &str); 4] = [
        (
            &["--flow-angle", "inf"],
            "--flow-angle must be a finite number",
        ),
        (
            &["--flow-angle", "1", "--noise", "classic"],
            "flow noise turns the gradients of simplex noise",
        ),
        (
            &["--flow-angle", "1", "--dims", "4", "--size", "4x4x4x4"],
            "flow noise turns the gradients of simplex noise",
        ),
        (
            &["--flow-angle", "1", "--tileable"],
            "flow noise does not tile yet",
        ),
    ];
    for (extra, message) in cases {
        let mut args = vec!["--backend", "cpu", "-o", "x.npy"];
        if !extra.contains(&"--size") {
            args.extend(["--size", "8x8"]);
        }
        args.extend_from_slice(extra);
        assert_refused(&dir, &args, message);
    }
}
