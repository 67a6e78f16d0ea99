# The Python package haptix (python/haptix): pure Python.  Its messages,
# haptix_pb2.py, are generated from the .proto by protoc into the build
# tree's python/haptix/, which the package joins to its own directory
# (pkgutil.extend_path in __init__.py): from the build tree it runs with
# PYTHONPATH=SRCDIR/python:BUILDDIR/python (./quickstart env says so).
# make install puts both in one directory where Debian's python3 finds it.
EXTRA_DIST += python/pyproject.toml python/setup.py python/README.md \
	$(HX_PY_SOURCES) $(HX_PY_TESTS) $(HX_PY_EXAMPLES) tests/python.sh \
	tests/pytest.sh \
	$(HX_PY_SWEEP) $(HX_SWEEP_TESTS) clients/hxsweep.in tests/sweep.sh \
	tests/slurm.sh tests/slurm_cluster.sh bench/sweep.py bench/vector.py
HX_PY_SOURCES = python/haptix/__init__.py python/haptix/address.py \
	python/haptix/batch.py python/haptix/compat.py \
	python/haptix/connection.py python/haptix/edit.py python/haptix/env.py \
	python/haptix/errors.py python/haptix/model.py python/haptix/proto.py \
	python/haptix/programs.py python/haptix/recording.py python/haptix/render.py python/haptix/sim.py \
	python/haptix/sim_args.py python/haptix/sim_array.py \
	python/haptix/sim_compute.py python/haptix/sim_driver.py \
	python/haptix/sim_hold.py python/haptix/sim_model.py \
	python/haptix/sim_object.py python/haptix/sim_record.py \
	python/haptix/sim_robot.py python/haptix/sim_run.py \
	python/haptix/sim_session.py \
	python/haptix/sim_set.py python/haptix/sim_stream.py \
	python/haptix/sim_view.py python/haptix/sim_world.py python/haptix/shm.py \
	python/haptix/stream.py python/haptix/struct.py python/haptix/suggest.py \
	python/haptix/tasks.py python/haptix/tls.py python/haptix/vector.py \
	python/haptix/wire.py \
	python/haptix/zstd.py
# haptix.sweep, the sweep engine; hxsweep is its command line.
HX_PY_SWEEP = python/haptix/sweep/__init__.py \
	python/haptix/sweep/__main__.py python/haptix/sweep/cli.py \
	python/haptix/sweep/daemon.py python/haptix/sweep/expr.py \
	python/haptix/sweep/pool.py python/haptix/sweep/slurm.py \
	python/haptix/sweep/spec.py python/haptix/sweep/table.py \
	python/haptix/sweep/trial.py
HX_SWEEP_TESTS = tests/sweep/conftest.py tests/sweep/test_hxsweep.py \
	tests/sweep/test_api.py tests/sweep/gain.toml tests/sweep/trial.py
HX_PY_TESTS = python/tests/conftest.py python/tests/test_connect.py \
	python/tests/test_calls.py python/tests/test_batch.py \
	python/tests/test_stream.py python/tests/test_model.py \
	python/tests/test_compat.py python/tests/test_env.py \
	python/tests/test_examples.py python/tests/test_install.py \
	python/tests/test_tls.py python/tests/test_shm.py \
	python/tests/test_compute.py python/tests/test_vector.py \
	python/tests/test_wire.py python/tests/test_struct.py
HX_PY_EXAMPLES = python/examples/sweep.py python/examples/controller.py \
	python/examples/grasp.py python/examples/rollout.py \
	python/examples/pool_sweep.py python/examples/osc_fingertip.py \
	python/examples/learn_grasp.py python/examples/learn_grasp_eval.py

if ENABLE_PYTHON
HX_PY_GEN = python/haptix/haptix_pb2.py
BUILT_SOURCES += $(HX_PY_GEN)
CLEANFILES += $(HX_PY_GEN)
$(HX_PY_GEN): $(srcdir)/proto/haptix.proto
	@$(MKDIR_P) python/haptix
	$(AM_V_GEN)$(PROTOC) --python_out=python/haptix -I$(srcdir)/proto \
		$(srcdir)/proto/haptix.proto

hxpythonpkgdir = $(hxpythondir)/haptix
hxpythonpkg_DATA = $(HX_PY_SOURCES)
nodist_hxpythonpkg_DATA = $(HX_PY_GEN)
hxpythonsweepdir = $(hxpythondir)/haptix/sweep
hxpythonsweep_DATA = $(HX_PY_SWEEP)

# hxsweep: Debian's python3 on the package, from the build tree too
# (./quickstart env puts build/clients on the PATH and the package on
# PYTHONPATH).
bin_SCRIPTS = clients/hxsweep
CLEANFILES += clients/hxsweep
clients/hxsweep: $(srcdir)/clients/hxsweep.in Makefile
	@$(MKDIR_P) clients
	$(AM_V_GEN)sed -e 's|%PYTHON%|$(PYTHON)|' \
		$(srcdir)/clients/hxsweep.in >$@.tmp && chmod +x $@.tmp && \
		mv $@.tmp $@

# pytest through real daemons (python/tests/conftest.py starts them).
TESTS += tests/python.sh
# hxsweep's local pool through real daemons (tests/sweep/, pytest).
TESTS += tests/sweep.sh
AM_TESTS_ENVIRONMENT += HX_PYTHON='$(PYTHON)'; export HX_PYTHON; \
	HXSWEEP='$(abs_top_builddir)/clients/hxsweep'; export HXSWEEP;

# hxsweep on a real single-node Slurm cluster that the test starts as
# root (tests/slurm.sh); .ci/run runs it, make check does not.
check-slurm: all
	@$(AM_TESTS_ENVIRONMENT) $(SHELL) $(srcdir)/tests/slurm.sh
# make bench's sweep figures (bench/sweep.py), also alone.
bench-sweep: all bench/baseline_mujoco$(EXEEXT)
	$(BENCH_ENV) PYTHONPATH='$(abs_top_srcdir)/python:$(abs_top_builddir)/python' \
		$(PYTHON) $(srcdir)/bench/sweep.py $(SWEEP_BENCH_FLAGS)
SWEEP_BENCH_FLAGS =
# make bench's haptix.VectorEnv figures (bench/vector.py), also alone.
bench-vector: all bench/baseline_mujoco$(EXEEXT)
	$(BENCH_ENV) $(PYTHON) $(srcdir)/bench/vector.py $(VECTOR_BENCH_FLAGS)
VECTOR_BENCH_FLAGS =
endif
.PHONY: check-slurm bench-sweep bench-vector
