"""engine.solving.read_instance, the one door from front ends to a puzzle's parser, and
parse_canonical, how a worker reads a job's (already canonical) instance text."""

from __future__ import annotations

import pytest
from test_web_toy import Pairs

from engine import InputError
from engine.solving import parse_canonical, read_instance


class Tricky(Pairs):
    """A preset whose *name* is also valid instance text of another row."""

    def presets(self):
        return {"0110": "1111", "easy": "0011"}


class Fragile(Pairs):
    """A parser that breaks the contract with a plain ValueError on odd input."""

    def parse(self, text):
        if text == "boom":
            raise ValueError("unexpected token")
        return super().parse(text)


def test_text_a_preset_name_and_the_json_form_give_canonical_text():
    puzzle = Pairs()
    assert read_instance(puzzle, " 0110 \n") == ((0, 1, 1, 0), "0110")
    assert read_instance(puzzle, "easy") == ((0, 1, 1, 0), "0110")
    assert read_instance(puzzle, {"text": "1001"}) == ((1, 0, 0, 1), "1001")


def test_anything_else_is_a_clear_input_error():
    with pytest.raises(InputError, match="must be text") as caught:
        read_instance(Pairs(), 42)
    assert caught.value.where == "instance"
    with pytest.raises(InputError, match="unexpected token"):  # a plugin's slip, said in words
        read_instance(Fragile(), "boom")


def test_a_worker_parses_canonical_text_and_never_looks_up_a_preset():
    puzzle = Tricky()
    instance, canonical = read_instance(puzzle, "0110")  # the front end: a preset name first
    assert (instance, canonical) == ((1, 1, 1, 1), "1111")
    assert parse_canonical(puzzle, canonical) == instance
    assert parse_canonical(puzzle, "0110") == (0, 1, 1, 0)  # the worker: text is text
