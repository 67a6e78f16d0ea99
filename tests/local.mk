# Tests (Criterion): unit tests per module, and integration tests that
# start a real haptixd on a temporary socket and an ephemeral port.
if ENABLE_TESTS
# check.c calls libhaptix: its users link libhaptix.la after it (TEST_LIBS).
check_LTLIBRARIES = libhxtest.la
libhxtest_la_SOURCES = tests/harness.c tests/harness.h \
	tests/check.c tests/check.h tests/rawclient.c tests/rawclient.h \
	tests/scratch.c tests/scratch.h tests/natnet_fake.c tests/natnet_fake.h
libhxtest_la_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS) $(PROTOBUF_C_CFLAGS)
libhxtest_la_LIBADD = libhxwire.la $(CRITERION_LIBS) $(PROTOBUF_C_LIBS)
# The middle floor's unit tests run a daemon in-process (inproc.c): the
# daemon's library, a real event loop, sessions on socketpairs.
check_LTLIBRARIES += libhxinproc.la
libhxinproc_la_SOURCES = tests/inproc.c tests/inproc.h
libhxinproc_la_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS) $(LIBEVENT_CFLAGS)

# The TLS tests' certificate authority and certificates, made at test time.
check_PROGRAMS += tests/hx-test-certs
tests_hx_test_certs_SOURCES = tests/hx_test_certs.c
tests_hx_test_certs_CFLAGS = $(AM_CFLAGS) $(OPENSSL_CFLAGS)
tests_hx_test_certs_LDADD = $(OPENSSL_LIBS)

TEST_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS) $(PROTOBUF_C_CFLAGS)
TEST_LIBS = libhxtest.la libhaptix.la -lm
INPROC_CFLAGS = $(TEST_CFLAGS) $(LIBEVENT_CFLAGS)
INPROC_LIBS = libhxinproc.la libhaptixd.la $(CRITERION_LIBS) \
	$(LIBEVENT_LIBS) $(PROTOBUF_C_LIBS) $(MUJOCO_LIBS) -lm

HX_TESTS = tests/test_frame tests/test_address tests/test_decode \
	tests/test_envelope \
	tests/test_protocol \
	tests/test_native tests/test_admin tests/test_compat tests/test_simple \
	tests/test_mjcf tests/test_mpl tests/test_arrays \
	tests/test_pacing \
	tests/test_batch tests/test_service tests/test_hostile \
	tests/test_loader tests/test_upload tests/test_edit tests/test_hold \
	tests/test_view tests/test_serve tests/test_serve_guard \
	tests/test_browser tests/test_workbench \
	tests/test_timeline tests/test_replay \
	tests/test_fuzzfound \
	tests/test_recording tests/test_record \
	tests/test_hxplay tests/test_journal \
	tests/test_natnet tests/test_mocap_sources tests/test_mocap \
	tests/test_spacenav \
	tests/test_session tests/test_pending tests/test_clock tests/test_lease \
	tests/test_stream
# The middle floor's units, one test file per module, in-process.
HX_TESTS += tests/test_dispatch tests/test_call tests/test_reply \
	tests/test_protomsg tests/test_event tests/test_server tests/test_loadjob \
	tests/test_message tests/test_modeltext tests/test_lifecycle \
	tests/test_sim_carry
# Unit tests of the daemon's lower floor, on libhaptixd's object code:
# the settings and the settings file (and the example one), the files a
# model may name and the model directories (fixtures in a scratch
# directory), the request arena.
# TLS against a real haptixd, OpenSSL on the test's side too.
HX_TESTS += tests/test_tls
tests_test_tls_SOURCES = tests/test_tls.c
tests_test_tls_CFLAGS = $(TEST_CFLAGS) $(OPENSSL_CFLAGS)
tests_test_tls_LDADD = $(TEST_LIBS) $(OPENSSL_LIBS)
# The shared-memory transport as a client sees it, through real daemons.
HX_TESTS += tests/test_shm_client
tests_test_shm_client_SOURCES = tests/test_shm_client.c
tests_test_shm_client_CFLAGS = $(TEST_CFLAGS)
tests_test_shm_client_LDADD = $(TEST_LIBS)
HX_TESTS += tests/test_options tests/test_modelrefs tests/test_arena
tests_test_options_SOURCES = tests/test_options.c
tests_test_options_CFLAGS = $(TEST_CFLAGS) \
	-DHX_CONF_EXAMPLE='"$(abs_top_srcdir)/systemd/haptixd.conf.example"'
tests_test_options_LDADD = libhaptixd.la $(TEST_LIBS) $(EXPAT_LIBS) \
	$(MUJOCO_LIBS)
tests_test_modelrefs_SOURCES = tests/test_modelrefs.c
tests_test_modelrefs_CFLAGS = $(TEST_CFLAGS)
tests_test_modelrefs_LDADD = libhaptixd.la $(TEST_LIBS) $(EXPAT_LIBS) \
	$(MUJOCO_LIBS)
tests_test_arena_SOURCES = tests/test_arena.c
tests_test_arena_CFLAGS = $(TEST_CFLAGS)
tests_test_arena_LDADD = libhaptixd.la $(CRITERION_LIBS) $(EXPAT_LIBS) \
	$(MUJOCO_LIBS)
