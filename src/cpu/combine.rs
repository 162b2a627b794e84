//! CPU mirror of `shaders/combine.wgsl`: the functions graph nodes combine values with, in
//! the shader's order of operations, and their derivatives (the one-sided rules at kinks
//! are in `docs/graphs.md`).

use super::real::Real;

/// The largest magnitude a graph keeps: every combined value, point coordinate and
/// derivative is clamped to ±1e30, so no chain of products or sums reaches infinity (and
/// no infinity meets another to make a NaN).
pub const WGPU_NOISE_FINITE: f64 = 1e30;

/// `v` clamped to ±[`WGPU_NOISE_FINITE`] (`wgpu_noise_finite`).
#[inline(always)]
pub(crate) fn wgpu_noise_finite<R: Real>(v: R) -> R {
    let limit = R::lit(WGPU_NOISE_FINITE);
    v.clamp(-limit, limit)
}

/// WGSL's `sign`: 1, -1, or 0 for ±0.
#[inline(always)]
pub(crate) fn wgpu_noise_sign<R: Real>(v: R) -> R {
    if v > R::lit(0.0) {
        R::lit(1.0)
    } else if v < R::lit(0.0) {
        R::lit(-1.0)
    } else {
        R::lit(0.0)
    }
}

/// The slope of `|v|`: 1 at and above 0 (the right-hand derivative at the kink), else -1.
#[inline(always)]
pub(crate) fn wgpu_noise_abs_slope<R: Real>(v: R) -> R {
    if v < R::lit(0.0) {
        R::lit(-1.0)
    } else {
        R::lit(1.0)
    }
}

/// WGSL's `min`: `a` where `a < b`, else `b`.
#[inline(always)]
pub(crate) fn wgpu_noise_min<R: Real>(a: R, b: R) -> R {
    if a < b {
        a
    } else {
        b
    }
}

/// WGSL's `max`: `a` where `a > b`, else `b`.
#[inline(always)]
pub(crate) fn wgpu_noise_max<R: Real>(a: R, b: R) -> R {
    if a > b {
        a
    } else {
        b
    }
}

/// The weight of `b` in a blend: `t` from [-1, 1] to [0, 1], clamped.
#[inline(always)]
pub(crate) fn wgpu_noise_blend_weight<R: Real>(t: R) -> R {
    (t * R::lit(0.5) + R::lit(0.5)).clamp(R::lit(0.0), R::lit(1.0))
}

/// `a` to `b` as `t` goes from -1 to 1.
#[inline(always)]
pub(crate) fn wgpu_noise_blend<R: Real>(a: R, b: R, t: R) -> R {
    a + (b - a) * wgpu_noise_blend_weight(t)
}

/// A blend's `t` eased by `curve` (`WGPU_NOISE_EASE_HERMITE` or, else, quintic): the
/// weight `w` of [`wgpu_noise_blend_weight`] through `3w² − 2w³` or `6w⁵ − 15w⁴ + 10w³`,
/// back in [-1, 1].
#[inline(always)]
pub(crate) fn wgpu_noise_ease<R: Real>(t: R, curve: u32) -> R {
    let w = wgpu_noise_blend_weight(t);
    let e = if curve == WGPU_NOISE_EASE_HERMITE {
        w * w * (R::lit(3.0) - R::lit(2.0) * w)
    } else {
        super::classic::fade(w)
    };
    e * R::lit(2.0) - R::lit(1.0)
}

/// The slope of [`wgpu_noise_ease`]: the curve's slope at `w` (`6w(1 − w)` or
/// `30w²(w − 1)²`; the ½ of `w` and the 2 back cancel), 0 at both ends, so also where `t`
/// is clamped.
#[inline(always)]
pub(crate) fn wgpu_noise_ease_slope<R: Real>(t: R, curve: u32) -> R {
    let w = wgpu_noise_blend_weight(t);
    if curve == WGPU_NOISE_EASE_HERMITE {
        R::lit(6.0) * w * (R::lit(1.0) - w)
    } else {
        let s = w - R::lit(1.0);
        R::lit(30.0) * w * w * s * s
    }
}

/// `wgpu_noise_ease`'s curve codes (`WGPU_NOISE_EASE_*` in `shaders/combine.wgsl`).
pub(crate) const WGPU_NOISE_EASE_HERMITE: u32 = 0;
pub(crate) const WGPU_NOISE_EASE_QUINTIC: u32 = 1;

