//! CPU mirror of `shaders/fractal.wgsl`: fractal sums, tiling and kernel choice over the
//! base noise, in the shader's order of operations.

use super::cellular::{
    cellular_feature_jitter_slope, cellular_periodic_parameter_slope, CellParameter,
    cellular_feature, cellular_periodic, cellular_periodic_deriv, CellularShape,
};
use super::classic::{
    classic2_periodic, classic2_periodic_deriv, classic3_periodic, classic3_periodic_deriv,
    classic4_periodic, classic4_periodic_deriv,
};
use super::lookup::NoiseHasher;
use super::real::Real;
use super::simplex::{
    flow2, flow2_deriv, flow3, flow3_deriv, flow3_r2, simplex2, simplex2_deriv, simplex2_tiled,
    simplex2_tiled_deriv, simplex3, simplex3_deriv, simplex3_periodic, simplex3_periodic_deriv,
    simplex3_r2, simplex4, simplex4_deriv, simplex4_r2, simplex_vector, simplex_vector_deriv,
    SimplexVectorForm, SIMPLEX34_R2, SIMPLEX3_R05_SCALE, SIMPLEX4_R05_SCALE,
};
use super::supersimplex::{
    supersimplex2, supersimplex2_deriv, supersimplex2_tiled, supersimplex2_tiled_deriv,
    supersimplex3, supersimplex3_deriv, supersimplex3_tiled, supersimplex3_tiled_deriv,
    supersimplex4, supersimplex4_deriv, supersimplex_vector, supersimplex_vector2_tiled,
    supersimplex_vector3_tiled, supersimplex_vector_deriv, supersimplex_vector_deriv2_tiled,
    supersimplex_vector_deriv3_tiled,
};
use super::value::{
    value2_periodic, value2_periodic_deriv, value3_periodic, value3_periodic_deriv,
    value4_periodic, value4_periodic_deriv, value_vector, value_vector_deriv,
};
use crate::field::NoiseKind;
use crate::params::{NoiseSettings, FRACTAL_RIDGED, FRACTAL_TURBULENCE, KERNEL_CONTINUOUS};

/// Lattice period of classic noise along one axis: the tile period, or the tables' 256.
#[inline(always)]
fn lattice_period<R: Real>(period: R) -> u32 {
    if period > R::lit(0.0) {
        // WGSL's round() rounds halves to even; periods are whole numbers, so no half occurs.
        period.to_f64().round() as u32
    } else {
        256
    }
}

/// The lattice period of each of the first `dims` axes of `period` ([`lattice_period`]), 256
/// past them.
#[inline(always)]
fn lattice_periods<R: Real>(period: &[R], dims: usize) -> [u32; 4] {
    std::array::from_fn(|a| if a < dims { lattice_period(period[a]) } else { 256 })
}

/// The lattice periods of a tiled 3D noise's axes ([`lattice_period`]).
#[inline(always)]
fn lattice_periods3<R: Real>(period: &[R]) -> [u32; 3] {
    std::array::from_fn(|a| lattice_period(period[a]))
}

