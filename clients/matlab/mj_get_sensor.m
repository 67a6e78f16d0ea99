function sensor = mj_get_sensor()
% MJ_GET_SENSOR  Get the sensor data array.
%
%  sensor = mj_get_sensor returns nsensordata, time and sensordata
%  (nsensordata x 1); mj_info's sensor_adr and sensor_dim decode it.

  sensor = mjhx('mj_get_sensor');
end
