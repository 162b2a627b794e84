// Gustavson's simplex noise in 2D, 3D and 4D, every table lookup a texture fetch
// (shaders/lookup.wgsl). CPU mirror: src/cpu/simplex.rs -- same names, same order of
// operations; keep the two in sync. Constants are typed f32 so they round as the CPU's do.

const SIMPLEX2_F: f32 = 0.3660254037844386;   // (sqrt(3) - 1) / 2
const SIMPLEX2_G: f32 = 0.21132486540518713;  // (3 - sqrt(3)) / 6
const SIMPLEX3_F: f32 = 0.3333333333333333;   // 1 / 3
const SIMPLEX3_G: f32 = 0.16666666666666666;  // 1 / 6
const SIMPLEX4_F: f32 = 0.30901699437494745;  // (sqrt(5) - 1) / 4
const SIMPLEX4_G: f32 = 0.1381966011250105;   // (5 - sqrt(5)) / 20
const SIMPLEX2_R2: f32 = 0.5;
// Output scales of the continuous r^2 = 0.5 kernel in 3D and 4D, matched to the range of
// r^2 = 0.6 (measured; see src/cpu/simplex.rs).
const SIMPLEX3_R05_SCALE: f32 = 75.2;
const SIMPLEX4_R05_SCALE: f32 = 62.26;
const TAU: f32 = 6.283185307179586;
const SIMPLEX34_R2: f32 = 0.6;

// max(t, 0)^4: the radial falloff of one corner (Java: t *= t; t * t * dot).
fn falloff(t_in: f32) -> f32 {
    let t = max(t_in, 0.0);
    let t2 = t * t;
    return t2 * t2;
}

// 2D simplex noise, in [-1, 1].
fn simplex2(p: vec2<f32>) -> f32 {
    let x = p.x;
    let y = p.y;
    let f2 = SIMPLEX2_F;
    let g2 = SIMPLEX2_G;
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
    let ii = wrap256(i);
    let jj = wrap256(j);
    let g0 = grad3_at(ii, jj);
    let g1 = grad3_at(ii + i1, jj + j1);
    let g2v = grad3_at(ii + 1u, jj + 1u);
    let r2 = SIMPLEX2_R2;
    let n0 = falloff(r2 - x0 * x0 - y0 * y0) * (g0.x * x0 + g0.y * y0);
    let n1 = falloff(r2 - x1 * x1 - y1 * y1) * (g1.x * x1 + g1.y * y1);
    let n2 = falloff(r2 - x2 * x2 - y2 * y2) * (g2v.x * x2 + g2v.y * y2);
    return 70.0 * (n0 + n1 + n2);
}

// 2D simplex noise that tiles with `period` (lattice cells) along x and y: 4D simplex
// noise on a torus whose circles have circumference period.x and period.y.
fn simplex2_tiled(p: vec2<f32>, period: vec2<f32>) -> f32 {
    let ax = p.x / period.x * TAU;
    let ay = p.y / period.y * TAU;
    let rx = period.x / TAU;
    let ry = period.y / TAU;
    return simplex4(vec4<f32>(rx * cos(ax), rx * sin(ax), ry * cos(ay), ry * sin(ay)));
}

// 3D simplex noise, in [-1, 1].
fn simplex3(p: vec3<f32>) -> f32 {
    return simplex3_r2(p, SIMPLEX34_R2, 32.0);
}

