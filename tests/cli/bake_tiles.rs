//! `wgpu-noise bake --tile I,J[,K] --tiles NX,NY[,NZ]` bakes one tile of the field `--size`
//! describes, holding exactly the values those texels have in a bake of the whole field:
//! tiles baked apart (on other machines) stitch bit for bit. docs/tiles.md is the user's
//! guide.

use crate::bake_support;
use crate::common;

use std::path::Path;

use bake_support::{assert_refused, bake_ok, read_npy};

/// Bakes `args` plus `--backend backend --force -o file` (with `--tile`/`--tiles`/`--overlap`
/// when `tile` is given) and reads the `.npy` back with its `shape` (slowest axis first).
fn bake(
    dir: &Path,
    args: &[&str],
    backend: &str,
    tile: Option<(&str, &str, &str)>,
    file: &str,
    shape: &[usize],
) -> Vec<f32> {
    let mut all: Vec<&str> = args.to_vec();
    all.extend_from_slice(&["--backend", backend, "--force", "-o", file]);
    if let Some((index, count, overlap)) = tile {
        all.extend_from_slice(&["--tile", index, "--tiles", count, "--overlap", overlap]);
    }
    bake_ok(dir, &all);
    read_npy(&dir.join(file), shape)
}

/// The box `origin .. origin + extent` (x, y, z) of a field of `size` in memory order.
fn cut(whole: &[f32], size: [usize; 3], origin: [usize; 3], extent: [usize; 3]) -> Vec<f32> {
    let mut out = Vec::with_capacity(extent.iter().product());
    for z in origin[2]..origin[2] + extent[2] {
        for y in origin[1]..origin[1] + extent[1] {
            let row = (z * size[1] + y) * size[0];
            out.extend_from_slice(&whole[row + origin[0]..row + origin[0] + extent[0]]);
        }
    }
    out
}

/// The documented split: tiles of ceil(N / n) texels, tile i from i*t, `overlap` more
/// texels towards the far edge, clipped to the field.
fn span(n_texels: usize, tiles: usize, i: usize, overlap: usize) -> (usize, usize) {
    let t = n_texels.div_ceil(tiles);
    let start = i * t;
    (start, (start + t + overlap).min(n_texels) - start)
}

/// Fields whose per-texel coordinates a tile could easily get wrong: far from the origin
/// with a non-integer lacunarity (the offset is not reduced, so `offset + step * i`
/// rounds at 5000's magnitude), tileable fractal classic noise, a 3D simplex volume.
const CASES: &[(&str, &[&str], [usize; 3])] = &[
    (
        "2D simplex far from the origin, 3 octaves, lacunarity 1.9",
        &[
            "--size",
            "37x29",
            "--frequency",
            "7.3,5.1",
            "--offset",
            "5000.25,-3000.7",
            "--octaves",
            "3",
            "--lacunarity",
            "1.9",
            "--seed",
            "11",
        ],
        [37, 29, 1],
    ),
    (
        "2D tileable classic fBm",
        &[
            "--noise",
            "classic",
            "--size",
            "32x30",
            "--frequency",
            "4,3",
            "--octaves",
            "4",
            "--tileable",
            "--seed",
            "3",
        ],
        [32, 30, 1],
    ),
    (
        "3D simplex",
        &[
            "--dims",
            "3",
            "--size",
            "18x14x10",
            "--frequency",
            "3.7",
            "--offset",
            "100.1,-7.25,33.3",
            "--seed",
            "2",
        ],
        [18, 14, 10],
    ),
];

/// Bakes the whole field and every tile of `grid` (x, y[, z] counts) with `overlap` on
/// `backend`, and returns (tile, its values, the same box of the whole bake).
fn tiles_and_whole(
    dir: &Path,
    args: &[&str],
    size: [usize; 3],
    grid: [usize; 3],
    overlap: usize,
    backend: &str,
) -> Vec<([usize; 3], Vec<f32>, Vec<f32>)> {
    let dims = if size[2] > 1 { 3 } else { 2 };
    let shape = |s: [usize; 3]| -> Vec<usize> { s[..dims].iter().rev().copied().collect() };
    let whole = bake(dir, args, backend, None, "whole.npy", &shape(size));
    let axes = if grid[2] > 1 { 3 } else { 2 };
    let join = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
    let count = join(&grid[..axes]);
    let overlap_arg = overlap.to_string();
    let mut out = Vec::new();
    for k in 0..grid[2] {
        for j in 0..grid[1] {
            for i in 0..grid[0] {
                let index = [i, j, k];
                let spans: Vec<(usize, usize)> = (0..3)
                    .map(|a| span(size[a], grid[a], index[a], overlap * (a < axes) as usize))
                    .collect();
                let origin = [spans[0].0, spans[1].0, spans[2].0];
                let extent = [spans[0].1, spans[1].1, spans[2].1];
                let file = format!("tile_{i}_{j}_{k}.npy");
                let tile = bake(
                    dir,
                    args,
                    backend,
                    Some((&join(&index[..axes]), &count, &overlap_arg)),
                    &file,
                    &shape(extent),
                );
                out.push((index, tile, cut(&whole, size, origin, extent)));
            }
        }
    }
    out
}

