function sensor = mj_update(control)
% MJ_UPDATE  Set the controls and get the sensors in one exchange.
%
%  sensor = mj_update(control) sets control.ctrl as mj_set_control does,
%  then, while paused, takes one step, and while running waits for the
%  next API tick (1/apirate of simulated time), and returns the sensor
%  struct of mj_get_sensor.  mj_update with no control changes none.

  if nargin < 1
    sensor = mjhx('mj_update');
  else
    sensor = mjhx('mj_update', control);
  end
end
