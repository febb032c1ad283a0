# The two commands of the README: `make serve` and `make test`. Each sets up the environment first.
VENV ?= .venv
PYTHON ?= python3
STAMP := $(VENV)/.installed

.PHONY: serve test lint simulate openapi coverage

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[dev]'
	touch $(STAMP)

serve: $(STAMP)
	$(VENV)/bin/wixoss-judge serve $(SERVE_ARGS)

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest

simulate: $(STAMP)
	$(VENV)/bin/wixoss-judge simulate --games 500 --seed 1

openapi: $(STAMP)
	$(VENV)/bin/wixoss-judge openapi > openapi.yaml

coverage: $(STAMP)
	$(VENV)/bin/wixoss-judge coverage --markdown docs/COVERAGE.md