/// The base noise of `kind` at `p` (2 to 4 coordinates), tiled with `period` where it is
/// non-zero, with simplex 3D/4D kernel `kernel`, cellular options `cell` and, for untiled
/// simplex 2D/3D, gradients turned by the flow angle `flow`.
pub fn base_noise<R: Real>(
    lut: &impl NoiseHasher,
    kind: NoiseKind,
    p: &[R],
    period: &[R],
    kernel: u32,
    cell: &CellularShape,
    flow: R,
) -> R {
    let flowing = flow != R::lit(0.0);
    let lp = |a: usize| lattice_period(period[a]);
    match (kind, p.len()) {
        (NoiseKind::Cellular, dims) => {
            let lattice = lattice_periods(period, dims);
            cellular_periodic(lut, p, &lattice[..dims], cell)
        }
        (NoiseKind::Value, 2) => value2_periodic(lut, [p[0], p[1]], [lp(0), lp(1)]),
        (NoiseKind::Value, 3) => value3_periodic(lut, [p[0], p[1], p[2]], [lp(0), lp(1), lp(2)]),
        (NoiseKind::Value, _) => value4_periodic(lut, [p[0], p[1], p[2], p[3]], [lp(0), lp(1), lp(2), lp(3)]),
        // As 2D simplex: the first period decides whether it tiles.
        (NoiseKind::SuperSimplex, 2) if period[0] > R::lit(0.0) => {
            supersimplex2_tiled(lut, [p[0], p[1]], [period[0], period[1]])
        }
        (NoiseKind::SuperSimplex, 2) => supersimplex2(lut, [p[0], p[1]]),
        (NoiseKind::SuperSimplex, 3) if period[0] > R::lit(0.0) => {
            supersimplex3_tiled(lut, [p[0], p[1], p[2]], [lp(0), lp(1), lp(2)])
        }
        (NoiseKind::SuperSimplex, 3) => supersimplex3(lut, [p[0], p[1], p[2]]),
        (NoiseKind::SuperSimplex, _) => supersimplex4(lut, [p[0], p[1], p[2], p[3]]),
        (NoiseKind::Classic, 2) => classic2_periodic(lut, p[0], p[1], [lp(0), lp(1)]),
        (NoiseKind::Classic, 3) => classic3_periodic(lut, p[0], p[1], p[2], [lp(0), lp(1), lp(2)]),
        (NoiseKind::Classic, _) => {
            classic4_periodic(lut, p[0], p[1], p[2], p[3], [lp(0), lp(1), lp(2), lp(3)])
        }
        (NoiseKind::Simplex, 2) => {
            if period[0] > R::lit(0.0) {
                simplex2_tiled(lut, p[0], p[1], [period[0], period[1]])
            } else if flowing {
                flow2(lut, p[0], p[1], flow)
            } else {
                simplex2(lut, p[0], p[1])
            }
        }
        (NoiseKind::Simplex, 3) => {
            if period[0] > R::lit(0.0) {
                simplex3_periodic(lut, p[0], p[1], p[2], [lp(0), lp(1), lp(2)])
            } else if kernel == KERNEL_CONTINUOUS {
                let (r2, scale) = (R::lit(0.5), R::lit(SIMPLEX3_R05_SCALE));
                if flowing {
                    flow3_r2(lut, [p[0], p[1], p[2]], flow, r2, scale)
                } else {
                    simplex3_r2(lut, p[0], p[1], p[2], r2, scale)
                }
            } else if flowing {
                flow3(lut, p[0], p[1], p[2], flow)
            } else {
                simplex3(lut, p[0], p[1], p[2])
            }
        }
        (NoiseKind::Simplex, _) => {
            if kernel == KERNEL_CONTINUOUS {
                simplex4_r2(
                    lut,
                    p[0],
                    p[1],
                    p[2],
                    p[3],
                    R::lit(0.5),
                    R::lit(SIMPLEX4_R05_SCALE),
                )
            } else {
                simplex4(lut, p[0], p[1], p[2], p[3])
            }
        }
    }
}

/// The base vector noise of `kind` at `p` (2 to 4 coordinates), tiled with `period` where
/// it is non-zero: value noise of vectors (`cpu::value::value_vector`, [`NoiseKind::Value`]),
/// simplex noise of vectors (`cpu::simplex::simplex_vector`, [`NoiseKind::Simplex`], in 3D
/// and 4D with kernel `kernel`; tiled in 2D and 3D as [`base_noise`]'s simplex) or
/// OpenSimplex2S noise of vectors (`cpu::supersimplex::supersimplex_vector`,
/// [`NoiseKind::SuperSimplex`], tiled in 2D on the torus as the simplex's, in 3D on the
/// unrotated lattice as [`base_noise`]'s); components
/// past the dimensions 0
/// (`wgpu_noise_base_vectorN`, `wgpu_noise_base_vector_supersimplexN`,
/// `wgpu_noise_base_vector_simplexN`).
pub fn base_vector<R: Real>(
    lut: &impl NoiseHasher,
    kind: NoiseKind,
    p: &[R],
    period: &[R],
    kernel: u32,
) -> [R; 4] {
    match kind {
        NoiseKind::SuperSimplex if p.len() == 2 && period[0] > R::lit(0.0) => {
            return supersimplex_vector2_tiled(lut, [p[0], p[1]], [period[0], period[1]])
        }
        NoiseKind::SuperSimplex if p.len() == 3 && period[0] > R::lit(0.0) => {
            return supersimplex_vector3_tiled(lut, [p[0], p[1], p[2]], lattice_periods3(period));
        }
        NoiseKind::SuperSimplex => return supersimplex_vector(lut, p),
        NoiseKind::Simplex => return simplex_vector(lut, p, simplex_vector_form(period, kernel)),
        _ => {}
    }
    let lattice = lattice_periods(period, p.len());
    value_vector(lut, p, &lattice[..p.len()])
}

