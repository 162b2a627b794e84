// Gustavson's simplex noise in 2D, 3D and 4D, every table lookup a texture fetch
// (shaders/lookup.wgsl). CPU mirror: src/cpu/simplex.rs -- same names, same order of
// operations; keep the two in sync. Constants are typed f32 so they round as the CPU's do.
// Names other than the documented API carry the wgpu_noise_ / WGPU_NOISE_ prefix here
// (the CPU mirror drops it): an application embedding this source keeps its own names.
// Requires lookup, lattice.wgsl and cellular.wgsl (the vector noise reads its cell units).

const WGPU_NOISE_SIMPLEX2_F: f32 = 0.3660254037844386;   // (sqrt(3) - 1) / 2
const WGPU_NOISE_SIMPLEX2_G: f32 = 0.21132486540518713;  // (3 - sqrt(3)) / 6
const WGPU_NOISE_SIMPLEX3_F: f32 = 0.3333333333333333;   // 1 / 3
const WGPU_NOISE_SIMPLEX3_G: f32 = 0.16666666666666666;  // 1 / 6
const WGPU_NOISE_SIMPLEX4_F: f32 = 0.30901699437494745;  // (sqrt(5) - 1) / 4
const WGPU_NOISE_SIMPLEX4_G: f32 = 0.1381966011250105;   // (5 - sqrt(5)) / 20
const WGPU_NOISE_SIMPLEX2_R2: f32 = 0.5;
// Output scales of the continuous r^2 = 0.5 kernel in 3D and 4D, matched to the range of
// r^2 = 0.6 (measured; see src/cpu/simplex.rs).
const WGPU_NOISE_SIMPLEX3_R05_SCALE: f32 = 75.2;
const WGPU_NOISE_SIMPLEX4_R05_SCALE: f32 = 62.26;
const WGPU_NOISE_TAU: f32 = 6.283185307179586;
const WGPU_NOISE_SIMPLEX34_R2: f32 = 0.6;
// 2^124: coordinates are clamped to this magnitude before the skew, which would overflow
// to infinity (and give NaN) beyond it. CPU: `Real::simplex_coord_limit`.
const WGPU_NOISE_SIMPLEX_COORD_LIMIT: f32 = 2.1267647932558654e37;

// max(t, 0)^4: the radial falloff of one corner (Java: t *= t; t * t * dot).
fn wgpu_noise_falloff(t_in: f32) -> f32 {
    let t = max(t_in, 0.0);
    let t2 = t * t;
    return t2 * t2;
}

// The corners of the simplex containing a point: the offset d from each corner to the
// point, each corner's gradient g and its lattice key (wgpu_noise_lattice_keyN, the
// gradient read from it; CPU: `Corners`, `simplexN_corners`).
struct wgpu_noise_Corners2 {
    d: array<vec2<f32>, 3>,
    g: array<vec2<f32>, 3>,
    key: array<u32, 3>,
}

struct wgpu_noise_Corners3 {
    d: array<vec3<f32>, 4>,
    g: array<vec3<f32>, 4>,
    key: array<u32, 4>,
}

struct wgpu_noise_Corners4 {
    d: array<vec4<f32>, 5>,
    g: array<vec4<f32>, 5>,
    key: array<u32, 5>,
}

// One corner's contribution max(r2 - |d|^2, 0)^4 (g.d), in the Java code's order.
fn wgpu_noise_corner_value2(d: vec2<f32>, g: vec2<f32>, r2: f32) -> f32 {
    return wgpu_noise_falloff(r2 - d.x * d.x - d.y * d.y) * (g.x * d.x + g.y * d.y);
}

fn wgpu_noise_corner_value3(d: vec3<f32>, g: vec3<f32>, r2: f32) -> f32 {
    return wgpu_noise_falloff(r2 - d.x * d.x - d.y * d.y - d.z * d.z) * (g.x * d.x + g.y * d.y + g.z * d.z);
}

fn wgpu_noise_corner_value4(d: vec4<f32>, g: vec4<f32>, r2: f32) -> f32 {
    return wgpu_noise_falloff(r2 - d.x * d.x - d.y * d.y - d.z * d.z - d.w * d.w)
        * (g.x * d.x + g.y * d.y + g.z * d.z + g.w * d.w);
}

// One corner's contribution to the gradient: t^4 g - 8 t^3 (g.d) d, t = max(r2 - |d|^2, 0).
fn wgpu_noise_corner_gradient2(d: vec2<f32>, g: vec2<f32>, r2: f32) -> vec2<f32> {
    let t = max(r2 - d.x * d.x - d.y * d.y, 0.0);
    let gd = g.x * d.x + g.y * d.y;
    let t2 = t * t;
    let t4 = t2 * t2;
    let t3 = t2 * t;
    return t4 * g - 8.0 * t3 * gd * d;
}

fn wgpu_noise_corner_gradient3(d: vec3<f32>, g: vec3<f32>, r2: f32) -> vec3<f32> {
    let t = max(r2 - d.x * d.x - d.y * d.y - d.z * d.z, 0.0);
    let gd = g.x * d.x + g.y * d.y + g.z * d.z;
    let t2 = t * t;
    let t4 = t2 * t2;
    let t3 = t2 * t;
    return t4 * g - 8.0 * t3 * gd * d;
}

fn wgpu_noise_corner_gradient4(d: vec4<f32>, g: vec4<f32>, r2: f32) -> vec4<f32> {
    let t = max(r2 - d.x * d.x - d.y * d.y - d.z * d.z - d.w * d.w, 0.0);
    let gd = g.x * d.x + g.y * d.y + g.z * d.z + g.w * d.w;
    let t2 = t * t;
    let t4 = t2 * t2;
    let t3 = t2 * t;
    return t4 * g - 8.0 * t3 * gd * d;
}

