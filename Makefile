# The two commands of the README: `make run` and `make test` (and `make cluster`, a local
# cluster). Everything else is set-up.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 5000
PROCESSES ?= 2
# The suite runs in TEST_PROCESSES pytest processes, a test file each at a time: most of its
# time is spent waiting on real servers, timers and browsers, not computing, so three keep a
# 2-core machine busy (421 s of tests against 521 s with two, on the same commit).
TEST_PROCESSES ?= 3

.PHONY: run test lint unit clean frontend frontend-test chromium nginx postgres redis haproxy cluster

# The web client: npm packages when the lock file changes, a build when its sources change. The
# dev packages too, whatever NODE_ENV says: the build and the tests need them (axe-core, the
# accessibility check of tests/e2e/test_accessibility.py, is one).
FRONTEND := frontend
NODE_STAMP := $(FRONTEND)/node_modules/.installed
DIST := $(FRONTEND)/dist/index.html
FRONTEND_SRC := $(shell find $(FRONTEND)/src $(FRONTEND)/public -type f 2>/dev/null) \
	$(FRONTEND)/index.html $(FRONTEND)/vite.config.ts $(FRONTEND)/tsconfig.json $(FRONTEND)/package.json

# The venv's interpreter: Debian's own Python 3.11 where it is installed, which is built with
# profile-guided and link-time optimization like the python:3.11 images the Dockerfile deploys
# on (a plain source build, such as pyenv's default, has neither, and the lounge spends about a
# tenth more CPU a move on it: see docs/performance.md); python3 otherwise, or when it cannot
# make a venv (Debian without python3.11-venv). `make PYTHON=...` chooses another.
PYTHON ?= $(firstword $(wildcard /usr/bin/python3.11) python3)

$(PY):
	$(PYTHON) -m venv $(VENV) || python3 -m venv --clear $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test,gevent]'
	touch $(STAMP)

$(NODE_STAMP): $(FRONTEND)/package-lock.json
	cd $(FRONTEND) && npm ci --include=dev --no-audit --no-fund
	touch $(NODE_STAMP)

$(DIST): $(NODE_STAMP) $(FRONTEND_SRC)
	cd $(FRONTEND) && npm run build

frontend: $(DIST)

frontend-test: $(NODE_STAMP)
	cd $(FRONTEND) && npm test

# The end-to-end tests drive Debian's Chromium (Playwright cannot download its own here).
chromium:
	@test -x /usr/bin/chromium || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)

# The balancer of `make cluster` and of the cluster tests: Debian's HAProxy, run as a child
# process with a configuration of its own (never the system service).
haproxy:
	@test -x /usr/sbin/haproxy || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y haproxy)

# The deploy rehearsal puts Debian's nginx in front of the lounge (its own config and port, run
# by the test, not the system service).
nginx:
	@test -x /usr/sbin/nginx || (apt-get update && (DEBIAN_FRONTEND=noninteractive apt-get install \
		-y nginx-light || DEBIAN_FRONTEND=noninteractive apt-get install -y nginx))

run: $(STAMP) $(DIST)
	$(VENV)/bin/lounge serve --host $(HOST) --port $(PORT)

# PROCESSES lounge processes behind HAProxy on HOST:PORT, on the machine's Redis and PostgreSQL
# (REDIS_URL and DATABASE_URL point elsewhere; see the README).
cluster: $(STAMP) $(DIST) haproxy postgres redis
	$(VENV)/bin/lounge cluster --host $(HOST) --port $(PORT) --processes $(PROCESSES)

lint: $(STAMP)
	$(VENV)/bin/ruff check .

unit: $(STAMP)
	$(VENV)/bin/pytest tests/rules

# The durable-store tests also run against PostgreSQL on 127.0.0.1:5432 (database `test`).
postgres:
	@pg_lsclusters -h 2>/dev/null | grep -q online || \
		pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql | head -1) main start || \
		echo "PostgreSQL could not be started: its tests will be skipped"

# The cluster tests need Redis on 127.0.0.1:6379: started (keeping nothing on disk) if it is
# not answering, installed first if it is missing.
redis:
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || { \
		command -v redis-server >/dev/null || (apt-get update && \
			DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server); \
		redis-server --port 6379 --bind 127.0.0.1 --save '' --appendonly no --daemonize yes; \
		for i in 1 2 3 4 5 6 7 8 9 10; do redis-cli ping >/dev/null 2>&1 && break; sleep 0.5; done; }

test: $(STAMP) lint frontend-test $(DIST) chromium nginx haproxy postgres redis
	$(VENV)/bin/pytest -n $(TEST_PROCESSES) --dist loadfile

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache
