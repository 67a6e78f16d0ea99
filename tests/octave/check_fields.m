function check_fields(s, what, names)
% CHECK_FIELDS  Fail unless struct s has exactly the fields names, in order.
  got = fieldnames(s)';
  check(isequal(got, names), '%s has fields {%s}, expected {%s}', what, ...
        strjoin(got, ' '), strjoin(names, ' '));
end
