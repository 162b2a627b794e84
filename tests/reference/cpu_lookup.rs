//! The CPU lookups (`cpu::lookup`): a lookup knows its variant and seed, gradient indices
//! decode to the tables' gradients, the point hash is the documented one, and rank counting
//! gives every 4D traversal order.

use wgpu_noise::cpu::lookup::{
    grad3_of_index, grad4_of_index, CpuLookup, IntegerHasher, NoiseHasher,
};
use wgpu_noise::gpu::LookupVariant;
use wgpu_noise::tables::{GRAD3, GRAD4, SIMPLEX4_ORDER};

#[test]
fn a_cpu_lookup_is_the_variant_and_seed_it_was_made_for() {
    for variant in [LookupVariant::Textures, LookupVariant::Hash] {
        let lookup = CpuLookup::new(variant, 7);
        assert_eq!(lookup.variant(), variant);
        assert!(lookup.is(variant, 7));
        assert!(!lookup.is(variant, 8));
    }
    assert!(!CpuLookup::new(LookupVariant::Hash, 7).is(LookupVariant::Textures, 7));
    assert_eq!(
        CpuLookup::new(LookupVariant::Hash, 7),
        CpuLookup::Hash(IntegerHasher::new(7))
    );
}

#[test]
fn decoded_gradients_are_the_tables() {
    for n in 0..12 {
        assert_eq!(grad3_of_index::<f64>(n), GRAD3[n as usize].map(f64::from));
    }
    for n in 0..32 {
        assert_eq!(grad4_of_index::<f64>(n), GRAD4[n as usize].map(f64::from));
    }
}

#[test]
fn the_point_hash_is_the_documented_combination_and_mix() {
    // Values from an independent transcription of the docs' formula (Python).
    assert_eq!(IntegerHasher { key: 0 }.point_hash2(0, 0), 0);
    assert_eq!(IntegerHasher { key: 0 }.point_hash3(1, 2, 3), 0xab73_ab9f);
    assert_eq!(
        IntegerHasher { key: 0x12_3456 }.point_hash4(1, 2, 3, 4),
        0x2186_7a61
    );
    // Coordinates are taken mod 256 (300 = 44 + 256).
    assert_eq!(
        IntegerHasher { key: 0xab_cdef }.point_hash2(300, 7),
        0x0738_fdda
    );
}

#[test]
fn rank_counting_reproduces_every_possible_traversal_order() {
    let hash = IntegerHasher::new(0);
    for (c, row) in SIMPLEX4_ORDER.iter().enumerate() {
        if *row != [0, 0, 0, 0] {
            assert_eq!(hash.simplex4_order(c as u32), row.map(u32::from), "c = {c}");
        }
    }
}
