//! The lookups on SIMD lanes (`cpu::simd::lookup`): gradient dot products, traversal
//! orders, and the gradients of points are the scalar ones bit for bit; the packed tables
//! hold the texels' gradients and refuse edited tables.
use wgpu_noise::cpu::lookup::{
    grad3_of_index, grad4_of_index, rank_order, reachable_comparison_codes, PackedWords,
};
use wgpu_noise::cpu::simd::lanes::{Isa, F, LANES, U};
use wgpu_noise::cpu::simd::lookup::{
    grad3_of_point, grad4_of_point, rank_order_lanes, Grad3, Grad4,
};
use wgpu_noise::tables::{PermutationTables, GRAD3, GRAD4};

/// `$check::<I>(name)` for each SIMD level `I` this CPU has.
macro_rules! on_each_level {
    ($check:ident) => {{
        $check::<wgpu_noise::cpu::simd::lanes::Sse2Lanes>("sse2");
        #[cfg(target_arch = "x86_64")]
        {
            use wgpu_noise::cpu::simd::lanes::{Avx2Lanes, Avx512Lanes};
            if std::arch::is_x86_feature_detected!("avx2") {
                $check::<Avx2Lanes>("avx2");
            }
            if std::arch::is_x86_feature_detected!("avx512bw") {
                $check::<Avx512Lanes>("avx512");
            }
        }
    }};
}

/// Offsets that make signed zeros and roundings matter: zeros of both signs, equal
/// magnitudes (sums that cancel to zero), subnormals, values whose sums round or
/// overflow.
const OFFSETS: [f32; 12] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.3,
    -0.3,
    1e-40,
    -1e-40,
    3e38,
    -3e38,
    0.1,
    16_777_216.0,
];

/// Every `N`-tuple of [`OFFSETS`], in lane-sized chunks.
fn offset_lanes<const N: usize>() -> Vec<[F; N]> {
    let count = OFFSETS.len().pow(N as u32);
    let tuples: Vec<[f32; N]> = (0..count)
        .map(|mut k| {
            std::array::from_fn(|_| {
                let v = OFFSETS[k % OFFSETS.len()];
                k /= OFFSETS.len();
                v
            })
        })
        .collect();
    tuples
        .chunks(LANES)
        .map(|chunk| std::array::from_fn(|a| F(std::array::from_fn(|i| chunk[i % chunk.len()][a]))))
        .collect()
}

/// The scalar reference's `g[0] * d[0] + g[1] * d[1] + …`.
fn scalar_dot(g: &[f32], d: &[f32]) -> f32 {
    let mut n = g[0] * d[0];
    for a in 1..g.len() {
        n += g[a] * d[a];
    }
    n
}

fn assert_same<const N: usize>(what: &str, n: u32, d: &[F; N], got: F, g: &[f32]) {
    for i in 0..LANES {
        let di: Vec<f32> = d.iter().map(|f| f.0[i]).collect();
        let want = scalar_dot(&g[..N], &di);
        assert_eq!(
            got.0[i].to_bits(),
            want.to_bits(),
            "{what} of gradient {n} {g:?} and {di:?}: {} instead of {want}",
            got.0[i]
        );
    }
}

/// The lanes of an ISA without register tables (SSE2's and AVX2's form; [`Isa::read16`]
/// `None`).
#[derive(Clone, Copy)]
struct SignBits;

impl Isa for SignBits {
    fn floor<const N: usize>(x: F<N>) -> F<N> {
        x.map(f32::floor)
    }
}

/// The lanes of an ISA that reads 16- and 32-entry tables in registers (AVX-512's choice
/// of form), its reads done lane by lane and its sums of products unfused.
#[derive(Clone, Copy)]
struct RegisterTables;

impl Isa for RegisterTables {
    fn floor<const N: usize>(x: F<N>) -> F<N> {
        x.map(f32::floor)
    }

    fn read16(table: &[f32; 16], n: U) -> Option<F> {
        Some(F(n.0.map(|i| table[i as usize & 15])))
    }

    fn read32(table: &[f32; 32], n: U) -> Option<F> {
        Some(F(n.0.map(|i| table[i as usize & 31])))
    }
}

/// Both forms of each dot product (sign bits, register tables with unfused sums) and the
/// form of every level this CPU has (AVX-512's fuses each product after the first with its
/// sum) equal the scalar products and sums, for every gradient index and every tuple of
/// offsets.
#[test]
fn index_dot_products_are_the_scalar_multiply_adds_bit_for_bit() {
    check_dot_products::<SignBits>("sign bits");
    check_dot_products::<RegisterTables>("register tables");
    on_each_level!(check_dot_products);
}

fn check_dot_products<I: Isa>(form: &str) {
    for n in 0..12 {
        let g = grad3_of_index::<f32>(n);
        for d in offset_lanes::<2>() {
            let dot = Grad3(U::splat(n)).dot2::<I>(d);
            assert_same(&format!("{form}: dot2"), n, &d, dot, &g);
        }
        for d in offset_lanes::<3>() {
            let dot = Grad3(U::splat(n)).dot3::<I>(d);
            assert_same(&format!("{form}: dot3"), n, &d, dot, &g);
        }
    }
    for n in 0..32 {
        let g = grad4_of_index::<f32>(n);
        for d in offset_lanes::<4>() {
            let dot = Grad4(U::splat(n)).dot::<I>(d);
            assert_same(&format!("{form}: dot"), n, &d, dot, &g);
        }
    }
}

