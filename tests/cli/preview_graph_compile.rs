//! `preview --graph FILE` compiles an edited graph off the event loop: while a large graph
//! compiles (seconds; on a software driver, tens) the window goes on answering keys and
//! drawing the last good graph, and a newer edit supersedes it (the large graph's
//! pipelines, finished later, are never drawn over the newer graph).
#![cfg(feature = "preview")]

use std::time::{Duration, Instant};

use super::preview::assert_levels_match;
use super::preview_graph::{graph_reference, save, LiveGraph, CELLS, FBM};

/// A graph whose shader is large: a balanced tree of `add` nodes over 48 simplex noises of
/// seeds `first`, `first + 1`, … (distinct sources, which the WGSL generator cannot fold
/// into a loop as it does a fractal's octaves). Different `first`s give different shader
/// text, so no driver cache can answer the second compile from the first.
fn large_graph(first: u32) -> String {
    let mut nodes: Vec<String> = Vec::new();
    let mut level: Vec<String> = (0..48)
        .map(|i| {
            let name = format!("s{i}");
            nodes.push(format!(
                r#""{name}": {{"type": "simplex", "seed": {}}}"#,
                first + i
            ));
            name
        })
        .collect();
    while level.len() > 1 {
        let mut next = Vec::new();
        for pair in level.chunks(2) {
            match pair {
                [a, b] => {
                    let name = format!("a{}", nodes.len());
                    nodes.push(format!(
                        r#""{name}": {{"type": "add", "a": "{a}", "b": "{b}"}}"#
                    ));
                    next.push(name);
                }
                [a] => next.push(a.clone()),
                _ => unreachable!(),
            }
        }
        level = next;
    }
    // Scaled back to about [-1, 1] so the picture is not all white.
    nodes.push(format!(
        r#""out": {{"type": "multiply", "a": "{}", "b": 0.1}}"#,
        level[0]
    ));
    format!(
        r#"{{"version": 1, "output": "out", "nodes": {{{}}}}}"#,
        nodes.join(", ")
    )
}

#[test]
fn a_large_graph_compiles_while_the_window_answers_and_the_newest_edit_is_drawn() {
    let Some(mut live) = LiveGraph::launch() else {
        return;
    };

    // How long the large graph takes to compile here (the file is looked at every 200 ms).
    let written = Instant::now();
    save(&live.graph, &large_graph(1000));
    live.running.wait_for("reloaded");
    let compile = written.elapsed();
    eprintln!("the large graph compiled in {:.1} s", compile.as_secs_f64());
    save(&live.graph, FBM);
    live.running.wait_for("reloaded");
    if compile < Duration::from_secs(4) {
        // A fast GPU: nothing to observe between the edit and its pipelines.
        eprintln!("SKIPPED the rest: the large graph compiles too fast here to watch");
        return;
    }

    // The large graph again (other seeds): while it compiles, `S` is answered with the
    // last good graph. One second is five looks at the file: its compile has begun.
    let mark = live.running.seen.len();
    let written = Instant::now();
    save(&live.graph, &large_graph(2000));
    std::thread::sleep(Duration::from_secs(1));
    let during = live.press_s();
    let early: Vec<&String> = live.running.seen[mark..]
        .iter()
        .filter(|l| l.contains("reloaded"))
        .collect();
    assert!(
        early.is_empty(),
        "the window answered S only after the compile: {:?}",
        &live.running.seen[mark..]
    );
    assert_levels_match(
        &during,
        &graph_reference(FBM, &live.frame),
        "the last good graph, drawn while the large one compiles",
    );

    // A newer edit supersedes the compile: it is the one reloaded and drawn.
    save(&live.graph, CELLS);
    live.running.wait_for("reloaded");
    let cells = graph_reference(CELLS, &live.frame);
    let newer = live.press_s();
    assert_levels_match(&newer, &cells, "the newer edit");
    // Until well after the large graph's compile has finished (twice its time above:
    // the machine may be busier now, which only lets this check pass without looking),
    // its pipelines never replace the newer graph's.
    let until = written + compile * 2;
    std::thread::sleep(until.saturating_duration_since(Instant::now()));
    let last = live.press_s();
    assert_levels_match(
        &last,
        &cells,
        "the newer edit, after the large graph's compile",
    );
    let reloads = live.running.seen[mark..]
        .iter()
        .filter(|l| l.contains("reloaded"))
        .count();
    assert_eq!(
        reloads, 1,
        "only the newer edit is reloaded: {:?}",
        live.running.seen
    );

    live.running.quit_with_escape(&live.display, &live.window);
}
