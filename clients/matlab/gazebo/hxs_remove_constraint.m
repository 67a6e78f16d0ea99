function hxs_remove_constraint(name, model)
% HXS_REMOVE_CONSTRAINT  Remove a constraint.
%
%  hxs_remove_constraint(name, model) removes the constraint named name
%  that holds the named model (both halves of a revolute one).
%
%  See also hxs_add_constraint.

  hxgz('remove_constraint', name, model);
end
