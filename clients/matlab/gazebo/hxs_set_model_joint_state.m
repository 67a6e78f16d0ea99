function hxs_set_model_joint_state(model, joint, position, velocity)
% HXS_SET_MODEL_JOINT_STATE  Set the position and velocity of a joint.
%
%  hxs_set_model_joint_state(model, joint, position, velocity) sets a
%  hinge (rad, rad/s) or slide (m, m/s) joint of the named model.  A
%  servo on the joint brings it back to its reference afterwards.
%
%  The structs are described by help hxs_sim_info.
%  See also hxs_model_joint_state.

  hxgz('set_model_joint_state', model, joint, position, velocity);
end
