function mj_set_rgba(type, id, rgba)
% MJ_SET_RGBA  Set the colour of a model element.
%
%  mj_set_rgba(type, id, rgba) sets the colour (4 numbers, clamped to
%  [0, 1]) of the 'geom', 'site', 'tendon' or 'material' with that id.

  mjhx('mj_set_rgba', type, id, rgba);
end
