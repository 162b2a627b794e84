//! CPU mirror of `shaders/fill.wgsl`: the same [`FillParams`], the same sampling
//! arithmetic in `f32`, spread over all cores with rayon.

use rayon::prelude::*;

use super::fractal::{fbm_deriv, fractal};
use super::lookup::Lookup;
use super::Precision;
use crate::field::{Field, NoiseKind};
use crate::params::{FillParams, NoiseSettings, Slab};

/// The sampling convention, as `sample_point` in the shader: `offset + step * index`.
#[inline(always)]
pub fn sample_point(params: &FillParams, index: [u32; 4]) -> [f32; 4] {
    std::array::from_fn(|a| params.offset[a] + params.step[a] * (params.origin[a] + index[a]) as f32)
}

/// Fills `out` (x fastest) with the slab `params` describes, exactly as the GPU would
/// (f32 arithmetic, same parameters), using all cores.
pub fn fill_slab(lut: &impl Lookup, kind: NoiseKind, dims: usize, params: &FillParams, out: &mut [f32]) {
    let [nx, ny, nz, _] = params.extent.map(|e| e as usize);
    assert_eq!(out.len(), params.len(), "output length must match the slab");
    // One row (fixed y, z, w) per task: enough parallelism, little overhead.
    out.par_chunks_mut(nx).enumerate().for_each(|(row, values)| {
        let y = (row % ny) as u32;
        let z = ((row / ny) % nz) as u32;
        let w = (row / (ny * nz)) as u32;
        for (x, v) in values.iter_mut().enumerate() {
            let p = sample_point(params, [x as u32, y, z, w]);
            *v = fractal::<f32>(lut, kind, &p[..dims], &params.settings);
        }
    });
}

/// Like [`fill_slab`] for a gradient field (see [`crate::Field::check_gradient`]):
/// `[value, ∂/∂x, ∂/∂y, ∂/∂z]` per texel, as the shader's `fill_2d_gradient`/`fill_3d_gradient`.
pub fn fill_slab_gradient(lut: &impl Lookup, dims: usize, params: &FillParams, out: &mut [[f32; 4]]) {
    let [nx, ny, nz, _] = params.extent.map(|e| e as usize);
    assert_eq!(out.len(), params.len(), "output length must match the slab");
    out.par_chunks_mut(nx).enumerate().for_each(|(row, values)| {
        let y = (row % ny) as u32;
        let z = ((row / ny) % nz) as u32;
        for (x, v) in values.iter_mut().enumerate() {
            let p = sample_point(params, [x as u32, y, z, 0]);
            *v = fbm_deriv::<f32>(lut, &p[..dims], &params.settings);
        }
    });
}

/// The whole field in `f32`, mirroring the GPU (all cores).
pub fn generate_f32(lut: &impl Lookup, field: &Field) -> crate::Result<Vec<f32>> {
    field.validate()?;
    let params = FillParams::new(field, Slab::whole(field));
    let mut out = vec![0.0f32; params.len()];
    fill_slab(lut, field.kind, field.dims, &params, &mut out);
    Ok(out)
}

/// The whole field in `f64` at the true (unreduced) coordinates: the reference values.
/// (Lacunarity, gain and tile periods are the `f32` values the GPU receives.)
pub fn generate_f64(lut: &impl Lookup, field: &Field) -> crate::Result<Vec<f64>> {
    field.validate()?;
    let [nx, ny, nz, _] = field.size.map(|e| e as usize);
    let settings = NoiseSettings::of(field);
    let mut out = vec![0.0f64; field.len() as usize];
    out.par_chunks_mut(nx).enumerate().for_each(|(row, values)| {
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
pub fn generate(lut: &impl Lookup, field: &Field, precision: Precision) -> crate::Result<Vec<f32>> {
    match precision {
        Precision::F32 => generate_f32(lut, field),
        Precision::F64 => Ok(generate_f64(lut, field)?.into_iter().map(|v| v as f32).collect()),
    }
}
