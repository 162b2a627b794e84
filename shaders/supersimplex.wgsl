// K.jpg's OpenSimplex2S ("SuperSimplex" in FastNoise2) in 2D, 3D and 4D (below), the 3D after
// OpenSimplex2's branch-free GLSL: the body-centred cubic lattice as two cubic half-lattices
// (A on the whole points, B on the points half a step along every axis), four points of each
// around the point, each contributing max(3/4 - |d|^2, 0)^4 (g . d). The conventional
// ("Fallback") rotation, the same for every axis; each lattice point's gradient, one of the 48
// of the expanded rhombic dodecahedron, picked by a byte of its hash (lookup.wgsl /
// lookup_hash.wgsl). In [-1, 1].
// Requires lattice.wgsl, a lookup and, for the vector noise at the end, cellular.wgsl
// (wgpu_noise_cell_unit). CPU mirror: src/cpu/supersimplex.rs -- same names, same
// order of operations. Names other than the documented API carry the wgpu_noise_ prefix.

const WGPU_NOISE_SUPERSIMPLEX3_ROTATE: f32 = 0.6666666666666666;   // 2 / 3
const WGPU_NOISE_SUPERSIMPLEX3_R2: f32 = 0.75;
const WGPU_NOISE_SUPERSIMPLEX3_EXPAND: f32 = 1.224744871391589;    // sqrt(3 / 2)
const WGPU_NOISE_SUPERSIMPLEX3_SCALE0: f32 = 3.5946317686139184;
const WGPU_NOISE_SUPERSIMPLEX3_SCALE1: f32 = 3.4402695213418055;   // SCALE0 (1 - 0.042942436724648037)
const WGPU_NOISE_SUPERSIMPLEX3_NORM: f32 = 1.0;
const WGPU_NOISE_SUPERSIMPLEX3_SLOT: u32 = 0u;
const WGPU_NOISE_SUPERSIMPLEX3_B_KEY: u32 = 128u;

// Gradient n (0 to 47): bits 0 to 2 the signs of a cube vertex (set: +1), bit 3 its kind,
// n >> 4 the axis zeroed in the cuboctahedral vertex o; the rhombic part is the cube vertex
// (kind 0) or o + cube x o (kind 1); (o sqrt(3/2) + rhombic part) times the kind's scale.
fn wgpu_noise_supersimplex3_gradient(n: u32) -> vec3<f32> {
    let cube = select(vec3<f32>(-1.0), vec3<f32>(1.0), (vec3<u32>(n) & vec3<u32>(1u, 2u, 4u)) != vec3<u32>(0u));
    let kind = (n >> 3u) & 1u;
    let axis = n >> 4u;
    let o = select(cube, vec3<f32>(0.0), vec3<u32>(0u, 1u, 2u) == vec3<u32>(axis));
    let c = vec3<f32>(cube.y * o.z - cube.z * o.y, cube.z * o.x - cube.x * o.z, cube.x * o.y - cube.y * o.x);
    let rhomb = select(cube, o + c, kind == 1u);
    let scale = select(WGPU_NOISE_SUPERSIMPLEX3_SCALE0, WGPU_NOISE_SUPERSIMPLEX3_SCALE1, kind == 1u);
    return (o * WGPU_NOISE_SUPERSIMPLEX3_EXPAND + rhomb) * scale;
}

// The hash of the lattice point at offset o (0 or 1 per axis) from the lower corner of the
// unit cube the point is in: c.cell its cells, c.next the next ones along each axis, both
// wrapped; key added.
fn wgpu_noise_supersimplex3_point_hash(c: wgpu_noise_SuperSimplex3Cube, key: u32, o: vec3<u32>) -> u32 {
    let v = (select(c.cell, c.next, o == vec3<u32>(1u)) + vec3<u32>(key)) & vec3<u32>(255u);
    return wgpu_noise_cell_hash3(v.x, v.y, v.z);
}

// One lattice point's contribution and its gradient with respect to the rotated point,
// (value, d/dX, d/dY, d/dZ): the point at offset o from the lower corner of the unit cube the
// point is in, at f in it, of hash h, byte b of which picks gradient (48 b) >> 8.
fn wgpu_noise_supersimplex3_point(f: vec3<f32>, o: vec3<u32>, h: u32) -> vec4<f32> {
    let d = f - vec3<f32>(o);
    let a = max(WGPU_NOISE_SUPERSIMPLEX3_R2 - ((d.x * d.x + d.y * d.y) + d.z * d.z), 0.0);
    let g = wgpu_noise_supersimplex3_gradient((wgpu_noise_cell_byte(h, WGPU_NOISE_SUPERSIMPLEX3_SLOT) * 48u) >> 8u);
    let aa = a * a;
    let aaaa = aa * aa;
    let e = (d.x * g.x + d.y * g.y) + d.z * g.z;
    let t = -8.0 * (aa * a * e);
    return vec4<f32>(aaaa * e, t * d.x + aaaa * g.x, t * d.y + aaaa * g.y, t * d.z + aaaa * g.z);
}

// The point x's place f in its unit cube (in the lattice's frame) and the cube's cells along
// each axis, `cell` and `next`, wrapped to `period` cells (256: the lookups' own period).
struct wgpu_noise_SuperSimplex3Cube {
    f: vec3<f32>,
    cell: vec3<u32>,
    next: vec3<u32>,
}

