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

.PHONY: run test check setup venv bench worker clean

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --disable-pip-version-check -q -r requirements.txt
	cp requirements.txt $@

venv: $(VENV)/.installed

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

# Every test, before a push (docs/testing.md): ruff, then the whole suite.
test: setup
	$(PY) -m ruff check .
	$(PY) -m pytest $(PYTEST_PARALLEL)

# The inner loop, in a few minutes: ruff, the checks other tools make (a line each), then the tests that need no
# worker, no browser and no service.
CHECK_TESTS = not browser and not worker and not postgres and not redis
check: setup
	$(PY) -m ruff check .
	$(PY) -m pytest $(PYTEST_PARALLEL) -q -m "$(CHECK_TESTS)"

# Every benchmark but bench/bench_tiers.py, which times make check, make test and .ci/run themselves.
bench: setup
	for b in bench/bench_*.py; do [ $$b = bench/bench_tiers.py ] && continue; echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf var/broker var/media var/hexside-test*

# The docs' screenshots, made on purpose (tests never write docs/): the browser tests that take them write
# tests/browser/artifacts/, and this copies those the docs show into docs/images/ and docs/img/.
DOCS_IMAGES = painter-painted painter-help painter-conflict painter-los painter-viewshed painter-scan overlays-named \
              roads-painter heat-legend
DOCS_IMG = scenario-editor-checks scenario-editor-sight scenario-sample-hill-112
.PHONY: docs-images
docs-images: setup
	$(PY) -m pytest -q -m browser tests/browser/test_painter.py tests/browser/test_scenario_editor.py \
		tests/browser/test_overlays_and_drawing.py
	for name in $(DOCS_IMAGES); do cp tests/browser/artifacts/$$name.png docs/images/ || exit 1; done
	for name in $(DOCS_IMG); do cp tests/browser/artifacts/$$name.png docs/img/ || exit 1; done
