// Classic Perlin noise in 2D, 3D and 4D, every table lookup a texture fetch
// (shaders/lookup.wgsl). CPU mirror: src/cpu/classic.rs -- same names, same order of
// operations; keep the two in sync. Zero at every lattice point.
// Names other than the documented API carry the wgpu_noise_ / WGPU_NOISE_ prefix here
// (the CPU mirror drops it): an application embedding this source keeps its own names.

// The quintic fade curve 6t^5 - 15t^4 + 10t^3, in the Java code's order of operations.
fn wgpu_noise_fade(t: f32) -> f32 {
    return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
}

// Linear interpolation as the Java code writes it (WGSL's mix may use a different form).
fn wgpu_noise_lerp(a: f32, b: f32, t: f32) -> f32 {
    return (1.0 - t) * a + t * b;
}

// 2D classic Perlin noise.
fn classic2(p: vec2<f32>) -> f32 {
    return classic2_periodic(p, vec2<u32>(256u));
}

// 2D classic noise that repeats every `period` cells along each axis (Perlin's "pnoise");
// a period of 256 is the plain function.
fn classic2_periodic(p: vec2<f32>, period: vec2<u32>) -> f32 {
    let cx = floor(p.x);
    let cy = floor(p.y);
    let x = p.x - cx;
    let y = p.y - cy;
    let xi = wgpu_noise_cell_pair(cx, period.x);
    let yi = wgpu_noise_cell_pair(cy, period.y);
    let g00 = wgpu_noise_lattice_grad2(xi[0], yi[0]);
    let g10 = wgpu_noise_lattice_grad2(xi[1], yi[0]);
    let g01 = wgpu_noise_lattice_grad2(xi[0], yi[1]);
    let g11 = wgpu_noise_lattice_grad2(xi[1], yi[1]);
    let n00 = g00.x * x + g00.y * y;
    let n10 = g10.x * (x - 1.0) + g10.y * y;
    let n01 = g01.x * x + g01.y * (y - 1.0);
    let n11 = g11.x * (x - 1.0) + g11.y * (y - 1.0);
    let u = wgpu_noise_fade(x);
    let v = wgpu_noise_fade(y);
    let nx0 = wgpu_noise_lerp(n00, n10, u);
    let nx1 = wgpu_noise_lerp(n01, n11, u);
    return wgpu_noise_lerp(nx0, nx1, v);
}

fn wgpu_noise_dot3(g: vec3<f32>, x: f32, y: f32, z: f32) -> f32 {
    return g.x * x + g.y * y + g.z * z;
}

// 3D classic Perlin noise (Gustavson's ClassicNoise.noise).
fn classic3(p: vec3<f32>) -> f32 {
    return classic3_periodic(p, vec3<u32>(256u));
}

// 3D classic noise that repeats every `period` cells along each axis.
fn classic3_periodic(p: vec3<f32>, period: vec3<u32>) -> f32 {
    let cx = floor(p.x);
    let cy = floor(p.y);
    let cz = floor(p.z);
    let x = p.x - cx;
    let y = p.y - cy;
    let z = p.z - cz;
    let xi = wgpu_noise_cell_pair(cx, period.x);
    let yi = wgpu_noise_cell_pair(cy, period.y);
    let zi = wgpu_noise_cell_pair(cz, period.z);
    let g000 = wgpu_noise_lattice_grad3(xi[0], yi[0], zi[0]);
    let g001 = wgpu_noise_lattice_grad3(xi[0], yi[0], zi[1]);
    let g010 = wgpu_noise_lattice_grad3(xi[0], yi[1], zi[0]);
    let g011 = wgpu_noise_lattice_grad3(xi[0], yi[1], zi[1]);
    let g100 = wgpu_noise_lattice_grad3(xi[1], yi[0], zi[0]);
    let g101 = wgpu_noise_lattice_grad3(xi[1], yi[0], zi[1]);
    let g110 = wgpu_noise_lattice_grad3(xi[1], yi[1], zi[0]);
    let g111 = wgpu_noise_lattice_grad3(xi[1], yi[1], zi[1]);
    let n000 = wgpu_noise_dot3(g000, x, y, z);
    let n100 = wgpu_noise_dot3(g100, x - 1.0, y, z);
    let n010 = wgpu_noise_dot3(g010, x, y - 1.0, z);
    let n110 = wgpu_noise_dot3(g110, x - 1.0, y - 1.0, z);
    let n001 = wgpu_noise_dot3(g001, x, y, z - 1.0);
    let n101 = wgpu_noise_dot3(g101, x - 1.0, y, z - 1.0);
    let n011 = wgpu_noise_dot3(g011, x, y - 1.0, z - 1.0);
    let n111 = wgpu_noise_dot3(g111, x - 1.0, y - 1.0, z - 1.0);
    let u = wgpu_noise_fade(x);
    let v = wgpu_noise_fade(y);
    let w = wgpu_noise_fade(z);
    let nx00 = wgpu_noise_lerp(n000, n100, u);
    let nx01 = wgpu_noise_lerp(n001, n101, u);
    let nx10 = wgpu_noise_lerp(n010, n110, u);
    let nx11 = wgpu_noise_lerp(n011, n111, u);
    let nxy0 = wgpu_noise_lerp(nx00, nx10, v);
    let nxy1 = wgpu_noise_lerp(nx01, nx11, v);
    return wgpu_noise_lerp(nxy0, nxy1, w);
}

