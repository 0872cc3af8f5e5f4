"""hooke.Material: hooke's own materials (the named table, the checks), accepted by every solid
builder's ``material=`` and giving the model the scene JSON and the Rust builder give."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

import hooke


def grey_png(rows: list[str]) -> bytes:
    """An 8-bit grey PNG: '#' black, '.' white."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + bytes(0 if c == "#" else 255 for c in row) for row in rows)
    ihdr = struct.pack(">IIBBBBB", len(rows[0]), len(rows), 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def model_of(builder: hooke.Builder) -> hooke.Model:
    model = hooke.Model()
    model.add("body", builder)
    return model


def same_model(a: hooke.Model, b: hooke.Model) -> None:
    for array in ("positions", "masses", "springs", "stiffness", "damping", "rest_lengths"):
        np.testing.assert_array_equal(getattr(a, array)(), getattr(b, array)(), err_msg=array)


def test_the_named_materials_are_hookes_table() -> None:
    names = hooke.Material.names()
    assert {"ecoflex_00_30", "dragon_skin_30", "ninjaflex_tpu", "plastazote_ld33"} <= set(names)
    ecoflex = hooke.Material.named("ecoflex_00_30")
    assert (ecoflex.young_modulus, ecoflex.density, ecoflex.damping_ratio) == (69e3, 1070.0, 0.0)
    foam = hooke.Material.named("plastazote_ld33")
    assert (foam.young_modulus, foam.density) == (160e3, 33.0)
    damped = ecoflex.with_damping_ratio(0.1)
    assert damped.damping_ratio == 0.1 and damped != ecoflex
    assert damped == hooke.Material(69e3, 1070.0, damping_ratio=0.1)
    assert damped.to_dict() == {"young_modulus": 69e3, "density": 1070.0, "damping_ratio": 0.1}
    edge, face, body = hooke.Material(1e6, 1000.0).cubic_stiffness(0.01)
    assert (edge, face, body) == pytest.approx((22e4 / 35, 6e4 / 35, 6e4 / 35), rel=1e-12)


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: hooke.Material(-1.0, 1000.0), "material.young_modulus"),
        (lambda: hooke.Material(1e6, float("nan")), "material.density"),
        (lambda: hooke.Material(1e6, 1000.0, damping_ratio=-0.5), "material.damping_ratio"),
        (lambda: hooke.Material.named("ecoflex_00_30").with_damping_ratio(float("inf")), "material.damping_ratio"),
    ],
)
def test_bad_values_are_errors_naming_the_field(make: object, field: str) -> None:
    with pytest.raises(hooke.InvalidParameterError, match=field):
        make()  # type: ignore[operator]


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(hooke.InvalidBuilderError, match="unobtainium") as e:
        hooke.Material.named("unobtainium")
    assert "ecoflex_00_30" in str(e.value)


def test_cubes_voxels_and_lattices_take_a_material_as_the_scene_json_does() -> None:
    dragon = hooke.Material.named("dragon_skin_10").with_damping_ratio(0.05)
    as_json = {"young_modulus": dragon.young_modulus, "density": dragon.density, "damping_ratio": 0.05}
    voxels = [{"cell": [0, 0, 0]}, {"cell": [1, 0, 0]}, {"cell": [1, 1, 0], "material": hooke.Material.named("ninjaflex_tpu")}]
    voxels_json = json.loads(json.dumps(voxels, default=lambda m: m.to_dict()))
    for with_class, with_dict in [
        (hooke.Cube(size=0.02, material=dragon), hooke.Cube(size=0.02, material=as_json)),
        (hooke.VoxelBody(voxel_size=0.01, voxels=voxels, material=dragon), hooke.VoxelBody(voxel_size=0.01, voxels=voxels_json, material=as_json)),
        (hooke.Lattice(n=3, spacing=0.01, material=dragon), hooke.Lattice(n=3, spacing=0.01, material=as_json)),
    ]:
        same_model(model_of(with_class), model_of(with_dict))
        scene = hooke.Scene()
        scene.add("body", with_class)
        same_model(hooke.Scene.from_json(scene.to_json()).to_model(), model_of(with_dict))
    # A name works as well as the class.
    same_model(model_of(hooke.Cube(material="ecoflex_00_30")), model_of(hooke.Cube(material=hooke.Material.named("ecoflex_00_30"))))


def test_a_cube_of_a_material_is_one_cell_of_the_rust_assembly() -> None:
    m = hooke.Material(2e5, 1200.0, damping_ratio=0.2)
    a = 0.02
    model = model_of(hooke.Cube(size=a, material=m))
    np.testing.assert_allclose(model.masses(), 1200.0 * a**3 / 8, rtol=1e-15)
    edge, face, body = m.cubic_stiffness(a)
    lengths = model.rest_lengths()
    expected = np.where(lengths < 1.2 * a, edge / 4, np.where(lengths < 1.5 * a, face / 2, body))
    np.testing.assert_allclose(model.stiffness(), expected, rtol=1e-12)
    corner = 1200.0 * a**3 / 8
    np.testing.assert_allclose(model.damping(), 2 * 0.2 * np.sqrt(expected * corner / 2), rtol=1e-12)


def test_an_image_body_of_a_material_is_a_sheet_of_pixels(tmp_path: Path) -> None:
    picture = tmp_path / "shape.png"
    picture.write_bytes(grey_png(["###.", "####", ".##."]))
    s = 0.01
    tpu = hooke.Material.named("ninjaflex_tpu")
    model = model_of(hooke.ImageBody(path=str(picture), spacing=s, material=tpu))
    assert model.mass_count == 9
    np.testing.assert_allclose(model.masses(), tpu.density * s**3, rtol=1e-15)
    diagonal = model.rest_lengths() > 1.2 * s
    np.testing.assert_allclose(model.stiffness(), np.where(diagonal, 3 / 8, 3 / 4) * tpu.young_modulus * s, rtol=1e-12)
    scene = {"version": 1, "bodies": [{"body": {"type": "image", "path": "shape.png", "spacing": s, "material": "ninjaflex_tpu"}}]}
    (tmp_path / "scene.json").write_text(json.dumps(scene))
    same_model(hooke.Scene.load(tmp_path / "scene.json").to_model(), model)


def test_a_field_json_cannot_write_is_named() -> None:
    with pytest.raises(TypeError, match="object"):
        model_of(hooke.Cube(material=object()))
