function result = hxd_batch_run(varargin)
% HXD_BATCH_RUN  Run a lock-step batch and get its trajectory (haptixd extension).
%
%  result = hxd_batch_run('steps', N, ...) or hxd_batch_run(opts): with
%  the simulation paused, set the controls, then take N steps (or step
%  until a simulated time), in one request; no other client changes the
%  simulation meanwhile.  The options, as names and values or fields:
%
%    ctrl     controls to set first (nu numbers)
%    steps    how many steps to take
%    until    or: the simulated time to step to
%    record   fields to record: 'qpos,qvel' or {'qpos', 'sensordata'};
%             of qpos, qvel, act, ctrl, mocap, sensordata, qfrc_applied,
%             xfrc_applied, body, geom, site
%    every    record after every Nth step (default: every step)
%
%  result has steps, resets, time, sensordata (after the last step) and
%  trajectory: time and step (k x 1) and each recorded field as a matrix
%  of one row per recorded step (qpos is k x nq; mocap gives mocap_pos,
%  k x 3*nmocap, and mocap_quat; body, geom and site give NAME_pos and
%  NAME_mat).  The same steps taken one by one give the same numbers.
%
%    hxd_pause; mj_reset;
%    r = hxd_batch_run('steps', 500, 'record', {'qpos'}, 'every', 10);
%    plot(r.trajectory.time, r.trajectory.qpos(:, 1));

  if nargin == 1 && isstruct(varargin{1})
    opts = varargin{1};
  else
    if mod(nargin, 2) ~= 0
      error('haptix:BADVALUE', 'hxd_batch_run: give a struct or name, value pairs');
    end
    opts = struct();
    for i = 1:2:nargin
      opts.(varargin{i}) = varargin{i + 1};
    end
  end
  if isfield(opts, 'record') && iscellstr(opts.record)
    opts.record = strjoin(opts.record, ',');
  end
  result = mjhx('hxd_batch_run', opts);
end
