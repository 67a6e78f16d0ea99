function velocity = hxs_angular_velocity(model)
% HXS_ANGULAR_VELOCITY  Get a model's angular velocity.
%
%  velocity = hxs_angular_velocity(model) returns the angular velocity of
%  the named model's first link (3 x 1, rad/s, world axes).
%
%  See also hxs_set_angular_velocity, hxs_linear_velocity.

  velocity = hxgz('angular_velocity', model);
end
