# Two commands for a fresh machine: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck imports pytest bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/dealerassist serve

test: $(STAMP) lint typecheck imports pytest

lint: $(STAMP)
	$(BIN)/ruff check dealerassist tests bench
	$(BIN)/ruff format --check dealerassist tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

imports: $(STAMP)
	$(BIN)/lint-imports

pytest: $(STAMP)
	$(BIN)/pytest -q $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/rankings.py
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/audit.py
	$(BIN)/python bench/api.py

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
