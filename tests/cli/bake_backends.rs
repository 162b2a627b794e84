//! The GPU and CPU backends of `bake` agree within the documented parity tolerance, the
//! CPU backend is deterministic to the byte, `auto` falls back to the CPU with a notice, and
//! `--verify` reports (and enforces) the comparison with the `f32` CPU reference.

use crate::bake_support;
use crate::common;

use std::path::Path;

use bake_support::{bake_in, bake_ok, listing, max_abs_diff, read_npy, reference, Faulty};
use wgpu_noise::bake::{
    self, BakeOptions, CpuSource, Encoding, FileFormat, GpuSource, NoiseSpec, SampleSource,
};
use wgpu_noise::field::FlagField;
use wgpu_noise::gpu::{GpuNoise, LookupVariant};
use wgpu_noise::{FieldOutput, NoiseError, NoiseKind};

/// The documented GPU/CPU parity tolerance (absolute). Measured on lavapipe (2026-11-22)
/// on these fields: 0 for classic noise, at most 1.8e-7 for simplex (one or two f32 ulps
/// near 1), so a real divergence (a wrong texel, a wrong slab offset: errors of 1e-2 and
/// up) cannot hide under it.
const PARITY: f32 = 1e-5;

fn cases() -> Vec<(NoiseKind, Vec<u32>)> {
    let mut v = Vec::new();
    for kind in NoiseKind::ALL {
        v.push((kind, vec![37, 21]));
        v.push((kind, vec![17, 9, 11]));
        v.push((kind, vec![9, 7, 5, 6]));
    }
    v
}

