//! CPU mirror of `shaders/warp.wgsl`: domain warp, in the shader's order of operations.
//! The convention is written out at the top of that file.

use super::cellular::CellularShape;
use super::fractal::base_noise;
use super::lookup::NoiseHasher;
use super::real::Real;
use crate::field::NoiseKind;
use crate::params::NoiseSettings;

/// Where each warp component samples its noise, per axis (`WGPU_NOISE_WARP_SHIFT`).
pub const WARP_SHIFT: [f64; 4] = [19.25, 33.75, 47.5, 61.125];

/// The gradient noise that warps a field of `kind` (`wgpu_noise_warp_kind`).
pub fn warp_kind(kind: NoiseKind) -> NoiseKind {
    match kind {
        NoiseKind::Simplex => NoiseKind::Simplex,
        NoiseKind::Classic | NoiseKind::Cellular | NoiseKind::Value | NoiseKind::SuperSimplex => {
            NoiseKind::Classic
        }
    }
}

/// fBm of the warp noise `kind` at `p` (`wgpu_noise_warp_fbm2/3/4`).
fn warp_fbm<R: Real>(
    lut: &impl NoiseHasher,
    kind: NoiseKind,
    p: &[R],
    period: &[R],
    settings: &NoiseSettings,
) -> R {
    let dims = p.len();
    let gain = R::lit(settings.gain as f64);
    let lacunarity = R::lit(settings.lacunarity as f64);
    let cell = CellularShape::of(settings);
    let mut sum = R::lit(0.0);
    let mut norm = R::lit(0.0);
    let mut amplitude = R::lit(1.0);
    let mut frequency = R::lit(1.0);
    let mut q = [R::lit(0.0); 4];
    let mut qp = [R::lit(0.0); 4];
    for _ in 0..settings.warp_octaves {
        for a in 0..dims {
            q[a] = p[a] * frequency;
            qp[a] = period[a] * frequency;
        }
        // The warp noise does not flow (flow angle 0).
        let n = base_noise(
            lut,
            kind,
            &q[..dims],
            &qp[..dims],
            settings.kernel,
            &cell,
            R::lit(0.0),
        );
        sum = sum + amplitude * n;
        norm = norm + amplitude;
        amplitude = amplitude * gain;
        frequency = frequency * lacunarity;
    }
    sum / norm
}

/// The point a field of `kind` with `settings` samples instead of `p` (2 to 4
/// coordinates; `p` itself when `settings.warp_iterations` is 0): `warp2/3/4`.
pub fn warp<R: Real>(
    lut: &impl NoiseHasher,
    kind: NoiseKind,
    p: &[R],
    settings: &NoiseSettings,
) -> [R; 4] {
    let dims = p.len();
    let kind = warp_kind(kind);
    let frequency = R::lit(settings.warp_frequency as f64);
    let amplitude = R::lit(settings.warp_amplitude as f64);
    let mut period = [R::lit(0.0); 4];
    let mut q = [R::lit(0.0); 4];
    for a in 0..dims {
        period[a] = R::lit(settings.period[a] as f64) * frequency;
        q[a] = p[a];
    }
    for k in 0..settings.warp_iterations {
        let mut base = [R::lit(0.0); 4];
        for a in 0..dims {
            base[a] = q[a] * frequency;
        }
        let j = R::from_u32(k * dims as u32);
        let mut d = [R::lit(0.0); 4];
        for (a, d) in d.iter_mut().enumerate().take(dims) {
            let mut at = [R::lit(0.0); 4];
            let times = j + R::from_u32(a as u32 + 1);
            for b in 0..dims {
                at[b] = base[b] + R::lit(WARP_SHIFT[b]) * times;
            }
            *d = warp_fbm(lut, kind, &at[..dims], &period[..dims], settings);
        }
        for a in 0..dims {
            q[a] = p[a] + amplitude * d[a];
        }
    }
    q
}
