//! Edits between steps: external forces, the drag spring, fixing masses, a body's velocity,
//! rest lengths and actuators. Each books the energy it adds or removes.

use glam::DVec3;

use super::chunk_actuators::ChunkActuators;
use super::energy_springs::{shadow_energy_springs, spring_energy};
use super::formed_rest::{driver, drivers, Driver, FormedRest};
use super::waves::Waves;
use super::CpuWorld;
use crate::error::{Error, Result};
use crate::model::spring_law::{divides_by_rest, rest_in_law};
use crate::model::{check_same_kind, Actuator, DragSpring, Spring};

impl CpuWorld {
    /// Sets the constant external force on mass `mass` to `force` (N) from the next step on.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing mass; [`Error::InvalidParameter`] for a
    /// non-finite force.
    pub fn set_external_force(&mut self, mass: usize, force: DVec3) -> Result<()> {
        self.check_index("mass", mass, self.pos.len())?;
        if !force.is_finite() {
            return Err(Error::InvalidParameter {
                name: "external force",
                value: f64::NAN,
                expected: "must be finite (N)",
            });
        }
        self.external[mass] = force;
        self.limit.external_force(self.mass[mass], force);
        Ok(())
    }

    /// Sets or clears the drag spring. Its stored energy `k d^2 / 2` (`d` the distance from the
    /// mass to the target) raises the blow-up bound (see [`CpuWorld::step`]).
    ///
    /// # Errors
    /// What [`DragSpring::validate`] rejects.
    pub fn set_drag(&mut self, drag: Option<DragSpring>) -> Result<()> {
        if let Some(d) = &drag {
            d.validate(self.pos.len())?;
            self.limit.inject(d.energy(self.pos[d.mass]));
        }
        self.drag = drag;
        Ok(())
    }

    /// Fixes or frees a mass. A newly fixed mass stops dead (its velocity becomes zero).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing mass.
    pub fn set_fixed(&mut self, mass: usize, fixed: bool) -> Result<()> {
        self.check_index("mass", mass, self.pos.len())?;
        if fixed {
            self.dissipated += 0.5 * self.mass[mass] * self.vel[mass].length_squared();
            self.vel[mass] = DVec3::ZERO;
        }
        self.fixed[mass] = fixed;
        Ok(())
    }

    /// Gives every free mass of body `body` the velocity `velocity` (m/s): a throw (the viewer
    /// throws one body at another with it). Fixed masses keep their zero velocity. The change in
    /// kinetic energy is booked as injected work (negative when the body slows down) and raises
    /// the blow-up bound (see [`CpuWorld::step`]) by what it adds.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing body; [`Error::InvalidParameter`] for a
    /// non-finite velocity (naming the first non-finite component).
    ///
    /// # Examples
    ///
    /// ```
    /// use hooke::{Builder, CpuWorld, Cube, DVec3, Model, Params, Placement};
    ///
    /// let mut model = Model::new(Params::default());
    /// model.add("cube", Cube::lipson().build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.5)))?);
    /// let mut world = CpuWorld::new(&model)?;
    /// world.set_body_velocity(0, DVec3::new(2.0, 0.0, 0.0))?; // m/s
    /// assert_eq!(world.body_mean_velocity(0)?, DVec3::new(2.0, 0.0, 0.0));
    /// let e = world.energy()?;
    /// assert!((e.injected - 0.5 * 0.8 * 4.0).abs() < 1e-12); // 8 x 0.1 kg at 2 m/s
    /// # Ok::<(), hooke::Error>(())
    /// ```
    pub fn set_body_velocity(&mut self, body: usize, velocity: DVec3) -> Result<()> {
        self.check_index("body", body, self.model.bodies.len())?;
        if let Some(bad) = velocity.to_array().into_iter().find(|v| !v.is_finite()) {
            return Err(Error::InvalidParameter {
                name: "body velocity",
                value: bad,
                expected: "must be finite (m/s)",
            });
        }
        let mut added = 0.0;
        for i in self.model.bodies[body].masses.clone() {
            if !self.fixed[i] {
                added +=
                    0.5 * self.mass[i] * (velocity.length_squared() - self.vel[i].length_squared());
                self.vel[i] = velocity;
            }
        }
        self.injected += added;
        self.limit.inject(added);
        Ok(())
    }

