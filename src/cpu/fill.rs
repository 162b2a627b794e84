//! CPU mirror of `shaders/fill.wgsl`: the same [`FillParams`], the same sampling
//! arithmetic in `f32`, spread over all cores with rayon (the `rayon` feature; without it
//! the same rows are filled in order on the calling thread, with the same values).

#[cfg(feature = "rayon")]
use rayon::prelude::*;

/// Without the `rayon` feature, `par_chunks_mut` is the sequential `chunks_mut`, so the
/// fills below read the same either way.
#[cfg(not(feature = "rayon"))]
trait SerialChunks<T> {
    fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T>;
}

#[cfg(not(feature = "rayon"))]
impl<T> SerialChunks<T> for [T] {
    fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T> {
        self.chunks_mut(size)
    }
}

use super::classic::{classic2, classic3, classic4};
use super::fractal::{fbm_deriv, fractal};
use super::lookup::NoiseHasher;
use super::simplex::{simplex2, simplex3, simplex4};
use super::Precision;
use crate::field::{FlagField, NoiseKind};
use crate::params::{FillParams, NoiseSettings, Slab, FRACTAL_FBM, KERNEL_REFERENCE};

/// The sampling convention, as `sample_point` in the shader: `offset + step * index`.
#[inline(always)]
pub fn sample_point(params: &FillParams, index: [u32; 4]) -> [f32; 4] {
    std::array::from_fn(|a| {
        params.offset[a] + params.step[a] * (params.origin[a] + index[a]) as f32
    })
}

/// Fills `out` (x fastest) with the slab `params` describes, exactly as the GPU would
/// (f32 arithmetic, same parameters), using all cores.
pub fn fill_slab(
    lut: &impl NoiseHasher,
    kind: NoiseKind,
    dims: usize,
    params: &FillParams,
    out: &mut [f32],
) {
    let s = &params.settings;
    // One fBm octave of untiled noise with the reference kernel is the base function
    // exactly (the sum is 0 + 1·n, divided by 1), so call it directly: the same values
    // without the per-sample bookkeeping of the octave loop.
    let plain = s.octaves == 1
        && s.mode == FRACTAL_FBM
        && s.kernel == KERNEL_REFERENCE
        && s.period == [0.0; 4]
        && s.warp_iterations == 0
        && s.flow_angle == 0.0;
    match (plain, kind, dims) {
        (true, NoiseKind::Classic, 2) => fill_rows(params, out, |p| classic2(lut, p[0], p[1])),
        (true, NoiseKind::Classic, 3) => {
            fill_rows(params, out, |p| classic3(lut, p[0], p[1], p[2]))
        }
        (true, NoiseKind::Classic, 4) => {
            fill_rows(params, out, |p| classic4(lut, p[0], p[1], p[2], p[3]))
        }
        (true, NoiseKind::Simplex, 2) => fill_rows(params, out, |p| simplex2(lut, p[0], p[1])),
        (true, NoiseKind::Simplex, 3) => {
            fill_rows(params, out, |p| simplex3(lut, p[0], p[1], p[2]))
        }
        (true, NoiseKind::Simplex, 4) => {
            fill_rows(params, out, |p| simplex4(lut, p[0], p[1], p[2], p[3]))
        }
        _ => fill_rows(params, out, |p| fractal::<f32>(lut, kind, &p[..dims], s)),
    }
}

/// Evaluates `noise` at every texel's sample point, one row (fixed y, z, w) per rayon task.
pub(crate) fn fill_rows<T: Send>(
    params: &FillParams,
    out: &mut [T],
    noise: impl Fn([f32; 4]) -> T + Sync,
) {
    let [nx, ny, nz, _] = params.extent.map(|e| e as usize);
    assert_eq!(out.len(), params.len(), "output length must match the slab");
    out.par_chunks_mut(nx)
        .enumerate()
        .for_each(|(row, values)| {
            let y = (row % ny) as u32;
            let z = ((row / ny) % nz) as u32;
            let w = (row / (ny * nz)) as u32;
            for (x, v) in values.iter_mut().enumerate() {
                *v = noise(sample_point(params, [x as u32, y, z, w]));
            }
        });
}

