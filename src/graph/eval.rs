//! The CPU evaluators of a lowered graph: one operation loop ([`run`]), generic over the
//! register. A register holds a [`Number`] per coordinate: one sample in `f32` (the
//! generated WGSL, operation for operation) or `f64`, or 16 samples on `f32` lanes
//! (`cpu::simd`); or that number as a [`Dual`], carrying its derivatives with respect to
//! the sample point (forward mode). Each operation is written once, in [`step`]; the
//! chain rule once, in [`Dual`]'s [`Register`] methods.

use std::ops::{Add, Div, Mul, Neg, Sub};

use super::program::{SourceDrivers, Dims, Op, Program, Source, VectorSource};
use super::spec::{Binary, Curve, Map};
use crate::cpu::combine::{
    wgpu_noise_abs_slope, wgpu_noise_blend, wgpu_noise_blend_weight, wgpu_noise_divide,
    wgpu_noise_curve, wgpu_noise_curve_slope, wgpu_noise_ease, wgpu_noise_ease_slope,
    wgpu_noise_divide_weights, wgpu_noise_finite, wgpu_noise_max, wgpu_noise_min,
    wgpu_noise_modulus, wgpu_noise_modulus_weights, wgpu_noise_octave_term, wgpu_noise_ping_pong,
    wgpu_noise_ping_pong_slope, wgpu_noise_remap, wgpu_noise_remap_slope, wgpu_noise_ridged_slope,
    wgpu_noise_signed_pow, wgpu_noise_signed_pow_exponent_slope, wgpu_noise_signed_pow_slope, wgpu_noise_sin, wgpu_noise_sin_slope,
    wgpu_noise_smooth_max,
    wgpu_noise_smooth_min, wgpu_noise_smooth_weight, wgpu_noise_terrace, wgpu_noise_terrace_slope,
};
use crate::cpu::curl::CURL_SHIFTS;
use crate::cpu::fractal::{
    base_feature, base_feature_jitter_slope, base_noise, base_noise_deriv, base_parameter_slope,
    base_vector, base_vector_deriv, shape_octave,
};
use crate::cpu::cellular::CellParameter;
use crate::cpu::lookup::NoiseHasher;
use crate::cpu::Real;
use crate::field::FractalMode;
use crate::params::{cellular_minkowski, FillParams};
use std::cell::RefCell;

fn lit<R: Real>(v: f32) -> R {
    R::lit(v as f64)
}

/// The number a graph evaluator computes with: one sample in `f32` or `f64` (every
/// [`Real`]), or 16 samples on `f32` lanes (`cpu::simd::lanes::F`). Arithmetic is the
/// operators; the rest is what the operations need beyond it, each the scalar function of
/// `cpu::combine` (on lanes, per lane where the lanes have no form of their own).
pub trait Number:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// A literal.
    fn constant(v: f32) -> Self;
    /// `wgpu_noise_finite`: clamped to ±1e30.
    fn finite(self) -> Self;
    /// `wgpu_noise_abs_slope`: the slope of `|v|`, +1 at 0.
    fn abs_slope(self) -> Self;
    /// `wgpu_noise_octave_term`: an octave's term of a fractal sum, clamped.
    fn octave_term(amplitude: Self, shaped: Self) -> Self;
    /// `shape_octave`: the octave `n` shaped by the fractal mode; a ridged octave moves the
    /// ridge `weight` on.
    fn shape_octave(mode: FractalMode, n: Self, weight: &mut Self) -> Self;
    /// `wgpu_noise_ridged_slope`: one derivative of a ridged octave.
    fn ridged_slope(v: Self, dv: Self, w: Self, dw: Self) -> Self;
    /// The derivative of the next ridge weight `clamp(2 shaped, 0, 1)` for a derivative `d`
    /// of `shaped`: `2d`, or 0 where the weight is clamped.
    fn ridge_weight_slope(shaped: Self, d: Self) -> Self;
    /// A binary operation's value.
    fn apply_binary(op: Binary, a: Self, b: Self) -> Self;
    /// Its partial derivatives at `a`, `b`: one-sided at the kinks of `min` and `max`
    /// (`b`'s side on ties).
    fn binary_weights(op: Binary, a: Self, b: Self) -> [Self; 2];
    /// `wgpu_noise_blend`.
    fn apply_blend(a: Self, b: Self, t: Self) -> Self;
    /// Its weight `w` of `b` (`a`'s is `1 − w`) and the weight of `t`'s gradient, 0 where
    /// the weight is clamped.
    fn blend_weights(a: Self, b: Self, t: Self) -> [Self; 2];
    /// A map's value.
    fn apply_map(op: &Map, v: Self) -> Self;
    /// Its slope at `v`.
    fn map_slope(op: &Map, v: Self) -> Self;
}

