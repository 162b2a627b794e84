//! The CPU reference: every noise function in `f64` (Gustavson's Java code, reproduced) and
//! in `f32` (the shaders, mirrored operation for operation).
//!
//! Each file here mirrors the shader of the same name under `shaders/`.
//!
//! # Output ranges
//!
//! The measured extremes of every function (f64, 10⁶ random points in [-1000, 1000]ⁿ, seed 0)
//! are tabulated in docs/conventions.md; `tests/reference/output_range.rs` re-measures them
//! and asserts the bounds.
//!
//! Simplex noise stays within [-1, 1] (Gustavson's scale factors 70, 32, 27). Classic
//! noise has no scale factor; its bound is √N/2 times the gradient length. Classic noise
//! is zero at every integer lattice point, by construction.

pub mod cellular;
pub mod classic;
pub mod combine;
pub mod curl;
pub mod fill;
pub mod fractal;
pub mod lattice;
pub mod lookup;
pub mod real;
pub mod simd;
pub mod simplex;
pub mod supersimplex;
pub mod value;
pub mod warp;

use std::sync::Arc;

pub use real::Real;

pub use lookup::{CpuLookup, IntegerHasher, NoiseHasher, TableLookup};
pub use simd::{fill_field, simd_level};

use crate::field::NoiseKind;
use crate::tables::PermutationTables;

/// The arithmetic precision of the CPU reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// `f32`, mirroring the GPU shaders.
    F32,
    /// `f64`, reproducing Gustavson's Java code.
    F64,
}

/// Evaluates `kind` noise at `p` (2, 3 or 4 coordinates); cellular noise with its default
/// options (F1, Euclidean, jitter 1; others through [`cellular::cellular`]).
///
/// # Panics
/// If `p` does not have 2, 3 or 4 coordinates (a programming error, not an input error).
#[inline]
pub fn noise_at<R: Real>(lut: &impl NoiseHasher, kind: NoiseKind, p: &[R]) -> R {
    match (kind, p) {
        (NoiseKind::Classic, &[x, y]) => classic::classic2(lut, x, y),
        (NoiseKind::Classic, &[x, y, z]) => classic::classic3(lut, x, y, z),
        (NoiseKind::Classic, &[x, y, z, w]) => classic::classic4(lut, x, y, z, w),
        (NoiseKind::Simplex, &[x, y]) => simplex::simplex2(lut, x, y),
        (NoiseKind::Simplex, &[x, y, z]) => simplex::simplex3(lut, x, y, z),
        (NoiseKind::Simplex, &[x, y, z, w]) => simplex::simplex4(lut, x, y, z, w),
        (NoiseKind::Value, &[x, y]) => value::value2_periodic(lut, [x, y], [256; 2]),
        (NoiseKind::Value, &[x, y, z]) => value::value3_periodic(lut, [x, y, z], [256; 3]),
        (NoiseKind::Value, &[x, y, z, w]) => value::value4_periodic(lut, [x, y, z, w], [256; 4]),
        (NoiseKind::SuperSimplex, &[x, y]) => supersimplex::supersimplex2(lut, [x, y]),
        (NoiseKind::SuperSimplex, &[x, y, z]) => supersimplex::supersimplex3(lut, [x, y, z]),
        (NoiseKind::SuperSimplex, &[x, y, z, w]) => supersimplex::supersimplex4(lut, [x, y, z, w]),
        (NoiseKind::Cellular, &[_, _, ..]) if p.len() <= 4 => {
            cellular::cellular(lut, p, &cellular::CellularShape::default())
        }
        _ => panic!("noise_at has no {kind} noise in {} coordinates", p.len()),
    }
}

/// A noise function in the style of noise-rs's `NoiseFn`: `get([x, y])`, `get([x, y, z])`,
/// `get([x, y, z, w])` in `f64`.
pub trait NoiseFn<const N: usize> {
    /// The noise value at `point`.
    fn get(&self, point: [f64; N]) -> f64;
}

/// Shared by [`Simplex`] and [`Classic`]: the seed's tables, cheap to clone.
#[derive(Clone, Debug)]
struct Seeded(Arc<PermutationTables>);

impl Seeded {
    fn new(seed: u64) -> Self {
        Seeded(Arc::new(PermutationTables::new(seed)))
    }
}

/// Simplex noise on the CPU, noise-rs style: `Simplex::new(seed).get([x, y, z])`.
///
/// Seed 0 gives Gustavson's reference values.
#[derive(Clone, Debug)]
pub struct Simplex(Seeded);

/// Classic Perlin noise on the CPU, noise-rs style: `Classic::new(seed).get([x, y, z])`.
///
/// Seed 0 gives Gustavson's reference values.
#[derive(Clone, Debug)]
pub struct Classic(Seeded);

impl Simplex {
    /// Simplex noise with the tables of `seed` (0 = Perlin's permutation).
    pub fn new(seed: u64) -> Self {
        Simplex(Seeded::new(seed))
    }
}

impl Classic {
    /// Classic noise with the tables of `seed` (0 = Perlin's permutation).
    pub fn new(seed: u64) -> Self {
        Classic(Seeded::new(seed))
    }
}

macro_rules! impl_noise_fn {
    ($ty:ty, $kind:expr) => {
        impl<const N: usize> NoiseFn<N> for $ty {
            fn get(&self, point: [f64; N]) -> f64 {
                noise_at::<f64>(&*self.0 .0, $kind, &point)
            }
        }
    };
}

impl_noise_fn!(Simplex, NoiseKind::Simplex);
impl_noise_fn!(Classic, NoiseKind::Classic);
