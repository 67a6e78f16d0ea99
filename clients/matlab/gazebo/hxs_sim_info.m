function info = hxs_sim_info()
% HXS_SIM_INFO  Describe the world: its models and the view camera.
%
%  info = hxs_sim_info returns a struct with
%
%    models            n x 1 struct array with one field, model:
%                      info.models(2).model.name
%    camera_transform  the view camera (transform)
%
%  A model here is a body of MuJoCo's worldbody with the bodies below it
%  (its links) and their hinge and slide joints.  The structs of the
%  World API, here and in the other hxs_ calls:
%
%  vector3     3 x 1: x, y, z
%  quaternion  4 x 1: w, x, y, z
%  transform   struct: pos (vector3, m), orient (quaternion)
%  wrench      struct: force (vector3, N), torque (vector3, N m)
%  link        struct: name, transform (relative to its model), lin_vel
%              (m/s), ang_vel (rad/s), lin_acc (m/s^2), ang_acc (rad/s^2)
%  joint       struct: name, pos, vel, acc (rad or m, and per s, s^2),
%              torque_motor (from the actuators), wrench_reactive (from
%              the constraints)
%  model       struct: name, transform (in the world), links (n x 1
%              struct array, field link), joints (n x 1, field joint),
%              gravity_mode (1 if gravity acts on it, else 0)
%  contacts    n x 1 struct array: link1 (the model's link), link2 (what
%              it touches), point and normal (vector3s in link1's frame),
%              distance (penetration depth, m), wrench (on link1 at point)
%  color       4 x 1: red, green, blue, alpha, each from 0 to 1
%  collide mode  0: no collisions, 1: contacts detected but no force,
%              2: collide
%
%  Vectors given to the calls may be rows or columns.
%
%  See also hxs_model_joint_state, hxs_camera_transform, hxs_contacts.

  info = hxgz('sim_info');
end
