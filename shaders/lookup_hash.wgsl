// The computational (texture-free) lookup variant: the same functions as lookup.wgsl,
// computed with an integer hash instead of texture fetches (as in McEwan et al. 2012).
// CPU mirror: `IntegerHasher` in src/cpu/lookup.rs; keep the two in sync.
//
// P(i) = wgpu_noise_lowbias32((i & 255) ^ (key << 8)) & 255 with the seed's 24-bit key; gradients are
// decoded from the hash bits (the same 12 and 32 gradients as the tables); the 4D
// traversal order is computed by rank counting. No arrays are indexed dynamically (slow
// on some drivers).

// The seed's hash key (`tables::hash_key_for_seed`), set per pipeline.
// Its id is `HASH_KEY_OVERRIDE_ID` in src/shader.rs (keep in sync): module systems rename
// the override, the id stays.
@id(28271) override WGPU_NOISE_HASH_KEY: u32 = 0u;

// Chris Wellons' lowbias32 integer hash.
fn wgpu_noise_lowbias32(v: u32) -> u32 {
    var x = v;
    x = x ^ (x >> 16u);
    x = x * 0x7feb352du;
    x = x ^ (x >> 15u);
    x = x * 0x846ca68bu;
    x = x ^ (x >> 16u);
    return x;
}

fn wgpu_noise_hash_p(i: u32) -> u32 {
    return wgpu_noise_lowbias32((i & 255u) ^ (WGPU_NOISE_HASH_KEY << 8u)) & 255u;
}

// T(a, b) = P(a + P(b)).
fn wgpu_noise_hash2(a: u32, b: u32) -> u32 {
    return wgpu_noise_hash_p(a + wgpu_noise_hash_p(b));
}

// grad3[h % 12]: group h / 4 says which component is 0, bits 0 and 1 give the signs.
fn wgpu_noise_grad3_at(a: u32, b: u32) -> vec3<f32> {
    let h = wgpu_noise_hash2(a, b) % 12u;
    let s1 = select(1.0, -1.0, (h & 1u) != 0u);
    let s2 = select(1.0, -1.0, (h & 2u) != 0u);
    let group = h / 4u;
    if (group == 0u) { return vec3<f32>(s1, s2, 0.0); }
    if (group == 1u) { return vec3<f32>(s1, 0.0, s2); }
    return vec3<f32>(0.0, s1, s2);
}

// grad4[h % 32]: group h / 8 says which component is 0, bits 2, 1, 0 give the signs.
fn wgpu_noise_grad4_at(a: u32, b: u32) -> vec4<f32> {
    let h = wgpu_noise_hash2(a, b) % 32u;
    let sa = select(1.0, -1.0, (h & 4u) != 0u);
    let sb = select(1.0, -1.0, (h & 2u) != 0u);
    let sc = select(1.0, -1.0, (h & 1u) != 0u);
    let group = h / 8u;
    if (group == 0u) { return vec4<f32>(0.0, sa, sb, sc); }
    if (group == 1u) { return vec4<f32>(sa, 0.0, sb, sc); }
    if (group == 2u) { return vec4<f32>(sa, sb, 0.0, sc); }
    return vec4<f32>(sa, sb, sc, 0.0);
}

// P(a).
fn wgpu_noise_perm1(a: u32) -> u32 {
    return wgpu_noise_hash_p(a);
}

// Rank counting: each axis's rank is the number of comparisons it wins.
fn wgpu_noise_simplex4_order(c: u32) -> vec4<u32> {
    let xy = (c >> 5u) & 1u;
    let xz = (c >> 4u) & 1u;
    let yz = (c >> 3u) & 1u;
    let xw = (c >> 2u) & 1u;
    let yw = (c >> 1u) & 1u;
    let zw = c & 1u;
    return vec4<u32>(xy + xz + xw, (1u - xy) + yz + yw, (1u - xz) + (1u - yz) + zw,
                     (1u - xw) + (1u - yw) + (1u - zw));
}
