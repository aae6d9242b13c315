"""The project's modules import each other without cycles.

The graph is read from the source with ``ast``: an edge for every import of a project module,
at module level or inside a function (a lazy import still ties the two modules together).
Importing a submodule is an edge to that submodule only, not to its parent packages' ``__init__``.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("mswp_gym", "agents", "common", "eval", "train")


def module_files() -> dict[str, Path]:
    """Dotted module name -> source file, for every module of :data:`PACKAGES`."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules that module ``name`` (source at ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in modules else base)
    return {module for module in found if module in modules and module != name}


def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def test_import_graph__reads_the_known_edges() -> None:
    graph = import_graph()
    assert "mswp_gym.board" in graph["mswp_gym.env"]
    assert "mswp_gym.vector.vector_env" in graph["mswp_gym.vector"]
    assert "agents.logic.cs50" in graph["agents.logic.indexed"]
    assert "mswp_gym.render.viewer" in graph["mswp_gym.env"]  # a lazy import counts


def test_import_graph__has_no_cycles() -> None:
    try:
        order = list(TopologicalSorter(import_graph()).static_order())
    except CycleError as err:
        pytest.fail(f"import cycle: {' -> '.join(err.args[1])}")
    assert order


LAYERS = {
    "common": ("common",),
    "mswp_gym": ("mswp_gym",),
    "agents": ("agents", "mswp_gym", "common"),
    "train": ("train", "agents", "mswp_gym", "common"),
    "eval": ("eval", "agents", "mswp_gym", "common"),
}
"""What each package may import (itself included): the env knows nothing of agents, eval or
train; the shared tools know no other package, and every package but the env may use them;
train and eval know nothing of each other."""


def test_import_graph__each_package_imports_only_the_layers_below_it() -> None:
    graph = import_graph()
    assert set(LAYERS) == set(PACKAGES)
    wrong = [
        f"{name} imports {module}"
        for name, imported in graph.items()
        for module in sorted(imported)
        if module.split(".")[0] not in LAYERS[name.split(".")[0]]
    ]
    assert not wrong, wrong
