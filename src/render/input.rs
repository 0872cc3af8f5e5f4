//! Interactive input, apart from any window system: keys and mouse to simulation actions, the
//! arrow-key nudge of the topmost mass (Lipson), picking the mass nearest the mouse and
//! dragging it with a [`DragSpring`] (SDL), throwing the picked body at another
//! ([`ViewerInput::throw`]), and an orbiting camera.
//!
//! A viewer translates its window events into [`Key`]s and pixel positions, feeds them to a
//! [`ViewerInput`], and applies what comes back ([`Action`]s, force updates, the drag spring) to
//! its world. Everything here is plain data and is tested without a display.

use std::collections::BTreeSet;

use glam::{DVec3, Vec2, Vec3};

use crate::model::Body;
use crate::model::DragSpring;
use crate::render::Camera;

/// Keys the viewer reacts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    /// Space: play / pause.
    Space,
    /// S: advance one step.
    S,
    /// R: reset the simulation.
    R,
    /// Left arrow: push the topmost mass toward the left of the screen.
    Left,
    /// Right arrow: push it toward the right.
    Right,
    /// Up arrow: push it away from the viewer.
    Up,
    /// Down arrow: push it toward the viewer.
    Down,
    /// A digit key 0-9 of the number row (see [`SCENARIO_KEYS`] for the scenario each selects).
    Digit(u8),
    /// The minus key, right of 0 on the number row: the eleventh scenario.
    Minus,
    /// The equals key, right of minus: the twelfth scenario.
    Equals,
    /// A function key F1-F12 (`Function(1)` is F1); F1-F4 select scenarios 13-16.
    Function(u8),
    /// T: throw the picked body at another ([`Action::Throw`]).
    T,
}

/// The keys that select scenarios, in scenario order: the number row from 1 to 9, then 0, minus
/// and equals, then F1 to F4 (scenario `i` is selected by `SCENARIO_KEYS[i]`). A viewer with
/// fewer scenarios uses the first ones; [`scenario_keys_help`] names them.
pub const SCENARIO_KEYS: [Key; 16] = [
    Key::Digit(1),
    Key::Digit(2),
    Key::Digit(3),
    Key::Digit(4),
    Key::Digit(5),
    Key::Digit(6),
    Key::Digit(7),
    Key::Digit(8),
    Key::Digit(9),
    Key::Digit(0),
    Key::Minus,
    Key::Equals,
    Key::Function(1),
    Key::Function(2),
    Key::Function(3),
    Key::Function(4),
];

impl Key {
    /// What is written on the key: `"Space"`, `"S"`, `"R"`, `"Left"`, ..., the digit, `"-"`,
    /// `"="`, `"F1"`, ..., `"T"`.
    #[must_use]
    pub fn label(self) -> String {
        match self {
            Key::Space => "Space".into(),
            Key::S => "S".into(),
            Key::R => "R".into(),
            Key::Left => "Left".into(),
            Key::Right => "Right".into(),
            Key::Up => "Up".into(),
            Key::Down => "Down".into(),
            Key::Digit(d) => d.to_string(),
            Key::Minus => "-".into(),
            Key::Equals => "=".into(),
            Key::Function(n) => format!("F{n}"),
            Key::T => "T".into(),
        }
    }

    /// The scenario this key selects (0-based), if it is one of [`SCENARIO_KEYS`].
    #[must_use]
    pub fn scenario(self) -> Option<usize> {
        SCENARIO_KEYS.iter().position(|&k| k == self)
    }
}

/// The key that selects scenario `index` (0-based), if there is one.
#[must_use]
pub fn scenario_key(index: usize) -> Option<Key> {
    SCENARIO_KEYS.get(index).copied()
}

/// The keys of the first `count` scenarios, for help text: runs of digits as ranges, e.g.
/// `"1-9, 0, -"` for 11 scenarios, `"1-3"` for 3, `"1-9, 0, -, =, F1"` for 13; `count` above
/// [`SCENARIO_KEYS`]'s length is cut to it (the rest have no key).
#[must_use]
pub fn scenario_keys_help(count: usize) -> String {
    let keys = &SCENARIO_KEYS[..count.min(SCENARIO_KEYS.len())];
    let digits = keys.iter().take_while(|k| matches!(k, Key::Digit(1..=9)));
    let mut parts: Vec<String> = match digits.count() {
        0 => Vec::new(),
        1 => vec!["1".into()],
        n => vec![format!("1-{n}")],
    };
    let rest = keys.iter().skip_while(|k| matches!(k, Key::Digit(1..=9)));
    parts.extend(rest.map(|k| k.label()));
    parts.join(", ")
}