// The simplex of a 2D point: skew, pick the triangle, hash the three corners.
fn wgpu_noise_simplex2_corners(p_in: vec2<f32>) -> wgpu_noise_Corners2 {
    let p = clamp(p_in, vec2<f32>(-WGPU_NOISE_SIMPLEX_COORD_LIMIT), vec2<f32>(WGPU_NOISE_SIMPLEX_COORD_LIMIT));
    let x = p.x;
    let y = p.y;
    let f2 = WGPU_NOISE_SIMPLEX2_F;
    let g2 = WGPU_NOISE_SIMPLEX2_G;
    let s = (x + y) * f2;
    let i = floor(x + s);
    let j = floor(y + s);
    let t = (i + j) * g2;
    let x0 = x - (i - t);
    let y0 = y - (j - t);
    let i1 = select(0u, 1u, x0 > y0);
    let j1 = 1u - i1;
    let x1 = x0 - f32(i1) + g2;
    let y1 = y0 - f32(j1) + g2;
    let x2 = x0 - 1.0 + 2.0 * g2;
    let y2 = y0 - 1.0 + 2.0 * g2;
    let ii = wgpu_noise_wrap256(i);
    let jj = wgpu_noise_wrap256(j);
    let k0 = wgpu_noise_lattice_key2(ii, jj);
    let k1 = wgpu_noise_lattice_key2(ii + i1, jj + j1);
    let k2 = wgpu_noise_lattice_key2(ii + 1u, jj + 1u);
    let g0 = wgpu_noise_key_grad2(k0);
    let g1 = wgpu_noise_key_grad2(k1);
    let g2v = wgpu_noise_key_grad2(k2);
    return wgpu_noise_Corners2(array<vec2<f32>, 3>(vec2<f32>(x0, y0), vec2<f32>(x1, y1), vec2<f32>(x2, y2)),
                    array<vec2<f32>, 3>(g0, g1, g2v), array<u32, 3>(k0, k1, k2));
}

// 70 (the 2D output scale) times the sum of the corners' values, in corner order.
fn wgpu_noise_simplex2_sum(c: wgpu_noise_Corners2) -> f32 {
    let r2 = WGPU_NOISE_SIMPLEX2_R2;
    return 70.0 * (wgpu_noise_corner_value2(c.d[0], c.g[0], r2) + wgpu_noise_corner_value2(c.d[1], c.g[1], r2)
        + wgpu_noise_corner_value2(c.d[2], c.g[2], r2));
}

// (value, d/dx, d/dy) of the corners' sum.
fn wgpu_noise_simplex2_value_gradient(c: wgpu_noise_Corners2) -> vec3<f32> {
    let r2 = WGPU_NOISE_SIMPLEX2_R2;
    let gradient = wgpu_noise_corner_gradient2(c.d[0], c.g[0], r2) + wgpu_noise_corner_gradient2(c.d[1], c.g[1], r2)
        + wgpu_noise_corner_gradient2(c.d[2], c.g[2], r2);
    return vec3<f32>(wgpu_noise_simplex2_sum(c), 70.0 * gradient);
}

// 2D simplex noise, in [-1, 1].
fn simplex2(p: vec2<f32>) -> f32 {
    return wgpu_noise_simplex2_sum(wgpu_noise_simplex2_corners(p));
}

// 2D simplex noise and its analytic gradient: (value, d/dx, d/dy) (Gustavson's sdnoise).
fn simplex2_deriv(p: vec2<f32>) -> vec3<f32> {
    return wgpu_noise_simplex2_value_gradient(wgpu_noise_simplex2_corners(p));
}

// Flow noise (Perlin and Neyret's rotating gradients, as psrdnoise turns them): every
// corner's gradient turned by `angle` radians, the same way at every corner. Animating the
// angle makes the pattern swirl in place; angle 0 is simplex2 bit for bit (the gradients'
// components are -1, 0 or 1, so g * cos(0) - g' * sin(0) is exactly g).
fn wgpu_noise_flow_corners2(c_in: wgpu_noise_Corners2, angle: f32) -> wgpu_noise_Corners2 {
    let cs = cos(angle);
    let sn = sin(angle);
    var c = c_in;
    for (var i = 0u; i < 3u; i = i + 1u) {
        let g = c_in.g[i];
        c.g[i] = vec2<f32>(g.x * cs - g.y * sn, g.x * sn + g.y * cs);
    }
    return c;
}

// 2D flow noise: simplex2 with gradients turned by `angle` radians, in [-1, 1].
fn flow2(p: vec2<f32>, angle: f32) -> f32 {
    return wgpu_noise_simplex2_sum(wgpu_noise_flow_corners2(wgpu_noise_simplex2_corners(p), angle));
}

// 2D flow noise and its analytic gradient: (value, d/dx, d/dy).
fn flow2_deriv(p: vec2<f32>, angle: f32) -> vec3<f32> {
    return wgpu_noise_simplex2_value_gradient(wgpu_noise_flow_corners2(wgpu_noise_simplex2_corners(p), angle));
}

