function qvel = hxd_differentiate_pos(qpos1, qpos2, dt)
% HXD_DIFFERENTIATE_POS  MuJoCo's mj_differentiatePos (haptixd extension).
%
%  qvel = hxd_differentiate_pos(qpos1, qpos2, dt) returns the velocity
%  (nv x 1) that goes from qpos1 to qpos2 (nq numbers each) in dt
%  seconds, quaternions of free and ball joints as rotations.  It needs
%  the model only, not the state.
%
%  See also hxd_integrate_pos.

  qvel = mjhx('hxd_differentiate_pos', qpos1, qpos2, dt);
end
