function info = hx_robot_info()
% HX_ROBOT_INFO  Describe the robot: counts, limits and update rate.
%
%  info = hx_robot_info returns a struct with
%
%    motor_count, joint_count, contact_sensor_count, imu_count
%    motor_limit     motor_count x 2: lower and upper limit of each motor
%    joint_limit     joint_count x 2: the same for each joint
%    update_rate     Hz
%
%  The counts size the arrays of hx_update's sensor struct; after the
%  server loads another model, call hx_robot_info again.
%
%  See also hx_update, hx_read_sensors.

  info = hxgz('robot_info');
end
