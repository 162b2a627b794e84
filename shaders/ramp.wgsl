// Colour ramps: a value t in [0, 1] to a colour, linear between stops. The preview and the
// page draw with this; bake's ramped PNGs run the same operations on the CPU
// (`RampStops::colour` in src/ramp.rs, the uniform's layout checked there with naga).

struct RampStops {
    stops: array<vec4<f32>, 8>, // rgb = colour (sRGB values in [0, 1]), a = position of t
    count: u32,                 // stops used, 2 to 8, positions increasing
    pad0: u32,
    pad1: u32,
    pad2: u32,
}

fn colour_ramp(ramp: RampStops, t: f32) -> vec3<f32> {
    var stops = ramp.stops;
    var c = stops[0].rgb;
    for (var i = 1u; i < ramp.count; i = i + 1u) {
        let a = stops[i - 1u];
        let b = stops[i];
        if (t > a.a) {
            let f = min((t - a.a) / (b.a - a.a), 1.0);
            c = a.rgb + (b.rgb - a.rgb) * f;
        }
    }
    return c;
}
