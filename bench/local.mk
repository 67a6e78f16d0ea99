# make bench: the performance figures of issue 7 (docs/benchmarks.md).
# The programs are built for `make bench` only, never by `make` or `make
# check`; the driver starts daemons from this build tree.
EXTRA_PROGRAMS = bench/hxbench bench/baseline_mujoco bench/codec
bench_hxbench_SOURCES = bench/hxbench.c bench/baseline_net.c bench/bench.h \
	bench/proc.c bench/proc.h \
	daemon/latency.c daemon/latency.h
bench_hxbench_CFLAGS = $(AM_CFLAGS) $(LIBEVENT_CFLAGS)
bench_hxbench_LDADD = libhaptix.la $(LIBEVENT_LIBS) -lpthread -lm
# The one bench program that includes MuJoCo: the bare mj_step loop.
bench_baseline_mujoco_SOURCES = bench/baseline_mujoco.c bench/proc.c \
	bench/proc.h
bench_baseline_mujoco_LDADD = $(MUJOCO_LIBS)
# The codec figure: libhaptix's decoder compiled in, as test_decode has it.
bench_codec_SOURCES = bench/codec.c lib/decode.c lib/conn.c lib/conn_clock.c lib/conn_result.c lib/conn_shm.c \
	lib/tls_client.c lib/request.c
bench_codec_CFLAGS = $(AM_CFLAGS) $(PROTOBUF_C_CFLAGS) $(OPENSSL_CFLAGS)
bench_codec_LDADD = libhxwire.la $(PROTOBUF_C_LIBS) $(ZSTD_LIBS) \
	$(OPENSSL_LIBS) -lm
# Automake cleans no EXTRA_PROGRAMS by itself.
CLEANFILES += $(EXTRA_PROGRAMS)

BENCH_ENV = HAPTIXD='$(abs_top_builddir)/daemon/haptixd' \
	HXBENCH_MUJOCO='$(abs_top_builddir)/bench/baseline_mujoco$(EXEEXT)' \
	HXBENCH_CODEC='$(abs_top_builddir)/bench/codec$(EXEEXT)' \
	HXBENCH_CERTS='$(abs_top_builddir)/tests/hx-test-certs$(EXEEXT)' \
	HX_MODELS='$(abs_top_srcdir)/models' HAPTIX_SERVER= HAPTIX_TOKEN_FILE= \
	HXBENCH_PYSCRIPT='$(abs_top_srcdir)/bench/py_bench.py' \
	PYTHONPATH='$(abs_top_srcdir)/python:$(abs_top_builddir)/python' \
	HX_MATLAB='$(abs_top_builddir)/clients/matlab' \
	HXBENCH_OCTAVE='$(abs_top_srcdir)/bench/octave_rtt.m'
# The python and octave figures' other sides (the MEX file comes with make).
EXTRA_DIST += bench/py_bench.py bench/octave_rtt.m
# Options for hxbench: BENCH_FLAGS=--quick, BENCH_FLAGS='-f rtt,memory'.
BENCH_FLAGS =

bench: bench/hxbench$(EXEEXT) bench/baseline_mujoco$(EXEEXT) bench/codec$(EXEEXT) \
	    tests/hx-test-certs$(EXEEXT) daemon/haptixd$(EXEEXT) $(MATLAB_BUILT)
	$(BENCH_ENV) ./bench/hxbench$(EXEEXT) $(BENCH_FLAGS)
if ENABLE_PYTHON
	@$(MAKE) $(AM_MAKEFLAGS) bench-sweep bench-vector
endif
.PHONY: bench
