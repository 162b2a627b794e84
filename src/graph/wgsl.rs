//! A lowered graph as one WGSL function, operation for operation what [`super::eval::value`]
//! computes: `fn NAME(p: vec4<f32>) -> f32` (coordinates past the graph's dimensions are
//! ignored). It calls the noise functions (`wgpu_noise_base_noise2/3/4` of
//! `shaders/fractal.wgsl`) and `shaders/combine.wgsl`, so it follows
//! [`crate::shader::noise_functions_wgsl`] in a shader.

use std::fmt::Write;

use super::program::{Op, Program};
use super::spec::{Binary, Map};
use crate::field::NoiseKind;
use crate::shader::ApiNames;

/// A WGSL `f32` literal that parses to exactly `v`: the shortest decimal that round-trips,
/// or the bits where a decimal would not.
pub fn literal(v: f32) -> String {
    let text = format!("{v:?}");
    if text.parse::<f64>().map(|d| d as f32) == Ok(v) && v.is_finite() {
        // `1.0` reads as abstract float and converts exactly; exponents need no suffix.
        text
    } else {
        format!("bitcast<f32>({}u)", v.to_bits())
    }
}

fn vec4(v: [f32; 4], dims: usize) -> String {
    let c: Vec<String> = (0..4)
        .map(|a| literal(if a < dims { v[a] } else { 0.0 }))
        .collect();
    format!("vec4<f32>({})", c.join(", "))
}

const AXES: [&str; 4] = ["x", "y", "z", "w"];

fn swizzle(dims: usize) -> &'static str {
    ["xy", "xyz", "xyzw"][dims - 2]
}

