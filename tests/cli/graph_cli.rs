//! `bake --graph`: the terrain example of docs/graphs.md as written, on the CPU and the GPU,
//! and its gradient and curl on the CPU (on the GPU: `graph_gpu_derived.rs`); a graph that
//! spells out flags writes the flags' bytes (its curl too); a bad graph is one error line
//! naming its JSON path, and nothing is written.

use std::path::{Path, PathBuf};

use crate::bake_support::{assert_refused, bake_ok, read_npy, sample_with_input, scratch_dir};
use wgpu_noise::graph::{eval, Graph};
use wgpu_noise::tables::PermutationTables;

fn terrain() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs/terrain.json")
}

/// The bound of docs/graphs.md (`tests/gpu/graph_parity.rs` measures it): relative 1e-4,
/// with at most 1 % of samples at discontinuities.
fn assert_close(gpu: &[f32], cpu: &[f32]) -> f32 {
    let mut worst = 0.0f32;
    let mut over = 0;
    for (g, c) in gpu.iter().zip(cpu) {
        assert!(g.is_finite() && c.is_finite());
        let e = (g - c).abs() / (1.0 + c.abs());
        if e > 1e-4 {
            over += 1;
        } else {
            worst = worst.max(e);
        }
    }
    assert!(
        over * 100 <= gpu.len(),
        "{over} of {} samples over the bound",
        gpu.len()
    );
    worst
}

