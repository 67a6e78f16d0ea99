function M = hxd_full_m(state)
% HXD_FULL_M  MuJoCo's mj_fullM: the joint-space mass matrix (haptixd extension).
%
%  M = hxd_full_m returns the mass (inertia) matrix of the live state,
%  nv x nv, symmetric and positive definite, rows and columns in dof
%  order (mj_info's jnt_dofadr).  M = hxd_full_m(state) computes on a
%  state struct (see hxd_forward_array).
%
%  See also hxd_solve_m, hxd_rne, hxd_jac_site.

  if nargin < 1
    state = [];
  end
  M = mjhx('hxd_full_m', state);
end
