function failed = gazebo_tests(ctx)
% GAZEBO_TESTS  Gazebo HAPTIX's MATLAB API through a real haptixd (tests/octave.sh).
%
%  failed = gazebo_tests(ctx) runs every test and prints 'ok: NAME' or
%  'FAIL: NAME: why' for each, then 'N passed, N failed'.  ctx has
%  server (the daemon's Unix socket, on models/test/gazebo_world.xml),
%  tcp (its TCP address), hxctl (hxctl's path, for the C library's view
%  of the world) and gzdir (where hxgz and the wrappers are).  The calls
%  go through the wrappers, as Gazebo's programs make them, or straight
%  to hxgz with the arguments Gazebo's own wrappers pass.

  tests = {
    'the wrappers are every call, each with help', @t_wrappers
    'hxgz with no arguments prints its help; bad commands', @t_hxgz_help
    'first use connects; connecting locks hxgz and hx_close unlocks it', @t_lock
    'hx_connect over Unix and TCP, host and port', @t_connect
    'hx_robot_info and hx_read_sensors on the test world', @t_robot
    'hx_update takes Gazebo''s command, rows or columns', @t_update
    'hxs_sim_info: models n x 1, their links and joints', @t_sim_info
    'the camera transform set and read back', @t_camera
    'model transforms set and read back, the arm with its mocap body', @t_transform
    'colours set and read back', @t_color
    'collide modes set and read back', @t_collide
    'gravity modes set and read back', @t_gravity
    'a joint state set and read back', @t_joint
    'velocities set and read back', @t_velocity
    'the cube''s contacts on the table', @t_contacts
    'forces, torques and wrenches', @t_forces
    'Gazebo''s cricket ball added and removed', @t_add_remove
    'Gazebo''s revolute constraint added and removed', @t_revolute
    'logging started, read and stopped', @t_logging
    'hxs_reset puts the cube back', @t_reset
    'the MEX takes the calls of Gazebo''s own wrappers', @t_osrf_calls
    'errors name the call, the argument and the code', @t_errors
    'the hxs_tour example', @t_tour
  };
  setenv('HAPTIX_SERVER', ctx.server);
  % Each test starts on the world as loaded, running, and connects on
  % first use.
  failed = run_tests(tests, ctx, @after_each);
end

function after_each(ctx)
  hx_close();
  hxctl(ctx, 'reset --run');
end

%------------------------------------------------------------------ helpers

% Fail unless a and b (any shapes) agree to tol, element by element.
function check_near(a, b, tol, what)
  check(numel(a) == numel(b) && all(abs(a(:) - b(:)) <= tol), ...
        '%s: [%s] is not [%s]', what, num2str(a(:)'), num2str(b(:)'));
end

% Let seconds of simulated time pass, from the sensors' time stamps.
function wait_sim(seconds)
  s = hx_read_sensors();
  t0 = s.time_stamp;
  for i = 1:2000
    s = hx_read_sensors();
    if s.time_stamp - t0 >= seconds
      return;
    end
    pause(0.005);
  end
  error('test:failed', 'the simulation did not advance %g s', seconds);
end

% The names of the world's models, from hxs_sim_info.
function names = model_names()
  info = hxs_sim_info();
  names = cell(1, numel(info.models));
  for i = 1:numel(info.models)
    names{i} = info.models(i).model.name;
  end
end

% The equalities' names, from hxctl info.
function names = equalities(ctx)
  info = hxctl_json(ctx, 'info');
  names = {};
  if ~isempty(info.equalities)
    names = {info.equalities.name};
  end
end

% The revolute constraint of Gazebo's hxs_example.m.
function sdf = example_constraint()
  sdf = ['<sdf version="1.5"><joint name="test_constraint" ' ...
         'type="revolute"><parent>table::link</parent><child>' ...
         'wood_cube_5cm::link</child><axis><xyz>0 1 0</xyz></axis>' ...
         '</joint></sdf>'];
end

% The cricket ball of Gazebo's hxs_example.m (OSRF's gazebo_models), green.
function sdf = cricket_ball()
  sdf = ['<sdf version="1.5"> <model name="cricket_ball"> <link name="link">' ...
         ' <pose>0 0 0.0375 0 0 0</pose> <inertial> <mass>0.1467</mass>' ...
         ' <inertia> <ixx>8.251875e-05</ixx> <ixy>0</ixy> <ixz>0</ixz>' ...
         ' <iyy>8.251875e-05</iyy> <iyz>0</iyz> <izz>8.251875e-05</izz>' ...
         ' </inertia> </inertial> <collision name="collision"> <geometry>' ...
         ' <sphere> <radius>0.0375</radius> </sphere> </geometry>' ...
         ' </collision> <visual name="visual"> <geometry> <sphere>' ...
         ' <radius>0.0375</radius> </sphere> </geometry> <material>' ...
         ' <script> <uri>file://media/materials/scripts/gazebo.material' ...
         '</uri> <name>Gazebo/Green</name> </script> </material> </visual>' ...
         ' </link> </model> </sdf>'];
end

%-------------------------------------------------------------------- tests