/// Where the smooth minimum takes `a`: 1 where `a` is smaller by `k` or more, 0 where
/// `b` is.
#[inline(always)]
pub(crate) fn wgpu_noise_smooth_weight<R: Real>(a: R, b: R, k: R) -> R {
    (R::lit(0.5) + R::lit(0.5) * (b - a) / k).clamp(R::lit(0.0), R::lit(1.0))
}

/// Polynomial smooth minimum (Quilez): `min(a, b)` beyond `k` apart, rounded within.
/// Its derivative is `h` for `a` and `1 - h` for `b` (`h` the smooth weight).
#[inline(always)]
pub(crate) fn wgpu_noise_smooth_min<R: Real>(a: R, b: R, k: R) -> R {
    let h = wgpu_noise_smooth_weight(a, b, k);
    b + (a - b) * h - k * h * (R::lit(1.0) - h)
}

/// Polynomial smooth maximum: `-smooth_min(-a, -b, k)`.
#[inline(always)]
pub(crate) fn wgpu_noise_smooth_max<R: Real>(a: R, b: R, k: R) -> R {
    -wgpu_noise_smooth_min(-a, -b, k)
}

/// Whether `b` is too small to divide by: below f32's smallest normal number in magnitude
/// (GPUs may flush such a number to 0), 0 included.
#[inline(always)]
pub(crate) fn wgpu_noise_tiny<R: Real>(b: R) -> bool {
    b.abs() < R::lit(f32::MIN_POSITIVE as f64)
}

/// `a / b`, 0 where `b` is tiny ([`wgpu_noise_tiny`]).
#[inline(always)]
pub(crate) fn wgpu_noise_divide<R: Real>(a: R, b: R) -> R {
    if wgpu_noise_tiny(b) {
        R::lit(0.0)
    } else {
        a / b
    }
}

/// The weights of `∇a` and `∇b` in the gradient of [`wgpu_noise_divide`]: `1 / b` and
/// `-(a / b) / b`, each clamped; 0 where `b` is tiny.
#[inline(always)]
pub(crate) fn wgpu_noise_divide_weights<R: Real>(a: R, b: R) -> [R; 2] {
    if wgpu_noise_tiny(b) {
        return [R::lit(0.0); 2];
    }
    let q = wgpu_noise_finite(a / b);
    [
        wgpu_noise_finite(R::lit(1.0) / b),
        wgpu_noise_finite(-q / b),
    ]
}

/// The floored remainder `a - b floor(a / b)` (GLSL's `mod`: the sign of `b`), 0 where `b`
/// is tiny.
#[inline(always)]
pub(crate) fn wgpu_noise_modulus<R: Real>(a: R, b: R) -> R {
    if wgpu_noise_tiny(b) {
        R::lit(0.0)
    } else {
        a - b * (a / b).floor()
    }
}

/// The weights of `∇a` and `∇b` in the gradient of [`wgpu_noise_modulus`]: 1 and
/// `-floor(a / b)`, clamped; 0 where `b` is tiny.
#[inline(always)]
pub(crate) fn wgpu_noise_modulus_weights<R: Real>(a: R, b: R) -> [R; 2] {
    if wgpu_noise_tiny(b) {
        return [R::lit(0.0); 2];
    }
    [R::lit(1.0), wgpu_noise_finite(-(a / b).floor())]
}

/// `low_high` mapped linearly onto `onto` (`low_high[0] != low_high[1]`).
#[inline(always)]
pub(crate) fn wgpu_noise_remap<R: Real>(v: R, low_high: [R; 2], onto: [R; 2]) -> R {
    onto[0] + (v - low_high[0]) * (onto[1] - onto[0]) / (low_high[1] - low_high[0])
}

/// The slope of [`wgpu_noise_remap`], clamped (a range of 1e-37 onto one of 1e30 has a
/// slope past `f32`).
#[inline(always)]
pub(crate) fn wgpu_noise_remap_slope<R: Real>(low_high: [R; 2], onto: [R; 2]) -> R {
    wgpu_noise_finite((onto[1] - onto[0]) / (low_high[1] - low_high[0]))
}

