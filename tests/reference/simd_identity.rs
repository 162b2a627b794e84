//! The SIMD CPU fill (`cpu::simd`) gives the scalar `f32` reference's values bit for bit:
//! every noise function and dimension, both lookup variants, every fractal mode, both
//! kernels, tiling, several seeds, negative and large offsets, slabs that start inside the
//! field, row lengths that are not multiples of the lane count, every instruction set this
//! CPU has, and one or several threads; classic rows dense and sparse enough for their row
//! tables and not; domain warp (1 and 2 iterations, several warp
//! octaves and frequencies, tiled too) and flow noise, which the lanes evaluate at full
//! per-lane points. Gradient fields (fBm of simplex or flow noise and its analytic
//! gradient) and curl fields on lanes give the scalar fills' values bit for bit. Noise graphs on lanes (`simd::fill_graph_slab`) give the scalar graph
//! evaluator's values bit for bit: random graphs of every node type and the shipped ones.

use crate::common::graphs::{choices, graph_of_node, random_graph, Rng, Shape, ARITHMETIC_GRAPHS};

use wgpu_noise::cpu::fill::{fill_slab, fill_slab_curl, fill_slab_gradient, generate_f32};
use wgpu_noise::cpu::lookup::NoiseHasher;
use wgpu_noise::cpu::simd::{self, FillOptions, SimdLevel};
use wgpu_noise::cpu::{CpuLookup, TableLookup};
use wgpu_noise::field::{FieldOutput, FlagField, Fractal, FractalMode, Kernel, NoiseKind, Warp};
use wgpu_noise::graph::program::Op;
use wgpu_noise::graph::{Graph, Program};
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::LookupVariant;

/// Row lengths around the 16 lanes: one sample, one short of a register, one over, two
/// registers and one, and a long row.
const X_SIZES: [u32; 5] = [1, 15, 17, 33, 257];

/// The variations of the base noise checked for every function.
fn variants(kind: NoiseKind, dims: usize) -> Vec<(&'static str, FlagField)> {
    let with = |x: u32, f: &dyn Fn(FlagField) -> FlagField| {
        let mut size = vec![3u32; dims];
        size[0] = x;
        f(FlagField::new(kind, &size))
    };
    let fractal = |mode, octaves, lacunarity, gain| Fractal {
        mode,
        octaves,
        lacunarity,
        gain,
    };
    let mut out = Vec::new();
    for x in X_SIZES {
        let freq: Vec<f64> = (0..dims).map(|a| 2.5 + a as f64).collect();
        let neg: Vec<f64> = (0..dims).map(|a| -37.3 - 11.1 * a as f64).collect();
        out.push((
            "plain, negative offset",
            with(x, &|f| f.with_frequency(&freq).with_offset(&neg)),
        ));
        let far: Vec<f64> = (0..dims).map(|a| -9_001.7 + 913.25 * a as f64).collect();
        let mut unreduced = with(x, &|f| f.with_frequency(&freq).with_offset(&far));
        unreduced.reduce_offset = false;
        out.push(("plain, far unreduced offset", unreduced));
        // Cells beyond 2²⁴ and beyond the i32 range, of both signs (the lanes wrap whole
        // cells to 256 through an integer conversion), a thousand cells a texel apart
        // (closer texels there would not be distinct `f32` coordinates).
        let beyond = [-3.0e9, 5.0e7, -6.0e7, 2.5e9][..dims].to_vec();
        let sparse: Vec<f64> = (0..dims)
            .map(|a| 1000.0 * if a == 0 { x as f64 } else { 3.0 })
            .collect();
        let mut unreduced = with(x, &|f| f.with_frequency(&sparse).with_offset(&beyond));
        unreduced.reduce_offset = false;
        out.push(("plain, unreduced offset beyond the i32 range", unreduced));
        out.push((
            "fbm 3 octaves",
            with(x, &|f| {
                f.with_frequency(&freq)
                    .with_offset(&neg)
                    .with_fractal(fractal(FractalMode::Fbm, 3, 2.0, 0.5))
            }),
        ));
        // From 16 texels a cell down to half a texel: classic noise's x tables at every
        // density the lookups keep them for (down to 2 or 4 texels a cell), then none.
        let coarse: Vec<f64> = (0..dims)
            .map(|a| if a == 0 { x as f64 / 16.0 } else { 2.5 })
            .collect();
        out.push((
            "fbm 6 octaves, 16 texels a cell to half a texel",
            with(x, &|f| {
                f.with_frequency(&coarse)
                    .with_offset(&neg)
                    .with_fractal(fractal(FractalMode::Fbm, 6, 2.0, 0.5))
            }),
        ));
        out.push((
            "turbulence 2 octaves",
            with(x, &|f| {
                f.with_frequency(&freq)
                    .with_fractal(fractal(FractalMode::Turbulence, 2, 2.0, 0.5))
            }),
        ));
        out.push((
            "ridged 4 octaves, lacunarity 1.9, gain 0.6",
            with(x, &|f| {
                f.with_frequency(&freq)
                    .with_offset(&neg)
                    .with_fractal(fractal(FractalMode::Ridged, 4, 1.9, 0.6))
            }),
        ));
        if kind == NoiseKind::Simplex && dims > 2 {
            out.push((
                "continuous kernel, fbm 2 octaves",
                with(x, &|f| {
                    f.with_frequency(&freq)
                        .with_offset(&neg)
                        .with_kernel(Kernel::Continuous)
                        .with_fractal(fractal(FractalMode::Fbm, 2, 2.0, 0.5))
                }),
            ));
        }
        if kind == NoiseKind::Classic {
            // Classic rows read their corners from per-row x tables through windows of
            // lanes, up to a quarter of a cell a texel: spacings at that edge (the later
            // octaves past it), past it, and far from the origin.
            for (spacing, offset) in [(0.25, -3.3), (0.24, 1_000_000.5), (0.9, 0.25)] {
                let mut dense: Vec<f64> = (0..dims).map(|a| 1.5 + a as f64).collect();
                dense[0] = spacing * x as f64;
                let at: Vec<f64> = (0..dims).map(|a| offset - a as f64).collect();
                let mut field = with(x, &|f| {
                    f.with_frequency(&dense)
                        .with_offset(&at)
                        .with_fractal(fractal(FractalMode::Fbm, 3, 2.0, 0.5))
                });
                field.reduce_offset = false;
                out.push(("dense rows, fbm 3 octaves", field));
            }
        }
        if kind == NoiseKind::Classic || dims == 2 {
            // Whole-number periods that are and are not powers of two.
            let periods: Vec<f64> = (0..dims).map(|a| [3.0, 4.0, 5.0, 7.0][a]).collect();
            out.push((
                "tileable, ridged 2 octaves",
                with(x, &|f| {
                    f.with_frequency(&periods)
                        .with_offset(&neg)
                        .with_tileable(true)
                        .with_fractal(fractal(FractalMode::Ridged, 2, 2.0, 0.5))
                }),
            ));
            out.push((
                "tileable, plain",
                with(x, &|f| f.with_frequency(&periods).with_tileable(true)),
            ));
        }
    }
    out
}