fn wgpu_noise_supersimplex3_cube(x: vec3<f32>, period: vec3<u32>) -> wgpu_noise_SuperSimplex3Cube {
    let b = floor(x);
    let cx = wgpu_noise_cell_pair(b.x, period.x);
    let cy = wgpu_noise_cell_pair(b.y, period.y);
    let cz = wgpu_noise_cell_pair(b.z, period.z);
    return wgpu_noise_SuperSimplex3Cube(x - b, vec3<u32>(cx.x, cy.x, cz.x), vec3<u32>(cx.y, cy.y, cz.y));
}

// Of each pair of opposite corners of the unit cube at f, the one nearer f, as offsets from
// its lower corner (where both are equally near, f is outside both kernels).
fn wgpu_noise_supersimplex3_corners(f: vec3<f32>) -> array<vec3<u32>, 4> {
    let far1 = (f.x + f.y) + f.z >= 1.5;
    let far2 = (f.y + f.z) - f.x >= 0.5;
    let far3 = (f.x + f.z) - f.y >= 0.5;
    let far4 = (f.x + f.y) - f.z >= 0.5;
    return array<vec3<u32>, 4>(select(vec3<u32>(0u, 0u, 0u), vec3<u32>(1u, 1u, 1u), far1),
                               select(vec3<u32>(1u, 0u, 0u), vec3<u32>(0u, 1u, 1u), far2),
                               select(vec3<u32>(0u, 1u, 0u), vec3<u32>(1u, 0u, 1u), far3),
                               select(vec3<u32>(0u, 0u, 1u), vec3<u32>(1u, 1u, 0u), far4));
}

// One half-lattice's sum at x in the lattice's frame (its points the whole points of x's
// space), with its gradient, over wgpu_noise_supersimplex3_corners, the cells wrapped to
// `period`. The four points are written out with constant indices (here, in 2D and in the
// vector sums below): lavapipe compiles a loop over them to a gradient that differs in its
// last bits (measured on 2D and 3D bakes).
fn wgpu_noise_supersimplex3_half(x: vec3<f32>, key: u32, period: vec3<u32>) -> vec4<f32> {
    let c = wgpu_noise_supersimplex3_cube(x, period);
    let corners = wgpu_noise_supersimplex3_corners(c.f);
    var out = vec4<f32>(0.0);
    out = out + wgpu_noise_supersimplex3_point(c.f, corners[0], wgpu_noise_supersimplex3_point_hash(c, key, corners[0]));
    out = out + wgpu_noise_supersimplex3_point(c.f, corners[1], wgpu_noise_supersimplex3_point_hash(c, key, corners[1]));
    out = out + wgpu_noise_supersimplex3_point(c.f, corners[2], wgpu_noise_supersimplex3_point_hash(c, key, corners[2]));
    out = out + wgpu_noise_supersimplex3_point(c.f, corners[3], wgpu_noise_supersimplex3_point_hash(c, key, corners[3]));
    return out;
}

// The point in the lattice's frame, (2/3)(x + y + z) - p; also takes a gradient back (the
// rotation is symmetric and its own inverse).
fn wgpu_noise_supersimplex3_rotate(p: vec3<f32>) -> vec3<f32> {
    let r = ((p.x + p.y) + p.z) * WGPU_NOISE_SUPERSIMPLEX3_ROTATE;
    return vec3<f32>(r - p.x, r - p.y, r - p.z);
}

// Both half-lattices at x in the lattice's frame, the cells wrapped to `period`: (value,
// gradient in that frame) before the output scale.
fn wgpu_noise_supersimplex3_sum(x: vec3<f32>, period: vec3<u32>) -> vec4<f32> {
    let a = wgpu_noise_supersimplex3_half(x, 0u, period);
    let b = wgpu_noise_supersimplex3_half(vec3<f32>(x.x - 0.5, x.y - 0.5, x.z - 0.5), WGPU_NOISE_SUPERSIMPLEX3_B_KEY, period);
    return a + b;
}

// 3D OpenSimplex2S noise, in [-1, 1].
fn wgpu_noise_supersimplex3(p: vec3<f32>) -> f32 {
    return wgpu_noise_supersimplex3_sum(wgpu_noise_supersimplex3_rotate(p), vec3<u32>(256u)).x * WGPU_NOISE_SUPERSIMPLEX3_NORM;
}

// wgpu_noise_supersimplex3 and its gradient: (value, d/dx, d/dy, d/dz).
fn wgpu_noise_supersimplex3_deriv(p: vec3<f32>) -> vec4<f32> {
    let s = wgpu_noise_supersimplex3_sum(wgpu_noise_supersimplex3_rotate(p), vec3<u32>(256u));
    let g = wgpu_noise_supersimplex3_rotate(s.yzw);
    return vec4<f32>(s.x * WGPU_NOISE_SUPERSIMPLEX3_NORM, g.x * WGPU_NOISE_SUPERSIMPLEX3_NORM,
                     g.y * WGPU_NOISE_SUPERSIMPLEX3_NORM, g.z * WGPU_NOISE_SUPERSIMPLEX3_NORM);
}

// 3D OpenSimplex2S noise tiled with `period` whole cells per axis, in [-1, 1]: the lattice
// unrotated (the rotation maps no square period onto the lattice), its cells wrapped into the
// tile before they are hashed.
fn wgpu_noise_supersimplex3_tiled(p: vec3<f32>, period: vec3<u32>) -> f32 {
    return wgpu_noise_supersimplex3_sum(p, period).x * WGPU_NOISE_SUPERSIMPLEX3_NORM;
}

