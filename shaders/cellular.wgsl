// Cellular (Worley) noise in 2D, 3D and 4D: distances from the point to the feature
// points of the lattice cells, one feature point per cell, placed by hashing the cell
// through the lookups (lookup.wgsl or lookup_hash.wgsl). Distances are in lattice units.
// Requires lookup and lattice.wgsl. CPU mirror: src/cpu/cellular.rs (same names, same
// order of operations). Conventions and measured ranges: docs/noise-kinds.md.
//
// Feature point of cell c: c + 0.5 + jitter * (u - 0.5) per axis, u = byte `axis` / 255 of
// the cell's hash h (wgpu_noise_cell_hash2/3/4 of the wrapped cell, wgpu_noise_cell_byte:
// each lookup variant says how); its cell value is byte 4 mapped to [-1, 1]. With
// jitter <= 1 the feature point lies in the closed cell [c, c + 1]^n.
//
// Which cells must be searched (the proof behind `wgpu_noise_cellular_reach`). Let the point
// be p = c + f, f in [0, 1)^n, m_i = max(f_i, 1 - f_i) in [0.5, 1], M = max_i m_i at axis a.
// - Upper bound on F2: the own cell's feature is within m_i of p along each axis; the
//   neighbour one step along axis a, on the side of the nearer face (+1 if f_a >= 0.5),
//   has its feature within 2 - M along a and m_i along the others. F2 is at most the larger
//   of the two, which is the neighbour's: euclidean F2^2 <= (2 - M)^2 + (n - 1) M^2 <=
//   max(2 + n/4, n) (convex in M, so the largest at M = 0.5 or 1): 2.5, 3, 4 for n = 2, 3, 4;
//   Chebyshev F2 <= max(1, 2 - M) <= 1.5; Manhattan F2 <= 2 - M + (n - 1) M <= n.
// - Lower bound for a cell at offset k: along axis i its feature is at least
//   max(0, |k_i| - 1) away (at least |k_i| - 1 + something for k_i > 0, exactly |k_i| - 1
//   when f_i = 0 and k_i < 0). A cell with |k_i| >= r + 1 on some axis is therefore at
//   least r away; a feature at distance >= F2 changes neither F1 nor F2.
// - So offsets |k_i| <= 2 suffice for the euclidean (2^2 = 4 >= 2.5, 3, 4) and Chebyshev
//   (2 >= 1.5) distances in 2D to 4D, and |k_i| <= n for Manhattan (n >= n). F1 <= F2 needs
//   no more. These bounds assume jitter 1; a smaller jitter keeps every feature in its cell,
//   so they hold for every jitter in [0, 1].
// - The graphs' metrics: euclidean squared orders features as euclidean (2). Hybrid,
//   sum h(d_i) with h(x) = x^2 + x convex: F2 <= h(2 - M) + (n - 1) h(M) <= 4.5, 6, 8 for
//   n = 2, 3, 4 (at M = 0.5 or 1), and a cell with |k_i| >= r + 1 is at least h(r) away: 2
//   (h(2) = 6) in 2D and 3D, 3 (h(3) = 12) in 4D. Minkowski with e >= 1 is at most Manhattan
//   (n), with e >= 2 at most euclidean (2); each is at least max |d_i|, as the lower bound
//   needs. Below e = 1 no box is enough: the graphs take e in [1, 16].
// - F3 and F4 (graphs only): four features lie in the 2^n block of the own cell and its
//   nearer-side neighbours (own, two face neighbours, their diagonal), within 1.5 along two
//   axes and 1 along the others: F4 <= sqrt(4.5 + n - 2) <= 2.55 (euclidean), 1.5
//   (Chebyshev), n + 1 (Manhattan, Minkowski), 2n + 3.5 <= 11.5 < h(3) (hybrid). So the
//   searches that keep four reach 3, Chebyshev 2, Manhattan and Minkowski below 2 n + 1
//   (wgpu_noise_cellular_reach4).
// - 3x3 is not enough for F2 at jitter 1: at f = (0.5, 0.5) the own feature may be near p
//   while the 8 neighbours have theirs in their far corners (>= 1.58 away); the feature of
//   cell (2, 0) may sit at (2, 0.5), 1.5 away: that is F2. tests/reference/noise_cellular.rs counts
//   such points and checks F1, F2 and the cell value against a brute-force search.
// Inside that box, a cell is skipped when the distance from p to the box its feature can
// occupy (the gap, accumulated axis by axis) is already >= the current F2: it cannot hold
// F1 or F2. Offsets are visited 0, -1, 1, -2, 2, ... so that F2 shrinks early.

const WGPU_NOISE_CELLULAR_F1: u32 = 0u;
const WGPU_NOISE_CELLULAR_F2: u32 = 1u;
const WGPU_NOISE_CELLULAR_F2_MINUS_F1: u32 = 2u;
const WGPU_NOISE_CELLULAR_CELL: u32 = 3u;
const WGPU_NOISE_CELLULAR_F3: u32 = 4u;  // graphs only: a search that keeps four features
const WGPU_NOISE_CELLULAR_F4: u32 = 5u;
const WGPU_NOISE_CELLULAR_DISTANCE_EUCLIDEAN: u32 = 0u;
const WGPU_NOISE_CELLULAR_DISTANCE_MANHATTAN: u32 = 1u;
const WGPU_NOISE_CELLULAR_DISTANCE_CHEBYSHEV: u32 = 2u;
const WGPU_NOISE_CELLULAR_DISTANCE_EUCLIDEAN_SQUARED: u32 = 3u;
const WGPU_NOISE_CELLULAR_DISTANCE_HYBRID: u32 = 4u;
// Any larger code is the Minkowski distance (sum |d_i|^e)^(1/e): the exponent e's f32 bits,
// e in [1, 16] (wgpu_noise_cellular_exponent).

// Larger than any distance (squared) in the searched box.
const WGPU_NOISE_CELLULAR_FAR: f32 = 1e30;

// What cellular noise returns and how it measures distance.
struct CellularShape {
    jitter: f32,    // 0 (regular grid) to 1 (anywhere in the cell)
    distance: u32,  // CELLULAR_DISTANCE_*, or the Minkowski exponent's bits
    output: u32,    // CELLULAR_*
}

