"""The laws every puzzle plugin obeys, each a function of a :class:`Subject` that returns a line
saying what it checked, raises :class:`LawFailure` with a minimal failing example, or raises
:class:`LawSkipped` saying why it cannot be checked here.

Examples are tried smallest first (by instance text length), so the first failure reported is
the smallest one among those tried; the junk laws shrink theirs with Hypothesis.
"""

from __future__ import annotations

import json
import re
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ..context import SolveContext
from ..contract import Assessment, EditResult, Puzzle, Renderer, Solver
from ..errors import InputError, SolverError
from ..outcomes import GaveUp, Solved, Unsolvable
from ..solving import replay, run_solver
from . import fuzz
from .results import LawFailure, LawSkipped
from .search import shortest_solution
from .svg import check_svg

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from ..i18n import Catalogue

#: Random instances drawn per check (seeds ``seed``, ``seed + 1``, ...).
RANDOM_INSTANCES = 3
#: Seconds the default solver gets per random instance (the contract asks for about one).
SOLVE_SECONDS = 60.0
#: Seconds any other solver gets per instance; giving up is allowed, a wrong answer is not.
OTHER_SOLVER_SECONDS = 10.0
#: Breadth-first search budget per instance for the optimal-claims law.
BFS_STATES = 20_000
BFS_SECONDS = 1.5
#: Wall time all of the law's searches may take together (puzzles whose positions are slow to
#: expand run out of it and are skipped, not failed).
BFS_TOTAL_SECONDS = 6.0
#: Small sizes tried for a random option named ``size``, to find instances small enough to search.
SMALL_SIZES = ("2x2", "2x3", "3x2", "3x3")

HOSTILE_TEXTS = (
    "", " ", "\n\n", "\x00", "<script>alert(1)</script>", "9" * 5000, "1 " * 40000,
    "o" * 3000 + "\n" + "o" * 3000, "😀 ✓ ü", "&amp; <b>\"'",
    # Digits str.isdigit() accepts but int() refuses ("²") or reads as 0-9 ("١٢", "５", "𝟓").
    "²", "١٢", "５", "𝟓", "½", "Ⅻ",
)
#: Stand-ins for an ASCII digit run in valid text, each a way str.isdigit()/isnumeric() and int()
#: disagree with "digits are 0-9": (name, replace run) pairs. Superscripts and vulgar fractions
#: pass isdigit()/isnumeric() but make int() raise ValueError; the other scripts pass both and
#: are silently read as 0-9.
UNICODE_DIGITS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("superscript digit", lambda run: "²"),
    ("vulgar fraction", lambda run: "½"),
    ("Arabic-Indic digits", lambda run: run.translate({48 + d: 0x660 + d for d in range(10)})),
    ("fullwidth digits", lambda run: run.translate({48 + d: 0xFF10 + d for d in range(10)})),
    ("mathematical bold digits", lambda run: run.translate({48 + d: 0x1D7CE + d for d in range(10)})),
)
#: Pieces of markup injected into valid instance text: accepted or not, nothing may run.
PAYLOADS = ("<script>alert(1)</script>", "\"><script>alert(1)</script>", "' onload='alert(1)",
            "]]><svg onload=alert(1)>", "&<>\"'")


def short(value: Any, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text):,} characters)"


def _where(exc: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith("<")]
    return f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""


def crash_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}{_where(exc)}"


@contextmanager
def guard(example: str, doing: str) -> Iterator[None]:
    """Turn an unexpected exception while ``doing`` something into a LawFailure on ``example``."""
    try:
        yield
    except (LawFailure, LawSkipped):
        raise
    except Exception as exc:
        raise LawFailure(f"{doing} raised {crash_text(exc)}", example) from None


