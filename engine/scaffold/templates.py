"""The files ``puzzle new-plugin`` writes, as ``string.Template`` texts (``$name`` placeholders).

The generated puzzle is deliberately tiny (reach a target number with +1 and x2) but complete:
presets, random instances, notes, moves in words, an optimal solver, an SVG renderer with the
board markup the editor needs, edit actions and tools, its own translations (English and
Simplified Chinese, :data:`CATALOGUE_ZH`), and a test that runs the conformance check.
"""

PYPROJECT = '''\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "$dist"
version = "0.1.0"
description = "$title: a puzzle plugin for the puzzle engine"
readme = "README.md"
requires-python = ">=3.11"
# The engine versions this plugin works with (the plugin contract $contract): the host reads this
# range before importing the plugin and leaves the plugin out when it is running outside it.
# Install the host first, then this package with `puzzle install -e .`.
dependencies = ["$host_range", "svgwrite>=1.4"]

[project.optional-dependencies]
test = ["pytest>=8", "hypothesis>=6.100"]

# The engine finds the plugin through this entry point: name = module with the @hookimpl functions.
[project.entry-points.puzzle_engine]
$id = "$pkg.hooks"

[tool.setuptools.packages.find]
include = ["$pkg*"]

# The plugin's own translations (README, "Translations"): the compiled catalogues travel in the
# wheel, and the .po files beside them for translators.
[tool.setuptools.package-data]
$pkg = ["locale/*/LC_MESSAGES/*.mo", "locale/*/LC_MESSAGES/*.po"]
'''

README = '''\
# $title

A puzzle plugin for the puzzle engine, made by `puzzle new-plugin $id`.

The rules: start from a number and reach the target by adding 1 or doubling.

## Install and check

Install the engine first (from its repository: `pip install -e .`), then this package into the
same environment (`puzzle install` keeps the engine's version where it is):

```sh
puzzle install -e .
puzzle plugins          # $id is listed, with its hooks
puzzle check $id        # the engine's conformance laws, one line each
puzzle solve $id small
python -m pytest        # tests/, which run the same conformance check
```

## Engine versions

`pyproject.toml` says which engine versions this plugin works with
(`$host_range`, the plugin contract $contract). The engine reads that range before it imports
the plugin: outside it, the plugin is left out and `puzzle plugins` says what it needs. Widen
the range once the plugin is tested against a newer contract.

## Where things are

- `$pkg/puzzle.py`: the rules, text form, presets, random instances and edit actions
- `$pkg/solver.py`: a breadth-first solver (optimal)
- `$pkg/renderer.py`: the SVG board
- `$pkg/hooks.py`: registers the three with the engine
- `$pkg/i18n.py` and `$pkg/locale/`: the plugin's own translations (below)
- `tests/`: the conformance check and a test of the solver against known answers

Replace the rules with your own, keep `puzzle check $id` passing, and see the engine's
docs/plugins.md for the whole contract.

## Translations

The engine shows its pages in English and Simplified Chinese, and this plugin's words too: it
ships its own gettext catalogue, in its own domain `$pkg`. Each class names it in its
`catalogue` attribute (`$pkg/i18n.py`); the engine shows the fixed texts marked with `N_`
(title, rules, notation, limits, option help and labels, edit labels, the solver's
description) through it, and the code translates what it writes while it runs (notes, move
words, messages) with `_` and `ngettext`. A message the catalogue lacks is shown in English.

The Chinese catalogue is `$pkg/locale/zh_Hans/LC_MESSAGES/$pkg.po`, compiled to the `.mo`
file beside it; the folder must be named `zh_Hans` exactly. Its title, 加一翻倍 ("add one,
double"), names the starter puzzle: write your own when you change the rules. After changing
any text, with Babel's `pybabel` (installed with the engine):

```sh
pybabel extract -o messages.pot --add-location=file $pkg
pybabel update -D $pkg -i messages.pot -d $pkg/locale -l zh_Hans --no-fuzzy-matching
# translate the new, empty entries in the .po file, then:
pybabel compile -D $pkg -d $pkg/locale
```

A new language is `pybabel init -D $pkg -i messages.pot -d $pkg/locale -l LOCALE` once the
engine has that locale. `puzzle check $id` checks that every text the puzzle shows is text in
each language the catalogue has. Write messages as whole sentences with named placeholders
(`_("add one: {before} becomes {after}").format(...)`), and plurals with `ngettext`, never
an added "s".
'''

