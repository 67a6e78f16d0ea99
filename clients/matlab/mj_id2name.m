function name = mj_id2name(type, id)
% MJ_ID2NAME  Find an object's name by id.
%
%  name = mj_id2name(type, id) returns the name of the object of that
%  type and 0-based id ('' when it has none).  An id out of range is
%  haptix:BADINDEX.

  name = mjhx('mj_id2name', type, id);
end
