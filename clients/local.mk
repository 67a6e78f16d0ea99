# Command-line and example clients.
bin_PROGRAMS += clients/hxctl
clients_hxctl_SOURCES = clients/hxctl.c
clients_hxctl_LDADD = libhaptix.la -lm

# Examples, built as users build them: the public header and libhaptix.
noinst_PROGRAMS = clients/examples/grasp
clients_examples_grasp_SOURCES = clients/examples/grasp.c
clients_examples_grasp_CPPFLAGS = -I$(srcdir)/lib
clients_examples_grasp_LDADD = libhaptix.la -lm