// The searched offsets per axis are -reach..=reach (see the proof above).
fn wgpu_noise_cellular_reach(dims: u32, distance: u32) -> i32 {
    if (distance == WGPU_NOISE_CELLULAR_DISTANCE_MANHATTAN) { return i32(dims); }
    if (distance == WGPU_NOISE_CELLULAR_DISTANCE_HYBRID && dims == 4u) { return 3; }
    if (distance > WGPU_NOISE_CELLULAR_DISTANCE_HYBRID && wgpu_noise_cellular_exponent(distance) < 2.0) {
        return i32(dims);
    }
    return 2;
}

// The Minkowski exponent of the distance code `distance`, 0 for the named metrics.
fn wgpu_noise_cellular_exponent(distance: u32) -> f32 {
    if (distance > WGPU_NOISE_CELLULAR_DISTANCE_HYBRID) { return bitcast<f32>(distance); }
    return 0.0;
}

// v^e for v >= 0, 0 at 0 (pow is undefined there).
fn wgpu_noise_cellular_power(v: f32, e: f32) -> f32 {
    if (v == 0.0) { return 0.0; }
    return pow(v, e);
}

// The Minkowski distance's root: 1 / e, the distance node's order of operations.
fn wgpu_noise_cellular_root(distance: u32) -> f32 {
    return 1.0 / wgpu_noise_cellular_exponent(distance);
}

// The searched offsets per axis for F3 and F4 (see the proof above).
fn wgpu_noise_cellular_reach4(dims: u32, distance: u32) -> i32 {
    if (distance == WGPU_NOISE_CELLULAR_DISTANCE_CHEBYSHEV) { return 2; }
    if (distance == WGPU_NOISE_CELLULAR_DISTANCE_MANHATTAN) { return i32(dims) + 1; }
    if (distance > WGPU_NOISE_CELLULAR_DISTANCE_HYBRID && wgpu_noise_cellular_exponent(distance) < 2.0) {
        return i32(dims) + 1;
    }
    return 3;
}

// The t-th offset in visiting order: 0, -1, 1, -2, 2, ...
fn wgpu_noise_cellular_offset(t: i32) -> i32 {
    let k = (t + 1) / 2;
    return select(k, -k, (t & 1) == 1);
}

// One axis's share of a distance: squared (euclidean, euclidean-squared), squared plus
// absolute (hybrid), the absolute value to the power e (Minkowski) or absolute.
fn wgpu_noise_cellular_term(d: f32, distance: u32) -> f32 {
    if (distance == WGPU_NOISE_CELLULAR_DISTANCE_EUCLIDEAN) { return d * d; }
    if (distance == WGPU_NOISE_CELLULAR_DISTANCE_EUCLIDEAN_SQUARED) { return d * d; }
    if (distance == WGPU_NOISE_CELLULAR_DISTANCE_HYBRID) { return d * d + abs(d); }
    if (distance > WGPU_NOISE_CELLULAR_DISTANCE_HYBRID) {
        return wgpu_noise_cellular_power(abs(d), wgpu_noise_cellular_exponent(distance));
    }
    return abs(d);
}

// Accumulates axis shares: sum, or max for Chebyshev.
fn wgpu_noise_cellular_combine(a: f32, b: f32, distance: u32) -> f32 {
    if (distance == WGPU_NOISE_CELLULAR_DISTANCE_CHEBYSHEV) { return max(a, b); }
    return a + b;
}

// The share of the gap between f and the interval the feature of the cell at offset i can
// occupy along one axis: [i + 0.5 - jitter/2, i + 0.5 + jitter/2].
fn wgpu_noise_cellular_gap(f: f32, i: i32, jitter: f32, distance: u32) -> f32 {
    let g = max(abs(f32(i) + 0.5 - f) - 0.5 * jitter, 0.0);
    return wgpu_noise_cellular_term(g, distance);
}

// Feature coordinate minus point along `axis`, for the cell at offset i with hash h.
fn wgpu_noise_cellular_delta(h: u32, axis: u32, i: i32, f: f32, jitter: f32) -> f32 {
    let u = f32(wgpu_noise_cell_byte(h, axis)) * (1.0 / 255.0);
    return f32(i) + (0.5 + jitter * (u - 0.5)) - f;
}

// A byte's value b (0 to 255, or a blend of bytes) as a number in [-1, 1].
fn wgpu_noise_byte_unit(b: f32) -> f32 {
    return clamp((b - 127.5) * (1.0 / 127.5), -1.0, 1.0);
}

// Byte `slot` of the cell with hash h as a number in [-1, 1].
fn wgpu_noise_cell_unit(h: u32, slot: u32) -> f32 {
    return wgpu_noise_byte_unit(f32(wgpu_noise_cell_byte(h, slot)));
}

// The cell value of the cell with hash h, in [-1, 1].
fn wgpu_noise_cellular_value(h: u32) -> f32 {
    return wgpu_noise_cell_unit(h, 4u);
}

// The nearest two features found so far (CPU: Nearest): best = (F1, F2 (squared for the
// euclidean distance), value of F1's cell), and for the gradient the cells of F1's and F2's
// features: their hashes and offsets from the point's cell.
struct wgpu_noise_CellularNearest {
    best: vec3<f32>,
    hash: vec2<u32>,
    f1_offset: vec4<i32>,
    f2_offset: vec4<i32>,
}

// Nothing found yet.
fn wgpu_noise_cellular_none() -> wgpu_noise_CellularNearest {
    return wgpu_noise_CellularNearest(vec3<f32>(WGPU_NOISE_CELLULAR_FAR, WGPU_NOISE_CELLULAR_FAR, 0.0), vec2<u32>(0u),
                                      vec4<i32>(0), vec4<i32>(0));
}

// Keeps `near` up to date with a feature at distance d in the cell (h, offset) (a tie keeps
// the feature met first).
fn wgpu_noise_cellular_insert(near: wgpu_noise_CellularNearest, d: f32, h: u32, offset: vec4<i32>) -> wgpu_noise_CellularNearest {
    let best = near.best;
    if (d < best.x) {
        return wgpu_noise_CellularNearest(vec3<f32>(d, best.x, wgpu_noise_cellular_value(h)), vec2<u32>(h, near.hash.x),
                                          offset, near.f1_offset);
    }
    if (d < best.y) {
        return wgpu_noise_CellularNearest(vec3<f32>(best.x, d, best.z), vec2<u32>(near.hash.x, h), near.f1_offset, offset);
    }
    return near;
}

