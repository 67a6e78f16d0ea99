function [jacp, jacr] = hxd_jac(body, point, state)
% HXD_JAC  MuJoCo's mj_jac: the Jacobian of a point moving with a body (haptixd extension).
%
%  [jacp, jacr] = hxd_jac(body, point) returns the translational (jacp)
%  and rotational (jacr) Jacobians, 3 x nv each, of the world point
%  (3 numbers) attached to body (a name or a 0-based id), in the live
%  state: jacp * qvel is the point's velocity.
%
%  [jacp, jacr] = hxd_jac(body, point, state) computes on a state struct
%  (see hxd_forward_array).
%
%  See also hxd_jac_body, hxd_jac_site.

  if nargin < 3
    state = [];
  end
  [jacp, jacr] = mjhx('hxd_jac', body, point, state);
end