function t_wrappers(ctx)
  % Gazebo's five simple calls and its World API's 29; a new wrapper
  % must be added here, and to the tests that call it.
  want = sort({'hx_connect', 'hx_close', 'hx_robot_info', 'hx_update', ...
    'hx_read_sensors', 'hxs_sim_info', 'hxs_camera_transform', ...
    'hxs_set_camera_transform', 'hxs_contacts', 'hxs_model_joint_state', ...
    'hxs_set_model_joint_state', 'hxs_add_model', 'hxs_remove_model', ...
    'hxs_model_transform', 'hxs_set_model_transform', ...
    'hxs_model_gravity_mode', 'hxs_set_model_gravity_mode', ...
    'hxs_linear_velocity', 'hxs_set_linear_velocity', ...
    'hxs_angular_velocity', 'hxs_set_angular_velocity', 'hxs_apply_force', ...
    'hxs_apply_torque', 'hxs_apply_wrench', 'hxs_reset', ...
    'hxs_start_logging', 'hxs_is_logging', 'hxs_stop_logging', ...
    'hxs_set_model_color', 'hxs_model_color', 'hxs_set_model_collide_mode', ...
    'hxs_model_collide_mode', 'hxs_add_constraint', 'hxs_remove_constraint'});
  files = dir(fullfile(ctx.gzdir, '*.m'));
  got = sort(regexprep({files.name}, '\.m$', ''));
  check(isequal(got, want), 'the wrappers beside hxgz: %s', strjoin(got, ' '));
  check(exist('hxgz') == 3, 'hxgz is not a MEX file here');
  for k = 1:numel(want)
    check(strcmp(fileparts(which(want{k})), ctx.gzdir), ...
          '%s is not the one in %s: %s', want{k}, ctx.gzdir, which(want{k}));
    h = help(want{k});
    check(numel(h) > 100 && ~isempty(strfind(h, upper(want{k}))), ...
          '%s has no help text', want{k});
  end
end

function t_hxgz_help(ctx)
  out = evalc('hxgz');
  for name = {'connect', 'robot_info', 'update', 'read_sensors', 'close', ...
              'sim_info', 'camera_transform', 'set_camera_transform', ...
              'contacts', 'model_joint_state', 'set_model_joint_state', ...
              'add_model', 'remove_model', 'model_transform', ...
              'set_model_transform', 'model_gravity_mode', ...
              'set_model_gravity_mode', 'linear_velocity', ...
              'set_linear_velocity', 'angular_velocity', ...
              'set_angular_velocity', 'apply_force', 'apply_torque', ...
              'apply_wrench', 'reset', 'start_logging', 'is_logging', ...
              'stop_logging', 'set_model_color', 'model_color', ...
              'set_model_collide_mode', 'model_collide_mode', ...
              'add_constraint', 'remove_constraint', 'HAPTIX:'}
    check(~isempty(strfind(out, name{1})), 'hxgz''s help lacks %s', name{1});
  end
  expect_error(@() hxgz('no_such_call'), 'HAPTIX:hxgz', 'mjCOM_BADCOMMAND', ...
               'no_such_call');
  expect_error(@() hxgz(42), 'HAPTIX:hxgz', 'command name');
  expect_error(@() hxgz('model_color'), 'HAPTIX:hxgz', ...
               'model_color takes 1 to 1 arguments, not 0');
  expect_error(@() hxgz('is_logging', 1), 'HAPTIX:hxgz', 'not 1');
end

function t_lock(ctx)
  hx_close();
  check(~mislocked('hxgz'), 'hxgz is locked while closed');
  % Gazebo's calls connect on first use, here to $HAPTIX_SERVER.
  t = hxs_model_transform('table');
  check_size(t.pos, 'the table''s pos', 3, 1);
  check(mislocked('hxgz'), 'hxgz is not locked after a call connected');
  before = hxctl_json(ctx, 'status');
  % The lock is what keeps the MEX file, and so the connection, through
  % a clear.
  clear hxgz;
  t = hxs_model_transform('table');
  after = hxctl_json(ctx, 'status');
  check(after.clients == before.clients, ...
        'clear hxgz made a new connection: %d clients, then %d', ...
        before.clients, after.clients);
  expect_error(@() hx_connect(ctx.server), 'HAPTIX:hx_connect', ...
               'mjCOM_CONNECTED', 'already connected');
  hx_close();
  check(~mislocked('hxgz'), 'hxgz is still locked after hx_close');
  hx_close();   % closing twice is no error
  % A failed connect leaves it unlocked.
  expect_error(@() hx_connect('unix:/nonexistent/haptixd.sock'), ...
               'HAPTIX:hx_connect', 'mjCOM_NOCONNECTION');
  check(~mislocked('hxgz'), 'a failed hx_connect locked hxgz');
end

function t_connect(ctx)
  hx_connect(ctx.server);
  check(mislocked('hxgz'), 'hxgz is not locked after hx_connect');
  hx_close();
  hx_connect(ctx.tcp);
  info = hxs_sim_info();
  check(numel(info.models) == 4, 'over TCP: %d models', numel(info.models));
  hx_close();
  colon = find(ctx.tcp == ':', 1, 'last');
  hx_connect(ctx.tcp(1:colon - 1), str2double(ctx.tcp(colon + 1:end)));
  hx_robot_info();
  hx_close();
  % With nothing, as Gazebo's wrapper calls it: the default server.
  hx_connect();
  hx_robot_info();
  hx_close();
