// Compute entry points: fill a 2D or 3D R32Float storage texture, or a 4D field stored as
// a stack of 3D volumes, with noise (Rgba32Float: value and gradient, or curl noise).
// CPU mirror: src/cpu/fill.rs. Requires lookup, classic, simplex, fractal and curl.wgsl.

// Keep in sync with `FillParams` in src/params.rs.
struct FillParams {
    offset: vec4<f32>,  // noise-space coordinate of field texel 0
    step: vec4<f32>,    // coordinate step per texel: frequency / size
    origin: vec4<u32>,  // field index of this slab's first texel (x, y, z, w)
    extent: vec4<u32>,  // slab size in texels (x, y, z, w); unused axes are 1
    settings: NoiseSettings,  // tiling, octaves, kernel (fractal.wgsl)
}

// 0 = classic, 1 = simplex, 2 = cellular: a pipeline constant, so each pipeline is specialised.
override NOISE_KIND: u32 = 1u;

@group(1) @binding(0) var<uniform> params: FillParams;
@group(1) @binding(1) var out_2d: texture_storage_2d<r32float, write>;
@group(1) @binding(2) var out_3d: texture_storage_3d<r32float, write>;
@group(1) @binding(6) var out_2d_rgba: texture_storage_2d<rgba32float, write>;
@group(1) @binding(7) var out_3d_rgba: texture_storage_3d<rgba32float, write>;
// The same volumes as 2D array layers (layer = z, or w * extent.z + z in 4D): wgpu's GL
// backend binds a 3D storage texture one layer deep (only z = 0 is written), an array
// texture whole. src/gpu/generator.rs fills these on GL (docs/backends.md).
@group(1) @binding(8) var out_layers: texture_storage_2d_array<r32float, write>;
@group(1) @binding(9) var out_layers_rgba: texture_storage_2d_array<rgba32float, write>;

// The settings that shape control flow are pipeline constants too (src/gpu/fill.rs sets
// them from the uniform's values): with a loop count and branches known at pipeline
// creation the compilers unroll and prune, where a uniform's values would be read and
// branched on per sample. Lacunarity, gain and the tile period stay in the uniform.
override FILL_OCTAVES: u32 = 1u;
override FILL_MODE: u32 = 0u;
override FILL_KERNEL: u32 = 0u;
override FILL_TILED: bool = false;
override FILL_CELLULAR_OUTPUT: u32 = 0u;    // CELLULAR_* (cellular.wgsl)
override FILL_CELLULAR_DISTANCE: u32 = 0u;  // CELLULAR_DISTANCE_*
override FILL_WARP_OCTAVES: u32 = 1u;
override FILL_WARP_ITERATIONS: u32 = 0u;    // 0 = no domain warp (warp.wgsl)
override FILL_FLOW: bool = false;           // a non-zero flow angle (simplex.wgsl's flow2/flow3)

fn fill_settings() -> NoiseSettings {
    let period = select(vec4<f32>(0.0), params.settings.period, FILL_TILED);
    return NoiseSettings(period, FILL_OCTAVES, FILL_MODE, params.settings.lacunarity, params.settings.gain,
                         FILL_KERNEL, FILL_CELLULAR_OUTPUT, FILL_CELLULAR_DISTANCE,
                         params.settings.cellular_jitter, params.settings.warp_amplitude,
                         params.settings.warp_frequency, FILL_WARP_OCTAVES, FILL_WARP_ITERATIONS,
                         select(0.0, params.settings.flow_angle, FILL_FLOW));
}

fn noise2(p: vec2<f32>) -> f32 {
    return fractal2(NOISE_KIND, p, fill_settings());
}

fn noise3(p: vec3<f32>) -> f32 {
    return fractal3(NOISE_KIND, p, fill_settings());
}

fn noise4(p: vec4<f32>) -> f32 {
    return fractal4(NOISE_KIND, p, fill_settings());
}

// The sampling convention: texel i samples offset + step * i (step = frequency / size).
fn sample_point(index: vec4<u32>) -> vec4<f32> {
    return params.offset + params.step * vec4<f32>(params.origin + index);
}

@compute @workgroup_size(8, 8, 1)
fn fill_2d(@builtin(global_invocation_id) id: vec3<u32>) {
    if (any(id.xy >= params.extent.xy)) { return; }
    let p = sample_point(vec4<u32>(id.xy, 0u, 0u));
    textureStore(out_2d, id.xy, vec4<f32>(noise2(p.xy), 0.0, 0.0, 1.0));
}

