// hooke::springs, stencil variant, muscles set before the walk: appended to springs_stencil.wgsl
// when the World books no energy and actuators drive springs held in stencil slots (MUSCLES_SET).
// The slots of mass a are read only by the invocation that walks a, so that invocation may write
// them first: it evaluates each muscle of its masses' slots (`muscle_rest`, the function the
// link table's `actuate` calls, so the same bits), records it in the actuator's `current`, and
// stores it in its slot, where the walk reads it as a plain rest length. The walk then has no
// actuator branch, which the lanes of an invocation group would all pay for whenever one of them
// met a muscle. The host's twin is `Drive::set_muscles` (src/cpu/actuation.rs).

// The muscles held in slots of mass a are entries muscle_starts[a] .. muscle_starts[a + 1] of
// `muscle_slots` (masses + 1 entries).
@group(0) @binding(13) var<storage, read> muscle_starts: array<u32>;
// Per muscle: its actuator index and its slot's element (in reals) of the `stencil` table.
@group(0) @binding(14) var<storage, read> muscle_slots: array<vec2<u32>>;

// Writes the rest lengths (m) of the muscles in the slots of masses a0 .. a0 + count into those
// slots and their actuators' `current`, at the step's time.
fn set_muscles(a0: u32, count: u32) {
    let end = muscle_starts[a0 + count];
    for (var m = muscle_starts[a0]; m < end; m += 1u) {
        let muscle = muscle_slots[m];
        let rest = muscle_rest(muscle.x);
        actuator_table[muscle.x].current = rest;
        // Only the slot's part of its word is written (the other half of a 64-bit word is
        // read back first).
        let w = muscle.y / 4u;
        let c = muscle.y % 4u;
        let part = c * SLOT_PARTS / 4u;
        var old = SlotPart();
        if SLOT_PARTS < 4u {
            old = stencil[w][part];
        }
        stencil[w][part] = slot_merge(old, rest, c);
    }
}
