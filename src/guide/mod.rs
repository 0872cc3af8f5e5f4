// The guide: each chapter is a Markdown file beside this one, shown as a module of its own so that
// docs.rs lists it beside the API and `cargo test` compiles and runs its code like any other
// doctest. These modules hold no items; README.md (this folder's) is the table of contents.
#![doc = include_str!("README.md")]

pub mod concepts {
    #![doc = include_str!("concepts.md")]
}

pub mod backends {
    #![doc = include_str!("backends.md")]
}

pub mod determinism {
    #![doc = include_str!("determinism.md")]
}

pub mod scenes {
    #![doc = include_str!("scenes.md")]
}

pub mod materials {
    #![doc = include_str!("materials.md")]
}

pub mod meshes {
    #![doc = include_str!("meshes.md")]
}

pub mod terrain {
    #![doc = include_str!("terrain.md")]
}

pub mod collisions {
    #![doc = include_str!("collisions.md")]
}

pub mod control {
    #![doc = include_str!("control.md")]
}

pub mod populations {
    #![doc = include_str!("populations.md")]
}

pub mod cli {
    #![doc = include_str!("cli.md")]
}

pub mod clusters {
    #![doc = include_str!("clusters.md")]
}

pub mod pictures {
    #![doc = include_str!("pictures.md")]
}

pub mod performance {
    #![doc = include_str!("performance.md")]
}

pub mod troubleshooting {
    #![doc = include_str!("troubleshooting.md")]
}
