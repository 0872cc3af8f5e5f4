// hooke: the sensor kernels' bindings (`sense_bodies`, `sense_gather`; host side in
// src/gpu/kernels/sense.rs, CPU twin src/cpu/sense.rs).
//
// `requests` (u32 words): the request table, and `out` (Real words): what the kernels write, in
// the layout `request_words` and `readings` of src/gpu/kernels/sense.rs document (its header is
// SENSE_HEADER_WORDS words, a constant generated from there).
@group(0) @binding(0) var<storage, read> requests: array<u32>;
@group(0) @binding(1) var<storage, read> mass_table: array<GpuMass>;
@group(0) @binding(2) var<storage, read> positions: array<vec4<Real>>;
@group(0) @binding(3) var<storage, read> velocities: array<vec4<Real>>;
// Each mass's model position less its body's model centre of mass (X - C), m; read only with
// orientation (a placeholder until a sensor asks for it).
@group(0) @binding(4) var<storage, read> model_offsets: array<vec4<Real>>;
// `integrate`'s contact records (a placeholder until a sensor asks for contacts).
@group(0) @binding(5) var<storage, read> contacts: array<vec4<Real>>;
@group(0) @binding(6) var<storage, read_write> out: array<Real>;