/// Domain-warped variants: both iteration counts, several warp octaves, frequencies and
/// amplitudes (one negative), every fractal mode, negative and far offsets, the continuous
/// kernel, tiling (where the lanes tile), and with flow noise for simplex 2D/3D.
fn warped_variants(kind: NoiseKind, dims: usize) -> Vec<(&'static str, FlagField)> {
    let with = |x: u32, f: &dyn Fn(FlagField) -> FlagField| {
        let mut size = vec![3u32; dims];
        size[0] = x;
        f(FlagField::new(kind, &size))
    };
    let fractal = |mode, octaves, lacunarity, gain| Fractal {
        mode,
        octaves,
        lacunarity,
        gain,
    };
    let warp = |amplitude, frequency, octaves, iterations| Warp {
        amplitude,
        frequency,
        octaves,
        iterations,
    };
    let flows = kind == NoiseKind::Simplex && dims <= 3;
    let mut out = Vec::new();
    for x in X_SIZES {
        let freq: Vec<f64> = (0..dims).map(|a| 2.5 + a as f64).collect();
        let neg: Vec<f64> = (0..dims).map(|a| -37.3 - 11.1 * a as f64).collect();
        out.push((
            "warp 1 iteration, 1 warp octave, one fbm octave, negative offset",
            with(x, &|f| {
                f.with_frequency(&freq)
                    .with_offset(&neg)
                    .with_warp(warp(0.7, 1.0, 1, 1))
            }),
        ));
        out.push((
            "warp 2 iterations, 3 warp octaves at frequency 0.37, fbm 3 octaves",
            with(x, &|f| {
                f.with_frequency(&freq)
                    .with_offset(&neg)
                    .with_warp(warp(1.8, 0.37, 3, 2))
                    .with_fractal(fractal(FractalMode::Fbm, 3, 2.0, 0.5))
            }),
        ));
        out.push((
            "warp 1 iteration, 2 warp octaves at frequency 2.5, amplitude -1.2, ridged 3 \
             octaves, lacunarity 1.9, gain 0.6",
            with(x, &|f| {
                f.with_frequency(&freq)
                    .with_offset(&neg)
                    .with_warp(warp(-1.2, 2.5, 2, 1))
                    .with_fractal(fractal(FractalMode::Ridged, 3, 1.9, 0.6))
            }),
        ));
        out.push((
            "warp 2 iterations, 2 warp octaves, turbulence 2 octaves",
            with(x, &|f| {
                f.with_frequency(&freq)
                    .with_warp(warp(0.45, 1.3, 2, 2))
                    .with_fractal(fractal(FractalMode::Turbulence, 2, 2.0, 0.5))
            }),
        ));
        let far: Vec<f64> = (0..dims).map(|a| -9_001.7 + 913.25 * a as f64).collect();
        let mut unreduced = with(x, &|f| {
            f.with_frequency(&freq)
                .with_offset(&far)
                .with_warp(warp(2.0, 0.5, 2, 1))
        });
        unreduced.reduce_offset = false;
        out.push(("warp 1 iteration, far unreduced offset", unreduced));
        if kind == NoiseKind::Simplex && dims > 2 {
            out.push((
                "warp 2 iterations, continuous kernel, ridged 2 octaves",
                with(x, &|f| {
                    f.with_frequency(&freq)
                        .with_offset(&neg)
                        .with_kernel(Kernel::Continuous)
                        .with_warp(warp(1.1, 0.8, 2, 2))
                        .with_fractal(fractal(FractalMode::Ridged, 2, 2.0, 0.5))
                }),
            ));
        }
        if kind == NoiseKind::Classic || dims == 2 {
            // Whole numbers of warp cells across the tile, and a whole lacunarity.
            let periods: Vec<f64> = (0..dims).map(|a| [3.0, 4.0, 5.0, 7.0][a]).collect();
            out.push((
                "tileable, warp 2 iterations, 2 warp octaves at frequency 2, ridged 2 octaves",
                with(x, &|f| {
                    f.with_frequency(&periods)
                        .with_offset(&neg)
                        .with_tileable(true)
                        .with_warp(warp(0.9, 2.0, 2, 2))
                        .with_fractal(fractal(FractalMode::Ridged, 2, 2.0, 0.5))
                }),
            ));
            out.push((
                "tileable, warp 1 iteration",
                with(x, &|f| {
                    f.with_frequency(&periods)
                        .with_tileable(true)
                        .with_warp(warp(1.5, 1.0, 1, 1))
                }),
            ));
        }
        if flows {
            out.push((
                "flow 0.8, one octave, negative offset",
                with(x, &|f| {
                    f.with_frequency(&freq)
                        .with_offset(&neg)
                        .with_flow_angle(0.8)
                }),
            ));
            out.push((
                "flow -2.5, ridged 3 octaves, lacunarity 1.9, gain 0.6",
                with(x, &|f| {
                    f.with_frequency(&freq)
                        .with_flow_angle(-2.5)
                        .with_fractal(fractal(FractalMode::Ridged, 3, 1.9, 0.6))
                }),
            ));
            out.push((
                "flow 4.1, warp 2 iterations, 2 warp octaves, fbm 2 octaves",
                with(x, &|f| {
                    f.with_frequency(&freq)
                        .with_offset(&neg)
                        .with_flow_angle(4.1)
                        .with_warp(warp(0.8, 1.7, 2, 2))
                        .with_fractal(fractal(FractalMode::Fbm, 2, 2.0, 0.5))
                }),
            ));
            if dims == 3 {
                out.push((
                    "flow 1.3, continuous kernel, turbulence 2 octaves",
                    with(x, &|f| {
                        f.with_frequency(&freq)
                            .with_offset(&neg)
                            .with_kernel(Kernel::Continuous)
                            .with_flow_angle(1.3)
                            .with_fractal(fractal(FractalMode::Turbulence, 2, 2.0, 0.5))
                    }),
                ));
            }
        }
    }
    out
}

/// Checks every available level and two thread counts against the scalar fill of `params`.
fn assert_identical(lut: &CpuLookup, what: &str, field: &FlagField, params: &FillParams) {
    assert_output_identical(lut, what, field, params, FieldOutput::Value);
}

/// The scalar reference's `output` of `params` (values per texel interleaved, as the SIMD
/// fill lays them out).
fn scalar_output(
    lut: &impl NoiseHasher,
    field: &FlagField,
    params: &FillParams,
    output: FieldOutput,
) -> Vec<f32> {
    let mut out = vec![0.0f32; params.len() * output.values_per_sample(field.dims)];
    match output {
        FieldOutput::Value => fill_slab(lut, field.kind, field.dims, params, &mut out),
        FieldOutput::Gradient => {
            fill_slab_gradient(lut, field.dims, params, bytemuck::cast_slice_mut(&mut out))
        }
        FieldOutput::Curl => fill_slab_curl(lut, field.dims, params, &mut out),
    }
    out
}