end

function t_robot(ctx)
  info = hx_robot_info();
  check_fields(info, 'info', {'motor_count', 'joint_count', ...
    'contact_sensor_count', 'imu_count', 'motor_limit', 'joint_limit', ...
    'update_rate'});
  check(info.motor_count == 2 && info.joint_count == 2 && ...
        info.contact_sensor_count == 1 && info.imu_count == 1 && ...
        info.update_rate == 50, 'the arm: %d %d %d %d %g', info.motor_count, ...
        info.joint_count, info.contact_sensor_count, info.imu_count, ...
        info.update_rate);
  check_near(info.motor_limit, [-1.5 1.5; 0 1.5], 1e-6, 'motor_limit');
  check_size(info.joint_limit, 'joint_limit', 2, 2);
  wait_sim(0.5);   % the arm settles on its weld after the reset
  s = hx_read_sensors();
  check_fields(s, 'sensor', {'time_stamp', 'motor_pos', 'motor_vel', ...
    'motor_torque', 'joint_pos', 'joint_vel', 'contact', 'imu_linear_acc', ...
    'imu_angular_vel', 'imu_orientation'});
  check_size(s.motor_pos, 'motor_pos', 2, 1);
  check_size(s.motor_torque, 'motor_torque', 2, 1);
  check_size(s.joint_vel, 'joint_vel', 2, 1);
  check_size(s.contact, 'contact', 1, 1);
  check_size(s.imu_linear_acc, 'imu_linear_acc', 1, 3);
  check_size(s.imu_angular_vel, 'imu_angular_vel', 1, 3);
  check_size(s.imu_orientation, 'imu_orientation', 1, 4);
  check(isequal(s.imu_orientation, [1 0 0 0]), 'imu_orientation');
  % The arm hangs still: its IMU reads gravity, upwards.
  check(abs(s.imu_linear_acc(3) - 9.81) < 1, 'imu_linear_acc %s', ...
        num2str(s.imu_linear_acc));
  status = hxctl_json(ctx, 'status');
  check(abs(s.time_stamp - status.time) < 1, 'time_stamp %g, the server %g', ...
        s.time_stamp, status.time);
end

function t_update(ctx)
  % Gazebo's command: all ten fields, rows, the unused ones empty.
  cmd = struct('ref_pos', [0.4 0.8], 'ref_pos_enabled', 1, ...
               'ref_vel', [], 'ref_vel_enabled', 0, ...
               'ref_vel_max', [], 'ref_vel_max_enabled', 0, ...
               'gain_pos', [], 'gain_pos_enabled', 0, ...
               'gain_vel', [], 'gain_vel_enabled', 0);
  s = hx_update(cmd);
  check_size(s.joint_pos, 'joint_pos', 2, 1);
  ctrl = hxctl_json(ctx, 'ctrl');
  check_near(ctrl.ctrl, [0.4 0.8], 1e-6, 'ctrl after a row');
  % Columns work too, and a command of fewer fields.
  hx_update(struct('ref_pos', [0.2; 0.6], 'ref_pos_enabled', 1));
  ctrl = hxctl_json(ctx, 'ctrl');
  check_near(ctrl.ctrl, [0.2 0.6], 1e-6, 'ctrl after a column');
  wait_sim(0.5);
  s = hx_read_sensors();
  check(abs(s.joint_pos(2) - 0.6) < 0.1, 'index_MCP at %g, not 0.6', ...
        s.joint_pos(2));
  % One number past the motors, as OSRF's own controllers send
  % (for n = 0:motor_count): left out, as Gazebo's hxgz left it.
  hx_update(struct('ref_pos', [0.3 0.5 9], 'ref_pos_enabled', 1));
  ctrl = hxctl_json(ctx, 'ctrl');
  check_near(ctrl.ctrl, [0.3 0.5], 1e-6, 'ctrl after one number too many');
  expect_error(@() hx_update(struct('ref_pos', 1, 'ref_pos_enabled', 1)), ...
               'HAPTIX:hx_update', 'mjCOM_BADSIZE', ...
               'command.ref_pos is 1x1 where the robot has 2 motors');
  expect_error(@() hx_update(struct('ref_pos', ones(2), 'ref_pos_enabled', 1)), ...
               'HAPTIX:hx_update', 'mjCOM_BADSIZE', 'is 2x2');
  expect_error(@() hx_update(struct('ref_pos', [NaN 0], 'ref_pos_enabled', 1)), ...
               'HAPTIX:hx_update', 'command.ref_pos(1) is NaN');
  expect_error(@() hx_update(struct('ref_pos', [0 0], 'ref_pos_enable', 1)), ...
               'HAPTIX:hx_update', 'no field ''ref_pos_enable''');
  expect_error(@() hx_update(struct('gain_pos_enabled', 1)), ...
               'HAPTIX:hx_update', 'no field ''gain_pos''');
  expect_error(@() hx_update(7), 'HAPTIX:hx_update', '1x1 struct');
  % Negative gains are the library's to refuse.
  expect_error(@() hx_update(struct('gain_pos', [-1 1], ...
                                    'gain_pos_enabled', 1)), ...
               'HAPTIX:hx_update', 'mjCOM_BADVALUE');
  hx_update(struct('ref_pos', [0 0], 'ref_pos_enabled', 1));
