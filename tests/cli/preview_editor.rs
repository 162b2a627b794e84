//! The graph editor's model (`editor::model`), which the node view and the
//! JSON text both go through: a graph file read as named nodes and written back is the same
//! graph (the same lowered program); nodes without a place are laid out clear of every
//! other node's frame, kept ones stay where they were; every edit does what it says and is
//! undone and redone whole; a bad edit's error names its node.
#![cfg(feature = "preview")]

use base64::Engine;
use serde_json::{json, Value};
use wgpu_noise::editor::model::{
    is_input, node_size, type_names, Edit, EditorNode, GraphModel, Wire,
};
use wgpu_noise::editor::orbit::{Orbit, DEFAULT_RELIEF, DISTANCE_RANGE, PITCH_RANGE, RELIEF_RANGE};
use wgpu_noise::editor::share::{Framing, Scene, SharedView};
use wgpu_noise::graph::nodes::{node_type, ParamKind};
use wgpu_noise::graph::{Graph, GraphError, Program};

use super::preview_graph::{panned_graph_reference, GraphFrame};
use super::preview_panel::run_bake;
use crate::common::graphs::{random_graph, Rng, Shape};
use crate::common::levels::assert_levels_match;

/// The graph of `text` lowered for 2D and 3D, or its first error.
fn programs(text: &str) -> Result<Vec<Program>, GraphError> {
    let graph = Graph::from_json(text)?;
    [2, 3]
        .map(|dims| graph.program(dims, [0.0; 4]))
        .into_iter()
        .collect()
}

fn model(text: &str) -> GraphModel {
    GraphModel::from_json(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The node the model's graph's error names, and the error.
fn fault(m: &GraphModel) -> (Option<String>, GraphError) {
    let error = programs(&m.to_json()).expect_err("a bad graph");
    (m.node_at_fault(&error).map(str::to_string), error)
}

fn edit(m: &mut GraphModel, edit: Edit) -> Option<String> {
    m.apply(edit.clone())
        .unwrap_or_else(|e| panic!("{edit:?}: {e}"))
}

const BASE: &str = r#"{"version": 1, "output": "base", "nodes": {"base": {"type": "simplex"}}}"#;

#[test]
fn every_shipped_graph_read_and_written_back_is_the_same_program() {
    let mut read = 0;
    for entry in std::fs::read_dir("examples/graphs").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let m = model(&text);
        let written = m.to_json();
        assert_eq!(
            programs(&written),
            programs(&text),
            "{}: written back as\n{written}",
            path.display()
        );
        // Written text read again is written the same (a fixed point).
        assert_eq!(model(&written).to_json(), written, "{}", path.display());
        read += 1;
    }
    assert!(read >= 10, "only {read} shipped graphs");
}

#[test]
fn a_node_written_in_place_becomes_a_named_node_wired_where_it_was() {
    let text = std::fs::read_to_string("examples/graphs/terrain.json").unwrap();
    let m = model(&text);
    let mask = m.node("mask").unwrap();
    assert_eq!(mask.params["source"], json!("mask.source"));
    let source = m.node("mask.source").unwrap();
    assert_eq!(source.type_name, "classic");
    assert_eq!(source.params["seed"], json!(3));
    let wire = Wire {
        param: "source",
        axis: None,
        from: "mask.source",
    };
    assert_eq!(mask.wires(), [wire]);
    // Laid out left of what reads them: the output rightmost.
    let x = |n: &str| m.node(n).unwrap().place[0];
    assert!(x("mask.source") < x("mask") && x("mask") < x("mixed"));
    assert!(x("mixed") < x("terrain"));
}

/// A node's frame on the node view: its min and max corners.
fn frame(node: &EditorNode) -> [f32; 4] {
    let [width, height] = node_size(&node.type_name);
    let [x, y] = node.place;
    [x, y, x + width, y + height]
}

/// The first two nodes of `m` whose frames overlap (edges that touch do not), if any.
fn overlapping(m: &GraphModel) -> Option<(String, String)> {
    let nodes = &m.graph().nodes;
    nodes.iter().enumerate().find_map(|(i, a)| {
        let [a0, a1, a2, a3] = frame(a);
        nodes[i + 1..]
            .iter()
            .find(|b| {
                let [b0, b1, b2, b3] = frame(b);
                a0 < b2 && b0 < a2 && a1 < b3 && b1 < a3
            })
            .map(|b| (a.name.clone(), b.name.clone()))
    })
}

/// Each node's name, type and place, for messages.
fn places(m: &GraphModel) -> String {
    let nodes = m.graph().nodes.iter();
    nodes
        .map(|n| format!("{} ({}) at {:?}", n.name, n.type_name, n.place))
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn no_two_nodes_of_a_shipped_graph_are_laid_out_overlapping() {
    for entry in std::fs::read_dir("examples/graphs").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let m = model(&std::fs::read_to_string(&path).unwrap());
        assert_eq!(overlapping(&m), None, "{}: {}", path.display(), places(&m));
    }
}

#[test]
fn nodes_that_fit_a_grid_row_are_laid_out_on_the_grid_and_taller_ones_stack() {
    // Two simplex nodes read by the output: one column of two rows, the output right of it.
    let m = model(
        r#"{"version": 1, "output": "sum", "nodes": {"sum": {"type": "add", "a": "p", "b": "q"},
            "p": {"type": "simplex"}, "q": {"type": "simplex"}}}"#,
    );
    let place = |n: &str| m.node(n).unwrap().place;
    assert_eq!(
        [place("p"), place("q"), place("sum")],
        [[20.0, 20.0], [20.0, 260.0], [250.0, 20.0]],
        "{}",
        places(&m)
    );
    // Cellular nodes are taller than a grid row: the second starts below the first.
    let m = model(
        r#"{"version": 1, "output": "sum", "nodes": {"sum": {"type": "add", "a": "p", "b": "q"},
            "p": {"type": "cellular"}, "q": {"type": "cellular"}}}"#,
    );
    let (p, q) = (m.node("p").unwrap(), m.node("q").unwrap());
    assert_eq!(p.place[0], q.place[0], "one column: {}", places(&m));
    assert!(q.place[1] >= frame(p)[3], "{}", places(&m));
    assert_eq!(overlapping(&m), None, "{}", places(&m));
}