// wgpu_noise_supersimplex3_tiled and its gradient: (value, d/dx, d/dy, d/dz).
fn wgpu_noise_supersimplex3_tiled_deriv(p: vec3<f32>, period: vec3<u32>) -> vec4<f32> {
    return wgpu_noise_supersimplex3_sum(p, period) * WGPU_NOISE_SUPERSIMPLEX3_NORM;
}

// 2D: the triangular lattice of simplex noise's skew, the kernel max(2/3 - |d|^2, 0)^4, four
// points of the rhombic cell the point is in (every point within reach), picked as the Java's
// branches pick them; 24 gradients (7.5 + 15 k degrees, the Java's table over its normaliser)
// by a byte of the point's hash.
const WGPU_NOISE_SUPERSIMPLEX2_SKEW: f32 = 0.3660254037844386;
const WGPU_NOISE_SUPERSIMPLEX2_UNSKEW: f32 = -0.21132486540518713;
const WGPU_NOISE_SUPERSIMPLEX2_R2: f32 = 0.6666666666666666;
const WGPU_NOISE_SUPERSIMPLEX2_G0: vec2<f32> = vec2<f32>(18.085899431608684, 2.3810538312857545);
const WGPU_NOISE_SUPERSIMPLEX2_G1: vec2<f32> = vec2<f32>(16.853375273706543, 6.980896610132626);
const WGPU_NOISE_SUPERSIMPLEX2_G2: vec2<f32> = vec2<f32>(14.472321442420789, 11.105002821476075);
const WGPU_NOISE_SUPERSIMPLEX2_NORM: f32 = 1.0;

// 2D gradient n (0 to 23): n >> 3 picks G0, G1 or G2, bit 2 swaps its components, bits 0
// and 1 negate x and y.
fn wgpu_noise_supersimplex2_gradient(n: u32) -> vec2<f32> {
    let k = n >> 3u;
    let base = select(select(WGPU_NOISE_SUPERSIMPLEX2_G0, WGPU_NOISE_SUPERSIMPLEX2_G1, k == 1u),
                      WGPU_NOISE_SUPERSIMPLEX2_G2, k == 2u);
    let uv = select(base, base.yx, (n & 4u) != 0u);
    let sx = select(1.0, -1.0, (n & 1u) != 0u);
    let sy = select(1.0, -1.0, (n & 2u) != 0u);
    return vec2<f32>(uv.x * sx, uv.y * sy);
}

// The hash of the 2D lattice point hv steps (wrapped, 255 for -1) from the point's cell.
fn wgpu_noise_supersimplex2_point_hash(cell: vec2<u32>, hv: vec2<u32>) -> u32 {
    let h = (cell + hv) & vec2<u32>(255u);
    return wgpu_noise_cell_hash2(h.x, h.y);
}

// One 2D lattice point's contribution and its gradient, (value, d/dx, d/dy): the point v
// (skewed, whole numbers -1 to 2 from the point's cell) of hash h.
fn wgpu_noise_supersimplex2_point(d0: vec2<f32>, v: vec2<f32>, h: u32) -> vec3<f32> {
    let t = (v.x + v.y) * WGPU_NOISE_SUPERSIMPLEX2_UNSKEW;
    let d = vec2<f32>(d0.x - (v.x + t), d0.y - (v.y + t));
    let a = max(WGPU_NOISE_SUPERSIMPLEX2_R2 - (d.x * d.x + d.y * d.y), 0.0);
    let g = wgpu_noise_supersimplex2_gradient((wgpu_noise_cell_byte(h, WGPU_NOISE_SUPERSIMPLEX3_SLOT) * 24u) >> 8u);
    let aa = a * a;
    let aaaa = aa * aa;
    let e = d.x * g.x + d.y * g.y;
    let s = -8.0 * (aa * a * e);
    return vec3<f32>(aaaa * e, s * d.x + aaaa * g.x, s * d.y + aaaa * g.y);
}

// The 2D lattice points around p: `offset`, p's offset from its rhombic cell's corner (d0
// below; a member name may not end in a digit for naga_oil), the cell (wrapped) and four
// points, each its skewed offset v from the cell and its wrapped steps hv: the corners (0, 0)
// and (1, 1) and two more, picked as the Java's branches pick them.
struct wgpu_noise_SuperSimplex2Points {
    offset: vec2<f32>,
    cell: vec2<u32>,
    v: array<vec2<f32>, 4>,
    hv: array<vec2<u32>, 4>,
}