INIT = '''\
"""$title: a puzzle plugin for the puzzle engine (rules in ``puzzle``, solving in ``solver``,
drawing in ``renderer``, registration in ``hooks``)."""
'''

I18N = '''\
\"\"\"$title's own translations: the gettext domain ``$pkg`` in ``locale/`` (README, "Translations").

The host shows the fixed texts (title, rules, notation, limits, option help and labels, edit
labels, the solver's description) through the ``catalogue`` attribute of each class, in the
reader's language; the code writes its notes, move words and messages with ``_`` and
``ngettext`` while it runs, when the host has set that language. A message missing from the
catalogue stays English.
\"\"\"

from pathlib import Path

from engine import Catalogue

CATALOGUE = Catalogue("$pkg", Path(__file__).resolve().parent / "locale")
_ = CATALOGUE.gettext
ngettext = CATALOGUE.ngettext
'''

PUZZLE = '''\
\"\"\"The rules of $title: reach the target number from the start by adding 1 or doubling.\"\"\"

from __future__ import annotations

import random as _random
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from engine import N_, EditMode, EditResult, EditTool, InputError, Puzzle

from .i18n import CATALOGUE, _

#: The largest number an instance may hold: every instance stays small enough to search.
LIMIT = 500
# The texts below write the limit out, so that each is one whole message to translate.
assert LIMIT == 500, "change the limits and random_options texts with LIMIT"


@dataclass(frozen=True)
class Counter:
    \"\"\"An instance and a state at once: the current number and the target.\"\"\"

    value: int
    target: int


def _number(text: str, what: str) -> int:
    text = text.strip()
    # isdigit() alone also passes "²" (which int() refuses) and other scripts' digits such as
    # "١٢" (which int() reads as 12): only ASCII 0-9 are numbers here.
    if not (text.isascii() and text.isdigit()) or len(text) > 6:
        # One whole sentence for each number (word order differs between languages).
        if what == "start":
            message = _("the start must be a whole number from 0 to {limit}, not {text}")
        else:
            message = _("the target must be a whole number from 0 to {limit}, not {text}")
        raise InputError(message.format(limit=LIMIT, text=repr(text[:20])))
    number = int(text)
    if number > LIMIT:
        if what == "start":
            message = _("the start {number} is above the limit of {limit}")
        else:
            message = _("the target {number} is above the limit of {limit}")
        raise InputError(message.format(number=number, limit=LIMIT))
    return number


class $cls(Puzzle):
    id = "$id"
    # The host shows these through `catalogue`, in the reader's language: N_ marks them for
    # `pybabel extract` and leaves them English here.
    catalogue = CATALOGUE
    title = N_("$title")
    rules = N_("Reach the target number from the start: each move adds 1 or doubles the number.")
    notation = N_('"+1" (add one) or "x2" (double); instances are written "START -> TARGET", e.g. "3 -> 20"')
    limits = N_("numbers from 0 to 500")
    random_options = {"target": N_("the target number, 1 to 500 (default: random up to 100)")}
    random_option_labels = {"target": N_("Target")}

    # -- instances -------------------------------------------------------------------------

    def parse(self, text: str) -> Counter:
        if not isinstance(text, str) or len(text) > 100:
            raise InputError(_('expected "START -> TARGET", e.g. "3 -> 20"'))
        start, arrow, target = text.partition("->")
        if not arrow:
            raise InputError(_('expected "START -> TARGET" with an arrow "->", e.g. "3 -> 20"'))
        return Counter(_number(start, "start"), _number(target, "target"))

    def format(self, instance: Counter) -> str:
        return f"{instance.value} -> {instance.target}"

    def presets(self) -> Mapping[str, str]:
        # The first preset is the gallery's thumbnail.
        return {"small": "3 -> 20", "double": "1 -> 64", "far": "5 -> 301"}

    def random(self, seed: int, options: Mapping[str, str] | None = None) -> Counter:
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.random_options))
        if unknown:
            raise InputError(_("unknown option {option}; options: {options}").format(
                option=repr(unknown[0][:30]), options=", ".join(self.random_options)))
        rng = _random.Random(seed)  # never the global generator: the same seed, the same instance
        target = _number(options["target"], "target") if "target" in options else rng.randint(10, 100)
        if target < 1:
            raise InputError(_("the target must be at least 1"))
        return Counter(rng.randint(0, target - 1), target)  # start below the target: solvable

    def notes(self, instance: Counter) -> Sequence[str]:
        if instance.value > instance.target:
            return (_("This cannot be solved: the number only grows."),)
        return ()

    # -- rules -----------------------------------------------------------------------------

    def legal_moves(self, state: Counter) -> Sequence[str]:
        moves = []
        if state.value + 1 <= LIMIT:
            moves.append("+1")
        if state.value * 2 <= LIMIT:
            moves.append("x2")
        return moves

    def apply_move(self, state: Counter, move: str) -> Counter:
        if move == "+1":
            value = state.value + 1
        elif move == "x2":
            value = state.value * 2
        else:
            raise InputError(_("unknown move {move}; moves are +1 and x2").format(move=repr(str(move)[:20])))
        if value > LIMIT:
            raise InputError(_("the number cannot go above {limit}").format(limit=LIMIT))
        return Counter(value, state.target)

    def is_solved(self, state: Counter) -> bool:
        return state.value == state.target

    def describe_move(self, state: Counter, move: str) -> str:
        after = self.apply_move(state, move).value
        if move == "+1":
            return _("add one: {before} becomes {after}").format(before=state.value, after=after)
        return _("double: {before} becomes {after}").format(before=state.value, after=after)

    # -- editing ---------------------------------------------------------------------------

    def edit_modes(self) -> Sequence[EditMode]:
        # Labels are shown through `catalogue` like the title: marked, not translated here.
        return (EditMode("play", N_("Play: a click on the number plays +1")),)

    def edit_tools(self, instance: Counter) -> Sequence[EditTool]:
        return (EditTool(N_("Target +10"), "target:+10"), EditTool(N_("Target -10"), "target:-10"),
                EditTool(N_("Reset start"), "start:0"))

    def edit(self, instance: Counter, action: str, *, mode: str | None = None,
             selection: str | None = None) -> EditResult:
        verb, _sep, argument = str(action).strip().partition(":")
        if verb == "press":
            return EditResult(self.apply_move(instance, "+1"))
        if verb == "target" and argument in ("+10", "-10"):
            target = instance.target + int(argument)
            if not 0 <= target <= LIMIT:
                raise InputError(_("the target must stay between 0 and {limit}").format(limit=LIMIT))
            return EditResult(Counter(instance.value, target))
        if verb == "start" and argument == "0":
            return EditResult(Counter(0, instance.target))
        raise InputError(_("unknown edit action {action}").format(action=repr(str(action)[:30])))

    def to_json(self, instance: Counter) -> dict[str, Any]:
        return {"start": instance.value, "target": instance.target}

    def from_json(self, data: Any) -> Counter:
        if not isinstance(data, dict) or not all(type(data.get(k)) is int for k in ("start", "target")):
            raise InputError(_('expected a JSON object like {"start": 3, "target": 20}'))
        return self.parse(f"{data['start']} -> {data['target']}")
'''