/// `sign(v) |v|^e` (`e > 0`), odd so that negative values keep their sign.
#[inline(always)]
pub(crate) fn wgpu_noise_signed_pow<R: Real>(v: R, e: R) -> R {
    wgpu_noise_sign(v) * v.abs().powf(e)
}

/// The slope of [`wgpu_noise_signed_pow`]: `e |v|^(e-1)`, clamped. At `v = 0` it is
/// `e 0^(e-1)`, written out rather than left to `pow(0, e - 1)` (undefined in WGSL below
/// `e = 1`): the bound [`WGPU_NOISE_FINITE`] for `e < 1` (the slope is infinite), 1 for
/// `e = 1`, 0 above. So a gradient of 0 there stays 0 and any other is ±1e30 times it.
#[inline(always)]
pub(crate) fn wgpu_noise_signed_pow_slope<R: Real>(v: R, e: R) -> R {
    let one = R::lit(1.0);
    if v == R::lit(0.0) {
        return if e < one {
            R::lit(WGPU_NOISE_FINITE)
        } else if e == one {
            one
        } else {
            R::lit(0.0)
        };
    }
    wgpu_noise_finite(e * v.abs().powf(e - one))
}

/// The slope of [`wgpu_noise_signed_pow`] in its exponent: `sign(v) |v|^e ln |v|`, clamped;
/// 0 at `v = 0`, its limit there for `e > 0` (`ln 0` is −∞).
#[inline(always)]
pub(crate) fn wgpu_noise_signed_pow_exponent_slope<R: Real>(v: R, e: R) -> R {
    if v == R::lit(0.0) {
        return R::lit(0.0);
    }
    let m = v.abs();
    wgpu_noise_finite(wgpu_noise_sign(v) * wgpu_noise_finite(m.powf(e)) * m.ln())
}

/// The position within a terrace's ramp, 0 to 1 (`smoothness > 0`).
#[inline(always)]
fn wgpu_noise_terrace_ramp<R: Real>(f: R, smoothness: R) -> R {
    ((f - (R::lit(1.0) - smoothness)) / smoothness).clamp(R::lit(0.0), R::lit(1.0))
}

/// `steps` flat terraces per unit of `v`, each ending in a smooth ramp (smoothstep) over the
/// last `smoothness` of the step; smoothness 0 gives hard steps.
#[inline(always)]
pub(crate) fn wgpu_noise_terrace<R: Real>(v: R, steps: R, smoothness: R) -> R {
    let x = v * steps;
    let i = x.floor();
    let f = x - i;
    let mut s = R::lit(0.0);
    if smoothness > R::lit(0.0) {
        let t = wgpu_noise_terrace_ramp(f, smoothness);
        s = t * t * (R::lit(3.0) - R::lit(2.0) * t);
    }
    (i + s) / steps
}

/// The slope of [`wgpu_noise_terrace`]: 0 on the flats, `6t(1-t)/smoothness` on a ramp,
/// clamped.
#[inline(always)]
pub(crate) fn wgpu_noise_terrace_slope<R: Real>(v: R, steps: R, smoothness: R) -> R {
    if smoothness <= R::lit(0.0) {
        return R::lit(0.0);
    }
    let x = v * steps;
    let f = x - x.floor();
    let t = wgpu_noise_terrace_ramp(f, smoothness);
    wgpu_noise_finite(R::lit(6.0) * t * (R::lit(1.0) - t) / smoothness)
}

/// A triangle wave of `v * strength` with period 2, from -1 (at even values) to 1 (at odd).
#[inline(always)]
pub(crate) fn wgpu_noise_ping_pong<R: Real>(v: R, strength: R) -> R {
    let x = v * strength;
    let y = x - R::lit(2.0) * (x * R::lit(0.5)).floor();
    let tri = if y < R::lit(1.0) { y } else { R::lit(2.0) - y };
    tri * R::lit(2.0) - R::lit(1.0)
}

/// The slope of [`wgpu_noise_ping_pong`]: `±2 strength` (rising where `y < 1`).
#[inline(always)]
pub(crate) fn wgpu_noise_ping_pong_slope<R: Real>(v: R, strength: R) -> R {
    let x = v * strength;
    let y = x - R::lit(2.0) * (x * R::lit(0.5)).floor();
    let s = R::lit(2.0) * strength;
    if y < R::lit(1.0) {
        s
    } else {
        -s
    }
}