fn size_arg(size: &[u32]) -> String {
    size.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

fn shape(size: &[u32]) -> Vec<usize> {
    size.iter().rev().map(|&s| s as usize).collect()
}

#[test]
fn gpu_and_cpu_backends_write_the_same_values_within_the_parity_tolerance() {
    let Some(_ctx) = common::gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    for (kind, size) in cases() {
        let dims = size.len().to_string();
        let s = size_arg(&size);
        let common_args = [
            "--noise",
            kind.name(),
            "--dims",
            &dims,
            "--size",
            &s,
            "--frequency",
            "5.5",
            "--seed",
            "3",
        ];
        for backend in ["gpu", "cpu"] {
            let file = format!("{backend}.npy");
            let mut args = common_args.to_vec();
            args.extend(["--backend", backend, "--force", "-o", &file]);
            let stderr = bake_ok(dir.path(), &args);
            assert!(
                !stderr.contains("notice:"),
                "--backend {backend} must not fall back: {stderr}"
            );
        }
        let gpu = read_npy(&dir.path().join("gpu.npy"), &shape(&size));
        let cpu = read_npy(&dir.path().join("cpu.npy"), &shape(&size));
        let err = max_abs_diff(&gpu, &cpu);
        eprintln!("{kind} {}D: max |gpu - cpu| = {err:e}", size.len());
        assert!(
            err <= PARITY,
            "{kind} {size:?}: max abs difference {err:e} > {PARITY:e}"
        );
        let expected = reference(
            kind,
            &size,
            &[5.5; 4][..size.len()],
            &[0.0; 4][..size.len()],
            3,
        );
        assert_eq!(cpu, expected, "the CPU backend is the f32 reference");
    }
}

#[test]
fn gpu_bake_split_into_many_small_slabs_matches_the_whole_field() {
    let Some(ctx) = common::gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    for (kind, size) in cases() {
        let field = FlagField::new(kind, &size)
            .with_frequency(&[4.0, 3.0, 2.0, 1.5])
            .with_offset(&[0.5, -2.0, 9.0, 1.0]);
        let spec = NoiseSpec::of_flags(&field, FieldOutput::Value, 11).unwrap();
        // 4 KiB slabs: several slabs for every case here (one row or slice or volume each).
        let mut source = GpuSource::new(common::generator(&ctx, 0));
        source.generator_mut().options.slab_bytes = 4096;
        let path = dir.path().join("split.npy");
        let options = BakeOptions {
            overwrite: true,
            ..BakeOptions::new(Encoding::Npy)
        };
        let mut progress_calls = 0;
        let report = bake::bake(&spec, &mut source, &path, &options, &mut |done, total| {
            progress_calls += 1;
            assert!(done <= total);
        })
        .unwrap();
        assert!(
            progress_calls > 1,
            "{kind} {size:?}: expected several slabs, got {progress_calls}"
        );
        assert_eq!(report.samples, spec.field.len());
        let values = read_npy(&path, &shape(&size));
        let whole = GpuNoise::new(&ctx.device, &ctx.queue, 11)
            .unwrap()
            .generate(&field)
            .unwrap();
        assert_eq!(
            values, whole,
            "{kind} {size:?}: slabs must reassemble the field exactly"
        );
    }
}

#[test]
fn verify_prints_the_max_abs_error_and_the_count_over_tolerance_and_passes_on_the_gpu() {
    let Some(_ctx) = common::gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    let out = bake_in(
        dir.path(),
        &[
            "--dims",
            "3",
            "--size",
            "16x12x10",
            "--backend",
            "gpu",
            "--verify",
            "-o",
            "v.exr",
        ],
        &[],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("verify: "))
        .expect("a verify line on stdout");
    assert!(
        line.contains("max abs error ")
            && line.contains("0 of 1920 samples over the tolerance 1e-5"),
        "{line}"
    );
    assert_eq!(listing(dir.path()), ["v.exr"]);
}

#[test]
fn auto_backend_without_an_adapter_bakes_on_the_cpu_with_a_one_line_notice() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--dims", "3", "--size", "9x8x7", "--seed", "5"];
    // WGPU_BACKEND=webgpu: a backend native builds do not compile in, so no adapter exists.
    let auto = bake_in(
        dir.path(),
        &[&args[..], &["-o", "auto.npy"]].concat(),
        &[("WGPU_BACKEND", "webgpu")],
    );
    let stderr = String::from_utf8_lossy(&auto.stderr);
    assert!(auto.status.success(), "{stderr}");
    let notices: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("notice:"))
        .collect();
    assert_eq!(notices.len(), 1, "{stderr}");
    assert!(
        notices[0].contains("no GPU adapter") && notices[0].contains("CPU"),
        "{stderr}"
    );
    bake_ok(
        dir.path(),
        &[&args[..], &["--backend", "cpu", "-o", "cpu.npy"]].concat(),
    );
    assert_eq!(
        std::fs::read(dir.path().join("auto.npy")).unwrap(),
        std::fs::read(dir.path().join("cpu.npy")).unwrap()
    );

    // --backend gpu has no fallback: it fails, and writes nothing.
    let gpu = bake_in(
        dir.path(),
        &[&args[..], &["--backend", "gpu", "-o", "gpu.npy"]].concat(),
        &[("WGPU_BACKEND", "webgpu")],
    );
    assert_eq!(gpu.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&gpu.stderr)
        .starts_with("error: --backend gpu: no GPU adapter available"));
    assert_eq!(listing(dir.path()), ["auto.npy", "cpu.npy"]);
}