/// [`assert_identical`] for `output` of the field.
fn assert_output_identical(
    lut: &CpuLookup,
    what: &str,
    field: &FlagField,
    params: &FillParams,
    output: FieldOutput,
) {
    let expected = match lut {
        CpuLookup::Tables(t) => scalar_output(t.tables(), field, params, output),
        CpuLookup::Hash(h) => scalar_output(h, field, params, output),
    };
    for level in SimdLevel::available() {
        for threads in [1, 3] {
            let mut got = vec![f32::NAN; expected.len()];
            let options = FillOptions { threads, level };
            let (kind, dims) = (field.kind, field.dims);
            simd::fill_slab_output_with(lut, kind, dims, params, output, &mut got, options);
            if let Some(i) = (0..got.len()).find(|&i| got[i].to_bits() != expected[i].to_bits()) {
                panic!(
                    "{:?} {}D {output:?} {what}, size {:?}, {} on {threads} threads: value {i} is \
                     {:e} ({:#010x}), the scalar reference {:e} ({:#010x})",
                    field.kind,
                    field.dims,
                    params.extent,
                    level.name(),
                    got[i],
                    got[i].to_bits(),
                    expected[i],
                    expected[i].to_bits()
                );
            }
        }
    }
}

fn check_function(kind: NoiseKind, dims: usize) {
    check_variants(variants(kind, dims));
}

/// As [`check_function`] for the warped (and flow) variants, which must run on lanes (not
/// the scalar fallback, which would be compared with itself).
fn check_warped(kind: NoiseKind, dims: usize) {
    check_outputs_on_lanes(warped_variants(kind, dims), FieldOutput::Value);
}

