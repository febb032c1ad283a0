"""One-way imports in ``domain/`` and ``projections/``: no module imports, directly or through others, a
module that imports it back.

Every import counts, at module level and inside functions alike (an import inside a function only hides a
circle from the interpreter, not from the design); imports under ``if TYPE_CHECKING:`` do not, since they are
never run. Among the modules outside ``domain/abilities`` there must be no circle at all. Circles through
``domain/abilities`` are known while that package is rewritten: the modules outside it that still stand on
such a circle are listed in ``KNOWN_THROUGH_ABILITIES``, and the list may only shrink.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "projections")
ABILITIES = "domain.abilities"

# Modules outside domain/abilities that stand on an import circle through it. The circle closes because the
# abilities import domain.answers and domain.combat, while domain.recorder hands each event to
# domain.abilities.triggers. (domain.facts no longer asks domain.abilities.constants: the constants register
# what they add with it.) Remove a name when its module leaves the circle; never add one.
KNOWN_THROUGH_ABILITIES = frozenset(
    {
        "domain.answers",
        "domain.combat",
        "domain.recorder",
    }
)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child):
            for other in child.orelse:
                yield from _imports(other)
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        yield from _imports(child)


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``name`` imports, anywhere in its file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        out |= {t for t in targets if t in known and t != name}
    return out


def graph() -> dict[str, set[str]]:
    found = modules()
    names = set(found)
    return {name: imported(name, path, names) for name, path in found.items()}


def strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """The circles of ``edges``: its strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(component)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def in_abilities(name: str) -> bool:
    return name == ABILITIES or name.startswith(ABILITIES + ".")


def a_cycle(component: set[str], edges: dict[str, set[str]]) -> list[str]:
    """One circle inside ``component``, as the modules along it (for the failure message)."""
    start = min(component)
    path, seen = [start], {start}
    while True:
        nxt = min(w for w in edges[path[-1]] if w in component)
        if nxt in seen:
            return [*path[path.index(nxt) :], nxt]
        path.append(nxt)
        seen.add(nxt)


def test_the_graph_sees_the_packages() -> None:
    edges = graph()
    assert "domain.engine" in edges and "projections.views" in edges
    assert "domain.state" in edges["domain.evolve"]  # a plain module-level import is an edge
    assert "domain.abilities.triggers" in edges["domain.recorder"]  # so is one inside a function


def test_no_import_circle_outside_the_abilities() -> None:
    edges = graph()
    outside = {n: {t for t in ts if not in_abilities(t)} for n, ts in edges.items() if not in_abilities(n)}
    circles = [" -> ".join(a_cycle(c, outside)) for c in strongly_connected(outside)]
    assert circles == [], "import circles among domain/ and projections/ modules:\n" + "\n".join(circles)


def test_circles_through_the_abilities_only_shrink() -> None:
    edges = graph()
    on_circle = {n for c in strongly_connected(edges) for n in c if not in_abilities(n)}
    new = sorted(on_circle - KNOWN_THROUGH_ABILITIES)
    assert new == [], f"modules newly on an import circle through domain/abilities: {new}"
    left = sorted(KNOWN_THROUGH_ABILITIES - on_circle)
    assert left == [], f"no longer on a circle through domain/abilities: remove from the known list: {left}"


def test_the_cycle_finder_finds_a_circle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert strongly_connected(edges) == [{"a", "b", "c"}]
    assert a_cycle({"a", "b", "c"}, edges) == ["a", "b", "c", "a"]
