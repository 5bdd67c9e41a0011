"""Rules of the code's shape: no import cycles in ``rag/`` (imports inside functions count), nothing in ``rag/``
imports the facade or Streamlit, the few top-level modules the README's module map names, and no module named
after a standard-library module."""
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RAG = ROOT / "rag"
TOP_LEVEL = {"__init__", "__main__", "settings", "errors", "types", "cli", "service", "pipeline"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every rag module ``path`` imports, anywhere in the file (relative imports resolved)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "rag"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "rag":
                continue
            out.add(target)
            for a in node.names:  # "from . import bm25" imports a module
                if (RAG.parent / (target + "." + a.name).replace(".", "/")).with_suffix(".py").exists():
                    out.add(f"{target}.{a.name}")
    return out


def graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in RAG.rglob("*.py")}
    g = {m: {i for i in imports(p) if i in files and i != m} for m, p in files.items()}
    for m in files:  # a module imports its package's __init__ first
        parent = m.rsplit(".", 1)[0]
        if "." in m and parent in files and parent != m and not m.endswith("__init__"):
            g[m].add(parent)
    return g


def find_cycle(g: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(g[m]):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(g):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_no_import_cycles_in_rag():
    g = graph()
    # a package's __init__ importing its own modules is how packages work, not a cycle of ideas
    g = {m: {n for n in deps if not (n.startswith(m + ".") and m.count(".") >= 1)} for m, deps in g.items()}
    cycle = find_cycle(g)
    assert cycle is None, "import cycle: " + " → ".join(cycle)


def test_nothing_in_rag_imports_the_facade_or_streamlit():
    for p in RAG.rglob("*.py"):
        if p.name == "cli.py" and p.parent == RAG:
            continue  # the command line builds the facade
        deps = imports(p)
        assert "rag.service" not in deps, f"{p.relative_to(ROOT)} imports rag.service"
        assert "import streamlit" not in p.read_text(encoding="utf-8"), p


def test_top_level_modules_are_the_few_the_module_map_names():
    top = {p.stem for p in RAG.glob("*.py")}
    assert top <= TOP_LEVEL, (
        f"top-level modules besides the facade, settings, errors, types, cli, pipeline: {top - TOP_LEVEL}"
    )


def test_no_module_shadows_the_standard_library():
    # rag.types is the design's name for the typed values (always imported as rag.types / .types)
    names = {p.stem for p in RAG.rglob("*.py")} - {"__init__", "__main__", "types"}
    assert not names & set(sys.stdlib_module_names), names & set(sys.stdlib_module_names)


def test_every_package_has_a_docstring_that_maps_it():
    for init in RAG.rglob("__init__.py"):
        tree = ast.parse(init.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{init.relative_to(ROOT)} has no docstring"
