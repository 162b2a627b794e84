//! The `add-dimension` and `remove-dimension` nodes (FastNoise2's AddDimension and
//! RemoveDimension): a source one dimension up at `(p, position)`, or one dimension down at
//! `p` without an axis, against the source evaluated directly at that point (the library's
//! 3D simplex function, and the source's own graph lowered for the other dimension count),
//! f32 bit for bit and f64, both lookups, small and large coordinates; FastNoise2's pass
//! throughs; the gradient against central differences; the tile refused or kept.

use crate::common::graphs::Rng;
use wgpu_noise::cpu::simplex::simplex3;
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::graph::{eval, Graph, Program};
use wgpu_noise::tables::PermutationTables;

fn graph(node: &str) -> Graph {
    let text = format!(r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {node} }} }}"#);
    Graph::from_json(&text).unwrap_or_else(|e| panic!("{text}\n{e}"))
}

fn program(node: &str, dims: usize) -> Program {
    graph(node).program(dims, [0.0; 4]).unwrap()
}

/// Points of `dims` coordinates (f32 values) within `reach` of the origin, the rest 0.
fn points(rng: &mut Rng, dims: usize, reach: f64, count: usize) -> Vec<[f64; 4]> {
    (0..count)
        .map(|_| {
            std::array::from_fn(|a| {
                if a < dims {
                    rng.range(-reach, reach) as f32 as f64
                } else {
                    0.0
                }
            })
        })
        .collect()
}

/// `f` with each lookup variant.
fn for_each_lookup(seed: u64, mut f: impl FnMut(&str, &dyn Lookup)) {
    f("textures", &PermutationTables::new(seed));
    f("hash", &IntegerHasher::new(seed));
}

/// A lookup as the tests call it: the evaluators in f32 and f64, and 3D simplex noise.
trait Lookup {
    fn value32(&self, program: &Program, p: [f64; 4]) -> f32;
    fn value64(&self, program: &Program, p: [f64; 4]) -> f64;
    fn gradient64(&self, program: &Program, p: [f64; 4]) -> [f64; 5];
    fn simplex3(&self, p: [f32; 3]) -> f32;
    fn simplex3_64(&self, p: [f64; 3]) -> f64;
}

impl<L: NoiseHasher> Lookup for L {
    fn value32(&self, program: &Program, p: [f64; 4]) -> f32 {
        eval::value::<f32>(program, self, p.map(|v| v as f32), &mut Vec::new())
    }
    fn value64(&self, program: &Program, p: [f64; 4]) -> f64 {
        eval::value::<f64>(program, self, p, &mut Vec::new())
    }
    fn gradient64(&self, program: &Program, p: [f64; 4]) -> [f64; 5] {
        eval::value_and_gradient::<f64>(program, self, p, &mut Vec::new())
    }
    fn simplex3(&self, p: [f32; 3]) -> f32 {
        simplex3(self, p[0], p[1], p[2])
    }
    fn simplex3_64(&self, p: [f64; 3]) -> f64 {
        simplex3(self, p[0], p[1], p[2])
    }
}

/// `add-dimension` of 3D simplex noise in 2D at a constant position `c` is the library's
/// 3D simplex function at `(x, y, c)`, called directly: the same bits in f32 and in f64.
#[test]
fn an_added_constant_dimension_is_the_3d_simplex_function_at_it() {
    let mut rng = Rng::new(4811);
    let mut checked = 0;
    for c in [0.0, 0.37, -2.5, 117.25] {
        let node = format!(
            r#"{{ "type": "add-dimension", "source": {{ "type": "simplex" }}, "position": {c} }}"#
        );
        let program = program(&node, 2);
        for_each_lookup(7, |name, lut| {
            for reach in [4.0, 1e4] {
                for p in points(&mut rng, 2, reach, 200) {
                    let v32 = lut.value32(&program, p);
                    let direct32 = lut.simplex3([p[0] as f32, p[1] as f32, c as f32]);
                    assert_eq!(
                        v32.to_bits(),
                        direct32.to_bits(),
                        "{name} f32 at {p:?}, c {c}"
                    );
                    let v64 = lut.value64(&program, p);
                    // A graph's numbers are f32.
                    let direct64 = lut.simplex3_64([p[0], p[1], c as f32 as f64]);
                    assert_eq!(
                        v64.to_bits(),
                        direct64.to_bits(),
                        "{name} f64 at {p:?}, c {c}"
                    );
                    checked += 1;
                }
            }
        });
    }
    println!("{checked} points: add-dimension = simplex3(x, y, c), bit for bit in f32 and f64");
}

