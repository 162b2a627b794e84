// Fractal sums (fBm, turbulence, ridged), tiling and kernel choice over the base noise.
// Requires lookup.wgsl, classic.wgsl, simplex.wgsl, cellular.wgsl, value.wgsl, supersimplex.wgsl
// and warp.wgsl. CPU mirror: src/cpu/fractal.rs.
// WGSL has no generics, so the three fractal functions differ only in their vector size.

// The noise kinds (CPU: NoiseKind::code).
const WGPU_NOISE_CLASSIC: u32 = 0u;
const WGPU_NOISE_SIMPLEX: u32 = 1u;
const WGPU_NOISE_CELLULAR: u32 = 2u;
const WGPU_NOISE_VALUE: u32 = 3u;
const WGPU_NOISE_SUPERSIMPLEX: u32 = 4u;  // tiled in 2D and 3D (the lowering refuses 4D)
const WGPU_NOISE_FRACTAL_FBM: u32 = 0u;
const WGPU_NOISE_FRACTAL_TURBULENCE: u32 = 1u;
const WGPU_NOISE_FRACTAL_RIDGED: u32 = 2u;
const WGPU_NOISE_KERNEL_REFERENCE: u32 = 0u;   // simplex 3D/4D with r^2 = 0.6 (Gustavson, Perlin)
const WGPU_NOISE_KERNEL_CONTINUOUS: u32 = 1u;  // r^2 = 0.5, no jumps at simplex boundaries

// How the base noise is shaped. Keep in sync with `NoiseSettings` in src/params.rs.
struct NoiseSettings {
    period: vec4<f32>,  // tile period per axis in lattice cells; 0 = not tiled
    octaves: u32,       // 1 = the base noise itself
    mode: u32,          // FRACTAL_*
    lacunarity: f32,    // frequency ratio between octaves
    gain: f32,          // amplitude ratio between octaves
    kernel: u32,        // KERNEL_*
    cellular_output: u32,    // CELLULAR_* (cellular.wgsl)
    cellular_distance: u32,  // CELLULAR_DISTANCE_*
    cellular_jitter: f32,    // 0 to 1
    warp_amplitude: f32,     // domain warp (warp.wgsl): displacement scale in lattice units
    warp_frequency: f32,     // warp noise frequency relative to the field's
    warp_octaves: u32,       // fBm octaves of the warp noise
    warp_iterations: u32,    // 0 = no warp, 1 = warp, 2 = warp of a warp, ...
    flow_angle: f32,         // flow noise (simplex 2D/3D, untiled): gradient rotation in radians
}

// The cellular options of `s`.
fn wgpu_noise_cellular_shape(s: NoiseSettings) -> CellularShape {
    return CellularShape(s.cellular_jitter, s.cellular_distance, s.cellular_output);
}

// Lattice period of classic noise along one axis: the tile period, or the tables' 256.
fn wgpu_noise_lattice_period(period: f32) -> u32 {
    return select(256u, u32(round(period)), period > 0.0);
}

fn wgpu_noise_base_noise2(kind: u32, p: vec2<f32>, period: vec2<f32>, cell: CellularShape, flow: f32) -> f32 {
    if (kind == WGPU_NOISE_CELLULAR) {
        return cellular2_periodic(p, vec2<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y)), cell);
    }
    if (kind == WGPU_NOISE_CLASSIC) {
        return classic2_periodic(p, vec2<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y)));
    }
    if (kind == WGPU_NOISE_VALUE) {
        return value2_periodic(p, vec2<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y)));
    }
    if (kind == WGPU_NOISE_SUPERSIMPLEX) {
        if (period.x > 0.0) { return wgpu_noise_supersimplex2_tiled(p, period); }
        return wgpu_noise_supersimplex2(p);
    }
    if (period.x > 0.0) { return simplex2_tiled(p, period); }
    if (flow != 0.0) { return flow2(p, flow); }
    return simplex2(p);
}