@dataclass
class Subject:
    """The puzzle under check, with its registry, the example budget and the seed."""

    registry: Any
    puzzle: Puzzle
    examples: int = 50
    seed: int = 0
    _instances: list[tuple[str, Any]] | None = field(default=None, repr=False)

    def instances(self) -> list[tuple[str, Any]]:
        """(text, instance) for every preset and a few random instances, shortest text first.

        Presets or random instances that fail are left out here; their own laws report them.
        """
        if self._instances is None:
            found: dict[str, Any] = {}
            for text in self._safe(lambda: list(self.puzzle.presets().values()), []):
                inst = self._safe(partial(self.puzzle.parse, text), None)
                if inst is not None:
                    found.setdefault(self._safe(partial(self.puzzle.format, inst), text), inst)
            for i in range(RANDOM_INSTANCES):
                inst = self._safe(partial(self.puzzle.random, self.seed + i), None)
                if inst is not None:
                    text = self._safe(partial(self.puzzle.format, inst), None)
                    if text is not None:
                        found.setdefault(text, inst)
            self._instances = sorted(found.items(), key=lambda kv: (len(kv[0]), kv[0]))
        return self._instances

    def small_instances(self) -> list[tuple[str, Any]]:
        """Random instances of small sizes, when the puzzle has a ``size`` random option."""
        if "size" not in self.puzzle.random_options:
            return []
        found = []
        for size in SMALL_SIZES:
            for i in range(2):
                inst = self._safe(partial(self.puzzle.random, self.seed + i, {"size": size}), None)
                text = None if inst is None else self._safe(partial(self.puzzle.format, inst), None)
                if text is not None:
                    found.append((text, inst))
        return found

    def random_instances(self) -> list[tuple[str, Any]]:
        out = []
        for i in range(RANDOM_INSTANCES):
            with guard(f"random({self.seed + i})", "random"):
                inst = self.puzzle.random(self.seed + i)
                out.append((self.puzzle.format(inst), inst))
        return out

    @staticmethod
    def _safe(fn: Callable[[], Any], default: Any) -> Any:
        try:
            return fn()
        except Exception:
            return default

    def renderers(self) -> list[Renderer]:
        return self.registry.renderers(self.puzzle.id)

    def solvers(self) -> list[Solver]:
        return self.registry.solvers(self.puzzle.id)


def _text_example(puzzle: Puzzle, text: str) -> str:
    return f"{puzzle.id} instance {short(text)}"


# -- identity, presets, text and JSON ------------------------------------------------------------

def identity(s: Subject) -> str:
    p = s.puzzle
    if not isinstance(p.id, str) or not p.id.replace("_", "").replace("-", "").isalnum():
        raise LawFailure(f"the id {p.id!r} is not a URL-safe word")
    for attr in ("title", "rules", "notation", "limits"):
        value = getattr(p, attr, None)
        if not isinstance(value, str) or not value.strip():
            raise LawFailure(f"{attr} must be a non-empty string, not {short(value)}")
    if not s.solvers():
        raise LawFailure("no solver is registered for the puzzle")
    if not s.renderers():
        raise LawFailure("no renderer is registered for the puzzle")
    with guard("the default solver", "choosing the default solver"):
        s.registry.solver(p.id)
    with guard("the default renderer", "choosing the default renderer"):
        s.registry.renderer(p.id)
    return f"{len(s.solvers())} solver(s), {len(s.renderers())} renderer(s)"


def presets(s: Subject) -> str:
    with guard("presets()", "presets()"):
        named = dict(s.puzzle.presets())
    if not named:
        raise LawFailure("a puzzle needs at least one preset (the gallery shows the first)")
    for name, text in sorted(named.items(), key=lambda kv: len(str(kv[1]))):
        if not isinstance(name, str) or not name.replace("-", "").replace("_", "").isalnum():
            raise LawFailure(f"preset name {name!r} is not a short URL-safe word", repr(name))
        if not isinstance(text, str):
            raise LawFailure(f"preset {name!r} is {type(text).__name__}, not instance text", repr(name))
        try:
            with guard(f"preset {name}: {short(text)}", "parse"):
                s.puzzle.parse(text)
        except InputError as exc:
            raise LawFailure(f"preset {name!r} does not parse: {exc}", short(text)) from None
    return f"{len(named)} preset(s) parse"


def text_round_trip(s: Subject) -> str:
    p = s.puzzle
    for text, inst in s.instances():
        example = _text_example(p, text)
        with guard(example, "parse(format(instance))"):
            try:
                back = p.parse(text)
            except InputError as exc:
                raise LawFailure(f"format() gave text that parse() rejects: {exc}", example) from None
            if back != inst:
                raise LawFailure(f"parse(format(i)) != i: got {short(back)} back from {short(inst)}", example)
            hash(inst)
    return f"parse(format(i)) == i on {len(s.instances())} instance(s)"


def canonical_text(s: Subject) -> str:
    p = s.puzzle
    checked = 0
    for text, _ in s.instances():
        example = _text_example(p, text)
        with guard(example, "format(parse(text))"):
            again = p.format(p.parse(text))
        if again != text:
            raise LawFailure(f"format is not canonical: it gave {short(text)} then {short(again)}", example)
        checked += 1
    # A preset written loosely must still format to one canonical text.
    for name, raw in sorted(p.presets().items(), key=lambda kv: len(kv[1])):
        example = f"preset {name}: {short(raw)}"
        with guard(example, "format(parse(preset))"):
            once = p.format(p.parse(raw))
            if p.format(p.parse(once)) != once:
                raise LawFailure(f"formatting twice gives different text: {short(once)}", example)
    return f"format(parse(text)) == text on {checked} instance(s)"