SOLVER = '''\
\"\"\"A breadth-first solver: it tries every number reachable in 1 move, then 2, ..., so the first
solution it finds is a shortest one.\"\"\"

from __future__ import annotations

from collections import deque

from engine import N_, Solved, SolveContext, Solver, Unsolvable

from .i18n import CATALOGUE, _
from .puzzle import Counter


class BreadthFirstSolver(Solver):
    puzzle_id = "$id"
    name = "bfs"
    optimal = True  # every answer is a shortest one (breadth-first order)
    catalogue = CATALOGUE  # the host shows the description in the reader's language
    description = N_("Breadth-first search over the numbers: always the fewest moves.")

    def solve(self, instance: Counter, ctx: SolveContext):
        if instance.value > instance.target:
            return Unsolvable(_("No: the number only grows, and it starts above the target."),
                              detail=_("Both moves, +1 and x2, make the number larger or keep 0 at 0."))
        parent = {instance.value: None}
        queue = deque([instance.value])
        nodes = 0
        while queue:
            value = queue.popleft()
            nodes += 1
            if nodes % 256 == 0:
                if ctx.should_stop():
                    return ctx.gave_up(nodes=nodes)
                ctx.progress(nodes=nodes)
            if value == instance.target:
                moves = []
                while parent[value] is not None:
                    value, move = parent[value]
                    moves.append(move)
                return Solved(tuple(reversed(moves)), optimal=True, stats={"nodes": nodes})
            for move, nxt in (("+1", value + 1), ("x2", value * 2)):
                if nxt <= instance.target and nxt not in parent:
                    parent[nxt] = (value, move)
                    queue.append(nxt)
        return Unsolvable(_("No: the target cannot be reached from this start."), stats={"nodes": nodes})
'''

