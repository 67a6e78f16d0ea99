function err = expect_error(f, id, varargin)
% EXPECT_ERROR  Fail unless f() raises an error with identifier id whose
% message holds every one of the words that follow.
  try
    f();
  catch err
    check(strcmp(err.identifier, id), 'expected %s, got %s: %s', id, ...
          err.identifier, err.message);
    for k = 1:numel(varargin)
      check(~isempty(strfind(err.message, varargin{k})), ...
            'the message "%s" does not say "%s"', err.message, varargin{k});
    end
    return;
  end
  error('test:failed', 'expected the error %s, but the call succeeded', id);
end