/// What the viewer should do in response to an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Toggle between playing and paused; the new state is [`ViewerInput::playing`].
    TogglePlay,
    /// Advance the simulation by exactly one step (and pause).
    Step,
    /// Reset the simulation to its initial state.
    Reset,
    /// Switch to scenario number `0`-based.
    SelectScenario(usize),
    /// The mouse grabbed this mass; it is now dragged (and picked, for [`Action::Throw`]).
    Grab(usize),
    /// The dragged mass was let go: remove the drag spring.
    Release,
    /// Throw the picked body at another: [`ViewerInput::throw`] gives the body and the velocity
    /// to set on each of its free masses.
    Throw,
}

/// A mass being dragged: which one, and the point where it was grabbed, which fixes the depth
/// of the plane (parallel to the image) in which the mouse moves it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    /// The dragged mass.
    pub mass: usize,
    /// Its position when grabbed, in m.
    pub anchor: Vec3,
    /// The current mouse position, in pixels (origin top-left).
    pub cursor: Vec2,
}

/// Turns key and mouse input into simulation actions.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewerInput {
    /// Magnitude of the arrow-key nudge force, in N.
    pub nudge_force: f64,
    /// Stiffness of the mouse drag spring, in N/m.
    pub drag_stiffness: f64,
    /// Damping of the mouse drag spring, in N*s/m.
    pub drag_damping: f64,
    /// How far from the mouse (pixels) a mass may be and still be grabbed.
    pub pick_radius: f32,
    /// Speed of a throw, m/s: the distance to the target over the flight time.
    pub throw_speed: f64,
    playing: bool,
    held: BTreeSet<Key>,
    nudged: Option<usize>,
    drag: Option<Drag>,
    picked: Option<usize>,
}

impl Default for ViewerInput {
    /// Nudge 2 N, drag spring 200 N/m with 2 N*s/m damping, pick radius 30 px, throws at
    /// 3 m/s, paused, nothing picked.
    fn default() -> Self {
        Self {
            nudge_force: 2.0,
            drag_stiffness: 200.0,
            drag_damping: 2.0,
            pick_radius: 30.0,
            throw_speed: 3.0,
            playing: false,
            held: BTreeSet::new(),
            nudged: None,
            drag: None,
            picked: None,
        }
    }
}

impl ViewerInput {
    /// The default settings, paused.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the simulation should be running.
    #[must_use]
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// Sets playing or paused.
    pub fn set_playing(&mut self, playing: bool) {
        self.playing = playing;
    }

    /// The current drag, if a mass is held.
    #[must_use]
    pub fn drag(&self) -> Option<&Drag> {
        self.drag.as_ref()
    }

    /// The last mass the mouse grabbed (still picked after it is let go, until another
    /// scenario is selected): its body is the one [`ViewerInput::throw`] throws.
    #[must_use]
    pub fn picked(&self) -> Option<usize> {
        self.picked
    }

    /// A key went down. Returns the action to take, if any. Space toggles play, S pauses and
    /// asks for one step, R resets (and lets go of a dragged mass), the [`SCENARIO_KEYS`] select
    /// a scenario (and forget the picked mass), T throws the picked body; arrows are held (see
    /// [`ViewerInput::nudge`]) and return nothing.
    pub fn key_pressed(&mut self, key: Key) -> Option<Action> {
        match key {
            Key::Space => {
                self.playing = !self.playing;
                Some(Action::TogglePlay)
            }
            Key::S => {
                self.playing = false;
                Some(Action::Step)
            }
            Key::R => {
                self.drag = None;
                Some(Action::Reset)
            }
            Key::Digit(_) | Key::Minus | Key::Equals | Key::Function(_) => {
                let scenario = key.scenario()?;
                self.drag = None;
                self.picked = None;
                Some(Action::SelectScenario(scenario))
            }
            Key::T => Some(Action::Throw),
            Key::Left | Key::Right | Key::Up | Key::Down => {
                self.held.insert(key);
                None
            }
        }
    }

    /// A key went up.
    pub fn key_released(&mut self, key: Key) {
        self.held.remove(&key);
    }

    /// The horizontal nudge force (N) the held arrow keys ask for, relative to `camera`: right
    /// pushes along the screen's right projected on the ground, up pushes away from the viewer
    /// along the ground. Opposite keys cancel; two perpendicular keys push diagonally with the
    /// same magnitude [`ViewerInput::nudge_force`].
    #[must_use]
    pub fn nudge_direction(&self, camera: &Camera) -> DVec3 {
        let forward = camera.forward();
        let mut ahead = Vec3::new(forward.x, forward.y, 0.0).normalize_or(Vec3::Y);
        if forward.truncate().length() < 1e-6 {
            // Looking straight down: the screen's up is +y.
            ahead = Vec3::Y;
        }
        let ahead = ahead.as_dvec3().normalize();
        let right = ahead.cross(DVec3::Z);
        let mut d = DVec3::ZERO;
        for key in &self.held {
            d += match key {
                Key::Right => right,
                Key::Left => -right,
                Key::Up => ahead,
                Key::Down => -ahead,
                _ => DVec3::ZERO,
            };
        }
        // Opposite keys cancel exactly; anything left is a unit direction.
        if d.length() < 1e-9 {
            return DVec3::ZERO;
        }
        d.normalize() * self.nudge_force
    }

