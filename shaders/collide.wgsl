// hooke::collide: the collision pass. Each colliding mass gathers the penalty, damping and
// friction forces of the masses it touches (shared/collisions.wgsl: `gather`) and writes them,
// with the penalty energy of its pairs with higher-index masses, to `touch`, which the integrate
// pass reads (and `energy_masses` for the energy). CPU twin: `Collider::collide` in
// src/cpu/collisions.rs.

@compute @workgroup_size(WORKGROUP_SIZE)
fn collide(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let slot = item(wg, groups, lid);
    if slot >= collide_params.members {
        return;
    }
    let g = gather(slot);
    let i = colliders[slot].mass;
    touch[2u * i] = vec4<Real>(g.touch.conservative, g.energy);
    touch[2u * i + 1u] = vec4<Real>(g.touch.dissipative, 0.0);
}