# The loader's sandbox, entered in a child process.
HX_TESTS += tests/test_sandbox
tests_test_sandbox_SOURCES = tests/test_sandbox.c
tests_test_sandbox_CFLAGS = $(TEST_CFLAGS)
tests_test_sandbox_LDADD = libhaptixd.la $(CRITERION_LIBS)
# The loader's answer in shared memory: read only sealed.
HX_TESTS += tests/test_answermem
tests_test_answermem_SOURCES = tests/test_answermem.c
tests_test_answermem_CFLAGS = $(TEST_CFLAGS)
tests_test_answermem_LDADD = libhaptixd.la $(CRITERION_LIBS)
# The precise timers of the pacing and the wall-clock streams.
HX_TESTS += tests/test_ptimer
tests_test_ptimer_SOURCES = tests/test_ptimer.c
tests_test_ptimer_CFLAGS = $(TEST_CFLAGS) $(LIBEVENT_CFLAGS)
tests_test_ptimer_LDADD = libhaptixd.la $(CRITERION_LIBS) $(LIBEVENT_LIBS) \
	$(EXPAT_LIBS) $(MUJOCO_LIBS)
# The service manager's protocols, written in place of libsystemd.
HX_TESTS += tests/test_sdnotify
tests_test_sdnotify_SOURCES = tests/test_sdnotify.c
tests_test_sdnotify_CFLAGS = $(TEST_CFLAGS)
tests_test_sdnotify_LDADD = libhaptixd.la $(CRITERION_LIBS) $(EXPAT_LIBS) \
	$(MUJOCO_LIBS)
check_PROGRAMS += $(HX_TESTS)
TESTS += $(HX_TESTS)

