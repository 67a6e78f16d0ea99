function failed = run_tests(tests, ctx, after_each)
% RUN_TESTS  Run a table of tests: {NAME, @fn; ...}, each fn(ctx).
%
%  Prints 'ok: NAME' or 'FAIL: NAME: why' with where it failed, then
%  'N passed, N failed', and returns the failures.  after_each(ctx)
%  runs after every test, failed or not; its own errors are ignored.
  passed = 0;
  failed = 0;
  for i = 1:size(tests, 1)
    try
      tests{i, 2}(ctx);
      printf('ok: %s\n', tests{i, 1});
      passed = passed + 1;
    catch err
      printf('FAIL: %s: %s (%s)\n', tests{i, 1}, err.message, err.identifier);
      for k = 1:numel(err.stack)
        printf('    at %s line %d\n', err.stack(k).name, err.stack(k).line);
      end
      failed = failed + 1;
    end
    try
      after_each(ctx);
    catch
    end
    fflush(stdout);
  end
  printf('%d passed, %d failed\n', passed, failed);
end
