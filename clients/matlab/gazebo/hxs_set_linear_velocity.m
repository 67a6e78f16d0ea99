function hxs_set_linear_velocity(model, velocity)
% HXS_SET_LINEAR_VELOCITY  Set a free model's linear velocity.
%
%  hxs_set_linear_velocity(model, velocity) gives the centre of mass of
%  the named free model's first link the velocity (3 numbers, m/s, world
%  axes, a row or a column).
%
%  See also hxs_linear_velocity.

  hxgz('set_linear_velocity', model, velocity);
end