fn wgpu_noise_base_noise3(kind: u32, p: vec3<f32>, period: vec3<f32>, kernel: u32, cell: CellularShape, flow: f32) -> f32 {
    if (kind == WGPU_NOISE_CELLULAR) {
        return cellular3_periodic(p, vec3<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                               wgpu_noise_lattice_period(period.z)), cell);
    }
    if (kind == WGPU_NOISE_CLASSIC) {
        return classic3_periodic(p, vec3<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                               wgpu_noise_lattice_period(period.z)));
    }
    if (kind == WGPU_NOISE_VALUE) {
        return value3_periodic(p, vec3<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                             wgpu_noise_lattice_period(period.z)));
    }
    if (kind == WGPU_NOISE_SUPERSIMPLEX) {
        if (period.x > 0.0) {
            return wgpu_noise_supersimplex3_tiled(p, vec3<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                                               wgpu_noise_lattice_period(period.z)));
        }
        return wgpu_noise_supersimplex3(p);
    }
    if (period.x > 0.0) {
        return simplex3_periodic(p, vec3<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                              wgpu_noise_lattice_period(period.z)));
    }
    if (kernel == WGPU_NOISE_KERNEL_CONTINUOUS) {
        if (flow != 0.0) { return flow3_r2(p, flow, 0.5, WGPU_NOISE_SIMPLEX3_R05_SCALE); }
        return simplex3_r2(p, 0.5, WGPU_NOISE_SIMPLEX3_R05_SCALE);
    }
    if (flow != 0.0) { return flow3(p, flow); }
    return simplex3(p);
}

fn wgpu_noise_base_noise4(kind: u32, p: vec4<f32>, period: vec4<f32>, kernel: u32, cell: CellularShape) -> f32 {
    if (kind == WGPU_NOISE_CELLULAR) {
        return cellular4_periodic(p, vec4<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                               wgpu_noise_lattice_period(period.z), wgpu_noise_lattice_period(period.w)), cell);
    }
    if (kind == WGPU_NOISE_CLASSIC) {
        return classic4_periodic(p, vec4<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                               wgpu_noise_lattice_period(period.z), wgpu_noise_lattice_period(period.w)));
    }
    if (kind == WGPU_NOISE_VALUE) {
        return value4_periodic(p, vec4<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                             wgpu_noise_lattice_period(period.z), wgpu_noise_lattice_period(period.w)));
    }
    if (kind == WGPU_NOISE_SUPERSIMPLEX) { return wgpu_noise_supersimplex4(p); }
    if (kernel == WGPU_NOISE_KERNEL_CONTINUOUS) { return simplex4_r2(p, 0.5, WGPU_NOISE_SIMPLEX4_R05_SCALE); }
    return simplex4(p);
}

// wgpu_noise_base_noise2/3/4 and their analytic gradients, (value, d/dp0, ...) with entries
// past the dimensions 0, by the same choice of function (CPU: base_noise_deriv).
fn wgpu_noise_base_noise_deriv2(kind: u32, p: vec2<f32>, period: vec2<f32>, cell: CellularShape, flow: f32) -> array<f32, 5> {
    let lattice = vec2<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y));
    var d: vec3<f32>;
    if (kind == WGPU_NOISE_CELLULAR) {
        d = cellular2_periodic_deriv(p, lattice, cell);
    } else if (kind == WGPU_NOISE_CLASSIC) {
        d = classic2_periodic_deriv(p, lattice);
    } else if (kind == WGPU_NOISE_VALUE) {
        return value2_periodic_deriv(p, lattice);
    } else if (kind == WGPU_NOISE_SUPERSIMPLEX && period.x > 0.0) {
        d = wgpu_noise_supersimplex2_tiled_deriv(p, period);
    } else if (kind == WGPU_NOISE_SUPERSIMPLEX) {
        d = wgpu_noise_supersimplex2_deriv(p);
    } else if (period.x > 0.0) {
        d = simplex2_tiled_deriv(p, period);
    } else if (flow != 0.0) {
        d = flow2_deriv(p, flow);
    } else {
        d = simplex2_deriv(p);
    }
    return array<f32, 5>(d.x, d.y, d.z, 0.0, 0.0);
}

