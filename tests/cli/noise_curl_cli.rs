//! `bake --curl` writes curl noise: 2 channels in 2D and 3 in 3D (`.npy` trailing axis, EXR
//! RG/RGB, an RGB flow map PNG), the f32 CPU mirror's values at every texel; it refuses what
//! it cannot write.

use crate::bake_support::{assert_refused, bake_ok, read_npy};
use wgpu_noise::cpu::curl::{curl2, curl3};
use wgpu_noise::field::FlagField;
use wgpu_noise::params::FillParams;
use wgpu_noise::params::Slab;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

#[test]
fn bake_curl_writes_the_curl_of_every_texel() {
    let dir = tempfile::tempdir().unwrap();
    let lut = PermutationTables::new(5);
    for (dims, size, shape) in [
        (2usize, "40x24", vec![24usize, 40, 2]),
        (3, "12x10x6", vec![6, 10, 12, 3]),
    ] {
        let out = dir.path().join(format!("curl{dims}.npy"));
        let dims_arg = dims.to_string();
        let stderr = bake_ok(
            dir.path(),
            &[
                "--dims",
                &dims_arg,
                "--size",
                size,
                "--frequency",
                "3",
                "--seed",
                "5",
                "--curl",
            ]
            .into_iter()
            .chain(["-o", out.to_str().unwrap()])
            .collect::<Vec<_>>(),
        );
        assert!(
            stderr.contains(&format!("curl noise ({dims} channels)")),
            "{stderr}"
        );
        let got = read_npy(&out, &shape);
        let sizes: Vec<u32> = shape[..dims].iter().rev().map(|&s| s as u32).collect();
        let field = FlagField::new(NoiseKind::Simplex, &sizes).with_frequency(&[3.0; 3]);
        let params = FillParams::new(&field, Slab::whole(&field));
        let mut i = 0;
        for z in 0..field.size[2] {
            for y in 0..field.size[1] {
                for x in 0..field.size[0] {
                    let p = wgpu_noise::cpu::fill::sample_point(&params, [x, y, z, 0]);
                    let expect: Vec<f32> = if dims == 2 {
                        curl2::<f32>(&lut, p[0], p[1]).to_vec()
                    } else {
                        curl3::<f32>(&lut, [p[0], p[1], p[2]]).to_vec()
                    };
                    assert_eq!(&got[i..i + dims], &expect[..], "{dims}D texel {x},{y},{z}");
                    i += dims;
                }
            }
        }
    }
}

#[test]
fn bake_curl_refuses_what_it_cannot_write() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 2] = [
        (&["-o", "c.r16"], "write it to .exr, .npy or a flow map PNG"),
        (&["--dims", "4", "-o", "c.npy"], "2D or 3D"),
    ];
    for (extra, message) in cases {
        let mut args = vec!["--size", "8", "--curl", "--backend", "cpu"];
        args.extend_from_slice(extra);
        assert_refused(dir.path(), &args, message);
    }
}

/// A component's 16-bit level over the flow map's default range [-8, 8], computed here
/// from the documented mapping (round(clamp((v + 8) / 16, 0, 1) · 65535)).
fn flow_level(v: f32) -> u16 {
    (((v as f64 + 8.0) / 16.0).clamp(0.0, 1.0) * 65535.0).round() as u16
}

#[test]
fn bake_curl_to_png_writes_an_rgb_flow_map() {
    let dir = tempfile::tempdir().unwrap();
    let lut = PermutationTables::new(5);
    let out = dir.path().join("flow.png");
    let stderr = bake_ok(
        dir.path(),
        &[
            "--size",
            "40x24",
            "--frequency",
            "3",
            "--seed",
            "5",
            "--curl",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert!(stderr.contains("16-bit RGB flow map PNG"), "{stderr}");
    let image = image::open(&out).unwrap();
    assert_eq!(image.color(), image::ColorType::Rgb16);
    let image = image.into_rgb16();
    let field = FlagField::new(NoiseKind::Simplex, &[40, 24]).with_frequency(&[3.0; 2]);
    let params = FillParams::new(&field, Slab::whole(&field));
    for y in 0..24 {
        for x in 0..40 {
            let p = wgpu_noise::cpu::fill::sample_point(&params, [x, y, 0, 0]);
            let c = curl2::<f32>(&lut, p[0], p[1]);
            let expect = [flow_level(c[0]), flow_level(c[1]), 0];
            assert_eq!(image.get_pixel(x, y).0, expect, "texel {x},{y}");
        }
    }
    // 3D: three components, the slices side by side as in every 3D PNG bake.
    let out3 = dir.path().join("flow3.png");
    bake_ok(
        dir.path(),
        &[
            "--dims",
            "3",
            "--size",
            "12x10x4",
            "--curl",
            "--bits",
            "8",
            "-o",
            out3.to_str().unwrap(),
        ],
    );
    let image = image::open(&out3).unwrap();
    assert_eq!(image.color(), image::ColorType::Rgb8);
    assert_eq!(image.width() as u64 * image.height() as u64, 12 * 10 * 4);
}

#[test]
fn bake_curl_on_the_gpu_writes_what_the_cpu_writes_on_every_backend_and_verifies() {
    if crate::common::gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (backend, env) in [("vulkan", "vulkan"), ("gl", "gl")] {
        for (dims, size, shape) in [
            (2usize, "40x24", vec![24usize, 40, 2]),
            (3, "12x10x6", vec![6, 10, 12, 3]),
        ] {
            let dims_arg = dims.to_string();
            let common = [
                "--dims",
                &dims_arg,
                "--size",
                size,
                "--frequency",
                "3",
                "--seed",
                "5",
                "--lookup",
                "hash",
                "--curl",
                "--force",
            ];
            let run = |source: &str, file: &str, extra: &[&str]| {
                let mut args = common.to_vec();
                args.extend(["--backend", source, "-o", file]);
                args.extend_from_slice(extra);
                let out = crate::bake_support::bake_in(dir.path(), &args, &[("WGPU_BACKEND", env)]);
                let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
                let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
                (out.status.success(), stderr + &stdout)
            };
            let (ok, stderr) = run("gpu", "gpu.npy", &["--verify"]);
            if !ok && backend == "gl" && std::env::var_os("WGPU_NOISE_REQUIRE_GPU").is_none() {
                eprintln!("SKIPPED {backend}: {stderr}");
                continue;
            }
            assert!(ok, "{backend} {dims}D: {stderr}");
            assert!(
                stderr.contains("gpu ("),
                "{backend} {dims}D ran on the GPU: {stderr}"
            );
            // Every component compared with the CPU's, under the gradient channels' tolerance.
            assert!(
                stderr.contains("verify: max abs error") && stderr.contains("; 0 of "),
                "{backend} {dims}D: {stderr}"
            );
            let (ok, stderr) = run("cpu", "cpu.npy", &[]);
            assert!(ok, "{stderr}");
            let gpu = read_npy(&dir.path().join("gpu.npy"), &shape);
            let cpu = read_npy(&dir.path().join("cpu.npy"), &shape);
            let err = crate::bake_support::max_abs_diff(&gpu, &cpu);
            eprintln!("bake --curl {backend} {dims}D: max |gpu - cpu| = {err:e}");
            // The verification's default for curl: the gradient channels' tolerance.
            assert!(err <= 1e-4, "{backend} {dims}D: {err:e}");
        }
    }
}
