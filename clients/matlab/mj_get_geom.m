function geom = mj_get_geom()
% MJ_GET_GEOM  Get the frames of all geoms.
%
%  geom = mj_get_geom returns ngeom, time, pos (ngeom x 3) and mat
%  (ngeom x 9, row-major).

  geom = mjhx('mj_get_geom');
end
