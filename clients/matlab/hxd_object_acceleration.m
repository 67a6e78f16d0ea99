function res = hxd_object_acceleration(type, name, varargin)
% HXD_OBJECT_ACCELERATION  MuJoCo's mj_objectAcceleration: an object's 6-D acceleration (haptixd extension).
%
%  res = hxd_object_acceleration(type, name) returns the acceleration of
%  an object in the live state, after mj_rnePostConstraint: 6 x 1,
%  angular then linear, in world axes, as an accelerometer there reads
%  it (gravity included: an object at rest reads +g upward, one falling
%  freely 0).  type is 'body' (at its centre of mass), 'xbody' (at the
%  body's frame), 'geom' or 'site'; name is a name or a 0-based id.
%
%  res = hxd_object_acceleration(type, name, local) with local 1 gives
%  it in the object's own axes; (type, name, local, state), or (type,
%  name, state), computes on a state struct (see hxd_forward_array),
%  whose field qacc, if given, replaces mj_forward's.
%
%  See also hxd_object_velocity.

  res = mjhx('hxd_object_acceleration', type, name, varargin{:});
end
