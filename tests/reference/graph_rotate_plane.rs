//! `rotate-plane` (FastNoise2's DomainRotatePlane): the point turned by OpenSimplex2's
//! rotation so that the xy (or xz) plane cuts the lattice evenly. Each coordinate of the
//! turned point against FastNoise2's `RotateCoords` written out here in f32 (bit for bit)
//! and in f64 (a 2D point turned as `(x, y, 0)`, as FastNoise2 adds its third axis); the map
//! is a rotation (orthonormal, determinant +1); the gradient of a noise at the turned point
//! against central differences; a tiled field refused.

use crate::common::graphs::Rng;
use wgpu_noise::graph::{eval, Graph};
use wgpu_noise::tables::PermutationTables;

// FastNoise2's literals as written.
#[allow(clippy::excessive_precision)]
const S: f32 = -0.211324865405187;
#[allow(clippy::excessive_precision)]
const T: f32 = 0.577350269189626;

fn sampler(node: &str, dims: usize) -> wgpu_noise::graph::Sampler {
    let text = format!(r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {node} }} }}"#);
    Graph::from_json(&text)
        .unwrap_or_else(|e| panic!("{node}: {e}"))
        .sampler(dims, 0)
        .unwrap()
}

/// FastNoise2's `RotateCoords` (Modifiers.inl) for `ImproveXYPlanes` (`c` = 2) or
/// `ImproveXZPlanes` (`c` = 1), in its order of operations, generic over f32 and f64.
fn fastnoise2_rotate<F>(p: [F; 4], c: usize) -> [F; 4]
where
    F: Copy + std::ops::Add<Output = F> + std::ops::Sub<Output = F> + std::ops::Mul<Output = F>,
    F: From<f32>,
{
    let b = 3 - c;
    let ab = p[0] + p[b];
    let s2 = ab * F::from(S);
    let t = p[c] * F::from(T);
    let mut q = p;
    q[0] = p[0] + s2 - t;
    q[b] = p[b] + s2 - t;
    q[c] = t + ab * F::from(T);
    q
}

#[test]
fn each_turned_coordinate_is_fastnoise2s_rotation() {
    let mut rng = Rng::new(70);
    for (plane, c) in [("xy", 2), ("xz", 1)] {
        for dims in [2, 3, 4] {
            // A 2D point's source is 3D: it reads the turned z too.
            for axis in 0..dims.max(3) {
                let name = ["x", "y", "z", "w"][axis];
                let mut s = sampler(
                    &format!(
                        r#"{{ "type": "rotate-plane", "plane": "{plane}",
                              "source": {{ "type": "position", "axis": "{name}" }} }}"#
                    ),
                    dims,
                );
                for _ in 0..500 {
                    let scale = *rng.pick(&[1.0, 100.0, 1e4]);
                    let mut p = [0.0f64; 4];
                    for v in p.iter_mut().take(dims) {
                        *v = rng.range(-scale, scale);
                    }
                    let p32 = p.map(|v| v as f32);
                    let want32 = fastnoise2_rotate(p32, c)[axis];
                    assert_eq!(
                        s.value(&p32[..dims]).to_bits(),
                        want32.to_bits(),
                        "{plane} {dims}D axis {name} at {p32:?}"
                    );
                    let want64 = fastnoise2_rotate(p, c)[axis];
                    let got64 = s.value_f64(&p[..dims]);
                    assert!(
                        (got64 - want64).abs() <= 1e-12 * (1.0 + want64.abs()),
                        "{plane} {dims}D axis {name} at {p:?}: {got64} vs {want64}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_turn_is_a_rotation() {
    for c in [2, 1] {
        // The matrix's columns: the images of the unit vectors, in f64.
        let m: Vec<[f64; 4]> = (0..3)
            .map(|k| {
                let mut e = [0.0f64; 4];
                e[k] = 1.0;
                fastnoise2_rotate(e, c)
            })
            .collect();
        for i in 0..3 {
            for j in 0..3 {
                let dot: f64 = (0..3).map(|a| m[i][a] * m[j][a]).sum();
                let want = if i == j { 1.0 } else { 0.0 };
                // The constants are 1/√3 and −(1 − 1/√3)/2 rounded to f32 (1e-8 apart).
                assert!(
                    (dot - want).abs() < 1e-7,
                    "plane {c}: columns {i}, {j}: {dot}"
                );
            }
        }
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        assert!((det - 1.0).abs() < 1e-7, "plane {c}: determinant {det}");
    }
}

/// The f64 gradient of simplex noise (the continuous kernel: no jumps for the differences
/// to straddle) at the turned point, in 3D and 4D, against central differences of the f64
/// value (step 1e-5, as `source_gradients`).
#[test]
fn the_gradient_turns_with_the_point() {
    let lut = PermutationTables::new(5);
    let mut rng = Rng::new(71);
    let mut worst = 0.0f64;
    for plane in ["xy", "xz"] {
        for dims in [2, 3, 4] {
            let program = Graph::from_json(&format!(
                r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {{ "type": "rotate-plane",
                      "plane": "{plane}", "source": {{ "type": "simplex", "kernel": "continuous" }} }} }} }}"#
            ))
            .unwrap()
            .program(dims, [0.0; 4])
            .unwrap();
            let (mut regs, mut duals) = (Vec::new(), Vec::new());
            let mut value = |p: [f64; 4]| eval::value::<f64>(&program, &lut, p, &mut regs);
            for _ in 0..500 {
                let mut p = [0.0f64; 4];
                for v in p.iter_mut().take(dims) {
                    *v = rng.range(-8.0, 8.0);
                }
                let d = eval::value_and_gradient::<f64>(&program, &lut, p, &mut duals);
                for a in 0..dims {
                    let h = 1e-5;
                    let (mut hi, mut lo) = (p, p);
                    hi[a] += h;
                    lo[a] -= h;
                    let slope = (value(hi) - value(lo)) / (hi[a] - lo[a]);
                    let e = (d[1 + a] - slope).abs() / (1.0 + slope.abs());
                    assert!(
                        e < 1e-6,
                        "{plane} {dims}D at {p:?}: ∂/∂{a} {} vs {slope}",
                        d[1 + a]
                    );
                    worst = worst.max(e);
                }
            }
        }
    }
    println!("rotate-plane of simplex: gradient within {worst:.1e} of central differences");
}

#[test]
fn a_tiled_field_is_refused_naming_the_node() {
    let graph = Graph::from_json(
        r#"{ "version": 1, "output": "o", "nodes": { "o": { "type": "rotate-plane",
             "source": { "type": "simplex" } } } }"#,
    )
    .unwrap();
    let e = graph.program(2, [4.0, 4.0, 0.0, 0.0]).unwrap_err();
    assert_eq!(e.path, "nodes.o", "{e}");
    assert!(e.message.contains("does not tile"), "{e}");
    let e = graph.program(3, [4.0, 4.0, 4.0, 0.0]).unwrap_err();
    assert_eq!(e.path, "nodes.o", "{e}");
    assert!(e.message.contains("does not tile"), "{e}");
}