impl<R: Real> Number for R {
    #[inline(always)]
    fn constant(v: f32) -> R {
        lit(v)
    }
    #[inline(always)]
    fn finite(self) -> R {
        wgpu_noise_finite(self)
    }
    #[inline(always)]
    fn abs_slope(self) -> R {
        wgpu_noise_abs_slope(self)
    }
    #[inline(always)]
    fn octave_term(amplitude: R, shaped: R) -> R {
        wgpu_noise_octave_term(amplitude, shaped)
    }
    #[inline(always)]
    fn shape_octave(mode: FractalMode, n: R, weight: &mut R) -> R {
        let (shaped, next) = shape_octave(mode.code(), n, *weight);
        *weight = next;
        shaped
    }
    #[inline(always)]
    fn ridged_slope(v: R, dv: R, w: R, dw: R) -> R {
        wgpu_noise_ridged_slope(v, dv, w, dw)
    }
    #[inline(always)]
    fn ridge_weight_slope(shaped: R, d: R) -> R {
        let r2 = shaped * R::lit(2.0);
        if r2 > R::lit(0.0) && r2 < R::lit(1.0) {
            R::lit(2.0) * d
        } else {
            R::lit(0.0)
        }
    }
    fn apply_binary(op: Binary, a: R, b: R) -> R {
        match op {
            Binary::Add => a + b,
            Binary::Subtract => a - b,
            Binary::Multiply => a * b,
            Binary::Divide => wgpu_noise_divide(a, b),
            Binary::Modulus => wgpu_noise_modulus(a, b),
            Binary::Min => wgpu_noise_min(a, b),
            Binary::Max => wgpu_noise_max(a, b),
            Binary::Pow => wgpu_noise_signed_pow(a, b),
            Binary::SmoothMin(k) => wgpu_noise_smooth_min(a, b, lit(k)),
            Binary::SmoothMax(k) => wgpu_noise_smooth_max(a, b, lit(k)),
        }
    }
    fn binary_weights(op: Binary, a: R, b: R) -> [R; 2] {
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
            Binary::Pow => [
                wgpu_noise_signed_pow_slope(a, b),
                wgpu_noise_signed_pow_exponent_slope(a, b),
            ],
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
    fn apply_blend(a: R, b: R, t: R) -> R {
        wgpu_noise_blend(a, b, t)
    }
    fn blend_weights(a: R, b: R, t: R) -> [R; 2] {
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
    fn apply_map(op: &Map, v: R) -> R {
        match *op {
            Map::Abs => v.abs(),
            Map::Clamp { min, max } => v.clamp(lit(min), lit(max)),
            Map::Remap { from, to } => wgpu_noise_remap(v, from.map(lit), to.map(lit)),
            Map::Pow { exponent } => wgpu_noise_signed_pow(v, lit(exponent)),
            Map::Terrace { steps, smoothness } => wgpu_noise_terrace(v, lit(steps), lit(smoothness)),
            Map::PingPong { strength } => wgpu_noise_ping_pong(v, lit(strength)),
            Map::Ease(ease) => wgpu_noise_ease(v, ease.code()),
            Map::Sine => wgpu_noise_sin(v),
            Map::Cosine => wgpu_noise_sin_slope(v),
            Map::Curve(ref curve) => {
                let (bounds, start, c) = curve_segment(curve, v);
                wgpu_noise_curve(v, bounds, start, c)
            }
        }
    }
    fn map_slope(op: &Map, v: R) -> R {
        match *op {
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
            Map::Ease(ease) => wgpu_noise_ease_slope(v, ease.code()),
            Map::Sine => wgpu_noise_sin_slope(v),
            Map::Cosine => -wgpu_noise_sin(v),
            Map::Curve(ref curve) => {
                let (bounds, start, c) = curve_segment(curve, v);
                wgpu_noise_curve_slope(v, bounds, start, c)
            }
        }
    }
}

/// The arguments of `wgpu_noise_curve` for `curve` at `v`: its bounds, and the start (with
/// `1 / width`) and the cubic of the last segment starting at or below `v`, found by the
/// comparisons the generated WGSL makes, in its order.
#[inline(always)]
fn curve_segment<R: Real>(curve: &Curve, v: R) -> ([R; 4], [R; 2], [R; 4]) {
    let n = curve.x.len();
    let mut k = 0;
    for j in 1..n - 1 {
        if v >= lit(curve.x[j]) {
            k = j;
        }
    }
    let [inverse_width, a, b, c, d] = curve.segments[k].map(lit);
    let bounds = [curve.x[0], curve.x[n - 1], curve.ends[0], curve.ends[1]].map(lit);
    (bounds, [lit(curve.x[k]), inverse_width], [a, b, c, d])
}

/// A number with its derivatives with respect to the sample point: `d[j] = ∂v/∂p_j`.
/// Derivatives past the program's dimensions stay 0.
#[derive(Clone, Copy, Debug)]
pub struct Dual<N> {
    /// The value.
    pub v: N,
    /// Its gradient.
    pub d: [N; 4],
}

impl<N: Number> Dual<N> {
    /// The sample point's coordinate `a` at `x`: its derivative 1 along `a`.
    #[inline(always)]
    pub(crate) fn coordinate(a: usize, x: N) -> Self {
        let mut d = [N::constant(0.0); 4];
        d[a] = N::constant(1.0);
        Dual { v: x, d }
    }

    /// `f` of each derivative (a loop: `[T; N]::map` stays a call per use on lanes).
    #[inline(always)]
    fn each(self, f: impl Fn(N) -> N) -> [N; 4] {
        let mut out = self.d;
        for d in &mut out {
            *d = f(*d);
        }
        out
    }
}

impl<N: Number> Add for Dual<N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        let mut d = self.d;
        for (d, o) in d.iter_mut().zip(o.d) {
            *d = *d + o;
        }
        Dual { v: self.v + o.v, d }
    }
}