fn wgpu_noise_cellular_finish(best: vec3<f32>, shape: CellularShape) -> f32 {
    var f1 = best.x;
    var f2 = best.y;
    if (shape.distance == WGPU_NOISE_CELLULAR_DISTANCE_EUCLIDEAN) {
        f1 = sqrt(f1);
        f2 = sqrt(f2);
    }
    if (shape.distance > WGPU_NOISE_CELLULAR_DISTANCE_HYBRID) {
        let root = wgpu_noise_cellular_root(shape.distance);
        f1 = wgpu_noise_cellular_power(f1, root);
        f2 = wgpu_noise_cellular_power(f2, root);
    }
    if (shape.output == WGPU_NOISE_CELLULAR_F2) { return f2; }
    if (shape.output == WGPU_NOISE_CELLULAR_F2_MINUS_F1) { return f2 - f1; }
    if (shape.output == WGPU_NOISE_CELLULAR_CELL) { return best.z; }
    return f1;
}

// A cell coordinate wrapped to `period` cells (256: the lookups' own period).
fn wgpu_noise_cellular_wrap(cell: f32, period: u32) -> u32 {
    if (period == 256u) { return wgpu_noise_wrap256(cell); }
    return wgpu_noise_wrap_period(cell, period);
}

// The nearest two features of a 2D point, with `period` cells per axis (whole numbers, 1 to 2^24).
fn wgpu_noise_cellular2_nearest(p: vec2<f32>, period: vec2<u32>, shape: CellularShape) -> wgpu_noise_CellularNearest {
    let c = floor(p);
    let f = p - c;
    let m = shape.distance;
    let n = 2 * wgpu_noise_cellular_reach(2u, m) + 1;
    var near = wgpu_noise_cellular_none();
    for (var tx = 0; tx < n; tx = tx + 1) {
        let i = wgpu_noise_cellular_offset(tx);
        let gx = wgpu_noise_cellular_gap(f.x, i, shape.jitter, m);
        if (gx >= near.best.y) { continue; }
        let cx = wgpu_noise_cellular_wrap(c.x + f32(i), period.x);
        for (var ty = 0; ty < n; ty = ty + 1) {
            let j = wgpu_noise_cellular_offset(ty);
            let gy = wgpu_noise_cellular_combine(gx, wgpu_noise_cellular_gap(f.y, j, shape.jitter, m), m);
            if (gy >= near.best.y) { continue; }
            let h = wgpu_noise_cell_hash2(cx, wgpu_noise_cellular_wrap(c.y + f32(j), period.y));
            let dx = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 0u, i, f.x, shape.jitter), m);
            let dy = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 1u, j, f.y, shape.jitter), m);
            near = wgpu_noise_cellular_insert(near, wgpu_noise_cellular_combine(dx, dy, m), h, vec4<i32>(i, j, 0, 0));
        }
    }
    return near;
}

// 2D cellular noise that repeats every `period` cells per axis (whole numbers, 1 to 2^24).
fn cellular2_periodic(p: vec2<f32>, period: vec2<u32>, shape: CellularShape) -> f32 {
    if (wgpu_noise_cellular_far(shape)) {
        let near = wgpu_noise_cellular2_nearest4(p, period, shape);
        return wgpu_noise_cellular_finish4(near.best[wgpu_noise_cellular_last(shape)], shape);
    }
    return wgpu_noise_cellular_finish(wgpu_noise_cellular2_nearest(p, period, shape).best, shape);
}

fn wgpu_noise_cellular3_nearest(p: vec3<f32>, period: vec3<u32>, shape: CellularShape) -> wgpu_noise_CellularNearest {
    let c = floor(p);
    let f = p - c;
    let m = shape.distance;
    let n = 2 * wgpu_noise_cellular_reach(3u, m) + 1;
    var near = wgpu_noise_cellular_none();
    for (var tx = 0; tx < n; tx = tx + 1) {
        let i = wgpu_noise_cellular_offset(tx);
        let gx = wgpu_noise_cellular_gap(f.x, i, shape.jitter, m);
        if (gx >= near.best.y) { continue; }
        let cx = wgpu_noise_cellular_wrap(c.x + f32(i), period.x);
        for (var ty = 0; ty < n; ty = ty + 1) {
            let j = wgpu_noise_cellular_offset(ty);
            let gy = wgpu_noise_cellular_combine(gx, wgpu_noise_cellular_gap(f.y, j, shape.jitter, m), m);
            if (gy >= near.best.y) { continue; }
            let cy = wgpu_noise_cellular_wrap(c.y + f32(j), period.y);
            for (var tz = 0; tz < n; tz = tz + 1) {
                let k = wgpu_noise_cellular_offset(tz);
                let gz = wgpu_noise_cellular_combine(gy, wgpu_noise_cellular_gap(f.z, k, shape.jitter, m), m);
                if (gz >= near.best.y) { continue; }
                let h = wgpu_noise_cell_hash3(cx, cy, wgpu_noise_cellular_wrap(c.z + f32(k), period.z));
                let dx = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 0u, i, f.x, shape.jitter), m);
                let dy = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 1u, j, f.y, shape.jitter), m);
                let dz = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 2u, k, f.z, shape.jitter), m);
                let d = wgpu_noise_cellular_combine(wgpu_noise_cellular_combine(dx, dy, m), dz, m);
                near = wgpu_noise_cellular_insert(near, d, h, vec4<i32>(i, j, k, 0));
            }
        }
    }
    return near;
}

fn cellular3_periodic(p: vec3<f32>, period: vec3<u32>, shape: CellularShape) -> f32 {
    if (wgpu_noise_cellular_far(shape)) {
        let near = wgpu_noise_cellular3_nearest4(p, period, shape);
        return wgpu_noise_cellular_finish4(near.best[wgpu_noise_cellular_last(shape)], shape);
    }
    return wgpu_noise_cellular_finish(wgpu_noise_cellular3_nearest(p, period, shape).best, shape);
}

