//! The node table is the one definition of a graph's node types: docs/graphs.md's node
//! reference is generated from it, and the JSON reader takes every parameter's range and
//! default from it (each bound accepted, each value past it refused naming its path).

use serde_json::{json, Value};
use wgpu_noise::graph::nodes::{Group, NodeType, ParamKind, NODE_TYPES};
use wgpu_noise::graph::Graph;

const GRAPHS_MD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/graphs.md");

/// A number as the docs show it: `1e30`, `0.5`, `1/64`.
fn show(v: f64) -> String {
    if v != 0.0 && v.abs() < 0.1 && (1.0 / v).fract() == 0.0 && (1.0 / v).abs() <= 64.0 {
        format!("{}1/{}", if v < 0.0 { "−" } else { "" }, (1.0 / v.abs()))
    } else if v.abs() >= 1e5 || (v != 0.0 && v.abs() < 1e-3) {
        format!("{v:e}").replace('-', "−")
    } else {
        format!("{v}").replace('-', "−")
    }
}

/// One parameter as the docs list it: `` `jitter` 0–1 (1) ``.
fn param_text(name: &str, kind: &ParamKind) -> String {
    match kind {
        ParamKind::Input => format!("`{name}`"),
        ParamKind::Inputs { min, max } => format!("`{name}`: {min} to {max} inputs (absent)"),
        ParamKind::Number { lo, hi, default } => {
            let default = default.map_or("required".to_string(), show);
            format!("`{name}` {}–{} ({default})", show(*lo), show(*hi))
        }
        ParamKind::Hybrid { lo, hi, default } => format!(
            "`{name}` {}–{} or an input ({})",
            show(*lo),
            show(*hi),
            default.map_or("required".to_string(), show)
        ),
        ParamKind::Integer { lo, hi, default } => {
            format!("`{name}` {lo}–{hi} ({default})").replace('-', "−")
        }
        ParamKind::Choice { names, default } => {
            let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            let default = default.unwrap_or("required");
            format!("`{name}`: {} ({default})", names.join(" / "))
        }
        ParamKind::HybridPerAxis { lo, hi, default } => format!(
            "`{name}`: a number or an input, or 1–4 per axis, each {}–{} or an input ({})",
            show(*lo),
            show(*hi),
            show(*default)
        ),
        ParamKind::HybridPair { lo, hi, default } => format!(
            "`{name}`: [low, high], each {}–{} or an input ([{}, {}])",
            show(*lo),
            show(*hi),
            show(default[0]),
            show(default[1])
        ),
        ParamKind::Points { min, max, lo, hi } => format!(
            "`{name}`: {min} to {max} points [x, y], {}–{}, x increasing (required)",
            show(*lo),
            show(*hi)
        ),
    }
}

/// The reference table of one group, as docs/graphs.md holds it between its markers.
fn reference(group: Group) -> String {
    let mut out = String::from(
        "| type | parameters (default) | value | range | derivative |\n|---|---|---|---|---|\n",
    );
    for t in NODE_TYPES.iter().filter(|t| t.group == group) {
        let params: Vec<String> = t
            .params
            .iter()
            .map(|p| param_text(p.name, &p.kind))
            .collect();
        out += &format!(
            "| `{}` | {} | {} | {} | {} |\n",
            t.name,
            if params.is_empty() {
                "none".to_string()
            } else {
                params.join(", ")
            },
            t.doc.replace('|', "\\|"),
            t.range,
            t.derivative.replace('|', "\\|")
        );
    }
    out
}

/// docs/graphs.md with every group's table between `<!-- node-table: NAME -->` and
/// `<!-- /node-table -->` replaced by [`reference`].
fn generated(doc: &str) -> String {
    let mut out = doc.to_string();
    for group in Group::ALL {
        let open = format!("<!-- node-table: {} -->\n", group.name());
        let start = out
            .find(&open)
            .unwrap_or_else(|| panic!("docs/graphs.md has no marker {open}"))
            + open.len();
        let end = start
            + out[start..]
                .find("<!-- /node-table -->")
                .expect("a closing marker");
        out.replace_range(start..end, &reference(group));
    }
    out
}

#[test]
fn the_docs_node_reference_is_the_node_table() {
    let doc = std::fs::read_to_string(GRAPHS_MD).unwrap();
    let want = generated(&doc);
    if std::env::var_os("WGPU_NOISE_BLESS").is_some() {
        std::fs::write(GRAPHS_MD, &want).unwrap();
        return;
    }
    assert!(
        doc == want,
        "docs/graphs.md's node tables differ from the node table \
         (WGPU_NOISE_BLESS=1 cargo test --test reference node_table:: rewrites them)"
    );
}

