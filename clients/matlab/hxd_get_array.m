function values = hxd_get_array(name)
% HXD_GET_ARRAY  Get an mjModel or mjData array by name (haptixd extension).
%
%  values = hxd_get_array(name) returns the array as a rows x cols matrix,
%  as MuJoCo sizes it: hxd_get_array('geom_rgba') is ngeom x 4,
%  hxd_get_array('qpos') nq x 1.  'model.' or 'data.' may prefix the
%  name.  An unknown name is haptix:BADTYPE.  See also hxd_set_array,
%  hxd_list_arrays.

  values = mjhx('hxd_get_array', name);
end
