//! A graph's dual numbers on lanes: [`crate::graph::eval::dual_op`] in `f32` on 16 samples
//! at a time, bit for bit (what a graph's gradient and curl fill runs per operation).
//!
//! A register is a value or point with its Jacobian, each entry a lane array. Points,
//! sums and the chain rule are lane arithmetic in the scalar order of operations; the
//! weights with a branch per sample (min, max, smooth min and max, blend, the maps) and
//! the values of those operations come from the scalar `f32` functions per lane.

use super::graph::{finite, point};
use super::lanes::{F, LANES};
use super::shape_octave;
use crate::cpu::combine::wgpu_noise_blend;
use crate::field::FractalMode;
use crate::graph::eval;
use crate::graph::program::Op;
use crate::graph::spec::Binary;

const ZERO: F = F([0.0; LANES]);

/// A register with its derivatives (`eval::Dual` on lanes): `d[i][j] = ∂v_i/∂p_j`; a value
/// uses `v[0]`, `d[0]`.
#[derive(Clone, Copy, Debug)]
pub(super) struct LaneDual {
    pub v: [F; 4],
    pub d: [[F; 4]; 4],
}

impl LaneDual {
    /// Every entry 0.
    pub const ZERO: LaneDual = LaneDual {
        v: [ZERO; 4],
        d: [[ZERO; 4]; 4],
    };

    /// Sets a value register, in place (a register is 1280 bytes, which LLVM copies twice
    /// when it is returned by value).
    #[inline(always)]
    fn set_value(&mut self, v: F, d: [F; 4]) {
        self.v = [v, ZERO, ZERO, ZERO];
        self.d = [d, [ZERO; 4], [ZERO; 4], [ZERO; 4]];
    }

    /// Sets a point register: its Jacobian's rows `rows(a)` clamped below `dims`, 0 past
    /// them.
    #[inline(always)]
    fn set_point(&mut self, dims: usize, v: [F; 4], rows: impl Fn(usize) -> [F; 4]) {
        self.v = v;
        for (a, d) in self.d.iter_mut().enumerate() {
            if a < dims {
                let row = rows(a);
                for (d, row) in d.iter_mut().zip(row) {
                    *d = finite(row);
                }
            } else {
                *d = [ZERO; 4];
            }
        }
    }
}

/// `Σ_k w_k g_k` over rows, each term and the sum clamped (`combine` of the scalar
/// evaluator).
#[inline(always)]
fn combine(dims: usize, terms: &[(F, [F; 4])]) -> [F; 4] {
    let mut out = [ZERO; 4];
    for (j, out) in out.iter_mut().enumerate().take(dims) {
        let mut s = ZERO;
        for (w, g) in terms {
            s = s + finite(*w * g[j]);
        }
        *out = finite(s);
    }
    out
}

/// `f` of each entry: a loop (`[T; N]::map` stays a call per use).
#[inline(always)]
fn each(x: [F; 4], f: impl Fn(F) -> F) -> [F; 4] {
    let mut out = x;
    for v in &mut out {
        *v = f(*v);
    }
    out
}

/// `f(lane)` on every lane.
#[inline(always)]
fn per_lane(f: impl Fn(usize) -> f32) -> F {
    F(std::array::from_fn(f))
}

