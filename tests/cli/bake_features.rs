//! `wgpu-noise bake` beyond the plain noise: fractal sums, tileable textures, value +
//! gradient files, normal maps, the hash lookup variant, the kernel option — and the
//! one-line refusals of combinations that do not exist.
//!
//! Every bake runs on the CPU backend (the `f32` reference itself: compared exactly) and,
//! when there is an adapter, on the GPU (compared within the parity tolerances below).
//! Each test prints the figures it measures.

use crate::bake_support;
use crate::common;

use std::path::Path;

use bake_support::{assert_refused, bake_in, bake_ok, listing, read_npy, scratch_dir, Faulty};
use wgpu_noise::bake::{self, BakeOptions, Encoding, FileFormat, NoiseSpec};
use wgpu_noise::cpu::fill::{fill_slab_gradient, generate_f32};
use wgpu_noise::cpu::IntegerHasher;
use wgpu_noise::field::{FlagField, Fractal, FractalMode, Kernel};
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::ramp::ColourRamp;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::{FieldOutput, NoiseKind};

/// GPU vs CPU parity on values: the documented 1e-5 (measured on lavapipe: 0 for classic,
/// ≤ 2.4e-7 for simplex); simplex 3D/4D values get 2e-3 (isolated r² = 0.6 boundary
/// jumps on other GPUs, design notes §3), tileable simplex 4e-3 (`bake::TILEABLE_SIMPLEX_TOLERANCE`,
/// measured up to 1.7e-3: cos/sin of the torus mapping round differently on the GPU).
fn value_tolerance(kind: NoiseKind, dims: usize, tileable: bool) -> f32 {
    match (kind, dims, tileable) {
        (NoiseKind::Simplex, 2, true) => wgpu_noise::bake::TILEABLE_SIMPLEX_TOLERANCE,
        (NoiseKind::Simplex, d, _) if d > 2 => 2e-3,
        _ => 1e-5,
    }
}

/// Gradient channels: 10 × the value tolerance (derivatives reach ~10 per noise unit
/// where values reach 1; measured max |gpu − cpu| on lavapipe: 1.9e-6).
const GRADIENT_TOLERANCE: f32 = 1e-4;

/// The backends to try: the CPU always, the GPU when there is one.
fn backends() -> Vec<&'static str> {
    let mut v = vec!["cpu"];
    if common::gpu().is_some() {
        v.push("gpu");
    }
    v
}

fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(
            0.0,
            |m, d| if d.is_nan() { f32::INFINITY } else { m.max(d) },
        )
}

fn join(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join("x")
}

fn shape(size: &[u32]) -> Vec<usize> {
    size.iter().rev().map(|&s| s as usize).collect()
}

/// The CPU mirror's `[value, ∂/∂x, ∂/∂y, ∂/∂z]` of a whole gradient field.
fn gradient_reference(field: &FlagField, seed: u64) -> Vec<[f32; 4]> {
    field.check_gradient().unwrap();
    let params = FillParams::new(field, Slab::whole(field));
    let mut out = vec![[0.0f32; 4]; params.len()];
    fill_slab_gradient(&PermutationTables::new(seed), field.dims, &params, &mut out);
    out
}

#[test]
fn fractal_bakes_equal_the_cpu_reference_for_every_mode() {
    let dir = tempfile::tempdir().unwrap();
    for (mode, name) in [
        (FractalMode::Fbm, "fbm"),
        (FractalMode::Turbulence, "turbulence"),
        (FractalMode::Ridged, "ridged"),
    ] {
        for kind in NoiseKind::ALL {
            for size in [vec![45u32, 31], vec![13, 11, 9]] {
                let dims = size.len();
                let fractal = Fractal {
                    mode,
                    octaves: 5,
                    lacunarity: 2.5,
                    gain: 0.4,
                };
                let field = FlagField::new(kind, &size)
                    .with_frequency(&[3.0; 4][..dims])
                    .with_offset(&[1.5, -2.25, 7.0][..dims])
                    .with_fractal(fractal);
                let expected = generate_f32(&PermutationTables::new(9), &field).unwrap();
                for backend in backends() {
                    let (d, s) = (dims.to_string(), join(&size));
                    let args = [
                        "--noise",
                        kind.name(),
                        "--dims",
                        &d,
                        "--size",
                        &s,
                        "--frequency",
                        "3",
                        "--offset",
                        if dims == 2 {
                            "1.5,-2.25"
                        } else {
                            "1.5,-2.25,7"
                        },
                        "--seed",
                        "9",
                        "--octaves",
                        "5",
                        "--lacunarity",
                        "2.5",
                        "--gain",
                        "0.4",
                        "--fractal",
                        name,
                        "--backend",
                        backend,
                        "--force",
                        "-o",
                        "f.npy",
                    ];
                    bake_ok(dir.path(), &args);
                    let baked = read_npy(&dir.path().join("f.npy"), &shape(&size));
                    let error = max_abs_diff(&baked, &expected);
                    eprintln!("FRACTAL {name} {kind} {dims}D {backend}: max |bake - cpu reference| = {error:e}");
                    if backend == "cpu" {
                        assert_eq!(baked, expected, "the CPU backend is the reference itself");
                    } else {
                        assert!(
                            error <= value_tolerance(kind, dims, false),
                            "{name} {kind} {dims}D: {error:e}"
                        );
                    }
                }
                // 5 octaves at gain 0.4 differ from the plain noise: the flags reach the generator.
                let plain = generate_f32(
                    &PermutationTables::new(9),
                    &FlagField {
                        fractal: Fractal::default(),
                        ..field.clone()
                    },
                )
                .unwrap();
                assert!(
                    max_abs_diff(&plain, &expected) > 0.05,
                    "{name}: octaves must change the values"
                );
            }
        }
    }
}

