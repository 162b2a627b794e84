//! The `divide` and `modulus` nodes: `a / b` and the floored remainder (GLSL's `mod`, the
//! sign of `b`), both 0 where `|b|` is below f32's smallest normal number, with the
//! derivatives of docs/graphs.md, in f32 and f64.

use wgpu_noise::graph::{eval, Graph, Program};
use wgpu_noise::tables::PermutationTables;

/// `op(x, y)` of the sample point, in 2D.
fn program(op: &str) -> Program {
    let text = format!(
        r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {{ "type": "{op}",
            "a": {{ "type": "position", "axis": "x" }}, "b": {{ "type": "position", "axis": "y" }} }} }} }}"#
    );
    Graph::from_json(&text)
        .unwrap()
        .program(2, [0.0; 4])
        .unwrap()
}

/// `[value, ∂/∂x, ∂/∂y]` of `program` at `(a, b)` in f32, checked against f64.
fn at(program: &Program, a: f32, b: f32) -> [f32; 3] {
    let lut = PermutationTables::new(0);
    let v = eval::value(program, &lut, [a, b, 0.0, 0.0], &mut Vec::new());
    let d = eval::value_and_gradient(program, &lut, [a, b, 0.0, 0.0], &mut Vec::new());
    assert_eq!(
        v.to_bits(),
        d[0].to_bits(),
        "({a}, {b}): the gradient path's value"
    );
    [v, d[1], d[2]]
}

#[test]
fn divide_is_a_over_b_with_the_quotient_rule() {
    let divide = program("divide");
    for (a, b) in [(3.0f32, 2.0f32), (-1.0, 3.0), (0.25, -0.125), (1e20, 1e-20)] {
        let [v, dx, dy] = at(&divide, a, b);
        let q = (a / b).clamp(-1e30, 1e30);
        assert_eq!(v, q, "{a} / {b}");
        assert_eq!(dx, (1.0 / b).clamp(-1e30, 1e30), "∂/∂a at ({a}, {b})");
        assert_eq!(dy, (-q / b).clamp(-1e30, 1e30), "∂/∂b at ({a}, {b})");
    }
    assert_eq!(at(&divide, 3.0, 2.0), [1.5, 0.5, -0.75]);
}

#[test]
fn divide_and_modulus_are_zero_where_b_is_zero_or_subnormal() {
    for op in ["divide", "modulus"] {
        let p = program(op);
        for b in [0.0f32, -0.0, 1e-39, -1e-39, f32::MIN_POSITIVE / 2.0] {
            assert_eq!(at(&p, 3.0, b), [0.0; 3], "{op}(3, {b:e})");
        }
        // The smallest normal number is divided by.
        assert_ne!(at(&p, 3.0, f32::MIN_POSITIVE)[2], 0.0, "{op}");
    }
}

#[test]
fn modulus_is_floored_as_glsl_mod_not_truncated_as_wgsl_percent() {
    let modulus = program("modulus");
    // (a, b, a mod b, floor(a / b)): the result has the sign of b.
    for (a, b, want, whole) in [
        (5.5f32, 2.0f32, 1.5f32, 2.0f32),
        (-1.0, 3.0, 2.0, -1.0),
        (1.0, -3.0, -2.0, -1.0),
        (-7.0, -3.0, -1.0, 2.0),
        (6.0, 3.0, 0.0, 2.0),
    ] {
        assert_eq!(at(&modulus, a, b), [want, 1.0, -whole], "{a} mod {b}");
    }
}

#[test]
fn f64_follows_the_same_rules() {
    let lut = PermutationTables::new(0);
    let (d, m) = (program("divide"), program("modulus"));
    let v = |p: &Program, a: f64, b: f64| eval::value(p, &lut, [a, b, 0.0, 0.0], &mut Vec::new());
    assert_eq!(v(&d, 1.0, 3.0), 1.0 / 3.0);
    assert_eq!(
        v(&d, 1.0, 1e-300),
        0.0,
        "below f32's smallest normal number"
    );
    assert_eq!(v(&m, -1.0, 3.0), 2.0);
    assert_eq!(v(&m, 1.0, 0.0), 0.0);
}
