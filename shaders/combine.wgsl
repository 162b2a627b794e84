// The functions graph nodes combine values with (src/graph/, docs/graphs.md).
// CPU mirror: src/cpu/combine.rs (same names, same order of operations).

// Every combined value, point coordinate and derivative is clamped to +-1e30, so no chain
// of products or sums reaches infinity (and no infinity meets another to make a NaN).
const WGPU_NOISE_FINITE: f32 = 1e30;

fn wgpu_noise_finite(v: f32) -> f32 {
    return clamp(v, -WGPU_NOISE_FINITE, WGPU_NOISE_FINITE);
}

fn wgpu_noise_finite4(v: vec4<f32>) -> vec4<f32> {
    return clamp(v, vec4<f32>(-WGPU_NOISE_FINITE), vec4<f32>(WGPU_NOISE_FINITE));
}

// The zero gradient, and the Jacobian of the sample point of a 2D, 3D or 4D graph (the
// identity on its axes). Module constants for the generated graph functions: naga's
// pipeline-constant pass (the hash variant's seed key) rejects a function that builds the
// same constant vector twice ("can't be introduced - it's already in scope").
const WGPU_NOISE_ZERO4: vec4<f32> = vec4<f32>(0.0);
const WGPU_NOISE_POINT_JACOBIAN2: mat4x4<f32> = mat4x4<f32>(1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                                                            0.0, 0.0, 0.0, 0.0);
const WGPU_NOISE_POINT_JACOBIAN3: mat4x4<f32> = mat4x4<f32>(1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0,
                                                            0.0, 0.0, 0.0, 0.0);
const WGPU_NOISE_POINT_JACOBIAN4: mat4x4<f32> = mat4x4<f32>(1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0,
                                                            0.0, 0.0, 0.0, 1.0);

// A point's Jacobian (column a: the gradient of coordinate a), each entry clamped.
fn wgpu_noise_finite_jacobian(m: mat4x4<f32>) -> mat4x4<f32> {
    return mat4x4<f32>(wgpu_noise_finite4(m[0]), wgpu_noise_finite4(m[1]), wgpu_noise_finite4(m[2]),
                       wgpu_noise_finite4(m[3]));
}

// The slope of |v|: 1 at and above 0 (the right-hand derivative at the kink), else -1.
fn wgpu_noise_abs_slope(v: f32) -> f32 {
    return select(1.0, -1.0, v < 0.0);
}

// The weight of b in a blend: t from [-1, 1] to [0, 1], clamped.
fn wgpu_noise_blend_weight(t: f32) -> f32 {
    return clamp(t * 0.5 + 0.5, 0.0, 1.0);
}

fn wgpu_noise_blend(a: f32, b: f32, t: f32) -> f32 {
    return a + (b - a) * wgpu_noise_blend_weight(t);
}

// A blend's t eased by `curve`: the weight w through 3w^2 - 2w^3 (Hermite) or the quintic
// fade, back in [-1, 1].
const WGPU_NOISE_EASE_HERMITE: u32 = 0u;
const WGPU_NOISE_EASE_QUINTIC: u32 = 1u;

fn wgpu_noise_ease(t: f32, curve: u32) -> f32 {
    let w = wgpu_noise_blend_weight(t);
    var e: f32;
    if (curve == WGPU_NOISE_EASE_HERMITE) {
        e = w * w * (3.0 - 2.0 * w);
    } else {
        e = wgpu_noise_fade(w);
    }
    return e * 2.0 - 1.0;
}

// The slope of wgpu_noise_ease: the curve's slope at w, 0 at both ends (and where t is
// clamped).
fn wgpu_noise_ease_slope(t: f32, curve: u32) -> f32 {
    let w = wgpu_noise_blend_weight(t);
    if (curve == WGPU_NOISE_EASE_HERMITE) {
        return 6.0 * w * (1.0 - w);
    }
    let s = w - 1.0;
    return 30.0 * w * w * s * s;
}

