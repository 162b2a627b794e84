// EXPERIMENT, not the product: shaders/lookup.wgsl with the same helpers (same names, same
// results) reading storage buffers instead of textures, to measure what texture fetches cost
// on a software rasterizer. Buffers hold the very texels of src/tables.rs, one u32 per texel
// (r in the low byte); `perm` holds one texel per u32. Bound at group 0 like the textures.
@group(0) @binding(0) var<storage, read> noise_hash_grad3_buf: array<u32>;
@group(0) @binding(1) var<storage, read> noise_grad4_buf: array<u32>;
@group(0) @binding(2) var<storage, read> noise_perm_buf: array<u32>;
@group(0) @binding(3) var<storage, read> noise_simplex4_buf: array<u32>;

fn wrap256(cell: f32) -> u32 {
    let r = cell - 256.0 * floor(cell / 256.0);
    return u32(r) & 255u;
}

fn texel256(a: u32, b: u32) -> u32 {
    return ((b & 255u) << 8u) | (a & 255u);
}

fn unpack_u8x4(t: u32) -> vec4<u32> {
    return vec4<u32>(t & 255u, (t >> 8u) & 255u, (t >> 16u) & 255u, t >> 24u);
}

fn hash2(a: u32, b: u32) -> u32 {
    return noise_hash_grad3_buf[texel256(a, b)] & 255u;
}

fn grad3_at(a: u32, b: u32) -> vec3<f32> {
    return vec3<f32>(unpack_u8x4(noise_hash_grad3_buf[texel256(a, b)]).yzw) - 1.0;
}

fn grad4_at(a: u32, b: u32) -> vec4<f32> {
    return vec4<f32>(unpack_u8x4(noise_grad4_buf[texel256(a, b)])) - 1.0;
}

fn perm1(a: u32) -> u32 {
    return noise_perm_buf[a & 255u];
}

fn simplex4_order(c: u32) -> vec4<u32> {
    return unpack_u8x4(noise_simplex4_buf[c & 63u]);
}
