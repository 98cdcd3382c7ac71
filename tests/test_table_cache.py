"""The engine's bounded table cache (engine/tablecache.py): budget, LRU order, admission,
readers that survive eviction, files that appear later, and its configuration."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from engine import TableCache, fresh_tables, keep_tables_after, pinned_tables
from engine.tablecache import BUDGET_ENV, DEFAULT_BUDGET, cache_budget, parse_size
from plugins.pegs.tablefile import load_arrays, save_arrays


def _blob(n: int):
    return lambda out: out.write(b"x" * n)


def _names(cache: TableCache) -> list[str]:
    return [e.path.name for e in cache.entries()]


def test_the_folder_stays_within_its_budget_after_2000_random_custom_boards(tmp_path, monkeypatch):
    """2,000 tables of random custom boards (random sizes, as a peg table's grows with its board)
    stored through the peg plugin's own writer: the folder never holds more than the budget."""
    budget = 200_000
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    monkeypatch.setenv(BUDGET_ENV, str(budget))
    from engine import table_cache

    rng = random.Random(27)
    for i in range(2000):
        rows, cols = rng.randint(3, 12), rng.randint(3, 12)
        holes = rng.getrandbits(rows * cols)
        params = f"pegs-test-square-{rows}x{cols}-{holes:x}"
        arrays = {"k1": np.random.default_rng(i).integers(0, 1 << 40, rng.randint(1, 4000),
                                                          dtype=np.uint64)}
        save_arrays(tmp_path / f"pegs-live-test-{i}.npz", params, arrays)
        assert table_cache().usage() <= budget
    files = list(tmp_path.glob("pegs-live-test-*.npz"))
    assert 5 <= len(files) < 2000  # written, and evicted
    # The newest table is always there and whole (its digest checks).
    last = tmp_path / "pegs-live-test-1999.npz"
    assert last.exists()
    assert sum(f.stat().st_size for f in tmp_path.iterdir() if f.is_file()
               and not f.name.startswith(".")) <= budget


def test_the_least_recently_used_file_goes_first(tmp_path):
    cache = TableCache(tmp_path, budget=1000)
    for name in "abc":
        assert cache.write(tmp_path / name, _blob(300)) == "disk"
    cache.used(tmp_path / "a")  # read again: now b is the least recently used
    cache.write(tmp_path / "d", _blob(300))
    assert sorted(_names(cache)) == ["a", "c", "d"]
    cache.used(tmp_path / "c")
    cache.write(tmp_path / "e", _blob(300))
    assert sorted(_names(cache)) == ["c", "d", "e"]  # a was older than c and d
    assert _names(cache)[-1] == "e"  # the entries come least recently used first


def test_pinned_files_go_only_after_every_other(tmp_path):
    cache = TableCache(tmp_path, budget=1000)
    with pinned_tables():
        cache.write(tmp_path / "prepared", _blob(300))
    cache.write(tmp_path / "a", _blob(300))
    cache.write(tmp_path / "b", _blob(300))
    cache.write(tmp_path / "c", _blob(300))  # over budget: a goes, not the older pinned file
    assert sorted(_names(cache)) == ["b", "c", "prepared"]
    cache.write(tmp_path / "big", _blob(900))  # only room for itself: the pinned one goes too
    assert _names(cache) == ["big"]
    assert not (tmp_path / ".prepared.pinned").exists()


def test_a_file_larger_than_the_budget_stays_in_memory(tmp_path):
    cache = TableCache(tmp_path, budget=100)
    path = tmp_path / "huge"
    assert cache.write(path, _blob(500)) == "memory"
    assert not path.exists()
    with cache.read(path) as f:
        assert f.read() == b"x" * 500


def test_tables_for_requests_reach_the_disk_only_when_asked_for_again(tmp_path):
    cache = TableCache(tmp_path, budget=10_000)
    once, twice = tmp_path / "once", tmp_path / "twice"
    with keep_tables_after(2):
        for path in (once, twice):
            assert cache.read(path) is None  # asked for the first time: built, then stored
            assert cache.write(path, _blob(100)) == "memory"
        assert not once.exists() and not twice.exists()
        assert cache.memory_bytes() == 200
        with cache.read(twice) as f:  # asked for again: worth keeping, written now
            assert f.read() == b"x" * 100
    assert twice.exists() and not once.exists()
    assert cache.memory_bytes() == 100
    # The command line's rule (no context): written on first use.
    assert cache.write(tmp_path / "cli", _blob(10)) == "disk"


def test_a_reader_keeps_its_data_when_the_file_is_evicted_and_the_next_one_rebuilds(tmp_path):
    cache = TableCache(tmp_path, budget=10_000)
    path = tmp_path / "t.npz"
    save = np.arange(1000, dtype=np.uint64)
    cache.write(path, lambda out: np.savez(out, k1=save))
    f = cache.read(path)
    assert f is not None
    cache.write(tmp_path / "new", _blob(9_500))  # evicts t.npz while it is open
    assert not path.exists()
    with f, np.load(f) as data:
        assert np.array_equal(data["k1"], save)
    assert cache.read(path) is None  # gone: the caller builds it again


def test_a_peg_table_evicted_under_a_reader_reads_as_missing(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    path = tmp_path / "pegs-live-x.npz"
    save_arrays(path, "p", {"k1": np.arange(3, dtype=np.uint64)})
    assert load_arrays(path, "p") is not None
    path.unlink()  # another process evicted it
    assert load_arrays(path, "p") is None


def test_fresh_tables_reads_nothing(tmp_path):
    cache = TableCache(tmp_path)
    cache.write(tmp_path / "t", _blob(10))
    with fresh_tables():
        assert cache.read(tmp_path / "t") is None
    assert cache.read(tmp_path / "t") is not None


def test_a_file_written_later_is_noticed_at_a_bounded_rate(tmp_path):
    cache = TableCache(tmp_path)
    path = tmp_path / "large"
    assert not cache.appeared(path, every=0)
    path.write_bytes(b"1")
    assert not cache.appeared(path, every=3600)  # looked too recently: not even a stat
    assert cache.appeared(path, every=0)
    assert not cache.appeared(path, every=0)  # seen: no news
    cache.used(path)
    assert not cache.appeared(path, every=0)  # used (its time changed), not rewritten
    tmp = tmp_path / "large.new"
    tmp.write_bytes(b"22")
    os.replace(tmp, path)  # rewritten by another process
    assert cache.appeared(path, every=0)


def test_temporary_and_hidden_files_do_not_count(tmp_path):
    cache = TableCache(tmp_path, budget=10)
    (tmp_path / "t.npz.123.4.tmp").write_bytes(b"x" * 100)  # a writer at work
    (tmp_path / ".budget.lock").write_bytes(b"")
    (tmp_path / "hypothesis").mkdir()
    assert cache.entries() == []
    cache.evict()
    assert (tmp_path / "t.npz.123.4.tmp").exists()


def test_sizes_and_the_configured_budget(monkeypatch):
    assert parse_size("4G") == 4 * 2**30
    assert parse_size("500M") == 500 * 2**20
    assert parse_size("1.5GiB") == 3 * 2**29
    assert parse_size("1024") == 1024
    for bad in ("", "lots", "-1G", "4X", "٥M"):
        with pytest.raises(ValueError, match="not a size"):
            parse_size(bad)
    monkeypatch.setenv(BUDGET_ENV, "2G")
    assert cache_budget() == 2 * 2**30
    monkeypatch.setenv(BUDGET_ENV, "plenty")
    assert cache_budget() == DEFAULT_BUDGET  # said once in the log
    monkeypatch.delenv(BUDGET_ENV)
    assert cache_budget() == DEFAULT_BUDGET


def test_the_command_line_option_sets_the_budget_and_refuses_nonsense(tmp_path):
    env = {**os.environ, "PUZZLE_ENGINE_CACHE": str(tmp_path), "PUZZLE_ENGINE_PLUGINS": "pegs"}
    bad = subprocess.run([sys.executable, "-m", "engine.cli", "--cache-budget", "lots", "list"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 2
    assert "not a size" in bad.stderr
    code = ("import os, sys; from engine.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print('budget', os.environ.get('PUZZLE_ENGINE_CACHE_BUDGET'))")
    ok = subprocess.run([sys.executable, "-c", code, "--cache-budget", "300M", "list"],
                        capture_output=True, text=True, env=env, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "budget 300M" in ok.stdout


def test_sliding_pattern_databases_count_toward_the_budget(tmp_path, monkeypatch):
    from plugins.sliding import pdb_file

    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    monkeypatch.setenv(BUDGET_ENV, "3000")
    from engine import table_cache

    table = np.arange(1000, dtype=np.uint8)
    for name in ("a.pdb", "b.pdb", "c.pdb"):
        pdb_file.save(tmp_path / name, table, {"name": name})
    assert table_cache().usage() <= 3000
    assert not (tmp_path / "a.pdb").exists()  # the least recently used went
    assert pdb_file.load(tmp_path / "a.pdb", {"name": "a.pdb"}) is None  # so it is rebuilt
    loaded = pdb_file.load(tmp_path / "b.pdb", {"name": "b.pdb"})  # mapped, and now used
    pdb_file.save(tmp_path / "d.pdb", table, {"name": "d.pdb"})
    assert sorted(p.name for p in tmp_path.glob("*.pdb")) == ["b.pdb", "d.pdb"]
    assert loaded is not None and np.array_equal(loaded, table)
    with pytest.raises(OSError, match="larger than the cache budget"):
        pdb_file.save(tmp_path / "big.pdb", np.zeros(5000, np.uint8), {"name": "big"})


def test_the_fingerprint_names_the_tables_built_on_purpose(tmp_path):
    cache = TableCache(tmp_path)
    assert cache.fingerprint() == ""
    cache.write(tmp_path / "visitor-board", _blob(10))  # not built on purpose: not counted
    assert cache.fingerprint() == ""
    with pinned_tables():
        cache.write(tmp_path / "prepared", _blob(10))
    first = cache.fingerprint()
    assert first != ""
    cache.used(tmp_path / "prepared")
    assert cache.fingerprint() == first  # used, not changed
    with pinned_tables():
        cache.write(tmp_path / "another", _blob(20))
    assert cache.fingerprint() not in ("", first)
    (tmp_path / "another").unlink()  # evicted
    assert cache.fingerprint() == first
