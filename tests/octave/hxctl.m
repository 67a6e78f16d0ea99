function out = hxctl(ctx, args)
% HXCTL  Run hxctl (ctx.hxctl) on the daemon ctx.server; what it printed.
  [status, out] = system(sprintf('%s -s %s %s 2>&1', ctx.hxctl, ctx.server, args));
  check(status == 0, 'hxctl %s: exit %d: %s', args, status, out);
end