    /// The external-force updates to apply this frame for the arrow-key nudge: the topmost mass
    /// of `positions` gets the nudge force of [`ViewerInput::nudge_direction`]; a mass nudged
    /// before that is no longer topmost (or any mass, once the keys are released) gets zero. Each
    /// entry is `(mass, force in N)`, to pass to `set_external_force`.
    pub fn nudge(&mut self, camera: &Camera, positions: &[DVec3]) -> Vec<(usize, DVec3)> {
        let force = self.nudge_direction(camera);
        let target = if force == DVec3::ZERO {
            None
        } else {
            topmost(positions)
        };
        let mut updates = Vec::new();
        if let Some(old) = self.nudged {
            if Some(old) != target {
                updates.push((old, DVec3::ZERO));
            }
        }
        if let Some(t) = target {
            updates.push((t, force));
        }
        self.nudged = target;
        updates
    }

    /// The mouse button went down at `cursor` (pixels) over an image of `width` x `height`
    /// pixels seen by `camera`: grabs the mass nearest the cursor on screen within
    /// [`ViewerInput::pick_radius`], if any.
    pub fn mouse_pressed(
        &mut self,
        cursor: Vec2,
        camera: &Camera,
        width: u32,
        height: u32,
        positions: &[DVec3],
    ) -> Option<Action> {
        let mass = pick_mass(camera, width, height, cursor, positions, self.pick_radius)?;
        self.picked = Some(mass);
        self.drag = Some(Drag {
            mass,
            anchor: positions[mass].as_vec3(),
            cursor,
        });
        Some(Action::Grab(mass))
    }

    /// The mouse moved to `cursor` (pixels).
    pub fn mouse_moved(&mut self, cursor: Vec2) {
        if let Some(drag) = &mut self.drag {
            drag.cursor = cursor;
        }
    }

    /// The mouse button went up: lets go of the dragged mass, if any.
    pub fn mouse_released(&mut self) -> Option<Action> {
        self.drag.take().map(|_| Action::Release)
    }

    /// The drag spring (SDL) pulling the dragged mass toward the point under the cursor in
    /// the plane parallel to the image through the grab point, or `None` when nothing is held.
    #[must_use]
    pub fn drag_spring(&self, camera: &Camera, width: u32, height: u32) -> Option<DragSpring> {
        let drag = self.drag.as_ref()?;
        let target = camera.point_at_depth_of(drag.cursor, width, height, drag.anchor)?;
        Some(DragSpring {
            mass: drag.mass,
            target: target.as_dvec3(),
            stiffness: self.drag_stiffness,
            damping: self.drag_damping,
        })
    }
}

/// What [`ViewerInput::throw`] reads of the world: its bodies, their centres of mass (m, one per
/// body), the point to aim at when there is no other body (m, e.g. the camera's target) and
/// gravity (m/s^2).
#[derive(Clone, Copy, Debug)]
pub struct ThrowScene<'a> {
    /// The model's bodies.
    pub bodies: &'a [Body],
    /// Centre of mass of each body, m.
    pub centres_of_mass: &'a [DVec3],
    /// Where to aim when the world has one body, m.
    pub fallback: DVec3,
    /// Gravity, m/s^2.
    pub gravity: DVec3,
}

impl ViewerInput {
    /// The throw [`Action::Throw`] asks for: the body to throw and the velocity (m/s) to give
    /// each of its free masses. The body is the picked mass's ([`ViewerInput::picked`]), or the
    /// first body when nothing is picked (or the picked mass is in no body); it is aimed at the
    /// centre of mass of the nearest other body, or at `scene.fallback` when there is none, by
    /// [`throw_velocity`] at [`ViewerInput::throw_speed`]. `None` when the world has no body, or
    /// the body is already at its target.
    #[must_use]
    pub fn throw(&self, scene: &ThrowScene<'_>) -> Option<(usize, DVec3)> {
        let picked = self
            .picked
            .and_then(|m| scene.bodies.iter().position(|b| b.masses.contains(&m)));
        let body = picked.or((!scene.bodies.is_empty()).then_some(0))?;
        let from = *scene.centres_of_mass.get(body)?;
        let nearest = (0..scene.centres_of_mass.len().min(scene.bodies.len()))
            .filter(|&b| b != body)
            .min_by(|&a, &b| {
                let (da, db) = (
                    from.distance(scene.centres_of_mass[a]),
                    from.distance(scene.centres_of_mass[b]),
                );
                da.total_cmp(&db)
            });
        let to = nearest.map_or(scene.fallback, |b| scene.centres_of_mass[b]);
        Some((
            body,
            throw_velocity(from, to, self.throw_speed, scene.gravity)?,
        ))
    }
}

