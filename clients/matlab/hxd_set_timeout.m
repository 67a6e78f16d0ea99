function hxd_set_timeout(seconds)
% HXD_SET_TIMEOUT  Set how long a call waits for its answer (haptixd extension).
%
%  hxd_set_timeout(seconds): a call with no answer in that time fails with
%  haptix:TIMEOUT; the connection stays, and the late answer is dropped
%  when it comes.  0 waits forever.  The default is 10 s.  A server that
%  is gone fails the next call at once, and closes the connection.

  mjhx('hxd_set_timeout', seconds);
end
