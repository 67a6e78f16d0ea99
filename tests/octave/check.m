function check(cond, varargin)
% CHECK  Fail the test (error test:failed, message as sprintf) unless cond.
  if ~cond
    error('test:failed', varargin{:});
  end
end