/// A value inside a number range: 0.5 where the range holds it, else its nearer end.
fn inside(lo: f64, hi: f64) -> f64 {
    0.5f64.clamp(lo, hi)
}

/// `n` points `[k, k²]` of increasing `x`.
fn increasing(n: usize) -> Vec<[f64; 2]> {
    (0..n).map(|k| [k as f64, (k * k) as f64]).collect()
}

/// The node `t` with only its required parameters (inputs: the constant 0.5).
fn required_only(t: &NodeType) -> serde_json::Map<String, Value> {
    let mut node = serde_json::Map::new();
    node.insert("type".into(), json!(t.name));
    for p in t.params {
        let v = match p.kind {
            ParamKind::Input => json!(0.5),
            ParamKind::Number {
                lo,
                hi,
                default: None,
            }
            | ParamKind::Hybrid {
                lo,
                hi,
                default: None,
            } => json!(inside(lo, hi)),
            ParamKind::Choice {
                names,
                default: None,
            } => json!(names[0]),
            ParamKind::Points { min, .. } => json!(increasing(min)),
            _ => continue,
        };
        node.insert(p.name.into(), v);
    }
    node
}

fn read(node: &serde_json::Map<String, Value>) -> Result<Graph, String> {
    let text = json!({ "version": 1, "output": "out", "nodes": { "out": node } }).to_string();
    Graph::from_json(&text).map_err(|e| e.to_string())
}

/// The node with `key` set to `v`.
fn with(
    node: &serde_json::Map<String, Value>,
    key: &str,
    v: Value,
) -> serde_json::Map<String, Value> {
    let mut node = node.clone();
    node.insert(key.into(), v);
    node
}

/// `v` is read as a value of `key`: accepted, or refused only for its relation to another
/// parameter (a clamp's `max` below its `min`).
fn accepted(t: &NodeType, node: &serde_json::Map<String, Value>, key: &str, v: Value) {
    if let Err(e) = read(&with(node, key, v.clone())) {
        assert!(
            !e.starts_with(&format!("nodes.out.{key}:")) || e.contains("is below min"),
            "{}: {key} = {v} refused: {e}",
            t.name
        );
    }
}

/// `v` is refused as a value of `key`, naming its path and the words `why`.
fn refused(t: &NodeType, node: &serde_json::Map<String, Value>, key: &str, v: Value, why: &str) {
    match read(&with(node, key, v.clone())) {
        Ok(_) => panic!("{}: {key} = {v} accepted", t.name),
        Err(e) => assert!(
            e.starts_with(&format!("nodes.out.{key}")) && e.contains(why),
            "{}: {key} = {v}: {e}",
            t.name
        ),
    }
}