// The point of the torus of simplex2_tiled for p: the circle of circumference period.x in
// (x, y) and of period.y in (z, w) (CPU: `torus_point`).
fn wgpu_noise_torus_point(p: vec2<f32>, period: vec2<f32>) -> vec4<f32> {
    let ax = p.x / period.x * WGPU_NOISE_TAU;
    let ay = p.y / period.y * WGPU_NOISE_TAU;
    let rx = period.x / WGPU_NOISE_TAU;
    let ry = period.y / WGPU_NOISE_TAU;
    return vec4<f32>(rx * cos(ax), rx * sin(ax), ry * cos(ay), ry * sin(ay));
}

// 2D simplex noise that tiles with `period` (lattice cells) along x and y: 4D simplex
// noise on a torus whose circles have circumference period.x and period.y.
fn simplex2_tiled(p: vec2<f32>, period: vec2<f32>) -> f32 {
    return simplex4(wgpu_noise_torus_point(p, period));
}

// Which of the six tetrahedra of a cube holds the offsets (x0, y0, z0): the unit steps to
// its second and third corners, by the comparisons of the Java code (>= included).
// CPU mirror: simplex3_order in src/cpu/simplex.rs.
fn wgpu_noise_simplex3_order(x0: f32, y0: f32, z0: f32) -> array<vec3<u32>, 2> {
    if (x0 >= y0) {
        if (y0 >= z0) { return array<vec3<u32>, 2>(vec3<u32>(1u, 0u, 0u), vec3<u32>(1u, 1u, 0u)); }
        if (x0 >= z0) { return array<vec3<u32>, 2>(vec3<u32>(1u, 0u, 0u), vec3<u32>(1u, 0u, 1u)); }
        return array<vec3<u32>, 2>(vec3<u32>(0u, 0u, 1u), vec3<u32>(1u, 0u, 1u));
    }
    if (y0 < z0) { return array<vec3<u32>, 2>(vec3<u32>(0u, 0u, 1u), vec3<u32>(0u, 1u, 1u)); }
    if (x0 < z0) { return array<vec3<u32>, 2>(vec3<u32>(0u, 1u, 0u), vec3<u32>(0u, 1u, 1u)); }
    return array<vec3<u32>, 2>(vec3<u32>(0u, 1u, 0u), vec3<u32>(1u, 1u, 0u));
}

// The simplex of a 3D point: skew, pick the tetrahedron, hash the four corners.
fn wgpu_noise_simplex3_corners(p_in: vec3<f32>) -> wgpu_noise_Corners3 {
    let p = clamp(p_in, vec3<f32>(-WGPU_NOISE_SIMPLEX_COORD_LIMIT), vec3<f32>(WGPU_NOISE_SIMPLEX_COORD_LIMIT));
    let x = p.x;
    let y = p.y;
    let z = p.z;
    let f3 = WGPU_NOISE_SIMPLEX3_F;
    let g3 = WGPU_NOISE_SIMPLEX3_G;
    let s = (x + y + z) * f3;
    let i = floor(x + s);
    let j = floor(y + s);
    let k = floor(z + s);
    let t = (i + j + k) * g3;
    let x0 = x - (i - t);
    let y0 = y - (j - t);
    let z0 = z - (k - t);
    let order = wgpu_noise_simplex3_order(x0, y0, z0);
    let o1 = order[0];
    let o2 = order[1];
    let x1 = x0 - f32(o1.x) + g3;
    let y1 = y0 - f32(o1.y) + g3;
    let z1 = z0 - f32(o1.z) + g3;
    let x2 = x0 - f32(o2.x) + 2.0 * g3;
    let y2 = y0 - f32(o2.y) + 2.0 * g3;
    let z2 = z0 - f32(o2.z) + 2.0 * g3;
    let x3 = x0 - 1.0 + 3.0 * g3;
    let y3 = y0 - 1.0 + 3.0 * g3;
    let z3 = z0 - 1.0 + 3.0 * g3;
    let ii = wgpu_noise_wrap256(i);
    let jj = wgpu_noise_wrap256(j);
    let kk = wgpu_noise_wrap256(k);
    let k0 = wgpu_noise_lattice_key3(ii, jj, kk);
    let k1 = wgpu_noise_lattice_key3(ii + o1.x, jj + o1.y, kk + o1.z);
    let k2 = wgpu_noise_lattice_key3(ii + o2.x, jj + o2.y, kk + o2.z);
    let k3 = wgpu_noise_lattice_key3(ii + 1u, jj + 1u, kk + 1u);
    let g0 = wgpu_noise_key_grad3(k0);
    let g1 = wgpu_noise_key_grad3(k1);
    let g2 = wgpu_noise_key_grad3(k2);
    let g3v = wgpu_noise_key_grad3(k3);
    return wgpu_noise_Corners3(
        array<vec3<f32>, 4>(vec3<f32>(x0, y0, z0), vec3<f32>(x1, y1, z1), vec3<f32>(x2, y2, z2), vec3<f32>(x3, y3, z3)),
        array<vec3<f32>, 4>(g0, g1, g2, g3v), array<u32, 4>(k0, k1, k2, k3));
}

// 3D simplex noise, in [-1, 1].
fn simplex3(p: vec3<f32>) -> f32 {
    return simplex3_r2(p, WGPU_NOISE_SIMPLEX34_R2, 32.0);
}

// `scale` times the sum of the corners' values with kernel radius r2, in corner order.
fn wgpu_noise_simplex3_sum(c: wgpu_noise_Corners3, r2: f32, scale: f32) -> f32 {
    return scale * (wgpu_noise_corner_value3(c.d[0], c.g[0], r2) + wgpu_noise_corner_value3(c.d[1], c.g[1], r2)
        + wgpu_noise_corner_value3(c.d[2], c.g[2], r2) + wgpu_noise_corner_value3(c.d[3], c.g[3], r2));
}

