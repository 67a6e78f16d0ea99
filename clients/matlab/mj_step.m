function mj_step()
% MJ_STEP  Take one step while paused.
%
%  mj_step advances a paused simulation by one time step; while it runs,
%  it does nothing.  See also hxd_step, hxd_batch_run.

  mjhx('mj_step');
end
