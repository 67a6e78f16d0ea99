function state = hxs_model_joint_state(model)
% HXS_MODEL_JOINT_STATE  Get a model with the state of its joints.
%
%  state = hxs_model_joint_state(model) returns the named model (a
%  model struct): its links and its joints with their positions,
%  velocities, accelerations and torques.
%
%  The structs are described by help hxs_sim_info.
%  See also hxs_set_model_joint_state, hxs_sim_info.

  state = hxgz('model_joint_state', model);
end
