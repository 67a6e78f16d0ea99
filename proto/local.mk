# The wire protocol: haptix.proto compiled by protoc-c into the build
# tree.  One stamp rule, so that a parallel make runs protoc-c once.
PROTO_GEN = proto/haptix.pb-c.c proto/haptix.pb-c.h
BUILT_SOURCES += $(PROTO_GEN)
CLEANFILES += $(PROTO_GEN) proto/haptix.stamp
EXTRA_DIST += proto/haptix.proto

proto/haptix.stamp: $(srcdir)/proto/haptix.proto
	@$(MKDIR_P) proto
	$(AM_V_GEN)$(PROTOC_C) --c_out=proto -I$(srcdir)/proto \
		$(srcdir)/proto/haptix.proto && touch $@

$(PROTO_GEN): proto/haptix.stamp
	@test -f $@ || { rm -f proto/haptix.stamp && \
		$(MAKE) $(AM_MAKEFLAGS) proto/haptix.stamp; }

# Each message's fields as an X-macro (proto/fields.awk): the one
# description the daemon's fills, libhaptix's decoder, hxctl's views and
# the MEX file expand.
FIELDS_GEN = proto/haptix_fields.h
BUILT_SOURCES += $(FIELDS_GEN)
CLEANFILES += $(FIELDS_GEN)
EXTRA_DIST += proto/fields.awk

$(FIELDS_GEN): $(srcdir)/proto/haptix.proto $(srcdir)/proto/fields.awk
	@$(MKDIR_P) proto
	$(AM_V_GEN)$(AWK) -f $(srcdir)/proto/fields.awk \
		$(srcdir)/proto/haptix.proto >$@.tmp && mv $@.tmp $@

# Framing, addresses, listeners, the generated messages and the command
# line's shared words: for the daemon, the client library and the
# programs, free of MuJoCo and of haptix.h.
noinst_LTLIBRARIES += libhxwire.la
nodist_libhxwire_la_SOURCES = $(PROTO_GEN)
libhxwire_la_SOURCES = lib/frame.c lib/frame.h lib/address.c lib/address.h \
	lib/listen.c lib/listen.h lib/usage.c lib/usage.h \
	lib/envelope.c lib/envelope.h lib/program.c lib/program.h \
	lib/quat.c lib/quat.h lib/shmring.c lib/shmring.h \
	lib/shmregion.c lib/shmregion.h lib/fdpass.c lib/fdpass.h \
	lib/shmlink.c lib/shmlink.h lib/token.c lib/token.h
libhxwire_la_CFLAGS = -std=gnu11 $(PROTOBUF_C_CFLAGS)
