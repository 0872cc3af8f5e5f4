//! The sensors' device side: the two sensor kernels (`sense_bodies`, `sense_gather`, compiled the
//! first time a World senses), the request table of the last [`SensorSpec`] (uploaded only when
//! the spec changes), the output buffer, and decoding it into [`Readings`]. Layout in
//! `shaders/shared/sense.wgsl`; `World::sense` (`world/sense.rs`) runs them.
//!
//! A sensor kind's GPU side is this file (its part of the request table, of the output's size
//! and of [`readings`]) and the kernel that fills its output (`shaders/sense_gather.wgsl` for a
//! per-item value, `shaders/sense_bodies.wgsl` for a per-body sum).

use glam::{DMat3, DVec3};
use wgpu::util::DeviceExt;

use crate::gpu::kernel::{Fragment, Kernel, KernelSource, Slot};
use crate::gpu::layout::SENSE_BODY_WORDS;
use crate::gpu::plan::{Dispatch, Plan};
use crate::gpu::tables::{body_piece_count, pieces_of};
use crate::sensors::{BodySums, ContactReading, Readings, SensorSpec, SpringReading};

/// The bindings both sensor kernels share (`shared/sense.wgsl`'s): the request table, the
/// masses, positions, velocities, model offsets, contacts, and the output.
const BINDINGS: [Slot; 7] = {
    use Slot::{Read, ReadWrite};
    [Read, Read, Read, Read, Read, Read, ReadWrite]
};

/// Words of the request table's header: pieces of bodies, contacts, springs, orientation
/// (WGSL `SENSE_HEADER_WORDS`).
const HEADER_WORDS: u32 = 4;

/// `sense_bodies`: one workgroup per requested piece of a body, its mass-weighted sums.
pub(crate) const BODIES: KernelSource = KernelSource {
    stem: "sense_bodies",
    fragments: &[Fragment::Common, Fragment::Sense],
    body: include_str!("../../../shaders/sense_bodies.wgsl"),
    stepped: false,
    bindings: &BINDINGS,
    consts: &[("SENSE_HEADER_WORDS", HEADER_WORDS)],
};

/// `sense_gather`: one invocation per requested contact, then spring.
pub(crate) const GATHER: KernelSource = KernelSource {
    stem: "sense_gather",
    fragments: &[Fragment::Common, Fragment::Sense],
    body: include_str!("../../../shaders/sense_gather.wgsl"),
    stepped: false,
    bindings: &BINDINGS,
    consts: &[("SENSE_HEADER_WORDS", HEADER_WORDS)],
};

/// The buffers one sense call binds besides its own tables.
pub(crate) struct SenseInputs<'a> {
    pub(crate) masses: &'a wgpu::Buffer,
    pub(crate) positions: &'a wgpu::Buffer,
    pub(crate) velocities: &'a wgpu::Buffer,
    pub(crate) model_offsets: &'a wgpu::Buffer,
    pub(crate) contacts: &'a wgpu::Buffer,
}

/// The request of one [`SensorSpec`] on the device: its table, output and bind group.
#[derive(Debug)]
pub(crate) struct SenseRequest {
    /// The spec this request was built for.
    pub(crate) spec: SensorSpec,
    /// Output bytes (what one call reads back).
    pub(crate) out_bytes: u64,
    /// Pieces of the requested bodies (`sense_bodies` workgroups).
    pub(crate) pieces: u32,
    pub(crate) out: wgpu::Buffer,
    pub(crate) group: wgpu::BindGroup,
    /// Workgroups of `sense_bodies` (one per piece of a body) and of `sense_gather`.
    pub(crate) bodies: Option<Dispatch>,
    pub(crate) gather: Option<Dispatch>,
}

/// What a World keeps for its sensors, all made on first use.
#[derive(Debug, Default)]
pub(crate) struct SenseState {
    /// The kernels and the last request.
    pub(crate) pass: Option<SensePass>,
    /// Each mass's model position less its body's model centre of mass (`vec4<Real>`, m).
    pub(crate) model_offsets: Option<wgpu::Buffer>,
    /// Whether `integrate` records contacts (compiled with `CONTACTS`).
    pub(crate) contacts: bool,
}

/// The sensor kernels and the cached request.
#[derive(Debug)]
pub(crate) struct SensePass {
    pub(crate) bodies: Kernel,
    pub(crate) gather: Kernel,
    /// The last request (rebuilt when the spec or a bound buffer changes).
    pub(crate) request: Option<SenseRequest>,
}

/// The request table's u32 words for `spec`: header (pieces P, contacts C, springs S,
/// orientation), per piece of each requested body (first mass, mass count, the body's first
/// mass: the reference its sums are taken from), per contact its mass, per spring its two
/// masses. Bodies are cut into pieces as the `bodies` kernel cuts them ([`body_piece_count`]),
/// so that no invocation loops past lavapipe's loop limit; [`body_words`] adds them up again.
/// `body_range(b)` and `spring_ends(s)` look the model up.
pub(crate) fn request_words(
    spec: &SensorSpec,
    body_range: impl Fn(usize) -> (u32, u32),
    spring_ends: impl Fn(usize) -> [u32; 2],
) -> Vec<u32> {
    let mut pieces = Vec::new();
    for &b in &spec.bodies {
        let (first, count) = body_range(b);
        let masses = first as usize..(first + count) as usize;
        for piece in pieces_of(masses) {
            pieces.extend([piece.first, piece.count, first]);
        }
    }
    let header = [
        (pieces.len() / 3) as u32,
        spec.contacts.len() as u32,
        spec.springs.len() as u32,
        u32::from(spec.orientation),
    ];
    let mut words = header.to_vec();
    debug_assert_eq!(words.len(), HEADER_WORDS as usize);
    words.extend(pieces);
    words.extend(spec.contacts.iter().map(|&m| m as u32));
    for &s in &spec.springs {
        words.extend(spring_ends(s));
    }
    words
}

