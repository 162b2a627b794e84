//! The lookup tables (`tables`): every seed gives a permutation, and the hash texels fold
//! two permutation steps.

use wgpu_noise::tables::{permutation_for_seed, PermutationTables};

#[test]
fn every_seed_gives_a_permutation() {
    for seed in [0, 1, 2, 42, u64::MAX] {
        let mut seen = [false; 256];
        for v in permutation_for_seed(seed) {
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|&s| s), "seed {seed} is not a permutation");
    }
}

#[test]
fn hash_texel_folds_two_permutation_steps() {
    let t = PermutationTables::new(7);
    let p = |i: usize| t.perm[i & 255] as usize;
    for (a, b) in [(0, 0), (255, 1), (17, 200), (128, 255)] {
        assert_eq!(t.hash_grad3[b * 256 + a][0] as usize, p(a + p(b)));
    }
}
