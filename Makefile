# opyard developer loop. `make help` lists the targets.
PY      ?= python3
VENV    ?= .venv
VPY     := $(VENV)/bin/python
VPIP    := $(VPY) -m pip
MATURIN := $(VENV)/bin/maturin
export VIRTUAL_ENV := $(abspath $(VENV))

.PHONY: help venv install wheel pictures dev demo test test-rust test-py test-general gen torch-variants bench bench-rust bench-rust-save bench-py bench-peers fuzz lint clean conformance-expect conformance-report behaviours-expect nn-spatial-expect nn-expect func-cases-expect nn-modules-expect special-expect sampling-expect protocol-expect rules-expect orders-expect windows-expect surface-expect fx-expect logging-expect repr-expect

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-11s %s\n", $$1, $$2}'

$(VPY):
	$(PY) -m venv $(VENV)
	$(VPIP) install -q --upgrade pip
	$(VPIP) install -q "maturin>=1.5,<2" "numpy>=1.22" "ml_dtypes>=0.4" "pytest>=7" "dask[distributed]" pydot mypy "scipy>=1.10"

venv: $(VPY)  ## create .venv with maturin, numpy, ml_dtypes and the test tools (pytest, dask.distributed, pydot, mypy, scipy)

# The long steps (compiling the Rust core, ~1.5 min from scratch) print cargo's progress.
install: $(VPY)  ## build the wheel and install it into .venv (what `pip install .` does)
	rm -rf target/install-wheel
	$(MATURIN) build --release --out target/install-wheel
	$(VPIP) install --force-reinstall --no-deps target/install-wheel/opyard-*.whl

wheel: $(VPY)  ## build the sdist and, from it, the manylinux wheel into dist/ (`.ci/wheel_smoke` installs it)
	rm -f dist/opyard-*
	$(MATURIN) build --release --sdist --out dist

pictures: dev  ## redraw the pictures README.md shows (docs/*.svg; needs Graphviz's dot)
	$(VPY) docs/pictures.py

dev: $(VPY)  ## build the extension in release mode into .venv (editable), with compiled bytecode
	$(MATURIN) develop --release
	$(VPY) -m compileall -q python/opyard

demo: install  ## install the package and run the main demo
	$(VPY) -m opyard

test: dev test-rust test-py  ## run every test: cargo test + pytest

test-rust:  ## Rust unit, property and corpus tests (debug, no interpreter)
	cargo test -q
	cargo test -q --examples
	cargo test -q --features python --lib

test-py: $(VPY)  ## pytest over tests/
	$(VPY) -c "import pydot" 2>/dev/null || $(VPIP) install -q pydot
	$(VPY) -c "import mypy" 2>/dev/null || $(VPIP) install -q mypy
	$(VPY) -c "import scipy" 2>/dev/null || $(VPIP) install -q "scipy>=1.10"
	$(VPY) -m pytest tests

test-general: dev  ## pytest over tests/ with every Rust fast path off (OPYARD_FASTPATH=0: the Python general paths)
	$(VPY) -c "import pydot" 2>/dev/null || $(VPIP) install -q pydot
	$(VPY) -c "import mypy" 2>/dev/null || $(VPIP) install -q mypy
	$(VPY) -c "import scipy" 2>/dev/null || $(VPIP) install -q "scipy>=1.10"
	OPYARD_FASTPATH=0 $(VPY) -m pytest tests

gen: $(VPY)  ## rewrite every generated index (built-in operators, derivative table, batching rules) from the modules
	cd python && ../$(VPY) -m opyard._gen

bench: bench-rust bench-py  ## criterion benches + Python-level benches

# criterion keeps each benchmark's figures under target/criterion/; a named baseline stays until it is
# saved again. `make bench-rust-save` records the current code as BASELINE (default `main`; run it on the
# commit to compare with), `make bench-rust` compares the current code with it (the first run, with no
# baseline yet, saves one). `cargo bench` prints benchmarks only: the library's unit tests are not built
# as benches (`bench = false` in Cargo.toml).
BASELINE ?= main
CRITERION_BENCHES := --bench schema_parse --bench dispatch --bench engine --bench kernels

bench-rust:  ## criterion benchmarks of the pure-Rust API, compared with the saved baseline $(BASELINE)
	@if find target/criterion -path "*/$(BASELINE)/estimates.json" 2>/dev/null | grep -q .; then \
		cargo bench $(CRITERION_BENCHES) -- --baseline $(BASELINE); \
	else \
		echo "no criterion baseline '$(BASELINE)' yet: this run is saved as it"; \
		cargo bench $(CRITERION_BENCHES) -- --save-baseline $(BASELINE); \
	fi

bench-rust-save:  ## run the criterion benchmarks and save them as the baseline $(BASELINE)
	cargo bench $(CRITERION_BENCHES) -- --save-baseline $(BASELINE)

bench-py: dev  ## Python-level benchmarks against peers (torch when importable)
	$(VPY) bench/run_all.py

PEERS := target/peers-venv

$(PEERS)/bin/python:
	$(PY) -m venv $(PEERS)
	$(PEERS)/bin/python -m pip install -q --upgrade pip
	$(PEERS)/bin/python -m pip install -q torch numpy "ml_dtypes>=0.4" expecttest hypothesis