#[test]
fn a_new_node_whose_grid_place_a_kept_node_holds_goes_clear_of_it() {
    // A node nothing reads, typed into a one-node graph, takes the leftmost column's first
    // row, where the output was laid out before it.
    let mut m = model(BASE);
    let base = m.node("base").unwrap().place;
    m.read_text(
        r#"{"version": 1, "output": "base", "nodes": {"base": {"type": "simplex"},
            "extra": {"type": "cellular"}}}"#,
    )
    .unwrap();
    assert_eq!(m.node("base").unwrap().place, base, "a kept node stays");
    assert_eq!(overlapping(&m), None, "{}", places(&m));

    // The output dragged to where the node that reads it is laid out.
    let mut m = model(BASE);
    edit(
        &mut m,
        Edit::Move {
            name: "base".into(),
            place: [250.0, 20.0],
        },
    );
    m.read_text(
        r#"{"version": 1, "output": "out", "nodes": {"base": {"type": "simplex"},
            "out": {"type": "fbm", "source": "base"}}}"#,
    )
    .unwrap();
    assert_eq!(
        m.node("base").unwrap().place,
        [250.0, 20.0],
        "a kept node stays"
    );
    assert_eq!(overlapping(&m), None, "{}", places(&m));
}

/// `text` edited as a user might type it: perhaps a node renamed (its readers and the
/// output follow it: a new node to the model), and one to three new nodes of random types,
/// some reading a node of the graph, perhaps one of them the new output.
fn typed_edit(rng: &mut Rng, text: &str) -> String {
    let mut file: Value = serde_json::from_str(text).unwrap();
    let nodes = file["nodes"].as_object_mut().unwrap();
    let mut names: Vec<String> = nodes.keys().cloned().collect();
    if rng.below(2) == 0 {
        let old = rng.pick(&names).clone();
        let new = format!("{old}-renamed");
        let node = nodes.remove(&old).unwrap();
        nodes.insert(new.clone(), node);
        for node in nodes.values_mut() {
            let type_name = node["type"].as_str().unwrap().to_string();
            for (key, value) in node.as_object_mut().unwrap() {
                if is_input(&type_name, key) && value.as_str() == Some(old.as_str()) {
                    *value = json!(new);
                }
            }
        }
        if file["output"] == json!(old) {
            file["output"] = json!(new);
        }
        names = file["nodes"].as_object().unwrap().keys().cloned().collect();
    }
    let types: Vec<&str> = type_names().collect();
    for k in 0..1 + rng.below(3) {
        let type_name = *rng.pick(&types);
        let input = wgpu_noise::graph::nodes::node_type(type_name)
            .unwrap()
            .params
            .iter()
            .find(|p| is_input(type_name, p.name));
        let mut node = json!({ "type": type_name });
        let name = format!("new-{k}");
        if let Some(input) = input {
            match rng.below(3) {
                0 => {}
                1 => node[input.name] = json!(rng.pick(&names)),
                _ => {
                    node[input.name] = file["output"].clone();
                    file["output"] = json!(name);
                }
            }
        }
        file["nodes"][&name] = node;
    }
    file.to_string()
}

