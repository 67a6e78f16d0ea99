# systemd units, sysusers.d and tmpfiles.d files, and the example config.
# make writes the installation paths into the units (edit); the units
# are built for `make check` even when they are not installed.
hx_units = systemd/haptixd.service systemd/haptixd.socket \
	systemd/haptixd@.service systemd/haptixd@.socket
EXTRA_DIST += systemd/haptixd.service.in systemd/haptixd.socket.in \
	systemd/haptixd@.service.in systemd/haptixd@.socket.in \
	systemd/haptixd.sysusers systemd/haptixd.tmpfiles
CLEANFILES += $(hx_units)
check_DATA = $(hx_units)

edit = sed \
	-e 's|@sbindir[@]|$(sbindir)|g' \
	-e 's|@sysconfdir[@]|$(sysconfdir)|g' \
	-e 's|@pkgdatadir[@]|$(pkgdatadir)|g'

$(hx_units): Makefile
	$(AM_V_GEN)$(MKDIR_P) systemd && rm -f $@ $@.tmp && \
	$(edit) $(srcdir)/$@.in >$@.tmp && mv $@.tmp $@
systemd/haptixd.service: $(srcdir)/systemd/haptixd.service.in
systemd/haptixd.socket: $(srcdir)/systemd/haptixd.socket.in
systemd/haptixd@.service: $(srcdir)/systemd/haptixd@.service.in
systemd/haptixd@.socket: $(srcdir)/systemd/haptixd@.socket.in

if HAVE_SYSTEMDSYSTEMUNITDIR
nodist_systemdsystemunit_DATA = $(hx_units)
endif

# Both are named after the package where they are installed, which
# _DATA cannot do.
install-data-local:
if HAVE_SYSUSERSDIR
	$(MKDIR_P) '$(DESTDIR)$(sysusersdir)'
	$(INSTALL_DATA) $(srcdir)/systemd/haptixd.sysusers \
		'$(DESTDIR)$(sysusersdir)/haptixd.conf'
endif
if HAVE_TMPFILESDIR
	$(MKDIR_P) '$(DESTDIR)$(tmpfilesdir)'
	$(INSTALL_DATA) $(srcdir)/systemd/haptixd.tmpfiles \
		'$(DESTDIR)$(tmpfilesdir)/haptixd.conf'
endif
uninstall-local:
if HAVE_SYSUSERSDIR
	rm -f '$(DESTDIR)$(sysusersdir)/haptixd.conf'
endif
if HAVE_TMPFILESDIR
	rm -f '$(DESTDIR)$(tmpfilesdir)/haptixd.conf'
endif

# An example, not haptixd.conf itself: make install must not overwrite
# the administrator's config.
haptixdconfdir = $(sysconfdir)/haptixd
dist_haptixdconf_DATA = systemd/haptixd.conf.example

# The units pass systemd-analyze verify and security (tests/units.sh).
TESTS += tests/units.sh
EXTRA_DIST += tests/units.sh
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
