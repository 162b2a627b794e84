// The store-bandwidth floor of the fill path, for `wgpu-noise bench` (src/cli/bench/harness.rs).
// Same bindings, same workgroup shape, same bounds check and same R32Float storage
// textures as shaders/fill.wgsl, but a constant instead of noise: the time of a fill can
// never drop below this kernel's.
//
// WG_X, WG_Y, WG_Z are replaced by src/cli/bench/harness.rs with `gpu::WORKGROUP`, so the floor
// follows the product's workgroup shape.

// Keep in sync with `FillParams` in src/params.rs (only `extent` is read here).
struct FillParams {
    offset: vec4<f32>,
    step: vec4<f32>,
    origin: vec4<u32>,
    extent: vec4<u32>,
}

@group(0) @binding(0) var<uniform> params: FillParams;
@group(0) @binding(1) var out_2d: texture_storage_2d<r32float, write>;
@group(0) @binding(2) var out_3d: texture_storage_3d<r32float, write>;

@compute @workgroup_size(WG_X, WG_Y, WG_Z)
fn empty_2d(@builtin(global_invocation_id) id: vec3<u32>) {
    if (any(id.xy >= params.extent.xy)) { return; }
    textureStore(out_2d, id.xy, vec4<f32>(0.5, 0.0, 0.0, 1.0));
}

// 3D fields, and 4D fields as a stack of 3D volumes (depth extent.z * extent.w).
@compute @workgroup_size(WG_X, WG_Y, WG_Z)
fn empty_3d(@builtin(global_invocation_id) id: vec3<u32>) {
    let layers = params.extent.z * params.extent.w;
    if (id.x >= params.extent.x || id.y >= params.extent.y || id.z >= layers) { return; }
    textureStore(out_3d, id, vec4<f32>(0.5, 0.0, 0.0, 1.0));
}
