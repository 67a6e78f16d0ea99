function rgba = mj_get_rgba(type, id)
% MJ_GET_RGBA  Get the colour of a model element.
%
%  rgba = mj_get_rgba(type, id) returns the 4 x 1 colour of the 'geom',
%  'site', 'tendon' or 'material' with that 0-based id.  An unknown type
%  is haptix:BADTYPE, an id out of range haptix:BADINDEX.

  rgba = mjhx('mj_get_rgba', type, id);
end
