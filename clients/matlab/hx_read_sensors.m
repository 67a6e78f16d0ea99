function sensor = hx_read_sensors()
% HX_READ_SENSORS  Get the sensors without a command.
%
%  sensor = hx_read_sensors is hx_update with no command enabled: it
%  waits in the same way and returns the same struct.  See also hx_update.

  sensor = mjhx('hx_read_sensors');
end
