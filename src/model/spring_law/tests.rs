use super::*;
use crate::Spring;

/// The law's position in [`SpringLaw::ALL`], written as a match with no wildcard, so a new
/// variant that is not listed fails to compile here.
fn position(law: SpringLaw) -> usize {
    match law {
        SpringLaw::Hooke => 0,
        SpringLaw::Material => 1,
        SpringLaw::ZeroLength => 2,
    }
}

#[test]
fn every_law_is_listed_once_in_tag_order() {
    for (i, law) in SpringLaw::ALL.into_iter().enumerate() {
        assert_eq!(position(law), i, "{law:?}");
        assert_eq!(law.tag() as usize, i, "{law:?}");
    }
}

#[test]
fn tag_names_are_the_scene_file_names_in_capitals() {
    for law in SpringLaw::ALL {
        let name = serde_json::to_value(law).unwrap();
        let name = name.as_str().unwrap().to_uppercase();
        assert_eq!(law.tag_name(), format!("LAW_{name}"));
    }
}

#[test]
fn the_zero_length_law_alone_holds_its_rest_length_at_zero() {
    for law in SpringLaw::ALL {
        let held = law == SpringLaw::ZeroLength;
        assert_eq!(holds_rest_at_zero(law), held, "{law:?}");
        assert_eq!(rest_in_law(law, 0.7), if held { 0.0 } else { 0.7 });
        assert_eq!(
            walk_law(law) == SpringLaw::Material,
            law == SpringLaw::Material
        );
    }
}

/// `Spring::tension` and `Spring::elastic_energy` are the laws as their docs write them: exact
/// for Hooke's and the zero-length law (the same operations), close for the material law, whose
/// `k / L0` is rounded before it multiplies. The bound, in units of `f64::EPSILON` relative to
/// the docs' formula: each side rounds at most three times (half an epsilon each), and the
/// tension's `L / L0 - 1` amplifies the rounding of `L / L0` by `L / (L - L0)`, 3.4 here
/// (`L - L0` itself is exact: `L0 <= L <= 2 L0`); so at most `3 + 3.4 / 2` for the tension and
/// 3 for the energy, under 5.
#[test]
fn tension_and_energy_follow_each_law() {
    let (k, len, rest) = (1234.5, 0.731, 0.517);
    let ulps = |x: f64, y: f64| ((x - y) / (y.abs() * f64::EPSILON)).abs();
    let s = Spring::hooke(0, 1, k, rest);
    assert_eq!(s.tension(len, rest), k * (len - rest));
    assert_eq!(
        s.elastic_energy(len, rest),
        0.5 * k * (len - rest) * (len - rest)
    );
    let z = s.with_law(SpringLaw::ZeroLength);
    assert_eq!(z.tension(len, rest), k * len);
    assert_eq!(z.elastic_energy(len, rest), 0.5 * k * len * len);
    let m = s.with_law(SpringLaw::Material);
    assert!(ulps(m.tension(len, rest), k * (len / rest - 1.0)) <= 5.0);
    let energy = k * (len - rest) * (len - rest) / (2.0 * rest);
    assert!(ulps(m.elastic_energy(len, rest), energy) <= 5.0);
}

#[test]
fn reports_name_each_law() {
    let names = SpringLaw::ALL.map(|law| law.to_string());
    assert_eq!(names, ["Hooke", "material", "zero-length"]);
}