@compute @workgroup_size(8, 8, 1)
fn fill_3d(@builtin(global_invocation_id) id: vec3<u32>) {
    if (any(id >= params.extent.xyz)) { return; }
    let p = sample_point(vec4<u32>(id, 0u));
    textureStore(out_3d, id, vec4<f32>(noise3(p.xyz), 0.0, 0.0, 1.0));
}

// 4D: the target is a 3D texture of depth extent.z * extent.w; layer = w * extent.z + z.
@compute @workgroup_size(8, 8, 1)
fn fill_4d(@builtin(global_invocation_id) id: vec3<u32>) {
    let layers = params.extent.z * params.extent.w;
    if (id.x >= params.extent.x || id.y >= params.extent.y || id.z >= layers) { return; }
    let z = id.z % params.extent.z;
    let w = id.z / params.extent.z;
    let p = sample_point(vec4<u32>(id.xy, z, w));
    textureStore(out_3d, id, vec4<f32>(noise4(p), 0.0, 0.0, 1.0));
}

@compute @workgroup_size(8, 8, 1)
fn fill_3d_layers(@builtin(global_invocation_id) id: vec3<u32>) {
    if (any(id >= params.extent.xyz)) { return; }
    let p = sample_point(vec4<u32>(id, 0u));
    textureStore(out_layers, id.xy, id.z, vec4<f32>(noise3(p.xyz), 0.0, 0.0, 1.0));
}

@compute @workgroup_size(8, 8, 1)
fn fill_4d_layers(@builtin(global_invocation_id) id: vec3<u32>) {
    let layers = params.extent.z * params.extent.w;
    if (id.x >= params.extent.x || id.y >= params.extent.y || id.z >= layers) { return; }
    let z = id.z % params.extent.z;
    let w = id.z / params.extent.z;
    let p = sample_point(vec4<u32>(id.xy, z, w));
    textureStore(out_layers, id.xy, id.z, vec4<f32>(noise4(p), 0.0, 0.0, 1.0));
}

// Value and gradient (fBm of simplex noise): rgba = (value, d/dx, d/dy, d/dz).
@compute @workgroup_size(8, 8, 1)
fn fill_2d_gradient(@builtin(global_invocation_id) id: vec3<u32>) {
    if (any(id.xy >= params.extent.xy)) { return; }
    let p = sample_point(vec4<u32>(id.xy, 0u, 0u));
    textureStore(out_2d_rgba, id.xy, vec4<f32>(fbm_deriv2(p.xy, fill_settings()), 0.0));
}

@compute @workgroup_size(8, 8, 1)
fn fill_3d_gradient(@builtin(global_invocation_id) id: vec3<u32>) {
    if (any(id >= params.extent.xyz)) { return; }
    let p = sample_point(vec4<u32>(id, 0u));
    textureStore(out_3d_rgba, id, fbm_deriv3(p.xyz, fill_settings()));
}

@compute @workgroup_size(8, 8, 1)
fn fill_3d_gradient_layers(@builtin(global_invocation_id) id: vec3<u32>) {
    if (any(id >= params.extent.xyz)) { return; }
    let p = sample_point(vec4<u32>(id, 0u));
    textureStore(out_layers_rgba, id.xy, id.z, fbm_deriv3(p.xyz, fill_settings()));
}

// Curl noise (curl.wgsl, one octave of simplex noise's own kernel): rgba = (x, y, 0, 0) in
// 2D, (x, y, z, 0) in 3D.
@compute @workgroup_size(8, 8, 1)
fn fill_2d_curl(@builtin(global_invocation_id) id: vec3<u32>) {
    if (any(id.xy >= params.extent.xy)) { return; }
    let p = sample_point(vec4<u32>(id.xy, 0u, 0u));
    textureStore(out_2d_rgba, id.xy, vec4<f32>(curl2(p.xy), 0.0, 0.0));
}

@compute @workgroup_size(8, 8, 1)
fn fill_3d_curl(@builtin(global_invocation_id) id: vec3<u32>) {
    if (any(id >= params.extent.xyz)) { return; }
    let p = sample_point(vec4<u32>(id, 0u));
    textureStore(out_3d_rgba, id, vec4<f32>(curl3(p.xyz), 0.0));
}

@compute @workgroup_size(8, 8, 1)
fn fill_3d_curl_layers(@builtin(global_invocation_id) id: vec3<u32>) {
    if (any(id >= params.extent.xyz)) { return; }
    let p = sample_point(vec4<u32>(id, 0u));
    textureStore(out_layers_rgba, id.xy, id.z, vec4<f32>(curl3(p.xyz), 0.0));
}