# The transport, in-process: test hooks, socketpairs, a real loop.
tests_test_session_SOURCES = tests/test_session.c
tests_test_session_CFLAGS = $(INPROC_CFLAGS)
tests_test_session_LDADD = $(INPROC_LIBS)
# Calls answered at the tick or when done, and the answers themselves.
tests_test_pending_SOURCES = tests/test_pending.c
tests_test_pending_CFLAGS = $(INPROC_CFLAGS)
tests_test_pending_LDADD = $(INPROC_LIBS)
# Pacing with the test fixture in a real sim, and hooks that count.
tests_test_clock_SOURCES = tests/test_clock.c
tests_test_clock_CFLAGS = $(INPROC_CFLAGS)
tests_test_clock_LDADD = $(INPROC_LIBS)
# The lease and its loss modes, through the core's client-left fan-out.
tests_test_lease_SOURCES = tests/test_lease.c
tests_test_lease_CFLAGS = $(INPROC_CFLAGS)
tests_test_lease_LDADD = $(INPROC_LIBS)
HX_TESTS += tests/test_message
tests_test_message_SOURCES = tests/test_message.c
tests_test_message_CFLAGS = $(INPROC_CFLAGS)
tests_test_message_LDADD = $(INPROC_LIBS)
HX_TESTS += tests/test_lifecycle
tests_test_lifecycle_SOURCES = tests/test_lifecycle.c
tests_test_lifecycle_CFLAGS = $(INPROC_CFLAGS)
tests_test_lifecycle_LDADD = $(INPROC_LIBS)
HX_TESTS += tests/test_modeltext
tests_test_modeltext_SOURCES = tests/test_modeltext.c
tests_test_modeltext_CFLAGS = $(INPROC_CFLAGS)
tests_test_modeltext_LDADD = $(INPROC_LIBS)
# A subscriber that reads nothing: owed frames, held events, the drain.
tests_test_stream_SOURCES = tests/test_stream.c
tests_test_stream_CFLAGS = $(INPROC_CFLAGS)
tests_test_stream_LDADD = $(INPROC_LIBS)
# The sim files, each with the fixture in a real sim (inproc.c).
HX_TESTS += tests/test_sim_array
tests_test_sim_array_SOURCES = tests/test_sim_array.c
tests_test_sim_array_CFLAGS = $(INPROC_CFLAGS)
tests_test_sim_array_LDADD = $(INPROC_LIBS)
HX_TESTS += tests/test_sim_key tests/test_sim_check
tests_test_sim_key_SOURCES = tests/test_sim_key.c
tests_test_sim_key_CFLAGS = $(INPROC_CFLAGS)
tests_test_sim_key_LDADD = $(INPROC_LIBS)
tests_test_sim_check_SOURCES = tests/test_sim_check.c
tests_test_sim_check_CFLAGS = $(INPROC_CFLAGS)
tests_test_sim_check_LDADD = $(INPROC_LIBS)
HX_TESTS += tests/test_sim_state
tests_test_sim_state_SOURCES = tests/test_sim_state.c
tests_test_sim_state_CFLAGS = $(INPROC_CFLAGS)
tests_test_sim_state_LDADD = $(INPROC_LIBS)
HX_TESTS += tests/test_sim_carry
tests_test_sim_carry_SOURCES = tests/test_sim_carry.c
tests_test_sim_carry_CFLAGS = $(INPROC_CFLAGS)
tests_test_sim_carry_LDADD = $(INPROC_LIBS)
HX_TESTS += tests/test_sim_robot
tests_test_sim_robot_SOURCES = tests/test_sim_robot.c
tests_test_sim_robot_CFLAGS = $(INPROC_CFLAGS)
tests_test_sim_robot_LDADD = $(INPROC_LIBS)
HX_TESTS += tests/test_sim_pristine
tests_test_sim_pristine_SOURCES = tests/test_sim_pristine.c
tests_test_sim_pristine_CFLAGS = $(INPROC_CFLAGS)
tests_test_sim_pristine_LDADD = $(INPROC_LIBS)
HX_TESTS += tests/test_sim_rollback tests/test_sim_hold
tests_test_sim_rollback_SOURCES = tests/test_sim_rollback.c
tests_test_sim_rollback_CFLAGS = $(INPROC_CFLAGS)
tests_test_sim_rollback_LDADD = $(INPROC_LIBS)
tests_test_sim_hold_SOURCES = tests/test_sim_hold.c
tests_test_sim_hold_CFLAGS = $(INPROC_CFLAGS)
tests_test_sim_hold_LDADD = $(INPROC_LIBS)
HX_TESTS += tests/test_sim_world
tests_test_sim_world_SOURCES = tests/test_sim_world.c
tests_test_sim_world_CFLAGS = $(INPROC_CFLAGS)
tests_test_sim_world_LDADD = $(INPROC_LIBS)
HX_TESTS += tests/test_sim_access
tests_test_sim_access_SOURCES = tests/test_sim_access.c
tests_test_sim_access_CFLAGS = $(INPROC_CFLAGS)
tests_test_sim_access_LDADD = $(INPROC_LIBS)
HX_TESTS += tests/test_sim_describe
tests_test_sim_describe_SOURCES = tests/test_sim_describe.c
tests_test_sim_describe_CFLAGS = $(INPROC_CFLAGS)
tests_test_sim_describe_LDADD = $(INPROC_LIBS)
HX_TESTS += tests/test_sim
tests_test_sim_SOURCES = tests/test_sim.c
tests_test_sim_CFLAGS = $(INPROC_CFLAGS)
tests_test_sim_LDADD = $(INPROC_LIBS)
# Dispatch through a call table of the test's own handlers.
tests_test_dispatch_SOURCES = tests/test_dispatch.c
tests_test_dispatch_CFLAGS = $(INPROC_CFLAGS)
tests_test_dispatch_LDADD = $(INPROC_LIBS)
# The argument checks and who may write: a call as a bare struct.
tests_test_call_SOURCES = tests/test_call.c
tests_test_call_CFLAGS = $(INPROC_CFLAGS)
tests_test_call_LDADD = $(INPROC_LIBS)
# Answers: their id, code and reason, the frame limit, the fill.
tests_test_reply_SOURCES = tests/test_reply.c
tests_test_reply_CFLAGS = $(INPROC_CFLAGS)
tests_test_reply_LDADD = $(INPROC_LIBS)
# The simulation's messages on the fixture: counts, values, copies.
tests_test_protomsg_SOURCES = tests/test_protomsg.c
tests_test_protomsg_CFLAGS = $(INPROC_CFLAGS)
tests_test_protomsg_LDADD = $(INPROC_LIBS)
# Each event as a subscriber reads it, through the core's wiring.
tests_test_event_SOURCES = tests/test_event.c
tests_test_event_CFLAGS = $(INPROC_CFLAGS)
tests_test_event_LDADD = $(INPROC_LIBS)
# Listeners: Unix, TCP and adopted sockets, --max-handshakes.
tests_test_server_SOURCES = tests/test_server.c
tests_test_server_CFLAGS = $(INPROC_CFLAGS)
# hx_test_cert(): the harness, and libhaptix after it.
tests_test_server_LDADD = $(INPROC_LIBS) $(TEST_LIBS)
# The load queue, its loads run in-process: limits, turns, cancelling.
tests_test_loadjob_SOURCES = tests/test_loadjob.c
tests_test_loadjob_CFLAGS = $(INPROC_CFLAGS)
tests_test_loadjob_LDADD = $(INPROC_LIBS)
tests_test_frame_SOURCES = tests/test_frame.c
tests_test_frame_CFLAGS = $(TEST_CFLAGS)
tests_test_frame_LDADD = $(TEST_LIBS)
# The shared-memory ring (lib/shmring.c), two threads and a hostile side.
HX_TESTS += tests/test_shmring
tests_test_shmring_SOURCES = tests/test_shmring.c
tests_test_shmring_CFLAGS = $(TEST_CFLAGS)
tests_test_shmring_LDADD = libhxwire.la $(CRITERION_LIBS) -lpthread
# Its memory (a sealed memfd) and passing descriptors (SCM_RIGHTS).
HX_TESTS += tests/test_shmregion
tests_test_shmregion_SOURCES = tests/test_shmregion.c
tests_test_shmregion_CFLAGS = $(TEST_CFLAGS)
tests_test_shmregion_LDADD = libhxwire.la $(CRITERION_LIBS)
# The envelopes packed and parsed by hand, against protobuf-c.
tests_test_envelope_SOURCES = tests/test_envelope.c
tests_test_envelope_CFLAGS = $(TEST_CFLAGS)
tests_test_envelope_LDADD = $(TEST_LIBS)
tests_test_address_SOURCES = tests/test_address.c
tests_test_address_CFLAGS = $(TEST_CFLAGS)
tests_test_address_LDADD = $(TEST_LIBS)
# The daemon's token, read and compared (lib/token.c).
HX_TESTS += tests/test_token
tests_test_token_SOURCES = tests/test_token.c
tests_test_token_CFLAGS = $(TEST_CFLAGS)
tests_test_token_LDADD = $(TEST_LIBS)
# What hx-foxglove takes from a client (libwebsockets' LEJP parser).
HX_TESTS += tests/test_foxglove_parse
tests_test_foxglove_parse_SOURCES = tests/test_foxglove_parse.c \
	clients/foxglove_ws_parse.c clients/foxglove_ws.h
tests_test_foxglove_parse_CFLAGS = $(TEST_CFLAGS) -I$(srcdir)/clients \
	$(LIBWEBSOCKETS_CFLAGS)