fn wgpu_noise_supersimplex2_points(p: vec2<f32>) -> wgpu_noise_SuperSimplex2Points {
    let s = (p.x + p.y) * WGPU_NOISE_SUPERSIMPLEX2_SKEW;
    let xs = vec2<f32>(p.x + s, p.y + s);
    let b = floor(xs);
    let i = xs - b;
    let cell = vec2<u32>(wgpu_noise_wrap256(b.x), wgpu_noise_wrap256(b.y));
    let t = (i.x + i.y) * WGPU_NOISE_SUPERSIMPLEX2_UNSKEW;
    let d0 = vec2<f32>(i.x + t, i.y + t);
    let xmy = i.x - i.y;
    let far = i.x + i.y > 1.0;
    var v2 = select(vec2<f32>(1.0, 0.0), vec2<f32>(-1.0, 0.0), i.x + xmy < 0.0);
    var h2 = select(vec2<u32>(1u, 0u), vec2<u32>(255u, 0u), i.x + xmy < 0.0);
    var v3 = select(vec2<f32>(0.0, 1.0), vec2<f32>(0.0, -1.0), i.y < xmy);
    var h3 = select(vec2<u32>(0u, 1u), vec2<u32>(0u, 255u), i.y < xmy);
    if (far) {
        v2 = select(vec2<f32>(0.0, 1.0), vec2<f32>(2.0, 1.0), i.x + xmy > 1.0);
        h2 = select(vec2<u32>(0u, 1u), vec2<u32>(2u, 1u), i.x + xmy > 1.0);
        v3 = select(vec2<f32>(1.0, 0.0), vec2<f32>(1.0, 2.0), i.y - xmy > 1.0);
        h3 = select(vec2<u32>(1u, 0u), vec2<u32>(1u, 2u), i.y - xmy > 1.0);
    }
    return wgpu_noise_SuperSimplex2Points(d0, cell,
        array<vec2<f32>, 4>(vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 1.0), v2, v3),
        array<vec2<u32>, 4>(vec2<u32>(0u, 0u), vec2<u32>(1u, 1u), h2, h3));
}

// The 2D sum at p before the output scale: (value, d/dx, d/dy).
fn wgpu_noise_supersimplex2_sum(p: vec2<f32>) -> vec3<f32> {
    let c = wgpu_noise_supersimplex2_points(p);
    var out = vec3<f32>(0.0);
    out = out + wgpu_noise_supersimplex2_point(c.offset, c.v[0], wgpu_noise_supersimplex2_point_hash(c.cell, c.hv[0]));
    out = out + wgpu_noise_supersimplex2_point(c.offset, c.v[1], wgpu_noise_supersimplex2_point_hash(c.cell, c.hv[1]));
    out = out + wgpu_noise_supersimplex2_point(c.offset, c.v[2], wgpu_noise_supersimplex2_point_hash(c.cell, c.hv[2]));
    out = out + wgpu_noise_supersimplex2_point(c.offset, c.v[3], wgpu_noise_supersimplex2_point_hash(c.cell, c.hv[3]));
    return out;
}

// 2D OpenSimplex2S noise, in [-1, 1]. It does not tile.
fn wgpu_noise_supersimplex2(p: vec2<f32>) -> f32 {
    return wgpu_noise_supersimplex2_sum(p).x * WGPU_NOISE_SUPERSIMPLEX2_NORM;
}

// wgpu_noise_supersimplex2 and its gradient: (value, d/dx, d/dy).
fn wgpu_noise_supersimplex2_deriv(p: vec2<f32>) -> vec3<f32> {
    return wgpu_noise_supersimplex2_sum(p) * WGPU_NOISE_SUPERSIMPLEX2_NORM;
}

// 4D: FastNoise2's walk of the 4D simplex lattice (simplex noise's skew (sqrt(5) - 1)/4):
// the nearest lattice point (its comparison chain) and of each of fifteen pairs v, -v of
// lattice points (WGPU_NOISE_SUPERSIMPLEX4_VERTICES in the CPU mirror) the one facing the
// point, sixteen in all; kernel max(18/25 - |d|^2, 0)^4, the largest radius at which those
// sixteen are every lattice point within reach (FastNoise2's 4/5 misses some); Gustavson's
// 32 gradients by a byte of the point's hash (b >> 3).
const WGPU_NOISE_SUPERSIMPLEX4_SKEW: f32 = 0.30901699437494745;
const WGPU_NOISE_SUPERSIMPLEX4_UNSKEW: f32 = -0.1381966011250105;
const WGPU_NOISE_SUPERSIMPLEX4_R2: f32 = 0.72;
const WGPU_NOISE_SUPERSIMPLEX4_NORM: f32 = 9.0;

// 4D gradient n (0 to 31), Gustavson's grad4[n]: n >> 3 the axis that is 0, bits 2, 1 and 0
// the signs (set: -1) of the other three in order.
fn wgpu_noise_supersimplex4_gradient(n: u32) -> vec4<f32> {
    let axis = n >> 3u;
    let k = vec4<u32>(0u, 1u, 2u, 3u);
    let bit = select(vec4<u32>(8u) >> k, vec4<u32>(4u) >> k, vec4<u32>(axis) > k);
    let signed = select(vec4<f32>(1.0), vec4<f32>(-1.0), (vec4<u32>(n) & bit) != vec4<u32>(0u));
    return select(signed, vec4<f32>(0.0), k == vec4<u32>(axis));
}

