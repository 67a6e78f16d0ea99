function hxs_set_model_color(model, color)
% HXS_SET_MODEL_COLOR  Colour a model.
%
%  hxs_set_model_color(model, color) gives every geom of the named model
%  the colour color: red, green, blue and alpha, each from 0 to 1 (4
%  numbers, a row or a column).
%
%  See also hxs_model_color.

  hxgz('set_model_color', model, color);
end