#[test]
fn turbulence_and_ridged_pngs_map_the_range_0_to_1_by_default() {
    let dir = tempfile::tempdir().unwrap();
    for mode in ["turbulence", "ridged"] {
        let file = format!("{mode}.png");
        bake_ok(
            dir.path(),
            &[
                "--size",
                "32x24",
                "--frequency",
                "3",
                "--octaves",
                "4",
                "--fractal",
                mode,
                "--backend",
                "cpu",
                "-o",
                &file,
            ],
        );
        let mode_enum = if mode == "ridged" {
            FractalMode::Ridged
        } else {
            FractalMode::Turbulence
        };
        let field = FlagField::new(NoiseKind::Simplex, &[32, 24])
            .with_frequency(&[3.0, 3.0])
            .with_fractal(Fractal {
                mode: mode_enum,
                octaves: 4,
                ..Fractal::default()
            });
        let expected = generate_f32(&PermutationTables::new(0), &field).unwrap();
        let image = image::open(dir.path().join(&file)).unwrap().into_luma16();
        // Level p stands for p / 65535: half a level of quantisation error at most.
        let worst = image
            .pixels()
            .zip(&expected)
            .map(|(p, v)| (p.0[0] as f32 / 65535.0 - v).abs())
            .fold(0.0, f32::max);
        eprintln!(
            "{mode}: values in [{}, {}], max |level/65535 - value| = {worst:e}",
            expected.iter().cloned().fold(1.0, f32::min),
            expected.iter().cloned().fold(0.0, f32::max)
        );
        assert!(worst <= 0.5 / 65535.0 + 1e-7, "{mode}: {worst:e}");
    }
}

/// The largest jump across the wrap edges (last column → first, last row → first) and the
/// largest step between neighbours inside, of a `w × h` image (row-major).
fn seam_and_inner_step(v: &[f32], w: usize, h: usize) -> (f32, f32) {
    let at = |x: usize, y: usize| v[y * w + x];
    let (mut seam, mut inner) = (0.0f32, 0.0f32);
    for y in 0..h {
        for x in 0..w {
            if x + 1 < w {
                inner = inner.max((at(x + 1, y) - at(x, y)).abs());
            }
            if y + 1 < h {
                inner = inner.max((at(x, y + 1) - at(x, y)).abs());
            }
        }
        seam = seam.max((at(0, y) - at(w - 1, y)).abs());
    }
    for x in 0..w {
        seam = seam.max((at(x, 0) - at(x, h - 1)).abs());
    }
    (seam, inner)
}

/// A ramped PNG is the ramp's colour of each texel's place in the range: the place read
/// from the 16-bit grayscale bake of the same field (within half a level of 65535, so the
/// colour within one level), in every texel; `--ramp gray` is the grayscale PNG itself.
#[test]
fn a_ramp_png_holds_the_ramps_colour_of_each_texels_gray_level() {
    let dir = tempfile::tempdir().unwrap();
    let field = [
        "--backend",
        "cpu",
        "--size",
        "96x64",
        "--frequency",
        "5",
        "--octaves",
        "3",
    ];
    bake_ok(dir.path(), &[&field[..], &["-o", "gray16.png"]].concat());
    let gray = image::open(dir.path().join("gray16.png"))
        .unwrap()
        .into_luma16();
    for ramp in ColourRamp::ALL {
        let name = format!("{}.png", ramp.name());
        let args = [
            &field[..],
            &["--ramp", ramp.name(), "--bits", "8", "-o", &name],
        ]
        .concat();
        bake_ok(dir.path(), &args);
        let picture = image::open(dir.path().join(&name)).unwrap();
        if ramp == ColourRamp::Gray {
            assert!(
                matches!(picture, image::DynamicImage::ImageLuma8(_)),
                "gray: grayscale"
            );
            continue;
        }
        let rgb = picture.as_rgb8().expect("an RGB PNG").clone();
        assert_eq!(rgb.dimensions(), gray.dimensions());
        let mut worst = 0;
        for (level, colour) in gray.pixels().zip(rgb.pixels()) {
            let expected = ramp.rgb8(f32::from(level.0[0]) / 65535.0);
            for (e, c) in expected.iter().zip(colour.0) {
                worst = worst.max(e.abs_diff(c));
            }
        }
        eprintln!("{}: worst channel difference {worst}", ramp.name());
        assert!(worst <= 1, "{}: {worst} levels off", ramp.name());
    }
    let plain = std::fs::read(dir.path().join("gray16.png")).unwrap();
    bake_ok(
        dir.path(),
        &[&field[..], &["--ramp", "gray", "-o", "g.png"]].concat(),
    );
    assert_eq!(std::fs::read(dir.path().join("g.png")).unwrap(), plain);
}