fn wgpu_noise_cellular4_nearest(p: vec4<f32>, period: vec4<u32>, shape: CellularShape) -> wgpu_noise_CellularNearest {
    let c = floor(p);
    let f = p - c;
    let m = shape.distance;
    let n = 2 * wgpu_noise_cellular_reach(4u, m) + 1;
    var near = wgpu_noise_cellular_none();
    for (var tx = 0; tx < n; tx = tx + 1) {
        let i = wgpu_noise_cellular_offset(tx);
        let gx = wgpu_noise_cellular_gap(f.x, i, shape.jitter, m);
        if (gx >= near.best.y) { continue; }
        let cx = wgpu_noise_cellular_wrap(c.x + f32(i), period.x);
        for (var ty = 0; ty < n; ty = ty + 1) {
            let j = wgpu_noise_cellular_offset(ty);
            let gy = wgpu_noise_cellular_combine(gx, wgpu_noise_cellular_gap(f.y, j, shape.jitter, m), m);
            if (gy >= near.best.y) { continue; }
            let cy = wgpu_noise_cellular_wrap(c.y + f32(j), period.y);
            for (var tz = 0; tz < n; tz = tz + 1) {
                let k = wgpu_noise_cellular_offset(tz);
                let gz = wgpu_noise_cellular_combine(gy, wgpu_noise_cellular_gap(f.z, k, shape.jitter, m), m);
                if (gz >= near.best.y) { continue; }
                let cz = wgpu_noise_cellular_wrap(c.z + f32(k), period.z);
                for (var tw = 0; tw < n; tw = tw + 1) {
                    let l = wgpu_noise_cellular_offset(tw);
                    let gw = wgpu_noise_cellular_combine(gz, wgpu_noise_cellular_gap(f.w, l, shape.jitter, m), m);
                    if (gw >= near.best.y) { continue; }
                    let h = wgpu_noise_cell_hash4(cx, cy, cz, wgpu_noise_cellular_wrap(c.w + f32(l), period.w));
                    let dx = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 0u, i, f.x, shape.jitter), m);
                    let dy = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 1u, j, f.y, shape.jitter), m);
                    let dz = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 2u, k, f.z, shape.jitter), m);
                    let dw = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 3u, l, f.w, shape.jitter), m);
                    let d = wgpu_noise_cellular_combine(
                        wgpu_noise_cellular_combine(wgpu_noise_cellular_combine(dx, dy, m), dz, m), dw, m);
                    near = wgpu_noise_cellular_insert(near, d, h, vec4<i32>(i, j, k, l));
                }
            }
        }
    }
    return near;
}

fn cellular4_periodic(p: vec4<f32>, period: vec4<u32>, shape: CellularShape) -> f32 {
    if (wgpu_noise_cellular_far(shape)) {
        let near = wgpu_noise_cellular4_nearest4(p, period, shape);
        return wgpu_noise_cellular_finish4(near.best[wgpu_noise_cellular_last(shape)], shape);
    }
    return wgpu_noise_cellular_finish(wgpu_noise_cellular4_nearest(p, period, shape).best, shape);
}

// The nearest four features found so far (CPU: NearestK), nearest first: their distances
// (as best above) and cells. The searches below keep four and skip cells no nearer than the
// K-th (F3 or F4: shape.output), so they are exact for F1 to FK (proof above).
struct wgpu_noise_CellularNearest4 {
    best: vec4<f32>,
    hash: vec4<u32>,
    offset: array<vec4<i32>, 4>,
}

fn wgpu_noise_cellular_none4() -> wgpu_noise_CellularNearest4 {
    return wgpu_noise_CellularNearest4(vec4<f32>(WGPU_NOISE_CELLULAR_FAR), vec4<u32>(0u),
                                       array<vec4<i32>, 4>(vec4<i32>(0), vec4<i32>(0), vec4<i32>(0), vec4<i32>(0)));
}

// The feature at distance d in the cell (h, offset) goes before the first kept one it is
// nearer than (a tie keeps the feature met first); the farther ones move down.
fn wgpu_noise_cellular_insert4(near: wgpu_noise_CellularNearest4, d: f32, h: u32, offset: vec4<i32>) -> wgpu_noise_CellularNearest4 {
    var slot = 4u;
    for (var k = 4u; k > 0u; k = k - 1u) {
        if (d < near.best[k - 1u]) { slot = k - 1u; }
    }
    if (slot == 4u) { return near; }
    var out = near;
    for (var k = 3u; k > slot; k = k - 1u) {
        out.best[k] = near.best[k - 1u];
        out.hash[k] = near.hash[k - 1u];
        out.offset[k] = near.offset[k - 1u];
    }
    out.best[slot] = d;
    out.hash[slot] = h;
    out.offset[slot] = offset;
    return out;
}

// The K-th distance (F3 or F4: shape.output) from its kept value: the roots of finish.
fn wgpu_noise_cellular_finish4(d: f32, shape: CellularShape) -> f32 {
    if (shape.distance == WGPU_NOISE_CELLULAR_DISTANCE_EUCLIDEAN) { return sqrt(d); }
    if (shape.distance > WGPU_NOISE_CELLULAR_DISTANCE_HYBRID) {
        return wgpu_noise_cellular_power(d, wgpu_noise_cellular_root(shape.distance));
    }
    return d;
}

// The slot of the K-th nearest feature (F3 or F4: shape.output).
fn wgpu_noise_cellular_last(shape: CellularShape) -> u32 {
    return select(3u, 2u, shape.output == WGPU_NOISE_CELLULAR_F3);
}