// The wrapped cell indices of a 4D cell: column 0 = the cell, column 1 = the next cell.
struct wgpu_noise_Cell4 {
    x: vec2<u32>,
    y: vec2<u32>,
    z: vec2<u32>,
    w: vec2<u32>,
}

// One 4D corner (a, b, c, d) in {0,1}^4: its gradient dotted with the offset from it.
fn wgpu_noise_classic4_corner(cell: wgpu_noise_Cell4, f: vec4<f32>, o: vec4<u32>) -> f32 {
    let g = wgpu_noise_lattice_grad4(cell.x[o.x], cell.y[o.y], cell.z[o.z], cell.w[o.w]);
    let d = f - vec4<f32>(o);
    return g.x * d.x + g.y * d.y + g.z * d.z + g.w * d.w;
}

// Interpolates two corners along x (the CPU's `along_x`).
fn wgpu_noise_classic4_along_x(cell: wgpu_noise_Cell4, f: vec4<f32>, u: f32, b: u32, c: u32, d: u32) -> f32 {
    return wgpu_noise_lerp(wgpu_noise_classic4_corner(cell, f, vec4<u32>(0u, b, c, d)),
                wgpu_noise_classic4_corner(cell, f, vec4<u32>(1u, b, c, d)), u);
}

// 4D classic Perlin noise: interpolation along x, then y, then z, then w.
fn classic4(p: vec4<f32>) -> f32 {
    return classic4_periodic(p, vec4<u32>(256u));
}

// 4D classic noise that repeats every `period` cells along each axis.
fn classic4_periodic(p: vec4<f32>, period: vec4<u32>) -> f32 {
    let c = floor(p);
    let f = p - c;
    let cell = wgpu_noise_Cell4(wgpu_noise_cell_pair(c.x, period.x), wgpu_noise_cell_pair(c.y, period.y),
                     wgpu_noise_cell_pair(c.z, period.z), wgpu_noise_cell_pair(c.w, period.w));
    let u = wgpu_noise_fade(f.x);
    let v = wgpu_noise_fade(f.y);
    let s = wgpu_noise_fade(f.z);
    let q = wgpu_noise_fade(f.w);
    let y00 = wgpu_noise_lerp(wgpu_noise_classic4_along_x(cell, f, u, 0u, 0u, 0u), wgpu_noise_classic4_along_x(cell, f, u, 1u, 0u, 0u), v);
    let y10 = wgpu_noise_lerp(wgpu_noise_classic4_along_x(cell, f, u, 0u, 1u, 0u), wgpu_noise_classic4_along_x(cell, f, u, 1u, 1u, 0u), v);
    let y01 = wgpu_noise_lerp(wgpu_noise_classic4_along_x(cell, f, u, 0u, 0u, 1u), wgpu_noise_classic4_along_x(cell, f, u, 1u, 0u, 1u), v);
    let y11 = wgpu_noise_lerp(wgpu_noise_classic4_along_x(cell, f, u, 0u, 1u, 1u), wgpu_noise_classic4_along_x(cell, f, u, 1u, 1u, 1u), v);
    let z0 = wgpu_noise_lerp(y00, y10, s);
    let z1 = wgpu_noise_lerp(y01, y11, s);
    return wgpu_noise_lerp(z0, z1, q);
}

// The slope of wgpu_noise_fade: 30 t^2 (t - 1)^2.
fn wgpu_noise_fade_slope(t: f32) -> f32 {
    let s = t - 1.0;
    return 30.0 * t * t * s * s;
}

// The analytic gradients below interpolate the corner dots as the value does (along x, then
// y, then z, then w; corner a + 2b + 4c + 8d at offset (a, b, c, d)), every lerp
// (1 - u) lo + u hi carrying (1 - u) grad lo + u grad hi + (hi - lo) grad u; a corner dot's
// gradient is its corner's gradient (CPU: interpolate_deriv).

