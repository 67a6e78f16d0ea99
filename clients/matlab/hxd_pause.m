function hxd_pause()
% HXD_PAUSE  Pause the simulation (haptixd extension).  See also hxd_run.

  mjhx('hxd_pause');
end
