function hxs_add_constraint(sdf, model)
% HXS_ADD_CONSTRAINT  Join links of models by a constraint.
%
%  hxs_add_constraint(sdf, model) adds the constraint described by the
%  text sdf, which holds the named model: an SDF <joint> with a name, a
%  <parent> and a <child> ('world', a model, or 'model::link'), of type
%  fixed, ball or revolute (its <axis><xyz> in the child's frame), or an
%  MJCF <weld> or <connect> with a name.  Prismatic and other joints are
%  refused: MuJoCo has no equality for them.
%
%  See also hxs_remove_constraint.

  hxgz('add_constraint', sdf, model);
end
