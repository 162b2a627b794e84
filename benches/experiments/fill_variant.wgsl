// EXPERIMENT, not the product: a copy of the 3D fill entry point of shaders/fill.wgsl with
// the knobs that `wgpu-noise bench --experiments` (src/bench/experiments.rs) turns.
// The placeholders are replaced textually before compilation:
//   WG_X, WG_Y, WG_Z   workgroup shape
//   PER_X, PER_Z       samples per invocation along x (lanes then stride) or along z (lanes
//                      stay x-contiguous); the other one is 1
//   NOISE3             the function evaluated: classic3, simplex3, or bench_store_only3
//   STORE(idx, v)      the store: into the R32Float storage texture, or a dense storage buffer
// Requires the noise functions (lookup + classic + simplex) in front, lookups at group 0.

// Keep in sync with `FillParams` in src/params.rs.
struct FillParams {
    offset: vec4<f32>,
    step: vec4<f32>,
    origin: vec4<u32>,
    extent: vec4<u32>,
}

@group(1) @binding(0) var<uniform> params: FillParams;
@group(1) @binding(1) var out_3d: texture_storage_3d<r32float, write>;
@group(1) @binding(2) var<storage, read_write> out_buf: array<f32>;

// The store-only baseline: the sample point is computed, nothing is looked up.
fn bench_store_only3(p: vec3<f32>) -> f32 {
    return p.x;
}

fn store_texture(idx: vec3<u32>, v: f32) {
    textureStore(out_3d, idx, vec4<f32>(v, 0.0, 0.0, 1.0));
}

fn store_buffer(idx: vec3<u32>, v: f32) {
    out_buf[idx.x + params.extent.x * (idx.y + params.extent.y * idx.z)] = v;
}

@compute @workgroup_size(WG_X, WG_Y, WG_Z)
fn fill_variant(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.y >= params.extent.y) { return; }
    for (var s = 0u; s < PER_X * PER_Z; s++) {
        // One of PER_X, PER_Z is 1, so s walks along the other axis.
        let idx = vec3<u32>(id.x * PER_X + s % PER_X, id.y, id.z * PER_Z + s / PER_X);
        if (idx.x >= params.extent.x || idx.z >= params.extent.z) { return; }
        let p = params.offset + params.step * vec4<f32>(params.origin + vec4<u32>(idx, 0u));
        STORE(idx, NOISE3(p.xyz));
    }
}
