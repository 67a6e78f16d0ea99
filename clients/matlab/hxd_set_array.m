function hxd_set_array(name, values, offset)
% HXD_SET_ARRAY  Write into an mjModel or mjData array by name (haptixd extension).
%
%  hxd_set_array(name, values) writes values from the start of the array;
%  hxd_set_array(name, values, offset) from element offset (0-based,
%  counted row by row as MuJoCo keeps the array).  A matrix is taken row
%  by row, so the matrix hxd_get_array returns goes back as it came:
%
%    rgba = hxd_get_array('geom_rgba');
%    rgba(2, :) = [1 0 0 1];
%    hxd_set_array('geom_rgba', rgba);
%
%  Past the array is haptix:BADSIZE, a value the array cannot take
%  haptix:BADVALUE, an array unsafe to write haptix:DENIED with the
%  reason.

  if nargin < 3
    offset = 0;
  end
  mjhx('hxd_set_array', name, values, offset);
end
