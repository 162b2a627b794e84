//! Negative offsets are as precise as positive ones: the offset is reduced by whole
//! lattice periods into a range centred on 0 (`FlagField::reduced_offset`), so -3 stays -3
//! (reducing into [0, 256) moved it to 253, where f32 has 32× coarser steps).
//! Measured against the f64 reference through the f32 CPU mirror of the shaders.

use wgpu_noise::cpu::fill::{generate_f32, generate_f64};
use wgpu_noise::field::FlagField;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// |f32 - f64| per sample, sorted.
fn errors(field: &FlagField) -> Vec<f64> {
    let lut = PermutationTables::new(0);
    let f32s = generate_f32(&lut, field).unwrap();
    let f64s = generate_f64(&lut, field).unwrap();
    let mut e: Vec<f64> = f32s
        .iter()
        .zip(&f64s)
        .map(|(a, b)| (*a as f64 - b).abs())
        .collect();
    e.sort_by(f64::total_cmp);
    e
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p) as usize]
}

const FREQUENCY: [f64; 3] = [4.0, 4.0, 1.0];

/// A field spanning [start, start + frequency) on each axis, or its mirror image
/// (-start - frequency, -start] when `start` is negative, so that both cover coordinates
/// of the same magnitudes.
fn field(kind: NoiseKind, dims: usize, start: f64) -> FlagField {
    let size: &[u32] = if dims == 2 {
        &[256, 256]
    } else {
        &[64, 64, 16]
    };
    let offset: Vec<f64> = (0..dims)
        .map(|a| {
            if start < 0.0 {
                start - FREQUENCY[a]
            } else {
                start
            }
        })
        .collect();
    FlagField::new(kind, size)
        .with_frequency(&FREQUENCY)
        .with_offset(&offset)
}

#[test]
fn negative_and_positive_offsets_are_equally_precise() {
    for kind in NoiseKind::ALL {
        for dims in [2, 3] {
            for magnitude in [3.0, 100.5, 1000.25] {
                let plus = errors(&field(kind, dims, magnitude));
                let minus = errors(&field(kind, dims, -magnitude));
                let (p99_plus, p99_minus) = (percentile(&plus, 0.99), percentile(&minus, 0.99));
                let (max_plus, max_minus) = (plus[plus.len() - 1], minus[minus.len() - 1]);
                eprintln!(
                    "OFFSET {kind} {dims}D ±{magnitude}: max error +{max_plus:.2e} -{max_minus:.2e}, \
                     99th percentile +{p99_plus:.2e} -{p99_minus:.2e}"
                );
                // The same magnitude of reduced offset on both sides: the same precision,
                // up to which samples happen to round worst (2× allows for that).
                assert!(
                    p99_minus <= 2.0 * p99_plus + 1e-7 && p99_plus <= 2.0 * p99_minus + 1e-7,
                    "{kind} {dims}D ±{magnitude}: 99th percentile +{p99_plus:e} vs -{p99_minus:e}"
                );
                if dims == 2 {
                    assert!(
                        max_minus <= 2.0 * max_plus + 1e-7,
                        "{kind} 2D -{magnitude}: max error {max_minus:e} vs {max_plus:e} at +"
                    );
                }
            }
        }
    }
}
