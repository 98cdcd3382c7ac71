# The two Quick start commands. Both do all set-up first (scripts/setup.sh), so they work on a
# fresh machine and are cheap to repeat.
.PHONY: run test bench

run:
	./scripts/setup.sh
	.venv/bin/puzzle serve

test:
	./scripts/setup.sh --browser
	.venv/bin/python -m pytest

# Figures from the issues: slow, not part of the tests.
bench:
	./scripts/setup.sh
	for b in bench/*.py; do .venv/bin/python $$b; done
