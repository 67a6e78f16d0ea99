function hxd_set_speed(factor)
% HXD_SET_SPEED  Set the speed of the simulation (haptixd extension).
%
%  hxd_set_speed(factor) runs at factor times real time (1: real time);
%  hxd_set_speed('max') runs as fast as the machine allows.

  mjhx('hxd_set_speed', factor);
end
