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
        assert!(
            model.masses.iter().all(|m| m.position.is_finite()),
            "width {width}"
        );
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
        matches!(
            e,
            Error::InvalidParameter {
                name: "lattice.spacing",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("1e150"), "{e}");
}

/// A placement rotation of `[1e308, 0, 0]` is finite, but its length overflowed: the body
/// turned about no axis, every mass became NaN, and the error named a mass instead of the
/// rotation.
#[test]
fn a_rotation_whose_length_overflows_is_refused_by_name() {
    let e = Scene::from_json_str(
        r#"{ "version": 1, "bodies": [ { "body": { "type": "cube" },
             "placement": { "rotation": [1e308, 1e308, 0.0] } } ] }"#,
    )
    .unwrap()
    .to_model()
    .unwrap_err();
    assert!(
        matches!(
            e,
            hooke::Error::InvalidParameter {
                name: "placement.rotation",
                ..
            }
        ),
        "{e}"
    );
}

/// Rough ground of 31 columns and 4 294 967 295 rows was refused naming `rough.columns = 31`,
/// the count that was fine: of two counts whose product is too large, the larger is named.
#[test]
fn too_many_rows_of_rough_ground_are_named_not_its_columns() {
    let e = hooke::RoughGround {
        columns: 31,
        rows: 4_294_967_295,
        ..hooke::RoughGround::default()
    }
    .heightfield()
    .unwrap_err();
    assert!(
        matches!(e, hooke::Error::InvalidParameter { name: "rough.rows", value, .. } if value == 4_294_967_295.0),
        "{e}"
    );
}
