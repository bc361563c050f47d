# The README's commands: `make run` and `make test` set up .venv themselves.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test bench lint probe screenshots translations package install-desktop system-deps build-deps clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[gui,test,dev]'
	rm -f $(VENV)/.installed-*
	touch $@

venv: $(STAMP)

# A CJK font (for Qt and the PDFs) and poppler-utils (pdftoppm, for rendering checks).
system-deps:
	@bash packaging/system-deps.sh

run: system-deps $(STAMP)
	$(BIN)/gpu-procure

# One worker per core, each test file whole on one worker (module fixtures, and the timing tests of a file
# run side by side with other files, never with themselves).
test: system-deps $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -n auto --dist loadfile

bench: system-deps $(STAMP)
	@for f in bench/bench_*.py; do echo "== $$f"; QT_QPA_PLATFORM=offscreen $(BIN)/python $$f || exit 1; done

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

screenshots: system-deps $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m gui.screenshots docs/screenshots

# The standalone probe for target machines (standard library only, Python 3.6+): dist/gpu-procure-probe.pyz
probe: $(STAMP)
	$(BIN)/python -m procurement.probe.bundle dist/gpu-procure-probe.pyz

translations: $(STAMP)
	$(BIN)/python -m gui.i18n_build

# Libraries of Qt's X11/Wayland plugins, so that PyInstaller can copy them into the bundle.
build-deps:
	@bash packaging/build-deps.sh

# One-folder bundle in dist/gpu-procure (PyInstaller), then the frozen program's smoke test.
PKG_STAMP := $(VENV)/.pkg-installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
$(PKG_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[gui,package]'
	rm -f $(VENV)/.pkg-installed-*
	touch $@

package: $(PKG_STAMP) system-deps build-deps $(if $(wildcard gui/i18n_build.py),translations)
	$(BIN)/python -m PyInstaller --noconfirm --clean --log-level ERROR \
		--distpath dist --workpath build/pyinstaller packaging/gpu-procure.spec
	$(BIN)/python packaging/smoke_test.py dist/gpu-procure

# The .desktop entry, metainfo, plan MIME type and icons into XDG_DATA_HOME (default ~/.local/share);
# the entry runs dist/gpu-procure/gpu-procure when built, else .venv/bin/gpu-procure.
install-desktop: $(STAMP)
	$(BIN)/python packaging/install_desktop.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
