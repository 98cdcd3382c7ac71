"""The plugin contract: the Puzzle, Solver, Renderer and Task objects a plugin registers.

A plugin subclasses these and registers instances through the hooks in
:mod:`engine.hookspecs`. Everything the host, the CLI and the web app do with a puzzle goes
through the methods below, so a third-party puzzle gets parsing, validation, solving with replay,
rendering, editing, permalinks and playback without touching the host.

Vocabulary
----------
*instance*
    An immutable, hashable value describing one puzzle to solve (start position and goal).
    Its text form (:meth:`Puzzle.format`) is canonical: the cache key and the permalink.
*state*
    An immutable, hashable position reached by playing moves; :meth:`Puzzle.start` gives the
    first one. For many puzzles the state is the instance itself.
*move*
    A short string in the notation the puzzle documents in :attr:`Puzzle.notation`.
    A solution is a list of moves.
*edit action*
    A short string such as ``"toggle:d4"`` that a renderer puts in a ``data-action`` attribute
    or an :class:`EditTool` carries; :meth:`Puzzle.edit` applies it to an instance.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Hashable, Literal, Mapping, Sequence

from .context import SolveContext
from .errors import InputError
from .i18n import Catalogue, _, translate
from .outcomes import GaveUp, Outcome

#: The ``selection`` the host passes to :meth:`Renderer.render` for a still picture of a state
#: that nobody edits (the gallery's thumbnail of the first preset). A renderer whose editor board
#: differs from its playback board (work areas, trays, handles) draws the playback look for it;
#: others can ignore it, as they ignore any selection they do not know.
THUMBNAIL = "@thumbnail"

Instance = Hashable
State = Hashable


@dataclass(frozen=True)
class EditMode:
    """A way the board reacts to clicks in the editor, e.g. ``EditMode("play", "Play moves")``.

    The browser shows the modes as a choice and sends the chosen mode's ``name`` with each
    clicked ``data-action``. The first mode is the default.
    """

    name: str
    label: str


@dataclass(frozen=True)
class EditTool:
    """A button (or, with ``choices``, a drop-down) in the editor's toolbar.

    Pressing it sends ``action`` to :meth:`Puzzle.edit`. With ``choices`` (pairs of label and
    action), the user picks one choice and its action is sent instead.
    """

    label: str
    action: str = ""
    choices: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class EditResult:
    """What an edit returns.

    ``selection`` supports two-click actions (click a peg, then where it lands): the editor keeps
    it, passes it to the renderer (to highlight it) and sends it back with the next action.
    ``message`` is an optional line to show the user ("Tile 5 selected: click another tile").
    """

    instance: Instance
    selection: str | None = None
    message: str | None = None


@dataclass(frozen=True)
class Assessment:
    """A quick verdict on a live position: can the goal still be reached from here?

    ``verdict`` is ``"solved"`` (the goal is reached), ``"can"`` (proved reachable, e.g. a
    solution was found), ``"cannot"`` (proved unreachable) or ``"unknown"`` (not decided within
    the budget). ``reason`` is one plain sentence for the user ("No: no single peg can end on
    d4."); ``detail`` the longer proof, shown behind a "Why?" disclosure.
    """

    verdict: Literal["solved", "can", "cannot", "unknown"]
    reason: str = ""
    detail: str = ""


class Puzzle(ABC):
    """One kind of puzzle, complete: identity, instances, rules, editing and limits.

    A Puzzle object holds no per-instance state; all methods take and return immutable values.
    Every method that takes user input raises :class:`~engine.errors.InputError` with a clear
    message for bad input, and whatever ``parse``/``from_json``/``edit`` accept must never make
    ``start``, ``legal_moves``, ``apply_move``, rendering or solving crash.
    """

    #: URL-safe identifier, e.g. ``"sliding"``; used in the CLI and in URLs.
    id: ClassVar[str]
    #: Human title, e.g. ``"Sliding tiles"``.
    title: ClassVar[str]
    #: Short rules text (a sentence or two) shown in the gallery and ``puzzle list``.
    rules: ClassVar[str]
    #: How moves are written, e.g. "the number of the tile that slides into the blank".
    notation: ClassVar[str]
    #: The largest instance accepted, in words ("boards up to 32 x 32").
    limits: ClassVar[str]
    #: Options ``random`` understands: name -> help text (e.g. ``{"size": "rows x columns"}``).
    random_options: ClassVar[Mapping[str, str]] = {}
    #: Optional labels of those options as people read them (``{"size": N_("Size")}``), shown
    #: through ``catalogue`` like the help; an option without one is labelled by its name.
    random_option_labels: ClassVar[Mapping[str, str]] = {}
    #: Optional JavaScript (source text) that the web editor loads for richer input.
    client_script: ClassVar[str | None] = None
    #: Optional sentence the editor shows when a solve succeeds, instead of "Solved: N moves"
    #: (for puzzles whose answers always have the same length, e.g. "the seven pieces cover it").
    solved_sentence: ClassVar[str | None] = None
    #: Picture formats ``read_picture`` accepts (e.g. ``("PNG", "JPEG")``); empty: it reads none.
    picture_formats: ClassVar[tuple[str, ...]] = ()
    #: The plugin's translations (an :class:`engine.Catalogue`: its own gettext domain and
    #: ``locale/`` folder). The host shows ``title``, ``rules``, ``notation``, ``limits``, the
    #: ``random_options`` help and labels and the edit mode labels through it, in the reader's language;
    #: text it lacks stays English. None: the puzzle is shown in English (docs/plugins.md).
    catalogue: ClassVar[Catalogue | None] = None

    # -- instances -------------------------------------------------------------------------

    @abstractmethod
    def parse(self, text: str) -> Instance:
        """Parse instance text; raise InputError naming the problem (and where) if it is bad."""

    @abstractmethod
    def format(self, instance: Instance) -> str:
        """The canonical text of an instance; ``parse(format(i)) == i`` is a tested law."""

    def to_json(self, instance: Instance) -> dict:
        """A JSON-able dict for the instance; ``from_json(to_json(i)) == i`` is a tested law."""
        return {"text": self.format(instance)}

    def from_json(self, data: Any) -> Instance:
        """Build an instance from the JSON form; raise InputError for anything malformed."""
        if not isinstance(data, dict) or not isinstance(data.get("text"), str):
            raise InputError('expected a JSON object with a "text" field holding the instance text')
        return self.parse(data["text"])

    @abstractmethod
    def presets(self) -> Mapping[str, str]:
        """Named instances: preset name -> instance text. Names are short, URL-safe words."""

    def preset_label(self, name: str) -> str:
        """The name of a preset as people read it, in the current locale (the id ``name`` stays
        in links and the API). Default: the id itself."""
        return name

    @abstractmethod
    def random(self, seed: int, options: Mapping[str, str] | None = None) -> Instance:
        """A random *solvable* instance, the same one for the same seed and options.

        The default options (none given) should give an instance the default solver answers in a
        second or so: the conformance suite solves several of them.
        """

    def notes(self, instance: Instance) -> Sequence[str]:
        """Facts worth showing next to the board, e.g. "This board cannot be solved: ...".

        Cheap to compute (no search); the editor shows them after every edit.
        """
        return ()

    # -- rules -----------------------------------------------------------------------------

    def start(self, instance: Instance) -> State:
        """The state before any move."""
        return instance

    @abstractmethod
    def legal_moves(self, state: State) -> Sequence[str]:
        """The legal moves of a state (may be a representative finite list if infinitely many)."""

    @abstractmethod
    def apply_move(self, state: State, move: str) -> State:
        """The state after ``move``; raise InputError if the move is malformed or illegal."""

    def apply_moves(self, state: State, moves: Sequence[str]) -> State:
        """The state after every move in turn: an optional fast path for long move lists.

        The engine checks answers (which can be 100,000 moves) through this, a chunk of moves at
        a time, keeping one state alive. Override it when a state is costly to copy per move
        (a big board): apply the chunk to a mutable copy and build one state at the end. Raise
        InputError if any move is illegal; the engine then replays that chunk with
        :meth:`apply_move` to name the first bad move, so the message need not locate it.
        Default: :meth:`apply_move` for each move.
        """
        for move in moves:
            state = self.apply_move(state, move)
        return state

    @abstractmethod
    def is_solved(self, state: State) -> bool:
        """True when the state is a goal state."""

    def describe_move(self, state: State, move: str) -> str:
        """The move in plain words for people ("peg d2 jumps to d4", "tile 5 slides left").

        ``move`` is legal in ``state`` (the state before it is played). The editor shows this next
        to the raw notation and a live region reads it out. Default: the notation itself.
        """
        return move

    def assess(self, state: State, *, budget: float = 0.05) -> Assessment:
        """Judge a live position quickly: can the goal still be reached? (see :class:`Assessment`).

        ``budget`` is the wall time in seconds the judgement may take; past it, answer
        ``"unknown"`` rather than search on. Never answer ``"can"`` or ``"cannot"`` without proof:
        the editor shows the verdict while a person plays. Default: ``"solved"`` when
        :meth:`is_solved`, otherwise ``"unknown"``.
        """
        if self.is_solved(state):
            return Assessment("solved", "Solved.")
        return Assessment("unknown")

    def read_picture(self, data: bytes) -> Mapping[str, Any]:
        """Read an instance from a picture's bytes (a photo, a scan, a drawing).

        Returns a JSON-able mapping with ``"instance"`` (instance text ``parse`` accepts),
        optionally ``"notes"`` (sentences on how it was read, which ``puzzle solve --image``
        prints before the answer) and whatever a preview needs (the tangram plugin adds the
        outline it read, in the picture's pixels). Raise InputError in words for a picture that
        cannot be read. The host bounds the bytes it passes (``puzzle solve --image``,
        ``POST /api/<puzzle>/trace``); the picture is never stored. Default: this puzzle reads
        no pictures.
        """
        raise InputError(f"{self.title} cannot read an instance from a picture")

    def describe_solution(self, instance: Instance, moves: Sequence[str]) -> Mapping[str, Any]:
        """Extra JSON-able facts about a (replayed, valid) solution, shown with it.

        For example peg solitaire groups jumps into multi-jump moves, tangram lists each placed
        piece's vertices. Default: nothing.
        """
        return {}

    # -- editing ---------------------------------------------------------------------------

    def edit_modes(self) -> Sequence[EditMode]:
        """The editor's click modes; the first is the default. Default: none."""
        return ()

    def edit_tools(self, instance: Instance) -> Sequence[EditTool]:
        """Toolbar buttons for this instance (shuffle, resize, reset, ...). Default: none."""
        return ()

    def edit(
        self,
        instance: Instance,
        action: str,
        *,
        mode: str | None = None,
        selection: str | None = None,
    ) -> EditResult:
        """Apply an edit action (from a ``data-action`` attribute or an EditTool).

        ``mode`` is the name of the chosen :class:`EditMode` (None: the first), ``selection`` the
        one a previous edit returned. Raise InputError for an unknown or impossible action.
        """
        raise InputError(_("{puzzle} has no edit actions").format(puzzle=translate(self, self.title)))


@dataclass(frozen=True)
class PrepareCost:
    """What :meth:`Solver.prepare` would still build, so ``puzzle prepare`` can say it first
    (and ask before a big one): about how many ``seconds``, the most ``memory`` it holds at
    once and the ``disk`` it adds, in bytes, and ``what`` in a few words per table
    (``("4x4 7-8 pattern databases",)``). All zero when nothing is left to build.

    ``memory`` is the build's own peak, above what the process held before it (the engine adds
    the process's own size); ``kept`` is what the built tables still hold in memory after it
    (loaded for the solves to come), on top of which the next build in the same process runs.
    Measure both (``/usr/bin/time -v``, the maximum resident set size) rather than count
    arrays: buffers, threads and compiled code add up."""

    seconds: float = 0.0
    memory: int = 0
    disk: int = 0
    what: tuple[str, ...] = ()
    kept: int = 0

    def __add__(self, other: PrepareCost) -> PrepareCost:
        """Both, one after the other: times, disk and what stays in memory add up; the peak
        is the larger of the first's and the second's on top of what the first kept."""
        return PrepareCost(self.seconds + other.seconds,
                           max(self.memory, self.kept + other.memory),
                           self.disk + other.disk, self.what + other.what,
                           self.kept + other.kept)


class Solver(ABC):
    """A way to solve instances of one puzzle.

    Several solvers may serve one puzzle, and a plugin may add a solver to a puzzle it did not
    write. The first solver the puzzle's own plugin registers is its default.
    """

    #: Its plugin's translations of its label and description (docs/plugins.md); None: English.
    catalogue: ClassVar[Catalogue | None] = None
    #: The id of the puzzle this solver solves.
    puzzle_id: ClassVar[str]
    #: Name unique among this puzzle's solvers, e.g. ``"optimal"`` or ``"fast"``.
    name: ClassVar[str]
    #: True promises that every solution it returns is a shortest one. A solver that proves only
    #: some answers keeps False and returns ``Solved(..., optimal=True)`` on those.
    optimal: ClassVar[bool] = False
    #: One line saying how it works and what to expect.
    description: ClassVar[str] = ""

    def prepare(self, ctx: SolveContext, *, big_builds: bool = False) -> bool:
        """Do slow one-off work ahead of time (build and cache tables), so solves start fast.

        Report ``ctx.progress(...)`` and honour ``ctx.should_stop()``; return True when the
        solver is ready, False if it was stopped first. For each table it made, report
        ``ctx.progress(force=True, built="...")`` (what, and its size): ``puzzle prepare``
        prints those lines. The default has nothing to prepare. A
        solver must still work unprepared (building what it needs inside ``solve``).

        ``big_builds`` is the caller's permission to spend minutes and gigabytes (of memory or
        disk) here. ``puzzle prepare``, run by a person who watches its progress, gives it
        (True), and so does the background preparer of ``puzzle serve`` and ``puzzle worker``
        (:mod:`engine.background`: one low-priority process, after the server listens). A
        server or its workers preparing before they serve (the job pool) do not (False): they
        must start in seconds, so load what is already on disk and build only what is quick. A
        ``prepare(self, ctx)`` written before this argument existed is still called, without it.

        With ``big_builds``, check first that memory and disk suffice. Progress reports the
        pages show in words: ``tables`` (what they are for: "the 24-puzzle"), ``done`` and
        ``total`` (or ``percent``), and ``skipped`` (why a build was left out: "not enough
        memory (...)"). Write tables atomically (:class:`engine.TableCache`); ``solve`` should
        look at the disk for a table it has not loaded (a cheap stat), so a table finished
        after the process started is used without a restart.
        """
        return True

    def prepare_cost(self, *, big_builds: bool = False) -> PrepareCost:
        """What :meth:`prepare` with the same ``big_builds`` would still build (cheap: look at
        what is on disk, no building). ``puzzle prepare`` adds these up and says the total
        before it starts, and asks before it goes over about a gigabyte. Default: nothing.
        """
        return PrepareCost()

    @abstractmethod
    def solve(self, instance: Instance, ctx: SolveContext) -> Outcome:
        """Solve ``instance``: return Solved, Unsolvable (with the reason) or GaveUp.

        Check ``ctx.should_stop()`` regularly and return ``ctx.gave_up(**stats)`` when it is
        true; report ``ctx.progress(nodes=..., bound=...)``. Never trust the caller to have
        checked solvability. The engine replays the returned moves; a wrong one is an error.

        When a table that is not on disk would have given a far better answer and the time
        limit left no room to build it, say so in ``stats["note"]``: one plain sentence naming
        what builds it and how long that takes ("`puzzle prepare pegs` (about 2 minutes, once)
        makes it ..."). The engine copies it into the answer's ``details["note"]``; the CLI
        and the web page show it under the answer. Only where the table could change the
        answer: the engine drops the note from a proven-shortest answer and from a proof of
        impossibility (:func:`engine.solving.note_changes_answer`).
        """


class Renderer(ABC):
    """Draws states of one puzzle as SVG.

    A pure function of its arguments: the same input gives the same SVG text. The SVG has a
    ``viewBox``, CSS classes on its parts, ``data-action`` attributes on clickable parts (edit
    actions) and escapes all user-supplied text. The owning plugin's first renderer is the default.
    """

    puzzle_id: ClassVar[str]
    #: Theme name, unique among this puzzle's renderers.
    name: ClassVar[str] = "default"

    @abstractmethod
    def render(
        self,
        state: State,
        *,
        last_move: str | None = None,
        next_move: str | None = None,
        selection: str | None = None,
    ) -> str:
        """SVG text for ``state``.

        ``last_move`` is the move just played (highlight what it changed), ``next_move`` the one
        about to be played (highlight what it will move), ``selection`` a pending selection
        returned by :meth:`Puzzle.edit`, or :data:`THUMBNAIL` for a still picture that is not
        being edited. Moves given here are legal for the state.
        """


@dataclass(frozen=True)
class TaskResult:
    """What a :class:`Task` found: one plain sentence for people, and JSON-able facts.

    ``summary`` is shown as it is ("29,760 solutions."); ``data`` holds the figures behind it
    (numbers, short strings, lists of records), shown behind "Details" and given to API clients.
    A whole number that may pass 2**53 belongs in ``data`` as a decimal *string*: browsers read
    JSON numbers as doubles and would round it.
    """

    summary: str
    data: Mapping[str, Any] = field(default_factory=dict)


class Task(ABC):
    """A named long-running tool on one instance of one puzzle, run as a job (with progress and
    Cancel) instead of in a web request: count every solution, build a table, measure something.

    The editor shows each task of a puzzle as a button beside Solve, disabled with the reason
    when :meth:`refusal` says the task cannot run on the instance shown. A plugin may add a task
    to a puzzle it did not write (like a solver).
    """

    #: Its plugin's translations of its label and description (docs/plugins.md); None: English.
    catalogue: ClassVar[Catalogue | None] = None
    #: The id of the puzzle this task works on.
    puzzle_id: ClassVar[str]
    #: URL-safe name, unique among this puzzle's tasks, e.g. ``"count"``.
    name: ClassVar[str]
    #: The button's text, e.g. ``"Count solutions"``.
    label: ClassVar[str]
    #: One line saying what it does and what to expect (shown as the button's description).
    description: ClassVar[str] = ""

    def refusal(self, instance: Instance) -> str | None:
        """Why the task will not run on ``instance`` (one plain sentence), or None when it can.

        Called for every instance the editor shows, so it must be cheap (milliseconds): an
        estimate of the memory or time the task would need, against a budget the task keeps.
        The host refuses to start the task while this gives a reason. Default: None.
        """
        return None

    @abstractmethod
    def run(self, instance: Instance, ctx: SolveContext) -> TaskResult | GaveUp:
        """Do the work and return a :class:`TaskResult`, or ``ctx.gave_up(**stats)`` once
        ``ctx.should_stop()`` is true (cancelled or past the time limit).

        Report ``ctx.progress(done=..., total=..., message=...)``: numbers ``done`` of ``total``
        draw a progress bar, ``phase`` and ``message`` (short text) say what is happening; other
        stats are shown as figures. Raise InputError for an instance it cannot handle after all.
        """
