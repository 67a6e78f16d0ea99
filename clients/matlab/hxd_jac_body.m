function [jacp, jacr] = hxd_jac_body(body, state)
% HXD_JAC_BODY  MuJoCo's mj_jacBody: the Jacobians at the body's frame (haptixd extension).
%
%  [jacp, jacr] = hxd_jac_body(body) returns the translational (jacp) and
%  rotational (jacr) Jacobians, 3 x nv each, at the body's frame, in the
%  live state: jacp * qvel is its linear velocity and jacr * qvel its
%  angular velocity, in world axes.  body is a name or a 0-based id; an
%  unknown name is haptix:BADINDEX.
%
%  [jacp, jacr] = hxd_jac_body(body, state) computes on a state struct
%  (see hxd_forward_array), as MuJoCo does after mj_forward of it.
%
%  See also hxd_jac, hxd_jac_body, hxd_jac_body_com, hxd_jac_geom,
%  hxd_jac_site, hxd_object_velocity.

  if nargin < 2
    state = [];
  end
  [jacp, jacr] = mjhx('hxd_jac_body', body, state);
end