fn check_variants(fields: Vec<(&'static str, FlagField)>) {
    check_outputs(fields, FieldOutput::Value);
}

/// `output` of every field, both lookups, two seeds, the whole field and a slab inside it.
fn check_outputs(fields: Vec<(&'static str, FlagField)>, output: FieldOutput) {
    for seed in [0u64, 20_261_122] {
        let tables = CpuLookup::new(LookupVariant::Textures, seed);
        let hash = CpuLookup::new(LookupVariant::Hash, seed);
        for (what, field) in &fields {
            let what = *what;
            output.check(field).expect("the test's fields are valid");
            let whole = FillParams::new(field, Slab::whole(field));
            // A slab that starts inside the field (origin ≠ 0 on the outer axis).
            let inner = Slab::split(field, 2).nth(1).expect("a second slab");
            let inner = FillParams::new(field, inner);
            for params in [&whole, &inner] {
                let with_tables = format!("{what}, textures, seed {seed}");
                assert_output_identical(&tables, &with_tables, field, params, output);
                let with_hash = format!("{what}, hash, seed {seed}");
                assert_output_identical(&hash, &with_hash, field, params, output);
            }
        }
    }
}

/// A simplex field `x` texels long (3 along the other axes) at frequencies 2.5, 3.5, …, and
/// two offsets for it: negative near the origin, and far.
fn simplex_row_field(dims: usize, x: u32) -> (FlagField, Vec<f64>, Vec<f64>) {
    let mut size = vec![3u32; dims];
    size[0] = x;
    let freq: Vec<f64> = (0..dims).map(|a| 2.5 + a as f64).collect();
    let neg: Vec<f64> = (0..dims).map(|a| -37.3 - 11.1 * a as f64).collect();
    let far: Vec<f64> = (0..dims).map(|a| -9_001.7 + 913.25 * a as f64).collect();
    let field = FlagField::new(NoiseKind::Simplex, &size).with_frequency(&freq);
    (field, neg, far)
}

/// Gradient fields (fBm of simplex or flow noise with its analytic gradient) in 2D and 3D:
/// octaves, lacunarity and gain, both kernels, flow angles, offsets near and far.
fn gradient_variants(dims: usize) -> Vec<(&'static str, FlagField)> {
    let mut out = Vec::new();
    for x in X_SIZES {
        let (field, neg, far) = simplex_row_field(dims, x);
        let fbm = |octaves, lacunarity, gain| Fractal {
            mode: FractalMode::Fbm,
            octaves,
            lacunarity,
            gain,
        };
        out.push((
            "one octave, negative offset",
            field.clone().with_offset(&neg),
        ));
        out.push((
            "fbm 3 octaves, far offset",
            field
                .clone()
                .with_offset(&far)
                .with_fractal(fbm(3, 2.0, 0.5)),
        ));
        out.push((
            "fbm 4 octaves, lacunarity 1.9, gain 0.6, flow angle 0.7",
            field
                .clone()
                .with_offset(&neg)
                .with_fractal(fbm(4, 1.9, 0.6))
                .with_flow_angle(0.7),
        ));
        if dims == 3 {
            out.push((
                "continuous kernel, fbm 2 octaves",
                field
                    .clone()
                    .with_offset(&neg)
                    .with_kernel(Kernel::Continuous)
                    .with_fractal(fbm(2, 2.0, 0.5)),
            ));
        }
    }
    out
}

/// Curl fields (one octave of simplex noise) in 2D and 3D, offsets near and far.
fn curl_variants(dims: usize) -> Vec<(&'static str, FlagField)> {
    let mut out = Vec::new();
    for x in X_SIZES {
        let (field, neg, far) = simplex_row_field(dims, x);
        out.push(("negative offset", field.clone().with_offset(&neg)));
        out.push(("far offset", field.with_offset(&far)));
    }
    out
}

#[test]
fn classic_2d_is_bit_identical() {
    check_function(NoiseKind::Classic, 2);
}

#[test]
fn classic_3d_is_bit_identical() {
    check_function(NoiseKind::Classic, 3);
}

#[test]
fn classic_4d_is_bit_identical() {
    check_function(NoiseKind::Classic, 4);
}

#[test]
fn simplex_2d_is_bit_identical() {
    check_function(NoiseKind::Simplex, 2);
}

#[test]
fn simplex_3d_is_bit_identical() {
    check_function(NoiseKind::Simplex, 3);
}

#[test]
fn simplex_4d_is_bit_identical() {
    check_function(NoiseKind::Simplex, 4);
}

#[test]
fn classic_2d_warped_is_bit_identical() {
    check_warped(NoiseKind::Classic, 2);
}

#[test]
fn classic_3d_warped_is_bit_identical() {
    check_warped(NoiseKind::Classic, 3);
}

#[test]
fn classic_4d_warped_is_bit_identical() {
    check_warped(NoiseKind::Classic, 4);
}

#[test]
fn simplex_2d_warped_and_flow_are_bit_identical() {
    check_warped(NoiseKind::Simplex, 2);
}

#[test]
fn simplex_3d_warped_and_flow_are_bit_identical() {
    check_warped(NoiseKind::Simplex, 3);
}

#[test]
fn simplex_4d_warped_is_bit_identical() {
    check_warped(NoiseKind::Simplex, 4);
}

/// Gradient and curl fields run on lanes (not the scalar fallback, which would be compared
/// with itself) and give the scalar fills' values bit for bit.
#[test]
fn gradient_fields_are_bit_identical() {
    for dims in [2, 3] {
        check_outputs_on_lanes(gradient_variants(dims), FieldOutput::Gradient);
    }
}

#[test]
fn curl_fields_are_bit_identical() {
    for dims in [2, 3] {
        check_outputs_on_lanes(curl_variants(dims), FieldOutput::Curl);
    }
}

/// [`check_outputs`] of fields that must have lane code.
fn check_outputs_on_lanes(fields: Vec<(&'static str, FlagField)>, output: FieldOutput) {
    for (what, field) in &fields {
        assert!(simd::lanes_apply(field), "{what}: no lane code");
    }
    check_outputs(fields, output);
}

#[test]
fn the_field_api_gives_the_scalar_reference() {
    let field = FlagField::new(NoiseKind::Simplex, &[40, 9, 5]).with_frequency(&[3.0, 2.0, 1.5]);
    let lookup = CpuLookup::new(LookupVariant::Textures, 7);
    let fast = simd::fill_field(&lookup, &field).unwrap();
    let reference = generate_f32(&PermutationTables::new(7), &field).unwrap();
    assert!(fast
        .iter()
        .zip(&reference)
        .all(|(a, b)| a.to_bits() == b.to_bits()));
    // Bad input is an error, as for the scalar fill.
    assert!(simd::fill_field(&lookup, &FlagField::new(NoiseKind::Simplex, &[0, 4])).is_err());
}

/// The lanes take the tables' gradients as indices into the gradient sets; tables whose
/// texels were edited to other gradients are filled as the scalar reference reads them.
#[test]
fn tables_with_edited_gradients_give_the_scalar_reference() {
    let mut tables = PermutationTables::new(0);
    // (1, 1, 1) and (1, 1, 1, 1), biased: gradients of neither set.
    for t in &mut tables.hash_grad3 {
        t[1..].copy_from_slice(&[2, 2, 2]);
    }
    tables.grad4.fill([2, 2, 2, 2]);
    let lookup = CpuLookup::Tables(TableLookup::new(tables));
    for (kind, size) in [
        (NoiseKind::Classic, &[33, 3, 3][..]),
        (NoiseKind::Simplex, &[33, 3][..]),
        (NoiseKind::Simplex, &[33, 3, 3, 3][..]),
    ] {
        let field = FlagField::new(kind, size).with_frequency(&[2.5, 3.5, 4.5, 5.5][..size.len()]);
        let params = FillParams::new(&field, Slab::whole(&field));
        assert_identical(&lookup, "edited tables", &field, &params);
    }
}

/// The lanes rank 4D offsets by counting, which is the standard traversal table; with an
/// edited table the SIMD fill still gives the scalar reference's values.
#[test]
fn an_edited_4d_traversal_table_gives_the_scalar_reference() {
    let mut tables = PermutationTables::new(0);
    // The traversal of code 0 (x ≤ y ≤ z ≤ w) reversed.
    tables.simplex4[0] = [3, 2, 1, 0];
    let lookup = CpuLookup::Tables(TableLookup::new(tables));
    let field =
        FlagField::new(NoiseKind::Simplex, &[33, 3, 3, 3]).with_frequency(&[2.5, 3.5, 4.5, 5.5]);
    let params = FillParams::new(&field, Slab::whole(&field));
    assert_identical(&lookup, "edited traversal table", &field, &params);
}

#[test]
fn the_best_level_is_one_this_cpu_has() {
    let levels = SimdLevel::available();
    assert!(levels.contains(&SimdLevel::best()));
    assert_eq!(simd::simd_level(), SimdLevel::best().name());
    #[cfg(target_arch = "x86_64")]
    assert!(levels.contains(&SimdLevel::Sse2), "SSE2 is part of x86-64");
}

/// The SIMD graph fill of `program` against the scalar `graph::eval::fill_slab` of `params`, at
/// every available level (one or three threads, alternating with `turn`).
fn assert_graph_identical(
    lut: &CpuLookup,
    what: &str,
    program: &Program,
    params: &FillParams,
    turn: usize,
) {
    let mut expected = vec![0.0f32; params.len()];
    match lut {
        CpuLookup::Tables(t) => {
            wgpu_noise::graph::eval::fill_slab(program, t.tables(), params, &mut expected)
        }
        CpuLookup::Hash(h) => wgpu_noise::graph::eval::fill_slab(program, h, params, &mut expected),
    }
    for (l, level) in SimdLevel::available().into_iter().enumerate() {
        let threads = [1, 3][(turn + l) % 2];
        let mut got = vec![f32::NAN; params.len()];
        let options = FillOptions { threads, level };
        simd::fill_graph_slab_with(program, lut, params, &mut got, options);
        if let Some(i) = (0..got.len()).find(|&i| got[i].to_bits() != expected[i].to_bits()) {
            panic!(
                "{what}, {}D, size {:?}, {} on {threads} threads: sample {i} is {:e} ({:#010x}), \
                 the scalar graph {:e} ({:#010x})",
                program.dims(),
                params.extent,
                level.name(),
                got[i],
                got[i].to_bits(),
                expected[i],
                expected[i].to_bits()
            );
        }
    }
}

/// The field whose texels a graph test samples: `x` texels along x (a lane remainder), 2
/// or 3 along the others, a frequency and an offset (far: up to 1e4, not reduced).
fn graph_field(rng: &mut Rng, dims: usize) -> FlagField {
    let x = *rng.pick(&[1u32, 15, 17, 33]);
    let size: Vec<u32> = (0..dims)
        .map(|a| if a == 0 { x } else { 2 + rng.below(2) as u32 })
        .collect();
    let frequency: Vec<f64> = (0..dims).map(|_| rng.range(0.5, 6.0)).collect();
    let reach = *rng.pick(&[10.0, 1e4]);
    let offset: Vec<f64> = (0..dims).map(|_| rng.range(-reach, reach)).collect();
    let mut field = FlagField::new(NoiseKind::Simplex, &size)
        .with_frequency(&frequency)
        .with_offset(&offset);
    field.reduce_offset = rng.below(2) == 0;
    field
}

/// The name of an operation and, for a noise source, of what it evaluates (the kinds of
/// work the lanes must cover).
fn op_names(program: &Program) -> Vec<String> {
    program
        .ops()
        .iter()
        .enumerate()
        .map(|(r, op)| match op {
            Op::Noise { source, .. } => {
                let dims = program.point_dims(r);
                let tiled = source.period[..dims].iter().any(|&p| p > 0.0);
                format!(
                    "{} {dims}D{}{}{}",
                    source.kind,
                    if tiled { " tiled" } else { "" },
                    if source.flow != 0.0 { " flow" } else { "" },
                    if source.kernel == Kernel::Continuous {
                        " continuous"
                    } else {
                        ""
                    }
                )
            }
            Op::Vector { source, .. } => {
                let dims = program.point_dims(r);
                let tiled = source.period[..dims].iter().any(|&p| p > 0.0);
                let tiled = if tiled { " tiled" } else { "" };
                let kind = match source.kind {
                    NoiseKind::SuperSimplex => "supersimplex-",
                    NoiseKind::Simplex => "simplex-",
                    _ => "",
                };
                let continuous = if source.kernel == Kernel::Continuous {
                    " continuous"
                } else {
                    ""
                };
                format!("{kind}vector {dims}D{tiled}{continuous}")
            }
            other => format!("{other:?}")
                .split([' ', '(', '{'])
                .next()
                .unwrap_or_default()
                .to_string(),
        })
        .collect()
}

/// The SIMD fill of `program`'s `output` (gradient or curl) against the scalar evaluator's
/// (`graph::eval::fill_slab_gradient`, `graph::eval::fill_slab_curl`), at every level.
fn assert_graph_output_identical(
    lut: &CpuLookup,
    what: &str,
    program: &Program,
    params: &FillParams,
    output: FieldOutput,
    turn: usize,
) {
    fn scalar(
        lut: &impl NoiseHasher,
        program: &Program,
        params: &FillParams,
        output: FieldOutput,
    ) -> Vec<f32> {
        let mut out = vec![0.0f32; params.len() * output.values_per_sample(program.dims())];
        match output {
            FieldOutput::Gradient => wgpu_noise::graph::eval::fill_slab_gradient(
                program,
                lut,
                params,
                bytemuck::cast_slice_mut(&mut out),
            ),
            _ => wgpu_noise::graph::eval::fill_slab_curl(program, lut, params, &mut out),
        }
        out
    }
    let expected = match lut {
        CpuLookup::Tables(t) => scalar(t.tables(), program, params, output),
        CpuLookup::Hash(h) => scalar(h, program, params, output),
    };
    for (l, level) in SimdLevel::available().into_iter().enumerate() {
        let threads = [1, 3][(turn + l) % 2];
        let mut got = vec![f32::NAN; expected.len()];
        let options = FillOptions { threads, level };
        simd::fill_graph_slab_output_with(program, lut, params, output, &mut got, options);
        if let Some(i) = (0..got.len()).find(|&i| got[i].to_bits() != expected[i].to_bits()) {
            panic!(
                "{what}, {}D {output:?}, size {:?}, {} on {threads} threads: value {i} is {:e} \
                 ({:#010x}), the scalar graph {:e} ({:#010x})",
                program.dims(),
                params.extent,
                level.name(),
                got[i],
                got[i].to_bits(),
                expected[i],
                expected[i].to_bits()
            );
        }
    }
}

/// Random graphs' gradients (2D to 4D) and curls (2D, 3D) on lanes, untiled and tiled:
/// the scalar evaluator's dual numbers bit for bit, both lookups, at every level, with lane
/// remainders, slabs inside the field and far offsets; classic, value, simplex, flow and
/// supersimplex sources run on lanes, the rest per lane.
#[test]
fn random_graphs_gradients_and_curls_on_lanes_are_bit_identical() {
    // The sources with lane gradients: at least 120 graphs, and more (up to 480) until
    // each of these is among them.
    let lane_sources = [
        "classic 2D",
        "classic 3D",
        "classic 4D",
        "simplex 2D",
        "simplex 3D",
        "simplex 3D continuous",
        "simplex 2D flow",
        "simplex 3D flow",
        "value 2D",
        "value 3D",
        "value 4D",
        "supersimplex 2D",
        "supersimplex 3D",
        "supersimplex 4D",
        "supersimplex 2D tiled",
        "supersimplex 3D tiled",
    ];
    let mut rng = Rng::new(20_261_125);
    let mut covered = std::collections::BTreeSet::new();
    let mut graphs = 0;
    while graphs < 120 || (graphs < 480 && !lane_sources.iter().all(|s| covered.contains(*s))) {
        let shape = Shape {
            dims: 2 + rng.below(3) as usize,
            depth: 1 + rng.below(5) as usize,
            differentiable: false,
        };
        let text = random_graph(&mut rng, shape).to_string();
        let graph = Graph::from_json(&text).unwrap_or_else(|e| panic!("{text}\n{e}"));
        for period in [[0.0; 4], [4.0, 3.0, 5.0, 2.0]] {
            let program = match graph.program(shape.dims, period) {
                Ok(p) => p,
                Err(e) if e.message.contains("per sample") || period[0] > 0.0 => continue,
                Err(e) => panic!("{text}\n{e}"),
            };
            graphs += 1;
            covered.extend(op_names(&program));
            let field = graph_field(&mut rng, shape.dims);
            let seed = rng.below(1000);
            let whole = FillParams::new(&field, Slab::whole(&field));
            let inner = Slab::split(&field, 1).nth(1).expect("a second layer");
            let inner = FillParams::new(&field, inner);
            let params = [&whole, &inner][graphs % 2];
            let mut outputs = vec![FieldOutput::Gradient];
            if shape.dims <= 3 {
                outputs.push(FieldOutput::Curl);
            }
            for output in outputs {
                for variant in [LookupVariant::Textures, LookupVariant::Hash] {
                    let what = format!(
                        "{text}\nperiod {period:?}, offset {:?}, {variant:?}",
                        field.offset
                    );
                    let lut = CpuLookup::new(variant, seed);
                    assert_graph_output_identical(&lut, &what, &program, params, output, graphs);
                }
            }
        }
    }
    println!("{graphs} random graphs' gradients and curls; covered: {covered:?}");
    for name in lane_sources {
        assert!(covered.contains(name), "no {name} source among the graphs");
    }
}

/// Hundreds of random graphs (every node type, random wiring, depth up to 6, 2D to 4D; each
/// also tiled where it lowers so): the SIMD graph fill gives the scalar graph's bits, both
/// lookups, at every level, with lane remainders, slabs inside the field and far offsets.
#[test]
fn random_graphs_on_lanes_are_bit_identical() {
    let mut rng = Rng::new(20_261_123);
    let mut covered = std::collections::BTreeSet::new();
    let (mut graphs, mut tiled) = (0, 0);
    // 300 graphs, and more (up to 600) until every operation and base function is covered.
    while graphs < 300 || (graphs < 600 && !not_covered(&covered).is_empty()) {
        let shape = Shape {
            dims: 2 + rng.below(3) as usize,
            depth: 1 + rng.below(6) as usize,
            differentiable: false,
        };
        let text = random_graph(&mut rng, shape).to_string();
        let graph = Graph::from_json(&text).unwrap_or_else(|e| panic!("{text}\n{e}"));
        // Untiled, and tiled with whole periods (refused where a node does not tile).
        for period in [[0.0; 4], [4.0, 3.0, 5.0, 2.0]] {
            let program = match graph.program(shape.dims, period) {
                Ok(p) => p,
                Err(e) if e.message.contains("per sample") || period[0] > 0.0 => continue,
                Err(e) => panic!("{text}\n{e}"),
            };
            graphs += (period[0] == 0.0) as usize;
            tiled += (period[0] > 0.0) as usize;
            covered.extend(op_names(&program));
            let field = graph_field(&mut rng, shape.dims);
            let seed = rng.below(1000);
            let whole = FillParams::new(&field, Slab::whole(&field));
            let inner = Slab::split(&field, 1).nth(1).expect("a second layer");
            let inner = FillParams::new(&field, inner);
            let what = format!("{text}\nperiod {period:?}, offset {:?}", field.offset);
            let params = [&whole, &inner][graphs % 2];
            let tables = CpuLookup::new(LookupVariant::Textures, seed);
            assert_graph_identical(
                &tables,
                &format!("{what}, textures"),
                &program,
                params,
                graphs,
            );
            let hash = CpuLookup::new(LookupVariant::Hash, seed);
            assert_graph_identical(
                &hash,
                &format!("{what}, hash"),
                &program,
                params,
                graphs + 1,
            );
        }
    }
    println!("{graphs} random graphs untiled, {tiled} tiled; covered: {covered:?}");
    assert!(tiled >= 30, "only {tiled} random graphs tiled");
    let missing = not_covered(&covered);
    assert!(missing.is_empty(), "not covered: {missing:?}");
}

/// Of every operation, and every base function the lanes (or the scalar per-lane path) run,
/// those not in `covered`.
fn not_covered(covered: &std::collections::BTreeSet<String>) -> Vec<String> {
    let mut missing = vec![];
    for name in [
        "Point",
        "Scale",
        "Offset",
        "Rotate",
        "Displace",
        "Constant",
        "Axis",
        "AddAxis",
        "RemoveAxis",
        "Fractal",
        "Binary",
        "Blend",
        "Map",
    ] {
        missing.extend((!covered.contains(name)).then(|| name.to_string()));
    }
    for dims in 2..=4 {
        // Vector warps are not required here: `vector_warps_on_lanes_are_bit_identical`
        // covers every dimension count.
        for kind in ["classic", "simplex", "cellular", "value"] {
            missing.extend(
                (!covered.contains(&format!("{kind} {dims}D"))).then(|| format!("{kind} {dims}D")),
            );
        }
        let tiled: &[&str] = if dims == 4 {
            &["classic", "value"]
        } else {
            &["classic", "simplex", "cellular", "value"]
        };
        for kind in tiled {
            let name = format!("{kind} {dims}D tiled");
            missing.extend((!covered.contains(&name)).then_some(name));
        }
        let name = format!("simplex {dims}D continuous");
        missing.extend((!covered.contains(&name)).then_some(name));
        let name = format!("supersimplex {dims}D");
        missing.extend((!covered.contains(&name)).then_some(name));
    }
    // SuperSimplex tiles in 2D and 3D.
    for name in ["supersimplex 2D tiled", "supersimplex 3D tiled"] {
        missing.extend((!covered.contains(name)).then(|| name.to_string()));
    }
    for name in ["simplex 2D flow", "simplex 3D flow"] {
        missing.extend((!covered.contains(name)).then(|| name.to_string()));
    }
    missing
}

/// Vector warps (`warp` with `noise` `vector` in 2D to 4D, untiled and tiled;
/// `supersimplex-vector` in 2D to 4D, untiled, and tiled in 2D and 3D; `simplex-vector` in 2D to
/// 4D, untiled with both kernels, and tiled in 2D and 3D) of one to three octaves, once and iterated:
/// the SIMD graph fills of their values, gradients and curls give the scalar evaluator's
/// bits, both lookups, at every level.
#[test]
fn vector_warps_on_lanes_are_bit_identical() {
    let mut rng = Rng::new(20_261_128);
    let mut checked = 0;
    let tile = [4.0, 3.0, 5.0, 2.0];
    let runs = [
        ("vector", 1, 1, [0.0; 4], "reference"),
        ("vector", 3, 2, [0.0; 4], "reference"),
        ("vector", 2, 1, tile, "reference"),
        ("supersimplex-vector", 1, 1, [0.0; 4], "reference"),
        ("supersimplex-vector", 3, 2, [0.0; 4], "reference"),
        ("supersimplex-vector", 2, 1, tile, "reference"),
        (
            "supersimplex-vector",
            1,
            1,
            [2.75, 1.5, 0.0, 0.0],
            "reference",
        ),
        ("simplex-vector", 1, 1, [0.0; 4], "reference"),
        ("simplex-vector", 3, 2, [0.0; 4], "reference"),
        ("simplex-vector", 2, 1, [0.0; 4], "continuous"),
        ("simplex-vector", 2, 2, tile, "reference"),
        // The 2D torus takes any period (the octave doubles it).
        ("simplex-vector", 1, 1, [2.75, 1.5, 0.0, 0.0], "reference"),
    ];
    for dims in 2..=4 {
        for (noise, octaves, iterations, period, kernel) in runs {
            // Simplex's tiles in 2D (any period) and 3D (whole periods).
            let whole = period.iter().all(|p: &f32| p.fract() == 0.0);
            if noise == "simplex-vector" && period[0] > 0.0 && (dims == 4 || (dims == 3 && !whole))
            {
                continue;
            }
            // SuperSimplex's tiles in 2D (any period) and 3D (whole periods).
            if noise == "supersimplex-vector"
                && period[0] > 0.0
                && (dims == 4 || (dims == 3 && !whole))
            {
                continue;
            }
            // Classic noise tiles with whole periods only.
            let source = if whole { "classic" } else { "simplex" };
            let text = format!(
                r#"{{ "version": 1, "output": "w", "nodes": {{ "w": {{ "type": "warp",
                    "source": {{ "type": "fbm", "source": {{ "type": "{source}" }}, "octaves": 2 }},
                    "noise": "{noise}", "amplitude": 0.6, "frequency": 2.0, "kernel": "{kernel}",
                    "octaves": {octaves}, "iterations": {iterations} }} }} }}"#
            );
            let program = Graph::from_json(&text)
                .unwrap()
                .program(dims, period)
                .unwrap_or_else(|e| panic!("{text}\n{e}"));
            let op = format!("{noise} {dims}D");
            assert!(
                op_names(&program).iter().any(|n| n.starts_with(&op)),
                "{op}"
            );
            let field = graph_field(&mut rng, dims);
            let params = FillParams::new(&field, Slab::whole(&field));
            for variant in [LookupVariant::Textures, LookupVariant::Hash] {
                let what = format!("{text}\n{dims}D, period {period:?}, {variant:?}");
                let lut = CpuLookup::new(variant, 3);
                assert_graph_identical(&lut, &what, &program, &params, checked);
                let mut outputs = vec![FieldOutput::Gradient];
                if dims <= 3 {
                    outputs.push(FieldOutput::Curl);
                }
                for output in outputs {
                    assert_graph_output_identical(&lut, &what, &program, &params, output, checked);
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 60);
}

