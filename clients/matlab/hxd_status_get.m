function status = hxd_status_get()
% HXD_STATUS_GET  Get the server's status (haptixd extension).
%
%  status = hxd_status_get returns model (name, path, sizes), time,
%  steps, paused, speed, speed_max, realtime_factor, cpu_per_step, ncon,
%  clients, message, instability_resets, sim_errors and overruns.

  status = mjhx('hxd_status_get');
end