RENDERER = '''\
\"\"\"The SVG board: the current number (click it to play +1) and the target.\"\"\"

from __future__ import annotations

import svgwrite

from engine import Renderer

from .i18n import CATALOGUE, _
from .puzzle import Counter

STYLE = \"\"\"
.box { fill: #ffffff; stroke: #1d2430; stroke-width: 2; }
.value .box { fill: #e8f0ff; }
.label { font: 14px sans-serif; fill: #5b6575; }
.number { font: bold 28px sans-serif; fill: #1d2430; }
.last-move .box { stroke: #2457c5; stroke-width: 4; }
.next-move .box { stroke: #2457c5; stroke-dasharray: 6 4; }
\"\"\"


class DefaultRenderer(Renderer):
    puzzle_id = "$id"
    name = "default"
    catalogue = CATALOGUE

    def render(self, state: Counter, *, last_move=None, next_move=None, selection=None) -> str:
        # svgwrite escapes every text and attribute value; debug=False allows data- attributes.
        # The words are in the reader's language (the host keeps one drawing per language).
        drawing = svgwrite.Drawing(size=("100%", "100%"), viewBox="0 0 240 100", debug=False)
        drawing.embed_stylesheet(STYLE)
        classes = ["value"] + (["last-move"] if last_move else []) + (["next-move"] if next_move else [])
        value = drawing.g(class_=" ".join(classes), **{
            "data-key": "value", "data-action": "press",
            "aria-label": _("number, {value}: press to add one").format(value=state.value)})
        value.add(drawing.rect((10, 20), (100, 70), rx=8, class_="box"))
        value.add(drawing.text(_("now"), insert=(20, 40), class_="label"))
        value.add(drawing.text(str(state.value), insert=(20, 78), class_="number"))
        drawing.add(value)
        target = drawing.g(class_="target", **{"data-key": "target"})
        target.add(drawing.rect((130, 20), (100, 70), rx=8, class_="box"))
        target.add(drawing.text(_("target"), insert=(140, 40), class_="label"))
        target.add(drawing.text(str(state.target), insert=(140, 78), class_="number"))
        drawing.add(target)
        return drawing.tostring()
'''

HOOKS = '''\
"""The module the entry point names: registers $title's puzzle, solver and renderer."""

from engine import hookimpl

from .puzzle import $cls
from .renderer import DefaultRenderer
from .solver import BreadthFirstSolver


@hookimpl
def register_puzzles(register):
    register($cls())


@hookimpl
def register_solvers(register):
    register(BreadthFirstSolver())  # the first solver this plugin registers is the default


@hookimpl
def register_renderers(register):
    register(DefaultRenderer())
'''

TEST_CONFORMANCE = '''\
"""The engine's conformance laws, run against this plugin (the same as `puzzle check $id`)."""

from engine.conformance import assert_conforms


def test_${id}_obeys_the_engine_laws():
    assert_conforms("$id")
'''

TEST_SOLVER = '''\
"""The solver against answers worked out by hand, not by the solver."""

from engine import Solved, SolveContext, Unsolvable, replay

from $pkg.puzzle import $cls
from $pkg.solver import BreadthFirstSolver


def test_known_shortest_answers():
    puzzle = $cls()
    # 3 -> 20: 3 +1 4 +1 5 x2 10 x2 20 is 4 moves; 3 moves reach at most 24 but never 20 exactly.
    for text, length in [("3 -> 20", 4), ("1 -> 64", 6), ("7 -> 7", 0)]:
        outcome = BreadthFirstSolver().solve(puzzle.parse(text), SolveContext())
        assert isinstance(outcome, Solved) and len(outcome.moves) == length
        assert puzzle.is_solved(replay(puzzle, puzzle.parse(text), outcome.moves)[-1])


def test_a_start_above_the_target_is_unsolvable():
    puzzle = $cls()
    assert isinstance(BreadthFirstSolver().solve(puzzle.parse("9 -> 4"), SolveContext()), Unsolvable)
'''

