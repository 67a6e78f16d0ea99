function hxd_run()
% HXD_RUN  Run the simulation (haptixd extension).  See also hxd_pause.

  mjhx('hxd_run');
end