#[test]
fn the_terrain_example_bakes_as_written_on_the_cpu_and_the_gpu() {
    let dir = scratch_dir("graph-terrain");
    let graph = terrain();
    let graph = graph.to_str().unwrap();
    let cases: [(&str, &[&str], &[usize]); 2] = [
        (
            "3",
            &["--size", "64x64x16", "--frequency", "4"],
            &[16, 64, 64],
        ),
        ("2", &["--size", "256x192", "--frequency", "4"], &[192, 256]),
    ];
    for (dims, grid, shape) in cases {
        let mut values = Vec::new();
        for backend in ["cpu", "gpu"] {
            let out = format!("t{dims}-{backend}.npy");
            let mut args = vec!["--graph", graph, "--dims", dims];
            args.extend_from_slice(grid);
            args.extend_from_slice(&["-o", &out, "--backend", backend]);
            bake_ok(&dir, &args);
            values.push(read_npy(&dir.join(&out), shape));
        }
        let worst = assert_close(&values[1], &values[0]);
        let (lo, hi) = values[0]
            .iter()
            .fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
        println!("terrain {dims}D: range [{lo}, {hi}], GPU vs CPU max relative error {worst:.1e}");
        assert!(hi > lo, "a terrain is not flat");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The terrain's value bake at the grid of `grid` moved by `shift` along `axis`.
fn shifted_value(
    dir: &Path,
    dims: &str,
    grid: &[&str],
    axis: usize,
    shift: f32,
    shape: &[usize],
) -> Vec<f32> {
    let graph = terrain();
    let n: usize = dims.parse().unwrap();
    let offset: Vec<String> = (0..n)
        .map(|a| {
            if a == axis {
                shift.to_string()
            } else {
                "0".into()
            }
        })
        .collect();
    let offset = offset.join(",");
    let out = format!("shift{dims}-{axis}-{shift}.npy");
    let mut args = vec!["--graph", graph.to_str().unwrap(), "--dims", dims];
    args.extend_from_slice(grid);
    args.extend_from_slice(&["--offset", &offset, "--backend", "cpu", "-o", &out]);
    bake_ok(dir, &args);
    let values = read_npy(&dir.join(&out), shape);
    std::fs::remove_file(dir.join(&out)).unwrap();
    values
}

/// The steps of the finite differences, in noise-space units. A kink within a step (a
/// cellular border, a ridge crease, the blend weight's clamp, a terrace ramp's end) makes
/// the differences with the two steps disagree; such samples are counted, not compared.
const STEPS: [f32; 2] = [4e-4, 2e-4];

/// Away from kinks the analytic gradient and the differences of the value bake differ by
/// the f32 evaluation's own error: the f32 gradient of the terrain differs from the f64 one
/// by up to 2.4e-4 (2D) and 4.6e-4 (3D) relative at the 90th percentile, 1.7e-3 and 3.1e-3
/// at the 99th (measured at 3000 random points; in f64 gradient and central differences
/// agree within 3.3e-6), and differences of f32 values over these steps add more. Measured
/// here: 90th percentile 4.3e-3 (2D) and 5.6e-3 (3D), 99th 1.5e-2 and 2.8e-2 (printed).
const P90_TOLERANCE: f32 = 1e-2;
const P99_TOLERANCE: f32 = 5e-2;
/// Measured: 3.3 % (2D) and 7.2 % (3D) of the derivatives have a kink within the step.
const MAX_KINK_FRACTION: f64 = 0.1;

#[test]
fn the_terrain_example_bakes_its_gradient_and_curl_on_the_cpu() {
    let dir = scratch_dir("graph-terrain-derived");
    let graph = terrain();
    let graph = graph.to_str().unwrap();
    let cases: [(&str, &[&str], &[usize]); 2] = [
        (
            "3",
            &["--size", "64x64x16", "--frequency", "4"],
            &[16, 64, 64],
        ),
        ("2", &["--size", "256x192", "--frequency", "4"], &[192, 256]),
    ];
    for (dims, grid, shape) in cases {
        let n: usize = dims.parse().unwrap();
        let bake = |extra: &[&str], out: &str, channels: usize| {
            let mut args = vec!["--graph", graph, "--dims", dims];
            args.extend_from_slice(grid);
            args.extend_from_slice(extra);
            args.extend_from_slice(&["-o", out, "--backend", "cpu"]);
            bake_ok(&dir, &args);
            let mut shape = shape.to_vec();
            if channels > 1 {
                shape.push(channels);
            }
            read_npy(&dir.join(out), &shape)
        };
        let values = bake(&[], &format!("t{dims}.npy"), 1);
        let gradient = bake(&["--gradient"], &format!("t{dims}-gradient.npy"), 4);
        let curl = bake(&["--curl"], &format!("t{dims}-curl.npy"), n);
        assert!(
            gradient.iter().chain(&curl).all(|v| v.is_finite()),
            "{dims}D: not finite"
        );
        for (i, v) in values.iter().enumerate() {
            assert_eq!(
                v.to_bits(),
                gradient[4 * i].to_bits(),
                "{dims}D texel {i}: the gradient bake's value"
            );
        }
        // The curl is the gradient turned (2D), and not flat (3D: three copies' gradients).
        if n == 2 {
            for (i, c) in curl.chunks_exact(2).enumerate() {
                let g = &gradient[4 * i..4 * i + 4];
                assert_eq!([c[0], c[1]], [g[2], -g[1]], "2D texel {i}: (∂/∂y, −∂/∂x)");
            }
        } else {
            assert!(curl.iter().any(|&c| c.abs() > 1.0), "3D curl is flat");
        }
        let (mut errors, mut kinks) = (Vec::new(), 0usize);
        for axis in 0..n {
            let difference = |h: f32| {
                let hi = shifted_value(&dir, dims, grid, axis, h, shape);
                let lo = shifted_value(&dir, dims, grid, axis, -h, shape);
                let d: Vec<f32> = hi
                    .iter()
                    .zip(&lo)
                    .map(|(a, b)| (a - b) / (2.0 * h))
                    .collect();
                d
            };
            let (wide, narrow) = (difference(STEPS[0]), difference(STEPS[1]));
            for i in 0..values.len() {
                let g = gradient[4 * i + 1 + axis];
                let scale = 1.0 + g.abs();
                if (wide[i] - narrow[i]).abs() > 2e-2 * scale {
                    kinks += 1;
                } else {
                    errors.push((g - narrow[i]).abs() / scale);
                }
            }
        }
        errors.sort_by(f32::total_cmp);
        let at = |q: f64| errors[((errors.len() - 1) as f64 * q) as usize];
        let fraction = kinks as f64 / (errors.len() + kinks) as f64;
        println!(
            "terrain {dims}D: {} derivatives vs finite differences of the value bake, relative \
             error 90th percentile {:.1e}, 99th {:.1e}; {kinks} ({:.2} %) at kinks",
            errors.len(),
            at(0.9),
            at(0.99),
            100.0 * fraction
        );
        assert!(fraction < MAX_KINK_FRACTION, "{dims}D: {kinks} kinks");
        assert!(
            at(0.9) < P90_TOLERANCE && at(0.99) < P99_TOLERANCE,
            "{dims}D"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_curl_of_a_graph_of_one_simplex_source_is_the_flags_curl_byte_for_byte() {
    let dir = scratch_dir("graph-curl-flags");
    std::fs::write(
        dir.join("simplex.json"),
        r#"{ "version": 1, "output": "n", "nodes": { "n": { "type": "simplex", "kernel": "continuous" } } }"#,
    )
    .unwrap();
    for (dims, size) in [("2", "48x40"), ("3", "24x20x6")] {
        let grid = [
            "--dims",
            dims,
            "--size",
            size,
            "--frequency",
            "3",
            "--curl",
            "--backend",
            "cpu",
        ];
        let flags = format!("flags{dims}.npy");
        let graph = format!("graph{dims}.npy");
        bake_ok(&dir, &[&grid[..], &["-o", &flags]].concat());
        bake_ok(
            &dir,
            &[&grid[..], &["--graph", "simplex.json", "-o", &graph]].concat(),
        );
        let (a, b) = (
            std::fs::read(dir.join(&flags)).unwrap(),
            std::fs::read(dir.join(&graph)).unwrap(),
        );
        assert!(a == b, "{dims}D: --curl and the graph's --curl differ");
        println!(
            "--curl {dims}D and its graph's curl: {} identical bytes",
            a.len()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_graph_that_spells_out_flags_writes_the_same_bytes() {
    let dir = scratch_dir("graph-flags");
    std::fs::write(
        dir.join("ridged5.json"),
        r#"{ "version": 1, "output": "r", "nodes": { "r": { "type": "ridged", "source": { "type": "simplex" }, "octaves": 5 } } }"#,
    )
    .unwrap();
    let grid = [
        "--dims",
        "3",
        "--size",
        "40x32x8",
        "--frequency",
        "4",
        // Far from the origin: the flags reduce the offset by whole periods of simplex
        // noise, and so must the graph, which repeats with the same periods.
        "--offset",
        "100000.3,-70000.7,50000.1",
        "--backend",
        "cpu",
    ];
    let flags = [
        &grid[..],
        &["--fractal", "ridged", "--octaves", "5", "-o", "flags.npy"],
    ]
    .concat();
    let graph = [&grid[..], &["--graph", "ridged5.json", "-o", "graph.npy"]].concat();
    bake_ok(&dir, &flags);
    let summary = bake_ok(&dir, &graph);
    // A graph of the flags' shape runs on their hand-written fill, and says so.
    assert!(
        summary.contains("simplex noise, 3D")
            && summary.contains("ridged multifractal of 5 octaves"),
        "the summary names the flags' fill: {summary}"
    );
    let (a, b) = (
        std::fs::read(dir.join("flags.npy")).unwrap(),
        std::fs::read(dir.join("graph.npy")).unwrap(),
    );
    assert!(a == b, "flags.npy and graph.npy differ");
    println!(
        "--fractal ridged --octaves 5 and its graph: {} identical bytes",
        a.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_graph_baked_far_from_the_origin_is_the_graph_at_those_very_points() {
    // A field's offset is reduced by whole lattice periods before it is rounded to f32;
    // that is a period of these graphs' values only for some of them (a fractional scale,
    // a rotation, a position or two lattices together repeat otherwise). Each bake must be
    // the graph at the texels' own coordinates: offset + i, exact in f32 here.
    let dir = scratch_dir("graph-far");
    let lut = PermutationTables::new(0);
    let mut regs = Vec::new();
    for (name, graph) in [
        (
            "scaled",
            r#"{ "type": "scale", "by": [1.5, 1.5], "source": { "type": "classic" } }"#,
        ),
        (
            "rotated",
            r#"{ "type": "rotate", "angle": 0.5, "source": { "type": "simplex" } }"#,
        ),
        (
            "position",
            r#"{ "type": "add", "a": { "type": "position", "axis": "x" }, "b": { "type": "simplex" } }"#,
        ),
        (
            "two-lattices",
            r#"{ "type": "add", "a": { "type": "classic" }, "b": { "type": "simplex" } }"#,
        ),
        (
            "periodic",
            r#"{ "type": "fbm", "octaves": 3, "source": { "type": "scale", "by": [2, 3], "source": { "type": "classic" } } }"#,
        ),
    ] {
        let text = format!(r#"{{ "version": 1, "output": "g", "nodes": {{ "g": {graph} }} }}"#);
        std::fs::write(dir.join(format!("{name}.json")), &text).unwrap();
        let (x0, y0) = (1000.25f32, -2000.5f32);
        let out = format!("{name}.npy");
        bake_ok(
            &dir,
            &[
                "--graph",
                &format!("{name}.json"),
                "--dims",
                "2",
                "--size",
                "8x4",
                "--frequency",
                "8,4",
                "--offset",
                &format!("{x0},{y0}"),
                "--backend",
                "cpu",
                "-o",
                &out,
            ],
        );
        let baked = read_npy(&dir.join(&out), &[4, 8]);
        let program = Graph::from_json(&text)
            .unwrap()
            .program(2, [0.0; 4])
            .unwrap();
        for (i, &v) in baked.iter().enumerate() {
            let p = [x0 + (i % 8) as f32, y0 + (i / 8) as f32, 0.0, 0.0];
            let expected = eval::value::<f32>(&program, &lut, p, &mut regs);
            // The periodic graph's offset is reduced by whole periods (1024 and 2048
            // cells); these coordinates are exact binary fractions, so that shift is exact
            // and its values are the same bits too.
            assert_eq!(
                v.to_bits(),
                expected.to_bits(),
                "{name} at {p:?}: {v} vs {expected}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn flags_the_fill_has_no_gradient_or_curl_for_compute_them_from_their_graph() {
    // The hand-written fill has the gradient of untiled simplex fBm only, and the curl of
    // one plain simplex octave; every other flag field is computed as its graph
    // (docs/graphs.md, "The flags are a graph"), and writes what the graph file does.
    let dir = scratch_dir("graph-flag-outputs");
    let cases: [(&[&str], &str, &[&str]); 7] = [
        (
            &["--noise", "classic", "--gradient"],
            r#"{ "type": "classic" }"#,
            &["-o", "x.npy"],
        ),
        (
            &[
                "--fractal",
                "ridged",
                "--octaves",
                "3",
                "--gradient",
                "--dims",
                "3",
            ],
            r#"{ "type": "ridged", "octaves": 3, "source": { "type": "simplex" } }"#,
            &["--dims", "3", "-o", "x.npy"],
        ),
        (
            &["--tileable", "--gradient"],
            r#"{ "type": "simplex" }"#,
            &["--tileable", "-o", "x.npy"],
        ),
        (
            &["--curl", "--octaves", "3"],
            r#"{ "type": "fbm", "octaves": 3, "source": { "type": "simplex" } }"#,
            &["-o", "x.npy"],
        ),
        (
            &["--curl", "--noise", "classic", "--dims", "3"],
            r#"{ "type": "classic" }"#,
            &["--dims", "3", "-o", "x.npy"],
        ),
        (
            &["--curl", "--flow-angle", "1"],
            r#"{ "type": "flow", "angle": 1 }"#,
            &["-o", "x.npy"],
        ),
        (
            &["--normal-map", "--noise", "cellular", "--cellular", "f2-f1"],
            r#"{ "type": "cellular", "output": "f2-f1" }"#,
            &["-o", "x.png"],
        ),
    ];
    for (i, (flags, node, graph_args)) in cases.into_iter().enumerate() {
        let grid = [
            "--size",
            "24x16x4",
            "--frequency",
            "3",
            "--backend",
            "cpu",
            "--force",
        ];
        let grid = if flags.contains(&"--dims") || graph_args.contains(&"--dims") {
            &grid[..]
        } else {
            &[
                "--size",
                "24x16",
                "--frequency",
                "3",
                "--backend",
                "cpu",
                "--force",
            ][..]
        };
        let output = graph_args.last().unwrap().replace("x.", "flags.");
        let summary = bake_ok(&dir, &[grid, flags, &["-o", &output]].concat());
        assert!(
            summary.contains("noise graph"),
            "{flags:?}: computed as a graph: {summary}"
        );
        let file = format!("g{i}.json");
        std::fs::write(
            dir.join(&file),
            format!(r#"{{ "version": 1, "output": "g", "nodes": {{ "g": {node} }} }}"#),
        )
        .unwrap();
        let output_kind: Vec<&str> = flags
            .iter()
            .copied()
            .filter(|f| ["--gradient", "--curl", "--normal-map"].contains(f))
            .collect();
        bake_ok(
            &dir,
            &[grid, &["--graph", &file], &output_kind, graph_args].concat(),
        );
        let (a, b) = (
            std::fs::read(dir.join(&output)).unwrap(),
            std::fs::read(dir.join(graph_args.last().unwrap())).unwrap(),
        );
        assert!(a == b, "{flags:?} and its graph wrote different bytes");
        println!("{flags:?}: {} bytes, the same as its graph's", a.len());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_graphs_are_one_error_line_naming_the_json_path() {
    let dir = scratch_dir("graph-bad");
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write(
        "dangling.json",
        r#"{ "version": 1, "output": "m", "nodes": { "m": { "type": "blend", "a": 0, "b": 1, "t": "mask" } } }"#,
    );
    write("broken.json", r#"{ "version": 1, "output": "#);
    write(
        "flow4.json",
        r#"{ "version": 1, "output": "f", "nodes": { "f": { "type": "flow", "angle": 1 } } }"#,
    );
    let terrain = terrain();
    let terrain = terrain.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["--graph", "dangling.json", "--size", "8x8", "-o", "x.npy"],
            "nodes.m.t: no node is named \"mask\"",
        ),
        (
            &["--graph", "broken.json", "--size", "8x8", "-o", "x.npy"],
            "not valid JSON",
        ),
        (
            &["--graph", "missing.json", "--size", "8x8", "-o", "x.npy"],
            "--graph missing.json",
        ),
        (
            &[
                "--graph",
                "flow4.json",
                "--dims",
                "4",
                "--size",
                "4x4x4x4",
                "-o",
                "x.npy",
            ],
            "nodes.f: flow noise is 2D and 3D only",
        ),
        (
            &[
                "--graph", terrain, "--dims", "4", "--size", "4x4x4x4", "--curl", "-o", "c.npy",
            ],
            "curl noise is 2D or 3D",
        ),
    ];
    let grid = ["--backend", "cpu"];
    for (args, message) in cases {
        let all = [&grid[..], args].concat();
        assert_refused(&dir, &all, message);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_shipped_graph_bakes_in_2d_and_3d() {
    let dir = scratch_dir("graph-shipped");
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "terrain, clouds, marble and wood ship");
    for file in &files {
        for (dims, size, shape) in [
            ("2", "48x40", vec![40, 48]),
            ("3", "16x12x6", vec![6, 12, 16]),
        ] {
            let name = file.file_stem().unwrap().to_string_lossy();
            let out = format!("{name}{dims}.npy");
            bake_ok(
                &dir,
                &[
                    "--graph",
                    file.to_str().unwrap(),
                    "--dims",
                    dims,
                    "--size",
                    size,
                    "--frequency",
                    "4",
                    "-o",
                    &out,
                    "--backend",
                    "cpu",
                ],
            );
            let values = read_npy(&dir.join(&out), &shape);
            let (lo, hi) = values
                .iter()
                .fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
            assert!(
                values.iter().all(|v| v.is_finite()) && hi > lo,
                "{name} {dims}D: [{lo}, {hi}]"
            );
            println!("{name} {dims}D: values in [{lo:.3}, {hi:.3}]");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The two FastNoise2 demo trees in our terms (docs/graphs.md, "FastNoise2's demo trees").
/// `mountains.json` is a side section: rock (positive) below a surface that every column
/// crosses, air (negative) above. `caves.json` is a 3D field whose zero set is the cave wall:
/// rock (positive) fills most of the volume, the caves (negative) are tunnels where the walls
/// of its two cellular lattices meet, a small share crossed by many walls.
#[test]
fn the_recipes_are_a_mountain_section_and_a_cave_volume() {
    let dir = scratch_dir("graph-recipes");
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs");
    let (w, h) = (96, 48);
    let size = format!("{w}x{h}");
    bake_ok(
        &dir,
        &[
            "--graph",
            folder.join("mountains.json").to_str().unwrap(),
            "--size",
            &size,
            "--frequency",
            "2,1",
            "--offset",
            "-1,-0.5",
            "-o",
            "mountains.npy",
            "--backend",
            "cpu",
        ],
    );
    let m = read_npy(&dir.join("mountains.npy"), &[h, w]);
    for x in 0..w {
        let column: Vec<f32> = (0..h).map(|y| m[y * w + x]).collect();
        assert!(
            column[0] < 0.0,
            "column {x}: air at the top, not {}",
            column[0]
        );
        assert!(
            column[h - 1] > 0.0,
            "column {x}: rock at the bottom, not {}",
            column[h - 1]
        );
    }
    bake_ok(
        &dir,
        &[
            "--graph",
            folder.join("caves.json").to_str().unwrap(),
            "--dims",
            "3",
            "--size",
            "32x32x32",
            "--frequency",
            "3",
            "-o",
            "caves.npy",
            "--backend",
            "cpu",
        ],
    );
    let c = read_npy(&dir.join("caves.npy"), &[32, 32, 32]);
    let caves = c.iter().filter(|&&v| v < 0.0).count() as f64 / c.len() as f64;
    // Walls: neighbours along x on either side of the zero set.
    let walls = c
        .windows(2)
        .filter(|p| (p[0] < 0.0) != (p[1] < 0.0))
        .count();
    println!(
        "caves.json 3D 32³: {:.1}% cave, {walls} wall crossings along x",
        caves * 100.0
    );
    assert!((0.002..0.1).contains(&caves), "cave share {caves}");
    assert!(walls > 200, "{walls} wall crossings");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sample_evaluates_a_graph_at_the_points_given_in_f64_and_f32() {
    let text = std::fs::read_to_string(terrain()).unwrap();
    let graph = terrain();
    let graph = graph.to_str().unwrap();
    let points: Vec<[f64; 4]> = (0..40)
        .map(|i| {
            let t = i as f64;
            [t * 0.37 - 3.0, t * 1.91 + 1e3, -t * 0.113, 0.0]
        })
        .collect();
    let input: String = points
        .iter()
        .map(|p| format!("{} {} {}\n", p[0], p[1], p[2]))
        .collect();
    let program = Graph::from_json(&text)
        .unwrap()
        .program(3, [0.0; 4])
        .unwrap();
    let lut = PermutationTables::new(4);
    let mut regs64 = Vec::new();
    let mut regs32 = Vec::new();
    for precision in ["f64", "f32"] {
        let out = sample_with_input(
            &[
                "--graph",
                graph,
                "--dims",
                "3",
                "--seed",
                "4",
                "--precision",
                precision,
            ],
            input.as_bytes(),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got: Vec<f64> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        assert_eq!(got.len(), points.len());
        for (p, &v) in points.iter().zip(&got) {
            // Printed with 17 significant digits: the value itself, bit for bit.
            let expected = match precision {
                "f64" => eval::value::<f64>(&program, &lut, *p, &mut regs64),
                _ => eval::value::<f32>(&program, &lut, p.map(|c| c as f32), &mut regs32) as f64,
            };
            assert_eq!(v, expected, "{precision} at {p:?}");
        }
    }
    for (args, says) in [
        (vec!["--graph", graph, "--noise", "classic"], "--noise"),
        (vec!["--graph", graph, "--warp", "1"], "--warp"),
        (
            vec!["--graph", "/nonexistent/g.json"],
            "/nonexistent/g.json",
        ),
    ] {
        let out = sample_with_input(&args, b"0 0\n");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} accepted");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
    }
}
