# Command-line and example clients.
bin_PROGRAMS += clients/hxctl
clients_hxctl_SOURCES = clients/hxctl.c clients/hxctl_common.h \
	clients/hxctl_args.c clients/hxctl_array.c clients/hxctl_clients.c clients/hxctl_record.c \
	clients/hxctl_compute.c clients/hxctl_history.c \
	clients/hxctl_driver.c \
	clients/hxctl_conn.c clients/hxctl_controls.c clients/hxctl_error.c \
	clients/hxctl_info.c clients/hxctl_joint.c clients/hxctl_json.c \
	clients/hxctl_model.c clients/hxctl_object.c clients/hxctl_simple.c \
	clients/hxctl_run.c clients/hxctl_set.c clients/hxctl_hold.c clients/hxctl_status.c \
	clients/hxctl_stream.c clients/hxctl_suggest.c clients/hxctl_table.c clients/hxctl_view.c \
	clients/hxctl_wait.c clients/hxctl_world.c
clients_hxctl_LDADD = libhaptix.la libhxwire.la -lm

# The Foxglove topics' messages and schemas: hxplay's MCAP export and
# hx-foxglove's live channels.
FOXGLOVE_MESSAGES = clients/foxglove_msg.c clients/foxglove_msg.h \
	clients/foxglove_schema.c clients/foxglove_schema.h

# Recordings: play, verify, export.  The recording library; MuJoCo only
# for the MCAP export (hxplay_mcap*.c), which computes the bodies' poses.
bin_PROGRAMS += clients/hxplay
clients_hxplay_SOURCES = clients/hxplay.c clients/hxplay_common.h \
	clients/hxplay_export.c clients/hxplay_find.c clients/hxplay_info.c \
	clients/state_dirs.c clients/state_dirs.h \
	clients/hxplay_play.c clients/hxplay_verify.c clients/hxplay_restore.c \
	clients/hxplay_spawn.c clients/hxplay_time.c \
	clients/hxplay_mcap.c $(FOXGLOVE_MESSAGES) \
	clients/mcap.c clients/mcap.h clients/mjb_memory.c clients/mjb_memory.h \
	clients/json_string.c clients/json_string.h
clients_hxplay_CPPFLAGS = $(AM_CPPFLAGS) -DHXPLAY_HAPTIXD='"$(sbindir)/haptixd"'
clients_hxplay_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)
# MuJoCo before libhaptix, as for hxview: both export mj_name2id,
# mj_id2name and mj_step, and MuJoCo's own calls must reach MuJoCo's.
clients_hxplay_LDADD = $(MUJOCO_LIBS) libhaptix.la libhxwire.la libhxrec.la \
	$(ZSTD_LIBS) -lm

# Input drivers (docs/drivers.md): motion capture into mocap bodies, and
# a 3D mouse into forces or poses.  Each talks to the daemon as a client.
bin_PROGRAMS += clients/hx-mocap clients/hx-spacenav
clients_hx_mocap_SOURCES = clients/hx_mocap.c clients/driver.c clients/driver.h \
	clients/mocap.h clients/mocap_udp.c clients/mocap_csv.c clients/mocap_axes.c \
	clients/natnet.c clients/natnet.h
clients_hx_mocap_LDADD = libhaptix.la libhxwire.la -lm
clients_hx_spacenav_SOURCES = clients/hx_spacenav.c clients/driver.c clients/driver.h \
	clients/spacenav.c clients/spacenav.h clients/mocap.h clients/mocap_axes.c
clients_hx_spacenav_CFLAGS = $(AM_CFLAGS) $(SPNAV_CFLAGS)
clients_hx_spacenav_LDADD = libhaptix.la libhxwire.la $(SPNAV_LIBS) -lm

# The offscreen viewer: the only client that includes MuJoCo (to render).
bin_PROGRAMS += clients/hxview
clients_hxview_SOURCES = clients/hxview.c clients/hxview_common.h \
	clients/json_string.c clients/json_string.h \
	clients/hxview_egl.c clients/hxview_image.c clients/hxview_frames.c \
	clients/hxview_mujoco.h clients/hxview_overlay.c clients/hxview_scene.c \
	clients/hxview_web.c clients/hxview_control.c clients/hxview_control.h \
	clients/hxview_http.c clients/hxview_reply.c clients/hxview_http.h clients/hxview_conns.c \
	clients/hxview_guard.c clients/hxview_streams.c clients/hxview_events.c \
	clients/hxview_routes.c clients/hxview_tls.c clients/hxview_tls.h \
	clients/hxview_upload.c clients/hxview_history.c \
	clients/hxview_replay.c clients/hxview_export.c \
	clients/state_dirs.c clients/state_dirs.h \
	clients/mjb_memory.c clients/mjb_memory.h
