// EXPERIMENT, not the product: the fetch helpers of shaders/lookup.wgsl (same results)
// reading storage buffers instead of textures, to measure what texture fetches cost on a
// software rasterizer. sweep.rs beside this file renames the calls in classic.wgsl,
// simplex.wgsl, cellular.wgsl and fractal.wgsl (wgpu_noise_lattice_grad3 ->
// buf_wgpu_noise_lattice_grad3, ...) and keeps lookup.wgsl itself for its other helpers
// (wgpu_noise_wrap256, ...); its textures stay declared at bindings 0-3 but are then unused.
// Buffers hold the very texels of src/tables.rs, one u32 per texel (r in the low byte);
// `perm` holds one texel per u32.
@group(0) @binding(4) var<storage, read> noise_hash_grad3_buf: array<u32>;
@group(0) @binding(5) var<storage, read> noise_grad4_buf: array<u32>;
@group(0) @binding(6) var<storage, read> noise_perm_buf: array<u32>;
@group(0) @binding(7) var<storage, read> noise_simplex4_buf: array<u32>;

fn texel256(a: u32, b: u32) -> u32 {
    return ((b & 255u) << 8u) | (a & 255u);
}

fn unpack_u8x4(t: u32) -> vec4<u32> {
    return vec4<u32>(t & 255u, (t >> 8u) & 255u, (t >> 16u) & 255u, t >> 24u);
}

fn buf_wgpu_noise_hash2(a: u32, b: u32) -> u32 {
    return noise_hash_grad3_buf[texel256(a, b)] & 255u;
}

fn buf_wgpu_noise_grad3_at(a: u32, b: u32) -> vec3<f32> {
    return vec3<f32>(unpack_u8x4(noise_hash_grad3_buf[texel256(a, b)]).yzw) - 1.0;
}

fn buf_wgpu_noise_grad4_at(a: u32, b: u32) -> vec4<f32> {
    return vec4<f32>(unpack_u8x4(noise_grad4_buf[texel256(a, b)])) - 1.0;
}

fn buf_wgpu_noise_perm1(a: u32) -> u32 {
    return noise_perm_buf[a & 255u];
}

fn buf_wgpu_noise_simplex4_order(c: u32) -> vec4<u32> {
    return unpack_u8x4(noise_simplex4_buf[c & 63u]);
}

fn buf_wgpu_noise_lattice_grad2(a: u32, b: u32) -> vec2<f32> {
    return buf_wgpu_noise_grad3_at(a, b).xy;
}

fn buf_wgpu_noise_lattice_grad3(a: u32, b: u32, c: u32) -> vec3<f32> {
    return buf_wgpu_noise_grad3_at(a, b + buf_wgpu_noise_perm1(c));
}

fn buf_wgpu_noise_lattice_grad4(a: u32, b: u32, c: u32, d: u32) -> vec4<f32> {
    return buf_wgpu_noise_grad4_at(a, b + buf_wgpu_noise_hash2(c, d));
}

fn buf_wgpu_noise_cell_hash2(a: u32, b: u32) -> u32 {
    return buf_wgpu_noise_hash2(a, b);
}

fn buf_wgpu_noise_cell_hash3(a: u32, b: u32, c: u32) -> u32 {
    return buf_wgpu_noise_hash2(a, b + buf_wgpu_noise_perm1(c));
}

fn buf_wgpu_noise_cell_hash4(a: u32, b: u32, c: u32, d: u32) -> u32 {
    return buf_wgpu_noise_hash2(a, b + buf_wgpu_noise_hash2(c, d));
}

fn buf_wgpu_noise_cell_byte(h: u32, slot: u32) -> u32 {
    return buf_wgpu_noise_perm1(h + 51u * slot);
}

fn buf_wgpu_noise_lattice_key2(a: u32, b: u32) -> u32 {
    return texel256(a, b);
}

fn buf_wgpu_noise_lattice_key3(a: u32, b: u32, c: u32) -> u32 {
    return texel256(a, b + buf_wgpu_noise_perm1(c));
}

fn buf_wgpu_noise_lattice_key4(a: u32, b: u32, c: u32, d: u32) -> u32 {
    return texel256(a, b + buf_wgpu_noise_hash2(c, d));
}

fn buf_wgpu_noise_key_grad2(k: u32) -> vec2<f32> {
    return buf_wgpu_noise_grad3_at(k & 255u, k >> 8u).xy;
}

fn buf_wgpu_noise_key_grad3(k: u32) -> vec3<f32> {
    return buf_wgpu_noise_grad3_at(k & 255u, k >> 8u);
}

fn buf_wgpu_noise_key_grad4(k: u32) -> vec4<f32> {
    return buf_wgpu_noise_grad4_at(k & 255u, k >> 8u);
}

fn buf_wgpu_noise_key_hash(k: u32) -> u32 {
    return buf_wgpu_noise_hash2(k & 255u, k >> 8u);
}
