function hxs_set_angular_velocity(model, velocity)
% HXS_SET_ANGULAR_VELOCITY  Set a free model's angular velocity.
%
%  hxs_set_angular_velocity(model, velocity) spins the named free model
%  at velocity (3 numbers, rad/s, world axes, a row or a column).
%
%  See also hxs_angular_velocity.

  hxgz('set_angular_velocity', model, velocity);
end
