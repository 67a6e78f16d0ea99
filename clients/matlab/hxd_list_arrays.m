function list = hxd_list_arrays()
% HXD_LIST_ARRAYS  List every mjModel and mjData array (haptixd extension).
%
%  list = hxd_list_arrays returns a struct array with name, owner
%  ('model' or 'data'), type, rows, cols, writable and refusal (why it
%  may not be written).

  list = mjhx('hxd_list_arrays');
end
