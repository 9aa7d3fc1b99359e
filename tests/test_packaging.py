"""What a wheel holds: every subpackage of the source is listed in pyproject.toml.

The packages are listed by hand (``[tool.setuptools] packages``), and an
editable install finds a missing one anyway, so only a built wheel (``pip
install .``, the README's set-up) shows the gap: ``bakersdozen play`` failed
there with ``No module named 'bakersdozen.play'``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_in_the_wheel() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("not run from a checkout")
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    source = ROOT / "src"
    found = {
        ".".join(init.parent.relative_to(source).parts)
        for init in (source / "bakersdozen").rglob("__init__.py")
    }
    assert found - listed == set(), "subpackages missing from pyproject.toml's packages"
    assert listed - found == set(), "pyproject.toml lists packages that do not exist"
    import bakersdozen

    installed = Path(bakersdozen.__file__).parent.parent
    assert [name for name in sorted(found)
            if not installed.joinpath(*name.split("."), "__init__.py").exists()] == []
