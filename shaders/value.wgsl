// Value noise in 2D, 3D and 4D: one value per lattice point -- the cell value of cellular
// noise's `cell` output (wgpu_noise_cellular_value, one byte of the cell's hash) -- blended
// along x, then y, then z, then w with the quintic fade. CPU mirror: src/cpu/value.rs -- same
// names, same order of operations. In [-1, 1]; at a lattice point, that point's value.
// Names other than the documented API carry the wgpu_noise_ prefix (see classic.wgsl).

// The corner values of a cell blended along each axis in turn (corner a + 2b + 4c + 8d at
// offset (a, b, c, d)); `f` holds the point's offsets in the cell, `dims` of them.
fn wgpu_noise_value_blend(corners: array<f32, 16>, f: vec4<f32>, dims: u32) -> f32 {
    var n = corners;
    var len = 1u << dims;
    for (var a = 0u; a < dims; a = a + 1u) {
        let u = wgpu_noise_fade(f[a]);
        len = len / 2u;
        for (var k = 0u; k < len; k = k + 1u) {
            n[k] = wgpu_noise_lerp(n[2u * k], n[2u * k + 1u], u);
        }
    }
    return n[0];
}

// wgpu_noise_value_blend and its gradient (value, d/df0, ..., d/df3): every lerp
// (1 - u) lo + u hi carries (1 - u) grad lo + u grad hi + (hi - lo) grad u, from corners of
// gradient 0 (CPU: classic::blend_corners_deriv).
fn wgpu_noise_value_blend_deriv(corners: array<f32, 16>, f: vec4<f32>, dims: u32) -> array<f32, 5> {
    var n = corners;
    var dn: array<vec4<f32>, 16>;
    var len = 1u << dims;
    for (var a = 0u; a < dims; a = a + 1u) {
        let u = wgpu_noise_fade(f[a]);
        let du = wgpu_noise_fade_slope(f[a]);
        len = len / 2u;
        for (var k = 0u; k < len; k = k + 1u) {
            let lo = n[2u * k];
            let hi = n[2u * k + 1u];
            let dlo = dn[2u * k];
            let dhi = dn[2u * k + 1u];
            n[k] = wgpu_noise_lerp(lo, hi, u);
            var along = vec4<f32>(0.0);
            along[a] = (hi - lo) * du;
            dn[k] = (1.0 - u) * dlo + u * dhi + along;
        }
    }
    return array<f32, 5>(n[0], dn[0].x, dn[0].y, dn[0].z, dn[0].w);
}

// The hashes of the corners of the 2D cell of `c` (its lower corner), repeating every
// `period` cells.
fn wgpu_noise_value_hashes2(c: vec2<f32>, period: vec2<u32>) -> array<u32, 16> {
    let xi = wgpu_noise_cell_pair(c.x, period.x);
    let yi = wgpu_noise_cell_pair(c.y, period.y);
    var h: array<u32, 16>;
    for (var k = 0u; k < 4u; k = k + 1u) {
        h[k] = wgpu_noise_cell_hash2(xi[k & 1u], yi[(k >> 1u) & 1u]);
    }
    return h;
}

fn wgpu_noise_value_hashes3(c: vec3<f32>, period: vec3<u32>) -> array<u32, 16> {
    let xi = wgpu_noise_cell_pair(c.x, period.x);
    let yi = wgpu_noise_cell_pair(c.y, period.y);
    let zi = wgpu_noise_cell_pair(c.z, period.z);
    var h: array<u32, 16>;
    for (var k = 0u; k < 8u; k = k + 1u) {
        h[k] = wgpu_noise_cell_hash3(xi[k & 1u], yi[(k >> 1u) & 1u], zi[(k >> 2u) & 1u]);
    }
    return h;
}

