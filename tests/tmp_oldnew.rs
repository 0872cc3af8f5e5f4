#[test]
fn old_files_converted_give_the_same_models_as_the_new_short_files() {
    for f in [
        "walker_slope",
        "walker_stairs",
        "walker_rough",
        "cube_stairs",
    ] {
        let old = hooke::Scene::load(format!("/tmp/oldconv/{f}.json"))
            .unwrap()
            .to_model()
            .unwrap();
        let new = hooke::Scene::load(format!("scenes/{f}.json"))
            .unwrap()
            .to_model()
            .unwrap();
        if f == "cube_stairs" {
            assert_eq!(old.obstacles, new.obstacles, "{f}");
            assert_eq!(old.springs, new.springs, "{f}");
            assert_eq!(old.params, new.params, "{f}");
            for (a, b) in old.masses.iter().zip(&new.masses) {
                assert!((a.position - b.position).length() < 1e-15, "{f}");
                assert_eq!(a.velocity, b.velocity);
                assert_eq!(a.mass, b.mass);
            }
            println!(
                "{f}: positions differ by at most {}",
                old.masses
                    .iter()
                    .zip(&new.masses)
                    .map(|(a, b)| (a.position - b.position).length())
                    .fold(0.0, f64::max)
            );
        } else {
            assert_eq!(old, new, "{f}");
        }
        println!("{f}: ok");
    }
}