// The squared kernel radius and output scale of 3D (x) and 4D (y) simplex noise with `kernel`.
fn wgpu_noise_simplex_kernel(kernel: u32) -> vec3<f32> {
    if (kernel == WGPU_NOISE_KERNEL_CONTINUOUS) {
        return vec3<f32>(0.5, WGPU_NOISE_SIMPLEX3_R05_SCALE, WGPU_NOISE_SIMPLEX4_R05_SCALE);
    }
    return vec3<f32>(WGPU_NOISE_SIMPLEX34_R2, 32.0, 27.0);
}

fn wgpu_noise_base_noise_deriv3(kind: u32, p: vec3<f32>, period: vec3<f32>, kernel: u32, cell: CellularShape, flow: f32) -> array<f32, 5> {
    let lattice = vec3<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                            wgpu_noise_lattice_period(period.z));
    let k = wgpu_noise_simplex_kernel(kernel);
    var d: vec4<f32>;
    if (kind == WGPU_NOISE_CELLULAR) {
        d = cellular3_periodic_deriv(p, lattice, cell);
    } else if (kind == WGPU_NOISE_CLASSIC) {
        d = classic3_periodic_deriv(p, lattice);
    } else if (kind == WGPU_NOISE_VALUE) {
        return value3_periodic_deriv(p, lattice);
    } else if (kind == WGPU_NOISE_SUPERSIMPLEX && period.x > 0.0) {
        d = wgpu_noise_supersimplex3_tiled_deriv(p, lattice);
    } else if (kind == WGPU_NOISE_SUPERSIMPLEX) {
        d = wgpu_noise_supersimplex3_deriv(p);
    } else if (period.x > 0.0) {
        d = simplex3_periodic_deriv(p, lattice);
    } else if (flow != 0.0) {
        d = flow3_deriv(p, flow, k.x, k.y);
    } else {
        d = simplex3_deriv(p, k.x, k.y);
    }
    return array<f32, 5>(d.x, d.y, d.z, d.w, 0.0);
}

fn wgpu_noise_base_noise_deriv4(kind: u32, p: vec4<f32>, period: vec4<f32>, kernel: u32, cell: CellularShape) -> array<f32, 5> {
    let lattice = vec4<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                            wgpu_noise_lattice_period(period.z), wgpu_noise_lattice_period(period.w));
    if (kind == WGPU_NOISE_CELLULAR) { return cellular4_periodic_deriv(p, lattice, cell); }
    if (kind == WGPU_NOISE_CLASSIC) { return classic4_periodic_deriv(p, lattice); }
    if (kind == WGPU_NOISE_VALUE) { return value4_periodic_deriv(p, lattice); }
    if (kind == WGPU_NOISE_SUPERSIMPLEX) { return wgpu_noise_supersimplex4_deriv(p); }
    let k = wgpu_noise_simplex_kernel(kernel);
    return simplex4_deriv(p, k.x, k.z);
}

// The derivative of cellular noise (wgpu_noise_base_noise of WGPU_NOISE_CELLULAR) with
// respect to a parameter of `cell` (CPU: base_parameter_slope; WGPU_NOISE_CELLULAR_JITTER or
// WGPU_NOISE_CELLULAR_EXPONENT): a graph's cellular source whose jitter or exponent is driven.
fn wgpu_noise_base_parameter_slope2(p: vec2<f32>, period: vec2<f32>, cell: CellularShape, parameter: u32) -> f32 {
    return wgpu_noise_cellular2_parameter_slope(p, vec2<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y)), cell, parameter);
}

fn wgpu_noise_base_parameter_slope3(p: vec3<f32>, period: vec3<f32>, cell: CellularShape, parameter: u32) -> f32 {
    let lattice = vec3<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                            wgpu_noise_lattice_period(period.z));
    return wgpu_noise_cellular3_parameter_slope(p, lattice, cell, parameter);
}