// (value, d/dx, d/dy, d/dz) of the corners' sum.
fn wgpu_noise_simplex3_value_gradient(c: wgpu_noise_Corners3, r2: f32, scale: f32) -> vec4<f32> {
    let gradient = wgpu_noise_corner_gradient3(c.d[0], c.g[0], r2) + wgpu_noise_corner_gradient3(c.d[1], c.g[1], r2)
        + wgpu_noise_corner_gradient3(c.d[2], c.g[2], r2) + wgpu_noise_corner_gradient3(c.d[3], c.g[3], r2);
    return vec4<f32>(wgpu_noise_simplex3_sum(c, r2, scale), scale * gradient);
}

// 3D simplex noise with squared kernel radius r2 and output scale `scale`.
fn simplex3_r2(p: vec3<f32>, r2: f32, scale: f32) -> f32 {
    return wgpu_noise_simplex3_sum(wgpu_noise_simplex3_corners(p), r2, scale);
}

// 3D simplex noise and its analytic gradient (value, d/dx, d/dy, d/dz), with squared
// kernel radius r2 and output scale `scale` (0.6 and 32 for the reference noise).
fn simplex3_deriv(p: vec3<f32>, r2: f32, scale: f32) -> vec4<f32> {
    return wgpu_noise_simplex3_value_gradient(wgpu_noise_simplex3_corners(p), r2, scale);
}

// 3D flow noise's corners: each gradient (an edge midpoint of the cube, one component 0)
// turned by `angle` radians within its own coordinate plane, about the axis k it is zero
// on: g cos + (k x g) sin. Every component product is exact, so angle 0 is simplex3 bit
// for bit and the gradient's length stays sqrt(2).
fn wgpu_noise_flow_corners3(c_in: wgpu_noise_Corners3, angle: f32) -> wgpu_noise_Corners3 {
    let cs = cos(angle);
    let sn = sin(angle);
    var c = c_in;
    for (var i = 0u; i < 4u; i = i + 1u) {
        let g = c_in.g[i];
        let k = vec3<f32>(1.0) - abs(g);
        c.g[i] = g * cs + cross(k, g) * sn;
    }
    return c;
}

// 3D flow noise: simplex3 with gradients turned by `angle` radians, in [-1, 1].
fn flow3(p: vec3<f32>, angle: f32) -> f32 {
    return flow3_r2(p, angle, WGPU_NOISE_SIMPLEX34_R2, 32.0);
}

// 3D flow noise with squared kernel radius r2 and output scale `scale` (as simplex3_r2).
fn flow3_r2(p: vec3<f32>, angle: f32, r2: f32, scale: f32) -> f32 {
    return wgpu_noise_simplex3_sum(wgpu_noise_flow_corners3(wgpu_noise_simplex3_corners(p), angle), r2, scale);
}

// 3D flow noise and its analytic gradient (value, d/dx, d/dy, d/dz) (as simplex3_deriv).
fn flow3_deriv(p: vec3<f32>, angle: f32, r2: f32, scale: f32) -> vec4<f32> {
    return wgpu_noise_simplex3_value_gradient(wgpu_noise_flow_corners3(wgpu_noise_simplex3_corners(p), angle), r2, scale);
}

// One 4D corner's lattice key.
fn wgpu_noise_simplex4_corner(cell: vec4<u32>, o: vec4<u32>) -> u32 {
    return wgpu_noise_lattice_key4(cell.x + o.x, cell.y + o.y, cell.z + o.z, cell.w + o.w);
}

// `v` unchanged, in a form that keeps a shader compiler from regrouping the sum it is part
// of (see wgpu_noise_simplex4_corners).
fn wgpu_noise_opaque(v: f32) -> f32 {
    return bitcast<f32>(bitcast<u32>(v));
}