def json_round_trip(s: Subject) -> str:
    p = s.puzzle
    for text, inst in s.instances():
        example = _text_example(p, text)
        with guard(example, "from_json(to_json(instance))"):
            data = p.to_json(inst)
            try:
                data = json.loads(json.dumps(data))
            except (TypeError, ValueError) as exc:
                raise LawFailure(f"to_json gave something JSON cannot hold: {exc}", example) from None
            try:
                back = p.from_json(data)
            except InputError as exc:
                raise LawFailure(f"from_json rejects to_json's own output: {exc}", example) from None
            if back != inst:
                raise LawFailure(f"from_json(to_json(i)) != i for {short(data)}", example)
    return f"from_json(to_json(i)) == i on {len(s.instances())} instance(s)"


def random_instances(s: Subject) -> str:
    p = s.puzzle
    drawn = s.random_instances()
    for i, (text, _) in enumerate(drawn):
        seed = s.seed + i
        with guard(f"random({seed})", "random"):
            if p.format(p.random(seed)) != text:
                raise LawFailure("the same seed gave two different instances", f"random({seed})")
    with guard("random(seed) for 8 seeds", "random"):
        texts = {p.format(p.random(s.seed + i)) for i in range(8)}
    if len(texts) < 2:
        raise LawFailure("eight different seeds all gave the same instance", f"random({s.seed})")
    for key in list(p.random_options):
        huge = "100000x100000" if "size" in key else "\x00" * 1000
        example = f"random({s.seed}, {{{key!r}: {short(huge, 30)}}})"
        with guard(example, "random with a huge option"):
            try:
                p.random(s.seed, {key: huge})
            except InputError:
                continue
        raise LawFailure("a huge or malformed option value was accepted instead of an InputError", example)
    example = f"random({s.seed}, {{'no-such-option-anywhere': '1'}})"
    with guard(example, "random with an unknown option"):
        try:
            p.random(s.seed, {"no-such-option-anywhere": "1"})
        except InputError:
            return f"{len(drawn)} seeds reproducible, seeds differ, bad options refused"
    raise LawFailure("an unknown option was accepted instead of an InputError", example)


# -- rules and solving -----------------------------------------------------------------------

def legal_moves(s: Subject) -> str:
    p = s.puzzle
    tried = 0
    for text, inst in s.instances():
        example = _text_example(p, text)
        with guard(example, "start/legal_moves/apply_move/describe_move/assess"):
            state = p.start(inst)
            hash(state)
            verdict = p.assess(state, budget=0.05)
            if not isinstance(verdict, Assessment) or verdict.verdict not in ("solved", "can", "cannot", "unknown"):
                raise LawFailure(f"assess gave {short(verdict)}, not an engine.Assessment", example)
            for move in list(p.legal_moves(state))[:20]:
                if not isinstance(move, str):
                    raise LawFailure(f"legal_moves gave {short(move)}, not a string", example)
                words = p.describe_move(state, move)
                if not isinstance(words, str) or not words.strip():
                    raise LawFailure(f"describe_move({move!r}) gave {short(words)}, not words", example)
                try:
                    hash(p.apply_move(state, move))
                except InputError as exc:
                    raise LawFailure(f"legal move {move!r} was refused: {exc}", example) from None
                tried += 1
    return f"{tried} legal move(s) apply"


def solutions_replay(s: Subject) -> str:
    p = s.puzzle
    default = s.registry.solver(p.id)
    solved = 0
    for text, inst in s.random_instances():
        example = f"{_text_example(p, text)} (a random instance, so solvable)"
        ctx = SolveContext.with_timeout(SOLVE_SECONDS)
        try:
            with guard(example, f"solver {default.name!r}"):
                report = run_solver(p, default, inst, ctx)
        except SolverError as exc:
            raise LawFailure(exc.message, example) from None
        outcome = report.outcome
        if isinstance(outcome, Unsolvable):
            raise LawFailure(f"the default solver {default.name!r} calls a random instance unsolvable "
                             f"({outcome.reason}); random() must give solvable instances", example)
        if isinstance(outcome, GaveUp):
            raise LawFailure(f"the default solver {default.name!r} gave up ({outcome.reason}) within "
                             f"{SOLVE_SECONDS:g} s; random() with no options should be quick to solve", example)
        with guard(example, "replay"):
            states = replay(p, inst, outcome.moves)
            if not p.is_solved(states[-1]):
                raise LawFailure("the solution does not reach the goal", example)
            json.dumps(report.to_json())
        solved += 1
    others = [x for x in s.solvers() if x is not default]
    text, inst = s.random_instances()[0]
    for solver in others:
        example = _text_example(p, text)
        try:
            with guard(example, f"solver {solver.name!r}"):
                report = run_solver(p, solver, inst, SolveContext.with_timeout(OTHER_SOLVER_SECONDS))
        except SolverError as exc:
            raise LawFailure(exc.message, example) from None
        if isinstance(report.outcome, Unsolvable):
            raise LawFailure(f"solver {solver.name!r} calls a random (solvable) instance unsolvable: "
                             f"{report.outcome.reason}", example)
    return f"{default.name} solved {solved} random instance(s); every solution replays"


