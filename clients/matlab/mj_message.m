function mj_message(message)
% MJ_MESSAGE  Show a message on the server's viewers.
%
%  mj_message(message) shows the text in hxview's corner; mj_message
%  with no argument clears it.  The server clears it too when the
%  connection that set it closes.

  if nargin < 1
    message = '';
  end
  mjhx('mj_message', message);
end
