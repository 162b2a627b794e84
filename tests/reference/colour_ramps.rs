//! The colour ramps (`ramp`): gray is the plain level, every ramp runs through its stops
//! without jumps, and the WGSL uniform `RampStops` is the Rust struct.

use wgpu_noise::ramp::{ColourRamp, RampStops, MAX_RAMP_STOPS};

#[test]
fn gray_is_the_plain_grayscale_level() {
    for level in 0..=255u8 {
        let t = f32::from(level) / 255.0;
        assert_eq!(ColourRamp::Gray.stops().colour(t), [t; 3]);
        assert_eq!(ColourRamp::Gray.rgb8(t), [level; 3]);
    }
    assert_eq!(ColourRamp::Gray.rgb8(-0.5), [0; 3]);
}

#[test]
fn every_ramp_runs_through_its_stops_continuously() {
    for ramp in ColourRamp::ALL {
        let table = ramp.table();
        assert!((2..=MAX_RAMP_STOPS).contains(&table.len()), "{ramp:?}");
        assert_eq!(table[0].0, 0.0);
        assert_eq!(table[table.len() - 1].0, 1.0);
        assert!(table.windows(2).all(|w| w[0].0 < w[1].0), "{ramp:?}");
        for &(position, rgb) in table {
            assert_eq!(ramp.rgb8(position), rgb, "{ramp:?} at {position}");
        }
        // Linear pieces: neighbouring samples 1/1024 apart differ by a few levels at
        // most (the steepest piece, terrain's water-to-sand, is 0.05 wide).
        let mut last = ramp.rgb8(0.0);
        for i in 1..=1024 {
            let c = ramp.rgb8(i as f32 / 1024.0);
            let step = (0..3).map(|k| c[k].abs_diff(last[k])).max().unwrap();
            assert!(step <= 4, "{ramp:?} jumps by {step} at {i}/1024");
            last = c;
        }
        assert_eq!(ColourRamp::from_name(ramp.name()).unwrap(), ramp);
    }
    let e = ColourRamp::from_name("rainbow").unwrap_err().to_string();
    assert!(e.contains("gray, terrain, viridis, magma"), "{e}");
}

/// The "keep in sync" pair of `shaders/ramp.wgsl` and [`RampStops`], read back by naga.
#[test]
fn the_wgsl_uniform_is_the_rust_struct() {
    assert_eq!(
        wgpu_noise::struct_layout::wgsl_struct_layout(ColourRamp::WGSL, "RampStops"),
        wgpu_noise::rust_struct_layout!(RampStops: stops, count)
    );
}
