function mj_close()
% MJ_CLOSE  Close the connection to haptixd (the same as hx_close).

  mjhx('mj_close');
end
