//! `wgpu-noise bench`'s rows: every CPU path measured on the same work, and the rows of
//! graphs, fractals, flow, curl, tiling and cellular noise where their fills have lanes.

use wgpu_noise::cli::bench::harness::Workload;
use wgpu_noise::cli::bench::{
    find, json_line, measure, measure_graph, measure_nodes, node_variants, Row, Shaping,
    VARIANT_CHOICES,
};
use wgpu_noise::graph::nodes::{node_type, ParamKind, NODE_TYPES};
use wgpu_noise::{FieldOutput, NoiseKind};

/// A workload in 2D, 3D and 4D of a few hundred samples (16², 8³, 4⁴): these tests read
/// which rows there are, not their speeds.
const TINY: [Workload; 3] = [
    Workload { dims: 2, side: 16 },
    Workload { dims: 3, side: 8 },
    Workload { dims: 4, side: 4 },
];

/// Asserts that `rows` has a row of every one of `paths` for `noise` in `dims` dimensions.
fn assert_rows(rows: &[Row], paths: &[&str], noise: &str, dims: usize) {
    for path in paths {
        assert!(
            find(rows, path, noise, dims).is_some(),
            "no {path} row of {noise} in {dims}D"
        );
    }
}

#[test]
fn every_cpu_path_is_measured_on_the_same_work_and_reported_with_the_issue_keys() {
    let tiny = [
        Workload { dims: 2, side: 32 },
        Workload { dims: 3, side: 8 },
    ];
    let rows = measure(&tiny, &NoiseKind::ALL, 1, 0, None, Shaping::default()).expect("cpu paths");
    for w in tiny {
        for noise in ["classic", "simplex"] {
            for path in ["cpu-f32-1t", "cpu-f32-all"] {
                let r = find(&rows, path, noise, w.dims)
                    .unwrap_or_else(|| panic!("{path} {noise} {}D", w.dims));
                assert_eq!(r.samples, w.samples());
                assert!(r.msamples_per_s() > 0.0 && r.msamples_per_s().is_finite());
                let json = json_line(r, &rows);
                for key in ["path", "noise", "dims", "samples", "msamples_per_s"] {
                    assert!(json.get(key).is_some(), "{key} missing in {json}");
                }
                assert_eq!(json["samples"], w.samples());
            }
        }
    }
    // With the peers compiled in, every CPU row also carries its ratio to noise-rs.
    if cfg!(feature = "bench-peers") {
        assert!(rows
            .iter()
            .all(|r| json_line(r, &rows).get("ratio_to_noise_rs").is_some()));
    }
}

#[test]
fn graph_rows_time_the_graph_on_every_cpu_path_where_it_lowers() {
    // Flow noise lowers in 2D and 3D only: the 4D workload is skipped, not an error.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("swirl.json");
    std::fs::write(
        &path,
        r#"{ "version": 1, "output": "f", "nodes": { "f": { "type": "fbm", "octaves": 2, "source": { "type": "flow", "angle": 0.5 } } } }"#,
    )
    .expect("the graph file is written");
    let rows = measure_graph(&TINY, &path, 1, 0, None, false).expect("cpu paths");
    let mut paths: Vec<(&str, usize)> = rows.iter().map(|r| (r.path, r.dims)).collect();
    paths.sort();
    let mut expected = vec![];
    // fBm of flow noise is a flag field's shape: its fused rows too.
    for path in [
        "cpu-f32-1t",
        "cpu-f32-all",
        "cpu-simd-1t",
        "cpu-simd-all",
        "cpu-simd-hash-1t",
        "cpu-simd-hash-all",
        "cpu-simd-fused-1t",
        "cpu-simd-fused-all",
        "cpu-simd-fused-hash-1t",
        "cpu-simd-fused-hash-all",
    ] {
        expected.extend([(path, 2), (path, 3)]);
    }
    expected.sort();
    assert_eq!(paths, expected);
    for r in &rows {
        assert_eq!(r.noise, "graph:swirl");
        assert!(r.msamples_per_s() > 0.0 && r.msamples_per_s().is_finite());
        assert_eq!(json_line(r, &rows)["noise"], "graph:swirl");
    }
    // A graph that lowers for no chosen workload is an error, not an empty table.
    let error = measure_graph(&TINY[2..], &path, 1, 0, None, false).expect_err("4D flow");
    assert!(error.to_string().contains("lowers for none"), "{error}");
}

