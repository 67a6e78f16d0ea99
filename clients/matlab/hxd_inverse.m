function qfrc_inverse = hxd_inverse(state)
% HXD_INVERSE  MuJoCo's mj_inverse: the forces that give qacc (haptixd extension).
%
%  qfrc_inverse = hxd_inverse returns qfrc_inverse (nv x 1) for the live
%  state and mj_forward's qacc: what qfrc_applied plus the actuators must
%  add up to for the motion the simulation takes.
%
%  qfrc_inverse = hxd_inverse(state) computes on a state struct (see
%  hxd_forward_array); its field qacc (nv) is mj_inverse's input, in
%  place of mj_forward's:
%
%    tau = hxd_inverse(struct('qacc', zeros(info.nv, 1)));  % hold still
%
%  See also hxd_rne, hxd_full_m.

  if nargin < 1
    state = [];
  end
  qfrc_inverse = mjhx('hxd_inverse', state);
end