tests_test_foxglove_parse_LDADD = $(TEST_LIBS) $(LIBWEBSOCKETS_LIBS)
# Recording in the daemon, read back with the recording library.
tests_test_record_SOURCES = tests/test_record.c
tests_test_record_CFLAGS = $(TEST_CFLAGS)
tests_test_record_LDADD = $(TEST_LIBS) libhxrec.la
# hxplay info and export, and the journal replayed by hxplay --verify.
tests_test_hxplay_SOURCES = tests/test_hxplay.c
tests_test_hxplay_CFLAGS = $(TEST_CFLAGS)
tests_test_hxplay_LDADD = $(TEST_LIBS) libhxrec.la
tests_test_journal_SOURCES = tests/test_journal.c
tests_test_journal_CFLAGS = $(TEST_CFLAGS)
tests_test_journal_LDADD = $(TEST_LIBS) libhxrec.la
# The drivers' decoders, tested on their object code: NatNet packets (from
# the fake server's encoder), the simple UDP format, CSV files, axes.
tests_test_natnet_SOURCES = tests/test_natnet.c clients/natnet.c clients/mocap_axes.c
tests_test_natnet_CFLAGS = $(TEST_CFLAGS) -I$(srcdir)/clients
tests_test_natnet_LDADD = $(TEST_LIBS) -lpthread
tests_test_mocap_sources_SOURCES = tests/test_mocap_sources.c \
	clients/mocap_udp.c clients/mocap_csv.c clients/mocap_axes.c
tests_test_mocap_sources_CFLAGS = $(TEST_CFLAGS) -I$(srcdir)/clients
tests_test_mocap_sources_LDADD = $(TEST_LIBS)
# The drivers through a real daemon: a fake NatNet server, UDP, CSV; a
# fake spacenavd and evdev event files.
tests_test_mocap_SOURCES = tests/test_mocap.c
tests_test_mocap_CFLAGS = $(TEST_CFLAGS)
tests_test_mocap_LDADD = $(TEST_LIBS) libhxwire.la -lpthread
tests_test_spacenav_SOURCES = tests/test_spacenav.c
tests_test_spacenav_CFLAGS = $(TEST_CFLAGS)
tests_test_spacenav_LDADD = $(TEST_LIBS) -lpthread
# The recording file; the test makes hostile files with zstd itself.
tests_test_recording_SOURCES = tests/test_recording.c
tests_test_recording_CFLAGS = $(TEST_CFLAGS) $(ZSTD_CFLAGS)
tests_test_recording_LDADD = $(TEST_LIBS) libhxrec.la $(ZSTD_LIBS) -lpthread
# The decoder is internal to libhaptix: test its object code directly.
tests_test_decode_SOURCES = tests/test_decode.c lib/decode.c lib/conn.c lib/conn_clock.c lib/conn_result.c lib/conn_shm.c \
	lib/tls_client.c lib/request.c lib/haptixd_members.c
tests_test_decode_CFLAGS = $(TEST_CFLAGS) $(OPENSSL_CFLAGS)
tests_test_decode_LDADD = libhxtest.la $(OPENSSL_LIBS) -lm
tests_test_protocol_SOURCES = tests/test_protocol.c
tests_test_protocol_CFLAGS = $(TEST_CFLAGS)
tests_test_protocol_LDADD = $(TEST_LIBS)
tests_test_native_SOURCES = tests/test_native.c
tests_test_native_CFLAGS = $(TEST_CFLAGS)
tests_test_native_LDADD = $(TEST_LIBS)
tests_test_admin_SOURCES = tests/test_admin.c
tests_test_admin_CFLAGS = $(TEST_CFLAGS)
tests_test_admin_LDADD = $(TEST_LIBS) $(MUJOCO_LIBS)
tests_test_compat_SOURCES = tests/test_compat.c
tests_test_compat_CFLAGS = $(TEST_CFLAGS)
tests_test_compat_LDADD = $(TEST_LIBS)
# A step that goes bad is undone: every input at extremes.
HX_TESTS += tests/test_rollback
tests_test_rollback_SOURCES = tests/test_rollback.c
tests_test_rollback_CFLAGS = $(TEST_CFLAGS)
tests_test_rollback_LDADD = $(TEST_LIBS)

# The daemon's MJB loaded as hxview loads it, for the tests that link
# MuJoCo.
MJB_LOAD = clients/mjb_memory.c clients/mjb_memory.h

# Gazebo HAPTIX's World API, through prog_world (below).
HX_TESTS += tests/test_world
tests_test_world_SOURCES = tests/test_world.c
tests_test_world_CFLAGS = $(TEST_CFLAGS)
tests_test_world_LDADD = $(TEST_LIBS)
tests_test_simple_SOURCES = tests/test_simple.c
tests_test_simple_CFLAGS = $(TEST_CFLAGS)
tests_test_simple_LDADD = $(TEST_LIBS)
tests_test_mpl_SOURCES = tests/test_mpl.c
tests_test_mpl_CFLAGS = $(TEST_CFLAGS)
tests_test_mpl_LDADD = $(TEST_LIBS)
tests_test_arrays_SOURCES = tests/test_arrays.c
tests_test_arrays_CFLAGS = $(TEST_CFLAGS)
tests_test_arrays_LDADD = $(TEST_LIBS)
# MuJoCo's computations bit for bit against MuJoCo in the test itself.
HX_TESTS += tests/test_compute
tests_test_compute_SOURCES = tests/test_compute.c $(MJB_LOAD)
tests_test_compute_CFLAGS = $(TEST_CFLAGS) -I$(srcdir)/clients
tests_test_compute_LDADD = $(TEST_LIBS) $(MUJOCO_LIBS)
# The live run's history, checked against a recording of the run.
HX_TESTS += tests/test_history
tests_test_history_SOURCES = tests/test_history.c
tests_test_history_CFLAGS = $(TEST_CFLAGS)
tests_test_history_LDADD = $(TEST_LIBS) libhxrec.la
tests_test_batch_SOURCES = tests/test_batch.c
tests_test_batch_CFLAGS = $(TEST_CFLAGS)
tests_test_batch_LDADD = $(TEST_LIBS)
# The pacing clock's lateness in the status, and in hxctl status.
tests_test_pacing_SOURCES = tests/test_pacing.c
tests_test_pacing_CFLAGS = $(TEST_CFLAGS)
tests_test_pacing_LDADD = $(TEST_LIBS)
# Sessions, the lease, events and streams, one binary per area;
# tests/sessions_check.c holds what they share.  The stress test of
# test_sessions_slow uses threads.
SESSIONS_TESTS = tests/test_sessions_clients tests/test_sessions_lease \
	tests/test_sessions_events tests/test_sessions_streams \
	tests/test_sessions_slow