fn wgpu_noise_base_parameter_slope4(p: vec4<f32>, period: vec4<f32>, cell: CellularShape, parameter: u32) -> f32 {
    let lattice = vec4<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                            wgpu_noise_lattice_period(period.z), wgpu_noise_lattice_period(period.w));
    return wgpu_noise_cellular4_parameter_slope(p, lattice, cell, parameter);
}

// The base vector noise (value noise of vectors, value.wgsl) with the tile period per axis (0:
// not tiled), and with each component's gradient; components past the dimensions 0.
fn wgpu_noise_base_vector2(p: vec2<f32>, period: vec2<f32>) -> vec4<f32> {
    return wgpu_noise_value_vector2_periodic(p, vec2<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y)));
}

fn wgpu_noise_base_vector3(p: vec3<f32>, period: vec3<f32>) -> vec4<f32> {
    return wgpu_noise_value_vector3_periodic(p, vec3<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                                          wgpu_noise_lattice_period(period.z)));
}

fn wgpu_noise_base_vector4(p: vec4<f32>, period: vec4<f32>) -> vec4<f32> {
    return wgpu_noise_value_vector4_periodic(p, vec4<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                                          wgpu_noise_lattice_period(period.z), wgpu_noise_lattice_period(period.w)));
}

fn wgpu_noise_base_vector_deriv2(p: vec2<f32>, period: vec2<f32>) -> array<array<f32, 5>, 4> {
    return wgpu_noise_value_vector2_periodic_deriv(p, vec2<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y)));
}

fn wgpu_noise_base_vector_deriv3(p: vec3<f32>, period: vec3<f32>) -> array<array<f32, 5>, 4> {
    return wgpu_noise_value_vector3_periodic_deriv(p, vec3<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                                                wgpu_noise_lattice_period(period.z)));
}

fn wgpu_noise_base_vector_deriv4(p: vec4<f32>, period: vec4<f32>) -> array<array<f32, 5>, 4> {
    return wgpu_noise_value_vector4_periodic_deriv(p, vec4<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                                                wgpu_noise_lattice_period(period.z), wgpu_noise_lattice_period(period.w)));
}

// The base vector noise of simplex noise (simplex.wgsl), and with each component's
// gradient: as the scalar simplex's base noise, the first period decides whether it tiles
// (2D on the torus, 3D on the periodic lattice) and the kernel applies untiled.
fn wgpu_noise_base_vector_simplex2(p: vec2<f32>, period: vec2<f32>, kernel: u32) -> vec4<f32> {
    if (period.x > 0.0) { return wgpu_noise_simplex_vector2_tiled(p, period); }
    return wgpu_noise_simplex_vector2(p);
}

fn wgpu_noise_base_vector_simplex3(p: vec3<f32>, period: vec3<f32>, kernel: u32) -> vec4<f32> {
    if (period.x > 0.0) {
        return wgpu_noise_simplex_vector3_periodic(p, vec3<u32>(wgpu_noise_lattice_period(period.x),
            wgpu_noise_lattice_period(period.y), wgpu_noise_lattice_period(period.z)));
    }
    if (kernel == WGPU_NOISE_KERNEL_CONTINUOUS) {
        return wgpu_noise_simplex_vector_sum3(wgpu_noise_simplex3_corners(p), 0.5, WGPU_NOISE_SIMPLEX3_R05_SCALE);
    }
    return wgpu_noise_simplex_vector3(p);
}

fn wgpu_noise_base_vector_simplex4(p: vec4<f32>, period: vec4<f32>, kernel: u32) -> vec4<f32> {
    if (kernel == WGPU_NOISE_KERNEL_CONTINUOUS) {
        return wgpu_noise_simplex_vector_sum4(wgpu_noise_simplex4_corners(p), 0.5, WGPU_NOISE_SIMPLEX4_R05_SCALE);
    }
    return wgpu_noise_simplex_vector4(p);
}

