//! Checkpoints of a population's evaluation: resumed from a checkpoint taken at any point (before
//! and after robots fail), an evaluation gives the bits of one that never stopped, on the CPU
//! reference and the GPU World in f32 and f64; controllers save and restore their state or the
//! run refuses to checkpoint, naming the robot; a damaged, truncated or foreign checkpoint is
//! refused by name and leaves the evaluation and the file untouched.

use crate::common;

use hooke::gpu::Precision;
use hooke::population::{
    CheckpointEvery, Evaluation, EvaluationCheckpoint, EvaluationRun, GenomeSettings, Population,
    RobotController, RobotResult, VoxelGenome, VoxelMaterial,
};
use hooke::sensors::{Readings, SensorSpec};
use hooke::{DVec3, Error};

use VoxelMaterial::{Muscle, Soft};

/// A 1-voxel robot of `settings` raised `height` m above the ground.
fn cube(settings: &GenomeSettings, height: f64) -> hooke::Part {
    let mut part = VoxelGenome::filled([1, 1, 1], Soft).part(settings).unwrap();
    part.translate(DVec3::new(0.0, 0.0, height));
    part
}

/// Two walkers that finish and three robots that fail at different times: one whose springs
/// are far too stiff for `dt` (`2 sqrt(m / k)` = 2e-5 s < 1e-4 s: it blows up within the first
/// control period), and two of 1e-5 kg corners that are stable in the air but not on the
/// ground's 1e5 N/m contact (`2 sqrt(1e-5 / 1e5)` = 2e-5 s), dropped from 0.02 m and 0.1 m: they
/// blow up when they land, about 0.07 s and 0.15 s in.
fn population() -> Population {
    let settings = GenomeSettings::default();
    let mut p = Population::new();
    let walker = |phase| VoxelGenome::filled([2, 1, 1], Muscle { phase });
    p.push("walker a", walker(0).part(&settings).unwrap());
    let stiff = GenomeSettings {
        soft_stiffness: 1e8,
        ..settings.clone()
    };
    p.push("at once", cube(&stiff, 0.0));
    let light = GenomeSettings {
        corner_mass: 1e-5,
        soft_stiffness: 100.0,
        damping: 0.0,
        ..settings.clone()
    };
    p.push("lands early", cube(&light, 0.02));
    p.push("walker b", walker(1).part(&settings).unwrap());
    p.push("lands late", cube(&light, 0.1));
    p
}

/// 0.2 s in 20 control periods of 100 steps.
fn evaluation() -> Evaluation {
    Evaluation {
        duration: 0.2,
        control_steps: 100,
        ..Evaluation::default()
    }
}

/// Results as their exact bits (the debug form prints every f64 so that it reads back).
fn bits(results: &[RobotResult]) -> String {
    format!("{results:?}")
}

/// Every checkpoint of a run checkpointed after every period, and the run's results.
fn every_checkpoint(run: EvaluationRun<'_>) -> (Vec<RobotResult>, Vec<EvaluationCheckpoint>) {
    let (tx, rx) = std::sync::mpsc::channel();
    let results = run
        .checkpoint_with(CheckpointEvery::Periods(1), move |c| {
            tx.send(c.clone()).unwrap();
            Ok(())
        })
        .run()
        .unwrap();
    (results, rx.try_iter().collect())
}

/// On one backend (`on` sets it up): checkpoints change no bit; resumed from checkpoints taken
/// before the first failure is seen, between failures and after the last, through their bytes,
/// the evaluation gives the undisturbed results.
fn check_resumes_give_the_undisturbed_bits(
    on: &dyn for<'a> Fn(EvaluationRun<'a>) -> EvaluationRun<'a>,
) {
    let (population, eval) = (population(), evaluation());
    let straight = on(population.evaluate(&eval)).run().unwrap();
    let failed: Vec<&str> = straight
        .iter()
        .filter(|r| r.failure.is_some())
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(
        failed,
        ["at once", "lands early", "lands late"],
        "{straight:?}"
    );
    let (checkpointed, saved) = every_checkpoint(on(population.evaluate(&eval)));
    assert_eq!(bits(&checkpointed), bits(&straight));
    // Runs: "at once" fails in period 1 (no checkpoint), then each run ends at the next
    // failure; checkpoints of each run are told apart by the failures they carry.
    let failures = |c: &EvaluationCheckpoint| c.failures().iter().flatten().count();
    let mut points = Vec::new();
    for known in 1..=3 {
        let run: Vec<&EvaluationCheckpoint> =
            saved.iter().filter(|c| failures(c) == known).collect();
        assert!(
            run.len() >= 3,
            "{} checkpoints with {known} failures",
            run.len()
        );
        points.extend([run[0], run[run.len() / 2], run[run.len() - 1]]);
    }
    for c in points {
        let back = EvaluationCheckpoint::from_bytes(&c.to_bytes()).unwrap();
        assert_eq!(&back, c);
        let resumed = on(population.evaluate(&eval))
            .resume_from(back)
            .run()
            .unwrap();
        assert_eq!(
            bits(&resumed),
            bits(&straight),
            "resumed at period {} with {} failures",
            c.period(),
            failures(c)
        );
    }
}

