//! The f64 CPU reference equals Gustavson's Java code (run with a true floor) to 1e-12 at
//! every golden point: random points over [-1000, 1000]ⁿ, lattice points, cell
//! boundaries, points across the 256-cell period and far away. The golden files were made
//! by running the Java code; see `tools/golden/README.md`.

use wgpu_noise::cpu::{noise_at, Classic, NoiseFn, Simplex};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// The Java code and the f64 reference perform the same operations in the same order, so
/// the only room for difference is the last bit of a library `sqrt`/`floor`; 1e-12 is the
/// issue's bound, and the measured error is printed.
const TOLERANCE: f64 = 1e-12;

struct GoldenPoint {
    coords: Vec<f64>,
    value: f64,
}

fn golden(name: &str, dims: usize) -> Vec<GoldenPoint> {
    let path = format!("{}/tests/golden/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let points: Vec<GoldenPoint> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let numbers: Vec<f64> = l.split(' ').map(|t| t.parse().expect("a number")).collect();
            assert_eq!(numbers.len(), dims + 1, "line {l:?}");
            GoldenPoint {
                coords: numbers[..dims].to_vec(),
                value: numbers[dims],
            }
        })
        .collect();
    assert!(
        points.len() >= 500,
        "{name}: only {} golden points",
        points.len()
    );
    points
}

fn assert_matches_java(name: &str, kind: NoiseKind, dims: usize) {
    let lut = PermutationTables::default();
    let mut max_error = 0.0f64;
    for p in golden(name, dims) {
        let ours = noise_at::<f64>(&lut, kind, &p.coords);
        let error = (ours - p.value).abs();
        assert!(
            error <= TOLERANCE,
            "{name} at {:?}: ours {ours:e}, Java {:e}",
            p.coords,
            p.value
        );
        max_error = max_error.max(error);
    }
    eprintln!("{name}: max |ours - Java| = {max_error:e}");
}

#[test]
fn simplex_2d_equals_java() {
    assert_matches_java("simplex2", NoiseKind::Simplex, 2);
}

#[test]
fn simplex_3d_equals_java() {
    assert_matches_java("simplex3", NoiseKind::Simplex, 3);
}

#[test]
fn simplex_4d_equals_java() {
    assert_matches_java("simplex4", NoiseKind::Simplex, 4);
}

#[test]
fn classic_3d_equals_java() {
    assert_matches_java("classic3", NoiseKind::Classic, 3);
}

#[test]
fn noise_rs_style_entry_points_give_the_same_values() {
    let simplex = Simplex::new(0);
    let classic = Classic::new(0);
    let p = golden("simplex2", 2).remove(0);
    assert!((simplex.get([p.coords[0], p.coords[1]]) - p.value).abs() <= TOLERANCE);
    let p = golden("simplex4", 4).remove(0);
    assert!(
        (simplex.get([p.coords[0], p.coords[1], p.coords[2], p.coords[3]]) - p.value).abs()
            <= TOLERANCE
    );
    let p = golden("classic3", 3).remove(0);
    assert!((classic.get([p.coords[0], p.coords[1], p.coords[2]]) - p.value).abs() <= TOLERANCE);
}