def optimal_claims(s: Subject) -> str:
    """Optimal and unsolvable claims against breadth-first search, on instances small enough."""
    p = s.puzzle
    checked, too_big = 0, 0
    candidates = dict(s.small_instances() + s.instances())
    deadline = time.monotonic() + BFS_TOTAL_SECONDS
    for text, inst in sorted(candidates.items(), key=lambda kv: (len(kv[0]), kv[0]))[:12]:
        example = _text_example(p, text)
        if time.monotonic() > deadline:
            too_big += 1
            continue
        with guard(example, "breadth-first search with the puzzle's own rules"):
            truth = shortest_solution(p, inst, max_states=BFS_STATES, seconds=BFS_SECONDS)
        if truth.status == "budget":
            too_big += 1
            continue
        checked += 1
        for solver in s.solvers():
            try:
                with guard(example, f"solver {solver.name!r}"):
                    report = run_solver(p, solver, inst, SolveContext.with_timeout(OTHER_SOLVER_SECONDS))
            except SolverError as exc:
                raise LawFailure(exc.message, example) from None
            outcome = report.outcome
            if isinstance(outcome, Unsolvable) and truth.status == "found":
                raise LawFailure(f"solver {solver.name!r} says unsolvable ({outcome.reason}), but "
                                 f"{_solve_it(truth.moves)}", example)
            if isinstance(outcome, Solved) and report.to_json()["optimal"] and truth.status == "found" \
                    and len(outcome.moves) > len(truth.moves):
                raise LawFailure(f"solver {solver.name!r} claims its {_count(len(outcome.moves), 'move', 'moves')} "
                                 f"are optimal, but {_solve_it(truth.moves)}", example)
    if not checked:
        raise LawSkipped(f"no preset or random instance is small enough for a breadth-first search "
                         f"within {BFS_STATES:,} positions")
    extra = f" ({too_big} too large, skipped)" if too_big else ""
    return f"every solver's claims agree with breadth-first search on {checked} instance(s){extra}"


# -- rendering and editing -------------------------------------------------------------------

def renderers_give_valid_svg(s: Subject) -> str:
    p = s.puzzle
    drawn = 0
    for renderer in s.renderers():
        who = f"renderer {renderer.name!r}"
        for text, inst in s.instances():
            example = _text_example(p, text)
            with guard(example, who):
                state = p.start(inst)
                svg = renderer.render(state)
                check_svg(svg, who, example)
                if renderer.render(state) != svg:
                    raise LawFailure(f"{who} is not a pure function: the same state drew differently", example)
                moves = list(p.legal_moves(state))
                if moves:
                    check_svg(renderer.render(state, next_move=moves[0]), f"{who} with next_move", example)
                    after = p.apply_move(state, moves[0])
                    check_svg(renderer.render(after, last_move=moves[0]), f"{who} with last_move", example)
            drawn += 1
    return f"{drawn} board(s) drawn: well-formed, with a viewBox, nothing that runs"


def _injections(text: str) -> Iterator[str]:
    cuts = [0, len(text)] + [i + 1 for i, ch in enumerate(text) if ch in " :;,/\n|=#\"'"][:10]
    for payload in PAYLOADS:
        for cut in sorted(set(cuts)):
            yield text[:cut] + payload + text[cut:]
    for sep in (" ", "\n", ":", ";", ","):
        yield text + sep + PAYLOADS[0]
    tokens = text.split()
    for i in range(min(len(tokens), 8)):
        yield " ".join(tokens[:i] + [PAYLOADS[0]] + tokens[i + 1:])


def renderers_escape_text(s: Subject) -> str:
    """Markup injected into instance text is either refused or drawn as text, never as markup."""
    p = s.puzzle
    accepted = tried = 0
    texts = [t for t, _ in s.instances()[:3]]
    texts += [t for t, _ in s.instances()[3:] if t in set(s.puzzle.presets().values())][:3]
    for text in texts:
        for hostile in sorted(set(_injections(text)), key=len):
            tried += 1
            example = _text_example(p, hostile)
            with guard(example, "parse"):
                try:
                    inst = p.parse(hostile)
                except InputError:
                    continue
            accepted += 1
            for renderer in s.renderers():
                with guard(example, f"renderer {renderer.name!r}"):
                    check_svg(renderer.render(p.start(inst)), f"renderer {renderer.name!r}", example)
    return f"{tried} texts with markup injected: {accepted} accepted and drawn safely, the rest refused"


