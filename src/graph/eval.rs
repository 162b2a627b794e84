//! The CPU evaluators of a lowered graph: values in `f32` (the generated WGSL, operation
//! for operation) or `f64`, and values with their gradient (forward mode: every register
//! carries its derivatives with respect to the sample point).

use super::program::{Op, Program, Source};
use super::spec::{Binary, Map};
use crate::cpu::combine::{
    wgpu_noise_abs_slope, wgpu_noise_blend, wgpu_noise_blend_weight, wgpu_noise_divide,
    wgpu_noise_divide_weights, wgpu_noise_finite, wgpu_noise_max, wgpu_noise_min,
    wgpu_noise_modulus, wgpu_noise_modulus_weights, wgpu_noise_octave_term, wgpu_noise_ping_pong,
    wgpu_noise_ping_pong_slope, wgpu_noise_remap, wgpu_noise_remap_slope, wgpu_noise_ridged_slope,
    wgpu_noise_signed_pow, wgpu_noise_signed_pow_slope, wgpu_noise_smooth_max,
    wgpu_noise_smooth_min, wgpu_noise_smooth_weight, wgpu_noise_terrace, wgpu_noise_terrace_slope,
};
use crate::cpu::curl::CURL_SHIFTS;
use crate::cpu::fractal::{base_noise, base_noise_deriv, shape_octave};
use crate::cpu::lookup::NoiseHasher;
use crate::cpu::Real;
use crate::params::FillParams;
use std::cell::RefCell;

fn lit<R: Real>(v: f32) -> R {
    R::lit(v as f64)
}

/// The base noise of `source` at `q`.
pub(crate) fn noise<R: Real>(lut: &impl NoiseHasher, source: &Source, q: &[R]) -> R {
    let period = source.period.map(lit::<R>);
    base_noise(
        lut,
        source.kind,
        q,
        &period[..q.len()],
        source.kernel.code(),
        &source.cell,
        lit(source.flow),
    )
}

/// A point operation's value, coordinates past `dims` 0.
fn point<R: Real>(dims: usize, f: impl Fn(usize) -> R) -> [R; 4] {
    std::array::from_fn(|a| {
        if a < dims {
            wgpu_noise_finite(f(a))
        } else {
            R::lit(0.0)
        }
    })
}

/// Evaluates `program` at `p`; `regs` is scratch space reused between calls.
pub fn value<R: Real>(
    program: &Program,
    lut: &impl NoiseHasher,
    p: [R; 4],
    regs: &mut Vec<[R; 4]>,
) -> R {
    let dims = program.dims;
    regs.clear();
    for op in &program.ops {
        let scalar = |v: R| [v, R::lit(0.0), R::lit(0.0), R::lit(0.0)];
        let v = match op {
            Op::Point => point(dims, |a| p[a]),
            Op::Scale { p, by } => point(dims, |a| regs[*p][a] * lit(by[a])),
            Op::Offset { p, by } => point(dims, |a| regs[*p][a] + lit(by[a])),
            Op::Rotate { p, plane, cos, sin } => {
                let q = regs[*p];
                let (c, s) = (lit::<R>(*cos), lit::<R>(*sin));
                let [u, v] = *plane;
                point(dims, |a| {
                    if a == u {
                        c * q[u] - s * q[v]
                    } else if a == v {
                        s * q[u] + c * q[v]
                    } else {
                        q[a]
                    }
                })
            }
            Op::Displace { p, d, amplitude } => {
                point(dims, |a| regs[*p][a] + lit::<R>(*amplitude) * regs[d[a]][0])
            }
            Op::Noise { p, source } => scalar(noise(lut, source, &regs[*p][..dims])),
            Op::Constant(c) => scalar(lit(*c)),
            Op::Axis { p, axis } => scalar(regs[*p][*axis]),
            Op::Fractal { mode, terms, norm } => {
                let mut sum = R::lit(0.0);
                let mut weight = R::lit(1.0);
                for &(n, amplitude) in terms {
                    let (shaped, next) = shape_octave(mode.code(), regs[n][0], weight);
                    weight = next;
                    sum = sum + wgpu_noise_octave_term(lit::<R>(amplitude), shaped);
                }
                scalar(wgpu_noise_finite(sum / lit(*norm)))
            }
            Op::Binary { op, a, b } => {
                scalar(wgpu_noise_finite(binary(*op, regs[*a][0], regs[*b][0])))
            }
            Op::Blend { a, b, t } => scalar(wgpu_noise_finite(wgpu_noise_blend(
                regs[*a][0],
                regs[*b][0],
                regs[*t][0],
            ))),
            Op::Map { op, a } => scalar(wgpu_noise_finite(map(*op, regs[*a][0]))),
        };
        regs.push(v);
    }
    regs[program.output][0]
}

