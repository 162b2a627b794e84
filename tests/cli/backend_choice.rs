//! Which backend the command line runs on, and that it says so: the bake summary and
//! `sample --verbose` name the adapter and wgpu backend (or the CPU); `--backend auto`
//! passes over a software rasteriser for the CPU with a one-line notice naming it; GL
//! bakes of every dimension, kind and lookup verify against the CPU reference.

use crate::bake_support;
use crate::common;

use bake_support::{bake_in, sample_with_input};

/// The adapter `WGPU_BACKEND=gl` gets, or `None` (a failure under WGPU_NOISE_REQUIRE_GPU).
fn gl_adapter() -> Option<String> {
    common::gpu_per_backend()
        .into_iter()
        .find(|(name, _)| *name == "gl")
        .map(|(_, ctx)| ctx.adapter.get_info().name)
}

#[test]
fn gl_bakes_of_every_dimension_kind_and_lookup_verify_against_the_cpu() {
    let Some(adapter) = gl_adapter() else { return };
    let dir = tempfile::tempdir().unwrap();
    for (dims, size, offset) in [
        ("2", "33x17", "-3.25,0.5"),
        ("3", "17x9x6", "-3.25,0.5,-300.5"),
        ("4", "7x5x3x4", "-3.25,0.5,2,-700.125"),
    ] {
        for noise in ["classic", "simplex"] {
            for lookup in ["textures", "hash"] {
                let args = [
                    "--dims",
                    dims,
                    "--size",
                    size,
                    "--noise",
                    noise,
                    "--lookup",
                    lookup,
                    "--offset",
                    offset,
                    "--backend",
                    "gpu",
                    "--verify",
                    "--force",
                    "-o",
                    "gl.npy",
                ];
                let out = bake_in(dir.path(), &args, &[("WGPU_BACKEND", "gl")]);
                let stdout = String::from_utf8_lossy(&out.stdout);
                let stderr = String::from_utf8_lossy(&out.stderr);
                let what = format!("{dims}D {noise} {lookup}");
                assert!(out.status.success(), "{what}: {stderr}");
                assert!(
                    stderr.contains(&format!("gpu ({adapter}, Gl) in ")),
                    "{what}: the summary must name the adapter and backend: {stderr}"
                );
                let verify = stdout.lines().find(|l| l.starts_with("verify:")).unwrap();
                assert!(verify.contains(" 0 of "), "{what}: {verify}");
                eprintln!("GL BAKE {what}: {verify}");
            }
        }
    }
}

#[test]
fn auto_passes_over_a_software_adapter_for_the_cpu_and_says_so() {
    let Some(ctx) = common::gpu() else { return };
    let info = ctx.adapter.get_info();
    let software = info.device_type == wgpu::DeviceType::Cpu;
    drop(ctx);
    let dir = tempfile::tempdir().unwrap();
    let out = bake_in(dir.path(), &["--size", "16x16", "-o", "auto.npy"], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    if software {
        let notices: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("notice:"))
            .collect();
        assert_eq!(notices.len(), 1, "{stderr}");
        assert!(
            notices[0].contains(&info.name)
                && notices[0].contains(&format!("{:?}", info.backend))
                && notices[0].contains("software rasteriser")
                && notices[0].contains("CPU"),
            "{stderr}"
        );
        assert!(stderr.contains(", cpu ("), "{stderr}");
    } else {
        assert!(stderr.contains(&format!("gpu ({}", info.name)), "{stderr}");
    }
    // --backend gpu still takes the software adapter, and names it.
    let out = bake_in(
        dir.path(),
        &["--size", "16x16", "--backend", "gpu", "-o", "gpu.npy"],
        &[],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("gpu ({}, {:?}) in ", info.name, info.backend)),
        "{stderr}"
    );
}

#[test]
fn sample_verbose_names_what_evaluates() {
    let Some(ctx) = common::gpu() else { return };
    let info = ctx.adapter.get_info();
    drop(ctx);
    let run = |args: &[&str]| {
        let out = sample_with_input(args, b"0.5 1.5\n");
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let gpu = run(&["--backend", "gpu", "--verbose"]);
    assert!(
        gpu.contains(&format!("gpu ({}, {:?})", info.name, info.backend)),
        "{gpu}"
    );
    assert!(run(&["--verbose"]).contains("sample: cpu, f64"));
    assert!(run(&[]).is_empty());
}
