//! The preview's graph file (`cli::preview::watch`): the editor's default graph lowers in
//! every dimension, and a watched file turned endless is refused at the limit.
#![cfg(feature = "preview")]

use std::time::{Duration, Instant};

use wgpu_noise::cli::preview::watch::{self, GraphWatch, Reload};
use wgpu_noise::cli::preview::DEFAULT_GRAPH;

#[test]
fn the_editors_default_graph_is_a_good_graph_in_every_dimension() {
    for dims in 2..=4 {
        if let Err(why) = watch::lower(DEFAULT_GRAPH, dims) {
            panic!("{dims}D: {why}");
        }
    }
}

/// A watched file that becomes a link to an endless file is refused after the graph file
/// limit (`docs/graphs.md`, Limits), and the last good graph stays.
#[test]
fn a_watched_file_turned_into_a_link_to_dev_zero_is_refused_at_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.json");
    let good = r#"{ "version": 1, "output": "o", "nodes": { "o": { "type": "simplex" } } }"#;
    std::fs::write(&path, good).unwrap();
    let (mut watch, _) = GraphWatch::open(&path, 2).unwrap();
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    watch.next_look = Instant::now();
    let start = Instant::now();
    match watch.look(2) {
        Reload::Failed(why) => assert!(why.contains("1048576 bytes"), "{why}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(watch.text(), good, "the last good graph stays");
    assert!(watch.program(2).is_ok());
}
