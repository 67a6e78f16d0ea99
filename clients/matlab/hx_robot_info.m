function info = hx_robot_info()
% HX_ROBOT_INFO  Describe the robot of the simple API.
%
%  info = hx_robot_info returns, as the HAPTIX manual prints it:
%
%    motor_count           number of motors (actuators)
%    joint_count           number of joints (joint position/velocity sensors)
%    contact_sensor_count  number of contact (touch) sensors
%    imu_count             number of IMUs (accelerometer/gyro pairs)
%    motor_limit           motor_count x 2: lower, upper; (0, 0) if not limited
%    joint_limit           joint_count x 2, rad
%    update_rate           Hz: how often hx_update returns while running
%
%  On the bundled MPL scene: 13 motors, 22 joints, 19 contact sensors,
%  5 IMUs, 50 Hz.  See also hx_update.

  info = mjhx('hx_robot_info');
end
