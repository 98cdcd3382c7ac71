"""The conformance laws (shipped in ``engine.conformance``, run by ``puzzle check``) against every
installed puzzle, one test per puzzle and law.

Parametrised over whatever the registry loaded (``PUZZLE_ENGINE_PLUGINS`` narrows it). The laws
themselves, and the proof that they catch broken plugins, are in ``engine/conformance`` and
``tests/test_plugin_kit.py``.
"""

from __future__ import annotations

import pytest

from engine.conformance import check_law, law_names
from engine.plugins import load_registry

REGISTRY = load_registry()
PUZZLE_IDS = sorted(REGISTRY.puzzles)
EXAMPLES = 60

pytestmark = pytest.mark.skipif(not PUZZLE_IDS, reason="no puzzle plugin is installed")


@pytest.mark.parametrize("law", law_names())
@pytest.mark.parametrize("puzzle_id", PUZZLE_IDS)
def test_puzzle_obeys_law(puzzle_id, law):
    result = check_law(puzzle_id, law, registry=REGISTRY, examples=EXAMPLES, seed=0)
    if result.status == "skip":
        pytest.skip(result.message)
    assert result.status == "pass", result.text()
