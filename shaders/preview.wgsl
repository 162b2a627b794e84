// `wgpu-noise preview`: one full-screen triangle whose fragments are noise.
// Requires the noise functions (shader::noise_functions_wgsl, lookup textures at group 1)
// and `fn preview_graph(p: vec4<f32>) -> f32`: the `--graph` file's function
// (graph::wgsl::function), or a stub when there is none.
// and `colour_ramp` (shaders/ramp.wgsl).
// CPU equivalent of a frame: cpu::fractal::fractal::<f32> at the same points, then the
// mapping below: t = clamp((v - gray_low) / (gray_high - gray_low), 0, 1), drawn with the
// colour ramp (`ColourRamp` in src/ramp.rs).

// `PreviewUniforms` in src/cli/preview/view.rs (its layout is checked with naga there).
struct Preview {
    offset: vec4<f32>,        // noise coordinate of pixel (0, 0), animation included
    step: vec4<f32>,          // noise units per pixel per axis (frequency / size)
    settings: NoiseSettings,  // octaves, fractal mode, kernel (fractal.wgsl)
    kind: u32,                // WGPU_NOISE_CLASSIC or WGPU_NOISE_SIMPLEX
    dims: u32,                // 2, 3 or 4
    gray_low: f32,            // noise value drawn black
    gray_high: f32,           // noise value drawn white
    curl: u32,                // 1: curl noise as a flow map (R, G, B = x, y, z; B = 0 in 2D)
    ramp: RampStops,          // the colours of the value (not of a flow map)
}

@group(0) @binding(0) var<uniform> preview: Preview;

// True when the target is an sRGB format: the hardware then encodes what we write, so we
// write the decoded gray and the stored byte is the same as on a linear target.
override TARGET_SRGB: bool = false;
// True when a noise graph decides the noise (`preview --graph`): then `preview.settings`,
// `kind` and `curl` are unused.
override GRAPH: bool = false;

@vertex
fn vs_fullscreen(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    // One triangle that covers the viewport: (-1,-1), (3,-1), (-1,3).
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

fn srgb_to_linear(c: f32) -> f32 {
    if (c <= 0.04045) { return c / 12.92; }
    return pow((c + 0.055) / 1.055, 2.4);
}

@fragment
fn fs_noise(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    // position.xy is the pixel centre (i + 0.5, j + 0.5); j = 0 is the top row.
    // The sampling convention: pixel i samples offset + step * i (as fill.wgsl).
    let index = vec4<f32>(floor(position.xy), 0.0, 0.0);
    let p = preview.offset + preview.step * index;
    if (!GRAPH && preview.curl == 1u) {
        // The flow map of `bake --curl`: each component mapped from gray_low..gray_high.
        var c = vec3<f32>(preview.gray_low);
        if (preview.dims == 2u) {
            c = vec3<f32>(curl2(p.xy), preview.gray_low);
        } else {
            c = curl3(p.xyz);
        }
        var rgb = clamp((c - preview.gray_low) / (preview.gray_high - preview.gray_low), vec3<f32>(0.0), vec3<f32>(1.0));
        if (TARGET_SRGB) {
            rgb = vec3<f32>(srgb_to_linear(rgb.x), srgb_to_linear(rgb.y), srgb_to_linear(rgb.z));
        }
        return vec4<f32>(rgb, 1.0);
    }
    var v: f32;
    if (GRAPH) {
        v = preview_graph(p);
    } else if (preview.dims == 2u) {
        v = fractal2(preview.kind, p.xy, preview.settings);
    } else if (preview.dims == 3u) {
        v = fractal3(preview.kind, p.xyz, preview.settings);
    } else {
        v = fractal4(preview.kind, p, preview.settings);
    }
    let t = clamp((v - preview.gray_low) / (preview.gray_high - preview.gray_low), 0.0, 1.0);
    var rgb = colour_ramp(preview.ramp, t);
    if (TARGET_SRGB) {
        rgb = vec3<f32>(srgb_to_linear(rgb.x), srgb_to_linear(rgb.y), srgb_to_linear(rgb.z));
    }
    return vec4<f32>(rgb, 1.0);
}