// Where the smooth minimum takes a: 1 where a is smaller by k or more, 0 where b is.
fn wgpu_noise_smooth_weight(a: f32, b: f32, k: f32) -> f32 {
    return clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0);
}

// Polynomial smooth minimum (Quilez): min(a, b) beyond k apart, rounded within.
fn wgpu_noise_smooth_min(a: f32, b: f32, k: f32) -> f32 {
    let h = wgpu_noise_smooth_weight(a, b, k);
    return b + (a - b) * h - k * h * (1.0 - h);
}

fn wgpu_noise_smooth_max(a: f32, b: f32, k: f32) -> f32 {
    return -wgpu_noise_smooth_min(-a, -b, k);
}

// Whether b is too small to divide by: below f32's smallest normal number in magnitude
// (GPUs may flush such a number to 0), 0 included.
fn wgpu_noise_tiny(b: f32) -> bool {
    return abs(b) < 1.17549435e-38;
}

// a / b, 0 where b is tiny.
fn wgpu_noise_divide(a: f32, b: f32) -> f32 {
    if (wgpu_noise_tiny(b)) { return 0.0; }
    return a / b;
}

// The weights of grad a and grad b: 1 / b and -(a / b) / b, each clamped; 0 where b is tiny.
fn wgpu_noise_divide_weights(a: f32, b: f32) -> vec2<f32> {
    if (wgpu_noise_tiny(b)) { return vec2<f32>(0.0); }
    let q = wgpu_noise_finite(a / b);
    return vec2<f32>(wgpu_noise_finite(1.0 / b), wgpu_noise_finite(-q / b));
}

// The floored remainder a - b floor(a / b) (GLSL's mod: the sign of b; WGSL's % truncates),
// 0 where b is tiny.
fn wgpu_noise_modulus(a: f32, b: f32) -> f32 {
    if (wgpu_noise_tiny(b)) { return 0.0; }
    return a - b * floor(a / b);
}

// The weights of grad a and grad b: 1 and -floor(a / b), clamped; 0 where b is tiny.
fn wgpu_noise_modulus_weights(a: f32, b: f32) -> vec2<f32> {
    if (wgpu_noise_tiny(b)) { return vec2<f32>(0.0); }
    return vec2<f32>(1.0, wgpu_noise_finite(-floor(a / b)));
}

fn wgpu_noise_remap(v: f32, low_high: vec2<f32>, onto: vec2<f32>) -> f32 {
    return onto.x + (v - low_high.x) * (onto.y - onto.x) / (low_high.y - low_high.x);
}

// Clamped: a range of 1e-37 onto one of 1e30 has a slope past f32.
fn wgpu_noise_remap_slope(low_high: vec2<f32>, onto: vec2<f32>) -> f32 {
    return wgpu_noise_finite((onto.y - onto.x) / (low_high.y - low_high.x));
}

// sign(v) |v|^e (e > 0), odd so that negative values keep their sign.
fn wgpu_noise_signed_pow(v: f32, e: f32) -> f32 {
    return sign(v) * pow(abs(v), e);
}

// e |v|^(e-1), clamped. At v = 0, e 0^(e-1) written out (pow(0, e - 1) is undefined below
// e = 1): the bound for e < 1 (an infinite slope), 1 for e = 1, 0 above.
fn wgpu_noise_signed_pow_slope(v: f32, e: f32) -> f32 {
    if (v == 0.0) { return select(select(0.0, 1.0, e == 1.0), WGPU_NOISE_FINITE, e < 1.0); }
    return wgpu_noise_finite(e * pow(abs(v), e - 1.0));
}

// The slope of wgpu_noise_signed_pow in its exponent: sign(v) |v|^e ln |v|, clamped; 0 at
// v = 0, its limit there for e > 0 (ln 0 is -inf).
fn wgpu_noise_signed_pow_exponent_slope(v: f32, e: f32) -> f32 {
    if (v == 0.0) { return 0.0; }
    let m = abs(v);
    return wgpu_noise_finite(sign(v) * wgpu_noise_finite(pow(m, e)) * log(m));
}