pub(crate) fn binary<R: Real>(op: Binary, a: R, b: R) -> R {
    match op {
        Binary::Add => a + b,
        Binary::Subtract => a - b,
        Binary::Multiply => a * b,
        Binary::Divide => wgpu_noise_divide(a, b),
        Binary::Modulus => wgpu_noise_modulus(a, b),
        Binary::Min => wgpu_noise_min(a, b),
        Binary::Max => wgpu_noise_max(a, b),
        Binary::SmoothMin(k) => wgpu_noise_smooth_min(a, b, lit(k)),
        Binary::SmoothMax(k) => wgpu_noise_smooth_max(a, b, lit(k)),
    }
}

pub(crate) fn map<R: Real>(op: Map, v: R) -> R {
    match op {
        Map::Abs => v.abs(),
        Map::Clamp { min, max } => v.clamp(lit(min), lit(max)),
        Map::Remap { from, to } => wgpu_noise_remap(v, from.map(lit), to.map(lit)),
        Map::Pow { exponent } => wgpu_noise_signed_pow(v, lit(exponent)),
        Map::Terrace { steps, smoothness } => wgpu_noise_terrace(v, lit(steps), lit(smoothness)),
        Map::PingPong { strength } => wgpu_noise_ping_pong(v, lit(strength)),
    }
}

/// The slope of [`map`] at `v`.
pub(crate) fn map_slope<R: Real>(op: Map, v: R) -> R {
    match op {
        Map::Abs => wgpu_noise_abs_slope(v),
        Map::Clamp { min, max } => {
            if v > lit(min) && v < lit(max) {
                R::lit(1.0)
            } else {
                R::lit(0.0)
            }
        }
        Map::Remap { from, to } => wgpu_noise_remap_slope(from.map(lit), to.map(lit)),
        Map::Pow { exponent } => wgpu_noise_signed_pow_slope(v, lit(exponent)),
        Map::Terrace { steps, smoothness } => {
            wgpu_noise_terrace_slope(v, lit(steps), lit(smoothness))
        }
        Map::PingPong { strength } => wgpu_noise_ping_pong_slope(v, lit(strength)),
    }
}

/// The base noise of `source` at `q` and its gradient `[value, ∂/∂q_0, ...]` (local to
/// `q`); the value is [`noise`]'s bit for bit.
pub(crate) fn noise_deriv<R: Real>(lut: &impl NoiseHasher, source: &Source, q: &[R]) -> [R; 5] {
    let period = source.period.map(lit::<R>);
    base_noise_deriv(
        lut,
        source.kind,
        q,
        &period[..q.len()],
        source.kernel.code(),
        &source.cell,
        lit(source.flow),
    )
}

/// A register with its derivatives: `d[i][j] = ∂v_i/∂p_j` (a value uses `v[0]`, `d[0]`).
#[derive(Clone, Copy, Debug)]
pub struct Dual<R> {
    /// The point or value.
    pub v: [R; 4],
    /// Its Jacobian with respect to the sample point.
    pub d: [[R; 4]; 4],
}

/// `Σ_k w_k g_k` over rows, each term and the sum clamped (two terms past `f32` of
/// opposite signs would make NaN).
fn combine<R: Real>(dims: usize, terms: &[(R, [R; 4])]) -> [R; 4] {
    std::array::from_fn(|j| {
        if j >= dims {
            return R::lit(0.0);
        }
        let mut s = R::lit(0.0);
        for (w, g) in terms {
            s = s + wgpu_noise_finite(*w * g[j]);
        }
        wgpu_noise_finite(s)
    })
}