/// Tileable bakes of classic and simplex noise (one octave and four) and of the
/// SuperSimplex fBm graph (`examples/graphs/supersimplex.json`, on a torus as simplex's),
/// on every backend: the wrap edge is just another neighbour step, and untiled it is not.
#[test]
fn tileable_bakes_join_seamlessly_at_opposite_edges_and_untiled_ones_do_not() {
    let dir = tempfile::tempdir().unwrap();
    let (w, h) = (128usize, 96usize);
    let supersimplex = format!(
        "{}/examples/graphs/supersimplex.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut sources: Vec<(String, Vec<&str>)> = vec![];
    for kind in NoiseKind::ALL {
        for octaves in ["1", "4"] {
            sources.push((
                format!("{kind} {octaves} octave(s)"),
                vec!["--noise", kind.name(), "--octaves", octaves],
            ));
        }
    }
    sources.push((
        "supersimplex fBm graph".into(),
        vec!["--graph", &supersimplex],
    ));
    for (name, source) in &sources {
        for backend in backends() {
            let base = [
                &source[..],
                &[
                    "--size",
                    "128x96",
                    "--frequency",
                    "6,4",
                    "--offset",
                    "-3,1000",
                    "--backend",
                    backend,
                    "--force",
                ],
            ]
            .concat();
            let mut tiled_args = base.to_vec();
            tiled_args.extend(["--tileable", "--verify", "-o", "tiled.npy"]);
            bake_ok(dir.path(), &tiled_args);
            let mut plain_args = base.to_vec();
            plain_args.extend(["-o", "plain.npy"]);
            bake_ok(dir.path(), &plain_args);
            let tiled = read_npy(&dir.path().join("tiled.npy"), &[h, w]);
            let plain = read_npy(&dir.path().join("plain.npy"), &[h, w]);
            let (seam, inner) = seam_and_inner_step(&tiled, w, h);
            let (plain_seam, plain_inner) = seam_and_inner_step(&plain, w, h);
            eprintln!(
                "TILE {name} {backend}: wrap jump {seam:.4} vs largest inner step {inner:.4} \
                 (ratio {:.2}); untiled: wrap jump {plain_seam:.4} vs {plain_inner:.4} (ratio {:.2})",
                seam / inner,
                plain_seam / plain_inner
            );
            // The wrap edge is just another neighbour step: no larger than the largest inside.
            assert!(
                seam <= inner,
                "{name}: a seam of {seam} against inner steps ≤ {inner}"
            );
            assert!(
                plain_seam > 2.0 * plain_inner,
                "{name}: untiled noise must show its seam"
            );
        }
    }
}

#[test]
fn gradient_exr_and_npy_read_back_equal_the_cpu_mirror() {
    let dir = tempfile::tempdir().unwrap();
    for size in [vec![40u32, 28], vec![12, 10, 6]] {
        let dims = size.len();
        let fractal = Fractal {
            octaves: 3,
            ..Fractal::default()
        };
        let field = FlagField::new(NoiseKind::Simplex, &size)
            .with_frequency(&[4.0; 4][..dims])
            .with_offset(&[0.5, -1.0, 2.0][..dims])
            .with_fractal(fractal);
        let expected = gradient_reference(&field, 5);
        let largest = expected
            .iter()
            .flat_map(|t| t[1..].iter())
            .fold(0.0f32, |m, g| m.max(g.abs()));
        eprintln!("GRADIENT {dims}D: largest |derivative| {largest:.2}");
        // 2D: ∂/∂z is 0, and the derivatives are far from 0 (the test has teeth).
        assert!(largest > 1.0);
        if dims == 2 {
            assert!(expected.iter().all(|t| t[3] == 0.0));
        }
        for backend in backends() {
            let (d, s) = (dims.to_string(), join(&size));
            let offset = if dims == 2 { "0.5,-1" } else { "0.5,-1,2" };
            let common_args = [
                "--dims",
                &d,
                "--size",
                &s,
                "--frequency",
                "4",
                "--offset",
                offset,
                "--seed",
                "5",
                "--octaves",
                "3",
                "--gradient",
                "--verify",
                "--backend",
                backend,
                "--force",
            ];
            for file in ["g.npy", "g.exr"] {
                let mut args = common_args.to_vec();
                args.extend(["-o", file]);
                let stdout = {
                    let out = bake_in(dir.path(), &args, &[]);
                    assert!(
                        out.status.success(),
                        "{args:?}: {}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                    String::from_utf8_lossy(&out.stdout).into_owned()
                };
                assert!(
                    stdout.contains("of the gradient") && stdout.contains("/ 1e-4 (gradient)"),
                    "{stdout}"
                );
            }
            let mut npy_shape = shape(&size);
            npy_shape.push(4);
            let npy = read_npy(&dir.path().join("g.npy"), &npy_shape);
            let (exr_w, exr_names, exr) = read_exr_rgba(&dir.path().join("g.exr"));
            assert_eq!(
                exr_names,
                ["A", "B", "G", "R"],
                "four channels, stored sorted by name"
            );
            // The EXR is the slice atlas (3D: 6 slices, 3 columns); back to memory order.
            let (nx, ny) = (size[0] as usize, size[1] as usize);
            let columns = if dims == 2 { 1 } else { 3 };
            let mut from_exr = Vec::with_capacity(expected.len() * 4);
            for i in 0..expected.len() {
                let (x, y, z) = (i % nx, (i / nx) % ny, i / (nx * ny));
                let (px, py) = ((z % columns) * nx + x, (z / columns) * ny + y);
                from_exr.extend(exr.iter().map(|channel| channel[py * exr_w + px]));
            }
            let flat: Vec<f32> = expected.iter().flatten().copied().collect();
            for (what, got) in [("npy", &npy), ("exr", &from_exr)] {
                let value_error = max_abs_diff(
                    &got.iter().step_by(4).copied().collect::<Vec<_>>(),
                    &flat.iter().step_by(4).copied().collect::<Vec<_>>(),
                );
                let gradient_error = (1..4)
                    .map(|c| {
                        max_abs_diff(
                            &got.iter().skip(c).step_by(4).copied().collect::<Vec<_>>(),
                            &flat.iter().skip(c).step_by(4).copied().collect::<Vec<_>>(),
                        )
                    })
                    .fold(0.0, f32::max);
                eprintln!("GRADIENT {dims}D {backend} {what}: max error value {value_error:e}, derivatives {gradient_error:e}");
                if backend == "cpu" {
                    assert_eq!(got, &flat, "{what}: the CPU backend is the mirror itself");
                } else {
                    assert!(
                        value_error <= value_tolerance(NoiseKind::Simplex, dims, false)
                            && gradient_error <= GRADIENT_TOLERANCE
                    );
                }
            }
        }
    }
}

/// (width, channel names in file order, one Vec per channel in the order R, G, B, A).
fn read_exr_rgba(path: &Path) -> (usize, Vec<String>, Vec<Vec<f32>>) {
    let image =
        exr::prelude::read_first_flat_layer_from_file(path).expect("a readable OpenEXR file");
    let layer = &image.layer_data;
    let names: Vec<String> = layer
        .channel_data
        .list
        .iter()
        .map(|c| c.name.to_string())
        .collect();
    let channel = |name: &str| {
        let c = layer
            .channel_data
            .list
            .iter()
            .find(|c| c.name.to_string() == name)
            .expect(name);
        match &c.sample_data {
            exr::prelude::FlatSamples::F32(v) => v.clone(),
            other => panic!("expected f32 samples, got {other:?}"),
        }
    };
    let channels = ["R", "G", "B", "A"].map(channel).to_vec();
    (layer.size.0, names, channels)
}

#[test]
fn gradient_exr_opens_as_rgba_in_the_image_crate_with_red_the_value() {
    let dir = tempfile::tempdir().unwrap();
    bake_ok(
        dir.path(),
        &[
            "--size",
            "16x8",
            "--frequency",
            "2",
            "--gradient",
            "--backend",
            "cpu",
            "-o",
            "g.exr",
        ],
    );
    let field = FlagField::new(NoiseKind::Simplex, &[16, 8]).with_frequency(&[2.0, 2.0]);
    let expected = gradient_reference(&field, 0);
    let image = image::open(dir.path().join("g.exr"))
        .expect("image reads RGBA EXR")
        .into_rgba32f();
    let got: Vec<[f32; 4]> = image.pixels().map(|p| p.0).collect();
    assert_eq!(got, expected, "R, G, B, A = value, d/dx, d/dy, d/dz");
}

#[test]
fn normal_map_decodes_to_unit_normals_consistent_with_the_gradient() {
    let dir = tempfile::tempdir().unwrap();
    let (w, h) = (64usize, 48usize);
    let strength = 12.0f64;
    let field = FlagField::new(NoiseKind::Simplex, &[w as u32, h as u32])
        .with_frequency(&[2.0, 1.5])
        .with_fractal(Fractal {
            octaves: 2,
            ..Fractal::default()
        });
    let expected = gradient_reference(&field, 2);
    let values: Vec<f32> = expected.iter().map(|t| t[0]).collect();
    let step = field.step();
    for backend in backends() {
        bake_ok(
            dir.path(),
            &[
                "--size",
                "64x48",
                "--frequency",
                "2,1.5",
                "--seed",
                "2",
                "--octaves",
                "2",
                "--normal-map",
                "--normal-strength",
                "12",
                "--verify",
                "--backend",
                backend,
                "--force",
                "-o",
                "n.png",
            ],
        );
        let image = image::open(dir.path().join("n.png")).unwrap();
        assert_eq!(
            image.color(),
            image::ColorType::Rgb16,
            "16-bit RGB by default"
        );
        let image = image.into_rgb16();
        let (mut worst_length, mut worst_analytic) = (0.0f64, 0.0f64);
        // cos(angle) to the finite-difference normal, in the stated convention and (to show
        // the check can tell them apart) with Y flipped (the DirectX convention).
        let (mut min_cos, mut sum_cos, mut min_cos_flipped, mut count) =
            (1.0f64, 0.0f64, 1.0f64, 0usize);
        for (i, p) in image.pixels().enumerate() {
            let n = p.0.map(|c| c as f64 / 65535.0 * 2.0 - 1.0);
            let length = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            worst_length = worst_length.max((length - 1.0).abs());
            // Analytic: per-texel derivatives = noise-space derivative × step; +Y up flips y.
            let g = expected[i];
            let (dx, dy) = (
                strength * g[1] as f64 * step[0],
                strength * g[2] as f64 * step[1],
            );
            let m = [-dx, dy, 1.0];
            let ml = (m[0] * m[0] + m[1] * m[1] + 1.0).sqrt();
            worst_analytic =
                worst_analytic.max((0..3).map(|c| (n[c] - m[c] / ml).abs()).fold(0.0, f64::max));
            // Independent check of the convention: central differences of the value channel
            // (x right, rows down; the normal's +Y points up, towards row 0).
            let (x, y) = (i % w, i / w);
            if x > 0 && x + 1 < w && y > 0 && y + 1 < h {
                let fdx = (values[i + 1] - values[i - 1]) as f64 / 2.0 * strength;
                let fdy_down = (values[i + w] - values[i - w]) as f64 / 2.0 * strength;
                let cos = |f: [f64; 3]| {
                    let fl = (f[0] * f[0] + f[1] * f[1] + 1.0).sqrt();
                    (0..3).map(|c| n[c] * f[c] / fl).sum::<f64>() / length
                };
                let c = cos([-fdx, fdy_down, 1.0]);
                min_cos = min_cos.min(c);
                sum_cos += c;
                count += 1;
                min_cos_flipped = min_cos_flipped.min(cos([-fdx, -fdy_down, 1.0]));
            }
        }
        let mean_cos = sum_cos / count as f64;
        eprintln!(
            "NORMAL MAP {backend}: max ||n| - 1| = {worst_length:e}, max |n - analytic| = {worst_analytic:e}; \
             cos(angle to the central-difference normal): mean {mean_cos:.6}, min {min_cos:.4} \
             (with Y flipped: min {min_cos_flipped:.4})"
        );
        // 16-bit quantisation: level/65535·2 − 1 puts each component within 1/65535 =
        // 1.53e-5 of the true one, so |n| within √3 · 1.53e-5 = 2.6e-5 of 1 (measured 2.4e-5).
        assert!(
            worst_length <= 2.7e-5,
            "unit length within quantisation: {worst_length:e}"
        );
        // Plus the GPU's gradient differences (≤ 2e-6 × step × strength): 2e-5.
        assert!(worst_analytic <= 2e-5, "{worst_analytic:e}");
        // Central differences over one texel err by O(curvature × texel²); at this low
        // frequency (≥ 16 texels per cell) the angle is measured at 0.95° on average, 2.6°
        // at worst (cos 0.99986 / 0.9990). With Y flipped the worst texel points elsewhere
        // entirely (measured cos −0.65).
        assert!(
            mean_cos > 0.9995 && min_cos > 0.995,
            "mean {mean_cos}, min {min_cos}"
        );
        assert!(
            min_cos_flipped < 0.9,
            "the check must distinguish the conventions: {min_cos_flipped}"
        );
    }
}

#[test]
fn hash_lookup_bakes_equal_the_hash_lookup_cpu_values() {
    let dir = tempfile::tempdir().unwrap();
    for kind in NoiseKind::ALL {
        for size in [vec![33u32, 17], vec![9, 8, 7], vec![6, 5, 4, 3]] {
            let dims = size.len();
            let field = FlagField::new(kind, &size)
                .with_frequency(&[3.5; 4][..dims])
                .with_fractal(Fractal {
                    octaves: 2,
                    ..Fractal::default()
                });
            let expected = generate_f32(&IntegerHasher::new(21), &field).unwrap();
            let textures = generate_f32(&PermutationTables::new(21), &field).unwrap();
            assert!(
                max_abs_diff(&expected, &textures) > 0.05,
                "the hash variant is another pattern"
            );
            for backend in backends() {
                let (d, s) = (dims.to_string(), join(&size));
                bake_ok(
                    dir.path(),
                    &[
                        "--noise",
                        kind.name(),
                        "--dims",
                        &d,
                        "--size",
                        &s,
                        "--frequency",
                        "3.5",
                        "--octaves",
                        "2",
                        "--seed",
                        "21",
                        "--lookup",
                        "hash",
                        "--verify",
                        "--backend",
                        backend,
                        "--force",
                        "-o",
                        "h.npy",
                    ],
                );
                let baked = read_npy(&dir.path().join("h.npy"), &shape(&size));
                let error = max_abs_diff(&baked, &expected);
                eprintln!(
                    "HASH {kind} {dims}D {backend}: max |bake - IntegerHasher cpu| = {error:e}"
                );
                if backend == "cpu" {
                    assert_eq!(baked, expected);
                } else {
                    assert!(error <= value_tolerance(kind, dims, false), "{error:e}");
                }
            }
        }
    }
}

#[test]
fn the_kernel_option_reaches_simplex_3d_and_4d_bakes() {
    let dir = tempfile::tempdir().unwrap();
    for size in [vec![12u32, 10, 8], vec![6, 5, 4, 3]] {
        let dims = size.len();
        let field = FlagField::new(NoiseKind::Simplex, &size).with_frequency(&[2.5; 4][..dims]);
        let continuous = generate_f32(
            &PermutationTables::new(0),
            &field.clone().with_kernel(Kernel::Continuous),
        )
        .unwrap();
        let reference = generate_f32(&PermutationTables::new(0), &field).unwrap();
        assert!(
            max_abs_diff(&continuous, &reference) > 0.01,
            "the kernels differ"
        );
        for backend in backends() {
            let (d, s) = (dims.to_string(), join(&size));
            bake_ok(
                dir.path(),
                &[
                    "--dims",
                    &d,
                    "--size",
                    &s,
                    "--frequency",
                    "2.5",
                    "--kernel",
                    "continuous",
                    "--verify",
                    "--backend",
                    backend,
                    "--force",
                    "-o",
                    "k.npy",
                ],
            );
            let baked = read_npy(&dir.path().join("k.npy"), &shape(&size));
            let error = max_abs_diff(&baked, &continuous);
            eprintln!("KERNEL continuous {dims}D {backend}: max |bake - cpu| = {error:e}");
            assert!(
                error <= value_tolerance(NoiseKind::Simplex, dims, false),
                "{error:e}"
            );
        }
    }
}

#[test]
fn verify_checks_gradient_channels_at_ten_times_the_value_tolerance() {
    let dir = tempfile::tempdir().unwrap();
    let spec = NoiseSpec::of_flags(
        &FlagField::new(NoiseKind::Simplex, &[16, 12]).with_frequency(&[3.0, 3.0]),
        FieldOutput::Gradient,
        0,
    )
    .unwrap();
    // Float 4·(16·5 + 7) + 2 is ∂/∂y of texel (7, 5).
    let at = 4 * (16 * 5 + 7) + 2;
    let options = BakeOptions {
        verify: Some(1e-5),
        overwrite: true,
        ..BakeOptions::new(Encoding::default_for(FileFormat::Exr))
    };
    let path = dir.path().join("g.exr");
    // 2e-4 on a derivative: over its 1e-4 (though 20 × the value tolerance): refused.
    let err = bake::bake(
        &spec,
        &mut Faulty::new(at, 2e-4),
        &path,
        &options,
        &mut |_, _| {},
    )
    .unwrap_err()
    .to_string();
    eprintln!("VERIFY gradient off by 2e-4: {err}");
    assert!(
        err.contains("1 of 192 samples over the tolerance 1e-5 (value) / 1e-4 (gradient)"),
        "{err}"
    );
    assert!(listing(dir.path()).is_empty());
    // 5e-5 on a derivative: within 1e-4, passes and is reported.
    let report = bake::bake(
        &spec,
        &mut Faulty::new(at, 5e-5),
        &path,
        &options,
        &mut |_, _| {},
    )
    .unwrap();
    let v = report.verify.unwrap();
    assert!(v.passed() && v.max_abs_error == 0.0, "{v:?}");
    let g = v.max_gradient_error.unwrap();
    assert!((g - 5e-5).abs() < 1e-6, "{g:e}");
    // The same 5e-5 on the value channel (float 0 of a texel) is over the value tolerance.
    let err = bake::bake(
        &spec,
        &mut Faulty::new(at - 2, 5e-5),
        &path,
        &options,
        &mut |_, _| {},
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("(at x=7 y=5 z=0 w=0)") && err.contains("1 of 192 samples over"),
        "{err}"
    );
}

#[test]
fn combinations_that_do_not_exist_are_one_line_errors_and_leave_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let s = ["--size", "8x8"];
    let s3 = ["--dims", "3", "--size", "8"];
    let s4 = ["--dims", "4", "--size", "8"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            [&s4[..], &["--tileable", "-o", "x.png"]].concat(),
            "tileable simplex noise is 2D or 3D",
        ),
        (
            [
                &s[..],
                &[
                    "--noise",
                    "classic",
                    "--tileable",
                    "--frequency",
                    "2.5",
                    "-o",
                    "x.png",
                ],
            ]
            .concat(),
            "whole-number frequency from 1 to 16777216 along x",
        ),
        (
            [&s[..], &["--gradient", "-o", "x.png"]].concat(),
            "--gradient: a grayscale PNG holds one value per texel",
        ),
        (
            [&s[..], &["--normal-map", "-o", "x.exr"]].concat(),
            "--normal-map writes a PNG",
        ),
        (
            [&s3[..], &["--normal-map", "-o", "x.png"]].concat(),
            "a normal map is a 2D image",
        ),
        (
            [&s[..], &["--normal-strength", "2", "-o", "x.png"]].concat(),
            "--normal-strength applies to --normal-map only",
        ),
        (
            [
                &s[..],
                &["--normal-map", "--normal-strength", "-1", "-o", "x.png"],
            ]
            .concat(),
            "must be ≥ 0",
        ),
        (
            [&s[..], &["--normal-map", "--range", "0,1", "-o", "x.png"]].concat(),
            "--range does not apply to --normal-map",
        ),
        (
            [&s[..], &["--ramp", "terrain", "-o", "x.exr"]].concat(),
            "--ramp terrain: colour ramps are for PNGs of the value (not .exr)",
        ),
        (
            [&s[..], &["--ramp", "magma", "--curl", "-o", "x.png"]].concat(),
            "--ramp magma: colour ramps are for PNGs of the value (not --curl",
        ),
        (
            [
                &s[..],
                &["--ramp", "viridis", "--normal-map", "-o", "x.png"],
            ]
            .concat(),
            "(not --normal-map)",
        ),
        (
            [&s[..], &["--ramp", "rainbow", "-o", "x.png"]].concat(),
            "invalid value 'rainbow' for '--ramp <RAMP>'",
        ),
        (
            [&s[..], &["--kernel", "continuous", "-o", "x.npy"]].concat(),
            "the continuous kernel applies to simplex noise in 3D and 4D only",
        ),
        (
            [
                &s3[..],
                &[
                    "--noise",
                    "classic",
                    "--kernel",
                    "continuous",
                    "-o",
                    "x.npy",
                ],
            ]
            .concat(),
            "the continuous kernel applies to simplex",
        ),
        (
            [&s[..], &["--octaves", "0", "-o", "x.npy"]].concat(),
            "octaves must be 1 to 16, not 0",
        ),
        (
            [&s[..], &["--octaves", "17", "-o", "x.npy"]].concat(),
            "octaves must be 1 to 16, not 17",
        ),
        (
            [&s[..], &["--octaves", "two", "-o", "x.npy"]].concat(),
            "--octaves two: not a whole number",
        ),
        (
            [&s[..], &["--lacunarity", "0", "-o", "x.npy"]].concat(),
            "lacunarity must be a positive number",
        ),
        (
            [&s[..], &["--lacunarity", "nan", "-o", "x.npy"]].concat(),
            "--lacunarity nan",
        ),
        (
            [&s[..], &["--gain", "inf", "-o", "x.npy"]].concat(),
            "--gain inf",
        ),
        (
            [
                &s[..],
                &[
                    "--noise",
                    "classic",
                    "--tileable",
                    "--octaves",
                    "3",
                    "--lacunarity",
                    "2.5",
                    "-o",
                    "x.npy",
                ],
            ]
            .concat(),
            "whole-number lacunarity",
        ),
    ];
    for (args, message) in &cases {
        assert_refused(d, args, message);
    }
    eprintln!(
        "{} invalid combinations refused with one line, no file left",
        cases.len()
    );
}

