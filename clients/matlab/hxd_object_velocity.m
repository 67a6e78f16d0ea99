function res = hxd_object_velocity(type, name, varargin)
% HXD_OBJECT_VELOCITY  MuJoCo's mj_objectVelocity: an object's 6-D velocity (haptixd extension).
%
%  res = hxd_object_velocity(type, name) returns the velocity of an
%  object in the live state: 6 x 1, angular then linear (MuJoCo's
%  order), in world axes.  type is 'body' (at its centre of mass, as
%  MuJoCo's mjOBJ_BODY), 'xbody' (at the body's frame), 'geom' or
%  'site'; name is a name or a 0-based id.
%
%  res = hxd_object_velocity(type, name, local) with local 1 gives it in
%  the object's own axes; hxd_object_velocity(type, name, local, state),
%  or (type, name, state), computes on a state struct (see
%  hxd_forward_array).  For a site, res(4:6) is jacp * qvel and res(1:3)
%  jacr * qvel (hxd_jac_site).
%
%  See also hxd_object_acceleration, hxd_jac_site.

  res = mjhx('hxd_object_velocity', type, name, varargin{:});
end
