# Command-line and example clients.
bin_PROGRAMS += clients/hxctl
clients_hxctl_SOURCES = clients/hxctl.c clients/hxctl.h \
	clients/hxctl_args.c clients/hxctl_array.c clients/hxctl_clients.c \
	clients/hxctl_controls.c clients/hxctl_info.c clients/hxctl_json.c \
	clients/hxctl_model.c clients/hxctl_object.c clients/hxctl_robot.c \
	clients/hxctl_run.c clients/hxctl_set.c clients/hxctl_status.c \
	clients/hxctl_stream.c clients/hxctl_table.c clients/hxctl_view.c \
	clients/hxctl_wait.c
clients_hxctl_LDADD = libhaptix.la -lm

# Examples, built as users build them: the public header and libhaptix.
noinst_PROGRAMS = clients/examples/grasp
clients_examples_grasp_SOURCES = clients/examples/grasp.c
clients_examples_grasp_CPPFLAGS = -I$(srcdir)/lib
clients_examples_grasp_LDADD = libhaptix.la -lm