/// [`base_vector`] and each component's gradient: `d[a] = [component a, ∂/∂x, …]`
/// (`wgpu_noise_base_vector_derivN`, `wgpu_noise_base_vector_supersimplex_derivN`,
/// `wgpu_noise_base_vector_simplex_derivN`).
pub fn base_vector_deriv<R: Real>(
    lut: &impl NoiseHasher,
    kind: NoiseKind,
    p: &[R],
    period: &[R],
    kernel: u32,
) -> [[R; 5]; 4] {
    match kind {
        NoiseKind::SuperSimplex if p.len() == 2 && period[0] > R::lit(0.0) => {
            return supersimplex_vector_deriv2_tiled(lut, [p[0], p[1]], [period[0], period[1]])
        }
        NoiseKind::SuperSimplex if p.len() == 3 && period[0] > R::lit(0.0) => {
            let lattice = lattice_periods3(period);
            return supersimplex_vector_deriv3_tiled(lut, [p[0], p[1], p[2]], lattice);
        }
        NoiseKind::SuperSimplex => return supersimplex_vector_deriv(lut, p),
        NoiseKind::Simplex => {
            return simplex_vector_deriv(lut, p, simplex_vector_form(period, kernel))
        }
        _ => {}
    }
    let lattice = lattice_periods(period, p.len());
    value_vector_deriv(lut, p, &lattice[..p.len()])
}

/// The form of simplex noise of vectors with `period` (as many as the point's coordinates)
/// and `kernel`: as [`base_noise`]'s simplex, the first period decides whether it tiles
/// (2D: on the torus of any period; 3D: on the periodic lattice of whole periods), and the
/// kernel applies untiled.
#[inline(always)]
fn simplex_vector_form<R: Real>(period: &[R], kernel: u32) -> SimplexVectorForm<R> {
    match period.len() {
        2 if period[0] > R::lit(0.0) => SimplexVectorForm::Torus([period[0], period[1]]),
        3 if period[0] > R::lit(0.0) => {
            SimplexVectorForm::Periodic(lattice_periods3(period))
        }
        _ => SimplexVectorForm::Plain {
            continuous: kernel == KERNEL_CONTINUOUS,
        },
    }
}

/// The position of the nearest cellular feature of `p` (2 to 4 coordinates) by `cell`'s
/// distance and jitter, tiled with `period` where it is non-zero (the position then wrapped
/// into the tile): `cellular_feature` (`wgpu_noise_base_featureN`). Its Jacobian is 0
/// but for a driven jitter's ([`base_feature_jitter_slope`]).
pub fn base_feature<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    period: &[R],
    cell: &CellularShape,
) -> [R; 4] {
    let lattice = lattice_periods(period, p.len());
    let tiled = period[0] > R::lit(0.0);
    cellular_feature(lut, p, &lattice[..p.len()], tiled, cell)
}

/// The derivative of cellular noise ([`base_noise`] of [`NoiseKind::Cellular`]) at `p`
/// with respect to `parameter` of `cell`: a cellular source whose jitter or exponent is a
/// value.
pub fn base_parameter_slope<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    period: &[R],
    cell: &CellularShape,
    parameter: CellParameter,
) -> R {
    let dims = p.len();
    let lattice = lattice_periods(period, dims);
    cellular_periodic_parameter_slope(lut, p, &lattice[..dims], cell, parameter)
}

/// How [`base_feature`]'s position moves with `cell.jitter`, per axis
/// (`cellular_feature_jitter_slope`): a cellular lookup whose jitter is a value.
pub fn base_feature_jitter_slope<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    period: &[R],
    cell: &CellularShape,
) -> [R; 4] {
    let lattice = lattice_periods(period, p.len());
    cellular_feature_jitter_slope(lut, p, &lattice[..p.len()], cell)
}