/// Evaluates `program` and its gradient at `p`: `[value, ∂/∂x, ∂/∂y, ∂/∂z, ∂/∂w]`
/// (derivatives past `dims` 0). The value is [`value`]'s bit for bit. Every source has an
/// analytic gradient; at kinks (docs/graphs.md) it is one-sided.
pub fn value_and_gradient<R: Real>(
    program: &Program,
    lut: &impl NoiseHasher,
    p: [R; 4],
    regs: &mut Vec<Dual<R>>,
) -> [R; 5] {
    regs.clear();
    for op in &program.ops {
        let noise = match op {
            Op::Noise { p, source } => noise_deriv(lut, source, &regs[*p].v[..program.dims]),
            _ => [R::lit(0.0); 5],
        };
        let r = dual_op(program.dims, op, p, regs, noise);
        regs.push(r);
    }
    let out = &regs[program.output];
    [out.v[0], out.d[0][0], out.d[0][1], out.d[0][2], out.d[0][3]]
}

/// One operation of [`value_and_gradient`] at the sample point `p` on the registers `regs`
/// of the operations before it; `noise` is a noise operation's `[value, ∂/∂q₀, …]` at its
/// point ([`noise_deriv`], or the SIMD evaluator's lanes), unused by other operations.
pub(crate) fn dual_op<R: Real>(
    dims: usize,
    op: &Op,
    p: [R; 4],
    regs: &[Dual<R>],
    noise: [R; 5],
) -> Dual<R> {
    let zero = R::lit(0.0);
    let one = R::lit(1.0);
    let scalar = |v: R, d: [R; 4]| Dual {
        v: [v, zero, zero, zero],
        d: [d, [zero; 4], [zero; 4], [zero; 4]],
    };
    let points = |v: [R; 4], rows: &dyn Fn(usize) -> [R; 4]| Dual {
        v,
        d: std::array::from_fn(|a| {
            if a < dims {
                rows(a).map(wgpu_noise_finite)
            } else {
                [zero; 4]
            }
        }),
    };
    match op {
        Op::Point => points(point(dims, |a| p[a]), &|a| {
            std::array::from_fn(|j| if j == a { one } else { zero })
        }),
        Op::Scale { p, by } => {
            let q = &regs[*p];
            points(point(dims, |a| q.v[a] * lit(by[a])), &|a| {
                q.d[a].map(|d| d * lit(by[a]))
            })
        }
        Op::Offset { p, by } => {
            let q = &regs[*p];
            points(point(dims, |a| q.v[a] + lit(by[a])), &|a| q.d[a])
        }
        Op::Rotate { p, plane, cos, sin } => {
            let q = &regs[*p];
            let (c, s) = (lit::<R>(*cos), lit::<R>(*sin));
            let [u, v] = *plane;
            let turn = |a: usize, x: &dyn Fn(usize) -> R| {
                if a == u {
                    c * x(u) - s * x(v)
                } else if a == v {
                    s * x(u) + c * x(v)
                } else {
                    x(a)
                }
            };
            points(point(dims, |a| turn(a, &|i| q.v[i])), &|a| {
                std::array::from_fn(|j| turn(a, &|i| q.d[i][j]))
            })
        }
        Op::Displace { p, d, amplitude } => {
            let q = &regs[*p];
            let amp = lit::<R>(*amplitude);
            points(point(dims, |a| q.v[a] + amp * regs[d[a]].v[0]), &|a| {
                std::array::from_fn(|j| q.d[a][j] + amp * regs[d[a]].d[0][j])
            })
        }
        Op::Noise { p, .. } => {
            let q = &regs[*p];
            let d = noise;
            let terms: [(R, [R; 4]); 4] = std::array::from_fn(|i| (d[1 + i], q.d[i]));
            scalar(d[0], combine(dims, &terms[..dims]))
        }
        Op::Constant(c) => scalar(lit(*c), [zero; 4]),
        Op::Axis { p, axis } => scalar(regs[*p].v[*axis], regs[*p].d[*axis]),
        Op::Fractal { mode, terms, norm } => {
            let mut sum = zero;
            let mut dsum = [zero; 4];
            let mut weight = one;
            let mut dweight = [zero; 4];
            let code = mode.code();
            for &(n, amplitude) in terms {
                let (v, dv) = (regs[n].v[0], regs[n].d[0]);
                let (shaped, next) = shape_octave(code, v, weight);
                let slope = wgpu_noise_abs_slope(v);
                let dshaped: [R; 4] = match mode {
                    crate::field::FractalMode::Fbm => dv,
                    crate::field::FractalMode::Turbulence => dv.map(|d| slope * d),
                    crate::field::FractalMode::Ridged => std::array::from_fn(|j| {
                        wgpu_noise_ridged_slope(v, dv[j], weight, dweight[j])
                    }),
                };
                if *mode == crate::field::FractalMode::Ridged {
                    let r2 = shaped * R::lit(2.0);
                    let inside = r2 > zero && r2 < one;
                    dweight = dshaped.map(|d| if inside { R::lit(2.0) * d } else { zero });
                }
                weight = next;
                let amp = lit::<R>(amplitude);
                sum = sum + wgpu_noise_octave_term(amp, shaped);
                for j in 0..dims {
                    dsum[j] = wgpu_noise_finite(dsum[j] + amp * dshaped[j]);
                }
            }
            let norm = lit::<R>(*norm);
            scalar(
                wgpu_noise_finite(sum / norm),
                dsum.map(|d| wgpu_noise_finite(d / norm)),
            )
        }
        Op::Binary { op, a, b } => {
            let (a, b) = (&regs[*a], &regs[*b]);
            let (va, vb) = (a.v[0], b.v[0]);
            let [wa, wb] = binary_weights(*op, va, vb);
            let v = wgpu_noise_finite(binary(*op, va, vb));
            scalar(v, combine(dims, &[(wa, a.d[0]), (wb, b.d[0])]))
        }
        Op::Blend { a, b, t } => {
            let (a, b, t) = (&regs[*a], &regs[*b], &regs[*t]);
            let [w, wt] = blend_weights(a.v[0], b.v[0], t.v[0]);
            let v = wgpu_noise_finite(wgpu_noise_blend(a.v[0], b.v[0], t.v[0]));
            scalar(
                v,
                combine(dims, &[(one - w, a.d[0]), (w, b.d[0]), (wt, t.d[0])]),
            )
        }
        Op::Map { op, a } => {
            let a = &regs[*a];
            let v = wgpu_noise_finite(map(*op, a.v[0]));
            scalar(v, combine(dims, &[(map_slope(*op, a.v[0]), a.d[0])]))
        }
    }
}

