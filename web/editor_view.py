"""The editor's view of a puzzle and of an instance, shared by the pages and the JSON API.

Both the editor page (its first paint) and the API's validate/edit answers describe an instance
the same way: canonical text, board SVG, notes, tools, tasks (and whether each can run on it),
the live verdict and an optional hint.
"""

from __future__ import annotations

from flask import current_app
from flask_babel import gettext

from engine import InputError, keep_tables_after
from engine.errors import PuzzleError
from engine.i18n import N_, current_locale, translate
from engine.solving import owner_of
from engine.tasks import refusal

from .numbers import read_whole
from .rendering import user_input
from .state import boards, registry

#: Seeds are whole numbers in this range (so they fit any integer type a plugin uses).
MAX_SEED = 2**63 - 1
#: Wall time (seconds) a puzzle may spend judging a live position after each edit.
ASSESS_BUDGET = 0.05
#: A table a verdict needs is written to the cache folder the n-th time it is needed (app
#: config ``KEEP_TABLES_AFTER``): one-off boards sent by anonymous visitors stay in memory.
KEEP_TABLES_AFTER = 2


def parse_seed(raw: str) -> int:
    """A seed from a query value: ASCII digits only, 0 to MAX_SEED (so a link means one board)."""
    # int() also reads "١٢" (other scripts' digits), "+5" and "1_0"; a seed is plain 0-9.
    if len(raw) > 19:  # longer than MAX_SEED: refused before it is read
        raise InputError(gettext("the seed must be a whole number from 0 to %(most)s", most=MAX_SEED), where="seed")
    seed = read_whole(raw, "seed", N_("the seed"))
    if seed > MAX_SEED:
        raise InputError(gettext("the seed must be a whole number from 0 to %(most)s", most=MAX_SEED), where="seed")
    return seed


def puzzle_summary(puzzle) -> dict:
    """Id, title and rules; the words in the reader's language (the plugin's catalogue)."""
    return {"id": puzzle.id, "title": translate(puzzle, puzzle.title), "rules": translate(puzzle, puzzle.rules)}


def preset_labels(puzzle) -> dict[str, str]:
    """Preset id -> the name shown to people (the ids stay in links and the API)."""
    out = {}
    for name in puzzle.presets():
        try:
            out[name] = str(puzzle.preset_label(name) or name)
        except Exception:  # a plugin's bug in a label must not break the editor
            out[name] = name
    return out


def client_script_url(puzzle) -> str:
    """The plugin's client script, asked for in the page's language (no ``lang`` for English
    read from the browser, so the address stays as it always was)."""
    from .i18n import link_lang

    url = f"/-/client/{puzzle.id}.js"
    locale = current_locale()
    if locale == "en" and not link_lang():
        return url
    return f"{url}?lang={locale.replace('_', '-')}"


def puzzle_details(puzzle) -> dict:
    """Everything the editor needs to know about a puzzle, independent of any instance."""
    reg = registry()
    return {
        **puzzle_summary(puzzle),
        "notation": translate(puzzle, puzzle.notation),
        "limits": translate(puzzle, puzzle.limits),
        "presets": dict(puzzle.presets()),
        "preset_names": preset_labels(puzzle),
        "random_options": {k: translate(puzzle, v) for k, v in puzzle.random_options.items()},
        "random_option_labels": {k: translate(puzzle, (getattr(puzzle, "random_option_labels", None) or {}).get(k))
                                 or k.replace("_", " ").capitalize() for k in puzzle.random_options},
        "edit_modes": [{"name": m.name, "label": translate(puzzle, m.label)} for m in puzzle.edit_modes()],
        "solvers": [{"name": s.name, "optimal": bool(s.optimal), "description": translate(s, s.description)}
                    for s in reg.solvers(puzzle.id)],
        "renderers": [r.name for r in reg.renderers(puzzle.id)],
        "tasks": [{"name": t.name, "label": translate(t, t.label), "description": translate(t, t.description)}
                  for t in reg.tasks(puzzle.id)],
        # In the page's language: the script's words come with it (web/pages.py, client_script).
        "client_script": client_script_url(puzzle) if puzzle.client_script else None,
        "solved_sentence": translate(puzzle, puzzle.solved_sentence),
        "picture_formats": list(puzzle.picture_formats),
    }


def tools_json(puzzle, instance) -> list[dict]:
    return [{"label": translate(puzzle, t.label), "action": t.action,
             "choices": [{"label": translate(puzzle, label), "action": action} for label, action in t.choices]}
            for t in puzzle.edit_tools(instance)]


def tasks_json(puzzle, instance) -> list[dict]:
    """The puzzle's tasks for this instance: name, label, description, and ``refusal``, the
    task's reason not to run on it (None: it can run; the editor disables its button otherwise).

    A plugin that fails while judging must not break editing: its task is shown refused, saying so.
    """
    reg = registry()
    out = []
    for task in reg.tasks(puzzle.id):
        try:
            reason = refusal(task, instance, owner_of(reg, task))
        except PuzzleError as exc:
            current_app.logger.error("task %s/%s: %s", puzzle.id, task.name, exc)
            reason = gettext("it cannot judge this board (its plugin failed; the server log says why)")
        out.append({"name": task.name, "label": translate(task, task.label),
                    "description": translate(task, task.description),
                    "refusal": reason})
    return out


def assessment_json(puzzle, state) -> dict:
    """The puzzle's live verdict on ``state`` (solved / can / cannot / unknown), in JSON.

    A plugin that fails here must not break editing: its verdict is simply "unknown".
    """
    try:
        with keep_tables_after(current_app.config.get("KEEP_TABLES_AFTER", KEEP_TABLES_AFTER)):
            verdict = puzzle.assess(state, budget=ASSESS_BUDGET)
        result = {"verdict": str(verdict.verdict), "reason": str(verdict.reason or ""),
                  "detail": str(verdict.detail or "")}
    except Exception:  # noqa: BLE001 - a plugin's bug is not the user's input error
        return {"verdict": "unknown", "reason": "", "detail": ""}
    if result["verdict"] not in ("solved", "can", "cannot", "unknown"):
        result["verdict"] = "unknown"
    return result


def describe_move(puzzle, state, move: str) -> str:
    """``puzzle.describe_move`` with the notation as the fallback if the plugin fails."""
    try:
        words = puzzle.describe_move(state, move)
    except Exception:  # noqa: BLE001 - plain words are a nicety; the notation is the truth
        return move
    return str(words) if words else move


def editor_state(puzzle_id: str, instance, *, selection=None, message=None, renderer=None,
                 next_move: str | None = None) -> dict:
    """The editor's view of an instance: canonical text, board SVG, notes, tools and the live
    verdict; with ``next_move`` (a hint) the board shows that move as the next one."""
    puzzle = registry().puzzle(puzzle_id)
    text = puzzle.format(instance)
    state = puzzle.start(instance)
    hint = None
    if next_move is not None:
        with user_input(N_("the hinted move")):
            puzzle.apply_move(state, next_move)  # InputError (a 400) if it is not legal here
        hint = {"move": next_move, "words": describe_move(puzzle, state, next_move)}
    return {
        "instance": text,
        "selection": selection,
        "message": message,
        "notes": list(puzzle.notes(instance)),
        "tools": tools_json(puzzle, instance),
        "tasks": tasks_json(puzzle, instance),
        "solved": bool(puzzle.is_solved(state)),
        "assessment": assessment_json(puzzle, state),
        "hint": hint,
        "svg": boards().render_instance(puzzle_id, instance, renderer, selection, next_move),
    }
