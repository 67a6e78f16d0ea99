# Command-line and example clients.
bin_PROGRAMS += clients/hxctl
clients_hxctl_SOURCES = clients/hxctl.c
clients_hxctl_LDADD = libhaptix.la -lm
