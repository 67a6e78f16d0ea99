function hx_connect(host, port)
% HX_CONNECT  Connect to haptixd.
%
%  hx_connect connects to the default server: $HAPTIX_SERVER, else the
%  local Unix socket.  hx_connect(host) connects to host: '' (the
%  default), 'unix:PATH', 'HOST' or 'HOST:PORT'.  hx_connect(host, port)
%  joins a port to a host that names none; MuJoCo HAPTIX ignored it.
%
%  While connected, the MEX file mjhx stays locked in memory (clear all
%  keeps the connection); hx_close unlocks it.  Connecting twice is the
%  error haptix:CONNECTED.  See also hx_close, mj_connect.

  if nargin < 1
    host = '';
  end
  if nargin < 2
    port = 0;
  end
  mjhx('hx_connect', host, port);
end
