function sensor = hx_read_sensors()
% HX_READ_SENSORS  Get the latest sensors without sending a command.
%
%  sensor = hx_read_sensors returns the struct hx_update returns, at
%  once.
%
%  See also hx_update.

  sensor = hxgz('read_sensors');
end
