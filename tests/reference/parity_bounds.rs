//! The GPU-vs-CPU parity rule (`gpu::parity`): one difference of a boundary jump passes,
//! two fail, NaN fails, and gradient channels get the scaled bounds.

use wgpu_noise::gpu::parity::{parity_failure, PARITY_TOLERANCE};

#[test]
fn one_boundary_sized_difference_passes_and_two_fail() {
    let cpu = vec![0.5f32; 100];
    let mut gpu = cpu.clone();
    assert_eq!(parity_failure(&gpu, &cpu, 1, PARITY_TOLERANCE), None);
    gpu[3] += 1e-3;
    assert_eq!(parity_failure(&gpu, &cpu, 1, PARITY_TOLERANCE), None);
    gpu[7] += 1e-4;
    assert!(parity_failure(&gpu, &cpu, 1, PARITY_TOLERANCE).is_some());
}

#[test]
fn a_jump_beyond_the_boundary_bound_or_a_nan_fails() {
    let cpu = vec![0.5f32; 100];
    let mut gpu = cpu.clone();
    gpu[0] += 3e-3;
    assert!(parity_failure(&gpu, &cpu, 1, PARITY_TOLERANCE).is_some());
    gpu[0] = f32::NAN;
    assert!(parity_failure(&gpu, &cpu, 1, PARITY_TOLERANCE)
        .unwrap()
        .is_nan());
}

#[test]
fn gradient_channels_get_the_scaled_bounds() {
    let cpu = vec![0.5f32; 400];
    let mut gpu = cpu.clone();
    gpu[1] += 1.5e-2; // ∂/∂x: under 10 × BOUNDARY_JUMP
    gpu[2] += 5e-5; // ∂/∂y: under 10 × PARITY_TOLERANCE
    assert_eq!(parity_failure(&gpu, &cpu, 4, PARITY_TOLERANCE), None);
    gpu[4] += 5e-5; // a value channel: over PARITY_TOLERANCE, the second one over
    assert!(parity_failure(&gpu, &cpu, 4, PARITY_TOLERANCE).is_some());
}
