function hxs_apply_torque(model, link, torque, duration)
% HXS_APPLY_TORQUE  Twist a link for a while.
%
%  hxs_apply_torque(model, link, torque, duration) applies torque (3
%  numbers, N m, world axes) to the link of the named model for duration
%  seconds of simulated time; 0 lasts until a reset.
%
%  See also hxs_apply_force, hxs_apply_wrench.

  hxgz('apply_torque', model, link, torque, duration);
end
