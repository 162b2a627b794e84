//! `bake --graph FILE --tile I,J[,K] --tiles NX,NY[,NZ]`: a graph is a function of the
//! sample point, so a tile of a graph's field is the same graph over a window of the whole
//! field (docs/tiles.md): its texels carry exactly the values of the whole bake, and the
//! tiles stitched together are the whole bake byte for byte, its value, gradient and curl,
//! far from the origin and tiled, on the CPU and (bit for bit with its own whole bake) on
//! the GPU.

use std::path::{Path, PathBuf};

use crate::bake_support::{assert_refused, bake_ok, read_npy};
use crate::common;

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("examples/graphs/{name}.json"))
}

/// One case: the graph file, the field's options, its size (x, y[, z]), the tile grid and
/// the floats per texel (`--gradient`: 4, `--curl`: the dimensions).
struct Case {
    what: &'static str,
    graph: &'static str,
    args: &'static [&'static str],
    size: [usize; 3],
    grid: [usize; 3],
    channels: usize,
}

const CASES: &[Case] = &[
    Case {
        what: "terrain 2D far from the origin, 3x2 tiles (the last ones smaller)",
        graph: "terrain",
        args: &[
            "--size",
            "37x29",
            "--frequency",
            "3.7,2.9",
            "--offset",
            "5000.25,-3000.7",
        ],
        size: [37, 29, 1],
        grid: [3, 2, 1],
        channels: 1,
    },
    Case {
        what: "terrain 2D gradient",
        graph: "terrain",
        args: &["--size", "24x20", "--frequency", "4", "--gradient"],
        size: [24, 20, 1],
        grid: [2, 2, 1],
        channels: 4,
    },
    Case {
        what: "clouds 3D tileable, 2x2x2 tiles",
        graph: "clouds",
        args: &[
            "--dims",
            "3",
            "--size",
            "18x14x10",
            "--frequency",
            "4",
            "--tileable",
        ],
        size: [18, 14, 10],
        grid: [2, 2, 2],
        channels: 1,
    },
    Case {
        what: "marble 3D curl",
        graph: "marble",
        args: &[
            "--dims",
            "3",
            "--size",
            "12x10x6",
            "--frequency",
            "2",
            "--curl",
        ],
        size: [12, 10, 6],
        grid: [2, 2, 1],
        channels: 3,
    },
];

/// The `.npy` shape of `extent` texels (slowest axis first) of `channels` floats.
fn shape(case: &Case, extent: [usize; 3]) -> Vec<usize> {
    let dims = if case.size[2] > 1 { 3 } else { 2 };
    let mut s: Vec<usize> = extent[..dims].iter().rev().copied().collect();
    if case.channels > 1 {
        s.push(case.channels);
    }
    s
}

/// Bakes `case` whole and tile by tile on `backend`, stitches the tiles into a field of the
/// whole size and returns (whole, stitched).
fn whole_and_stitched(dir: &Path, case: &Case, backend: &str) -> (Vec<f32>, Vec<f32>) {
    let graph = example(case.graph);
    let graph = graph.to_str().unwrap();
    let bake = |extra: &[&str], file: &str, extent: [usize; 3]| -> Vec<f32> {
        let mut args = vec![
            "--graph",
            graph,
            "--backend",
            backend,
            "--force",
            "-o",
            file,
        ];
        args.extend_from_slice(case.args);
        args.extend_from_slice(extra);
        bake_ok(dir, &args);
        read_npy(&dir.join(file), &shape(case, extent))
    };
    let whole = bake(&[], "whole.npy", case.size);
    let axes = if case.grid[2] > 1 { 3 } else { 2 };
    let join = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
    let count = join(&case.grid[..axes]);
    let c = case.channels;
    let [nx, ny, _] = case.size;
    let mut stitched = vec![f32::NAN; whole.len()];
    for k in 0..case.grid[2] {
        for j in 0..case.grid[1] {
            for i in 0..case.grid[0] {
                let index = [i, j, k];
                // docs/tiles.md: tiles of ceil(N / n) texels, tile i from i * t.
                let span = |a: usize| {
                    let t = case.size[a].div_ceil(case.grid[a]);
                    (index[a] * t, t.min(case.size[a] - index[a] * t))
                };
                let (origin, extent): (Vec<usize>, Vec<usize>) = (0..3).map(span).unzip();
                let extent = [extent[0], extent[1], extent[2]];
                let file = format!("tile_{i}_{j}_{k}.npy");
                let tile = bake(
                    &["--tile", &join(&index[..axes]), "--tiles", &count],
                    &file,
                    extent,
                );
                let mut at = 0;
                for z in 0..extent[2] {
                    for y in 0..extent[1] {
                        let row = ((origin[2] + z) * ny + origin[1] + y) * nx + origin[0];
                        let n = extent[0] * c;
                        stitched[row * c..row * c + n].copy_from_slice(&tile[at..at + n]);
                        at += n;
                    }
                }
                assert_eq!(at, tile.len(), "{}: tile {index:?} size", case.what);
            }
        }
    }
    (whole, stitched)
}

fn assert_same_bytes(what: &str, whole: &[f32], stitched: &[f32]) {
    if let Some(i) = (0..whole.len()).find(|&i| whole[i].to_bits() != stitched[i].to_bits()) {
        panic!(
            "{what}: float {i} of the stitched tiles is {:e}, the whole bake's {:e}",
            stitched[i], whole[i]
        );
    }
}

#[test]
fn cpu_tiles_of_a_graph_stitch_into_the_whole_bake_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    for case in CASES {
        let (whole, stitched) = whole_and_stitched(dir.path(), case, "cpu");
        assert_same_bytes(case.what, &whole, &stitched);
    }
}

#[test]
fn gpu_tiles_of_a_graph_stitch_into_the_gpu_whole_bake_byte_for_byte() {
    let Some(_ctx) = common::gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    for case in &CASES[..2] {
        // Same device, same pipeline, same f32 sample points: the same bits.
        let (whole, stitched) = whole_and_stitched(dir.path(), case, "gpu");
        assert_same_bytes(case.what, &whole, &stitched);
    }
}

#[test]
fn a_graph_tile_names_its_window_and_bad_grids_are_refused_as_for_flags() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let graph = example("terrain");
    let graph = graph.to_str().unwrap();
    let stderr = bake_ok(
        d,
        &[
            "--graph", graph, "--size", "64x64", "--tiles", "2,2", "--tile", "1,1", "-o", "t.npy",
        ],
    );
    assert!(
        stderr.contains("tile of texels 32..64 x 32..64 of the whole 64x64 field"),
        "{stderr}"
    );
    assert_refused(
        d,
        &[
            "--graph", graph, "--size", "8x8", "--tiles", "2,2", "--tile", "2,0", "-o", "b.npy",
        ],
        "tile index 2 along x: tiles count from 0 to 1",
    );
}
