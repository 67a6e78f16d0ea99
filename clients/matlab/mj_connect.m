function mj_connect(host)
% MJ_CONNECT  Connect to haptixd.
%
%  mj_connect(host) is hx_connect(host) without the port: host is ''
%  (the default server), 'unix:PATH', 'HOST' or 'HOST:PORT'.  See also
%  hx_connect, mj_close, mj_connected.

  if nargin < 1
    host = '';
  end
  mjhx('mj_connect', host);
end
