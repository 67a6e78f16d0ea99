# Fuzzing (docs/fuzzing.md).  `make fuzz` compiles the daemon's sources
# and the target with clang and libFuzzer into fuzz-build/ (apart from
# this build, whatever its compiler), writes the seed corpus into
# fuzz/corpus/ and fuzzes for FUZZ_SECONDS.  Not part of make check.
EXTRA_DIST += fuzz/fuzz_session.c fuzz/make_corpus.c fuzz/fuzz_shmring.c

FUZZ_CC = clang
FUZZ_SECONDS = 600
FUZZ_FLAGS = -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=4096
FUZZ_DIR = fuzz-build
# UBSan aborts like ASan does: a report is a crash, and so an artifact.
FUZZ_SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
FUZZ_CFLAGS = -g -O1 -std=gnu11 $(FUZZ_SANITIZE)
FUZZ_CPPFLAGS = $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) \
	-DFUZZ_MODELDIR='"$(abs_top_srcdir)/models"' \
	$(LIBEVENT_CFLAGS) $(PROTOBUF_C_CFLAGS) $(EXPAT_CFLAGS) \
	$(ZSTD_CFLAGS) $(LIBEVENT_OPENSSL_CFLAGS) $(OPENSSL_CFLAGS)
# Loads run in the target's process (loadjob_inprocess), without the
# loader's memory limit: an allocation past 1 GiB fails (NULL), as it
# would in the loader, instead of ending the run; freed models are
# quarantined only up to 64 MB, since each load frees a whole model.
FUZZ_ENV = HX_MODELS='$(abs_top_srcdir)/models' \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:quarantine_size_mb=64:allocator_may_return_null=1:max_allocation_size_mb=1024 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# The daemon's library as daemon/local.mk lists it, the wire and
# recording libraries,
# and the target; the libraries they link, less the libtool ones.
FUZZ_SRCS = $(filter %.c,$(libhaptixd_la_SOURCES) $(libhxwire_la_SOURCES) \
	$(nodist_libhxwire_la_SOURCES) $(libhxrec_la_SOURCES)) \
	fuzz/fuzz_session.c
FUZZ_HDRS = $(filter %.h,$(libhaptixd_la_SOURCES) $(libhxwire_la_SOURCES) \
	$(libhxrec_la_SOURCES)) \
	$(PROTO_GEN) $(FIELDS_GEN)
FUZZ_OBJS = $(patsubst %.c,$(FUZZ_DIR)/%.o,$(FUZZ_SRCS))
FUZZ_LIBS = $(filter-out %.la,$(libhaptixd_la_LIBADD))

# Can this clang build a libFuzzer target?  Say what to install if not.
$(FUZZ_DIR)/clang.stamp:
	@$(MKDIR_P) $(FUZZ_DIR)
	@printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
	    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
	    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
	    '{ (void)d; (void)n; return 0; }' >$(FUZZ_DIR)/probe.c
	@if $(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SANITIZE) \
	    -o $(FUZZ_DIR)/probe $(FUZZ_DIR)/probe.c 2>$(FUZZ_DIR)/probe.log; \
	then touch $@; else \
	    cat $(FUZZ_DIR)/probe.log; \
	    echo "make fuzz: '$(FUZZ_CC)' cannot build a libFuzzer target."; \
	    echo "make fuzz: on Debian 12: apt-get install clang libclang-rt-14-dev"; \
	    echo "make fuzz: (or FUZZ_CC=clang-NN with libclang-rt-NN-dev)"; \
	    exit 1; fi

$(FUZZ_OBJS): $(FUZZ_DIR)/%.o: %.c $(FUZZ_HDRS) config.h $(FUZZ_DIR)/clang.stamp
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) \
	    -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/fuzz_session$(EXEEXT): $(FUZZ_OBJS)
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ \
	    $(FUZZ_OBJS) $(FUZZ_LIBS)

# The seed generator is an ordinary program of this build.
check_PROGRAMS += fuzz/make_corpus
fuzz_make_corpus_SOURCES = fuzz/make_corpus.c
fuzz_make_corpus_CFLAGS = $(AM_CFLAGS) $(PROTOBUF_C_CFLAGS)
fuzz_make_corpus_LDADD = libhxwire.la $(PROTOBUF_C_LIBS) $(MUJOCO_LIBS)

# libFuzzer adds what it finds to fuzz/corpus: the seeds are rewritten,
# the finds kept.  Crashes go to fuzz-build/crash-* (and the like); run
# one again with fuzz-build/fuzz_session FILE (in FUZZ_ENV).
fuzz: $(FUZZ_DIR)/fuzz_session$(EXEEXT) fuzz/make_corpus$(EXEEXT)
	@$(MKDIR_P) fuzz/corpus
	$(FUZZ_ENV) ./fuzz/make_corpus$(EXEEXT) fuzz/corpus $(FUZZ_DIR)/haptix.dict
	$(FUZZ_ENV) $(FUZZ_DIR)/fuzz_session$(EXEEXT) $(FUZZ_FLAGS) \
	    -dict=$(FUZZ_DIR)/haptix.dict -max_total_time=$(FUZZ_SECONDS) \
	    -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/ fuzz/corpus

fuzz-clean:
	rm -rf $(FUZZ_DIR)
fuzz-distclean:
	rm -rf fuzz/corpus fuzz/corpus-shmring
clean-local: fuzz-clean
distclean-local: fuzz-distclean
# The daemon's side of a shared-memory link against a hostile client
# (fuzz/fuzz_shmring.c): the rings alone, no daemon, fast.  `make
# fuzz-shmring` fuzzes for FUZZ_SHMRING_SECONDS from fuzz/corpus-shmring.
FUZZ_SHMRING_SECONDS = 60
FUZZ_SHMRING_OBJS = $(FUZZ_DIR)/fuzz/fuzz_shmring.o \
	$(patsubst %.c,$(FUZZ_DIR)/%.o,lib/frame.c lib/shmring.c \
	lib/shmlink.c lib/shmregion.c)
$(FUZZ_DIR)/fuzz/fuzz_shmring.o: fuzz/fuzz_shmring.c $(FUZZ_HDRS) config.h \
	    $(FUZZ_DIR)/clang.stamp
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) \
	    -fsanitize=fuzzer-no-link -c -o $@ $<
$(FUZZ_DIR)/fuzz_shmring$(EXEEXT): $(FUZZ_SHMRING_OBJS)
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ \
	    $(FUZZ_SHMRING_OBJS)
fuzz-shmring: $(FUZZ_DIR)/fuzz_shmring$(EXEEXT)
	@$(MKDIR_P) fuzz/corpus-shmring
	$(FUZZ_ENV) $(FUZZ_DIR)/fuzz_shmring$(EXEEXT) $(FUZZ_FLAGS) \
	    -max_len=4096 -max_total_time=$(FUZZ_SHMRING_SECONDS) \
	    -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/ \
	    fuzz/corpus-shmring

.PHONY: fuzz fuzz-shmring fuzz-clean fuzz-distclean
