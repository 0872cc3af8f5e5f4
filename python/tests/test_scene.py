"""Builders and scenes: the same bodies as the Rust crate's, saved and loaded unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hooke

SCENES = Path(__file__).resolve().parents[2] / "scenes"


def test_the_cube_builder_makes_lipsons_cube() -> None:
    model = hooke.Model()
    body = model.add("cube", hooke.Cube(), position=(0.0, 0.0, 1.0))
    assert body == 0
    assert (model.mass_count, model.spring_count) == (8, 28)
    np.testing.assert_allclose(model.masses(), 0.1)
    assert model.positions()[:, 2].min() == pytest.approx(1.0)
    assert model.bodies() == [("cube", range(0, 8), range(0, 28))]


def test_builder_fields_reach_the_rust_builder() -> None:
    model = hooke.Model()
    model.add("big", hooke.Cube(size=0.5, corner_mass=2.0))
    p = model.positions()
    assert np.ptp(p[:, 0]) == pytest.approx(0.5)
    np.testing.assert_allclose(model.masses(), 2.0)


@pytest.mark.parametrize(
    "builder, masses",
    [
        (hooke.Rope(segments=10), 11),
        (hooke.Cloth(nx=5, ny=4), 20),
        (hooke.Lattice(n=3), 27),
        (hooke.VoxelBody(voxels=[{"cell": [0, 0, 0]}, {"cell": [1, 0, 0]}]), 12),
    ],
)
def test_each_builder_makes_its_masses(builder: hooke.Builder, masses: int) -> None:
    model = hooke.Model()
    model.add("body", builder)
    assert model.mass_count == masses


def test_a_placement_moves_and_launches_the_body() -> None:
    model = hooke.Model(gravity=[0.0, 0.0, 0.0])
    model.add("cube", hooke.Cube(), position=(1.0, 2.0, 3.0), velocity=(0.5, 0.0, 0.0))
    world = hooke.CpuWorld(model)
    world.step_for(1.0)
    com = world.bodies()["centre_of_mass"][0]
    np.testing.assert_allclose(com, [1.05 + 0.5, 2.05, 3.05], atol=1e-9)


def test_a_scene_round_trips_through_json_and_a_file(tmp_path: Path) -> None:
    scene = hooke.Scene("robots", dt=2e-4)
    scene.add("walker", hooke.WalkingRobot(), position=(0.0, 0.0, 0.01))
    scene.add("rope", hooke.Rope(segments=4), position=(1.0, 0.0, 0.5))
    path = tmp_path / "two.json"
    scene.save(path)
    loaded = hooke.Scene.load(path)
    again = hooke.Scene.from_json(scene.to_json())
    assert loaded.to_json() == scene.to_json() == again.to_json()
    a, b = scene.to_model(), loaded.to_model()
    assert a.dt == 2e-4
    np.testing.assert_array_equal(a.positions(), b.positions())
    assert [name for name, _, _ in a.bodies()] == ["walker", "rope"]


def test_a_scene_model_equals_the_same_builders_added_by_hand() -> None:
    scene = hooke.Scene()
    scene.add("cube", hooke.Cube(size=0.2), position=(0.0, 0.0, 1.0))
    by_hand = hooke.Model()
    by_hand.add("cube", hooke.Cube(size=0.2), position=(0.0, 0.0, 1.0))
    np.testing.assert_array_equal(scene.to_model().positions(), by_hand.positions())
    np.testing.assert_array_equal(scene.to_model().rest_lengths(), by_hand.rest_lengths())


@pytest.mark.parametrize("name", sorted(p.name for p in SCENES.glob("*.json") if p.name != "schema.json")[:6])
def test_shipped_scene_files_load_and_step(name: str) -> None:
    model = hooke.Scene.load(SCENES / name).to_model()
    assert model.mass_count > 0
    world = hooke.CpuWorld(model)
    world.step(10)
    assert np.isfinite(world.positions()).all()


def test_params_keep_the_preset_for_fields_not_given() -> None:
    robots = hooke.Model("robots").params()
    changed = hooke.Model("robots", dt=5e-5).params()
    assert changed["dt"] == 5e-5
    assert {k: v for k, v in changed.items() if k != "dt"} == {k: v for k, v in robots.items() if k != "dt"}
    assert hooke.Model().params() != robots


CUBE_OBJ = """v 0 0 0
v 0.2 0 0
v 0 0.2 0
v 0.2 0.2 0
v 0 0 0.2
v 0.2 0 0.2
v 0 0.2 0.2
v 0.2 0.2 0.2
f 1 3 4 2
f 5 6 8 7
f 1 2 6 5
f 3 7 8 4
f 1 5 7 3
f 2 4 8 6
"""


def test_a_mesh_body_voxelizes_its_file_with_its_material(tmp_path: Path) -> None:
    # A 0.2 m cube at 0.05 m voxels: 4 x 4 x 4 cells, 5^3 corners, weighing rho (0.2 m)^3.
    path = tmp_path / "cube.obj"
    path.write_text(CUBE_OBJ)
    material = {"young_modulus": 1.0e5, "density": 1000.0}
    model = hooke.Model()
    model.add("cube", hooke.MeshBody(path=path, voxel=0.05, material=material))
    assert model.mass_count == 125
    assert model.masses().sum() == pytest.approx(1000.0 * 0.2**3)
    # The last face left out: the mesh is open, and the error names the file.
    open_path = tmp_path / "open.obj"
    open_path.write_text(CUBE_OBJ.rsplit("f", 1)[0])
    with pytest.raises(hooke.MeshError, match="open.obj.*not watertight"):
        model.add("open", hooke.MeshBody(path=open_path, voxel=0.05, material=material))


# Two tetrahedra sharing a face, in millimetres, as Gmsh 4.1 writes them (a triangle element
# on the surface, which is skipped).
TWO_TETS_MSH = """$MeshFormat
4.1 0 8
$EndMeshFormat
$Nodes
1 5 1 5
3 1 0 5
1
2
3
4
5
0 0 0
10 0 0
0 10 0
0 0 10
10 10 10
$EndNodes
$Elements
2 3 1 3
2 1 2 1
1 2 3 4
3 1 4 2
2 1 2 3 4
3 2 3 4 5
$EndElements
"""


def test_a_tet_mesh_body_puts_a_mass_on_each_node_and_a_spring_on_each_edge(
    tmp_path: Path,
) -> None:
    path = tmp_path / "two.msh"
    path.write_text(TWO_TETS_MSH)
    material = {"young_modulus": 1.0e5, "density": 1000.0}
    model = hooke.Model()
    model.add("tets", hooke.TetMeshBody(path=path, material=material, scale=0.001))
    assert model.mass_count == 5
    assert model.spring_count == 9
    # Volumes 1/6 and 2/6 of (1 cm)^3.
    assert model.masses().sum() == pytest.approx(1000.0 * 0.5e-6)
    # The second tetrahedron turned inside out: the error names the file, line and element.
    inverted = tmp_path / "inverted.msh"
    inverted.write_text(TWO_TETS_MSH.replace("3 2 3 4 5", "3 3 2 4 5"))
    with pytest.raises(hooke.MeshError, match="inverted.msh.*line 24: tetrahedron 3 is inverted"):
        model.add("bad", hooke.TetMeshBody(path=inverted, material=material))
