function state = mj_get_state()
% MJ_GET_STATE  Get the simulation state.
%
%  state = mj_get_state returns nq, nv, na, time, qpos (nq x 1),
%  qvel (nv x 1) and act (na x 1).  See also mj_set_state.

  state = mjhx('mj_get_state');
end