bench-peers: dev $(PEERS)/bin/python  ## Python-level benches beside torch (installs torch into target/peers-venv; never used by tests)
	PYTHONPATH=python $(PEERS)/bin/python bench/run_all.py

torch-variants: $(PEERS)/bin/python  ## record which names torch has as functions and Tensor methods (_aten/variants.txt; torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_variants.py

conformance-expect: $(PEERS)/bin/python  ## record torch 2.15's answers for every OpInfo into tests/data/conformance (torch venv only)
	$(PEERS)/bin/python tests/conformance/generate.py --out tests/data/conformance

protocol-expect: $(PEERS)/bin/python  ## record torch 2.15's answers for the subclass/dispatch protocol tests into tests/data (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_protocol_answers.py

behaviours-expect: $(PEERS)/bin/python  ## record torch 2.15's outcome of each snippet of tests/data/torch_behaviours.py (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_behaviours.py

rules-expect: $(PEERS)/bin/python  ## record torch 2.15's outcome of each expression of tests/data/op_rules.py (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_op_rules.py

nn-expect: $(PEERS)/bin/python  ## record torch 2.15's answers for the nn function tests into tests/data/torch_nn_family.json (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_nn_family.py

nn-spatial-expect: $(PEERS)/bin/python  ## record torch's convolution/pooling/resampling answers beyond the OpInfo samples (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_nn_spatial.py

sampling-expect: $(PEERS)/bin/python  ## record torch 2.15's errors and autograd nodes for the samplers, placement operators and torch.masked into tests/data/torch_sampling_answers.json (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_sampling_answers.py

surface-expect: $(PEERS)/bin/python  ## record torch 2.15's answers for generators, predicates, small functions and global switches into tests/data/torch_surface_answers.json (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_surface_answers.py

special-expect: $(PEERS)/bin/python  ## record torch 2.15's answers for the special functions at their special points into tests/data/torch_special_family.json (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_special_family.py

windows-expect: $(PEERS)/bin/python  ## record torch 2.15's window functions and randperm's errors into tests/data/torch_windows.json (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_windows.py

fx-expect: $(PEERS)/bin/python  ## record torch 2.15's make_fx traces of tests/data/fx_cases.py and its composite operators into tests/data/torch_make_fx.json (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_make_fx.py

logging-expect: $(PEERS)/bin/python  ## record torch 2.15's LoggingTensor lines for tests/data/logging_cases.py into tests/data/torch_logging.json (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_logging.py

repr-expect: $(PEERS)/bin/python  ## record torch 2.15's repr of the tensors of tests/data/repr_cases.py into tests/data/torch_reprs.json (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_reprs.py

orders-expect: $(PEERS)/bin/python  ## record torch 2.15's topk, sort, kthvalue and mode of rows with equal values into tests/data/torch_orders.npz (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_orders.py

func-cases-expect: $(PEERS)/bin/python  ## record torch 2.15's answers to the torch.func snippets of tests/data/func_cases.py (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_func_cases.py

nn-modules-expect: $(PEERS)/bin/python  ## record torch 2.15's answers to the nn module snippets of tests/data/nn_module_cases.py (torch venv only)
	$(PEERS)/bin/python tests/data/gen_torch_nn_module_cases.py

conformance-report: dev  ## replay the recorded answers: rewrite CONFORMANCE.md and tests/conformance/ledger.json
	cd tests && ../$(VPY) -m conformance.report --write --ledger

fuzz: dev  ## 1,000,000 mutated schemas through parse_schema in child processes (COUNT=n to change)
	$(VPY) tests/fuzz/fuzz_schema.py --count $(or $(COUNT),1000000)

# The typed public API (lint): its stubs against the modules (stubtest), the stubs and the annotated
# modules under --strict, and a user's typed example under --strict.
TYPED := opyard/library.pyi opyard/_tensor.pyi opyard/_factories.pyi opyard/fake/__init__.pyi \
	opyard/func/__init__.pyi opyard/viz.py opyard/_html.py

lint:  ## rustfmt, clippy with and without `python`, ruff, the `_core` stub against the built module
	cargo fmt --check
	cargo clippy -q --all-targets -- -D warnings
	cargo clippy -q --features python --lib -- -D warnings
	$(VPY) -c "import ruff" 2>/dev/null || $(VPIP) install -q ruff
	$(VPY) -m ruff check python tests bench examples docs
	$(VPY) -c "import mypy" 2>/dev/null || $(VPIP) install -q mypy
	cd python && ../$(VPY) -m mypy.stubtest opyard._core
	cd python && ../$(VPY) -m mypy.stubtest --mypy-config-file ../pyproject.toml \
		--allowlist ../stubtest_allowlist.txt --ignore-unused-allowlist opyard.library opyard.fake opyard.func opyard._factories
	cd python && ../$(VPY) -m mypy --strict --config-file ../pyproject.toml $(TYPED)
	$(VPY) -m mypy --strict examples/typed_custom_op.py

clean:  ## remove build products and the venv
	rm -rf target $(VENV) python/opyard/*.so