/// SuperSimplex sources alone (2D to 4D, tiled in 2D on a torus of fractional periods and in
/// 3D with whole periods, across the tile's edges)
/// and `supersimplex-vector` warps of a position, on fields dense enough that the 4D walk meets every point of its sixteen with both flips,
/// at offsets near the origin, across a 256-cell wrap and far out: the SIMD graph fills of
/// their values and gradients give the scalar evaluator's bits, both lookups, every level.
#[test]
fn supersimplex_on_lanes_is_bit_identical() {
    let graphs = [
        r#"{ "version": 1, "output": "n", "nodes": { "n": { "type": "supersimplex", "seed": 7 } } }"#,
        r#"{ "version": 1, "output": "w", "nodes": { "w": { "type": "warp",
            "source": { "type": "position", "axis": "x" }, "noise": "supersimplex-vector",
            "amplitude": 0.7, "frequency": 1.3 } } }"#,
        // A position does not tile: tiled, the warp moves a SuperSimplex source.
        r#"{ "version": 1, "output": "w", "nodes": { "w": { "type": "warp",
            "source": { "type": "supersimplex", "seed": 3 }, "noise": "supersimplex-vector",
            "amplitude": 0.7, "frequency": 1.3 } } }"#,
    ];
    let mut checked = 0;
    for dims in 2..=4 {
        let size: Vec<u32> = (0..dims)
            .map(|a| if a == 0 { 33 } else { [33, 9, 5][dims - 2] })
            .collect();
        let frequency: Vec<f64> = (0..dims).map(|a| 2.5 + 0.75 * a as f64).collect();
        for offset in [-3.7, 254.6, -9_001.7] {
            let offset: Vec<f64> = (0..dims).map(|a| offset + 0.31 * a as f64).collect();
            let mut field = FlagField::new(NoiseKind::Simplex, &size)
                .with_frequency(&frequency)
                .with_offset(&offset);
            field.reduce_offset = false;
            let params = FillParams::new(&field, Slab::whole(&field));
            // Tiled in 2D on a torus of fractional periods, in 3D with whole periods.
            let periods: &[[f32; 4]] = match dims {
                2 => &[[0.0; 4], [2.75, 1.5, 0.0, 0.0]],
                3 => &[[0.0; 4], [3.0, 1.0, 2.0, 0.0]],
                _ => &[[0.0; 4]],
            };
            for (text, &period) in graphs
                .iter()
                .flat_map(|t| periods.iter().map(move |p| (t, p)))
            {
                // The position warp is refused tiled (counted below).
                let Ok(program) = Graph::from_json(text).unwrap().program(dims, period) else {
                    continue;
                };
                for variant in [LookupVariant::Textures, LookupVariant::Hash] {
                    let what = format!(
                        "{text}\n{dims}D, offset {offset:?}, period {period:?}, {variant:?}"
                    );
                    let lut = CpuLookup::new(variant, 11);
                    assert_graph_identical(&lut, &what, &program, &params, checked);
                    let output = FieldOutput::Gradient;
                    assert_graph_output_identical(&lut, &what, &program, &params, output, checked);
                    checked += 1;
                }
            }
        }
    }
    // Untiled: 3 graphs, 3 offsets, 3 dimension counts, 2 lookups; tiled in 2D: 2 graphs;
    // in 3D the source alone (the warp's frequency 1.3 makes its 3D periods fractional,
    // refused; `vector_warps_on_lanes_are_bit_identical` tiles the 3D warp).
    assert_eq!(checked, 54 + 12 + 6);
}