/// The pictures of the README's "Beyond the origin" section: file name and the exact
/// `wgpu-noise bake` arguments (before `-o docs/images/NAME`).
const PICTURES: &[(&str, &[&str])] = &[
    (
        "simplex.png",
        &["--size", "128", "--frequency", "4", "--bits", "8"],
    ),
    (
        "classic.png",
        &[
            "--noise",
            "classic",
            "--size",
            "128",
            "--frequency",
            "4",
            "--bits",
            "8",
        ],
    ),
    (
        "fbm.png",
        &[
            "--size",
            "128",
            "--frequency",
            "4",
            "--octaves",
            "6",
            "--bits",
            "8",
        ],
    ),
    (
        "turbulence.png",
        &[
            "--size",
            "128",
            "--frequency",
            "4",
            "--octaves",
            "6",
            "--fractal",
            "turbulence",
            "--bits",
            "8",
        ],
    ),
    (
        "ridged.png",
        &[
            "--size",
            "128",
            "--frequency",
            "4",
            "--octaves",
            "6",
            "--fractal",
            "ridged",
            "--bits",
            "8",
        ],
    ),
    (
        "tileable.png",
        &[
            "--size",
            "128",
            "--frequency",
            "3",
            "--octaves",
            "4",
            "--tileable",
            "--range=-0.6,0.6",
            "--bits",
            "8",
        ],
    ),
    (
        "normal_map.png",
        &[
            "--size",
            "128",
            "--frequency",
            "3",
            "--octaves",
            "3",
            "--normal-map",
            "--normal-strength",
            "8",
            "--bits",
            "8",
        ],
    ),
    (
        "kernel_reference.png",
        &[
            "--dims",
            "3",
            "--size",
            "128x128x1",
            "--frequency",
            "4,4,1",
            "--offset",
            "0,0,0.5",
            "--kernel",
            "reference",
            "--bits",
            "8",
        ],
    ),
    (
        "kernel_continuous.png",
        &[
            "--dims",
            "3",
            "--size",
            "128x128x1",
            "--frequency",
            "4,4,1",
            "--offset",
            "0,0,0.5",
            "--kernel",
            "continuous",
            "--bits",
            "8",
        ],
    ),
    (
        "hash_lookup.png",
        &[
            "--size",
            "128",
            "--frequency",
            "4",
            "--lookup",
            "hash",
            "--bits",
            "8",
        ],
    ),
];