/// `program` as `fn name(p: vec4<f32>) -> f32`. With [`ApiNames::Prefixed`] it calls the
/// prefixed noise API (for noise assembled that way).
pub fn function(program: &Program, name: &str, api_names: ApiNames) -> String {
    let dims = program.dims;
    let sw = swizzle(dims);
    let mut body = String::new();
    let mut w = |line: String| {
        body.push_str("    ");
        body.push_str(&line);
        body.push('\n');
    };
    for (i, op) in program.ops.iter().enumerate() {
        let r = |reg: usize| format!("r{reg}");
        match op {
            Op::Point => {
                let c: Vec<String> = (0..4)
                    .map(|a| {
                        if a < dims {
                            format!("p.{}", AXES[a])
                        } else {
                            "0.0".into()
                        }
                    })
                    .collect();
                w(format!(
                    "let r{i} = wgpu_noise_finite4(vec4<f32>({}));",
                    c.join(", ")
                ));
            }
            Op::Scale { p, by } => w(format!(
                "let r{i} = wgpu_noise_finite4({} * {});",
                r(*p),
                vec4(*by, dims)
            )),
            Op::Offset { p, by } => w(format!(
                "let r{i} = wgpu_noise_finite4({} + {});",
                r(*p),
                vec4(*by, dims)
            )),
            Op::Rotate { p, plane, cos, sin } => {
                let (c, s) = (literal(*cos), literal(*sin));
                let [u, v] = plane.map(|a| AXES[a]);
                let q = r(*p);
                let comps: Vec<String> = (0..4)
                    .map(|a| {
                        if a >= dims {
                            "0.0".to_string()
                        } else if AXES[a] == u {
                            format!("{c} * {q}.{u} - {s} * {q}.{v}")
                        } else if AXES[a] == v {
                            format!("{s} * {q}.{u} + {c} * {q}.{v}")
                        } else {
                            format!("{q}.{}", AXES[a])
                        }
                    })
                    .collect();
                w(format!(
                    "let r{i} = wgpu_noise_finite4(vec4<f32>({}));",
                    comps.join(", ")
                ));
            }
            Op::Displace { p, d, amplitude } => {
                let comps: Vec<String> = (0..4)
                    .map(|a| if a < dims { r(d[a]) } else { "0.0".into() })
                    .collect();
                w(format!(
                    "let r{i} = wgpu_noise_finite4({} + {} * vec4<f32>({}));",
                    r(*p),
                    literal(*amplitude),
                    comps.join(", ")
                ));
            }
            Op::Noise { p, source } => {
                let kind = match source.kind {
                    NoiseKind::Classic => "WGPU_NOISE_CLASSIC",
                    NoiseKind::Simplex => "WGPU_NOISE_SIMPLEX",
                    NoiseKind::Cellular => "WGPU_NOISE_CELLULAR",
                };
                let period = format!("{}.{sw}", vec4(source.period, dims));
                let cell = format!(
                    "CellularShape({}, {}u, {}u)",
                    literal(source.cell.jitter),
                    source.cell.distance,
                    source.cell.output
                );
                let kernel = source.kernel.code();
                let flow = literal(source.flow);
                let q = format!("{}.{sw}", r(*p));
                w(match dims {
                    2 => format!("let r{i} = wgpu_noise_base_noise2({kind}, {q}, {period}, {cell}, {flow});"),
                    3 => format!(
                        "let r{i} = wgpu_noise_base_noise3({kind}, {q}, {period}, {kernel}u, {cell}, {flow});"
                    ),
                    _ => format!("let r{i} = wgpu_noise_base_noise4({kind}, {q}, {period}, {kernel}u, {cell});"),
                });
            }
            Op::Constant(c) => w(format!("let r{i} = {};", literal(*c))),
            Op::Axis { p, axis } => w(format!("let r{i} = {}.{};", r(*p), AXES[*axis])),
            Op::Fractal { mode, terms, norm } => {
                w(format!("var s{i} = 0.0;"));
                w(format!("var w{i} = 1.0;"));
                for (n, amplitude) in terms {
                    w(format!(
                        "{{ let o = wgpu_noise_shape_octave({}u, {}, w{i}); w{i} = o.y; s{i} = s{i} + {} * o.x; }}",
                        mode.code(),
                        r(*n),
                        literal(*amplitude)
                    ));
                }
                w(format!(
                    "let r{i} = wgpu_noise_finite(s{i} / {});",
                    literal(*norm)
                ));
            }
            Op::Binary { op, a, b } => {
                let (a, b) = (r(*a), r(*b));
                let e = match op {
                    Binary::Add => format!("{a} + {b}"),
                    Binary::Subtract => format!("{a} - {b}"),
                    Binary::Multiply => format!("{a} * {b}"),
                    Binary::Min => format!("min({a}, {b})"),
                    Binary::Max => format!("max({a}, {b})"),
                    Binary::SmoothMin(k) => {
                        format!("wgpu_noise_smooth_min({a}, {b}, {})", literal(*k))
                    }
                    Binary::SmoothMax(k) => {
                        format!("wgpu_noise_smooth_max({a}, {b}, {})", literal(*k))
                    }
                };
                w(format!("let r{i} = wgpu_noise_finite({e});"));
            }
            Op::Blend { a, b, t } => w(format!(
                "let r{i} = wgpu_noise_finite(wgpu_noise_blend({}, {}, {}));",
                r(*a),
                r(*b),
                r(*t)
            )),
            Op::Map { op, a } => {
                let a = r(*a);
                let pair = |v: [f32; 2]| format!("vec2<f32>({}, {})", literal(v[0]), literal(v[1]));
                let e = match op {
                    Map::Abs => format!("abs({a})"),
                    Map::Clamp { min, max } => {
                        format!("clamp({a}, {}, {})", literal(*min), literal(*max))
                    }
                    Map::Remap { from, to } => {
                        format!("wgpu_noise_remap({a}, {}, {})", pair(*from), pair(*to))
                    }
                    Map::Pow { exponent } => {
                        format!("wgpu_noise_signed_pow({a}, {})", literal(*exponent))
                    }
                    Map::Terrace { steps, smoothness } => format!(
                        "wgpu_noise_terrace({a}, {}, {})",
                        literal(*steps),
                        literal(*smoothness)
                    ),
                    Map::PingPong { strength } => {
                        format!("wgpu_noise_ping_pong({a}, {})", literal(*strength))
                    }
                };
                w(format!("let r{i} = wgpu_noise_finite({e});"));
            }
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// A noise graph ({} operations, {} noise calls per sample), generated by wgpu-noise.",
        program.ops.len(),
        program.noise_calls()
    );
    let _ = writeln!(out, "fn {name}(p: vec4<f32>) -> f32 {{");
    out.push_str(&body);
    let _ = writeln!(out, "    return r{};", program.output);
    out.push_str("}\n");
    match api_names {
        ApiNames::Plain => out,
        ApiNames::Prefixed => crate::shader::prefix_api_names(&out),
    }
}