/// Like [`fill_slab`] for a gradient field (see [`crate::field::Field::check_gradient`]):
/// `[value, ∂/∂x, ∂/∂y, ∂/∂z]` per texel, as the shader's `fill_2d_gradient`/`fill_3d_gradient`.
pub fn fill_slab_gradient(
    lut: &impl NoiseHasher,
    dims: usize,
    params: &FillParams,
    out: &mut [[f32; 4]],
) {
    let [nx, ny, nz, _] = params.extent.map(|e| e as usize);
    assert_eq!(out.len(), params.len(), "output length must match the slab");
    out.par_chunks_mut(nx)
        .enumerate()
        .for_each(|(row, values)| {
            let y = (row % ny) as u32;
            let z = ((row / ny) % nz) as u32;
            for (x, v) in values.iter_mut().enumerate() {
                let p = sample_point(params, [x as u32, y, z, 0]);
                *v = fbm_deriv::<f32>(lut, &p[..dims], &params.settings);
            }
        });
}

/// Curl noise at every texel's sample point (`cpu::curl`): `dims` values per texel,
/// interleaved (see [`crate::field::Field::check_curl`]).
pub fn fill_slab_curl(lut: &impl NoiseHasher, dims: usize, params: &FillParams, out: &mut [f32]) {
    let [nx, ny, nz, _] = params.extent.map(|e| e as usize);
    assert_eq!(
        out.len(),
        params.len() * dims,
        "output length must match the slab"
    );
    out.par_chunks_mut(nx * dims)
        .enumerate()
        .for_each(|(row, values)| {
            let y = (row % ny) as u32;
            let z = ((row / ny) % nz) as u32;
            for (x, v) in values.chunks_exact_mut(dims).enumerate() {
                let p = sample_point(params, [x as u32, y, z, 0]);
                if dims == 2 {
                    v.copy_from_slice(&super::curl::curl2::<f32>(lut, p[0], p[1]));
                } else {
                    v.copy_from_slice(&super::curl::curl3::<f32>(lut, [p[0], p[1], p[2]]));
                }
            }
        });
}

/// The whole field in `f32`, mirroring the GPU (all cores).
pub fn generate_f32(lut: &impl NoiseHasher, field: &FlagField) -> crate::error::Result<Vec<f32>> {
    field.validate()?;
    let params = FillParams::new(field, Slab::whole(field));
    let mut out = vec![0.0f32; params.len()];
    fill_slab(lut, field.kind, field.dims, &params, &mut out);
    Ok(out)
}

/// The whole field in `f64` at the true (unreduced) coordinates: the reference values.
/// (Lacunarity, gain and tile periods are the `f32` values the GPU receives.)
pub fn generate_f64(lut: &impl NoiseHasher, field: &FlagField) -> crate::error::Result<Vec<f64>> {
    field.validate()?;
    let [nx, ny, nz, _] = field.size.map(|e| e as usize);
    let settings = NoiseSettings::of(field);
    let mut out = vec![0.0f64; field.len() as usize];
    out.par_chunks_mut(nx)
        .enumerate()
        .for_each(|(row, values)| {
            let y = (row % ny) as u32;
            let z = ((row / ny) % nz) as u32;
            let w = (row / (ny * nz)) as u32;
            for (x, v) in values.iter_mut().enumerate() {
                let p = field.coordinate([x as u32, y, z, w]);
                *v = fractal::<f64>(lut, field.kind, &p[..field.dims], &settings);
            }
        });
    Ok(out)
}

/// Generates `field` at the given precision: `F32` mirrors the GPU, `F64` is the reference.
pub fn generate(
    lut: &impl NoiseHasher,
    field: &FlagField,
    precision: Precision,
) -> crate::error::Result<Vec<f32>> {
    match precision {
        Precision::F32 => generate_f32(lut, field),
        Precision::F64 => Ok(generate_f64(lut, field)?
            .into_iter()
            .map(|v| v as f32)
            .collect()),
    }
}
