PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup serve test bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[dev,scale]"
	touch $(STAMP)

setup: $(STAMP)

serve: setup
	$(BIN)/ng serve

# One worker per core (at most 4): most tests wait on servers, subprocesses and browsers they start, each on
# its own free port and temp folder. PYTEST_ARGS="-n 0" runs them in one process.
test: setup
	$(BIN)/python -m pytest -q -n auto --maxprocesses 4 $(PYTEST_ARGS)

bench: setup
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache
