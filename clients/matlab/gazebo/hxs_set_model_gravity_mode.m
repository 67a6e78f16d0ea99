function hxs_set_model_gravity_mode(model, gravity_mode)
% HXS_SET_MODEL_GRAVITY_MODE  Turn gravity on or off for a model.
%
%  hxs_set_model_gravity_mode(model, gravity_mode) lets gravity act on
%  the named model (1) or cancels its weight (0).
%
%  See also hxs_model_gravity_mode.

  hxgz('set_model_gravity_mode', model, gravity_mode);
end
