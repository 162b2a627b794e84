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

/// The bound of a graph's derivatives (a gradient's ∂/∂x, ∂/∂y, ∂/∂z, every component of
/// a curl) on the GPU, relative: `|gpu − cpu| ≤ 4e-3 (1 + |cpu|)` (docs/graphs.md). They are
/// products of the slopes along the graph, which f32 resolves less well than values, and a
/// compiler that regroups a sum moves them further: measured at most 2e-4 on Vulkan and
/// 2.9e-3 on GL, the terrain example's 3D curl at offset 1e4
/// (tests/gpu/graph_gradient_parity.rs).
pub const GRAPH_DERIVATIVE_TOLERANCE: f32 = 4e-3;

/// The share of a graph's derivative values that may be past
/// [`GRAPH_DERIVATIVE_TOLERANCE`]: a derivative jumps at every kink (`abs`, `min`, `max`,
/// ridged octaves, `clamp`, terrace ramps, cellular borders), and a value within rounding
/// of one may take the other side on the GPU (docs/graphs.md).
pub const GRAPH_DERIVATIVE_KINKS: f64 = 0.01;

/// How much the parity tolerance of a domain-warped field (`field::Warp`) grows per unit
/// of warp amplitude and per iteration. Some backends fuse the warp's `p + A·d` into one
/// rounding (llvmpipe's GL does), others and the CPU round twice; at |p| up to 128
/// (offsets are reduced to there) the warped points then differ by an ulp, 7.6e-6, which
/// the noise's slope turns into value differences, growing with the amplitude and again
/// with each iteration. Measured on llvmpipe (tests/gpu/noise_warp_gpu.rs prints it):
/// up to 3.2e-4 at amplitude 1.5 with 2 iterations (1.1e-4 per unit and iteration);
/// 2e-4 leaves a margin of about 2. A wrong warp moves values by 1e-2 and more.
pub const WARP_TOLERANCE_PER_AMPLITUDE: f32 = 2e-4;

/// The value tolerance of `field`: [`PARITY_TOLERANCE`], plus
/// [`WARP_TOLERANCE_PER_AMPLITUDE`] × |amplitude| × iterations for a warped field, at most
/// [`BOUNDARY_JUMP`].
pub fn tolerance(field: &crate::field::FlagField) -> f32 {
    let w = &field.warp;
    if !w.is_active() {
        return PARITY_TOLERANCE;
    }
    let extra = WARP_TOLERANCE_PER_AMPLITUDE * w.amplitude.abs() as f32 * w.iterations as f32;
    (PARITY_TOLERANCE + extra).min(BOUNDARY_JUMP)
}

/// The value tolerance of a graph: [`PARITY_TOLERANCE`], plus
/// [`WARP_TOLERANCE_PER_AMPLITUDE`] × the sum of |amplitude| over its displacements (each
/// warp iteration is one), at most [`BOUNDARY_JUMP`]: the flags' rule ([`tolerance`]) for
/// the operations that carry it. A displaced point is off by the ulps its displacement's
/// sum, division and products are off on the GPU (GLSL allows 2.5 ulp for a division),
/// times the amplitude.
pub fn graph_tolerance(program: &crate::graph::Program) -> f32 {
    let amplitude: f32 = program
        .ops
        .iter()
        .map(|op| match op {
            crate::graph::program::Op::Displace { amplitude, .. } => amplitude.abs(),
            _ => 0.0,
        })
        .sum();
    (PARITY_TOLERANCE + WARP_TOLERANCE_PER_AMPLITUDE * amplitude).min(BOUNDARY_JUMP)
}

#[cfg(feature = "gpu")]
/// `Some(largest error)` (NaN if any value is NaN) when `gpu` differs from `cpu` beyond
/// the rule: any difference above [`BOUNDARY_JUMP`], or more differences above
/// `tolerance` ([`tolerance`]) than one per 10 000 values (at least one is allowed). With
/// `channels` = 4 (value and gradient), channels 1 to 3 get both bounds scaled by
/// [`GRADIENT_TOLERANCE_SCALE`].
pub fn parity_failure(
    gpu: &[f32],
    cpu: &[f32],
    channels: usize,
    tolerance: f32,
) -> Option<f32> {
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
        over += usize::from(e > tolerance * scale);
        jump |= e > BOUNDARY_JUMP * scale;
        max = max.max(e);
    }
    let allowed = (gpu.len() / 10_000).max(1);
    (gpu.len() != cpu.len() || jump || over > allowed).then_some(max)
}