// The position within a terrace's ramp, 0 to 1 (smoothness > 0).
fn wgpu_noise_terrace_ramp(f: f32, smoothness: f32) -> f32 {
    return clamp((f - (1.0 - smoothness)) / smoothness, 0.0, 1.0);
}

// steps flat terraces per unit of v, each ending in a smooth ramp (smoothstep) over the
// last `smoothness` of the step; smoothness 0 gives hard steps.
fn wgpu_noise_terrace(v: f32, steps: f32, smoothness: f32) -> f32 {
    let x = v * steps;
    let i = floor(x);
    let f = x - i;
    var s = 0.0;
    if (smoothness > 0.0) {
        let t = wgpu_noise_terrace_ramp(f, smoothness);
        s = t * t * (3.0 - 2.0 * t);
    }
    return (i + s) / steps;
}

fn wgpu_noise_terrace_slope(v: f32, steps: f32, smoothness: f32) -> f32 {
    if (!(smoothness > 0.0)) { return 0.0; }
    let x = v * steps;
    let f = x - floor(x);
    let t = wgpu_noise_terrace_ramp(f, smoothness);
    return wgpu_noise_finite(6.0 * t * (1.0 - t) / smoothness);
}

// A triangle wave of v * strength with period 2, from -1 (at even values) to 1 (at odd).
fn wgpu_noise_ping_pong(v: f32, strength: f32) -> f32 {
    let x = v * strength;
    let y = x - 2.0 * floor(x * 0.5);
    let tri = select(2.0 - y, y, y < 1.0);
    return tri * 2.0 - 1.0;
}

fn wgpu_noise_ping_pong_slope(v: f32, strength: f32) -> f32 {
    let x = v * strength;
    let y = x - 2.0 * floor(x * 0.5);
    let s = 2.0 * strength;
    return select(-s, s, y < 1.0);
}

// Where wgpu_noise_sin stops: 2^24. Past it f32 numbers are 2 or more apart (a third of a
// period), the reduction's multiple of pi/2 has more than 24 bits, and the sine is 0.
const WGPU_NOISE_SIN_LIMIT: f32 = 16777216.0;

// pi/2 in three parts (within 6e-18): the first two have 12 significant bits, so their
// products with a whole number of 12 bits are exact, fused into a multiply-add or not.
const WGPU_NOISE_HALF_PI1: f32 = 1.57080078125;
const WGPU_NOISE_HALF_PI2: f32 = -4.453584551811218e-6;
const WGPU_NOISE_HALF_PI3: f32 = -8.705515752716053e-10;

// x reduced by whole quarter turns (Cody-Waite): (r, q) with x = r + k pi/2, |r| <= pi/4
// and q = k mod 4. k is split into two 12-bit parts so that every product with the first
// two parts of pi/2 is exact; a second step takes back the quarter turn by which f32's
// x * 2/pi may miss past 2^20.
fn wgpu_noise_sin_reduce(x: f32) -> vec2<f32> {
    let two_over_pi = 0.6366197723675814;
    let k = round(x * two_over_pi);
    let kh = round(k * (1.0 / 4096.0)) * 4096.0;
    let kl = k - kh;
    var r = x - kh * WGPU_NOISE_HALF_PI1;
    r = r - kl * WGPU_NOISE_HALF_PI1;
    r = r - kh * WGPU_NOISE_HALF_PI2;
    r = r - kl * WGPU_NOISE_HALF_PI2;
    r = r - k * WGPU_NOISE_HALF_PI3;
    let k2 = round(r * two_over_pi);
    r = r - k2 * WGPU_NOISE_HALF_PI1;
    r = r - k2 * WGPU_NOISE_HALF_PI2;
    r = r - k2 * WGPU_NOISE_HALF_PI3;
    let k3 = k + k2;
    return vec2<f32>(r, k3 - 4.0 * floor(k3 * 0.25));
}

