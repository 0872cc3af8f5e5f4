"""The package itself: its names, its stubs, and the README examples run as written."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

import hooke

ROOT = Path(__file__).resolve().parents[2]


def test_every_exported_name_exists() -> None:
    for name in hooke.__all__:
        assert getattr(hooke, name) is not None, name
    assert len(set(hooke.__all__)) == len(hooke.__all__)


def test_the_package_ships_its_stubs_and_the_typed_marker() -> None:
    package = Path(hooke.__file__).parent
    assert (package / "py.typed").is_file()
    stub = (package / "_hooke.pyi").read_text()
    for cls in ("Model", "Scene", "Simulation", "CpuWorld", "World", "Readings"):
        assert f"class {cls}" in stub
        assert hasattr(hooke, cls)


def test_every_stubbed_method_exists_on_the_compiled_classes() -> None:
    stub = (Path(hooke.__file__).parent / "_hooke.pyi").read_text()
    for block in re.split(r"\nclass ", stub)[1:]:
        name = block.split("(")[0].split(":")[0]
        cls = getattr(hooke, name)
        for method in re.findall(r"\n    def (\w+)\(", block):
            if method != "__init__":
                assert hasattr(cls, method), f"{name}.{method}"


@pytest.mark.parametrize("readme", ["README.md", "python/README.md"])
def test_the_readme_python_examples_run(readme: str) -> None:
    text = (ROOT / readme).read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, readme, "exec"), {})


@pytest.mark.parametrize("example", sorted((ROOT / "python" / "examples").glob("*.py")), ids=lambda p: p.name)
def test_the_python_examples_run(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.argv", [str(example)])
    runpy.run_path(str(example), run_name="__main__")