#[test]
fn a_field_beyond_the_device_texture_limit_falls_back_to_the_cpu_under_auto_and_fails_under_gpu() {
    let Some(ctx) = common::gpu() else { return };
    let limit = ctx.device.limits().max_texture_dimension_3d;
    if limit >= wgpu_noise::field::MAX_AXIS_SIZE {
        eprintln!("SKIPPED: this device's 3D texture limit ({limit}) is beyond the largest field");
        return;
    }
    drop(ctx);
    let dir = tempfile::tempdir().unwrap();
    let size = format!("{}x2x1", limit + 1);
    let args = ["--dims", "3", "--size", &size];
    let out = bake_in(dir.path(), &[&args[..], &["-o", "auto.npy"]].concat(), &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // Under auto a software adapter is passed over before its limits matter
    // (tests/cli/backend_choice.rs).
    let first = stderr.lines().next().unwrap();
    assert!(
        first.starts_with(
            "notice: the GPU cannot bake this: size along x (max_texture_dimension_3d)"
        ) || first.contains("is a software rasteriser"),
        "{stderr}"
    );
    let expected = reference(
        NoiseKind::Simplex,
        &[limit + 1, 2, 1],
        &[8.0; 3],
        &[0.0; 3],
        0,
    );
    assert_eq!(
        read_npy(&dir.path().join("auto.npy"), &[1, 2, limit as usize + 1]),
        expected
    );

    let gpu = bake_in(
        dir.path(),
        &[&args[..], &["--backend", "gpu", "-o", "gpu.npy"]].concat(),
        &[],
    );
    assert_eq!(gpu.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&gpu.stderr);
    assert!(
        stderr.starts_with("error: --backend gpu: size along x (max_texture_dimension_3d)"),
        "{stderr}"
    );
    assert_eq!(listing(dir.path()), ["auto.npy"]);
}

#[test]
fn cpu_backend_writes_the_same_bytes_twice_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    for file in ["a.npy", "a.png", "a.exr"] {
        for run in ["1", "2"] {
            let name = format!("{run}{file}");
            bake_ok(
                dir.path(),
                &[
                    "--dims",
                    "4",
                    "--size",
                    "6x5x4x3",
                    "--noise",
                    "classic",
                    "--backend",
                    "cpu",
                    "-o",
                    &name,
                ],
            );
        }
        let first = std::fs::read(dir.path().join(format!("1{file}"))).unwrap();
        let second = std::fs::read(dir.path().join(format!("2{file}"))).unwrap();
        assert!(first == second, "{file}: two CPU bakes differ");
    }
}

/// Bakes `spec` from `source` into the `.npy` file `path`.
fn cpu_npy_bake(spec: &NoiseSpec, source: &mut CpuSource, path: &Path) {
    bake::bake(
        spec,
        source,
        path,
        &BakeOptions::new(Encoding::Npy),
        &mut |_, _| {},
    )
    .unwrap();
}

/// The scalar `f32` flag fill of the whole `field` with `lookup` for `seed`.
fn scalar_flag_fill(field: &FlagField, lookup: LookupVariant, seed: u64) -> Vec<f32> {
    use wgpu_noise::cpu::fill::generate_f32;
    use wgpu_noise::cpu::CpuLookup;

    match &CpuLookup::new(lookup, seed) {
        CpuLookup::Tables(t) => generate_f32(t.tables(), field),
        CpuLookup::Hash(h) => generate_f32(h, field),
    }
    .expect("a valid field")
}

/// A tiled 3D simplex flag field bakes on its graph's lanes with the flag fill's own
/// values, the sign of its exact zeros included (the graph of one octave gives −0 where the
/// fill's `0 + 1·n` gives +0; 32 texels per cell put samples where every corner is out of
/// reach).
#[test]
fn tiled_3d_simplex_flag_bakes_on_lanes_keep_the_scalar_fills_zeros() {
    let dir = tempfile::tempdir().unwrap();
    let size = [64u32, 64, 32];
    let field = FlagField::new(NoiseKind::Simplex, &size)
        .with_frequency(&[2.0; 3])
        .with_tileable(true);
    for lookup in [LookupVariant::Textures, LookupVariant::Hash] {
        let expected = scalar_flag_fill(&field, lookup, 0);
        assert!(expected.contains(&0.0), "no exact zero to check");
        let path = dir.path().join(format!("{lookup:?}.npy"));
        let spec = NoiseSpec::of_flags(&field, FieldOutput::Value, 0)
            .unwrap()
            .with_lookup(lookup);
        let mut source = CpuSource::with_chunk_samples(1 << 20);
        cpu_npy_bake(&spec, &mut source, &path);
        assert!(!source.name().contains("scalar"), "{}", source.name());
        let got = read_npy(&path, &shape(&size));
        let off = (0..got.len()).find(|&i| got[i].to_bits() != expected[i].to_bits());
        assert_eq!(off, None, "{lookup:?}: first differing sample");
    }
}