fn wgpu_noise_base_vector_simplex_deriv2(p: vec2<f32>, period: vec2<f32>, kernel: u32) -> array<array<f32, 5>, 4> {
    if (period.x > 0.0) { return wgpu_noise_simplex_vector2_tiled_deriv(p, period); }
    return wgpu_noise_simplex_vector_deriv2(p);
}

fn wgpu_noise_base_vector_simplex_deriv3(p: vec3<f32>, period: vec3<f32>, kernel: u32) -> array<array<f32, 5>, 4> {
    if (period.x > 0.0) {
        return wgpu_noise_simplex_vector3_periodic_deriv(p, vec3<u32>(wgpu_noise_lattice_period(period.x),
            wgpu_noise_lattice_period(period.y), wgpu_noise_lattice_period(period.z)));
    }
    if (kernel == WGPU_NOISE_KERNEL_CONTINUOUS) {
        return wgpu_noise_simplex_vector_rows3(wgpu_noise_simplex3_corners(p), 0.5, WGPU_NOISE_SIMPLEX3_R05_SCALE);
    }
    return wgpu_noise_simplex_vector_deriv3(p);
}

fn wgpu_noise_base_vector_simplex_deriv4(p: vec4<f32>, period: vec4<f32>, kernel: u32) -> array<array<f32, 5>, 4> {
    if (kernel == WGPU_NOISE_KERNEL_CONTINUOUS) {
        return wgpu_noise_simplex_vector_rows4(wgpu_noise_simplex4_corners(p), 0.5, WGPU_NOISE_SIMPLEX4_R05_SCALE);
    }
    return wgpu_noise_simplex_vector_deriv4(p);
}

// The base vector noise of OpenSimplex2S (supersimplex.wgsl; where the first period is
// positive tiled in 2D on the torus and in 3D on the unrotated lattice, as the scalar noise),
// and with each component's gradient. In 4D `period` is taken for the base functions' common
// signature and not read: OpenSimplex2S does not tile there, and lowering refuses it.
fn wgpu_noise_base_vector_supersimplex2(p: vec2<f32>, period: vec2<f32>) -> vec4<f32> {
    if (period.x > 0.0) { return wgpu_noise_supersimplex_vector2_tiled(p, period); }
    return wgpu_noise_supersimplex_vector2(p);
}

fn wgpu_noise_base_vector_supersimplex3(p: vec3<f32>, period: vec3<f32>) -> vec4<f32> {
    if (period.x > 0.0) {
        return wgpu_noise_supersimplex_vector3_tiled(p, vec3<u32>(wgpu_noise_lattice_period(period.x),
                                                                  wgpu_noise_lattice_period(period.y),
                                                                  wgpu_noise_lattice_period(period.z)));
    }
    return wgpu_noise_supersimplex_vector3(p);
}

fn wgpu_noise_base_vector_supersimplex4(p: vec4<f32>, period: vec4<f32>) -> vec4<f32> {
    return wgpu_noise_supersimplex_vector4(p);
}

fn wgpu_noise_base_vector_supersimplex_deriv2(p: vec2<f32>, period: vec2<f32>) -> array<array<f32, 5>, 4> {
    if (period.x > 0.0) { return wgpu_noise_supersimplex_vector_deriv2_tiled(p, period); }
    return wgpu_noise_supersimplex_vector_deriv2(p);
}

fn wgpu_noise_base_vector_supersimplex_deriv3(p: vec3<f32>, period: vec3<f32>) -> array<array<f32, 5>, 4> {
    if (period.x > 0.0) {
        return wgpu_noise_supersimplex_vector_deriv3_tiled(p, vec3<u32>(wgpu_noise_lattice_period(period.x),
                                                                        wgpu_noise_lattice_period(period.y),
                                                                        wgpu_noise_lattice_period(period.z)));
    }
    return wgpu_noise_supersimplex_vector_deriv3(p);
}