impl<N: Number> Sub for Dual<N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        let mut d = self.d;
        for (d, o) in d.iter_mut().zip(o.d) {
            *d = *d - o;
        }
        Dual { v: self.v - o.v, d }
    }
}

/// `Σ_k w_k g_k` over the first `dims` derivatives, each term and the sum clamped (two
/// terms past `f32` of opposite signs would make NaN); 0 past `dims`.
#[inline(always)]
fn combine<N: Number>(dims: usize, terms: &[(N, [N; 4])]) -> [N; 4] {
    let zero = N::constant(0.0);
    let mut out = [zero; 4];
    for (j, out) in out.iter_mut().enumerate().take(dims) {
        let mut s = zero;
        for (w, g) in terms {
            s = s + (*w * g[j]).finite();
        }
        *out = s.finite();
    }
    out
}

/// What a register holds per coordinate: a [`Number`], or a [`Dual`] of one. Each method
/// is one operation's arithmetic for this register: the value's (a number), or the value's
/// and the chain rule's (a dual).
pub trait Register: Copy + Add<Output = Self> + Sub<Output = Self> {
    /// The number it computes with.
    type N: Number;
    /// What a noise operation's base function gives: the value, or `[value, ∂/∂q₀, …]`.
    type Noise: Copy;
    /// A constant.
    fn from_number(v: Self::N) -> Self;
    /// Clamped to ±1e30, derivatives too.
    fn finite(self) -> Self;
    /// Times the constant `k`.
    fn times(self, k: Self::N) -> Self;
    /// Plus the constant `k`.
    fn plus(self, k: Self::N) -> Self;
    /// A noise operation at the point `q` (of `dims.point` coordinates), from its base
    /// function's `noise` there.
    fn noise(dims: Dims, q: &[Self; 4], noise: Self::Noise) -> Self;
    /// The number it holds (a dual's value).
    fn number(self) -> Self::N;
    /// Plus `slope` times the derivatives of `by` (a value this one depends on through a
    /// parameter whose slope is `slope`): a dual's chain rule; a number as it is.
    fn chained(self, dims: usize, slope: Self::N, by: Self) -> Self;
    /// One octave `n` shaped by a fractal's `mode`; moves the ridge `weight` on.
    fn octave(dims: usize, mode: FractalMode, n: Self, weight: &mut Self) -> Self;
    /// A fractal's sum with the octave `amplitude · shaped` added.
    fn add_octave(self, dims: usize, amplitude: Self::N, shaped: Self) -> Self;
    /// A fractal's sum divided by its amplitudes' sum `norm`, clamped.
    fn normalised(self, norm: Self::N) -> Self;
    /// A binary operation, clamped.
    fn binary(dims: usize, op: Binary, a: Self, b: Self) -> Self;
    /// A blend, clamped.
    fn blend(dims: usize, a: Self, b: Self, t: Self) -> Self;
    /// A map, clamped.
    fn map(dims: usize, op: &Map, a: Self) -> Self;
}