    /// Sets the (base) rest length of spring `spring` to `rest_length` (m). For an actuated spring
    /// this is the base length `L_base` the actuator modulates. The change in elastic energy is
    /// counted as injected work.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing spring; [`Error::InvalidSpringParameter`] for a
    /// negative or non-finite length, [`Error::ZeroRestLength`] for zero on a material-law spring.
    pub fn set_rest_length(&mut self, spring: usize, rest_length: f64) -> Result<()> {
        self.check_index("spring", spring, self.base_rest.len())?;
        if !(rest_length.is_finite() && rest_length >= 0.0) {
            return Err(Error::InvalidSpringParameter {
                spring,
                name: "rest_length",
                value: rest_length,
            });
        }
        if divides_by_rest(self.law[spring]) && rest_length == 0.0 {
            return Err(Error::ZeroRestLength { spring });
        }
        let old = Spring {
            rest_length: self.base_rest[spring],
            ..self.model.springs[spring]
        };
        let driver = self
            .actuators
            .iter()
            .rev()
            .find(|a| a.spring as usize == spring);
        let [a, b] = self.springs.ends[spring];
        let masses = [self.mass[a as usize], self.mass[b as usize]];
        self.limit.rest_length(&old, rest_length, driver, masses);
        self.catch_up_rest();
        self.base_rest[spring] = rest_length;
        if self.actuators.is_empty() {
            let before = spring_energy(&self.springs, &self.pos, spring);
            self.set_effective(spring, rest_length);
            self.injected += spring_energy(&self.springs, &self.pos, spring) - before;
        } else {
            // `actuate` brings every muscle to the current time, so every muscle's change is
            // booked here (the next step's actuation then sees none), as `set_actuator` does.
            let before = self.shadow_energy();
            self.set_effective(spring, rest_length);
            self.actuate();
            self.injected += self.shadow_energy() - before;
        }
        self.form_base_rest(spring);
        Ok(())
    }

    /// The springs' share of the shadow energy in the current state
    /// ([`shadow_energy_springs`]): an edit that brings the muscles to the current time books
    /// its change, as a step does.
    fn shadow_energy(&self) -> f64 {
        let state = (&self.pos[..], &self.vel[..]);
        shadow_energy_springs(&self.springs, &self.springs.rest, state, self.params.dt)
    }

    /// Gives the walk spring `s`'s new base length where it forms the rest length
    /// (`formed_rest.rs`, `alike_muscles.rs`).
    fn form_base_rest(&mut self, s: usize) {
        let last = self.actuators.iter().rposition(|a| a.spring as usize == s);
        let a = last.map(|i| (&self.actuators[i], self.waves.of(i)));
        let d = driver(self.base_rest[s], self.law[s], a);
        self.formed_rest.set(s, d, self.waves.none());
        let c = self.chunks.partition_point(|c| c.springs.end <= s);
        let plan = self.chunks.get_mut(c).and_then(|c| c.alike.as_mut());
        if !plan.is_none_or(|p| p.set_driver(s, d)) {
            self.find_actuated_springs();
        }
    }

    /// Replaces actuator `index` (its `spring` must name an existing spring; a commanded actuator
    /// stays commanded and a sine one sine, since the commands are laid out when the world is
    /// built).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a missing actuator; [`Error::InvalidActuator`] as
    /// [`Model::validate`](crate::Model::validate) checks actuators, or for a change of kind.
    pub fn set_actuator(&mut self, index: usize, actuator: Actuator) -> Result<()> {
        self.check_index("actuator", index, self.actuators.len())?;
        actuator.check(index, self.model.springs.len())?;
        check_same_kind(index, &self.actuators[index], &actuator)?;
        self.actuators[index] = actuator;
        self.find_actuated_springs();
        let s = actuator.spring as usize;
        let spring = Spring {
            rest_length: self.base_rest[s],
            ..self.model.springs[s]
        };
        let [a, b] = self.springs.ends[s];
        let masses = [self.mass[a as usize], self.mass[b as usize]];
        self.limit.actuator(&spring, &actuator, masses);
        let before = self.shadow_energy();
        self.actuate();
        self.injected += self.shadow_energy() - before;
        Ok(())
    }

