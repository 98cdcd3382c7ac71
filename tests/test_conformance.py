"""The conformance suite: the laws every installed puzzle must obey, built-in or third-party.

Parametrised over whatever the registry loaded (``PUZZLE_ENGINE_PLUGINS`` narrows it), so a
plugin author runs exactly these tests against their own package.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import EditResult, InputError, Solved, SolveContext
from engine.plugins import load_registry
from engine.solving import replay, run_solver

REGISTRY = load_registry()
PUZZLE_IDS = sorted(REGISTRY.puzzles)
SEEDS = (0, 1, 2)
SOLVE_SECONDS = 60
JUNK = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))

pytestmark = pytest.mark.skipif(not PUZZLE_IDS, reason="no puzzle plugin is installed")


@pytest.fixture(params=PUZZLE_IDS)
def puzzle(request):
    return REGISTRY.puzzle(request.param)


def instances(puzzle):
    """Every preset and a few seeded random instances."""
    found = [puzzle.parse(text) for text in puzzle.presets().values()]
    found += [puzzle.random(seed) for seed in SEEDS]
    return found


def parse_svg(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg"), root.tag
    assert root.get("viewBox"), "the SVG has no viewBox"
    for el in root.iter():
        # Escaped user text can never become markup: no scripts, no event handlers.
        assert not el.tag.endswith("script"), "an SVG board must not carry scripts"
        assert not any(name.lower().startswith("on") for name in el.attrib), el.attrib
    return root


def test_identity_is_complete(puzzle):
    assert puzzle.id.replace("_", "").replace("-", "").isalnum()
    for attr in ("title", "rules", "notation", "limits"):
        assert isinstance(getattr(puzzle, attr), str) and getattr(puzzle, attr).strip(), attr
    assert puzzle.presets(), "a puzzle needs at least one preset"
    assert REGISTRY.solvers(puzzle.id), "a puzzle needs a solver"
    assert REGISTRY.renderers(puzzle.id), "a puzzle needs a renderer"


def test_text_round_trip(puzzle):
    for instance in instances(puzzle):
        text = puzzle.format(instance)
        assert puzzle.parse(text) == instance
        assert puzzle.format(puzzle.parse(text)) == text
        hash(instance)


def test_json_round_trip(puzzle):
    for instance in instances(puzzle):
        data = json.loads(json.dumps(puzzle.to_json(instance)))
        assert puzzle.from_json(data) == instance


def test_random_instances_are_reproducible(puzzle):
    for seed in SEEDS:
        assert puzzle.format(puzzle.random(seed)) == puzzle.format(puzzle.random(seed))
    assert len({puzzle.format(puzzle.random(seed)) for seed in range(8)}) > 1, \
        "different seeds should give different instances"


@pytest.mark.parametrize("seed", SEEDS)
def test_random_instances_are_solvable_and_solutions_replay(puzzle, seed):
    instance = puzzle.random(seed)
    solver = REGISTRY.solver(puzzle.id)
    report = run_solver(puzzle, solver, instance, SolveContext.with_timeout(SOLVE_SECONDS))
    assert isinstance(report.outcome, Solved), report.to_json()
    # run_solver replays already; replay again here so this test stands on its own.
    states = replay(puzzle, instance, report.outcome.moves)
    assert puzzle.is_solved(states[-1])
    json.dumps(report.to_json())


def test_legal_moves_apply(puzzle):
    for instance in instances(puzzle):
        state = puzzle.start(instance)
        for move in list(puzzle.legal_moves(state))[:20]:
            assert isinstance(move, str)
            hash(puzzle.apply_move(state, move))


def test_renderers_give_well_formed_svg(puzzle):
    for renderer in REGISTRY.renderers(puzzle.id):
        for instance in instances(puzzle):
            state = puzzle.start(instance)
            svg = renderer.render(state)
            parse_svg(svg)
            assert renderer.render(state) == svg, "rendering must be a pure function"
            moves = list(puzzle.legal_moves(state))
            if moves:
                parse_svg(renderer.render(state, next_move=moves[0]))
                after = puzzle.apply_move(state, moves[0])
                parse_svg(renderer.render(after, last_move=moves[0]))


def test_edit_actions_on_the_board_and_toolbar_keep_instances_valid(puzzle):
    """Every data-action the renderer offers and every tool either edits or says why not."""
    renderer = REGISTRY.renderer(puzzle.id)
    instance = puzzle.parse(next(iter(puzzle.presets().values())))
    root = parse_svg(renderer.render(puzzle.start(instance)))
    actions = sorted({el.get("data-action") for el in root.iter() if el.get("data-action")})
    tools = [t.action for t in puzzle.edit_tools(instance) if t.action]
    tools += [a for t in puzzle.edit_tools(instance) for _, a in t.choices]
    modes = [m.name for m in puzzle.edit_modes()] or [None]
    for mode in modes:
        for action in actions[:12] + tools:
            try:
                result = puzzle.edit(instance, action, mode=mode)
            except InputError:
                continue
            assert isinstance(result, EditResult)
            edited = result.instance
            assert puzzle.parse(puzzle.format(edited)) == edited
            parse_svg(renderer.render(puzzle.start(edited), selection=result.selection))


def _must_reject_or_accept_cleanly(puzzle, make):
    try:
        instance = make()
    except InputError as exc:
        assert str(exc).strip(), "an InputError needs a message"
        return
    # Whatever validation accepts must never crash formatting, moving or rendering.
    text = puzzle.format(instance)
    assert puzzle.parse(text) == instance
    state = puzzle.start(instance)
    list(puzzle.legal_moves(state))
    puzzle.is_solved(state)
    parse_svg(REGISTRY.renderer(puzzle.id).render(state))


@given(text=st.text(max_size=300))
@JUNK
def test_junk_text_is_rejected_with_an_input_error(puzzle, text):
    _must_reject_or_accept_cleanly(puzzle, lambda: puzzle.parse(text))


@given(text=st.text(alphabet="0123456789 /\n.o_-x:;,#r+r2", max_size=200))
@JUNK
def test_plausible_junk_is_rejected_with_an_input_error(puzzle, text):
    _must_reject_or_accept_cleanly(puzzle, lambda: puzzle.parse(text))


@given(data=st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                         lambda children: st.lists(children, max_size=5)
                         | st.dictionaries(st.text(max_size=8), children, max_size=5), max_leaves=20))
@JUNK
def test_junk_json_is_rejected_with_an_input_error(puzzle, data):
    _must_reject_or_accept_cleanly(puzzle, lambda: puzzle.from_json(data))


@given(move=st.text(max_size=40))
@JUNK
def test_junk_moves_and_edits_are_rejected_with_an_input_error(puzzle, move):
    instance = puzzle.parse(next(iter(puzzle.presets().values())))
    state = puzzle.start(instance)
    try:
        puzzle.apply_move(state, move)
    except InputError:
        pass
    try:
        result = puzzle.edit(instance, move)
        assert puzzle.parse(puzzle.format(result.instance)) == result.instance
    except InputError:
        pass


@pytest.mark.parametrize("text", [
    "", " ", "\n\n", "\x00", "<script>alert(1)</script>", "9" * 5000, "1 " * 40000,
    "o" * 3000 + "\n" + "o" * 3000, "😀 ✓ ü", "&amp; <b>\"'",
])
def test_hostile_text_is_rejected_or_handled(puzzle, text):
    _must_reject_or_accept_cleanly(puzzle, lambda: puzzle.parse(text))


def test_huge_random_options_are_refused(puzzle):
    for key in puzzle.random_options:
        with pytest.raises(InputError):
            puzzle.random(0, {key: "100000x100000" if "size" in key else "\x00" * 1000})
    with pytest.raises(InputError):
        puzzle.random(0, {"no-such-option-anywhere": "1"})
