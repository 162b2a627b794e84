// EXPERIMENT, not the product: a copy of the 3D fill entry point of shaders/fill.wgsl with
// the knobs that the shader_experiments example (sweep.rs beside this file) turns.
// The placeholders are replaced textually before compilation:
//   WG_X, WG_Y, WG_Z   workgroup shape
//   the body of fill_variant: one `fill_one(...)` call per sample of the invocation,
//                      unrolled (along x: an invocation's samples are adjacent and lanes
//                      stride; along z: lanes stay x-contiguous); one sample = fill_3d
//   the noise call in fill_one: classic3 / simplex3 (the plain base noise),
//                      product_classic3 / product_simplex3 (what shaders/fill.wgsl calls:
//                      fractal3 driven by the uniform settings), product_const_classic3 /
//                      product_const_simplex3 (the same with constant settings), or
//                      bench_store_only3
//   the store call in fill_one: store_texture (R32Float storage texture, as the product)
//                      or store_buffer (a dense storage buffer)
// Requires the noise functions (lookup + classic + simplex + fractal) in front, lookups at
// group 0.

// Keep in sync with `FillParams` in src/params.rs.
struct FillParams {
    offset: vec4<f32>,
    step: vec4<f32>,
    origin: vec4<u32>,
    extent: vec4<u32>,
    settings: NoiseSettings,
}

@group(1) @binding(0) var<uniform> params: FillParams;
@group(1) @binding(1) var out_3d: texture_storage_3d<r32float, write>;
@group(1) @binding(2) var<storage, read_write> out_buf: array<f32>;

// The store-only baseline: the sample point is computed, nothing is looked up.
fn bench_store_only3(p: vec3<f32>) -> f32 {
    return p.x;
}

// The product's per-sample call (fill.wgsl noise3 with NOISE_KIND = 0 or 1).
fn product_classic3(p: vec3<f32>) -> f32 {
    return fractal3(0u, p, params.settings);
}

fn product_simplex3(p: vec3<f32>) -> f32 {
    return fractal3(1u, p, params.settings);
}

// The same call with the settings as a compile-time constant (one octave, not tiled,
// reference kernel: NoiseSettings::default() in src/params.rs), as a pipeline specialised
// by override constants would see them: the loop and branches fold away.
const BENCH_PLAIN_SETTINGS = NoiseSettings(vec4<f32>(0.0), 1u, 0u, 2.0, 0.5, 0u, 0u, 0u, 1.0, 0.0, 1.0, 1u, 0u, 0.0);

fn product_const_classic3(p: vec3<f32>) -> f32 {
    return fractal3(0u, p, BENCH_PLAIN_SETTINGS);
}

fn product_const_simplex3(p: vec3<f32>) -> f32 {
    return fractal3(1u, p, BENCH_PLAIN_SETTINGS);
}

fn store_texture(idx: vec3<u32>, v: f32) {
    textureStore(out_3d, idx, vec4<f32>(v, 0.0, 0.0, 1.0));
}

fn store_buffer(idx: vec3<u32>, v: f32) {
    out_buf[idx.x + params.extent.x * (idx.y + params.extent.y * idx.z)] = v;
}

// One sample: the bounds check, the sampling convention and the store of fill_3d.
fn fill_one(idx: vec3<u32>) {
    if (any(idx >= params.extent.xyz)) { return; }
    let p = params.offset + params.step * vec4<f32>(params.origin + vec4<u32>(idx, 0u));
    STORE(idx, NOISE3(p.xyz));
}

@compute @workgroup_size(WG_X, WG_Y, WG_Z)
fn fill_variant(@builtin(global_invocation_id) id: vec3<u32>) {
    SAMPLES
}