check_PROGRAMS += $(SESSIONS_TESTS)
TESTS += $(SESSIONS_TESTS)
SESSIONS_CHECK = tests/sessions_check.c tests/sessions_check.h
tests_test_sessions_clients_SOURCES = tests/test_sessions_clients.c \
	$(SESSIONS_CHECK)
tests_test_sessions_clients_CFLAGS = $(TEST_CFLAGS)
tests_test_sessions_clients_LDADD = $(TEST_LIBS)
tests_test_sessions_lease_SOURCES = tests/test_sessions_lease.c \
	$(SESSIONS_CHECK)
tests_test_sessions_lease_CFLAGS = $(TEST_CFLAGS)
tests_test_sessions_lease_LDADD = $(TEST_LIBS)
tests_test_sessions_events_SOURCES = tests/test_sessions_events.c \
	$(SESSIONS_CHECK)
tests_test_sessions_events_CFLAGS = $(TEST_CFLAGS)
tests_test_sessions_events_LDADD = $(TEST_LIBS)
tests_test_sessions_streams_SOURCES = tests/test_sessions_streams.c \
	$(SESSIONS_CHECK)
tests_test_sessions_streams_CFLAGS = $(TEST_CFLAGS)
tests_test_sessions_streams_LDADD = $(TEST_LIBS)
tests_test_sessions_slow_SOURCES = tests/test_sessions_slow.c \
	$(SESSIONS_CHECK)
tests_test_sessions_slow_CFLAGS = $(TEST_CFLAGS)
tests_test_sessions_slow_LDADD = $(TEST_LIBS) -lpthread
# Hostile input: every call from the descriptors, frames, limits, paths.
tests_test_hostile_SOURCES = tests/test_hostile.c
tests_test_hostile_CFLAGS = $(TEST_CFLAGS)
tests_test_hostile_LDADD = $(TEST_LIBS)

# The shared-memory transport against a hostile client, and a soak of
# 16 clients over shared memory and the socket.
HX_TESTS += tests/test_shm
tests_test_shm_SOURCES = tests/test_shm.c
tests_test_shm_CFLAGS = $(TEST_CFLAGS)
tests_test_shm_LDADD = $(TEST_LIBS) -lpthread
# Models that attack the daemon, tampered with through MuJoCo itself.
tests_test_loader_SOURCES = tests/test_loader.c
tests_test_loader_CFLAGS = $(TEST_CFLAGS)
tests_test_loader_LDADD = $(TEST_LIBS) $(MUJOCO_LIBS)
# Models sent with their files (meshes, includes) and their limits.
tests_test_upload_SOURCES = tests/test_upload.c
tests_test_upload_CFLAGS = $(TEST_CFLAGS)
tests_test_upload_LDADD = $(TEST_LIBS)
# Model editing: edit transactions on the running MPL scene.
tests_test_edit_SOURCES = tests/test_edit.c
tests_test_edit_CFLAGS = $(TEST_CFLAGS)
tests_test_edit_LDADD = $(TEST_LIBS)
tests_test_hold_SOURCES = tests/test_hold.c
tests_test_hold_CFLAGS = $(TEST_CFLAGS)
tests_test_hold_LDADD = $(TEST_LIBS)
# What fuzzing found (docs/fuzzing.md), through a real daemon.
tests_test_fuzzfound_SOURCES = tests/test_fuzzfound.c
tests_test_fuzzfound_CFLAGS = $(TEST_CFLAGS)
tests_test_fuzzfound_LDADD = $(TEST_LIBS)
# systemd without systemd: notify socket, socket activation, reloads.
tests_test_service_SOURCES = tests/test_service.c
tests_test_service_CFLAGS = $(TEST_CFLAGS)
tests_test_service_LDADD = $(TEST_LIBS)
# hxctl against a real daemon, one binary per area; tests/hxctl_run.c
# runs hxctl and checks its output for them all.
HXCTL_TESTS = tests/test_hxctl_usage tests/test_hxctl_output \
	tests/test_hxctl_state tests/test_hxctl_robot tests/test_hxctl_world \
	tests/test_hxctl_model tests/test_hxctl_lease \
	tests/test_hxctl_subscribe tests/test_hxctl_batch \
	tests/test_hxctl_compute
