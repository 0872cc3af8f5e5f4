//! Under load: many Worlds on one device from several threads, each with the bits of a
//! single-threaded run; many `hooke eval` processes at once on the same results file, killed at
//! random: no deadlock (every wait has a deadline), no corrupted results file, and a rerun gives
//! the same fitness bits.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use hooke::{CpuWorld, Model, Simulation, World, WorldOptions};

use crate::common::scenes;

/// Threads that build and step Worlds at once.
const THREADS: usize = 8;
/// Steps per World.
const STEPS: u64 = 60;
/// The longest any multi-threaded run may take before the test calls it a deadlock. The whole
/// run takes a few seconds on lavapipe with two cores busy; a hang never ends.
const DEADLINE: Duration = Duration::from_secs(240);

/// The bits of a World's state after `STEPS` steps: positions and velocities.
fn bits(sim: &mut dyn Simulation) -> Vec<u64> {
    sim.step(STEPS).unwrap();
    let p = sim.positions().unwrap();
    let v = sim.velocities().unwrap();
    p.iter()
        .chain(&v)
        .flat_map(|x| x.to_array())
        .map(f64::to_bits)
        .collect()
}

fn models() -> Vec<Model> {
    vec![
        scenes::bouncing_cube(),
        scenes::inchworm(),
        scenes::rope(12),
    ]
}

fn gpu_bits(model: &Model) -> Vec<u64> {
    let (device, queue) = crate::common::gpu();
    let mut world = World::with_device(
        device.clone(),
        queue.clone(),
        model,
        WorldOptions::default(),
    )
    .unwrap();
    bits(&mut world)
}

fn cpu_bits(model: &Model) -> Vec<u64> {
    bits(&mut CpuWorld::new(model).unwrap())
}

/// Eight threads, each building and stepping a GPU World on the one shared device and a CPU
/// World, every model in turn: each World's bits equal those of the same model run alone.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn worlds_from_eight_threads_on_one_device_give_single_thread_bits() {
    let models = models();
    let alone: Vec<(Vec<u64>, Vec<u64>)> =
        models.iter().map(|m| (gpu_bits(m), cpu_bits(m))).collect();
    let (send, receive) = mpsc::channel();
    for t in 0..THREADS {
        let (send, models) = (send.clone(), models.clone());
        std::thread::spawn(move || {
            // Each thread starts on another model, so different Worlds are built at once.
            for k in 0..models.len() {
                let m = (t + k) % models.len();
                let got = (gpu_bits(&models[m]), cpu_bits(&models[m]));
                send.send((t, m, got)).unwrap();
            }
        });
    }
    drop(send);
    let deadline = Instant::now() + DEADLINE;
    let mut runs = 0;
    while runs < THREADS * models.len() {
        let left = deadline.saturating_duration_since(Instant::now());
        let (t, m, (gpu, cpu)) = receive.recv_timeout(left).unwrap_or_else(|e| {
            panic!(
                "{runs} of {} runs after {DEADLINE:?}: {e}",
                THREADS * models.len()
            )
        });
        assert!(
            gpu == alone[m].0,
            "thread {t}, model {m}: the GPU World's bits differ from a run alone"
        );
        assert!(
            cpu == alone[m].1,
            "thread {t}, model {m}: the CPU World's bits differ from a run alone"
        );
        runs += 1;
    }
}

#[cfg(feature = "cli")]
mod eval_processes {
    use std::path::{Path, PathBuf};
    use std::process::Child;
    use std::time::{Duration, Instant};

    use hooke::builders::SplitMix64;
    use serde_json::{json, Value};

    use crate::common::command::{command, ok, read, scratch, stderr, write};
    use crate::eval_cli::comparable;

    /// How many `hooke eval` start at once in each round, and how many rounds, on one backend.
    #[derive(Clone, Copy)]
    struct Load {
        /// `--backend`: `cpu` or `gpu`.
        backend: &'static str,
        /// Processes started at once in each round.
        processes: usize,
        /// Rounds of starts and kills.
        rounds: usize,
    }

    /// The longest one `hooke eval` of this small batch may take (a fraction of a second on the
    /// CPU, a second or two on lavapipe with the device opened and the kernels compiled, both
    /// slower with six at once on two cores): past it the process is taken for hung.
    const PROCESS_DEADLINE: Duration = Duration::from_secs(60);

    /// The population of the property tests, evaluated for 0.5 s (a few tenths of a second of
    /// work, so that kills land at every moment of a run).
    fn population() -> Value {
        let mut pop = crate::robustness::population_json::population();
        pop["evaluation"]["duration"] = json!(0.5);
        pop
    }

