# Two commands for a newcomer: `make run` and `make test`. Everything else is here for the curious.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 2
INTERACTIVE_WORKERS ?= 2
# The queues of docs/scale.md: heavy jobs (analyses, images, exports, ..) and interactive ones (LOS, viewsheds).
HEAVY_QUEUE = $${HEXSIDE_JOBS_QUEUE:-celery}
INTERACTIVE_QUEUE = $${HEXSIDE_JOBS_INTERACTIVE_QUEUE:-interactive}

.PHONY: run test check setup venv lock lint typecheck migrations-check lint-js bench worker clean vassal-extension

# The virtualenv holds requirements/dev.txt (the runtime's base.txt whole, plus the tests' and linters' tools),
# every file checked against its hash; `make run` and `make test` share it. A deployment installs base.txt alone.
$(VENV)/.installed: requirements/base.txt requirements/dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --disable-pip-version-check -q --require-hashes -r requirements/dev.txt
	touch $@

venv: $(VENV)/.installed

# The lock files, from the names in requirements/*.in. pip-compile keeps every version already locked; to move
# one: `make lock PIP_COMPILE_ARGS="--upgrade-package numpy"`.
# (pip-tools 7.6 reads the header's command from CUSTOM_COMPILE_COMMAND: its option of that name is gone.)
PIP_COMPILE = CUSTOM_COMPILE_COMMAND="make lock" $(PY) -m piptools compile --quiet --generate-hashes --allow-unsafe \
	--strip-extras --no-emit-index-url --no-emit-find-links $(PIP_COMPILE_ARGS)
lock: venv
	$(PIP_COMPILE) requirements/base.in
	$(PIP_COMPILE) requirements/dev.in

# A secret key of this machine's own, made once and kept under var/ (settings read it from there).
var/secret_key:
	mkdir -p var
	umask 077 && $(PY) -c "import secrets; print(secrets.token_urlsafe(50))" > $@

setup: venv var/secret_key
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py collectstatic --noinput -v 0
	$(PY) manage.py warm_kernels -v 0

run: setup
	$(PY) manage.py load_samples
	$(PY) manage.py load_scenario_samples
	$(PY) manage.py demo_user
	@echo ""
	@echo "  Hexside is running at http://$(HOST):$(PORT)/"
	@echo "  API: http://$(HOST):$(PORT)/api/   docs: http://$(HOST):$(PORT)/api/docs/   admin: http://$(HOST):$(PORT)/admin/"
	@echo "  Sign in as demo / demo. Ctrl-C stops the server and the worker."
	@echo ""
	$(PY) -m hexside.run --host $(HOST) --port $(PORT) --workers $(WORKERS) \
		--interactive-workers $(INTERACTIVE_WORKERS) --heavy-queue=$(HEAVY_QUEUE) --interactive-queue=$(INTERACTIVE_QUEUE)

# One numba thread per pool process: the processes already use the cores. This worker takes both queues.
worker: setup
	NUMBA_NUM_THREADS=1 $(PY) -m celery -A hexside worker --queues=$(HEAVY_QUEUE),$(INTERACTIVE_QUEUE) \
		--loglevel=info --concurrency=$(WORKERS)

# The tests run in TEST_PROCESSES processes (pytest-xdist). The worker and browser tests are one group that one
# process runs, with one shared Celery worker and one Chromium, while the others share out the rest.
TEST_PROCESSES ?= 2
PYTEST_PARALLEL = -n $(TEST_PROCESSES) --dist loadgroup

# What every tier checks before its tests: ruff, the layer rules (.importlinter), the engine's types (mypy.ini),
# models that no migration describes yet, and the front end's lint and types.
lint: venv var/secret_key typecheck migrations-check lint-js
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports

# Every test, before a push (docs/testing.md): the checks, then the whole suite.
test: setup lint
	$(PY) -m pytest $(PYTEST_PARALLEL)

# The inner loop, in a few minutes: the checks, then the tests that need no worker, no browser and no service, and
# are not slow (fresh processes, the largest inputs: tests/conftest.py SLOW).
CHECK_TESTS = not browser and not worker and not postgres and not redis and not slow
check: setup lint
	$(PY) -m pytest $(PYTEST_PARALLEL) -q -m "$(CHECK_TESTS)"

# The engine's types (mypy.ini), and models that no migration describes yet (a change without its migration).
typecheck: venv
	$(PY) -m mypy

migrations-check: venv var/secret_key
	$(PY) manage.py makemigrations --check --dry-run

# The front end's lint and type check: ESLint (eslint.config.js) and tsc on the `// @ts-check` modules
# (jsconfig.json), both pinned in package.json and package-lock.json; node_modules/ is installed on first use.
lint-js:
	test -d node_modules || npm ci --no-audit --no-fund
	npx eslint static/js
	npx tsc -p jsconfig.json

# Every benchmark but bench/bench_tiers.py, which times make check, make test and .ci/run themselves.
bench: setup
	for b in bench/bench_*.py; do [ $$b = bench/bench_tiers.py ] && continue; echo "== $$b"; $(PY) $$b || exit 1; done

# Hexside's LOS extension for VASSAL (vassal/src) into the jar every exported module carries
# (engine/exports/vassal_ext/hexside-los.jar, committed: the exporter needs no JDK). Needs javac; reproducible, and
# tests/engine/exports/test_vassal_los.py builds it again and compares.
vassal-extension: venv
	$(PY) vassal/build_extension.py

# Starting over: the database and its broker folder go together (a message kept for a database that is gone would
# name another job with the same id: docs/jobs.md, "What a deployment must not share"), with the jobs' files.
clean:
	rm -rf var/hexside.sqlite3 var/hexside.sqlite3-wal var/hexside.sqlite3-shm var/broker var/media var/hexside-test*

# The docs' screenshots, made on purpose (tests never write docs/): the browser tests that take them write
# tests/browser/artifacts/, and this copies those the docs show into docs/images/.
DOCS_IMAGES = painter-painted painter-help painter-conflict painter-los painter-viewshed painter-scan overlays-named \
              roads-painter heat-legend scenario-editor-checks scenario-editor-sight scenario-sample-hill-112
.PHONY: docs-images
docs-images: setup
	$(PY) -m pytest -q -m browser tests/browser/test_painter.py tests/browser/test_scenario_editor.py \
		tests/browser/test_overlays_and_drawing.py
	for name in $(DOCS_IMAGES); do cp tests/browser/artifacts/$$name.png docs/images/ || exit 1; done
