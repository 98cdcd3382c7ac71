"""The conformance laws (shipped in ``engine.conformance``, run by ``puzzle check``) against every
installed puzzle, one test per puzzle and law.

Parametrised over whatever the registry loaded (``PUZZLE_ENGINE_PLUGINS`` narrows it); loading none
is a failure, not a quiet pass. The laws themselves, and the proof that they catch broken
plugins, are in ``engine/conformance`` and ``tests/test_plugin_kit.py``.
"""

from __future__ import annotations

import pytest

from engine.conformance import check_law, law_names
from engine.plugins import load_registry

REGISTRY = load_registry()
PUZZLE_IDS = sorted(REGISTRY.puzzles)
EXAMPLES = 60


def test_some_puzzle_is_installed():
    # Without this, a broken install (no entry points, every plugin failing to import) would
    # parametrise the laws over nothing and pass quietly.
    why = "; ".join(f"{p.name}: {p.error}" for p in REGISTRY.failures()) or "no plugin failed"
    assert PUZZLE_IDS, (f"no puzzle plugin loaded, so no conformance law ran ({why}); "
                        "is the package installed (pip install -e .) and PUZZLE_ENGINE_PLUGINS right?")


@pytest.mark.parametrize("law", law_names())
@pytest.mark.parametrize("puzzle_id", PUZZLE_IDS)
def test_puzzle_obeys_law(puzzle_id, law):
    result = check_law(puzzle_id, law, registry=REGISTRY, examples=EXAMPLES, seed=0)
    if result.status == "skip":
        pytest.skip(result.message)
    assert result.status == "pass", result.text()