#[test]
fn cpu_evaluation_resumed_anywhere_gives_the_undisturbed_bits() {
    check_resumes_give_the_undisturbed_bits(&|run| run);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_f32_evaluation_resumed_anywhere_gives_the_undisturbed_bits() {
    check_resumes_give_the_undisturbed_bits(&|run| run.on(common::gpu_backend()));
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_f64_evaluation_resumed_anywhere_gives_the_undisturbed_bits() {
    if !device_has_f64() {
        // The GL backend: an f64 evaluation is refused naming the missing feature.
        let (population, eval) = (population(), evaluation());
        let run = population.evaluate(&eval).on(common::gpu_backend());
        let said = run.precision(Precision::F64).run().unwrap_err().to_string();
        assert!(said.contains("SHADER_F64"), "{said}");
        return;
    }
    check_resumes_give_the_undisturbed_bits(&|run| {
        run.on(common::gpu_backend()).precision(Precision::F64)
    });
}

/// Whether the shared test device runs f64 shaders (lavapipe does, the GL backend does not).
fn device_has_f64() -> bool {
    common::gpu()
        .0
        .features()
        .contains(wgpu::Features::SHADER_F64)
}

/// Contracts its robot's muscles by a fraction that grows by 1 % each period: state that a
/// resumed run must get back.
#[derive(Clone, Debug)]
struct Ramp {
    periods: u32,
    saves: bool,
    /// Restores nothing (a controller whose `restore_state` is broken).
    forgets: bool,
}

impl RobotController for Ramp {
    fn sensors(&self) -> SensorSpec {
        SensorSpec::default()
    }

    fn reset(&mut self) {
        self.periods = 0;
    }

    fn control(&mut self, _: &Readings, commands: &mut [f64]) {
        self.periods += 1;
        commands.fill(-0.01 * f64::from(self.periods % 20));
    }

    fn save_state(&self) -> Option<Vec<u8>> {
        self.saves.then(|| self.periods.to_le_bytes().to_vec())
    }

    fn restore_state(&mut self, state: &[u8]) -> Result<(), String> {
        let bytes: [u8; 4] = state.try_into().map_err(|_| "not 4 bytes".to_owned())?;
        if !self.forgets {
            self.periods = u32::from_le_bytes(bytes);
        }
        Ok(())
    }
}

#[test]
fn controllers_state_is_checkpointed_or_the_run_is_refused_naming_the_robot() {
    let settings = GenomeSettings {
        commanded: true,
        ..GenomeSettings::default()
    };
    let genomes = vec![VoxelGenome::filled([2, 1, 1], Muscle { phase: 0 }); 2];
    let population = Population::from_genomes(&genomes, &settings).unwrap();
    let eval = evaluation();
    let fresh = |saves| {
        vec![
            Ramp {
                periods: 0,
                saves,
                forgets: false
            };
            2
        ]
    };
    let straight = population
        .evaluate(&eval)
        .controllers(&mut fresh(true))
        .run()
        .unwrap();
    let mut controllers = fresh(true);
    let (checkpointed, saved) =
        every_checkpoint(population.evaluate(&eval).controllers(&mut controllers));
    assert_eq!(bits(&checkpointed), bits(&straight));
    for c in [&saved[2], &saved[11]] {
        let resumed = population
            .evaluate(&eval)
            .controllers(&mut fresh(true))
            .resume_from(c.clone())
            .run()
            .unwrap();
        assert_eq!(bits(&resumed), bits(&straight), "at period {}", c.period());
    }
    // A controller that forgets its state restarts its ramp: the comparison above can fail.
    let mut lost = fresh(true);
    lost[0].forgets = true;
    let without = population
        .evaluate(&eval)
        .controllers(&mut lost)
        .resume_from(saved[11].clone())
        .run()
        .unwrap();
    assert_ne!(bits(&without), bits(&straight));

    let mut one_cannot = fresh(true);
    one_cannot[1].saves = false;
    let said = population
        .evaluate(&eval)
        .controllers(&mut one_cannot)
        .checkpoint_with(CheckpointEvery::Periods(1), |_| panic!("no checkpoint"))
        .run()
        .unwrap_err()
        .to_string();
    assert!(
        said.contains("robot 1 (\"robot 1\")") && said.contains("cannot save its state"),
        "{said}"
    );
    assert_eq!(one_cannot[1].periods, 0, "the refused run stepped");
    let said = population
        .evaluate(&eval)
        .resume_from(saved[2].clone())
        .run()
        .unwrap_err()
        .to_string();
    assert!(said.contains("taken with controllers"), "{said}");
}

/// A scratch folder for this file's tests.
fn scratch(test: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("eval_checkpoints")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The error `run` gives; the checkpoint file at `path` is left as it was.
fn refusal(run: EvaluationRun<'_>, path: &std::path::Path) -> String {
    let before = std::fs::read(path).unwrap();
    let e = run.run().unwrap_err();
    assert!(matches!(e, Error::Snapshot { .. }), "{e:?}");
    assert_eq!(
        std::fs::read(path).unwrap(),
        before,
        "the refused run wrote"
    );
    e.to_string()
}

#[test]
fn damaged_truncated_or_foreign_checkpoints_are_refused_by_name() {
    let dir = scratch("refused");
    let path = dir.join("eval.ckpt");
    let (population, eval) = (population(), evaluation());
    let straight = population
        .evaluate(&eval)
        .checkpoint(&path, CheckpointEvery::Periods(7))
        .run()
        .unwrap();
    let previous = EvaluationCheckpoint::previous_path(&path);
    assert_eq!(previous, dir.join("eval.previous.ckpt"));
    let (good, old) = (
        std::fs::read(&path).unwrap(),
        std::fs::read(&previous).unwrap(),
    );
    let resumed = population.evaluate(&eval).resume(&path).run().unwrap();
    assert_eq!(bits(&resumed), bits(&straight));
    let named = |said: &str| said.starts_with(&format!("evaluation checkpoint {}", path.display()));

    let mut other = population.clone();
    other.robots[0].part.masses[0].mass *= 2.0;
    let said = refusal(other.evaluate(&eval).resume(&path), &path);
    assert!(
        named(&said) && said.contains("another population"),
        "{said}"
    );
    let longer = Evaluation {
        duration: 0.3,
        ..evaluation()
    };
    let said = refusal(population.evaluate(&longer).resume(&path), &path);
    assert!(said.contains("another evaluation"), "{said}");
    let mut fewer = population.clone();
    fewer.robots.pop();
    let said = refusal(fewer.evaluate(&eval).resume(&path), &path);
    assert!(
        said.contains("population of 5 robots; this one has 4"),
        "{said}"
    );

    // Damaged: the latest falls back to the previous one (same results); both damaged is refused.
    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 0x04;
    std::fs::write(&path, &flipped).unwrap();
    let resumed = population.evaluate(&eval).resume(&path).run().unwrap();
    assert_eq!(bits(&resumed), bits(&straight));
    let said = EvaluationCheckpoint::load(&path).unwrap_err().to_string();
    assert!(named(&said) && said.contains("corrupted"), "{said}");
    std::fs::write(&previous, &old[..old.len() - 9]).unwrap();
    let said = refusal(population.evaluate(&eval).resume(&path), &path);
    assert!(
        said.contains("no checkpoint reads")
            && said.contains("corrupted")
            && said.contains("truncated"),
        "{said}"
    );
    for (bytes, expected) in [
        (&good[..10], "truncated"),
        (&good[..good.len() - 1], "truncated"),
        (
            &b"HOOKESNP and more bytes than a header"[..],
            "not a hooke evaluation checkpoint",
        ),
    ] {
        let said = EvaluationCheckpoint::from_bytes(bytes)
            .unwrap_err()
            .to_string();
        assert!(said.contains(expected), "{said}");
    }
    let mut v2 = good.clone();
    v2[8] = 2;
    let said = EvaluationCheckpoint::from_bytes(&v2)
        .unwrap_err()
        .to_string();
    assert!(
        said.contains("format version 2; this hooke reads version 1"),
        "{said}"
    );
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_checkpoint_of_another_backend_or_precision_is_refused_by_name() {
    let dir = scratch("backend");
    let population = population();
    let gpu = common::gpu_backend();
    let cpu = dir.join("cpu.ckpt");
    let f32 = dir.join("f32.ckpt");
    let short = Evaluation {
        duration: 0.01,
        ..evaluation()
    };
    population
        .evaluate(&short)
        .checkpoint(&cpu, CheckpointEvery::Periods(1))
        .run()
        .unwrap();
    population
        .evaluate(&short)
        .on(gpu)
        .checkpoint(&f32, CheckpointEvery::Seconds(0.0))
        .run()
        .unwrap();
    let said = refusal(population.evaluate(&short).on(gpu).resume(&cpu), &cpu);
    assert!(
        said.contains(
            "taken on the CPU reference (f64); this evaluation runs on the GPU World in f32"
        ),
        "{said}"
    );
    let said = refusal(population.evaluate(&short).resume(&f32), &f32);
    assert!(
        said.contains("taken on the GPU World in f32; this evaluation runs on the CPU"),
        "{said}"
    );
    if device_has_f64() {
        let said = refusal(
            population
                .evaluate(&short)
                .on(gpu)
                .precision(Precision::F64)
                .resume(&f32),
            &f32,
        );
        assert!(said.contains("runs on the GPU World in f64"), "{said}");
    }
}