// classic2_periodic and its gradient: (value, d/dx, d/dy).
fn classic2_periodic_deriv(p: vec2<f32>, period: vec2<u32>) -> vec3<f32> {
    let c = floor(p);
    let f = p - c;
    let xi = wgpu_noise_cell_pair(c.x, period.x);
    let yi = wgpu_noise_cell_pair(c.y, period.y);
    var n: array<f32, 4>;
    var dn: array<vec2<f32>, 4>;
    for (var k = 0u; k < 4u; k = k + 1u) {
        let o = vec2<u32>(k & 1u, (k >> 1u) & 1u);
        let g = wgpu_noise_lattice_grad2(xi[o.x], yi[o.y]);
        let d = f - vec2<f32>(o);
        n[k] = g.x * d.x + g.y * d.y;
        dn[k] = g;
    }
    var len = 4u;
    for (var a = 0u; a < 2u; a = a + 1u) {
        let u = wgpu_noise_fade(f[a]);
        let du = wgpu_noise_fade_slope(f[a]);
        len = len / 2u;
        for (var k = 0u; k < len; k = k + 1u) {
            let lo = n[2u * k];
            let hi = n[2u * k + 1u];
            let dlo = dn[2u * k];
            let dhi = dn[2u * k + 1u];
            n[k] = wgpu_noise_lerp(lo, hi, u);
            var along = vec2<f32>(0.0);
            along[a] = (hi - lo) * du;
            dn[k] = (1.0 - u) * dlo + u * dhi + along;
        }
    }
    return vec3<f32>(n[0], dn[0]);
}

// classic3_periodic and its gradient: (value, d/dx, d/dy, d/dz).
fn classic3_periodic_deriv(p: vec3<f32>, period: vec3<u32>) -> vec4<f32> {
    let c = floor(p);
    let f = p - c;
    let xi = wgpu_noise_cell_pair(c.x, period.x);
    let yi = wgpu_noise_cell_pair(c.y, period.y);
    let zi = wgpu_noise_cell_pair(c.z, period.z);
    var n: array<f32, 8>;
    var dn: array<vec3<f32>, 8>;
    for (var k = 0u; k < 8u; k = k + 1u) {
        let o = vec3<u32>(k & 1u, (k >> 1u) & 1u, k >> 2u);
        let g = wgpu_noise_lattice_grad3(xi[o.x], yi[o.y], zi[o.z]);
        let d = f - vec3<f32>(o);
        n[k] = wgpu_noise_dot3(g, d.x, d.y, d.z);
        dn[k] = g;
    }
    var len = 8u;
    for (var a = 0u; a < 3u; a = a + 1u) {
        let u = wgpu_noise_fade(f[a]);
        let du = wgpu_noise_fade_slope(f[a]);
        len = len / 2u;
        for (var k = 0u; k < len; k = k + 1u) {
            let lo = n[2u * k];
            let hi = n[2u * k + 1u];
            let dlo = dn[2u * k];
            let dhi = dn[2u * k + 1u];
            n[k] = wgpu_noise_lerp(lo, hi, u);
            var along = vec3<f32>(0.0);
            along[a] = (hi - lo) * du;
            dn[k] = (1.0 - u) * dlo + u * dhi + along;
        }
    }
    return vec4<f32>(n[0], dn[0]);
}

// classic4_periodic and its gradient: (value, d/dx, d/dy, d/dz, d/dw).
fn classic4_periodic_deriv(p: vec4<f32>, period: vec4<u32>) -> array<f32, 5> {
    let c = floor(p);
    let f = p - c;
    let cell = wgpu_noise_Cell4(wgpu_noise_cell_pair(c.x, period.x), wgpu_noise_cell_pair(c.y, period.y),
                     wgpu_noise_cell_pair(c.z, period.z), wgpu_noise_cell_pair(c.w, period.w));
    var n: array<f32, 16>;
    var dn: array<vec4<f32>, 16>;
    for (var k = 0u; k < 16u; k = k + 1u) {
        let o = vec4<u32>(k & 1u, (k >> 1u) & 1u, (k >> 2u) & 1u, k >> 3u);
        let g = wgpu_noise_lattice_grad4(cell.x[o.x], cell.y[o.y], cell.z[o.z], cell.w[o.w]);
        let d = f - vec4<f32>(o);
        n[k] = g.x * d.x + g.y * d.y + g.z * d.z + g.w * d.w;
        dn[k] = g;
    }
    var len = 16u;
    for (var a = 0u; a < 4u; a = a + 1u) {
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
