//! `wgpu-noise sample`: points on stdin, values on stdout, malformed lines rejected.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn sample(args: &[&str], input: &str) -> Output {
    sample_with_env(args, input, &[])
}

fn sample_with_env(args: &[&str], input: &str, env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
        .arg("sample")
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run wgpu-noise");
    // A run that fails before reading its input (no adapter, a bad option) may close
    // stdin first: a broken pipe here is that, and its status and stderr tell the rest.
    match child.stdin.take().unwrap().write_all(input.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.unwrap(),
    }
    child.wait_with_output().unwrap()
}

fn values(out: &Output) -> Vec<f64> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.parse().expect("a number"))
        .collect()
}

/// Java: `SimplexNoise.noise(0.5, 0.25)` (first line of tests/golden/simplex2.txt).
const JAVA_SIMPLEX2_AT_HALF_QUARTER: f64 = -0.6471486502994073;

#[test]
fn prints_the_java_value_for_simplex_2d() {
    let out = sample(&["--noise", "simplex", "--dims", "2"], "0.5 0.25\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let digits = text.trim().trim_start_matches('-').replace("0.", "");
    assert_eq!(digits.len(), 17, "17 significant digits: {text}");
    assert_eq!(values(&out), vec![JAVA_SIMPLEX2_AT_HALF_QUARTER]);
}

#[test]
fn evaluates_every_line_in_order_with_seed_and_precision() {
    let input = "0.5 0.25 0.125\n-3.5 700.25 1e-3\n";
    let f64_values = values(&sample(&["--noise", "classic", "--dims", "3"], input));
    let f32_values = values(&sample(
        &["--noise", "classic", "--dims", "3", "--precision", "f32"],
        input,
    ));
    let seeded = values(&sample(
        &["--noise", "classic", "--dims", "3", "--seed", "9"],
        input,
    ));
    assert_eq!(f64_values.len(), 2);
    for (a, b) in f64_values.iter().zip(&f32_values) {
        assert!(
            (a - b).abs() < 1e-4 && a != b,
            "f32 {b} should be close to, not equal to, f64 {a}"
        );
    }
    assert_ne!(f64_values, seeded);
}

#[test]
fn a_malformed_line_is_an_error_naming_its_line_number() {
    for (input, expected) in [
        (
            "0.5 0.25\n1 2 3\n",
            "line 2: expected 2 coordinates, found 3",
        ),
        ("0.5\n", "line 1: expected 2 coordinates, found 1"),
        ("0.5 0.25\n0.1 abc\n", "line 2: \"abc\" is not a number"),
        ("NaN 1\n", "line 1: coordinate \"NaN\" is not finite"),
        ("1 inf\n", "line 1: coordinate \"inf\" is not finite"),
        ("1 2\n\n", "line 2: empty line"),
    ] {
        let out = sample(&["--dims", "2"], input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{input:?} should fail");
        assert!(stderr.contains(expected), "{input:?}: stderr was {stderr}");
        assert!(
            out.stdout.is_empty(),
            "{input:?}: nothing is printed when a line is bad"
        );
    }
}

#[test]
fn gpu_backend_matches_the_cpu_reference() {
    let input: String = (0..200)
        .map(|i| {
            format!(
                "{} {} {}\n",
                i as f64 * 0.37 - 40.0,
                i as f64 * -1.3,
                300.5 - i as f64
            )
        })
        .collect();
    for noise in ["classic", "simplex"] {
        let cpu = values(&sample(
            &["--noise", noise, "--dims", "3", "--precision", "f32"],
            &input,
        ));
        let out = sample(
            &["--noise", noise, "--dims", "3", "--backend", "gpu"],
            &input,
        );
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            if std::env::var_os("WGPU_NOISE_REQUIRE_GPU").is_some() {
                panic!("GPU required: {stderr}");
            }
            assert!(
                stderr.contains("no GPU adapter"),
                "unexpected failure: {stderr}"
            );
            eprintln!("SKIPPED (no GPU adapter)");
            return;
        }
        let gpu = values(&out);
        let max = cpu
            .iter()
            .zip(&gpu)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        eprintln!("sample --backend gpu, {noise} 3D: max |gpu - cpu f32| = {max:e}");
        // Parity tolerance of the GPU path (see tests/gpu/gpu_parity.rs).
        assert!(max <= 1e-5, "{noise}: {max}");
    }
}

/// `sample --backend gpu` evaluates the graph of the noise options, so every option reaches
/// the GPU: cellular's output, distance and jitter, a warp, a flow angle. On Vulkan and GL
/// each equals `--precision f32` within the graph bound of docs/graphs.md.
#[test]
fn gpu_samples_take_every_noise_option_and_equal_the_f32_cpu() {
    let input: String = (0..200)
        .map(|i| {
            let i = i as f64;
            format!("{} {} {}\n", i * 0.37 - 40.0, i * -1.3, 300.5 - i)
        })
        .collect();
    let cases: [&[&str]; 4] = [
        &[
            "--noise",
            "cellular",
            "--cellular",
            "f2",
            "--distance",
            "manhattan",
            "--jitter",
            "0.5",
        ],
        &[
            "--noise",
            "cellular",
            "--cellular",
            "cell",
            "--distance",
            "chebyshev",
        ],
        &[
            "--noise",
            "classic",
            "--warp",
            "0.8",
            "--warp-octaves",
            "2",
            "--warp-iterations",
            "2",
        ],
        &["--noise", "simplex", "--flow-angle", "0.7"],
    ];
    for options in cases {
        let args = [options, &["--dims", "3"]].concat();
        let cpu = |precision| {
            values(&sample(
                &[&args[..], &["--precision", precision]].concat(),
                &input,
            ))
        };
        let (cpu32, cpu64) = (cpu("f32"), cpu("f64"));
        let cpu32: Vec<f32> = cpu32.iter().map(|&v| v as f32).collect();
        for (backend, env) in crate::bake_support::GPU_BACKENDS {
            let out = sample_with_env(&[&args[..], &["--backend", "gpu"]].concat(), &input, env);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{backend} {options:?}: {stderr}");
            let gpu: Vec<f32> = values(&out).iter().map(|&v| v as f32).collect();
            assert_eq!(gpu.len(), cpu32.len(), "{backend} {options:?}");
            let label = format!("{backend} {options:?}");
            let worst = crate::common::graphs::assert_graph_parity(&label, &gpu, &cpu32, &cpu64);
            eprintln!("sample --backend gpu {label}: max relative |gpu - cpu f32| = {worst:e}");
        }
    }
}

#[test]
fn a_missing_adapter_is_a_clear_error() {
    // DX12 does not exist on this platform: no adapter can be found.
    let out = sample_with_env(
        &["--dims", "2", "--backend", "gpu"],
        "0.5 0.25\n",
        &[("WGPU_BACKEND", "dx12")],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stderr}");
    assert!(!out.status.success());
    assert!(stderr.contains("no GPU adapter available"), "{stderr}");
    assert!(
        stderr.contains("mesa-vulkan-drivers") && stderr.contains("CPU"),
        "the message says what to do: {stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
}

#[test]
fn an_adapter_name_that_matches_nothing_is_a_clear_error() {
    let env = [("WGPU_ADAPTER_NAME", "no such adapter 1234")];
    let out = sample_with_env(&["--dims", "2", "--backend", "gpu"], "0.5 0.25\n", &env);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "an error, not a panic: {stderr}"
    );
    assert!(
        stderr.contains("WGPU_ADAPTER_NAME=\"no such adapter 1234\" matches none of"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
