function model = hxd_load_file(path, how)
% HXD_LOAD_FILE  Load a model file (haptixd extension).
%
%  model = hxd_load_file(path) loads a model (MJCF, URDF or MJB) from the
%  server's model directories: path is relative to one of them, or an
%  absolute path inside one.  hxd_load_file(path, 'legacy') translates a
%  MuJoCo HAPTIX 1.x model first.  model has the new model's name, path
%  and sizes.  A model that does not load is haptix:LOADFAILED in
%  MuJoCo's words, and the old model stays.  Call hx_robot_info again
%  after loading.

  if nargin < 2
    model = mjhx('hxd_load_file', path);
  else
    model = mjhx('hxd_load_file', path, how);
  end
end