/// The shipped graphs (examples/graphs/*.json) in every dimension they lower for, and the
/// clouds tiled in 3D as they are baked: the SIMD graph fill gives the scalar graph's bits.
#[test]
fn shipped_graphs_on_lanes_are_bit_identical() {
    let shipped = [
        (
            "terrain",
            include_str!("../../examples/graphs/terrain.json"),
        ),
        ("clouds", include_str!("../../examples/graphs/clouds.json")),
        ("marble", include_str!("../../examples/graphs/marble.json")),
        ("wood", include_str!("../../examples/graphs/wood.json")),
        ("waves", include_str!("../../examples/graphs/waves.json")),
        (
            "plateaus",
            include_str!("../../examples/graphs/plateaus.json"),
        ),
    ];
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for (name, text) in shipped {
        let graph = Graph::from_json(text).expect("a shipped graph parses");
        for dims in 2..=4 {
            let mut periods = vec![[0.0; 4]];
            if name == "clouds" && dims == 3 {
                periods.push([4.0, 4.0, 4.0, 0.0]);
            }
            for period in periods {
                let Ok(program) = graph.program(dims, period) else {
                    continue;
                };
                let field = graph_field(&mut rng, dims);
                let params = FillParams::new(&field, Slab::whole(&field));
                for (t, seed) in [0u64, 41].into_iter().enumerate() {
                    let what = format!("{name}, period {period:?}, seed {seed}");
                    let tables = CpuLookup::new(LookupVariant::Textures, seed);
                    assert_graph_identical(&tables, &what, &program, &params, t);
                    let hash = CpuLookup::new(LookupVariant::Hash, seed);
                    assert_graph_identical(&hash, &what, &program, &params, t + 1);
                }
                checked += 1;
            }
        }
    }
    // Every shipped graph lowers in 2D and 3D at least, and the tiled clouds.
    assert!(checked >= 9, "{checked} programs checked");
}

