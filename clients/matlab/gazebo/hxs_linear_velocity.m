function velocity = hxs_linear_velocity(model)
% HXS_LINEAR_VELOCITY  Get a model's linear velocity.
%
%  velocity = hxs_linear_velocity(model) returns the velocity of the
%  centre of mass of the named model's first link (3 x 1, m/s, world
%  axes).
%
%  See also hxs_set_linear_velocity, hxs_angular_velocity.

  velocity = hxgz('linear_velocity', model);
end