end

function t_sim_info(ctx)
  hxctl(ctx, 'pause');
  info = hxs_sim_info();
  check_fields(info, 'sim_info', {'models', 'camera_transform'});
  check(isequal(size(info.models), [4 1]), 'models is %dx%d', ...
        size(info.models, 1), size(info.models, 2));
  check_fields(info.models, 'models', {'model'});
  names = {'table', 'wood_cube_5cm', 'mocap', 'mpl_haptix_right_forearm'};
  links = [1 1 1 3];
  joints = [0 0 0 2];
  for i = 1:4
    m = info.models(i).model;
    check_fields(m, 'model', {'name', 'transform', 'links', 'joints', ...
                              'gravity_mode'});
    check(strcmp(m.name, names{i}), 'model %d is %s', i, m.name);
    check(isequal(size(m.links), [links(i) 1]), '%s has %d links', m.name, ...
          numel(m.links));
    check(isequal(size(m.joints), [joints(i) 1]), '%s has %d joints', ...
          m.name, numel(m.joints));
    check(m.gravity_mode == 1, '%s: gravity_mode %g', m.name, m.gravity_mode);
    check_fields(m.transform, 'transform', {'pos', 'orient'});
    check_size(m.transform.pos, 'pos', 3, 1);
    check_size(m.transform.orient, 'orient', 4, 1);
  end
  arm = info.models(4).model;
  check_fields(arm.links, 'links', {'link'});
  check_fields(arm.joints, 'joints', {'joint'});
  check_fields(arm.links(2).link, 'link', {'name', 'transform', 'lin_vel', ...
    'ang_vel', 'lin_acc', 'ang_acc'});
  check_size(arm.links(2).link.lin_acc, 'lin_acc', 3, 1);
  check(strcmp(arm.links(2).link.name, 'palm'), 'link 2 is %s', ...
        arm.links(2).link.name);
  j = arm.joints(2).joint;   % as Gazebo's example picks its hand_joint
  check_fields(j, 'joint', {'name', 'pos', 'vel', 'acc', 'torque_motor', ...
                            'wrench_reactive'});
  check_fields(j.wrench_reactive, 'wrench', {'force', 'torque'});
  check(strcmp(arm.joints(1).joint.name, 'wrist_PRO') && ...
        strcmp(j.name, 'index_MCP'), 'joints %s, %s', ...
        arm.joints(1).joint.name, j.name);
  % Against the C library's view of the cube and the arm's joint.
  cube = hxctl_json(ctx, 'body wood_cube_5cm');
  check_near(info.models(2).model.transform.pos, cube.pos, 1e-6, 'cube pos');
  check_near(info.models(2).model.transform.orient, cube.quat, 1e-6, ...
             'cube orient');
  joint = hxctl_json(ctx, 'joint index_MCP');
  check_near(j.pos, joint.qpos, 1e-6, 'index_MCP');
  % As Gazebo's example walks the models.
  n = 0;
  for model_idx = 1:size(info.models, 1)
    n = n + numel(info.models(model_idx).model.links);
  end
  check(n == 6, '%d links in all', n);
  check_size(info.camera_transform.pos, 'camera pos', 3, 1);
end

function t_camera(ctx)
  tx = hxs_camera_transform();
  check_fields(tx, 'camera', {'pos', 'orient'});
  cam = hxctl_json(ctx, 'camera');
  check_near(tx.pos, cam.pos, 1e-5, 'camera pos');
  new_tx = tx;
  new_tx.pos(3) = new_tx.pos(3) + 1;
  new_tx.orient = [0 1 0 0]';
  hxs_set_camera_transform(new_tx);
  got = hxs_camera_transform();
  check_near(got.pos, new_tx.pos, 1e-5, 'camera pos set');
  check_near(got.orient, [0; 1; 0; 0], 1e-6, 'camera orient set');
  cam = hxctl_json(ctx, 'camera');
  check_near(cam.pos, new_tx.pos, 1e-5, 'hxctl camera pos');
  check_near(cam.quat, [0 1 0 0], 1e-6, 'hxctl camera quat');
  % Rows, and a quaternion not of unit length.
  hxs_set_camera_transform(struct('pos', [1 2 3], 'orient', [2 0 0 0]));
  got = hxs_camera_transform();
  check_near(got.pos, [1 2 3], 1e-6, 'camera from rows');
  check_near(got.orient, [1 0 0 0], 1e-6, 'camera orient normalized');
  hxs_set_camera_transform(tx);
end

