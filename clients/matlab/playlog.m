function fig = playlog(data, varargin)
% PLAYLOG  Play a recording back through the server, as HAPTIX's did.
%
%  playlog(data) takes the struct readlog returns and opens a figure
%  with the recorded time over the frames (it drops to zero where the
%  simulation was reset: the trials), a slider to choose a frame, Play
%  and Pause, and the playback speed.  Each frame shown is sent to the
%  server over the socket API (mj_set_control, mj_set_mocap, then qpos,
%  qvel, act and the time), so that its viewers (hxview, the workbench)
%  show the recording.  fig = playlog(data) returns the figure.
%
%  Connect first (hx_connect or mj_connect).  The server must have the
%  recorded model loaded, or one of its sizes (the name may differ):
%  nq, nv, nu and nmocap must match, and na when act was recorded.  The
%  simulation is paused first, as HAPTIX asked of its user, so that the
%  playback does not fight with it; it stays paused, in the last frame
%  shown.
%
%  playlog(data, 'frames', K) sends frames K (indices, in that order)
%  without a figure, at the recorded pace, and returns when the last is
%  sent; 'speed', S plays S times as fast (Inf: without waiting).  Where
%  no figure can be opened (GNU Octave with no graphics toolkit),
%  playlog(data) plays every frame that way, and says so.
%  See also readlog, hxplay(1) and docs/matlab.md.

  opts = struct('frames', [], 'speed', 1);
  if mod(numel(varargin), 2) ~= 0
    error('haptix:BADVALUE', 'playlog: options come in pairs: ''frames'', K, ''speed'', S');
  end
  for i = 1:2:numel(varargin)
    if ~ischar(varargin{i}) || ~isfield(opts, varargin{i})
      error('haptix:BADVALUE', 'playlog: unknown option; ''frames'' and ''speed'' are known');
    end
    opts.(varargin{i}) = varargin{i + 1};
  end
  p = prepare(data, opts.speed);
  if ~isempty(opts.frames) || ~can_draw()
    k = opts.frames;
    if isempty(k)
      k = 1:p.n;
      printf_out('playlog: no graphics here: playing all %d frames without a figure\n', p.n);
    end
    if ~isnumeric(k) || any(k(:) < 1 | k(:) > p.n | k(:) ~= round(k(:)))
      error('haptix:BADINDEX', 'playlog: frames must be indices from 1 to %d', p.n);
    end
    play_frames(p, k(:)');
    if nargout > 0
      fig = [];
    end
    return;
  end
  f = open_figure(p);
  if nargout > 0
    fig = f;
  end
end

% The recording checked against the server's model, which is paused.
function p = prepare(data, speed)
  need = {'nq', 'nv', 'nu', 'nmocap', 'time', 'qpos', 'qvel', 'ctrl', ...
          'mocap_pos', 'mocap_quat'};
  if ~isstruct(data) || ~all(isfield(data, need))
    error('haptix:BADVALUE', 'playlog: data must be the struct readlog returns');
  end
  if ~isnumeric(speed) || ~isscalar(speed) || ~(speed > 0)
    error('haptix:BADVALUE', 'playlog: speed must be a number above 0 (Inf: no waiting)');
  end
  if ~mjhx('mj_connected')
    error('haptix:NOCONNECTION', 'playlog: connect to the server first (hx_connect or mj_connect)');
  end
  info = mjhx('mj_info');
  p.n = numel(data.time);
  if p.n == 0
    error('haptix:BADSIZE', 'playlog: the recording has no frames');
  end
  p.act = isfield(data, 'act') && size(data.act, 1) > 0;
  sizes = [data.nq data.nv data.nu data.nmocap];
  have = [info.nq info.nv info.nu info.nmocap];
  if p.act
    sizes(end + 1) = size(data.act, 1);
    have(end + 1) = info.na;
  end
  if ~isequal(sizes, have)
    error('haptix:BADSIZE', ['playlog: recorded with %s (nq %d nv %d nu %d ' ...
          'nmocap %d); the server''s model has nq %d nv %d nu %d nmocap %d: ' ...
          'load the recorded model'], data.name, data.nq, data.nv, data.nu, ...
          data.nmocap, info.nq, info.nv, info.nu, info.nmocap);
  end
  p.data = data;
  p.na = info.na;
  p.speed = speed;
  st = mjhx('hxd_status_get');
  if ~st.paused
    printf_out('playlog: pausing the simulation to play the recording\n');
    mjhx('hxd_pause');
  end
end

% Send frame k: controls, mocap poses, the state and the time.
function show(p, k)
  d = p.data;
  if d.nu > 0 && size(d.ctrl, 1) == d.nu
    mjhx('mj_set_control', struct('nu', d.nu, 'ctrl', d.ctrl(:, k)));
  end
  if d.nmocap > 0 && size(d.mocap_pos, 1) == 3 * d.nmocap
    mjhx('mj_set_mocap', struct('nmocap', d.nmocap, ...
         'pos', reshape(d.mocap_pos(:, k), 3, d.nmocap)', ...
         'quat', reshape(d.mocap_quat(:, k), 4, d.nmocap)'));
  end
  if p.act || p.na == 0
    s = struct('nq', d.nq, 'nv', d.nv, 'qpos', d.qpos(:, k), 'qvel', d.qvel(:, k));
    if p.act
      s.na = p.na;
      s.act = d.act(:, k);
    end
    mjhx('mj_set_state', s);
  else
    % No act recorded (a .mjl) for a model that has some: what was.
    mjhx('hxd_set_array', 'qpos', d.qpos(:, k));
    mjhx('hxd_set_array', 'qvel', d.qvel(:, k));
  end
  mjhx('hxd_set_array', 'time', d.time(k));
end

% Seconds to wait between frames a and b: the recorded time between
% them over the speed, none across a reset or at speed Inf.
function dt = gap(p, a, b)
  dt = (p.data.time(b) - p.data.time(a)) / p.speed;
  if ~(dt > 0) || ~isfinite(dt)
    dt = 0;
  end
end

function play_frames(p, ks)
  for i = 1:numel(ks)
    if i > 1
      wait_for(gap(p, ks(i - 1), ks(i)));
    end
    show(p, ks(i));
  end
end

function wait_for(dt)
  if dt > 0
    pause(dt);
  end
end

% Whether a figure can be opened here.
function ok = can_draw()
  ok = true;
  if exist('OCTAVE_VERSION', 'builtin') && isempty(available_graphics_toolkits())
    ok = false;
  end
end

function printf_out(varargin)
  fprintf(1, varargin{:});
end

%--------------------------------------------------------------- the figure

function f = open_figure(p)
  speeds = [0.25 0.5 1 2 4 Inf];
  f = figure('name', sprintf('playlog: %s', p.data.name), 'numbertitle', 'off');
  ax = axes('parent', f, 'position', [0.1 0.3 0.85 0.6]);
  plot(ax, 1:p.n, p.data.time, '-');
  hold(ax, 'on');
  marker = plot(ax, [1 1], [min(p.data.time) max(p.data.time) + eps], 'r-');
  xlabel(ax, 'frame');
  ylabel(ax, 'time (s)');
  step = 1 / max(p.n - 1, 1);
  u.slider = uicontrol(f, 'style', 'slider', 'tag', 'playlog_slider', ...
      'units', 'normalized', 'position', [0.1 0.12 0.85 0.05], ...
      'min', 1, 'max', max(p.n, 1 + eps), 'value', 1, ...
      'sliderstep', [step min(10 * step, 1)], 'callback', @on_slider);
  u.play = uicontrol(f, 'style', 'togglebutton', 'tag', 'playlog_play', ...
      'string', 'Play', 'units', 'normalized', ...
      'position', [0.1 0.02 0.15 0.07], 'callback', @on_play);
  u.speed = uicontrol(f, 'style', 'popupmenu', 'tag', 'playlog_speed', ...
      'string', {'0.25x', '0.5x', '1x', '2x', '4x', 'max'}, 'value', 3, ...
      'units', 'normalized', 'position', [0.3 0.02 0.15 0.07]);
  u.label = uicontrol(f, 'style', 'text', 'tag', 'playlog_label', ...
      'units', 'normalized', 'position', [0.5 0.02 0.45 0.07]);
  s = struct('p', p, 'k', 1, 'u', u, 'marker', marker, 'speeds', speeds);
  setappdata(f, 'playlog', s);
  go_to(f, 1);
end

% Show frame k in the server and in the figure.
function go_to(f, k)
  s = getappdata(f, 'playlog');
  k = min(max(round(k), 1), s.p.n);
  show(s.p, k);
  s.k = k;
  setappdata(f, 'playlog', s);
  set(s.u.slider, 'value', k);
  set(s.marker, 'xdata', [k k]);
  seg = 1;
  if isfield(s.p.data, 'segment') && numel(s.p.data.segment) >= k
    seg = s.p.data.segment(k);
  end
  set(s.u.label, 'string', sprintf('frame %d of %d, time %.4f s, trial %d', ...
      k, s.p.n, s.p.data.time(k), seg));
end

function on_slider(h, ~)
  go_to(ancestor(h, 'figure'), get(h, 'value'));
end

% Play from the frame shown to the last while the button is down.
function on_play(h, ~)
  f = ancestor(h, 'figure');
  if ~get(h, 'value')
    set(h, 'string', 'Play');
    return;
  end
  set(h, 'string', 'Pause');
  s = getappdata(f, 'playlog');
  while ishandle(h) && get(h, 'value') && s.k < s.p.n
    s.p.speed = s.speeds(get(s.u.speed, 'value'));
    wait_for(gap(s.p, s.k, s.k + 1));
    if ~ishandle(h) || ~get(h, 'value')
      break;
    end
    go_to(f, s.k + 1);
    drawnow;
    s = getappdata(f, 'playlog');
  end
  if ishandle(h)
    set(h, 'value', 0, 'string', 'Play');
  end
end