def edits(s: Subject) -> str:
    """Every data-action on the board and every tool, in every mode, edits or says why not."""
    p = s.puzzle
    renderer = s.registry.renderer(p.id)
    if not s.instances():
        raise LawSkipped("no instance to edit")
    text, inst = s.instances()[0]
    example = _text_example(p, text)
    with guard(example, "rendering and listing edit tools"):
        root = check_svg(renderer.render(p.start(inst)), "the default renderer", example)
        actions: list[str] = sorted({str(el.get("data-action")) for el in root.iter() if el.get("data-action")})
        tools = list(p.edit_tools(inst))
        tool_actions = [t.action for t in tools if t.action] + [a for t in tools for _, a in t.choices]
        modes: list[str | None] = [m.name for m in p.edit_modes()] or [None]
    done = 0
    for mode in modes:
        for action in actions[:12] + tool_actions:
            ex = f"{example}, edit {action!r} in mode {mode!r}"
            with guard(ex, "edit"):
                try:
                    result = p.edit(inst, action, mode=mode)
                except InputError:
                    continue
                if not isinstance(result, EditResult):
                    raise LawFailure(f"edit returned {short(result)}, not an engine.EditResult", ex)
                edited = result.instance
                if p.parse(p.format(edited)) != edited:
                    raise LawFailure("the edited instance does not survive parse(format(...))", ex)
                check_svg(renderer.render(p.start(edited), selection=result.selection),
                          "the default renderer after the edit", ex)
                if result.selection is not None:
                    # The second click of a two-click edit, with the selection handed back.
                    for second in actions[:6]:
                        try:
                            again = p.edit(inst, second, mode=mode, selection=result.selection)
                        except InputError:
                            continue
                        p.parse(p.format(again.instance))
                done += 1
    return f"{done} edit(s) applied cleanly in {len(modes)} mode(s); the rest refused with InputError"


def _count(n: int, one: str, many: str) -> str:
    """A count in the laws' reports, which are for plugin authors and English only: both forms
    written out (a message people read goes through a catalogue's ngettext instead)."""
    return f"{n:,} {one if n == 1 else many}"


def _solve_it(moves: tuple[str, ...]) -> str:
    verb = "solves" if len(moves) == 1 else "solve"
    return f"{_count(len(moves), 'move', 'moves')} {verb} it: {' '.join(moves)}"


# -- junk ------------------------------------------------------------------------------------

def _accept_cleanly(s: Subject, make: Callable[[], Any]) -> None:
    """``make()`` either raises InputError (with a message) or gives an instance that formats,
    moves and renders without crashing."""
    p = s.puzzle
    try:
        inst = make()
    except InputError as exc:
        if not str(exc).strip():
            raise AssertionError("an InputError needs a message") from None
        return
    text = p.format(inst)
    if p.parse(text) != inst:
        raise AssertionError(f"the accepted instance does not round-trip through {short(text)}")
    state = p.start(inst)
    list(p.legal_moves(state))
    p.is_solved(state)
    check_svg(s.registry.renderer(p.id).render(state), "the default renderer", "")


def _fuzz(s: Subject, strategy: SearchStrategy[Any], check: Callable[[Any], None], what: str) -> str:
    found = fuzz.find_failure(strategy, check, examples=s.examples, seed=s.seed)
    if found is None:
        return f"{s.examples} generated {what}: each refused with InputError or handled"
    value, exc = found
    message = exc.message if isinstance(exc, LawFailure) else crash_text(exc)
    raise LawFailure(f"{message} (only InputError may escape)", f"{what} {short(value)}")


def _unicode_digit_variants(text: str) -> Iterator[tuple[str, str, str]]:
    """``text`` with one of its ASCII digit runs (the first few) written in other Unicode
    digits: (variant, what was substituted, the same text with that run as letters)."""
    runs = list(re.finditer(r"[0-9]+", text))[:4]
    for run in runs:
        for name, substitute in UNICODE_DIGITS:
            before, after = text[:run.start()], text[run.end():]
            yield before + substitute(run.group()) + after, name, before + "x" * len(run.group()) + after


def _parses_same(p: Puzzle, a: str, b: str) -> bool:
    try:
        return p.parse(a) == p.parse(b)
    except InputError:
        return False


