//! Crashes the property tests and the campaign found, each a test named after what broke.

use hooke::Scene;

/// A pile 65 535 m wide has 409 593 cells per row: their square overflowed `u32` while the
/// bodies were placed (`attempt to multiply with overflow` in `PileLayout::bodies`).
#[test]
fn a_pile_wider_than_65536_cells_squared_places_its_bodies() {
    for width in [65_535.0, 1e300] {
        let scene = Scene::from_json_str(&format!(
            r#"{{ "version": 1, "pile": {{ "bodies": 3, "width": {width:e} }} }}"#
        ))
        .unwrap();
        let model = scene.to_model().unwrap();
        assert_eq!(model.bodies.len(), 3);
        assert!(model.masses.iter().all(|m| m.position.is_finite()), "width {width}");
    }
}

/// A lattice spacing of 1e300 m passed its check, and the springs' rest lengths (distances,
/// whose squares overflow) came out infinite: the error named spring 0, not the spacing.
#[test]
fn a_spacing_whose_square_overflows_is_refused_by_name() {
    use hooke::{Builder, Error, Lattice};
    let e = Lattice {
        n: 2,
        spacing: 1e300,
        ..Lattice::default()
    }
    .build()
    .unwrap_err();
    assert!(
        matches!(e, Error::InvalidParameter { name: "lattice.spacing", .. }),
        "{e}"
    );
    assert!(e.to_string().contains("1e150"), "{e}");
}