    /// `hooke eval` on `backend` (one thread on the CPU).
    fn eval_command(backend: &str, pop: &str, out: &Path) -> std::process::Command {
        let mut args = vec!["eval", pop, "--backend", backend];
        if backend == "cpu" {
            args.extend(["--threads", "1"]);
        }
        args.push("--out");
        let mut c = command(&args);
        c.arg(out);
        c
    }

    fn eval(backend: &str, pop: &str, out: &Path) -> Child {
        eval_command(backend, pop, out)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    }

    /// A results file that exists parses and is complete, with the reference's bits.
    fn check_complete(out: &Path, reference: &Value) {
        let text = std::fs::read_to_string(out).unwrap();
        let results: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is corrupt ({e}): {text:?}", out.display()));
        assert_eq!(results["robots_in_input"], reference["robots_in_input"]);
        assert_eq!(results["share"], reference["share"]);
        assert_eq!(results["input"], reference["input"]);
        assert_eq!(comparable(&results), comparable(reference), "{text}");
    }

    /// Waits for `child` until `deadline`; a process still running then is killed and the test
    /// fails (a hang).
    fn wait_until(child: &mut Child, deadline: Instant) -> std::process::ExitStatus {
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("a hooke eval ran past its deadline of {PROCESS_DEADLINE:?}");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// `load.processes` `hooke eval` at once on one results file, some killed (SIGKILL) at random
    /// moments of their run, `load.rounds` rounds: every results file that exists is complete
    /// with the bits of an undisturbed run, and a run after all of them writes those bits again.
    fn kill_at_random(load: Load) {
        let Load {
            backend,
            processes,
            rounds,
        } = load;
        let dir: PathBuf = scratch("under_load", &format!("eval_kills_{backend}"));
        let pop = write(&dir.join("population.json"), &population());
        let reference_file = dir.join("reference.json");
        let started = Instant::now();
        let out = eval_command(backend, &pop, &reference_file)
            .output()
            .unwrap();
        ok(&out);
        let run_time = started.elapsed();
        let reference = read(&reference_file);
        let shared = dir.join("results.json");
        let mut rng = SplitMix64::new(0x005e_ed0f_4b11);
        let (mut killed, mut finished) = (0, 0);
        for _ in 0..rounds {
            let mut children: Vec<Child> = (0..processes)
                .map(|_| eval(backend, &pop, &shared))
                .collect();
            let round_start = Instant::now();
            let deadline = round_start + PROCESS_DEADLINE;
            // About half are killed, each at a moment drawn from the first two undisturbed
            // run times of the round (several processes on two cores run slower than one alone).
            let mut kills: Vec<(Duration, usize)> = (0..processes)
                .filter_map(|i| {
                    let (kill, at) = (rng.next_f64() < 0.5, rng.next_f64());
                    kill.then(|| (run_time.mul_f64(2.0 * at), i))
                })
                .collect();
            kills.sort();
            for (at, i) in kills {
                std::thread::sleep(at.saturating_sub(round_start.elapsed()));
                if children[i].try_wait().unwrap().is_none() {
                    children[i].kill().unwrap();
                    killed += 1;
                }
            }
            for child in &mut children {
                if wait_until(child, deadline).success() {
                    finished += 1;
                }
            }
            if shared.exists() {
                check_complete(&shared, &reference);
            }
        }
        eprintln!(
            "{backend}: {killed} processes killed, {finished} finished, one run alone {run_time:?}"
        );
        assert!(
            killed > 0 && finished > 0,
            "{killed} killed, {finished} finished: the test checked nothing"
        );
        // A rerun after all that: the same bits.
        let out = eval_command(backend, &pop, &shared).output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        check_complete(&shared, &reference);
    }

    /// Six `hooke eval` on the CPU reference at once on one results file, about half killed
    /// at random, eight rounds.
    #[test]
    fn eval_processes_killed_at_random_leave_complete_results() {
        kill_at_random(Load {
            backend: "cpu",
            processes: 6,
            rounds: 8,
        });
    }

    /// The same on the GPU backend (lavapipe here): four processes at once, each opening the
    /// device and compiling its kernels, three rounds; the fitness bits of each complete file
    /// are the GPU reference run's.
    #[test]
    #[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
    fn gpu_eval_processes_killed_at_random_leave_complete_results() {
        kill_at_random(Load {
            backend: "gpu",
            processes: 4,
            rounds: 3,
        });
    }
}