def junk_text(s: Subject) -> str:
    p = s.puzzle
    for hostile in sorted(HOSTILE_TEXTS, key=len):
        with guard(f"parse({short(hostile)})", "parse"):
            try:
                _accept_cleanly(s, partial(p.parse, hostile))
            except AssertionError as exc:
                raise LawFailure(str(exc), f"parse({short(hostile)})") from None
    # Valid texts with their numbers in other Unicode digits: refused (or handled), never a
    # crash from int(), and never silently read as 0-9 (the user typed something else).
    variants = 0
    for text, _ in s.instances()[:4]:
        for variant, name, lettered in _unicode_digit_variants(text):
            variants += 1
            example = f"parse({short(variant)})"
            with guard(example, "parse"):
                try:
                    _accept_cleanly(s, partial(p.parse, variant))
                except AssertionError as exc:
                    raise LawFailure(str(exc), example) from None
                if _parses_same(p, variant, text) and not _parses_same(p, lettered, text):
                    raise LawFailure(f"{name} were read as the ASCII digits 0-9 (check digits with "
                                     "str.isascii() and str.isdigit(), not str.isdigit() alone)", example)
    alphabet = "".join(sorted(set("".join(p.presets().values())) | set("0123456789 /\n.o_-x:;,#+")))
    line = _fuzz(s, fuzz.junk_text(), lambda t: _accept_cleanly(s, lambda: p.parse(t)), "text")
    _fuzz(s, fuzz.junk_text(alphabet, 200), lambda t: _accept_cleanly(s, lambda: p.parse(t)), "text")
    return line + (f", twice (any text, then text from the presets' characters), {len(HOSTILE_TEXTS)} hostile "
                   f"texts and {variants} with their numbers in other Unicode digits")


def junk_json(s: Subject) -> str:
    p = s.puzzle
    return _fuzz(s, fuzz.junk_json(), lambda d: _accept_cleanly(s, lambda: p.from_json(d)), "JSON")


def junk_moves_and_edits(s: Subject) -> str:
    p = s.puzzle
    if not s.instances():
        raise LawSkipped("no instance to move on")
    inst = s.instances()[0][1]
    state = p.start(inst)

    def check(move: str) -> None:
        try:
            p.apply_move(state, move)
        except InputError:
            pass
        try:
            result = p.edit(inst, move)
        except InputError:
            return
        if p.parse(p.format(result.instance)) != result.instance:
            raise AssertionError("the edited instance does not round-trip")

    return _fuzz(s, fuzz.junk_text(max_size=40), check, "move/edit action")


# -- tasks ---------------------------------------------------------------------------------------

#: Processor seconds a task's refusal may take on one instance (the editor asks after every
#: edit).
REFUSAL_SECONDS = 1.0
#: Seconds a task asked to stop before it starts may take to return.
TASK_STOP_SECONDS = 5.0


class _Stopped:
    """A cancel flag that is already set."""

    def is_set(self) -> bool:
        return True


def tasks(s: Subject) -> str:
    from ..tasks import run_task

    found = s.registry.tasks(s.puzzle.id)
    if not found:
        return "no tasks"
    for task in found:
        accepted = None
        examples = list(s.instances())
        # Every instance once untimed: loading what refusals share (compiled code, tables) is
        # paid once per process, not per edit, and different instances may take different
        # paths (a small board may be judged without the code a large one needs).
        for text, inst in examples:
            with guard(_text_example(s.puzzle, text), f"task {task.name!r}: refusal"):
                task.refusal(inst)
        for text, inst in examples:
            # Processor time of this thread: other processes sharing the machine must not make
            # a quick refusal look slow.
            started = time.thread_time()
            with guard(_text_example(s.puzzle, text), f"task {task.name!r}: refusal"):
                reason = task.refusal(inst)
            took = time.thread_time() - started
            if reason is not None and (not isinstance(reason, str) or not reason.strip()):
                raise LawFailure(f"task {task.name!r} gave {short(reason)} as its refusal, not a "
                                 f"sentence or None", _text_example(s.puzzle, text))
            if took > REFUSAL_SECONDS:
                raise LawFailure(f"task {task.name!r} took {took:.1f} s to judge an instance (the "
                                 f"editor asks after every edit: at most {REFUSAL_SECONDS:g} s)",
                                 _text_example(s.puzzle, text))
            if reason is None and accepted is None:
                accepted = (text, inst)
        if accepted is None:
            continue
        text, inst = accepted
        started = time.monotonic()
        with guard(_text_example(s.puzzle, text), f"task {task.name!r} asked to stop at once"):
            report = run_task(s.puzzle, task, inst, SolveContext(cancel=_Stopped()))
        took = time.monotonic() - started
        if took > TASK_STOP_SECONDS:
            raise LawFailure(f"task {task.name!r}, cancelled before it started, ran {took:.1f} s "
                             f"(it must check ctx.should_stop())", _text_example(s.puzzle, text))
        if report["status"] == "gave_up" and report["reason"] != "cancelled":
            raise LawFailure(f"task {task.name!r}, cancelled, gave up for {short(report['reason'])} "
                             f"instead (return ctx.gave_up())", _text_example(s.puzzle, text))
    return f"{_count(len(found), 'task', 'tasks')}: refusals are sentences and quick; a cancelled task stops"


