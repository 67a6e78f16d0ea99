function actuator = mj_get_actuator()
% MJ_GET_ACTUATOR  Get the actuators' lengths, velocities and forces.
%
%  actuator = mj_get_actuator returns nu, time, length, velocity and
%  force (nu x 1).

  actuator = mjhx('mj_get_actuator');
end
