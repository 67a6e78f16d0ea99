function sensor = hx_update(command)
% HX_UPDATE  Send motor commands and get the sensors.
%
%  sensor = hx_update(command) applies the arrays of command whose
%  *_enabled field is positive, waits for the next update period while
%  the simulation runs (1/update_rate of simulated time; at once while
%  paused, without stepping) and returns the sensors.  Build command with
%  struct:
%
%    command = struct('ref_pos', zeros(13,1), 'ref_pos_enabled', 1)
%
%  Its fields, each array with motor_count numbers:
%
%    ref_pos, ref_pos_enabled           reference positions
%    ref_vel_max, ref_vel_max_enabled   speed limit of the references (>= 0)
%    gain_pos, gain_pos_enabled         position gains (>= 0)
%    gain_vel, gain_vel_enabled         velocity gains (>= 0)
%    ref_vel, ref_vel_enabled           reference velocities (as in C)
%
%  A missing *_enabled field counts as 0; an unknown field is an error.
%  sensor has:
%
%    time_stamp        simulated time, s
%    motor_pos, motor_vel, motor_torque    motor_count x 1
%    joint_pos, joint_vel                  joint_count x 1
%    contact                               contact_sensor_count x 1, N
%    imu_linear_acc, imu_angular_vel       imu_count x 3
%    imu_orientation                       imu_count x 4, always (1, 0, 0, 0)
%
%  See also hx_read_sensors, hx_robot_info.

  sensor = mjhx('hx_update', command);
end
