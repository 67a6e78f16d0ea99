function taken = hxd_step(n)
% HXD_STEP  Take n steps while paused, in one request (haptixd extension).
%
%  taken = hxd_step(n) returns the steps taken: n while paused, 0 while
%  running.  See also mj_step, hxd_batch_run.

  taken = mjhx('hxd_step', n);
end
