//! A graph's numbers stay finite (docs/graphs.md, "Finite numbers"): a number in a graph
//! file lies within ±1e30 and is a normal `f32` (or 0), every value, point coordinate,
//! slope and derivative a node computes is clamped to ±1e30, and so is each term of a sum
//! (a fractal's octaves, the chain rule's products). Graphs at those bounds — the issue-46
//! probes: terraces, blends, ping-pong and fractals of the largest constants, powers with an
//! infinite slope at 0, remaps of the narrowest ranges — give finite values, gradients and
//! curls in `f32` and `f64`, the lanes the scalar `f32` evaluator's bits.

use crate::common::graphs::{one_node_graph as graph, EXTREMES};

use wgpu_noise::cpu::combine::WGPU_NOISE_FINITE;
use wgpu_noise::cpu::fill::sample_point;
use wgpu_noise::cpu::simd::{self, FillOptions, SimdLevel};
use wgpu_noise::cpu::CpuLookup;
use wgpu_noise::field::{FieldOutput, FlagField, NoiseKind};
use wgpu_noise::graph::{eval, Graph, Program};
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::LookupVariant;

/// A field whose texels include the origin (where simplex and classic noise are 0) and the
/// lattice points along x (classic noise 0), with a lane remainder.
fn field(dims: usize) -> FlagField {
    let size: Vec<u32> = (0..dims).map(|a| if a == 0 { 17 } else { 3 }).collect();
    FlagField::new(NoiseKind::Simplex, &size).with_frequency(&vec![4.0; dims])
}

fn lower(what: &str, node: &str, dims: usize) -> Program {
    Graph::from_json(&graph(node))
        .unwrap_or_else(|e| panic!("{what}: {e}"))
        .program(dims, [0.0; 4])
        .unwrap_or_else(|e| panic!("{what}: {e}"))
}

fn scalar_f32(program: &Program, params: &FillParams, output: FieldOutput) -> Vec<f32> {
    let lut = PermutationTables::new(0);
    let mut out = vec![0.0f32; params.len() * output.values_per_sample(program.dims())];
    match output {
        FieldOutput::Value => wgpu_noise::graph::eval::fill_slab(program, &lut, params, &mut out),
        FieldOutput::Gradient => wgpu_noise::graph::eval::fill_slab_gradient(
            program,
            &lut,
            params,
            bytemuck::cast_slice_mut(&mut out),
        ),
        FieldOutput::Curl => {
            wgpu_noise::graph::eval::fill_slab_curl(program, &lut, params, &mut out)
        }
    }
    out
}

#[test]
fn graphs_at_the_bounds_are_finite_in_f32_f64_and_on_lanes_bit_for_bit() {
    let lut = CpuLookup::new(LookupVariant::Textures, 0);
    let tables = PermutationTables::new(0);
    for (what, node) in EXTREMES {
        for dims in [2, 3] {
            let program = lower(what, node, dims);
            let field = field(dims);
            let params = FillParams::new(&field, Slab::whole(&field));
            let outputs = [FieldOutput::Value, FieldOutput::Gradient, FieldOutput::Curl];
            for output in outputs {
                let expected = scalar_f32(&program, &params, output);
                if let Some(i) = expected.iter().position(|v| !v.is_finite()) {
                    panic!(
                        "{what}, {dims}D {output:?}: f32 value {i} is {}",
                        expected[i]
                    );
                }
                for level in SimdLevel::available() {
                    let mut got = vec![f32::NAN; expected.len()];
                    let options = FillOptions { threads: 1, level };
                    simd::fill_graph_slab_output_with(
                        &program, &lut, &params, output, &mut got, options,
                    );
                    if let Some(i) =
                        (0..got.len()).find(|&i| got[i].to_bits() != expected[i].to_bits())
                    {
                        panic!(
                            "{what}, {dims}D {output:?}, {}: lane value {i} is {:e}, the scalar {:e}",
                            level.name(),
                            got[i],
                            expected[i]
                        );
                    }
                }
            }
            let mut regs = Vec::new();
            for i in 0..params.len() as u32 {
                let index = [i % 17, (i / 17) % 3, i / 51, 0];
                let p = sample_point(&params, index).map(f64::from);
                let v = eval::value::<f64>(&program, &tables, p, &mut Vec::new());
                let g = eval::value_and_gradient::<f64>(&program, &tables, p, &mut regs);
                assert!(
                    v.is_finite() && g.iter().all(|d| d.is_finite()),
                    "{what}, {dims}D f64 at {p:?}: value {v}, gradient {g:?}"
                );
            }
        }
    }
}