impl<N: Number> Register for N {
    type N = N;
    type Noise = N;
    #[inline(always)]
    fn from_number(v: N) -> N {
        v
    }
    #[inline(always)]
    fn finite(self) -> N {
        Number::finite(self)
    }
    #[inline(always)]
    fn times(self, k: N) -> N {
        self * k
    }
    #[inline(always)]
    fn plus(self, k: N) -> N {
        self + k
    }
    #[inline(always)]
    fn noise(_dims: Dims, _q: &[N; 4], noise: N) -> N {
        noise
    }
    #[inline(always)]
    fn number(self) -> N {
        self
    }
    #[inline(always)]
    fn chained(self, _dims: usize, _slope: N, _by: N) -> N {
        self
    }
    #[inline(always)]
    fn octave(_dims: usize, mode: FractalMode, n: N, weight: &mut N) -> N {
        N::shape_octave(mode, n, weight)
    }
    #[inline(always)]
    fn add_octave(self, _dims: usize, amplitude: N, shaped: N) -> N {
        self + N::octave_term(amplitude, shaped)
    }
    #[inline(always)]
    fn normalised(self, norm: N) -> N {
        Number::finite(self / norm)
    }
    #[inline(always)]
    fn binary(_dims: usize, op: Binary, a: N, b: N) -> N {
        Number::finite(N::apply_binary(op, a, b))
    }
    #[inline(always)]
    fn blend(_dims: usize, a: N, b: N, t: N) -> N {
        Number::finite(N::apply_blend(a, b, t))
    }
    #[inline(always)]
    fn map(_dims: usize, op: &Map, a: N) -> N {
        Number::finite(N::apply_map(op, a))
    }
}

impl<N: Number> Register for Dual<N> {
    type N = N;
    type Noise = [N; 5];
    #[inline(always)]
    fn from_number(v: N) -> Self {
        Dual {
            v,
            d: [N::constant(0.0); 4],
        }
    }
    #[inline(always)]
    fn finite(self) -> Self {
        Dual {
            v: self.v.finite(),
            d: self.each(N::finite),
        }
    }
    #[inline(always)]
    fn times(self, k: N) -> Self {
        Dual {
            v: self.v * k,
            d: self.each(|d| d * k),
        }
    }
    #[inline(always)]
    fn plus(self, k: N) -> Self {
        Dual {
            v: self.v + k,
            d: self.d,
        }
    }
    #[inline(always)]
    fn noise(dims: Dims, q: &[Self; 4], noise: [N; 5]) -> Self {
        let terms: [(N, [N; 4]); 4] = std::array::from_fn(|i| (noise[1 + i], q[i].d));
        Dual {
            v: noise[0],
            d: combine(dims.sample, &terms[..dims.point]),
        }
    }
    #[inline(always)]
    fn number(self) -> N {
        self.v
    }
    #[inline(always)]
    fn chained(self, dims: usize, slope: N, by: Self) -> Self {
        Dual {
            v: self.v,
            d: combine(dims, &[(N::constant(1.0), self.d), (slope, by.d)]),
        }
    }
    #[inline(always)]
    fn octave(dims: usize, mode: FractalMode, n: Self, weight: &mut Self) -> Self {
        let previous = weight.v;
        let shaped = N::shape_octave(mode, n.v, &mut weight.v);
        let mut d = [N::constant(0.0); 4];
        for j in 0..dims {
            d[j] = match mode {
                FractalMode::Fbm => n.d[j],
                FractalMode::Turbulence => n.v.abs_slope() * n.d[j],
                FractalMode::Ridged => N::ridged_slope(n.v, n.d[j], previous, weight.d[j]),
            };
        }
        if mode == FractalMode::Ridged {
            for j in 0..dims {
                weight.d[j] = N::ridge_weight_slope(shaped, d[j]);
            }
        }
        Dual { v: shaped, d }
    }
    #[inline(always)]
    fn add_octave(self, dims: usize, amplitude: N, shaped: Self) -> Self {
        let mut d = self.d;
        for j in 0..dims {
            d[j] = (d[j] + amplitude * shaped.d[j]).finite();
        }
        Dual {
            v: self.v + N::octave_term(amplitude, shaped.v),
            d,
        }
    }
    #[inline(always)]
    fn normalised(self, norm: N) -> Self {
        Dual {
            v: (self.v / norm).finite(),
            d: self.each(|d| (d / norm).finite()),
        }
    }
    #[inline(always)]
    fn binary(dims: usize, op: Binary, a: Self, b: Self) -> Self {
        let [wa, wb] = N::binary_weights(op, a.v, b.v);
        Dual {
            v: N::apply_binary(op, a.v, b.v).finite(),
            d: combine(dims, &[(wa, a.d), (wb, b.d)]),
        }
    }
    #[inline(always)]
    fn blend(dims: usize, a: Self, b: Self, t: Self) -> Self {
        let [w, wt] = N::blend_weights(a.v, b.v, t.v);
        Dual {
            v: N::apply_blend(a.v, b.v, t.v).finite(),
            d: combine(
                dims,
                &[(N::constant(1.0) - w, a.d), (w, b.d), (wt, t.d)],
            ),
        }
    }
    #[inline(always)]
    fn map(dims: usize, op: &Map, a: Self) -> Self {
        Dual {
            v: N::apply_map(op, a.v).finite(),
            d: combine(dims, &[(N::map_slope(op, a.v), a.d)]),
        }
    }
}

