# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench schema system-deps dist clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/gpuviz $(SCENARIO)

system-deps:
	@bash tools/system-deps.sh

test: $(STAMP) system-deps
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -p no:cacheprovider -n auto --dist loadfile
	$(VENV)/bin/ruff check gpuviz tests benchmarks
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

lint: $(STAMP)
	$(VENV)/bin/ruff check gpuviz tests benchmarks
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	QT_QPA_PLATFORM=offscreen $(PY) benchmarks/run_all.py

schema: $(STAMP)
	$(VENV)/bin/gpuviz schema > resources/scenario.schema.json

# The installable app: a one-folder PyInstaller build in dist/gpuviz/ (packaging/gpuviz.spec).
dist: $(STAMP)
	$(PY) -m PyInstaller --noconfirm --clean --distpath dist --workpath build/pyinstaller \
		packaging/gpuviz.spec

clean:
	rm -rf $(VENV) build dist *.egg-info