fn wgpu_noise_base_vector_supersimplex_deriv4(p: vec4<f32>, period: vec4<f32>) -> array<array<f32, 5>, 4> {
    return wgpu_noise_supersimplex_vector_deriv4(p);
}

// The nearest cellular feature's position (cellular.wgsl) with the tile period per axis (0:
// not tiled; tiled, the position wrapped into the tile); coordinates past the dimensions 0.
fn wgpu_noise_base_feature2(p: vec2<f32>, period: vec2<f32>, cell: CellularShape) -> vec4<f32> {
    return wgpu_noise_cellular2_feature(p, vec2<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y)), period.x > 0.0, cell);
}

fn wgpu_noise_base_feature3(p: vec3<f32>, period: vec3<f32>, cell: CellularShape) -> vec4<f32> {
    return wgpu_noise_cellular3_feature(p, vec3<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                          wgpu_noise_lattice_period(period.z)), period.x > 0.0, cell);
}

fn wgpu_noise_base_feature4(p: vec4<f32>, period: vec4<f32>, cell: CellularShape) -> vec4<f32> {
    return wgpu_noise_cellular4_feature(p, vec4<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                          wgpu_noise_lattice_period(period.z), wgpu_noise_lattice_period(period.w)), period.x > 0.0, cell);
}

// How the nearest feature's position moves with cell.jitter, per axis (CPU:
// base_feature_jitter_slope): a graph's cellular lookup whose jitter is driven.
fn wgpu_noise_base_feature_jitter_slope2(p: vec2<f32>, period: vec2<f32>, cell: CellularShape) -> vec4<f32> {
    return wgpu_noise_cellular2_feature_jitter_slope(p, vec2<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y)), cell);
}

fn wgpu_noise_base_feature_jitter_slope3(p: vec3<f32>, period: vec3<f32>, cell: CellularShape) -> vec4<f32> {
    return wgpu_noise_cellular3_feature_jitter_slope(p, vec3<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                          wgpu_noise_lattice_period(period.z)), cell);
}

fn wgpu_noise_base_feature_jitter_slope4(p: vec4<f32>, period: vec4<f32>, cell: CellularShape) -> vec4<f32> {
    return wgpu_noise_cellular4_feature_jitter_slope(p, vec4<u32>(wgpu_noise_lattice_period(period.x), wgpu_noise_lattice_period(period.y),
                                          wgpu_noise_lattice_period(period.z), wgpu_noise_lattice_period(period.w)), cell);
}

// One octave's contribution and the ridge weight carried to the next octave.
// fBm: n. Turbulence: |n|. Ridged (Musgrave): (1 - |n|)^2, weighted by the previous
// octave's ridge so that detail gathers on the ridges.
fn wgpu_noise_shape_octave(mode: u32, n: f32, weight: f32) -> vec2<f32> {
    if (mode == WGPU_NOISE_FRACTAL_TURBULENCE) { return vec2<f32>(abs(n), weight); }
    if (mode == WGPU_NOISE_FRACTAL_RIDGED) {
        let ridge = 1.0 - abs(n);
        // The square clamped to the graphs' bound (combine.wgsl) before it meets the weight, which
        // may be 0; noise values never reach it.
        let r = min(ridge * ridge, 1e30) * weight;
        return vec2<f32>(r, clamp(r * 2.0, 0.0, 1.0));
    }
    return vec2<f32>(n, weight);
}

// Sum of octaves at the warped point (warp.wgsl), normalised by the sum of amplitudes: fBm stays in the base range,
// turbulence and ridged in [0, 1]. One octave of fBm is the base noise exactly.
fn fractal2(kind: u32, p: vec2<f32>, s: NoiseSettings) -> f32 {
    let q = warp2(kind, p, s);
    var sum = 0.0;
    var norm = 0.0;
    var amplitude = 1.0;
    var frequency = 1.0;
    var weight = 1.0;
    for (var octave = 0u; octave < s.octaves; octave = octave + 1u) {
        let n = wgpu_noise_base_noise2(kind, q * frequency, s.period.xy * frequency, wgpu_noise_cellular_shape(s), s.flow_angle);
        let shaped = wgpu_noise_shape_octave(s.mode, n, weight);
        weight = shaped.y;
        sum = sum + amplitude * shaped.x;
        norm = norm + amplitude;
        amplitude = amplitude * s.gain;
        frequency = frequency * s.lacunarity;
    }
    return sum / norm;
}

