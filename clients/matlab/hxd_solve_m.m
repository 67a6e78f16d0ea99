function x = hxd_solve_m(y, state)
% HXD_SOLVE_M  MuJoCo's mj_solveM: x = inv(M) y (haptixd extension).
%
%  x = hxd_solve_m(y) solves M x = y with the mass matrix of the live
%  state, by MuJoCo's sparse factorization: y is nv x k (each column a
%  vector) or 1 x nv, and x has y's shape; hxd_full_m(...) \ y gives the
%  same to rounding.  x = hxd_solve_m(y, state) computes on a state
%  struct (see hxd_forward_array).
%
%  See also hxd_full_m.

  if nargin < 2
    state = [];
  end
  x = mjhx('hxd_solve_m', y, state);
end
