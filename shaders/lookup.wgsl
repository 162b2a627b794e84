// Lookup textures of Gustavson's noise, and the fetches that read them.
// Keep in sync with src/tables.rs (texel packing) and src/cpu/lookup.rs (CPU mirror,
// `impl NoiseHasher for PermutationTables`). lookup_hash.wgsl offers the same functions without
// textures.
//
// Let P(i) = perm[i & 255] and T(a, b) = P(a + P(b)); the lattice point (a, b, c, d) hashes to
// T(a, b) in 2D, T(a, b + P(c)) in 3D and T(a, b + T(c, d)) in 4D (Perlin's nested chain).
//   wgpu_noise_hash_grad3      256x256 rgba8uint  texel (a, b): r = T(a, b), gba = grad3[T(a, b) % 12] + 1
//   wgpu_noise_grad4           256x256 rgba8uint  texel (a, b): rgba = grad4[T(a, b) % 32] + 1
//   wgpu_noise_perm            256x1   r8uint     texel (a, 0): P(a)
//   wgpu_noise_simplex4_table  64x1    rgba8uint  texel (c, 0): the 4D simplex traversal order simplex[c]
// All four are 2D textures: the OpenGL ES backend has no 1D textures, and the 1D ones
// read back wrong values there (wgpu 30 on Mesa llvmpipe; docs/backends.md).
// (Keep in sync with the texture contract, src/embed/contract.rs and docs/embedding.md.)
// Gradient components are stored with a +1 bias in an integer format: decoding is exact.
//
// The group index below is rewritten by src/shader.rs to the group the application chooses.
@group(0) @binding(0) var wgpu_noise_hash_grad3: texture_2d<u32>;
@group(0) @binding(1) var wgpu_noise_grad4: texture_2d<u32>;
@group(0) @binding(2) var wgpu_noise_perm: texture_2d<u32>;
@group(0) @binding(3) var wgpu_noise_simplex4_table: texture_2d<u32>;

// T(a, b) = P(a + P(b)): two permutation steps in one fetch.
fn wgpu_noise_hash2(a: u32, b: u32) -> u32 {
    return textureLoad(wgpu_noise_hash_grad3, vec2<u32>(a & 255u, b & 255u), 0).r;
}

// grad3[T(a, b) % 12].
fn wgpu_noise_grad3_at(a: u32, b: u32) -> vec3<f32> {
    let t = textureLoad(wgpu_noise_hash_grad3, vec2<u32>(a & 255u, b & 255u), 0);
    return vec3<f32>(t.gba) - 1.0;
}

// grad4[T(a, b) % 32].
fn wgpu_noise_grad4_at(a: u32, b: u32) -> vec4<f32> {
    return vec4<f32>(textureLoad(wgpu_noise_grad4, vec2<u32>(a & 255u, b & 255u), 0)) - 1.0;
}

// P(a): one permutation step.
fn wgpu_noise_perm1(a: u32) -> u32 {
    return textureLoad(wgpu_noise_perm, vec2<u32>(a & 255u, 0u), 0).r;
}

// The gradient of the 2D lattice point (a, b): grad3's x, y at T(a, b).
fn wgpu_noise_lattice_grad2(a: u32, b: u32) -> vec2<f32> {
    return wgpu_noise_grad3_at(a, b).xy;
}

// The gradient of the 3D lattice point (a, b, c): grad3 at T(a, b + P(c)).
fn wgpu_noise_lattice_grad3(a: u32, b: u32, c: u32) -> vec3<f32> {
    return wgpu_noise_grad3_at(a, b + wgpu_noise_perm1(c));
}

// The gradient of the 4D lattice point (a, b, c, d): grad4 at T(a, b + T(c, d)).
fn wgpu_noise_lattice_grad4(a: u32, b: u32, c: u32, d: u32) -> vec4<f32> {
    return wgpu_noise_grad4_at(a, b + wgpu_noise_hash2(c, d));
}

// The hash of a cellular cell (2D, 3D, 4D), read with wgpu_noise_cell_byte.
fn wgpu_noise_cell_hash2(a: u32, b: u32) -> u32 {
    return wgpu_noise_hash2(a, b);
}

fn wgpu_noise_cell_hash3(a: u32, b: u32, c: u32) -> u32 {
    return wgpu_noise_hash2(a, b + wgpu_noise_perm1(c));
}

fn wgpu_noise_cell_hash4(a: u32, b: u32, c: u32, d: u32) -> u32 {
    return wgpu_noise_hash2(a, b + wgpu_noise_hash2(c, d));
}

// Byte `slot` (0 to 255) of a cell with hash h, P(h + 51 slot): slots 0-3 the feature's
// jitter along x, y, z, w, slot 4 the cell value.
fn wgpu_noise_cell_byte(h: u32, slot: u32) -> u32 {
    return wgpu_noise_perm1(h + 51u * slot);
}

// The key of the lattice point (a, b), (a, b, c), (a, b, c, d): the texel its chain
// reaches, a + 256 b' with b' = b, b + P(c), b + T(c, d). Its gradient is stored there and
// its hash is the texel's first channel, T(a, b'), so one walk of the lattice looks each
// point up once for both; wgpu_noise_key_gradN(wgpu_noise_lattice_keyN(..)) is
// wgpu_noise_lattice_gradN(..).
fn wgpu_noise_lattice_key2(a: u32, b: u32) -> u32 {
    return (a & 255u) | ((b & 255u) << 8u);
}

fn wgpu_noise_lattice_key3(a: u32, b: u32, c: u32) -> u32 {
    return wgpu_noise_lattice_key2(a, b + wgpu_noise_perm1(c));
}

fn wgpu_noise_lattice_key4(a: u32, b: u32, c: u32, d: u32) -> u32 {
    return wgpu_noise_lattice_key2(a, b + wgpu_noise_hash2(c, d));
}

fn wgpu_noise_key_grad2(k: u32) -> vec2<f32> {
    return wgpu_noise_grad3_at(k & 255u, k >> 8u).xy;
}

fn wgpu_noise_key_grad3(k: u32) -> vec3<f32> {
    return wgpu_noise_grad3_at(k & 255u, k >> 8u);
}

fn wgpu_noise_key_grad4(k: u32) -> vec4<f32> {
    return wgpu_noise_grad4_at(k & 255u, k >> 8u);
}

// The hash of the lattice point of key k (its cell hash, read with wgpu_noise_cell_byte).
fn wgpu_noise_key_hash(k: u32) -> u32 {
    return wgpu_noise_hash2(k & 255u, k >> 8u);
}

// The 4D simplex traversal order for comparison code c.
fn wgpu_noise_simplex4_order(c: u32) -> vec4<u32> {
    return textureLoad(wgpu_noise_simplex4_table, vec2<u32>(c & 63u, 0u), 0);
}