check_PROGRAMS += $(HXCTL_TESTS)
TESTS += $(HXCTL_TESTS)
HXCTL_RUN = tests/hxctl_run.c tests/hxctl_run.h
tests_test_hxctl_usage_SOURCES = tests/test_hxctl_usage.c $(HXCTL_RUN)
tests_test_hxctl_usage_CFLAGS = $(TEST_CFLAGS)
tests_test_hxctl_usage_LDADD = $(TEST_LIBS)
tests_test_hxctl_output_SOURCES = tests/test_hxctl_output.c $(HXCTL_RUN)
tests_test_hxctl_output_CFLAGS = $(TEST_CFLAGS)
tests_test_hxctl_output_LDADD = $(TEST_LIBS)
tests_test_hxctl_state_SOURCES = tests/test_hxctl_state.c $(HXCTL_RUN)
tests_test_hxctl_state_CFLAGS = $(TEST_CFLAGS)
tests_test_hxctl_state_LDADD = $(TEST_LIBS)
tests_test_hxctl_robot_SOURCES = tests/test_hxctl_robot.c $(HXCTL_RUN)
tests_test_hxctl_robot_CFLAGS = $(TEST_CFLAGS)
tests_test_hxctl_robot_LDADD = $(TEST_LIBS)
tests_test_hxctl_world_SOURCES = tests/test_hxctl_world.c $(HXCTL_RUN)
tests_test_hxctl_world_CFLAGS = $(TEST_CFLAGS)
tests_test_hxctl_world_LDADD = $(TEST_LIBS)
tests_test_hxctl_model_SOURCES = tests/test_hxctl_model.c $(HXCTL_RUN)
tests_test_hxctl_model_CFLAGS = $(TEST_CFLAGS)
tests_test_hxctl_model_LDADD = $(TEST_LIBS)
tests_test_hxctl_lease_SOURCES = tests/test_hxctl_lease.c $(HXCTL_RUN)
tests_test_hxctl_lease_CFLAGS = $(TEST_CFLAGS)
tests_test_hxctl_lease_LDADD = $(TEST_LIBS)
tests_test_hxctl_subscribe_SOURCES = tests/test_hxctl_subscribe.c $(HXCTL_RUN)
tests_test_hxctl_subscribe_CFLAGS = $(TEST_CFLAGS)
tests_test_hxctl_subscribe_LDADD = $(TEST_LIBS)
tests_test_hxctl_batch_SOURCES = tests/test_hxctl_batch.c $(HXCTL_RUN)
tests_test_hxctl_batch_CFLAGS = $(TEST_CFLAGS)
tests_test_hxctl_batch_LDADD = $(TEST_LIBS)
tests_test_hxctl_compute_SOURCES = tests/test_hxctl_compute.c $(HXCTL_RUN)
tests_test_hxctl_compute_CFLAGS = $(TEST_CFLAGS)
tests_test_hxctl_compute_LDADD = $(TEST_LIBS)
# hxview through a real daemon; each exits 77 (skipped, with the reason)
# when EGL cannot render here, or, for the browser, without Chromium.
# The offscreen renderer (test_view), hxview serve (test_serve) and what
# serve refuses (test_serve_guard); tests/view_harness.c holds what they
# share, their main() among it.
VIEW_HARNESS = tests/view_harness.c tests/view_harness.h
tests_test_view_SOURCES = tests/test_view.c $(VIEW_HARNESS) $(MJB_LOAD)
tests_test_view_CFLAGS = $(TEST_CFLAGS) $(PNG_CFLAGS) -I$(srcdir)/clients
tests_test_view_LDADD = $(TEST_LIBS) $(PNG_LIBS) $(MUJOCO_LIBS)
tests_test_serve_SOURCES = tests/test_serve.c $(VIEW_HARNESS)
tests_test_serve_CFLAGS = $(TEST_CFLAGS) $(PNG_CFLAGS)
tests_test_serve_LDADD = $(TEST_LIBS) $(PNG_LIBS)
tests_test_serve_guard_SOURCES = tests/test_serve_guard.c $(VIEW_HARNESS)
tests_test_serve_guard_CFLAGS = $(TEST_CFLAGS) $(PNG_CFLAGS)
tests_test_serve_guard_LDADD = $(TEST_LIBS) $(PNG_LIBS)
tests_test_browser_SOURCES = tests/test_browser.c tests/browser.c \
	tests/browser.h
tests_test_browser_CFLAGS = $(TEST_CFLAGS)
tests_test_browser_LDADD = $(TEST_LIBS)
# The workbench of hxview serve in headless Chromium (as test_browser).
tests_test_workbench_SOURCES = tests/test_workbench.c tests/browser.c \
	tests/browser.h
tests_test_workbench_CFLAGS = $(TEST_CFLAGS)
tests_test_workbench_LDADD = $(TEST_LIBS)
# Recordings through hxview serve (/recordings.json, /recording.json).
tests_test_replay_SOURCES = tests/test_replay.c tests/browser.c \
	tests/browser.h tests/recorded.c tests/recorded.h
tests_test_replay_CFLAGS = $(TEST_CFLAGS)
tests_test_replay_LDADD = $(TEST_LIBS) libhxrec.la
# The workbench's timeline: the live run's history in the page.
tests_test_timeline_SOURCES = tests/test_timeline.c tests/browser.c \
	tests/browser.h tests/recorded.c tests/recorded.h
tests_test_timeline_CFLAGS = $(TEST_CFLAGS)
tests_test_timeline_LDADD = $(TEST_LIBS) libhxrec.la
# The workbench's perturbation against MuJoCo's own in the test process
# (hxview serve over HTTP: EGL, no browser).
HX_TESTS += tests/test_perturb
tests_test_perturb_SOURCES = tests/test_perturb.c tests/browser.c \
	tests/browser.h $(MJB_LOAD)