fn wgpu_noise_cellular2_nearest4(p: vec2<f32>, period: vec2<u32>, shape: CellularShape) -> wgpu_noise_CellularNearest4 {
    let c = floor(p);
    let f = p - c;
    let m = shape.distance;
    let n = 2 * wgpu_noise_cellular_reach4(2u, m) + 1;
    let last = wgpu_noise_cellular_last(shape);
    var near = wgpu_noise_cellular_none4();
    for (var tx = 0; tx < n; tx = tx + 1) {
        let i = wgpu_noise_cellular_offset(tx);
        let gx = wgpu_noise_cellular_gap(f.x, i, shape.jitter, m);
        if (gx >= near.best[last]) { continue; }
        let cx = wgpu_noise_cellular_wrap(c.x + f32(i), period.x);
        for (var ty = 0; ty < n; ty = ty + 1) {
            let j = wgpu_noise_cellular_offset(ty);
            let gy = wgpu_noise_cellular_combine(gx, wgpu_noise_cellular_gap(f.y, j, shape.jitter, m), m);
            if (gy >= near.best[last]) { continue; }
            let h = wgpu_noise_cell_hash2(cx, wgpu_noise_cellular_wrap(c.y + f32(j), period.y));
            let dx = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 0u, i, f.x, shape.jitter), m);
            let dy = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 1u, j, f.y, shape.jitter), m);
            near = wgpu_noise_cellular_insert4(near, wgpu_noise_cellular_combine(dx, dy, m), h, vec4<i32>(i, j, 0, 0));
        }
    }
    return near;
}

fn wgpu_noise_cellular3_nearest4(p: vec3<f32>, period: vec3<u32>, shape: CellularShape) -> wgpu_noise_CellularNearest4 {
    let c = floor(p);
    let f = p - c;
    let m = shape.distance;
    let n = 2 * wgpu_noise_cellular_reach4(3u, m) + 1;
    let last = wgpu_noise_cellular_last(shape);
    var near = wgpu_noise_cellular_none4();
    for (var tx = 0; tx < n; tx = tx + 1) {
        let i = wgpu_noise_cellular_offset(tx);
        let gx = wgpu_noise_cellular_gap(f.x, i, shape.jitter, m);
        if (gx >= near.best[last]) { continue; }
        let cx = wgpu_noise_cellular_wrap(c.x + f32(i), period.x);
        for (var ty = 0; ty < n; ty = ty + 1) {
            let j = wgpu_noise_cellular_offset(ty);
            let gy = wgpu_noise_cellular_combine(gx, wgpu_noise_cellular_gap(f.y, j, shape.jitter, m), m);
            if (gy >= near.best[last]) { continue; }
            let cy = wgpu_noise_cellular_wrap(c.y + f32(j), period.y);
            for (var tz = 0; tz < n; tz = tz + 1) {
                let k = wgpu_noise_cellular_offset(tz);
                let gz = wgpu_noise_cellular_combine(gy, wgpu_noise_cellular_gap(f.z, k, shape.jitter, m), m);
                if (gz >= near.best[last]) { continue; }
                let h = wgpu_noise_cell_hash3(cx, cy, wgpu_noise_cellular_wrap(c.z + f32(k), period.z));
                let dx = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 0u, i, f.x, shape.jitter), m);
                let dy = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 1u, j, f.y, shape.jitter), m);
                let dz = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 2u, k, f.z, shape.jitter), m);
                let d = wgpu_noise_cellular_combine(wgpu_noise_cellular_combine(dx, dy, m), dz, m);
                near = wgpu_noise_cellular_insert4(near, d, h, vec4<i32>(i, j, k, 0));
            }
        }
    }
    return near;
}

fn wgpu_noise_cellular4_nearest4(p: vec4<f32>, period: vec4<u32>, shape: CellularShape) -> wgpu_noise_CellularNearest4 {
    let c = floor(p);
    let f = p - c;
    let m = shape.distance;
    let n = 2 * wgpu_noise_cellular_reach4(4u, m) + 1;
    let last = wgpu_noise_cellular_last(shape);
    var near = wgpu_noise_cellular_none4();
    for (var tx = 0; tx < n; tx = tx + 1) {
        let i = wgpu_noise_cellular_offset(tx);
        let gx = wgpu_noise_cellular_gap(f.x, i, shape.jitter, m);
        if (gx >= near.best[last]) { continue; }
        let cx = wgpu_noise_cellular_wrap(c.x + f32(i), period.x);
        for (var ty = 0; ty < n; ty = ty + 1) {
            let j = wgpu_noise_cellular_offset(ty);
            let gy = wgpu_noise_cellular_combine(gx, wgpu_noise_cellular_gap(f.y, j, shape.jitter, m), m);
            if (gy >= near.best[last]) { continue; }
            let cy = wgpu_noise_cellular_wrap(c.y + f32(j), period.y);
            for (var tz = 0; tz < n; tz = tz + 1) {
                let k = wgpu_noise_cellular_offset(tz);
                let gz = wgpu_noise_cellular_combine(gy, wgpu_noise_cellular_gap(f.z, k, shape.jitter, m), m);
                if (gz >= near.best[last]) { continue; }
                let cz = wgpu_noise_cellular_wrap(c.z + f32(k), period.z);
                for (var tw = 0; tw < n; tw = tw + 1) {
                    let l = wgpu_noise_cellular_offset(tw);
                    let gw = wgpu_noise_cellular_combine(gz, wgpu_noise_cellular_gap(f.w, l, shape.jitter, m), m);
                    if (gw >= near.best[last]) { continue; }
                    let h = wgpu_noise_cell_hash4(cx, cy, cz, wgpu_noise_cellular_wrap(c.w + f32(l), period.w));
                    let dx = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 0u, i, f.x, shape.jitter), m);
                    let dy = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 1u, j, f.y, shape.jitter), m);
                    let dz = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 2u, k, f.z, shape.jitter), m);
                    let dw = wgpu_noise_cellular_term(wgpu_noise_cellular_delta(h, 3u, l, f.w, shape.jitter), m);
                    let d = wgpu_noise_cellular_combine(
                        wgpu_noise_cellular_combine(wgpu_noise_cellular_combine(dx, dy, m), dz, m), dw, m);
                    near = wgpu_noise_cellular_insert4(near, d, h, vec4<i32>(i, j, k, l));
                }
            }
        }
    }
    return near;
}

// Cellular noise on the lookups' own 256-cell lattice.
fn cellular2(p: vec2<f32>, shape: CellularShape) -> f32 {
    return cellular2_periodic(p, vec2<u32>(256u), shape);
}

fn cellular3(p: vec3<f32>, shape: CellularShape) -> f32 {
    return cellular3_periodic(p, vec3<u32>(256u), shape);
}

fn cellular4(p: vec4<f32>, shape: CellularShape) -> f32 {
    return cellular4_periodic(p, vec4<u32>(256u), shape);
}

