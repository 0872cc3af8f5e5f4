//! Scene and population files of hundreds of MB are refused before they are read, naming the
//! file, its size and the limit. The files are sparse (a length set, no bytes written), so the
//! tests take no disk space and no time.

use std::path::{Path, PathBuf};

use hooke::{Error, Scene, DEFAULT_MAX_INPUT_BYTES};

/// A sparse file of `bytes` bytes at `dir/name`.
fn sparse(dir: &Path, name: &str, bytes: u64) -> PathBuf {
    let path = dir.join(name);
    std::fs::File::create(&path)
        .unwrap()
        .set_len(bytes)
        .unwrap();
    path
}

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("huge_files")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const HUNDREDS_OF_MB: u64 = 300 << 20;

#[test]
fn a_scene_of_hundreds_of_mb_is_refused_naming_file_size_and_limit() {
    let dir = scratch("scene");
    let path = sparse(&dir, "huge_scene.json", HUNDREDS_OF_MB);
    let e = Scene::load(&path).unwrap_err();
    assert!(
        matches!(e, Error::InputTooLarge { size, limit, .. } if size == HUNDREDS_OF_MB && limit == DEFAULT_MAX_INPUT_BYTES),
        "{e}"
    );
    let message = e.to_string();
    for part in [
        "huge_scene.json",
        "314572800 bytes",
        "67108864",
        "HOOKE_MAX_INPUT_BYTES",
    ] {
        assert!(message.contains(part), "{part:?} not in: {message}");
    }
    // The limit given explicitly: the same file passes a larger one (and then fails as JSON).
    let e = hooke::read_input_with_limit(&path, HUNDREDS_OF_MB - 1).unwrap_err();
    assert!(matches!(e, Error::InputTooLarge { .. }), "{e}");
}

#[cfg(feature = "cli")]
mod cli {
    use super::*;
    use crate::common::command::{command, stderr};

    /// `hooke eval` and `hooke run` refuse the file by name; HOOKE_MAX_INPUT_BYTES lowers the
    /// limit (and so raises it too), and a bad value of it is named.
    #[test]
    fn hooke_refuses_huge_population_and_scene_files() {
        let dir = scratch("cli");
        let population = sparse(&dir, "huge_population.json", HUNDREDS_OF_MB);
        let out_file = dir.join("results.json");
        let out = command(&[
            "eval",
            population.to_str().unwrap(),
            "--backend",
            "cpu",
            "--out",
        ])
        .arg(&out_file)
        .output()
        .unwrap();
        assert!(!out.status.success());
        let message = stderr(&out);
        for part in [
            "huge_population.json",
            "314572800 bytes",
            "HOOKE_MAX_INPUT_BYTES",
        ] {
            assert!(message.contains(part), "{part:?} not in: {message}");
        }
        assert!(
            !out_file.exists(),
            "a results file was written for a refused input"
        );

        let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/cube.json");
        let trace = dir.join("trace.csv");
        let run = |limit: &str| {
            command(&[
                "run",
                scene.to_str().unwrap(),
                "--duration",
                "0.001",
                "--csv",
            ])
            .arg(&trace)
            .env("HOOKE_MAX_INPUT_BYTES", limit)
            .output()
            .unwrap()
        };
        let small = run("100");
        assert!(!small.status.success());
        assert!(
            stderr(&small).contains("above the limit of 100 bytes"),
            "{}",
            stderr(&small)
        );
        let bad = run("lots");
        assert!(!bad.status.success());
        assert!(
            stderr(&bad).contains("HOOKE_MAX_INPUT_BYTES"),
            "{}",
            stderr(&bad)
        );
        let large = run("1000000");
        assert!(large.status.success(), "{}", stderr(&large));
    }
}

/// CRC-32 (ISO-HDLC, as PNG chunks carry it) of `bytes`, bit by bit.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A PNG file of 65 bytes whose header claims a `width x height` 8-bit grey picture: the
/// signature, a valid IHDR chunk, an IDAT chunk of no pixels and IEND.
fn png_header_claiming(width: u32, height: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8], data: &[u8]| {
        png.extend_from_slice(&u32::try_from(data.len()).unwrap().to_be_bytes());
        let typed: Vec<u8> = kind.iter().chain(data).copied().collect();
        png.extend_from_slice(&typed);
        png.extend_from_slice(&crc32(&typed).to_be_bytes());
    };
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]); // 8-bit grey, deflate, no filter, no interlace
    chunk(b"IHDR", &ihdr);
    // The decoder reads the header up to the first IDAT: one holding an empty zlib stream.
    chunk(b"IDAT", &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
    chunk(b"IEND", &[]);
    png
}

/// An image body's picture whose header claims 100 000 x 100 000 pixels (10 GB decoded) is
/// refused from the header, naming the file and the dimensions, in a scene file too; a
/// picture file of hundreds of MB is refused by the input-file limit before it is read.
#[test]
fn image_bodies_refuse_huge_pictures_before_decoding() {
    use hooke::builders::MAX_IMAGE_PIXELS;
    use hooke::ImageBody;
    let dir = scratch("image");
    let claim = dir.join("claims_huge.png");
    std::fs::write(&claim, png_header_claiming(100_000, 100_000)).unwrap();
    let e = ImageBody::default().from_path(&claim).unwrap_err();
    assert!(
        matches!(e, Error::ImageTooLarge { width: 100_000, height: 100_000, limit, .. } if limit == MAX_IMAGE_PIXELS),
        "{e}"
    );
    let message = e.to_string();
    for part in ["claims_huge.png", "100000 x 100000", "16777216"] {
        assert!(message.contains(part), "{part:?} not in: {message}");
    }
    // Just above the limit is refused, and a header at the limit gets past the check (then
    // fails to decode: the file has no pixel data), so the bound is the one documented.
    let side = 1u32 << 12;
    std::fs::write(&claim, png_header_claiming(side, side + 1)).unwrap();
    let e = ImageBody::default().from_path(&claim).unwrap_err();
    assert!(matches!(e, Error::ImageTooLarge { .. }), "{e}");
    std::fs::write(&claim, png_header_claiming(side, side)).unwrap();
    let e = ImageBody::default().from_path(&claim).unwrap_err();
    assert!(matches!(e, Error::Image { .. }), "{e}");

    std::fs::write(&claim, png_header_claiming(100_000, 100_000)).unwrap();
    let scene = dir.join("scene.json");
    std::fs::write(
        &scene,
        r#"{"version": 1, "bodies": [{"body": {"type": "image", "path": "claims_huge.png"}}]}"#,
    )
    .unwrap();
    let e = Scene::load(&scene).unwrap().to_model().unwrap_err();
    assert!(matches!(e, Error::ImageTooLarge { .. }), "{e}");

    let huge = sparse(&dir, "huge_picture.png", HUNDREDS_OF_MB);
    let e = ImageBody::default().from_path(&huge).unwrap_err();
    assert!(
        matches!(e, Error::InputTooLarge { size, .. } if size == HUNDREDS_OF_MB),
        "{e}"
    );
    assert!(e.to_string().contains("huge_picture.png"), "{e}");
}