/// The slope of `sign(v)|v|^e` at `v = 0` is `e·0^(e−1)`: infinite for `e < 1`, taken as
/// the bound 1e30 (so a gradient of 0 stays 0 and any other becomes ±1e30·g, clamped); 1
/// for `e = 1`; 0 above.
#[test]
fn the_slope_of_pow_at_zero_is_the_bound_below_exponent_one() {
    let tables = PermutationTables::new(0);
    let fbm = r#"{ "type": "fbm", "source": { "type": "simplex" }, "octaves": 4 }"#;
    let base = lower("fBm", fbm, 2);
    let origin = [0.0f32; 4];
    let g = eval::value_and_gradient::<f32>(&base, &tables, origin, &mut Vec::new());
    assert_eq!(g[0], 0.0, "simplex fBm is 0 at the origin");
    // One component is 0 there (the corner's gradient is along an axis): ∞ × 0 was NaN.
    assert!(g[1] != 0.0 || g[2] != 0.0, "{g:?}");
    let limit = WGPU_NOISE_FINITE as f32;
    for (exponent, slope) in [(0.5f32, limit), (1.0 / 64.0, limit), (1.0, 1.0), (2.0, 0.0)] {
        let node = format!(r#"{{ "type": "pow", "exponent": {exponent}, "source": {fbm} }}"#);
        let program = lower("pow", &node, 2);
        let got = eval::value_and_gradient::<f32>(&program, &tables, origin, &mut Vec::new());
        let want: Vec<f32> = (1..3)
            .map(|j| (slope * g[j]).clamp(-limit, limit))
            .collect();
        assert_eq!(got[0], 0.0, "exponent {exponent}: value");
        assert_eq!(&got[1..3], &want[..], "exponent {exponent}: gradient");
        let got64 = eval::value_and_gradient::<f64>(
            &program,
            &tables,
            origin.map(f64::from),
            &mut Vec::new(),
        );
        assert!(
            got64.iter().all(|d| d.is_finite()) && (got64[1] > 0.0) == (want[0] > 0.0),
            "exponent {exponent}: f64 {got64:?}"
        );
    }
}

/// Each number the spec refuses, the JSON path its error names, and words of the message.
#[test]
fn numbers_beyond_1e30_or_below_the_normal_f32_range_are_refused() {
    let cases: &[(&str, &str, &str)] = &[
        (
            r#"{ "type": "terrace", "source": 1e36, "steps": 1024, "smoothness": 0.5 }"#,
            "nodes.o.source",
            "out of range (-1e30 to 1e30)",
        ),
        (
            r#"{ "type": "blend", "a": -3.4e38, "b": 1, "t": -1 }"#,
            "nodes.o.a",
            "out of range (-1e30 to 1e30)",
        ),
        (
            r#"{ "type": "constant", "value": 3.4e38 }"#,
            "nodes.o.value",
            "out of range (-1e30 to 1e30)",
        ),
        (
            r#"{ "type": "add", "a": 1e-40, "b": 1 }"#,
            "nodes.o.a",
            "is too small for f32",
        ),
        (
            r#"{ "type": "remap", "source": { "type": "simplex" }, "from": [0, 1e-40] }"#,
            "nodes.o.from[1]",
            "is too small for f32",
        ),
    ];
    for (node, path, words) in cases {
        let e = Graph::from_json(&graph(node)).expect_err(node);
        let text = e.to_string();
        assert!(
            text.starts_with(&format!("{path}: ")) && text.contains(words),
            "{node}: expected {path}: …{words}… in {text:?}"
        );
    }
    // The bounds themselves are accepted.
    for node in [
        r#"{ "type": "constant", "value": -1e30 }"#,
        r#"{ "type": "add", "a": 1.1754944e-38, "b": 1e30 }"#,
    ] {
        Graph::from_json(&graph(node)).unwrap_or_else(|e| panic!("{node}: {e}"));
    }
}
