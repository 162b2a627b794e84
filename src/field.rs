//! What to generate: a regular grid of noise samples, and its sampling convention.
//!
//! **Sampling convention** (the same in every path: GPU, CPU, bake, preview): texel `i`
//! along an axis of `N` texels samples the noise at `offset + frequency * i / N`.
//! `frequency` is the number of lattice cells across the texture, and texels sit on cell
//! corners, so periodic noise tiles exactly.
//!
//! **Memory layout** of a field: `x` fastest, then `y`, then `z`, then `w`. A 4D field is
//! a stack of 3D volumes, one per `w` step.

use crate::error::{NoiseError, Result};

/// The noise family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoiseKind {
    /// Classic Perlin noise (gradient noise on the square lattice, quintic fade).
    Classic,
    /// Gustavson's simplex noise.
    Simplex,
}

impl NoiseKind {
    /// Both kinds, for iteration.
    pub const ALL: [NoiseKind; 2] = [NoiseKind::Classic, NoiseKind::Simplex];

    /// Lower-case name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            NoiseKind::Classic => "classic",
            NoiseKind::Simplex => "simplex",
        }
    }
}

impl std::fmt::Display for NoiseKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The largest number of samples one field may hold (2³² − 1): indices stay exact in
/// `f32` up to 2²⁴ per axis, and a `Vec<f32>` of this size is already 16 GiB.
pub const MAX_FIELD_SAMPLES: u64 = u32::MAX as u64;

/// The largest size of one axis (2²⁴): texel indices are converted to `f32` exactly.
pub const MAX_AXIS_SIZE: u32 = 1 << 24;

/// A regular grid of noise samples in 2, 3 or 4 dimensions.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The noise family.
    pub kind: NoiseKind,
    /// Number of dimensions, 2 to 4.
    pub dims: usize,
    /// Texels per axis `[x, y, z, w]`; unused axes are 1.
    pub size: [u32; 4],
    /// Lattice cells across the field per axis; unused axes are ignored.
    pub frequency: [f64; 4],
    /// Noise-space coordinate of texel 0 per axis.
    pub offset: [f64; 4],
    /// Reduce `offset` by whole lattice periods on the host, in `f64`, before it is
    /// rounded to `f32` (on by default; see [`Field::reduced_offset`]).
    pub reduce_offset: bool,
}

impl Field {
    /// A field of `kind` with `size.len()` (2 to 4) dimensions, frequency 1 and offset 0 on
    /// every axis. Call [`Field::validate`] (every generator does) to check it.
    pub fn new(kind: NoiseKind, size: &[u32]) -> Self {
        let mut full = [1u32; 4];
        for (d, s) in full.iter_mut().zip(size) {
            *d = *s;
        }
        Field {
            kind,
            dims: size.len(),
            size: full,
            frequency: [1.0; 4],
            offset: [0.0; 4],
            reduce_offset: true,
        }
    }

    /// Sets the frequency (lattice cells across the field) of every axis.
    pub fn with_frequency(mut self, frequency: &[f64]) -> Self {
        for (d, f) in self.frequency.iter_mut().zip(frequency) {
            *d = *f;
        }
        self
    }

    /// Sets the offset (coordinate of texel 0) of every axis.
    pub fn with_offset(mut self, offset: &[f64]) -> Self {
        for (d, o) in self.offset.iter_mut().zip(offset) {
            *d = *o;
        }
        self
    }

    /// Total number of samples.
    pub fn len(&self) -> u64 {
        self.size.iter().map(|&s| s as u64).product()
    }

    /// Whether the field holds no sample (never true for a validated field).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Checks dimensions, sizes and parameters; every generator calls it first.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(NoiseError::InvalidField(m));
        if !(2..=4).contains(&self.dims) {
            return bad(format!("dimensions must be 2, 3 or 4, not {}", self.dims));
        }
        for axis in 0..4 {
            let name = AXIS_NAMES[axis];
            let size = self.size[axis];
            if axis >= self.dims {
                if size != 1 {
                    return bad(format!("axis {name} is unused in {}D but has size {size}", self.dims));
                }
                continue;
            }
            if size == 0 {
                return bad(format!("size along {name} is 0"));
            }
            if size > MAX_AXIS_SIZE {
                return bad(format!("size along {name} is {size}, above the maximum {MAX_AXIS_SIZE}"));
            }
            if !self.frequency[axis].is_finite() {
                return bad(format!("frequency along {name} is {}", self.frequency[axis]));
            }
            if !self.offset[axis].is_finite() {
                return bad(format!("offset along {name} is {}", self.offset[axis]));
            }
        }
        if self.len() > MAX_FIELD_SAMPLES {
            return bad(format!("{} samples is above the maximum {MAX_FIELD_SAMPLES}", self.len()));
        }
        Ok(())
    }

    /// The coordinate step per texel along each axis, `frequency / size`, in `f64`.
    pub fn step(&self) -> [f64; 4] {
        std::array::from_fn(|a| self.frequency[a] / self.size[a] as f64)
    }

    /// The offset the generators use: with [`Field::reduce_offset`], the same point of the
    /// noise moved by whole lattice periods to near the origin, so that it survives the
    /// rounding to `f32` (design note: f32 keeps ~7 digits; at 10⁶ a cell has 1/16 steps).
    ///
    /// The lattice repeats every 256 cells. For classic noise that is 256 along each axis.
    /// For simplex noise the period lies along the skewed axes: the offset is skewed,
    /// reduced modulo 256 per axis, and the removed whole periods are unskewed back.
    pub fn reduced_offset(&self) -> [f64; 4] {
        if !self.reduce_offset {
            return self.offset;
        }
        reduce_by_periods(self.kind, self.dims, self.offset)
    }

    /// The `f64` coordinate of the texel at `index` (unreduced offset: the true point).
    pub fn coordinate(&self, index: [u32; 4]) -> [f64; 4] {
        let step = self.step();
        std::array::from_fn(|a| self.offset[a] + step[a] * index[a] as f64)
    }
}

/// Axis names in field order.
pub const AXIS_NAMES: [&str; 4] = ["x", "y", "z", "w"];

/// Moves `offset` by whole lattice periods of `kind` in `dims` dimensions towards the
/// origin (see [`Field::reduced_offset`]).
pub fn reduce_by_periods(kind: NoiseKind, dims: usize, offset: [f64; 4]) -> [f64; 4] {
    let period = crate::tables::PERIOD as f64;
    let whole = |v: f64| period * (v / period).floor();
    let mut out = offset;
    match kind {
        NoiseKind::Classic => {
            for v in out.iter_mut().take(dims) {
                *v -= whole(*v);
            }
        }
        NoiseKind::Simplex => {
            let (f, g) = crate::cpu::simplex::skew_factors(dims);
            let sum: f64 = offset[..dims].iter().sum();
            let s = sum * f;
            // Whole periods in skewed space, then their unskewed images.
            let mut periods = [0.0f64; 4];
            for a in 0..dims {
                periods[a] = whole(offset[a] + s);
            }
            let t = periods[..dims].iter().sum::<f64>() * g;
            for a in 0..dims {
                out[a] = offset[a] - (periods[a] - t);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_names_the_problem() {
        let err = Field::new(NoiseKind::Simplex, &[0, 4]).validate().unwrap_err();
        assert!(err.to_string().contains("size along x is 0"), "{err}");
        let err = Field::new(NoiseKind::Simplex, &[4, 4])
            .with_frequency(&[f64::NAN, 1.0])
            .validate()
            .unwrap_err();
        assert!(err.to_string().contains("frequency along x"), "{err}");
    }
}