#[test]
fn cpu_tiles_of_2x2_and_2x2x2_grids_equal_the_whole_bake_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    for (name, args, size) in CASES {
        let mut grids = vec![[2, 2, 1]];
        if size[2] > 1 {
            grids.push([2, 2, 2]);
        }
        for grid in grids {
            for (index, tile, whole) in tiles_and_whole(dir.path(), args, *size, grid, 0, "cpu") {
                assert!(
                    tile.iter()
                        .zip(&whole)
                        .all(|(a, b)| a.to_bits() == b.to_bits()),
                    "{name}, grid {grid:?}, tile {index:?}: differs from the whole bake"
                );
            }
        }
    }
}

#[test]
fn overlap_adds_texels_towards_the_far_edges_with_the_whole_bakes_values() {
    let dir = tempfile::tempdir().unwrap();
    let (name, args, size) = CASES[0];
    // 37 x 29 in 2 x 2 tiles of 19 x 15 (the last ones 18 x 14); overlap 3 makes the first
    // tiles 22 x 18 and leaves the last ones as they are (nothing past the field's edge).
    let tiles = tiles_and_whole(dir.path(), args, size, [2, 2, 1], 3, "cpu");
    let sizes: Vec<usize> = tiles.iter().map(|(_, t, _)| t.len()).collect();
    assert_eq!(sizes, [22 * 18, 18 * 18, 22 * 14, 18 * 14], "{name}");
    for (index, tile, whole) in tiles {
        assert_eq!(tile, whole, "{name}, tile {index:?}");
    }
}

#[test]
fn gpu_tiles_equal_the_gpu_whole_bake_and_the_cpu_reference_within_the_parity_tolerance() {
    let Some(_ctx) = common::gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    for (name, args, size) in CASES {
        let gpu = tiles_and_whole(dir.path(), args, *size, [2, 2, 1], 1, "gpu");
        let cpu = tiles_and_whole(dir.path(), args, *size, [2, 2, 1], 1, "cpu");
        for ((index, tile, gpu_whole), (_, _, cpu_whole)) in gpu.iter().zip(&cpu) {
            // Same device, same pipeline, same f32 inputs: the same bits.
            assert!(
                tile.iter()
                    .zip(gpu_whole)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "{name}, tile {index:?}: differs from the GPU's whole bake"
            );
            let error = bake_support::max_abs_diff(tile, cpu_whole);
            assert!(
                error <= wgpu_noise::bake::DEFAULT_TOLERANCE,
                "{name}, tile {index:?}: {error:e} from the CPU reference"
            );
        }
    }
}

#[test]
fn the_last_tile_is_smaller_the_whole_field_may_exceed_one_bake_and_bad_grids_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 10 texels in 4 tiles of 3: the last is 1 wide.
    let last = bake(
        d,
        &["--size", "10x6"],
        "cpu",
        Some(("3,1", "4,2", "0")),
        "last.npy",
        &[3, 1],
    );
    assert_eq!(last.len(), 3);
    assert_refused(
        d,
        &[
            "--size", "9x8", "--tiles", "4,2", "--tile", "0,0", "-o", "a.npy",
        ],
        "9 texels along x in 4 tiles of 3 leave the last tile empty",
    );
    assert_refused(
        d,
        &[
            "--size", "8x8", "--tiles", "2,2", "--tile", "2,0", "-o", "b.npy",
        ],
        "tile index 2 along x: tiles count from 0 to 1",
    );
    assert_refused(
        d,
        &[
            "--size", "8x8", "--tiles", "2,2,2", "--tile", "0,0,0", "-o", "c.npy",
        ],
        "for a 2D field",
    );
    assert_refused(
        d,
        &[
            "--size", "8x8", "--tiles", "2,2", "--tile", "0,x", "-o", "d.npy",
        ],
        r#"--tile 0,x: "x" is not a whole number"#,
    );
}
