//! The `wgpu-noise` command line: bake, sample, preview, messages and interruption.
//!
//! One test binary per area (linking each test file separately cost most of CI's time);
//! each module is one behaviour area, run one with `cargo test --test cli <module>::`.

#[path = "../bake_support/mod.rs"]
mod bake_support;
#[path = "../common/mod.rs"]
mod common;

mod argument_space;
mod backend_choice;
mod bake_backends;
mod bake_errors;
mod bake_features;
mod bake_formats;
mod bake_half_range;
mod bake_interrupt;
mod bake_ktx2;
mod bake_tiles;
mod bench_harness;
mod bench_rows;
mod cli_sample;
mod edge_numbers;
mod graph_cli;
mod graph_derivative_verify;
mod graph_finite_cli;
mod graph_gpu_derived;
mod graph_hostile;
mod graph_input;
mod graph_tiles;
mod graph_warp_verify;
mod messages;
mod noise_cellular_cli;
mod noise_curl_cli;
mod noise_flow_cli;
mod noise_warp_cli;
mod option_messages;
mod output_targets;
mod preview;
mod preview_editor;
mod preview_graph;
mod preview_graph_compile;
mod preview_iso;
mod preview_nodes;
mod preview_panel;
mod preview_share;
mod preview_terrain;
mod preview_thumbs;
mod preview_view;
mod preview_watch;
mod sample_f32_range;
mod sample_large_coordinates;
mod sample_streaming;
mod signal_after_rename;
mod size_overflow;
mod stream_failures;
