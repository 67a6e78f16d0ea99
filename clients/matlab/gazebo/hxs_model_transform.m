function transform = hxs_model_transform(model)
% HXS_MODEL_TRANSFORM  Get a model's transform in the world.
%
%  transform = hxs_model_transform(model) returns where the named model
%  is and its orientation (a transform).
%
%  The structs are described by help hxs_sim_info.
%  See also hxs_set_model_transform.

  transform = hxgz('model_transform', model);
end
