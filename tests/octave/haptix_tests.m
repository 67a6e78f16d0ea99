function failed = haptix_tests(ctx)
% HAPTIX_TESTS  The MATLAB API through real haptixd daemons (tests/octave.sh).
%
%  failed = haptix_tests(ctx) runs every test and prints 'ok: NAME' or
%  'FAIL: NAME: why' for each, then 'N passed, N failed'.  ctx has
%  server (daemon A's Unix socket, the MPL scene), tcp (its TCP address),
%  tls (daemon T's TLS address) and certs (the test CA's directory),
%  lost (daemon B's socket) and lost_pid (B's pid, which the last test
%  stops and kills), mexdir (where mjhx and the wrappers are).

  tests = {
    'the wrappers are every call, each with help', @t_wrappers
    'mjhx with no arguments prints its help', @t_mjhx_help
    'every call before hx_connect is haptix:NOCONNECTION', @t_before_connect
    'connecting locks mjhx and hx_close unlocks it', @t_lock
    'hx_close then hx_connect again, over Unix and TCP', @t_reconnect
    'TLS through libhaptix: the CA trusted, another refused, a pin', @t_tls
    'the manual''s simple example session', @t_manual_simple
    'hx_update takes the manual''s command and gives its sensor', @t_update
    'native structs have the manual''s fields and the model''s sizes', @t_native_shapes
    'the manual''s mj_set_state example and the other set calls', @t_native_set
    'names, ids, colours, messages, equalities and resets', @t_native_misc
    'errors have identifiers and the server''s words', @t_errors
    'a lock-step loop of mj_update equals a batch run', @t_lockstep
    'batch runs return matrices', @t_batch
    'arrays by name', @t_arrays
    'MuJoCo''s computations: shapes, and what they must agree on', @t_compute
    'pause, run, speed, load and status', @t_admin
    'the sweep example', @t_sweep
    'the grasp reflex example closes the hand on the cube', @t_grasp
    'HAPTIX 1.50''s short names, as its apimex wrappers call them', @t_short_names
    'readlog reads a .hxr as hxplay exports it', @t_readlog_hxr
    'readlog and hxplay read a .mjl written from the manual', @t_readlog_mjl
    'playlog sends frames to the paused server', @t_playlog_frames
    'playlog''s figure: slider, Play and speed', @t_playlog_figure
    'a stopped server times out and a killed one errors at once', @t_lost
  };
  failed = run_tests(tests, ctx, @(ctx) mj_close());
end

%------------------------------------------------------------------ helpers

% Connect to daemon A.
function connect(ctx)
  hx_connect(ctx.server);
end

% The cube's height, from its body's pose.
function z = cube_z()
  b = mj_get_onebody(mj_name2id('body', 'cube'));
  z = b.pos(3);
end

% Move the first mocap body (the hand) to height z1 in small steps, as a
% hand would move, while the simulation runs.
function move_hand(z1)
  m = mj_get_mocap();
  z0 = m.pos(1, 3);
  n = ceil(abs(z1 - z0) / 0.002);
  for i = 1:n
    m.pos(1, 3) = z0 + (z1 - z0) * i / n;
    mj_set_mocap(m);
    pause(0.01);
  end
end

% An array's values as hxctl --json get prints them, to the last bit:
% str2double reads %.17g exactly, where jsondecode may be one ulp off.
function v = hxctl_array(ctx, name)
  out = hxctl(ctx, ['--json get ' name]);
  tok = regexp(out, '"values":\[([^\]]*)\]', 'tokens', 'once');
  check(~isempty(tok), 'hxctl get %s printed %s', name, out);
  v = str2double(strsplit(tok{1}, ','))';
end

% Whether the server's qpos is the qpos sent: MuJoCo normalizes the
% free and ball joints' quaternions in place on every forward pass, so a
% recorded quaternion (normalized by the step that made it) can come
% back one or two ulps off; everything else comes back bit for bit.
function ok = same_qpos(got, sent)
  ok = isequal(size(got), size(sent)) && all(abs(got - sent) <= 4 * eps);
end

% Run hxplay (ctx.hxplay) and return what it printed.
function out = hxplay(ctx, args)
  [status, out] = system(sprintf('%s %s 2>&1', ctx.hxplay, args));
  check(status == 0, 'hxplay %s: exit %d: %s', args, status, out);
end

% A field of hxplay export --csv, as a matrix with a column per record
% (the csv has a row per record: step, time, then the values).
function m = exported(dir, field)
  x = dlmread(fullfile(dir, [field '.csv']), ',', 1, 0);
  m = x(:, 3:end)';
end

% Record daemon A paused: steps with changing controls, a reset, more
% steps; the file's bare name, as hxctl record stop prints its path.
function name = record_a(ctx)
  hxd_pause();
  out = hxctl(ctx, 'record start');
  info = mj_info();
  for i = 1:20
    mj_set_control(struct('ctrl', 0.02 * i * ones(info.nu, 1)));
    hxd_step(5);
  end
  mj_reset();
  hxd_step(30);
  out = hxctl(ctx, 'record stop');
  tok = regexp(out, 'recorded (\S+\.hxr)', 'tokens', 'once');
  check(~isempty(tok), 'hxctl record stop said: %s', out);
  [~, base, ext] = fileparts(tok{1});
  name = [base ext];
end

%-------------------------------------------------------------------- tests

function t_wrappers(ctx)
  % The calls of the manual's MATLAB API, and the extensions; a new
  % wrapper must be added here, and to the tests that call it.
  want = sort({'hx_connect', 'hx_close', 'hx_robot_info', 'hx_update', ...
    'hx_read_sensors', 'mj_connect', 'mj_close', 'mj_connected', 'mj_info', ...
    'mj_get_state', 'mj_get_control', 'mj_get_applied', 'mj_get_onebody', ...
    'mj_get_mocap', 'mj_get_dynamics', 'mj_get_sensor', 'mj_get_body', ...
    'mj_get_geom', 'mj_get_site', 'mj_get_tendon', 'mj_get_actuator', ...
    'mj_get_force', 'mj_get_contact', 'mj_get_rgba', 'mj_set_state', ...
    'mj_set_control', 'mj_set_applied', 'mj_set_onebody', 'mj_set_mocap', ...
    'mj_set_geomsize', 'mj_set_rgba', 'mj_step', 'mj_update', 'mj_reset', ...
    'mj_equality', 'mj_message', 'mj_name2id', 'mj_id2name', 'hxd_pause', ...
    'hxd_run', 'hxd_set_speed', 'hxd_step', 'hxd_load_file', 'hxd_reload', ...
    'hxd_status_get', 'hxd_get_array', 'hxd_set_array', 'hxd_list_arrays', ...
    'hxd_batch_run', 'hxd_set_timeout', 'readlog', 'playlog', ...
    'hxd_forward_array', 'hxd_inverse', 'hxd_full_m', 'hxd_solve_m', ...
    'hxd_rne', 'hxd_jac', 'hxd_jac_body', 'hxd_jac_body_com', ...
    'hxd_jac_geom', 'hxd_jac_site', 'hxd_object_velocity', ...
    'hxd_object_acceleration', 'hxd_contact_forces', 'hxd_energy', ...
    'hxd_ray', 'hxd_differentiate_pos', 'hxd_integrate_pos'});
  files = dir(fullfile(ctx.mexdir, '*.m'));
  got = sort(regexprep({files.name}, '\.m$', ''));
  check(isequal(got, want), 'the wrappers beside mjhx: %s', strjoin(got, ' '));
  check(exist('mjhx') == 3, 'mjhx is not a MEX file here');
  for k = 1:numel(want)
    h = help(want{k});
    check(numel(h) > 40 && ~isempty(strfind(h, upper(want{k}))), ...
          '%s has no help text', want{k});
  end
end

function t_mjhx_help(ctx)
  out = evalc('mjhx');
  for name = {'hx_connect', 'hx_update', 'mj_get_contact', 'hxd_batch_run', ...
              'haptix:BADSIZE', 'hxd_read_log', 'get_state', 'id2name', ...
              'hxd_jac_site', 'hxd_contact_forces', 'mj_differentiatePos'}
    check(~isempty(strfind(out, name{1})), 'mjhx''s help lacks %s', name{1});
  end
  expect_error(@() mjhx('no_such_call'), 'haptix:BADCOMMAND', 'no_such_call');
  expect_error(@() mjhx(42), 'haptix:BADCOMMAND');
  expect_error(@() mjhx('mj_get_state', 1), 'haptix:BADVALUE', 'usage');
end

function t_before_connect(ctx)
  check(mj_connected() == 0, 'connected before hx_connect');
  check(~mislocked('mjhx'), 'mjhx is locked before hx_connect');
  calls = {@hx_robot_info, @hx_read_sensors, @() hx_update(struct()), ...
    @mj_info, @mj_get_state, @mj_get_control, @mj_get_applied, ...
    @() mj_get_onebody(0), @mj_get_mocap, @mj_get_dynamics, @mj_get_sensor, ...
    @mj_get_body, @mj_get_geom, @mj_get_site, @mj_get_tendon, ...
    @mj_get_actuator, @mj_get_force, @mj_get_contact, ...
    @() mj_get_rgba('geom', 0), @() mj_set_geomsize(0, [1 1 1]), ...
    @() mj_set_rgba('geom', 0, [1 1 1 1]), @mj_step, @mj_update, @mj_reset, ...
    @() mj_equality(0, 1), @mj_message, @() mj_name2id('body', 'cube'), ...
    @() mj_id2name('body', 0), @hxd_pause, @hxd_run, @() hxd_set_speed(1), ...
    @() hxd_step(1), @() hxd_load_file('mpl_scene.xml'), @hxd_reload, ...
    @hxd_status_get, @() hxd_get_array('qpos'), ...
    @() hxd_set_array('qpos', 0), @hxd_list_arrays, ...
    @() hxd_batch_run('steps', 1), @() hxd_set_timeout(1), ...
    @() hxd_forward_array('qpos'), @hxd_inverse, @hxd_full_m, ...
    @() hxd_solve_m(1), @() hxd_rne(0), @() hxd_jac('palm', [0 0 1]), ...
    @() hxd_jac_body('palm'), @() hxd_jac_body_com('palm'), ...
    @() hxd_jac_geom('cube'), @() hxd_jac_site('palm_thumb'), ...
    @() hxd_object_velocity('body', 'cube'), ...
    @() hxd_object_acceleration('body', 'cube'), @hxd_contact_forces, ...
    @hxd_energy, @() hxd_ray([0 0 1], [0 0 -1]), ...
    @() hxd_differentiate_pos(0, 0, 1), @() hxd_integrate_pos(0, 0, 1)};
  for k = 1:numel(calls)
    expect_error(calls{k}, 'haptix:NOCONNECTION', 'hx_connect');
  end
  % The setters check their struct first, then the connection.
  st = struct('qpos', 0, 'qvel', 0);
  expect_error(@() mj_set_state(st), 'haptix:NOCONNECTION');
  expect_error(@() mj_set_control(struct('ctrl', 0)), 'haptix:NOCONNECTION');
  expect_error(@() mj_set_applied(struct('qfrc_applied', 0, ...
    'xfrc_applied', zeros(1, 6))), 'haptix:NOCONNECTION');
  expect_error(@() mj_set_onebody(struct('bodyid', 1)), 'haptix:NOCONNECTION');
  expect_error(@() mj_set_mocap(struct('pos', [0 0 0], 'quat', [1 0 0 0])), ...
               'haptix:NOCONNECTION');
  check(mj_connected() == 0 && ~mislocked('mjhx'), 'an error connected');
end

function t_lock(ctx)
  connect(ctx);
  check(mislocked('mjhx'), 'mjhx is not locked while connected');
  check(mj_connected() == 1, 'not connected');
  % The lock is what keeps the MEX file, and so the connection, through
  % a clear.
  clear mjhx;
  check(mj_connected() == 1, 'clear mjhx dropped the connection');
  hx_close();
  check(~mislocked('mjhx'), 'mjhx is still locked after hx_close');
  check(mj_connected() == 0, 'still connected after hx_close');
  hx_close();   % closing twice is no error
end

function t_reconnect(ctx)
  for round = 1:2
    connect(ctx);
    expect_error(@() hx_connect(ctx.server), 'haptix:CONNECTED', 'hx_close');
    expect_error(@() mj_connect(ctx.server), 'haptix:CONNECTED');
    st = mj_get_state();
    check(st.nq > 0, 'no state');
    hx_close();
  end
  % HOST:PORT, and the port joining a host, as libhaptix's hx_connect.
  mj_connect(ctx.tcp);
  check(mj_connected() == 1, 'not connected over TCP');
  mj_close();
  colon = find(ctx.tcp == ':', 1, 'last');
  hx_connect(ctx.tcp(1:colon - 1), str2double(ctx.tcp(colon + 1:end)));
  check(mj_connected() == 1, 'hx_connect(host, port) did not connect');
  hx_close();
  expect_error(@() hx_connect('unix:/nonexistent/haptixd.sock'), ...
               'haptix:NOCONNECTION', '/nonexistent/haptixd.sock');
  check(~mislocked('mjhx'), 'a failed hx_connect locked mjhx');
end

function t_tls(ctx)
  % libhaptix reads the variables when it connects: setenv is enough.
  setenv('HAPTIX_TLS_CA', [ctx.certs '/ca.pem']);
  hx_connect(ctx.tls);
  st = mj_get_state();
  check(st.nq == 9, 'no state over TLS');
  hx_close();
  setenv('HAPTIX_TLS_CA', [ctx.certs '/other-ca.pem']);
  expect_error(@() hx_connect(ctx.tls), 'haptix:NOCONNECTION', ...
               'not signed by a CA we trust');
  check(~mislocked('mjhx'), 'a refused TLS connection locked mjhx');
  unsetenv('HAPTIX_TLS_CA');
  pin = strtrim(fileread([ctx.certs '/server.sha256']));
  setenv('HAPTIX_TLS_PIN', pin);
  mj_connect(ctx.tls);
  check(mj_connected() == 1, 'not connected with the pin');
  mj_close();
  unsetenv('HAPTIX_TLS_PIN');
end

function t_manual_simple(ctx)
  % hx_connect; hx_robot_info; hx_read_sensors; hx_close, as in the manual.
  hx_connect(ctx.server);
  info = hx_robot_info();
  sensor = hx_read_sensors();
  hx_close();
  check_fields(info, 'info', {'motor_count', 'joint_count', ...
    'contact_sensor_count', 'imu_count', 'motor_limit', 'joint_limit', ...
    'update_rate'});
  check(info.motor_count == 13 && info.joint_count == 22 && ...
        info.contact_sensor_count == 19 && info.imu_count == 5 && ...
        info.update_rate == 50, 'the MPL robot: %d %d %d %d %g', ...
        info.motor_count, info.joint_count, info.contact_sensor_count, ...
        info.imu_count, info.update_rate);
  check_size(info.motor_limit, 'motor_limit', 13, 2);
  check_size(info.joint_limit, 'joint_limit', 22, 2);
  check(all(info.motor_limit(:, 1) < info.motor_limit(:, 2)), 'motor_limit');
  check(abs(info.motor_limit(9, 2) - 1.6) < 1e-9, 'A_index_MCP''s range');
  check(isscalar(sensor.time_stamp) && sensor.time_stamp > 0, 'time_stamp');
end

function t_update(ctx)
  connect(ctx);
  info = hx_robot_info();
  n = info.motor_count;
  % The manual's command, field for field.
  command = struct('ref_pos', zeros(n, 1), 'ref_vel_max', zeros(n, 1), ...
                   'gain_pos', zeros(n, 1), 'gain_vel', zeros(n, 1), ...
                   'ref_pos_enabled', 1, 'ref_vel_max_enabled', 0, ...
                   'gain_pos_enabled', 0, 'gain_vel_enabled', 0);
  command.ref_pos(9) = 1.2;   % A_index_MCP
  sensor = hx_update(command);
  check_fields(sensor, 'sensor', {'time_stamp', 'motor_pos', 'motor_vel', ...
    'motor_torque', 'joint_pos', 'joint_vel', 'contact', 'imu_linear_acc', ...
    'imu_angular_vel', 'imu_orientation'});
  check(isscalar(sensor.time_stamp), 'time_stamp is not a double scalar');
  check_size(sensor.motor_pos, 'motor_pos', 13, 1);
  check_size(sensor.motor_vel, 'motor_vel', 13, 1);
  check_size(sensor.motor_torque, 'motor_torque', 13, 1);
  check_size(sensor.joint_pos, 'joint_pos', 22, 1);
  check_size(sensor.joint_vel, 'joint_vel', 22, 1);
  check_size(sensor.contact, 'contact', 19, 1);
  check_size(sensor.imu_linear_acc, 'imu_linear_acc', 5, 3);
  check_size(sensor.imu_angular_vel, 'imu_angular_vel', 5, 3);
  check_size(sensor.imu_orientation, 'imu_orientation', 5, 4);
  check(isequal(sensor.imu_orientation, repmat([1 0 0 0], 5, 1)), ...
        'imu_orientation is not (1, 0, 0, 0)');
  control = mj_get_control();
  check(abs(control.ctrl(9) - 1.2) < 1e-12, 'ref_pos did not reach ctrl: %g', ...
        control.ctrl(9));
  % While running, an update returns one period (1/50 s) of simulated
  % time later, or a whole number of periods when this client was late.
  s2 = hx_update(command);
  dt = s2.time_stamp - sensor.time_stamp;
  check(dt > 0.019 && abs(dt / 0.02 - round(dt / 0.02)) < 1e-6, ...
        'hx_update waited %g s of simulated time', dt);
  % ref_vel_max, as the manual's MATLAB command has it: the reference
  % moves toward ref_pos at no more than that speed.
  hxd_pause();
  command.ref_pos(9) = 0;
  hx_update(command);
  command.ref_pos(9) = 1.6;
  command.ref_vel_max(9) = 0.5;
  command.ref_vel_max_enabled = 1;
  hx_update(command);
  hxd_step(50);   % 0.1 s
  control = mj_get_control();
  check(control.ctrl(9) > 0.01 && control.ctrl(9) < 0.1, ...
        'ref_vel_max 0.5 let the reference reach %g in 0.1 s', control.ctrl(9));
  command.ref_vel_max(9) = 0;   % no limit
  hx_update(command);
  % A command of fields left out: only ref_pos, enabled.
  hx_update(struct('ref_pos', zeros(n, 1) + 0.1 * (1:n)' / n, ...
                   'ref_pos_enabled', 1));
  control = mj_get_control();
  check(abs(control.ctrl(9) - 0.1 * 9 / n) < 1e-12, 'a short command: %g', ...
        control.ctrl(9));
  % Disabled arrays are not read, whatever their size.
  hx_update(struct('ref_pos', 1, 'ref_pos_enabled', 0));
  sensor = hx_read_sensors();
  check_size(sensor.joint_pos, 'joint_pos', 22, 1);
  hxd_run();
end

function t_native_shapes(ctx)
  connect(ctx);
  info = mj_info();
  check_fields(info, 'mj_info', {'nq', 'nv', 'na', 'njnt', 'nbody', 'ngeom', ...
    'nsite', 'ntendon', 'nu', 'neq', 'nkey', 'nmocap', 'nsensor', ...
    'nsensordata', 'nmat', 'timestep', 'apirate', 'sensor_type', ...
    'sensor_datatype', 'sensor_objtype', 'sensor_objid', 'sensor_dim', ...
    'sensor_adr', 'sensor_noise', 'jnt_type', 'jnt_bodyid', 'jnt_qposadr', ...
    'jnt_dofadr', 'jnt_range', 'geom_type', 'geom_bodyid', 'eq_type', ...
    'eq_obj1id', 'eq_obj2id', 'actuator_trntype', 'actuator_trnid', ...
    'actuator_ctrlrange'});
  check(info.nu == 13 && info.nsensordata == 132 && info.apirate == 50, ...
        'MPL scene: nu %d, nsensordata %d, apirate %g', info.nu, ...
        info.nsensordata, info.apirate);
  check_size(info.sensor_type, 'sensor_type', info.nsensor, 1);
  check_size(info.sensor_noise, 'sensor_noise', info.nsensor, 1);
  check_size(info.jnt_type, 'jnt_type', info.njnt, 1);
  check_size(info.jnt_range, 'jnt_range', info.njnt, 2);
  check_size(info.geom_bodyid, 'geom_bodyid', info.ngeom, 1);
  check_size(info.eq_obj2id, 'eq_obj2id', info.neq, 1);
  check_size(info.actuator_trnid, 'actuator_trnid', info.nu, 2);
  check_size(info.actuator_ctrlrange, 'actuator_ctrlrange', info.nu, 2);
  check(isequal(info.actuator_ctrlrange(9, :), [0 1.6]), 'A_index_MCP range');
  check(sum(info.sensor_dim) == info.nsensordata, 'sensor_dim');

  s = mj_get_state();
  check_fields(s, 'state', {'nq', 'nv', 'na', 'time', 'qpos', 'qvel', 'act'});
  check_size(s.qpos, 'qpos', info.nq, 1);
  check_size(s.qvel, 'qvel', info.nv, 1);
  check_size(s.act, 'act', info.na, 1);
  c = mj_get_control();
  check_fields(c, 'control', {'nu', 'time', 'ctrl'});
  check_size(c.ctrl, 'ctrl', info.nu, 1);
  a = mj_get_applied();
  check_fields(a, 'applied', {'nv', 'nbody', 'time', 'qfrc_applied', ...
                              'xfrc_applied'});
  check_size(a.qfrc_applied, 'qfrc_applied', info.nv, 1);
  check_size(a.xfrc_applied, 'xfrc_applied', info.nbody, 6);
  b = mj_get_onebody(mj_name2id('body', 'cube'));
  check_fields(b, 'onebody', {'bodyid', 'isfloating', 'time', 'linacc', ...
    'angacc', 'contactforce', 'pos', 'quat', 'linvel', 'angvel', 'force', ...
    'torque'});
  check(b.isfloating == 1, 'the cube is not floating');
  check_size(b.quat, 'quat', 4, 1);
  check_size(b.pos, 'pos', 3, 1);
  m = mj_get_mocap();
  check_fields(m, 'mocap', {'nmocap', 'time', 'pos', 'quat'});
  check_size(m.pos, 'mocap pos', info.nmocap, 3);
  check_size(m.quat, 'mocap quat', info.nmocap, 4);
  d = mj_get_dynamics();
  check_fields(d, 'dynamics', {'nv', 'na', 'time', 'qacc', 'actdot'});
  check_size(d.qacc, 'qacc', info.nv, 1);
  se = mj_get_sensor();
  check_fields(se, 'sensor', {'nsensordata', 'time', 'sensordata'});
  check_size(se.sensordata, 'sensordata', 132, 1);
  kinds = {@mj_get_body, 'nbody'; @mj_get_geom, 'ngeom'; @mj_get_site, 'nsite'};
  for k = 1:3
    p = kinds{k, 1}();
    check_fields(p, kinds{k, 2}, {kinds{k, 2}, 'time', 'pos', 'mat'});
    check_size(p.pos, 'pos', info.(kinds{k, 2}), 3);
    check_size(p.mat, 'mat', info.(kinds{k, 2}), 9);
  end
  body = mj_get_body();
  cube = mj_name2id('body', 'cube') + 1;
  check(max(abs(body.pos(cube, :)' - b.pos)) < 0.01, 'body pos row');
  check(abs(det(reshape(body.mat(cube, :), 3, 3)') - 1) < 1e-6, 'body mat row');
  t = mj_get_tendon();
  check_fields(t, 'tendon', {'ntendon', 'time', 'length', 'velocity'});
  check_size(t.length, 'tendon length', info.ntendon, 1);
  ac = mj_get_actuator();
  check_fields(ac, 'actuator', {'nu', 'time', 'length', 'velocity', 'force'});
  check_size(ac.force, 'actuator force', info.nu, 1);
  f = mj_get_force();
  check_fields(f, 'force', {'nv', 'time', 'applied', 'passive', 'bias', ...
                            'actuator', 'constraint', 'nonconstraint'});
  check_size(f.bias, 'bias', info.nv, 1);
  check(max(abs(f.nonconstraint - (f.applied + f.passive + f.actuator - ...
        f.bias))) < 1e-6, 'nonconstraint');
  ct = mj_get_contact();
  check_fields(ct, 'contact', {'ncon', 'time', 'pos', 'frame', 'dist', ...
                               'force', 'geom1', 'geom2'});
  check(ct.ncon > 0, 'no contacts on the table');
  check_size(ct.pos, 'contact pos', ct.ncon, 3);
  check_size(ct.frame, 'contact frame', ct.ncon, 9);
  check_size(ct.dist, 'contact dist', ct.ncon, 1);
  check_size(ct.force, 'contact force', ct.ncon, 3);
  check_size(ct.geom2, 'geom2', ct.ncon, 1);
  check(all(ct.geom1 >= 0 & ct.geom1 < info.ngeom), 'geom1 ids');
end

function t_native_set(ctx)
  connect(ctx);
  hxd_pause();
  mj_reset();
  s = mj_get_state();
  % The manual's example, with this model's sizes.
  state = struct('nq', s.nq, 'nv', s.nv, 'na', 0, 'time', 0, ...
                 'qpos', s.qpos, 'qvel', zeros(s.nv, 1), 'act', []);
  state.qpos(9) = 0.7;    % a finger joint
  state.qvel(1) = 0.25;
  mj_set_state(state);
  s2 = mj_get_state();
  check(s2.qpos(9) == 0.7 && s2.qvel(1) == 0.25, 'mj_set_state: %g %g', ...
        s2.qpos(9), s2.qvel(1));
  c = mj_get_control();
  c.ctrl(:) = 0.05;
  mj_set_control(c);
  c2 = mj_get_control();
  check(isequal(c2.ctrl, c.ctrl), 'mj_set_control');
  a = mj_get_applied();
  a.qfrc_applied(2) = 0.125;
  a.xfrc_applied(3, :) = [1 2 3 4 5 6];
  mj_set_applied(a);
  a2 = mj_get_applied();
  check(a2.qfrc_applied(2) == 0.125 && isequal(a2.xfrc_applied(3, :), 1:6), ...
        'mj_set_applied');
  a.qfrc_applied(:) = 0;
  a.xfrc_applied(:) = 0;
  mj_set_applied(a);
  b = mj_get_onebody(mj_name2id('body', 'cube'));
  b.pos = b.pos + [0; 0; 0.2];
  b.force = [0; 0; 0.5];
  mj_set_onebody(b);
  b2 = mj_get_onebody(b.bodyid);
  check(abs(b2.pos(3) - b.pos(3)) < 1e-9 && b2.force(3) == 0.5, ...
        'mj_set_onebody: z %g force %g', b2.pos(3), b2.force(3));
  % A struct with some of the fields sets those only.
  mj_set_onebody(struct('bodyid', b.bodyid, 'force', [0 0 0]));
  b3 = mj_get_onebody(b.bodyid);
  check(b3.force(3) == 0 && abs(b3.pos(3) - b.pos(3)) < 1e-9, 'a partial set');
  m = mj_get_mocap();
  m.pos(1, :) = m.pos(1, :) + [0 0 0.05];
  mj_set_mocap(m);
  m2 = mj_get_mocap();
  check(max(abs(m2.pos(1, :) - m.pos(1, :))) < 1e-12, 'mj_set_mocap');
  g = mj_name2id('geom', 'cube');
  mj_set_geomsize(g, [0.03 0.03 0.03]);
  sizes = hxd_get_array('geom_size');
  check(isequal(sizes(g + 1, :), [0.03 0.03 0.03]), 'mj_set_geomsize');
  hxd_reload();   % back to the scene as loaded
  hxd_run();
end

function t_native_misc(ctx)
  connect(ctx);
  id = mj_name2id('body', 'cube');
  check(id > 0 && strcmp(mj_id2name('body', id), 'cube'), 'cube %d', id);
  check(mj_name2id('body', 'no such body') == -1, 'an unknown name is not -1');
  check(mj_name2id('joint', 'index_MCP') >= 0, 'index_MCP');
  check(ischar(mj_id2name('body', 0)), 'the world body''s name');
  g = mj_name2id('geom', 'cube');
  mj_set_rgba('geom', g, [1 0 0 0.5]);
  rgba = mj_get_rgba('geom', g);
  check_size(rgba, 'rgba', 4, 1);
  check(isequal(rgba', [1 0 0 0.5]), 'rgba %s', mat2str(rgba'));
  mj_set_rgba('geom', g, [2 -1 0 1]);   % clamped to [0, 1]
  check(isequal(mj_get_rgba('geom', g)', [1 0 0 1]), 'rgba is not clamped');
  % A message shows in the status, and none clears it.
  mj_message('hello from Octave');
  st = hxd_status_get();
  check(strcmp(st.message, 'hello from Octave'), 'message "%s"', st.message);
  mj_message();
  st = hxd_status_get();
  check(isempty(st.message), 'the message was not cleared: "%s"', st.message);
  % An equality constraint off and on.
  info = mj_info();
  check(info.neq > 0, 'the MPL hand has equalities');
  mj_equality(0, 0);
  mj_equality(0, 1);
  % Reset: the reference pose, time 0; colours changed stay (HAPTIX's Reset).
  hxd_pause();
  hxd_step(10);
  mj_reset();
  s = mj_get_state();
  check(s.time == 0, 'time after mj_reset: %g', s.time);
  check(isequal(mj_get_rgba('geom', g)', [1 0 0 1]), 'mj_reset undid a colour');
  mj_step();
  s = mj_get_state();
  check(abs(s.time - info.timestep) < 1e-12, 'mj_step: time %g', s.time);
  mj_reset(-1);
  expect_error(@() mj_reset(info.nkey + 5), 'haptix:BADINDEX');
  hxd_reload();
  hxd_run();
end

function t_errors(ctx)
  connect(ctx);
  s = mj_get_state();
  bad = struct('qpos', zeros(3, 1), 'qvel', zeros(s.nv, 1));
  expect_error(@() mj_set_state(bad), 'haptix:BADSIZE', 'mj_set_state', ...
               sprintf('nq is 3 but the model has nq = %d', s.nq));
  bad = struct('nq', 7, 'qpos', zeros(3, 1), 'qvel', zeros(s.nv, 1));
  expect_error(@() mj_set_state(bad), 'haptix:BADSIZE', 'state.nq is 7');
  expect_error(@() mj_set_state(struct('qpos', s.qpos)), 'haptix:BADVALUE', ...
               'qvel');
  expect_error(@() mj_set_state(struct('qpos', s.qpos, 'qvel', s.qvel, ...
               'qacc', 1)), 'haptix:BADVALUE', 'qacc');
  expect_error(@() mj_set_state(42), 'haptix:BADVALUE', 'struct');
  expect_error(@() hx_update(struct('ref_pos', zeros(12, 1), ...
               'ref_pos_enabled', 1)), 'haptix:BADSIZE', 'ref_pos');
  cmd = struct('ref_pos', zeros(13, 1), 'ref_pos_enabled', 1);
  cmd.ref_pos(2) = NaN;
  expect_error(@() hx_update(cmd), 'haptix:BADVALUE', 'ref_pos');
  expect_error(@() hx_update(struct('ref_pos_enable', 1)), 'haptix:BADVALUE', ...
               'ref_pos_enable');
  expect_error(@() hx_update(struct('gain_pos_enabled', 1)), ...
               'haptix:BADVALUE', 'gain_pos');
  cmd = struct('gain_pos', -ones(13, 1), 'gain_pos_enabled', 1);
  expect_error(@() hx_update(cmd), 'haptix:BADVALUE', 'gain');
  expect_error(@() mj_get_onebody(100000), 'haptix:BADINDEX');
  expect_error(@() mj_get_onebody(1.5), 'haptix:BADVALUE', 'integer');
  expect_error(@() mj_id2name('body', 100000), 'haptix:BADINDEX');
  expect_error(@() mj_name2id('nonsense', 'x'), 'haptix:BADTYPE', 'nonsense');
  expect_error(@() mj_get_rgba('joint', 0), 'haptix:BADTYPE');
  expect_error(@() mj_get_rgba('geom', 100000), 'haptix:BADINDEX');
  expect_error(@() mj_set_rgba('geom', 0, [1 0 0]), 'haptix:BADSIZE', 'rgba');
  expect_error(@() mj_equality(1000, 1), 'haptix:BADINDEX');
  expect_error(@() mj_set_mocap(struct('pos', zeros(2, 3), ...
               'quat', zeros(2, 4))), 'haptix:BADSIZE');
  expect_error(@() mj_set_mocap(struct('pos', zeros(1, 2), ...
               'quat', [1 0 0 0])), 'haptix:BADSIZE', 'columns');
  expect_error(@() hxd_get_array('no_such_array'), 'haptix:BADTYPE');
  expect_error(@() hxd_load_file('broken.xml'), 'haptix:LOADFAILED');
  expect_error(@() hxd_load_file('/etc/passwd'), 'haptix:DENIED');
  expect_error(@() hxd_set_speed('fast'), 'haptix:BADVALUE', 'max');
  check(mj_connected() == 1, 'an error closed the connection');
  st = hxd_status_get();
  check(strcmp(st.model.name, 'MPL table'), 'a failed load changed the model: %s', ...
        st.model.name);
end

function t_lockstep(ctx)
  connect(ctx);
  hxd_pause();
  mj_reset();
  info = mj_info();
  control = mj_get_control();
  control.ctrl(9) = 1.0;    % close the index finger
  times = zeros(100, 1);
  for k = 1:100
    sensor = mj_update(control);
    times(k) = sensor.time;
  end
  check(max(abs(diff(times) - info.timestep)) < 1e-12 && ...
        abs(times(1) - info.timestep) < 1e-12, ...
        'mj_update while paused did not take one step each: %s', ...
        mat2str(times(1:3)'));
  check_size(sensor.sensordata, 'sensordata', 132, 1);
  loop = mj_get_state();
  % The same steps in one batch give the same numbers, bit for bit.
  mj_reset();
  r = hxd_batch_run('ctrl', control.ctrl, 'steps', 100, 'record', ...
                    {'qpos', 'sensordata'}, 'every', 100);
  check(isequal(r.trajectory.qpos(end, :)', loop.qpos), ...
        'the batch ended elsewhere: %g', max(abs(r.trajectory.qpos(end, :)' - ...
        loop.qpos)));
  check(isequal(r.sensordata, sensor.sensordata), 'sensordata differs');
  check(loop.qpos(info.jnt_qposadr(mj_name2id('joint', 'index_MCP') + 1) + 1) ...
        > 0.1, 'the index finger did not move');
  hxd_run();
end

function t_batch(ctx)
  connect(ctx);
  hxd_pause();
  mj_reset();
  info = mj_info();
  r = hxd_batch_run('steps', 50, 'record', 'qpos,qvel,ctrl,mocap,body', ...
                    'every', 10);
  check_fields(r, 'result', {'steps', 'resets', 'time', 'sensordata', ...
                             'trajectory'});
  check(r.steps == 50 && r.resets == 0, 'steps %d resets %d', r.steps, r.resets);
  check(abs(r.time - 50 * info.timestep) < 1e-9, 'time %g', r.time);
  tr = r.trajectory;
  check_fields(tr, 'trajectory', {'time', 'step', 'qpos', 'qvel', 'ctrl', ...
                                  'mocap_pos', 'mocap_quat', 'body_pos', ...
                                  'body_mat'});
  check_size(tr.time, 'time', 5, 1);
  % step counts from the model's load, every 10th of the 50 taken.
  check(isequal(diff(tr.step'), [10 10 10 10]), 'steps %s', mat2str(tr.step'));
  check_size(tr.qpos, 'qpos', 5, info.nq);
  check_size(tr.qvel, 'qvel', 5, info.nv);
  check_size(tr.ctrl, 'ctrl', 5, info.nu);
  check_size(tr.mocap_pos, 'mocap_pos', 5, 3 * info.nmocap);
  check_size(tr.mocap_quat, 'mocap_quat', 5, 4 * info.nmocap);
  check_size(tr.body_pos, 'body_pos', 5, 3 * info.nbody);
  check_size(tr.body_mat, 'body_mat', 5, 9 * info.nbody);
  s = mj_get_state();
  check(isequal(tr.qpos(end, :)', s.qpos), 'the last row is not the state');
  r = hxd_batch_run(struct('until', r.time + 0.1));
  check(abs(r.time - (50 * info.timestep + 0.1)) < info.timestep, ...
        'until: %g', r.time);
  check_fields(r.trajectory, 'trajectory', {'time', 'step'});
  expect_error(@() hxd_batch_run('every', 2), 'haptix:BADVALUE', 'steps');
  expect_error(@() hxd_batch_run('steps', 1, 'record', 'contacts'), ...
               'haptix:BADVALUE', 'contacts');
  expect_error(@() hxd_batch_run('steps', 1, 'ctrl', [1 2]), 'haptix:BADSIZE');
  expect_error(@() hxd_batch_run('steps'), 'haptix:BADVALUE');
  hxd_run();
end

function t_arrays(ctx)
  connect(ctx);
  info = mj_info();
  rgba = hxd_get_array('geom_rgba');
  check_size(rgba, 'geom_rgba', info.ngeom, 4);
  qpos = hxd_get_array('data.qpos');
  check_size(qpos, 'qpos', info.nq, 1);
  g = mj_name2id('geom', 'cube') + 1;
  rgba(g, :) = [0 1 0 1];
  hxd_set_array('geom_rgba', rgba);   % the matrix goes back as it came
  check(isequal(mj_get_rgba('geom', g - 1)', [0 1 0 1]), 'the whole matrix');
  hxd_set_array('geom_rgba', [0 0 1 1], 4 * (g - 1));
  check(isequal(mj_get_rgba('geom', g - 1)', [0 0 1 1]), 'from an offset');
  back = hxd_get_array('geom_rgba');
  check(isequal(back(g, :), [0 0 1 1]) && isequal(back([1:g-1 g+1:end], :), ...
        rgba([1:g-1 g+1:end], :)), 'other rows changed');
  expect_error(@() hxd_set_array('geom_rgba', 1, 4 * info.ngeom), ...
               'haptix:BADSIZE');
  list = hxd_list_arrays();
  check(isstruct(list) && numel(list) > 100, '%d arrays', numel(list));
  check_fields(list, 'list', {'name', 'owner', 'type', 'rows', 'cols', ...
                              'writable', 'refusal'});
  k = find(strcmp({list.name}, 'geom_rgba'));
  check(numel(k) == 1 && list(k).writable == 1 && list(k).rows == info.ngeom ...
        && strcmp(list(k).owner, 'model'), 'geom_rgba in the list');
  refused = find([list.writable] == 0, 1);
  expect_error(@() hxd_set_array(list(refused).name, 0), 'haptix:DENIED', ...
               list(refused).refusal);
  hxd_reload();
end

function t_compute(ctx)
  connect(ctx);
  hxd_pause();
  mj_reset();
  info = mj_info();
  nv = info.nv;
  % The mass matrix: nv x nv, symmetric, positive definite; solve_m
  % inverts it, the vectors in columns (or one row).
  M = hxd_full_m();
  check_size(M, 'M', nv, nv);
  check(isequal(M, M'), 'M is not symmetric');
  check(all(eig(M) > 0), 'M is not positive definite');
  I = eye(nv);
  x = hxd_solve_m(M(:, 1:3));
  check_size(x, 'x', nv, 3);
  check(norm(x - I(:, 1:3)) < 1e-9, 'solve_m(M(:, 1:3)): %g', norm(x - I(:, 1:3)));
  x = hxd_solve_m(M(2, :));
  check_size(x, 'x of a row', 1, nv);
  check(norm(x - I(2, :)) < 1e-9, 'solve_m(M(2, :))');
  % rne without acc is mj_forward's qfrc_bias, bit for bit; with acc
  % and a given qacc, M qacc + bias, M without the dofs' armature (which
  % mj_fullM's has and mj_rne's Newton-Euler does not).
  bias = hxd_forward_array('qfrc_bias');
  check_size(bias, 'qfrc_bias', nv, 1);
  check(isequal(hxd_rne(0), bias), 'rne(0) is not qfrc_bias');
  st = mj_get_state();
  st.qvel = 0.1 * sin(1:nv)';
  st.qacc = 0.2 * cos(1:nv)';
  Ms = hxd_full_m(st);
  f = hxd_rne(1, st);
  check_size(f, 'rne', nv, 1);
  armature = hxd_get_array('dof_armature');
  want = (Ms - diag(armature)) * st.qacc + hxd_rne(0, st);
  check(norm(f - want) < 1e-9, 'rne(1) is not M qacc + bias: %g', norm(f - want));
  check_size(hxd_inverse(st), 'qfrc_inverse', nv, 1);
  % A site's Jacobians times qvel are its velocity, by name or id.
  [jacp, jacr] = hxd_jac_site('palm_thumb', st);
  check_size(jacp, 'jacp', 3, nv);
  check_size(jacr, 'jacr', 3, nv);
  v = hxd_object_velocity('site', 'palm_thumb', st);
  check_size(v, 'velocity', 6, 1);
  check(norm(v - [jacr * st.qvel; jacp * st.qvel]) < 1e-12, ...
        'jac_site * qvel is not the site''s velocity: %g', ...
        norm(v - [jacr * st.qvel; jacp * st.qvel]));
  check(norm(v) > 0, 'the site does not move');
  [jp, jr] = hxd_jac_site(mj_name2id('site', 'palm_thumb'), st);
  check(isequal(jp, jacp) && isequal(jr, jacr), 'by id: another Jacobian');
  vl = hxd_object_velocity('site', 'palm_thumb', 1, st);
  check(abs(norm(vl(4:6)) - norm(v(4:6))) < 1e-12, 'local axes change the speed');
  % The other Jacobians: 3 x nv each.
  [jp, jr] = hxd_jac('index_distal', [0.1 0 1]);
  check_size(jp, 'jac jacp', 3, nv);
  check_size(jr, 'jac jacr', 3, nv);
  [jp, jr] = hxd_jac_body('index_distal');
  check_size(jp, 'jac_body', 3, nv);
  [jp, jr] = hxd_jac_body_com('index_distal');
  check_size(jr, 'jac_body_com', 3, nv);
  [jp, jr] = hxd_jac_geom('cube');
  check_size(jp, 'jac_geom', 3, nv);
  % The kinetic energy is qvel' M qvel / 2.
  e = hxd_energy(st);
  check_size(e, 'energy', 2, 1);
  check(abs(e(2) - st.qvel' * Ms * st.qvel / 2) < 1e-9, 'kinetic %g', e(2));
  % Computing on a state leaves the simulation alone.
  before = mj_get_state();
  xpos = hxd_forward_array('xpos', st);
  check_size(xpos, 'xpos', info.nbody, 3);
  after = mj_get_state();
  check(isequal(after.qpos, before.qpos) && isequal(after.qvel, before.qvel) ...
        && after.time == before.time, 'the state changed');
  % Rays: straight down onto the table's top, at 0.765 m.
  [d, g] = hxd_ray([0.3 0.4 1.2], [0 0 -1]);
  check(abs(d - 0.435) < 1e-9 && strcmp(mj_id2name('geom', g), 'table_top'), ...
        'the ray down hit %d at %g', g, d);
  [d, g] = hxd_ray([0.3 0.4 1.2; 0.3 0.4 2.2], [0 0 -1]);
  check_size(d, 'dist', 2, 1);
  check_size(g, 'geomid', 2, 1);
  check(abs(d(2) - 1.435) < 1e-9 && g(2) == g(1), 'two rays: %s', mat2str([d g]));
  [d, g] = hxd_ray([0.3 0.4 1.2], [0 0 1]);
  check(d == -1 && g == -1, 'up, it hit %d', g);
  [d, g] = hxd_ray([0.3 0.4 1.2], [0 0 -1], struct('exclude_body', 'table'));
  check(strcmp(mj_id2name('geom', g), 'floor') && abs(d - 1.2) < 1e-9, ...
        'without the table it hit %d', g);
  % The objects settle on the table: the cube's weight on its contacts,
  % and it reads +g, as an accelerometer would.
  hxd_step(500);
  c = hxd_contact_forces();
  check(isstruct(c) && size(c, 2) == 1 && numel(c) > 0, 'no contacts');
  check_fields(c, 'contacts', {'geom1', 'geom2', 'body1', 'body2', 'geom1_id', ...
    'geom2_id', 'body1_id', 'body2_id', 'force', 'dist', 'pos', 'frame'});
  check_size(c(1).force, 'force', 6, 1);
  check_size(c(1).frame, 'frame', 3, 3);
  on = arrayfun(@(k) strcmp(sort({k.body1, k.body2}), {'cube', 'table'}), ...
                c, 'UniformOutput', false);
  on = cellfun(@all, on);
  w = sum(arrayfun(@(k) k.force(1), c(on)));
  mass = hxd_get_array('body_mass')(mj_name2id('body', 'cube') + 1);
  check(abs(w - 9.81 * mass) < 0.02 * 9.81 * mass, 'the cube weighs %g N', w);
  last = hxd_contact_forces('last_step');
  check(numel(last) == numel(c), '%d contacts, %d the last step', numel(last), numel(c));
  a = hxd_object_acceleration('body', 'cube');
  check_size(a, 'acceleration', 6, 1);
  check(abs(a(6) - 9.81) < 0.1, 'the resting cube reads %g', a(6));
  % differentiate_pos undoes integrate_pos.
  s = mj_get_state();
  q = hxd_integrate_pos(s.qpos, 0.3 * ones(nv, 1), 0.1);
  check_size(q, 'qpos', info.nq, 1);
  back = hxd_differentiate_pos(s.qpos, q, 0.1);
  check_size(back, 'qvel', nv, 1);
  check(norm(back - 0.3) < 1e-9, 'differentiate(integrate) %g', norm(back - 0.3));
  % Refusals, named.
  expect_error(@() hxd_jac_site('nosuch'), 'haptix:BADINDEX', 'nosuch');
  expect_error(@() hxd_full_m(struct('qpos', [1 2])), 'haptix:BADSIZE', 'qpos');
  expect_error(@() hxd_full_m(struct('bogus', 1)), 'haptix:BADVALUE', 'bogus');
  expect_error(@() hxd_full_m(struct('qvel', 1:nv, 'qacc', 1:3)), ...
               'haptix:BADSIZE', 'qacc');
  expect_error(@() hxd_object_velocity('joint', 'x'), 'haptix:BADTYPE');
  expect_error(@() hxd_contact_forces('now'), 'haptix:BADVALUE', 'last_step');
  expect_error(@() hxd_differentiate_pos(s.qpos, s.qpos, 0), 'haptix:BADVALUE', 'dt');
  expect_error(@() hxd_forward_array('nosuch'), 'haptix:BADTYPE', 'nosuch');
  expect_error(@() hxd_ray([0 0 1; 0 0 2], [0 0 -1; 0 0 -1; 0 0 1]), ...
               'haptix:BADSIZE', 'pnt');
  mj_reset();
end

function t_admin(ctx)
  connect(ctx);
  hxd_pause();
  st = hxd_status_get();
  check(st.paused == 1, 'not paused');
  check_fields(st, 'status', {'model', 'time', 'steps', 'paused', 'speed', ...
    'speed_max', 'realtime_factor', 'cpu_per_step', 'ncon', 'clients', ...
    'message', 'instability_resets', 'sim_errors', 'overruns'});
  taken = hxd_step(25);
  st2 = hxd_status_get();
  check(taken == 25 && st2.steps == st.steps + 25, 'hxd_step took %d', taken);
  hxd_set_speed(2);
  check(hxd_status_get().speed == 2, 'speed 2');
  hxd_set_speed('max');
  check(hxd_status_get().speed_max == 1, 'speed max');
  hxd_set_speed(1);
  hxd_run();
  check(hxd_status_get().paused == 0, 'not running');
  model = hxd_load_file('mpl_hand.xml');
  check(model.nu == 13 && model.nmocap == 1 && strcmp(model.name, 'MPL'), ...
        'mpl_hand: %s nu %d', model.name, model.nu);
  info = hx_robot_info();
  check(info.motor_count == 13, 'robot after a load');
  model = hxd_load_file('mpl_scene.xml');
  check(strcmp(model.name, 'MPL table'), 'back to %s', model.name);
  check(mj_name2id('body', 'cube') > 0, 'the scene again');
  model = hxd_reload();
  check(strcmp(model.name, 'MPL table'), 'reload: %s', model.name);
  hxd_set_timeout(5);
  check(mj_connected() == 1, 'hxd_set_timeout');
end

function t_sweep(ctx)
  r = sweep(ctx.server, [0 0.8 1.6], 300);
  check(~mislocked('mjhx') && mj_connected() == 0, 'sweep left a connection');
  check_size(r.final, 'final', 3, 1);
  check_size(r.qpos, 'qpos', 30, 3);
  check(r.final(1) < 0.1 && r.final(2) > r.final(1) + 0.3 && ...
        r.final(3) > r.final(2) + 0.3, 'the index MCP did not follow: %s', ...
        mat2str(r.final', 3));
  again = sweep(ctx.server, [0 0.8 1.6], 300);
  check(isequal(again.qpos, r.qpos), 'the same sweep gave other numbers');
  hx_connect(ctx.server);
  hxd_run();
  hx_close();
end

function t_grasp(ctx)
  connect(ctx);
  hxd_load_file('mpl_scene.xml');
  hxd_run();
  move_hand(0.825);   % the palm onto the cube: a touch starts the reflex
  pause(0.3);
  z_rest = cube_z();
  hx_close();
  events = grasp(ctx.server, 3.5);
  check(~isempty(events) && strcmp(events(1).what, 'close'), ...
        'grasp did not close the hand');
  check(events(1).time < 3, 'closed at %g s', events(1).time);
  connect(ctx);
  sensor = hx_read_sensors();
  check(sensor.contact(7) > 0.5, 'thumb_distal %g', sensor.contact(7));
  move_hand(0.925);   % and lift
  pause(0.5);
  check(cube_z() - z_rest > 0.05, 'the cube rose %g m', cube_z() - z_rest);
end

function t_lost(ctx)
  hx_connect(ctx.lost);
  st = mj_get_state();
  check(st.nq > 0, 'daemon B');
  % A server that stops answering: the call times out, and the
  % connection stays (its late answer is dropped).
  hxd_set_timeout(1);
  kill(ctx.lost_pid, 19);   % SIGSTOP
  t0 = tic();
  expect_error(@mj_get_state, 'haptix:TIMEOUT', 'within 1000 ms');
  check(toc(t0) < 30, 'the timeout took %g s', toc(t0));
  kill(ctx.lost_pid, 18);   % SIGCONT
  check(mislocked('mjhx') && mj_connected() == 1, 'a timeout closed it');
  st = mj_get_state();
  check(st.nq > 0, 'the call after the timeout');
  hx_close();
  % A server that dies: the next call fails at once.
  hx_connect(ctx.lost);
  check(mislocked('mjhx'), 'not locked');
  kill(ctx.lost_pid, 9);
  pause(0.2);
  t0 = tic();
  try
    mj_get_state();
    error('test:failed', 'a call to a killed server succeeded');
  catch err
    check(any(strcmp(err.identifier, {'haptix:CANNOTRECV', ...
          'haptix:CANNOTSEND', 'haptix:NOCONNECTION'})), '%s: %s', ...
          err.identifier, err.message);
  end
  check(toc(t0) < 5, 'the failed call took %g s', toc(t0));
  check(~mislocked('mjhx') && mj_connected() == 0, 'still connected');
  expect_error(@hx_robot_info, 'haptix:NOCONNECTION', 'hx_connect');
  expect_error(@() hx_connect(ctx.lost), 'haptix:NOCONNECTION');
  check(~mislocked('mjhx'), 'locked after a failed connect');
end

function t_short_names(ctx)
  % 1.50's connect takes the host alone.
  mjhx('connect', ctx.server);
  check(mjhx('connected') == 1 && mislocked('mjhx'), 'connect');
  mjhx('hxd_pause');
  % Every getter is its C name's call, struct for struct.
  for g = {'get_state', 'get_control', 'get_applied', 'get_mocap', ...
           'get_dynamics', 'get_sensor', 'get_body', 'get_geom', ...
           'get_site', 'get_tendon', 'get_actuator', 'get_force', ...
           'get_contact', 'info'}
    long = ['mj_' g{1}];
    check(isequal(mjhx(g{1}), mjhx(long)), '%s differs from %s', g{1}, long);
  end
  check(isequal(mjhx('get_onebody', 1), mjhx('mj_get_onebody', 1)), 'get_onebody');
  % The values are the server's, as hxctl reads them.
  st = mjhx('get_state');
  check(isequal(st.qpos, hxctl_array(ctx, 'qpos')), 'get_state''s qpos');
  id = mjhx('name2id', 'body', 'cube');
  check(id == hxctl_json(ctx, 'name2id body cube').id, 'name2id %d', id);
  check(strcmp(mjhx('id2name', 'body', id), 'cube'), 'id2name');
  % The set calls take 1.50's structs: what the getters gave, changed.
  info = mjhx('info');
  c = mjhx('get_control');
  c.ctrl = linspace(-0.1, 0.1, info.nu)';
  mjhx('set_control', c);
  check(max(abs(hxctl_array(ctx, 'ctrl') - c.ctrl)) == 0, 'set_control');
  st.qvel(:) = 0.25;
  mjhx('set_state', st);
  check(all(hxctl_array(ctx, 'qvel') == 0.25), 'set_state');
  m = mjhx('get_mocap');
  m.pos(1, 3) = m.pos(1, 3) + 0.01;
  mjhx('set_mocap', m);
  check(isequal(mjhx('get_mocap').pos, m.pos), 'set_mocap');
  a = mjhx('get_applied');
  a.qfrc_applied(1) = 0.5;
  mjhx('set_applied', a);
  check(mjhx('get_applied').qfrc_applied(1) == 0.5, 'set_applied');
  a.qfrc_applied(1) = 0;
  mjhx('set_applied', a);
  b = mjhx('get_onebody', id);
  b.pos(3) = b.pos(3) + 0.05;
  mjhx('set_onebody', b);
  check(abs(mjhx('get_onebody', id).pos(3) - b.pos(3)) < 1e-9, 'set_onebody');
  % get_rgba answers a row, as 1.50's MEX file did; mj_get_rgba a column.
  g = mjhx('name2id', 'geom', 'cube');
  mjhx('set_rgba', 'geom', g, [0 1 0 1]);
  check_size(mjhx('get_rgba', 'geom', g), 'get_rgba', 1, 4);
  check(isequal(mjhx('get_rgba', 'geom', g), mjhx('mj_get_rgba', 'geom', g)'), 'rgba');
  mjhx('set_geomsize', g, [0.03 0.03 0.03]);
  % step, update and reset move time as the server says.
  t0 = mjhx('get_state').time;
  mjhx('step');
  check(abs(mjhx('get_state').time - t0 - info.timestep) < 1e-12, 'step');
  sensor = mjhx('update', c);
  check_fields(sensor, 'update''s sensor', {'nsensordata', 'time', 'sensordata'});
  check(abs(sensor.time - t0 - 2 * info.timestep) < 1e-12, 'update: %g', sensor.time);
  check(hxctl_array(ctx, 'time') == sensor.time, 'the server''s time');
  mjhx('equality', 0, 0);
  check(hxctl_array(ctx, 'eq_active')(1) == 0, 'equality off');
  mjhx('equality', 0, 1);
  check(hxctl_array(ctx, 'eq_active')(1) == 1, 'equality on');
  mjhx('message', 'from HAPTIX 1.50');
  check(strcmp(mjhx('hxd_status_get').message, 'from HAPTIX 1.50'), 'message');
  mjhx('message');
  check(isempty(mjhx('hxd_status_get').message), 'message cleared');
  mjhx('reset');
  check(mjhx('get_state').time == 0, 'reset');
  mjhx('reset', -1);
  expect_error(@() mjhx('reset', info.nkey + 3), 'haptix:BADINDEX');
  mjhx('hxd_reload');
  mjhx('hxd_run');
  mjhx('close');
  check(mjhx('connected') == 0 && ~mislocked('mjhx'), 'close');
end

function t_readlog_hxr(ctx)
  connect(ctx);
  name = record_a(ctx);
  % A bare name is found in the state directory, as hxplay finds it.
  old = getenv('STATE_DIRECTORY');
  setenv('STATE_DIRECTORY', ctx.statedir);
  d = readlog(name);
  setenv('STATE_DIRECTORY', old);
  info = mj_info();
  check(strcmp(d.format, 'hxr') && d.truncated == 0, 'format %s', d.format);
  check(d.nq == info.nq && d.nv == info.nv && d.nu == info.nu && ...
        d.nmocap == info.nmocap && d.nsensordata == info.nsensordata, 'sizes');
  n = numel(d.time);
  check(n == 130, '%d records, not 130', n);
  check_size(d.time, 'time', 1, n);
  check_size(d.qpos, 'qpos', info.nq, n);
  check_size(d.mocap_quat, 'mocap_quat', 4 * info.nmocap, n);
  check_size(d.act, 'act (not recorded)', 0, n);
  % The reset is a trial boundary: time goes back, a second segment.
  check(isequal(unique(d.segment), [1 2]) && sum(d.segment == 2) == 30, 'segments');
  check(any(diff(d.time) < 0), 'the time never goes back');
  % The same numbers as hxplay's export, to the last bit.
  dir = fullfile(ctx.statedir, 'export_hxr');
  hxplay(ctx, sprintf('export %s --csv %s --force', fullfile(ctx.statedir, name), dir));
  x = dlmread(fullfile(dir, 'time.csv'), ',', 1, 0);
  check(isequal(x(:, 2)', d.time) && isequal(x(:, 1)', d.step), 'time and step');
  for f = {'qpos', 'qvel', 'ctrl', 'mocap_pos', 'mocap_quat', 'sensordata'}
    check(isequal(exported(dir, f{1}), d.(f{1})), '%s differs from the export', f{1});
  end
  expect_error(@() readlog(fullfile(ctx.statedir, 'no_such.hxr')), ...
               'haptix:BADVALUE', 'no_such.hxr');
  hxd_run();
end

function t_readlog_mjl(ctx)
  % Written here as the manual describes it: nq nv nu nmocap nsensordata
  % and the name's length as int32, the name, then float records of time,
  % qpos, qvel, ctrl, mocap_pos, mocap_quat, sensordata.
  nq = 4; nv = 3; nu = 2; nmocap = 1; ns = 2; n = 12;
  rec = 1 + nq + nv + nu + 7 * nmocap + ns;
  vals = single(reshape(sin(1:rec * n), rec, n));
  vals(1, :) = single([0:7 0:3] * 0.01);   % a reset after 8 records
  file = fullfile(ctx.statedir, 'MuJoCoModel_1.mjl');
  fid = fopen(file, 'w');
  fwrite(fid, [nq nv nu nmocap ns numel('MuJoCo Model')], 'int32', 0, 'l');
  fwrite(fid, 'MuJoCo Model', 'char');
  fwrite(fid, vals, 'single', 0, 'l');
  fclose(fid);
  d = readlog(file);
  check(strcmp(d.format, 'mjl') && strcmp(d.name, 'MuJoCo Model'), 'header');
  check(d.nq == nq && d.nv == nv && d.nu == nu && d.nmocap == nmocap && ...
        d.nsensordata == ns && d.na == 0, 'sizes');
  rows = {'time', 1; 'qpos', nq; 'qvel', nv; 'ctrl', nu; 'mocap_pos', 3 * nmocap; ...
          'mocap_quat', 4 * nmocap; 'sensordata', ns};
  at = 0;
  for i = 1:size(rows, 1)
    want = double(vals(at + (1:rows{i, 2}), :));
    check(isequal(d.(rows{i, 1}), want), '%s is not what was written', rows{i, 1});
    at = at + rows{i, 2};
  end
  check(isequal(d.segment, [ones(1, 8) 2 * ones(1, 4)]), 'segments %s', mat2str(d.segment));
  check(isequal(d.step, 0:n - 1), 'steps');
  % hxplay reads it too, and exports the same numbers.
  out = hxplay(ctx, ['info ' file]);
  check(~isempty(strfind(out, 'records: 12')) && ...
        ~isempty(strfind(out, 'format: mjl')) && ...
        ~isempty(strfind(out, 'segments: 2')), 'hxplay info: %s', out);
  dir = fullfile(ctx.statedir, 'export_mjl');
  hxplay(ctx, sprintf('export %s --csv %s --force', file, dir));
  check(isequal(exported(dir, 'qpos'), d.qpos), 'hxplay export''s qpos');
  % Cut inside a record: what came before is read, and it says so.
  fid = fopen(file, 'a');
  fwrite(fid, [1 2 3], 'uint8');
  fclose(fid);
  d2 = readlog(file);
  check(d2.truncated == 1 && isequal(d2.qpos, d.qpos), 'cut short');
  % Not a log: said, naming the file.
  fid = fopen(file, 'w');
  fwrite(fid, [-1 0 0 0 0 0], 'int32', 0, 'l');
  fclose(fid);
  expect_error(@() readlog(file), 'haptix:BADVALUE', 'MuJoCoModel_1.mjl', 'nq is -1');
end

function t_playlog_frames(ctx)
  connect(ctx);
  d = readlog(fullfile(ctx.statedir, record_a(ctx)));
  hxd_run();
  % Frames in a chosen order, without waiting: the server ends paused
  % in the last one sent, its time included.
  out = evalc('playlog(d, ''frames'', [5 90 120], ''speed'', Inf)');
  check(~isempty(strfind(out, 'pausing')), 'playlog did not say it paused: %s', out);
  check(hxd_status_get().paused, 'the server is not paused');
  st = mj_get_state();
  check(same_qpos(st.qpos, d.qpos(:, 120)) && isequal(st.qvel, d.qvel(:, 120)), 'state');
  check(st.time == d.time(120), 'time %g, recorded %g', st.time, d.time(120));
  check(isequal(mj_get_control().ctrl, d.ctrl(:, 120)), 'ctrl');
  m = mj_get_mocap();
  check(isequal(reshape(m.pos', [], 1), d.mocap_pos(:, 120)), 'mocap');
  % At the recorded pace: 20 records 5 steps apart take 100 steps' time.
  info = mj_info();
  t0 = tic();
  playlog(d, 'frames', 1:20, 'speed', 1);
  took = toc(t0);
  want = d.time(20) - d.time(1);
  check(took > 0.5 * want && took < want + 20, 'paced: %g s for %g s', took, want);
  % Wrong input is refused, saying what is wrong.
  bad = d;
  bad.nq = bad.nq + 1;
  expect_error(@() playlog(bad, 'frames', 1), 'haptix:BADSIZE', 'load the recorded model');
  expect_error(@() playlog(d, 'frames', numel(d.time) + 1), 'haptix:BADINDEX');
  expect_error(@() playlog(d, 'speed', 0), 'haptix:BADVALUE');
  expect_error(@() playlog(struct('x', 1)), 'haptix:BADVALUE', 'readlog');
  mj_close();
  expect_error(@() playlog(d, 'frames', 1), 'haptix:NOCONNECTION');
  connect(ctx);
  hxd_run();
end

function t_playlog_figure(ctx)
  if isempty(available_graphics_toolkits())
    error('test:failed', ['Octave has no graphics toolkit: install gnuplot-nox ' ...
          'and fonts-freefont-otf (./quickstart check does)']);
  end
  connect(ctx);
  d = readlog(fullfile(ctx.statedir, record_a(ctx)));
  % gnuplot's toolkit, headless here: its warning that it is not Qt's.
  warning('off', 'Octave:gnuplot-graphics');
  set(0, 'defaultfigurevisible', 'off');
  f = playlog(d);
  cleanup = onCleanup(@() close(f));
  slider = findobj(f, 'tag', 'playlog_slider');
  play = findobj(f, 'tag', 'playlog_play');
  speed = findobj(f, 'tag', 'playlog_speed');
  label = findobj(f, 'tag', 'playlog_label');
  check(~isempty(slider) && ~isempty(play) && ~isempty(speed) && ~isempty(label), ...
        'the figure lacks its controls');
  check(get(slider, 'max') == numel(d.time), 'the slider''s range');
  % Frame 1 shows at once; the slider chooses another.
  st = mj_get_state();
  check(same_qpos(st.qpos, d.qpos(:, 1)), 'frame 1 not shown: qpos off by %g', ...
        max(abs(st.qpos - d.qpos(:, 1))));
  set(slider, 'value', 57);
  cb = get(slider, 'callback');
  cb(slider, []);
  check(same_qpos(mj_get_state().qpos, d.qpos(:, 57)), 'the slider''s frame 57');
  check(~isempty(strfind(get(label, 'string'), 'frame 57 of 130')), ...
        'label "%s"', get(label, 'string'));
  % Play at full speed: on to the last frame, then the button is up.
  set(speed, 'value', numel(get(speed, 'string')));
  set(play, 'value', 1);
  cb = get(play, 'callback');
  cb(play, []);
  check(same_qpos(mj_get_state().qpos, d.qpos(:, end)), 'Play did not reach the end');
  check(get(play, 'value') == 0 && strcmp(get(play, 'string'), 'Play'), 'the button');
  check(~isempty(strfind(get(label, 'string'), 'trial 2')), 'the last frame''s trial');
  hxd_run();
end