#[test]
fn nodes_laid_out_among_moved_and_added_ones_overlap_none_and_kept_ones_stay() {
    let mut rng = Rng::new(11);
    let shipped = std::fs::read_dir("examples/graphs")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| std::fs::read_to_string(p).unwrap());
    let shape = Shape {
        dims: 2,
        depth: 4,
        differentiable: false,
    };
    let drawn: Vec<String> = (0..24)
        .map(|_| random_graph(&mut rng, shape).to_string())
        .collect();
    let texts: Vec<String> = shipped.chain(drawn).collect();
    let types: Vec<&str> = type_names().collect();
    let random_place = |rng: &mut Rng| [-300.0, -300.0].map(|lo| rng.range(lo, 1500.0) as f32);
    for round in 0..4 {
        for text in &texts {
            let mut m = model(text);
            // A third of the nodes dragged, and up to two added from the node view's menu,
            // each to a random place clear of every other node (or left out).
            let names: Vec<String> = m.graph().nodes.iter().map(|n| n.name.clone()).collect();
            let mut edits: Vec<Edit> = names
                .into_iter()
                .filter(|_| rng.below(3) == 0)
                .map(|name| Edit::Move {
                    name,
                    place: [0.0; 2],
                })
                .collect();
            for _ in 0..rng.below(3) {
                edits.push(Edit::Add {
                    type_name: rng.pick(&types).to_string(),
                    place: [0.0; 2],
                });
            }
            for e in edits {
                for _ in 0..20 {
                    let mut e = e.clone();
                    match &mut e {
                        Edit::Move { place, .. } | Edit::Add { place, .. } => {
                            *place = random_place(&mut rng)
                        }
                        _ => unreachable!(),
                    }
                    let mut tried = m.clone();
                    edit(&mut tried, e);
                    if overlapping(&tried).is_none() {
                        m = tried;
                        break;
                    }
                }
            }
            let before: Vec<(String, [f32; 2])> = m
                .graph()
                .nodes
                .iter()
                .map(|n| (n.name.clone(), n.place))
                .collect();
            let typed = typed_edit(&mut rng, &m.to_json());
            m.read_text(&typed).unwrap();
            let context = format!("round {round}: {typed}\n{}", places(&m));
            for (name, place) in before {
                if let Some(node) = m.node(&name) {
                    assert_eq!(node.place, place, "{name} moved: {context}");
                }
            }
            assert_eq!(overlapping(&m), None, "{context}");
        }
    }
}

#[test]
fn an_added_node_has_the_tables_defaults_and_an_unwired_input_names_it() {
    let mut m = model(BASE);
    let name = edit(
        &mut m,
        Edit::Add {
            type_name: "ridged".into(),
            place: [300.0, 0.0],
        },
    );
    assert_eq!(name.as_deref(), Some("ridged"));
    let ridged = m.node("ridged").unwrap();
    assert!(
        ridged.params.is_empty(),
        "defaults are left out: {ridged:?}"
    );
    assert_eq!(ridged.place, [300.0, 0.0]);
    let (node, error) = fault(&m);
    assert_eq!(node.as_deref(), Some("ridged"), "{error}");
    // A second of the same type gets a name of its own.
    let again = edit(
        &mut m,
        Edit::Add {
            type_name: "ridged".into(),
            place: [0.0, 0.0],
        },
    );
    assert_eq!(again.as_deref(), Some("ridged-2"));
    // Required numbers and choices start at a value in range: the node is good as added.
    for (type_name, param, value) in [
        ("flow", "angle", json!(0.0)),
        ("constant", "value", json!(0.0)),
        ("position", "axis", json!("x")),
    ] {
        let mut m = model(BASE);
        let name = edit(
            &mut m,
            Edit::Add {
                type_name: type_name.into(),
                place: [0.0, 0.0],
            },
        )
        .unwrap();
        assert_eq!(m.node(&name).unwrap().params[param], value, "{type_name}");
        programs(&m.to_json()).unwrap_or_else(|e| panic!("{type_name}: {e}"));
    }
}

#[test]
fn wiring_setting_and_the_output_give_the_graph_written_by_hand() {
    let mut m = model(BASE);
    edit(
        &mut m,
        Edit::Add {
            type_name: "ridged".into(),
            place: [300.0, 0.0],
        },
    );
    edit(
        &mut m,
        Edit::Connect {
            from: "base".into(),
            to: "ridged".into(),
            param: "source".into(),
        },
    );
    edit(
        &mut m,
        Edit::Set {
            node: "ridged".into(),
            param: "octaves".into(),
            value: json!(4),
        },
    );
    edit(
        &mut m,
        Edit::SetOutput {
            name: "ridged".into(),
        },
    );
    let by_hand = r#"{"version": 1, "output": "ridged", "nodes": {
        "base": {"type": "simplex"},
        "ridged": {"type": "ridged", "source": "base", "octaves": 4}}}"#;
    assert_eq!(programs(&m.to_json()), programs(by_hand));
    assert!(programs(by_hand).is_ok());
    // A parameter set to nothing is its default again.
    edit(
        &mut m,
        Edit::Set {
            node: "ridged".into(),
            param: "octaves".into(),
            value: serde_json::Value::Null,
        },
    );
    let default = by_hand.replace(", \"octaves\": 4", "");
    assert_eq!(programs(&m.to_json()), programs(&default));
}

#[test]
fn every_edit_is_undone_and_redone_whole() {
    let text = std::fs::read_to_string("examples/graphs/terrain.json").unwrap();
    let edits = [
        Edit::Add {
            type_name: "fbm".into(),
            place: [10.0, 20.0],
        },
        Edit::Delete {
            name: "cells".into(),
        },
        Edit::Connect {
            from: "base".into(),
            to: "mixed".into(),
            param: "t".into(),
        },
        Edit::Set {
            node: "ridges".into(),
            param: "octaves".into(),
            value: json!(7),
        },
        Edit::SetOutput {
            name: "mixed".into(),
        },
        Edit::Move {
            name: "base".into(),
            place: [-50.0, 400.0],
        },
    ];
    for e in edits {
        let mut m = model(&text);
        let before = m.graph().clone();
        edit(&mut m, e.clone());
        let after = m.graph().clone();
        assert_ne!(after, before, "{e:?} changed nothing");
        assert!(m.undo(), "{e:?}");
        assert_eq!(*m.graph(), before, "{e:?} undone");
        assert_eq!(m.to_json(), model(&text).to_json(), "{e:?} undone");
        assert!(!m.undo(), "one step only");
        assert!(m.redo(), "{e:?}");
        assert_eq!(*m.graph(), after, "{e:?} redone");
        assert!(!m.redo());
    }
}