// The analytic gradients of cellular noise (CPU: cellular_periodic_deriv). A feature at
// delta = feature - p is at distance |delta| (euclidean: gradient -delta/|delta|, 0 at the
// feature itself), sum |delta_a| (Manhattan: -sign delta_a), max |delta_a| (Chebyshev:
// -sign delta_a along the axis of the largest, the first such axis on a tie), sum delta_a^2
// (euclidean squared: -2 delta_a), sum (delta_a^2 + |delta_a|) (hybrid: -2 delta_a -
// sign delta_a) or r = (sum |delta_a|^e)^(1/e) (Minkowski: -sign delta_a (|delta_a| / r)^(e-1),
// 0 at the feature itself), the sign of 0 taken as +1 (as abs's slope). F1, F2 and F2 - F1 take the gradients of their features;
// where two features are equally near (a cell border, a kink) F1 is the one the search met
// first. The cell value is constant within a cell: gradient 0.

// t^e for t >= 0 and e >= 0, with 0^0 = 1 (the slope of |delta| for e = 1).
fn wgpu_noise_cellular_slope_power(t: f32, e: f32) -> f32 {
    if (t == 0.0) { return select(0.0, 1.0, e == 0.0); }
    return pow(t, e);
}

// The gradient of the distance to the feature of the cell (h, offset) at squared (euclidean)
// or plain distance d, from a point p of `dims` coordinates (the rest 0).
fn wgpu_noise_cellular_slope(p: vec4<f32>, dims: u32, h: u32, offset: vec4<i32>, d: f32, shape: CellularShape) -> vec4<f32> {
    var delta = vec4<f32>(0.0);
    for (var a = 0u; a < dims; a = a + 1u) {
        let f = p[a] - floor(p[a]);
        delta[a] = wgpu_noise_cellular_delta(h, a, offset[a], f, shape.jitter);
    }
    // -sign(delta), with the sign of 0 taken as +1.
    let away = select(vec4<f32>(-1.0), vec4<f32>(1.0), delta < vec4<f32>(0.0));
    var g = vec4<f32>(0.0);
    if (shape.distance == WGPU_NOISE_CELLULAR_DISTANCE_EUCLIDEAN) {
        let r = sqrt(d);
        if (r > 0.0) {
            for (var a = 0u; a < dims; a = a + 1u) {
                g[a] = -delta[a] / r;
            }
        }
    } else if (shape.distance == WGPU_NOISE_CELLULAR_DISTANCE_EUCLIDEAN_SQUARED) {
        for (var a = 0u; a < dims; a = a + 1u) {
            g[a] = -2.0 * delta[a];
        }
    } else if (shape.distance == WGPU_NOISE_CELLULAR_DISTANCE_HYBRID) {
        for (var a = 0u; a < dims; a = a + 1u) {
            g[a] = -2.0 * delta[a] + away[a];
        }
    } else if (shape.distance > WGPU_NOISE_CELLULAR_DISTANCE_HYBRID) {
        let e = wgpu_noise_cellular_exponent(shape.distance);
        let r = wgpu_noise_cellular_power(d, wgpu_noise_cellular_root(shape.distance));
        if (r > 0.0) {
            for (var a = 0u; a < dims; a = a + 1u) {
                g[a] = away[a] * wgpu_noise_cellular_slope_power(abs(delta[a]) / r, e - 1.0);
            }
        }
    } else if (shape.distance == WGPU_NOISE_CELLULAR_DISTANCE_CHEBYSHEV) {
        // The largest |delta_a| of this delta, not the one equal to d: the search's delta
        // may differ from this one in its last bit (a compiler may fuse one and not the
        // other), and an axis found by equality would then be none.
        var axis = 0u;
        for (var a = 1u; a < dims; a = a + 1u) {
            if (abs(delta[a]) > abs(delta[axis])) { axis = a; }
        }
        g[axis] = away[axis];
    } else {
        for (var a = 0u; a < dims; a = a + 1u) {
            g[a] = away[a];
        }
    }
    return g;
}

// (value, gradient) of cellular noise from the nearest features of p (`dims` coordinates).
fn wgpu_noise_cellular_deriv(near: wgpu_noise_CellularNearest, p: vec4<f32>, dims: u32, shape: CellularShape) -> array<f32, 5> {
    let value = wgpu_noise_cellular_finish(near.best, shape);
    if (shape.output == WGPU_NOISE_CELLULAR_CELL) { return array<f32, 5>(value, 0.0, 0.0, 0.0, 0.0); }
    let g1 = wgpu_noise_cellular_slope(p, dims, near.hash.x, near.f1_offset, near.best.x, shape);
    let g2 = wgpu_noise_cellular_slope(p, dims, near.hash.y, near.f2_offset, near.best.y, shape);
    var g = g1;
    if (shape.output == WGPU_NOISE_CELLULAR_F2) {
        g = g2;
    } else if (shape.output == WGPU_NOISE_CELLULAR_F2_MINUS_F1) {
        g = g2 - g1;
    }
    return array<f32, 5>(value, g.x, g.y, g.z, g.w);
}

// (value, gradient) of F3 or F4 (shape.output): its feature's gradient.
fn wgpu_noise_cellular_deriv4(near: wgpu_noise_CellularNearest4, p: vec4<f32>, dims: u32, shape: CellularShape) -> array<f32, 5> {
    let k = wgpu_noise_cellular_last(shape);
    let value = wgpu_noise_cellular_finish4(near.best[k], shape);
    let g = wgpu_noise_cellular_slope(p, dims, near.hash[k], near.offset[k], near.best[k], shape);
    return array<f32, 5>(value, g.x, g.y, g.z, g.w);
}

// Whether shape asks for F3 or F4 (the searches that keep four features).
fn wgpu_noise_cellular_far(shape: CellularShape) -> bool {
    return shape.output == WGPU_NOISE_CELLULAR_F3 || shape.output == WGPU_NOISE_CELLULAR_F4;
}