function t_transform(ctx)
  hxctl(ctx, 'pause');
  t = hxs_model_transform('wood_cube_5cm');
  t.pos = [0.1 0.2 0.9];
  t.orient = [cos(pi/8) 0 0 sin(pi/8)];
  hxs_set_model_transform('wood_cube_5cm', t);
  got = hxs_model_transform('wood_cube_5cm');
  check_size(got.pos, 'pos', 3, 1);
  check_near(got.pos, [0.1 0.2 0.9], 1e-6, 'cube pos');
  check_near(got.orient, [cos(pi/8) 0 0 sin(pi/8)], 1e-6, 'cube orient');
  cube = hxctl_json(ctx, 'body wood_cube_5cm');
  check_near(cube.pos, [0.1 0.2 0.9], 1e-6, 'hxctl cube pos');
  % The arm is welded to its mocap body: moving one moves the other.
  arm_tx = struct('pos', [0.5, 0, 1.5], 'orient', [1, 0, 0, 0]);
  hxs_set_model_transform('mpl_haptix_right_forearm', arm_tx);
  got = hxs_model_transform('mpl_haptix_right_forearm');
  check_near(got.pos, [0.5 0 1.5], 1e-5, 'arm pos');
  mocap = hxctl_json(ctx, 'mocap');
  % The weld holds the arm a little below its mocap body: they move as one.
  check_near(mocap.pos, [0.5 0 1.5], 1e-2, 'the arm''s mocap body');
  hxs_reset(1);
end

function t_color(ctx)
  old = hxs_model_color('table');
  check_size(old, 'color', 4, 1);
  hxs_set_model_color('table', [0.2 0.4 0.6 1]);
  check_near(hxs_model_color('table'), [0.2 0.4 0.6 1], 1e-6, 'row');
  rgba = hxctl_json(ctx, 'rgba geom table_leg3');
  check_near(rgba.rgba, [0.2 0.4 0.6 1], 1e-6, 'hxctl table_leg3');
  hxs_set_model_color('table', [1; 0; 0; 1]);
  check_near(hxs_model_color('table'), [1 0 0 1], 0, 'column');
  expect_error(@() hxs_set_model_color('table', [2 0 0 1]), ...
               'HAPTIX:hxs_set_model_color', 'mjCOM_BADVALUE');
  hxs_set_model_color('table', old);
end

function t_collide(ctx)
  hxctl(ctx, 'pause');
  words = {'none', 'detect', 'collide'};
  for mode = [0 1 2]
    hxs_set_model_collide_mode('wood_cube_5cm', mode);
    got = hxs_model_collide_mode('wood_cube_5cm');
    check(isequal(got, mode), 'collide mode %d read %g', mode, got);
    c = hxctl_json(ctx, 'collide-mode wood_cube_5cm');
    check(strcmp(c.mode, words{mode + 1}), 'hxctl says %s for %d', c.mode, mode);
  end
  expect_error(@() hxs_set_model_collide_mode('wood_cube_5cm', 3), ...
               'HAPTIX:hxs_set_model_collide_mode', 'not an hxsCollideMode');
  expect_error(@() hxs_set_model_collide_mode('wood_cube_5cm', 1.5), ...
               'HAPTIX:hxs_set_model_collide_mode', ...
               'collide_mode is 1.5: not an integer');
end

function t_gravity(ctx)
  check(hxs_model_gravity_mode('wood_cube_5cm') == 1, 'gravity at first');
  hxs_set_model_gravity_mode('wood_cube_5cm', 0);
  check(hxs_model_gravity_mode('wood_cube_5cm') == 0, 'gravity off');
  f = hxctl_json(ctx, 'world-force');
  check(numel(f.gravity_off) == 1 && ...
        strcmp(f.gravity_off(1).name, 'wood_cube_5cm'), ...
        'hxctl: gravity off for %d bodies', numel(f.gravity_off));
  hxs_set_model_gravity_mode('wood_cube_5cm', true);
  check(hxs_model_gravity_mode('wood_cube_5cm') == 1, 'gravity back');
  expect_error(@() hxs_set_model_gravity_mode('wood_cube_5cm', 2), ...
               'HAPTIX:hxs_set_model_gravity_mode', 'not 0 (off) or 1 (on)');
end

function t_joint(ctx)
  hxctl(ctx, 'pause');
  hand = 'mpl_haptix_right_forearm';
  hxs_set_model_joint_state(hand, 'wrist_PRO', 0.3, 0.1);
  m = hxs_model_joint_state(hand);
  check_fields(m, 'model', {'name', 'transform', 'links', 'joints', ...
                            'gravity_mode'});
  j = m.joints(1).joint;
  check(abs(j.pos - 0.3) < 1e-6 && abs(j.vel - 0.1) < 1e-6, ...
        'wrist_PRO at %g, %g', j.pos, j.vel);
  joint = hxctl_json(ctx, 'joint wrist_PRO');
  check_near(joint.qpos, 0.3, 1e-6, 'hxctl wrist_PRO');
  expect_error(@() hxs_set_model_joint_state(hand, 'elbow', 0, 0), ...
               'HAPTIX:hxs_set_model_joint_state', 'elbow');
  expect_error(@() hxs_set_model_joint_state(hand, 'wrist_PRO', Inf, 0), ...
               'HAPTIX:hxs_set_model_joint_state', 'position is Inf');
  hxs_set_model_joint_state(hand, 'wrist_PRO', 0, 0);
end