/// The range a driven cellular jitter is clamped to.
const JITTER_RANGE: Map = Map::Clamp { min: 0.0, max: 1.0 };

/// A driven cellular jitter's value `v` clamped to 0..1, as a source's jitter.
#[inline(always)]
pub(crate) fn clamped_jitter<N: Number>(v: N) -> N {
    N::apply_map(&JITTER_RANGE, v)
}

/// Sets `out` to a point: `f(a)` clamped per coordinate below `dims`, 0 past it.
///
/// In place, and a loop, not `array::from_fn`: a dual register on lanes is 1280 bytes,
/// which a register returned by value copies; on lanes the closure of `from_fn` stays an
/// out-of-line call per axis, compiled without the level's features.
#[inline(always)]
fn set_point<G: Register>(out: &mut [G; 4], dims: usize, f: impl Fn(usize) -> G) {
    for (a, out) in out.iter_mut().enumerate() {
        *out = if a < dims {
            f(a).finite()
        } else {
            G::from_number(G::N::constant(0.0))
        };
    }
}

/// Sets `out` to a value: the value in the first coordinate, 0 in the others.
#[inline(always)]
fn set_value<G: Register>(out: &mut [G; 4], v: G) {
    out[0] = v;
    for out in &mut out[1..] {
        *out = G::from_number(G::N::constant(0.0));
    }
}

/// The base functions of a graph's noise operations, as an evaluator computes them: what
/// [`step`] asks of it for operation number `op` at its point `q`.
pub(crate) trait Bases<G: Register> {
    /// An [`Op::Noise`]: its `source`'s base function.
    fn noise(&mut self, op: usize, source: &Source, q: &[G; 4]) -> G::Noise;
    /// An [`Op::Noise`] of a `source` with driven parameters: its base function with their
    /// `values`, and for a gradient its derivatives with respect to the jitter, the
    /// exponent and the flow angle (0 for a value, and for a parameter that is not driven).
    fn driven(&mut self, op: usize, source: &Source, q: &[G; 4], values: SourceValues<G::N>)
        -> (G::Noise, [G::N; 3]);
    /// An [`Op::Vector`]: the base vector noise of `source`, per component (components past
    /// the dimensions 0).
    fn vector(&mut self, op: usize, source: &VectorSource, q: &[G; 4]) -> [G::Noise; 4];
    /// An [`Op::Feature`]: the nearest feature's position of `source`'s search with the
    /// driven parameters' `values` (coordinates past the dimensions 0), and for a gradient
    /// how it moves with a driven jitter (0 for a value, and where the jitter is a number).
    fn feature(
        &mut self,
        op: usize,
        source: &Source,
        q: &[G; 4],
        values: SourceValues<G::N>,
    ) -> ([G::N; 4], [G::N; 4]);
}

/// The values of a source's driven parameters at a sample ([`SourceDrivers`]): the jitter
/// clamped to 0..1, the exponent and the angle as their registers hold them (clamped when
/// lowered); `None` where the source's number holds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SourceValues<N> {
    pub jitter: Option<N>,
    pub exponent: Option<N>,
    pub angle: Option<N>,
}

impl<N: Copy> SourceValues<N> {
    /// Each value through `f`.
    pub(crate) fn map<M>(self, f: impl Fn(N) -> M) -> SourceValues<M> {
        SourceValues {
            jitter: self.jitter.map(&f),
            exponent: self.exponent.map(&f),
            angle: self.angle.map(&f),
        }
    }
}

