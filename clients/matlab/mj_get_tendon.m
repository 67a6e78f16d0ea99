function tendon = mj_get_tendon()
% MJ_GET_TENDON  Get the tendons' lengths and velocities.
%
%  tendon = mj_get_tendon returns ntendon, time, length and velocity
%  (ntendon x 1).

  tendon = mjhx('mj_get_tendon');
end