/// Gradient fields (fBm of simplex noise, flowing too) and curl fields bake on lanes (the
/// source names its instruction set, not `scalar`) with the scalar fills' values bit for
/// bit, in chunks that split rows.
#[test]
fn gradient_and_curl_fields_bake_on_lanes_with_the_scalar_fills_values() {
    use wgpu_noise::cpu::fill::{fill_slab_curl, fill_slab_gradient};
    use wgpu_noise::cpu::{CpuLookup, NoiseHasher};
    use wgpu_noise::field::{FieldOutput, Fractal};
    use wgpu_noise::params::{FillParams, Slab};

    fn scalar(lut: &impl NoiseHasher, field: &FlagField, output: FieldOutput) -> Vec<f32> {
        let params = FillParams::new(field, Slab::whole(field));
        let mut out = vec![0.0f32; params.len() * output.values_per_sample(field.dims)];
        match output {
            FieldOutput::Gradient => {
                fill_slab_gradient(lut, field.dims, &params, bytemuck::cast_slice_mut(&mut out))
            }
            _ => fill_slab_curl(lut, field.dims, &params, &mut out),
        }
        out
    }

    let fbm = Fractal {
        octaves: 3,
        ..Fractal::default()
    };
    let cases = [
        (
            FieldOutput::Gradient,
            FlagField::new(NoiseKind::Simplex, &[45, 13]).with_fractal(fbm),
        ),
        (
            FieldOutput::Gradient,
            FlagField::new(NoiseKind::Simplex, &[37, 9, 5])
                .with_fractal(fbm)
                .with_flow_angle(1.25),
        ),
        (
            FieldOutput::Curl,
            FlagField::new(NoiseKind::Simplex, &[45, 13]),
        ),
        (
            FieldOutput::Curl,
            FlagField::new(NoiseKind::Simplex, &[37, 9, 5]),
        ),
    ];
    for (output, field) in cases {
        let field = field
            .with_frequency(&[3.0; 3])
            .with_offset(&[-20.5, 7.25, 3.0]);
        for lookup in [LookupVariant::Textures, LookupVariant::Hash] {
            let expected = match &CpuLookup::new(lookup, 5) {
                CpuLookup::Tables(t) => scalar(t.tables(), &field, output),
                CpuLookup::Hash(h) => scalar(h, &field, output),
            };
            let spec = NoiseSpec::of_flags(&field, output, 5)
                .unwrap()
                .with_lookup(lookup);
            let mut source = CpuSource::with_chunk_samples(100);
            let mut got = Vec::new();
            source
                .produce(&spec, &mut |_, values| {
                    got.extend_from_slice(values);
                    Ok(())
                })
                .unwrap();
            let what = format!("{output:?} {}D {lookup:?}", field.dims);
            assert!(
                !source.name().contains("scalar"),
                "{what}: {}",
                source.name()
            );
            assert_eq!(got.len(), expected.len(), "{what}");
            let off = (0..got.len()).find(|&i| got[i].to_bits() != expected[i].to_bits());
            assert_eq!(off, None, "{what}: first differing value");
        }
    }
}

#[test]
fn cpu_chunk_size_does_not_change_the_values() {
    let dir = tempfile::tempdir().unwrap();
    let field =
        FlagField::new(NoiseKind::Simplex, &[11, 7, 5, 3]).with_frequency(&[2.0, 3.0, 4.0, 5.0]);
    let spec = NoiseSpec::of_flags(&field, FieldOutput::Value, 2).unwrap();
    let mut bytes = Vec::new();
    // Rows, slices, volumes, the whole field.
    for chunk in [11u64, 77, 385, 1 << 20] {
        let path = dir.path().join(format!("c{chunk}.npy"));
        cpu_npy_bake(&spec, &mut CpuSource::with_chunk_samples(chunk), &path);
        bytes.push(std::fs::read(&path).unwrap());
    }
    assert!(bytes.windows(2).all(|w| w[0] == w[1]));
}

