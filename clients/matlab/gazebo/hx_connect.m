function hx_connect(varargin)
% HX_CONNECT  Connect to haptixd (Gazebo HAPTIX's hx_connect).
%
%  hx_connect connects to the default server: $HAPTIX_SERVER, else the
%  local Unix socket.  hx_connect(host) and hx_connect(host, port) name
%  one: host is 'unix:PATH', 'HOST' or 'HOST:PORT', and a port joins a
%  host that names none ('' or 0 for the default).
%
%  Calling it is optional, as in Gazebo: every call connects to the
%  default server on first use.  Connecting while connected is an error;
%  call hx_close first.
%
%  See also hx_close, hx_robot_info.

  hxgz('connect', varargin{:});
end
