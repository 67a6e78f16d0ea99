function force = mj_get_force()
% MJ_GET_FORCE  Get the generalized forces.
%
%  force = mj_get_force returns nv, time, and applied, passive, bias,
%  actuator and constraint (nv x 1), as the manual lists them, then
%  nonconstraint (HAPTIX 1.50's: applied + passive + actuator - bias).

  force = mjhx('mj_get_force');
end