internal! {
    /// Where [`wgpu_noise_sin`] stops: 2²⁴. Past it `f32` numbers are 2 or more apart (a
    /// third of a period), the reduction's multiple of π/2 has more than 24 bits, and the
    /// sine is 0.
    pub const WGPU_NOISE_SIN_LIMIT: f64 = 16_777_216.0;
}

/// π/2 in three parts, `C1 + C2 + C3` (π/2 within 6e-18): `C1` and `C2` have 12 significant
/// bits, so their products with a whole number of 12 bits are exact in `f32`, fused into a
/// multiply-add by a GPU compiler or not; `C3` is the rest, rounded to `f32`.
const WGPU_NOISE_HALF_PI1: f64 = 1.570_800_781_25;
const WGPU_NOISE_HALF_PI2: f64 = -4.453_584_551_811_218e-6;
const WGPU_NOISE_HALF_PI3: f64 = -8.705_515_752_716_053e-10;

/// `x` reduced by whole quarter turns (Cody–Waite): `[r, q]` with `x = r + k π/2`,
/// `|r| ≤ π/4` (within rounding) and `q = k mod 4`. `k = round(x · 2/π)` is split into
/// `kh + kl`, each of 12 bits, so that every product with `C1` and `C2` is exact; `f32`'s
/// `x · 2/π` is off by half an ulp, which past 2²⁰ puts `r` up to a quarter turn out,
/// taken back by a second quarter-turn step. `|x|` below [`WGPU_NOISE_SIN_LIMIT`].
#[inline(always)]
pub(crate) fn wgpu_noise_sin_reduce<R: Real>(x: R) -> [R; 2] {
    let two_over_pi = R::lit(std::f64::consts::FRAC_2_PI);
    let (c1, c2, c3) = (
        R::lit(WGPU_NOISE_HALF_PI1),
        R::lit(WGPU_NOISE_HALF_PI2),
        R::lit(WGPU_NOISE_HALF_PI3),
    );
    let k = (x * two_over_pi).round_ties_even();
    let kh = (k * R::lit(1.0 / 4096.0)).round_ties_even() * R::lit(4096.0);
    let kl = k - kh;
    let mut r = x - kh * c1;
    r = r - kl * c1;
    r = r - kh * c2;
    r = r - kl * c2;
    r = r - k * c3;
    let k2 = (r * two_over_pi).round_ties_even();
    r = r - k2 * c1;
    r = r - k2 * c2;
    r = r - k2 * c3;
    let k = k + k2;
    [r, k - R::lit(4.0) * (k * R::lit(0.25)).floor()]
}

/// `sin r` for `|r| ≤ π/4`: Cephes' `sinf` polynomial, `r + r³ (s₁ + s₂ r² + s₃ r⁴)`.
#[inline(always)]
pub(crate) fn wgpu_noise_sin_poly<R: Real>(r: R) -> R {
    let z = r * r;
    ((R::lit(-1.951_529_589_1e-4) * z + R::lit(8.332_160_873_6e-3)) * z
        - R::lit(1.666_665_461_1e-1))
        * z
        * r
        + r
}

/// `cos r` for `|r| ≤ π/4`: Cephes' `cosf` polynomial, `1 − r²/2 + r⁴ (c₁ + c₂ r² + c₃ r⁴)`.
#[inline(always)]
pub(crate) fn wgpu_noise_cos_poly<R: Real>(r: R) -> R {
    let z = r * r;
    ((R::lit(2.443_315_711_809_948e-5) * z - R::lit(1.388_731_625_493_765e-3)) * z
        + R::lit(4.166_664_568_298_827e-2))
        * z
        * z
        - R::lit(0.5) * z
        + R::lit(1.0)
}

/// `sin(r + q π/2)` for a quadrant `q` of 0 to 4 (4 is 0).
#[inline(always)]
pub(crate) fn wgpu_noise_sin_quadrant<R: Real>(r: R, q: R) -> R {
    let odd = q == R::lit(1.0) || q == R::lit(3.0);
    let v = if odd {
        wgpu_noise_cos_poly(r)
    } else {
        wgpu_noise_sin_poly(r)
    };
    if q == R::lit(2.0) || q == R::lit(3.0) {
        -v
    } else {
        v
    }
}