/// Sources one dimension up (seeded, fractal, cellular, warped), with a constant position
/// or one a node gives per sample: in 2D and 3D the source's own graph lowered one dimension
/// up at `(p, position(p))`, the position evaluated by its own graph: the same bits.
#[test]
fn an_added_dimension_is_the_source_one_dimension_up_at_the_position() {
    let sources = [
        r#"{ "type": "simplex", "seed": 3 }"#,
        r#"{ "type": "fbm", "source": { "type": "classic" }, "octaves": 3 }"#,
        r#"{ "type": "cellular", "output": "f2-f1", "seed": -2 }"#,
        r#"{ "type": "warp", "source": { "type": "value" }, "amplitude": 0.7 }"#,
        r#"{ "type": "position", "axis": "z" }"#,
    ];
    let positions = [
        "0",
        "-3.75",
        r#"{ "type": "multiply", "a": { "type": "simplex", "seed": 9 }, "b": 4 }"#,
        r#"{ "type": "position", "axis": "x" }"#,
    ];
    let mut rng = Rng::new(4812);
    let mut checked = 0;
    for source in sources {
        for position in positions {
            let node = format!(
                r#"{{ "type": "add-dimension", "source": {source}, "position": {position} }}"#
            );
            for dims in [2, 3] {
                let added = program(&node, dims);
                let up = program(source, dims + 1);
                let at = match position.parse::<f64>() {
                    Ok(c) => program(&format!(r#"{{ "type": "constant", "value": {c} }}"#), dims),
                    Err(_) => program(position, dims),
                };
                for_each_lookup(11, |name, lut| {
                    for reach in [4.0, 1e4] {
                        for p in points(&mut rng, dims, reach, 60) {
                            let mut q32 = p.map(|v| v as f32 as f64);
                            q32[dims] = lut.value32(&at, p) as f64;
                            let direct32 = lut.value32(&up, q32);
                            let v32 = lut.value32(&added, p);
                            let label = format!("{name} {node} {dims}D at {p:?}");
                            assert_eq!(v32.to_bits(), direct32.to_bits(), "f32 {label}");
                            let mut q64 = p;
                            q64[dims] = lut.value64(&at, p);
                            let v64 = lut.value64(&added, p);
                            assert_eq!(
                                v64.to_bits(),
                                lut.value64(&up, q64).to_bits(),
                                "f64 {label}"
                            );
                            checked += 1;
                        }
                    }
                });
            }
        }
    }
    println!("{checked} points: add-dimension = the source one dimension up, bit for bit");
}

/// `remove-dimension` of each axis in 3D and 4D is the source's graph one dimension down at
/// the point without that axis (so it does not change along it): the same bits.
#[test]
fn a_removed_dimension_is_the_source_one_dimension_down_without_the_axis() {
    let sources = [
        r#"{ "type": "simplex" }"#,
        r#"{ "type": "ridged", "source": { "type": "value", "seed": 2 } }"#,
        r#"{ "type": "cellular", "seed": 4 }"#,
        r#"{ "type": "rotate", "source": { "type": "classic" }, "angle": 0.5, "plane": "xy" }"#,
        r#"{ "type": "position", "axis": "y" }"#,
    ];
    let mut rng = Rng::new(4813);
    let mut checked = 0;
    for source in sources {
        for dims in [3, 4] {
            for (axis, name) in ["x", "y", "z", "w"].iter().enumerate().take(dims) {
                let node = format!(
                    r#"{{ "type": "remove-dimension", "source": {source}, "axis": "{name}" }}"#
                );
                let removed = program(&node, dims);
                let down = program(source, dims - 1);
                for_each_lookup(5, |lookup, lut| {
                    for reach in [4.0, 1e4] {
                        for p in points(&mut rng, dims, reach, 60) {
                            let mut q = [0.0; 4];
                            let kept = (0..dims).filter(|&a| a != axis);
                            for (b, a) in kept.enumerate() {
                                q[b] = p[a];
                            }
                            let label = format!("{lookup} {node} {dims}D at {p:?}");
                            let v32 = lut.value32(&removed, p);
                            assert_eq!(
                                v32.to_bits(),
                                lut.value32(&down, q).to_bits(),
                                "f32 {label}"
                            );
                            let mut moved = p;
                            moved[axis] += 12.5;
                            assert_eq!(
                                v32.to_bits(),
                                lut.value32(&removed, moved).to_bits(),
                                "{label}"
                            );
                            let v64 = lut.value64(&removed, p);
                            assert_eq!(
                                v64.to_bits(),
                                lut.value64(&down, q).to_bits(),
                                "f64 {label}"
                            );
                            checked += 1;
                        }
                    }
                });
            }
        }
    }
    println!("{checked} points: remove-dimension = the source one dimension down, bit for bit");
}

/// FastNoise2's pass throughs: `add-dimension` in 4D, `remove-dimension` in 2D (any axis)
/// and of `w` in 3D evaluate the source at the point itself (a driven position unread).
#[test]
fn a_4d_addition_and_a_2d_removal_pass_the_point_through() {
    let source = r#"{ "type": "fbm", "source": { "type": "simplex", "seed": 1 } }"#;
    let cases = [
        (
            4,
            format!(
                r#"{{ "type": "add-dimension", "source": {source}, "position": {{ "type": "classic" }} }}"#
            ),
        ),
        (
            2,
            format!(r#"{{ "type": "remove-dimension", "source": {source}, "axis": "x" }}"#),
        ),
        (
            2,
            format!(r#"{{ "type": "remove-dimension", "source": {source} }}"#),
        ),
        (
            3,
            format!(r#"{{ "type": "remove-dimension", "source": {source}, "axis": "w" }}"#),
        ),
    ];
    for (dims, node) in cases {
        let through = program(&node, dims);
        let plain = program(source, dims);
        assert_eq!(through.ops(), plain.ops(), "{dims}D {node}");
    }
    // FastNoise2's default axis is y.
    let default = program(
        &format!(r#"{{ "type": "remove-dimension", "source": {source} }}"#),
        3,
    );
    let y = program(
        &format!(r#"{{ "type": "remove-dimension", "source": {source}, "axis": "y" }}"#),
        3,
    );
    assert_eq!(default.ops(), y.ops());
}

/// The analytic gradient (f64) equals central differences of the f64 value within 1e-5 of
/// `1 + |∇|`, through a node-driven position too; along a removed axis it is exactly 0.
/// Continuous-kernel simplex and classic sources, whose derivatives are continuous.
#[test]
fn gradients_match_central_differences() {
    let fbm = r#"{ "type": "fbm", "source": { "type": "simplex", "kernel": "continuous" }, "octaves": 3 }"#;
    let driven = r#"{ "type": "multiply", "a": { "type": "classic", "seed": 6 }, "b": 3 }"#;
    let cases: Vec<(usize, String, Option<usize>)> = [2, 3]
        .into_iter()
        .flat_map(|dims| {
            [
                (dims, format!(r#"{{ "type": "add-dimension", "source": {fbm}, "position": 0.6 }}"#), None),
                (dims, format!(r#"{{ "type": "add-dimension", "source": {fbm}, "position": {driven} }}"#), None),
                (
                    dims,
                    format!(
                        r#"{{ "type": "add-dimension", "position": {driven}, "source":
                             {{ "type": "warp", "amplitude": 0.5, "source": {{ "type": "classic" }} }} }}"#
                    ),
                    None,
                ),
            ]
        })
        .chain([3, 4].into_iter().flat_map(|dims| {
            (0..dims).map(move |axis| {
                let name = ["x", "y", "z", "w"][axis];
                (
                    dims,
                    format!(r#"{{ "type": "remove-dimension", "source": {fbm}, "axis": "{name}" }}"#),
                    Some(axis),
                )
            })
        }))
        .collect();
    let lut = PermutationTables::new(3);
    let mut rng = Rng::new(4814);
    let (mut worst, mut checked) = (0.0f64, 0);
    let h = 1e-5;
    for (dims, node, removed) in &cases {
        let program = program(node, *dims);
        for reach in [4.0, 1e4] {
            for p in points(&mut rng, *dims, reach, 40) {
                let g = lut.gradient64(&program, p);
                assert_eq!(g[0].to_bits(), lut.value64(&program, p).to_bits());
                for a in 0..*dims {
                    let (mut hi, mut lo) = (p, p);
                    hi[a] += h;
                    lo[a] -= h;
                    let central =
                        (lut.value64(&program, hi) - lut.value64(&program, lo)) / (2.0 * h);
                    let error = (g[1 + a] - central).abs() / (1.0 + central.abs());
                    assert!(
                        error < 1e-5,
                        "{node} {dims}D at {p:?} axis {a}: {} vs {central}",
                        g[1 + a]
                    );
                    worst = worst.max(error);
                    if *removed == Some(a) {
                        assert_eq!(g[1 + a], 0.0, "{node} at {p:?}");
                    }
                    checked += 1;
                }
            }
        }
    }
    println!("{checked} derivatives: analytic vs central differences, worst {worst:.1e}");
}

/// A tiled field: `add-dimension` is refused at its JSON path (the new axis has no tile
/// period); `remove-dimension` keeps the tile of the remaining axes, which repeats.
#[test]
fn an_added_dimension_does_not_tile_and_a_removed_one_keeps_the_tile() {
    let add = graph(r#"{ "type": "add-dimension", "source": { "type": "classic" } }"#);
    let e = add.program(2, [4.0; 4]).unwrap_err();
    assert_eq!(e.path, "nodes.o");
    assert!(e.message.contains("does not tile"), "{e}");

    let lut = PermutationTables::new(2);
    let mut rng = Rng::new(4815);
    let node = r#"{ "type": "remove-dimension", "axis": "y", "source": { "type": "classic" } }"#;
    let period = [4.0f32, 6.0, 8.0, 0.0];
    let tiled = graph(node).program(3, period).unwrap();
    for p in points(&mut rng, 3, 8.0, 200) {
        let v = lut.value64(&tiled, p);
        for a in 0..3 {
            let mut moved = p;
            moved[a] += period[a] as f64;
            assert!(
                (lut.value64(&tiled, moved) - v).abs() < 1e-9,
                "{p:?} axis {a}"
            );
        }
    }
}