#[test]
fn tiled_graph_rows_time_the_graph_tiled_where_it_tiles() {
    // OpenSimplex2S tiles in 2D and 3D and refuses to in 4D: the tiled rows skip the 4D
    // workload, which the untiled rows time. One cell is 16 samples wide, and a 3D tile
    // needs whole cells: sides of 16.
    let workloads = [
        Workload { dims: 2, side: 16 },
        Workload { dims: 3, side: 16 },
        Workload { dims: 4, side: 16 },
    ];
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("smooth.json");
    std::fs::write(
        &path,
        r#"{ "version": 1, "output": "n", "nodes": { "n": { "type": "supersimplex" } } }"#,
    )
    .expect("the graph file is written");
    let dims = |rows: &[Row]| {
        let mut dims: Vec<usize> = rows.iter().map(|r| r.dims).collect();
        dims.dedup();
        dims
    };
    let untiled = measure_graph(&workloads, &path, 1, 0, None, false).expect("cpu paths");
    assert_eq!(dims(&untiled), [2, 3, 4]);
    assert!(untiled.iter().all(|r| r.noise == "graph:smooth"));
    let tiled = measure_graph(&workloads, &path, 1, 0, None, true).expect("cpu paths");
    assert_eq!(dims(&tiled), [2, 3]);
    for r in &tiled {
        assert_eq!(json_line(r, &tiled)["noise"], "graph:smooth+tiled");
        assert!(r.msamples_per_s() > 0.0 && r.msamples_per_s().is_finite());
    }
    // Only 4D chosen: nothing tiles, an error rather than an empty table.
    let error = measure_graph(&workloads[2..], &path, 1, 0, None, true).expect_err("4D tiled");
    assert!(error.to_string().contains("lowers for none"), "{error}");
}

/// A graph of a flag field's shape whose hand-written fill has no lanes (cellular noise) runs
/// its graph on the lanes in `bake` (`simd::lane_plan`): no fused rows, which would time the
/// scalar fill instead.
#[test]
fn graph_rows_of_a_fill_without_lanes_are_the_generic_ones() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("cells.json");
    std::fs::write(
        &path,
        r#"{ "version": 1, "output": "f", "nodes": { "f": { "type": "fbm", "octaves": 2, "source": { "type": "cellular" } } } }"#,
    )
    .expect("the graph file is written");
    let rows = measure_graph(&TINY[..1], &path, 1, 0, None, false).expect("cpu paths");
    let mut paths: Vec<&str> = rows.iter().map(|r| r.path).collect();
    paths.sort();
    let mut expected = vec![
        "cpu-f32-1t",
        "cpu-f32-all",
        "cpu-simd-1t",
        "cpu-simd-all",
        "cpu-simd-hash-1t",
        "cpu-simd-hash-all",
    ];
    expected.sort();
    assert_eq!(paths, expected);
}

/// `bench --nodes`: one row per node type alone and one-thread lane path, in every
/// dimension count it lowers for (flow: 2D and 3D only); every type of the table, then its
/// variants (`node_variants`), named by the parameters they set.
#[test]
fn node_rows_time_every_node_type_alone_and_its_variants() {
    let rows = measure_nodes(&TINY, 1, 0, None).expect("cpu paths");
    let variants: Vec<String> = node_variants().into_iter().map(|(name, _)| name).collect();
    let names = NODE_TYPES.iter().map(|t| t.name.to_string());
    let names: Vec<String> = names.chain(variants.iter().cloned()).collect();
    for name in &names {
        let noise = format!("node:{name}");
        for &d in node_dims(name) {
            assert_rows(&rows, &["cpu-simd-1t", "cpu-simd-hash-1t"], &noise, d);
        }
        assert!(rows
            .iter()
            .filter(|r| r.noise == noise)
            .all(|r| r.path.ends_with("-1t") && r.msamples_per_s() > 0.0));
    }
    let lowered: usize = names.iter().map(|name| node_dims(name).len()).sum();
    assert_eq!(rows.len(), lowered * 2);
    // Every choice of the parameters whose choices cost differently: the node alone's row
    // (the default) or a variant's; several octaves for a warp's fractal forms.
    for &(node, param, numbers) in VARIANT_CHOICES {
        let set: String = numbers.iter().map(|(p, v)| format!(" {p}={v}")).collect();
        for choice in choices(node, param) {
            let variant = format!("{node}{set} {param}={choice}");
            let default = numbers.is_empty() && default_choice(node, param) == Some(choice);
            assert!(
                default || variants.contains(&variant),
                "no row of {node} {param}={choice}: {variants:?}"
            );
        }
    }
    for wanted in [
        "fbm weighted_strength=0.5",
        "ridged weighted_strength=0.5",
        "fbm gain=simplex",
        "warp frequency=simplex",
    ] {
        assert!(variants.iter().any(|v| v == wanted), "no row of {wanted}");
    }
}

/// The choices the node table offers for `node`'s parameter `param`.
fn choices(node: &str, param: &str) -> &'static [&'static str] {
    match node_type(node).and_then(|t| t.param(param)).map(|p| p.kind) {
        Some(ParamKind::Choice { names, .. }) => names,
        _ => panic!("{node}.{param} is not a choice"),
    }
}

/// The default of `node`'s choice parameter `param`.
fn default_choice(node: &str, param: &str) -> Option<&'static str> {
    match node_type(node).and_then(|t| t.param(param)).map(|p| p.kind) {
        Some(ParamKind::Choice { default, .. }) => default,
        _ => panic!("{node}.{param} is not a choice"),
    }
}