/// The weights of a binary operation's two gradients at the values `a`, `b`: its partial
/// derivatives, one-sided at the kinks of `min` and `max` (`b`'s side on ties).
pub(crate) fn binary_weights<R: Real>(op: Binary, a: R, b: R) -> [R; 2] {
    let (zero, one) = (R::lit(0.0), R::lit(1.0));
    match op {
        Binary::Add => [one, one],
        Binary::Subtract => [one, -one],
        Binary::Multiply => [b, a],
        Binary::Divide => wgpu_noise_divide_weights(a, b),
        Binary::Modulus => wgpu_noise_modulus_weights(a, b),
        Binary::Min => {
            if a < b {
                [one, zero]
            } else {
                [zero, one]
            }
        }
        Binary::Max => {
            if a > b {
                [one, zero]
            } else {
                [zero, one]
            }
        }
        Binary::SmoothMin(k) => {
            let h = wgpu_noise_smooth_weight(a, b, lit(k));
            [h, one - h]
        }
        Binary::SmoothMax(k) => {
            let h = wgpu_noise_smooth_weight(-a, -b, lit(k));
            [h, one - h]
        }
    }
}

/// A blend's weight `w` of `b` (`a`'s is `1 − w`) and the weight of `t`'s gradient, 0
/// where the weight is clamped.
pub(crate) fn blend_weights<R: Real>(a: R, b: R, t: R) -> [R; 2] {
    let (zero, one) = (R::lit(0.0), R::lit(1.0));
    let w = wgpu_noise_blend_weight(t);
    let x = t * R::lit(0.5) + R::lit(0.5);
    let wt = if x > zero && x < one {
        (b - a) * R::lit(0.5)
    } else {
        zero
    };
    [w, wt]
}