function t_velocity(ctx)
  hxctl(ctx, 'pause');
  hxs_set_linear_velocity('wood_cube_5cm', [0.1 0 0]);
  v = hxs_linear_velocity('wood_cube_5cm');
  check_size(v, 'linear velocity', 3, 1);
  check_near(v, [0.1 0 0], 1e-6, 'linear velocity');
  hxs_set_angular_velocity('wood_cube_5cm', [0; 0; 1]);
  check_near(hxs_angular_velocity('wood_cube_5cm'), [0 0 1], 1e-6, ...
             'angular velocity');
  cube = hxctl_json(ctx, 'body wood_cube_5cm');
  check_near(cube.linvel, [0.1 0 0], 1e-6, 'hxctl linvel');
  check_near(cube.angvel, [0 0 1], 1e-6, 'hxctl angvel');
  hxs_set_linear_velocity('wood_cube_5cm', [0, 0, 0]);
  hxs_set_angular_velocity('wood_cube_5cm', [0, 0, 0]);
  expect_error(@() hxs_set_linear_velocity('wood_cube_5cm', [1 2]), ...
               'HAPTIX:hxs_set_linear_velocity', 'mjCOM_BADSIZE', ...
               'velocity is 1x2');
  expect_error(@() hxs_set_angular_velocity('table', [0 0 1]), ...
               'HAPTIX:hxs_set_angular_velocity', 'table');
end