/// Regenerates the README pictures (not a check; run on purpose):
/// `WGPU_NOISE_DOCS_IMAGES=$PWD/docs/images cargo test --test cli bake_features:: -- --ignored docs_pictures --nocapture`.
/// Every bake is `--verify`d; `tileable_2x2.png` is `tileable.png` repeated 2 × 2 with the
/// `image` crate, to show that the tile joins.
#[test]
#[ignore = "writes the README pictures into $WGPU_NOISE_DOCS_IMAGES"]
fn docs_pictures() {
    let Some(out) = std::env::var_os("WGPU_NOISE_DOCS_IMAGES") else {
        eprintln!("set WGPU_NOISE_DOCS_IMAGES to the directory to write into");
        return;
    };
    let out = Path::new(&out);
    std::fs::create_dir_all(out).unwrap();
    for (name, args) in PICTURES {
        let target = out.join(name);
        let target = target.to_str().unwrap();
        let mut full = args.to_vec();
        full.extend(["--verify", "--force", "-o", target]);
        let stderr = bake_ok(out, &full);
        let bytes = std::fs::metadata(target).unwrap().len();
        eprintln!(
            "{name} ({bytes} bytes): wgpu-noise bake {} -o docs/images/{name}\n  {}",
            args.join(" "),
            stderr.trim()
        );
        assert!(bytes < 100_000, "{name} is {bytes} bytes");
    }
    let tile = image::open(out.join("tileable.png")).unwrap().into_luma8();
    let (w, h) = tile.dimensions();
    let mut tiled = image::GrayImage::new(2 * w, 2 * h);
    for (x, y) in [(0, 0), (w, 0), (0, h), (w, h)] {
        image::imageops::replace(&mut tiled, &tile, x as i64, y as i64);
    }
    tiled.save(out.join("tileable_2x2.png")).unwrap();
    eprintln!(
        "tileable_2x2.png ({} bytes): tileable.png repeated 2 x 2",
        std::fs::metadata(out.join("tileable_2x2.png"))
            .unwrap()
            .len()
    );
}

