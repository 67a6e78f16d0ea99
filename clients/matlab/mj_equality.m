function mj_equality(eqid, state)
% MJ_EQUALITY  Enable (1) or disable (0) an equality constraint.
%
%  mj_equality(eqid, state): eqid is 0-based, below mj_info's neq.

  mjhx('mj_equality', eqid, state);
end
