function hxs_remove_model(model)
% HXS_REMOVE_MODEL  Remove a model from the world.
%
%  hxs_remove_model(model) removes the named model and everything that
%  refers to it (constraints, actuators, sensors).
%
%  See also hxs_add_model.

  hxgz('remove_model', model);
end
