function mj_set_state(state)
% MJ_SET_STATE  Set the simulation state.
%
%  mj_set_state(state) sets qpos, qvel and act (which may be left out when
%  the model has no activations).  nq, nv and na, when given, must agree
%  with the arrays, and the arrays with the model (else haptix:BADSIZE);
%  time is ignored.  The manual's example:
%
%    state = struct('nq',7, 'nv',6, 'na',0, 'time',0, ...
%                   'qpos',zeros(7,1), 'qvel',zeros(6,1), 'act',[])
%
%  See also mj_get_state.

  mjhx('mj_set_state', state);
end
