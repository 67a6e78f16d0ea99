function qpos = hxd_integrate_pos(qpos, qvel, dt)
% HXD_INTEGRATE_POS  MuJoCo's mj_integratePos (haptixd extension).
%
%  qpos = hxd_integrate_pos(qpos, qvel, dt) returns qpos (nq x 1) moved by
%  the velocity qvel (nv numbers) for dt seconds, quaternions of free and
%  ball joints turned (and normalized) as MuJoCo does.  It needs the
%  model only, not the state.
%
%  See also hxd_differentiate_pos.

  qpos = mjhx('hxd_integrate_pos', qpos, qvel, dt);
end
