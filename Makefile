# The two commands of the README: `make run` and `make test`. Everything else is set-up.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: run test lint unit clean frontend frontend-test chromium nginx postgres

# The web client: npm packages when the lock file changes, a build when its sources change.
FRONTEND := frontend
NODE_STAMP := $(FRONTEND)/node_modules/.installed
DIST := $(FRONTEND)/dist/index.html
FRONTEND_SRC := $(shell find $(FRONTEND)/src $(FRONTEND)/public -type f 2>/dev/null) \
	$(FRONTEND)/index.html $(FRONTEND)/vite.config.ts $(FRONTEND)/tsconfig.json $(FRONTEND)/package.json

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test,gevent]'
	touch $(STAMP)

$(NODE_STAMP): $(FRONTEND)/package-lock.json
	cd $(FRONTEND) && npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

$(DIST): $(NODE_STAMP) $(FRONTEND_SRC)
	cd $(FRONTEND) && npm run build

frontend: $(DIST)

frontend-test: $(NODE_STAMP)
	cd $(FRONTEND) && npm test

# The end-to-end tests drive Debian's Chromium (Playwright cannot download its own here).
chromium:
	@test -x /usr/bin/chromium || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)

# The deploy rehearsal puts Debian's nginx in front of the lounge (its own config and port, run
# by the test, not the system service).
nginx:
	@test -x /usr/sbin/nginx || (apt-get update && (DEBIAN_FRONTEND=noninteractive apt-get install \
		-y nginx-light || DEBIAN_FRONTEND=noninteractive apt-get install -y nginx))

run: $(STAMP) $(DIST)
	$(VENV)/bin/lounge serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(VENV)/bin/ruff check .

unit: $(STAMP)
	$(VENV)/bin/pytest tests/rules

# The durable-store tests also run against PostgreSQL on 127.0.0.1:5432 (database `test`).
postgres:
	@pg_lsclusters -h 2>/dev/null | grep -q online || \
		pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql | head -1) main start || \
		echo "PostgreSQL could not be started: its tests will be skipped"

test: $(STAMP) lint frontend-test $(DIST) chromium nginx postgres
	$(VENV)/bin/pytest

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache
