function connected = mj_connected()
% MJ_CONNECTED  Say whether the connection is up.
%
%  connected = mj_connected is 1 while connected and the connection is
%  usable, else 0.  It is never an error.

  connected = mjhx('mj_connected');
end