#[test]
fn a_slider_drag_a_move_and_a_run_of_typing_are_one_step_each() {
    let mut m = model(BASE);
    edit(
        &mut m,
        Edit::Add {
            type_name: "fbm".into(),
            place: [0.0, 0.0],
        },
    );
    let added = m.graph().clone();
    for octaves in 2..6 {
        edit(
            &mut m,
            Edit::Set {
                node: "fbm".into(),
                param: "octaves".into(),
                value: json!(octaves),
            },
        );
    }
    for x in 1..5 {
        edit(
            &mut m,
            Edit::Move {
                name: "fbm".into(),
                place: [x as f32, 0.0],
            },
        );
    }
    let moved = m.graph().clone();
    // Typing: three texts in a row, one step.
    let typed = ["2", "3", "4"].map(|o| {
        m.to_json()
            .replace("\"octaves\": 5", &format!("\"octaves\": 5{o}"))
    });
    for t in &typed {
        m.read_text(t).unwrap();
    }
    assert_eq!(m.node("fbm").unwrap().params["octaves"], json!(54));
    assert_eq!(
        m.node("fbm").unwrap().place,
        [4.0, 0.0],
        "a node keeps its place"
    );
    assert!(m.undo());
    assert_eq!(*m.graph(), moved, "the typing undone");
    assert!(m.undo());
    let mut set = moved.clone();
    set.nodes[1].place = [0.0, 0.0];
    assert_eq!(*m.graph(), set, "the move undone");
    assert!(m.undo());
    assert_eq!(*m.graph(), added, "the drag undone");
}

#[test]
fn a_text_replaced_whole_between_runs_of_typing_is_a_step_of_its_own() {
    let mut m = model(BASE);
    let typed = m
        .to_json()
        .replace("\"simplex\"", "\"simplex\", \"seed\": 1");
    m.read_text(&typed).unwrap();
    let before = m.graph().clone();
    assert_ne!(before, *model(BASE).graph(), "the typing changed the graph");
    // A preset (or a `--graph` file's edit) right after typing, then more typing.
    let marble = std::fs::read_to_string("examples/graphs/marble.json").unwrap();
    m.replace_text(&marble).unwrap();
    let preset = m.graph().clone();
    let edited = m.to_json().replace("\"strength\": 1.5", "\"strength\": 3");
    m.read_text(&edited).unwrap();
    assert_ne!(
        *m.graph(),
        preset,
        "the typing after the preset changed the graph"
    );
    assert!(m.undo());
    assert_eq!(*m.graph(), preset, "the typing after the preset undone");
    assert!(m.undo());
    assert_eq!(
        *m.graph(),
        before,
        "the preset undone, not the typing before it"
    );
    assert!(m.undo());
    assert_eq!(*m.graph(), *model(BASE).graph(), "the first typing undone");
    assert!(!m.undo());
}

#[test]
fn text_that_is_no_graph_leaves_the_model_and_a_bad_edit_names_its_node() {
    let mut m = model(BASE);
    let before = m.graph().clone();
    for bad in [
        "{",
        "[1]",
        r#"{"nodes": 3}"#,
        r#"{"nodes": {"a": {"seed": 1}}}"#,
    ] {
        let why = m.read_text(bad).expect_err(bad);
        assert_eq!(*m.graph(), before, "{bad}: {why}");
    }
    assert!(!m.can_undo(), "nothing was recorded");
    // Edits naming what is not there are refused and change nothing.
    for e in [
        Edit::Delete { name: "x".into() },
        Edit::SetOutput { name: "x".into() },
        Edit::Connect {
            from: "base".into(),
            to: "base".into(),
            param: "seed".into(),
        },
        Edit::Add {
            type_name: "nope".into(),
            place: [0.0, 0.0],
        },
    ] {
        assert!(m.apply(e.clone()).is_err(), "{e:?}");
        assert_eq!(*m.graph(), before, "{e:?}");
    }
    // A value out of range, in a node written in place: the error names that node.
    m.read_text(
        r#"{"version": 1, "output": "n", "nodes": {
            "n": {"type": "fbm", "source": {"type": "classic", "seed": 1e9}}}}"#,
    )
    .unwrap();
    let (node, error) = fault(&m);
    assert_eq!(error.path, "nodes.n.source.seed");
    assert_eq!(node.as_deref(), Some("n.source"), "{error}");
    // Deleting a node that feeds a required input: the node that read it is at fault.
    let text = std::fs::read_to_string("examples/graphs/terrain.json").unwrap();
    let mut m = model(&text);
    edit(
        &mut m,
        Edit::Delete {
            name: "base".into(),
        },
    );
    assert!(!m.node("ridges").unwrap().params.contains_key("source"));
    let (node, error) = fault(&m);
    assert_eq!(node.as_deref(), Some("ridges"), "{error}");
    // A number out of range set on the node view names the node too.
    let mut m = model(&text);
    edit(
        &mut m,
        Edit::Set {
            node: "ridges".into(),
            param: "octaves".into(),
            value: json!(1000),
        },
    );
    let (node, error) = fault(&m);
    assert_eq!(node.as_deref(), Some("ridges"), "{error}");
}

