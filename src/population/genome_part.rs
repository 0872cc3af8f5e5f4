//! [`VoxelGenome::part`]: a genome's largest face-connected piece as a [`VoxelBody`].

use std::collections::VecDeque;

use super::genome::invalid;
use super::{GenomeSettings, VoxelGenome, VoxelMaterial};
use crate::builders::{Muscle, Voxel, VoxelBody, VoxelPart};
use crate::error::Result;
use crate::model::Part;

impl VoxelGenome {
    /// The robot this genome encodes, as a [`VoxelBody`] part: the largest face-connected
    /// component of filled cells (voxels that share only an edge or a corner are not
    /// connected; ties go to the component holding the lowest cell index, x fastest), moved so
    /// that its bounding box starts at the origin (lowest voxels on the ground `z = 0`).
    ///
    /// Materials: soft and stiff voxels have the springs of
    /// [`GenomeSettings::soft_stiffness`] and [`GenomeSettings::stiff_stiffness`]; a muscle is
    /// soft material whose 28 springs are driven by a sine of relative amplitude
    /// [`GenomeSettings::muscle_amplitude`], frequency [`GenomeSettings::muscle_frequency`] and
    /// phase `p / phases` of a cycle (with [`GenomeSettings::commanded`], a commanded actuator of
    /// that amplitude instead, its value set by a controller). With
    /// [`GenomeSettings::material`], soft and muscle voxels are of that material and stiff ones
    /// of [`GenomeSettings::stiff_material`], assembled cell by cell as
    /// [`Material`](crate::Material) derives (a spring shared by two materials gets both
    /// cells' shares). A spring shared by voxels of different materials gets the
    /// stiffer one ([`Voxel::stiffness`]) and is driven by the first muscle voxel that has it (in
    /// cell order), as in [`VoxelBody`].
    ///
    /// # Errors
    /// [`GenomeSettings::validate`]'s errors naming the field; [`VoxelGenome::check`]'s;
    /// [`crate::Error::InvalidBuilder`] (builder `"genome"`) for a genome with no filled cell or
    /// a muscle phase not below [`GenomeSettings::phases`].
    pub fn part(&self, settings: &GenomeSettings) -> Result<Part> {
        Ok(self.voxel_part(settings)?.part)
    }

    /// [`VoxelGenome::part`] with the corner masses and springs of each voxel (for drawing the
    /// robot's voxels shaded: [`VoxelPart::voxel_masses`] are the cells
    /// [`RecordOptions::cells`](crate::render::RecordOptions::cells) takes). Voxels are listed in
    /// ascending cell order of the kept component.
    ///
    /// # Errors
    /// As [`VoxelGenome::part`].
    pub fn voxel_part(&self, settings: &GenomeSettings) -> Result<VoxelPart> {
        settings.validate()?;
        self.check()?;
        for (i, c) in self.cells.iter().enumerate() {
            if let VoxelMaterial::Muscle { phase } = c {
                if *phase >= settings.phases {
                    return Err(invalid(format!(
                        "cell {i} is a muscle of phase {phase}, but the settings have {} phases",
                        settings.phases
                    )));
                }
            }
        }
        let keep = self.largest_component();
        if keep.is_empty() {
            return Err(invalid(format!(
                "genome of size {:?} has no filled cell",
                self.size
            )));
        }
        let cells: Vec<[i32; 3]> = keep.iter().map(|&i| self.coords(i)).collect();
        let lo = [0, 1, 2].map(|a| cells.iter().map(|c| c[a]).min().unwrap_or(0));
        let voxels = keep
            .iter()
            .zip(&cells)
            .map(|(&i, c)| {
                let cell = [c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]];
                voxel(cell, self.cells[i], settings)
            })
            .collect();
        VoxelBody {
            voxel_size: settings.voxel_size,
            corner_mass: settings.corner_mass,
            stiffness: settings.soft_stiffness,
            damping: settings.damping,
            voxels,
            material: settings.material,
        }
        .build_voxels()
    }

    /// Coordinates of cell `i`.
    fn coords(&self, i: usize) -> [i32; 3] {
        let [nx, ny, _] = self.size.map(|s| s as usize);
        [
            (i % nx) as i32,
            ((i / nx) % ny) as i32,
            (i / (nx * ny)) as i32,
        ]
    }

    /// The cell indices (ascending) of the largest face-connected component of filled cells;
    /// ties go to the component found first (lowest cell index). Empty when nothing is filled.
    fn largest_component(&self) -> Vec<usize> {
        let [nx, ny, nz] = self.size.map(|s| s as usize);
        let filled = |i: usize| self.cells[i] != VoxelMaterial::Empty;
        let mut label = vec![usize::MAX; self.cells.len()];
        let mut best: Vec<usize> = Vec::new();
        for start in 0..self.cells.len() {
            if !filled(start) || label[start] != usize::MAX {
                continue;
            }
            let mut component = vec![start];
            label[start] = start;
            let mut queue = VecDeque::from([start]);
            while let Some(i) = queue.pop_front() {
                let [x, y, z] = self.coords(i).map(|c| c as usize);
                let neighbours = [
                    (x > 0).then(|| i - 1),
                    (x + 1 < nx).then(|| i + 1),
                    (y > 0).then(|| i - nx),
                    (y + 1 < ny).then(|| i + nx),
                    (z > 0).then(|| i - nx * ny),
                    (z + 1 < nz).then(|| i + nx * ny),
                ];
                for j in neighbours.into_iter().flatten() {
                    if filled(j) && label[j] == usize::MAX {
                        label[j] = start;
                        component.push(j);
                        queue.push_back(j);
                    }
                }
            }
            if component.len() > best.len() {
                best = component;
            }
        }
        best.sort_unstable();
        best
    }
}

/// The voxel of material `material` (filled) at `cell`.
fn voxel(cell: [i32; 3], material: VoxelMaterial, s: &GenomeSettings) -> Voxel {
    let v = Voxel::new(cell);
    if s.material.is_some() {
        return match (material, s.stiff_material) {
            (VoxelMaterial::Stiff, Some(stiff)) => v.with_material(stiff),
            (VoxelMaterial::Muscle { phase }, _) => v.with_muscle(muscle(phase, s)),
            _ => v,
        };
    }
    match material {
        VoxelMaterial::Stiff => v.with_stiffness(s.stiff_stiffness),
        VoxelMaterial::Muscle { phase } => v
            .with_stiffness(s.soft_stiffness)
            .with_muscle(muscle(phase, s)),
        VoxelMaterial::Soft | VoxelMaterial::Empty => v.with_stiffness(s.soft_stiffness),
    }
}

/// The muscle of a muscle voxel of phase `phase`.
fn muscle(phase: u8, s: &GenomeSettings) -> Muscle {
    if s.commanded {
        Muscle::commanded(s.muscle_amplitude)
    } else {
        Muscle::new(
            s.muscle_amplitude,
            std::f64::consts::TAU * s.muscle_frequency,
            f64::from(phase) / f64::from(s.phases),
        )
    }
}
