# The MATLAB/Octave API (docs/matlab.md): the MEX file mjhx over libhaptix
# and one .m wrapper per call, installed together in $(matlabdir) with
# mjhx.c (for MATLAB's mex) and the examples.  The MEX is built with GNU
# Octave's mkoctfile when configure found it (tests/octave.sh fails
# without it); the build tree's clients/matlab/ then holds it and the .m
# files, laid out as installed, so that one addpath serves either.
matlabdir = $(pkgdatadir)/matlab
matlabexamplesdir = $(matlabdir)/examples
MATLAB_M = clients/matlab/hx_close.m clients/matlab/hx_connect.m \
	clients/matlab/hx_read_sensors.m clients/matlab/hx_robot_info.m \
	clients/matlab/hx_update.m clients/matlab/hxd_batch_run.m \
	clients/matlab/hxd_get_array.m clients/matlab/hxd_list_arrays.m \
	clients/matlab/hxd_load_file.m clients/matlab/hxd_pause.m \
	clients/matlab/hxd_reload.m clients/matlab/hxd_run.m \
	clients/matlab/hxd_set_array.m clients/matlab/hxd_set_speed.m \
	clients/matlab/hxd_set_timeout.m clients/matlab/hxd_status_get.m \
	clients/matlab/hxd_step.m clients/matlab/mj_close.m \
	clients/matlab/mj_connect.m clients/matlab/mj_connected.m \
	clients/matlab/mj_equality.m clients/matlab/mj_get_actuator.m \
	clients/matlab/mj_get_applied.m clients/matlab/mj_get_body.m \
	clients/matlab/mj_get_contact.m clients/matlab/mj_get_control.m \
	clients/matlab/mj_get_dynamics.m clients/matlab/mj_get_force.m \
	clients/matlab/mj_get_geom.m clients/matlab/mj_get_mocap.m \
	clients/matlab/mj_get_onebody.m clients/matlab/mj_get_rgba.m \
	clients/matlab/mj_get_sensor.m clients/matlab/mj_get_site.m \
	clients/matlab/mj_get_state.m clients/matlab/mj_get_tendon.m \
	clients/matlab/mj_id2name.m clients/matlab/mj_info.m \
	clients/matlab/mj_message.m clients/matlab/mj_name2id.m \
	clients/matlab/mj_reset.m clients/matlab/mj_set_applied.m \
	clients/matlab/mj_set_control.m clients/matlab/mj_set_geomsize.m \
	clients/matlab/mj_set_mocap.m clients/matlab/mj_set_onebody.m \
	clients/matlab/mj_set_rgba.m clients/matlab/mj_set_state.m \
	clients/matlab/mj_step.m clients/matlab/mj_update.m \
	clients/matlab/readlog.m clients/matlab/playlog.m \
	clients/matlab/hxd_forward_array.m clients/matlab/hxd_inverse.m \
	clients/matlab/hxd_full_m.m clients/matlab/hxd_solve_m.m \
	clients/matlab/hxd_rne.m clients/matlab/hxd_jac.m \
	clients/matlab/hxd_jac_body.m clients/matlab/hxd_jac_body_com.m \
	clients/matlab/hxd_jac_geom.m clients/matlab/hxd_jac_site.m \
	clients/matlab/hxd_object_velocity.m \
	clients/matlab/hxd_object_acceleration.m \
	clients/matlab/hxd_contact_forces.m clients/matlab/hxd_energy.m \
	clients/matlab/hxd_ray.m clients/matlab/hxd_differentiate_pos.m \
	clients/matlab/hxd_integrate_pos.m
dist_matlab_DATA = $(MATLAB_M) clients/matlab/mjhx.c
dist_matlabexamples_DATA = clients/matlab/examples/grasp.m \
	clients/matlab/examples/sweep.m

if HAVE_MKOCTFILE
# The build tree's MATLAB directory, which make bench's octave figure uses.
MATLAB_BUILT = clients/matlab/mjhx.mex clients/matlab/wrappers.stamp
noinst_DATA = $(MATLAB_BUILT)
matlab_DATA = clients/matlab/inst/mjhx.mex
CLEANFILES += clients/matlab/mjhx-mex.o clients/matlab/mjhx.mex \
	clients/matlab/inst/mjhx.mex clients/matlab/wrappers.stamp