#: The Simplified Chinese catalogue ``puzzle new-plugin`` writes (as a .po file and compiled to
#: .mo): every message of the files above, msgid -> translation (``$title`` is the plugin's).
CATALOGUE_ZH = {
    "$title": "加一翻倍",
    "Reach the target number from the start: each move adds 1 or doubles the number.":
        "从起始数出发，到达目标数：每一步把数加 1 或者翻倍。",
    '"+1" (add one) or "x2" (double); instances are written "START -> TARGET", e.g. "3 -> 20"':
        '"+1"（加一）或 "x2"（翻倍）；题目写作 "START -> TARGET"，例如 "3 -> 20"',
    "numbers from 0 to 500": "0 到 500 之间的数",
    "the target number, 1 to 500 (default: random up to 100)": "目标数，1 到 500（默认：不超过 100 的随机数）",
    "Target": "目标数",
    'expected "START -> TARGET", e.g. "3 -> 20"': '应为 "START -> TARGET" 的形式，例如 "3 -> 20"',
    'expected "START -> TARGET" with an arrow "->", e.g. "3 -> 20"':
        '应为带箭头 "->" 的 "START -> TARGET"，例如 "3 -> 20"',
    "the start must be a whole number from 0 to {limit}, not {text}":
        "起始数必须是 0 到 {limit} 之间的整数，而不是 {text}",
    "the target must be a whole number from 0 to {limit}, not {text}":
        "目标数必须是 0 到 {limit} 之间的整数，而不是 {text}",
    "the start {number} is above the limit of {limit}": "起始数 {number} 超过了上限 {limit}",
    "the target {number} is above the limit of {limit}": "目标数 {number} 超过了上限 {limit}",
    "unknown option {option}; options: {options}": "未知的选项 {option}；可用的选项：{options}",
    "the target must be at least 1": "目标数至少为 1",
    "This cannot be solved: the number only grows.": "这一局无解：数只会变大。",
    "unknown move {move}; moves are +1 and x2": "未知的走法 {move}；走法只有 +1 和 x2",
    "the number cannot go above {limit}": "数不能超过 {limit}",
    "add one: {before} becomes {after}": "加一：{before} 变成 {after}",
    "double: {before} becomes {after}": "翻倍：{before} 变成 {after}",
    "Play: a click on the number plays +1": "游玩：点击数字即走一步 +1",
    "Target +10": "目标数 +10",
    "Target -10": "目标数 -10",
    "Reset start": "起始数归零",
    "the target must stay between 0 and {limit}": "目标数必须保持在 0 到 {limit} 之间",
    "unknown edit action {action}": "未知的编辑操作 {action}",
    'expected a JSON object like {"start": 3, "target": 20}': '应为形如 {"start": 3, "target": 20} 的 JSON 对象',
    "Breadth-first search over the numbers: always the fewest moves.": "对各个数做广度优先搜索：总能找到最少步数。",
    "No: the number only grows, and it starts above the target.": "不能：数只会变大，而起始数已经大于目标数。",
    "Both moves, +1 and x2, make the number larger or keep 0 at 0.":
        "+1 和 x2 这两种走法都会让数变大（或让 0 保持为 0）。",
    "No: the target cannot be reached from this start.": "不能：从这个起始数到不了目标数。",
    "number, {value}: press to add one": "当前的数 {value}：按下即加一",
    "now": "当前",
    "target": "目标",
}

FILES = {
    "pyproject.toml": PYPROJECT,
    "README.md": README,
    "$pkg/__init__.py": INIT,
    "$pkg/puzzle.py": PUZZLE,
    "$pkg/solver.py": SOLVER,
    "$pkg/renderer.py": RENDERER,
    "$pkg/hooks.py": HOOKS,
    "$pkg/i18n.py": I18N,
    "tests/test_conformance.py": TEST_CONFORMANCE,
    "tests/test_solver.py": TEST_SOLVER,
}