/// [`base_noise`] and its analytic gradient `[value, ∂/∂p₀, …]` (entries past `p.len()`
/// 0), by the same choice of function; the value is [`base_noise`]'s bit for bit.
pub fn base_noise_deriv<R: Real>(
    lut: &impl NoiseHasher,
    kind: NoiseKind,
    p: &[R],
    period: &[R],
    kernel: u32,
    cell: &CellularShape,
    flow: R,
) -> [R; 5] {
    let flowing = flow != R::lit(0.0);
    let lp = |a: usize| lattice_period(period[a]);
    let zero = R::lit(0.0);
    let pad3 = |d: [R; 3]| [d[0], d[1], d[2], zero, zero];
    let pad4 = |d: [R; 4]| [d[0], d[1], d[2], d[3], zero];
    let (r2, scale3, scale4) = if kernel == KERNEL_CONTINUOUS {
        (
            R::lit(0.5),
            R::lit(SIMPLEX3_R05_SCALE),
            R::lit(SIMPLEX4_R05_SCALE),
        )
    } else {
        (R::lit(SIMPLEX34_R2), R::lit(32.0), R::lit(27.0))
    };
    match (kind, p.len()) {
        (NoiseKind::Cellular, dims) => {
            let lattice = lattice_periods(period, dims);
            cellular_periodic_deriv(lut, p, &lattice[..dims], cell)
        }
        (NoiseKind::Value, 2) => value2_periodic_deriv(lut, [p[0], p[1]], [lp(0), lp(1)]),
        (NoiseKind::Value, 3) => {
            value3_periodic_deriv(lut, [p[0], p[1], p[2]], [lp(0), lp(1), lp(2)])
        }
        (NoiseKind::Value, _) => {
            value4_periodic_deriv(lut, [p[0], p[1], p[2], p[3]], [lp(0), lp(1), lp(2), lp(3)])
        }
        (NoiseKind::SuperSimplex, 2) if period[0] > zero => pad3(supersimplex2_tiled_deriv(
            lut,
            [p[0], p[1]],
            [period[0], period[1]],
        )),
        (NoiseKind::SuperSimplex, 2) => pad3(supersimplex2_deriv(lut, [p[0], p[1]])),
        (NoiseKind::SuperSimplex, 3) if period[0] > zero => pad4(supersimplex3_tiled_deriv(
            lut,
            [p[0], p[1], p[2]],
            [lp(0), lp(1), lp(2)],
        )),
        (NoiseKind::SuperSimplex, 3) => pad4(supersimplex3_deriv(lut, [p[0], p[1], p[2]])),
        (NoiseKind::SuperSimplex, _) => supersimplex4_deriv(lut, [p[0], p[1], p[2], p[3]]),
        (NoiseKind::Classic, 2) => classic2_periodic_deriv(lut, p[0], p[1], [lp(0), lp(1)]),
        (NoiseKind::Classic, 3) => {
            classic3_periodic_deriv(lut, [p[0], p[1], p[2]], [lp(0), lp(1), lp(2)])
        }
        (NoiseKind::Classic, _) => {
            classic4_periodic_deriv(lut, [p[0], p[1], p[2], p[3]], [lp(0), lp(1), lp(2), lp(3)])
        }
        (NoiseKind::Simplex, 2) => pad3(if period[0] > zero {
            simplex2_tiled_deriv(lut, p[0], p[1], [period[0], period[1]])
        } else if flowing {
            flow2_deriv(lut, p[0], p[1], flow)
        } else {
            simplex2_deriv(lut, p[0], p[1])
        }),
        (NoiseKind::Simplex, 3) => pad4(if period[0] > zero {
            simplex3_periodic_deriv(lut, [p[0], p[1], p[2]], [lp(0), lp(1), lp(2)])
        } else if flowing {
            flow3_deriv(lut, [p[0], p[1], p[2]], flow, r2, scale3)
        } else {
            simplex3_deriv(lut, p[0], p[1], p[2], r2, scale3)
        }),
        (NoiseKind::Simplex, _) => simplex4_deriv(lut, p[0], p[1], p[2], p[3], r2, scale4),
    }
}

