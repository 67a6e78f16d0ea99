# haptixd.  Its logic is a convenience library shared by the daemon, the
# tests and the fuzzers; main.c only starts it.
noinst_LTLIBRARIES += libhaptixd.la
libhaptixd_la_SOURCES = \
	daemon/api.h daemon/api_array.c daemon/api_compute.c daemon/api_history.c daemon/api_model.c \
	daemon/api_object.c daemon/api_run.c daemon/api_set.c \
	daemon/api_status.c daemon/api_view.c \
	daemon/api_clients.c daemon/api_simple.c daemon/api_stream.c \
	daemon/api_calls.h daemon/api_table.c daemon/api_table.h \
	daemon/call.c daemon/call.h \
	daemon/core.c daemon/core.h \
	daemon/monotonic.c daemon/monotonic.h \
	daemon/motion.c daemon/motion.h \
	daemon/pending.c daemon/pending.h \
	daemon/reply.c daemon/reply.h \
	daemon/arena.c daemon/arena.h \
	daemon/batch.c daemon/batch.h \
	daemon/clock.c daemon/clock.h \
	daemon/conffile.c daemon/conffile.h \
	daemon/dispatch.c daemon/dispatch.h \
	daemon/event.c daemon/event.h \
	daemon/latency.c daemon/latency.h \
	daemon/lease.c daemon/lease.h \
	daemon/loader.c daemon/loader.h daemon/loadjob.c daemon/loadjob.h \
	daemon/answermem.c daemon/answermem.h \
	daemon/sandbox.c daemon/sandbox.h \
	daemon/log.c daemon/log.h \
	daemon/mjcf.c daemon/mjcf.h daemon/mjcf_include.c daemon/mjcf_attach.c daemon/mjcf_attach.h daemon/mjcf_edit.c daemon/mjcf_edit.h daemon/mjcf_op.h daemon/mjcf_legacy.c daemon/mjcf_legacy.h \
	daemon/mjcf_internal.h daemon/mjcf_lenient.c \
	daemon/modeldir.c daemon/modeldir.h \
	daemon/modelrefs.c daemon/modelrefs.h \
	daemon/modelassets.c daemon/modelassets.h \
	daemon/options.c daemon/options.h \
	daemon/ptimer.c daemon/ptimer.h \
	daemon/record.c daemon/record.h daemon/api_record.c \
	daemon/journal.c daemon/journal.h \
	daemon/tracking.c daemon/tracking.h daemon/perturb.c daemon/perturb.h \
	daemon/api_driver.c \
	daemon/api_world.c daemon/gazebo_world.c daemon/gazebo_world.h daemon/sim_world.c daemon/sim_world.h \
	daemon/result.h \
	daemon/server.c daemon/server.h daemon/tls_server.c daemon/tls_server.h \
	daemon/sdnotify.c daemon/sdnotify.h \
	daemon/service.c daemon/service.h \
	daemon/session.c daemon/session.h daemon/session_shm.c daemon/session_shm.h \
	daemon/protomsg.c daemon/protomsg.h daemon/protomsg_view.c \
	daemon/lifecycle.c daemon/lifecycle.h daemon/lifecycle_step.c daemon/lifecycle_step.h daemon/rollback.c daemon/rollback.h \
	daemon/stepguard.c daemon/stepguard.h \
	daemon/stream.c daemon/stream.h \
	daemon/daemon.h daemon/message.c daemon/message.h \
	daemon/modeltext.c daemon/modeltext.h \
	daemon/sim.c daemon/sim.h daemon/sim_internal.h daemon/sim_types.h \
	daemon/sim_access.c daemon/sim_access.h daemon/sim_array.c daemon/sim_array.h \
	daemon/sim_compute.c daemon/sim_compute.h \
	daemon/sim_carry.c daemon/sim_carry.h daemon/sim_check.c daemon/sim_check.h \
	daemon/sim_rollback.c daemon/sim_rollback.h daemon/sim_undo.c \
	daemon/sim_history.c daemon/sim_history.h \
	daemon/sim_state.c daemon/sim_state.h \
	daemon/sim_describe.c daemon/sim_describe.h \
	daemon/sim_key.c daemon/sim_key.h daemon/sim_pristine.c \
	daemon/sim_robot.c daemon/sim_robot.h \
	daemon/sim_hold.c daemon/sim_hold.h daemon/hold.c daemon/hold.h daemon/api_hold.c
libhaptixd_la_CFLAGS = $(AM_CFLAGS) $(LIBEVENT_CFLAGS) $(PROTOBUF_C_CFLAGS) \
	$(EXPAT_CFLAGS) $(ZSTD_CFLAGS) $(LIBEVENT_OPENSSL_CFLAGS) $(OPENSSL_CFLAGS)
libhaptixd_la_LIBADD = libhxwire.la libhxrec.la $(LIBEVENT_LIBS) $(PROTOBUF_C_LIBS) \
	$(EXPAT_LIBS) $(ZSTD_LIBS) $(LIBEVENT_OPENSSL_LIBS) $(OPENSSL_LIBS) \
	$(MUJOCO_LIBS) -lpthread -lm

sbin_PROGRAMS += daemon/haptixd
daemon_haptixd_SOURCES = daemon/main.c
daemon_haptixd_CFLAGS = $(AM_CFLAGS) $(LIBEVENT_CFLAGS)
daemon_haptixd_LDADD = libhaptixd.la
