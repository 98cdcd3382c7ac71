"""Pattern-database files: damage is detected and the table rebuilt; an unwritable cache
directory falls back to tables kept in memory with one warning (small 3x3 tables, quick)."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from plugins.sliding import pdb, pdb_file

PARTITION = ((1, 2, 3, 4), (5, 6, 7, 8))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    pdb.forget_loaded()
    yield tmp_path
    pdb.forget_loaded()


def count_builds(monkeypatch) -> list:
    built = []
    real = pdb.build_pattern

    def counting(rows, cols, pattern, *args, **kwargs):
        built.append(tuple(pattern))
        return real(rows, cols, pattern, *args, **kwargs)

    monkeypatch.setattr(pdb, "build_pattern", counting)
    return built


def damage_flip(path):
    data = bytearray(path.read_bytes())
    data[-100] ^= 0x01     # one bit in the table's bytes, header intact
    path.write_bytes(bytes(data))


def damage_truncate(path):
    path.write_bytes(path.read_bytes()[:-7])


def damage_garbage(path):
    path.write_bytes(b"not a table at all")


@pytest.mark.parametrize("damage", [damage_flip, damage_truncate, damage_garbage])
def test_damaged_file_is_detected_and_rebuilt(cache, monkeypatch, caplog, damage):
    good = pdb.get_tables(3, 3, PARTITION)
    reference = np.array(good.table)
    victim = pdb.pattern_path(3, 3, PARTITION[1])
    damage(victim)
    pdb.forget_loaded()
    built = count_builds(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="puzzle_engine.sliding"):
        again = pdb.get_tables(3, 3, PARTITION)
    assert built == [PARTITION[1]]                      # only the damaged pattern was rebuilt
    assert np.array_equal(np.array(again.table), reference)
    assert any("damaged" in r.getMessage() for r in caplog.records)
    # The rebuilt file was saved again and now loads cleanly.
    assert pdb.load_pattern(3, 3, PARTITION[1]) is not None


def test_file_made_for_another_pattern_is_not_trusted(cache):
    pdb.get_tables(3, 3, PARTITION)
    a, b = (pdb.pattern_path(3, 3, p) for p in PARTITION)
    b.write_bytes(a.read_bytes())     # right format, right size, wrong table
    assert pdb.load_pattern(3, 3, PARTITION[1]) is None


def test_round_trip_keeps_every_byte(tmp_path):
    array = np.arange(1000, dtype=np.uint8)
    path = tmp_path / "t.pdb"
    pdb_file.save(path, array, {"x": 1})
    loaded = pdb_file.load(path, {"x": 1})
    assert loaded is not None and np.array_equal(loaded, array)
    assert not loaded.flags.writeable
    assert pdb_file.load(path, {"x": 2}) is None


@pytest.mark.parametrize("kind", ["file", "missing-parent-is-file"])
def test_unwritable_cache_keeps_tables_in_memory_with_one_warning(tmp_path, monkeypatch, caplog,
                                                                   kind):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a directory should be")
    target = blocker if kind == "file" else blocker / "sub" / "dir"
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(target))
    monkeypatch.setattr(pdb, "_warned", [])
    pdb.forget_loaded()
    with caplog.at_level(logging.WARNING, logger="puzzle_engine.sliding"):
        tables = pdb.get_tables(3, 3, PARTITION)
        pdb.forget_loaded()
        again = pdb.get_tables(3, 3, PARTITION)   # builds again (nothing saved), warns no more
    assert np.array_equal(np.array(tables.table), np.array(again.table))
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 1 and "cannot write pattern databases" in messages[0], messages
    assert "\n" not in messages[0]
    pdb.forget_loaded()
