//! `--verify` of a graph's gradient and curl: its derivatives are held to docs/graphs.md's
//! relative bound, `|baked − cpu| ≤ 4e-3 (1 + |cpu|)`, with at most 1 % of them past it at
//! kinks. So the terrain example's gradient and curl verify on Vulkan and on GL (an absolute
//! tolerance of 1e-4 refused the 3D curl, whose components reach ±20), while derivatives off
//! by more, or off in more places than kinks explain, are refused with no file.

use std::path::Path;

use crate::bake_support::{bake_in, scratch_dir, Faulty, GPU_BACKENDS};
use wgpu_noise::bake::{bake, default_tolerance, BakeOptions, CpuSource, Encoding, NoiseSpec};
use wgpu_noise::field::FlagField;
use wgpu_noise::graph::Graph;
use wgpu_noise::{FieldOutput, NoiseError, NoiseKind};

fn terrain() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/graphs/terrain.json")
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn the_terrain_examples_gradient_and_curl_verify_on_the_gpu() {
    let dir = scratch_dir("graph-derivative-verify");
    let graph = terrain();
    for (backend, env) in GPU_BACKENDS {
        for (dims, size) in [("3", "64x64x16"), ("2", "128x96")] {
            for flag in ["--curl", "--gradient"] {
                let args = [
                    "--graph",
                    &graph,
                    "--dims",
                    dims,
                    "--size",
                    size,
                    "--frequency",
                    "4",
                    flag,
                    "--backend",
                    "gpu",
                    "--verify",
                    "-o",
                    "t.npy",
                    "--force",
                ];
                let out = bake_in(&dir, &args, env);
                let printed = format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                );
                assert!(out.status.success(), "{backend} {dims}D {flag}: {printed}");
                let line = printed
                    .lines()
                    .find(|l| l.contains("derivatives: max relative error"))
                    .unwrap_or_else(|| panic!("{backend} {dims}D {flag}: {printed}"));
                println!("{backend} {dims}D {flag}: {line}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The CPU source with the derivatives (channels `first..channels`) of every `every`-th
/// texel moved by `by` of their size.
fn perturbed(every: usize, by: f32, channels: usize, first: usize) -> Faulty {
    Faulty {
        inner: CpuSource::new(),
        alter: Box::new(move |i, v| {
            let (texel, channel) = (i / channels, i % channels);
            if channel >= first && texel.is_multiple_of(every) {
                v + by * (1.0 + v.abs())
            } else {
                v
            }
        }),
    }
}

#[test]
fn derivatives_off_beyond_the_bound_in_more_places_than_kinks_are_refused() {
    let dir = scratch_dir("graph-derivative-refused");
    let graph = Graph::from_json(&std::fs::read_to_string(terrain()).unwrap()).unwrap();
    let field = FlagField::new(NoiseKind::Simplex, &[48, 32]).with_frequency(&[4.0, 4.0]);
    for (output, channels, first) in [(FieldOutput::Gradient, 4, 1), (FieldOutput::Curl, 2, 0)] {
        let spec = NoiseSpec::new(graph.program(2, [0.0; 4]).unwrap(), field.grid.clone(), 3)
            .with_output(output);
        let mut options = BakeOptions::new(Encoding::Npy);
        options.overwrite = true;
        options.verify = Some(default_tolerance(&spec));
        let target = dir.join("p.npy");
        // Every texel off by 1e-3 of its size: within the bound.
        // Every 200th (0.5 %) off by 5e-2: kinks. Every 50th (2 %): too many to be kinks.
        for (every, by, passes) in [(1, 1e-3, true), (200, 5e-2, true), (50, 5e-2, false)] {
            let mut source = perturbed(every, by, channels, first);
            let what = format!("{output:?}, every {every}th texel off by {by}");
            std::fs::remove_file(&target).ok();
            match bake(&spec, &mut source, &target, &options, &mut |_, _| {}) {
                Ok(report) => {
                    assert!(passes, "{what}: verified");
                    let d = report.verify.unwrap().graph_derivatives.unwrap();
                    let off = (48 * 32usize).div_ceil(every) as u64 * (channels - first) as u64;
                    if every == 1 {
                        assert!(d.over == 0 && d.max_relative_error > 5e-4, "{what}: {d:?}");
                    } else {
                        assert_eq!(d.over, off, "{what}: {d:?}");
                    }
                }
                Err(NoiseError::Verification(message)) => {
                    assert!(!passes, "{what}: {message}");
                    assert!(message.contains("values past it"), "{message}");
                    assert!(!target.exists(), "{what}: a file was left");
                }
                Err(e) => panic!("{what}: {e}"),
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
