function id = mj_name2id(type, name)
% MJ_NAME2ID  Find an object's id by name.
%
%  id = mj_name2id(type, name) returns the 0-based id of the object of
%  that type ('body', 'geom', 'site', 'joint', 'tendon', 'actuator',
%  'equality', 'sensor', or any other MuJoCo object type) and name, or
%  -1 if there is none.  An unknown type is haptix:BADTYPE.

  id = mjhx('mj_name2id', type, name);
end