# The workbench's page is read from disk: installed, or (uninstalled) the
# source tree's; three.js from Debian's libjs-three.
clients_hxview_CFLAGS = $(AM_CFLAGS) $(EGL_CFLAGS) $(PNG_CFLAGS) \
	$(JPEG_CFLAGS) $(LIBEVENT_CFLAGS) $(LIBEVENT_EXTRA_CFLAGS) \
	$(LIBEVENT_OPENSSL_CFLAGS) $(OPENSSL_CFLAGS) \
	-DHXVIEW_ASSETS_DIR='"$(pkgdatadir)/workbench"' \
	-DHXVIEW_SRC_ASSETS='"$(abs_top_srcdir)/clients/workbench"' \
	-DHXVIEW_THREE_JS='"$(THREE_JS)"'
workbenchdir = $(pkgdatadir)/workbench
dist_workbench_DATA = clients/workbench/index.html \
	clients/workbench/workbench.css clients/workbench/workbench.js \
	clients/workbench/state.js clients/workbench/net.js \
	clients/workbench/shapes.js clients/workbench/scene.js \
	clients/workbench/view.js clients/workbench/input.js \
	clients/workbench/panels.js clients/workbench/sliders.js \
	clients/workbench/plot.js clients/workbench/watch.js \
	clients/workbench/physics.js clients/workbench/upload.js \
	clients/workbench/render.js clients/workbench/timeline.js \
	clients/workbench/replay.js clients/workbench/player.js
# MuJoCo before libhaptix: both export mj_name2id, mj_id2name and mj_step
# (HAPTIX's API has them), and MuJoCo's own calls must reach MuJoCo's.
# libhxwire for listen_name() (every address of the name given to
# --http) and usage_*(), as each program of the tree.
clients_hxview_LDADD = $(MUJOCO_LIBS) libhaptix.la libhxwire.la libhxrec.la \
	$(EGL_LIBS) $(PNG_LIBS) \
	$(JPEG_LIBS) $(LIBEVENT_OPENSSL_LIBS) $(LIBEVENT_EXTRA_LIBS) \
	$(LIBEVENT_LIBS) $(OPENSSL_LIBS) -lm

# The live Foxglove WebSocket bridge (docs/foxglove.md): a client of the
# daemon, computing poses and contacts with MuJoCo as hxview does, and a
# server of libwebsockets' own loop (Debian's has no libevent backend).
bin_PROGRAMS += clients/hx-foxglove
clients_hx_foxglove_SOURCES = clients/hx_foxglove.c \
	clients/foxglove_live.c clients/foxglove_live.h \
	clients/foxglove_ws.c clients/foxglove_ws.h \
	clients/foxglove_ws_parse.c \
	$(FOXGLOVE_MESSAGES) clients/mjb_memory.c clients/mjb_memory.h \
	clients/json_string.c clients/json_string.h
clients_hx_foxglove_CFLAGS = $(AM_CFLAGS) $(LIBWEBSOCKETS_CFLAGS) \
	$(OPENSSL_CFLAGS)
# MuJoCo before libhaptix, as for hxview.
clients_hx_foxglove_LDADD = $(MUJOCO_LIBS) libhaptix.la libhxwire.la \
	$(LIBWEBSOCKETS_LIBS) -lm

# Examples, built as users build them: the public header and libhaptix.
noinst_PROGRAMS = clients/examples/grasp clients/examples/osc_fingertip
clients_examples_grasp_SOURCES = clients/examples/grasp.c
clients_examples_grasp_CPPFLAGS = -I$(srcdir)/lib
clients_examples_grasp_LDADD = libhaptix.la -lm
clients_examples_osc_fingertip_SOURCES = clients/examples/osc_fingertip.c
clients_examples_osc_fingertip_CPPFLAGS = -I$(srcdir)/lib
clients_examples_osc_fingertip_LDADD = libhaptix.la -lm

include $(srcdir)/clients/matlab/local.mk
