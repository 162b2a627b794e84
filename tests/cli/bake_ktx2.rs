//! `wgpu-noise bake -o x.ktx2` writes a KTX2 texture that the `ktx2` crate (an independent
//! reader) parses, with the header, data format descriptor, metadata and texels the
//! format documentation (docs/formats.md) promises: a real 3D texture for a 3D field,
//! the CPU reference's values exactly in `R32_SFLOAT`, rounded to `f16` in `R16_SFLOAT`,
//! PNG levels in `R16_UNORM` / `R8_UNORM`.

use crate::bake_support;

use std::path::Path;

use bake_support::{assert_refused, bake_ok, reference};
use ktx2::{ChannelTypeQualifiers, ColorModel, DfdBlockBasic, Format, TransferFunction};
use wgpu_noise::NoiseKind;

const FREQUENCY: [f64; 3] = [3.0, 2.5, 1.5];
const OFFSET: [f64; 3] = [-1.25, 0.5, 7.0];

/// Bakes simplex noise of `size` (seed 5) to `file` on the CPU; returns the file's bytes
/// and the CPU reference.
fn bake(dir: &Path, file: &str, size: &[u32], extra: &[&str]) -> (Vec<u8>, Vec<f32>) {
    let dims = size.len();
    let join = |v: &[f64]| {
        v[..dims]
            .iter()
            .map(f64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    let size_arg: Vec<String> = size.iter().map(u32::to_string).collect();
    let (size_arg, freq, offset, dims_arg) = (
        size_arg.join("x"),
        join(&FREQUENCY),
        join(&OFFSET),
        dims.to_string(),
    );
    let mut args = vec![
        "--dims",
        &dims_arg,
        "--seed",
        "5",
        "--size",
        &size_arg,
        "--frequency",
        &freq,
        "--offset",
        &offset,
        "--backend",
        "cpu",
        "-o",
        file,
    ];
    args.extend_from_slice(extra);
    bake_ok(dir, &args);
    let bytes = std::fs::read(dir.join(file)).expect("read the KTX2 file");
    let expected = reference(
        NoiseKind::Simplex,
        size,
        &FREQUENCY[..dims],
        &OFFSET[..dims],
        5,
    );
    (bytes, expected)
}

/// The one level's texel bytes, after checking what every file of ours shares: one
/// level, one face, no array, no supercompression, one basic DFD block with one linear
/// red sample of `bits` bits, and the metadata.
fn texels<'a>(reader: &'a ktx2::Reader<&'a [u8]>, bits: u8, float: bool) -> &'a [u8] {
    let header = reader.header();
    assert_eq!(header.level_count, 1, "one mip level");
    assert_eq!(header.face_count, 1);
    assert_eq!(header.layer_count, 0, "not an array texture");
    assert_eq!(header.supercompression_scheme, None);
    assert_eq!(header.type_size, bits as u32 / 8);

    let blocks: Vec<_> = reader.dfd_blocks().collect();
    assert_eq!(blocks.len(), 1, "one DFD block");
    assert_eq!(
        (blocks[0].header.vendor_id, blocks[0].header.descriptor_type),
        (0, 0),
        "the Khronos basic descriptor block"
    );
    let basic = DfdBlockBasic::parse(blocks[0].data).expect("a basic DFD block");
    assert_eq!(basic.header.color_model, Some(ColorModel::RGBSDA));
    assert_eq!(
        basic.header.transfer_function,
        Some(TransferFunction::Linear)
    );
    assert_eq!(basic.header.bytes_planes[0], bits / 8);
    let samples: Vec<_> = basic.sample_information().collect();
    assert_eq!(samples.len(), 1, "one channel");
    let s = &samples[0];
    // The file stores bitLength - 1; the reader hands back the length itself.
    assert_eq!((s.bit_offset, s.bit_length.get()), (0, bits));
    assert_eq!(s.channel_type, 0, "the red channel");
    assert_eq!(
        s.channel_type_qualifiers,
        if float {
            ChannelTypeQualifiers::FLOAT | ChannelTypeQualifiers::SIGNED
        } else {
            ChannelTypeQualifiers::empty()
        }
    );

    let levels: Vec<_> = reader.levels().collect();
    assert_eq!(levels.len(), 1);
    assert_eq!(
        levels[0].uncompressed_byte_length,
        levels[0].data.len() as u64
    );
    levels[0].data
}

/// The key/value metadata as strings (values without their terminating NUL).
fn metadata(reader: &ktx2::Reader<&[u8]>) -> Vec<(String, String)> {
    reader
        .key_value_data()
        .map(|(k, v)| {
            let v = v.strip_suffix(&[0]).expect("NUL-terminated value");
            (k.to_string(), String::from_utf8(v.to_vec()).expect("UTF-8"))
        })
        .collect()
}

#[test]
fn a_3d_field_is_a_3d_r32_sfloat_texture_holding_the_reference_values() {
    let dir = tempfile::tempdir().unwrap();
    let size = [12u32, 7, 5];
    let (bytes, expected) = bake(dir.path(), "v.ktx2", &size, &[]);
    let reader = ktx2::Reader::new(&bytes[..]).expect("a valid KTX2 file");
    let header = reader.header();
    assert_eq!(header.format, Some(Format::R32_SFLOAT));
    assert_eq!(
        (header.pixel_width, header.pixel_height, header.pixel_depth),
        (12, 7, 5),
        "a real 3D texture: pixelDepth is the z size"
    );
    let data = texels(&reader, 32, true);
    let values: Vec<f32> = data
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    // KTX2 stores a level's slices z by z, rows top down, x fastest: memory order.
    assert_eq!(
        values, expected,
        "the texels are the f32 reference, bit for bit"
    );

    let meta = metadata(&reader);
    let keys: Vec<&str> = meta.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        ["KTXorientation", "KTXwriter", "wgpu-noise.description"]
    );
    assert_eq!(meta[0].1, "rdi", "x right, y down, z into the screen");
    assert!(meta[1].1.starts_with("wgpu-noise "));
    assert!(
        meta[2]
            .1
            .contains("simplex noise, 3D, seed 5, size 12x7x5, frequency 3,2.5,1.5"),
        "{}",
        meta[2].1
    );
}

#[test]
fn a_2d_field_is_a_2d_texture() {
    let dir = tempfile::tempdir().unwrap();
    let (bytes, expected) = bake(dir.path(), "p.ktx2", &[9, 4], &[]);
    let reader = ktx2::Reader::new(&bytes[..]).expect("a valid KTX2 file");
    let h = reader.header();
    assert_eq!((h.pixel_width, h.pixel_height, h.pixel_depth), (9, 4, 0));
    let values: Vec<f32> = texels(&reader, 32, true)
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(values, expected);
    assert_eq!(metadata(&reader)[0].1, "rd");
}

#[test]
fn half_is_r16_sfloat_rounded_to_the_nearest_f16() {
    let dir = tempfile::tempdir().unwrap();
    let (bytes, expected) = bake(dir.path(), "h.ktx2", &[10, 6, 3], &["--half"]);
    let reader = ktx2::Reader::new(&bytes[..]).expect("a valid KTX2 file");
    assert_eq!(reader.header().format, Some(Format::R16_SFLOAT));
    let data = texels(&reader, 16, true);
    assert_eq!(data.len(), 2 * expected.len());
    for (i, (b, &v)) in data.chunks_exact(2).zip(&expected).enumerate() {
        let got = half::f16::from_le_bytes([b[0], b[1]]).to_f64();
        // Round to nearest: within half a unit in the last place of f16 (11 significant
        // bits) at v's magnitude; subnormals below 2^-14 have the fixed spacing 2^-24.
        let v = v as f64;
        let ulp = 2f64.powi((v.abs().log2().floor() as i32).max(-14) - 10);
        assert!(
            (got - v).abs() <= ulp / 2.0,
            "texel {i}: {got} for {v} (ulp {ulp})"
        );
    }
}

#[test]
fn bits_16_and_8_are_unorm_levels_with_the_png_mapping() {
    let dir = tempfile::tempdir().unwrap();
    for (bits, format, max) in [
        ("16", Format::R16_UNORM, 65535.0),
        ("8", Format::R8_UNORM, 255.0),
    ] {
        let file = format!("u{bits}.ktx2");
        let (bytes, expected) = bake(
            dir.path(),
            &file,
            &[8, 5, 2],
            &["--bits", bits, "--range", "-0.5,0.75"],
        );
        let reader = ktx2::Reader::new(&bytes[..]).expect("a valid KTX2 file");
        assert_eq!(reader.header().format, Some(format));
        let width: u8 = bits.parse().unwrap();
        let data = texels(&reader, width, false);
        let levels: Vec<u32> = if width == 16 {
            data.chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]) as u32)
                .collect()
        } else {
            data.iter().map(|&b| b as u32).collect()
        };
        // The documented mapping, written out here: round(clamp((v-low)/(high-low)) * max).
        let want: Vec<u32> = expected
            .iter()
            .map(|&v| (((v as f64 + 0.5) / 1.25).clamp(0.0, 1.0) * max).round() as u32)
            .collect();
        assert_eq!(levels, want, "--bits {bits}");
        let sample = DfdBlockBasic::parse(reader.dfd_blocks().next().unwrap().data)
            .unwrap()
            .sample_information()
            .next()
            .unwrap();
        assert_eq!((sample.lower, sample.upper), (0, max as u32));
        let description = &metadata(&reader)[2].1;
        assert!(
            description.contains(&format!(
                "Level p of {max} stands for the value -0.5 + 1.25*p/{max}"
            )),
            "{description}"
        );
    }
}

#[test]
fn a_4d_field_and_a_gradient_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    assert_refused(
        dir.path(),
        &["--dims", "4", "--size", "4", "-o", "a.ktx2"],
        "array of 3D textures, which Vulkan, wgpu and the engines loading KTX2 (Bevy) do not have",
    );
    assert_refused(
        dir.path(),
        &["--size", "4", "--gradient", "-o", "g.ktx2"],
        ".ktx2 holds one value per texel",
    );
    assert_refused(
        dir.path(),
        &["--size", "4", "--range", "0,1", "-o", "r.ktx2"],
        "--range applies to KTX2 levels (--bits 8|16)",
    );
}