// cellular2_periodic and its gradient (value, d/dx, d/dy).
fn cellular2_periodic_deriv(p: vec2<f32>, period: vec2<u32>, shape: CellularShape) -> vec3<f32> {
    if (wgpu_noise_cellular_far(shape)) {
        let d = wgpu_noise_cellular_deriv4(wgpu_noise_cellular2_nearest4(p, period, shape), vec4<f32>(p, 0.0, 0.0), 2u, shape);
        return vec3<f32>(d[0], d[1], d[2]);
    }
    let d = wgpu_noise_cellular_deriv(wgpu_noise_cellular2_nearest(p, period, shape), vec4<f32>(p, 0.0, 0.0), 2u, shape);
    return vec3<f32>(d[0], d[1], d[2]);
}

// cellular3_periodic and its gradient (value, d/dx, d/dy, d/dz).
fn cellular3_periodic_deriv(p: vec3<f32>, period: vec3<u32>, shape: CellularShape) -> vec4<f32> {
    if (wgpu_noise_cellular_far(shape)) {
        let d = wgpu_noise_cellular_deriv4(wgpu_noise_cellular3_nearest4(p, period, shape), vec4<f32>(p, 0.0), 3u, shape);
        return vec4<f32>(d[0], d[1], d[2], d[3]);
    }
    let d = wgpu_noise_cellular_deriv(wgpu_noise_cellular3_nearest(p, period, shape), vec4<f32>(p, 0.0), 3u, shape);
    return vec4<f32>(d[0], d[1], d[2], d[3]);
}

// cellular4_periodic and its gradient (value, d/dx, d/dy, d/dz, d/dw).
fn cellular4_periodic_deriv(p: vec4<f32>, period: vec4<u32>, shape: CellularShape) -> array<f32, 5> {
    if (wgpu_noise_cellular_far(shape)) {
        return wgpu_noise_cellular_deriv4(wgpu_noise_cellular4_nearest4(p, period, shape), p, 4u, shape);
    }
    return wgpu_noise_cellular_deriv(wgpu_noise_cellular4_nearest(p, period, shape), p, 4u, shape);
}

// The derivatives of cellular noise with respect to a parameter a graph's node drives (CPU:
// cellular_periodic_parameter_slope, CellParameter's codes). Jitter: a feature moves with the
// jitter by u - 0.5 per axis (wgpu_noise_cellular_delta), and its distance's slope along
// delta is minus its slope along p, so each feature contributes -sum_a g[a] (u_a - 0.5).
// Exponent: wgpu_noise_cellular_exponent_term. F1, F2, F3/F4 their feature's, F2 - F1 the
// difference; the cell value 0.
const WGPU_NOISE_CELLULAR_JITTER: u32 = 0u;
const WGPU_NOISE_CELLULAR_EXPONENT: u32 = 1u;

// One feature's jitter slope from its gradient g along p and its cell's hash h, in axis order.
fn wgpu_noise_cellular_jitter_term(g: vec4<f32>, dims: u32, h: u32) -> f32 {
    var s = 0.0;
    for (var a = 0u; a < dims; a++) {
        let u = f32(wgpu_noise_cell_byte(h, a)) * (1.0 / 255.0);
        s = s - g[a] * (u - 0.5);
    }
    return s;
}

// One feature's slope along the Minkowski exponent e, the feature of the cell (h, offset) at
// the powers' sum s = sum_a |delta_a|^e: its distance r = s^(1/e) changes by
// r (sum_a |delta_a|^e ln|delta_a| / (e s) - ln s / e^2) (an axis with delta_a = 0 adds
// nothing); 0 at the feature itself and for the other metrics.
fn wgpu_noise_cellular_exponent_term(p: vec4<f32>, dims: u32, h: u32, offset: vec4<i32>, d: f32, shape: CellularShape) -> f32 {
    if (shape.distance <= WGPU_NOISE_CELLULAR_DISTANCE_HYBRID || d == 0.0) { return 0.0; }
    let e = wgpu_noise_cellular_exponent(shape.distance);
    let r = wgpu_noise_cellular_power(d, wgpu_noise_cellular_root(shape.distance));
    var t = 0.0;
    for (var a = 0u; a < dims; a++) {
        let f = p[a] - floor(p[a]);
        let v = abs(wgpu_noise_cellular_delta(h, a, offset[a], f, shape.jitter));
        if (v > 0.0) { t = t + wgpu_noise_cellular_power(v, e) * log(v); }
    }
    return r * (t / (e * d) - log(d) / (e * e));
}

// One feature's slope along `parameter`, the feature of the cell (h, offset) at d from p.
fn wgpu_noise_cellular_parameter_term(p: vec4<f32>, dims: u32, h: u32, offset: vec4<i32>, d: f32, shape: CellularShape, parameter: u32) -> f32 {
    if (parameter == WGPU_NOISE_CELLULAR_JITTER) {
        let g = wgpu_noise_cellular_slope(p, dims, h, offset, d, shape);
        return wgpu_noise_cellular_jitter_term(g, dims, h);
    }
    return wgpu_noise_cellular_exponent_term(p, dims, h, offset, d, shape);
}

// The slope of F1, F2 or F2 - F1 (shape.output) along `parameter` from the nearest features of p.
fn wgpu_noise_cellular_parameter_slope(near: wgpu_noise_CellularNearest, p: vec4<f32>, dims: u32, shape: CellularShape, parameter: u32) -> f32 {
    if (shape.output == WGPU_NOISE_CELLULAR_CELL) { return 0.0; }
    if (shape.output != WGPU_NOISE_CELLULAR_F2 && shape.output != WGPU_NOISE_CELLULAR_F2_MINUS_F1) {
        return wgpu_noise_cellular_parameter_term(p, dims, near.hash.x, near.f1_offset, near.best.x, shape, parameter);
    }
    let s2 = wgpu_noise_cellular_parameter_term(p, dims, near.hash.y, near.f2_offset, near.best.y, shape, parameter);
    if (shape.output == WGPU_NOISE_CELLULAR_F2) { return s2; }
    let s1 = wgpu_noise_cellular_parameter_term(p, dims, near.hash.x, near.f1_offset, near.best.x, shape, parameter);
    return s2 - s1;
}

// The slope of F3 or F4 (shape.output) along `parameter`: its feature's.
fn wgpu_noise_cellular_parameter_slope4(near: wgpu_noise_CellularNearest4, p: vec4<f32>, dims: u32, shape: CellularShape, parameter: u32) -> f32 {
    let k = wgpu_noise_cellular_last(shape);
    return wgpu_noise_cellular_parameter_term(p, dims, near.hash[k], near.offset[k], near.best[k], shape, parameter);
}

