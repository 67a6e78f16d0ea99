function applied = mj_get_applied()
% MJ_GET_APPLIED  Get the applied forces.
%
%  applied = mj_get_applied returns nv, nbody, time, qfrc_applied
%  (nv x 1, generalized) and xfrc_applied (nbody x 6: force, then torque,
%  on each body).  See also mj_set_applied.

  applied = mjhx('mj_get_applied');
end
