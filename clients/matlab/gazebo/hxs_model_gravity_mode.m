function gravity_mode = hxs_model_gravity_mode(model)
% HXS_MODEL_GRAVITY_MODE  Get whether gravity acts on a model.
%
%  gravity_mode = hxs_model_gravity_mode(model) returns 1 if gravity
%  acts on the named model, 0 if it floats.
%
%  See also hxs_set_model_gravity_mode.

  gravity_mode = hxgz('model_gravity_mode', model);
end