fn wgpu_noise_value_hashes4(c: vec4<f32>, period: vec4<u32>) -> array<u32, 16> {
    let xi = wgpu_noise_cell_pair(c.x, period.x);
    let yi = wgpu_noise_cell_pair(c.y, period.y);
    let zi = wgpu_noise_cell_pair(c.z, period.z);
    let wi = wgpu_noise_cell_pair(c.w, period.w);
    var h: array<u32, 16>;
    for (var k = 0u; k < 16u; k = k + 1u) {
        h[k] = wgpu_noise_cell_hash4(xi[k & 1u], yi[(k >> 1u) & 1u], zi[(k >> 2u) & 1u], wi[(k >> 3u) & 1u]);
    }
    return h;
}

// Byte `slot` of each of the 2^dims corners' hashes `h` in [-1, 1] (wgpu_noise_cell_unit): slot 4
// is the corner's value (wgpu_noise_cellular_value), slots 0 to 3 the components of its vector.
fn wgpu_noise_value_corner_units(h: array<u32, 16>, slot: u32, dims: u32) -> array<f32, 16> {
    var v: array<f32, 16>;
    for (var k = 0u; k < (1u << dims); k = k + 1u) {
        v[k] = wgpu_noise_cell_unit(h[k], slot);
    }
    return v;
}

// 2D value noise that repeats every `period` cells along each axis; 256 is the plain function.
fn value2_periodic(p: vec2<f32>, period: vec2<u32>) -> f32 {
    let c = floor(p);
    return wgpu_noise_value_blend(wgpu_noise_value_corner_units(wgpu_noise_value_hashes2(c, period), 4u, 2u), vec4<f32>(p - c, 0.0, 0.0), 2u);
}

fn value3_periodic(p: vec3<f32>, period: vec3<u32>) -> f32 {
    let c = floor(p);
    return wgpu_noise_value_blend(wgpu_noise_value_corner_units(wgpu_noise_value_hashes3(c, period), 4u, 3u), vec4<f32>(p - c, 0.0), 3u);
}

fn value4_periodic(p: vec4<f32>, period: vec4<u32>) -> f32 {
    let c = floor(p);
    return wgpu_noise_value_blend(wgpu_noise_value_corner_units(wgpu_noise_value_hashes4(c, period), 4u, 4u), p - c, 4u);
}

fn value2(p: vec2<f32>) -> f32 {
    return value2_periodic(p, vec2<u32>(256u));
}

fn value3(p: vec3<f32>) -> f32 {
    return value3_periodic(p, vec3<u32>(256u));
}

fn value4(p: vec4<f32>) -> f32 {
    return value4_periodic(p, vec4<u32>(256u));
}

// valueN_periodic and its gradient (value, d/dx, ..., entries past the dimensions 0).
fn value2_periodic_deriv(p: vec2<f32>, period: vec2<u32>) -> array<f32, 5> {
    let c = floor(p);
    return wgpu_noise_value_blend_deriv(wgpu_noise_value_corner_units(wgpu_noise_value_hashes2(c, period), 4u, 2u), vec4<f32>(p - c, 0.0, 0.0), 2u);
}

fn value3_periodic_deriv(p: vec3<f32>, period: vec3<u32>) -> array<f32, 5> {
    let c = floor(p);
    return wgpu_noise_value_blend_deriv(wgpu_noise_value_corner_units(wgpu_noise_value_hashes3(c, period), 4u, 3u), vec4<f32>(p - c, 0.0), 3u);
}

fn value4_periodic_deriv(p: vec4<f32>, period: vec4<u32>) -> array<f32, 5> {
    let c = floor(p);
    return wgpu_noise_value_blend_deriv(wgpu_noise_value_corner_units(wgpu_noise_value_hashes4(c, period), 4u, 4u), p - c, 4u);
}

// Byte `slot` of each of the 2^dims corners' hashes `h`, as a number 0 to 255.
fn wgpu_noise_value_corner_bytes(h: array<u32, 16>, slot: u32, dims: u32) -> array<f32, 16> {
    var v: array<f32, 16>;
    for (var k = 0u; k < (1u << dims); k = k + 1u) {
        v[k] = f32(wgpu_noise_cell_byte(h[k], slot));
    }
    return v;
}

