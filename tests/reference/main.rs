//! CPU reference: Java golden values, the f32 mirror, SIMD identity, precision and range.
//!
//! One test binary per area (linking each test file separately cost most of CI's time);
//! each module is one behaviour area, run one with `cargo test --test reference <module>::`.

#[path = "../common/mod.rs"]
mod common;

mod add_remove_dimension;
mod bake_format;
mod beyond_the_origin;
mod cellular_exponent;
mod cellular_jitter;
mod cellular_lookup;
mod cellular_metrics;
mod code_layout;
mod colour_ramps;
mod cpu_lookup;
mod cpu_reference;
mod derivatives;
mod field_validation;
mod fill_boxes;
mod finite_input;
mod flag_graphs;
mod flow_angle;
mod graph_builder;
mod graph_curl;
mod graph_divide_modulus;
mod graph_driven;
mod graph_finite;
mod graph_maps;
mod graph_rotate_plane;
mod graph_sources;
mod graph_warps;
mod graphs;
mod hash_lookup;
mod hash_quality;
mod isosurface;
mod java_golden_values;
mod message_text;
mod node_table;
mod noise_cellular;
mod noise_curl;
mod noise_flow;
mod noise_periodic3;
mod noise_simplex_vector;
mod noise_simplex_vector_forms;
mod noise_supersimplex;
mod noise_supersimplex4;
mod noise_supersimplex_tiled;
mod noise_supersimplex_vector;
mod noise_value;
mod noise_value_vector;
mod noise_warp;
mod offset_precision;
mod offset_resolution;
mod output_range;
mod parity_bounds;
mod permutation_tables;
mod simd_identity;
mod simd_lanes;
mod simd_lookup;
mod simplex_constants;
mod source_gradients;
mod struct_layout_check;
mod vector_noise_checks;
