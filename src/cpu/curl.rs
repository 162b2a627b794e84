//! CPU mirror of `shaders/curl.wgsl`: divergence-free curl noise from the analytic
//! derivatives of simplex noise, in the shader's order of operations.

use super::lookup::NoiseHasher;
use super::real::Real;
use super::simplex::{simplex2_deriv, simplex3_deriv, SIMPLEX3_R05_SCALE};

/// Where the three potential components of [`curl3`] sample the noise
/// (`WGPU_NOISE_CURL_SHIFT1/2/3`).
pub const CURL_SHIFTS: [[f64; 3]; 3] = [
    [0.0, 0.0, 0.0],
    [31.25, -17.5, 11.75],
    [-23.5, 41.125, -37.25],
];

/// The 2D curl noise at `(x, y)`: simplex noise's gradient rotated, `(∂n/∂y, −∂n/∂x)`.
pub fn curl2<R: Real>(lut: &impl NoiseHasher, x: R, y: R) -> [R; 2] {
    let d = simplex2_deriv(lut, x, y);
    [d[2], -d[1]]
}

/// The 3D curl noise at `p`: the curl of three decorrelated simplex fields (continuous
/// kernel).
pub fn curl3<R: Real>(lut: &impl NoiseHasher, p: [R; 3]) -> [R; 3] {
    let potential = |s: [f64; 3]| {
        simplex3_deriv(
            lut,
            p[0] + R::lit(s[0]),
            p[1] + R::lit(s[1]),
            p[2] + R::lit(s[2]),
            R::lit(0.5),
            R::lit(SIMPLEX3_R05_SCALE),
        )
    };
    let a = potential(CURL_SHIFTS[0]);
    let b = potential(CURL_SHIFTS[1]);
    let c = potential(CURL_SHIFTS[2]);
    // a, b, c = [value, ∂/∂x, ∂/∂y, ∂/∂z] of ψx, ψy, ψz.
    [c[2] - b[3], a[3] - c[1], b[1] - a[2]]
}