// The simplex of a 4D point: skew, rank the offsets, hash the five corners.
fn wgpu_noise_simplex4_corners(p_in: vec4<f32>) -> wgpu_noise_Corners4 {
    let p = clamp(p_in, vec4<f32>(-WGPU_NOISE_SIMPLEX_COORD_LIMIT), vec4<f32>(WGPU_NOISE_SIMPLEX_COORD_LIMIT));
    let x = p.x;
    let y = p.y;
    let z = p.z;
    let w = p.w;
    let f4 = WGPU_NOISE_SIMPLEX4_F;
    let g4 = WGPU_NOISE_SIMPLEX4_G;
    // The sums run left to right, as on the CPU (((x + y) + z) + w): at large coordinates
    // another order rounds to another cell or rank. Mesa's GLSL compiler rebalances a chain
    // of four additions into (x + y) + (z + w) (checked on llvmpipe: 4001 of 4001 random
    // points, |GPU - CPU| up to 1.45 at |p| ~ 1e8); the bitcast round trip, exact and free,
    // is an operand it cannot see through.
    let s = (wgpu_noise_opaque(x + y + z) + w) * f4;
    let i = floor(x + s);
    let j = floor(y + s);
    let k = floor(z + s);
    let l = floor(w + s);
    let t = (wgpu_noise_opaque(i + j + k) + l) * g4;
    let x0 = x - (i - t);
    let y0 = y - (j - t);
    let z0 = z - (k - t);
    let w0 = w - (l - t);
    // Six pairwise comparisons index the traversal table.
    let c = select(0u, 32u, x0 > y0)
        + select(0u, 16u, x0 > z0)
        + select(0u, 8u, y0 > z0)
        + select(0u, 4u, x0 > w0)
        + select(0u, 2u, y0 > w0)
        + select(0u, 1u, z0 > w0);
    let order = wgpu_noise_simplex4_order(c);
    let o1 = vec4<u32>(order >= vec4<u32>(3u));
    let o2 = vec4<u32>(order >= vec4<u32>(2u));
    let o3 = vec4<u32>(order >= vec4<u32>(1u));
    let x1 = x0 - f32(o1.x) + g4;
    let y1 = y0 - f32(o1.y) + g4;
    let z1 = z0 - f32(o1.z) + g4;
    let w1 = w0 - f32(o1.w) + g4;
    let x2 = x0 - f32(o2.x) + 2.0 * g4;
    let y2 = y0 - f32(o2.y) + 2.0 * g4;
    let z2 = z0 - f32(o2.z) + 2.0 * g4;
    let w2 = w0 - f32(o2.w) + 2.0 * g4;
    let x3 = x0 - f32(o3.x) + 3.0 * g4;
    let y3 = y0 - f32(o3.y) + 3.0 * g4;
    let z3 = z0 - f32(o3.z) + 3.0 * g4;
    let w3 = w0 - f32(o3.w) + 3.0 * g4;
    let x4 = x0 - 1.0 + 4.0 * g4;
    let y4 = y0 - 1.0 + 4.0 * g4;
    let z4 = z0 - 1.0 + 4.0 * g4;
    let w4 = w0 - 1.0 + 4.0 * g4;
    let cell = vec4<u32>(wgpu_noise_wrap256(i), wgpu_noise_wrap256(j), wgpu_noise_wrap256(k), wgpu_noise_wrap256(l));
    let k0 = wgpu_noise_simplex4_corner(cell, vec4<u32>(0u));
    let k1 = wgpu_noise_simplex4_corner(cell, o1);
    let k2 = wgpu_noise_simplex4_corner(cell, o2);
    let k3 = wgpu_noise_simplex4_corner(cell, o3);
    let k4 = wgpu_noise_simplex4_corner(cell, vec4<u32>(1u));
    return wgpu_noise_Corners4(
        array<vec4<f32>, 5>(vec4<f32>(x0, y0, z0, w0), vec4<f32>(x1, y1, z1, w1), vec4<f32>(x2, y2, z2, w2),
                            vec4<f32>(x3, y3, z3, w3), vec4<f32>(x4, y4, z4, w4)),
        array<vec4<f32>, 5>(wgpu_noise_key_grad4(k0), wgpu_noise_key_grad4(k1), wgpu_noise_key_grad4(k2),
                            wgpu_noise_key_grad4(k3), wgpu_noise_key_grad4(k4)),
        array<u32, 5>(k0, k1, k2, k3, k4));
}

// 4D simplex noise, in [-1, 1].
fn simplex4(p: vec4<f32>) -> f32 {
    return simplex4_r2(p, WGPU_NOISE_SIMPLEX34_R2, 27.0);
}

// 4D simplex noise with squared kernel radius r2 and output scale `scale`.
fn simplex4_r2(p: vec4<f32>, r2: f32, scale: f32) -> f32 {
    let c = wgpu_noise_simplex4_corners(p);
    return scale * (wgpu_noise_corner_value4(c.d[0], c.g[0], r2) + wgpu_noise_corner_value4(c.d[1], c.g[1], r2)
        + wgpu_noise_corner_value4(c.d[2], c.g[2], r2) + wgpu_noise_corner_value4(c.d[3], c.g[3], r2)
        + wgpu_noise_corner_value4(c.d[4], c.g[4], r2));
}

// The analytic gradient of 4D simplex noise (d/dx, d/dy, d/dz, d/dw); the value is
// simplex4_r2 with the same arguments.
fn simplex4_gradient(p: vec4<f32>, r2: f32, scale: f32) -> vec4<f32> {
    let c = wgpu_noise_simplex4_corners(p);
    return scale * (wgpu_noise_corner_gradient4(c.d[0], c.g[0], r2) + wgpu_noise_corner_gradient4(c.d[1], c.g[1], r2)
        + wgpu_noise_corner_gradient4(c.d[2], c.g[2], r2) + wgpu_noise_corner_gradient4(c.d[3], c.g[3], r2)
        + wgpu_noise_corner_gradient4(c.d[4], c.g[4], r2));
}

// 4D simplex noise and its analytic gradient (value, d/dx, d/dy, d/dz, d/dw), with squared
// kernel radius r2 and output scale `scale`.
fn simplex4_deriv(p: vec4<f32>, r2: f32, scale: f32) -> array<f32, 5> {
    let c = wgpu_noise_simplex4_corners(p);
    let value = scale * (wgpu_noise_corner_value4(c.d[0], c.g[0], r2) + wgpu_noise_corner_value4(c.d[1], c.g[1], r2)
        + wgpu_noise_corner_value4(c.d[2], c.g[2], r2) + wgpu_noise_corner_value4(c.d[3], c.g[3], r2)
        + wgpu_noise_corner_value4(c.d[4], c.g[4], r2));
    let g = scale * (wgpu_noise_corner_gradient4(c.d[0], c.g[0], r2) + wgpu_noise_corner_gradient4(c.d[1], c.g[1], r2)
        + wgpu_noise_corner_gradient4(c.d[2], c.g[2], r2) + wgpu_noise_corner_gradient4(c.d[3], c.g[3], r2)
        + wgpu_noise_corner_gradient4(c.d[4], c.g[4], r2));
    return array<f32, 5>(value, g.x, g.y, g.z, g.w);
}

