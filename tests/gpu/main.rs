//! GPU fills against the CPU reference, on every backend the machine offers.
//!
//! One test binary per area (linking each test file separately cost most of CI's time);
//! each module is one behaviour area, run one with `cargo test --test gpu <module>::`.

#[path = "../common/mod.rs"]
mod common;

mod backend_parity;
mod curl_fill_gpu;
mod gpu_parity;
mod gpu_timer;
mod gradient_parity;
mod graph_finite_gpu;
mod graph_gradient_parity;
mod graph_parity;
mod graph_read;
mod graph_shader_layout;
mod iso_view;
mod noise_cellular_gpu;
mod noise_flow_gpu;
mod noise_periodic3_gpu;
mod noise_value_gpu;
mod noise_warp_gpu;
mod self_check;
mod shader_validation;
