// The computational (texture-free) lookup variant: the same functions as lookup.wgsl,
// computed with an integer hash instead of texture fetches (as in McEwan et al. 2012).
// CPU mirror: `IntegerHasher` in src/cpu/lookup.rs; keep the two in sync.
//
// Each lattice point is hashed once, whole: its coordinates mod 256 (the lookups' own
// period, as the texture variant) are weighted by odd primes and xor-combined with the seed's
// 24-bit key in bits 8-31 (as FastNoise2 combines a corner), then mixed: a multiply, and the
// second half of Wellons' lowbias32. The hash's top bits pick the gradient (the same 12 and
// 32 gradients as the tables), its bytes give a cell's feature jitter. The 4D traversal order
// is computed by rank counting. No arrays are indexed dynamically (slow on some drivers).

// The seed's hash key (`tables::hash_key_for_seed`), set per pipeline.
// Its id is `HASH_KEY_OVERRIDE_ID` in src/shader.rs (keep in sync): module systems rename
// the override, the id stays.
@id(28271) override WGPU_NOISE_HASH_KEY: u32 = 0u;

// The mix of a combined lattice point.
fn wgpu_noise_point_mix(v: u32) -> u32 {
    var h = v * 0x27d4eb2du;
    h = h ^ (h >> 15u);
    h = h * 0x846ca68bu;
    return h ^ (h >> 16u);
}

// The seed's word: the key above the low 8 bits.
fn wgpu_noise_seed_word() -> u32 {
    return WGPU_NOISE_HASH_KEY << 8u;
}

// The hashes of 2D, 3D and 4D lattice points: each coordinate mod 256 times its axis's prime.
fn wgpu_noise_point_hash2(a: u32, b: u32) -> u32 {
    return wgpu_noise_point_mix(wgpu_noise_seed_word() ^ ((a & 255u) * 501125321u)
                                ^ ((b & 255u) * 1136930381u));
}

fn wgpu_noise_point_hash3(a: u32, b: u32, c: u32) -> u32 {
    return wgpu_noise_point_mix(wgpu_noise_seed_word() ^ ((a & 255u) * 501125321u)
                                ^ ((b & 255u) * 1136930381u) ^ ((c & 255u) * 1720413743u));
}

fn wgpu_noise_point_hash4(a: u32, b: u32, c: u32, d: u32) -> u32 {
    return wgpu_noise_point_mix(wgpu_noise_seed_word() ^ ((a & 255u) * 501125321u)
                                ^ ((b & 255u) * 1136930381u) ^ ((c & 255u) * 1720413743u)
                                ^ ((d & 255u) * 1066037191u));
}

// grad3[n]: group n / 4 says which component is 0, bits 0 and 1 give the signs; n is the
// top 16 bits of h scaled to 0..11.
fn wgpu_noise_grad3_from_hash(h: u32) -> vec3<f32> {
    let n = ((h >> 16u) * 12u) >> 16u;
    let s1 = select(1.0, -1.0, (n & 1u) != 0u);
    let s2 = select(1.0, -1.0, (n & 2u) != 0u);
    let group = n / 4u;
    if (group == 0u) { return vec3<f32>(s1, s2, 0.0); }
    if (group == 1u) { return vec3<f32>(s1, 0.0, s2); }
    return vec3<f32>(0.0, s1, s2);
}

// grad4[n] for n the top 5 bits of h: group n / 8 says which component is 0, bits 2, 1, 0
// give the signs.
fn wgpu_noise_grad4_from_hash(h: u32) -> vec4<f32> {
    let n = h >> 27u;
    let sa = select(1.0, -1.0, (n & 4u) != 0u);
    let sb = select(1.0, -1.0, (n & 2u) != 0u);
    let sc = select(1.0, -1.0, (n & 1u) != 0u);
    let group = n / 8u;
    if (group == 0u) { return vec4<f32>(0.0, sa, sb, sc); }
    if (group == 1u) { return vec4<f32>(sa, 0.0, sb, sc); }
    if (group == 2u) { return vec4<f32>(sa, sb, 0.0, sc); }
    return vec4<f32>(sa, sb, sc, 0.0);
}

// The gradient of the 2D lattice point (a, b): a grad3 gradient's x, y.
fn wgpu_noise_lattice_grad2(a: u32, b: u32) -> vec2<f32> {
    return wgpu_noise_grad3_from_hash(wgpu_noise_point_hash2(a, b)).xy;
}

// The gradient of the 3D lattice point (a, b, c).
fn wgpu_noise_lattice_grad3(a: u32, b: u32, c: u32) -> vec3<f32> {
    return wgpu_noise_grad3_from_hash(wgpu_noise_point_hash3(a, b, c));
}

// The gradient of the 4D lattice point (a, b, c, d).
fn wgpu_noise_lattice_grad4(a: u32, b: u32, c: u32, d: u32) -> vec4<f32> {
    return wgpu_noise_grad4_from_hash(wgpu_noise_point_hash4(a, b, c, d));
}

// The hash of a cellular cell (2D, 3D, 4D), read with wgpu_noise_cell_byte.
fn wgpu_noise_cell_hash2(a: u32, b: u32) -> u32 {
    return wgpu_noise_point_hash2(a, b);
}

fn wgpu_noise_cell_hash3(a: u32, b: u32, c: u32) -> u32 {
    return wgpu_noise_point_hash3(a, b, c);
}

fn wgpu_noise_cell_hash4(a: u32, b: u32, c: u32, d: u32) -> u32 {
    return wgpu_noise_point_hash4(a, b, c, d);
}

// Byte `slot` (0 to 255) of a cell with hash h: slots 0-3 the feature's jitter along x, y,
// z, w (the hash's bytes from the top), slot 4 the cell value (the top byte of h times an odd
// constant, a bijection of all 32 bits: 4D cells use every byte of h for the jitter).
fn wgpu_noise_cell_byte(h: u32, slot: u32) -> u32 {
    if (slot == 4u) { return (h * 0x9e3779b9u) >> 24u; }
    return (h >> (24u - 8u * slot)) & 255u;
}

// The key of a lattice point: its hash, the gradient decoded from it (as in
// wgpu_noise_lattice_gradN) and its cell hash itself.
fn wgpu_noise_lattice_key2(a: u32, b: u32) -> u32 {
    return wgpu_noise_point_hash2(a, b);
}

fn wgpu_noise_lattice_key3(a: u32, b: u32, c: u32) -> u32 {
    return wgpu_noise_point_hash3(a, b, c);
}

fn wgpu_noise_lattice_key4(a: u32, b: u32, c: u32, d: u32) -> u32 {
    return wgpu_noise_point_hash4(a, b, c, d);
}

fn wgpu_noise_key_grad2(k: u32) -> vec2<f32> {
    return wgpu_noise_grad3_from_hash(k).xy;
}

fn wgpu_noise_key_grad3(k: u32) -> vec3<f32> {
    return wgpu_noise_grad3_from_hash(k);
}

fn wgpu_noise_key_grad4(k: u32) -> vec4<f32> {
    return wgpu_noise_grad4_from_hash(k);
}

fn wgpu_noise_key_hash(k: u32) -> u32 {
    return k;
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
