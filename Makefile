# The two commands of the README: `make run` and `make test`. Everything else is set-up.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: run test lint unit demo clean

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test,gevent]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/lounge serve --host $(HOST) --port $(PORT)

demo: $(STAMP)
	$(VENV)/bin/lounge demo

lint: $(STAMP)
	$(VENV)/bin/ruff check .

unit: $(STAMP)
	$(VENV)/bin/pytest tests/rules

test: $(STAMP) lint
	$(VENV)/bin/pytest

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache
