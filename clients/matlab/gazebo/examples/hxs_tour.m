function seen = hxs_tour(host)
% HXS_TOUR  A walk through every call of Gazebo HAPTIX's World API.
%
%  seen = hxs_tour(host) connects to host ('' or none: the default
%  server) and, on a world with a 'table', a free cube 'wood_cube_5cm'
%  and an arm 'mpl_haptix_right_forearm' (haptixd's
%  models/test/gazebo_world.xml, or Gazebo HAPTIX's arm world), calls
%  each hxs_ function once or more, printing what it sees.  It returns
%  a struct of what it read, for a test to check.  It takes about 5 s of
%  simulated time; the server must be running, not paused.
%
%  Run it with the directory of hxgz (and this file's parent) on the
%  path:  addpath('/usr/local/share/haptixd/matlab/gazebo')

  if nargin < 1
    host = '';
  end
  try
    hx_connect(host);
  catch err
    % Connected already (any call connects on first use): go on.
    if isempty(strfind(err.message, 'already connected'))
      rethrow(err);
    end
  end

  % The world: models, their links and joints.
  info = hxs_sim_info();
  fprintf('%d models:\n', numel(info.models));
  for i = 1:numel(info.models)
    m = info.models(i).model;
    fprintf('  %-26s %d links, %d joints, at %.2f %.2f %.2f\n', m.name, ...
            numel(m.links), numel(m.joints), m.transform.pos);
  end
  seen.models = numel(info.models);

  % The camera: up 0.5 m and back.
  cam = hxs_camera_transform();
  up = cam;
  up.pos(3) = up.pos(3) + 0.5;
  hxs_set_camera_transform(up);
  moved = hxs_camera_transform();
  seen.camera_z = [cam.pos(3), moved.pos(3)];
  hxs_set_camera_transform(cam);

  % Colour the table red, read it back.
  old = hxs_model_color('table');
  hxs_set_model_color('table', [1 0 0 1]);
  seen.color = hxs_model_color('table');
  fprintf('table colour %.2f %.2f %.2f %.2f\n', seen.color);
  hxs_set_model_color('table', old);

  % The cube rests on the table: its contacts.
  wait_sim(0.2);
  c = hxs_contacts('wood_cube_5cm');
  fprintf('the cube has %d contacts\n', numel(c));
  for i = 1:numel(c)
    fprintf('  %s on %s, %.4f m deep\n', c(i).link1, c(i).link2, c(i).distance);
  end
  seen.contacts = numel(c);

  % Push it along x, spin it about z, then both at once: harder than
  % its friction on the table holds (it weighs about 1 N).
  hxs_apply_force('wood_cube_5cm', 'link', [2; 0; 0], 0.1);
  wait_sim(0.05);
  seen.pushed = hxs_linear_velocity('wood_cube_5cm');
  hxs_apply_torque('wood_cube_5cm', 'link', [0 0 0.05], 0.05);
  wait_sim(0.03);
  seen.spun = hxs_angular_velocity('wood_cube_5cm');
  hxs_apply_wrench('wood_cube_5cm', 'link', ...
                   struct('force', [0; 0; 0.5], 'torque', [0; 0; 0]), 0.05);
  fprintf('pushed: %.3f m/s, spun: %.3f rad/s\n', seen.pushed(1), seen.spun(3));

  % Set its velocities directly, then still it.
  hxs_set_linear_velocity('wood_cube_5cm', [0; 0.2; 0]);
  hxs_set_angular_velocity('wood_cube_5cm', [0, 0, 1]);
  hxs_set_linear_velocity('wood_cube_5cm', [0 0 0]);
  hxs_set_angular_velocity('wood_cube_5cm', [0 0 0]);

  % Float it: gravity off, a nudge up, gravity back.
  hxs_set_model_gravity_mode('wood_cube_5cm', 0);
  seen.gravity = hxs_model_gravity_mode('wood_cube_5cm');
  hxs_apply_force('wood_cube_5cm', 'link', [0 0 0.2], 0.05);
  wait_sim(0.2);
  hxs_set_model_gravity_mode('wood_cube_5cm', 1);

  % Put it back on the table, turned 45 degrees about z.
  t = hxs_model_transform('wood_cube_5cm');
  t.pos = [0; 0.2; 0.8];
  t.orient = [cos(pi/8); 0; 0; sin(pi/8)];
  hxs_set_model_transform('wood_cube_5cm', t);
  seen.moved = hxs_model_transform('wood_cube_5cm');

  % Collide modes: detection only, then back.
  hxs_set_model_collide_mode('wood_cube_5cm', 1);
  seen.collide = hxs_model_collide_mode('wood_cube_5cm');
  hxs_set_model_collide_mode('wood_cube_5cm', 2);

  % A ball of SDF dropped from 1 m, then removed.
  sdf = ['<sdf version="1.5"><model name="ball"><link name="link">' ...
         '<inertial><mass>0.1</mass></inertial><collision name="c">' ...
         '<geometry><sphere><radius>0.03</radius></sphere></geometry>' ...
         '</collision><visual name="v"><geometry><sphere><radius>0.03' ...
         '</radius></sphere></geometry></visual></link></model></sdf>'];
  ball = hxs_add_model(sdf, 'tour_ball', [0.2; -0.3; 1.0], [0; 0; 0], 1);
  fprintf('added %s with %d link\n', ball.name, numel(ball.links));
  wait_sim(0.5);
  seen.ball = hxs_model_transform('tour_ball');
  hxs_remove_model('tour_ball');

  % A hinge between the table and the cube, about y, then removed.
  hinge = ['<sdf version="1.5"><joint name="tour_hinge" type="revolute">' ...
           '<parent>table::link</parent><child>wood_cube_5cm::link</child>' ...
           '<axis><xyz>0 1 0</xyz></axis></joint></sdf>'];
  hxs_add_constraint(hinge, 'wood_cube_5cm');
  wait_sim(0.2);
  hxs_remove_constraint('tour_hinge', 'wood_cube_5cm');

  % The arm: its joints, one set, the arm moved.  The first motor's
  % servo is told the same position first: else it pulls the joint back
  % to its old target within milliseconds, before the joint is read.
  arm = hxs_model_joint_state('mpl_haptix_right_forearm');
  j = arm.joints(1).joint;
  robot = hx_robot_info();
  ref = zeros(robot.motor_count, 1);
  ref(1) = 0.3;
  hx_update(struct('ref_pos', ref, 'ref_pos_enabled', 1));
  hxs_set_model_joint_state('mpl_haptix_right_forearm', j.name, 0.3, 0);
  arm = hxs_model_joint_state('mpl_haptix_right_forearm');
  seen.joint = arm.joints(1).joint.pos;
  fprintf('%s at %.3f rad\n', j.name, seen.joint);
  at = hxs_model_transform('mpl_haptix_right_forearm');
  at.pos(3) = at.pos(3) + 0.1;
  hxs_set_model_transform('mpl_haptix_right_forearm', at);

  % A short log.
  hxs_start_logging('/tmp');
  seen.logging = hxs_is_logging();
  wait_sim(0.1);
  hxs_stop_logging();

  % Everything back as the model has it.
  hxs_reset(1);
  fprintf('reset; the tour is over\n');
end

% Let seconds of simulated time pass, from the sensors' time stamps.
function wait_sim(seconds)
  s = hx_read_sensors();
  t0 = s.time_stamp;
  for i = 1:3000
    s = hx_read_sensors();
    if s.time_stamp - t0 >= seconds
      return;
    end
    pause(0.005);
  end
  error('hxs_tour:stalled', 'the simulation did not advance %g s', seconds);
end
