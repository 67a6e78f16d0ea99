function hxs_stop_logging()
% HXS_STOP_LOGGING  Stop recording the simulation.
%
%  hxs_stop_logging ends the recording hxs_start_logging started.
%
%  See also hxs_start_logging, hxs_is_logging.

  hxgz('stop_logging');
end
