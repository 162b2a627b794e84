// The iso view (`wgpu-noise preview --view iso`): the surface where a 3D graph's value is the
// level, a mesh the CPU extracted (src/editor/isosurface.rs) from the graph's values and
// analytic gradients filled over a cube; lit as the terrain is (shaders/terrain.wgsl), one
// directional light and an ambient term, its normals the gradient turned towards the
// camera, coloured by the colour ramp at the vertex's height in the cube.
// Requires `colour_ramp` (shaders/ramp.wgsl).
// CPU equivalent of a pixel: `IsoUniforms` in src/editor/iso.rs documents the mapping; the
// colour is `colour_ramp(t) · (ambient + (1 − ambient) · max(n · light, 0))`.

// `IsoUniforms` in src/editor/iso.rs (its layout is checked with naga there).
struct Iso {
    view_projection: mat4x4<f32>, // world to clip space (orbit camera)
    eye: vec4<f32>,               // the camera's position, world space (w unused)
    light: vec4<f32>,             // unit vector towards the light, world space (w unused)
    extent: f32,                  // half the cube's side in world units
    ambient: f32,                 // the light that reaches faces turned away
    _pad: vec2<f32>,
    ramp: RampStops,
}

@group(0) @binding(0) var<uniform> iso: Iso;

// True when the target is an sRGB format (as in shaders/preview.wgsl).
override TARGET_SRGB: bool = false;

struct IsoVertex {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
}

@vertex
fn vs_iso(@location(0) world: vec3<f32>, @location(1) normal: vec3<f32>) -> IsoVertex {
    var out: IsoVertex;
    out.clip = iso.view_projection * vec4<f32>(world, 1.0);
    out.world = world;
    out.normal = normal;
    return out;
}

fn srgb_to_linear(c: f32) -> f32 {
    if (c <= 0.04045) { return c / 12.92; }
    return pow((c + 0.055) / 1.055, 2.4);
}

@fragment
fn fs_iso(v: IsoVertex) -> @location(0) vec4<f32> {
    var n = normalize(v.normal);
    // Both sides are lit: where the cube's faces cut the surface open, its far side shows.
    if (dot(n, iso.eye.xyz - v.world) < 0.0) {
        n = -n;
    }
    let lambert = max(dot(n, iso.light.xyz), 0.0);
    let shade = iso.ambient + (1.0 - iso.ambient) * lambert;
    let t = clamp((v.world.z / iso.extent + 1.0) / 2.0, 0.0, 1.0);
    var rgb = colour_ramp(iso.ramp, t) * shade;
    if (TARGET_SRGB) {
        rgb = vec3<f32>(srgb_to_linear(rgb.x), srgb_to_linear(rgb.y), srgb_to_linear(rgb.z));
    }
    return vec4<f32>(rgb, 1.0);
}
