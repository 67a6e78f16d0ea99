function result = sweep(host, values, steps)
% SWEEP  A parameter sweep in lock-step: one batch run per value.
%
%  result = sweep(host, values, steps) connects to host ('' for the
%  default server), pauses the simulation and, for each value u of
%  values, resets it, sets the index finger's MCP motor (A_index_MCP) to
%  u and every other motor to its present reference, and takes steps
%  steps in one batch, recording qpos every 10 steps.  result has
%  values (n x 1), final (n x 1: the index MCP joint's angle at the
%  end), time (k x 1) and qpos (k x n: that joint's angle along each
%  run).  The same sweep gives the same numbers every time: a batch is
%  lock-step, and nobody else changes the simulation while it runs.
%
%    r = sweep('', linspace(0, 1.6, 5), 500);
%    plot(r.time, r.qpos); xlabel('s'); ylabel('rad');

  if nargin < 1
    host = '';
  end
  if nargin < 2
    values = linspace(0, 1.6, 5);
  end
  if nargin < 3
    steps = 500;
  end
  hx_connect(host);
  cleanup = onCleanup(@() hx_close());
  hxd_pause();
  motor = mj_name2id('actuator', 'A_index_MCP') + 1;
  info = mj_info();
  joint = info.jnt_qposadr(mj_name2id('joint', 'index_MCP') + 1) + 1;
  values = values(:);
  result = struct('values', values, 'final', zeros(numel(values), 1), ...
                  'time', [], 'qpos', []);
  for i = 1:numel(values)
    mj_reset();
    control = mj_get_control();
    ctrl = control.ctrl;
    ctrl(motor) = values(i);
    r = hxd_batch_run('ctrl', ctrl, 'steps', steps, 'record', {'qpos'}, ...
                      'every', 10);
    result.time = r.trajectory.time;
    result.qpos(:, i) = r.trajectory.qpos(:, joint);
    result.final(i) = r.trajectory.qpos(end, joint);
  end
end