// 3D simplex noise with squared kernel radius r2 and output scale `scale`.
fn simplex3_r2(p: vec3<f32>, r2: f32, scale: f32) -> f32 {
    let x = p.x;
    let y = p.y;
    let z = p.z;
    let f3 = SIMPLEX3_F;
    let g3 = SIMPLEX3_G;
    let s = (x + y + z) * f3;
    let i = floor(x + s);
    let j = floor(y + s);
    let k = floor(z + s);
    let t = (i + j + k) * g3;
    let x0 = x - (i - t);
    let y0 = y - (j - t);
    let z0 = z - (k - t);
    // Which of the six tetrahedra: the comparisons of the Java code, >= included.
    var o1: vec3<u32>;
    var o2: vec3<u32>;
    if (x0 >= y0) {
        if (y0 >= z0) {
            o1 = vec3<u32>(1u, 0u, 0u); o2 = vec3<u32>(1u, 1u, 0u);
        } else if (x0 >= z0) {
            o1 = vec3<u32>(1u, 0u, 0u); o2 = vec3<u32>(1u, 0u, 1u);
        } else {
            o1 = vec3<u32>(0u, 0u, 1u); o2 = vec3<u32>(1u, 0u, 1u);
        }
    } else if (y0 < z0) {
        o1 = vec3<u32>(0u, 0u, 1u); o2 = vec3<u32>(0u, 1u, 1u);
    } else if (x0 < z0) {
        o1 = vec3<u32>(0u, 1u, 0u); o2 = vec3<u32>(0u, 1u, 1u);
    } else {
        o1 = vec3<u32>(0u, 1u, 0u); o2 = vec3<u32>(1u, 1u, 0u);
    }
    let x1 = x0 - f32(o1.x) + g3;
    let y1 = y0 - f32(o1.y) + g3;
    let z1 = z0 - f32(o1.z) + g3;
    let x2 = x0 - f32(o2.x) + 2.0 * g3;
    let y2 = y0 - f32(o2.y) + 2.0 * g3;
    let z2 = z0 - f32(o2.z) + 2.0 * g3;
    let x3 = x0 - 1.0 + 3.0 * g3;
    let y3 = y0 - 1.0 + 3.0 * g3;
    let z3 = z0 - 1.0 + 3.0 * g3;
    let ii = wrap256(i);
    let jj = wrap256(j);
    let kk = wrap256(k);
    // perm[ii+perm[jj+perm[kk]]] = T(ii, jj + P(kk)).
    let g0 = grad3_at(ii, jj + perm1(kk));
    let g1 = grad3_at(ii + o1.x, jj + o1.y + perm1(kk + o1.z));
    let g2 = grad3_at(ii + o2.x, jj + o2.y + perm1(kk + o2.z));
    let g3v = grad3_at(ii + 1u, jj + 1u + perm1(kk + 1u));
    let n0 = falloff(r2 - x0 * x0 - y0 * y0 - z0 * z0) * (g0.x * x0 + g0.y * y0 + g0.z * z0);
    let n1 = falloff(r2 - x1 * x1 - y1 * y1 - z1 * z1) * (g1.x * x1 + g1.y * y1 + g1.z * z1);
    let n2 = falloff(r2 - x2 * x2 - y2 * y2 - z2 * z2) * (g2.x * x2 + g2.y * y2 + g2.z * z2);
    let n3 = falloff(r2 - x3 * x3 - y3 * y3 - z3 * z3) * (g3v.x * x3 + g3v.y * y3 + g3v.z * z3);
    return scale * (n0 + n1 + n2 + n3);
}

// 4D simplex noise, in [-1, 1].
fn simplex4(p: vec4<f32>) -> f32 {
    return simplex4_r2(p, SIMPLEX34_R2, 27.0);
}

// One 4D corner's gradient: perm[ii+perm[jj+perm[kk+perm[ll]]]] = T(ii, jj + T(kk, ll)).
fn simplex4_corner(cell: vec4<u32>, o: vec4<u32>) -> vec4<f32> {
    return grad4_at(cell.x + o.x, cell.y + o.y + hash2(cell.z + o.z, cell.w + o.w));
}

// 4D simplex noise with squared kernel radius r2 and output scale `scale`.
fn simplex4_r2(p: vec4<f32>, r2: f32, scale: f32) -> f32 {
    let x = p.x;
    let y = p.y;
    let z = p.z;
    let w = p.w;
    let f4 = SIMPLEX4_F;
    let g4 = SIMPLEX4_G;
    let s = (x + y + z + w) * f4;
    let i = floor(x + s);
    let j = floor(y + s);
    let k = floor(z + s);
    let l = floor(w + s);
    let t = (i + j + k + l) * g4;
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
    let order = simplex4_order(c);
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
    let cell = vec4<u32>(wrap256(i), wrap256(j), wrap256(k), wrap256(l));
    let g0 = simplex4_corner(cell, vec4<u32>(0u));
    let g1 = simplex4_corner(cell, o1);
    let g2 = simplex4_corner(cell, o2);
    let g3 = simplex4_corner(cell, o3);
    let g4v = simplex4_corner(cell, vec4<u32>(1u));
    let n0 = falloff(r2 - x0 * x0 - y0 * y0 - z0 * z0 - w0 * w0)
        * (g0.x * x0 + g0.y * y0 + g0.z * z0 + g0.w * w0);
    let n1 = falloff(r2 - x1 * x1 - y1 * y1 - z1 * z1 - w1 * w1)
        * (g1.x * x1 + g1.y * y1 + g1.z * z1 + g1.w * w1);
    let n2 = falloff(r2 - x2 * x2 - y2 * y2 - z2 * z2 - w2 * w2)
        * (g2.x * x2 + g2.y * y2 + g2.z * z2 + g2.w * w2);
    let n3 = falloff(r2 - x3 * x3 - y3 * y3 - z3 * z3 - w3 * w3)
        * (g3.x * x3 + g3.y * y3 + g3.z * z3 + g3.w * w3);
    let n4 = falloff(r2 - x4 * x4 - y4 * y4 - z4 * z4 - w4 * w4)
        * (g4v.x * x4 + g4v.y * y4 + g4v.z * z4 + g4v.w * w4);
    return scale * (n0 + n1 + n2 + n3 + n4);
}
