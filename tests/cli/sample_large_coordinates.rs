//! `sample --backend gpu` far from the origin: on every backend (Vulkan and GL), every
//! function `sample` evaluates on the GPU (classic, simplex and cellular in 2D, 3D and 4D)
//! equals `--precision f32` on the CPU at points up to |p| = 1e8, which are evaluated as
//! given (not reduced by lattice periods). GL's 4D simplex was off by up to 1.45 there: Mesa
//! regrouped the skew's four-term sums (shaders/simplex.wgsl, `wgpu_noise_opaque`).

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

/// The parity tolerance of GPU against the f32 CPU mirror (`gpu::parity`).
const TOLERANCE: f64 = 1e-5;

fn sample(args: &[&str], backend: Option<&str>, input: &str) -> Vec<f64> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"));
    cmd.arg("sample").args(args);
    if let Some(b) = backend {
        cmd.env("WGPU_BACKEND", b);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run wgpu-noise");
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "sample {args:?} ({backend:?}): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect()
}

/// 240 points, 30 at each magnitude 10, 100, …, 1e8, with fractional parts and mixed signs
/// (the 4D point among them).
fn points(dims: usize) -> String {
    let mut text = String::new();
    if dims == 4 {
        text += "-7859823.4310522266 8804820.9431131445 -3463422.6901851604 -4834595.4205532428\n";
    }
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut unit = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    for i in 0..240 {
        let m = 10f64.powi(1 + i % 8);
        let p: Vec<String> = (0..dims).map(|_| format!("{}", unit() * m)).collect();
        text += &p.join(" ");
        text += "\n";
    }
    text
}

#[test]
fn gpu_sample_equals_the_f32_cpu_far_from_the_origin_on_every_backend() {
    let backends = common::gpu_per_backend();
    for (name, ctx) in &backends {
        let adapter = ctx.adapter.get_info().name;
        for kind in ["classic", "simplex", "cellular"] {
            for dims in [2usize, 3, 4] {
                let d = dims.to_string();
                let input = points(dims);
                let args = ["--noise", kind, "--dims", &d];
                let cpu = sample(&[&args[..], &["--precision", "f32"]].concat(), None, &input);
                let gpu = sample(
                    &[&args[..], &["--backend", "gpu"]].concat(),
                    Some(name),
                    &input,
                );
                assert_eq!(cpu.len(), gpu.len());
                let (worst, at) = cpu
                    .iter()
                    .zip(&gpu)
                    .map(|(c, g)| (c - g).abs())
                    .enumerate()
                    .fold(
                        (0.0f64, 0),
                        |(w, a), (i, e)| if e > w { (e, i) } else { (w, a) },
                    );
                let line = input.lines().nth(at).unwrap_or_default();
                assert!(
                    worst <= TOLERANCE,
                    "{name} ({adapter}) {kind} {dims}D: |gpu - cpu f32| = {worst:e} at {line:?}: gpu {} cpu {}",
                    gpu[at],
                    cpu[at]
                );
                eprintln!(
                    "LARGE COORDINATES {name} {kind} {dims}D: max |gpu - cpu f32| = {worst:e}"
                );
            }
        }
    }
}

/// `sample --graph --backend gpu` (the graph's fused shader at the given points) against
/// `--precision f32` within the graph parity bound of docs/graphs.md, with `--precision
/// f64` measuring f32's own error, for the shipped graphs at points up to |p| = 1e6, on
/// every backend.
#[test]
fn gpu_sample_of_a_graph_equals_the_f32_cpu_within_the_graph_bound_on_every_backend() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs");
    let backends = common::gpu_per_backend();
    for (name, _) in &backends {
        for (graph, dims) in [
            ("terrain.json", 3),
            ("terrain.json", 2),
            ("marble.json", 2),
            ("wood.json", 3),
        ] {
            let path = folder.join(graph);
            let path = path.to_str().unwrap();
            let d = dims.to_string();
            // The points of magnitude 10 to 1e6 (every 8th point is 1e7 or 1e8).
            let input: String = points(dims)
                .lines()
                .skip(usize::from(dims == 4))
                .enumerate()
                .filter(|(i, _)| i % 8 < 6)
                .map(|(_, l)| format!("{l}\n"))
                .collect();
            let args = ["--graph", path, "--dims", &d];
            let f32s = |v: Vec<f64>| v.into_iter().map(|x| x as f32).collect::<Vec<f32>>();
            let cpu = f32s(sample(
                &[&args[..], &["--precision", "f32"]].concat(),
                None,
                &input,
            ));
            let cpu64 = sample(&[&args[..], &["--precision", "f64"]].concat(), None, &input);
            let gpu = f32s(sample(
                &[&args[..], &["--backend", "gpu"]].concat(),
                Some(name),
                &input,
            ));
            let label = format!("{name} {graph} {dims}D");
            let worst = common::graphs::assert_graph_parity(&label, &gpu, &cpu, &cpu64);
            eprintln!("LARGE COORDINATES {label}: max relative |gpu - cpu f32| = {worst:e}");
        }
    }
}
