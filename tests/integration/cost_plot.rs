//! The benchmark cost curve (`hooke::plot::CostPlot`): an image of the asked size with the curves
//! drawn in their colours, and bad points refused with `Error::Plot`.
#![cfg(feature = "plot")]

use hooke::plot::{CostCurve, CostPlot};
use hooke::Error;

fn curves() -> Vec<CostCurve> {
    vec![
        CostCurve {
            label: "GPU World".to_string(),
            points: vec![
                (1e4, 35.0),
                (1e5, 24.0),
                (8e5, 13.0),
                (6.5e6, 14.0),
                (2.2e7, 12.0),
            ],
        },
        CostCurve {
            label: "CPU reference".to_string(),
            points: vec![(2.2e7, 7.0), (1e4, 9.0), (6.5e6, 5.0)],
        },
    ]
}

/// Pixels close to `rgb` (anti-aliased lines blend towards white).
fn count_near(image: &image::RgbImage, rgb: [u8; 3]) -> usize {
    image
        .pixels()
        .filter(|p| {
            p.0.iter()
                .zip(rgb)
                .all(|(&a, b)| (i32::from(a) - i32::from(b)).abs() <= 12)
        })
        .count()
}

#[test]
fn draws_every_curve_at_the_asked_size() {
    let plot = CostPlot {
        width: 640,
        height: 360,
        ..CostPlot::default()
    };
    let image = plot.render(&curves()).unwrap();
    assert_eq!(image.dimensions(), (640, 360));
    // The first two series colours (blue, red) each cover at least a line's worth of pixels.
    assert!(
        count_near(&image, [31, 119, 180]) > 200,
        "GPU curve missing"
    );
    assert!(count_near(&image, [214, 39, 40]) > 200, "CPU curve missing");
    // A single curve leaves the second colour out.
    let one = plot.render(&curves()[..1]).unwrap();
    assert!(count_near(&one, [214, 39, 40]) < 20);
}

#[test]
fn writes_a_png() {
    let dir = std::env::temp_dir().join(format!("hooke-cost-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cost.png");
    CostPlot::default().save(&curves(), &path).unwrap();
    let read = image::open(&path).unwrap();
    assert_eq!((read.width(), read.height()), (960, 540));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_points_and_sizes_are_refused() {
    let plot = CostPlot::default();
    let with = |points: Vec<(f64, f64)>| {
        vec![CostCurve {
            label: "x".to_string(),
            points,
        }]
    };
    for bad in [
        with(vec![(0.0, 1.0)]),
        with(vec![(-5.0, 1.0)]),
        with(vec![(f64::NAN, 1.0)]),
        with(vec![(10.0, -1.0)]),
        with(vec![(10.0, f64::INFINITY)]),
        with(vec![]),
        vec![],
    ] {
        assert!(
            matches!(plot.render(&bad), Err(Error::Plot { .. })),
            "{bad:?}"
        );
    }
    let small = CostPlot {
        width: 100,
        ..CostPlot::default()
    };
    assert!(matches!(small.render(&curves()), Err(Error::Plot { .. })));
}
