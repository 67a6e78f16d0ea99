function mj_set_geomsize(geomid, geomsize)
% MJ_SET_GEOMSIZE  Set a geom's size.
%
%  mj_set_geomsize(geomid, geomsize) sets the three size numbers of the
%  geom with that 0-based id, as MJCF's size attribute.

  mjhx('mj_set_geomsize', geomid, geomsize);
end
