function hxs_apply_wrench(model, link, wrench, duration)
% HXS_APPLY_WRENCH  Push and twist a link for a while.
%
%  hxs_apply_wrench(model, link, wrench, duration) applies wrench.force
%  (N) and wrench.torque (N m), world axes, at the centre of mass of the
%  link of the named model for duration seconds of simulated time; 0
%  lasts until a reset.
%
%  The structs are described by help hxs_sim_info.
%  See also hxs_apply_force, hxs_apply_torque.

  hxgz('apply_wrench', model, link, wrench, duration);
end
