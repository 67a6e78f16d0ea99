function sensor = hx_update(command)
% HX_UPDATE  Send motor commands and get the latest sensors.
%
%  sensor = hx_update(command) applies the arrays of command whose
%  *_enabled field is positive and returns the sensors at once, without
%  waiting for the next update (as in Gazebo; pace the loop yourself).
%  command is a struct with any of the fields
%
%    ref_pos, ref_pos_enabled           reference positions (rad or m)
%    ref_vel, ref_vel_enabled           reference velocities
%    ref_vel_max, ref_vel_max_enabled   speed limit of the references
%    gain_pos, gain_pos_enabled         position gains (>= 0)
%    gain_vel, gain_vel_enabled         velocity gains (>= 0)
%
%  each array with motor_count numbers, a row or a column.  A missing
%  *_enabled counts as 0; an unknown field is an error.  sensor has
%
%    time_stamp                           simulated time, s
%    motor_pos, motor_vel, motor_torque   motor_count x 1
%    joint_pos, joint_vel                 joint_count x 1
%    contact                              contact_sensor_count x 1, N
%    imu_linear_acc, imu_angular_vel      imu_count x 3
%    imu_orientation                      imu_count x 4, w x y z
%
%  See also hx_read_sensors, hx_robot_info.

  sensor = hxgz('update', command);
end
