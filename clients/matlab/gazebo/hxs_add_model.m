function model = hxs_add_model(sdf, name, pos, orient, gravity_mode)
% HXS_ADD_MODEL  Add a model to the world.
%
%  model = hxs_add_model(sdf, name, pos, orient, gravity_mode) adds the
%  model described by the text sdf under the new name name, at position
%  pos (3 numbers, m) with orientation orient (roll, pitch, yaw about the
%  fixed axes, rad), with gravity (gravity_mode 1) or without (0), and
%  returns it (a model struct).
%
%  The text may be MJCF (a <mujoco> document whose worldbody's first body
%  becomes the model) or SDF of one link made of boxes, spheres and
%  cylinders; docs/compat.md lists what SDF is understood.
%
%  The structs are described by help hxs_sim_info.
%  See also hxs_remove_model.

  model = hxgz('add_model', sdf, name, pos, orient, gravity_mode);
end
