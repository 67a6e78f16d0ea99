function v = hxctl_json(ctx, args)
% HXCTL_JSON  What hxctl --json prints for args, decoded: the C library's
% view.  jsondecode may read a number one ulp off its %.17g; compare
% such values with a tolerance, or read them with str2double.
  v = jsondecode(hxctl(ctx, ['--json ' args]));
end