/// A share string of `text` deflated (as the links' encoder does, independently spelled).
fn shared_string(text: &str) -> String {
    let deflated = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 6);
    format!(
        "v1.{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(deflated)
    )
}

/// Framings for `scenes`: the first's default, then pans, clocks and reliefs that are not
/// short decimals, at the ends of their ranges, and far from the origin.
fn framings(scenes: &[Scene; 4]) -> [Framing; 4] {
    [
        Framing::of(&scenes[0]),
        Framing {
            pan: [1.0 / 3.0, -1e-7],
            dims: 3,
            time: 0.1 + 0.2,
            speed: -0.7,
            paused: false,
            relief: RELIEF_RANGE.1,
        },
        Framing {
            pan: [1e6 + 0.1, -2.5],
            dims: 4,
            time: 1e3 / 7.0,
            speed: 0.0,
            paused: true,
            relief: RELIEF_RANGE.0,
        },
        Framing {
            pan: [-2.0 / 3.0, 0.1],
            dims: 3,
            time: 12.5,
            speed: 0.25,
            paused: true,
            relief: 0.15,
        },
    ]
}

#[test]
fn a_share_link_gives_back_every_shipped_graph_and_view_exactly() {
    let mut longest = 0;
    for entry in std::fs::read_dir("examples/graphs").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let graph = std::fs::read_to_string(&path).unwrap();
        // The flat view, the terrain's and the iso view's at cameras whose angles (and a
        // level that) are not short decimals.
        let scenes = [
            Scene::Flat,
            Scene::Terrain(Orbit::new(1.0 / 3.0, 0.1 + 0.2, 3.0)),
            Scene::Terrain(Orbit::new(6.0, PITCH_RANGE.1, DISTANCE_RANGE.0)),
            Scene::Iso {
                camera: Orbit::new(2.0 / 3.0, PITCH_RANGE.1, 2.9),
                level: -0.1 - 0.2,
            },
        ];
        for (((seed, frequency, ramp), scene), framing) in [
            (0, 4.0, "gray"),
            (u64::MAX, 0.1 + 0.2, "terrain"),
            ((1 << 53) + 1, 1e-3, "magma"),
            (7, 2.0, "viridis"),
        ]
        .into_iter()
        .zip(scenes)
        .zip(framings(&scenes))
        {
            let view = SharedView {
                graph: graph.clone(),
                seed,
                frequency,
                ramp: ramp.to_string(),
                scene,
                framing,
            };
            let link = view.encode();
            assert!(
                link.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)),
                "URL-safe: {link}"
            );
            longest = longest.max(link.len());
            assert_eq!(
                SharedView::decode(&link).unwrap(),
                view,
                "{}",
                path.display()
            );
            // The JSON it holds is the view's, read by an independent reader.
            let inflated = base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(&link[3..])
                .map(|d| miniz_oxide::inflate::decompress_to_vec(&d).unwrap())
                .unwrap();
            let held: serde_json::Value = serde_json::from_slice(&inflated).unwrap();
            assert_eq!(held["graph"], graph.as_str());
            assert_eq!(held["seed"], seed.to_string());
            assert_eq!(held["pan"], json!(framing.pan));
            assert_eq!(held["dims"], json!(framing.dims));
            assert_eq!(held["time"].as_f64(), Some(framing.time));
            assert_eq!(held["speed"].as_f64(), Some(framing.speed));
            assert_eq!(held["paused"], json!(framing.paused));
            assert_eq!(held["relief"].as_f64(), Some(framing.relief));
            match scene {
                Scene::Flat => {
                    assert!(held.get("view").is_none() && held.get("camera").is_none())
                }
                Scene::Terrain(camera) => {
                    assert_eq!(held["view"], "3d");
                    assert_eq!(
                        held["camera"],
                        json!([camera.yaw, camera.pitch, camera.distance])
                    );
                }
                Scene::Iso { camera, level } => {
                    assert_eq!(held["view"], "iso");
                    assert_eq!(
                        held["camera"],
                        json!([camera.yaw, camera.pitch, camera.distance])
                    );
                    assert_eq!(held["level"].as_f64(), Some(level));
                }
            }
        }
    }
    eprintln!("longest share string of a shipped graph: {longest} characters");
}