function t_contacts(ctx)
  hxs_reset(1);
  wait_sim(0.3);
  c = hxs_contacts('wood_cube_5cm');
  check(size(c, 2) == 1 && size(c, 1) >= 1, 'contacts is %dx%d', ...
        size(c, 1), size(c, 2));
  check_fields(c, 'contacts', {'link1', 'link2', 'point', 'normal', ...
                               'distance', 'wrench'});
  for i = 1:numel(c)
    check(strcmp(c(i).link1, 'wood_cube_5cm') && strcmp(c(i).link2, 'table'), ...
          'contact %d: %s on %s', i, c(i).link1, c(i).link2);
    check_size(c(i).point, 'point', 3, 1);
    check(abs(norm(c(i).normal) - 1) < 1e-4, 'normal %s', num2str(c(i).normal'));
    check(c(i).distance > -1e-6 && c(i).distance < 0.005, 'distance %g', ...
          c(i).distance);
    check_fields(c(i).wrench, 'wrench', {'force', 'torque'});
  end
  % The cube's weight, 0.1 kg, rests on them.
  f = 0;
  for i = 1:numel(c)
    f = f + c(i).wrench.force(3);
  end
  check(abs(f - 0.981) < 0.1, 'the contacts carry %g N', f);
  con = hxctl_json(ctx, 'contacts');
  check(con.ncon >= numel(c), 'hxctl: %d contacts, hxs_contacts %d', ...
        con.ncon, numel(c));
  none = hxs_contacts('mocap');
  check(isequal(size(none), [0 1]) && isstruct(none), 'mocap''s contacts');
end

function t_forces(ctx)
  hxs_reset(1);
  wait_sim(0.2);
  % Enough to overcome the friction of its four corners on the table.
  hxs_apply_torque('wood_cube_5cm', 'link', [0 0 0.05], 0.05);
  wait_sim(0.03);
  w = hxs_angular_velocity('wood_cube_5cm');
  check(w(3) > 1, 'a torque about z turned it at %g rad/s', w(3));
  hxs_apply_force('wood_cube_5cm', 'link', [0; 0; 2], 0.05);
  wait_sim(0.03);
  v = hxs_linear_velocity('wood_cube_5cm');
  check(v(3) > 0.05, 'a force up lifted it at %g m/s', v(3));
  wrench = struct('force', [0; 0; 0], 'torque', [0, 0, 0]);
  hxs_apply_wrench('wood_cube_5cm', 'link', wrench, 0.01);
  expect_error(@() hxs_apply_wrench('wood_cube_5cm', 'link', ...
                                    struct('force', [0 0 0]), 1), ...
               'HAPTIX:hxs_apply_wrench', 'wrench lacks the field ''torque''');
  expect_error(@() hxs_apply_wrench('wood_cube_5cm', 'link', ...
                 struct('force', [0 0 0], 'torque', [0 0 0], 'at', 1), 1), ...
               'HAPTIX:hxs_apply_wrench', 'wrench has no field ''at''');
  expect_error(@() hxs_apply_force('wood_cube_5cm', 'handle', [0 0 1], 1), ...
               'HAPTIX:hxs_apply_force', 'handle');
  expect_error(@() hxs_apply_force('wood_cube_5cm', 'link', [0 0 1], -1), ...
               'HAPTIX:hxs_apply_force', 'mjCOM_BADVALUE');
  hxs_reset(1);
end

function t_add_remove(ctx)
  m = hxs_add_model(cricket_ball(), 'green_cricket_ball', [0; 0; 5], ...
                    [0; 0; 0], 1);
  check_fields(m, 'model', {'name', 'transform', 'links', 'joints', ...
                            'gravity_mode'});
  check(strcmp(m.name, 'green_cricket_ball') && numel(m.links) == 1, ...
        'added %s with %d links', m.name, numel(m.links));
  check(any(strcmp(model_names(), 'green_cricket_ball')), 'not in sim_info');
  info = hxctl_json(ctx, 'info');
  check(any(strcmp({info.bodies.name}, 'green_cricket_ball')), ...
        'hxctl info has no green_cricket_ball');
  check_near(hxs_model_color('green_cricket_ball'), [0 1 0 1], 1e-6, ...
             'Gazebo/Green');
  check(m.transform.pos(3) > 4, 'the ball is at %g m', m.transform.pos(3));
  hxs_remove_model('green_cricket_ball');
  check(numel(model_names()) == 4, 'the ball is still there');
  expect_error(@() hxs_remove_model('green_cricket_ball'), ...
               'HAPTIX:hxs_remove_model', 'green_cricket_ball');
  % Rows, gravity off.
  m = hxs_add_model(cricket_ball(), 'ball2', [0.3 0.3 1], [0 0 0], 0);
  check(m.gravity_mode == 0, 'gravity_mode %g', m.gravity_mode);
  hxs_remove_model('ball2');
  expect_error(@() hxs_add_model(cricket_ball(), 'b', [0 0], [0 0 0], 1), ...
               'HAPTIX:hxs_add_model', 'pos is 1x2');
  expect_error(@() hxs_add_model(cricket_ball(), 'b', [0 0 1], [0 NaN 0], 1), ...
               'HAPTIX:hxs_add_model', 'orient(2) is NaN');
end

function t_revolute(ctx)
  before = equalities(ctx);
  hxs_add_constraint(example_constraint(), 'wood_cube_5cm');
  eq = equalities(ctx);
  check(any(strcmp(eq, 'test_constraint')) && ...
        any(strcmp(eq, 'test_constraint#axis')), ...
        'the equalities are {%s}', strjoin(eq, ' '));
  info = hxctl_json(ctx, 'info');
  k = find(strcmp(eq, 'test_constraint#axis'));
  check(strcmp(info.equalities(k).type, 'connect'), 'a %s', ...
        info.equalities(k).type);
  wait_sim(0.1);
  hxs_remove_constraint('test_constraint', 'wood_cube_5cm');
  check(isequal(equalities(ctx), before), 'left {%s}', ...
        strjoin(equalities(ctx), ' '));
  expect_error(@() hxs_remove_constraint('test_constraint', 'wood_cube_5cm'), ...
               'HAPTIX:hxs_remove_constraint', 'test_constraint');
  expect_error(@() hxs_add_constraint(strrep(example_constraint(), ...
                 'revolute', 'prismatic'), 'wood_cube_5cm'), ...
               'HAPTIX:hxs_add_constraint', 'no MuJoCo equality');
  hxs_reset(1);
end

function t_logging(ctx)
  check(hxs_is_logging() == 0, 'logging at first');
  hxs_start_logging('/tmp/');
  check(hxs_is_logging() == 1, 'not logging after the start');
  status = hxctl_json(ctx, 'status');
  check(status.recording.active, 'hxctl status shows no recording');
  expect_error(@() hxs_start_logging('/tmp/'), 'HAPTIX:hxs_start_logging');
  wait_sim(0.1);
  hxs_stop_logging();
  check(hxs_is_logging() == 0, 'logging after the stop');
  expect_error(@() hxs_stop_logging(), 'HAPTIX:hxs_stop_logging');
end

function t_reset(ctx)
  hxs_set_model_transform('wood_cube_5cm', struct('pos', [0.2 0.2 1], ...
                                                  'orient', [1 0 0 0]));
  hxs_reset(1);
  t = hxs_model_transform('wood_cube_5cm');
  check_near(t.pos, [0 0 0.79], 1e-3, 'the cube after the reset');
  % Reset 0 keeps the arm where it was moved.
  hxs_set_model_transform('mpl_haptix_right_forearm', ...
                          struct('pos', [-0.2 0 1.3], 'orient', [1 0 0 0]));
  hxs_reset(0);
  mocap = hxctl_json(ctx, 'mocap');
  check_near(mocap.pos, [-0.2 0 1.3], 1e-2, 'the arm''s mocap after reset(0)');
  hxs_reset(1);
  mocap = hxctl_json(ctx, 'mocap');
  check_near(mocap.pos, [-0.2 0 1.1], 1e-5, 'the arm''s mocap after reset(1)');
end

function t_osrf_calls(ctx)
  % Gazebo's hx_connect.m calls hxgz('connect') with nothing.
  hxgz('connect');
  hxgz('close');
  % Its hx_update.m turns columns into rows and passes all ten fields.
  cmd = struct('ref_pos', [0 0], 'ref_pos_enabled', 1, 'ref_vel', [0 0], ...
               'ref_vel_enabled', 0, 'ref_vel_max', [0 0], ...
               'ref_vel_max_enabled', 0, 'gain_pos', [0 0], ...
               'gain_pos_enabled', 0, 'gain_vel', [0 0], 'gain_vel_enabled', 0);
  sensor = hxgz('update', cmd);
  check_size(sensor.motor_pos, 'motor_pos', 2, 1);
  % Its hxs_add_constraint.m assigns a result the call does not have.
  result = hxgz('add_constraint', example_constraint(), 'wood_cube_5cm');
  check(isempty(result), 'add_constraint gave a result');
  hxgz('remove_constraint', 'test_constraint', 'wood_cube_5cm');
  result = hxgz('add_model', cricket_ball(), 'osrf_ball', [0; 0; 2], ...
                [0; 0; 0], 1);
  check(strcmp(result.name, 'osrf_ball'), 'add_model gave %s', result.name);
  hxgz('remove_model', 'osrf_ball');
  info = hxgz('sim_info');
  check(numel(info.models) == 4, 'sim_info');
  hxgz('set_model_color', 'table', [0,1,0,1]);
  check_near(hxgz('model_color', 'table'), [0 1 0 1], 0, 'model_color');
  hxgz('reset', 1);
end

function t_errors(ctx)
  e = expect_error(@() hxs_model_transform('nosuch'), ...
                   'HAPTIX:hxs_model_transform', 'mjCOM_BADINDEX', 'nosuch');
  expect_error(@() hxs_contacts('nosuch'), 'HAPTIX:hxs_contacts', 'nosuch');
  expect_error(@() hxs_set_model_color('table', [1 0 0]), ...
               'HAPTIX:hxs_set_model_color', 'mjCOM_BADSIZE', 'color is 1x3');
  expect_error(@() hxs_set_model_color('table', [1 0; 0 1]), ...
               'HAPTIX:hxs_set_model_color', 'color is 2x2');
  expect_error(@() hxs_set_linear_velocity('wood_cube_5cm', [NaN 0 0]), ...
               'HAPTIX:hxs_set_linear_velocity', 'mjCOM_BADVALUE', ...
               'velocity(1) is NaN');
  expect_error(@() hxs_set_model_transform('wood_cube_5cm', ...
                 struct('pos', [0 0 Inf], 'orient', [1 0 0 0])), ...
               'HAPTIX:hxs_set_model_transform', 'transform.pos(3) is Inf');
  expect_error(@() hxs_set_model_transform('wood_cube_5cm', ...
                 struct('pos', [0 0 1e40], 'orient', [1 0 0 0])), ...
               'HAPTIX:hxs_set_model_transform', 'float''s range');
  expect_error(@() hxs_set_model_transform('wood_cube_5cm', ...
                 struct('pos', [0 0 1])), ...
               'HAPTIX:hxs_set_model_transform', 'lacks the field ''orient''');
  expect_error(@() hxs_set_model_transform('wood_cube_5cm', ...
                 struct('pos', [0 0 1], 'orient', [0 0 0 0])), ...
               'HAPTIX:hxs_set_model_transform', 'quaternion is zero');
  expect_error(@() hxs_set_camera_transform([1 2 3]), ...
               'HAPTIX:hxs_set_camera_transform', 'transform must be a 1x1 struct');
  expect_error(@() hxs_model_color(42), 'HAPTIX:hxs_model_color', ...
               'model must be a string');
  expect_error(@() hxs_set_model_color('table', [1 0 0 1i]), ...
               'HAPTIX:hxs_set_model_color', 'real double');
  expect_error(@() hxs_apply_force('wood_cube_5cm', 'link', [0 0 1], NaN), ...
               'HAPTIX:hxs_apply_force', 'duration is NaN');
  expect_error(@() hxs_reset('yes'), 'HAPTIX:hxs_reset', ...
               'reset_limb_pose must be a real number');
  try
    [a, b] = hxgz('model_color', 'table');
    error('test:failed', 'two results were given');
  catch err
    check(strcmp(err.identifier, 'HAPTIX:hxgz'), 'two results: %s', err.message);
  end
end

function t_tour(ctx)
  seen = evalc_tour(ctx);
  check(seen.models == 4, '%d models', seen.models);
  check(abs(seen.camera_z(2) - seen.camera_z(1) - 0.5) < 1e-5, 'camera');
  check_near(seen.color, [1 0 0 1], 0, 'the red table');
  check(seen.contacts >= 1, 'no contacts');
  check(seen.pushed(1) > 0.1, 'not pushed: %g m/s', seen.pushed(1));
  check(seen.spun(3) > 1, 'not spun: %g rad/s', seen.spun(3));
  check(seen.gravity == 0 && seen.collide == 1 && seen.logging == 1, ...
        'gravity %g collide %g logging %g', seen.gravity, seen.collide, ...
        seen.logging);
  check_near(seen.moved.pos, [0 0.2 0.8], 1e-2, 'the cube moved');
  check(seen.ball.pos(3) < 1, 'the ball did not fall: %g', seen.ball.pos(3));
  check(abs(seen.joint - 0.3) < 0.05, 'the joint at %g', seen.joint);
  check(isequal(model_names(), {'table', 'wood_cube_5cm', 'mocap', ...
                                'mpl_haptix_right_forearm'}), ...
        'the tour left {%s}', strjoin(model_names(), ' '));
end

% Run hxs_tour quietly, as a test does; its printout is not checked.
function seen = evalc_tour(ctx)
  seen = [];
  out = evalc('seen = hxs_tour(ctx.server);');
  check(~isempty(strfind(out, 'the tour is over')), 'the tour said: %s', out);
end
