// hooke: helpers of the two kernels that walk the link table (`springs`, `energy_springs`),
// prepended after `common.wgsl`. Both declare `material_table` and `link_materials`.

// The material of the link at index `i` of the bound chunk (the compiled-in one when the model
// has only one; `link_materials` is then not read).
fn link_material(i: u32) -> GpuMaterial {
    if UNIFORM_MATERIAL {
        return GpuMaterial(MATERIAL_STIFFNESS, MATERIAL_DAMPING, MATERIAL_LAW, 0u);
    }
    return material_table[link_materials[i]];
}

// Whether `link` is driven by an actuator (its `rest` is then the actuator index).
fn is_actuated(link: GpuLink) -> bool {
    return HAS_ACTUATORS && (link.b & LINK_ACTUATED) != 0u;
}

// The second mass of `link`.
fn link_mass(link: GpuLink) -> u32 {
    return link.b & ~LINK_ACTUATED;
}

// The j-th mass of invocation `lid` of workgroup `group` in the spring pass and
// `energy_springs` (see `walk`).
fn spring_pass_mass(group: u32, lid: u32, j: u32) -> u32 {
    return chunk.first_mass + walk(group, lid, j, SPRING_MASSES_PER_INVOCATION);
}