    /// The actuators in force.
    #[must_use]
    pub fn actuators(&self) -> &[Actuator] {
        &self.actuators
    }

    /// Sets spring `s`'s current rest length (0 for a zero-length spring, whatever it is given).
    pub(super) fn set_effective(&mut self, s: usize, rest: f64) {
        self.springs.rest[s] = rest_in_law(self.law[s], rest);
        self.sync_stencil_rest(s);
    }

    /// Copies spring `s`'s current rest length into its stencil slot, when it has one.
    fn sync_stencil_rest(&mut self, s: usize) {
        let i = self.stencils.partition_point(|b| b.springs.end <= s);
        if let Some(body) = self.stencils.get_mut(i).filter(|b| b.springs.contains(&s)) {
            body.set_rest(s, self.springs.rest[s]);
        }
    }

    /// Copies the actuated springs' rest lengths (just set by the muscles' share of the step)
    /// into their stencil slots.
    pub(super) fn sync_stencil_muscles(&mut self) {
        if self.stencils.is_empty() {
            return;
        }
        for i in 0..self.actuated_springs.len() {
            self.sync_stencil_rest(self.actuated_springs[i]);
        }
    }

    /// Lists the springs the actuators drive, each once (a spring named by two actuators must
    /// have its muscle work booked once), and finds the actuators' distinct waves.
    /// Also gives the walk the rest lengths to form (`formed_rest.rs`, `alike_muscles.rs`),
    /// from the base lengths in force, and marks the chunks that form them.
    pub(super) fn find_actuated_springs(&mut self) {
        self.catch_up_rest();
        let mut springs: Vec<usize> = self.actuators.iter().map(|a| a.spring as usize).collect();
        springs.sort_unstable();
        springs.dedup();
        self.actuated_springs = springs;
        self.waves = Waves::new(&self.actuators);
        let drivers = drivers(&self.base_rest, &self.law, &self.actuators, |i| {
            self.waves.of(i)
        });
        let mut formed = vec![false; self.base_rest.len()];
        let none = self.waves.none();
        let on = self.kernels.formed_rest;
        self.formed_rest = if self.actuators.is_empty() || !on {
            FormedRest::default()
        } else {
            FormedRest::new(&drivers, none)
        };
        for c in &mut self.chunks {
            let d = &drivers[c.springs.clone()];
            // Formed where a muscle can be and none is commanded; stencil pieces keep their own.
            c.formed = on
                && c.piece.is_none()
                && d.iter().any(|d| matches!(d, Driver::Sine { .. }))
                && !d.contains(&Driver::Other);
            match c.alike.as_mut() {
                Some(plan) => {
                    plan.form_rest(Some(&drivers[..]).filter(|_| on), &mut formed);
                    if c.formed {
                        plan.mark_singles(&mut formed);
                    }
                }
                None if c.formed => formed[c.springs.clone()].fill(true),
                None => {}
            }
        }
        self.chunk_actuators = ChunkActuators::new(
            &self.actuators,
            (&self.waves, &self.law),
            &self.actuated_springs,
            &formed,
            &self.chunks,
        );
    }

    /// Rewrites the rest length of every actuated spring for the current time (commanded ones
    /// for the commands in force): one sine per distinct wave (`waves.rs`), the same bits as
    /// [`Actuator::rest_length_with`] per actuator.
    pub(super) fn actuate(&mut self) {
        if self.actuators.is_empty() {
            return;
        }
        self.waves.evaluate(self.time);
        // Every actuated spring's stored rest length is rewritten below.
        self.rest_behind = false;
        for i in 0..self.actuators.len() {
            let a = self.actuators[i];
            let s = a.spring as usize;
            let rest = match self.waves.rest(i, &a, self.base_rest[s]) {
                Some(rest) => rest,
                None => self.actuated_rest(i),
            };
            self.set_effective(s, rest);
        }
    }
}
