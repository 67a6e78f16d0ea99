function hxs_set_camera_transform(transform)
% HXS_SET_CAMERA_TRANSFORM  Move the view camera the viewers share.
%
%  hxs_set_camera_transform(transform) puts the camera at transform.pos
%  with orientation transform.orient (w, x, y, z; not zero).  A reset
%  puts it back.
%
%  The structs are described by help hxs_sim_info.
%  See also hxs_camera_transform.

  hxgz('set_camera_transform', transform);
end