/// The values of `driven`'s registers at a sample ([`SourceValues`]), and the slope of the
/// jitter's clamp (1 inside 0..1, 0 where clamped).
#[inline(always)]
pub(crate) fn source_values<G: Register>(driven: &SourceDrivers, regs: &[[G; 4]]) -> (SourceValues<G::N>, G::N) {
    let jitter = driven.jitter.map(|j| regs[j][0].number());
    let values = SourceValues {
        jitter: jitter.map(clamped_jitter),
        exponent: driven.exponent.map(|e| regs[e][0].number()),
        angle: driven.angle.map(|a| regs[a][0].number()),
    };
    let slope = jitter.map_or(G::N::constant(0.0), |v| G::N::map_slope(&JITTER_RANGE, v));
    (values, slope)
}

/// Sets `out` to operation number `index`, `op`, working in `dims` ([`Program::dims_at`])
/// at the sample point `p`, on the registers `regs` of the operations before it; `bases`
/// computes a noise operation's base function. Every evaluator runs this.
#[inline(always)]
pub(crate) fn step<G: Register>(
    dims: Dims,
    (index, op): (usize, &Op),
    p: &[G; 4],
    regs: &[[G; 4]],
    bases: &mut impl Bases<G>,
    out: &mut [G; 4],
) {
    let k = G::N::constant;
    let Dims { sample, point } = dims;
    match op {
        Op::Point => set_point(out, point, |a| p[a]),
        Op::Scale { p, by } => set_point(out, point, |a| regs[*p][a].times(k(by[a]))),
        Op::Offset { p, by } => set_point(out, point, |a| regs[*p][a].plus(k(by[a]))),
        Op::Rotate { p, plane, cos, sin } => {
            let q = &regs[*p];
            let (c, s) = (k(*cos), k(*sin));
            let [u, v] = *plane;
            set_point(out, point, |a| {
                if a == u {
                    q[u].times(c) - q[v].times(s)
                } else if a == v {
                    q[u].times(s) + q[v].times(c)
                } else {
                    q[a]
                }
            })
        }
        Op::Displace { p, d, amplitude } => set_point(out, point, |a| {
            regs[*p][a] + regs[d[a]][0].times(k(*amplitude))
        }),
        Op::Noise { p, source, driven } if driven.is_none() => {
            let q = &regs[*p];
            set_value(out, G::noise(dims, q, bases.noise(index, source, q)))
        }
        // The driven jitter clamped to 0..1, its slope 0 where clamped; the exponent's
        // register clamped already.
        Op::Noise { p, source, driven } => {
            let q = &regs[*p];
            let (values, clamped) = source_values(driven, regs);
            let (noise, slopes) = bases.driven(index, source, q, values);
            let mut n = G::noise(dims, q, noise);
            if let Some(j) = driven.jitter {
                n = n.chained(sample, slopes[0] * clamped, regs[j][0]);
            }
            if let Some(e) = driven.exponent {
                n = n.chained(sample, slopes[1], regs[e][0]);
            }
            if let Some(a) = driven.angle {
                n = n.chained(sample, slopes[2], regs[a][0]);
            }
            set_value(out, n)
        }
        Op::Vector { p, source } => {
            let q = &regs[*p];
            let v = bases.vector(index, source, q);
            set_point(out, point, |a| G::noise(dims, q, v[a]))
        }
        // Constant inside each cell: a point whose Jacobian is 0.
        Op::Feature { p, source, driven } => {
            let (values, clamped) = source_values(driven, regs);
            let (f, moves) = bases.feature(index, source, &regs[*p], values);
            set_point(out, point, |a| {
                let position = G::from_number(f[a]);
                match driven.jitter {
                    Some(j) => position.chained(sample, moves[a] * clamped, regs[j][0]),
                    None => position,
                }
            })
        }
        Op::Constant(c) => set_value(out, G::from_number(k(*c))),
        Op::Axis { p, axis } => set_value(out, regs[*p][*axis]),
        // `point` is the new point's: the last coordinate is the added one.
        Op::AddAxis { p, coordinate } => set_point(out, point, |a| {
            if a + 1 < point {
                regs[*p][a]
            } else {
                regs[*coordinate][0]
            }
        }),
        Op::RemoveAxis { p, axis } => {
            set_point(out, point, |a| regs[*p][if a < *axis { a } else { a + 1 }])
        }
        Op::Fractal { mode, terms, norm } => {
            let mut sum = G::from_number(k(0.0));
            let mut weight = G::from_number(k(1.0));
            for &(n, amplitude) in terms {
                let shaped = G::octave(sample, *mode, regs[n][0], &mut weight);
                sum = sum.add_octave(sample, k(amplitude), shaped);
            }
            set_value(out, sum.normalised(k(*norm)))
        }
        Op::Binary { op, a, b } => {
            set_value(out, G::binary(sample, *op, regs[*a][0], regs[*b][0]))
        }
        Op::Blend { a, b, t } => {
            set_value(out, G::blend(sample, regs[*a][0], regs[*b][0], regs[*t][0]))
        }
        Op::Map { op, a } => set_value(out, G::map(sample, op, regs[*a][0])),
    }
}