# mkoctfile --mex compiles with Octave's flags; ours add the warnings,
# not CFLAGS, whose sanitizers a MEX file loaded by Octave cannot carry.
clients/matlab/mjhx-mex.o: $(srcdir)/clients/matlab/mjhx.c \
	    $(srcdir)/lib/haptixd.h
	$(AM_V_CC)$(MKDIR_P) clients/matlab && \
	    CFLAGS='-g -O2 $(HX_WARN_CFLAGS)' $(MKOCTFILE) --mex -c \
	    -I$(srcdir)/lib $(srcdir)/clients/matlab/mjhx.c -o $@
# The build tree's MEX file finds this build's libhaptix; the installed
# one, linked apart, finds it in $(libdir) (as libtool relinks programs).
clients/matlab/mjhx.mex: clients/matlab/mjhx-mex.o libhaptix.la
	$(AM_V_CCLD)$(MKOCTFILE) --mex -o $@ clients/matlab/mjhx-mex.o \
	    -L$(abs_top_builddir)/.libs -lhaptix \
	    -Wl,-rpath,$(abs_top_builddir)/.libs
clients/matlab/inst/mjhx.mex: clients/matlab/mjhx-mex.o libhaptix.la
	$(AM_V_CCLD)$(MKDIR_P) clients/matlab/inst && \
	    $(MKOCTFILE) --mex -o $@ clients/matlab/mjhx-mex.o \
	    -L$(abs_top_builddir)/.libs -lhaptix -Wl,-rpath,$(libdir)
# In a build apart from the sources, the wrappers join the MEX file.
clients/matlab/wrappers.stamp: $(MATLAB_M)
	$(AM_V_GEN)$(MKDIR_P) clients/matlab; \
	if test "$(abs_srcdir)" != "$(abs_builddir)"; then \
	    for f in $(MATLAB_M); do \
	        cp -f $(srcdir)/$$f $$f || exit 1; \
	    done; \
	fi; touch $@
else
MATLAB_BUILT =
endif

# Gazebo HAPTIX's MATLAB API (docs/matlab.md): the MEX file hxgz over
# libhaptix's Gazebo dialect and OSRF's wrapper names.  Its hx_*.m clash
# with the wrappers above, so they have a directory of their own with
# the MEX file beside them, $(matlabdir)/gazebo, and clients/matlab/gazebo
# in the build tree: one addpath takes one flavour.
matlabgazebodir = $(matlabdir)/gazebo
matlabgazeboexamplesdir = $(matlabgazebodir)/examples
GAZEBO_M = clients/matlab/gazebo/hx_close.m \
	clients/matlab/gazebo/hx_connect.m \
	clients/matlab/gazebo/hx_read_sensors.m \
	clients/matlab/gazebo/hx_robot_info.m \
	clients/matlab/gazebo/hx_update.m \
	clients/matlab/gazebo/hxs_add_constraint.m \
	clients/matlab/gazebo/hxs_add_model.m \
	clients/matlab/gazebo/hxs_angular_velocity.m \
	clients/matlab/gazebo/hxs_apply_force.m \
	clients/matlab/gazebo/hxs_apply_torque.m \
	clients/matlab/gazebo/hxs_apply_wrench.m \
	clients/matlab/gazebo/hxs_camera_transform.m \
	clients/matlab/gazebo/hxs_contacts.m \
	clients/matlab/gazebo/hxs_is_logging.m \
	clients/matlab/gazebo/hxs_linear_velocity.m \
	clients/matlab/gazebo/hxs_model_collide_mode.m \
	clients/matlab/gazebo/hxs_model_color.m \
	clients/matlab/gazebo/hxs_model_gravity_mode.m \
	clients/matlab/gazebo/hxs_model_joint_state.m \
	clients/matlab/gazebo/hxs_model_transform.m \
	clients/matlab/gazebo/hxs_remove_constraint.m \
	clients/matlab/gazebo/hxs_remove_model.m \
	clients/matlab/gazebo/hxs_reset.m \
	clients/matlab/gazebo/hxs_set_angular_velocity.m \
	clients/matlab/gazebo/hxs_set_camera_transform.m \
	clients/matlab/gazebo/hxs_set_linear_velocity.m \
	clients/matlab/gazebo/hxs_set_model_collide_mode.m \
	clients/matlab/gazebo/hxs_set_model_color.m \
	clients/matlab/gazebo/hxs_set_model_gravity_mode.m \
	clients/matlab/gazebo/hxs_set_model_joint_state.m \
	clients/matlab/gazebo/hxs_set_model_transform.m \
	clients/matlab/gazebo/hxs_sim_info.m \
	clients/matlab/gazebo/hxs_start_logging.m \
	clients/matlab/gazebo/hxs_stop_logging.m