// (value, d/dx, d/dy) of a 4D (value, d/dX, d/dY, d/dZ, d/dW) at the torus point of p
// (wgpu_noise_torus_point): d/dx = -sin(ax) d/dX + cos(ax) d/dY (the circle's radius and the
// angle's rate 2 pi / period cancel), likewise for y with Z and W (CPU: `torus_gradient`).
fn wgpu_noise_torus_gradient(d: array<f32, 5>, p: vec2<f32>, period: vec2<f32>) -> vec3<f32> {
    let ax = p.x / period.x * WGPU_NOISE_TAU;
    let ay = p.y / period.y * WGPU_NOISE_TAU;
    let cx = cos(ax);
    let sx = sin(ax);
    let cy = cos(ay);
    let sy = sin(ay);
    return vec3<f32>(d[0], cx * d[2] - sx * d[1], cy * d[4] - sy * d[3]);
}

// simplex2_tiled and its gradient (value, d/dx, d/dy): the 4D gradient taken back through
// the torus.
fn simplex2_tiled_deriv(p: vec2<f32>, period: vec2<f32>) -> vec3<f32> {
    let d = simplex4_deriv(wgpu_noise_torus_point(p, period), WGPU_NOISE_SIMPLEX34_R2, 27.0);
    return wgpu_noise_torus_gradient(d, p, period);
}

// Output scale of simplex3_periodic (SIMPLEX3_PERIODIC_SCALE in src/cpu/simplex.rs).
const WGPU_NOISE_SIMPLEX3_PERIODIC_SCALE: f32 = 74.0;

// Floored modulo `period` (a whole number) of a multiple of 1/2: exact.
fn wgpu_noise_wrap_half_period(c: f32, period: u32) -> f32 {
    let p = f32(period);
    var r = c - p * floor(c / p);
    if (r < 0.0) { r = r + p; }
    if (r >= p) { r = r - p; }
    return r;
}

// One corner of simplex3_periodic: its offset to x and its lattice key. (a, b, e) is the
// corner in uvw space; in xyz it is Mi (a, b, e), half-integers, wrapped into the tile, then
// back to uvw (whole numbers) and hashed as simplex3's corners.
fn wgpu_noise_periodic3_corner(x: vec3<f32>, a: f32, b: f32, e: f32, period: vec3<u32>, d: ptr<function, vec3<f32>>) -> u32 {
    let cx = (b + e - a) * 0.5;
    let cy = (a + e - b) * 0.5;
    let cz = (a + b - e) * 0.5;
    *d = vec3<f32>(x.x - cx, x.y - cy, x.z - cz);
    let wx = wgpu_noise_wrap_half_period(cx, period.x);
    let wy = wgpu_noise_wrap_half_period(cy, period.y);
    let wz = wgpu_noise_wrap_half_period(cz, period.z);
    let ii = wgpu_noise_wrap256(wy + wz);
    let jj = wgpu_noise_wrap256(wx + wz);
    let kk = wgpu_noise_wrap256(wx + wy);
    return wgpu_noise_lattice_key3(ii, jj, kk);
}

// The simplex of a 3D point on the lattice of psrdnoise (Gustavson & McEwan 2022): points
// Mi i for whole i in uvw = (y + z, x + z, x + y) space, which integer translations along
// x, y and z map onto itself; each corner is wrapped into the tile before it is hashed.
fn wgpu_noise_simplex3_periodic_corners(x: vec3<f32>, period: vec3<u32>) -> wgpu_noise_Corners3 {
    let u = x.y + x.z;
    let v = x.x + x.z;
    let w = x.x + x.y;
    let i = floor(u);
    let j = floor(v);
    let k = floor(w);
    let fu = u - i;
    let fv = v - j;
    let fw = w - k;
    // Which of the six tetrahedra of the uvw cube: the order of the fractions.
    let order = wgpu_noise_simplex3_order(fu, fv, fw);
    let o1 = vec3<f32>(order[0]);
    let o2 = vec3<f32>(order[1]);
    var d0: vec3<f32>;
    var d1: vec3<f32>;
    var d2: vec3<f32>;
    var d3: vec3<f32>;
    let k0 = wgpu_noise_periodic3_corner(x, i, j, k, period, &d0);
    let k1 = wgpu_noise_periodic3_corner(x, i + o1.x, j + o1.y, k + o1.z, period, &d1);
    let k2 = wgpu_noise_periodic3_corner(x, i + o2.x, j + o2.y, k + o2.z, period, &d2);
    let k3 = wgpu_noise_periodic3_corner(x, i + 1.0, j + 1.0, k + 1.0, period, &d3);
    return wgpu_noise_Corners3(array<vec3<f32>, 4>(d0, d1, d2, d3),
                               array<vec3<f32>, 4>(wgpu_noise_key_grad3(k0), wgpu_noise_key_grad3(k1),
                                                   wgpu_noise_key_grad3(k2), wgpu_noise_key_grad3(k3)),
                               array<u32, 4>(k0, k1, k2, k3));
}

// 3D simplex noise that tiles with whole-number `period` along x, y and z (a different
// lattice from simplex3's, so a different pattern): continuous kernel r^2 = 0.5, in [-1, 1].
fn simplex3_periodic(p: vec3<f32>, period: vec3<u32>) -> f32 {
    return wgpu_noise_simplex3_sum(wgpu_noise_simplex3_periodic_corners(p, period), 0.5, WGPU_NOISE_SIMPLEX3_PERIODIC_SCALE);
}

