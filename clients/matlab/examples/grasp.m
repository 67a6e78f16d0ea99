function events = grasp(host, duration)
% GRASP  The grasp reflex of the HAPTIX manual, for the MPL hand, in MATLAB.
%
%  grasp(host) connects to host ('' for the default server) and runs the
%  reflex until interrupted (Ctrl-C); grasp(host, duration) stops when the
%  simulated time reaches duration seconds.  events = grasp(...) returns
%  the transitions as a struct array with time, what ('close', 'open' or
%  'reset') and value (the contact force or flick speed that caused it).
%
%  When the contact sensors together feel more than 1 N, the hand closes:
%  every finger motor moves to 2/3 of the way from the lower to the upper
%  end of its range over half a second.  A flick of the hand opens it
%  again: the IMUs' net angular speed above 8 rad/s, counting only the
%  speed all the fingertips share (a flick turns the whole hand, a finger
%  slipping on what it holds turns one).  Transitions are at least two
%  seconds apart; the wrist motors keep their posture.  Simulated time
%  going back (a reset) starts the reflex over.  It is
%  clients/examples/grasp.c written with the MATLAB API: the simple API
%  for the reflex, the native API for the motors' names.

  if nargin < 1
    host = '';
  end
  if nargin < 2
    duration = 0;
  end
  contact_n = 1.0;     % summed contact force that closes the hand
  flick_rads = 8.0;    % summed IMU angular speed that opens it
  move_s = 0.5;        % time to move between postures
  dwell_s = 2.0;       % shortest time between transitions

  hx_connect(host);
  cleanup = onCleanup(@() hx_close());
  info = hx_robot_info();
  sensor = hx_read_sensors();
  fprintf('grasp: %d motors, %d contact sensors, %d IMUs, %g Hz\n', ...
         info.motor_count, info.contact_sensor_count, info.imu_count, ...
         info.update_rate);

  % Open: where the motors are t.  Closed: 2/3 of each range.
  open = sensor.motor_pos;
  lo = info.motor_limit(:, 1);
  hi = info.motor_limit(:, 2);
  closed = lo + 2 / 3 * (hi - lo);
  for i = 1:info.motor_count
    if ~isempty(strfind(mj_id2name('actuator', i - 1), 'wrist'))
      closed(i) = open(i);
    end
  end

  command = struct('ref_pos', open, 'ref_vel_max', zeros(info.motor_count, 1), ...
                   'gain_pos', zeros(info.motor_count, 1), ...
                   'gain_vel', zeros(info.motor_count, 1), ...
                   'ref_pos_enabled', 1, 'ref_vel_max_enabled', 0, ...
                   'gain_pos_enabled', 0, 'gain_vel_enabled', 0);
  events = struct('time', {}, 'what', {}, 'value', {});
  closing = false;   % the state: open or closed
  moving_to_closed = false;
  from = open;
  t_move = -1e9;
  last = 0;
  while true
    t = sensor.time_stamp;
    if duration > 0 && t >= duration
      break;
    end
    if t < last
      % A reset: open again, with nothing to wait for.
      fprintf('%.3f reset: open\n', t);
      events(end + 1) = struct('time', t, 'what', 'reset', 'value', 0);
      closing = false;
      moving_to_closed = false;
      command.ref_pos = open;
      from = open;
      t_move = -1e9;
    end
    last = t;
    force = sum(sensor.contact);
    % The slowest fingertip's angular speed, which every IMU shares.
    flick = min(sqrt(sum(sensor.imu_angular_vel .^ 2, 2))) * info.imu_count;
    if ~closing && force > contact_n && t - t_move >= dwell_s
      fprintf('%.3f close (contact %.2f N)\n', t, force);
      events(end + 1) = struct('time', t, 'what', 'close', 'value', force);
      closing = true;
    elseif closing && flick > flick_rads && t - t_move >= dwell_s
      fprintf('%.3f open (flick %.2f rad/s)\n', t, flick);
      events(end + 1) = struct('time', t, 'what', 'open', 'value', flick);
      closing = false;
    end
    if closing ~= moving_to_closed
      % Start a move from the current references.
      from = command.ref_pos;
      moving_to_closed = closing;
      t_move = t;
    end
    if moving_to_closed
      to = closed;
    else
      to = open;
    end
    a = min(1, (t - t_move) / move_s);
    command.ref_pos = from + a * (to - from);
    if exist('OCTAVE_VERSION', 'builtin')
      fflush(stdout);   % Octave buffers what it prints
    end
    sensor = hx_update(command);
  end
end