// sin r for |r| <= pi/4 (Cephes' sinf polynomial).
fn wgpu_noise_sin_poly(r: f32) -> f32 {
    let z = r * r;
    return ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1) * z * r + r;
}

// cos r for |r| <= pi/4 (Cephes' cosf polynomial).
fn wgpu_noise_cos_poly(r: f32) -> f32 {
    let z = r * r;
    return ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2) * z * z
        - 0.5 * z + 1.0;
}

// sin(r + q pi/2) for a quadrant q of 0 to 4 (4 is 0).
fn wgpu_noise_sin_quadrant(r: f32, q: f32) -> f32 {
    var v = wgpu_noise_sin_poly(r);
    if (q == 1.0 || q == 3.0) {
        v = wgpu_noise_cos_poly(r);
    }
    return select(v, -v, q == 2.0 || q == 3.0);
}

// The sine of x, the CPU's f32 operations (the builtin sin is the driver's): within 1.5e-7
// below WGPU_NOISE_SIN_LIMIT, 0 at and past it.
fn wgpu_noise_sin(x: f32) -> f32 {
    if (abs(x) >= WGPU_NOISE_SIN_LIMIT) { return 0.0; }
    let rq = wgpu_noise_sin_reduce(x);
    return wgpu_noise_sin_quadrant(rq.x, rq.y);
}

// Its slope: the cosine, sin a quadrant on; 0 at and past the limit.
fn wgpu_noise_sin_slope(x: f32) -> f32 {
    if (abs(x) >= WGPU_NOISE_SIN_LIMIT) { return 0.0; }
    let rq = wgpu_noise_sin_reduce(x);
    return wgpu_noise_sin_quadrant(rq.x, rq.y + 1.0);
}

// A curve node's value at v: bounds = (x first, x last, y first, y last), and the segment
// holding v (the last whose start is at or below it), start = (x, 1 / width) and c = its
// cubic a + t (b + t (c + t d)). The first y at and below the first x, the last at and above
// the last.
fn wgpu_noise_curve(v: f32, bounds: vec4<f32>, start: vec2<f32>, c: vec4<f32>) -> f32 {
    if (v <= bounds.x) { return bounds.z; }
    if (v >= bounds.y) { return bounds.w; }
    let t = (v - start.x) * start.y;
    return c.x + t * (c.y + t * (c.z + t * c.w));
}

// Its slope, the cubic's, clamped (a narrow segment's may pass f32); 0 at and past the ends.
fn wgpu_noise_curve_slope(v: f32, bounds: vec4<f32>, start: vec2<f32>, c: vec4<f32>) -> f32 {
    if (v <= bounds.x || v >= bounds.y) { return 0.0; }
    let t = (v - start.x) * start.y;
    return wgpu_noise_finite((c.y + t * (2.0 * c.z + 3.0 * c.w * t)) * start.y);
}

// A fractal octave's term amplitude * shaped, clamped (amplitudes reach 1.2e27).
fn wgpu_noise_octave_term(amplitude: f32, shaped: f32) -> f32 {
    return wgpu_noise_finite(amplitude * shaped);
}

// The derivative of a ridged octave (1 - |v|)^2 w: 2 (1 - |v|) (-s dv) w + (1 - |v|)^2 dw, each
// product of the value's size clamped before it meets the weight (which may be 0), the sum after.
fn wgpu_noise_ridged_slope(v: f32, dv: vec4<f32>, w: f32, dw: vec4<f32>) -> vec4<f32> {
    let ridge = 1.0 - abs(v);
    let slope = wgpu_noise_abs_slope(v);
    return wgpu_noise_finite4(wgpu_noise_finite4(2.0 * ridge * (-slope * dv)) * w
                              + wgpu_noise_finite(ridge * ridge) * dw);
}