// simplex3_periodic and its gradient (value, d/dx, d/dy, d/dz).
fn simplex3_periodic_deriv(p: vec3<f32>, period: vec3<u32>) -> vec4<f32> {
    return wgpu_noise_simplex3_value_gradient(wgpu_noise_simplex3_periodic_corners(p, period), 0.5,
                                              WGPU_NOISE_SIMPLEX3_PERIODIC_SCALE);
}

// Simplex noise of vectors (the `warp` node's `simplex-vector` noise, as FastNoise2's
// DomainWarpSimplex with its gradient outer product): each corner's term above,
// max(r2 - |d|^2, 0)^4 (g.d), times a vector whose component a is byte
// SIMPLEX_VECTOR_SLOT + a of the corner's hash in [-1, 1] (wgpu_noise_cell_unit, from
// cellular.wgsl), summed in corner order and scaled: one simplex serves every component.
// CPU: `simplex_vector`, `simplex_vector_deriv` in src/cpu/simplex.rs.
const WGPU_NOISE_SIMPLEX_VECTOR_SLOT: u32 = 1u;
// The scalar noise's scales: the components stay within [-1, 1] (SIMPLEX2_VECTOR_SCALE).
const WGPU_NOISE_SIMPLEX2_VECTOR_SCALE: f32 = 70.0;
const WGPU_NOISE_SIMPLEX3_VECTOR_SCALE: f32 = 32.0;
const WGPU_NOISE_SIMPLEX4_VECTOR_SCALE: f32 = 27.0;

// v[a] += u_a t for a < dims: one corner's term t, the corner of key `key`.
fn wgpu_noise_simplex_vector_value(v: ptr<function, vec4<f32>>, t: f32, key: u32, dims: u32) {
    let h = wgpu_noise_key_hash(key);
    for (var a = 0u; a < dims; a = a + 1u) {
        (*v)[a] = (*v)[a] + wgpu_noise_cell_unit(h, WGPU_NOISE_SIMPLEX_VECTOR_SLOT + a) * t;
    }
}

// rows[a][k] += u_a t[k] for a < dims and k <= dims: one corner's term and its gradient t.
fn wgpu_noise_simplex_vector_deriv_add(rows: ptr<function, array<array<f32, 5>, 4>>, t: array<f32, 5>, key: u32,
                                       dims: u32) {
    let h = wgpu_noise_key_hash(key);
    for (var a = 0u; a < dims; a = a + 1u) {
        let u = wgpu_noise_cell_unit(h, WGPU_NOISE_SIMPLEX_VECTOR_SLOT + a);
        for (var k = 0u; k <= dims; k = k + 1u) {
            (*rows)[a][k] = (*rows)[a][k] + u * t[k];
        }
    }
}

// rows times `scale`, entry by entry.
fn wgpu_noise_simplex_vector_scaled(rows: array<array<f32, 5>, 4>, scale: f32) -> array<array<f32, 5>, 4> {
    var d = rows;
    for (var a = 0u; a < 4u; a = a + 1u) {
        for (var k = 0u; k < 5u; k = k + 1u) {
            d[a][k] = rows[a][k] * scale;
        }
    }
    return d;
}

// The vector noise's sums over the corners c with squared kernel radius r2, times `scale`:
// components past the dimensions 0.
fn wgpu_noise_simplex_vector_sum2(c: wgpu_noise_Corners2, r2: f32, scale: f32) -> vec4<f32> {
    var v = vec4<f32>(0.0);
    for (var i = 0u; i < 3u; i = i + 1u) {
        wgpu_noise_simplex_vector_value(&v, wgpu_noise_corner_value2(c.d[i], c.g[i], r2), c.key[i], 2u);
    }
    return v * scale;
}

fn wgpu_noise_simplex_vector_sum3(c: wgpu_noise_Corners3, r2: f32, scale: f32) -> vec4<f32> {
    var v = vec4<f32>(0.0);
    for (var i = 0u; i < 4u; i = i + 1u) {
        wgpu_noise_simplex_vector_value(&v, wgpu_noise_corner_value3(c.d[i], c.g[i], r2), c.key[i], 3u);
    }
    return v * scale;
}

fn wgpu_noise_simplex_vector_sum4(c: wgpu_noise_Corners4, r2: f32, scale: f32) -> vec4<f32> {
    var v = vec4<f32>(0.0);
    for (var i = 0u; i < 5u; i = i + 1u) {
        wgpu_noise_simplex_vector_value(&v, wgpu_noise_corner_value4(c.d[i], c.g[i], r2), c.key[i], 4u);
    }
    return v * scale;
}

// The same sums with each component's gradient: d[a] = (component a, d/dx, ..., d/dw).
fn wgpu_noise_simplex_vector_rows2(c: wgpu_noise_Corners2, r2: f32, scale: f32) -> array<array<f32, 5>, 4> {
    var rows: array<array<f32, 5>, 4>;
    for (var i = 0u; i < 3u; i = i + 1u) {
        let g = wgpu_noise_corner_gradient2(c.d[i], c.g[i], r2);
        let t = array<f32, 5>(wgpu_noise_corner_value2(c.d[i], c.g[i], r2), g.x, g.y, 0.0, 0.0);
        wgpu_noise_simplex_vector_deriv_add(&rows, t, c.key[i], 2u);
    }
    return wgpu_noise_simplex_vector_scaled(rows, scale);
}

fn wgpu_noise_simplex_vector_rows3(c: wgpu_noise_Corners3, r2: f32, scale: f32) -> array<array<f32, 5>, 4> {
    var rows: array<array<f32, 5>, 4>;
    for (var i = 0u; i < 4u; i = i + 1u) {
        let g = wgpu_noise_corner_gradient3(c.d[i], c.g[i], r2);
        let t = array<f32, 5>(wgpu_noise_corner_value3(c.d[i], c.g[i], r2), g.x, g.y, g.z, 0.0);
        wgpu_noise_simplex_vector_deriv_add(&rows, t, c.key[i], 3u);
    }
    return wgpu_noise_simplex_vector_scaled(rows, scale);
}