tests_test_perturb_CFLAGS = $(TEST_CFLAGS) -I$(srcdir)/clients
tests_test_perturb_LDADD = $(TEST_LIBS) $(MUJOCO_LIBS)
# The workbench over HTTPS (hxview serve --http tls:), in headless
# Chromium that verifies the certificate, and through OpenSSL.
HX_TESTS += tests/test_https
tests_test_https_SOURCES = tests/test_https.c tests/browser.c \
	tests/browser.h
tests_test_https_CFLAGS = $(TEST_CFLAGS) $(OPENSSL_CFLAGS)
tests_test_https_LDADD = $(TEST_LIBS) $(OPENSSL_LIBS)
# make bench-workbench: the workbench's figures (docs/benchmarks.md),
# measured in headless Chromium; not a test (no thresholds).
check_PROGRAMS += tests/bench_workbench
tests_bench_workbench_SOURCES = tests/bench_workbench.c tests/browser.c \
	tests/browser.h
tests_bench_workbench_CFLAGS = $(TEST_CFLAGS)
tests_bench_workbench_LDADD = $(TEST_LIBS)
bench-workbench: tests/bench_workbench clients/hxview daemon/haptixd
	@$(AM_TESTS_ENVIRONMENT) \
	HX_SCREENSHOT="$${HX_SCREENSHOT-}" CRITERION_JOBS=1 \
	    ./tests/bench_workbench --verbose=0
# The MJCF tree and legacy translation, and MuJoCo loading what they write.
tests_test_mjcf_SOURCES = tests/test_mjcf.c tests/mjcf_check.c \
	tests/mjcf_check.h
tests_test_mjcf_CFLAGS = $(TEST_CFLAGS)
tests_test_mjcf_LDADD = libhaptixd.la $(CRITERION_LIBS) $(EXPAT_LIBS) \
	$(MUJOCO_LIBS)
# Edits and attaches of the MJCF tree, at the tree level.
HX_TESTS += tests/test_mjcf_edit tests/test_mjcf_attach
tests_test_mjcf_edit_SOURCES = tests/test_mjcf_edit.c tests/mjcf_check.c \
	tests/mjcf_check.h
tests_test_mjcf_edit_CFLAGS = $(TEST_CFLAGS)
tests_test_mjcf_edit_LDADD = libhaptixd.la $(CRITERION_LIBS) $(EXPAT_LIBS) \
	$(MUJOCO_LIBS)
tests_test_mjcf_attach_SOURCES = tests/test_mjcf_attach.c tests/mjcf_check.c \
	tests/mjcf_check.h
tests_test_mjcf_attach_CFLAGS = $(TEST_CFLAGS)
tests_test_mjcf_attach_LDADD = libhaptixd.la $(CRITERION_LIBS) \
	$(EXPAT_LIBS) $(MUJOCO_LIBS)
endif

# The integration tests again with every daemon they start under
# valgrind (tests/harness.c): a leak or memory error fails the test.
# Slow, so not part of check.
HX_VALGRIND_TESTS = tests/test_protocol tests/test_native tests/test_admin \
	tests/test_simple tests/test_batch $(SESSIONS_TESTS) tests/test_hostile \
	tests/test_mocap tests/test_spacenav tests/test_tls tests/test_shm \
	tests/test_compute
# The in-process tests start no daemon: they run under valgrind
# themselves, each worker of Criterion's runner traced.  Criterion does
# not see a worker's exit status, so tests/inproc.c fails a test that
# memcheck found fault with; their tests of timing skip.
HX_VALGRIND_UNITS = tests/test_session tests/test_pending tests/test_clock \
	tests/test_lease tests/test_stream
HX_VALGRIND_UNITS += tests/test_dispatch tests/test_call tests/test_reply \
	tests/test_protomsg tests/test_event tests/test_server tests/test_loadjob \
	tests/test_message tests/test_modeltext tests/test_lifecycle \
	tests/test_sim_carry
HX_VALGRIND_RUN = valgrind --quiet --trace-children=yes --leak-check=full \
	--show-leak-kinds=definite --errors-for-leak-kinds=definite \
	--error-exitcode=3
check-valgrind:
	HX_VALGRIND=1 $(MAKE) $(AM_MAKEFLAGS) check TESTS="$(HX_VALGRIND_TESTS)"
	HX_VALGRIND=1 $(MAKE) $(AM_MAKEFLAGS) check \
	    TESTS="$(HX_VALGRIND_UNITS)" LOG_FLAGS="$(HX_VALGRIND_RUN)"
.PHONY: check-valgrind bench-workbench

# The whole suite again with AddressSanitizer and UndefinedBehaviorSanitizer:
# a second build in sanitizers/ of this build directory (the source tree
# must not be configured itself, as for any build beside it).  Run by
# .ci/run; not part of check.
check-sanitizers:
	@if [ -f '$(abs_top_srcdir)/config.status' ]; then \
	    echo "check-sanitizers: $(abs_top_srcdir) is configured in" \
	        "place; build in a directory of its own (./quickstart" \
	        "uses build/)" >&2; exit 1; fi
	$(MKDIR_P) sanitizers
	cd sanitizers && { [ -f Makefile ] || \
	    '$(abs_top_srcdir)/configure' CC='$(CC)' --enable-sanitizers \
	    --enable-werror --prefix='$(prefix)'; }
	$(MAKE) -C sanitizers
	$(MAKE) -C sanitizers check || { \
	    cat sanitizers/test-suite.log; exit 1; }
