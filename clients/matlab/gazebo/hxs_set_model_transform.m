function hxs_set_model_transform(model, transform)
% HXS_SET_MODEL_TRANSFORM  Move a model.
%
%  hxs_set_model_transform(model, transform) puts the named model at
%  transform (pos and orient, rows or columns).  Free models, mocap
%  bodies and bodies without joints move; a model welded to a mocap body
%  (the arm) takes its mocap body along.
%
%  The structs are described by help hxs_sim_info.
%  See also hxs_model_transform.

  hxgz('set_model_transform', model, transform);
end
