function hx_close()
% HX_CLOSE  Close the connection to haptixd.
%
%  hx_close closes the connection and unlocks the MEX file mjhx.  Closing
%  when not connected does nothing.  See also hx_connect.

  mjhx('hx_close');
end
