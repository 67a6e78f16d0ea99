function result = hxd_rne(flg_acc, state)
% HXD_RNE  MuJoCo's mj_rne: bias forces by recursive Newton-Euler (haptixd extension).
%
%  result = hxd_rne(0) returns the bias forces (nv x 1: Coriolis,
%  centrifugal and gravitational; mj_forward's qfrc_bias);
%  hxd_rne(1) returns M qacc + bias, with mj_forward's qacc, or the
%  state's field qacc in result = hxd_rne(1, state) (a state struct, see
%  hxd_forward_array).  Newton-Euler's M has no armature: it is
%  hxd_full_m(...) - diag(hxd_get_array('dof_armature')).
%
%  See also hxd_inverse, hxd_full_m.

  if nargin < 2
    state = [];
  end
  result = mjhx('hxd_rne', flg_acc, state);
end
