// hooke: the sensor kernels' bindings (`sense_bodies`, `sense_gather`; host side in
// src/gpu/kernels/sense.rs, CPU twin src/cpu/sense.rs).
//
// `requests` (u32 words): the header (SENSE_HEADER_WORDS words, generated from the Rust side:
// pieces of bodies B, contacts C, springs S, orientation 0/1), then per piece of a body (first mass, mass count, the body's first mass), per contact its
// mass, per spring its two masses.
// `out` (f32 words): per piece SENSE_BODY_WORDS words (`sense_bodies`), then per contact 4 words
// (normal force N, touching 0/1), then per spring its length (m) (`sense_gather`).
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