fn wgpu_noise_cellular2_parameter_slope(p: vec2<f32>, period: vec2<u32>, shape: CellularShape, parameter: u32) -> f32 {
    if (wgpu_noise_cellular_far(shape)) {
        return wgpu_noise_cellular_parameter_slope4(wgpu_noise_cellular2_nearest4(p, period, shape), vec4<f32>(p, 0.0, 0.0), 2u, shape, parameter);
    }
    return wgpu_noise_cellular_parameter_slope(wgpu_noise_cellular2_nearest(p, period, shape), vec4<f32>(p, 0.0, 0.0), 2u, shape, parameter);
}

fn wgpu_noise_cellular3_parameter_slope(p: vec3<f32>, period: vec3<u32>, shape: CellularShape, parameter: u32) -> f32 {
    if (wgpu_noise_cellular_far(shape)) {
        return wgpu_noise_cellular_parameter_slope4(wgpu_noise_cellular3_nearest4(p, period, shape), vec4<f32>(p, 0.0), 3u, shape, parameter);
    }
    return wgpu_noise_cellular_parameter_slope(wgpu_noise_cellular3_nearest(p, period, shape), vec4<f32>(p, 0.0), 3u, shape, parameter);
}

fn wgpu_noise_cellular4_parameter_slope(p: vec4<f32>, period: vec4<u32>, shape: CellularShape, parameter: u32) -> f32 {
    if (wgpu_noise_cellular_far(shape)) {
        return wgpu_noise_cellular_parameter_slope4(wgpu_noise_cellular4_nearest4(p, period, shape), p, 4u, shape, parameter);
    }
    return wgpu_noise_cellular_parameter_slope(wgpu_noise_cellular4_nearest(p, period, shape), p, 4u, shape, parameter);
}

// The nearest feature's position (CPU: cellular_feature), for the graphs' cellular-lookup.

// The coordinate of the feature of the cell with hash h along `axis`, the cell's lower
// corner at `cell`: the position wgpu_noise_cellular_delta measures from the point.
fn wgpu_noise_cellular_position(h: u32, axis: u32, cell: f32, jitter: f32) -> f32 {
    let u = f32(wgpu_noise_cell_byte(h, axis)) * (1.0 / 255.0);
    return cell + (0.5 + jitter * (u - 0.5));
}

// The lower corner of the cell at offset i from the point's cell c along one axis: c + i,
// wrapped into [0, period) where `tiled` (the position then repeats with the tile).
fn wgpu_noise_cellular_corner(c: f32, i: i32, period: u32, tiled: bool) -> f32 {
    let cell = c + f32(i);
    if (tiled) { return f32(wgpu_noise_cellular_wrap(cell, period)); }
    return cell;
}

// The position of F1's feature (a tie keeps the feature met first) of a point p of `dims`
// coordinates (the rest 0), its cell `h` at `offset` from the point's cell.
fn wgpu_noise_cellular_feature(p: vec4<f32>, dims: u32, period: vec4<u32>, tiled: bool, h: u32, offset: vec4<i32>, shape: CellularShape) -> vec4<f32> {
    var out = vec4<f32>(0.0);
    for (var a = 0u; a < dims; a = a + 1u) {
        let corner = wgpu_noise_cellular_corner(floor(p[a]), offset[a], period[a], tiled);
        out[a] = wgpu_noise_cellular_position(h, a, corner, shape.jitter);
    }
    return out;
}

// The nearest feature's position of a 2D, 3D or 4D point with `period` cells per axis.
fn wgpu_noise_cellular2_feature(p: vec2<f32>, period: vec2<u32>, tiled: bool, shape: CellularShape) -> vec4<f32> {
    let near = wgpu_noise_cellular2_nearest(p, period, shape);
    return wgpu_noise_cellular_feature(vec4<f32>(p, 0.0, 0.0), 2u, vec4<u32>(period, 256u, 256u), tiled, near.hash.x, near.f1_offset, shape);
}

fn wgpu_noise_cellular3_feature(p: vec3<f32>, period: vec3<u32>, tiled: bool, shape: CellularShape) -> vec4<f32> {
    let near = wgpu_noise_cellular3_nearest(p, period, shape);
    return wgpu_noise_cellular_feature(vec4<f32>(p, 0.0), 3u, vec4<u32>(period, 256u), tiled, near.hash.x, near.f1_offset, shape);
}

fn wgpu_noise_cellular4_feature(p: vec4<f32>, period: vec4<u32>, tiled: bool, shape: CellularShape) -> vec4<f32> {
    let near = wgpu_noise_cellular4_nearest(p, period, shape);
    return wgpu_noise_cellular_feature(p, 4u, period, tiled, near.hash.x, near.f1_offset, shape);
}

// How the nearest feature's position moves with the jitter (CPU:
// cellular_feature_jitter_slope): u_a - 0.5 along each of `dims` axes, 0 past them.
fn wgpu_noise_cellular_feature_jitter_slope(dims: u32, h: u32) -> vec4<f32> {
    var out = vec4<f32>(0.0);
    for (var a = 0u; a < dims; a = a + 1u) {
        out[a] = f32(wgpu_noise_cell_byte(h, a)) * (1.0 / 255.0) - 0.5;
    }
    return out;
}

fn wgpu_noise_cellular2_feature_jitter_slope(p: vec2<f32>, period: vec2<u32>, shape: CellularShape) -> vec4<f32> {
    return wgpu_noise_cellular_feature_jitter_slope(2u, wgpu_noise_cellular2_nearest(p, period, shape).hash.x);
}

fn wgpu_noise_cellular3_feature_jitter_slope(p: vec3<f32>, period: vec3<u32>, shape: CellularShape) -> vec4<f32> {
    return wgpu_noise_cellular_feature_jitter_slope(3u, wgpu_noise_cellular3_nearest(p, period, shape).hash.x);
}

fn wgpu_noise_cellular4_feature_jitter_slope(p: vec4<f32>, period: vec4<u32>, shape: CellularShape) -> vec4<f32> {
    return wgpu_noise_cellular_feature_jitter_slope(4u, wgpu_noise_cellular4_nearest(p, period, shape).hash.x);
}
