//! When a GPU result counts as equal to the f32 CPU reference: one rule, used by the
//! runtime self-check, the per-slab check on GL and `bake --verify`'s defaults.

/// The documented GPU/CPU parity tolerance (absolute, on values). On lavapipe and llvmpipe
/// the two differ by at most 8.3e-7 (tests/gpu/backend_parity.rs prints it per backend);
/// 1e-5 leaves room for other GPUs' rounding.
pub const PARITY_TOLERANCE: f32 = 1e-5;

/// The largest difference allowed at an isolated texel: a simplex 3D/4D sample within
/// rounding of a simplex boundary may jump by up to about 1e-3 with the r² = 0.6 kernel
/// (tests/gpu/gpu_parity.rs).
pub const BOUNDARY_JUMP: f32 = 2e-3;

/// How much looser the rule is on gradient channels: derivatives of simplex fBm reach about
/// ±10 per noise-space unit (values stay within ±1), so the same relative rounding is
/// about ten times the absolute error.
pub const GRADIENT_TOLERANCE_SCALE: f32 = 10.0;

/// `Some(largest error)` (NaN if any value is NaN) when `gpu` differs from `cpu` beyond
/// the rule: any difference above [`BOUNDARY_JUMP`], or more differences above
/// [`PARITY_TOLERANCE`] than one per 10 000 values (at least one is allowed). With
/// `channels` = 4 (value and gradient), channels 1 to 3 get both bounds scaled by
/// [`GRADIENT_TOLERANCE_SCALE`].
pub(crate) fn parity_failure(gpu: &[f32], cpu: &[f32], channels: usize) -> Option<f32> {
    let mut max = 0.0f32;
    let mut over = 0usize;
    let mut jump = false;
    for (i, (g, c)) in gpu.iter().zip(cpu).enumerate() {
        let scale = if i % channels == 0 {
            1.0
        } else {
            GRADIENT_TOLERANCE_SCALE
        };
        let e = (g - c).abs();
        if e.is_nan() {
            return Some(f32::NAN);
        }
        over += usize::from(e > PARITY_TOLERANCE * scale);
        jump |= e > BOUNDARY_JUMP * scale;
        max = max.max(e);
    }
    let allowed = (gpu.len() / 10_000).max(1);
    (gpu.len() != cpu.len() || jump || over > allowed).then_some(max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_boundary_sized_difference_passes_and_two_fail() {
        let cpu = vec![0.5f32; 100];
        let mut gpu = cpu.clone();
        assert_eq!(parity_failure(&gpu, &cpu, 1), None);
        gpu[3] += 1e-3;
        assert_eq!(parity_failure(&gpu, &cpu, 1), None);
        gpu[7] += 1e-4;
        assert!(parity_failure(&gpu, &cpu, 1).is_some());
    }

    #[test]
    fn a_jump_beyond_the_boundary_bound_or_a_nan_fails() {
        let cpu = vec![0.5f32; 100];
        let mut gpu = cpu.clone();
        gpu[0] += 3e-3;
        assert!(parity_failure(&gpu, &cpu, 1).is_some());
        gpu[0] = f32::NAN;
        assert!(parity_failure(&gpu, &cpu, 1).unwrap().is_nan());
    }

    #[test]
    fn gradient_channels_get_the_scaled_bounds() {
        let cpu = vec![0.5f32; 400];
        let mut gpu = cpu.clone();
        gpu[1] += 1.5e-2; // ∂/∂x: under 10 × BOUNDARY_JUMP
        gpu[2] += 5e-5; // ∂/∂y: under 10 × PARITY_TOLERANCE
        assert_eq!(parity_failure(&gpu, &cpu, 4), None);
        gpu[4] += 5e-5; // a value channel: over PARITY_TOLERANCE, the second one over
        assert!(parity_failure(&gpu, &cpu, 4).is_some());
    }
}
