// Domain warp: the sample point moved by a vector of noise before the field's noise is
// sampled there (Quilez's domain warping, iterated for a warp of a warp).
// Requires fractal.wgsl. CPU mirror: src/cpu/warp.rs (same names, same order).
//
// With p the sample point, A = warp_amplitude (lattice units of the field's noise) and
// F = warp_frequency (relative to the field's frequency):
//   q_0 = p,   q_(k+1) = p + A * W_k(q_k)   for k < warp_iterations,
// and the field's noise (fractal2/3/4) is sampled at the last q. Component a of W_k is fBm
// (warp_octaves octaves, the field's lacunarity and gain) of the warp noise at
// q_k * F + (j + 1) * WGPU_NOISE_WARP_SHIFT with j = k * dims + a: distant, different
// points per component and iteration, so the components are independent fields.
// The warp noise is simplex noise for simplex fields and classic noise for classic and
// cellular fields (the field's own lattice, so that a shift by a lattice period of the
// field is one of the warp too), tiled with period * F when the field tiles.

// Where each warp component samples its noise, per axis (in units of the warp noise's
// lattice; dyadic, so the f32 and f64 mirrors add the same numbers).
const WGPU_NOISE_WARP_SHIFT: vec4<f32> = vec4<f32>(19.25, 33.75, 47.5, 61.125);

// The gradient noise that warps a field of `kind`.
fn wgpu_noise_warp_kind(kind: u32) -> u32 {
    return select(WGPU_NOISE_CLASSIC, WGPU_NOISE_SIMPLEX, kind == WGPU_NOISE_SIMPLEX);
}

// fBm of the warp noise: s.warp_octaves octaves, normalised by the sum of amplitudes.
fn wgpu_noise_warp_fbm2(kind: u32, p: vec2<f32>, period: vec2<f32>, s: NoiseSettings) -> f32 {
    var sum = 0.0;
    var norm = 0.0;
    var amplitude = 1.0;
    var frequency = 1.0;
    for (var octave = 0u; octave < s.warp_octaves; octave = octave + 1u) {
        let n = wgpu_noise_base_noise2(kind, p * frequency, period * frequency, wgpu_noise_cellular_shape(s), 0.0);
        sum = sum + amplitude * n;
        norm = norm + amplitude;
        amplitude = amplitude * s.gain;
        frequency = frequency * s.lacunarity;
    }
    return sum / norm;
}

fn wgpu_noise_warp_fbm3(kind: u32, p: vec3<f32>, period: vec3<f32>, s: NoiseSettings) -> f32 {
    var sum = 0.0;
    var norm = 0.0;
    var amplitude = 1.0;
    var frequency = 1.0;
    for (var octave = 0u; octave < s.warp_octaves; octave = octave + 1u) {
        let n = wgpu_noise_base_noise3(kind, p * frequency, period * frequency, s.kernel, wgpu_noise_cellular_shape(s), 0.0);
        sum = sum + amplitude * n;
        norm = norm + amplitude;
        amplitude = amplitude * s.gain;
        frequency = frequency * s.lacunarity;
    }
    return sum / norm;
}

fn wgpu_noise_warp_fbm4(kind: u32, p: vec4<f32>, period: vec4<f32>, s: NoiseSettings) -> f32 {
    var sum = 0.0;
    var norm = 0.0;
    var amplitude = 1.0;
    var frequency = 1.0;
    for (var octave = 0u; octave < s.warp_octaves; octave = octave + 1u) {
        let n = wgpu_noise_base_noise4(kind, p * frequency, period * frequency, s.kernel, wgpu_noise_cellular_shape(s));
        sum = sum + amplitude * n;
        norm = norm + amplitude;
        amplitude = amplitude * s.gain;
        frequency = frequency * s.lacunarity;
    }
    return sum / norm;
}

// The point a field of `kind` with settings `s` samples instead of p (p itself when
// s.warp_iterations is 0).
fn warp2(kind: u32, p: vec2<f32>, s: NoiseSettings) -> vec2<f32> {
    let warp_kind = wgpu_noise_warp_kind(kind);
    let period = s.period.xy * s.warp_frequency;
    var q = p;
    for (var k = 0u; k < s.warp_iterations; k = k + 1u) {
        let base = q * s.warp_frequency;
        let j = f32(k * 2u);
        let d = vec2<f32>(wgpu_noise_warp_fbm2(warp_kind, base + WGPU_NOISE_WARP_SHIFT.xy * (j + 1.0), period, s),
                          wgpu_noise_warp_fbm2(warp_kind, base + WGPU_NOISE_WARP_SHIFT.xy * (j + 2.0), period, s));
        q = p + s.warp_amplitude * d;
    }
    return q;
}

fn warp3(kind: u32, p: vec3<f32>, s: NoiseSettings) -> vec3<f32> {
    let warp_kind = wgpu_noise_warp_kind(kind);
    let period = s.period.xyz * s.warp_frequency;
    var q = p;
    for (var k = 0u; k < s.warp_iterations; k = k + 1u) {
        let base = q * s.warp_frequency;
        let j = f32(k * 3u);
        let d = vec3<f32>(wgpu_noise_warp_fbm3(warp_kind, base + WGPU_NOISE_WARP_SHIFT.xyz * (j + 1.0), period, s),
                          wgpu_noise_warp_fbm3(warp_kind, base + WGPU_NOISE_WARP_SHIFT.xyz * (j + 2.0), period, s),
                          wgpu_noise_warp_fbm3(warp_kind, base + WGPU_NOISE_WARP_SHIFT.xyz * (j + 3.0), period, s));
        q = p + s.warp_amplitude * d;
    }
    return q;
}

fn warp4(kind: u32, p: vec4<f32>, s: NoiseSettings) -> vec4<f32> {
    let warp_kind = wgpu_noise_warp_kind(kind);
    let period = s.period * s.warp_frequency;
    var q = p;
    for (var k = 0u; k < s.warp_iterations; k = k + 1u) {
        let base = q * s.warp_frequency;
        let j = f32(k * 4u);
        let d = vec4<f32>(wgpu_noise_warp_fbm4(warp_kind, base + WGPU_NOISE_WARP_SHIFT * (j + 1.0), period, s),
                          wgpu_noise_warp_fbm4(warp_kind, base + WGPU_NOISE_WARP_SHIFT * (j + 2.0), period, s),
                          wgpu_noise_warp_fbm4(warp_kind, base + WGPU_NOISE_WARP_SHIFT * (j + 3.0), period, s),
                          wgpu_noise_warp_fbm4(warp_kind, base + WGPU_NOISE_WARP_SHIFT * (j + 4.0), period, s));
        q = p + s.warp_amplitude * d;
    }
    return q;
}
