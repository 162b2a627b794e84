//! The issue-46 probes from the command line (docs/graphs.md "Finite numbers"): a constant
//! beyond ±1e30 is refused with its JSON path instead of printing NaN; the same graph at the
//! bound samples finite numbers in `f32` and `f64`; and natural graphs whose slope is
//! infinite where their value is 0 (`pow` of fBm or of classic noise below exponent 1) bake
//! their gradient and normal map on the default backend instead of failing verification.

use std::path::Path;

use crate::bake_support::{bake_ok, read_npy, sample_with_input};

fn graph(dir: &Path, name: &str, node: &str) -> String {
    let text = format!(r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {node} }} }}"#);
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_constant_beyond_1e30_is_refused_naming_its_json_path() {
    let dir = tempfile::tempdir().unwrap();
    let g = graph(
        dir.path(),
        "g.json",
        r#"{ "type": "terrace", "source": 1e36, "steps": 1024, "smoothness": 0.5 }"#,
    );
    let out = sample_with_input(&["--graph", &g, "--precision", "f32"], b"0 0\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: ")
            && stderr.contains("nodes.o.source: 1e36 is out of range (-1e30 to 1e30)"),
        "{stderr}"
    );
}

#[test]
fn graphs_at_the_bound_sample_finite_numbers_in_f32_and_f64() {
    let dir = tempfile::tempdir().unwrap();
    let nodes = [
        r#"{ "type": "terrace", "source": 1e30, "steps": 1024, "smoothness": 0.5 }"#,
        r#"{ "type": "blend", "a": -1e30, "b": 1e30, "t": -1 }"#,
        r#"{ "type": "ping-pong", "source": 1e30, "strength": 1000 }"#,
        r#"{ "type": "ridged", "source": 1e30, "octaves": 16, "gain": -2 }"#,
        r#"{ "type": "fbm", "source": 1e30, "octaves": 16, "gain": -64 }"#,
    ];
    for (i, node) in nodes.iter().enumerate() {
        let g = graph(dir.path(), &format!("g{i}.json"), node);
        for precision in ["f32", "f64"] {
            let out = sample_with_input(
                &["--graph", &g, "--precision", precision],
                b"0 0\n0.3 -1.7\n",
            );
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{node} {precision}: {:?}", out);
            let values: Vec<f64> = stdout
                .split_whitespace()
                .map(|v| v.parse().expect("a number"))
                .collect();
            assert_eq!(values.len(), 2, "{node} {precision}: {stdout}");
            assert!(
                values.iter().all(|v| v.is_finite()),
                "{node} {precision}: {stdout}"
            );
        }
    }
}

#[test]
fn powers_below_exponent_one_bake_gradients_and_normal_maps() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = graph(
        d,
        "p.json",
        r#"{ "type": "pow", "exponent": 0.5,
             "source": { "type": "fbm", "source": { "type": "simplex" }, "octaves": 4 } }"#,
    );
    bake_ok(
        d,
        &[
            "--graph",
            &p,
            "--size",
            "64x64",
            "--normal-map",
            "-o",
            "n.png",
        ],
    );
    assert!(d.join("n.png").exists());
    for (name, node) in [
        (
            "classic",
            r#"{ "type": "pow", "exponent": 0.25, "source": { "type": "classic" } }"#,
        ),
        (
            "remap",
            r#"{ "type": "remap", "source": { "type": "simplex" }, "from": [0, 1e-37], "to": [-1e30, 1e30] }"#,
        ),
    ] {
        let g = graph(d, &format!("{name}.json"), node);
        let file = format!("{name}.npy");
        bake_ok(
            d,
            &[
                "--graph",
                &g,
                "--size",
                "32x32",
                "--gradient",
                "--backend",
                "cpu",
                "-o",
                &file,
            ],
        );
        let values = read_npy(&d.join(&file), &[32, 32, 4]);
        let bad = values.iter().filter(|v| !v.is_finite()).count();
        assert_eq!(
            bad,
            0,
            "{name}: {bad} of {} values not finite",
            values.len()
        );
    }
}
