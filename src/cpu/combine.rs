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
