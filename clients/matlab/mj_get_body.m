function body = mj_get_body()
% MJ_GET_BODY  Get the frames of all bodies.
%
%  body = mj_get_body returns nbody, time, pos (nbody x 3) and mat
%  (nbody x 9, each row a 3 x 3 matrix in row-major order).

  body = mjhx('mj_get_body');
end