fn fractal3(kind: u32, p: vec3<f32>, s: NoiseSettings) -> f32 {
    let q = warp3(kind, p, s);
    var sum = 0.0;
    var norm = 0.0;
    var amplitude = 1.0;
    var frequency = 1.0;
    var weight = 1.0;
    for (var octave = 0u; octave < s.octaves; octave = octave + 1u) {
        let n = wgpu_noise_base_noise3(kind, q * frequency, s.period.xyz * frequency, s.kernel, wgpu_noise_cellular_shape(s),
                                       s.flow_angle);
        let shaped = wgpu_noise_shape_octave(s.mode, n, weight);
        weight = shaped.y;
        sum = sum + amplitude * shaped.x;
        norm = norm + amplitude;
        amplitude = amplitude * s.gain;
        frequency = frequency * s.lacunarity;
    }
    return sum / norm;
}

fn fractal4(kind: u32, p: vec4<f32>, s: NoiseSettings) -> f32 {
    let q = warp4(kind, p, s);
    var sum = 0.0;
    var norm = 0.0;
    var amplitude = 1.0;
    var frequency = 1.0;
    var weight = 1.0;
    for (var octave = 0u; octave < s.octaves; octave = octave + 1u) {
        let n = wgpu_noise_base_noise4(kind, q * frequency, s.period * frequency, s.kernel, wgpu_noise_cellular_shape(s));
        let shaped = wgpu_noise_shape_octave(s.mode, n, weight);
        weight = shaped.y;
        sum = sum + amplitude * shaped.x;
        norm = norm + amplitude;
        amplitude = amplitude * s.gain;
        frequency = frequency * s.lacunarity;
    }
    return sum / norm;
}

// fBm of simplex (or, with s.flow_angle, flow) noise with its analytic gradient: octave k
// contributes gain^k (value, lacunarity^k * gradient) at lacunarity^k * p (chain rule); the
// sum is normalised like fractal2/3. Untiled noise only.
fn fbm_deriv2(p: vec2<f32>, s: NoiseSettings) -> vec3<f32> {
    var sum = vec3<f32>(0.0);
    var norm = 0.0;
    var amplitude = 1.0;
    var frequency = 1.0;
    for (var octave = 0u; octave < s.octaves; octave = octave + 1u) {
        let d = flow2_deriv(p * frequency, s.flow_angle);
        sum = sum + amplitude * vec3<f32>(d.x, d.yz * frequency);
        norm = norm + amplitude;
        amplitude = amplitude * s.gain;
        frequency = frequency * s.lacunarity;
    }
    return sum / norm;
}

fn fbm_deriv3(p: vec3<f32>, s: NoiseSettings) -> vec4<f32> {
    var r2 = WGPU_NOISE_SIMPLEX34_R2;
    var scale = 32.0;
    if (s.kernel == WGPU_NOISE_KERNEL_CONTINUOUS) {
        r2 = 0.5;
        scale = WGPU_NOISE_SIMPLEX3_R05_SCALE;
    }
    var sum = vec4<f32>(0.0);
    var norm = 0.0;
    var amplitude = 1.0;
    var frequency = 1.0;
    for (var octave = 0u; octave < s.octaves; octave = octave + 1u) {
        let d = flow3_deriv(p * frequency, s.flow_angle, r2, scale);
        sum = sum + amplitude * vec4<f32>(d.x, d.yzw * frequency);
        norm = norm + amplitude;
        amplitude = amplitude * s.gain;
        frequency = frequency * s.lacunarity;
    }
    return sum / norm;
}
