function hxs_apply_force(model, link, force, duration)
% HXS_APPLY_FORCE  Push a link for a while.
%
%  hxs_apply_force(model, link, force, duration) applies force (3
%  numbers, N, world axes) at the centre of mass of the link of the named
%  model for duration seconds of simulated time; 0 lasts until a reset.
%  A model of one link answers to the link name 'link'.
%
%  See also hxs_apply_torque, hxs_apply_wrench.

  hxgz('apply_force', model, link, force, duration);
end
