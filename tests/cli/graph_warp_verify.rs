//! `bake --graph … --backend gpu --verify` of warped graphs: the default tolerance of a graph
//! grows with its displacements' amplitudes as the flags' does (`gpu::parity::graph_tolerance`,
//! docs/graphs.md), so a moderate warp verifies on Vulkan and on GL, while a warp whose
//! amplitude the GPU's rounding turns into a different field is refused with one line and no
//! file.

use std::path::Path;

use crate::bake_support::{bake_in, scratch_dir, GPU_BACKENDS};

/// Bakes `graph` (3D, 24³, at an offset) on `backend` with `--verify`: whether it
/// succeeded, and what it printed (stdout, then stderr).
fn bake(dir: &Path, graph: &str, backend: &[(&str, &str)]) -> (bool, String) {
    let path = dir.join("g.json");
    std::fs::write(&path, graph).unwrap();
    let args = [
        "--graph",
        path.to_str().unwrap(),
        "--dims",
        "3",
        "--size",
        "24",
        "--frequency",
        "4",
        "--offset",
        "100,50,20",
        "--backend",
        "gpu",
        "--verify",
        "-o",
        "w.npy",
        "--force",
    ];
    let out = bake_in(dir, &args, backend);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Amplitude 1.5, two iterations, over fBm: llvmpipe's GL is 3.7e-4 off the CPU here (its
/// division and sums round differently, and the warp multiplies that by the amplitude), within
/// 1e-5 + 2e-4 × (1.5 + 1.5).
#[test]
fn a_warped_graph_verifies_on_every_gpu_backend() {
    let dir = scratch_dir("graph-warp-verify");
    let graph = r#"{"version": 1, "output": "o", "nodes": {"o": {"type": "warp", "amplitude": 1.5,
        "octaves": 3, "iterations": 2, "frequency": 0.5,
        "source": {"type": "fbm", "octaves": 3, "source": {"type": "simplex"}}}}}"#;
    for (backend, env) in GPU_BACKENDS {
        let (ok, stderr) = bake(&dir, graph, env);
        assert!(ok, "{backend}: {stderr}");
        println!(
            "{backend}: {}",
            stderr
                .lines()
                .find(|l| l.starts_with("verify:"))
                .unwrap_or("")
        );
    }
}

/// Amplitude 1e6: an ulp of a displacement moves the point by 0.06 cells, so a GPU that rounds
/// one operation differently (GL: 0.24 off the CPU) bakes another field. It is refused, not
/// written.
#[test]
fn a_warp_beyond_the_gpus_precision_is_refused_by_verification() {
    let dir = scratch_dir("graph-warp-refused");
    let graph = r#"{"version": 1, "output": "o", "nodes": {"o": {"type": "warp",
        "amplitude": 1e6, "octaves": 3, "source": {"type": "cellular"}}}}"#;
    let (ok, stderr) = bake(&dir, graph, &[("WGPU_BACKEND", "gl")]);
    assert!(!ok, "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains("verification failed"), "{stderr}");
    assert!(!dir.join("w.npy").exists());
}
