function logging = hxs_is_logging()
% HXS_IS_LOGGING  Get whether the simulation is being recorded.
%
%  logging = hxs_is_logging returns 1 while a recording runs, else 0.
%
%  See also hxs_start_logging, hxs_stop_logging.

  logging = hxgz('is_logging');
end
