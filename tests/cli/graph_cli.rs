//! `bake --graph`: the terrain example of docs/graphs.md as written, on the CPU and the GPU;
//! a graph that spells out flags writes the flags' bytes; a bad graph is one error line
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
            &["--size", "128x128x32", "--frequency", "4"],
            &[32, 128, 128],
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
    assert!(
        summary.contains("noise graph (5 noise calls per sample), 3D"),
        "the summary names the graph: {summary}"
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
                "--graph",
                terrain,
                "--size",
                "8x8",
                "--gradient",
                "-o",
                "g.exr",
            ],
            "has no analytic gradient",
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