#[test]
fn the_traversal_table_is_the_rank_order_for_every_code_reals_give() {
    let mut codes: Vec<u32> = reachable_comparison_codes().collect();
    codes.sort_unstable();
    codes.dedup();
    // Ties read as the later axis winning, so the codes are those of the 24 orders.
    assert_eq!(codes.len(), 24);
    for c in codes {
        let want = wgpu_noise::tables::SIMPLEX4_ORDER[c as usize].map(u32::from);
        assert_eq!(rank_order(c), want, "code {c}");
        let lanes = rank_order_lanes(U::splat(c));
        assert_eq!(lanes.map(|v| v.0[0]), want, "code {c} on lanes");
    }
}

#[test]
fn a_table_lookup_packs_its_tables_once_and_not_edited_ones() {
    let lookup = wgpu_noise::cpu::TableLookup::new(PermutationTables::new(7));
    let (first, second) = (lookup.packed().unwrap(), lookup.packed().unwrap());
    assert!(std::ptr::eq(first.words, second.words));
    let mut edited = PermutationTables::new(7);
    edited.simplex4[0] = [3, 2, 1, 0];
    let lookup = wgpu_noise::cpu::TableLookup::new(edited);
    assert!(lookup.packed().is_none());
    assert!(lookup.packed().is_none());
}

#[test]
fn packed_words_refuse_an_edited_traversal_table() {
    let mut tables = PermutationTables::new(3);
    assert!(PackedWords::new(&tables).is_some());
    // Code 0 (x ≤ y ≤ z ≤ w) reversed.
    tables.simplex4[0] = [3, 2, 1, 0];
    assert!(PackedWords::new(&tables).is_none());
}

/// The gradients of combined lattice points, without `point_mix`'s last step on the
/// lanes, are the scalar `grad3_index`/`grad4_index` of the whole mix, at the ends
/// of the range and at a million points spread over it, on every level this CPU has.
#[test]
fn gradients_of_points_are_those_of_the_whole_mix() {
    on_each_level!(check_gradients_of_points);
}

fn check_gradients_of_points<I: Isa>(level: &str) {
    let points = (0..1_000_000u32)
        .map(|k| k.wrapping_mul(4_294_967_291))
        .chain([0, 1, u32::MAX, u32::MAX - 1, 1 << 31]);
    let points: Vec<u32> = points.collect();
    for chunk in points.chunks(LANES) {
        let mut lanes = [0u32; LANES];
        lanes[..chunk.len()].copy_from_slice(chunk);
        let (g3, g4) = (grad3_of_point::<I>(U(lanes)), grad4_of_point(U(lanes)));
        for (i, &v) in chunk.iter().enumerate() {
            let h = wgpu_noise::cpu::lookup::point_mix(v);
            assert_eq!(
                g3.0 .0[i],
                wgpu_noise::cpu::lookup::grad3_index(h),
                "{level}: grad3 of {v}"
            );
            assert_eq!(
                g4.0 .0[i],
                wgpu_noise::cpu::lookup::grad4_index(h),
                "{level}: grad4 of {v}"
            );
        }
    }
}

#[test]
fn grad3_vectors_are_the_scalar_gradients() {
    for n in 0..12 {
        let v = Grad3(U::splat(n)).vector();
        let want = grad3_of_index::<f32>(n);
        for a in 0..3 {
            assert_eq!(v[a].0[0].to_bits(), want[a].to_bits(), "gradient {n}");
        }
    }
}

#[test]
fn packed_words_hold_the_gradient_indices_of_the_texels() {
    let tables = PermutationTables::new(7);
    let packed = PackedWords::new(&tables).expect("new tables have table gradients");
    for (i, t) in tables.hash_grad3.iter().enumerate() {
        let n = packed.hash_grad3[i] >> 8;
        let g = GRAD3[n as usize].map(|c| (c + 1) as u8);
        assert_eq!(
            (packed.hash_grad3[i] & 255, g),
            (u32::from(t[0]), [t[1], t[2], t[3]])
        );
    }
    for (i, t) in tables.grad4.iter().enumerate() {
        let g = GRAD4[packed.grad4[i] as usize].map(|c| (c + 1) as u8);
        assert_eq!(g, *t);
    }
}

#[test]
fn tables_with_other_gradients_are_not_packed() {
    let mut tables = PermutationTables::new(0);
    tables.hash_grad3[5][1..].copy_from_slice(&[2, 2, 2]);
    assert!(PackedWords::new(&tables).is_none());
    let mut tables = PermutationTables::new(0);
    tables.grad4[9] = [1, 1, 1, 1];
    assert!(PackedWords::new(&tables).is_none());
    let mut tables = PermutationTables::new(0);
    tables.grad4[9] = [3, 1, 1, 1];
    assert!(PackedWords::new(&tables).is_none());
}
