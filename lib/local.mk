# libhaptix: the client library (haptix.h, haptixd.h).
lib_LTLIBRARIES += libhaptix.la
include_HEADERS = lib/haptix.h lib/haptixd.h
haptixcommdir = $(includedir)/haptix/comm
haptixcomm_HEADERS = lib/haptix/comm/haptix.h lib/haptix/comm/haptix_sim.h
libhaptix_la_SOURCES = lib/conn.c lib/conn.h lib/conn_clock.c lib/conn_result.c lib/conn_shm.c lib/decode.c lib/decode.h \
	lib/request.c lib/request.h lib/tables.h lib/haptixd.c \
	lib/haptixd_view.c lib/haptixd_members.c lib/haptixd_set.c lib/haptixd_object.c \
	lib/haptixd_run.c lib/haptixd_simple.c lib/haptixd_status.c \
	lib/haptixd_array.c lib/haptixd_compute.c lib/haptixd_history.c lib/haptixd_clients.c lib/haptixd_model.c lib/haptixd_hold.c \
	lib/haptixd_stream.c lib/haptixd_record.c lib/haptixd_driver.c \
	lib/haptix_compat.c lib/haptix_compat.h lib/haptix_native.c \
	lib/haptix_simple.c lib/haptix_osrf.c lib/haptixd_world.c \
	lib/haptix_sim.c lib/haptix_sim_text.c lib/haptix_sim_text.h \
	lib/haptixd_log.c lib/tls_client.c lib/tls_client.h
libhaptix_la_CFLAGS = $(AM_CFLAGS) $(PROTOBUF_C_CFLAGS) $(ZSTD_CFLAGS) \
	$(OPENSSL_CFLAGS)
libhaptix_la_LIBADD = libhxwire.la libhxrec.la $(PROTOBUF_C_LIBS) \
	$(ZSTD_LIBS) $(OPENSSL_LIBS) -lm
# current:revision:age; 1:0:1 added hxd_server_address() and
# hxd_event.reset_to (at the end: the library allocates events); 2:0:2
# the recording reader, hxd_log_*(); 3:0:3 hxd_members(); 4:0:4
# hxd_load_inline_assets().
libhaptix_la_LDFLAGS = -version-info 4:0:4 \
	-export-symbols lib/haptix.sym
EXTRA_libhaptix_la_DEPENDENCIES = lib/haptix.sym
EXTRA_DIST += lib/exports.sh lib/haptix.pc.in lib/haptix-uninstalled.pc.in
CLEANFILES += lib/haptix.sym
# What the library exports: what its public headers declare.
HX_EXPORT_INPUTS = $(srcdir)/lib/haptix.h $(srcdir)/lib/haptixd.h \
	$(srcdir)/lib/haptix/comm/haptix.h $(srcdir)/lib/haptix/comm/haptix_sim.h
lib/haptix.sym: $(srcdir)/lib/exports.sh $(HX_EXPORT_INPUTS)
	@$(MKDIR_P) lib
	$(AM_V_GEN)sh $(srcdir)/lib/exports.sh $(HX_EXPORT_INPUTS) > $@.tmp && \
	test -s $@.tmp && mv $@.tmp $@

pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = lib/haptix.pc

# The recording file (.hxr): written by the daemon, read by clients,
# who read HAPTIX's .mjl logs through it too.
noinst_LTLIBRARIES += libhxrec.la
libhxrec_la_SOURCES = lib/recording.c lib/recording.h lib/mjl.c lib/mjl.h
libhxrec_la_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)
libhxrec_la_LIBADD = $(ZSTD_LIBS)