/// The dimension counts a node type (or a variant of it) lowers for: flow 2D and 3D.
fn node_dims(name: &str) -> &'static [usize] {
    match name.split(' ').next() {
        Some("flow") => &[2, 3],
        _ => &[2, 3, 4],
    }
}

#[test]
fn fractal_rows_are_named_by_mode_and_octaves() {
    let shaping = Shaping {
        fractal: Some(wgpu_noise::field::Fractal {
            mode: wgpu_noise::field::FractalMode::Ridged,
            octaves: 5,
            lacunarity: 2.0,
            gain: 0.5,
        }),
        ..Shaping::default()
    };
    let rows = measure(
        &[Workload { dims: 3, side: 8 }],
        &[NoiseKind::Classic],
        1,
        0,
        None,
        shaping,
    )
    .expect("cpu paths");
    assert!(find(&rows, "cpu-simd-1t", "classic+ridged5", 3).is_some());
}

#[test]
fn flow_rows_are_simplex_2d_and_3d_only_named_so_and_run_the_lanes() {
    let shaping = Shaping {
        flow_angle: Some(1.0),
        ..Shaping::default()
    };
    let rows = measure(&TINY, &NoiseKind::ALL, 1, 0, None, shaping).expect("cpu paths");
    assert!(!rows.is_empty());
    for r in &rows {
        assert_eq!(r.noise, "simplex+flow", "{}", r.path);
        assert!(r.dims <= 3);
        // Flow noise runs on the lanes; no peer has it: only the CPU paths, no peer row.
        assert!(r.path.starts_with("cpu-"), "{}", r.path);
    }
    for dims in [2, 3] {
        let paths = ["cpu-f32-1t", "cpu-simd-1t", "cpu-simd-hash-all"];
        assert_rows(&rows, &paths, "simplex+flow", dims);
    }
}

#[test]
fn curl_rows_are_2d_and_3d_and_time_the_scalar_and_simd_fills() {
    let shaping = Shaping {
        output: FieldOutput::Curl,
        ..Shaping::default()
    };
    let rows = measure(&TINY, &NoiseKind::ALL, 1, 0, None, shaping).expect("cpu paths");
    let mut paths: Vec<(&str, usize)> = rows.iter().map(|r| (r.path, r.dims)).collect();
    paths.sort();
    let expected: Vec<(&str, usize)> = [
        "cpu-f32-1t",
        "cpu-f32-all",
        "cpu-simd-1t",
        "cpu-simd-all",
        "cpu-simd-hash-1t",
        "cpu-simd-hash-all",
    ]
    .into_iter()
    .flat_map(|path| [(path, 2), (path, 3)])
    .collect();
    assert_eq!(paths, expected);
    assert!(rows
        .iter()
        .all(|r| r.noise == "curl" && r.msamples_per_s() > 0.0));
}

#[test]
fn tiled_rows_run_the_lanes_where_the_field_has_them() {
    let tiny = [
        Workload { dims: 2, side: 32 },
        Workload { dims: 3, side: 16 },
        Workload { dims: 4, side: 16 },
    ];
    let shaping = Shaping {
        tileable: true,
        ..Shaping::default()
    };
    let kinds = [NoiseKind::Classic, NoiseKind::Simplex];
    let rows = measure(&tiny, &kinds, 1, 0, None, shaping).expect("cpu paths");
    for (noise, dims) in [
        ("classic+tiled", 2),
        ("classic+tiled", 4),
        ("simplex+tiled", 3),
    ] {
        assert_rows(&rows, &["cpu-f32-1t"], noise, dims);
    }
    // 4D simplex does not tile: no row.
    assert!(!rows
        .iter()
        .any(|r| r.noise == "simplex+tiled" && r.dims == 4));
    // Tiled classic and 2D simplex have lanes of their own; tiled 3D simplex runs on its
    // graph's lanes, as `bake` does.
    for (noise, dims) in [
        ("classic+tiled", 3),
        ("simplex+tiled", 2),
        ("simplex+tiled", 3),
    ] {
        assert_rows(&rows, &["cpu-simd-1t", "cpu-simd-hash-all"], noise, dims);
    }
}

#[test]
fn cellular_rows_time_the_graph_lanes_where_the_lookup_has_them() {
    let rows = measure(
        &TINY,
        &[NoiseKind::Cellular],
        1,
        0,
        None,
        Shaping::default(),
    )
    .expect("cpu paths");
    // 4D cellular noise with the texture tables has no lanes (slower than the scalar
    // search), so its texture rows would time the scalar fill: none.
    for (dims, textures) in [(2, true), (3, true), (4, false)] {
        for path in ["cpu-simd-1t", "cpu-simd-all"] {
            assert_eq!(
                find(&rows, path, "cellular", dims).is_some(),
                textures,
                "{path} {dims}D"
            );
        }
        assert_rows(
            &rows,
            &["cpu-simd-hash-1t", "cpu-simd-hash-all"],
            "cellular",
            dims,
        );
    }
}
