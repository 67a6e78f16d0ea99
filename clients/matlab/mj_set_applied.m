function mj_set_applied(applied)
% MJ_SET_APPLIED  Set the applied forces.
%
%  mj_set_applied(applied) sets qfrc_applied (nv x 1) and xfrc_applied
%  (nbody x 6: force, then torque, on each body).

  mjhx('mj_set_applied', applied);
end
