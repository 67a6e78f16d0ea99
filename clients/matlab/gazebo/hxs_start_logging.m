function hxs_start_logging(filename)
% HXS_START_LOGGING  Start recording the simulation.
%
%  hxs_start_logging(filename) starts the server's recording, which it
%  writes into its own state directory (docs/recording.md): filename is
%  not used.  Only one recording runs at a time.
%
%  See also hxs_is_logging, hxs_stop_logging.

  hxgz('start_logging', filename);
end
