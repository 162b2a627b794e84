//! Embedding: the WGSL, bindings, modules and fills used from an application's own pipelines.
//!
//! One test binary per area (linking each test file separately cost most of CI's time);
//! each module is one behaviour area, run one with `cargo test --test embed <module>::`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../embed_support/mod.rs"]
mod embed_support;

mod embed_bevy_material;
mod embed_compute;
mod embed_contract;
mod embed_curl_flow;
mod embed_example;
mod embed_graph_texture;
mod embed_modules;
mod embed_names;
mod embed_own_texture;
mod embed_record;
mod embed_render;
mod embed_simplex_gradients;
mod embed_wgsl;
