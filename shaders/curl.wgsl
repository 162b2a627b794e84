// Curl noise: divergence-free vector fields from the analytic derivatives of simplex noise
// (Bridson et al. 2007). Requires simplex.wgsl. CPU mirror: src/cpu/curl.rs.
//
// 2D: the gradient of simplex noise rotated by 90 degrees, (dn/dy, -dn/dx).
// 3D: the curl of a vector potential psi = (n(p + s1), n(p + s2), n(p + s3)) of three
// stretches of simplex noise far apart (decorrelated), continuous kernel r^2 = 0.5 so that
// the derivatives have no jumps:
//   curl psi = (d psi_z/dy - d psi_y/dz, d psi_x/dz - d psi_z/dx, d psi_y/dx - d psi_x/dy).
// Both are divergence-free up to rounding (div curl = 0; in 2D d2n/dxdy - d2n/dydx = 0).

// Where the three potential components sample the noise (dyadic, as WGPU_NOISE_WARP_SHIFT).
const WGPU_NOISE_CURL_SHIFT1: vec3<f32> = vec3<f32>(0.0, 0.0, 0.0);
const WGPU_NOISE_CURL_SHIFT2: vec3<f32> = vec3<f32>(31.25, -17.5, 11.75);
const WGPU_NOISE_CURL_SHIFT3: vec3<f32> = vec3<f32>(-23.5, 41.125, -37.25);

// The 2D curl noise at p.
fn curl2(p: vec2<f32>) -> vec2<f32> {
    let d = simplex2_deriv(p);
    return vec2<f32>(d.z, -d.y);
}

// The 3D curl noise at p.
fn curl3(p: vec3<f32>) -> vec3<f32> {
    let a = simplex3_deriv(p + WGPU_NOISE_CURL_SHIFT1, 0.5, WGPU_NOISE_SIMPLEX3_R05_SCALE);
    let b = simplex3_deriv(p + WGPU_NOISE_CURL_SHIFT2, 0.5, WGPU_NOISE_SIMPLEX3_R05_SCALE);
    let c = simplex3_deriv(p + WGPU_NOISE_CURL_SHIFT3, 0.5, WGPU_NOISE_SIMPLEX3_R05_SCALE);
    // a, b, c = (value, d/dx, d/dy, d/dz) of psi_x, psi_y, psi_z.
    return vec3<f32>(c.z - b.w, a.w - c.y, b.y - a.z);
}
