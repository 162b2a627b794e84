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

fn wgpu_noise_remap(v: f32, low_high: vec2<f32>, onto: vec2<f32>) -> f32 {
    return onto.x + (v - low_high.x) * (onto.y - onto.x) / (low_high.y - low_high.x);
}

fn wgpu_noise_remap_slope(low_high: vec2<f32>, onto: vec2<f32>) -> f32 {
    return (onto.y - onto.x) / (low_high.y - low_high.x);
}

// sign(v) |v|^e (e > 0), odd so that negative values keep their sign.
fn wgpu_noise_signed_pow(v: f32, e: f32) -> f32 {
    return sign(v) * pow(abs(v), e);
}

fn wgpu_noise_signed_pow_slope(v: f32, e: f32) -> f32 {
    return e * pow(abs(v), e - 1.0);
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
    return 6.0 * t * (1.0 - t) / smoothness;
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
