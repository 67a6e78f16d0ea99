function color = hxs_model_color(model)
% HXS_MODEL_COLOR  Get a model's colour.
%
%  color = hxs_model_color(model) returns the colour of the named
%  model's first geom as drawn (4 x 1: red, green, blue, alpha).
%
%  See also hxs_set_model_color.

  color = hxgz('model_color', model);
end