/// One octave's contribution and the ridge weight carried to the next octave.
#[inline(always)]
pub fn shape_octave<R: Real>(mode: u32, n: R, weight: R) -> (R, R) {
    if mode == FRACTAL_TURBULENCE {
        return (n.abs(), weight);
    }
    if mode == FRACTAL_RIDGED {
        let ridge = R::lit(1.0) - n.abs();
        // The square clamped to the graphs' bound before it meets the weight, which may be
        // 0 (`wgpu_noise_finite`; noise values never reach it).
        let r = crate::cpu::combine::wgpu_noise_finite(ridge * ridge) * weight;
        return (r, (r * R::lit(2.0)).clamp(R::lit(0.0), R::lit(1.0)));
    }
    (n, weight)
}

/// Sum of `settings.octaves` octaves of `kind` noise at `p` (2 to 4 coordinates) moved
/// by the domain warp ([`super::warp::warp`]), normalised by the sum of amplitudes
/// (`fractal2/3/4` in the shader).
pub fn fractal<R: Real>(
    lut: &impl NoiseHasher,
    kind: NoiseKind,
    p: &[R],
    settings: &NoiseSettings,
) -> R {
    let dims = p.len();
    let gain = R::lit(settings.gain as f64);
    let lacunarity = R::lit(settings.lacunarity as f64);
    let period = settings.period.map(|v| R::lit(v as f64));
    let cell = CellularShape::of(settings);
    let flow = R::lit(settings.flow_angle as f64);
    let mut sum = R::lit(0.0);
    let mut norm = R::lit(0.0);
    let mut amplitude = R::lit(1.0);
    let mut frequency = R::lit(1.0);
    let mut weight = R::lit(1.0);
    let warped = super::warp::warp(lut, kind, p, settings);
    let mut q = [R::lit(0.0); 4];
    let mut qp = [R::lit(0.0); 4];
    for _ in 0..settings.octaves {
        for a in 0..dims {
            q[a] = warped[a] * frequency;
            qp[a] = period[a] * frequency;
        }
        let n = base_noise(
            lut,
            kind,
            &q[..dims],
            &qp[..dims],
            settings.kernel,
            &cell,
            flow,
        );
        let (shaped, next_weight) = shape_octave(settings.mode, n, weight);
        weight = next_weight;
        sum = sum + amplitude * shaped;
        norm = norm + amplitude;
        amplitude = amplitude * gain;
        frequency = frequency * lacunarity;
    }
    sum / norm
}

/// fBm of simplex (or, with `settings.flow_angle`, flow) noise in 2D or 3D with its
/// analytic gradient, `[value, ∂/∂x, ∂/∂y, ∂/∂z]` (`fbm_deriv2/3` in the shader; unused
/// components 0). Octave `k` contributes `gain^k (value, lacunarity^k gradient)` at
/// `lacunarity^k p`.
pub fn fbm_deriv<R: Real>(lut: &impl NoiseHasher, p: &[R], settings: &NoiseSettings) -> [R; 4] {
    let dims = p.len();
    let (r2, scale) = if settings.kernel == KERNEL_CONTINUOUS {
        (R::lit(0.5), R::lit(SIMPLEX3_R05_SCALE))
    } else {
        (R::lit(SIMPLEX34_R2), R::lit(32.0))
    };
    let gain = R::lit(settings.gain as f64);
    let lacunarity = R::lit(settings.lacunarity as f64);
    let flow = R::lit(settings.flow_angle as f64);
    let mut sum = [R::lit(0.0); 4];
    let mut norm = R::lit(0.0);
    let mut amplitude = R::lit(1.0);
    let mut frequency = R::lit(1.0);
    for _ in 0..settings.octaves {
        let d: [R; 4] = if dims == 2 {
            let v = flow2_deriv(lut, p[0] * frequency, p[1] * frequency, flow);
            [v[0], v[1], v[2], R::lit(0.0)]
        } else {
            let q = [p[0] * frequency, p[1] * frequency, p[2] * frequency];
            flow3_deriv(lut, q, flow, r2, scale)
        };
        sum[0] = sum[0] + amplitude * d[0];
        for a in 1..4 {
            sum[a] = sum[a] + amplitude * (d[a] * frequency);
        }
        norm = norm + amplitude;
        amplitude = amplitude * gain;
        frequency = frequency * lacunarity;
    }
    sum.map(|v| v / norm)
}