// Which corner of the skewed unit cell at i (the point's place in it) is the nearest lattice
// point, a bit per axis: FastNoise2's chain, each vertex's score against the best so far.
fn wgpu_noise_supersimplex4_nearest(i: vec4<f32>) -> u32 {
    let twice = (((i.x + i.y) + i.z) + i.w) * -0.2;
    let n = vec4<f32>(i.x + twice, i.y + twice, i.z + twice, i.w + twice);
    let total = -twice;
    var best = 0.6 - total;
    var bits = select(0u, 15u, 0.2 > best);
    best = max(best, 0.2);
    bits = select(bits, 7u, -n.w > best); best = max(best, -n.w);
    bits = select(bits, 11u, -n.z > best); best = max(best, -n.z);
    bits = select(bits, 13u, -n.y > best); best = max(best, -n.y);
    bits = select(bits, 14u, -n.x > best); best = max(best, -n.x);
    best = best + (total - 0.2);
    bits = select(bits, 1u, n.x > best); best = max(best, n.x);
    bits = select(bits, 2u, n.y > best); best = max(best, n.y);
    bits = select(bits, 4u, n.z > best); best = max(best, n.z);
    bits = select(bits, 8u, n.w > best); best = max(best, n.w);
    best = best + (0.2 - n.x);
    bits = select(bits, 3u, n.y > best); best = max(best, n.y);
    bits = select(bits, 5u, n.z > best); best = max(best, n.z);
    bits = select(bits, 9u, n.w > best); best = max(best, n.w);
    best = best + n.x;
    let yz = n.y + n.z;
    bits = select(bits, 6u, yz > best); best = max(best, yz);
    best = best - n.w;
    bits = select(bits, 10u, n.y > best); best = max(best, n.y);
    bits = select(bits, 12u, n.z > best);
    return bits;
}

// The point on the 4D lattice, moved to the nearest lattice point: `offset`, its unskewed
// offset from it; `cell`, its skewed coordinates wrapped (masked when hashed); `normal`, the
// vector whose dot product with a skewed offset is the unskewed one's with `offset`.
struct wgpu_noise_SuperSimplex4Walk {
    offset: vec4<f32>,
    cell: vec4<u32>,
    normal: vec4<f32>,
}

fn wgpu_noise_supersimplex4_walk(p: vec4<f32>) -> wgpu_noise_SuperSimplex4Walk {
    let s = (((p.x + p.y) + p.z) + p.w) * WGPU_NOISE_SUPERSIMPLEX4_SKEW;
    let xs = vec4<f32>(p.x + s, p.y + s, p.z + s, p.w + s);
    let b = floor(xs);
    let nearest = wgpu_noise_supersimplex4_nearest(xs - b);
    let m = (vec4<u32>(nearest) >> vec4<u32>(0u, 1u, 2u, 3u)) & vec4<u32>(1u);
    let i = (xs - b) - vec4<f32>(m);
    let cell = vec4<u32>(wgpu_noise_wrap256(b.x), wgpu_noise_wrap256(b.y), wgpu_noise_wrap256(b.z), wgpu_noise_wrap256(b.w)) + m;
    let sum = ((i.x + i.y) + i.z) + i.w;
    let twice = sum * -0.2;
    let t = sum * WGPU_NOISE_SUPERSIMPLEX4_UNSKEW;
    return wgpu_noise_SuperSimplex4Walk(vec4<f32>(i.x + t, i.y + t, i.z + t, i.w + t), cell,
                                        vec4<f32>(i.x + twice, i.y + twice, i.z + twice, i.w + twice));
}

// Whether the walk takes -v rather than v: where the unskewed v points away from the point.
fn wgpu_noise_supersimplex4_flip(normal: vec4<f32>, v: vec4<u32>) -> bool {
    let t = normal * vec4<f32>(v);
    return ((t.x + t.y) + t.z) + t.w < 0.0;
}

// The hash of the walk's lattice point v (or -v where flip) from the nearest.
fn wgpu_noise_supersimplex4_point_hash(cell: vec4<u32>, v: vec4<u32>, flip: bool) -> u32 {
    let h = (cell + select(v, vec4<u32>(256u) - v, flip)) & vec4<u32>(255u);
    return wgpu_noise_cell_hash4(h.x, h.y, h.z, h.w);
}

// One 4D lattice point's contribution and its gradient, (value, d/dx, ..., d/dw): the point v
// (or -v where flip) from the nearest, of hash h, byte b of which picks gradient b >> 3.
fn wgpu_noise_supersimplex4_point(offset: vec4<f32>, v: vec4<u32>, flip: bool, h: u32) -> array<f32, 5> {
    let sv = select(vec4<f32>(v), -vec4<f32>(v), flip);
    let t = (((sv.x + sv.y) + sv.z) + sv.w) * WGPU_NOISE_SUPERSIMPLEX4_UNSKEW;
    let d = vec4<f32>(offset.x - (sv.x + t), offset.y - (sv.y + t), offset.z - (sv.z + t), offset.w - (sv.w + t));
    let a = max(WGPU_NOISE_SUPERSIMPLEX4_R2 - ((d.x * d.x + d.y * d.y) + (d.z * d.z + d.w * d.w)), 0.0);
    let g = wgpu_noise_supersimplex4_gradient(wgpu_noise_cell_byte(h, WGPU_NOISE_SUPERSIMPLEX3_SLOT) >> 3u);
    let aa = a * a;
    let aaaa = aa * aa;
    let e = (d.x * g.x + d.y * g.y) + (d.z * g.z + d.w * g.w);
    let s = -8.0 * (aa * a * e);
    return array<f32, 5>(aaaa * e, s * d.x + aaaa * g.x, s * d.y + aaaa * g.y, s * d.z + aaaa * g.z,
                         s * d.w + aaaa * g.w);
}