fn faulty_bake(
    dir: &Path,
    error: f32,
    verify: Option<f32>,
) -> wgpu_noise::Result<bake::BakeReport> {
    let spec = NoiseSpec::of_flags(
        &FlagField::new(NoiseKind::Simplex, &[8, 6, 4]).with_frequency(&[3.0; 3]),
        FieldOutput::Value,
        0,
    )
    .unwrap();
    let mut source = Faulty::at(
        CpuSource::with_chunk_samples(48),
        8 * 6 * 2 + 8 * 3 + 5,
        error,
    );
    let options = BakeOptions {
        verify,
        ..BakeOptions::new(Encoding::default_for(FileFormat::Png))
    };
    bake::bake(
        &spec,
        &mut source,
        &dir.join("f.png"),
        &options,
        &mut |_, _| {},
    )
}

#[test]
fn verification_fails_on_one_sample_off_by_more_than_the_tolerance_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let err = faulty_bake(dir.path(), 1e-3, Some(1e-5)).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, NoiseError::Verification(_)), "{text}");
    let max: f32 = text
        .split("max abs error ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!((max - 1e-3).abs() < 1e-6, "{text}");
    assert!(
        text.contains("(at x=5 y=3 z=2 w=0)")
            && text.contains("1 of 192 samples over the tolerance 1e-5"),
        "{text}"
    );
    assert!(
        listing(dir.path()).is_empty(),
        "nothing may be written: {:?}",
        listing(dir.path())
    );

    // Within a looser tolerance the same bake passes and reports the error it saw.
    let report = faulty_bake(dir.path(), 1e-3, Some(2e-3)).unwrap();
    let v = report.verify.unwrap();
    assert!(
        v.passed() && (v.max_abs_error - 1e-3).abs() < 1e-6 && v.worst_texel == [5, 3, 2, 0],
        "{v:?}"
    );
    assert_eq!(listing(dir.path()), ["f.png"]);
}

#[test]
fn a_nan_from_the_generator_is_an_error_even_without_verify() {
    let dir = tempfile::tempdir().unwrap();
    let err = faulty_bake(dir.path(), f32::NAN, None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("1 samples are NaN or infinite (the first at x=5 y=3 z=2 w=0)"),
        "{err}"
    );
    assert!(listing(dir.path()).is_empty());
}

