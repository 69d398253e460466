"""The project's modules import one way: no circle of imports among them, counting imports inside functions (a
lazy import hides a circle from Python, not from the reader)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["engine", "maps", "authoring", "validations", "jobs", "hexside", "documents", "web"]


def project_modules():
    """{dotted name: path} of every module of the project's packages."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")) if (ROOT / package).is_dir() else []:
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imported(name, path, modules):
    """The project modules one module imports, at any depth of its code: the most specific module each names."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def circles(graph):
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index, low, on_stack, stack, result, counter = {}, {}, set(), [], [], [0]
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        result.append(sorted(component))
    return result


def test_the_graph_sees_imports_inside_functions():
    modules = project_modules()
    assert "maps.models" in imported("maps.tasks", modules["maps.tasks"], modules) | \
        imported("maps.api", modules["maps.api"], modules)
    assert "engine.importers.mappings" in imported("engine.importers.common", modules["engine.importers.common"],
                                                   modules)


def test_no_circle_of_imports_among_the_project_modules():
    modules = project_modules()
    graph = {name: imported(name, path, modules) for name, path in modules.items()}
    assert circles(graph) == []
