"""The package's modules import one another without circles, even inside a
function: the engine and the workbook layer import nothing that imports them
back, and neither does any other module."""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "automation"

def modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imports(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules it imports, at its top or inside a function.
    ``from package import submodule`` is an import of the submodule alone."""
    edges: dict[str, set[str]] = defaultdict(set)
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                subs = [f"{node.module}.{a.name}" for a in node.names]
                targets = [s for s in subs if s in mods]
                if len(targets) < len(subs):
                    targets.append(node.module)
            else:
                continue
            edges[name] |= {t for t in targets if t in mods and t != name}
    return edges


def circles(edges: dict[str, set[str]], names: list[str]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for name in names:
        if name not in index:
            visit(name)
    return found


def test_no_module_of_the_engine_or_the_workbook_layer_is_in_an_import_circle() -> None:
    mods = modules()
    found = circles(imports(mods), sorted(mods))
    layered = [sorted(c) for c in found
               if any(m.startswith(("automation.engine", "automation.workbook", "automation.steps")) for m in c)]
    assert layered == []


def test_no_module_is_in_an_import_circle() -> None:
    """(An export and the side views it dispatches to build on the side's
    sheets, :mod:`automation.pbem.sidesheets`, not on the export; the demo
    that plays the sample builds on the sample, not the other way round.)"""
    mods = modules()
    assert [sorted(c) for c in circles(imports(mods), sorted(mods))] == []


def test_the_refit_service_audit_and_play_by_email_import_one_another_in_one_direction() -> None:
    mods = modules()
    found = circles(imports(mods), sorted(mods))
    assert not [c for c in found if "automation.service" in c or any(m.startswith("automation.audit") for m in c)]


def test_the_circle_finder_finds_a_circle_through_a_function_level_import() -> None:
    edges: dict[str, set[str]] = defaultdict(set, {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert circles(edges, ["a", "b", "c", "d"]) == [frozenset({"a", "b", "c"})]
