// hooke: helpers of the two kernels that walk the spring table (`springs`, `energy_springs`),
// prepended after `common.wgsl`. Both declare `material_table`.

// The material of spring `sp` (the compiled-in one when the model has only one).
fn spring_material(sp: GpuSpring) -> GpuMaterial {
    if UNIFORM_MATERIAL {
        return GpuMaterial(MATERIAL_STIFFNESS, MATERIAL_DAMPING, MATERIAL_LAW, 0u);
    }
    return material_table[sp.material & ~SPRING_ACTUATED];
}

// Whether spring `sp` is driven by an actuator (its `rest` is then the actuator index).
fn is_actuated(sp: GpuSpring) -> bool {
    return HAS_ACTUATORS && (sp.material & SPRING_ACTUATED) != 0u;
}