/// The curl of `program` at `p` (2D or 3D; unused components 0), built as the flags' curl
/// noise (`cpu::curl`) is from simplex noise: in 2D the gradient turned,
/// `(∂g/∂y, −∂g/∂x)`; in 3D the curl of the potential `(g(p + s₀), g(p + s₁), g(p + s₂))`,
/// three copies of the graph at the shifts `s` of [`CURL_SHIFTS`]. The curl of a graph of
/// one continuous-kernel `simplex` source is the flags' curl noise.
///
/// # Panics
/// If the program is 4D (a programming error: a bake checks the dimensions first).
pub fn curl<R: Real>(
    program: &Program,
    lut: &impl NoiseHasher,
    p: [R; 4],
    regs: &mut Vec<Dual<R>>,
) -> [R; 3] {
    let mut gradient = |q| value_and_gradient(program, lut, q, regs);
    match program.dims {
        2 => curl2_of(gradient(p)),
        3 => curl3_of(CURL_SHIFTS.map(|s| gradient(curl_shifted(p, s)))),
        dims => panic!("curl noise is 2D or 3D, not {dims}D"),
    }
}

/// `p` moved by a 3D curl potential's shift `s` (one of [`CURL_SHIFTS`]).
pub(crate) fn curl_shifted<R: Real>(p: [R; 4], s: [f64; 3]) -> [R; 4] {
    [
        p[0] + R::lit(s[0]),
        p[1] + R::lit(s[1]),
        p[2] + R::lit(s[2]),
        R::lit(0.0),
    ]
}

/// The 2D curl from `[value, ∂/∂x, ∂/∂y, …]`: the gradient turned, `(∂g/∂y, −∂g/∂x)`.
pub(crate) fn curl2_of<R: Real>(d: [R; 5]) -> [R; 3] {
    [d[2], -d[1], R::lit(0.0)]
}

/// The 3D curl from `[value, ∂/∂x, ∂/∂y, ∂/∂z, …]` of the potentials ψx, ψy, ψz.
pub(crate) fn curl3_of<R: Real>(potentials: [[R; 5]; 3]) -> [R; 3] {
    let [a, b, c] = potentials;
    [c[2] - b[3], a[3] - c[1], b[1] - a[2]]
}

thread_local! {
    static VALUES: RefCell<Vec<[f32; 4]>> = const { RefCell::new(Vec::new()) };
    static DUALS: RefCell<Vec<Dual<f32>>> = const { RefCell::new(Vec::new()) };
}

/// Fills `out` (x fastest) with `program`'s values in `f32` at the texels of `params`
/// (the sampling convention of [`crate::cpu::fill::fill_slab`]), on all cores.
pub fn fill_slab(program: &Program, lut: &impl NoiseHasher, params: &FillParams, out: &mut [f32]) {
    crate::cpu::fill::fill_rows(params, out, |p| {
        VALUES.with_borrow_mut(|regs| value(program, lut, p, regs))
    });
}

/// Fills `out` with `[value, ∂/∂x, ∂/∂y, ∂/∂z]` per texel (4D fields keep ∂/∂w out, as
/// the other gradient fields).
pub fn fill_slab_gradient(
    program: &Program,
    lut: &impl NoiseHasher,
    params: &FillParams,
    out: &mut [[f32; 4]],
) {
    crate::cpu::fill::fill_rows(params, out, |p| {
        DUALS.with_borrow_mut(|regs| {
            let v = value_and_gradient(program, lut, p, regs);
            [v[0], v[1], v[2], v[3]]
        })
    });
}

/// Fills `out` with the curl of `program` ([`curl`]) per texel: `dims` values each,
/// interleaved, as [`crate::cpu::fill::fill_slab_curl`].
///
/// # Panics
/// If the program is not 2D or 3D, or `out` does not hold `dims` values per texel.
pub fn fill_slab_curl(
    program: &Program,
    lut: &impl NoiseHasher,
    params: &FillParams,
    out: &mut [f32],
) {
    match program.dims {
        2 => crate::cpu::fill::fill_rows(params, bytemuck::cast_slice_mut(out), |p| {
            DUALS.with_borrow_mut(|regs| {
                let c = curl(program, lut, p, regs);
                [c[0], c[1]]
            })
        }),
        3 => crate::cpu::fill::fill_rows(params, bytemuck::cast_slice_mut(out), |p| {
            DUALS.with_borrow_mut(|regs| curl(program, lut, p, regs))
        }),
        dims => panic!("curl noise is 2D or 3D, not {dims}D"),
    }
}