/// A cellular flag field bakes on the CPU on its graph's lanes (2D and 3D with both
/// lookups, 4D with the hash; 4D with the tables has no faster lane code and says
/// `scalar`), in chunks of any size, tiled, warped and fractal too: the flag fill's scalar
/// values bit for bit.
#[test]
fn cellular_flag_fields_bake_on_lanes_with_the_scalar_fills_bits() {
    use wgpu_noise::field::{Cellular, CellularOutput, Distance, Fractal, FractalMode, Warp};

    let dir = tempfile::tempdir().unwrap();
    let outputs = [
        CellularOutput::F1,
        CellularOutput::F2,
        CellularOutput::F2MinusF1,
        CellularOutput::Cell,
    ];
    let distances = [
        Distance::Euclidean,
        Distance::Manhattan,
        Distance::Chebyshev,
    ];
    let mut case = 0;
    for size in [vec![37u32, 21], vec![17, 9, 11], vec![9, 7, 5, 6]] {
        for lookup in [LookupVariant::Textures, LookupVariant::Hash] {
            for shaping in 0..3 {
                case += 1;
                let dims = size.len();
                let mut field = FlagField::new(NoiseKind::Cellular, &size)
                    .with_frequency(&vec![[2.5, 3.0, 1.5][shaping]; dims])
                    .with_offset(&vec![-3.25 + 700.0 * shaping as f64; dims])
                    .with_cellular(Cellular {
                        output: outputs[case % 4],
                        distance: distances[case % 3],
                        jitter: [1.0, 0.7, 0.0][shaping],
                    });
                match shaping {
                    1 => {
                        field = field.with_tileable(true).with_fractal(Fractal {
                            mode: FractalMode::Ridged,
                            octaves: 3,
                            lacunarity: 2.0,
                            gain: 0.5,
                        })
                    }
                    2 => {
                        field = field.with_warp(Warp {
                            amplitude: 0.6,
                            frequency: 1.0,
                            octaves: 2,
                            iterations: 1,
                        })
                    }
                    _ => {}
                }
                let spec = NoiseSpec::of_flags(&field, FieldOutput::Value, 7)
                    .unwrap()
                    .with_lookup(lookup);
                let expected = scalar_flag_fill(&field, lookup, 7);
                for chunk in [size[0] as u64 + 3, 1 << 20] {
                    let path = dir.path().join(format!("cell{case}-{chunk}.npy"));
                    let mut source = CpuSource::with_chunk_samples(chunk);
                    cpu_npy_bake(&spec, &mut source, &path);
                    let lanes = dims < 4 || lookup == LookupVariant::Hash;
                    let name = source.name();
                    assert_eq!(
                        !name.contains("scalar"),
                        lanes,
                        "{field:?} {lookup:?}: the source says {name}"
                    );
                    let got = read_npy(&path, &shape(&size));
                    let off = (0..got.len()).find(|&i| got[i].to_bits() != expected[i].to_bits());
                    assert!(
                        off.is_none(),
                        "{field:?} {lookup:?}, chunks of {chunk}: texel {off:?} is {}, the \
                         scalar fill's {}",
                        got[off.unwrap()],
                        expected[off.unwrap()]
                    );
                }
            }
        }
    }
}

/// The bake's min and max are the reference field's, and a non-finite sample is reported at
/// its own texel, whichever chunk of the bake and whichever block of the statistics it falls
/// in (1 000-sample chunks of a 4 800-sample field: the last chunk is short, the blocks of
/// the statistics do not divide a chunk).
#[test]
fn a_bakes_min_max_and_first_non_finite_texel_are_exact_over_many_chunks_and_blocks() {
    let size = [40u32, 30, 4];
    let frequency = [3.0f64; 3];
    let spec = NoiseSpec::of_flags(
        &FlagField::new(NoiseKind::Simplex, &size).with_frequency(&frequency),
        FieldOutput::Value,
        0,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let options = BakeOptions::new(Encoding::default_for(FileFormat::Png));
    let bake_with = |source: &mut dyn SampleSource, name: &str| {
        bake::bake(
            &spec,
            source,
            &dir.path().join(name),
            &options,
            &mut |_, _| {},
        )
    };

    let report = bake_with(&mut CpuSource::with_chunk_samples(1000), "whole.png").unwrap();
    let values = reference(NoiseKind::Simplex, &size, &frequency, &[0.0; 3], 0);
    let min = values.iter().copied().fold(f32::INFINITY, f32::min);
    let max = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    assert_eq!(report.samples, 4800);
    assert_eq!((report.min, report.max), (min, max));
    std::fs::remove_file(dir.path().join("whole.png")).unwrap();

    for (at, error, texel) in [
        (2356, f32::NAN, "x=36 y=28 z=1"),
        (2356, f32::INFINITY, "x=36 y=28 z=1"),
        (4799, f32::NEG_INFINITY, "x=39 y=29 z=3"),
    ] {
        let mut source = Faulty::at(CpuSource::with_chunk_samples(1000), at, error);
        let err = bake_with(&mut source, "f.png").unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "1 samples are NaN or infinite (the first at {texel} w=0)"
            )),
            "{error} at {at}: {err}"
        );
        assert!(listing(dir.path()).is_empty(), "{:?}", listing(dir.path()));
    }
}