# -- translations ---------------------------------------------------------------------------------

#: A placeholder left unfilled in a text people read ("{count}"); JSON such as {"a": 1} is not one.
_PLACEHOLDER = re.compile(r"\{[A-Za-z_]\w*\}")
#: Placeholders a translation must keep from its message: str.format's and %-format's names.
_NAMED = re.compile(r"\{\w+\}|%\(\w+\)s")
#: The placeholders a plural message's count goes in.
_COUNTS = {"{count}", "{n}", "%(num)s", "%(count)s"}
#: Moves of a replayed solution whose words are checked (per locale).
TRANSLATED_MOVES = 40


def _catalogue_of(owner: Any) -> Catalogue | None:
    from ..i18n import Catalogue

    found = getattr(owner, "catalogue", None)
    return found if isinstance(found, Catalogue) else None


def _locales_of(s: Subject) -> tuple[str, ...]:
    """English and every locale the catalogue of the puzzle, its solvers or its renderers has."""
    from ..i18n import DEFAULT_LOCALE

    found = [DEFAULT_LOCALE]
    for owner in (s.puzzle, *s.solvers(), *s.renderers(), *s.registry.tasks(s.puzzle.id)):
        catalogue = _catalogue_of(owner)
        for locale in (catalogue.locales() if catalogue is not None else ()):
            if locale not in found:
                found.append(locale)
    return tuple(found)


def _check_catalogue_placeholders(owner: Any, locale: str) -> None:
    """Every translation in the catalogue keeps the named placeholders of its message (one that
    drops or renames one shows a sentence without its number, or breaks ``.format``)."""
    catalogue = _catalogue_of(owner)
    if catalogue is None:
        return
    messages = getattr(catalogue.translations(locale), "_catalog", {})
    for key, text in messages.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not msgid:
            continue  # the header
        wanted = set(_NAMED.findall(msgid))
        if not isinstance(text, str):
            raise LawFailure(f"catalogue {catalogue.domain!r} ({locale}) translates {short(msgid)} as "
                             f"{type(text).__name__}, not text")
        have = set(_NAMED.findall(text))
        if isinstance(key, tuple):
            # A plural form (the compiled file keeps only the singular message): a language with
            # one form may say a count the English singular leaves out, but keeps the others.
            bad = not wanted - _COUNTS <= have
        else:
            bad = have != wanted
        if bad:
            raise LawFailure(f"catalogue {catalogue.domain!r} ({locale}) translates {short(msgid)} as "
                             f"{short(text)}: its placeholders {sorted(have)} are not the message's "
                             f"{sorted(wanted)}")


def _words_of_a_solution(s: Subject) -> tuple[str, Any, tuple[str, ...]] | None:
    """(text, instance, moves) to replay for the move words: the default solver's answer to the
    smallest instance, or else a walk of first legal moves from it."""
    examples = s.instances()
    if not examples:
        return None
    text, inst = examples[0]
    default = s.registry.solver(s.puzzle.id)
    try:
        outcome = run_solver(s.puzzle, default, inst, SolveContext.with_timeout(OTHER_SOLVER_SECONDS)).outcome
    except Exception:
        outcome = None
    if isinstance(outcome, Solved) and outcome.moves:
        return text, inst, tuple(outcome.moves)[:TRANSLATED_MOVES]
    moves: list[str] = []
    with guard(_text_example(s.puzzle, text), "a walk of legal moves"):
        state = s.puzzle.start(inst)
        for _step in range(min(8, TRANSLATED_MOVES)):
            legal = list(s.puzzle.legal_moves(state))
            if not legal:
                break
            moves.append(legal[0])
            state = s.puzzle.apply_move(state, legal[0])
    return text, inst, tuple(moves)