/// Runs `program` at the sample point `p`: [`step`] per operation, `bases` giving the noise
/// operations' base functions. `regs` is scratch space reused between calls, a register per
/// operation, each written in place. Returns the output register's value.
#[inline(always)]
pub(crate) fn run<G: Register>(
    program: &Program,
    p: &[G; 4],
    regs: &mut Vec<[G; 4]>,
    bases: &mut impl Bases<G>,
) -> G {
    let ops = &program.ops;
    if regs.len() < ops.len() {
        regs.resize(ops.len(), [G::from_number(G::N::constant(0.0)); 4]);
    }
    for (i, op) in ops.iter().enumerate() {
        let (done, next) = regs.split_at_mut(i);
        step(program.dims_at(i), (i, op), p, done, bases, &mut next[0]);
    }
    regs[program.output][0]
}

/// The scalar base functions with the lookup `lut`, each operation at its point's
/// coordinates (`point_dims`, the program's): the values ([`Bases`] of a [`Real`]) or the
/// values and gradients (of its [`Dual`]).
struct ScalarBases<'a, L> {
    lut: &'a L,
    point_dims: &'a [usize],
}

impl<R: Real, L: NoiseHasher> Bases<R> for ScalarBases<'_, L> {
    fn noise(&mut self, op: usize, source: &Source, q: &[R; 4]) -> R {
        noise(self.lut, source, &q[..self.point_dims[op]])
    }
    fn driven(&mut self, op: usize, source: &Source, q: &[R; 4], values: SourceValues<R>) -> (R, [R; 3]) {
        let source = with_values(source, values.map(to_f32));
        (self.noise(op, &source, q), [R::lit(0.0); 3])
    }
    fn vector(&mut self, op: usize, source: &VectorSource, q: &[R; 4]) -> [R; 4] {
        let period = source.period.map(lit::<R>);
        let dims = self.point_dims[op];
        let kernel = source.kernel.code();
        base_vector(self.lut, source.kind, &q[..dims], &period[..dims], kernel)
    }
    fn feature(
        &mut self,
        op: usize,
        source: &Source,
        q: &[R; 4],
        values: SourceValues<R>,
    ) -> ([R; 4], [R; 4]) {
        let source = with_values(source, values.map(to_f32));
        let zero = [R::lit(0.0); 4];
        (feature(self.lut, &source, &q[..self.point_dims[op]]), zero)
    }
}

impl<R: Real, L: NoiseHasher> Bases<Dual<R>> for ScalarBases<'_, L> {
    fn noise(&mut self, op: usize, source: &Source, q: &[Dual<R>; 4]) -> [R; 5] {
        let q: [R; 4] = std::array::from_fn(|a| q[a].v);
        noise_deriv(self.lut, source, &q[..self.point_dims[op]])
    }
    fn driven(
        &mut self,
        op: usize,
        source: &Source,
        q: &[Dual<R>; 4],
        values: SourceValues<R>,
    ) -> ([R; 5], [R; 3]) {
        let source = with_values(source, values.map(to_f32));
        let q: [R; 4] = std::array::from_fn(|a| q[a].v);
        let q = &q[..self.point_dims[op]];
        let slope = |driven: Option<R>, parameter| match driven {
            Some(_) => parameter_slope(self.lut, &source, q, parameter),
            None => R::lit(0.0),
        };
        let angle = match values.angle {
            Some(_) => angle_slope(self.lut, &source, q),
            None => R::lit(0.0),
        };
        (
            noise_deriv(self.lut, &source, q),
            [
                slope(values.jitter, CellParameter::Jitter),
                slope(values.exponent, CellParameter::Exponent),
                angle,
            ],
        )
    }
    fn vector(&mut self, op: usize, source: &VectorSource, q: &[Dual<R>; 4]) -> [[R; 5]; 4] {
        let q: [R; 4] = std::array::from_fn(|a| q[a].v);
        let period = source.period.map(lit::<R>);
        let dims = self.point_dims[op];
        let kernel = source.kernel.code();
        base_vector_deriv(self.lut, source.kind, &q[..dims], &period[..dims], kernel)
    }
    fn feature(
        &mut self,
        op: usize,
        source: &Source,
        q: &[Dual<R>; 4],
        values: SourceValues<R>,
    ) -> ([R; 4], [R; 4]) {
        let source = with_values(source, values.map(to_f32));
        let q: [R; 4] = std::array::from_fn(|a| q[a].v);
        let q = &q[..self.point_dims[op]];
        let moves = match values.jitter {
            Some(_) => feature_jitter_slope(self.lut, &source, q),
            None => [R::lit(0.0); 4],
        };
        (feature(self.lut, &source, q), moves)
    }
}

