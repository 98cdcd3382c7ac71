# The two Quick start commands. Both do all set-up first (scripts/setup.sh), so they work on a
# fresh machine and are cheap to repeat.
.PHONY: run test lint bench

run:
	./scripts/setup.sh
	.venv/bin/puzzle serve

test:
	./scripts/setup.sh --browser
	$(MAKE) --no-print-directory lint
	.venv/bin/python -m pytest

# The lint and type gate (configured in pyproject.toml); part of `make test`.
lint:
	.venv/bin/ruff check .
	.venv/bin/mypy

# Figures from the issues: slow, not part of the tests.
bench:
	./scripts/setup.sh
	for b in bench/*.py; do .venv/bin/python $$b; done
