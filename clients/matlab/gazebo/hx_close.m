function hx_close()
% HX_CLOSE  Close the connection to haptixd.
%
%  hx_close closes the connection; closing when not connected is no
%  error.  The next call connects again (to the default server).
%
%  See also hx_connect.

  hxgz('close');
end