// Value noise of vectors (the `warp` node's `vector` noise, as FastNoise2's DomainWarpGradient):
// at each lattice point a vector whose component a is byte a of the point's cell hash in
// [-1, 1], the corners' vectors blended as value noise blends its values, component by
// component; one hash per corner serves every component. The bytes are blended, then mapped
// to [-1, 1] (the map is linear: one map per component, not one per corner). Components past
// `dims` are 0.
fn wgpu_noise_value_vector(h: array<u32, 16>, f: vec4<f32>, dims: u32) -> vec4<f32> {
    var v = vec4<f32>(0.0);
    for (var a = 0u; a < dims; a = a + 1u) {
        v[a] = wgpu_noise_byte_unit(wgpu_noise_value_blend(wgpu_noise_value_corner_bytes(h, a, dims), f, dims));
    }
    return v;
}

// wgpu_noise_value_vector and each component's gradient: d[a] = (component a, d/df0, ..., d/df3),
// the blend's gradient times the map's slope 1 / 127.5 (the map's clamp never bites: 255 maps
// to 1 in f32).
fn wgpu_noise_value_vector_deriv(h: array<u32, 16>, f: vec4<f32>, dims: u32) -> array<array<f32, 5>, 4> {
    var d: array<array<f32, 5>, 4>;
    for (var a = 0u; a < dims; a = a + 1u) {
        let b = wgpu_noise_value_blend_deriv(wgpu_noise_value_corner_bytes(h, a, dims), f, dims);
        d[a][0] = wgpu_noise_byte_unit(b[0]);
        for (var j = 1u; j < 5u; j = j + 1u) {
            d[a][j] = b[j] * (1.0 / 127.5);
        }
    }
    return d;
}

// Value noise of vectors in 2D, 3D and 4D repeating every `period` cells along each axis (256:
// not tiled), and with each component's gradient.
fn wgpu_noise_value_vector2_periodic(p: vec2<f32>, period: vec2<u32>) -> vec4<f32> {
    let c = floor(p);
    return wgpu_noise_value_vector(wgpu_noise_value_hashes2(c, period), vec4<f32>(p - c, 0.0, 0.0), 2u);
}

fn wgpu_noise_value_vector3_periodic(p: vec3<f32>, period: vec3<u32>) -> vec4<f32> {
    let c = floor(p);
    return wgpu_noise_value_vector(wgpu_noise_value_hashes3(c, period), vec4<f32>(p - c, 0.0), 3u);
}

fn wgpu_noise_value_vector4_periodic(p: vec4<f32>, period: vec4<u32>) -> vec4<f32> {
    let c = floor(p);
    return wgpu_noise_value_vector(wgpu_noise_value_hashes4(c, period), p - c, 4u);
}

fn wgpu_noise_value_vector2_periodic_deriv(p: vec2<f32>, period: vec2<u32>) -> array<array<f32, 5>, 4> {
    let c = floor(p);
    return wgpu_noise_value_vector_deriv(wgpu_noise_value_hashes2(c, period), vec4<f32>(p - c, 0.0, 0.0), 2u);
}

fn wgpu_noise_value_vector3_periodic_deriv(p: vec3<f32>, period: vec3<u32>) -> array<array<f32, 5>, 4> {
    let c = floor(p);
    return wgpu_noise_value_vector_deriv(wgpu_noise_value_hashes3(c, period), vec4<f32>(p - c, 0.0), 3u);
}

fn wgpu_noise_value_vector4_periodic_deriv(p: vec4<f32>, period: vec4<u32>) -> array<array<f32, 5>, 4> {
    let c = floor(p);
    return wgpu_noise_value_vector_deriv(wgpu_noise_value_hashes4(c, period), p - c, 4u);
}