/// Every picture docs/graphs.md and docs/noise-kinds.md show beside the `wgpu-noise bake`
/// command that made it: the command, run on the CPU (bit for bit on every machine: the
/// lanes are the scalar reference's bits; a `--backend gpu` picture's 8-bit levels are the
/// CPU's too), writes that picture's pixels.
#[test]
fn the_docs_pictures_are_what_their_commands_bake() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = scratch_dir("docs-pictures");
    let mut checked = 0;
    for doc in ["docs/graphs.md", "docs/noise-kinds.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        for row in text.lines().filter(|l| l.starts_with('|')) {
            let (Some(image), Some(command)) = (
                row.split("](images/")
                    .nth(1)
                    .and_then(|r| r.split(')').next()),
                row.split("`wgpu-noise bake ")
                    .nth(1)
                    .and_then(|r| r.split('`').next()),
            ) else {
                continue;
            };
            let mut args: Vec<String> = Vec::new();
            let mut words = command.split_whitespace();
            while let Some(word) = words.next() {
                match word {
                    "--backend" => {
                        words.next();
                    }
                    // Written into the scratch folder under its file name.
                    "-o" => {
                        let out = Path::new(words.next().expect("-o FILE"));
                        args.push("-o".into());
                        args.push(out.file_name().unwrap().to_string_lossy().into_owned());
                    }
                    w if w.starts_with("examples/") => {
                        args.push(root.join(w).to_string_lossy().into_owned())
                    }
                    w => args.push(w.into()),
                }
            }
            let out = args[args.iter().position(|a| a == "-o").expect("-o") + 1].clone();
            args.extend(["--backend", "cpu", "--force"].map(String::from));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            bake_ok(&dir, &args);
            // Pixels, not file bytes: the encoder's own chunks may change between versions.
            let pixels = |path: &Path| {
                let picture = image::open(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
                (picture.color(), picture.into_rgba16().into_raw())
            };
            assert!(
                pixels(&dir.join(&out)) == pixels(&root.join("docs/images").join(image)),
                "{doc}: images/{image} is not what `wgpu-noise bake {command}` writes"
            );
            checked += 1;
        }
    }
    println!("{checked} pictures of the docs baked by their commands");
    assert!(checked >= 45, "{checked} pictures found");
    let _ = std::fs::remove_dir_all(&dir);
}