.PHONY: check-sanitizers
distclean-local: distclean-sanitizers
distclean-sanitizers:
	rm -rf sanitizers
.PHONY: distclean-sanitizers

# Programs of the two HAPTIX header dialects, built as their users would
# (nothing but the public header) and run by test_simple, which also
# builds prog_osrf with the documented line, pkg-config's flags alone.
check_PROGRAMS += tests/prog_mujoco tests/prog_osrf
tests_prog_mujoco_SOURCES = tests/prog_mujoco.c
tests_prog_mujoco_CPPFLAGS = -I$(srcdir)/lib
tests_prog_mujoco_LDADD = libhaptix.la -lm
tests_prog_osrf_SOURCES = tests/prog_osrf.c
tests_prog_osrf_CPPFLAGS = -I$(srcdir)/lib
tests_prog_osrf_LDADD = libhaptix.la -lm
CLEANFILES += tests/prog_osrf_pc
# Gazebo HAPTIX's World API: a world program (haptix_sim.h alone), run
# check by check by test_world on the MPL scene.
check_PROGRAMS += tests/prog_world
tests_prog_world_SOURCES = tests/prog_world.c
tests_prog_world_CPPFLAGS = -I$(srcdir)/lib
tests_prog_world_LDADD = libhaptix.la -lm
CLEANFILES += tests/prog_world_pc

AM_TESTS_ENVIRONMENT = \
	HX_PROGS='$(abs_top_builddir)/tests'; export HX_PROGS; \
	HX_EXAMPLES='$(abs_top_builddir)/clients/examples'; export HX_EXAMPLES; \
	HAPTIXD='$(abs_top_builddir)/daemon/haptixd'; export HAPTIXD; \
	HXCTL='$(abs_top_builddir)/clients/hxctl'; export HXCTL; \
	HXVIEW='$(abs_top_builddir)/clients/hxview'; export HXVIEW; \
	HXPLAY='$(abs_top_builddir)/clients/hxplay'; export HXPLAY; \
	HX_MOCAP='$(abs_top_builddir)/clients/hx-mocap'; export HX_MOCAP; \
	HX_SPACENAV='$(abs_top_builddir)/clients/hx-spacenav'; export HX_SPACENAV; \
	HX_FOXGLOVE='$(abs_top_builddir)/clients/hx-foxglove'; export HX_FOXGLOVE; \
	HX_MODELS='$(abs_top_srcdir)/models'; export HX_MODELS; \
	HX_TEST_MODELS='$(abs_top_srcdir)/models/test'; export HX_TEST_MODELS; \
	HX_BUILD='$(abs_top_builddir)'; HX_SRC='$(abs_top_srcdir)'; \
	HX_CC='$(CC) $(HX_SAN)'; export HX_BUILD HX_SRC HX_CC; \
	HX_VERSION='$(PACKAGE_VERSION)'; export HX_VERSION; \
	HAPTIX_SERVER=; export HAPTIX_SERVER; \
	HAPTIX_TOKEN_FILE=; export HAPTIX_TOKEN_FILE; \
	LSAN_OPTIONS='suppressions=$(abs_top_srcdir)/tests/lsan.supp'; \
	export LSAN_OPTIONS;
# Criterion forks a worker per test; two jobs suit these 2-core machines.
LOG_COMPILER = env
AM_LOG_FLAGS = CRITERION_JOBS=2
EXTRA_DIST += tests/README.md tests/lsan.supp tests/common.sh

# proto/fields.awk: the fields of each message, for every floor.
TESTS += tests/fields.sh
EXTRA_DIST += tests/fields.sh

# README.md's shell blocks, run in order against a real haptixd.
TESTS += tests/readme.sh
EXTRA_DIST += tests/readme.sh

# The build tree used as an install: haptixd, hxsweep and pkg-config.
TESTS += tests/buildtree.sh
EXTRA_DIST += tests/buildtree.sh

# The floors: no circle among the C files' includes.
TESTS += tests/floors.sh
EXTRA_DIST += tests/floors.sh

# hxplay export --mcap read back by @mcap/core in Node (npm ci of the
# committed lock into tests/mcap-node of the build tree; skips without npm).
TESTS += tests/mcap.sh
EXTRA_DIST += tests/mcap.sh tests/mcap/package.json \
	tests/mcap/package-lock.json tests/mcap/read.mjs
clean-local: clean-mcap-node
clean-mcap-node:
	rm -rf tests/mcap-node
.PHONY: clean-mcap-node

# hx-foxglove read live by Foxglove's own client in Node (npm ci of the
# committed lock into tests/foxglove-node of the build tree; skips
# without npm).
TESTS += tests/foxglove.sh
EXTRA_DIST += tests/foxglove.sh tests/foxglove/package.json \
	tests/foxglove/package-lock.json tests/foxglove/client.mjs
clean-local: clean-foxglove-node
clean-foxglove-node:
	rm -rf tests/foxglove-node
.PHONY: clean-foxglove-node

# --help, --version and bad options of every program and subcommand.
TESTS += tests/help.sh
EXTRA_DIST += tests/help.sh

# The MATLAB API in GNU Octave, through real daemons (clients/matlab/).
TESTS += tests/octave.sh
EXTRA_DIST += tests/octave.sh tests/octave/haptix_tests.m \
	tests/octave/gazebo_tests.m tests/octave/run_tests.m \
	tests/octave/check.m tests/octave/expect_error.m \
	tests/octave/check_fields.m tests/octave/check_size.m \
	tests/octave/hxctl.m tests/octave/hxctl_json.m