def _texts_shown(s: Subject, solution: tuple[str, Any, tuple[str, ...]] | None) -> Iterator[tuple[str, Any]]:
    """(what it is, value) for every text the puzzle gives people, in the current locale."""
    from ..i18n import translate

    p = s.puzzle
    for attr in ("title", "rules", "notation", "limits"):
        yield attr, translate(p, getattr(p, attr, None))
    if getattr(p, "solved_sentence", None) is not None:
        yield "solved_sentence", translate(p, p.solved_sentence)
    labels = getattr(p, "random_option_labels", None) or {}
    for key, help_text in p.random_options.items():
        yield f"the help of random option {key!r}", translate(p, help_text)
        if key in labels:
            yield f"the label of random option {key!r}", translate(p, labels[key])
    for name in p.presets():
        yield f"preset_label({name!r})", p.preset_label(name)
    for mode in p.edit_modes():
        yield f"edit mode {mode.name!r}", translate(p, mode.label)
    for text, inst in s.instances()[:3]:
        where = _text_example(p, text)
        for i, note in enumerate(p.notes(inst)):
            yield f"note {i + 1} on {where}", note
        for tool in p.edit_tools(inst):
            yield f"an edit tool's label on {where}", translate(p, tool.label)
            for label, _action in tool.choices:
                yield f"a choice of edit tool {tool.label!r} on {where}", translate(p, label)
        assessment = p.assess(p.start(inst))
        if isinstance(assessment, Assessment) and assessment.verdict in ("can", "cannot"):
            yield f"assess's reason on {where}", assessment.reason
            if assessment.detail:
                yield f"assess's proof on {where}", assessment.detail
    if solution is not None:
        text, inst, moves = solution
        state = p.start(inst)
        for i, move in enumerate(moves, start=1):
            yield f"the words of move {i} ({move!r}) of {_text_example(p, text)}", p.describe_move(state, move)
            state = p.apply_move(state, move)
    for solver in s.solvers():
        solver_label = getattr(solver, "label", None)  # not in the contract; shown if a solver has one
        if solver_label is not None:
            yield f"solver {solver.name!r}'s label", translate(solver, solver_label)
        if solver.description:
            yield f"solver {solver.name!r}'s description", translate(solver, solver.description)
    for task in s.registry.tasks(p.id):
        yield f"task {task.name!r}'s label", translate(task, task.label)
        if task.description:
            yield f"task {task.name!r}'s description", translate(task, task.description)


def translations(s: Subject) -> str:
    from ..i18n import use_locale

    locales = _locales_of(s)
    solution = _words_of_a_solution(s)
    checked = 0
    for locale in locales:
        with use_locale(locale):
            for owner in (s.puzzle, *s.solvers(), *s.renderers(), *s.registry.tasks(s.puzzle.id)):
                _check_catalogue_placeholders(owner, locale)
            with guard(f"{s.puzzle.id} in locale {locale}", f"writing its texts in {locale}"):
                shown = list(_texts_shown(s, solution))
        for what, value in shown:
            if not isinstance(value, str):
                raise LawFailure(f"in locale {locale}, {what} is {type(value).__name__} {short(value)}, not text")
            if not value.strip():
                raise LawFailure(f"in locale {locale}, {what} is empty")
            left = _PLACEHOLDER.findall(value)
            if left:
                raise LawFailure(f"in locale {locale}, {what} has the unfilled placeholder {left[0]}: "
                                 f"{short(value)}")
            checked += 1
    return f"{checked} texts in {len(locales)} locale(s) ({', '.join(locales)}) are filled-in text"


@dataclass(frozen=True)
class Law:
    """A named law: its function and a one-line title."""

    name: str
    title: str
    check: Callable[[Subject], str]


LAWS: tuple[Law, ...] = (
    Law("identity", "id, title, rules, notation, limits, a solver and a renderer", identity),
    Law("presets", "presets exist, have URL-safe names, and parse", presets),
    Law("text-round-trip", "parse(format(i)) == i", text_round_trip),
    Law("canonical-text", "format gives one canonical text", canonical_text),
    Law("json-round-trip", "from_json(to_json(i)) == i through real JSON", json_round_trip),
    Law("random-instances", "random(seed) is reproducible, varies, and refuses bad options", random_instances),
    Law("legal-moves", "legal moves apply; describe_move and assess answer", legal_moves),
    Law("solutions-replay", "solvers solve random instances and every solution replays", solutions_replay),
    Law("optimal-claims", "optimal and unsolvable claims agree with breadth-first search", optimal_claims),
    Law("svg", "renderers give well-formed, pure SVG with a viewBox and nothing that runs", renderers_give_valid_svg),
    Law("escaping", "markup in instance text never reaches the SVG as markup", renderers_escape_text),
    Law("edits", "board actions and tools edit to valid instances or raise InputError", edits),
    Law("junk-text", "junk instance text raises InputError or is handled", junk_text),
    Law("junk-json", "junk JSON raises InputError or is handled", junk_json),
    Law("junk-moves", "junk moves and edit actions raise InputError or are handled", junk_moves_and_edits),
    Law("tasks", "tasks judge instances quickly in words and stop when cancelled", tasks),
    Law("translations", "every text shown to people is filled-in text in every locale the catalogue has",
        translations),
)