dist_matlabgazebo_DATA = $(GAZEBO_M) clients/matlab/hxgz.c
dist_matlabgazeboexamples_DATA = clients/matlab/gazebo/examples/hxs_tour.m

if HAVE_MKOCTFILE
MATLAB_BUILT += clients/matlab/gazebo/hxgz.mex \
	clients/matlab/gazebo/wrappers.stamp
matlabgazebo_DATA = clients/matlab/gazebo/inst/hxgz.mex
CLEANFILES += clients/matlab/hxgz-mex.o clients/matlab/gazebo/hxgz.mex \
	clients/matlab/gazebo/inst/hxgz.mex clients/matlab/gazebo/wrappers.stamp

# Built as mjhx is: one object, a MEX file for the build tree and one
# relinked for $(libdir).
clients/matlab/hxgz-mex.o: $(srcdir)/clients/matlab/hxgz.c \
	    $(srcdir)/lib/haptix/comm/haptix.h \
	    $(srcdir)/lib/haptix/comm/haptix_sim.h
	$(AM_V_CC)$(MKDIR_P) clients/matlab && \
	    CFLAGS='-g -O2 $(HX_WARN_CFLAGS)' $(MKOCTFILE) --mex -c \
	    -I$(srcdir)/lib $(srcdir)/clients/matlab/hxgz.c -o $@
clients/matlab/gazebo/hxgz.mex: clients/matlab/hxgz-mex.o libhaptix.la
	$(AM_V_CCLD)$(MKDIR_P) clients/matlab/gazebo && \
	    $(MKOCTFILE) --mex -o $@ clients/matlab/hxgz-mex.o \
	    -L$(abs_top_builddir)/.libs -lhaptix \
	    -Wl,-rpath,$(abs_top_builddir)/.libs
clients/matlab/gazebo/inst/hxgz.mex: clients/matlab/hxgz-mex.o libhaptix.la
	$(AM_V_CCLD)$(MKDIR_P) clients/matlab/gazebo/inst && \
	    $(MKOCTFILE) --mex -o $@ clients/matlab/hxgz-mex.o \
	    -L$(abs_top_builddir)/.libs -lhaptix -Wl,-rpath,$(libdir)
# In a build apart from the sources, the wrappers join the MEX file.
clients/matlab/gazebo/wrappers.stamp: $(GAZEBO_M)
	$(AM_V_GEN)$(MKDIR_P) clients/matlab/gazebo; \
	if test "$(abs_srcdir)" != "$(abs_builddir)"; then \
	    for f in $(GAZEBO_M); do \
	        cp -f $(srcdir)/$$f $$f || exit 1; \
	    done; \
	fi; touch $@
endif
clean-local: matlab-gazebo-clean
matlab-gazebo-clean:
	if test "$(abs_srcdir)" != "$(abs_builddir)"; then \
	    rm -f $(GAZEBO_M); \
	fi
.PHONY: matlab-gazebo-clean

# The wrappers copied beside the MEX file, never the sources.
clean-local: matlab-clean
matlab-clean:
	if test "$(abs_srcdir)" != "$(abs_builddir)"; then \
	    rm -f $(MATLAB_M); \
	fi
.PHONY: matlab-clean