/// The divide and modulus graphs, values, gradients and (2D, 3D) curls, on lanes give the
/// scalar evaluator's bits, with both lookups, far from the origin too.
#[test]
fn divide_and_modulus_graphs_on_lanes_are_bit_identical() {
    let mut rng = Rng::new(11);
    for (g, node) in ARITHMETIC_GRAPHS.iter().enumerate() {
        let graph = Graph::from_json(&graph_of_node(node)).expect("parses");
        for dims in 2..=4 {
            let program = graph.program(dims, [0.0; 4]).expect("lowers");
            let field = graph_field(&mut rng, dims);
            let params = FillParams::new(&field, Slab::whole(&field));
            for (t, variant) in [LookupVariant::Textures, LookupVariant::Hash]
                .into_iter()
                .enumerate()
            {
                let lut = CpuLookup::new(variant, 5);
                let what = format!("arithmetic graph {g} {variant:?}");
                assert_graph_identical(&lut, &what, &program, &params, t);
                assert_graph_output_identical(
                    &lut,
                    &what,
                    &program,
                    &params,
                    FieldOutput::Gradient,
                    t,
                );
                if dims < 4 {
                    let curl = FieldOutput::Curl;
                    assert_graph_output_identical(&lut, &what, &program, &params, curl, t);
                }
            }
        }
    }
}