#[test]
fn a_link_without_a_framing_is_of_the_view_from_the_origin_paused() {
    // A link as made before links held the framing: the window opened it from the origin,
    // in 2D (3D for the iso view), the clock paused at 0, at `preview`'s default speed and
    // the terrain's default relief.
    let speed = preview_default("--speed");
    for (view, dims) in [
        ("", 2),
        (r#","view":"3d","camera":[0,1,3]"#, 2),
        (r#","view":"iso","camera":[0,1,3],"level":0"#, 3),
    ] {
        let old = format!(r#"{{"graph":"{{}}","seed":"1","frequency":2,"ramp":"gray"{view}}}"#);
        let framing = SharedView::decode(&shared_string(&old)).unwrap().framing;
        assert_eq!(
            framing,
            Framing {
                pan: [0.0, 0.0],
                dims,
                time: 0.0,
                speed,
                paused: true,
                relief: DEFAULT_RELIEF,
            },
            "{old}"
        );
    }
}

/// The default of `preview`'s option `name`, as its help says it.
fn preview_default(name: &str) -> f64 {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
        .args(["preview", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let after = help.split(&format!("{name} <")).nth(1).expect("the option");
    let default = after.split("[default: ").nth(1).expect("a default");
    default[..default.find(']').unwrap()].parse().unwrap()
}

#[test]
fn a_bad_share_link_is_a_clear_error() {
    let good = r#"{"graph":"{}","seed":"1","frequency":2,"ramp":"gray"}"#;
    assert!(SharedView::decode(&shared_string(good)).is_ok());
    // The good settings with `extra` ("key":value) added.
    let with_setting =
        |extra: &str| shared_string(&format!("{},{extra}}}", &good[..good.len() - 1]));
    assert!(SharedView::decode(&with_setting(r#""view":"2d""#)).is_ok());
    let bomb = format!(
        r#"{{"graph":"{}","seed":"1","frequency":2,"ramp":"gray"}}"#,
        " ".repeat(2 << 20)
    );
    let not_deflated = format!(
        "v1.{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b"plain text")
    );
    for (link, says) in [
        ("".to_string(), "does not start with"),
        ("v2.abc".to_string(), "does not start with"),
        ("v1.a+b/".to_string(), "not URL-safe base64"),
        (not_deflated, "not deflated"),
        (shared_string(&bomb), "inflates to more than"),
        (shared_string("[1, 2"), "not JSON"),
        (
            shared_string(r#"{"seed":"1","frequency":2,"ramp":"gray"}"#),
            "no \"graph\"",
        ),
        (
            shared_string(&good.replace(r#""1""#, "1")),
            "\"seed\" is not a whole number",
        ),
        (
            shared_string(&good.replace(r#""1""#, r#""-1""#)),
            "\"seed\" is not a whole number",
        ),
        (
            shared_string(&good.replace(":2,", ":0,")),
            "\"frequency\" is not a number above 0",
        ),
        (
            shared_string(&good.replace("gray", "rainbow")),
            "\"ramp\" is not a colour ramp",
        ),
        (
            with_setting(r#""view":"4d""#),
            "\"view\" is not \"2d\", \"3d\" or \"iso\"",
        ),
        (
            with_setting(r#""view":"iso","camera":[0,1,3]"#),
            "no \"level\"",
        ),
        (with_setting(r#""view":"iso","level":0"#), "no \"camera\""),
        (
            with_setting(r#""view":"iso","camera":[0,1,3],"level":"0""#),
            "\"level\" is not a number from -4 to 4",
        ),
        (
            with_setting(r#""view":"iso","camera":[0,1,3],"level":4.5"#),
            "\"level\" is not a number from -4 to 4",
        ),
        (
            with_setting(r#""view":"iso","camera":[0,2,3],"level":0"#),
            "pitch 2 is not from",
        ),
        (with_setting(r#""view":"3d""#), "no \"camera\""),
        (with_setting(r#""pan":[1]"#), "\"pan\" is not [x, y]"),
        (with_setting(r#""pan":[1,"2"]"#), "\"pan\" is not [x, y]"),
        (
            with_setting(r#""pan":{"x":1,"y":2}"#),
            "\"pan\" is not [x, y]",
        ),
        (with_setting(r#""dims":1"#), "\"dims\" is not 2, 3 or 4"),
        (with_setting(r#""dims":5"#), "\"dims\" is not 2, 3 or 4"),
        (with_setting(r#""dims":2.5"#), "\"dims\" is not 2, 3 or 4"),
        (with_setting(r#""dims":"3""#), "\"dims\" is not 2, 3 or 4"),
        (
            with_setting(r#""time":"1""#),
            "\"time\" is not a finite number",
        ),
        (
            with_setting(r#""speed":null"#),
            "\"speed\" is not a finite number",
        ),
        (
            with_setting(r#""paused":1"#),
            "\"paused\" is not true or false",
        ),
        (
            with_setting(r#""relief":-0.1"#),
            "\"relief\" -0.1 is not from 0 to 1",
        ),
        (
            with_setting(r#""relief":1.5"#),
            "\"relief\" 1.5 is not from 0 to 1",
        ),
        (
            with_setting(r#""view":"3d","camera":[0,1]"#),
            "\"camera\" is not [yaw, pitch, distance]",
        ),
        (
            with_setting(r#""view":"3d","camera":[7,1,3]"#),
            "yaw 7 is not from 0 to 2π",
        ),
        (
            with_setting(r#""view":"3d","camera":[0,2,3]"#),
            "pitch 2 is not from",
        ),
        (
            with_setting(r#""view":"3d","camera":[0,1,30]"#),
            "distance 30 is not from",
        ),
    ] {
        let error = SharedView::decode(&link).expect_err(&link);
        assert!(error.starts_with("share link: "), "{error}");
        assert!(error.contains(says), "{link:.40}: {error}");
    }
}

#[test]
fn the_bake_command_names_the_views_settings() {
    let view = SharedView {
        graph: "{}".into(),
        seed: 12345678901234567890,
        frequency: 2.5,
        ramp: "viridis".into(),
        scene: Scene::Flat,
        framing: Framing::of(&Scene::Flat),
    };
    assert_eq!(
        view.bake_command(256, 128),
        "wgpu-noise bake --graph graph.json --size 256x128 --frequency 2.5 --seed \
         12345678901234567890 --range -1,1 --bits 8 --ramp viridis -o noise.png"
    );
    let camera = Orbit::default();
    let terrain = SharedView {
        scene: Scene::Terrain(camera),
        framing: Framing::of(&Scene::Terrain(camera)),
        ..view.clone()
    };
    assert_eq!(
        terrain.bake_command(256, 128),
        "wgpu-noise bake --graph graph.json --size 256x128 --frequency 2.5 --seed \
         12345678901234567890 --range -1,1 --bits 16 -o heightmap.png"
    );
    let scene = Scene::Iso { camera, level: 0.5 };
    let iso = SharedView {
        scene,
        framing: Framing::of(&scene),
        ..view.clone()
    };
    assert_eq!(iso_samples(), wgpu_noise::editor::iso::SAMPLES);
    assert_eq!(
        iso.bake_command(256, 128),
        "wgpu-noise bake --graph graph.json --dims 3 --size 64x64x64 --frequency 2.5 \
         --seed 12345678901234567890 -o volume.npy"
    );
    // Each command bakes: the graph saved as the editors would, the command run in its
    // directory.
    let dir = tempfile::tempdir().unwrap();
    let graph = r#"{"version": 1, "output": "n", "nodes": {"n": {"type": "simplex"}}}"#;
    std::fs::write(dir.path().join("graph.json"), graph).unwrap();
    for (shown, file) in [(terrain, "heightmap.png"), (iso, "volume.npy")] {
        let command = shown.bake_command(32, 16);
        let args: Vec<&str> = command.split(' ').skip(1).collect();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
            .args(&args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(dir.path().join(file).is_file(), "{command}");
    }

    // A framed view: the bake starts at the pan plus the clock's offset along z, one
    // texel deep, and writes the CPU reference of that region and slice.
    let framed = SharedView {
        graph: graph.to_string(),
        seed: 9,
        framing: Framing {
            pan: [0.75, -1.25],
            dims: 3,
            time: 2.0,
            speed: 0.5,
            paused: true,
            relief: DEFAULT_RELIEF,
        },
        ..view.clone()
    };
    let command = framed.bake_command(32, 32);
    assert_eq!(
        command,
        "wgpu-noise bake --graph graph.json --dims 3 --size 32x32x1 --frequency 2.5 \
         --offset 0.75,-1.25,1 --seed 9 --range -1,1 --bits 8 --ramp viridis -o noise.png"
    );
    let gray = command.replace("viridis", "gray");
    let baked = run_bake(&gray, dir.path());
    let frame = GraphFrame {
        dims: 3,
        seed: 9,
        frequency: 2.5,
        time: 2.0,
        speed: 0.5,
        width: 32,
        height: 32,
    };
    let expected = panned_graph_reference(graph, &frame, [0.75, -1.25]);
    assert_levels_match(&baked, &expected, &format!("`{gray}`"));
}

/// The iso cube's side as the iso view's bake command names it.
fn iso_samples() -> u32 {
    let scene = Scene::Iso {
        camera: Orbit::default(),
        level: 0.0,
    };
    let view = SharedView {
        graph: String::new(),
        seed: 0,
        frequency: 1.0,
        ramp: "gray".into(),
        scene,
        framing: Framing::of(&scene),
    };
    let command = view.bake_command(1, 1);
    let size = command.split("--size ").nth(1).unwrap();
    size.split('x').next().unwrap().parse().unwrap()
}

/// A per-axis parameter has a port: a wire gives one node for every axis (`"by": "zoom"`),
/// shown as a wire; a node deleted falls back to the numbers' default.
#[test]
fn a_wire_into_a_per_axis_parameter_gives_every_axis_that_node() {
    for (type_name, param) in [("sine", "scale"), ("scale", "by"), ("distance", "point")] {
        let mut m = model(BASE);
        edit(
            &mut m,
            Edit::Add {
                type_name: type_name.into(),
                place: [300.0, 0.0],
            },
        );
        assert!(is_input(type_name, param), "{type_name}.{param} has a port");
        edit(
            &mut m,
            Edit::Connect {
                from: "base".into(),
                to: type_name.into(),
                param: param.into(),
            },
        );
        edit(
            &mut m,
            Edit::SetOutput {
                name: type_name.into(),
            },
        );
        let node = m.node(type_name).unwrap();
        let wire = Wire {
            param,
            axis: None,
            from: "base",
        };
        assert_eq!(node.wires(), vec![wire], "{type_name}: the wire");
        let source = if type_name == "scale" {
            r#", "source": "base""#
        } else {
            ""
        };
        let by_hand = format!(
            r#"{{"version": 1, "output": "{type_name}", "nodes": {{
                "base": {{"type": "simplex"}},
                "{type_name}": {{"type": "{type_name}", "{param}": "base"{source}}}}}}}"#
        );
        if type_name == "scale" {
            edit(
                &mut m,
                Edit::Connect {
                    from: "base".into(),
                    to: "scale".into(),
                    param: "source".into(),
                },
            );
        }
        assert!(programs(&by_hand).is_ok(), "{by_hand}");
        assert_eq!(programs(&m.to_json()), programs(&by_hand), "{type_name}");
        // Deleting the node that gave the axes leaves the numbers' default.
        edit(
            &mut m,
            Edit::Delete {
                name: "base".into(),
            },
        );
        let node = m.node(type_name).unwrap();
        assert!(
            node.params.get(param).is_none(),
            "{type_name}: {:?}",
            node.params
        );
    }
}

/// An axis of a per-axis parameter given by a node deleted falls back to the parameter's
/// default; the other axes keep their numbers, and the graph stays valid.
#[test]
fn deleting_a_node_that_gave_one_axis_leaves_that_axis_the_default() {
    let text = r#"{"version": 1, "output": "d", "nodes": {
        "wander": {"type": "simplex"},
        "d": {"type": "distance", "point": [0.5, "wander"]}}}"#;
    let mut m = model(text);
    edit(
        &mut m,
        Edit::Delete {
            name: "wander".into(),
        },
    );
    let default = match node_type("distance").unwrap().param("point").unwrap().kind {
        ParamKind::HybridPerAxis { default, .. } => default,
        other => panic!("{other:?}"),
    };
    let d = m.node("d").unwrap();
    assert_eq!(d.params["point"], json!([0.5, default]));
    let by_hand = format!(
        r#"{{"version": 1, "output": "d", "nodes": {{"d": {{"type": "distance", "point": [0.5, {default}]}}}}}}"#
    );
    assert_eq!(programs(&m.to_json()), programs(&by_hand));
    assert!(programs(&by_hand).is_ok());
}

/// One axis of a per-axis parameter set alone (`Edit::SetAxis`: a drag value's number, or a
/// wire dropped on that axis's port) writes the parameter as an array of its axes, the
/// others as they read before; a node for one axis is a wire of that axis; a drag on one
/// axis is one undo step and one on another axis another; a bad axis edit is refused and
/// changes nothing; the model's program is the one written by hand.
#[test]
fn one_axis_of_a_per_axis_parameter_is_set_and_wired_alone() {
    let text = r#"{"version": 1, "output": "d", "nodes": {
        "wander": {"type": "simplex"},
        "d": {"type": "distance", "point": 0.25}}}"#;
    let mut m = model(text);
    let set_axis = |axis: usize, value: Value| Edit::SetAxis {
        node: "d".into(),
        param: "point".into(),
        axis,
        value,
    };
    let point = |m: &GraphModel| m.node("d").unwrap().params["point"].clone();
    // A drag on y: its frames are one step.
    edit(&mut m, set_axis(1, json!(0.5)));
    edit(&mut m, set_axis(1, json!(0.75)));
    assert_eq!(point(&m), json!([0.25, 0.75, 0.25, 0.25]));
    // A wire into x alone.
    edit(&mut m, set_axis(0, json!("wander")));
    assert_eq!(point(&m), json!(["wander", 0.75, 0.25, 0.25]));
    let wires = m.node("d").unwrap().wires();
    assert_eq!(
        wires,
        [Wire {
            param: "point",
            axis: Some(0),
            from: "wander"
        }]
    );
    let by_hand = r#"{"version": 1, "output": "d", "nodes": {
        "wander": {"type": "simplex"},
        "d": {"type": "distance", "point": ["wander", 0.75, 0.25, 0.25]}}}"#;
    assert!(programs(by_hand).is_ok());
    assert_eq!(programs(&m.to_json()), programs(by_hand));
    // Laid out left of the node whose axis it gives.
    let x = |m: &GraphModel, n: &str| m.node(n).unwrap().place[0];
    let laid_out = model(by_hand);
    assert!(x(&laid_out, "wander") < x(&laid_out, "d"));

    // Refused, nothing changed: a node that is not there, a parameter that is not per axis,
    // an axis past w, a value neither a number nor a node.
    let before = m.to_json();
    for bad in [
        set_axis(2, json!("nowhere")),
        Edit::SetAxis {
            node: "d".into(),
            param: "metric".into(),
            axis: 0,
            value: json!(1.0),
        },
        set_axis(4, json!(1.0)),
        set_axis(2, json!(true)),
    ] {
        let e = m.apply(bad.clone()).expect_err("refused");
        eprintln!("{bad:?}: {e}");
        assert_eq!(m.to_json(), before, "{bad:?}");
    }

    // An array shorter than the axis set: the axes between take the default.
    let mut short = model(
        r#"{"version": 1, "output": "d", "nodes": {"d": {"type": "distance", "point": [1, 2]}}}"#,
    );
    edit(
        &mut short,
        Edit::SetAxis {
            node: "d".into(),
            param: "point".into(),
            axis: 3,
            value: json!(4),
        },
    );
    assert_eq!(point(&short), json!([1, 2, 0.0, 4]));

    // Undo: the wire, then the whole drag on y.
    assert!(m.undo());
    assert_eq!(point(&m), json!([0.25, 0.75, 0.25, 0.25]));
    assert!(m.undo());
    assert_eq!(point(&m), json!(0.25));
}
