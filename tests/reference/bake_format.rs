//! The bake's file layouts (`bake::format`): `.npy` headers, the slice atlas of 3D and 4D
//! fields, and the row assembler that lays slices out as atlas tiles.
use wgpu_noise::bake::format::{npy_header, RowAssembler, SliceAtlas};
use wgpu_noise::field::FlagField;
use wgpu_noise::NoiseKind;

#[test]
fn npy_header_is_padded_to_64_bytes_and_ends_in_a_newline() {
    for shape in [&[3u64, 4][..], &[512, 512, 512], &[32, 64, 64, 64]] {
        let h = npy_header(shape);
        assert_eq!(h.len() % 64, 0, "{shape:?}");
        assert_eq!(*h.last().unwrap(), b'\n');
        assert_eq!(u16::from_le_bytes([h[8], h[9]]) as usize, h.len() - 10);
    }
}

#[test]
fn default_atlas_is_near_square_in_3d_and_one_row_per_w_in_4d() {
    let atlas =
        |size: &[u32]| SliceAtlas::new(&FlagField::new(NoiseKind::Simplex, size), None).unwrap();
    let a = atlas(&[4, 4, 64]);
    assert_eq!((a.columns, a.rows()), (8, 8));
    let a = atlas(&[4, 4, 32]);
    assert_eq!((a.columns, a.rows()), (8, 4));
    let a = atlas(&[4, 4, 7]);
    assert_eq!((a.columns, a.rows()), (7, 1));
    let a = atlas(&[4, 4, 6, 5]);
    assert_eq!((a.columns, a.rows()), (6, 5));
    assert_eq!(a.pixel_of([1, 2, 3, 4], 6), (3 * 4 + 1, 4 * 4 + 2));
    let a = atlas(&[4, 4]);
    assert_eq!((a.columns, a.rows(), a.width(), a.height()), (1, 1, 4, 4));
}

#[test]
fn row_assembler_lays_slices_out_as_tiles_whatever_the_chunking() {
    // 2x2 slices, 4 of them, 2 columns: the value encodes (x, y, z).
    let field = FlagField::new(NoiseKind::Simplex, &[2, 2, 4]);
    let atlas = SliceAtlas::new(&field, Some(2)).unwrap();
    let values: Vec<f32> = (0..16)
        .map(|i| (i % 2 + 10 * ((i / 2) % 2) + 100 * (i / 4)) as f32)
        .collect();
    for chunk in [1, 3, 5, 16] {
        let mut a = RowAssembler::new(atlas);
        let mut image = Vec::new();
        for c in values.chunks(chunk) {
            a.push(c, &mut |rows| {
                image.extend_from_slice(rows);
                Ok(())
            })
            .unwrap();
        }
        a.finish().unwrap();
        let expected = [
            0., 1., 100., 101., 10., 11., 110., 111., 200., 201., 300., 301., 210., 211., 310.,
            311.,
        ];
        assert_eq!(image, expected, "chunk {chunk}");
    }
}