internal! {
    /// The sine of `x` (radians), the same `f32` operations on the CPU and the GPU (WGSL's
    /// `sin` is the driver's, neither equal to `f32::sin` nor accurate far from 0): within
    /// 1.5e-7 of `sin` below [`WGPU_NOISE_SIN_LIMIT`] (`tests/reference/graph_maps.rs`
    /// measures it), 0 at and past it.
    #[inline(always)]
    pub fn wgpu_noise_sin<R: Real>(x: R) -> R {
        if x.abs() >= R::lit(WGPU_NOISE_SIN_LIMIT) {
            return R::lit(0.0);
        }
        let [r, q] = wgpu_noise_sin_reduce(x);
        wgpu_noise_sin_quadrant(r, q)
    }
}

internal! {
    /// The slope of [`wgpu_noise_sin`]: the cosine, `sin` a quadrant on (as accurate), 0 at
    /// and past the limit.
    #[inline(always)]
    pub fn wgpu_noise_sin_slope<R: Real>(x: R) -> R {
        if x.abs() >= R::lit(WGPU_NOISE_SIN_LIMIT) {
            return R::lit(0.0);
        }
        let [r, q] = wgpu_noise_sin_reduce(x);
        wgpu_noise_sin_quadrant(r, q + R::lit(1.0))
    }
}

/// A `curve` node's value at `v`: `bounds` = `[x first, x last, y first, y last]`, and the
/// segment holding `v` (the last whose start is at or below it), `start` = `[x, 1 / width]`
/// and `c` = its cubic's coefficients `a + t (b + t (c + t d))` in `t` from 0 to 1. The
/// first `y` at and below the first `x`, the last at and above the last.
#[inline(always)]
pub(crate) fn wgpu_noise_curve<R: Real>(v: R, bounds: [R; 4], start: [R; 2], c: [R; 4]) -> R {
    if v <= bounds[0] {
        return bounds[2];
    }
    if v >= bounds[1] {
        return bounds[3];
    }
    let t = (v - start[0]) * start[1];
    c[0] + t * (c[1] + t * (c[2] + t * c[3]))
}

/// The slope of [`wgpu_noise_curve`]: the cubic's, `(b + t (2c + 3d t)) / width`, clamped
/// (a narrow segment's slope may pass `f32`); 0 at and past the ends.
#[inline(always)]
pub(crate) fn wgpu_noise_curve_slope<R: Real>(
    v: R,
    bounds: [R; 4],
    start: [R; 2],
    c: [R; 4],
) -> R {
    if v <= bounds[0] || v >= bounds[1] {
        return R::lit(0.0);
    }
    let t = (v - start[0]) * start[1];
    let (two, three) = (R::lit(2.0), R::lit(3.0));
    wgpu_noise_finite((c[1] + t * (two * c[2] + three * c[3] * t)) * start[1])
}

/// A fractal octave's term `amplitude × shaped`, clamped: 16 octaves of gain ±64 reach
/// amplitudes of 1.2e27, which times a value near the bound is past `f32` (and two such
/// terms of opposite signs made NaN).
#[inline(always)]
pub(crate) fn wgpu_noise_octave_term<R: Real>(amplitude: R, shaped: R) -> R {
    wgpu_noise_finite(amplitude * shaped)
}

/// One derivative of a ridged octave `(1 − |v|)² w` (docs/graphs.md): `2 (1 − |v|) (−s dv) w
/// + (1 − |v|)² dw`, with `s` the slope of `|v|` (+1 at 0), `w` the ridge weight and `dw`
/// its derivative. Each product of the value's size is clamped before it meets the weight
/// (which may be 0) and the sum after: the value's square alone is past `f32` from 1.8e19.
#[inline(always)]
pub(crate) fn wgpu_noise_ridged_slope<R: Real>(v: R, dv: R, w: R, dw: R) -> R {
    let ridge = R::lit(1.0) - v.abs();
    let slope = wgpu_noise_abs_slope(v);
    wgpu_noise_finite(
        wgpu_noise_finite(R::lit(2.0) * ridge * (-slope * dv)) * w
            + wgpu_noise_finite(ridge * ridge) * dw,
    )
}