/// The `cellular` node with every metric (Minkowski at exponents 1, 1.5, 2 and 3.7) and
/// every output (the pairs of random indices), 2D to 4D, untiled and tiled, both lookups: the SIMD graph fill's values
/// and gradients give the scalar evaluator's bits at every level, far from the origin too.
#[test]
fn cellular_metrics_and_outputs_on_lanes_are_bit_identical() {
    let mut rng = Rng::new(48);
    let mut checked = 0;
    for &metric in choices("cellular", "distance") {
        let exponents: &[f64] = if metric == "minkowski" {
            &[1.0, 1.5, 2.0, 3.7]
        } else {
            &[1.5]
        };
        for &exponent in exponents {
            for &output in choices("cellular", "output") {
                let (a, b) = (1 + rng.below(4), 1 + rng.below(4));
                let node = format!(
                    r#"{{ "type": "cellular", "distance": "{metric}", "exponent": {exponent},
                         "output": "{output}", "a": {a}, "b": {b}, "jitter": 0.85, "seed": 5 }}"#
                );
                let graph = Graph::from_json(&graph_of_node(&node)).expect("parses");
                for dims in 2..=4 {
                    for period in [[0.0; 4], [3.0, 4.0, 2.0, 5.0]] {
                        let program = graph.program(dims, period).expect("lowers");
                        let field = graph_field(&mut rng, dims);
                        let params = FillParams::new(&field, Slab::whole(&field));
                        for (t, variant) in [LookupVariant::Textures, LookupVariant::Hash]
                            .into_iter()
                            .enumerate()
                        {
                            let lut = CpuLookup::new(variant, 9);
                            let what = format!("{node} {dims}D {period:?} {variant:?}");
                            assert_graph_identical(&lut, &what, &program, &params, t);
                            let gradient = FieldOutput::Gradient;
                            assert_graph_output_identical(
                                &lut, &what, &program, &params, gradient, t,
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    eprintln!("CELLULAR LANES: {checked} programs bit for bit, values and gradients");
    assert!(checked >= 9 * 4 * 3 * 2 * 2, "{checked}");
}

/// The `cellular-lookup` node (every metric, lookups of `simplex`, `position` and a sum with
/// a warp under it), 2D to 4D, untiled and tiled, both lookups: the SIMD graph fill's values
/// and gradients (the scalar search per lane, then the lookup on lanes) give the scalar
/// evaluator's bits at every level, far from the origin too.
#[test]
fn cellular_lookup_on_lanes_is_bit_identical() {
    let mut rng = Rng::new(4805);
    let mut checked = 0;
    let sources = [
        r#"{ "type": "simplex", "seed": 2 }"#,
        r#"{ "type": "position", "axis": "y" }"#,
        r#"{ "type": "add", "a": { "type": "classic" }, "b": { "type": "warp", "source": { "type": "value" }, "amplitude": 0.5 } }"#,
    ];
    for &metric in choices("cellular-lookup", "distance") {
        for source in sources {
            let node = format!(
                r#"{{ "type": "cellular-lookup", "source": {source}, "distance": "{metric}",
                     "exponent": 2.5, "frequency": 0.3, "jitter": 0.85, "seed": 5 }}"#
            );
            let graph = Graph::from_json(&graph_of_node(&node)).expect("parses");
            for dims in 2..=4 {
                for period in [[0.0; 4], [3.0, 4.0, 2.0, 5.0]] {
                    let program = graph.program(dims, period).expect("lowers");
                    let field = graph_field(&mut rng, dims);
                    let params = FillParams::new(&field, Slab::whole(&field));
                    for (t, variant) in [LookupVariant::Textures, LookupVariant::Hash]
                        .into_iter()
                        .enumerate()
                    {
                        let lut = CpuLookup::new(variant, 9);
                        let what = format!("{node} {dims}D {period:?} {variant:?}");
                        assert_graph_identical(&lut, &what, &program, &params, t);
                        let gradient = FieldOutput::Gradient;
                        assert_graph_output_identical(&lut, &what, &program, &params, gradient, t);
                        checked += 1;
                    }
                }
            }
        }
    }
    eprintln!("CELLULAR LOOKUP LANES: {checked} programs bit for bit, values and gradients");
    assert!(checked >= 6 * 3 * 3 * 2 * 2, "{checked}");
}

/// FastNoise2's warped tree (a fractal of one noise at a point the `vector` warp moved: one
/// warp octave, one iteration) and its variations take the graph fill's segment kernel
/// (`simd::graph_has_warped_kernel`) and give the scalar evaluator's bits: 2D to 4D, every
/// fractal mode or the noise alone, one to six octaves, warp frequencies 1 and 2.5, negative and large
/// amplitudes, tiled, five source kinds, rows of one sample to several segments, both
/// lookups, every level. Shapes beside it (two warp octaves, an iterated warp, a driven
/// amplitude, a `simplex` warp) take the operation loop, with the same bits.
#[test]
fn the_warped_fractal_kernel_gives_the_operation_loops_bits() {
    let mut rng = Rng::new(20_261_129);
    let mut kernels = 0;
    // `mode` "none": the source warped with no fractal around it, scaled by the lacunarity.
    let warped = |source: &str, mode: &str, octaves: u32, lacunarity: f64, warp: &str| {
        let fractal = match mode {
            "none" => format!(
                r#"{{ "type": "scale", "source": {{ "type": "{source}" }}, "by": {lacunarity} }}"#
            ),
            _ => format!(
                r#"{{ "type": "{mode}", "source": {{ "type": "{source}" }},
                      "octaves": {octaves}, "gain": 0.6, "lacunarity": {lacunarity} }}"#
            ),
        };
        format!(
            r#"{{ "version": 1, "output": "w", "nodes": {{ "w": {{ "type": "warp",
                "source": {fractal}, "noise": "vector", {warp} }} }} }}"#
        )
    };
    let modes = [
        ("fbm", 5),
        ("ridged", 3),
        ("turbulence", 1),
        ("fbm", 6),
        ("none", 1),
    ];
    for dims in 2..=4 {
        for (mode, octaves) in modes {
            let source = *rng.pick(&["simplex", "classic", "value", "supersimplex", "cellular"]);
            let amplitude = *rng.pick(&[0.5, -3.0, 40.0]);
            // A tiled field keeps whole periods: whole frequencies and lacunarity.
            let tiled = source != "supersimplex" && rng.below(3) == 0;
            let (frequency, lacunarity) = match tiled {
                true => (*rng.pick(&[1.0, 2.0]), 2.0),
                false => (*rng.pick(&[1.0, 2.5]), 2.1),
            };
            let text = warped(
                source,
                mode,
                octaves,
                lacunarity,
                &format!(r#""amplitude": {amplitude}, "frequency": {frequency}"#),
            );
            let period = if tiled {
                [4.0, 3.0, 5.0, 2.0]
            } else {
                [0.0; 4]
            };
            let program = Graph::from_json(&text)
                .unwrap()
                .program(dims, period)
                .unwrap_or_else(|e| panic!("{text}\n{e}"));
            let x = *rng.pick(&[1u32, 17, 300]);
            let size: Vec<u32> = (0..dims).map(|a| if a == 0 { x } else { 2 }).collect();
            let offset: Vec<f64> = (0..dims).map(|_| rng.range(-1e4, 1e4)).collect();
            let field = FlagField::new(NoiseKind::Simplex, &size)
                .with_frequency(&vec![3.0; dims])
                .with_offset(&offset);
            let params = FillParams::new(&field, Slab::whole(&field));
            for variant in [LookupVariant::Textures, LookupVariant::Hash] {
                let what = format!("{text}\n{dims}D, period {period:?}, {variant:?}");
                // 4D cellular noise with the texture tables has no lane function.
                let lanes =
                    !(source == "cellular" && dims == 4 && variant == LookupVariant::Textures);
                assert_eq!(
                    simd::graph_has_warped_kernel(&program, variant),
                    lanes,
                    "{what}"
                );
                kernels += usize::from(lanes);
                let lut = CpuLookup::new(variant, 3);
                assert_graph_identical(&lut, &what, &program, &params, kernels);
            }
        }
    }
    assert!(kernels >= 20, "{kernels} programs took the kernel");
    let beside = [
        r#""amplitude": 0.5, "octaves": 2"#,
        r#""amplitude": 0.5, "iterations": 2"#,
        r#""amplitude": { "type": "position", "axis": "y" }"#,
    ];
    let mut texts: Vec<String> = beside
        .iter()
        .map(|w| warped("simplex", "fbm", 3, 2.0, w))
        .collect();
    let simplex_warp = warped("simplex", "fbm", 3, 2.0, r#""amplitude": 0.5"#);
    texts.push(simplex_warp.replace(r#""vector""#, r#""simplex""#));
    let field = FlagField::new(NoiseKind::Simplex, &[33, 3, 2]).with_offset(&[-7.0, 3.0, 1e3]);
    let params = FillParams::new(&field, Slab::whole(&field));
    for (i, text) in texts.iter().enumerate() {
        let program = Graph::from_json(text)
            .unwrap()
            .program(3, [0.0; 4])
            .unwrap();
        let lut = CpuLookup::new(LookupVariant::Hash, 5);
        assert!(
            !simd::graph_has_warped_kernel(&program, LookupVariant::Hash),
            "{text}"
        );
        assert_graph_identical(&lut, text, &program, &params, i);
    }
}