/// Output words of `spec` with `pieces` pieces of bodies: per piece `SENSE_BODY_WORDS` words
/// (`sense_bodies`), then per contact 4 words (normal force N, touching 0/1), then per spring
/// its length, m (`sense_gather`).
pub(crate) fn out_words(spec: &SensorSpec, pieces: u32) -> u64 {
    u64::from(SENSE_BODY_WORDS) * u64::from(pieces)
        + 4 * spec.contacts.len() as u64
        + spec.springs.len() as u64
}

/// Each requested body's `SENSE_BODY_WORDS` output words from its pieces' (`words`, in
/// request order; `counts` are the bodies' mass counts): the sums added piece by piece in order,
/// the reference of the first (a body of one piece keeps its words' bits).
pub(crate) fn body_words(words: &[f64], counts: &[usize]) -> Vec<Vec<f64>> {
    let size = SENSE_BODY_WORDS as usize;
    let mut pieces = words.chunks_exact(size);
    counts
        .iter()
        .map(|&count| {
            let mut body = pieces.next().expect("a piece per body").to_vec();
            for _ in 1..body_piece_count(count) {
                let more = pieces.next().expect("every piece");
                // The sums; the last four words are the reference (the first piece's).
                for (w, m) in body[..size - 4].iter_mut().zip(more) {
                    *w += m;
                }
            }
            body
        })
        .collect()
}

impl SenseRequest {
    /// Uploads `words` (the request table of `spec`) and binds it with `inputs` and a new output.
    pub(crate) fn new(
        device: &wgpu::Device,
        kernel: &Kernel,
        spec: &SensorSpec,
        words: &[u32],
        inputs: &SenseInputs<'_>,
        plan: &Plan,
    ) -> crate::Result<Self> {
        let requests = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("hooke::sense_requests"),
            contents: bytemuck::cast_slice(words),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let out_bytes = plan.precision.real_bytes() * out_words(spec, words[0]);
        let out = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::sense_out"),
            size: out_bytes.max(16),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let resources = [
            &requests,
            inputs.masses,
            inputs.positions,
            inputs.velocities,
            inputs.model_offsets,
            inputs.contacts,
            &out,
        ];
        let entries: Vec<wgpu::BindGroupEntry> = resources
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("hooke::sense"),
            layout: &kernel.layout,
            entries: &entries,
        });
        let items = (spec.contacts.len() + spec.springs.len()) as u64;
        Ok(Self {
            spec: spec.clone(),
            out_bytes,
            pieces: words[0],
            out,
            group,
            bodies: if spec.bodies.is_empty() {
                None
            } else {
                Some(plan.dispatch(u64::from(words[0]), 1, "sense_bodies workgroups")?)
            },
            gather: if items == 0 {
                None
            } else {
                let per = u64::from(plan.granularity.workgroup_size);
                Some(plan.dispatch(items, per, "sense_gather workgroups")?)
            },
        })
    }
}

/// The readings of `spec` from the output words `words` of its request with `pieces` pieces of
/// bodies: the bodies (`counts`: each requested body's mass count), the contacts, and the
/// springs (their rest lengths from `rest_lengths` of the requested springs).
pub(crate) fn readings(
    spec: &SensorSpec,
    words: &[f64],
    pieces: u32,
    counts: &[usize],
    rest_lengths: impl FnOnce(&[usize]) -> Vec<f64>,
    time: f64,
) -> Readings {
    let pieces = SENSE_BODY_WORDS as usize * pieces as usize;
    let (bodies, rest) = words.split_at(pieces);
    let (contacts, lengths) = rest.split_at(4 * spec.contacts.len());
    let springs = if spec.springs.is_empty() {
        Vec::new()
    } else {
        lengths
            .iter()
            .zip(rest_lengths(&spec.springs))
            .map(|(&l, rest)| SpringReading::new(l, rest))
            .collect()
    };
    Readings {
        time,
        bodies: body_words(bodies, counts)
            .iter()
            .map(|w| body_sums(w).reading(spec.orientation))
            .collect(),
        contacts: contacts.chunks_exact(4).map(contact).collect(),
        springs,
    }
}

/// The sums of one body from its `SENSE_BODY_WORDS` output words.
pub(crate) fn body_sums(w: &[f64]) -> BodySums {
    let v = |k: usize| DVec3::new(w[4 * k], w[4 * k + 1], w[4 * k + 2]);
    let d = v(3);
    let o = v(4);
    BodySums {
        reference: v(8),
        mass: w[3],
        moment: v(0),
        momentum: v(1),
        angular: v(2),
        second: DMat3::from_cols(
            DVec3::new(d.x, o.x, o.y),
            DVec3::new(o.x, d.y, o.z),
            DVec3::new(o.y, o.z, d.z),
        ),
        // Rows 5, 6, 7 are the rows of m r (X - C)^T.
        shape: DMat3::from_cols(v(5), v(6), v(7)).transpose(),
    }
}

/// A contact from its 4 output words.
pub(crate) fn contact(w: &[f64]) -> ContactReading {
    ContactReading {
        touching: w[3] != 0.0,
        normal_force: DVec3::new(w[0], w[1], w[2]),
    }
}