#[test]
fn every_node_type_reads_its_parameters_as_the_table_says() {
    for t in NODE_TYPES {
        let node = required_only(t);
        let plain = read(&node).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        // Each default written out reads as the default left out.
        let mut explicit = node.clone();
        for p in t.params {
            let v = match p.kind {
                ParamKind::Number {
                    default: Some(d), ..
                } => json!(d),
                ParamKind::Integer { default, .. } => json!(default),
                ParamKind::Hybrid {
                    default: Some(d), ..
                } => json!(d),
                ParamKind::Choice {
                    default: Some(d), ..
                } => json!(d),
                ParamKind::HybridPair { default, .. } => json!(default),
                ParamKind::HybridPerAxis { default, .. } => json!(default),
                _ => continue,
            };
            explicit.insert(p.name.into(), v);
        }
        let explicit = read(&explicit).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        assert_eq!(
            format!("{:?}", explicit.spec().nodes["out"].node),
            format!("{:?}", plain.spec().nodes["out"].node),
            "{}: the table's defaults",
            t.name
        );
        for p in t.params {
            let key = p.name;
            let past = |v: f64| v.abs().max(1.0);
            match p.kind {
                ParamKind::Input => {
                    let mut without = node.clone();
                    without.remove(key);
                    refused(t, &without, key, json!(null), "must be");
                    assert!(read(&without).unwrap_err().contains("missing (required)"));
                }
                ParamKind::Inputs { min, max } => {
                    accepted(t, &node, key, json!(vec![0.5; min]));
                    accepted(t, &node, key, json!(vec![0.5; max]));
                    refused(t, &node, key, json!(vec![0.5; max + 1]), "inputs");
                }
                ParamKind::Number { lo, hi, default } => {
                    accepted(t, &node, key, json!(lo));
                    accepted(t, &node, key, json!(hi));
                    refused(t, &node, key, json!(lo - past(lo)), "out of range");
                    refused(t, &node, key, json!(hi + past(hi)), "out of range");
                    if default.is_none() {
                        let mut without = node.clone();
                        without.remove(key);
                        let e = read(&without).unwrap_err();
                        assert!(e.contains(&format!("{key}: missing (required)")), "{e}");
                    }
                }
                ParamKind::Hybrid { lo, hi, default } => {
                    accepted(t, &node, key, json!(lo));
                    accepted(t, &node, key, json!(hi));
                    refused(t, &node, key, json!(lo - past(lo)), "out of range");
                    refused(t, &node, key, json!(hi + past(hi)), "out of range");
                    accepted(t, &node, key, json!({ "type": "simplex" }));
                    refused(t, &node, key, json!("nowhere"), "nowhere");
                    if default.is_none() {
                        let mut without = node.clone();
                        without.remove(key);
                        let e = read(&without).unwrap_err();
                        assert!(e.contains(&format!("{key}: missing (required)")), "{e}");
                    }
                }
                ParamKind::Integer { lo, hi, .. } => {
                    accepted(t, &node, key, json!(lo));
                    accepted(t, &node, key, json!(hi));
                    refused(t, &node, key, json!(lo - 1), "out of range");
                    refused(t, &node, key, json!(hi + 1), "out of range");
                    refused(t, &node, key, json!(0.5), "whole number");
                }
                ParamKind::Choice { names, default } => {
                    for n in names {
                        accepted(t, &node, key, json!(n));
                    }
                    refused(t, &node, key, json!("nonsense"), &names.join(", "));
                    if default.is_none() {
                        let mut without = node.clone();
                        without.remove(key);
                        let e = read(&without).unwrap_err();
                        assert!(e.contains(&format!("{key}: missing (required)")), "{e}");
                    }
                }
                ParamKind::HybridPerAxis { lo, hi, .. } => {
                    accepted(t, &node, key, json!([lo, hi, lo, hi]));
                    refused(t, &node, key, json!(hi + past(hi)), "out of range");
                    refused(t, &node, key, json!([lo, lo - past(lo)]), "out of range");
                    refused(t, &node, key, json!([lo, lo, lo, lo, lo]), "1 to 4");
                    accepted(t, &node, key, json!({ "type": "simplex" }));
                    accepted(t, &node, key, json!([lo, { "type": "simplex" }]));
                    refused(t, &node, key, json!("nowhere"), "nowhere");
                    refused(t, &node, key, json!([1, "nowhere"]), "nowhere");
                }
                ParamKind::HybridPair { lo, hi, .. } => {
                    accepted(t, &node, key, json!([lo, hi]));
                    refused(t, &node, key, json!([0, hi + past(hi)]), "out of range");
                    refused(t, &node, key, json!([lo - past(lo), 0]), "out of range");
                    refused(t, &node, key, json!([0, 1, 2]), "[low, high]");
                    accepted(t, &node, key, json!([{ "type": "simplex" }, 1]));
                    accepted(t, &node, key, json!([0, { "type": "simplex" }]));
                    refused(t, &node, key, json!([0, "nowhere"]), "nowhere");
                }
                ParamKind::Points { min, max, lo, hi } => {
                    accepted(t, &node, key, json!(increasing(max)));
                    accepted(t, &node, key, json!([[lo, lo], [hi, hi]]));
                    let count = format!("{min} to {max} points");
                    refused(t, &node, key, json!(increasing(max + 1)), &count);
                    refused(t, &node, key, json!(increasing(min - 1)), &count);
                    refused(
                        t,
                        &node,
                        key,
                        json!([[0, 0], [1, hi + past(hi)]]),
                        "out of range",
                    );
                    refused(t, &node, key, json!([[0, 0], [0, 1]]), "x must increase");
                    refused(t, &node, key, json!([[0, 0], [1]]), "[x, y]");
                    refused(t, &node, key, json!(1), "[x, y]");
                    let mut without = node.clone();
                    without.remove(key);
                    let e = read(&without).unwrap_err();
                    assert!(e.contains(&format!("{key}: missing (required)")), "{e}");
                }
            }
        }
        refused(t, &node, "nonsense", json!(1), "unknown parameter");
    }
}

#[test]
fn a_type_outside_the_table_is_unknown() {
    let e = read(&serde_json::Map::from_iter([(
        "type".into(),
        json!("divides"),
    )]))
    .unwrap_err();
    assert!(e.contains("unknown node type \"divides\""), "{e}");
}