/// The velocity (m/s) that carries a point from `from` to `to` (m) under `gravity` (m/s^2) in
/// `|to - from| / speed` seconds (`speed` in m/s): `v = d / T - gravity T / 2` for `d = to -
/// from`, so that `from + v T + gravity T^2 / 2 = to`. `None` when the points coincide, or for
/// a speed that is not finite and > 0 or non-finite points.
#[must_use]
pub fn throw_velocity(from: DVec3, to: DVec3, speed: f64, gravity: DVec3) -> Option<DVec3> {
    let d = to - from;
    let flight = d.length() / speed;
    if !(flight.is_finite() && flight > 0.0 && gravity.is_finite()) {
        return None;
    }
    Some(d / flight - gravity * (flight / 2.0))
}

/// The mass with the largest z (the lowest index among equals), or `None` if there are no
/// finite positions.
#[must_use]
pub fn topmost(positions: &[DVec3]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, p) in positions.iter().enumerate() {
        if p.is_finite() && best.is_none_or(|(_, z)| p.z > z) {
            best = Some((i, p.z));
        }
    }
    best.map(|(i, _)| i)
}

/// The mass whose projection is nearest `cursor` (pixels, origin top-left) in a `width` x
/// `height` image seen by `camera`, if it lies within `max_distance` pixels. Masses behind the
/// camera are ignored; between masses at the same screen distance the one nearer the eye wins.
#[must_use]
pub fn pick_mass(
    camera: &Camera,
    width: u32,
    height: u32,
    cursor: Vec2,
    positions: &[DVec3],
    max_distance: f32,
) -> Option<usize> {
    let mut best: Option<(usize, f32, f32)> = None;
    for (i, p) in positions.iter().enumerate() {
        let p = p.as_vec3();
        let Some(pixel) = camera.project(p, width, height) else {
            continue;
        };
        let d = pixel.distance(cursor);
        if d.is_nan() || d > max_distance {
            continue;
        }
        let depth = p.distance(camera.eye);
        let better = match best {
            None => true,
            Some((_, bd, bdepth)) => d < bd - 1e-3 || (d <= bd + 1e-3 && depth < bdepth),
        };
        if better {
            best = Some((i, d, depth));
        }
    }
    best.map(|(i, _, _)| i)
}

/// A camera orbiting a target point: what a viewer's mouse turns and zooms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Orbit {
    /// The point looked at, in m.
    pub target: Vec3,
    /// Distance from the target, in m (> 0).
    pub distance: f32,
    /// Azimuth in radians, counter-clockwise from +x about z (see [`Camera::orbit`]).
    pub azimuth: f32,
    /// Elevation above the ground plane in radians, kept within (-89, 89) degrees.
    pub elevation: f32,
}

impl Orbit {
    /// The orbit that reproduces a camera made by [`Camera::orbit`] or [`Camera::fit`].
    #[must_use]
    pub fn from_camera(camera: &Camera) -> Self {
        let offset = camera.eye - camera.target;
        let distance = offset.length().max(1e-6);
        Self {
            target: camera.target,
            distance,
            azimuth: offset.y.atan2(offset.x),
            elevation: (offset.z / distance).clamp(-1.0, 1.0).asin(),
        }
    }

    /// Turns by `dx`, `dy` pixels of mouse motion (0.01 rad per pixel; dragging right turns the
    /// scene right, dragging up looks from higher).
    pub fn turn(&mut self, dx: f32, dy: f32) {
        let limit = 89f32.to_radians();
        self.azimuth -= 0.01 * dx;
        self.elevation = (self.elevation + 0.01 * dy).clamp(-limit, limit);
    }

    /// Zooms by `factor` (< 1 moves closer).
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.distance = (self.distance * factor).max(1e-4);
        }
    }

    /// The camera for this orbit (clipping planes scaled with the distance).
    #[must_use]
    pub fn camera(&self) -> Camera {
        let mut c = Camera::orbit(self.target, self.distance, self.azimuth, self.elevation);
        c.near = self.distance * 0.01;
        c.far = self.distance * 100.0;
        c
    }
}