// out += the walk's point v (or -v where its flip says), at constant v.
fn wgpu_noise_supersimplex4_add(out: ptr<function, array<f32, 5>>, w: wgpu_noise_SuperSimplex4Walk, v: vec4<u32>) {
    let flip = wgpu_noise_supersimplex4_flip(w.normal, v);
    let c = wgpu_noise_supersimplex4_point(w.offset, v, flip, wgpu_noise_supersimplex4_point_hash(w.cell, v, flip));
    (*out)[0] = (*out)[0] + c[0];
    (*out)[1] = (*out)[1] + c[1];
    (*out)[2] = (*out)[2] + c[2];
    (*out)[3] = (*out)[3] + c[3];
    (*out)[4] = (*out)[4] + c[4];
}

// The 4D sum at p before the output scale: (value, d/dx, ..., d/dw), the sixteen points in
// the CPU's order (the nearest, then the pairs), written out with constant vertices.
fn wgpu_noise_supersimplex4_sum(p: vec4<f32>) -> array<f32, 5> {
    let w = wgpu_noise_supersimplex4_walk(p);
    var out = array<f32, 5>(0.0, 0.0, 0.0, 0.0, 0.0);
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(0u, 0u, 0u, 0u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(1u, 1u, 1u, 1u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(1u, 1u, 1u, 0u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(1u, 1u, 0u, 1u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(1u, 0u, 1u, 1u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(0u, 1u, 1u, 1u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(1u, 0u, 0u, 0u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(1u, 1u, 0u, 0u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(1u, 0u, 1u, 0u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(1u, 0u, 0u, 1u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(0u, 1u, 0u, 0u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(0u, 1u, 1u, 0u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(0u, 1u, 0u, 1u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(0u, 0u, 1u, 0u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(0u, 0u, 1u, 1u));
    wgpu_noise_supersimplex4_add(&out, w, vec4<u32>(0u, 0u, 0u, 1u));
    return out;
}

// 4D OpenSimplex2S noise, in [-1, 1]. It does not tile.
fn wgpu_noise_supersimplex4(p: vec4<f32>) -> f32 {
    return wgpu_noise_supersimplex4_sum(p)[0] * WGPU_NOISE_SUPERSIMPLEX4_NORM;
}

// wgpu_noise_supersimplex4 and its gradient: (value, d/dx, d/dy, d/dz, d/dw).
fn wgpu_noise_supersimplex4_deriv(p: vec4<f32>) -> array<f32, 5> {
    let s = wgpu_noise_supersimplex4_sum(p);
    let n = WGPU_NOISE_SUPERSIMPLEX4_NORM;
    return array<f32, 5>(s[0] * n, s[1] * n, s[2] * n, s[3] * n, s[4] * n);
}

// 2D OpenSimplex2S noise that tiles with `period` (lattice cells) along x and y: the 4D
// noise on simplex2_tiled's torus (simplex.wgsl) (CPU: `supersimplex2_tiled`).
fn wgpu_noise_supersimplex2_tiled(p: vec2<f32>, period: vec2<f32>) -> f32 {
    return wgpu_noise_supersimplex4(wgpu_noise_torus_point(p, period));
}

// wgpu_noise_supersimplex2_tiled and its gradient (value, d/dx, d/dy): the 4D gradient taken
// back through the torus.
fn wgpu_noise_supersimplex2_tiled_deriv(p: vec2<f32>, period: vec2<f32>) -> vec3<f32> {
    return wgpu_noise_torus_gradient(wgpu_noise_supersimplex4_deriv(wgpu_noise_torus_point(p, period)), p, period);
}

// OpenSimplex2S noise of vectors (the `warp` node's `supersimplex-vector` noise, as
// FastNoise2's DomainWarpSuperSimplex with its gradient outer product): each lattice point's
// contribution above times a vector whose component a is byte SUPERSIMPLEX_VECTOR_SLOT + a of
// the point's hash in [-1, 1] (wgpu_noise_cell_unit), summed: one walk of the lattice serves
// every component. Each row a holds component a and its gradient (in 3D, in the rotated frame
// until taken back).
const WGPU_NOISE_SUPERSIMPLEX_VECTOR_SLOT: u32 = 1u;
const WGPU_NOISE_SUPERSIMPLEX2_VECTOR_NORM: f32 = 1.0;
const WGPU_NOISE_SUPERSIMPLEX3_VECTOR_NORM: f32 = 1.0;
const WGPU_NOISE_SUPERSIMPLEX4_VECTOR_NORM: f32 = 9.0;

// rows[a] += u_a c for a < dims: one lattice point's contribution c of hash h.
fn wgpu_noise_supersimplex_vector_point(rows: ptr<function, array<vec4<f32>, 3>>, c: vec4<f32>, h: u32, dims: u32) {
    for (var a = 0u; a < dims; a = a + 1u) {
        let u = wgpu_noise_cell_unit(h, WGPU_NOISE_SUPERSIMPLEX_VECTOR_SLOT + a);
        (*rows)[a] = (*rows)[a] + u * c;
    }
}

fn wgpu_noise_supersimplex2_vector_sum(p: vec2<f32>) -> array<vec4<f32>, 3> {
    let c = wgpu_noise_supersimplex2_points(p);
    var rows: array<vec4<f32>, 3>;
    let h0 = wgpu_noise_supersimplex2_point_hash(c.cell, c.hv[0]);
    wgpu_noise_supersimplex_vector_point(&rows, vec4<f32>(wgpu_noise_supersimplex2_point(c.offset, c.v[0], h0), 0.0), h0, 2u);
    let h1 = wgpu_noise_supersimplex2_point_hash(c.cell, c.hv[1]);
    wgpu_noise_supersimplex_vector_point(&rows, vec4<f32>(wgpu_noise_supersimplex2_point(c.offset, c.v[1], h1), 0.0), h1, 2u);
    let h2 = wgpu_noise_supersimplex2_point_hash(c.cell, c.hv[2]);
    wgpu_noise_supersimplex_vector_point(&rows, vec4<f32>(wgpu_noise_supersimplex2_point(c.offset, c.v[2], h2), 0.0), h2, 2u);
    let h3 = wgpu_noise_supersimplex2_point_hash(c.cell, c.hv[3]);
    wgpu_noise_supersimplex_vector_point(&rows, vec4<f32>(wgpu_noise_supersimplex2_point(c.offset, c.v[3], h3), 0.0), h3, 2u);
    return rows;
}

fn wgpu_noise_supersimplex3_vector_half(rows: ptr<function, array<vec4<f32>, 3>>, x: vec3<f32>, key: u32,
                                         period: vec3<u32>) {
    let c = wgpu_noise_supersimplex3_cube(x, period);
    let o = wgpu_noise_supersimplex3_corners(c.f);
    let h0 = wgpu_noise_supersimplex3_point_hash(c, key, o[0]);
    wgpu_noise_supersimplex_vector_point(rows, wgpu_noise_supersimplex3_point(c.f, o[0], h0), h0, 3u);
    let h1 = wgpu_noise_supersimplex3_point_hash(c, key, o[1]);
    wgpu_noise_supersimplex_vector_point(rows, wgpu_noise_supersimplex3_point(c.f, o[1], h1), h1, 3u);
    let h2 = wgpu_noise_supersimplex3_point_hash(c, key, o[2]);
    wgpu_noise_supersimplex_vector_point(rows, wgpu_noise_supersimplex3_point(c.f, o[2], h2), h2, 3u);
    let h3 = wgpu_noise_supersimplex3_point_hash(c, key, o[3]);
    wgpu_noise_supersimplex_vector_point(rows, wgpu_noise_supersimplex3_point(c.f, o[3], h3), h3, 3u);
}

// The 3D vector sum at x in the lattice's frame, the cells wrapped to `period`.
fn wgpu_noise_supersimplex3_vector_sum(x: vec3<f32>, period: vec3<u32>) -> array<vec4<f32>, 3> {
    var rows: array<vec4<f32>, 3>;
    wgpu_noise_supersimplex3_vector_half(&rows, x, 0u, period);
    wgpu_noise_supersimplex3_vector_half(&rows, vec3<f32>(x.x - 0.5, x.y - 0.5, x.z - 0.5), WGPU_NOISE_SUPERSIMPLEX3_B_KEY,
                                         period);
    return rows;
}

// rows[a][k] += u_a c[k] for a < 4, k <= 4: one 4D lattice point's contribution c of hash h.
fn wgpu_noise_supersimplex4_vector_add(rows: ptr<function, array<array<f32, 5>, 4>>, w: wgpu_noise_SuperSimplex4Walk,
                                       v: vec4<u32>) {
    let flip = wgpu_noise_supersimplex4_flip(w.normal, v);
    let h = wgpu_noise_supersimplex4_point_hash(w.cell, v, flip);
    let c = wgpu_noise_supersimplex4_point(w.offset, v, flip, h);
    for (var a = 0u; a < 4u; a = a + 1u) {
        let u = wgpu_noise_cell_unit(h, WGPU_NOISE_SUPERSIMPLEX_VECTOR_SLOT + a);
        (*rows)[a][0] = (*rows)[a][0] + u * c[0];
        (*rows)[a][1] = (*rows)[a][1] + u * c[1];
        (*rows)[a][2] = (*rows)[a][2] + u * c[2];
        (*rows)[a][3] = (*rows)[a][3] + u * c[3];
        (*rows)[a][4] = (*rows)[a][4] + u * c[4];
    }
}

fn wgpu_noise_supersimplex4_vector_sum(p: vec4<f32>) -> array<array<f32, 5>, 4> {
    let w = wgpu_noise_supersimplex4_walk(p);
    var rows: array<array<f32, 5>, 4>;
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(0u, 0u, 0u, 0u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(1u, 1u, 1u, 1u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(1u, 1u, 1u, 0u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(1u, 1u, 0u, 1u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(1u, 0u, 1u, 1u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(0u, 1u, 1u, 1u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(1u, 0u, 0u, 0u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(1u, 1u, 0u, 0u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(1u, 0u, 1u, 0u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(1u, 0u, 0u, 1u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(0u, 1u, 0u, 0u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(0u, 1u, 1u, 0u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(0u, 1u, 0u, 1u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(0u, 0u, 1u, 0u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(0u, 0u, 1u, 1u));
    wgpu_noise_supersimplex4_vector_add(&rows, w, vec4<u32>(0u, 0u, 0u, 1u));
    return rows;
}

// The vector noise in 2D, 3D and 4D: components past the dimensions 0.
fn wgpu_noise_supersimplex_vector2(p: vec2<f32>) -> vec4<f32> {
    let rows = wgpu_noise_supersimplex2_vector_sum(p);
    let norm = WGPU_NOISE_SUPERSIMPLEX2_VECTOR_NORM;
    return vec4<f32>(rows[0].x * norm, rows[1].x * norm, 0.0, 0.0);
}

fn wgpu_noise_supersimplex_vector3(p: vec3<f32>) -> vec4<f32> {
    let rows = wgpu_noise_supersimplex3_vector_sum(wgpu_noise_supersimplex3_rotate(p), vec3<u32>(256u));
    let norm = WGPU_NOISE_SUPERSIMPLEX3_VECTOR_NORM;
    return vec4<f32>(rows[0].x * norm, rows[1].x * norm, rows[2].x * norm, 0.0);
}

fn wgpu_noise_supersimplex_vector4(p: vec4<f32>) -> vec4<f32> {
    let rows = wgpu_noise_supersimplex4_vector_sum(p);
    let norm = WGPU_NOISE_SUPERSIMPLEX4_VECTOR_NORM;
    return vec4<f32>(rows[0][0] * norm, rows[1][0] * norm, rows[2][0] * norm, rows[3][0] * norm);
}

// The vector noise and each component's gradient: d[a] = (component a, d/dx, ..., d/dw).
fn wgpu_noise_supersimplex_vector_deriv2(p: vec2<f32>) -> array<array<f32, 5>, 4> {
    let rows = wgpu_noise_supersimplex2_vector_sum(p);
    let norm = WGPU_NOISE_SUPERSIMPLEX2_VECTOR_NORM;
    var d: array<array<f32, 5>, 4>;
    for (var a = 0u; a < 2u; a = a + 1u) {
        let r = rows[a];
        d[a] = array<f32, 5>(r.x * norm, r.y * norm, r.z * norm, 0.0, 0.0);
    }
    return d;
}

fn wgpu_noise_supersimplex_vector_deriv3(p: vec3<f32>) -> array<array<f32, 5>, 4> {
    let rows = wgpu_noise_supersimplex3_vector_sum(wgpu_noise_supersimplex3_rotate(p), vec3<u32>(256u));
    let norm = WGPU_NOISE_SUPERSIMPLEX3_VECTOR_NORM;
    var d: array<array<f32, 5>, 4>;
    for (var a = 0u; a < 3u; a = a + 1u) {
        let r = rows[a];
        let g = wgpu_noise_supersimplex3_rotate(r.yzw);
        d[a] = array<f32, 5>(r.x * norm, g.x * norm, g.y * norm, g.z * norm, 0.0);
    }
    return d;
}

fn wgpu_noise_supersimplex_vector_deriv4(p: vec4<f32>) -> array<array<f32, 5>, 4> {
    let rows = wgpu_noise_supersimplex4_vector_sum(p);
    let norm = WGPU_NOISE_SUPERSIMPLEX4_VECTOR_NORM;
    var d: array<array<f32, 5>, 4>;
    for (var a = 0u; a < 4u; a = a + 1u) {
        let r = rows[a];
        d[a] = array<f32, 5>(r[0] * norm, r[1] * norm, r[2] * norm, r[3] * norm, r[4] * norm);
    }
    return d;
}

// The vector noise tiled in 2D with `period`: the first two components of the 4D noise on
// simplex2_tiled's torus, each gradient taken back through the torus
// (CPU: `supersimplex_vector2_tiled`, `supersimplex_vector_deriv2_tiled`).
fn wgpu_noise_supersimplex_vector2_tiled(p: vec2<f32>, period: vec2<f32>) -> vec4<f32> {
    let v = wgpu_noise_supersimplex_vector4(wgpu_noise_torus_point(p, period));
    return vec4<f32>(v.x, v.y, 0.0, 0.0);
}

fn wgpu_noise_supersimplex_vector_deriv2_tiled(p: vec2<f32>, period: vec2<f32>) -> array<array<f32, 5>, 4> {
    return wgpu_noise_vector2_torus_gradients(wgpu_noise_supersimplex_vector_deriv4(wgpu_noise_torus_point(p, period)),
                                              p, period);
}

// The vector noise tiled in 3D with `period` whole cells per axis, as
// wgpu_noise_supersimplex3_tiled: the lattice unrotated, its cells wrapped into the tile
// (CPU: `supersimplex_vector3_tiled`, `supersimplex_vector_deriv3_tiled`).
fn wgpu_noise_supersimplex_vector3_tiled(p: vec3<f32>, period: vec3<u32>) -> vec4<f32> {
    let rows = wgpu_noise_supersimplex3_vector_sum(p, period);
    let norm = WGPU_NOISE_SUPERSIMPLEX3_VECTOR_NORM;
    return vec4<f32>(rows[0].x * norm, rows[1].x * norm, rows[2].x * norm, 0.0);
}

fn wgpu_noise_supersimplex_vector_deriv3_tiled(p: vec3<f32>, period: vec3<u32>) -> array<array<f32, 5>, 4> {
    let rows = wgpu_noise_supersimplex3_vector_sum(p, period);
    let norm = WGPU_NOISE_SUPERSIMPLEX3_VECTOR_NORM;
    var d: array<array<f32, 5>, 4>;
    for (var a = 0u; a < 3u; a = a + 1u) {
        let r = rows[a];
        d[a] = array<f32, 5>(r.x * norm, r.y * norm, r.z * norm, r.w * norm, 0.0);
    }
    return d;
}