/// [`eval::dual_op`] on lanes: sets `out` to one operation at the sample points `p` on the
/// registers `regs` of the operations before it; `noise` is a noise operation's `[value,
/// ∂/∂q₀, …]` at its point, unused by other operations.
#[inline(always)]
pub(super) fn dual_op(
    dims: usize,
    op: &Op,
    p: &[F; 4],
    regs: &[LaneDual],
    noise: &[F; 5],
    out: &mut LaneDual,
) {
    let one = F::splat(1.0);
    match op {
        Op::Point => out.set_point(dims, point(dims, |a| p[a]), |a| {
            let mut row = [ZERO; 4];
            row[a] = one;
            row
        }),
        Op::Scale { p, by } => {
            let q = &regs[*p];
            out.set_point(dims, point(dims, |a| q.v[a] * by[a]), |a| {
                each(q.d[a], |d| d * by[a])
            })
        }
        Op::Offset { p, by } => {
            let q = &regs[*p];
            out.set_point(dims, point(dims, |a| q.v[a] + by[a]), |a| q.d[a])
        }
        Op::Rotate { p, plane, cos, sin } => {
            let q = &regs[*p];
            let (c, s) = (*cos, *sin);
            let [u, v] = *plane;
            let turn = |a: usize, x: &dyn Fn(usize) -> F| {
                if a == u {
                    c * x(u) - s * x(v)
                } else if a == v {
                    s * x(u) + c * x(v)
                } else {
                    x(a)
                }
            };
            out.set_point(dims, point(dims, |a| turn(a, &|i| q.v[i])), |a| {
                std::array::from_fn(|j| turn(a, &|i| q.d[i][j]))
            })
        }
        Op::Displace { p, d, amplitude } => {
            let q = &regs[*p];
            let amp = *amplitude;
            out.set_point(dims, point(dims, |a| q.v[a] + amp * regs[d[a]].v[0]), |a| {
                std::array::from_fn(|j| q.d[a][j] + amp * regs[d[a]].d[0][j])
            })
        }
        Op::Noise { p, .. } => {
            let q = &regs[*p];
            let terms: [(F, [F; 4]); 4] = std::array::from_fn(|i| (noise[1 + i], q.d[i]));
            out.set_value(noise[0], combine(dims, &terms[..dims]))
        }
        Op::Constant(c) => out.set_value(F::splat(*c), [ZERO; 4]),
        Op::Axis { p, axis } => out.set_value(regs[*p].v[*axis], regs[*p].d[*axis]),
        Op::Fractal { mode, terms, norm } => {
            let mut sum = ZERO;
            let mut dsum = [ZERO; 4];
            let mut weight = one;
            let mut dweight = [ZERO; 4];
            let code = mode.code();
            for &(n, amplitude) in terms {
                let (v, dv) = (regs[n].v[0], regs[n].d[0]);
                let previous = weight;
                let shaped = shape_octave(code, v, &mut weight);
                let slope = v.lt(ZERO).select_f(F::splat(-1.0), one);
                let dshaped: [F; 4] = match mode {
                    FractalMode::Fbm => dv,
                    FractalMode::Turbulence => each(dv, |d| slope * d),
                    FractalMode::Ridged => {
                        // `wgpu_noise_ridged_slope`: the products clamped, then the sum.
                        let ridge = 1.0 - v.abs();
                        let square = finite(ridge * ridge);
                        std::array::from_fn(|j| {
                            finite(
                                finite(2.0 * ridge * (-slope * dv[j])) * previous
                                    + square * dweight[j],
                            )
                        })
                    }
                };
                if *mode == FractalMode::Ridged {
                    let r2 = shaped * 2.0;
                    let inside = r2.gt(ZERO) & r2.lt(one);
                    dweight = each(dshaped, |d| inside.select_f(2.0 * d, ZERO));
                }
                sum = sum + finite(amplitude * shaped);
                for j in 0..dims {
                    dsum[j] = finite(dsum[j] + amplitude * dshaped[j]);
                }
            }
            out.set_value(finite(sum / *norm), each(dsum, |d| finite(d / *norm)))
        }
        Op::Binary { op, a, b } => {
            let (a, b) = (&regs[*a], &regs[*b]);
            let (va, vb) = (a.v[0], b.v[0]);
            let (v, [wa, wb]) = match op {
                Binary::Add => (va + vb, [one, one]),
                Binary::Subtract => (va - vb, [one, -one]),
                Binary::Multiply => (va * vb, [vb, va]),
                _ => {
                    let w = |i: usize, k: usize| eval::binary_weights(*op, va.0[i], vb.0[i])[k];
                    (
                        per_lane(|i| eval::binary(*op, va.0[i], vb.0[i])),
                        [per_lane(|i| w(i, 0)), per_lane(|i| w(i, 1))],
                    )
                }
            };
            out.set_value(finite(v), combine(dims, &[(wa, a.d[0]), (wb, b.d[0])]))
        }
        Op::Blend { a, b, t } => {
            let (a, b, t) = (&regs[*a], &regs[*b], &regs[*t]);
            let (va, vb, vt) = (a.v[0], b.v[0], t.v[0]);
            let weights = |i: usize| eval::blend_weights(va.0[i], vb.0[i], vt.0[i]);
            let (w, wt) = (per_lane(|i| weights(i)[0]), per_lane(|i| weights(i)[1]));
            let v = per_lane(|i| wgpu_noise_blend(va.0[i], vb.0[i], vt.0[i]));
            out.set_value(
                finite(v),
                combine(dims, &[(one - w, a.d[0]), (w, b.d[0]), (wt, t.d[0])]),
            )
        }
        Op::Map { op, a } => {
            let a = &regs[*a];
            let v = a.v[0];
            let value = per_lane(|i| eval::map(*op, v.0[i]));
            let slope = per_lane(|i| eval::map_slope(*op, v.0[i]));
            out.set_value(finite(value), combine(dims, &[(slope, a.d[0])]))
        }
    }
}