fn wgpu_noise_simplex_vector_rows4(c: wgpu_noise_Corners4, r2: f32, scale: f32) -> array<array<f32, 5>, 4> {
    var rows: array<array<f32, 5>, 4>;
    for (var i = 0u; i < 5u; i = i + 1u) {
        let g = wgpu_noise_corner_gradient4(c.d[i], c.g[i], r2);
        let t = array<f32, 5>(wgpu_noise_corner_value4(c.d[i], c.g[i], r2), g.x, g.y, g.z, g.w);
        wgpu_noise_simplex_vector_deriv_add(&rows, t, c.key[i], 4u);
    }
    return wgpu_noise_simplex_vector_scaled(rows, scale);
}

// The vector noise untiled in 2D, 3D and 4D with the reference kernel: components past the
// dimensions 0.
fn wgpu_noise_simplex_vector2(p: vec2<f32>) -> vec4<f32> {
    return wgpu_noise_simplex_vector_sum2(wgpu_noise_simplex2_corners(p), WGPU_NOISE_SIMPLEX2_R2,
                                          WGPU_NOISE_SIMPLEX2_VECTOR_SCALE);
}

fn wgpu_noise_simplex_vector3(p: vec3<f32>) -> vec4<f32> {
    return wgpu_noise_simplex_vector_sum3(wgpu_noise_simplex3_corners(p), WGPU_NOISE_SIMPLEX34_R2,
                                          WGPU_NOISE_SIMPLEX3_VECTOR_SCALE);
}

fn wgpu_noise_simplex_vector4(p: vec4<f32>) -> vec4<f32> {
    return wgpu_noise_simplex_vector_sum4(wgpu_noise_simplex4_corners(p), WGPU_NOISE_SIMPLEX34_R2,
                                          WGPU_NOISE_SIMPLEX4_VECTOR_SCALE);
}

fn wgpu_noise_simplex_vector_deriv2(p: vec2<f32>) -> array<array<f32, 5>, 4> {
    return wgpu_noise_simplex_vector_rows2(wgpu_noise_simplex2_corners(p), WGPU_NOISE_SIMPLEX2_R2,
                                           WGPU_NOISE_SIMPLEX2_VECTOR_SCALE);
}

fn wgpu_noise_simplex_vector_deriv3(p: vec3<f32>) -> array<array<f32, 5>, 4> {
    return wgpu_noise_simplex_vector_rows3(wgpu_noise_simplex3_corners(p), WGPU_NOISE_SIMPLEX34_R2,
                                           WGPU_NOISE_SIMPLEX3_VECTOR_SCALE);
}

fn wgpu_noise_simplex_vector_deriv4(p: vec4<f32>) -> array<array<f32, 5>, 4> {
    return wgpu_noise_simplex_vector_rows4(wgpu_noise_simplex4_corners(p), WGPU_NOISE_SIMPLEX34_R2,
                                           WGPU_NOISE_SIMPLEX4_VECTOR_SCALE);
}

// The vector noise that tiles: in 3D on simplex3_periodic's lattice (kernel r2 = 0.5, its
// scale), in 2D the first two components of the 4D noise on simplex2_tiled's torus, each
// gradient taken back through the torus as simplex2_tiled_deriv's. CPU: `SimplexVectorForm`.
fn wgpu_noise_simplex_vector3_periodic(p: vec3<f32>, period: vec3<u32>) -> vec4<f32> {
    return wgpu_noise_simplex_vector_sum3(wgpu_noise_simplex3_periodic_corners(p, period), 0.5,
                                          WGPU_NOISE_SIMPLEX3_PERIODIC_SCALE);
}

fn wgpu_noise_simplex_vector3_periodic_deriv(p: vec3<f32>, period: vec3<u32>) -> array<array<f32, 5>, 4> {
    return wgpu_noise_simplex_vector_rows3(wgpu_noise_simplex3_periodic_corners(p, period), 0.5,
                                           WGPU_NOISE_SIMPLEX3_PERIODIC_SCALE);
}

fn wgpu_noise_simplex_vector2_tiled(p: vec2<f32>, period: vec2<f32>) -> vec4<f32> {
    let v = wgpu_noise_simplex_vector4(wgpu_noise_torus_point(p, period));
    return vec4<f32>(v.x, v.y, 0.0, 0.0);
}

fn wgpu_noise_simplex_vector2_tiled_deriv(p: vec2<f32>, period: vec2<f32>) -> array<array<f32, 5>, 4> {
    return wgpu_noise_vector2_torus_gradients(wgpu_noise_simplex_vector_deriv4(wgpu_noise_torus_point(p, period)), p,
                                              period);
}

// The first two components of a 4D vector noise's rows at the torus point of p, each
// gradient taken back through the torus; the others 0.
fn wgpu_noise_vector2_torus_gradients(d: array<array<f32, 5>, 4>, p: vec2<f32>, period: vec2<f32>) -> array<array<f32, 5>, 4> {
    var out: array<array<f32, 5>, 4>;
    for (var a = 0u; a < 2u; a = a + 1u) {
        let g = wgpu_noise_torus_gradient(d[a], p, period);
        out[a] = array<f32, 5>(g.x, g.y, g.z, 0.0, 0.0);
    }
    return out;
}
