//! `sample` in f32 (`--precision f32`, `--backend gpu`): a finite coordinate beyond f32's
//! range is an error naming the line, as a non-finite one is (it would round to infinity
//! and give NaN); coordinates up to f32's largest give finite values in range.

use crate::bake_support;
use crate::common;

use bake_support::sample_with_input;

#[test]
fn coordinates_beyond_f32_are_an_error_naming_the_line_in_f32() {
    for kind in ["classic", "simplex", "cellular"] {
        for dims in ["2", "3", "4"] {
            // 0.5, v, then 0.5 for each further axis.
            let n: usize = dims.parse().unwrap();
            let point = |v: &str| format!("0.5 {v}{}\n", " 0.5".repeat(n - 2));
            let input = format!("{}{}", point("1"), point("1e39"));
            let args = ["--noise", kind, "--dims", dims, "--precision", "f32"];
            let out = sample_with_input(&args, input.as_bytes());
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
            assert_eq!(
                stderr,
                "error: line 2: coordinate \"1e39\" is beyond the f32 range (±3.4028235e38) that --precision f32 computes in\n",
                "{args:?}"
            );
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(!stdout.to_lowercase().contains("nan"), "{args:?}: {stdout}");
            // The f64 reference takes the same point.
            let f64_args = ["--noise", kind, "--dims", dims];
            let out = sample_with_input(&f64_args, input.as_bytes());
            assert!(
                out.status.success(),
                "{f64_args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

#[test]
fn coordinates_up_to_f32_max_give_finite_values_in_range() {
    let input = "3.4028235e38 0.5 -3.4028235e38 1e38\n-1e38 2.5e37 7 -3e38\n";
    for kind in ["classic", "simplex", "cellular"] {
        for dims in ["2", "3", "4"] {
            let args = ["--noise", kind, "--dims", dims, "--precision", "f32"];
            let n: usize = dims.parse().unwrap();
            let lines: String = input
                .lines()
                .map(|l| l.split(' ').take(n).collect::<Vec<_>>().join(" ") + "\n")
                .collect();
            let out = sample_with_input(&args, lines.as_bytes());
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            for v in String::from_utf8_lossy(&out.stdout).lines() {
                let v: f64 = v.parse().unwrap();
                let bound = if kind == "cellular" {
                    0.0..=2.0
                } else {
                    -1.1..=1.1
                };
                assert!(bound.contains(&v), "{args:?}: {v}");
            }
        }
    }
}

#[test]
fn the_gpu_refuses_them_naming_its_option() {
    if common::gpu().is_none() {
        return;
    }
    let out = sample_with_input(&["--backend", "gpu"], b"0.5 1e39\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: line 1: coordinate \"1e39\" is beyond the f32 range (±3.4028235e38) that --backend gpu computes in\n"
    );
}
