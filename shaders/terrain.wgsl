// The terrain view (`wgpu-noise preview --view terrain`, the page's 3D view): the graph's
// value as a height field, a grid mesh of `terrain.grid`² vertices displaced by the value,
// its normals from the graph's analytic gradient, lit by one directional light and an
// ambient term, coloured by the colour ramp.
// Requires the noise functions (lookup textures at group 1), `colour_ramp`
// (shaders/ramp.wgsl) and `fn terrain_graph(p: vec4<f32>) -> array<f32, 5>`: the graph's
// value and gradient (graph::wgsl::gradient_function).
// CPU equivalent of a vertex: `TerrainUniforms` in src/editor/terrain.rs documents the
// mapping; the colour is `colour_ramp(t) · (ambient + (1 − ambient) · max(n · light, 0))`.

// `TerrainUniforms` in src/editor/terrain.rs (its layout is checked with naga there).
struct Terrain {
    view_projection: mat4x4<f32>, // world to clip space (orbit camera)
    origin: vec4<f32>,            // field point of vertex (0, 0): the flat view's pixel (0, 0)
    span: vec4<f32>,              // field units from the first vertex to the last along x, y
    light: vec4<f32>,             // unit vector towards the light, world space (w unused)
    extent: vec2<f32>,            // the mesh's half-width and half-height in world units
    relief: f32,                  // world height of a value of 1
    ambient: f32,                 // the light that reaches faces turned away
    grid: u32,                    // vertices per side
    gray_low: f32,                // the value drawn with the ramp's first colour
    gray_high: f32,               // the value drawn with its last
    _pad: u32,
    ramp: RampStops,
}

@group(0) @binding(0) var<uniform> terrain: Terrain;

// True when the target is an sRGB format (as in shaders/preview.wgsl).
override TARGET_SRGB: bool = false;

struct TerrainVertex {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) t: f32,
}

@vertex
fn vs_terrain(@builtin(vertex_index) index: u32) -> TerrainVertex {
    let cell = vec2<f32>(f32(index % terrain.grid), f32(index / terrain.grid));
    let uv = cell / f32(terrain.grid - 1u);
    let p = terrain.origin + vec4<f32>(uv * terrain.span.xy, 0.0, 0.0);
    let d = terrain_graph(p);
    // World y runs up the frame, against field y (rows grow downwards).
    let world = vec3<f32>(
        (2.0 * uv.x - 1.0) * terrain.extent.x,
        (1.0 - 2.0 * uv.y) * terrain.extent.y,
        terrain.relief * d[0],
    );
    // The height's slope in world units: the chain rule through the two linear maps above.
    let slope = terrain.relief * vec2<f32>(
        d[1] * terrain.span.x / (2.0 * terrain.extent.x),
        -d[2] * terrain.span.y / (2.0 * terrain.extent.y),
    );
    var out: TerrainVertex;
    out.clip = terrain.view_projection * vec4<f32>(world, 1.0);
    out.normal = vec3<f32>(-slope, 1.0);
    out.t = clamp((d[0] - terrain.gray_low) / (terrain.gray_high - terrain.gray_low), 0.0, 1.0);
    return out;
}

fn srgb_to_linear(c: f32) -> f32 {
    if (c <= 0.04045) { return c / 12.92; }
    return pow((c + 0.055) / 1.055, 2.4);
}

@fragment
fn fs_terrain(v: TerrainVertex) -> @location(0) vec4<f32> {
    let n = normalize(v.normal);
    let lambert = max(dot(n, terrain.light.xyz), 0.0);
    let shade = terrain.ambient + (1.0 - terrain.ambient) * lambert;
    var rgb = colour_ramp(terrain.ramp, v.t) * shade;
    if (TARGET_SRGB) {
        rgb = vec3<f32>(srgb_to_linear(rgb.x), srgb_to_linear(rgb.y), srgb_to_linear(rgb.z));
    }
    return vec4<f32>(rgb, 1.0);
}
