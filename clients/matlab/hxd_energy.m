function energy = hxd_energy(state)
% HXD_ENERGY  MuJoCo's mj_energyPos and mj_energyVel (haptixd extension).
%
%  energy = hxd_energy returns [potential; kinetic] (2 x 1) of the live
%  state, whether or not the model enables energy; hxd_energy(state)
%  computes on a state struct (see hxd_forward_array).  The kinetic
%  energy is qvel' * M * qvel / 2 (hxd_full_m).

  if nargin < 1
    state = [];
  end
  energy = mjhx('hxd_energy', state);
end
