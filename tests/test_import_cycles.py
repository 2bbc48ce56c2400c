"""No import circle in bot/ or engine/, counting every import statement: those under
``TYPE_CHECKING`` and those inside functions too (import-linter's layers catch an import
that goes up, not a circle inside one layer or between modules it leaves out)."""

import graphlib

import grimp

PACKAGES = ("bot", "engine")


def import_graph(*packages: str) -> grimp.ImportGraph:
    """Every import between the modules of ``packages``, wherever it stands."""
    return grimp.build_graph(*packages, exclude_type_checking_imports=False, cache_dir=None)


def import_cycle(graph: grimp.ImportGraph) -> list[str] | None:
    """One circle of imports (its modules in order, the first again at the end), or None."""
    sorter = graphlib.TopologicalSorter(
        {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    )
    try:
        sorter.prepare()
    except graphlib.CycleError as error:
        cycle: list[str] = error.args[1]
        return list(reversed(cycle))  # graphlib lists it against the imports' direction
    return None


def test_no_import_cycle() -> None:
    cycle = import_cycle(import_graph(*PACKAGES))
    assert cycle is None, "import circle: " + " → ".join(cycle or [])


def test_a_circle_is_found_and_named() -> None:
    # engine.core imports engine.cards; the other way round closes a circle
    graph = import_graph("engine")
    graph.add_import(importer="engine.cards", imported="engine.core")
    cycle = import_cycle(graph)
    assert cycle is not None
    assert {"engine.cards", "engine.core"} <= set(cycle)
    assert cycle[0] == cycle[-1]
