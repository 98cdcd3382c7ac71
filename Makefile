# The two Quick start commands. Both do all set-up first (scripts/setup.sh), so they work on a
# fresh machine and are cheap to repeat.
.PHONY: run test lint bench translations

# `make test` runs the tests on every core (pytest-xdist), a file per worker at a time: a file's
# module fixtures (a Redis server, a web app) are built once. Every server, port and temporary
# folder is the worker's own, and cache files are written atomically, so workers never collide.
# `make test PARALLEL=` runs them in one process.
PARALLEL ?= -n auto --dist loadfile

run:
	./scripts/setup.sh
	.venv/bin/puzzle serve

test:
	./scripts/setup.sh --browser
	$(MAKE) --no-print-directory lint
	.venv/bin/python -m pytest $(PARALLEL)

# The lint and type gate (configured in pyproject.toml); part of `make test`.
lint:
	.venv/bin/ruff check .
	.venv/bin/mypy

# Figures from the issues: slow, not part of the tests.
bench:
	./scripts/setup.sh
	for b in bench/*.py; do .venv/bin/python $$b; done

# Every gettext catalogue (docs/i18n.md): extract the messages, update each .po file, compile the
# .mo files (committed, so set-up and the wheel need no compile step).
translations:
	./scripts/setup.sh
	.venv/bin/python scripts/translations.py
