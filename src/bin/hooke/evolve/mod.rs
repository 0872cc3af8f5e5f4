//! `hooke evolve`: a genetic algorithm over voxel robots, checkpointed after every generation,
//! writing the champion, its GIF, the fitness plot and the history.

mod checkpoint;
mod output;
mod settings;

use std::error::Error;
use std::path::Path;
use std::time::Instant;

use hooke::population::{Evolution, EvolutionState, GenerationStats};
use hooke::{BackendChoice, OpenBackend};
use indicatif::{ProgressBar, ProgressStyle};

use crate::args::EvolveArgs;
use crate::human;
use settings::Settings;

/// Runs `hooke evolve`.
pub(crate) fn evolve(args: &EvolveArgs) -> Result<(), Box<dyn Error>> {
    let settings = Settings::load(&args.settings)?;
    let settings_json = settings_value(&args.settings)?;
    let evolution = &settings.evolution;
    let choice = args
        .backend
        .or(settings.backend())
        .unwrap_or(BackendChoice::Auto);
    let backend = crate::eval_run::open(choice, args.threads)?;
    let out = args.out.as_path();
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let checkpoint_path = out.join("checkpoint.json");
    let mut state = if args.resume {
        checkpoint::resume(&checkpoint_path, &settings_json, evolution, &backend)?
    } else {
        if checkpoint_path.exists() {
            eprintln!(
                "starting again: {} is replaced (--resume continues it)",
                checkpoint_path.display()
            );
        }
        evolution.start()?
    };
    eprintln!(
        "evolving {} robots of {:?} voxels for {} generations{}, {} s each at dt = {} s, seed \
         {}, on {}",
        evolution.population,
        evolution.size,
        evolution.generations,
        if state.generation > 0 {
            format!(" (resuming after generation {})", state.generation - 1)
        } else {
            String::new()
        },
        human::number(evolution.evaluation.duration),
        human::number(evolution.evaluation.params.dt),
        evolution.seed,
        backend.describe(),
    );
    let started = Instant::now();
    let run = Run {
        evolution,
        backend: &backend,
        settings: &settings_json,
        out,
    };
    run.generations(&mut state)?;
    let evolve_time = started.elapsed().as_secs_f64();
    run.report(&settings, &state, args.gif_size)?;
    eprintln!(
        "wall time {} ({} evolving)",
        human::duration(started.elapsed().as_secs_f64()),
        human::duration(evolve_time),
    );
    Ok(())
}

/// The settings file's contents as JSON, as the checkpoint keeps them.
fn settings_value(path: &Path) -> Result<serde_json::Value, String> {
    let bytes = crate::input::read(path)?;
    serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// One evolution run: what it evolves, on what, and where it writes.
struct Run<'a> {
    evolution: &'a Evolution,
    backend: &'a OpenBackend,
    settings: &'a serde_json::Value,
    out: &'a Path,
}

impl Run<'_> {
    /// Runs the generations `state` has left, a checkpoint and history.csv after each, under a
    /// progress bar (drawn when standard error is a terminal).
    fn generations(&self, state: &mut EvolutionState) -> Result<(), Box<dyn Error>> {
        let evolution = self.evolution;
        let bar = ProgressBar::new(evolution.generations as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} generations ({eta} left)",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar.set_position(state.generation as u64);
        let mut evaluate = |p: &hooke::population::Population,
                            e: &hooke::population::Evaluation| {
            p.evaluate(e).on(self.backend).run()
        };
        let checkpoint_path = self.out.join("checkpoint.json");
        let history_path = self.out.join("history.csv");
        while !state.finished(evolution) {
            evolution.next_generation(state, &mut evaluate)?;
            checkpoint::save(
                &checkpoint_path,
                evolution,
                self.settings,
                self.backend,
                state,
            )?;
            output::write_history(&state.evolved.history, &history_path)?;
            if let Some(stats) = state.evolved.history.last() {
                bar.suspend(|| eprintln!("{}", describe(stats)));
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
        Ok(())
    }

    /// Writes the plot, the champion and its GIF, and prints the champion against generation 0.
    fn report(
        &self,
        settings: &Settings,
        state: &EvolutionState,
        gif_size: (u32, u32),
    ) -> Result<(), Box<dyn Error>> {
        let out = self.out;
        let evolved = &state.evolved;
        let history = out.join("history.csv");
        output::write_history(&evolved.history, &history)?;
        let plot = out.join("fitness.png");
        let mut wrote = vec![history];
        if output::write_plot(&evolved.history, &plot)? {
            wrote.push(plot);
        }
        let Some(champion) = &evolved.champion else {
            eprintln!("every robot of every generation failed: no champion");
            return Ok(());
        };
        let champion_json = out.join("champion.json");
        output::write_champion(&settings.evaluation_json, &champion.genome, &champion_json)?;
        wrote.push(champion_json);
        let gif = output::record_champion(
            self.evolution,
            &champion.genome,
            self.backend,
            out,
            gif_size,
        )?;
        wrote.extend([gif.gif, gif.plot]);
        let first = evolved.history[0].best;
        eprintln!(
            "champion (generation {}, {} voxels): fitness {} in {} s; generation 0's best: {}",
            champion.generation,
            champion.genome.filled_count(),
            human::number(champion.fitness),
            human::number(self.evolution.evaluation.duration),
            first.map_or("none (all failed)".to_string(), human::number),
        );
        for path in wrote {
            eprintln!("wrote {}", path.display());
        }
        Ok(())
    }
}

/// One line per generation.
fn describe(s: &GenerationStats) -> String {
    let m = |v: Option<f64>| v.map_or("   none".to_string(), |f| format!("{f:7.3}"));
    format!(
        "generation {:3}: best {}, mean {}, {} failed, {} empty, {}",
        s.generation,
        m(s.best),
        m(s.mean),
        s.failures,
        s.empty,
        human::duration(s.wall_time)
    )
}