/// The nearest cellular feature's position of `source` at `q` ([`Op::Feature`]).
pub(crate) fn feature<R: Real>(lut: &impl NoiseHasher, source: &Source, q: &[R]) -> [R; 4] {
    let period = source.period.map(lit::<R>);
    base_feature(lut, q, &period[..q.len()], &source.cell)
}

/// `source` with the driven parameters' `values` at a sample (in `f32`, the type of every
/// source parameter): the jitter, and the Minkowski exponent in the distance's code.
pub(crate) fn with_values(source: &Source, values: SourceValues<f32>) -> Source {
    let mut source = *source;
    if let Some(jitter) = values.jitter {
        source.cell.jitter = jitter;
    }
    if let Some(exponent) = values.exponent {
        source.cell.distance = cellular_minkowski(exponent);
    }
    if let Some(angle) = values.angle {
        source.flow = angle;
    }
    source
}

/// The derivative of flow noise `source` at `q` with respect to its angle θ: the noise is
/// `A cos θ + B sin θ` in the angle (every gradient turned by it: `cpu::simplex`'s
/// `flow_corners2/3`), so `∂/∂θ = B cos θ − A sin θ`, `A` the noise at angle 0 (plain
/// simplex) and `B` at π/2 (in `f32`, as a source's angle is).
pub(crate) fn angle_slope<R: Real>(lut: &impl NoiseHasher, source: &Source, q: &[R]) -> R {
    let at = |angle: f32| noise(lut, &Source { flow: angle, ..*source }, q);
    let theta = lit::<R>(source.flow);
    at(std::f32::consts::FRAC_PI_2) * theta.cos() - at(0.0) * theta.sin()
}

/// A number in `f32`, as a source's parameters are.
fn to_f32<R: Real>(v: R) -> f32 {
    v.to_f64() as f32
}

/// The derivative of `source`'s cellular noise at `q` with respect to `parameter`.
pub(crate) fn parameter_slope<R: Real>(
    lut: &impl NoiseHasher,
    source: &Source,
    q: &[R],
    parameter: CellParameter,
) -> R {
    let period = source.period.map(lit::<R>);
    base_parameter_slope(lut, q, &period[..q.len()], &source.cell, parameter)
}

/// How the nearest feature of `source` at `q` moves with its jitter, per axis.
pub(crate) fn feature_jitter_slope<R: Real>(
    lut: &impl NoiseHasher,
    source: &Source,
    q: &[R],
) -> [R; 4] {
    let period = source.period.map(lit::<R>);
    base_feature_jitter_slope(lut, q, &period[..q.len()], &source.cell)
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

/// Evaluates `program` at `p`; `regs` is scratch space reused between calls.
pub fn value<R: Real>(
    program: &Program,
    lut: &impl NoiseHasher,
    p: [R; 4],
    regs: &mut Vec<[R; 4]>,
) -> R {
    let mut bases = ScalarBases {
        lut,
        point_dims: &program.point_dims,
    };
    run(program, &p, regs, &mut bases)
}

/// Evaluates `program` and its gradient at `p`: `[value, ∂/∂x, ∂/∂y, ∂/∂z, ∂/∂w]`
/// (derivatives past `dims` 0). The value is [`value`]'s bit for bit. Every source has an
/// analytic gradient; at kinks (docs/graphs.md) it is one-sided.
pub fn value_and_gradient<R: Real>(
    program: &Program,
    lut: &impl NoiseHasher,
    p: [R; 4],
    regs: &mut Vec<[Dual<R>; 4]>,
) -> [R; 5] {
    let p: [Dual<R>; 4] = std::array::from_fn(|a| Dual::coordinate(a, p[a]));
    let mut bases = ScalarBases {
        lut,
        point_dims: &program.point_dims,
    };
    let out = run(program, &p, regs, &mut bases);
    [out.v, out.d[0], out.d[1], out.d[2], out.d[3]]
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
    regs: &mut Vec<[Dual<R>; 4]>,
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
    static DUALS: RefCell<Vec<[Dual<f32>; 4]>> = const { RefCell::new(Vec::new()) };
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
